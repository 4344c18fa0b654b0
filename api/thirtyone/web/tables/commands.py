"""Every change a table can get, as one typed command each (committed by
:func:`.commit_path.execute`, the one path).

A command is a frozen dataclass of :class:`~.commit_path.Command` naming its table and what
the request says (the seat, the body, a key drawn once so that a retry on a newer version
gives the same one), with the engine's operations' two steps: ``verify`` refuses it at the
table as it is, and ``apply`` returns the :class:`~.commit_path.Change` it makes, or nothing
to commit. Its class attributes say what the path does around them (:mod:`.commit_path`).
A new command is a new class here, and a route that builds it, executes it and answers.
"""

from __future__ import annotations

import dataclasses
import hmac
import secrets
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, ClassVar

from thirtyone.errors import MoveError
from thirtyone.game import GameState
from thirtyone.web import metrics
from thirtyone.web.compute import NotReady
from thirtyone.web.problems import Problem
from thirtyone.web.store import SeatRecord, TableExists, TableRecord
from thirtyone.web.tables import clocks, idempotency, lobby
from thirtyone.web.tables.autoplay import SLICE_CPU_SECONDS, advancing, is_due, play_due
from thirtyone.web.tables.commit_path import (
    Actor,
    Change,
    Command,
    Done,
    Key,
    Stale,
    execute,
)
from thirtyone.web.tables.life import (
    Opened,
    TableSpec,
    changed,
    dealt,
    life_meta,
    open_table,
    waiting_for,
)
from thirtyone.web.tables.playing import play
from thirtyone.web.tables.presence import touch
from thirtyone.web.tables.problems import (
    bad_invitation,
    creator_only,
    invitation_required,
    match_not_over,
    match_over,
    name_taken,
    no_such_seat,
    not_your_seat,
    one_seat_each,
    seat_not_handed_over,
    seat_played_by_bot,
    seat_reserved,
    seat_taken,
    stale_version,
    table_started,
    table_waiting,
)
from thirtyone.web.tables.seats import address_digest, check_name, key_hash, new_key
from thirtyone.web.tables.table import Phase, of, stored


def _in_range(record: TableRecord, seat: int) -> None:
    if not 0 <= seat < len(record.seats):
        raise no_such_seat(seat)


def _deal(record: TableRecord, after: TableRecord, events: list[Any]) -> Change:
    """Deal a waiting table, ``after`` its last change (its unclaimed seats then played by
    bots), and let the bots move (``events`` first: what led to the deal)."""
    seats = {seat: SeatRecord(of(after).level, None) for seat in waiting_for(after)}
    after = changed(after, seats=seats,
                    seat_changes={seat: {"invitation": None, "reserved": None}
                                  for seat in seats})
    state = dealt(after)
    after = stored(after, of(after).to(Phase.PLAYING, state))
    moves: list[dict[str, Any]] = [{"type": "deal", "seed": state.seed}]
    events = [*events, {"type": "table_started", "seed_sha256": record.seed_sha256,
                        "bots": sorted(seats)}]
    played, bot_events = play_due(record, after.seats, state, moves)
    return Change(played, events + bot_events, moves, after=life_meta(after),
                  unlist=of(after).public)


def _claimed(record: TableRecord, state: GameState, after: TableRecord, seat: int, key: str,
             events: list[Any]) -> Change:
    """``seat`` claimed with ``key`` (``after``): the table is dealt if it was the last."""
    if not waiting_for(after):
        return dataclasses.replace(_deal(record, after, events), seat=seat, key=key)
    return Change(state, events, after=life_meta(after), seat=seat, key=key)


