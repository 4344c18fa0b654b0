"""What every archive backend shares: the record's summary (:class:`Match`), the numbered
migrations, the player's folded name and the :class:`Archive` interface. Apart from the
package so that the backends import it without importing the package that opens them."""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from importlib import resources
from typing import Any

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


LEDGER = ("CREATE TABLE IF NOT EXISTS schema_migrations "
          "(version INTEGER PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)")
"""The table that records which migrations an archive has had (plain SQL both backends read)."""


def migrations() -> list[tuple[int, str]]:
    """The schema's migrations in order, as (version, SQL)."""
    folder = resources.files(__package__ or "thirtyone.web.archive").joinpath("migrations")
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


def row_match(table: str, variant: str, players: int, finished_at: float,
               summary: str) -> Match:
    data = json.loads(summary)
    return Match(table, variant, int(players), float(finished_at), data["seats"],
                 data["winners"])
