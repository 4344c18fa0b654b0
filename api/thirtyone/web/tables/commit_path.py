"""The one path that commits a change to a table: :func:`execute`, for every command.

A command (:class:`Command`; each one is a class of :mod:`.commands`) is a frozen dataclass
naming its table and what the request says, with the engine's operations' two steps:
:meth:`Command.verify` refuses it (a :class:`~thirtyone.web.problems.Problem`) at the table
as it is, and :meth:`Command.apply` returns the :class:`Change` it makes (the state, the
moves, the events and the seats' and table's metadata of the next version), or nothing to
commit. Its class attributes and hooks say what this path does around them: which key it
needs (:class:`Key`), what is committed before it (:meth:`Command.first`: the clock's due
move), what a stale version does (:class:`Stale`), whether it answers a retry with the same
``Idempotency-Key`` (:meth:`Command.request_body`).

:func:`execute` runs, in this order: the request's own checks (:meth:`Command.check`), the
table loaded (404), the checks before the key (:meth:`Command.admit`: the seat a path
names), authentication (401 without a key, 403 for a key that opens no seat), an idempotent
retry answered its first answer (once the store confirms it as durable as the first attempt
had to be), the seat noted present, the command to commit first (the clock's autopilot),
then ``verify``, ``apply`` and the commit (:func:`~.ledger.commit`: compare-and-set on
version and digest, ``WAIT`` for the configured replicas, the log entry with its
idempotency record, the push to every stream and the scheduler told what is due), tried
again on the newer version where the command allows it. A move named at the version this
process holds (it committed or read it) skips the read: only its commit, the compare-and-set
on that very version and digest, may answer it; anything else is answered from the table read
afresh (:func:`execute`). The rate limit is Flask-Limiter's,
in the view's wrapper before the view runs, for the operations
:data:`~thirtyone.web.limits.LIMITED` lists. Nothing else in the package commits a version
(a test checks it).
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar

from thirtyone.game import GameState
from thirtyone.web.problems import Problem
from thirtyone.web.store import RequestRecord, StaleVersion, TableRecord
from thirtyone.web.tables import idempotency
from thirtyone.web.tables.ledger import commit, held, load_table, store, table_state
from thirtyone.web.tables.presence import touch
from thirtyone.web.tables.problems import busy_table, key_required
from thirtyone.web.tables.seats import bearer_key, seat_of

ATTEMPTS = 8
"""How often a command whose version went stale is tried again before ``503 table_busy``."""


class Key(Enum):
    """What a command needs of the request's bearer key."""

    NONE = "none"
    """None (a claim, which may only compare one; the scheduler's commands)."""
    SEAT = "seat"
    """A seat's key: 401 without one, 403 for one that opens no seat."""


class Stale(Enum):
    """What a command does when another commit came first."""

    RETRY = "retry"
    """Tried again on the newer version (up to :data:`ATTEMPTS` times): a seat's change."""
    RAISE = "raise"
    """``409 stale_version``: a move was chosen at the version it names."""
    READ = "read"
    """Answered the table as it now is: the scheduler's moves (the other commit stands)."""


@dataclass(frozen=True, slots=True)
class Actor:
    """Who sends a command: the seat its key opens (None: no key, or none needed), the key
    it showed and the idempotency key it named."""

    seat: int | None = None
    key: str | None = None
    request: str | None = None

    @property
    def seated(self) -> int:
        """The seat of a command that needs a key (:attr:`Key.SEAT`)."""
        assert self.seat is not None
        return self.seat


@dataclass(frozen=True, slots=True)
class Done:
    """A command's outcome, as its answer shows it: the table (as committed, or as it is when
    nothing changed) at ``version`` with ``state``, the ``events`` of the change, the seat whose
    view it shows, and the secrets only this answer holds (a seat's new ``keys``, the
    ``invitations`` of a new table). ``digest`` names ``version`` when it is not the record's
    own (a replayed answer); ``replayed`` marks an answer repeated for an idempotent retry."""

    record: TableRecord
    version: int
    state: GameState
    events: list[Any]
    seat: int | None = None
    keys: Mapping[int, str] = field(default_factory=dict)
    invitations: Mapping[int, str] = field(default_factory=dict)
    digest: str | None = None
    replayed: bool = False


