"""Hosted tables through the app: every test runs on SQLite and on a real Redis."""

from __future__ import annotations

import hashlib
import json
import threading
import time
import urllib.request
from typing import Any

import pytest

from thirtyone.game import GameState, view
from thirtyone.web import create_app
from thirtyone.web.store import StaleVersion
from thirtyone.web.store.sqlite import SQLiteStore

QUICK = {"lives": 1, "free_ride": False}
LASTING = {**QUICK, "lives": 3}
"""Options of a match no single deal or discard ends (a dealt or discarded 31 ends a one-life
match at once: 1 table in about 550 on its first discard), for tests that play on."""
DEALS = 10
"""How many tables a test opens at most to get one whose first deal did not end its match."""


@pytest.fixture(params=["sqlite", "redis"])
def store_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/tables.sqlite3"
    return request.getfixturevalue("redis_url")


def make_app(store_url: str, **config: Any):
    return create_app({
        "TESTING": True, "THIRTYONE_SECRET_KEY": "tables", "SITE_DIR": None,
        "THIRTYONE_STORE": store_url, "TABLE_STREAM_SECONDS": 3.0, **config,
    })


@pytest.fixture
def app(store_url):
    return make_app(store_url)


@pytest.fixture
def client(app):
    return app.test_client()


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def create_table(client, **body: Any) -> dict[str, Any]:
    body = {"variant": "scat", "players": 2, "options": QUICK, **body}
    response = client.post("/v1/tables", json=body)
    assert response.status_code == 201, response.json
    return response.json


def open_table(client, **body: Any) -> dict[str, Any]:
    """A table created and every invited seat claimed (so it is dealt): the last answer,
    with ``keys`` (each human seat's) and ``invitations`` (those the creator got). A table
    with players whose one-life match a dealt blitz ends at once (about 1 deal in 130) is
    opened again: the tests play it."""
    for _ in range(DEALS):
        created = create_table(client, **body)
        keys = {seat["seat"]: seat["key"] for seat in created["seats"] if seat["key"]}
        invitations = {seat["seat"]: seat["invitation"] for seat in created["seats"]
                       if seat["invitation"]}
        answer = created
        for seat, invitation in invitations.items():
            claimed = client.post(f"/v1/tables/{created['table']}/seats/{seat}",
                                  json={"invitation": invitation, "name": f"Player {seat}"})
            assert claimed.status_code == 201, claimed.json
            answer = claimed.json
            keys[seat] = answer.pop("key")
        if not (keys and answer["is_over"]):
            break
    return {**answer, "keys": keys, "invitations": invitations}


def hold_tab(client, table: str, key: str, opened: threading.Event, close: threading.Event,
             seconds: float) -> None:
    """A player's open tab, for a thread to run: the seat's stream opened, ``opened`` set once
    its first message came, held until ``close`` is set (``seconds`` at most), then closed
    (by the thread that opened it: a request's context is its thread's)."""
    stream = client.get(f"/v1/tables/{table}/events", headers=bearer(key), buffered=False)
    next(chunk for chunk in stream.response if b"data: " in chunk)
    opened.set()
    close.wait(seconds)
    stream.close()


def stored_state(app, table: str) -> GameState:
    return GameState.from_dict(app.extensions["thirtyone.tables"].load(table).state())


def keys_of(created: dict[str, Any]) -> dict[int, str]:
    return created["keys"]


def choose(answer: dict[str, Any]) -> dict[str, Any]:
    """The first legal move, but a knock once a few turns are played: matches end soon."""
    moves = answer["legal_moves"]
    knocks = [move for move in moves if move["type"] == "knock"]
    return knocks[0] if knocks and answer["view"]["turns"] >= 2 else moves[0]


def play_one(client, table: str, keys: dict[int, str]) -> dict[str, Any]:
    """The seat to move (any human between rounds) plays; the answer."""
    public = client.get(f"/v1/tables/{table}").json
    seat = public["to_move"] if public["to_move"] is not None else min(keys)
    mine = client.get(f"/v1/tables/{table}", headers=bearer(keys[seat])).json
    response = client.post(f"/v1/tables/{table}/moves", headers=bearer(keys[seat]),
                           json={"move": choose(mine), "version": mine["version"]})
    assert response.status_code == 200, response.json
    return response.json