@dataclass(frozen=True, slots=True)
class Claim(Command):
    """Claim a seat of a waiting table, with its invitation (none at a public table)."""

    seat: int
    name: str | None
    entropy: str | None
    invitation: str | None
    address: str | None
    """The claimant's address digest (a public table: one seat per client)."""
    seat_key: str = field(default_factory=new_key)

    key: ClassVar[Key] = Key.NONE
    key_first: ClassVar[bool] = True

    def check(self) -> None:
        check_name(self.name)

    def verify(self, record: TableRecord, state: GameState, actor: Actor) -> None:
        seat = self.seat
        _in_range(record, seat)
        meta = of(record)
        if meta.phase != Phase.WAITING:
            raise table_started()
        kept = record.seats[seat]
        if kept.bot is not None or kept.key_hash is not None:
            raise seat_taken(seat)
        if meta.seat(seat).reserved:
            raise seat_reserved(seat)
        if meta.public:
            # One seat per client: by key (a seat's key shown), and by address.
            shown = actor.key
            if shown is not None and any(
                    other.key_hash == key_hash(shown) for other in record.seats):
                raise one_seat_each()
            if self.address is not None and any(other.address == self.address
                                                for other in meta.seats):
                raise one_seat_each()
        if self.name is not None and meta.named(self.name, besides=seat):
            raise name_taken(self.name)
        if self.invitation is not None:
            expected = meta.seat(seat).invitation or ""
            if not hmac.compare_digest(expected, key_hash(self.invitation)):
                raise bad_invitation()
        elif not meta.public:
            raise invitation_required()

    def apply(self, record: TableRecord, state: GameState, actor: Actor) -> Change:
        public = of(record).public
        after = changed(record, seats={self.seat: SeatRecord(None, key_hash(self.seat_key))},
                        seat_changes={self.seat: {
                            "name": self.name, "invitation": None, "entropy": self.entropy,
                            "address": self.address if public else None}})
        events: list[Any] = [{"type": "seat_claimed", "seat": self.seat, "name": self.name}]
        return _claimed(record, state, after, self.seat, self.seat_key, events)


@dataclass(frozen=True, slots=True)
class ReplaceInvitation(Command):
    """The creator revokes an unclaimed seat's invitation: a new one replaces it."""

    seat: int
    invitation: str = field(default_factory=new_key)

    def verify(self, record: TableRecord, state: GameState, actor: Actor) -> None:
        meta = of(record)
        if actor.seat != meta.creator:
            raise creator_only()
        _in_range(record, self.seat)
        if meta.phase != Phase.WAITING:
            raise table_started()
        kept = record.seats[self.seat]
        if kept.bot is not None or kept.key_hash is not None:
            raise seat_taken(self.seat)
        if meta.seat(self.seat).reserved:
            # A rematch's seat is its previous player's: nobody else may revoke it.
            raise seat_reserved(self.seat)

    def apply(self, record: TableRecord, state: GameState, actor: Actor) -> Change:
        # The clock goes on: a new invitation gives nobody more time.
        return Change(state, [], after=changed(record, seat_changes={
            self.seat: {"invitation": key_hash(self.invitation), "reserved": None}}))


@dataclass(frozen=True, slots=True)
class RotateKey(Command):
    """A seat's key replaced: the old one opens nothing any more."""

    seat: int
    seat_key: str = field(default_factory=new_key)

    def admit(self, record: TableRecord) -> None:
        _in_range(record, self.seat)

    def verify(self, record: TableRecord, state: GameState, actor: Actor) -> None:
        if actor.seat != self.seat:
            raise not_your_seat(self.seat)

    def apply(self, record: TableRecord, state: GameState, actor: Actor) -> Change:
        kept = record.seats[self.seat]
        # The clock goes on: a rotation gives nobody more time.
        return Change(state, [], after=changed(
            record, seats={self.seat: SeatRecord(kept.bot, key_hash(self.seat_key))}))


@dataclass(frozen=True, slots=True)
class Start(Command):
    """The creator deals a waiting table now: bots take the seats nobody claimed."""

    def verify(self, record: TableRecord, state: GameState, actor: Actor) -> None:
        meta = of(record)
        if actor.seat != meta.creator:
            raise creator_only()
        if meta.phase != Phase.WAITING:
            raise table_started()

    def apply(self, record: TableRecord, state: GameState, actor: Actor) -> Change:
        return _deal(record, record, [])