@dataclass(frozen=True, slots=True)
class Change:
    """What a command makes of a table: the next version's ``state`` reached by ``moves``
    (none: a change of seats, keys or names, which the version cap does not count), its
    ``events``, and ``after``, the record's seats and metadata as the commit stores them
    (None: unchanged; :func:`~.life.life_meta` where the clock's next turn starts).

    ``seat`` is a seat the command took (a claim: noted present once committed, and the
    answer's view); ``key`` its new key; ``unlist`` takes a dealt public table out of the
    lobby once committed; ``shows`` answers another table than the committed one (a
    rematch's first asker sees the new table)."""

    state: GameState
    events: list[Any]
    moves: list[dict[str, Any]] = field(default_factory=list)
    after: TableRecord | None = None
    seat: int | None = None
    key: str | None = None
    unlist: bool = False
    shows: Done | None = None


@dataclass(frozen=True, slots=True)
class Command:
    """A change a client (or the table's scheduler) asks of ``table``."""

    table: str

    key: ClassVar[Key] = Key.SEAT
    key_first: ClassVar[bool] = False
    """The bearer key is read before the table is loaded (a malformed one is 401 even at a
    table that does not exist), once for all its attempts."""
    stale: ClassVar[Stale] = Stale.RETRY

    def check(self) -> None:
        """Refuse what the request alone shows wrong, before anything is read."""

    def admit(self, record: TableRecord) -> None:
        """Refuse, before the key is checked, what the request names that the table lacks."""

    def first(self) -> Command | None:
        """A command committed before this one is verified, on the table as it then is (a
        seat's change at a clocked table: the clock's due move,
        :class:`~.commands.Autopilot`); None: none."""
        return None

    def request_body(self) -> dict[str, Any] | None:
        """What an idempotent retry must repeat (it then reads ``Idempotency-Key``); None: the
        command takes no idempotency key."""
        return None

    def named_version(self) -> int | None:
        """The version the request names (a move's): when this process holds the table's
        record at that version, the command is tried on it first, without reading the table
        (see :func:`execute`); None: the table is read."""
        return None

    def exclusive(self) -> AbstractContextManager[bool]:
        """Held around ``apply`` and the commit; False: another request of this process does
        the same now, and this one changes nothing."""
        return nullcontext(True)

    def verify(self, record: TableRecord, state: GameState, actor: Actor) -> None:
        """Refuse the command at the table as it is (a Problem)."""

    def apply(self, record: TableRecord, state: GameState,
              actor: Actor) -> Change | Command | None:
        """The change the command makes (None: nothing to commit; a Command: that one is
        executed instead, at its own table)."""
        raise NotImplementedError


class _Unproven(Exception):
    """An attempt on the record this process holds came to an answer that no commit on
    exactly that record proves current."""


def execute(command: Command, record: TableRecord | None = None) -> Done:
    """Apply ``command`` through the one commit path (see the module's docstring); ``record``
    is the table just loaded, if the caller has it.

    A command that names the version it was chosen at (:meth:`Command.named_version`, a
    move's) is tried first on this process's own record of the table at that version, when
    it holds one (it committed or read that version: :func:`~.ledger.held`), without reading
    the table: a Redis round trip and the record's decoding less per move. Only its commit
    may answer it then: the compare-and-set on that version and digest proves that the
    record it was checked against (the seats, their keys, the state) is the store's, every
    change of them being a commit of a new version with a new digest. Any other outcome (a
    refusal, a retry's stored answer, nothing to commit, the clock's due move, a stale
    version) is answered from the table read afresh, as without the held record."""
    command.check()
    shown = bearer_key() if command.key_first else None
    if record is None:
        done = _on_held(command, shown)
        if done is not None:
            return done
    attempts = ATTEMPTS if command.stale is Stale.RETRY else 1
    for attempt in range(attempts):
        if record is None or attempt:
            record = load_table(command.table)
        try:
            return _attempt(command, record, shown)
        except StaleVersion:
            if command.stale is Stale.RAISE:
                raise
            if command.stale is Stale.READ:
                fresh = load_table(command.table)
                return Done(fresh, fresh.version, table_state(fresh), [])
    raise busy_table()