def test_a_table_opens_with_the_creators_key_only(client):
    created = create_table(client, players=3, bots={"2": "greedy"}, name="Ana")
    # Another human is to come: the table waits, dealt to nobody.
    assert created["version"] == 0 and created["phase"] == "waiting"
    assert created["view"] is None and created["to_move"] is None
    assert created["variant"] == "scat" and created["players"] == 3
    assert [(seat["seat"], seat["bot"], seat["name"]) for seat in created["seats"]] == [
        (0, None, "Ana"), (1, None, None), (2, "greedy", None)]
    assert [bool(seat["key"]) for seat in created["seats"]] == [True, False, False]
    assert [bool(seat["invitation"]) for seat in created["seats"]] == [False, True, False]
    assert len(created["seed_sha256"]) == 64
    assert created["seat"] is None and created["legal_moves"] == []
    # Every later answer lists the seats without their keys or invitations.
    public = client.get(f"/v1/tables/{created['table']}").json
    assert [set(seat) for seat in public["seats"]] == [
        {"seat", "bot", "name", "claimed", "connected", "deadline"}] * 3
    text = json.dumps(public)
    assert created["seats"][0]["key"] not in text
    assert created["seats"][1]["invitation"] not in text


@pytest.mark.parametrize(("body", "field", "code"), [
    ({"seed": 7}, "seed", "seed_not_allowed"),
    ({"bots": {"2": "greedy"}}, "bots.2", "bad_seat"),
    ({"bots": {"x": "greedy"}}, "bots.x", "bad_seat"),
    ({"bots": {"0": "genius"}}, "bots.0.value", "not_a_choice"),
    ({"players": 10}, "players", "bad_players"),
])
def test_a_bad_table_is_refused(client, body, field, code):
    response = client.post("/v1/tables?lang=ru",
                           json={"variant": "scat", "players": 2, **body})
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    errors = {error["field"]: error["code"] for error in response.json["errors"]}
    assert errors.get(field) == code, response.json


def test_each_seat_sees_its_own_cards_and_no_other(app, client):
    created = open_table(client, players=3)
    table, keys = created["table"], keys_of(created)
    state = stored_state(app, table)
    for seat, key in keys.items():
        seen = client.get(f"/v1/tables/{table}", headers=bearer(key)).json
        assert seen["seat"] == seat
        assert seen["view"] == view(state, seat)
        assert seen["legal_moves"] == ([] if seat != state.to_move else seen["legal_moves"])
    spectator = client.get(f"/v1/tables/{table}").json
    assert spectator["view"] == view(state, None) and spectator["seat"] is None


def test_reads_of_a_version_share_one_answer_made_once(client, monkeypatch):
    """A read builds the table's answer (the view, the described moves) once per version,
    seat, language and presence; every other read of it is that answer's bytes, so a table
    polled by many readers costs no engine work per read."""
    from thirtyone.web.tables import fanout, presence

    made: list[int | None] = []
    build = fanout.table_answer

    def counted(*args: Any, **kwargs: Any) -> dict[str, Any]:
        made.append(args[3])  # the seat
        return build(*args, **kwargs)

    here = [True, False]
    monkeypatch.setattr(fanout, "table_answer", counted)
    monkeypatch.setattr(presence, "connected", lambda record: list(here))
    created = create_table(client, bots={"1": "greedy"})
    table, key = created["table"], created["seats"][0]["key"]
    url = f"/v1/tables/{table}"
    first = client.get(url)
    assert client.get(url).data == first.data and made == [None]
    mine = client.get(url, headers=bearer(key)).json
    assert mine["seat"] == 0 and mine["view"] != first.json["view"] and made == [None, 0]
    here[0] = False  # the player left: a new answer, then shared
    gone = client.get(url).json
    assert [seat["connected"] for seat in gone["seats"]] == [False, False]
    assert gone["view"] == first.json["view"] and made == [None, 0, None]
    assert client.get(url).json == gone and len(made) == 3
    assert client.get(f"{url}?lang=ru").status_code == 200 and made == [None, 0, None, None]
    if mine["legal_moves"]:
        moved = client.post(f"{url}/moves", headers=bearer(key),
                            json={"move": choose(mine), "version": mine["version"]})
        assert moved.status_code == 200, moved.json
        assert client.get(url).json["version"] == moved.json["version"] and len(made) == 5


