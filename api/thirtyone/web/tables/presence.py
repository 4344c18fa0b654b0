"""Who is at the table now: a seat is connected while its stream is open or it made a
request in the last ``TABLE_PRESENCE_SECONDS`` (30 s by default).

Each request with a seat's key notes the seat as seen in the store, so that every instance
behind a load balancer tells the same. One process writes a seat's time at most every third of
the window, and reads a table's times at most once a second. The open streams of a process
cost less still: one sweeper thread per process notes all their seats, and reads their
tables' times and versions, in one store call every keep-alive period (at most a third of the
window) however many streams are open; an idle stream reads nothing itself (see :func:`hold`).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections import Counter
from collections.abc import Iterator

from flask import current_app

from thirtyone.web.store import StoreUnavailable, Swept, TableRecord, TableStore
from thirtyone.web.tables.ledger import store

READ_SECONDS = 1.0


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
        self._sweeper_pid: int | None = None

    @contextlib.contextmanager
    def hold(self, tables: TableStore, table: str, seat: int | None,
             period: float) -> Iterator[None]:
        with self._lock:
            self._held.setdefault(table, Counter())[seat] += 1
            if self._sweeper_pid != os.getpid():
                # One per process: a gunicorn worker forked from a master runs its own.
                self._sweeper_pid = os.getpid()
                threading.Thread(target=self._sweep, args=(tables, period), daemon=True,
                                 name="thirtyone-presence-sweeper").start()
        try:
            yield
        finally:
            with self._lock:
                held = self._held[table]
                held[seat] -= 1
                if held[seat] <= 0:
                    del held[seat]
                if not held:
                    del self._held[table]
                    self._swept.pop(table, None)

    def _sweep(self, tables: TableStore, period: float) -> None:
        """Every ``period``, while this process holds streams: one store call for them all.
        The thread ends with the last stream (the next one starts another)."""
        while True:
            with self._lock:
                if not self._held:
                    self._sweeper_pid = None
                    return
                seats = {table: [seat for seat in held if seat is not None]
                         for table, held in self._held.items()}
            began, now = time.monotonic(), time.time()
            try:
                swept = tables.sweep(seats, now)
            except StoreUnavailable:
                swept = None  # the streams go on with what they knew; the next sweep retries
            if swept is not None:
                with self._lock:
                    self._swept = {table: seen for table, seen in swept.items()
                                   if table in self._held}
                    self._swept_at = began
                    for table, held in seats.items():
                        for seat in held:
                            self._written[(table, seat)] = now
            time.sleep(max(0.0, period - (time.monotonic() - began)))

    def head(self, table: str, since: float) -> Swept | None:
        """What the last sweep saw of ``table``, if that sweep began after ``since``
        (monotonic): a version read before a stream's own last update may be behind it."""
        with self._lock:
            if self._swept_at <= since:
                return None
            return self._swept.get(table)

    def touch(self, table: str, seat: int, window: float) -> None:
        now = time.time()
        with self._lock:
            if now - self._written.get((table, seat), 0.0) < window / 3:
                return
            self._written[(table, seat)] = now
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

    def seen(self, table: str) -> dict[int, float]:
        now = time.time()
        with self._lock:
            swept = self._swept.get(table)
            if swept is not None:
                # A table of this process's streams: the sweeper reads its times.
                return swept.seen
            cached = self._read.get(table)
            if cached is not None and now - cached[0] < READ_SECONDS:
                return cached[1]
        try:
            times = store().seen(table)
        except StoreUnavailable:
            times = {}
        with self._lock:
            if len(self._read) > 10_000:
                self._read.clear()
            self._read[table] = (now, times)
        return times


def _presence() -> Presence:
    presence: Presence = current_app.extensions.setdefault("thirtyone.presence", Presence())
    return presence


def window() -> float:
    return float(current_app.config.get("TABLE_PRESENCE_SECONDS", 30.0))


def touch(record: TableRecord, seat: int | None) -> None:
    """Note that ``seat`` (None: a spectator, not noted) is at the table now."""
    if seat is not None:
        _presence().touch(record.table, seat, window())


def period() -> float:
    """How often the sweeper notes and reads the tables of this process's streams."""
    return min(float(current_app.config["TABLE_KEEPALIVE_SECONDS"]), window() / 3)


@contextlib.contextmanager
def hold(tables: TableStore, record: TableRecord, seat: int | None) -> Iterator[None]:
    """While an open stream of ``seat`` (None: a spectator) follows ``record``'s table: its
    seat is noted as seen, and the table's times and version read, by this process's sweeper
    (see :func:`head`), in one store call for every stream of the process."""
    with _presence().hold(tables, record.table, seat, period()):
        yield


def head(record: TableRecord, since: float) -> Swept | None:
    """The version (and digest) the sweeper last saw ``record``'s table at, if it looked after
    ``since`` (a :func:`time.monotonic` time); None when it did not, or the table is gone."""
    return _presence().head(record.table, since)


def connected(record: TableRecord) -> list[bool]:
    """Per seat, whether its player is connected now (a bot seat: never)."""
    times = _presence().seen(record.table)
    now, span = time.time(), window()
    return [stored.bot is None and now - times.get(seat, -span) < span
            for seat, stored in enumerate(record.seats)]
