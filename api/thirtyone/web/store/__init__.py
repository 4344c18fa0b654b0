"""Where hosted tables live: one interface, :class:`TableStore`, and two backends.

A table is a record (its game state, the version of that state, its seats and the SHA-256 of
its seed) and a log with one :class:`Entry` per version after the deal: the moves played and
the events they caused. A move is committed by compare-and-set on the version and its digest,
state and log entry together, or not at all; a commit wakes the streams of that table in every
process that streams it (and only those).

Every table has an *epoch*, drawn at random when it is created (and again when a store that
lost versions is caught up, see :mod:`thirtyone.web.tables.ledger`), and every version a
*digest* chained from the one before: a process that remembers a version can tell whether the
store still has that timeline.

The log stays small: every :data:`SNAPSHOT_EVERY` versions the state is kept as a snapshot and
the entries before the snapshot before it are dropped, so any version from the older snapshot
on is rebuilt by replaying fewer than ``SNAPSHOT_EVERY`` moves (:meth:`TableStore.snapshot`).
Beside it each table keeps its *archive*, the moves of every version and nothing else, never
trimmed: the match record (:mod:`thirtyone.web.tables.records`) is made from it.

:func:`open_store` picks the backend from a URL (``THIRTYONE_STORE``):

- ``sqlite:///PATH``: a file on this machine, shared by the workers of one server
  (:mod:`thirtyone.web.store.sqlite`);
- ``redis://HOST:PORT/DB``: one Redis shared by several servers;
  ``redis+cluster://HOST:PORT[,HOST:PORT...]``: a Redis Cluster;
  ``redis+sentinel://HOST:PORT[,HOST:PORT...]/SERVICE/DB``: the primary that Redis Sentinel
  names (:mod:`thirtyone.web.store.redis`).

A table expires ``ttl`` seconds after its last move.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import threading
from abc import ABC, abstractmethod
from collections.abc import Collection, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from thirtyone.web.jsonio import dumps

__all__ = [
    "KEPT_LOG_SECONDS",
    "KEPT_REQUESTS",
    "SNAPSHOT_EVERY",
    "Archived",
    "CommitUnconfirmed",
    "Entry",
    "RequestRecord",
    "SeatRecord",
    "StaleVersion",
    "StoreFull",
    "StoreUnavailable",
    "TableExists",
    "TableLost",
    "TableNotFound",
    "TableRecord",
    "TableReloaded",
    "TableStore",
    "open_store",
]

SNAPSHOT_EVERY = 64
"""A snapshot of the state every this many versions; a resume replays fewer moves than this."""

KEPT_REQUESTS = 2
"""A compacted table keeps the idempotency records of its last this many versions: a client
retries its own last request, within seconds, never one of long ago."""

KEPT_LOG_SECONDS = 30
"""A compacted table's log stays this long (the streams behind when the match ended read it,
at their next wake-up at the latest: every keep-alive); after it, a reader behind resyncs."""


class StoreError(Exception):
    """Base of the store's errors."""


class TableNotFound(StoreError):
    """No such table: it never existed, or it expired."""


class TableExists(StoreError):
    """A table of that id exists already (a retried creation)."""


class TableLost(StoreError):
    """The table's record is there but its log or snapshot is not (evicted, or half restored)."""


class StaleVersion(StoreError):
    """The table is no longer at the version (and digest) a commit was based on."""

    def __init__(self, current: int) -> None:
        super().__init__(f"the table is at version {current}")
        self.current = current


class TableReloaded(StaleVersion):
    """The table was last written before the store's data was reloaded (a restart from its
    files, a copy restored, a replica promoted): versions after it may have been acknowledged
    and lost, so no move is committed on it until it is moved onto a new epoch (its next
    :meth:`TableStore.load` says so: :attr:`TableRecord.reloaded`)."""


class StoreUnavailable(StoreError):
    """The store cannot be reached or did not answer; nothing was changed."""


class StoreFull(StoreUnavailable):
    """The store refused a write for want of memory; nothing was changed."""