def _on_held(command: Command, shown: str | None) -> Done | None:
    """``command`` committed on the record this process holds at the version it names, or
    None: it is to be executed on the table as read (see :func:`execute`)."""
    version = command.named_version()
    record = None if version is None else held(command.table, version)
    if record is None:
        return None
    try:
        if command.request_body() is not None and idempotency.request_key() is not None:
            return None  # a retry's stored answer is proved by no commit: the table is read
        return _attempt(command, record, shown, held=True)
    except (_Unproven, Problem, StaleVersion):
        # Nothing was committed on the held record (a refusal, a stale version, another
        # answer): the table as read answers, as if it had not been held.
        return None


def _attempt(command: Command, record: TableRecord, shown: str | None,
             held: bool = False) -> Done:
    """``command`` on ``record``: read from the store, or (``held``) this process's own,
    which a commit on it alone may answer (see :func:`execute`)."""
    command.admit(record)
    actor = _authenticate(command, record, shown)
    body = command.request_body()
    if actor.request is not None and body is not None:
        replayed = _replayed(record, actor, body)
        if replayed is not None:
            return replayed
    if not held:
        touch(record, actor.seat)  # on a held record: once its commit proved the key
    first = command.first()
    if first is not None:
        enforced = execute(first, record)
        if held and enforced.record is not record:
            raise _Unproven  # the clock's due move: committed, or found done by another
        record, state = enforced.record, enforced.state
    else:
        state = table_state(record)
    command.verify(record, state, actor)
    with command.exclusive() as mine:
        change = command.apply(record, state, actor) if mine else None
        if held and (change is None or isinstance(change, Command)):
            raise _Unproven
        if isinstance(change, Command):
            return execute(change)
        if change is None:
            return Done(record, record.version, state, [], actor.seat)
        request = None if actor.request is None or body is None else (
            actor.request, RequestRecord(record.version + 1,
                                         idempotency.body_digest(body, actor.seat), actor.seat))
        try:
            committed = commit(record, record.version, change.moves, change.state,
                               change.events, request, meta=change.after)
        except StaleVersion:
            # The same request, retried while the first one was being committed.
            replayed = None if request is None or body is None else _replayed(
                record, actor, body)
            if replayed is None:
                raise
            return replayed
    if change.unlist:
        store().unlist(record.table)
    if held:
        touch(committed, actor.seat)
    touch(committed, change.seat)
    if change.shows is not None:
        return change.shows
    seat = change.seat if change.seat is not None else actor.seat
    return Done(committed, committed.version, change.state, change.events, seat,
                keys={} if change.key is None or seat is None else {seat: change.key})


def _authenticate(command: Command, record: TableRecord, shown: str | None) -> Actor:
    if command.key is Key.NONE:
        return Actor(key=shown)
    key = shown if command.key_first else bearer_key()
    if key is None:
        raise key_required()
    seat = seat_of(record, key)
    assert seat is not None  # a key was shown
    request = idempotency.request_key() if command.request_body() is not None else None
    return Actor(seat, key, request)


def _replayed(record: TableRecord, actor: Actor, body: dict[str, Any]) -> Done | None:
    """The answer an earlier request with the actor's idempotency key got, if one was
    committed (see :func:`.idempotency.committed`)."""
    assert actor.request is not None
    done = idempotency.committed(record, actor.request, body, actor.seat)
    if done is None:
        return None
    record = load_table(record.table)
    state, events, digest = idempotency.original_entry(record, done.version)
    return Done(record, done.version, state, events, actor.seat, digest=digest, replayed=True)
