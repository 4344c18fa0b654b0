"""A table's own metadata, typed: what the engine's state does not hold.

The store keeps it as the record's ``extra`` (plain JSON, replaced by the commit that changes
it); this module alone reads and writes that JSON. Every other module of the package reads a
:class:`Table` (:func:`of`) and makes a changed one with :func:`dataclasses.replace` or
:meth:`Table.seated`, so a field's name and type are checked where it is used.

A table's life is an explicit state machine (:class:`Phase`): ``waiting`` (no cards dealt:
seats are being claimed) -> ``playing`` -> ``over`` (the match ended) -> ``rematched`` (a
rematch table was announced). ``waiting`` and ``playing`` are stored; ``over`` and
``rematched`` follow from the state and from :attr:`Table.rematch`, so they can never
disagree with the log. :meth:`Table.to` refuses a transition the machine does not have.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from thirtyone.game import GameState
from thirtyone.web.store import TableRecord

DEFAULT_LEVEL = "greedy"
"""The bots' level at a table that names none and has no bot seat."""


class Phase(StrEnum):
    WAITING = "waiting"
    PLAYING = "playing"
    OVER = "over"
    REMATCHED = "rematched"


_NEXT: dict[Phase, frozenset[Phase]] = {
    Phase.WAITING: frozenset({Phase.PLAYING}),
    Phase.PLAYING: frozenset({Phase.OVER}),
    Phase.OVER: frozenset({Phase.REMATCHED}),
    Phase.REMATCHED: frozenset(),
}


class BadTransition(RuntimeError):
    """A change of phase the table's state machine does not have (a bug, never a client's
    doing: each command checks the phase first and answers its own problem)."""


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat's metadata: its display ``name``, the SHA-256 of its single-use
    ``invitation`` (while unclaimed) and of the key it is ``reserved`` for (a rematch), its
    ``entropy`` contribution to the deal's seed and its ``missed`` turns in a row."""

    name: str | None = None
    invitation: str | None = None
    reserved: str | None = None
    entropy: str | None = None
    missed: int = 0
    address: str | None = None
    """At a public table, a digest of the address its player claimed it from: one seat per
    client is checked by key, and by address as a heuristic."""

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Seat:
        return cls(name=data.get("name"), invitation=data.get("invitation"),
                   reserved=data.get("reserved"), entropy=data.get("entropy"),
                   missed=int(data.get("missed") or 0), address=data.get("address"))


