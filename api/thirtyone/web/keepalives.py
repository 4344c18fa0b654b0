"""The keep-alives of a gevent worker's idle event streams, written by one greenlet.

An idle stream's keep-alive used to wake its greenlet: the timer, the switch, the stream's
generator through Flask's, Werkzeug's and gunicorn's layers, the write, and back, about 60 us
of the worker a keep-alive for a few bytes (1,000 idle streams: 0.4-0.7% of a core). Here one
greenlet of the worker (:class:`Keeper`) writes the keep-alives due at a step of the grid
(:func:`due`) to every stream that has nothing else to do, straight to its client's socket,
and the streams stay asleep; a stream that has something to do (a seat came or went, its
table moved on, the instance stops, its end nears), or whose client's socket takes no more
at once, is woken to send its keep-alive itself, as it does without this worker (a test
client, a development server, gunicorn's threads worker).

The writer (:class:`ClientWriter`) exists only where the server gives the response's
connection to the app: gunicorn's gevent worker (``thirtyone.web.serving``) puts its response
in the request's environ under :data:`RESPONSE`.
"""

from __future__ import annotations

import logging
import math
import socket
import time
from collections.abc import Callable
from contextlib import suppress
from typing import Any

from thirtyone.web import metrics

KEEPALIVE = b": keep-alive\n\n"
"""An event stream's keep-alive: a comment, which clients skip."""

_log = logging.getLogger(__name__)

RESPONSE = "thirtyone.response"
"""The environ's key of the server's response object, for :class:`ClientWriter`."""

GRID = 0.25
"""A keep-alive falls due on this grid of the process's clock (up to a step early, never late),
so that the idle streams of a process due about together are kept in one pass: a turn of the
event loop for each cost each wake-up three times as much (gevent, 1,000 waiters)."""


def due(now: float, pause: float) -> float:
    """When a wait of ``pause`` from ``now`` (monotonic) ends: the step of :data:`GRID` at or
    before its end, if that leaves a wait of a step or more.

    >>> due(100.1, 15.0), due(100.0, 15.0), due(100.1, 0.2)
    (115.0, 115.0, 100.3)
    """
    end = now + pause
    aligned = math.floor(end / GRID) * GRID
    return aligned if aligned - now >= GRID else end


class ClientWriter:
    """Writes to a streaming response's client from outside the request's greenlet, while the
    request waits: only what the kernel takes whole at once, so the writer never waits.

    ``response`` is gunicorn's (its ``chunked`` framing and its count of bytes ``sent``, which
    the access log shows), ``sock`` its gevent socket."""

    def __init__(self, response: Any, sock: Any) -> None:
        self._response = response
        self._sock = sock

    def send_now(self, data: bytes) -> bool:
        """Write ``data`` now if the socket takes it whole; False when it takes none of it.
        What it takes in part is sent by :meth:`finish`, which the request calls before it
        writes anything else."""
        framed = b"%X\r\n%s\r\n" % (len(data), data) if self._response.chunked else data
        try:
            # timeout 0: gevent's socket raises rather than waits when the kernel takes none.
            sent = self._sock.send(framed, socket.MSG_DONTWAIT, timeout=0.0)
        except OSError:
            return False  # full, or the client gone: the request finds out
        self._response.sent += len(data)
        self.unsent = framed[sent:]
        return True

    unsent = b""
    """The part of a message the socket did not take at once: sent first when the request
    resumes (:meth:`finish`)."""

    def finish(self) -> None:
        """Send what the socket did not take at once, waiting as the request's own writes do
        (in the request's greenlet)."""
        if self.unsent:
            unsent, self.unsent = self.unsent, b""
            with suppress(OSError):  # the client gone: the request finds out as it writes
                self._sock.sendall(unsent)


class Kept:
    """A stream the keeper keeps alive while it sleeps: ``writer`` reaches its client,
    ``asleep(next_due)`` says whether it has nothing to do but a keep-alive until ``next_due``
    (it runs in the keeper's greenlet, so it reads without waiting), ``wake()`` wakes it.
    :attr:`due` is set when the keeper woke it for a keep-alive it must send itself."""

    __slots__ = ("asleep", "at", "due", "period", "wake", "writer")

    def __init__(self, writer: ClientWriter, asleep: Callable[[float], bool],
                 wake: Callable[[], None], period: float) -> None:
        self.writer, self.asleep, self.wake, self.period = writer, asleep, wake, period
        self.at = 0.0
        self.due = False


class Keeper:
    """The worker's keep-alives: the streams kept (:meth:`keep`) by the step of the grid their
    next one falls due at, and the greenlet that writes them when it comes."""

    def __init__(self) -> None:
        self._due: dict[float, dict[Kept, None]] = {}
        self._runner: Any = None
        # Set when a stream is kept from before the step the runner waits for (`_next`).
        self._changed: Any = None
        self._next = math.inf

    def keep(self, kept: Kept, at: float) -> None:
        """Keep ``kept`` alive from ``at`` (monotonic, on the grid) on, until :meth:`drop`."""
        import gevent
        import gevent.event

        kept.at, kept.due = at, False
        self._due.setdefault(at, {})[kept] = None
        if self._runner is None or self._runner.dead:
            self._changed = gevent.event.Event()
            self._runner = gevent.spawn(self._run)
        elif at < self._next:
            self._changed.set()  # due before what the keeper waits for

    def drop(self, kept: Kept) -> None:
        """No more keep-alives for ``kept`` (it woke, or its stream ended)."""
        kept_then = self._due.get(kept.at)
        if kept_then is not None:
            kept_then.pop(kept, None)
            if not kept_then:
                del self._due[kept.at]

    def _run(self) -> None:
        while True:
            self._next = min(self._due, default=math.inf)
            if (wait := self._next - time.monotonic()) > 0:
                self._changed.wait(None if self._next == math.inf else wait)
                self._changed.clear()
                continue  # a step may have come due before it
            self._pass(self._due.pop(self._next))

    def _pass(self, streams: dict[Kept, None]) -> None:
        """Write the keep-alives of ``streams``, due now: each kept on for its next one, or
        woken to send it itself."""
        now = time.monotonic()
        written = 0
        for kept in streams:
            following = due(now, kept.period)
            try:
                asleep = kept.asleep(following)
            except Exception:
                # A fault of one stream's: it wakes, and the others are kept all the same.
                _log.exception("a kept stream could not say whether it sleeps")
                asleep = False
            if asleep and kept.writer.send_now(KEEPALIVE):
                written += 1
                kept.at = following
                if kept.writer.unsent:
                    # Woken to send the rest itself, before all else; it sleeps on after,
                    # kept from its next keep-alive on.
                    kept.wake()
                else:
                    self._due.setdefault(following, {})[kept] = None
            else:
                kept.due = True
                kept.wake()
        if written:
            count("keeper", written)


def count(by: str, written: int = 1) -> None:
    """Count ``written`` keep-alives written by ``by`` (``keeper`` or ``stream``)."""
    metrics.child("STREAM_KEEPALIVES", by).inc(written)


_keeper: Keeper | None = None


def keeper() -> Keeper:
    """This worker's keeper (one per process: its greenlet serves every app of it)."""
    global _keeper
    if _keeper is None:
        _keeper = Keeper()
    return _keeper
