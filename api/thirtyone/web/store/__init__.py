"""Where hosted tables live: one interface, :class:`TableStore`, and two backends.

A table is a record (its game state, the version of that state, its seats and the SHA-256 of
its seed) and a log with one :class:`Entry` per version after the deal: the moves played and
the events they caused. A move is committed by compare-and-set on the version, state and log
entry together, or not at all; a commit wakes the streams of that table in every process.

:func:`open_store` picks the backend from a URL (``THIRTYONE_STORE``):

- ``sqlite:///PATH``: a file on this machine, shared by the workers of one server
  (:mod:`thirtyone.web.store.sqlite`);
- ``redis://HOST:PORT/DB``: a Redis shared by several servers (:mod:`thirtyone.web.store.redis`).

A table expires ``ttl`` seconds after its last move.
"""

from __future__ import annotations

import json
import os
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from thirtyone.web.jsonio import dumps

__all__ = [
    "Entry",
    "SeatRecord",
    "StaleVersion",
    "StoreUnavailable",
    "TableNotFound",
    "TableRecord",
    "TableStore",
    "open_store",
]


class StoreError(Exception):
    """Base of the store's errors."""


class TableNotFound(StoreError):
    """No such table: it never existed, or it expired."""


class StaleVersion(StoreError):
    """The table is no longer at the version a commit was based on."""

    def __init__(self, current: int) -> None:
        super().__init__(f"the table is at version {current}")
        self.current = current


class StoreUnavailable(StoreError):
    """The store cannot be reached or did not answer; nothing was changed."""


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A seat: a bot's level, or the SHA-256 of the secret key of the human who holds it."""

    bot: str | None
    key_hash: str | None


@dataclass(frozen=True, slots=True)
class TableRecord:
    """A table as stored: ``state_json`` is the JSON of :meth:`GameState.to_dict` at
    ``version``, read by :meth:`state` (a process that holds that version's state already
    need not read it). ``meta`` is what the table's life adds (names, invitations, phase,
    clocks: :mod:`thirtyone.web.tables.life`), plain JSON, replaced by a commit that names it."""

    table: str
    version: int
    state_json: str | bytes
    seats: tuple[SeatRecord, ...]
    seed_sha256: str
    meta: dict[str, Any] = field(default_factory=dict)

    def state(self) -> dict[str, Any]:
        return json.loads(self.state_json)  # type: ignore[no-any-return]

    def meta_json(self) -> bytes:
        """The seats, the seed's SHA-256 and ``meta``: written at creation and by a commit
        that changes them."""
        return dumps({
            "seats": [{"bot": seat.bot, "key_hash": seat.key_hash} for seat in self.seats],
            "seed_sha256": self.seed_sha256,
            "meta": self.meta,
        })

    @classmethod
    def from_stored(cls, table: str, version: int, state: str | bytes,
                    meta: str | bytes) -> TableRecord:
        data = json.loads(meta)
        return cls(
            table=table, version=version, state_json=state,
            seats=tuple(SeatRecord(seat["bot"], seat["key_hash"]) for seat in data["seats"]),
            seed_sha256=data["seed_sha256"], meta=data.get("meta") or {},
        )


@dataclass(frozen=True, slots=True)
class Entry:
    """What one version added: the moves played (as the state's history records them, bots'
    moves included) and the engine's events, not yet localized."""

    version: int
    moves: list[dict[str, Any]]
    events: list[dict[str, Any]]

    def to_json(self) -> bytes:
        return dumps({"version": self.version, "moves": self.moves, "events": self.events})

    @classmethod
    def from_json(cls, text: str | bytes) -> Entry:
        data = json.loads(text)
        return cls(data["version"], data["moves"], data["events"])