def test_keys_unknown_tables_and_language(client):
    table = open_table(client)["table"]
    wrong = client.get(f"/v1/tables/{table}", headers=bearer("not a key"))
    assert (wrong.status_code, wrong.json["code"]) == (403, "bad_seat_key")
    basic = client.get(f"/v1/tables/{table}", headers={"Authorization": "Basic eDp5"})
    assert (basic.status_code, basic.json["code"]) == (401, "seat_key_required")
    assert basic.headers["WWW-Authenticate"] == 'Bearer realm="thirtyone", error="invalid_request"'
    missing = client.get("/v1/tables/nothing-here?lang=it")
    assert (missing.status_code, missing.json["code"]) == (404, "table_not_found")
    assert "nothing-here" in missing.json["detail"] and "tavolo" in missing.json["detail"]
    weird = client.get("/v1/tables/%20%3Cscript%3E")
    assert weird.status_code == 404 and weird.mimetype == "application/problem+json"


def test_a_move_needs_the_current_version_so_nothing_is_replayed(app, client):
    created = open_table(client)
    table, keys = created["table"], keys_of(created)
    seat, start = created["to_move"], created["version"]
    moved = client.post(f"/v1/tables/{table}/moves", headers=bearer(keys[seat]),
                        json={"move": {"type": "draw", "source": "stock"}, "version": start})
    assert moved.status_code == 200, moved.json
    assert moved.json["version"] == start + 1
    assert [event["type"] for event in moved.json["events"]] == ["drew"]
    assert moved.json["events"][0]["message"]
    before = stored_state(app, table)
    # The same version again, with another move: refused, and the table does not change.
    replay = client.post(f"/v1/tables/{table}/moves?lang=ru", headers=bearer(keys[seat]),
                         json={"move": {"type": "knock"}, "version": start})
    assert (replay.status_code, replay.json["code"]) == (409, "stale_version")
    assert replay.json["errors"][0]["field"] == "version"
    assert stored_state(app, table) == before
    illegal = client.post(f"/v1/tables/{table}/moves", headers=bearer(keys[seat]),
                          json={"move": {"type": "knock"}, "version": start + 1})
    assert (illegal.status_code, illegal.json["code"]) == (409, "must_discard")
    other = 1 - seat
    turn = client.post(f"/v1/tables/{table}/moves", headers=bearer(keys[other]),
                       json={"move": {"type": "knock"}, "version": start + 1})
    assert (turn.status_code, turn.json["code"]) == (409, "not_your_turn")
    nokey = client.post(f"/v1/tables/{table}/moves", json={"move": {"type": "knock"},
                                                           "version": start + 1})
    assert (nokey.status_code, nokey.json["code"]) == (401, "seat_key_required")
    assert nokey.headers["WWW-Authenticate"] == 'Bearer realm="thirtyone"'
    assert stored_state(app, table) == before


def test_bots_answer_at_once_and_a_match_of_bots_plays_itself(client):
    created = open_table(client, players=3, bots={"1": "greedy", "2": "random"})
    table, keys = created["table"], keys_of(created)
    # Whoever starts, after the opening (and after each human move) a human is to move.
    answer = created
    for _ in range(6):
        if answer["is_over"]:
            break
        assert answer["to_move"] in (0, None)
        answer = play_one(client, table, keys)
        seats = {event.get("seat") for event in answer["events"]}
        assert seats - {0, None} <= {1, 2}
    bots_only = open_table(client, players=3, bots={"0": "greedy", "1": "random",
                                                    "2": "greedy"})
    assert bots_only["is_over"] and bots_only["version"] == 1
    assert all(seat["key"] is None and seat["invitation"] is None
               for seat in bots_only["seats"])


def test_the_seed_is_revealed_at_the_end_and_matches_its_hash(app, client):
    created = open_table(client, bots={"1": "greedy"})
    table, keys = created["table"], keys_of(created)
    answer = created
    for _ in range(200):
        if answer["is_over"]:
            break
        assert answer["view"]["seed"] is None
        answer = play_one(client, table, keys)
    assert answer["is_over"]
    seed = answer["view"]["seed"]
    assert stored_state(app, table).seed == seed
    record = client.get(f"/v1/tables/{table}/record").json
    assert record["seed"]["deal"] == seed
    server = record["seed"]["server"]
    assert hashlib.sha256(server.encode()).hexdigest() == created["seed_sha256"]
    after = client.post(f"/v1/tables/{table}/moves", headers=bearer(keys[0]),
                        json={"move": {"type": "next_round"}, "version": answer["version"]})
    assert (after.status_code, after.json["code"]) == (409, "game_over")


