"""Who is at the table now: a seat is connected while its stream is open or it made a
request in the last ``TABLE_PRESENCE_SECONDS`` (30 s by default).

Each request with a seat's key, and each open stream at every keep-alive (15 s), notes the
seat as seen in the store, so that every instance behind a load balancer tells the same. One
process writes a seat's time at most every third of the window, and reads a table's times at
most once a second: presence costs the store little however many requests and streams come.

A closed tab is not a 30-second wait: when the last stream a seat has open in this process
ends, the seat's time is forgotten (:func:`stream_closed`) and the table's streams here are
woken, which push ``event: presence`` at once (streams on other instances tell it at their
next keep-alive). A seat that still has a stream on another instance is seen again at that
stream's next keep-alive.
"""

from __future__ import annotations

import contextlib
import threading
import time

from flask import current_app

from thirtyone.web.store import StoreUnavailable, TableRecord
from thirtyone.web.tables.ledger import store

READ_SECONDS = 1.0


class Presence:
    """This process's last writes and reads of the seats' times."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._written: dict[tuple[str, int], float] = {}
        self._read: dict[str, tuple[float, dict[int, float]]] = {}
        self._streams: dict[tuple[str, int], int] = {}

    def opened(self, table: str, seat: int) -> None:
        with self._lock:
            self._streams[(table, seat)] = self._streams.get((table, seat), 0) + 1

    def closed(self, table: str, seat: int) -> bool:
        """Whether the stream that ended was the seat's last one here: then its time is
        forgotten, here and in the store."""
        with self._lock:
            left = self._streams.pop((table, seat), 1) - 1
            if left > 0:
                self._streams[(table, seat)] = left
                return False
            self._written.pop((table, seat), None)
            cached = self._read.get(table)
            if cached is not None:
                cached[1].pop(seat, None)
        with contextlib.suppress(StoreUnavailable):  # a hint: the window ends it anyway
            store().gone(table, seat)
        return True

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
        with contextlib.suppress(StoreUnavailable):  # a hint: the request itself goes on
            store().touch(table, seat, now)

    def seen(self, table: str) -> dict[int, float]:
        now = time.time()
        with self._lock:
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


def stream_opened(record: TableRecord, seat: int | None) -> None:
    """A stream of ``seat`` (None: a spectator, not counted) opened in this process."""
    if seat is not None:
        _presence().opened(record.table, seat)


def stream_closed(record: TableRecord, seat: int | None) -> None:
    """A stream of ``seat`` ended: if it was its last here, the seat is gone at once, and the
    table's streams in this process wake to tell it."""
    if seat is not None and _presence().closed(record.table, seat):
        store().hub.notify(record.table)


def connected(record: TableRecord) -> list[bool]:
    """Per seat, whether its player is connected now (a bot seat: never)."""
    times = _presence().seen(record.table)
    now, span = time.time(), window()
    return [stored.bot is None and now - times.get(seat, -span) < span
            for seat, stored in enumerate(record.seats)]
