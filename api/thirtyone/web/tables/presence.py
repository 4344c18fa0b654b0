"""Who is at the table now: a seat is connected while its stream is open or it made a
request in the last ``TABLE_PRESENCE_SECONDS`` (30 s by default).

Each request with a seat's key notes the seat as seen in the store, so that every instance
behind a load balancer tells the same. One process writes a seat's time at most every third of
the window, and reads a table's times at most once a second. The open streams of a process
cost less still: one sweeper thread per process notes their seats (each every third of the
window) and reads their tables' times and versions, in one store call every third of the
window (or keep-alive, if shorter) however many streams are open; an idle stream reads
nothing itself (see :func:`hold`).

A closed tab is not a 30-second wait: when the last stream a seat has open in a process ends,
the seat's time is forgotten (here and in the store) and the table's streams here are woken,
which push ``event: presence`` at once. A store that tells it to the others (Redis, see
:attr:`TableStore.tells_gone`) makes every process streaming the table sweep at once; with
another (SQLite) they sweep every :data:`SWEEP_SECONDS`. A sweep that sees a table's seats
come or go wakes its streams here. A sweep that finds a seat of this process's streams
forgotten (its last stream in another process ended) keeps it here and writes it again at
the next sweep.
"""

from __future__ import annotations

import contextlib
import math
import os
import threading
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from flask import current_app

from thirtyone.web.store import StoreUnavailable, Swept, TableRecord, TableStore
from thirtyone.web.tables.ledger import store

READ_SECONDS = 1.0
SWEEP_SECONDS = 2.0
"""How often a process with open streams reads their tables' presence when its store does not
tell a seat gone in another process (SQLite): how long such a seat may show as here."""


