"""Input an attacker would send: every answer is a 4xx problem or a success, never a 5xx, and no
answer carries a state the engine's own checks refuse.

The inputs the hardening issue found first are listed one by one; then hypothesis sends random
JSON (lone surrogates and deep nesting included) to every endpoint, and random mutations of real
open-mode states to the game endpoints.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from thirtyone.bots import RandomBot
from thirtyone.game import GameState, apply_move, legal_moves, new_game, view

from .test_problems import PROBLEM, assert_problem

POST_ENDPOINTS = (
    "/v1/hands/score", "/v1/hands/compare", "/v1/hands/score-batch", "/v1/games",
    "/v1/games/view", "/v1/games/validate", "/v1/games/moves", "/v1/race/solve",
)
GAME_ENDPOINTS = ("/v1/games/view", "/v1/games/validate", "/v1/games/moves")
SETTINGS = settings(max_examples=100, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


def post(client, path, body: bytes):
    return client.post(path, data=body, content_type="application/json")


def _played(variant, players, moves, seed="hostile", **options):
    """An open-mode state of ``variant`` after ``moves`` random moves (or the match's end)."""
    state = new_game(variant, players, seed=seed, dealer=0, options=options or None)
    bot = RandomBot(seed)
    for _ in range(moves):
        if state.is_over:
            break
        seat = state.to_move
        state, _ = apply_move(state, bot.choose(view(state, seat), legal_moves(state)))
    return state


def _settled(variant, players, **options):
    state = _played(variant, players, 0, **options)
    bot = RandomBot("settle")
    while state.phase != "round_over" and not state.is_over:
        state, _ = apply_move(state, bot.choose(view(state, state.to_move), legal_moves(state)))
    return state.to_dict()


# The inputs found first, one by one

SURROGATE_BODIES = [
    b'{"\\ud800": 1}',
    b'{"variant": "scat", "players": 3, "seed": "\\udfff"}',
    b'{"hand": ["AS", "KS", "QS"], "options": {"\\ud800": 1}}',
    b'{"token": "abc", "seat": 0, "seat_key": "\\ud800"}',
]


@pytest.mark.parametrize("path", POST_ENDPOINTS)
@pytest.mark.parametrize("body", SURROGATE_BODIES)
def test_a_lone_surrogate_anywhere_is_400(client, path, body):
    assert_problem(post(client, path, body), 400, "malformed_json")


@pytest.fixture(scope="module")
def settled():
    return {variant: _settled(variant, 3) for variant in ("scat", "schnautz", "bank",
                                                          "no-trips", "switch")}


@pytest.mark.parametrize("variant", ["schnautz", "bank", "no-trips", "scat"])
@pytest.mark.parametrize("result", [{"carry": 5}, {"hands": 5}, {"round": 1, "hands": [5]}])
@pytest.mark.parametrize("path", GAME_ENDPOINTS)
def test_a_result_of_the_wrong_shape_is_422(client, settled, variant, result, path):
    state = {**settled[variant], "result": result}
    body = {"state": state, "seat": 0}
    if path != "/v1/games/view":
        body["move"] = {"type": "next_round"}
    problem = assert_problem(client.post(path, json=body), 422, "bad_result")
    assert problem["errors"][0]["field"].startswith("state.result")


def _nested(levels: int, inner: str = "[]") -> str:
    return "[" * levels + inner + "]" * levels


@pytest.mark.parametrize(("levels", "copies", "code"), [
    (200, 1000, "too_many_values"), (200, 40, "bad_history"), (900, 4, "bad_history"),
    (1100, 1, "malformed_json")])
@pytest.mark.parametrize("path", GAME_ENDPOINTS)
def test_a_deeply_nested_history_is_refused(client, settled, levels, copies, code, path):
    # ~1 MB at 200 levels and 1000 copies: wide as well as deep.
    wide = ",".join([_nested(levels)] * copies)
    state = json.dumps({**settled["scat"], "history": "HISTORY"})
    move = ', "move": {"type": "knock"}' if path != "/v1/games/view" else ""
    body = '{"state": ' + state.replace(
        '"HISTORY"', f'[{{"seat": 0, "type": [{wide}]}}]') + move + "}"
    response = post(client, path, body.encode())
    status = 400 if code in ("malformed_json", "too_many_values") else 422
    assert_problem(response, status, code)


@pytest.mark.parametrize(("change", "code"), [
    (lambda d: d.update(phase="game_over", winners=[0]) or d["result"].update(winners=[0]),
     "bad_winners"),
    (lambda d: d["seats"][0].update(points=10**9), "bad_points"),
    (lambda d: d["seats"][0].update(chips=-2) or d.update(pot=2), "chips_not_conserved"),
    (lambda d: d.update(round=10**12), "bad_round"),
    (lambda d: d.update(seed="s" * 900_000), "bad_seed"),
])
def test_impossible_open_mode_states_are_422(client, settled, change, code):
    state = copy.deepcopy(settled["scat"])
    change(state)
    assert_problem(client.post("/v1/games/view", json={"state": state}), 422, code)


def test_a_number_beyond_any_count_is_not_read(client, settled):
    # 10**4000 overflows a double: orjson refuses it as it reads the body.
    state = {**settled["scat"], "round": 10**4000}
    assert_problem(client.post("/v1/games/view", json={"state": state}), 400, "malformed_json")
    state = {**settled["scat"], "round": 2**64}
    assert_problem(client.post("/v1/games/view", json={"state": state}), 422, "bad_state")


def test_switch_with_every_table_card_face_up_before_the_keep_is_422(client):
    state = new_game("switch", 3, seed="hostile", dealer=0).to_dict()
    state["table_face_up"] = [True] * len(state["table"])
    assert_problem(client.post("/v1/games/view", json={"state": state}), 422, "bad_table")


# Random JSON to every endpoint

_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=12)
_SCALARS = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(
    allow_nan=False, allow_infinity=False) | _TEXT | st.sampled_from(
    ["AS", "X1", "10H", "scat", "jokers", "stock", "draw", "knock", "next_round"])
