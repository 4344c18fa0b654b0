"""Tables that survive what stores do: retried requests, a bounded log, a store that lost
versions, a store that is full or half gone, and the probes and metrics that show it.

Every test runs on SQLite and on a real Redis (the tests with real processes, a Redis Cluster,
Sentinel, nginx and HAProxy, are in tests/servers/).
"""

from __future__ import annotations

import json
import uuid
from contextlib import closing
from typing import Any

import pytest

from thirtyone.web.store import SNAPSHOT_EVERY
from thirtyone.web.tables import ledger

from .test_tables import (
    LASTING,
    QUICK,
    bearer,
    choose,
    keys_of,
    make_app,
    open_table,
    play_one,
)


@pytest.fixture(params=["sqlite", "redis"])
def store_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/tables.sqlite3"
    return request.getfixturevalue("redis_url")


@pytest.fixture
def app(store_url):
    return make_app(store_url)


@pytest.fixture
def client(app):
    return app.test_client()


def idempotent(key: str) -> dict[str, str]:
    return {"Idempotency-Key": key}


def sse(response) -> list[tuple[str | None, dict[str, Any]]]:
    """The (event name, data) of each event of a finished stream."""
    events = []
    for block in response.get_data(as_text=True).split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line)
        if "data" in lines:
            events.append((lines.get("event"), json.loads(lines["data"])))
    return events


def pass_versions(app, table: str, count: int) -> int:
    """Commit ``count`` versions with no move (the state stays), as fast as the store goes."""
    with app.app_context():
        for _ in range(count):
            record = ledger.load_table(table)
            state = ledger.table_state(record)
            version = ledger.commit(record, record.version, [], state, []).version
    return version


def test_opening_a_table_again_with_its_key_answers_the_same(client):
    key = str(uuid.uuid4())
    body = {"variant": "scat", "players": 3, "options": QUICK, "bots": {"0": "greedy"}}
    first = client.post("/v1/tables", json=body, headers=idempotent(key))
    again = client.post("/v1/tables", json=body, headers=idempotent(key))
    assert first.status_code == again.status_code == 201
    assert again.json == first.json
    # The creator's key and the other seat's invitation come back too, and work.
    seat = {entry["seat"]: entry["key"] for entry in first.json["seats"] if entry["key"]}
    assert client.get(f"/v1/tables/{first.json['table']}",
                      headers=bearer(seat[1])).json["seat"] == 1
    invitation = first.json["seats"][2]["invitation"]
    claimed = client.post(f"/v1/tables/{first.json['table']}/seats/2",
                          json={"invitation": invitation, "name": "B"})
    assert claimed.status_code == 201
    other = client.post("/v1/tables?lang=ru", json={**body, "players": 2},
                        headers=idempotent(key))
    assert (other.status_code, other.json["code"]) == (422, "idempotency_key_reused")
    assert other.json["errors"][0]["field"] == "Idempotency-Key"
    assert "Idempotency-Key" in other.json["detail"]
    bad = client.post("/v1/tables", json=body, headers=idempotent("short"))
    assert (bad.status_code, bad.json["code"]) == (422, "bad_idempotency_key")
    # Without a key, every creation is a new table.
    assert open_table(client)["table"] != open_table(client)["table"]


def test_a_move_sent_again_with_its_key_gets_its_first_answer(client):
    created = open_table(client, players=2, options=LASTING)
    table, keys = created["table"], keys_of(created)
    seat = created["to_move"]
    mine = client.get(f"/v1/tables/{table}", headers=bearer(keys[seat])).json
    body = {"move": choose(mine), "version": mine["version"]}
    headers = {**bearer(keys[seat]), **idempotent("move-" + uuid.uuid4().hex)}
    first = client.post(f"/v1/tables/{table}/moves", json=body, headers=headers)
    assert first.status_code == 200
    # The table moves on; the retry still gets the answer of its own version, never a 409.
    later = play_one(client, table, keys)
    assert later["version"] > first.json["version"]
    again = client.post(f"/v1/tables/{table}/moves", json=body, headers=headers)
    assert (again.status_code, again.json) == (200, first.json)
    other = client.post(f"/v1/tables/{table}/moves", json={**body, "version": 99},
                        headers=headers)
    assert (other.status_code, other.json["code"]) == (422, "idempotency_key_reused")
    # The other seat cannot replay it under its own key either.
    theirs = client.post(f"/v1/tables/{table}/moves", json=body,
                         headers={**headers, **bearer(keys[1 - seat])})
    assert (theirs.status_code, theirs.json["code"]) == (422, "idempotency_key_reused")


