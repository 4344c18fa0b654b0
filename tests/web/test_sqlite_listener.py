"""The SQLite store's listener: a stream in one process learns of another process's commit
within a poll or two, and while nothing is committed the listener reads no table's version
(one ``PRAGMA data_version`` per poll, not a query of every watched table)."""

from __future__ import annotations

import socket
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import calibrated

from thirtyone.web.store import Entry, TableStore, first_digest
from thirtyone.web.store.bells import QUEUE_LENGTH, Bells
from thirtyone.web.store.sqlite import POLL_SECONDS, SQLiteStore
from thirtyone.web.tables.ledger import first_record


@pytest.fixture
def stores(tmp_path) -> Iterator[tuple[SQLiteStore, SQLiteStore]]:
    """Two stores on one file, as two worker processes hold them."""
    path = str(tmp_path / "tables.sqlite3")
    listening, committing = SQLiteStore(path, ttl=600), SQLiteStore(path, ttl=600)
    yield listening, committing
    listening.close()
    committing.close()


def new_table(store: TableStore, name: str) -> str:
    """A table of no seats named ``name`` in ``store``."""
    record = first_record(name, "{}", seats=(), seed_sha256="")
    assert record.digest == first_digest(record.epoch)
    store.create(record, {})
    return record.table


def commit_next(store: TableStore, table: str) -> None:
    """Commit ``table``'s next version (no move), as another process would."""
    record = store.load(table)
    entry = Entry(record.version + 1, [], [], prev=record.digest,
                  nonce=str(time.monotonic_ns())).chained()
    store.commit(table, record.version, {}, entry)


def test_another_process_commit_wakes_a_stream_and_an_idle_poll_reads_no_version(stores):
    listening, committing = stores
    watched, other = new_table(committing, "watched"), new_table(committing, "other")
    queries: list[list[str]] = []
    versions = listening._versions

    def counted(tables: list[str]) -> dict[str, int]:
        queries.append(sorted(tables))
        return versions(tables)

    listening._versions = counted  # type: ignore[method-assign]
    with listening.listen(watched) as woken:
        # The table is new to the listener: read once, then quiet.
        assert woken.wait(calibrated(5))
        woken.clear()
        asked = len(queries)
        time.sleep(20 * POLL_SECONDS)
        assert len(queries) == asked, "an idle poll read the tables' versions"
        assert not woken.is_set()
        # A commit elsewhere, to a table nobody streams: read, nobody woken.
        commit_next(committing, other)
        deadline = time.monotonic() + calibrated(5)
        while len(queries) == asked and time.monotonic() < deadline:
            time.sleep(POLL_SECONDS / 5)
        assert len(queries) == asked + 1 and queries[-1] == [watched]
        time.sleep(4 * POLL_SECONDS)
        assert not woken.is_set()
        # A commit of the watched table, in the other process: the stream is woken within a
        # poll or two (a loaded machine is given twenty).
        committed = time.monotonic()
        commit_next(committing, watched)
        assert woken.wait(calibrated(5))
        assert time.monotonic() - committed < calibrated(20 * POLL_SECONDS)
        with listening.listen(other) as second:
            # A table gains its first stream with nothing committed: read once, and woken
            # (its stream may have read the log just before a commit).
            assert second.wait(calibrated(5))
            assert queries[-1] == sorted([watched, other])


def test_an_idle_watcher_sleeps_until_a_bell_and_a_dead_process_bell_is_removed(stores):
    listening, committing = stores
    watched = new_table(committing, "watched")
    looks: list[tuple[dict[str, int], bool]] = []
    news = listening._news

    def counted(*args: Any) -> tuple[dict[str, int], bool]:
        heard = news(*args)
        looks.append(heard)
        return heard

    listening._news = counted  # type: ignore[method-assign]
    with listening.listen(watched) as woken:
        assert woken.wait(calibrated(5))  # new to the watcher: read once
        woken.clear()
        before = len(looks)
        time.sleep(2.0)
        # Polled, it would have woken 40 times; with a bell, once a second at most.
        assert len(looks) - before <= 3, looks
        # A commit in the other process rings: the bell names the table and its version.
        seen = len(looks)
        commit_next(committing, watched)
        assert woken.wait(calibrated(5))
        assert {"watched": 1} in [rung for rung, _ in looks[seen:]], looks[seen:]
    # No stream left: the watcher sleeps on.
    before = len(looks)
    time.sleep(2.0)
    assert len(looks) - before <= 3, looks[before:]
    # A bell left by a process that died: the next ring removes it.
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = Path(committing._bells.folder) / "1-dead"
    dead.bind(str(path))
    dead.close()
    commit_next(committing, watched)
    assert not path.exists()


