"""A table's life around its match: who sits where, when the cards are dealt, who plays for
an absent or departed player.

What the engine's state does not hold is the table's typed metadata
(:class:`~thirtyone.web.tables.table.Table`: seats, names, invitations, clock, lobby listing,
rematch link, and its life ``waiting -> playing -> over -> rematched``), replaced by the
commit that changes it, so every change is a new version pushed to the seats. The record's
``seed_sha256`` is the SHA-256 of the server's secret seed, published at creation, before any
contribution.

A table whose seats are all bots or its creator's is dealt at once; otherwise it waits until
every human seat is claimed or its creator starts it. The deal's seed then comes from the
server's seed and the seats' contributions by :func:`thirtyone.record.derive_seed`, and the
log records the deal as a ``deal`` move that only the server reads
(:func:`~thirtyone.web.tables.playing.replay_move`).
"""

from __future__ import annotations

import dataclasses
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from thirtyone import record as records
from thirtyone.game import GameState, new_game
from thirtyone.web.jsonio import dumps
from thirtyone.web.store import SeatRecord, TableRecord
from thirtyone.web.tables.ledger import first_record, store
from thirtyone.web.tables.seats import key_hash, new_key
from thirtyone.web.tables.table import DEFAULT_LEVEL, Phase, Seat, Table, of, stored

# Any seed deals the state a waiting table keeps (never shown, replaced by the real deal).
_WAITING_SEED = "waiting"


@dataclass(frozen=True, slots=True)
class TableSpec:
    """What a new table is: from ``POST /v1/tables``, or from the table a rematch follows."""

    variant: str
    players: int
    options: Mapping[str, Any]
    bots: Mapping[int, str]
    creator: int | None = None
    name: str | None = None
    """The creator's display name."""
    names: Mapping[int, str] = field(default_factory=dict)
    entropy: str | None = None
    public: bool = False
    turn_seconds: int | None = None
    level: str | None = None
    reserved: Mapping[int, str] = field(default_factory=dict)
    """Seats kept for the holders of these key hashes (a rematch), claimed without invitation."""
    rematch_of: str | None = None
    hints: bool = True
    table: str | None = None
    """The table's id; drawn at random when None."""
    seat_key: Callable[[int], str] | None = None
    invitation: Callable[[int], str] | None = None
    """How the creator's key and the invitations are made (None: at random): a creation
    retried with its idempotency key answers the same ones."""
    request: dict[str, Any] | None = None
    address: str | None = None
    """The creator's address digest (a public table: one seat per client)."""
    lister: str | None = None
    """The creator's address digest for the lobby (the same at every table)."""

    @property
    def waits(self) -> bool:
        """Whether the new table waits for other humans to claim their seats (the creator
        holds one human seat), or is dealt at once."""
        return self.players - len(self.bots) > 1

    @property
    def listed(self) -> bool:
        """Whether the new table goes into the lobby: public, and waiting for players."""
        return self.public and self.waits


@dataclass(frozen=True, slots=True)
class Opened:
    """A table just opened: its record and state, and the secrets only this answer shows."""

    record: TableRecord
    version: int
    state: GameState
    events: list[Any]
    keys: dict[int, str]
    invitations: dict[int, str]


def changed(record: TableRecord, *, seats: dict[int, SeatRecord] | None = None,
            seat_changes: Mapping[int, Mapping[str, Any]] | None = None,
            **changes: Any) -> TableRecord:
    """``record`` with some seats, some seats' metadata (:class:`~.table.Seat` fields) and
    some of the table's (:class:`~.table.Table` fields) replaced."""
    new_seats = list(record.seats)
    for index, kept in (seats or {}).items():
        new_seats[index] = kept
    meta = dataclasses.replace(of(record).seated(seat_changes or {}), **changes)
    return stored(dataclasses.replace(record, seats=tuple(new_seats)), meta)


def life_meta(record: TableRecord, **changes: Any) -> TableRecord:
    """``record`` changed (as :func:`changed` does) as the next commit stores it: at a
    clocked table, the next turn starts now."""
    after = changed(record, **changes)
    return changed(after, turn_started=time.time()) if of(after).clocked else after


def open_table(spec: TableSpec) -> Opened:
    """Store a new table: dealt at once when no other human is to come, else waiting (the
    bots to move first then play: :func:`~.commit_path.execute`, at version 1)."""
    players = spec.players
    humans = [seat for seat in range(players) if seat not in spec.bots]
    creator = spec.creator if spec.creator is not None else (humans[0] if humans else None)
    make_key = spec.seat_key or (lambda seat: new_key())
    make_invitation = spec.invitation or (lambda seat: new_key())
    keys = {creator: make_key(creator)} if creator is not None else {}
    invitations = {seat: make_invitation(seat) for seat in humans
                   if seat != creator and seat not in spec.reserved}
    server_seed = secrets.token_hex(32)
    names = {**spec.names, **({creator: spec.name} if spec.name and creator is not None else {})}
    bot_levels = sorted(set(spec.bots.values()))
    meta = Table(
        seats=tuple(Seat(name=names.get(seat),
                         invitation=key_hash(invitations[seat]) if seat in invitations else None,
                         reserved=spec.reserved.get(seat),
                         entropy=spec.entropy if seat == creator else None,
                         address=spec.address if seat == creator else None)
                    for seat in range(players)),
        phase=Phase.WAITING, server_seed=server_seed, variant=spec.variant, players=players,
        options=dict(spec.options),
        level=spec.level or (bot_levels[0] if len(bot_levels) == 1 else DEFAULT_LEVEL),
        turn_seconds=spec.turn_seconds, public=spec.public, created=time.time(),
        creator=creator, rematch_of=spec.rematch_of, lister=spec.lister,
    )
    seats = tuple(SeatRecord(spec.bots.get(seat), key_hash(keys[seat]) if seat in keys else None)
                  for seat in range(players))
    record = first_record(spec.table or secrets.token_urlsafe(12), b"", seats=seats,
                          seed_sha256=records.seed_commitment(server_seed), hints=spec.hints,
                          request=spec.request)
    record = stored(record, meta)
    waiting = spec.waits
    if waiting:
        state = new_game(spec.variant, players, seed=_WAITING_SEED,
                         options=spec.options or None)
    else:
        state = dealt(record)
        record = stored(record, meta.to(Phase.PLAYING, state, turn_started=time.time()
                                        if spec.turn_seconds else None))
    start = state.to_dict()
    record = dataclasses.replace(record, state_json=dumps(start))
    store().create(record, start)
    if spec.listed:
        assert meta.created is not None
        store().list_public(record.table, meta.created, spec.lister)
    return Opened(record, 0, state, [], keys, invitations)


def contributions(record: TableRecord) -> list[str | None]:
    return [seat.entropy for seat in of(record).seats]


def deal_seed(record: TableRecord) -> str:
    seed = of(record).server_seed
    assert seed is not None  # every table opened since seeds are drawn has one
    return records.derive_seed(seed, contributions(record))


def dealt(record: TableRecord) -> GameState:
    """The deal of the table's match, from its seed and the seats' contributions."""
    meta = of(record)
    assert meta.variant is not None and meta.players is not None
    return new_game(meta.variant, meta.players, seed=deal_seed(record),
                    options=meta.options or None)


def waiting_for(record: TableRecord) -> list[int]:
    """The human seats not claimed yet."""
    return [seat for seat, stored in enumerate(record.seats)
            if stored.bot is None and stored.key_hash is None]


def match_moves(entries_moves: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The match's moves from the log's, without the deal entry."""
    return [move for moves in entries_moves for move in moves if move.get("type") != "deal"]
