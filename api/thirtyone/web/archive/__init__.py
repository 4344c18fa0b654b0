"""The archive of finished matches: each match's record (the one ``thirtyone verify`` checks),
written once when the match ends, kept for good, and found again by a player.

The table store keeps a table for ``THIRTYONE_TABLE_TTL`` after its last move; the archive
keeps its record after that. :func:`open_archive` picks the backend from a URL
(``THIRTYONE_ARCHIVE``):

- ``postgresql://USER@HOST:PORT/DB`` (or ``postgres://``): PostgreSQL, shared by every
  instance (:mod:`thirtyone.web.archive.postgres`), its schema made by
  ``thirtyone archive migrate``;
- ``sqlite:///PATH``: a file on this machine (:mod:`thirtyone.web.archive.sqlite`), migrated
  when it is opened; without ``THIRTYONE_ARCHIVE`` it is ``archive.sqlite3`` beside a SQLite
  table store.

The schema is versioned: the numbered SQL files of ``migrations/`` (plain SQL that both
backends read), each applied once, in order, in its own transaction, and recorded in
``schema_migrations``. Writing a record is idempotent: a match archived twice (two workers,
or a retry after a failure) keeps its first record.

A player is found by a seat's name (case-folded) or by the SHA-256 of a seat's key (what the
table store keeps of it): ``GET /v1/records?player=...`` (:mod:`thirtyone.web.archive.routes`).
"""

from __future__ import annotations

import json
import logging
import os
import re
import tempfile
from abc import ABC, abstractmethod
from dataclasses import dataclass
from importlib import resources
from typing import Any

from flask import Flask, current_app

__all__ = [
    "Archive",
    "ArchiveUnavailable",
    "Match",
    "SchemaBehind",
    "default_url",
    "migrations",
    "open_archive",
    "player_names",
]

_log = logging.getLogger(__name__)

_MIGRATION = re.compile(r"(\d{4})_[a-z0-9_]+\.sql\Z")


class ArchiveUnavailable(Exception):
    """The archive cannot be reached or did not answer."""


class SchemaBehind(ArchiveUnavailable):
    """The archive's schema is older than this code's: run ``thirtyone archive migrate``."""


@dataclass(frozen=True, slots=True)
class Match:
    """A finished match as a list shows it: no moves, no seed."""

    table: str
    variant: str
    players: int
    finished_at: float
    seats: list[dict[str, Any]]
    winners: list[int]


def migrations() -> list[tuple[int, str]]:
    """The schema's migrations in order, as (version, SQL)."""
    folder = resources.files(__name__).joinpath("migrations")
    found = []
    for item in folder.iterdir():
        matched = _MIGRATION.match(item.name)
        if matched:
            found.append((int(matched.group(1)), item.read_text(encoding="utf-8")))
    found.sort()
    if [version for version, _ in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"the archive's migrations are not numbered 1..n: {found}")
    return found


def player_names(record: dict[str, Any], key_hashes: list[str | None]) -> set[str]:
    """What finds a match's players: each named seat's name, case-folded, and each human
    seat's key hash.

    >>> sorted(player_names({"seats": [{"name": "Ana"}, {"name": None}]}, [None, "ab12"]))
    ['ab12', 'ana']
    """
    found = {key for key in key_hashes if key}
    found.update(fold(seat["name"]) for seat in record["seats"] if seat.get("name"))
    return found


def fold(player: str) -> str:
    """A player as the archive looks it up: names are matched case-insensitively (key hashes
    are lowercase hex already)."""
    return player.strip().casefold()


