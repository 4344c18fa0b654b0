"""Tables in a SQLite file: the default store, for the workers of one machine.

WAL lets readers go on while a move is written; a writer that finds the database locked
waits its turn in short sleeps (see :meth:`SQLiteStore._run`) instead of failing. A commit is
one ``BEGIN IMMEDIATE`` transaction: the state is updated only where the version and its
digest still match, and the log entry (with its request's record, and a snapshot every
``SNAPSHOT_EVERY`` versions, the rows before the older snapshot deleted) is written with it,
and the version's moves to the table's archive.
Connections are pooled rather than kept per thread: under gevent every request is a greenlet,
and a thousand open streams must not hold a thousand connections.

Streams in another worker process learn of a move from that process's doorbell (see
:mod:`.bells`: a datagram naming the table and its version, sent after each commit to every
process watching the file on this machine), with nothing to do while nothing is committed;
once a second, and whenever a table gains its first stream here, the watcher reads SQLite's
``PRAGMA data_version`` on a connection of its own (a counter in the file's shared memory that
changes only when another connection commits: about 3 µs), and the versions of the tables
streamed here (one indexed query) only when it changed or a table is new to it: a bell lost
costs a second, not the move. Without a bell (its folder unusable) the watcher polls
``data_version`` every 50 ms. Streams in the process that committed are woken at once.

>>> import tempfile, pathlib
>>> folder = tempfile.TemporaryDirectory()
>>> store = SQLiteStore(str(pathlib.Path(folder.name) / "tables.sqlite3"), ttl=60)
>>> record = TableRecord("t1", 0, '{"round": 1}', (SeatRecord(None, "h"),), "sha",
...                      epoch="e", digest="d0")
>>> store.create(record, start={"round": 1})
>>> store.commit("t1", 0, {"round": 2}, Entry(1, [{"type": "knock"}], [], "d0").chained())
>>> store.load("t1").version, store.load("t1").state(), [e.version for e in store.entries("t1", 0)]
(1, {'round': 2}, [1])
>>> store.commit("t1", 0, {"round": 3}, Entry(1, [], [], "d0").chained())
Traceback (most recent call last):
...
thirtyone.web.store.StaleVersion: the table is at version 1
>>> store.close(); folder.cleanup()
"""

from __future__ import annotations

import contextlib
import json
import math
import queue
import socket
import sqlite3
import threading
import time
from collections.abc import Callable, Collection, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVar

from thirtyone.web import metrics
from thirtyone.web.jsonio import dumps
from thirtyone.web.store import (
    KEPT_REQUESTS,
    SNAPSHOT_EVERY,
    Archived,
    Entry,
    RequestRecord,
    SeatRecord,  # noqa: F401 - the doctest above builds one
    StaleVersion,
    StoreUnavailable,
    Swept,
    TableExists,
    TableLost,
    TableNotFound,
    TableRecord,
    TableStore,
)
from thirtyone.web.store.bells import FALLBACK_SECONDS, QUEUE_LENGTH, Bells, heard

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    digest TEXT NOT NULL,
    epoch TEXT NOT NULL,
    state TEXT NOT NULL,
    meta TEXT NOT NULL,
    expires REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS snapshots (
    table_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (table_id, version)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS requests (
    table_id TEXT NOT NULL,
    key TEXT NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (table_id, key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS tables_expires ON tables (expires);
CREATE TABLE IF NOT EXISTS entries (
    table_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (table_id, version)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS archive (
    table_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (table_id, version)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS presence (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    seen REAL NOT NULL,
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS lobby (
    table_id TEXT PRIMARY KEY,
    listed REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS lobby_listed ON lobby (listed);
CREATE TABLE IF NOT EXISTS listers (
    lister TEXT NOT NULL,
    table_id TEXT NOT NULL,
    listed REAL NOT NULL,
    PRIMARY KEY (lister, table_id)
) WITHOUT ROWID;
"""

POLL_SECONDS = 0.05
"""How often a watcher without a bell (see :mod:`.bells`) reads the file's version."""
_RING_BYTES = 512
_RINGS_AT_ONCE = 1000
BUSY_SECONDS = 5.0
PURGE_SECONDS = 60.0
# SQLite's default limit on the parameters of one statement is 32,766; stay well below.
_CHUNK = 500


T = TypeVar("T")


def _busy(error: sqlite3.Error) -> bool:
    """Whether ``error`` says that another connection holds the database's lock."""
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


class SQLiteStore(TableStore):
    """Tables in one SQLite file. ``clock`` tells the time tables expire by (``time.time``;
    a test passes its own, so that a table's expiry needs no waiting)."""

    def __init__(self, path: str, ttl: int, clock: Callable[[], float] = time.time) -> None:
        super().__init__(ttl)
        self.path = path
        self._clock = clock
        self._idle: queue.SimpleQueue[sqlite3.Connection] = queue.SimpleQueue()
        self._purged = 0.0
        self._bells = Bells(path)
        # The last sweep's read: the file's data_version before it, as the sweeps' own
        # connection (which never writes) saw it, and what it read (see sweep).
        self._sweeps_lock = threading.Lock()
        self._sweeps_connection: sqlite3.Connection | None = None
        self._last_sweep: tuple[int, float, dict[str, tuple[int, str, dict[int, float]]]] | None \
            = None
        Path(path).parent.mkdir(parents=True, exist_ok=True)

        def prepare(connection: sqlite3.Connection) -> None:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.executescript(_SCHEMA)

        self._run(prepare)

    def _connect(self) -> sqlite3.Connection:
        # isolation_level=None: transactions are begun and ended explicitly, below. timeout=0:
        # a locked database is waited for in _run, not in SQLite's busy handler.
        connection = sqlite3.connect(self.path, timeout=0, isolation_level=None,
                                     check_same_thread=False)
        connection.execute("PRAGMA synchronous=NORMAL")
        return connection

    def _run(self, work: Callable[[sqlite3.Connection], T], call: str = "other") -> T:
        """``work`` on a pooled connection, rolled back if it fails half-way.

        A database locked by another writer is waited for here, in short sleeps that let the
        other greenlets of a gevent worker run (SQLite's own busy handler sleeps inside C, and
        would stall every stream and request of the worker), for up to 5 s.
        """
        with metrics.store_call(call):
            return self._attempt(work)

    def _attempt(self, work: Callable[[sqlite3.Connection], T]) -> T:
        deadline = time.monotonic() + BUSY_SECONDS
        pause = 0.001
        while True:
            try:
                connection = self._idle.get_nowait()
            except queue.Empty:
                try:
                    connection = self._connect()
                except sqlite3.Error as error:
                    # Opening reads the schema, which another process may hold locked for a
                    # moment (two servers starting on one new file, say).
                    if _busy(error) and time.monotonic() < deadline:
                        time.sleep(pause)
                        pause = min(2 * pause, 0.05)
                        continue
                    raise StoreUnavailable(str(error)) from error
            try:
                result = work(connection)
            except sqlite3.Error as error:
                if _busy(error) and time.monotonic() < deadline:
                    self._release(connection)
                    time.sleep(pause)
                    pause = min(2 * pause, 0.05)
                    continue
                connection.close()
                raise StoreUnavailable(str(error)) from error
            except BaseException:
                self._release(connection)
                raise
            self._release(connection)
            return result

    def _release(self, connection: sqlite3.Connection) -> None:
        if connection.in_transaction:
            connection.rollback()
        self._idle.put(connection)

    def create(self, record: TableRecord, start: Mapping[str, Any]) -> None:
        now = self._clock()

        def insert(connection: sqlite3.Connection) -> None:
            if now - self._purged > PURGE_SECONDS:
                self._purge(connection, now)
                self._purged = now
            connection.execute("BEGIN IMMEDIATE")
            try:
                connection.execute(
                    "INSERT INTO tables (id, version, digest, epoch, state, meta, expires) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (record.table, record.version, record.digest, record.epoch,
                     record.state_json, record.meta_json().decode(), now + self.ttl),
                )
            except sqlite3.IntegrityError:
                connection.execute("ROLLBACK")
                raise TableExists(record.table) from None
            connection.execute("INSERT INTO snapshots (table_id, version, state) VALUES (?, ?, ?)",
                               (record.table, record.version, dumps(start).decode()))
            connection.execute("COMMIT")

        self._run(insert, "create")

    def _purge(self, connection: sqlite3.Connection, now: float) -> None:
        connection.execute("BEGIN IMMEDIATE")
        for kept in ("entries", "archive", "snapshots", "requests", "presence", "lobby",
                     "listers"):
            connection.execute(f"DELETE FROM {kept} WHERE table_id IN "
                               "(SELECT id FROM tables WHERE expires < ?)", (now,))
        connection.execute("DELETE FROM tables WHERE expires < ?", (now,))
        connection.execute("COMMIT")

    def load(self, table: str) -> TableRecord:
        row = self._run(lambda connection: connection.execute(
            "SELECT version, state, meta, epoch, digest FROM tables WHERE id = ? AND expires > ?",
            (table, self._clock()),
        ).fetchone(), "load")
        if row is None:
            raise TableNotFound(table)
        return TableRecord.from_stored(table, *row)

    def snapshot(self, table: str, at: int) -> tuple[int, dict[str, Any]] | None:
        def read(connection: sqlite3.Connection) -> tuple[Any, Any]:
            known = connection.execute("SELECT 1 FROM tables WHERE id = ? AND expires > ?",
                                       (table, self._clock())).fetchone()
            kept = connection.execute(
                "SELECT version, state, version <= ? FROM snapshots WHERE table_id = ? "
                "ORDER BY version DESC", (at, table)).fetchall()
            return known, kept

        known, kept = self._run(read)
        if known is None:
            raise TableNotFound(table)
        if not kept:
            raise TableLost(table)
        for version, state, reaches in kept:
            if reaches:
                return version, json.loads(state)
        return None

    def commit(self, table: str, version: int, state: Mapping[str, Any], entry: Entry,
               meta: bytes | None = None) -> None:
        state_json, entry_json = dumps(state).decode(), entry.to_json().decode()
        archived_json = Archived.of(entry).to_json().decode()
        meta_json = None if meta is None else meta.decode()

        def update(connection: sqlite3.Connection) -> None:
            now = self._clock()
            connection.execute("BEGIN IMMEDIATE")
            updated = connection.execute(
                "UPDATE tables SET version = ?, digest = ?, state = ?, meta = COALESCE(?, meta), "
                "expires = ?" + (", epoch = ?" if entry.reset else "")
                + " WHERE id = ? AND version = ? AND digest = ? AND expires > ?",
                (entry.version, entry.digest, state_json, meta_json, now + self.ttl,
                 *((entry.digest,) if entry.reset else ()), table, version, entry.prev, now),
            ).rowcount
            if updated != 1:
                row = connection.execute(
                    "SELECT version, digest FROM tables WHERE id = ? AND expires > ?",
                    (table, now)).fetchone()
                connection.execute("ROLLBACK")
                if row is None:
                    raise TableNotFound(table)
                if tuple(row) == (entry.version, entry.digest):
                    return  # this very commit, retried
                raise StaleVersion(row[0])
            connection.execute(
                "INSERT INTO entries (table_id, version, data) VALUES (?, ?, ?)",
                (table, entry.version, entry_json),
            )
            # A reset moves the table back onto an older version: what the archive held
            # from there on is the lost timeline's.
            connection.execute("DELETE FROM archive WHERE table_id = ? AND version >= ?",
                               (table, entry.version))
            connection.execute("INSERT INTO archive (table_id, version, data) VALUES (?, ?, ?)",
                               (table, entry.version, archived_json))
            if entry.request is not None:
                key, request = entry.request
                connection.execute(
                    "INSERT OR REPLACE INTO requests (table_id, key, record) VALUES (?, ?, ?)",
                    (table, key, request.to_json().decode()))
            (newest,) = connection.execute(
                "SELECT MAX(version) FROM snapshots WHERE table_id = ?", (table,)).fetchone()
            if newest is None or entry.version - newest >= SNAPSHOT_EVERY:
                connection.execute(
                    "INSERT INTO snapshots (table_id, version, state) VALUES (?, ?, ?)",
                    (table, entry.version, state_json))
                if newest is not None:
                    # Keep the two newest snapshots, and the log after the older one.
                    connection.execute("DELETE FROM snapshots WHERE table_id = ? AND version < ?",
                                       (table, newest))
                    connection.execute("DELETE FROM entries WHERE table_id = ? AND version <= ?",
                                       (table, newest))
            connection.execute("COMMIT")

        self._run(update, "commit")
        self.hub.notify(table, entry)
        self._bells.ring(table, entry.version)

    def compact(self, table: str, ttl: int) -> None:
        # The log and snapshots stay (a file on disk, and the two-snapshot bound holds); the
        # moves and the old idempotency records go, and the table expires soon.
        def shrink(connection: sqlite3.Connection) -> None:
            connection.execute("BEGIN IMMEDIATE")
            row = connection.execute("SELECT version FROM tables WHERE id = ?",
                                     (table,)).fetchone()
            if row is not None:
                connection.execute("DELETE FROM archive WHERE table_id = ?", (table,))
                connection.execute("DELETE FROM requests WHERE table_id = ? AND "
                                   "json_extract(record, '$.version') <= ?",
                                   (table, row[0] - KEPT_REQUESTS))
                connection.execute("UPDATE tables SET expires = ? WHERE id = ?",
                                   (self._clock() + ttl, table))
            connection.execute("COMMIT")

        self._run(shrink, "compact")

    def touch(self, table: str, seat: int, when: float) -> None:
        self._run(lambda connection: connection.execute(
            "INSERT INTO presence (table_id, seat, seen) VALUES (?, ?, ?) "
            "ON CONFLICT (table_id, seat) DO UPDATE SET seen = MAX(seen, excluded.seen)",
            (table, seat, when)))

    def gone(self, table: str, seat: int) -> None:
        self._run(lambda connection: connection.execute(
            "DELETE FROM presence WHERE table_id = ? AND seat = ?", (table, seat)))

    def seen(self, table: str) -> dict[int, float]:
        rows = self._run(lambda connection: connection.execute(
            "SELECT seat, seen FROM presence WHERE table_id = ?", (table,)).fetchall())
        return {int(seat): float(when) for seat, when in rows}

    def sweep(self, seats: Mapping[str, Collection[int]], when: float) -> dict[str, Swept]:
        noted = [(table, seat, when) for table, held in seats.items() for seat in held]
        with self._sweeps_lock, metrics.store_call("sweep"):
            # Nothing committed to the file since the last sweep read it (its data_version
            # the same: a counter in shared memory, about 3 us): what that sweep read still
            # holds. An idle process notes its seats every third of the window, and sweeps
            # every SWEEP_SECONDS: most of its sweeps read nothing.
            version = None if noted else self._data_version()
            last = self._last_sweep
            if version is not None and last is not None and last[0] == version \
                    and self._clock() < last[1] and last[2].keys() >= seats.keys():
                return {table: Swept(dict(last[2][table][2]), *last[2][table][:2])
                        for table in seats if table in last[2]}
            read, expires = self._attempt(
                lambda connection: self._sweep(connection, seats, noted))
            # Kept with the version read before it. A sweep that wrote keeps nothing: its own
            # commit moves the version, and a version read after it could hide another
            # commit made between the two.
            self._last_sweep = None if version is None else (version, expires, read)
        return {table: Swept(dict(seen), version_of, digest)
                for table, (version_of, digest, seen) in read.items()}

    def _data_version(self) -> int | None:
        """The file's ``PRAGMA data_version`` on the sweeps' own connection (None if it
        failed): it moves whenever another connection, of any process, commits."""
        try:
            if self._sweeps_connection is None:
                self._sweeps_connection = self._connect()
            return int(self._sweeps_connection.execute("PRAGMA data_version").fetchone()[0])
        except sqlite3.Error:
            if self._sweeps_connection is not None:
                self._sweeps_connection.close()
                self._sweeps_connection = None
            return None

    def _sweep(self, connection: sqlite3.Connection, seats: Mapping[str, Collection[int]],
               noted: list[tuple[str, int, float]],
               ) -> tuple[dict[str, tuple[int, str, dict[int, float]]], float]:
        """What a sweep reads (each table's version, digest and seats' times), and the first
        expiry of the tables read."""
        if noted:
            # One transaction for every seat noted: in autocommit each row was a commit of
            # its own (200 seats: 200 WAL writes and 2,400 lock calls every sweep).
            connection.execute("BEGIN IMMEDIATE")
            connection.executemany(
                "INSERT INTO presence (table_id, seat, seen) VALUES (?, ?, ?) ON CONFLICT "
                "(table_id, seat) DO UPDATE SET seen = MAX(seen, excluded.seen)", noted)
        read: dict[str, tuple[int, str, dict[int, float]]] = {}
        now, tables, first_expiry = self._clock(), list(seats), math.inf
        # One query for a chunk of tables, not two per table: the sweep runs every
        # SWEEP_SECONDS while streams are open, whatever they do.
        for first in range(0, len(tables), _CHUNK):
            chunk = tables[first:first + _CHUNK]
            marks = ",".join("?" * len(chunk))
            for table, version, digest, expires, seat, at in connection.execute(
                    "SELECT t.id, t.version, t.digest, t.expires, p.seat, p.seen FROM tables AS t "
                    "LEFT JOIN presence AS p ON p.table_id = t.id "
                    f"WHERE t.id IN ({marks}) AND t.expires > ?", (*chunk, now)):
                found = read.get(table)
                if found is None:
                    found = read[table] = (int(version), str(digest), {})
                    first_expiry = min(first_expiry, float(expires))
                if seat is not None:
                    found[2][int(seat)] = float(at)
        if noted:
            connection.execute("COMMIT")
        return read, first_expiry

    def list_public(self, table: str, when: float, lister: str | None = None) -> None:
        def insert(connection: sqlite3.Connection) -> None:
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("INSERT OR REPLACE INTO lobby (table_id, listed) VALUES (?, ?)",
                               (table, when))
            if lister is not None:
                connection.execute(
                    "INSERT OR REPLACE INTO listers (lister, table_id, listed) VALUES (?, ?, ?)",
                    (lister, table, when))
            connection.execute("COMMIT")

        self._run(insert)

    def listed_by(self, lister: str) -> list[str]:
        def read(connection: sqlite3.Connection) -> list[str]:
            connection.execute("BEGIN IMMEDIATE")
            # Each of the lister's rows looked up in the lobby by its key (a few rows), not
            # the whole lobby read.
            connection.execute(
                "DELETE FROM listers WHERE lister = ? AND NOT EXISTS "
                "(SELECT 1 FROM lobby WHERE lobby.table_id = listers.table_id)", (lister,))
            rows = connection.execute(
                "SELECT table_id FROM listers WHERE lister = ? ORDER BY listed DESC",
                (lister,)).fetchall()
            connection.execute("COMMIT")
            return [row[0] for row in rows]

        return self._run(read)

    def unlist(self, table: str) -> None:
        self._run(lambda connection: connection.execute(
            "DELETE FROM lobby WHERE table_id = ?", (table,)))

    def public_tables(self, offset: int, limit: int) -> tuple[list[str], int]:
        def read(connection: sqlite3.Connection) -> tuple[list[str], int]:
            now = time.time()
            # CROSS JOIN: SQLite then starts from the lobby (the public tables), never from
            # the index of every live table's expiry (O(all tables): 21 ms at 100,000).
            live = "FROM lobby CROSS JOIN tables ON tables.id = lobby.table_id WHERE expires > ?"
            rows = connection.execute(
                f"SELECT table_id {live} ORDER BY listed DESC, table_id LIMIT ? OFFSET ?",
                (now, limit, offset)).fetchall()
            total = connection.execute(f"SELECT COUNT(*) {live}", (now,)).fetchone()[0]
            return [row[0] for row in rows], int(total)

        return self._run(read)

    def request(self, table: str, key: str) -> RequestRecord | None:
        row = self._run(lambda connection: connection.execute(
            "SELECT record FROM requests WHERE table_id = ? AND key = ?", (table, key)
        ).fetchone())
        return None if row is None else RequestRecord.from_json(row[0])

    def ping(self) -> None:
        self._run(lambda connection: connection.execute("SELECT 1").fetchone())

    def entries(self, table: str, after: int) -> list[Entry]:
        rows = self._run(lambda connection: connection.execute(
            "SELECT data FROM entries WHERE table_id = ? AND version > ? ORDER BY version",
            (table, after),
        ).fetchall(), "entries")
        return [Entry.from_json(row[0]) for row in rows]

    def archive(self, table: str) -> list[Archived]:
        def read(connection: sqlite3.Connection) -> tuple[Any, list[Any]]:
            known = connection.execute("SELECT 1 FROM tables WHERE id = ? AND expires > ?",
                                       (table, self._clock())).fetchone()
            rows = connection.execute(
                "SELECT data FROM archive WHERE table_id = ? ORDER BY version", (table,)
            ).fetchall()
            return known, rows

        known, rows = self._run(read, "archive")
        if known is None:
            raise TableNotFound(table)
        return [Archived.from_json(row[0]) for row in rows]

    def _versions(self, tables: list[str]) -> dict[str, int]:
        def read(connection: sqlite3.Connection) -> dict[str, int]:
            versions: dict[str, int] = {}
            for first in range(0, len(tables), _CHUNK):
                chunk = tables[first:first + _CHUNK]
                marks = ",".join("?" * len(chunk))
                versions.update(connection.execute(
                    f"SELECT id, version FROM tables WHERE id IN ({marks})", chunk
                ).fetchall())
            return versions

        return self._run(read)

    def _watch(self) -> None:
        known: dict[str, int] = {}
        # The watcher's own connection: data_version counts the commits of every connection
        # but the one that asks, and this one never writes.
        watcher: sqlite3.Connection | None = None
        read_at: int | None = None
        asked: set[str] = set()
        try:
            bell: socket.socket | None = self._bells.listen()
        except OSError:
            bell = None  # no bells here: the file is polled
        # The first look at once: the streams that started this watcher rang no bell.
        looked = time.monotonic() - FALLBACK_SECONDS
        while True:
            rung, look = self._news(bell, looked)
            if look:
                looked = time.monotonic()
            tables = self.hub.tables()
            if not tables:
                known.clear()
                asked.clear()
                continue
            watched = set(tables)
            for table, version in rung.items():
                # Noted, so that the next read of the versions does not wake them again.
                if table in watched and known.get(table, -1) < version:
                    known[table] = version
                    self.hub.notify(table)
            if not look:
                continue
            try:
                watcher = watcher or self._connect()
                (data,) = watcher.execute("PRAGMA data_version").fetchone()
            except sqlite3.Error:
                if watcher is not None:
                    watcher.close()
                watcher, data = None, None
            # Nothing committed since the last read of the versions, and no table new to it:
            # the versions are the same.
            if data is not None and data == read_at and asked.issuperset(tables):
                continue
            try:
                versions = self._versions(tables)
            except StoreUnavailable:
                continue
            # Read before the versions: a commit between the two is read again next time.
            read_at, asked = data, set(tables)
            # A table seen for the first time wakes its streams too: one may have read the
            # log just before a commit that this read is the first to see.
            for table, version in versions.items():
                if known.get(table) != version:
                    self.hub.notify(table)
            known = versions

    def _news(self, bell: socket.socket | None, looked: float) -> tuple[dict[str, int], bool]:
        """Wait for news: the tables (and versions) rung since, and whether to read the file
        now (asked to, or not read for :data:`FALLBACK_SECONDS`; without a bell, every
        :data:`POLL_SECONDS`)."""
        if bell is None:
            time.sleep(POLL_SECONDS)
            return {}, True
        rung: dict[str, int] = {}
        messages = []
        wait = looked + FALLBACK_SECONDS - time.monotonic()
        if wait > 0:
            bell.settimeout(wait)
            try:
                messages.append(bell.recv(_RING_BYTES))
            except TimeoutError:
                return rung, True
            except OSError:
                time.sleep(POLL_SECONDS)
                return rung, True
        # What else rang meanwhile: one pass answers them all.
        bell.settimeout(0)
        with contextlib.suppress(OSError):
            while len(messages) < _RINGS_AT_ONCE:
                messages.append(bell.recv(_RING_BYTES))
        # A bell this full dropped what came next: the versions are read.
        look = len(messages) >= min(QUEUE_LENGTH, _RINGS_AT_ONCE)
        for message in messages:
            ring = heard(message)
            if ring is None:
                look = True
            else:
                rung[ring[0]] = max(ring[1], rung.get(ring[0], -1))
        return rung, look or time.monotonic() - looked >= FALLBACK_SECONDS

    @contextlib.contextmanager
    def listen(self, table: str) -> Iterator[threading.Event]:
        new = table not in self.hub.tables()
        with super().listen(table) as woken:
            if new:
                # Its version read at once: a commit elsewhere may have come just before.
                self._bells.wake_own()
            yield woken

    def close(self) -> None:
        self._bells.close()
        with self._sweeps_lock:
            if self._sweeps_connection is not None:
                self._sweeps_connection.close()
                self._sweeps_connection = None
        while True:
            try:
                self._idle.get_nowait().close()
            except queue.Empty:
                return