def test_a_bell_full_enough_to_drop_rings_makes_the_watcher_read_the_versions(tmp_path):
    path = str(tmp_path / "tables.sqlite3")
    watching, ringer = SQLiteStore(path, ttl=600), Bells(path)
    bell = watching._bells.listen()  # the watcher's, read here by hand
    try:
        ringer.ring("t", 1)
        ringer.ring("t", 2)
        ringer.ring("u", 5)
        # A few rings: the tables and their newest versions, no need to read the file.
        assert watching._news(bell, time.monotonic()) == ({"t": 2, "u": 5}, False)
        for version in range(QUEUE_LENGTH + 5):
            ringer.ring("t", version)  # the last few dropped: the bell is full
        rung, look = watching._news(bell, time.monotonic())
        assert QUEUE_LENGTH - 1 <= rung["t"] < QUEUE_LENGTH + 4, rung  # the last were lost
        assert look
    finally:
        bell.close()
        ringer.close()
        watching.close()


def test_a_sweep_notes_its_seats_in_one_commit(stores):
    listening, committing = stores
    tables = [new_table(committing, f"noted-{index}") for index in range(25)]
    with sqlite3.connect(listening.path) as reader:
        reader.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        swept = listening.sweep({table: [0, 1] for table in tables}, 1000.0)
        # The frames the sweep wrote to the log: a commit writes at least one.
        _, frames, _ = reader.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    assert {table: found.seen for table, found in swept.items()} == {
        table: {0: 1000.0, 1: 1000.0} for table in tables}
    assert 0 < frames < 10, frames  # 50 when each seat was a commit of its own


def test_a_sweep_reads_nothing_while_nothing_is_committed(tmp_path):
    path = str(tmp_path / "tables.sqlite3")
    now = [1000.0]
    sweeping, committing = SQLiteStore(path, ttl=600, clock=lambda: now[0]), SQLiteStore(
        path, ttl=600, clock=lambda: now[0])
    reads: list[list[str]] = []
    read = sweeping._sweep

    def counted(connection: Any, seats: Any, noted: Any) -> Any:
        reads.append(sorted(seats))
        return read(connection, seats, noted)

    sweeping._sweep = counted  # type: ignore[method-assign]
    try:
        tables = [new_table(committing, f"quiet-{index}") for index in range(3)]
        committing.touch(tables[0], 1, 900.0)
        assert sweeping.sweep({tables[0]: [0]}, 950.0)[tables[0]].seen == {0: 950.0, 1: 900.0}
        first = sweeping.sweep({table: [] for table in tables}, 960.0)
        assert len(reads) == 2
        # Nothing committed since: the same, read from nothing (twice, and for fewer tables).
        for asked in (tables, tables, tables[1:]):
            again = sweeping.sweep({table: [] for table in asked}, 970.0)
            assert again == {table: first[table] for table in asked}
        assert len(reads) == 2
        # A commit elsewhere (a seat gone): read.
        committing.gone(tables[0], 1)
        assert sweeping.sweep({table: [] for table in tables}, 980.0)[tables[0]].seen == {
            0: 950.0}
        # A table not read before, a seat to note, a table's expiry: read each time.
        commit_next(committing, tables[2])
        sweeping.sweep({tables[0]: []}, 990.0)
        sweeping.sweep({table: [] for table in tables}, 990.0)
        sweeping.sweep({tables[1]: [0]}, 990.0)
        sweeping.sweep({tables[1]: []}, 990.0)
        sweeping.sweep({tables[1]: []}, 990.0)
        assert len(reads) == 7
        now[0] += 601
        assert sweeping.sweep({tables[1]: []}, 1700.0) == {}
        assert len(reads) == 8
    finally:
        sweeping.close()
        committing.close()