class CommitUnconfirmed(StoreUnavailable):
    """A commit was sent but the store did not confirm it (no answer, or too few replicas
    acknowledged it): it may have been applied."""


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A seat: a bot's level, or the SHA-256 of the secret key of the human who holds it.

    Stored as a JSON object of its fields, so a field added here (with a default) needs no
    change to the backends."""

    bot: str | None
    key_hash: str | None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SeatRecord:
        names = {item.name for item in dataclasses.fields(cls)}
        return cls(**{name: value for name, value in data.items() if name in names})


# The fields of a record that the backends keep apart from its metadata.
_STATE_FIELDS = frozenset({"table", "version", "state_json", "epoch", "digest", "reloaded"})


@dataclass(frozen=True, slots=True)
class TableRecord:
    """A table as stored: ``state_json`` is the JSON of :meth:`GameState.to_dict` at
    ``version``, read by :meth:`state` (a process that holds that version's state already
    need not read it); ``digest`` names that version on this ``epoch``'s timeline.

    Every other field is metadata, stored as one JSON object (:meth:`meta_json`): a field
    added here with a default is stored and read back with no change to the backends.
    ``request`` is the idempotency record of the request that opened the table, if any."""

    table: str
    version: int
    state_json: str | bytes
    seats: tuple[SeatRecord, ...]
    seed_sha256: str
    # The table's rule on hints: whether its seats may ask the advice.
    hints: bool = True
    epoch: str = ""
    digest: str = ""
    request: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    reloaded: bool = False
    """Whether the store's data was reloaded since this table was last written (see
    :class:`TableReloaded`): a backend that can tell (Redis) says so, and the table is moved
    onto a new epoch above this version before anything is committed on it."""

    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = json.loads(self.state_json)
        return state

    def meta_json(self) -> bytes:
        """What the backends store as the table's metadata."""
        meta: dict[str, Any] = {}
        for item in dataclasses.fields(self):
            if item.name in _STATE_FIELDS:
                continue
            value = getattr(self, item.name)
            if item.name == "seats":
                value = [dataclasses.asdict(seat) for seat in value]
            meta[item.name] = value
        return dumps(meta)

    @classmethod
    def from_stored(cls, table: str, version: int, state: str | bytes, meta: str | bytes,
                    epoch: str | bytes = "", digest: str | bytes = "",
                    reloaded: bool = False) -> TableRecord:
        data = json.loads(meta)
        names = {item.name for item in dataclasses.fields(cls)} - _STATE_FIELDS
        values = {name: value for name, value in data.items() if name in names}
        values["seats"] = tuple(SeatRecord.from_dict(seat) for seat in data["seats"])
        return cls(table=table, version=version, state_json=state,
                   epoch=_text(epoch), digest=_text(digest), reloaded=reloaded, **values)


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


def first_digest(epoch: str) -> str:
    """The digest of version 0 of a table on ``epoch``."""
    return hashlib.sha256(f"thirtyone table {epoch}".encode()).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class RequestRecord:
    """What an idempotent request committed: the version it made, the digest of its body, and
    the seat that sent it (None for the request that opened the table)."""

    version: int
    body: str
    seat: int | None

    def to_json(self) -> bytes:
        return dumps({"version": self.version, "body": self.body, "seat": self.seat})

    @classmethod
    def from_json(cls, text: str | bytes) -> RequestRecord:
        data = json.loads(text)
        return cls(data["version"], data["body"], data["seat"])


