"""The archive in PostgreSQL (psycopg 3), shared by every instance of a fleet.

Each worker process opens its own small pool (:mod:`psycopg_pool`) on first use (a pool made
before gunicorn forks would share its sockets between workers); psycopg waits on sockets in a
way gevent's monkey-patching makes cooperative, so a slow query holds one greenlet, not the
worker. A statement that runs longer than :data:`STATEMENT_MILLISECONDS` is cancelled.

The schema is made by ``thirtyone archive migrate`` (one migration at a time, each in its own
transaction under an advisory lock, so two instances migrating at once apply each file once);
until then every call raises :class:`~thirtyone.web.archive.SchemaBehind`.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from thirtyone.web.archive.base import (
    LEDGER,
    Archive,
    ArchiveUnavailable,
    Match,
    fold,
    migrations,
    row_match,
)

STATEMENT_MILLISECONDS = 5000
POOL_SIZE = 4
WAIT_SECONDS = 5.0
"""The longest a call waits for a connection of the pool (or a new one) before it fails."""

# Any constant: the migrations of every instance take this lock, one at a time.
_MIGRATION_LOCK = 310_031

class PostgresArchive(Archive):
    def __init__(self, url: str) -> None:
        self.url = url
        self._pool: ConnectionPool[Any] | None = None
        self._pid = 0
        self._lock = threading.Lock()
        self._current = False

    def _open(self) -> ConnectionPool[Any]:
        pid = os.getpid()
        with self._lock:
            if self._pool is None or self._pid != pid:
                self._pool = ConnectionPool(
                    self.url, min_size=0, max_size=POOL_SIZE, timeout=WAIT_SECONDS, open=True,
                    name="thirtyone-archive",
                    kwargs={"connect_timeout": int(WAIT_SECONDS),
                            "options": f"-c statement_timeout={STATEMENT_MILLISECONDS}"})
                self._pid = pid
            return self._pool

    @contextmanager
    def _connect(self, *, current: bool = True) -> Iterator[psycopg.Connection[Any]]:
        """A connection of the pool, in a transaction committed at the end of the block;
        with ``current``, only once the schema is checked current (once per process)."""
        if current and not self._current:
            self.check_schema()
            self._current = True
        try:
            with self._open().connection() as connection:
                yield connection
        except (psycopg.Error, PoolTimeout) as error:
            raise ArchiveUnavailable(str(error)) from error

    def migrate(self) -> list[int]:
        applied = []
        with self._connect(current=False) as connection:
            connection.execute(LEDGER)
            connection.commit()
            for version, sql in migrations():
                with connection.transaction():
                    connection.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
                    done = connection.execute(
                        "SELECT 1 FROM schema_migrations WHERE version = %s",
                        (version,)).fetchone()
                    if done is None:
                        # No parameters: psycopg sends the file as one simple query.
                        connection.execute(sql.encode())
                        connection.execute("INSERT INTO schema_migrations VALUES (%s, %s)",
                                           (version, time.time()))
                        applied.append(version)
        return applied

    def schema_version(self) -> int:
        with self._connect(current=False) as connection:
            row = connection.execute(
                "SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()
            if row is None or not row[0]:
                return 0
            found = connection.execute("SELECT MAX(version) FROM schema_migrations").fetchone()
        return int(found[0] or 0) if found else 0

    def _insert(self, table: str, variant: str, players: int, finished_at: float,
                archived_at: float, summary: str, record: str, names: list[str]) -> bool:
        with self._connect() as connection:
            written = connection.execute(
                "INSERT INTO matches VALUES (%s, %s, %s, %s, %s, %s, %s) "
                "ON CONFLICT (table_id) DO NOTHING",
                (table, variant, players, finished_at, archived_at, summary, record),
            ).rowcount == 1
            if written:
                with connection.cursor() as cursor:
                    cursor.executemany("INSERT INTO match_players VALUES (%s, %s, %s)",
                                       [(name, table, finished_at) for name in names])
        return written

    def get(self, table: str) -> str | None:
        with self._connect() as connection:
            row = connection.execute("SELECT record FROM matches WHERE table_id = %s",
                                     (table,)).fetchone()
        return None if row is None else str(row[0])

    def matches(self, player: str, offset: int, limit: int) -> tuple[list[Match], int]:
        with self._connect() as connection:
            rows = connection.execute(
                "SELECT m.table_id, m.variant, m.players, m.finished_at, m.summary "
                "FROM match_players p JOIN matches m ON m.table_id = p.table_id "
                "WHERE p.player = %s ORDER BY p.finished_at DESC, p.table_id "
                "LIMIT %s OFFSET %s", (fold(player), limit, offset)).fetchall()
            total = connection.execute("SELECT COUNT(*) FROM match_players WHERE player = %s",
                                       (fold(player),)).fetchone()
        return [row_match(*row) for row in rows], int(total[0] if total else 0)

    def ping(self) -> None:
        with self._connect() as connection:
            connection.execute("SELECT 1")

    def close(self) -> None:
        with self._lock:
            if self._pool is not None and self._pid == os.getpid():
                self._pool.close()
            self._pool = None
