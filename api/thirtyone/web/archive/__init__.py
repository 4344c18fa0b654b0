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

import logging
import os
import tempfile

from flask import Flask, current_app

from thirtyone.web.archive.base import (
    Archive,
    ArchiveUnavailable,
    Match,
    SchemaBehind,
    migrations,
    player_names,
)

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