@dataclass(frozen=True, slots=True)
class Leave(Command):
    """A player resigns: a bot of the table's level plays the seat from now on."""

    def first(self) -> Command:
        return Autopilot(self.table)  # the clock's due move, before the seat's own

    def verify(self, record: TableRecord, state: GameState, actor: Actor) -> None:
        if of(record).phase == Phase.WAITING:
            raise table_waiting()
        if state.is_over:
            raise match_over()

    def apply(self, record: TableRecord, state: GameState, actor: Actor) -> Change | None:
        seat = actor.seated
        kept = record.seats[seat]
        if kept.bot is not None:
            return None  # left already
        bot = of(record).level
        after = changed(record, seats={seat: SeatRecord(bot, kept.key_hash)})
        moves: list[dict[str, Any]] = []
        events: list[Any] = [{"type": "seat_left", "seat": seat, "bot": bot}]
        played, bot_events = play_due(record, after.seats, state, moves)
        return Change(played, events + bot_events, moves, after=life_meta(after))


@dataclass(frozen=True, slots=True)
class Return(Command):
    """A player takes back the seat a bot plays since they left or missed their turns."""

    seat: int

    def first(self) -> Command:
        return Autopilot(self.table)  # the clock's due move, before the seat's own

    def admit(self, record: TableRecord) -> None:
        _in_range(record, self.seat)

    def verify(self, record: TableRecord, state: GameState, actor: Actor) -> None:
        if actor.seat != self.seat:
            raise not_your_seat(self.seat)
        if of(record).phase == Phase.WAITING:
            raise table_waiting()
        if state.is_over:
            raise match_over()
        if record.seats[self.seat].bot is None:
            raise seat_not_handed_over(self.seat)

    def apply(self, record: TableRecord, state: GameState, actor: Actor) -> Change:
        kept = record.seats[self.seat]
        # The count of missed turns starts again: three more before a bot takes over. The
        # clock goes on: the player moves within what is left of the turn.
        after = changed(record, seats={self.seat: SeatRecord(None, kept.key_hash)},
                        seat_changes={self.seat: {"missed": 0}})
        return Change(state, [{"type": "seat_returned", "seat": self.seat}], after=after)


@dataclass(frozen=True, slots=True)
class Move(Command):
    """A seat's move (``body``: the move and the version it was chosen at), and the bots'
    answers for a slice."""

    body: dict[str, Any]

    stale: ClassVar[Stale] = Stale.RAISE

    def first(self) -> Command:
        return Autopilot(self.table)  # the clock's due move, before the seat's own

    def request_body(self) -> dict[str, Any]:
        return self.body

    def named_version(self) -> int:
        version: int = self.body["version"]
        return version

    def verify(self, record: TableRecord, state: GameState, actor: Actor) -> None:
        if self.body["version"] != record.version:
            raise stale_version(record.version)
        if of(record).phase == Phase.WAITING:
            raise table_waiting()
        if record.seats[actor.seated].bot is not None:
            raise seat_played_by_bot(actor.seated)

    def apply(self, record: TableRecord, state: GameState, actor: Actor) -> Change:
        seat = actor.seated
        moves: list[dict[str, Any]] = []
        try:
            moved, events = play(state, {**self.body["move"], "seat": seat}, moves)
        except MoveError as error:
            # The seat is the key's: the request names no seat.
            raise Problem.from_engine(error, status=409, fields={"seat": None},
                                      prefix="move.") from None
        with metrics.bot_cpu():
            moved, bot_events = play_due(record, record.seats, moved, moves)
        # At a clocked table the player moved in time: the count of missed turns starts again
        # (and the next turn's clock with this commit).
        clock = life_meta(record, seat_changes={seat: {"missed": 0}}) \
            if of(record).clocked else None
        return Change(moved, events + bot_events, moves, after=clock)


@dataclass(frozen=True, slots=True)
class Rematch(Command):
    """A seat asks for the next match once this one is over: the first opens the rematch's
    table and announces it here; each other one claims its seat kept there
    (:class:`JoinRematch`)."""

    key_first: ClassVar[bool] = True

    def verify(self, record: TableRecord, state: GameState, actor: Actor) -> None:
        if not state.is_over:
            raise match_not_over()

    def apply(self, record: TableRecord, state: GameState, actor: Actor) -> Change | Command:
        seat, meta = actor.seated, of(record)
        if meta.rematch is not None:
            assert actor.key is not None
            return JoinRematch(str(meta.rematch), seat, actor.key)
        opened = _open(_rematch_spec(record, seat))
        announced = stored(record, meta.to(Phase.REMATCHED, state, rematch=opened.record.table))
        return Change(state, [{"type": "rematch", "table": opened.record.table}],
                      after=life_meta(announced),
                      shows=Done(opened.record, opened.record.version, opened.state,
                                 opened.events, seat, keys={seat: opened.keys[seat]}))


