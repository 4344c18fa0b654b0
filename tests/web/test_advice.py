"""Hints over HTTP: the seat to act gets its moves valued and described in its language."""

from __future__ import annotations

import time

from tests.conftest import calibrated

from thirtyone.advice import advise, advise_view
from thirtyone.game import GameState, apply_move, new_game
from thirtyone.web.i18n import card_name

from .test_tables import bearer, keys_of, make_app, open_table


def _ask(client, game, seat, lang="en", **extra):
    body = {"token": game["token"], "seat": seat, "seat_key": game["seat_keys"][seat],
            "samples": 20, "seed": 4, **extra}
    return client.post(f"/v1/games/advice?lang={lang}", json=body)


def test_the_seat_to_act_gets_every_legal_move_valued(client, start_game):
    game = start_game()
    seat = game["to_move"]
    answer = _ask(client, game, seat).json
    state = new_game("scat", 3, seed="web tests", dealer=0)
    expected = advise(state, seat, samples=20, seed=4)
    assert answer["measure"] == "match" and answer["samples"] == 20
    assert [entry["move"] for entry in answer["moves"]] == [
        entry.move for entry in expected.moves]
    assert [entry["value"] for entry in answer["moves"]] == [
        entry.value for entry in expected.moves]
    assert answer["best"] == list(expected.moves).index(expected.best)
    assert [entry["description"] for entry in answer["moves"]] == [
        "Draw from the stock",
        f"Take from the discard pile: {card_name(state.discard[-1].code)}",
        "Knock",
    ]


def test_descriptions_in_russian_and_italian(client, start_game):
    game = start_game()
    seat = game["to_move"]
    russian = _ask(client, game, seat, lang="ru").json
    assert russian["moves"][2]["description"] == "Постучать"
    assert russian["measure_description"].startswith("вероятность")
    italian = _ask(client, game, seat, lang="it").json
    assert italian["moves"][0]["description"] == "Pesca dal tallone"
    assert italian["moves"][1]["description"].startswith("Prendi dagli scarti: ")


def test_exchanges_name_the_table_cards(client):
    state = new_game("schnautz", 3, seed=2, dealer=0)
    while state.phase == "declare":
        state, _ = apply_move(state, {"type": "pass"})
    body = {"state": state.to_dict(), "seat": state.turn, "samples": 3}
    answer = client.post("/v1/games/advice", json=body).json
    exchange = next(entry for entry in answer["moves"] if entry["move"]["type"] == "exchange")
    given = card_name(exchange["move"]["give"][0])
    taken = card_name(state.table[exchange["move"]["take"][0]].code)
    assert exchange["description"] == (
        f"Exchange with the table: give {given}; take {taken}")
    assert answer["measure"] == "chips"


def test_refusals(client, start_game):
    game = start_game()
    seat = game["to_move"]
    other = (seat + 1) % 3
    assert _ask(client, game, other).status_code == 409
    assert _ask(client, game, other).json["code"] == "not_your_turn"
    wrong = _ask(client, game, seat, seat_key=game["seat_keys"][other])
    assert wrong.status_code == 403
    assert _ask(client, game, seat, samples=0).status_code == 422
    assert _ask(client, game, seat, seed=True).status_code == 422
    state = GameState.from_dict(new_game("scat", 2, seed=1).to_dict())
    spectator = client.post("/v1/games/advice", json={"state": state.to_dict()})
    assert spectator.status_code == 422
    assert spectator.json["errors"][0]["field"] == "seat"


def test_the_effort_is_a_number_of_worlds_capped_and_the_answer_is_the_same(client, start_game):
    from thirtyone.web.advice import MAX_SAMPLES

    game = start_game()
    seat = game["to_move"]
    first = _ask(client, game, seat, samples=30).json
    assert first["samples"] == 30
    assert _ask(client, game, seat, samples=30).json == first
    body = {"token": game["token"], "seat": seat, "seat_key": game["seat_keys"][seat]}
    assert client.post("/v1/games/advice", json=body).json["samples"] == 200
    refused = _ask(client, game, seat, samples=MAX_SAMPLES + 1)
    assert refused.status_code == 422
    assert refused.json["errors"][0]["field"] == "samples"