class Presence:
    """This process's last writes and reads of the seats' times."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._written: dict[tuple[str, int], float] = {}
        self._read: dict[str, tuple[float, dict[int, float]]] = {}
        # The seats of this process's open streams (None: a spectator), counted by table.
        self._held: dict[str, Counter[int | None]] = {}
        # What the last sweep saw of those tables, and when it began (monotonic).
        self._swept: dict[str, Swept] = {}
        self._swept_at = 0.0
        # When (monotonic) a seat's last stream here ended: a sweep begun before read it.
        self._left: dict[tuple[str, int], float] = {}
        self._sweeper_pid: int | None = None
        # The sweeper's period and window, as the last stream opened was given them: read at
        # each turn, so a changed configuration holds from the next sweep on.
        self._period = self._window = 0.0
        # Per table, the last change of its seats' times that may make a seat connected, or
        # not, sooner than its time runs out (see look), numbered across all tables (so that
        # a table dropped from the bound reads as changed, never as the same): a stream's
        # keep-alive that finds its table's as it was, before a time runs out, has nothing
        # to tell. Per table: a table's first sweep, or a seat come to another, is no news
        # to the streams of every table.
        self._changes: dict[str, int] = {}
        self._changed = 0

    @contextlib.contextmanager
    def hold(self, tables: TableStore, table: str, seat: int | None,
             period: float, window: float) -> Iterator[None]:
        with self._lock:
            held = self._held.setdefault(table, Counter())
            if seat is not None and not held[seat]:
                self._moved(table)  # held: here, whatever its time says (see times)
            held[seat] += 1
            self._period, self._window = period, window
            if self._sweeper_pid != os.getpid():
                # One per process: a gunicorn worker forked from a master runs its own.
                self._sweeper_pid = os.getpid()
                threading.Thread(target=self._sweep, args=(tables,),
                                 daemon=True, name="thirtyone-presence-sweeper").start()
        try:
            yield
        finally:
            with self._lock:
                held = self._held[table]
                held[seat] -= 1
                last = held[seat] <= 0
                if last:
                    del held[seat]
                if not held:
                    del self._held[table]
                    self._swept.pop(table, None)
                    self._moved(table)
            if last and seat is not None:
                self._gone(tables, table, seat)

    def _gone(self, tables: TableStore, table: str, seat: int) -> None:
        """The seat's last stream here ended: it is gone at once, and the table's streams
        here wake to tell it (those of other processes at their next sweep)."""
        with self._lock:
            self._written.pop((table, seat), None)
            self._left[(table, seat)] = time.monotonic()
            self._moved(table)
            for seen in (self._read.get(table, (0.0, {}))[1],
                         getattr(self._swept.get(table), "seen", {})):
                seen.pop(seat, None)
        with contextlib.suppress(StoreUnavailable):  # a hint: the window ends it anyway
            tables.gone(table, seat)
        tables.hub.wake(table)

    def _sweep(self, tables: TableStore) -> None:
        """Every period, while this process holds streams: one store call for them all.
        The thread ends with the last stream (the next one starts another)."""
        while True:
            began, now = time.monotonic(), time.time()
            with self._lock:
                if not self._held:
                    self._sweeper_pid = None
                    return
                period, window = self._period, self._window
                # A seat's time is written every third of the window; tables read each time.
                seats = {table: [seat for seat in held if seat is not None and now
                                 - self._written.get((table, seat), 0.0) >= window / 3]
                         for table, held in self._held.items()}
            try:
                swept = tables.sweep(seats, now)
            except StoreUnavailable:
                swept = None  # the streams go on with what they knew; the next sweep retries
            if swept is not None:
                for table in self._keep(swept, seats, began, window):
                    tables.hub.wake(table)  # a seat came or went: its streams tell it
            # A seat gone in another process (a store that tells it) is read at once.
            if tables.hub.left.wait(max(0.0, period - (time.monotonic() - began))):
                tables.hub.left.clear()

    def _keep(self, swept: dict[str, Swept], written: dict[str, list[int]], began: float,
              window: float) -> list[str]:
        """Keep what the sweep that ``began`` saw (having ``written`` those seats): the
        tables whose seats present changed since the sweep before."""
        now, changed = time.time(), []
        with self._lock:
            for table, noted in written.items():
                for one in noted:
                    self._written[(table, one)] = now
            kept = {table: seen for table, seen in swept.items() if table in self._held}
            self._left = {left: at for left, at in self._left.items() if at >= began}
            for table, left in self._left:
                # Gone during the sweep, which may have read it still there.
                getattr(kept.get(table), "seen", {}).pop(left, None)
            for table, seen in kept.items():
                for seat in self._held[table]:
                    if seat is not None and seat not in seen.seen:
                        # Its last stream in another process ended; it has one here: here
                        # all the same, and written again at the next sweep.
                        seen.seen[seat] = now
                        self._written.pop((table, seat), None)
                before = self._swept.get(table)
                # The same times (most tables, most sweeps) are the same seats here.
                if before is not None and before.seen != seen.seen and _here(
                        before.seen, now, window) != _here(seen.seen, now, window):
                    changed.append(table)
                elif before is None and _here(self._read.get(table, (0.0, {}))[1], now,
                                              window) != _here(seen.seen, now, window):
                    # Swept for the first time: its streams saw times read from the store.
                    self._moved(table)
            for table in changed:
                self._moved(table)
            for table in self._swept.keys() - kept.keys():
                self._moved(table)  # no longer swept: its times are read from the store
            self._swept = kept
            self._swept_at = began
        return changed

    def _moved(self, table: str) -> None:
        """Note a change of ``table``'s presence (with the lock held)."""
        self._changed += 1
        if len(self._changes) > 100_000:
            self._changes.clear()  # a bound: a table dropped reads as changed (see changes)
        self._changes[table] = self._changed

    def changes(self, table: str) -> int:
        """The last change of ``table``'s presence noted here (0: none): a single lookup,
        without the lock, as a stream asks at each keep-alive."""
        return self._changes.get(table, 0)

    def head(self, table: str, since: float) -> Swept | None:
        """What the last sweep saw of ``table`` (its version, digest and seats' times), if
        that sweep began after ``since`` (monotonic): a version read before a stream's own
        last update may be behind it. None when it did not, or the table is gone. Read
        without the lock, as an idle stream asks at each keep-alive: a sweep replaces what it
        saw before it notes when it began (see _keep), so a time read new goes with what
        that sweep saw, or a later one."""
        if self._swept_at <= since:
            return None
        return self._swept.get(table)

    def touch(self, table: str, seat: int, window: float) -> None:
        now = time.time()
        with self._lock:
            if now - self._written.get((table, seat), 0.0) < window / 3:
                return
            self._written[(table, seat)] = now
            self._moved(table)
            if len(self._written) > 100_000:
                self._written.clear()  # a bound; at worst a seat's time is written again
            cached = self._read.get(table)
            if cached is not None:
                cached[1][seat] = now
            swept = self._swept.get(table)
            if swept is not None:
                swept.seen[seat] = now
        with contextlib.suppress(StoreUnavailable):  # a hint: the request itself goes on
            store().touch(table, seat, now)

    def times(self, table: str) -> tuple[dict[int, float], float, frozenset[int | None]]:
        """When each seat of ``table`` was last seen, until when (Unix time) these times
        are the latest unless :meth:`changes` moves (for ever for a table the sweeper reads,
        :data:`READ_SECONDS` for one read from the store), and the seats this process's
        streams hold: here until their last stream ends, which moves :meth:`changes`."""
        now = time.time()
        with self._lock:
            held = frozenset(self._held.get(table, ()))
            swept = self._swept.get(table)
            if swept is not None:
                # A table of this process's streams: the sweeper reads its times.
                return swept.seen, math.inf, held
            # A table this process's streams hold is swept soon, and its first sweep moves
            # its changes if it finds other seats here: times read from the store hold until
            # then (each stream of a new table looked again at its first keep-alive).
            until = math.inf if held else READ_SECONDS
            cached = self._read.get(table)
            if cached is not None and now - cached[0] < READ_SECONDS:
                return cached[1], cached[0] + until, held
        try:
            times = store().seen(table)
        except StoreUnavailable:
            times = {}
        with self._lock:
            if len(self._read) > 10_000:
                self._read.clear()
            self._read[table] = (now, times)
            held = frozenset(self._held.get(table, ()))
        return times, now + (math.inf if held else READ_SECONDS), held