def test_the_log_stays_small_and_a_resume_replays_from_a_snapshot(app, client):
    created = open_table(client, players=2, options=LASTING)
    table, keys = created["table"], keys_of(created)
    last = pass_versions(app, table, 5 * SNAPSHOT_EVERY + 3)
    tables = app.extensions["thirtyone.tables"]
    kept = tables.entries(table, 0)
    assert SNAPSHOT_EVERY <= len(kept) < 2 * SNAPSHOT_EVERY + 1
    assert kept[-1].version == last
    start, _ = tables.snapshot(table, last - 1)
    assert last - 1 - start < SNAPSHOT_EVERY
    # A stream resumed one version behind gets that version alone.
    resumed = client.get(f"/v1/tables/{table}/events?key={keys[0]}",
                         headers={"Last-Event-ID": str(last - 1)}, buffered=False)
    chunks = []
    for chunk in resumed.response:
        chunks.append(chunk)
        if chunk.startswith(b"id:"):
            break
    resumed.close()
    assert chunks[-1].split(b"\n")[0].split(b".")[1] == str(last).encode()
    # From before the log's start, or past the table: a reset to the table as it is now.
    for cursor in (3, last + 5):
        stream = client.get(f"/v1/tables/{table}/events?key={keys[0]}",
                            headers={"Last-Event-ID": str(cursor)}, buffered=False)
        first = next(chunk for chunk in stream.response if b"data:" in chunk)
        stream.close()
        assert first.startswith(b"event: table_reset\n")
        assert json.loads(first.split(b"data: ", 1)[1])["version"] == last


def test_a_table_has_a_version_cap_that_counts_moves_only(app, client, monkeypatch):
    monkeypatch.setattr(ledger, "MAX_VERSIONS", 3)
    created = open_table(client, players=2, options=LASTING)
    table, keys = created["table"], keys_of(created)
    for _ in range(6):
        # Key rotations (and the claim before) change the table but play no move: a player
        # rotating fast cannot bring the table to its cap.
        rotated = client.post(f"/v1/tables/{table}/seats/0/key", headers=bearer(keys[0]))
        assert rotated.status_code == 201
        keys[0] = rotated.json["key"]
    for _ in range(2):  # the deal, then two moves: three versions of moves
        play_one(client, table, keys)
    mine = client.get(f"/v1/tables/{table}", headers=bearer(keys[0])).json
    seat = mine["to_move"] if mine["to_move"] is not None else 0
    mine = client.get(f"/v1/tables/{table}", headers=bearer(keys[seat])).json
    capped = client.post(f"/v1/tables/{table}/moves", headers=bearer(keys[seat]),
                         json={"move": choose(mine), "version": mine["version"]})
    assert (capped.status_code, capped.json["code"]) == (409, "table_version_cap")


def _copy(source, target) -> None:
    """A SQLite database copied whole, its write-ahead log included."""
    import sqlite3

    with closing(sqlite3.connect(source)) as origin, closing(sqlite3.connect(target)) as copy:
        origin.backup(copy)


def _restore(app, store_url: str, table: str, saved: Any) -> None:
    """Put the store back as ``saved`` holds it (from :func:`_save`)."""
    if store_url.startswith("sqlite"):
        _copy(saved, store_url.removeprefix("sqlite:///"))
        return
    client = app.extensions["thirtyone.tables"]._client
    for name, dump in saved.items():
        client.delete(name)
        client.restore(name, 0, dump)


def _save(app, store_url: str, table: str, folder) -> Any:
    if store_url.startswith("sqlite"):
        copy = folder / "copy.sqlite3"
        _copy(store_url.removeprefix("sqlite:///"), copy)
        return copy
    client = app.extensions["thirtyone.tables"]._client
    names = [f"thirtyone:{{{table}}}", f"thirtyone:{{{table}}}:log"]
    return {name: client.dump(name) for name in names if client.exists(name)}


