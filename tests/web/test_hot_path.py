"""The lean hot path (thirtyone.web.hot) answers exactly as Flask does: every status, header
(in order) and body of the same requests, with it on and off; what it declines reaches Flask."""

from __future__ import annotations

import functools
import json
import random
from typing import Any
from urllib.parse import quote

import marshmallow as ma
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from prometheus_client import REGISTRY

from thirtyone.game import GameState, legal_moves, new_game
from thirtyone.rules import PRESETS
from thirtyone.web import create_app, games, hands
from thirtyone.web.hot import Dump, Shape
from thirtyone.web.jsonio import dumps
from thirtyone.web.sealing import Sealer
from thirtyone.web.validation import between, one_of
from thirtyone.words import NULL

SECRET = "hot path secret"
ORIGIN = "https://cards.example"
RU = {"Accept-Language": "ru,en;q=0.5"}


def make(hot: bool, origins: str = "*") -> Any:
    return create_app({"TESTING": True, "THIRTYONE_SECRET_KEY": SECRET, "SITE_DIR": None,
                       "THIRTYONE_HOT_PATH": hot, "CORS_ORIGINS": origins})


@pytest.fixture(scope="module", params=["*", f"{ORIGIN}, https://other.example"])
def apps(request):
    """The same app with the hot path and without it; CORS for every origin, or a list (which
    makes flask-cors answer by the request's Origin and add ``Vary: Origin``)."""
    return make(True, request.param), make(False, request.param)


def sealed_game() -> dict[str, Any]:
    client = make(False).test_client()
    return client.post("/v1/games", json={"variant": "scat", "players": 3, "seed": "hot",
                                          "dealer": 0}).json


GAME = sealed_game()
TO_MOVE = GAME["view"]["turn"] if GAME["to_move"] is None else GAME["to_move"]


def move(**changes: Any) -> dict[str, Any]:
    return {"token": GAME["token"], "seat": TO_MOVE, "seat_key": GAME["seat_keys"][TO_MOVE],
            "move": {"type": "draw", "source": "stock"}, **changes}


def answer(response: Any) -> tuple[int, list[tuple[str, str]], Any]:
    """Status, headers and body; a sealed token as what it holds (its IV and time differ)."""
    body: Any = response.data
    if response.mimetype == "application/json" and body:
        body = json.loads(body)
        if isinstance(body, dict) and "token" in body:
            body["token"] = Sealer(SECRET).unseal(body["token"])
    return response.status_code, list(response.headers.items()), body


SCORES = [
    {"variant": "scat", "hand": ["AS", "KS", "10S"]},
    {"hand": ["7H", "8D", "9C"]},
    {"variant": "Big Tonka", "hand": ["AS", "AD", "AH"], "options": {}},
    {"variant": "trentuno-40", "hand": ["AS", "KS", "7S"]},
    {"variant": "scat", "hand": ["AS", "KS", "10S"], "options": {"three_aces": False}},
    {"variant": "scat", "hand": ["AS", "KS", "XX"]},
    {"variant": "scat", "hand": ["AS", "AS", "10S"]},
    {"variant": "scat", "hand": ["AS", "KS"]},
    {"variant": "nothing", "hand": ["AS", "KS", "10S"]},
    {"variant": "scat", "hand": ["AS", "KS", "10S"], "options": {"lives": "many"}},
    {"variant": None, "hand": ["AS", "KS", "10S"]},
    {"variant": "scat", "hand": ["AS", "KS", 10]},
    {"variant": "scat", "hand": "AS KS 10S"},
    {"variant": "scat", "hand": ["AS"] * 55},
    {"variant": "scat", "hand": ["AS", "KS", "10S"], "extra": 1},
    {"variant": "scat"},
    ["AS", "KS", "10S"],
    "hand",
]

MOVES = [
    move(),
    move(move={"type": "draw", "source": "stock", "description": "ignored words"}),
    move(move={"type": "draw", "source": "discard"}),
    move(move={"type": "knock"}),
    move(move={"type": "discard", "card": "AS"}),
    move(move={"type": "draw", "source": "the sky"}),
    move(move={"type": "draw", "source": "stock", "extra": 1}),
    move(move={"type": "fly"}),
    move(move="draw"),
    move(seat=(TO_MOVE + 1) % 3),
    move(seat=str(TO_MOVE)),
    move(seat=True),
    move(seat=15),
    move(seat=None),
    move(seat_key="not the key"),
    move(token=GAME["token"][:-4]),
    move(token=None),
    move(extra=1),
    {key: value for key, value in move().items() if key != "seat_key"},
    {"state": {"not": "a state"}, "seat": 0, "move": {"type": "draw", "source": "stock"}},
]

