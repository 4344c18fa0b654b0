"""Tables in a SQLite file: the default store, for the workers of one machine.

WAL lets readers go on while a move is written, and ``busy_timeout`` makes a writer wait its
turn instead of failing. A commit is one ``BEGIN IMMEDIATE`` transaction: the state is
updated only where the version still matches, and the log entry is inserted with it.
Connections are pooled rather than kept per thread: under gevent every request is a greenlet,
and a thousand open streams must not hold a thousand connections.

Streams in another worker process learn of a move by polling the versions of the tables they
wait on (one indexed query every 50 ms while any stream waits); streams in the process that
committed are woken at once.

>>> import tempfile, pathlib
>>> folder = tempfile.TemporaryDirectory()
>>> store = SQLiteStore(str(pathlib.Path(folder.name) / "tables.sqlite3"), ttl=60)
>>> record = TableRecord("t1", 0, '{"round": 1}', (SeatRecord(None, "h"),), "sha")
>>> store.create(record, start={"round": 1})
>>> store.commit("t1", 0, {"round": 2}, Entry(1, [{"type": "knock"}], []))
>>> store.load("t1").version, store.load("t1").state(), [e.version for e in store.entries("t1", 0)]
(1, {'round': 2}, [1])
>>> store.commit("t1", 0, {"round": 3}, Entry(1, [], []))
Traceback (most recent call last):
...
thirtyone.web.store.StaleVersion: the table is at version 1
>>> store.close(); folder.cleanup()
"""

from __future__ import annotations

import json
import queue
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from thirtyone.web.jsonio import dumps
from thirtyone.web.store import (
    Entry,
    SeatRecord,  # noqa: F401 - the doctest above builds one
    StaleVersion,
    StoreUnavailable,
    TableNotFound,
    TableRecord,
    TableStore,
)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    state TEXT NOT NULL,
    meta TEXT NOT NULL,
    start TEXT NOT NULL,
    expires REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS tables_expires ON tables (expires);
CREATE TABLE IF NOT EXISTS entries (
    table_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (table_id, version)
) WITHOUT ROWID;
"""

POLL_SECONDS = 0.05
PURGE_SECONDS = 60.0
# SQLite's default limit on the parameters of one statement is 32,766; stay well below.
_CHUNK = 500


class SQLiteStore(TableStore):
    def __init__(self, path: str, ttl: int) -> None:
        super().__init__(ttl)
        self.path = path
        self._idle: queue.SimpleQueue[sqlite3.Connection] = queue.SimpleQueue()
        self._purged = 0.0
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        with self._connection() as connection:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.executescript(_SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        # isolation_level=None: transactions are begun and ended explicitly, below.
        connection = sqlite3.connect(self.path, timeout=5.0, isolation_level=None,
                                     check_same_thread=False)
        connection.execute("PRAGMA synchronous=NORMAL")
        return connection

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        try:
            connection = self._idle.get_nowait()
        except queue.Empty:
            try:
                connection = self._connect()
            except sqlite3.Error as error:
                raise StoreUnavailable(str(error)) from error
        broken = False
        try:
            yield connection
        except sqlite3.Error as error:
            broken = True
            raise StoreUnavailable(str(error)) from error
        finally:
            if broken:
                connection.close()
            else:
                if connection.in_transaction:
                    connection.rollback()
                self._idle.put(connection)

    def create(self, record: TableRecord, start: dict[str, Any]) -> None:
        now = time.time()
        with self._connection() as connection:
            if now - self._purged > PURGE_SECONDS:
                self._purged = now
                self._purge(connection, now)
            connection.execute(
                "INSERT INTO tables (id, version, state, meta, start, expires) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (record.table, record.version, record.state_json,
                 record.meta_json().decode(), dumps(start).decode(), now + self.ttl),
            )

    def _purge(self, connection: sqlite3.Connection, now: float) -> None:
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("DELETE FROM entries WHERE table_id IN "
                           "(SELECT id FROM tables WHERE expires < ?)", (now,))
        connection.execute("DELETE FROM tables WHERE expires < ?", (now,))
        connection.execute("COMMIT")

    def load(self, table: str) -> TableRecord:
        with self._connection() as connection:
            row = connection.execute(
                "SELECT version, state, meta FROM tables WHERE id = ? AND expires > ?",
                (table, time.time()),
            ).fetchone()
        if row is None:
            raise TableNotFound(table)
        return TableRecord.from_stored(table, row[0], row[1], row[2])

    def start(self, table: str) -> dict[str, Any]:
        with self._connection() as connection:
            row = connection.execute(
                "SELECT start FROM tables WHERE id = ? AND expires > ?", (table, time.time())
            ).fetchone()
        if row is None:
            raise TableNotFound(table)
        return json.loads(row[0])

    def commit(self, table: str, version: int, state: dict[str, Any], entry: Entry) -> None:
        now = time.time()
        with self._connection() as connection:
            connection.execute("BEGIN IMMEDIATE")
            updated = connection.execute(
                "UPDATE tables SET version = ?, state = ?, expires = ? "
                "WHERE id = ? AND version = ? AND expires > ?",
                (entry.version, dumps(state).decode(), now + self.ttl, table, version, now),
            ).rowcount
            if updated != 1:
                row = connection.execute(
                    "SELECT version FROM tables WHERE id = ? AND expires > ?", (table, now)
                ).fetchone()
                connection.execute("ROLLBACK")
                if row is None:
                    raise TableNotFound(table)
                raise StaleVersion(row[0])
            connection.execute(
                "INSERT INTO entries (table_id, version, data) VALUES (?, ?, ?)",
                (table, entry.version, entry.to_json().decode()),
            )
            connection.execute("COMMIT")
        self.hub.notify(table, entry)

    def entries(self, table: str, after: int) -> list[Entry]:
        with self._connection() as connection:
            rows = connection.execute(
                "SELECT data FROM entries WHERE table_id = ? AND version > ? ORDER BY version",
                (table, after),
            ).fetchall()
        return [Entry.from_json(row[0]) for row in rows]

    def _versions(self, tables: list[str]) -> dict[str, int]:
        versions: dict[str, int] = {}
        with self._connection() as connection:
            for start in range(0, len(tables), _CHUNK):
                chunk = tables[start:start + _CHUNK]
                marks = ",".join("?" * len(chunk))
                versions.update(connection.execute(
                    f"SELECT id, version FROM tables WHERE id IN ({marks})", chunk
                ).fetchall())
        return versions

    def _watch(self) -> None:
        known: dict[str, int] = {}
        while True:
            time.sleep(POLL_SECONDS)
            tables = self.hub.tables()
            if not tables:
                known.clear()
                continue
            try:
                versions = self._versions(tables)
            except StoreUnavailable:
                continue
            # A table seen for the first time wakes its streams too: one may have read the
            # log just before a commit that this poll is the first to see.
            for table, version in versions.items():
                if known.get(table) != version:
                    self.hub.notify(table)
            known = versions

    def close(self) -> None:
        while True:
            try:
                self._idle.get_nowait().close()
            except queue.Empty:
                return
