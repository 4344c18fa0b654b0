"""The archive of finished matches, on SQLite and on a real PostgreSQL: a record written once
when its match ends, served and verified after the table store lost the table, and a player's
matches listed a page at a time."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
import uuid
import zlib
from typing import Any

import pytest
import redis

from thirtyone import record as records
from thirtyone.web.archive import SchemaBehind, migrations, open_archive
from thirtyone.web.store import KEPT_LOG_SECONDS, KEPT_REQUESTS
from thirtyone.web.tables import records as table_records

from .test_tables import (
    QUICK,
    bearer,
    choose,
    make_app,
    open_table,
    play_one,
    store_url,  # noqa: F401 - a fixture
)


def _record(table: str, names: list[str | None], winners: list[int]) -> str:
    return json.dumps({"table": table, "variant": "scat", "players": len(names),
                       "winners": winners,
                       "seats": [{"seat": seat, "name": name, "bot": None}
                                 for seat, name in enumerate(names)]})


@pytest.fixture(params=["sqlite", "postgres"])
def archive_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/archive.sqlite3"
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def migrated(archive_url):
    archive = open_archive(archive_url)
    archive.migrate()
    yield archive
    archive.close()


def test_migrations_run_once_in_order_and_postgres_waits_for_them(archive_url):
    archive = open_archive(archive_url)
    try:
        want = [version for version, _ in migrations()]
        if archive_url.startswith("postgresql"):
            # The app does not change a shared schema: the command does.
            with pytest.raises(SchemaBehind):
                archive.get("t1")
        assert archive.schema_version() == 0
        assert archive.migrate() == want
        assert archive.migrate() == []
        assert archive.schema_version() == len(want)
    finally:
        archive.close()


def test_a_record_is_written_once_and_found_by_name_or_key_hash(migrated):
    first = _record("t1", ["Ana", None], [0])
    assert migrated.put("t1", first, [hashlib.sha256(b"k0").hexdigest(), None], 100.0, 101.0)
    # A second write (another worker, a retry) keeps the first record.
    assert not migrated.put("t1", _record("t1", ["Eve", None], [1]), [None, None], 200.0, 201.0)
    assert migrated.get("t1") == first and migrated.get("t2") is None
    for at, table in enumerate(("t2", "t3", "t4"), start=2):
        migrated.put(table, _record(table, ["ana", "Bruno"], [1]), [None, None], 100.0 + at,
                     101.0 + at)
    page, total = migrated.matches("ANA", 0, 2)
    assert total == 4 and [match.table for match in page] == ["t4", "t3"]
    page, total = migrated.matches(" ana ", 2, 2)
    assert [match.table for match in page] == ["t2", "t1"]
    assert page[1].seats[0] == {"seat": 0, "name": "Ana", "bot": None} and page[1].winners == [0]
    assert [match.table for match in migrated.matches(hashlib.sha256(b"k0").hexdigest(), 0,
                                                      10)[0]] == ["t1"]
    assert migrated.matches("eve", 0, 10) == ([], 0)


def _play_out(client, **body: Any) -> tuple[str, dict[int, str], dict[str, Any]]:
    opened = open_table(client, players=2, options=QUICK, name="Ana", **body)
    table, keys = opened["table"], opened["keys"]
    answer: dict[str, Any] = {"is_over": False}
    for _ in range(500):
        answer = play_one(client, table, keys)
        if answer["is_over"]:
            break
    assert answer["is_over"]
    return table, keys, answer


def _served_and_verified(client, table: str) -> dict[str, Any]:
    table_records._built.clear()  # this process's copy: the archive must serve it
    fetched = client.get(f"/v1/tables/{table}/record")
    assert fetched.status_code == 200, fetched.json
    document = records.loads(fetched.data)
    assert [check.code for check in records.verify(document)][-1] == "winners"
    return document


@pytest.mark.parametrize("where", ["sqlite", "postgres"])
def test_a_finished_match_is_served_from_the_archive_after_the_store_lost_it(
        where, tmp_path, request):
    if where == "postgres":
        # A fleet's setup: Redis for the live tables, PostgreSQL for the archive.
        store_url = request.getfixturevalue("redis_url")
        archive_url = request.getfixturevalue("postgres_url")
        assert subprocess.run([sys.executable, "-m", "thirtyone", "archive", "migrate",
                               "--url", archive_url], capture_output=True).returncode == 0
        config = {"THIRTYONE_ARCHIVE": archive_url}
    else:
        # `make serve`'s setup: the archive is a SQLite file beside the table store.
        store_url = f"sqlite:///{tmp_path}/tables.sqlite3"
        config = {"THIRTYONE_ARCHIVE": None}
    client = make_app(store_url, **config).test_client()
    table, keys, answer = _play_out(client)
    if where == "sqlite":
        assert (tmp_path / "archive.sqlite3").is_file()
    before = client.get(f"/v1/tables/{table}/record").data

    if where == "postgres":
        redis.Redis.from_url(store_url).flushall()
    else:
        with sqlite3.connect(tmp_path / "tables.sqlite3") as connection:
            for name in ("tables", "entries", "archive", "snapshots", "requests"):
                connection.execute(f"DELETE FROM {name}")
    assert client.get(f"/v1/tables/{table}").status_code == 404
    document = _served_and_verified(client, table)
    assert records.loads(before) == document
    assert document["seed"]["server"] == answer["server_seed"]

    listed = client.get("/v1/records", query_string={"player": "ana"}).json
    assert listed["total"] == 1 and listed["matches"][0]["table"] == table
    assert listed["matches"][0]["record"] == f"/v1/tables/{table}/record"
    mine = hashlib.sha256(keys[1].encode()).hexdigest()
    assert client.get("/v1/records", query_string={"player": mine}).json["total"] == 1
    assert client.get("/v1/records", query_string={"player": "nobody"}).json["total"] == 0
    bad = client.get("/v1/records", query_string={"player": "ana", "limit": 0})
    assert (bad.status_code, bad.json["errors"][0]["field"]) == (422, "limit")


def test_a_match_the_archive_missed_is_archived_when_its_record_is_read(tmp_path, monkeypatch):
    app = make_app(f"sqlite:///{tmp_path}/tables.sqlite3", THIRTYONE_ARCHIVE=f"sqlite:///{tmp_path}/archive.sqlite3")
    client = app.test_client()
    archive = app.extensions["thirtyone.archive"]
    # The archive's file cannot be opened while the match ends: the move still succeeds.
    (tmp_path / "a-file").write_text("")
    monkeypatch.setattr(archive, "path", str(tmp_path / "a-file" / "archive.sqlite3"))
    table, _, _ = _play_out(client)
    monkeypatch.undo()
    assert archive.get(table) is None
    _served_and_verified(client, table)
    assert archive.get(table) is not None


def test_without_a_migrated_postgres_the_records_list_is_an_honest_503(postgres_url, tmp_path):
    client = make_app(f"sqlite:///{tmp_path}/tables.sqlite3",
                      THIRTYONE_ARCHIVE=postgres_url).test_client()
    answer = client.get("/v1/records", query_string={"player": "ana"})
    assert answer.status_code == 503 and answer.json["code"] == "archive_unavailable"
    assert answer.headers["Retry-After"]


def _play_out_keyed(client, table: str, keys: dict[int, str]) -> list[tuple[str, dict, Any]]:
    """Play ``table`` to its end, each move with an Idempotency-Key: (key, body, answer)."""
    sent = []
    answer: dict[str, Any] = {"is_over": False}
    while not answer["is_over"]:
        public = client.get(f"/v1/tables/{table}").json
        seat = public["to_move"] if public["to_move"] is not None else min(keys)
        mine = client.get(f"/v1/tables/{table}", headers=bearer(keys[seat])).json
        body = {"move": choose(mine), "version": mine["version"]}
        key = str(uuid.uuid4())
        response = client.post(f"/v1/tables/{table}/moves", json=body,
                               headers={**bearer(keys[seat]), "Idempotency-Key": key})
        assert response.status_code == 200, response.json
        answer = response.json
        sent.append((key, {"seat": seat, "body": body}, answer))
    return sent


def test_an_archived_table_shrinks_to_what_a_late_reader_needs(store_url, tmp_path):  # noqa: F811 - the fixture
    app = make_app(store_url, THIRTYONE_ARCHIVE=f"sqlite:///{tmp_path}/archive.sqlite3",
                   THIRTYONE_FINISHED_TTL=120)
    client = app.test_client()
    opened = open_table(client, players=2, options={"lives": 3, "free_ride": False})
    table, keys = opened["table"], opened["keys"]
    sent = _play_out_keyed(client, table, keys)
    tables = app.extensions["thirtyone.tables"]
    final = sent[-1][2]["version"]
    key, move, answer = sent[-1]

    def retry() -> Any:
        return client.post(f"/v1/tables/{table}/moves", json=move["body"],
                           headers={**bearer(keys[move["seat"]]), "Idempotency-Key": key})

    # The moves left the table store (the archive has them); the last move retried with its
    # key still gets its first answer.
    assert tables.archive(table) == []
    again = retry()
    assert again.status_code == 200 and again.json["version"] == answer["version"]
    if store_url.startswith("redis"):
        live = redis.Redis.from_url(store_url)
        assert 0 < live.ttl(f"thirtyone:{{{table}}}") <= 120
        for short in ("log", "snapshots"):
            assert 0 < live.ttl(f"thirtyone:{{{table}}}:{short}") <= KEPT_LOG_SECONDS
        fields = live.hkeys(f"thirtyone:{{{table}}}")
        assert sum(name.startswith(b"req:") for name in fields) <= KEPT_REQUESTS
        # Once the log's short while is over: the table in the live store, under 4 KB, and
        # a retry is told the move was applied (never applied twice).
        live.delete(f"thirtyone:{{{table}}}:log", f"thirtyone:{{{table}}}:snapshots")
        held = sum(live.memory_usage(key, samples=0) or 0
                   for key in live.scan_iter(f"thirtyone:{{{table}}}*"))
        assert held < 4096, held
        # Most of it was the state, kept compressed for the late readers below.
        state = live.hget(f"thirtyone:{{{table}}}", "state")
        assert state[:1] == b"\x78" and json.loads(zlib.decompress(state))["phase"] == "game_over"
        late = retry()
        assert (late.status_code, late.json["code"]) == (409, "idempotent_answer_expired")
    # A late reader: the table, its record, a resume from long ago (a resync), a rematch.
    assert client.get(f"/v1/tables/{table}").json["is_over"]
    _served_and_verified(client, table)
    resumed = client.get(f"/v1/tables/{table}/updates?after=1&wait=0", headers=bearer(keys[0]))
    assert resumed.status_code == 200 and resumed.json["version"] == final
    rematch = client.post(f"/v1/tables/{table}/rematch", headers=bearer(keys[1]))
    assert rematch.status_code == 201, rematch.json