def test_a_table_seat_gets_a_hint_and_strong_bots_take_seats(tmp_path):
    app = make_app(f"sqlite:///{tmp_path}/tables.sqlite3")
    client = app.test_client()
    created = client.post("/v1/tables", json={"variant": "scat", "players": 2,
                                              "bots": {"1": "strong"}}).json
    table, key = created["table"], created["seats"][0]["key"]
    public = client.get(f"/v1/tables/{table}").json
    assert public["seats"][1]["bot"] == "strong"
    # When the strong bot starts, its move is thought in the pool while each read plays one
    # slice: the seat reads on until it is to move.
    deadline = time.monotonic() + calibrated(120)
    while (mine := client.get(f"/v1/tables/{table}", headers=bearer(key)).json)["to_move"] != 0:
        assert time.monotonic() < deadline, mine
        time.sleep(0.05)
    asked = client.get(f"/v1/tables/{table}/advice?samples=5&seed=x", headers=bearer(key))
    assert asked.status_code == 200
    # Each legal move says itself in words; the hint says each move too, beside it.
    legal = [{k: v for k, v in move.items() if k != "description"} for move in mine["legal_moves"]]
    assert [entry["move"] for entry in asked.json["moves"]] == legal
    assert [entry["description"] for entry in asked.json["moves"]] == [
        move["description"] for move in mine["legal_moves"]]
    # Sampled, unless the strong bot's first move was a knock: the last turn is then exact.
    assert asked.json["samples"] == (0 if asked.json["exact"] else 5)
    assert asked.json["seat"] == 0
    again = client.get(f"/v1/tables/{table}/advice?samples=5&seed=x", headers=bearer(key))
    assert again.json == asked.json
    assert client.get(f"/v1/tables/{table}/advice").status_code == 401
    assert client.get(f"/v1/tables/{table}/advice",
                      headers=bearer("not a key")).status_code == 403
    assert client.get("/v1/tables/nosuchtable/advice",
                      headers=bearer(key)).status_code == 404


def test_a_tables_hint_is_computed_once_per_version_and_seat(tmp_path, monkeypatch):
    from thirtyone.web import compute

    calls = []

    def counted(function, *args, **kwargs):
        # In this process: what the pool would run, counted (the hints only: a bot of the
        # table may play meanwhile, through the pool too).
        if args[0] is advise_view:
            calls.append(args[1:])
        return function(*args, **kwargs)

    monkeypatch.setattr(compute, "run", counted)
    app = make_app(f"sqlite:///{tmp_path}/tables.sqlite3")
    client = app.test_client()
    created = open_table(client, variant="scat", players=2, bots={"1": "greedy"})
    table, key = created["table"], keys_of(created)[0]
    url = f"/v1/tables/{table}/advice?samples=6&seed=c"
    first = client.get(url, headers=bearer(key)).json
    assert client.get(f"{url}&lang=ru", headers=bearer(key)).json["moves"][0]["value"] \
        == first["moves"][0]["value"]
    assert len(calls) == 1
    moved = client.post(f"/v1/tables/{table}/moves", headers=bearer(key),
                        json={"version": client.get(f"/v1/tables/{table}").json["version"],
                              "move": {"type": "draw", "source": "stock"}})
    assert moved.status_code < 300, moved.json
    client.get(url, headers=bearer(key))
    assert len(calls) == 2


def test_each_app_keeps_its_own_hints(tmp_path, monkeypatch):
    """The hint cache lives on the app, not in the module: a second app over the same store
    computes its own, and each holds what it computed."""
    from thirtyone.web import compute
    from thirtyone.web.advice import AdviceCache

    calls = []

    def counted(function, *args, **kwargs):
        # Only the hints: the table's bot may play meanwhile, through the pool too.
        if args[0] is advise_view:
            calls.append(args[1:])
        return function(*args, **kwargs)

    monkeypatch.setattr(compute, "run", counted)
    url = f"sqlite:///{tmp_path}/tables.sqlite3"
    first, second = make_app(url), make_app(url)
    created = open_table(first.test_client(), variant="scat", players=2, bots={"1": "greedy"})
    table, key = created["table"], keys_of(created)[0]
    path = f"/v1/tables/{table}/advice?samples=6&seed=c"
    answers = [app.test_client().get(path, headers=bearer(key)) for app in (first, second)]
    assert [answer.status_code for answer in answers] == [200, 200]
    assert answers[0].json == answers[1].json
    assert len(calls) == 2
    caches = [app.extensions["thirtyone.advice_cache"] for app in (first, second)]
    assert all(isinstance(cache, AdviceCache) and len(cache) == 1 for cache in caches)
    assert caches[0] is not caches[1]


def test_the_hint_cache_drops_the_least_recently_used():
    from thirtyone.web.advice import AdviceCache

    cache = AdviceCache(size=2)
    cache.put(("a",), "A")
    cache.put(("b",), "B")
    assert cache.get(("a",)) == "A"
    cache.put(("c",), "C")
    assert (cache.get(("a",)), cache.get(("b",)), cache.get(("c",))) == ("A", None, "C")