def _rematch_spec(record: TableRecord, seat: int) -> TableSpec:
    meta = of(record)
    assert meta.variant is not None
    return TableSpec(
        variant=meta.variant, players=len(record.seats), options=meta.options or {},
        bots={index: kept.bot for index, kept in enumerate(record.seats)
              if kept.bot is not None and kept.key_hash is None},
        creator=seat,
        names={index: kept.name for index, kept in enumerate(meta.seats) if kept.name},
        turn_seconds=meta.turn_seconds, level=meta.level,
        reserved={index: kept.key_hash for index, kept in enumerate(record.seats)
                  if kept.key_hash is not None and index != seat},
        rematch_of=record.table, hints=record.hints,
    )


@dataclass(frozen=True, slots=True)
class JoinRematch(Command):
    """``seat`` claimed at the rematch ``table`` by the holder of ``old_key``, the key it
    had at the table before (its seat is kept for it alone)."""

    seat: int
    old_key: str
    seat_key: str = field(default_factory=new_key)

    key: ClassVar[Key] = Key.NONE

    def verify(self, record: TableRecord, state: GameState, actor: Actor) -> None:
        meta = of(record)
        reserved = meta.seat(self.seat).reserved or ""
        if meta.phase != Phase.WAITING or not hmac.compare_digest(reserved,
                                                                  key_hash(self.old_key)):
            raise seat_taken(self.seat)

    def apply(self, record: TableRecord, state: GameState, actor: Actor) -> Change:
        after = changed(record, seats={self.seat: SeatRecord(None, key_hash(self.seat_key))},
                        seat_changes={self.seat: {"reserved": None}})
        events: list[Any] = [{"type": "seat_claimed", "seat": self.seat,
                              "name": of(record).seat(self.seat).name}]
        return _claimed(record, state, after, self.seat, self.seat_key, events)


@dataclass(frozen=True, slots=True)
class Autopilot(Command):
    """The clock's move for a seat whose time ran out (the scheduler's, or committed before
    a ``clocked`` command); three missed turns in a row hand the seat to a bot."""

    key: ClassVar[Key] = Key.NONE
    stale: ClassVar[Stale] = Stale.READ

    def apply(self, record: TableRecord, state: GameState, actor: Actor) -> Change | None:
        if not clocks.due(record, state, clocks.now()):
            return None
        seat = state.to_move
        moves: list[dict[str, Any]] = []
        try:
            chosen = clocks.autopilot_move(record, state)
        except NotReady:
            return None  # a strong autopilot still thinks in the pool
        moved, events = play(state, chosen, moves)
        after = record
        if seat is not None:
            meta = of(record)
            missed = meta.seat(seat).missed + 1
            events = [{"type": "autopilot", "seat": seat}, *events]
            handed = {}
            if missed >= clocks.MISSED_TURNS_TO_BOT:
                handed[seat] = SeatRecord(meta.level, record.seats[seat].key_hash)
                events.append({"type": "seat_to_bot", "seat": seat, "bot": meta.level})
            after = changed(record, seats=handed, seat_changes={seat: {"missed": missed}})
        moved, bot_events = play_due(record, after.seats, moved, moves)
        return Change(moved, events + bot_events, moves, after=life_meta(after))


@dataclass(frozen=True, slots=True)
class Advance(Command):
    """One slice of the bots' due moves (``cpu_seconds`` of this worker's CPU; ``pause``
    runs between two moves: the scheduler yields there), committed as the next version."""

    cpu_seconds: float = SLICE_CPU_SECONDS
    pause: Callable[[], None] | None = None

    key: ClassVar[Key] = Key.NONE
    stale: ClassVar[Stale] = Stale.READ

    def exclusive(self) -> AbstractContextManager[bool]:
        # Another request of this worker playing this slice: its commit wakes the streams.
        return advancing(self.table)

    def apply(self, record: TableRecord, state: GameState, actor: Actor) -> Change | None:
        # A table waiting for its players holds no dealt cards yet (see tables.life).
        if of(record).phase == Phase.WAITING or not is_due(record.seats, state):
            return None
        moves: list[dict[str, Any]] = []
        after, events = play_due(record, record.seats, state, moves, self.cpu_seconds,
                                 self.pause)
        if not moves:
            # The bot still thinks in the pool: nothing to commit. A commit of no move would
            # be a new version, and the bot's job, keyed by the version it answers, would be
            # asked anew at each slice and never answered while it thinks longer than a slice.
            return None
        return Change(after, events, moves)