POSTS = ([("/v1/hands/score", body) for body in SCORES]
         + [("/v1/games/moves", body) for body in MOVES])
LANGUAGES = [("", {}), ("?lang=it", {}), ("", RU), ("?lang=ru-RU", RU), ("?lang=xx", RU),
             ("?lang=ru&x=1", {}), ("?lang=", RU), ("", {"Origin": ORIGIN}),
             ("", {"Origin": "https://elsewhere.example", **RU})]


@pytest.mark.parametrize(("path", "body"), POSTS, ids=[f"{p} {i}" for i, (p, _) in
                                                        enumerate(POSTS)])
def test_posts_answer_the_same(apps, path, body):
    hot, plain = (app.test_client() for app in apps)
    for query, headers in LANGUAGES:
        sent = {"json": body, "headers": headers}
        assert answer(hot.post(path + query, **sent)) == answer(plain.post(path + query, **sent))


@pytest.mark.parametrize(("data", "content_type"), [
    (b"", "application/json"), (b"{", "application/json"), (b'{"hand": [1e999]}', None),
    (b'{"variant": "scat", "hand": ["AS", "KS", "10S"]}', "text/plain"),
    (b'{"variant": "scat", "hand": ["AS", "KS", "10S"]}', "application/json; charset=utf-8"),
    (b'{"variant": "scat", "hand": ["AS", "KS", "10S"]}', "application/merge-patch+json"),
    (b'{"variant": "scat", "hand": ["AS", "KS", "10S"], "variant": "blitz"}', None),
    (b"[" * 20_000, None), (b'{"hand": ["\\ud800"]}', None),
])
def test_raw_bodies_answer_the_same(apps, data, content_type):
    hot, plain = (app.test_client() for app in apps)
    for path in ("/v1/hands/score", "/v1/games/moves"):
        sent = {"data": data, "content_type": content_type or "application/json",
                "headers": RU}
        assert answer(hot.post(path, **sent)) == answer(plain.post(path, **sent))


@pytest.mark.parametrize("path", [
    "/v1/variants", "/v1/variants/scat", "/v1/variants/schnauz", "/v1/variants/" + quote(
        "Big Tonka"), "/v1/variants/nothing", "/v1/variants/", "/v1/variants/scat/",
    "/v1/variantsx",
])
def test_variants_answer_the_same(apps, path):
    hot, plain = (app.test_client() for app in apps)
    for query, headers in LANGUAGES:
        # Twice: the first answer in a language is Flask's to build, the next the hot path's.
        for _ in range(2):
            assert answer(hot.get(path + query, headers=headers)) == \
                answer(plain.get(path + query, headers=headers))
    etag = plain.get(path).headers.get("ETag")
    if etag:
        conditional = {"If-None-Match": etag}
        assert answer(hot.get(path, headers=conditional)) == \
            answer(plain.get(path, headers=conditional))
        assert answer(hot.head(path)) == answer(plain.head(path))


def test_the_hot_path_answers_plain_requests_and_hands_on_the_rest():
    app = make(True)
    client = app.test_client()
    hot = app.extensions["thirtyone.hot"]
    reached: list[str] = []
    inner = hot.flask_app

    def flask_app(environ, start_response):
        reached.append(f"{environ['REQUEST_METHOD']} {environ['PATH_INFO']}")
        return inner(environ, start_response)

    hot.flask_app = flask_app
    client.get("/v1/variants")  # built by Flask, once
    reached.clear()

    def counted(operation: str) -> float:
        return REGISTRY.get_sample_value(
            "thirtyone_requests_total", {"operation": operation, "status": "200"}) or 0.0

    before = (counted("POST /v1/hands/score"), counted("POST /v1/games/moves"),
              counted("GET /v1/variants"))
    assert client.post("/v1/hands/score", json=SCORES[0]).status_code == 200
    assert client.post("/v1/games/moves", json=move()).status_code == 200
    assert client.get("/v1/variants").status_code == 200
    assert reached == []
    # Counted as Flask's hooks count them.
    assert (counted("POST /v1/hands/score"), counted("POST /v1/games/moves"),
            counted("GET /v1/variants")) == tuple(count + 1 for count in before)
    assert client.post("/v1/hands/score", json=SCORES[5]).status_code == 422
    assert client.post("/v1/games/moves", json=move(seat_key="no")).status_code == 403
    assert client.post("/v1/games/moves", json=move(seat=str(TO_MOVE))).status_code == 200
    assert client.get("/v1/variants?lang=it").status_code == 200
    assert reached == ["POST /v1/hands/score", "POST /v1/games/moves", "POST /v1/games/moves",
                       "GET /v1/variants"]