class Hub:
    """The streams of this process waiting for new versions, by table.

    A stream registers an event with :meth:`listen`; a backend's watcher calls :meth:`notify`
    when it learns that a table has a new version (or :meth:`notify_all` when it may have
    missed some). A notice may carry the new version's entry, which the table's streams then
    take from :meth:`latest` rather than each read it from the store (when it is the one
    after their cursor); otherwise they read the log from their cursor.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[str, set[threading.Event]] = {}
        self._latest: dict[str, Entry] = {}

    @contextmanager
    def listen(self, table: str) -> Iterator[threading.Event]:
        woken = threading.Event()
        with self._lock:
            self._waiting.setdefault(table, set()).add(woken)
        try:
            yield woken
        finally:
            with self._lock:
                waiting = self._waiting.get(table)
                if waiting is not None:
                    waiting.discard(woken)
                    if not waiting:
                        del self._waiting[table]
                        self._latest.pop(table, None)

    def tables(self) -> list[str]:
        """The tables that local streams wait on."""
        with self._lock:
            return list(self._waiting)

    def notify(self, table: str, entry: Entry | None = None) -> None:
        with self._lock:
            waiting = list(self._waiting.get(table, ()))
            if entry is None:
                # A new version whose entry this process has not seen: streams read the log.
                self._latest.pop(table, None)
            elif waiting:
                latest = self._latest.get(table)
                if latest is None or latest.version < entry.version:
                    self._latest[table] = entry
        for woken in waiting:
            woken.set()

    def notify_all(self) -> None:
        """Wake every stream to read its log: notices may have been missed."""
        with self._lock:
            self._latest.clear()
        for table in self.tables():
            self.notify(table)

    def latest(self, table: str) -> Entry | None:
        """The newest entry a notice brought for ``table``, if any."""
        with self._lock:
            return self._latest.get(table)


class TableStore(ABC):
    """Tables and their logs, with compare-and-set commits and wake-ups across processes.

    Every method raises :class:`StoreUnavailable` when the backend cannot answer.
    """

    def __init__(self, ttl: int) -> None:
        self.ttl = ttl
        self.hub = Hub()
        self._watcher_pid: int | None = None
        self._watcher_lock = threading.Lock()

    @abstractmethod
    def create(self, record: TableRecord, start: dict[str, Any]) -> None:
        """Store a new table at version 0; ``start`` is its state as dealt, from which the
        state of any version is replayed (:meth:`start`)."""

    @abstractmethod
    def start(self, table: str) -> dict[str, Any]:
        """The table's state as dealt; :class:`TableNotFound` if unknown or expired."""

    @abstractmethod
    def load(self, table: str) -> TableRecord:
        """The table as last committed; :class:`TableNotFound` if unknown or expired."""

    @abstractmethod
    def commit(self, table: str, version: int, state: dict[str, Any], entry: Entry,
               meta: bytes | None = None) -> None:
        """Replace the state at ``version`` with ``state`` at ``entry.version`` (one more) and
        append ``entry`` to the log, all or nothing; :class:`StaleVersion` if the table is no
        longer at ``version``, :class:`TableNotFound` if it is gone. ``meta`` (a record's
        :meth:`TableRecord.meta_json`), when given, replaces the seats and meta in the same
        step."""

    @abstractmethod
    def entries(self, table: str, after: int) -> list[Entry]:
        """The log entries of the versions after ``after``, in order."""

    @abstractmethod
    def _watch(self) -> None:
        """Run forever in a background thread: :meth:`Hub.notify` each table with local
        listeners when another process commits a version of it."""

    def entries_after(self, table: str, cursor: int, *, from_log: bool = False) -> list[Entry]:
        """What a woken stream at ``cursor`` has missed: the entry a notice brought when it
        is the next one, nothing when it is the stream's own, else the log's entries
        (always the log's with ``from_log``)."""
        latest = None if from_log else self.hub.latest(table)
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
    def seen(self, table: str) -> dict[int, float]:
        """When each seat of ``table`` was last seen (seats never seen are left out)."""

    @abstractmethod
    def list_public(self, table: str, when: float) -> None:
        """Put ``table`` in the lobby, in order of ``when`` (its creation)."""

    @abstractmethod
    def unlist(self, table: str) -> None:
        """Take ``table`` out of the lobby (it started, or expired)."""

    @abstractmethod
    def public_tables(self, offset: int, limit: int) -> tuple[list[str], int]:
        """A page of the lobby's tables, newest first, and how many it holds."""

    @abstractmethod
    def close(self) -> None:
        """Release connections (the watcher, a daemon thread, ends with the process)."""


def open_store(url: str, ttl: int) -> TableStore:
    """The store that ``url`` names: ``sqlite:///PATH`` or ``redis://HOST:PORT/DB``."""
    if url.startswith("sqlite:///"):
        from thirtyone.web.store.sqlite import SQLiteStore

        return SQLiteStore(url.removeprefix("sqlite:///"), ttl)
    if url.startswith(("redis://", "rediss://", "unix://")):
        from thirtyone.web.store.redis import RedisStore

        return RedisStore(url, ttl)
    raise ValueError(f"THIRTYONE_STORE must be sqlite:///PATH or redis://HOST:PORT/DB, not {url!r}")