def _open(spec: TableSpec) -> Opened:
    """Store a new table (:func:`~.life.open_table`); bots to move first at a dealt one play
    one slice at once (version 1), before anyone has seen the table."""
    opened = open_table(spec)
    if of(opened.record).phase == Phase.WAITING:
        return opened
    advanced = execute(Advance(opened.record.table), opened.record)
    # The record of the version the bots reached: an answer names the version of its record
    # (a rematch's answer named version 0 with the state of version 1).
    return dataclasses.replace(opened, record=advanced.record, version=advanced.version,
                               state=advanced.state, events=advanced.events)


@dataclass(frozen=True, slots=True)
class Open:
    """A new table (``POST /v1/tables``): not a commit at a table but its creation, whose
    retry with the same ``Idempotency-Key`` answers the same table, keys and invitations
    (derived from that key), so it has its own path, :meth:`execute`."""

    body: dict[str, Any]

    def execute(self) -> Done:
        """Open the table, or answer the creation this one repeats."""
        body = self.body
        request = idempotency.request_key()
        record = idempotency.opened(request, body) if request is not None else None
        if record is not None and request is not None:
            return self._again(record, request)
        check_name(body["name"])
        spec = self._spec(request)
        if spec.listed:
            lobby.admit(spec.lister)
        try:
            with metrics.bot_cpu():
                opened = _open(spec)
        except TableExists:
            # The same creation, retried while the first one was being made.
            again = idempotency.opened(request, body) if request is not None else None
            if again is None or request is None:
                raise
            return self._again(again, request)
        touch(opened.record, of(opened.record).creator)
        return Done(opened.record, opened.version, opened.state, opened.events,
                    keys=opened.keys, invitations=opened.invitations)

    def _spec(self, request: str | None) -> TableSpec:
        body = self.body
        table = idempotency.table_id(request) if request is not None \
            else secrets.token_urlsafe(12)
        bots = {int(seat): level for seat, level in body["bots"].items()}
        humans = body["players"] - len(bots)
        return TableSpec(
            variant=body["variant"], players=body["players"], options=body["options"] or {},
            bots=bots, creator=body["seat"], name=body["name"], entropy=body["entropy"],
            public=body["public"], turn_seconds=body["turn_seconds"], level=body["level"],
            hints=body["hints"] == "on" if body["hints"] is not None else humans < 2,
            table=table,
            seat_key=None if request is None
            else lambda seat: idempotency.seat_key(request, seat),
            invitation=None if request is None
            else lambda seat: idempotency.invitation(request, seat),
            request=None if request is None else {"body": idempotency.body_digest(body)},
            address=address_digest(table) if body["public"] else None,
            lister=address_digest() if body["public"] else None,
        )

    @staticmethod
    def _again(record: TableRecord, request: str) -> Done:
        """The answer of the creation with idempotency key ``request`` that opened
        ``record``: version 0, or 1 when bots were to move first (played now if that request
        stopped before they did)."""
        meta = of(record)
        creator = meta.creator
        keys = {} if creator is None else {creator: idempotency.seat_key(request, creator)}
        invitations = {seat: idempotency.invitation(request, seat)
                       for seat, kept in enumerate(meta.seats) if kept.invitation is not None}
        first, _ = idempotency.original(record, 0)
        version = 1 if meta.phase != Phase.WAITING and is_due(record.seats, first) else 0
        if version > record.version:
            advanced = execute(Advance(record.table), record)
            return Done(advanced.record, advanced.version, advanced.state, advanced.events,
                        keys=keys, invitations=invitations)
        played, events = idempotency.original(record, version)
        return Done(record, version, played, events, keys=keys, invitations=invitations,
                    replayed=True)