def test_a_store_that_lost_versions_never_reuses_one(app, client, store_url, tmp_path):
    created = open_table(client, players=2, options=LASTING)
    table, keys = created["table"], keys_of(created)
    play_one(client, table, keys)
    saved = _save(app, store_url, table, tmp_path)
    seen = [play_one(client, table, keys) for _ in range(3)]
    highest = seen[-1]
    _restore(app, store_url, table, saved)
    # This process served version `highest`: the table goes on above it, with the state the
    # store has (no hand of the lost timeline is shown).
    now = client.get(f"/v1/tables/{table}", headers=bearer(keys[0])).json
    assert now["version"] > highest["version"]
    restored = app.extensions["thirtyone.tables"].load(table)
    assert now["view"] == client.get(f"/v1/tables/{table}",
                                     headers=bearer(keys[0])).json["view"]
    assert restored.version == now["version"]
    # A move chosen on the lost timeline is refused.
    seat = highest["to_move"] if highest["to_move"] is not None else 0
    stale = client.post(f"/v1/tables/{table}/moves", headers=bearer(keys[seat]),
                        json={"move": choose(highest) if highest["legal_moves"] else
                              {"type": "knock"}, "version": highest["version"]})
    assert (stale.status_code, stale.json["code"]) == (409, "stale_version")
    # A stream resuming from the lost timeline is told to reset, with the table now.
    stream = client.get(f"/v1/tables/{table}/events?key={keys[0]}",
                        headers={"Last-Event-ID": str(highest["version"])}, buffered=False)
    first = next(chunk for chunk in stream.response if b"data:" in chunk)
    stream.close()
    assert first.startswith(b"event: table_reset\n")
    assert json.loads(first.split(b"data: ", 1)[1])["version"] == now["version"]
    # Play goes on from there.
    assert play_one(client, table, keys)["version"] == now["version"] + 1


def test_a_table_whose_log_is_gone_is_lost_not_empty(app, client, store_url):
    created = open_table(client, players=2, options=LASTING)
    table, keys = created["table"], keys_of(created)
    moves = [play_one(client, table, keys) for _ in range(2)]
    tables = app.extensions["thirtyone.tables"]
    if store_url.startswith("sqlite"):
        import sqlite3

        with sqlite3.connect(store_url.removeprefix("sqlite:///")) as connection:
            connection.execute("DELETE FROM entries WHERE table_id = ?", (table,))
    else:
        # What volatile-lru does to a table: the log evicted, the record kept.
        tables._client.delete(f"thirtyone:{{{table}}}:log")
    resumed = client.get(f"/v1/tables/{table}/events?key={keys[0]}",
                         headers={"Last-Event-ID": str(moves[0]["version"] - 1)})
    assert (resumed.status_code, resumed.json["code"]) == (410, "table_lost")


def test_readyz_reports_the_store_apart_and_healthz_reads_nothing(client):
    assert client.get("/readyz").json["tables"]["status"] == "ok"
    assert client.get("/readyz/tables").status_code == 200
    down = make_app("redis://127.0.0.1:1/0").test_client()
    # The stateless API still serves: the instance stays in rotation.
    ready = down.get("/readyz")
    assert ready.status_code == 200
    assert ready.json["tables"] == {"status": "unavailable", "nodes": {"store": False}}
    assert down.post("/v1/hands/score", json={"variant": "scat", "hand": ["AS", "KS", "QS"]}
                     ).status_code == 200
    tables = down.get("/readyz/tables")
    assert (tables.status_code, tables.json["code"]) == (503, "store_unavailable")
    assert int(tables.headers["Retry-After"]) > 0
    assert down.get("/healthz").status_code == 200


def test_metrics_count_requests_commits_and_conflicts(client):
    created = open_table(client, players=2, options=LASTING)
    play_one(client, created["table"], keys_of(created))
    client.post(f"/v1/tables/{created['table']}/moves", headers=bearer(keys_of(created)[0]),
                json={"move": {"type": "knock"}, "version": 0})
    text = client.get("/metrics").get_data(as_text=True)
    assert 'thirtyone_requests_total{operation="POST /v1/tables/<table>/moves",status="200"}' \
        in text
    for name in ("thirtyone_commits_total", "thirtyone_conflicts_total",
                 "thirtyone_request_seconds_bucket", "thirtyone_store_seconds_bucket",
                 "thirtyone_open_streams", "thirtyone_bot_cpu_seconds_bucket"):
        assert name in text