class Archive(ABC):
    """Finished matches by table, and by player. Every method raises
    :class:`ArchiveUnavailable` when the backend cannot answer.

    ``shared`` says whether every instance reads this archive (not a file in one process's
    temporary folder): only then may a table's moves leave the table store once archived."""

    shared = True

    def put(self, table: str, record: str, key_hashes: list[str | None],
            finished_at: float, archived_at: float) -> bool:
        """Keep ``record`` (a match record's JSON) as ``table``'s, with its players (the
        seats' key hashes beside the names it holds); True if it was written, False if the
        table had a record already (which is kept)."""
        document = json.loads(record)
        seats = [{"seat": seat["seat"], "name": seat.get("name"), "bot": seat.get("bot")}
                 for seat in document["seats"]]
        summary = json.dumps({"seats": seats, "winners": document["winners"]})
        return self._insert(table, document["variant"], int(document["players"]), finished_at,
                            archived_at, summary, record,
                            sorted(player_names(document, key_hashes)))

    @abstractmethod
    def _insert(self, table: str, variant: str, players: int, finished_at: float,
                archived_at: float, summary: str, record: str, names: list[str]) -> bool:
        """Write the match and its players in one transaction unless the table has one."""

    @abstractmethod
    def get(self, table: str) -> str | None:
        """The record of ``table``, if archived."""

    @abstractmethod
    def matches(self, player: str, offset: int, limit: int) -> tuple[list[Match], int]:
        """A page of ``player``'s matches, the latest first, and how many there are."""

    @abstractmethod
    def migrate(self) -> list[int]:
        """Apply the migrations not yet applied, in order; the versions applied now."""

    @abstractmethod
    def schema_version(self) -> int:
        """The newest migration applied (0 for none)."""

    @abstractmethod
    def ping(self) -> None:
        """Return when the archive answers with a current schema."""

    @abstractmethod
    def close(self) -> None:
        """Release connections."""

    def check_schema(self) -> None:
        """:class:`SchemaBehind` unless every migration is applied."""
        have, want = self.schema_version(), len(migrations())
        if have < want:
            raise SchemaBehind(f"the archive's schema is at version {have}, this code needs "
                               f"{want}: run `thirtyone archive migrate`")


def _row_match(table: str, variant: str, players: int, finished_at: float,
               summary: str) -> Match:
    data = json.loads(summary)
    return Match(table, variant, int(players), float(finished_at), data["seats"],
                 data["winners"])


def open_archive(url: str) -> Archive:
    """The archive that ``url`` names (see the module's documentation)."""
    if url.startswith(("postgresql://", "postgres://")):
        from thirtyone.web.archive.postgres import PostgresArchive

        return PostgresArchive(url)
    if url.startswith("sqlite:///"):
        from thirtyone.web.archive.sqlite import SQLiteArchive

        return SQLiteArchive(url.removeprefix("sqlite:///"))
    raise ValueError("THIRTYONE_ARCHIVE must be postgresql://USER@HOST:PORT/DB or "
                     f"sqlite:///PATH, not {url!r}")


def default_url(store_url: str | None) -> tuple[str, bool]:
    """The archive when ``THIRTYONE_ARCHIVE`` is not set, and whether every instance of the
    table store shares it: ``archive.sqlite3`` beside a SQLite table store (shared), else a
    file in a temporary folder of this process (with a warning: a fleet on Redis names a
    PostgreSQL archive)."""
    if store_url and store_url.startswith("sqlite:///"):
        folder = os.path.dirname(store_url.removeprefix("sqlite:///")) or "."
        return f"sqlite:///{os.path.join(folder, 'archive.sqlite3')}", True
    path = os.path.join(tempfile.mkdtemp(prefix="thirtyone-archive-"), "archive.sqlite3")
    _log.warning("THIRTYONE_ARCHIVE is not set: finished matches are archived in %s, for "
                 "this process only (their tables keep their moves)", path)
    return f"sqlite:///{path}", False


FINISHED_TTL = 600
"""How long a finished, archived table stays in the table store after its last commit
(``THIRTYONE_FINISHED_TTL``): its record is in the archive for good."""


def init_app(app: Flask, store_url: str | None) -> None:
    """Open the archive named by ``THIRTYONE_ARCHIVE`` (connections are made on first use)."""
    app.config.setdefault("THIRTYONE_ARCHIVE", os.environ.get("THIRTYONE_ARCHIVE"))
    app.config.setdefault("THIRTYONE_FINISHED_TTL",
                          int(os.environ.get("THIRTYONE_FINISHED_TTL") or FINISHED_TTL))
    url, shared = app.config["THIRTYONE_ARCHIVE"], True
    if not url:
        url, shared = default_url(store_url)
    opened = open_archive(url)
    opened.shared = shared
    app.extensions["thirtyone.archive"] = opened


def archive() -> Archive:
    """The app's archive."""
    found: Archive = current_app.extensions["thirtyone.archive"]
    return found