@dataclass(frozen=True, slots=True)
class Entry:
    """What one version added: the moves played (as the state's history records them, bots'
    moves included) and the engine's events, not yet localized.

    ``prev`` is the digest of the version it was played on and ``digest`` its own (see
    :meth:`chained`); a commit succeeds only on a table still at ``prev``. ``request`` is the
    idempotency key of the request that made it, with its record; ``reset`` marks the entry
    that moved a table onto a new epoch after the store lost versions (no moves)."""

    version: int
    moves: list[dict[str, Any]]
    events: list[dict[str, Any]]
    prev: str = ""
    digest: str = ""
    request: tuple[str, RequestRecord] | None = None
    reset: bool = False
    at: float = 0.0
    """When it was committed (Unix time), for the pub/sub lag; not part of the digest."""
    nonce: str = ""
    """Drawn for each commit: two requests that make the same move at once make two entries
    (one of them stale), while one commit sent twice (a client library's retry) is one."""

    def chained(self) -> Entry:
        """This entry with its digest: of the previous digest and of what the entry holds."""
        content = dumps({"version": self.version, "moves": self.moves, "events": self.events,
                         "reset": self.reset, "nonce": self.nonce})
        digest = hashlib.sha256(self.prev.encode() + content).hexdigest()[:32]
        return dataclasses.replace(self, digest=digest)

    def to_json(self) -> bytes:
        data: dict[str, Any] = {"version": self.version, "moves": self.moves,
                                "events": self.events, "prev": self.prev,
                                "digest": self.digest, "at": self.at, "nonce": self.nonce}
        if self.reset:
            data["reset"] = True
        return dumps(data)

    @classmethod
    def from_json(cls, text: str | bytes) -> Entry:
        data = json.loads(text)
        return cls(data["version"], data["moves"], data["events"], data.get("prev", ""),
                   data.get("digest", ""), reset=data.get("reset", False),
                   at=data.get("at", 0.0), nonce=data.get("nonce", ""))


@dataclass(frozen=True, slots=True)
class Archived:
    """What the match archive keeps of one version: its moves, and whether it moved the
    table onto a new epoch (a timeline the store lost lies before it)."""

    version: int
    moves: list[dict[str, Any]]
    reset: bool = False

    def to_json(self) -> bytes:
        return dumps([self.version, self.moves, self.reset])

    @classmethod
    def from_json(cls, text: str | bytes) -> Archived:
        version, moves, reset = json.loads(text)
        return cls(version, moves, reset)

    @classmethod
    def of(cls, entry: Entry) -> Archived:
        return cls(entry.version, entry.moves, entry.reset)


class Hub:
    """The streams of this process waiting for new versions, by table.

    A stream registers an event with :meth:`listen`; a backend's watcher calls :meth:`notify`
    when it learns that a table has a new version (or :meth:`notify_all` when it may have
    missed some). A notice may carry the new version's entry, which the table's streams then
    take from :meth:`latest` rather than each read it from the store (when it is the one
    after their cursor); otherwise they read the log from their cursor. :meth:`wake` wakes a
    table's streams with no new version (a seat came or went): a stream tells it from a notice
    by :meth:`notices`, and reads nothing.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[str, set[threading.Event]] = {}
        self._latest: dict[str, Entry] = {}
        # Notices of new versions, counted by table while streams wait on it.
        self._notices: dict[str, int] = {}
        # Set when a table gains its first local stream or loses its last: a backend that
        # subscribes per table (Redis) then updates its subscriptions.
        self.changed = threading.Event()
        # Counts the times notices may have been missed (:meth:`notify_all`).
        self.generation = 0
        # Set when another process said a seat's last stream there ended (a store that tells
        # it, see :attr:`TableStore.tells_gone`): this process's presence sweeper sweeps now.
        self.left = threading.Event()

    @contextmanager
    def listen(self, table: str) -> Iterator[threading.Event]:
        woken = threading.Event()
        with self._lock:
            waiting = self._waiting.setdefault(table, set())
            if not waiting:
                self.changed.set()
            waiting.add(woken)
        try:
            yield woken
        finally:
            with self._lock:
                left = self._waiting.get(table)
                if left is not None:
                    left.discard(woken)
                    if not left:
                        del self._waiting[table]
                        self._latest.pop(table, None)
                        self._notices.pop(table, None)
                        self.changed.set()

    def tables(self) -> list[str]:
        """The tables that local streams wait on."""
        with self._lock:
            return list(self._waiting)

    def notify(self, table: str, entry: Entry | None = None) -> None:
        with self._lock:
            waiting = list(self._waiting.get(table, ()))
            if waiting:
                self._notices[table] = self._notices.get(table, 0) + 1
            if entry is None:
                # A new version whose entry this process has not seen: streams read the log.
                self._latest.pop(table, None)
            elif waiting:
                latest = self._latest.get(table)
                if latest is None or latest.version < entry.version:
                    self._latest[table] = entry
        for woken in waiting:
            woken.set()

    def wake(self, table: str) -> None:
        """Wake ``table``'s streams with no new version: who is at the table changed."""
        with self._lock:
            waiting = list(self._waiting.get(table, ()))
        for woken in waiting:
            woken.set()

    def notices(self, table: str) -> int:
        """How many notices of new versions ``table``'s streams here had (a stream read
        before it reads the store: a wake-up with no notice since is only :meth:`wake`).
        Read without the lock (one lookup, atomic): a stream asks at each wake-up."""
        return self._notices.get(table, 0)

    def notify_all(self) -> None:
        """Wake every stream to read its log: notices may have been missed."""
        with self._lock:
            self._latest.clear()
            self.generation += 1
        for table in self.tables():
            self.notify(table)

    def latest(self, table: str) -> Entry | None:
        """The newest entry a notice brought for ``table``, if any."""
        with self._lock:
            return self._latest.get(table)