@dataclass(frozen=True, slots=True)
class Table:
    """Everything a table holds besides its match: seats, clock, lobby listing, rematch link.

    ``phase`` is the stored part of the life (``waiting`` or ``playing``, see :meth:`life`);
    ``server_seed`` is the server's secret seed (never shown before the match is over);
    ``level`` the bots' level for seats handed over; ``turn_seconds`` and ``turn_started``
    the clock; ``public`` and ``created`` the lobby listing; ``creator`` the seat that opened
    it; ``rematch`` the next table and ``rematch_of`` the one before; the table's epoch and
    version are the record's own."""

    seats: tuple[Seat, ...]
    phase: Phase = Phase.PLAYING
    server_seed: str | None = None
    variant: str | None = None
    players: int | None = None
    options: Mapping[str, Any] | None = None
    level: str = DEFAULT_LEVEL
    turn_seconds: int | None = None
    turn_started: float | None = None
    public: bool = False
    created: float | None = None
    creator: int | None = None
    rematch: str | None = None
    rematch_of: str | None = None
    lister: str | None = None
    """At a public table, a digest of the address that opened it: the lobby lists a few
    tables of one address at most."""
    changes: int = 0
    """Versions that changed the table but played no move (claims, keys, invitations, a
    rematch announced): the version cap counts moves only."""
    unknown: Mapping[str, Any] = field(default_factory=dict)
    """Keys of the stored JSON this version does not know (a newer instance's): kept as
    they are when this one commits, never dropped."""

    def life(self, state: GameState) -> Phase:
        """Where the table is in its life, given its state now."""
        if self.phase == Phase.WAITING:
            return Phase.WAITING
        if not state.is_over:
            return Phase.PLAYING
        return Phase.REMATCHED if self.rematch is not None else Phase.OVER

    def to(self, phase: Phase, state: GameState, **changes: Any) -> Table:
        """The table moved on to ``phase`` (with ``changes``); :class:`BadTransition` when
        its life does not go there from where it is."""
        now = self.life(state)
        # A deal and the last move of its match may come in one commit (a table of bots).
        reachable = _NEXT[now] | (frozenset({Phase.OVER}) if now == Phase.WAITING and
                                  phase == Phase.PLAYING else frozenset())
        if phase not in reachable:
            raise BadTransition(f"a table cannot go from {now} to {phase}")
        stored = Phase.PLAYING if phase != Phase.WAITING else Phase.WAITING
        return dataclasses.replace(self, phase=stored, **changes)

    @property
    def clocked(self) -> bool:
        return bool(self.turn_seconds)

    def named(self, name: str, besides: int | None = None) -> bool:
        """Whether a seat other than ``besides`` has ``name`` (case and spacing aside)."""
        wanted = name.casefold()
        return any(seat.name is not None and seat.name.casefold() == wanted
                   for index, seat in enumerate(self.seats) if index != besides)

    def seat(self, index: int) -> Seat:
        return self.seats[index] if 0 <= index < len(self.seats) else Seat()

    def seated(self, changes: Mapping[int, Mapping[str, Any]]) -> Table:
        """The table with some seats' fields replaced (``{seat: {field: value}}``)."""
        seats = list(self.seats)
        for index, fields in changes.items():
            seats[index] = dataclasses.replace(seats[index], **fields)
        return dataclasses.replace(self, seats=tuple(seats))

    def to_json(self) -> dict[str, Any]:
        """The JSON the store keeps as the record's ``extra``."""
        data = {item.name: getattr(self, item.name) for item in dataclasses.fields(self)
                if item.name not in {"seats", "unknown"}}
        data["phase"] = str(self.phase)
        data["options"] = None if self.options is None else dict(self.options)
        data["seats"] = [dataclasses.asdict(seat) for seat in self.seats]
        return {**self.unknown, **data}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], seats: int) -> Table:
        """The table of stored JSON ``data`` at a table of ``seats`` seats (an old record
        holds no seat metadata, or no phase: it was dealt at once)."""
        known = _FIELDS
        stored = list(data.get("seats") or [])
        values: dict[str, Any] = {key: value for key, value in data.items()
                                  if key in known and key not in {"seats", "unknown"}
                                  and value is not None}
        values["phase"] = Phase(data.get("phase") or Phase.PLAYING)
        values["level"] = data.get("level") or DEFAULT_LEVEL
        values["public"] = bool(data.get("public"))
        return cls(seats=tuple(Seat.from_json(stored[index]) if index < len(stored) else Seat()
                               for index in range(seats)),
                   unknown={key: value for key, value in data.items() if key not in known},
                   **values)


_FIELDS = frozenset(item.name for item in dataclasses.fields(Table))

_READ: dict[int, tuple[Mapping[str, Any], int, Table]] = {}
"""The tables last read, by the identity of the stored JSON they were read from (held here,
so that its id names it): a read or a move asks a record's metadata five to nine times,
which read it anew each time (13% of a spectator's read)."""

_READ_KEPT = 1024


def of(record: TableRecord) -> Table:
    """The typed metadata of a stored table (read once per record's JSON: a record and its
    ``extra`` are never changed in place, a change makes a new record)."""
    extra, seats = record.extra, len(record.seats)
    found = _READ.get(id(extra))
    if found is not None and found[0] is extra and found[1] == seats:
        return found[2]
    table = Table.from_json(extra, seats)
    if len(_READ) >= _READ_KEPT:
        _READ.clear()
    _READ[id(extra)] = (extra, seats, table)
    return table


def stored(record: TableRecord, table: Table) -> TableRecord:
    """``record`` with ``table`` as its metadata, as the next commit stores it."""
    return dataclasses.replace(record, extra=table.to_json())
