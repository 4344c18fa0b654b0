"""Where a client stands on a table's timeline: the cursor of `Last-Event-ID` and `after`.

A version number alone cannot tell a restored timeline from the current one: a store restored
from an older copy (and instances restarted, which remember nothing) goes on from an older
version with other moves, and a client resuming "after version 40" would be sent a version 41
it never saw as if it followed the 40 it did see. So every version a client is sent is named
``EPOCH.VERSION.DIGEST``: the table's epoch, the version, and the first
:data:`DIGEST_CHARS` characters of that version's digest (chained from every version before
it). A cursor is on the table's timeline when its epoch is the table's and the store's
digest of its version starts with its digest; else the stream sends ``table_reset`` and the
long poll answers 409 ``table_reset`` naming the table's epoch. An answer whose version's
digest is not at hand (a move's, when another commit of this process came right after it;
an opened table's) names it ``EPOCH.VERSION``: only the epoch is checked then. A bare
``VERSION`` (a client from before cursors) is taken as it always was.

A cursor past the table is reset, but never moves the table onto a new epoch above it (as
:func:`.ledger.catch_up` does for a version this process served): anyone may send any
number, and a table pushed to its version cap by a made-up cursor would be dead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from thirtyone.errors import N_
from thirtyone.web.problems import Problem
from thirtyone.web.store import TableRecord

DIGEST_CHARS = 16
"""The characters of a version's digest a cursor carries: 64 bits, which no two timelines
of one table share by chance."""

MAX_VERSION = 2**53
_EPOCH = re.compile(r"[0-9a-f]{0,64}")
_VERSION = re.compile(r"[0-9]{1,16}")
_DIGEST = re.compile(f"[0-9a-f]{{{DIGEST_CHARS}}}")
PATTERN = (f"^({_VERSION.pattern}|{_EPOCH.pattern}\\.{_VERSION.pattern}"
           f"(\\.{_DIGEST.pattern})?)$")
"""A cursor's form, as the contract gives it: a bare version, or ``EPOCH.VERSION`` with an
optional ``.DIGEST``."""


@dataclass(frozen=True, slots=True)
class Cursor:
    """A version a client was sent, with its epoch and digest when the client named them."""

    version: int
    epoch: str | None = None
    digest: str | None = None

    @classmethod
    def parse(cls, text: str) -> Cursor | None:
        """The cursor ``text`` names, or None if it names none."""
        parts = text.split(".")
        if len(parts) > 3 or not _VERSION.fullmatch(parts[-1] if len(parts) == 1 else parts[1]):
            return None
        if len(parts) == 1:
            version, epoch, digest = int(parts[0]), None, None
        else:
            epoch, version = parts[0], int(parts[1])
            digest = parts[2] if len(parts) == 3 else None
            if not _EPOCH.fullmatch(epoch) or (digest is not None
                                               and not _DIGEST.fullmatch(digest)):
                return None
        return cls(version, epoch, digest) if version <= MAX_VERSION else None

    def lost(self, record: TableRecord, digest: str | None) -> bool:
        """Whether this cursor is not on ``record``'s timeline, where its version's digest is
        ``digest`` (None: not known here, nor checked)."""
        if self.epoch is not None and self.epoch != record.epoch:
            return True
        return self.digest is not None and digest is not None \
            and not digest.startswith(self.digest)


def name(record: TableRecord, version: int, digest: str | None) -> str:
    """The cursor of ``version`` of ``record``'s table, whose digest is ``digest``."""
    cursor = f"{record.epoch}.{version}"
    return cursor if digest is None else f"{cursor}.{digest[:DIGEST_CHARS]}"


def table_reset(record: TableRecord, cursor: Cursor) -> Problem:
    """A long poll's cursor not on the table's timeline: the client reads the table anew."""
    return Problem(
        409, "table_reset",
        N_("This table's story was rewritten since version {version} (a lost timeline): "
           "read the table again, now at version {current} of epoch {epoch}."),
        title=N_("Table reset"), version=cursor.version, epoch=record.epoch,
        current=record.version,
        errors=[{"field": "after", "code": "table_reset",
                 "detail": N_("Not on the table's timeline."), "params": {}}],
    )