class Swept(NamedTuple):
    """A table as one :meth:`TableStore.sweep` saw it: when each seat was last seen, and the
    version (and its digest) it is at."""

    seen: dict[int, float]
    version: int
    digest: str


class TableStore(ABC):
    """Tables and their logs, with compare-and-set commits and wake-ups across processes.

    Every method raises :class:`StoreUnavailable` when the backend cannot answer.
    """

    tells_gone = False
    """Whether :meth:`gone` is heard by every process streaming the table (their hub's
    ``left``): they read the seats then, and need not sweep presence every few seconds."""

    def __init__(self, ttl: int) -> None:
        self.ttl = ttl
        self.hub = Hub()
        self._watcher_pid: int | None = None
        self._watcher_lock = threading.Lock()

    @abstractmethod
    def create(self, record: TableRecord, start: Mapping[str, Any]) -> None:
        """Store a new table at version 0; ``start`` is its state as dealt, its first
        snapshot. :class:`TableExists` if a table of that id exists (a retried creation)."""

    @abstractmethod
    def load(self, table: str) -> TableRecord:
        """The table as last committed; :class:`TableNotFound` if unknown or expired."""

    @abstractmethod
    def snapshot(self, table: str, at: int) -> tuple[int, dict[str, Any]] | None:
        """The newest kept snapshot at or before version ``at``, as (version, state); None
        when the log no longer reaches back to ``at``. :class:`TableNotFound` if the table is
        gone, :class:`TableLost` if its record is there without its snapshots."""

    @abstractmethod
    def commit(self, table: str, version: int, state: Mapping[str, Any], entry: Entry,
               meta: bytes | None = None) -> None:
        """Replace the state at ``version`` (digest ``entry.prev``) with ``state`` at
        ``entry.version`` and append ``entry`` (chained, see :meth:`Entry.chained`) to the
        log, with its request's record, all or nothing; a snapshot when ``SNAPSHOT_EVERY``
        versions have passed since the last. :class:`StaleVersion` if the table is no longer
        at that version and digest, :class:`TableNotFound` if it is gone,
        :class:`CommitUnconfirmed` if the store did not confirm it. Committing an entry the
        table has already is a success: a commit retried (by a client library, or after a
        lost answer) is not applied twice. ``meta`` (a record's :meth:`TableRecord.meta_json`),
        when given, replaces the table's metadata (seats, ``extra``) in the same step."""

    @abstractmethod
    def entries(self, table: str, after: int) -> list[Entry]:
        """The kept log entries of the versions after ``after``, in order."""

    @abstractmethod
    def archive(self, table: str) -> list[Archived]:
        """Every version's moves since the table was made, in order: written with each
        commit and never trimmed (the log is, after each snapshot), so a finished match of
        any length has its whole record. :class:`TableNotFound` if the table is gone."""

    @abstractmethod
    def compact(self, table: str, ttl: int) -> None:
        """Shrink a finished table whose record is archived to what a late reader needs: its
        record and state, one snapshot (its state), the idempotency records of its last
        :data:`KEPT_REQUESTS` versions, and its log for :data:`KEPT_LOG_SECONDS` (the streams
        behind catch up); its moves (the archive has them) and who was last seen are
        dropped, and it expires ``ttl`` seconds from now (a later commit does not extend it)
        rather than the store's ``ttl``. Nothing when the table is gone."""

    @abstractmethod
    def request(self, table: str, key: str) -> RequestRecord | None:
        """What the request with idempotency key ``key`` committed at ``table``, if any."""

    def confirm(self, table: str) -> None:
        """Return once ``table``'s last commit is as durable as a commit must be before it is
        acknowledged (a store with replicas: that many have it); :class:`CommitUnconfirmed`
        when it is not. An idempotent retry answers the stored answer only after this: the
        first attempt's answer may have been a 503 because its commit was unconfirmed."""
        # Without replicas, a commit is as durable as it gets once it returned.
        return None

    @abstractmethod
    def ping(self) -> None:
        """Return when the store answers; :class:`StoreUnavailable` when it does not."""

    def check(self) -> dict[str, bool]:
        """Whether each part of the store answers, by name: one for a single store, every
        primary of a Redis Cluster (each holds its own share of the tables)."""
        try:
            self.ping()
        except StoreUnavailable:
            return {"store": False}
        return {"store": True}

    @abstractmethod
    def _watch(self) -> None:
        """Run forever in a background thread: :meth:`Hub.notify` each table with local
        listeners when another process commits a version of it."""

    def entries_after(self, table: str, cursor: int) -> list[Entry]:
        """What a woken stream at ``cursor`` has missed: the entry a notice brought when it
        is the next one, nothing when it is the stream's own, else the log's entries."""
        latest = self.hub.latest(table)
        if latest is not None and latest.version == cursor + 1:
            return [latest]
        if latest is not None and latest.version == cursor:
            return []
        return self.entries(table, cursor)

    @contextmanager
    def listen(self, table: str) -> Iterator[threading.Event]:
        """An event set whenever ``table`` may have a new version (any process's commit)."""
        self._start_watcher()
        with self.hub.listen(table) as woken:
            yield woken

    def _start_watcher(self) -> None:
        # Started on first use in each process: a gunicorn worker forked from a master that
        # created the app must run its own watcher (threads do not survive a fork).
        pid = os.getpid()
        if self._watcher_pid == pid:
            return
        with self._watcher_lock:
            if self._watcher_pid != pid:
                threading.Thread(target=self._watch, name="thirtyone-table-watcher",
                                 daemon=True).start()
                self._watcher_pid = pid

    @abstractmethod
    def touch(self, table: str, seat: int, when: float) -> None:
        """Note that ``seat`` was seen at ``when`` (Unix time): a request, or an open stream."""

    @abstractmethod
    def gone(self, table: str, seat: int) -> None:
        """Forget when ``seat`` was seen: its player closed the last stream it had here."""

    @abstractmethod
    def seen(self, table: str) -> dict[int, float]:
        """When each seat of ``table`` was last seen (seats never seen are left out)."""

    @abstractmethod
    def sweep(self, seats: Mapping[str, Collection[int]], when: float) -> dict[str, Swept]:
        """In one call to the store, for a process's open streams: note every seat of
        ``seats`` (by table) as seen at ``when``, and read each table's presence and version.
        Tables gone (expired) are left out of the answer."""

    @abstractmethod
    def list_public(self, table: str, when: float, lister: str | None = None) -> None:
        """Put ``table`` in the lobby, in order of ``when`` (its creation), among the tables
        of ``lister`` (the address digest of the client that opened it) when given."""

    @abstractmethod
    def listed_by(self, lister: str) -> list[str]:
        """The tables of ``lister`` in the lobby, newest first (those that left it are
        forgotten here): a few, as a client's listed tables are capped when opened."""

    @abstractmethod
    def unlist(self, table: str) -> None:
        """Take ``table`` out of the lobby (it started, or expired)."""

    @abstractmethod
    def public_tables(self, offset: int, limit: int) -> tuple[list[str], int]:
        """A page of the lobby's tables, newest first, and how many it holds."""

    @abstractmethod
    def close(self) -> None:
        """Release connections (the watcher, a daemon thread, ends with the process)."""