def reaching_flask(app: Any) -> list[str]:
    """The paths of the requests the hot path of ``app`` hands to Flask, from now on."""
    hot = app.extensions["thirtyone.hot"]
    reached: list[str] = []
    inner = hot.flask_app

    def flask_app(environ, start_response):
        reached.append(environ["PATH_INFO"])
        return inner(environ, start_response)

    hot.flask_app = flask_app
    return reached


def test_the_hot_path_follows_its_request_schemas(monkeypatch):
    # Tightened request schemas (Blitz only, seats 0 and 1 only): the hot path built with
    # them takes what they take and hands the rest to Flask (whose views keep the schemas
    # they were declared with, so that Flask answers these 200).
    class BlitzOnly(hands.ScoreRequestSchema):
        variant = ma.fields.String(load_default="blitz", validate=one_of(("blitz",)))

    class TwoSeats(games.MoveRequestSchema):
        seat = ma.fields.Integer(allow_none=True, validate=between(0, 1))

    monkeypatch.setattr(hands, "ScoreRequestSchema", BlitzOnly)
    monkeypatch.setattr(games, "MoveRequestSchema", TwoSeats)
    app = make(True)
    client = app.test_client()
    reached = reaching_flask(app)
    hand = ["AS", "KS", "10S"]
    assert client.post("/v1/hands/score", json={"variant": "blitz", "hand": hand}).json == \
        client.post("/v1/hands/score", json={"hand": hand}).json
    assert reached == []
    assert client.post("/v1/hands/score", json={"variant": "scat", "hand": hand}).status_code \
        == 200
    assert reached == ["/v1/hands/score"]
    reached.clear()
    game = make(False).test_client().post(
        "/v1/games", json={"variant": "scat", "players": 3, "seed": "hot", "dealer": 1}).json
    seat = game["to_move"]
    assert seat == 2
    late = {"token": game["token"], "seat": seat, "seat_key": game["seat_keys"][seat],
            "move": {"type": "draw", "source": "stock"}}
    assert client.post("/v1/games/moves", json=late).status_code == 200
    assert reached == ["/v1/games/moves"]
    reached.clear()
    assert client.post("/v1/games/moves", json=move()).status_code == 200
    assert reached == ([] if TO_MOVE <= 1 else ["/v1/games/moves"])


@pytest.mark.parametrize("schema", [
    type("Renamed", (hands.ScoreRequestSchema,), {"hand": hands.hand_field(data_key="cards")}),
    type("Matched", (hands.ScoreRequestSchema,), {
        "variant": ma.fields.String(validate=ma.validate.Regexp("^[a-z]+$"))}),
    type("Mailed", (hands.ScoreRequestSchema,), {"variant": ma.fields.Email()}),
    type("Nested", (hands.ScoreRequestSchema,), {
        "hand": ma.fields.List(ma.fields.List(ma.fields.String()))}),
    type("Prepared", (hands.ScoreRequestSchema,), {
        "lowered": ma.pre_load(lambda self, data, **kwargs: data)}),
    type("Checked", (hands.ScoreRequestSchema,), {
        "hand_checked": ma.validates("hand")(lambda self, value, **kwargs: None)}),
])
def test_a_schema_the_hot_path_cannot_follow_exactly_stops_the_app(schema):
    # A field, validator or hook it cannot read exactly: building the app fails, rather than
    # a hot path that takes more than the schema does.
    with pytest.raises(TypeError):
        Shape(schema())


_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 20), st.floats(-1, 16),
                     st.text(max_size=3),
                     st.sampled_from(["AS", "KS", "10S", "X1", "scat", "blitz", "stock",
                                      "draw", "discard", "token"]))
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=3)
                       | st.dictionaries(st.text(max_size=3), inner, max_size=2), max_leaves=5)
_CARDS = st.lists(st.sampled_from(["AS", "KS", "10S", "2C"]) | _SCALARS, max_size=60)
_PLAIN_SCORES = st.fixed_dictionaries(
    {"hand": st.sampled_from([0, 2, 3, 4, 53, 54, 55, 60]).flatmap(lambda size: st.lists(
        st.sampled_from(["AS", "KS", "10S", "2C", "XX"]), min_size=size, max_size=size))},
    optional={"variant": st.sampled_from(["scat", "blitz", "nothing"]),
              "options": st.sampled_from([{}, {"three_aces": False}])})