def test_no_answer_or_stream_shows_a_hidden_card(app, client):
    """Every answer and every streamed version equals the engine's view for that seat."""
    # Each stream sends the versions already made, then ends instead of waiting for more
    # (three streams of 3 s were most of the fast suite's idle time).
    app.config["TABLE_STREAM_SECONDS"] = 0.0
    created = open_table(client, players=3, bots={"2": "greedy"})
    table, keys = created["table"], keys_of(created)
    store = app.extensions["thirtyone.tables"]
    states = {0: GameState.from_dict(store.snapshot(table, 0)[1]),
              created["version"]: stored_state(app, table)}
    answer = created
    while not answer["is_over"] and answer["version"] < 30:
        answer = play_one(client, table, keys)
        states[answer["version"]] = stored_state(app, table)
        assert answer["view"] == view(states[answer["version"]], answer["seat"])
    for seat in (0, 1, None):
        query = "" if seat is None else f"&key={keys[seat]}"
        stream = client.get(f"/v1/tables/{table}/events?after=0{query}")
        versions = [json.loads(line[6:]) for line in stream.get_data(as_text=True).split("\n")
                    if line.startswith("data: ")]
        assert [seen["version"] for seen in versions] == sorted(states)[1:]
        for seen in versions:
            assert seen["seat"] == seat
            assert seen["view"] == view(states[seen["version"]], seat)


def test_a_stream_resumes_from_last_event_id_and_pushes_new_versions(app, client):
    created = open_table(client, bots={"1": "greedy"})
    table, keys = created["table"], keys_of(created)
    first = play_one(client, table, keys)
    url = f"/v1/tables/{table}/events?key={keys[0]}"
    # Resumed after the version this seat has seen: the next one comes as it is made.
    head = client.get(url, headers={"Last-Event-ID": str(first["version"])}, buffered=False)
    assert head.mimetype == "text/event-stream"
    assert head.headers["Cache-Control"] == "no-cache"
    moved: list[Any] = []
    # The move is made from another thread while this one reads the stream: the request's
    # context (its language) lives in the thread that runs the stream's generator.
    mover = threading.Timer(0.3, lambda: moved.append(play_one(client, table, keys)))
    mover.start()
    pushed = []
    for chunk in head.response:
        pushed.append(chunk)
        if chunk.startswith(b"id:"):
            break
    mover.join()
    head.close()
    second = moved[0]
    assert pushed[0].startswith(b"retry:") and len(pushed) == 2
    identifier, data = pushed[-1].decode().strip().split("\n")
    sent = json.loads(data.removeprefix("data: "))
    # The version named with its epoch and digest: what Last-Event-ID sends back.
    assert identifier == f"id: {sent['cursor']}"
    # The move's answer names it the same way: a long poll from it checks the digest too.
    assert sent["cursor"] == second["cursor"]
    assert sent["events"] == second["events"] and sent["view"] == second["view"]


def test_a_long_poll_answers_json_with_every_event_after_the_cursor(client):
    created = open_table(client, bots={"1": "greedy"})
    table, keys = created["table"], keys_of(created)
    moves = [play_one(client, table, keys) for _ in range(2)]
    polled = client.get(f"/v1/tables/{table}/updates?after={created['version']}&wait=5",
                        headers=bearer(keys[0]))
    assert polled.status_code == 200 and polled.mimetype == "application/json"
    assert polled.json["version"] == moves[-1]["version"]
    assert polled.json["events"] == [event for move in moves for event in move["events"]]
    start = time.monotonic()
    idle = client.get(f"/v1/tables/{table}/updates?after={moves[-1]['version']}&wait=1")
    assert time.monotonic() - start >= 0.9
    assert idle.json["events"] == [] and idle.json["version"] == moves[-1]["version"]
    ahead = client.get(f"/v1/tables/{table}/updates?after=999&wait=1")
    assert (ahead.status_code, ahead.json["code"]) == (409, "stale_version")
    current = client.get(f"/v1/tables/{table}/updates?wait=0")
    assert current.json["version"] == moves[-1]["version"] and current.json["events"] == []
    # The long poll once lived on the stream's address: such a request is sent on, query kept.
    moved = client.get(f"/v1/tables/{table}/events?after=1&wait=5&lang=ru")
    assert moved.status_code == 307
    assert moved.headers["Location"] == f"/v1/tables/{table}/updates?after=1&wait=5&lang=ru"
    bad = client.get(f"/v1/tables/{table}/events", headers={"Last-Event-ID": "x"})
    assert bad.status_code == 422