def test_a_full_redis_is_a_503_with_retry_after(redis_url):
    import redis

    client = make_app(redis_url).test_client()
    created = open_table(client, players=2, options=LASTING)
    admin = redis.Redis.from_url(redis_url)
    admin.config_set("maxmemory", "1")
    try:
        mine = client.get(f"/v1/tables/{created['table']}",
                          headers=bearer(keys_of(created)[created["to_move"]])).json
        full = client.post(f"/v1/tables/{created['table']}/moves",
                           headers=bearer(keys_of(created)[created["to_move"]]),
                           json={"move": choose(mine), "version": mine["version"]})
        opened = client.post("/v1/tables", json={"variant": "scat", "players": 2})
    finally:
        admin.config_set("maxmemory", "0")
    for answer in (full, opened):
        assert (answer.status_code, answer.json["code"]) == (503, "store_full")
        assert int(answer.headers["Retry-After"]) > 0


def test_a_retry_of_an_unconfirmed_move_is_answered_only_as_durably(redis_url):
    """A store that wants one replica and has none: the move is committed on the primary but
    answered 503 commit_unconfirmed; its retry with the same Idempotency-Key is not answered
    200 at once (the acknowledged move a failover then lost), but 503 again until a replica
    has it."""
    client = make_app(redis_url, THIRTYONE_REDIS_REPLICAS=1).test_client()
    for _ in range(20):
        # A table where the human moves first: its opening commits nothing.
        created = client.post("/v1/tables", json={"variant": "scat", "players": 2,
                                                  "bots": {"1": "greedy"}, "options": QUICK})
        if created.status_code == 201 and created.json["version"] == 0:
            break
    assert created.status_code == 201 and created.json["to_move"] == 0
    table, key = created.json["table"], created.json["seats"][0]["key"]
    mine = client.get(f"/v1/tables/{table}", headers=bearer(key)).json
    move = {"move": choose(mine), "version": mine["version"]}
    headers = {**bearer(key), **idempotent(str(uuid.uuid4()))}
    first = client.post(f"/v1/tables/{table}/moves", json=move, headers=headers)
    assert (first.status_code, first.json["code"]) == (503, "commit_unconfirmed")
    again = client.post(f"/v1/tables/{table}/moves", json=move, headers=headers)
    assert (again.status_code, again.json["code"]) == (503, "commit_unconfirmed")


def test_a_cursor_from_a_restored_store_is_reset_even_on_restarted_instances(
        app, client, store_url, tmp_path):
    created = open_table(client, players=2, options=LASTING)
    table, keys = created["table"], keys_of(created)
    play_one(client, table, keys)
    saved = _save(app, store_url, table, tmp_path)
    for _ in range(3):
        play_one(client, table, keys)
    seen = client.get(f"/v1/tables/{table}", headers=bearer(keys[0])).json
    epoch, version, _ = seen["cursor"].split(".")
    assert (epoch, int(version)) == (seen["epoch"], seen["version"])
    _restore(app, store_url, table, saved)
    # Instances restarted on the restored store remember nothing of what they served: the
    # table goes on from the older version, and its next versions have other content.
    restarted = make_app(store_url).test_client()
    while restarted.get(f"/v1/tables/{table}").json["version"] < seen["version"]:
        play_one(restarted, table, keys)
    now = restarted.get(f"/v1/tables/{table}", headers=bearer(keys[0])).json
    assert now["epoch"] == seen["epoch"] and now["cursor"] != seen["cursor"]
    # The old cursor is not on this timeline: the stream resets, the long poll says so.
    stream = restarted.get(f"/v1/tables/{table}/events?key={keys[0]}",
                           headers={"Last-Event-ID": seen["cursor"]}, buffered=False)
    first = next(chunk for chunk in stream.response if b"data:" in chunk)
    stream.close()
    assert first.startswith(b"event: table_reset\nid: " + now["cursor"].encode() + b"\n")
    polled = restarted.get(f"/v1/tables/{table}/updates?after={seen['cursor']}&wait=0",
                           headers=bearer(keys[0]))
    assert (polled.status_code, polled.json["code"]) == (409, "table_reset")
    assert f"version {now['version']} of epoch {now['epoch']}" in polled.json["detail"]
    # A cursor of another epoch, even below the table's version, is reset too.
    another = ("1" if epoch[0] == "0" else "0") + epoch[1:]
    other = restarted.get(f"/v1/tables/{table}/updates?after={another}.1&wait=0")
    assert (other.status_code, other.json["code"]) == (409, "table_reset")
    # The current cursor resumes; a bare version (a client from before cursors) still does.
    for after in (now["cursor"], str(now["version"]), f"{now['epoch']}.{now['version']}"):
        polled = restarted.get(f"/v1/tables/{table}/updates?after={after}&wait=0")
        assert polled.status_code == 200 and polled.json["cursor"] == now["cursor"]
    for bad in ("1.2.3", f"{epoch}.x", f"{epoch}.1.zz", "a.b.c.d"):
        refused = restarted.get(f"/v1/tables/{table}/updates?after={bad}&wait=0")
        assert (refused.status_code, refused.json["errors"][0]["code"]) == (422, "bad_cursor")