_PLAIN_MOVES = st.fixed_dictionaries({
    "token": st.text(max_size=4), "seat": st.integers(-2, 16) | st.none(),
    "seat_key": st.text(max_size=4),
    "move": st.fixed_dictionaries({"type": st.sampled_from(["draw", "fly"])},
                                  optional={"source": st.sampled_from(["stock", "sky"])})})
_SCORES = _PLAIN_SCORES | st.fixed_dictionaries({}, optional={
    "variant": st.sampled_from(["scat", "blitz"]) | _VALUES, "hand": _CARDS | _VALUES,
    "options": st.just({}) | _VALUES, "extra": _VALUES})
_MOVES = _PLAIN_MOVES | st.fixed_dictionaries({}, optional={
    "token": st.text(max_size=4) | _VALUES, "state": _VALUES,
    "seat": st.integers(-2, 16) | _VALUES, "seat_key": st.text(max_size=4) | _VALUES,
    "move": st.fixed_dictionaries(
        {"type": st.sampled_from(["draw", "discard", "fly"]) | _VALUES},
        optional={"source": st.sampled_from(["stock", "sky"]) | _VALUES,
                  "description": _VALUES, "value": _VALUES}) | _VALUES,
    "extra": _VALUES})


@functools.cache
def _hot_path() -> Any:
    return make(True).extensions["thirtyone.hot"]


@settings(max_examples=400, deadline=None, derandomize=True)
@given(score=_SCORES, played=_MOVES)
def test_what_the_hot_path_takes_its_schemas_load_alike(score, played):
    # Every request the hot path reads itself, its schema loads to the same data (the hot
    # path reads fewer: the rest is Flask's).
    hot = _hot_path()
    for shape, schema, value in ((hot.score_request, hands.ScoreRequestSchema(), score),
                                 (hot.move_request, games.MoveRequestSchema(), played)):
        try:
            taken = shape.load(value)
        except ma.ValidationError:
            taken = None
        if taken is not None:
            assert schema.load(value) == taken


def test_a_move_is_dumped_as_its_response_schema_dumps_it():
    # Along a random match of every preset (open mode, every seat's answer), and for answers
    # that are not plain (a bool for an integer, a list holding no object, a field left out),
    # which go through the schema itself); compared as JSON, where True is not 1.
    schema, dump = games.MoveResultSchema(), Dump(games.MoveResultSchema())
    sealer = Sealer(SECRET)
    for variant in PRESETS:
        state = new_game(variant, PRESETS[variant].players[0], seed="dump", dealer=0)
        rng = random.Random(variant)
        for _ in range(25):
            if state.is_over:
                break
            chosen = rng.choice(legal_moves(state))
            seat = state.to_move if state.to_move is not None else 0
            answer = games.play({"token": None, "state": state.to_dict(), "seat": seat,
                                 "seat_key": None, "move": chosen}, sealer, NULL)
            assert dumps(dump(answer)) == dumps(schema.dump(answer))
            state = GameState.from_dict(answer["state"])
    answer = games.play({"token": None, "state": new_game("scat", 2, seed=1).to_dict(),
                         "seat": None, "seat_key": None, "move": {"type": "knock"}}, sealer, NULL)
    for odd in ({"to_move": True}, {"is_over": 1}, {"legal_moves": [None]},
                {"view": None, "events": None}, {"seat": "0"}):
        assert dumps(dump({**answer, **odd})) == dumps(schema.dump({**answer, **odd}))
    del answer["state"]
    assert dumps(dump(answer)) == dumps(schema.dump(answer))


@pytest.mark.parametrize("schema", [
    type("Renamed", (games.MoveResultSchema,), {"token": ma.fields.String(data_key="t")}),
    type("Defaulted", (games.MoveResultSchema,), {"seat": ma.fields.Integer(dump_default=0)}),
    type("Listed", (games.MoveResultSchema,), {"events": ma.fields.List(ma.fields.String())}),
    type("Keyed", (games.MoveResultSchema,), {"items": ma.fields.Dict()}),
    type("Hooked", (games.MoveResultSchema,), {
        "stamped": ma.post_dump(lambda self, data, **kwargs: data)}),
])
def test_an_answer_the_hot_path_cannot_dump_exactly_stops_the_app(schema):
    with pytest.raises(TypeError):
        Dump(schema())