_JSON = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    _TEXT | st.sampled_from(["type", "seat", "card", "hand", "options", "state"]), inner,
    max_size=4), max_leaves=20)
_FIELDS = st.sampled_from(["variant", "options", "hand", "hands", "players", "seed", "dealer",
                           "sealed", "token", "state", "seat", "seat_key", "move", "goal",
                           "target", "total"])
_BODIES = st.dictionaries(_FIELDS, _JSON, max_size=6) | _JSON


def _encode(value, depth):
    text = json.dumps(value, ensure_ascii=True)
    return (("[" * depth) + text + ("]" * depth)).encode()


def assert_sound(response):
    assert response.status_code < 500, response.get_data(as_text=True)[:500]
    if response.status_code >= 400:
        assert response.mimetype == PROBLEM and response.json["code"]
    elif response.is_json and isinstance(response.json.get("state"), dict):
        GameState.from_dict(response.json["state"])


@SETTINGS
@given(body=_BODIES, depth=st.sampled_from([0, 0, 0, 3, 300, 1030]),
       path=st.sampled_from(POST_ENDPOINTS))
def test_random_json_never_gets_a_5xx(client, body, depth, path):
    assert_sound(post(client, path, _encode(body, depth)))


# Random mutations of real open-mode states

@pytest.fixture(scope="module")
def real_states():
    states = []
    for variant, players in (("scat", 3), ("blitz", 4), ("schnautz", 5), ("bank", 3),
                             ("trentuno", 4), ("jokers", 3), ("no-trips", 3), ("switch", 3),
                             ("stop-the-bus", 3), ("race", 2), ("no-elimination", 3)):
        for moves in (0, 7, 40):
            states.append(_played(variant, players, moves, seed=f"{variant}{moves}").to_dict())
        states.append(_settled(variant, players))
    return states


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


def _mutate(state, rng, replacement):
    state = copy.deepcopy(state)
    paths = [path for path in _paths(state) if path]
    for _ in range(rng.randint(1, 3)):
        *parent_path, last = rng.choice(paths)
        parent = state
        for key in parent_path:
            parent = parent[key]
        kind = rng.random()
        try:
            if kind < 0.15 and isinstance(parent, dict):
                del parent[last]
            elif kind < 0.3 and isinstance(parent, list):
                parent.append(copy.deepcopy(parent[last]))
            elif kind < 0.5:
                # Another value of the same state: a card, a seat, a count from elsewhere.
                source = state
                for key in rng.choice(paths):
                    source = source[key]
                parent[last] = copy.deepcopy(source)
            elif kind < 0.7 and isinstance(parent[last], int) and not isinstance(
                    parent[last], bool):
                parent[last] += rng.choice([-1, 1, 2, 10**6, -(10**6)])
            else:
                parent[last] = copy.deepcopy(replacement)
        except (KeyError, IndexError, TypeError):
            continue
        paths = [path for path in _paths(state) if path]
    return state


@SETTINGS
@given(index=st.integers(0, 10**6), seed=st.integers(0, 2**32), replacement=_JSON,
       seat=st.none() | st.integers(-1, 6), path=st.sampled_from(GAME_ENDPOINTS))
def test_mutated_states_never_get_a_5xx_or_a_bad_state(client, real_states, index, seed,
                                                       replacement, seat, path):
    rng = random.Random(seed)
    original = real_states[index % len(real_states)]
    state = _mutate(original, rng, replacement)
    moves = legal_moves(GameState.from_dict(original)) or [{"type": "knock"}]
    move = rng.choice(moves)
    body = {"state": state, "seat": seat if seat is None or seat >= 0 else None}
    if path != "/v1/games/view":
        body["move"] = move
    # Encoded here: Flask's test client cannot write a lone surrogate as UTF-8 itself.
    response = post(client, path, json.dumps(body).encode())
    assert_sound(response)
    if response.status_code == 200:
        # Accepted: the state sent was one the engine's checks accept too.
        GameState.from_dict(state)


def test_a_body_of_too_many_objects_and_arrays_is_400_before_it_is_read(client, app):
    limit = app.config["BATCH_LIMIT"] + 64
    body = ("[" + ",".join(["[]"] * limit) + "]").encode()
    assert_problem(post(client, "/v1/hands/score-batch", body), 400, "too_many_values")
    # The largest batch the API takes is read.
    hands = json.dumps({"hands": [["AS", "KS", "QS"]] * app.config["BATCH_LIMIT"]}).encode()
    assert post(client, "/v1/hands/score-batch", hands).status_code == 200


def test_the_body_watchdog_calls_what_is_due_and_nothing_cancelled():
    import threading

    from thirtyone.web.connections import Watchdog

    watchdog, fired, done = Watchdog(), [], threading.Event()
    late = watchdog.set(0.2, lambda: (fired.append("late"), done.set()))
    cancelled = watchdog.set(0.05, lambda: fired.append("cancelled"))
    watchdog.set(0.1, lambda: fired.append("soon"))
    watchdog.cancel(cancelled)
    assert done.wait(10)
    watchdog.cancel(late)  # already called: nothing to cancel
    assert fired == ["soon", "late"]