def test_a_table_written_in_another_lineage_of_redis_goes_on_on_a_new_epoch(redis_url):
    """What a Redis restarted from its files, restored from a copy or promoted from a replica
    looks like to a table: its hash names a lineage (replication id) that is not the node's
    now. The commit script refuses a move on it, the next read moves it onto a new epoch
    above its version, and a cursor of the old epoch is reset."""
    import redis

    from thirtyone.web.store import Entry, TableReloaded

    app = make_app(redis_url)
    client = app.test_client()
    created = open_table(client, players=2, options=LASTING)
    table, keys = created["table"], keys_of(created)
    seen = play_one(client, table, keys)
    admin = redis.Redis.from_url(redis_url)
    lineage = admin.info("replication")["master_replid"].encode()
    assert admin.hget(f"thirtyone:{{{table}}}", "lineage") == lineage
    admin.hset(f"thirtyone:{{{table}}}", "lineage", "0" * 40)
    tables = app.extensions["thirtyone.tables"]
    record = tables.load(table)
    assert record.reloaded and record.version == seen["version"]
    # Refused in Redis itself, whatever the process believes (a move, or a seat change).
    entry = Entry(record.version + 1, [], [], prev=record.digest, nonce="n").chained()
    with pytest.raises(TableReloaded):
        tables.commit(table, record.version, record.state(), entry)
    now = client.get(f"/v1/tables/{table}", headers=bearer(keys[0])).json
    assert now["epoch"] != seen["epoch"] and now["version"] == seen["version"] + 1
    assert admin.hget(f"thirtyone:{{{table}}}", "lineage") == lineage
    assert not tables.load(table).reloaded
    polled = client.get(f"/v1/tables/{table}/updates?after={seen['cursor']}&wait=0",
                        headers=bearer(keys[0]))
    assert (polled.status_code, polled.json["code"]) == (409, "table_reset")
    # A process started now (no cache) sees the same table, and play goes on.
    restarted = make_app(redis_url).test_client()
    assert restarted.get(f"/v1/tables/{table}").json["epoch"] == now["epoch"]
    assert play_one(restarted, table, keys)["epoch"] == now["epoch"]


def _loads(app, monkeypatch) -> list[str]:
    """The tables ``app``'s store is asked to read from now on (filled as it is)."""
    tables = app.extensions["thirtyone.tables"]
    read = tables.load
    loaded: list[str] = []

    def counted(table: str):
        loaded.append(table)
        return read(table)

    monkeypatch.setattr(tables, "load", counted)
    return loaded


def _drawn(client, table: str, keys: dict[int, str]) -> tuple[dict[str, Any], str]:
    """The seat to move draws from the stock (it discards next, at the version its answer
    names): that answer, and the seat's key."""
    for _ in range(20):
        public = client.get(f"/v1/tables/{table}").json
        seat = public["to_move"] if public["to_move"] is not None else min(keys)
        mine = client.get(f"/v1/tables/{table}", headers=bearer(keys[seat])).json
        draws = [move for move in mine["legal_moves"]
                 if move["type"] == "draw" and move["source"] == "stock"]
        if draws:
            drawn = client.post(f"/v1/tables/{table}/moves", headers=bearer(keys[seat]),
                                json={"move": draws[0], "version": mine["version"]})
            assert drawn.status_code == 200, drawn.json
            return drawn.json, keys[seat]
        play_one(client, table, keys)
    raise AssertionError("nobody drew from the stock in 20 turns")


def _discard(answer: dict[str, Any]) -> dict[str, Any]:
    return next(move for move in answer["legal_moves"] if move["type"] == "discard")


