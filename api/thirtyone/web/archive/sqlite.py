"""The archive in a SQLite file: the default, for one machine (``make serve``).

A connection per call (opening one takes tens of microseconds, and an archive is written once
per match): no connection is shared between greenlets. WAL lets readers go on while a match
is written. The schema is migrated when the archive is first used, so a developer's server
needs no command.

>>> import tempfile, pathlib, json
>>> folder = tempfile.TemporaryDirectory()
>>> archive = SQLiteArchive(str(pathlib.Path(folder.name) / "archive.sqlite3"))
>>> record = json.dumps({"variant": "scat", "players": 2, "winners": [1],
...                      "seats": [{"seat": 0, "name": "Ana"}, {"seat": 1, "name": None}]})
>>> archive.put("t1", record, [None, "ab12"], 10.0, 11.0), archive.put("t1", record, [], 0, 0)
(True, False)
>>> archive.get("t1") == record, archive.get("t2")
(True, None)
>>> [match.table for match in archive.matches("ANA", 0, 10)[0]], archive.matches("ab12", 0, 10)[1]
(['t1'], 1)
>>> archive.close(); folder.cleanup()
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from thirtyone.web.archive.base import (
    LEDGER,
    Archive,
    ArchiveUnavailable,
    Match,
    fold,
    migrations,
    row_match,
)

_BUSY_MILLISECONDS = 5000

class SQLiteArchive(Archive):
    def __init__(self, path: str) -> None:
        self.path = path
        self._migrated = False
        self._lock = threading.Lock()

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(self.path, timeout=_BUSY_MILLISECONDS / 1000,
                                         isolation_level=None)
        except (OSError, sqlite3.Error) as error:
            raise ArchiveUnavailable(str(error)) from error
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA foreign_keys=ON")
            yield connection
        except sqlite3.Error as error:
            raise ArchiveUnavailable(str(error)) from error
        finally:
            connection.close()

    def _ready(self) -> None:
        if not self._migrated:
            with self._lock:
                if not self._migrated:
                    self.migrate()
                    self._migrated = True

    def migrate(self) -> list[int]:
        applied = []
        with self._connect() as connection:
            connection.execute(LEDGER)
            for version, sql in migrations():
                connection.execute("BEGIN IMMEDIATE")
                try:
                    done = connection.execute("SELECT 1 FROM schema_migrations WHERE version = ?",
                                              (version,)).fetchone()
                    if done is None:
                        # executescript would commit first: the statements run one by one
                        # inside this transaction (the files hold no ';' but as separators).
                        for statement in _statements(sql):
                            connection.execute(statement)
                        connection.execute("INSERT INTO schema_migrations VALUES (?, ?)",
                                           (version, time.time()))
                        applied.append(version)
                    connection.execute("COMMIT")
                except BaseException:
                    connection.execute("ROLLBACK")
                    raise
        return applied

    def schema_version(self) -> int:
        with self._connect() as connection:
            connection.execute(LEDGER)
            row = connection.execute("SELECT MAX(version) FROM schema_migrations").fetchone()
        return int(row[0] or 0)

    def _insert(self, table: str, variant: str, players: int, finished_at: float,
                archived_at: float, summary: str, record: str, names: list[str]) -> bool:
        self._ready()
        with self._connect() as connection:
            connection.execute("BEGIN IMMEDIATE")
            try:
                written = connection.execute(
                    "INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (table_id) DO NOTHING",
                    (table, variant, players, finished_at, archived_at, summary, record),
                ).rowcount == 1
                if written:
                    connection.executemany("INSERT INTO match_players VALUES (?, ?, ?)",
                                           [(name, table, finished_at) for name in names])
                connection.execute("COMMIT")
            except BaseException:
                connection.execute("ROLLBACK")
                raise
        return written

    def get(self, table: str) -> str | None:
        self._ready()
        with self._connect() as connection:
            row = connection.execute("SELECT record FROM matches WHERE table_id = ?",
                                     (table,)).fetchone()
        return None if row is None else str(row[0])

    def matches(self, player: str, offset: int, limit: int) -> tuple[list[Match], int]:
        self._ready()
        with self._connect() as connection:
            rows = connection.execute(
                "SELECT m.table_id, m.variant, m.players, m.finished_at, m.summary "
                "FROM match_players p JOIN matches m ON m.table_id = p.table_id "
                "WHERE p.player = ? ORDER BY p.finished_at DESC, p.table_id LIMIT ? OFFSET ?",
                (fold(player), limit, offset)).fetchall()
            total = connection.execute("SELECT COUNT(*) FROM match_players WHERE player = ?",
                                       (fold(player),)).fetchone()[0]
        return [row_match(*row) for row in rows], int(total)

    def ping(self) -> None:
        self._ready()

    def close(self) -> None:
        """Nothing is held between calls."""


def _statements(sql: str) -> list[str]:
    """The statements of a migration file: its comment lines dropped, split at ';'."""
    text = "\n".join(line for line in sql.splitlines() if not line.lstrip().startswith("--"))
    return [statement.strip() for statement in text.split(";") if statement.strip()]