def _here(seen: dict[int, float], now: float, window: float) -> set[int]:
    """The seats seen within the window."""
    return {seat for seat, at in seen.items() if now - at < window}


def _presence() -> Presence:
    extensions = current_app.extensions
    presence: Presence | None = extensions.get("thirtyone.presence")
    if presence is None:
        # Made once per app (a Presence, its lock, built at every call cost each idle
        # stream's keep-alive a tenth of its time).
        presence = extensions.setdefault("thirtyone.presence", Presence())
    return presence


def window() -> float:
    return _window(current_app.config)


def _window(config: Mapping[str, Any]) -> float:
    return float(config.get("TABLE_PRESENCE_SECONDS", 30.0))


def touch(record: TableRecord, seat: int | None) -> None:
    """Note that ``seat`` (None: a spectator, not noted) is at the table now."""
    if seat is not None:
        _presence().touch(record.table, seat, window())


def period() -> float:
    """How often the sweeper reads the tables of this process's streams: every
    :data:`SWEEP_SECONDS` with a store that does not tell a seat gone in another process."""
    longest = min(float(current_app.config["TABLE_KEEPALIVE_SECONDS"]), window() / 3)
    return longest if store().tells_gone else min(longest, SWEEP_SECONDS)


@contextlib.contextmanager
def hold(tables: TableStore, record: TableRecord, seat: int | None) -> Iterator[None]:
    """While an open stream of ``seat`` (None: a spectator) follows ``record``'s table: its
    seat is noted as seen, and the table's times and version read, by this process's sweeper
    (see :meth:`Presence.head`), in one store call for every stream of the process."""
    with _presence().hold(tables, record.table, seat, period(), window()):
        yield


def current() -> Presence:
    """This app's presence: a stream keeps it, and reads it with no look at the app's
    context at each keep-alive."""
    return _presence()


def connected(record: TableRecord) -> list[bool]:
    """Per seat, whether its player is connected now (a bot seat: never)."""
    return look(record)[0]


class Look(NamedTuple):
    """When :func:`connected` was asked: the record, the presence's :meth:`Presence.changes`
    and the window then (and the configuration it came from), and the time (Unix) at which
    its answer may first differ with no change (a time runs out of a seat no stream here
    holds, or times read from the store grow old)."""

    record: TableRecord
    presence: Presence
    changes: int
    config: Mapping[str, Any]
    window: float
    until: float


def look(record: TableRecord) -> tuple[list[bool], Look]:
    """:func:`connected`, and when its answer may change (see :func:`same`)."""
    presence = _presence()
    changes = presence.changes(record.table)
    times, until, held = presence.times(record.table)
    config = current_app.config
    now, span = time.time(), _window(config)
    answer = []
    for seat, stored in enumerate(record.seats):
        if stored.bot is not None:
            answer.append(False)
        elif seat in held:
            # Here until its last stream here ends (which moves changes): the sweeper writes
            # its time again before the window runs out, so its time sets no limit.
            answer.append(True)
        else:
            at = times.get(seat, -span)
            here = now - at < span
            if here:
                until = min(until, at + span)
            answer.append(here)
    return answer, Look(record, presence, changes, config, span, until)


def same(record: TableRecord, last: Look) -> bool:
    """Whether :func:`connected` still answers ``record`` as it did at ``last``: the same
    record, no change of the seats' times since, the same window, and no time run out. A
    few comparisons: an idle stream asks it at each keep-alive."""
    return (last.record is record and last.changes == last.presence.changes(record.table)
            and time.time() < last.until and last.window == _window(last.config))