def test_a_move_at_the_version_this_process_committed_reads_no_table(app, client, monkeypatch):
    # No discard of this test ends the match (LASTING), whose archiving reads the table (once,
    # after the commit) to make its record.
    created = open_table(client, players=2, options=LASTING)
    table = created["table"]
    drawn, key = _drawn(client, table, keys_of(created))
    loaded = _loads(app, monkeypatch)
    discarded = client.post(f"/v1/tables/{table}/moves", headers=bearer(key),
                            json={"move": _discard(drawn), "version": drawn["version"]})
    assert discarded.status_code == 200, discarded.json
    assert discarded.json["version"] == drawn["version"] + 1 and loaded == []
    # Named at another version (a stale client): the table is read, and the answer is the
    # one it always was.
    stale = client.post(f"/v1/tables/{table}/moves", headers=bearer(key),
                        json={"move": {"type": "knock"}, "version": drawn["version"]})
    assert (stale.status_code, stale.json["code"]) == (409, "stale_version")
    assert loaded == [table]
    # With an Idempotency-Key a retry's stored answer may be due, which no commit proves: the
    # table is read.
    again, key = _drawn(client, table, keys_of(created))
    loaded.clear()
    retried = client.post(f"/v1/tables/{table}/moves",
                          headers={**bearer(key), **idempotent("held-" + uuid.uuid4().hex)},
                          json={"move": _discard(again), "version": again["version"]})
    assert retried.status_code == 200 and loaded == [table]


def test_a_held_record_answers_only_through_its_own_commit(store_url):
    """Two processes: one holds a version, the other rotates the key of the seat to move
    (a new version). Every answer of the first is that of the table as the store has it: the
    old key opens nothing, the new one is not refused for the record it held."""
    here, there = make_app(store_url).test_client(), make_app(store_url).test_client()
    created = open_table(here, players=2, options=LASTING)
    table = created["table"]
    drawn, old = _drawn(here, table, keys_of(created))
    seat = drawn["seat"]
    rotated = there.post(f"/v1/tables/{table}/seats/{seat}/key", headers=bearer(old))
    assert rotated.status_code == 201
    new = rotated.json["key"]
    move = {"move": _discard(drawn), "version": drawn["version"]}
    refused = here.post(f"/v1/tables/{table}/moves", headers=bearer(old), json=move)
    assert refused.status_code == 403, refused.json
    stale = here.post(f"/v1/tables/{table}/moves", headers=bearer(new), json=move)
    assert (stale.status_code, stale.json["code"]) == (409, "stale_version")
    now = there.get(f"/v1/tables/{table}").json["version"]
    assert now == drawn["version"] + 1
    played = here.post(f"/v1/tables/{table}/moves", headers=bearer(new),
                       json={**move, "version": now})
    assert played.status_code == 200 and played.json["version"] == now + 1


def test_a_move_on_a_held_record_of_a_store_that_lost_versions_is_stale(
        app, client, store_url, tmp_path):
    created = open_table(client, players=2, options=LASTING)
    table, keys = created["table"], keys_of(created)
    play_one(client, table, keys)
    saved = _save(app, store_url, table, tmp_path)
    drawn, key = _drawn(client, table, keys)
    _restore(app, store_url, table, saved)
    # This process holds the version it committed, which the store lost: the move named at
    # it is stale, and the table goes on above it (no version is used twice).
    lost = client.post(f"/v1/tables/{table}/moves", headers=bearer(key),
                       json={"move": _discard(drawn), "version": drawn["version"]})
    assert (lost.status_code, lost.json["code"]) == (409, "stale_version")
    assert client.get(f"/v1/tables/{table}").json["version"] > drawn["version"]


def test_the_clock_due_on_a_held_record_is_played_and_the_move_answered_as_read(
        app, client, monkeypatch):
    import time
    from types import SimpleNamespace

    from thirtyone.web.tables import clocks, life

    clock = SimpleNamespace(now=time.time())
    fake = SimpleNamespace(time=lambda: clock.now)
    monkeypatch.setattr(clocks, "time", fake)
    monkeypatch.setattr(life, "time", fake)
    for _ in range(5):
        created = open_table(client, players=2, options=QUICK, turn_seconds=5)
        drawn, key = _drawn(client, created["table"], keys_of(created))
        if not drawn["is_over"]:
            break
    table = created["table"]
    loaded = _loads(app, monkeypatch)
    clock.now += 6  # past the seat's deadline: the clock's move is due before the seat's
    late = client.post(f"/v1/tables/{table}/moves", headers=bearer(key),
                       json={"move": _discard(drawn), "version": drawn["version"]})
    assert (late.status_code, late.json["code"]) == (409, "stale_version")
    assert loaded  # answered from the table as read, after the clock's move
    events = client.get(f"/v1/tables/{table}/updates?after={drawn['version']}&wait=0").json
    assert "autopilot" in [event["type"] for event in events["events"]]