def test_a_finished_stream_tells_the_browser_to_stop(client):
    created = open_table(client, players=2, bots={"0": "greedy", "1": "greedy"})
    stream = client.get(f"/v1/tables/{created['table']}/events",
                        headers={"Last-Event-ID": str(created["version"])})
    assert stream.status_code == 204


def test_concurrent_moves_exactly_one_wins(app, live_server):
    base = live_server(app)
    client = app.test_client()
    created = open_table(client)
    table, keys = created["table"], keys_of(created)
    seat, start = created["to_move"], created["version"]
    body = json.dumps({"move": {"type": "draw", "source": "stock"},
                       "version": start}).encode()
    results: list[Any] = []
    barrier = threading.Barrier(8)

    def move() -> None:
        request = urllib.request.Request(
            f"{base}/v1/tables/{table}/moves", body, method="POST",
            headers={"Content-Type": "application/json", **bearer(keys[seat])})
        barrier.wait()
        try:
            with urllib.request.urlopen(request) as response:
                results.append((response.status, json.load(response)["version"]))
        except urllib.error.HTTPError as error:
            results.append((error.code, json.load(error)["code"]))

    threads = [threading.Thread(target=move) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results, key=str) == [(200, start + 1)] + [(409, "stale_version")] * 7
    assert len(stored_state(app, table).history) == 1


def test_the_store_commits_by_compare_and_set(app, client):
    store = app.extensions["thirtyone.tables"]
    created = create_table(client)  # waiting: nothing logged yet
    record = store.load(created["table"])
    entry = store.entries(created["table"], 0)
    assert entry == []
    from thirtyone.web.store import Entry

    entry = Entry(1, [], [], prev=record.digest).chained()
    store.commit(record.table, 0, record.state(), entry)
    # The same entry again is the same commit (a retry), not a second one.
    store.commit(record.table, 0, record.state(), entry)
    with pytest.raises(StaleVersion) as stale:
        store.commit(record.table, 0, record.state(),
                     Entry(1, [{"type": "knock"}], [], prev=record.digest).chained())
    assert stale.value.current == 1
    assert [e.version for e in store.entries(record.table, 0)] == [1]


def test_a_table_expires_after_its_ttl_without_a_move(redis_url):
    """Redis expires the keys by its own clock: this one waits."""
    client = make_app(redis_url, THIRTYONE_TABLE_TTL=1).test_client()
    table = open_table(client)["table"]
    assert client.get(f"/v1/tables/{table}").status_code == 200
    time.sleep(1.6)
    assert client.get(f"/v1/tables/{table}").json["code"] == "table_not_found"


def test_a_sqlite_table_expires_by_the_store_clock_ttl_after_its_last_move(tmp_path):
    now = [1_000.0]
    store = SQLiteStore(str(tmp_path / "tables.sqlite3"), ttl=60, clock=lambda: now[0])
    app = make_app(f"sqlite:///{tmp_path}/tables.sqlite3")
    app.extensions["thirtyone.tables"] = store
    client = app.test_client()
    created = open_table(client)
    table, keys = created["table"], keys_of(created)
    now[0] += 59
    play_one(client, table, keys)
    now[0] += 59
    assert client.get(f"/v1/tables/{table}").status_code == 200
    now[0] += 2
    assert client.get(f"/v1/tables/{table}").json["code"] == "table_not_found"


def test_a_sqlite_writer_waits_for_a_lock_held_elsewhere(tmp_path):
    """Another process's write transaction delays a move; it does not fail it."""
    import sqlite3

    path = tmp_path / "tables.sqlite3"
    client = make_app(f"sqlite:///{path}").test_client()
    created = open_table(client)
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    threading.Timer(0.3, holder.rollback).start()
    start = time.monotonic()
    moved = client.post(f"/v1/tables/{created['table']}/moves",
                        headers=bearer(keys_of(created)[created["to_move"]]),
                        json={"move": {"type": "draw", "source": "stock"},
                              "version": created["version"]})
    assert moved.status_code == 200, moved.json
    assert time.monotonic() - start >= 0.25
    holder.close()
