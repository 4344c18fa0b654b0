"""What one client may hold of a worker: open streams and long polls, and a request body's time.

- Each worker lets one client address hold ``THIRTYONE_STREAMS_PER_CLIENT`` event streams and
  long polls at once (32); one more is answered 429 ``too_many_streams``. A slot is given back
  when the stream ends or its client goes away: a waiting stream or long poll notices a client
  that closed its connection at once (within :data:`GONE_CHECK_SECONDS` without gevent), not
  when its ``wait`` runs out (:class:`ClientWatch`).
- A request body must arrive within ``THIRTYONE_BODY_SECONDS`` (10 s) of the request's
  headers: a client sending it a byte at a time is answered 408 ``body_timeout`` and its
  connection closed (:class:`BodyDeadline`), so it holds no slot of the worker for longer.

The address is the one :mod:`thirtyone.web.limits` counts (``X-Forwarded-For`` only behind
trusted proxies).
"""

from __future__ import annotations

import heapq
import io
import itertools
import os
import select
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

from flask import Flask, current_app, request

from thirtyone.errors import N_
from thirtyone.web import keepalives, metrics
from thirtyone.web.problems import Problem
from thirtyone.web.security import Environ, StartResponse, WSGIApp, wrap

GONE_CHECK_SECONDS = 0.5
"""How often a waiting stream or long poll looks whether its client is still there, where
the event loop cannot watch its socket (gunicorn's threads worker)."""

RETRY_SECONDS = 5

TIMED_OUT = "thirtyone.body_timed_out"
"""The environ key :class:`BodyDeadline` sets (to the deadline, in seconds) on a late body."""


def default_config() -> dict[str, Any]:
    """The caps, from the environment where it names them."""
    return {
        "THIRTYONE_STREAMS_PER_CLIENT": int(
            os.environ.get("THIRTYONE_STREAMS_PER_CLIENT") or 32),
        "THIRTYONE_BODY_SECONDS": float(os.environ.get("THIRTYONE_BODY_SECONDS") or 10.0),
    }


class ClientSlots:
    """How many streams each client address holds in this process, up to ``per_client``.

    >>> slots = ClientSlots(1)
    >>> slots.take("10.0.0.1"), slots.take("10.0.0.1"), slots.take("10.0.0.2")
    (True, False, True)
    >>> slots.give("10.0.0.1"); slots.take("10.0.0.1")
    True
    """

    def __init__(self, per_client: int) -> None:
        self.per_client = per_client
        self._held: Counter[str] = Counter()
        self._lock = threading.Lock()

    def take(self, address: str) -> bool:
        with self._lock:
            if self._held[address] >= self.per_client:
                return False
            self._held[address] += 1
            return True

    def give(self, address: str) -> None:
        with self._lock:
            self._held[address] -= 1
            if self._held[address] <= 0:
                del self._held[address]


def init_app(app: Flask) -> None:
    """The stream caps, and the body deadline around the app's WSGI callable (call it after
    wrapping the middleware that must see whole bodies, such as
    :class:`~thirtyone.web.security.BodyLimit`)."""
    for key, value in default_config().items():
        app.config.setdefault(key, value)
    app.extensions["thirtyone.stream_slots"] = ClientSlots(
        int(app.config["THIRTYONE_STREAMS_PER_CLIENT"]))
    wrap(app, lambda inner: BodyDeadline(
        inner, lambda: float(app.config["THIRTYONE_BODY_SECONDS"]),
        lambda: app.config["MAX_CONTENT_LENGTH"],
    ))

    @app.before_request
    def refuse_a_late_body() -> None:
        seconds = request.environ.get(TIMED_OUT)
        if seconds is not None:
            raise Problem(
                408, "body_timeout",
                N_("The request body did not arrive within {seconds} seconds."),
                title=N_("Request timeout"), seconds=round(seconds, 1),
            )


def stream_slot() -> Callable[[], None]:
    """Take one of the request's client's stream slots; the function that gives it back
    (call it once). A 429 ``too_many_streams`` problem when the client holds them all."""
    slots: ClientSlots = current_app.extensions["thirtyone.stream_slots"]
    address = request.remote_addr or ""
    if not slots.take(address):
        raise Problem(
            429, "too_many_streams",
            N_("Your address holds as many event streams and long polls as it may "
               "({limit}): close one, or try again later."),
            title=N_("Too many requests"), headers={"Retry-After": str(RETRY_SECONDS)},
            limit=slots.per_client,
        )
    given = threading.Event()

    def give() -> None:
        if not given.is_set():
            given.set()
            slots.give(address)

    return give


@contextmanager
def holding_stream() -> Iterator[None]:
    """A stream slot held for the block (see :func:`stream_slot`)."""
    give = stream_slot()
    try:
        yield
    finally:
        give()


def _closed(sock: socket.socket) -> bool:
    """Whether the client has closed ``sock`` (it reads as ended, or fails)."""
    try:
        readable, _, _ = select.select([sock], [], [], 0)
        if not readable:
            return False
        # Readable with nothing to read: the client closed (a pipelined request is data).
        return sock.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):
        return True


class ClientWatch:
    """Waits for an event and for the request's client to leave, both at once, so that a
    waiting stream or long poll costs nothing between its wake-ups.

    Under gevent (gunicorn's gevent worker, as ``thirtyone serve`` runs it) the event loop
    watches the client's socket: the waiter wakes when its event is set, its time is up, or
    the socket becomes readable (the client closed it: a closed tab is noticed at once). An
    idle stream used to wake every :data:`GONE_CHECK_SECONDS` to look at its socket: with
    1,000 of them, 2,000 wake-ups a second. Without a socket (a test client, a development
    server) the client is taken to be there; with threads (gunicorn's threads worker) the
    socket is looked at every :data:`GONE_CHECK_SECONDS`. Use it as a context manager, in the
    request's context.
    """

    def __init__(self) -> None:
        sock = request.environ.get("gunicorn.socket")
        self._sock = sock if isinstance(sock, socket.socket) else None
        self._readable: _Readable | None = None
        response = request.environ.get(keepalives.RESPONSE)
        # What writes to the client while the request waits (see keepalives.py): under
        # gevent, where the worker gave its response; never to a HEAD's, which has no body.
        self.writer = (keepalives.ClientWriter(response, self._sock)
                       if response is not None and self._sock is not None
                       and request.method != "HEAD" and _gevent_patched() else None)

    def __enter__(self) -> ClientWatch:
        if self._sock is not None and _gevent_patched():
            with suppress(OSError, ValueError):  # a socket closed already: looked at below
                self._readable = _Readable(self._sock)
        return self

    def __exit__(self, *exc: object) -> None:
        self._unwatch()

    def _unwatch(self) -> None:
        if self._readable is not None:
            self._readable.close()
            self._readable = None

    def wait(self, woken: threading.Event, seconds: float) -> bool | None:
        """Wait up to ``seconds`` for ``woken``: whether it was set, or None as soon as the
        client closed its connection. Each wake-up is counted (``thirtyone_stream_wakeups``,
        by cause)."""
        deadline = time.monotonic() + seconds
        while (remaining := deadline - time.monotonic()) > 0:
            if self._readable is not None:
                import gevent

                gevent.wait([woken, self._readable.event], timeout=remaining, count=1)
                if woken.is_set():
                    return _woke("notice", True)
                if self._readable.event.is_set():
                    if _closed(self._readable.sock):
                        return _woke("client", None)
                    # Data rather than the end (a client that sends after its request): the
                    # loop would say readable at once again. Looked at now and then instead;
                    # the client is still there, so this wake-up is a look, not its leaving.
                    self._unwatch()
                    _woke("check", None)
                continue
            pause = remaining if self._sock is None else min(remaining, GONE_CHECK_SECONDS)
            if woken.wait(pause):
                return _woke("notice", True)
            if self._sock is not None and _closed(self._sock):
                return _woke("client", None)
            if pause < remaining:
                _woke("check", None)
        return _woke("timeout", False)


class _Readable:
    """The gevent event loop's watch on ``sock``: :attr:`event` is set once it is readable."""

    def __init__(self, sock: socket.socket) -> None:
        import gevent
        import gevent.event

        self.sock = sock
        self.event = gevent.event.Event()
        self._io = gevent.get_hub().loop.io(sock.fileno(), 1)  # 1: readable
        self._io.start(self._heard)

    def _heard(self) -> None:
        # In the event loop. A readable socket stays so until it is read: the watcher would
        # call again at every turn of the loop.
        self._io.stop()
        self.event.set()

    def close(self) -> None:
        self._io.stop()
        self._io.close()


def _woke(cause: str, answer: bool | None) -> bool | None:
    """Count a wake-up of a waiting stream or long poll; ``answer``, for the caller."""
    metrics.child("STREAM_WAKEUPS", cause).inc()
    return answer


class BodyDeadline:
    """Reads each request body in full within ``seconds`` before ``app`` sees it; a body
    that takes longer is answered 408 and the connection's reading side shut, so that the
    server closes it at once instead of draining the rest."""

    def __init__(self, app: WSGIApp, seconds: Callable[[], float],
                 limit: Callable[[], int | None]) -> None:
        self.app = app
        self.seconds = seconds
        self.limit = limit

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        length = environ.get("CONTENT_LENGTH") or ""
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        limit = self.limit()
        if not (chunked or (length.isdigit() and int(length) > 0)):
            return self.app(environ, start_response)
        if length.isdigit() and limit is not None and int(length) > limit:
            # Refused unread (413) by the app.
            return self.app(environ, start_response)
        most = int(length) if length.isdigit() else (limit + 1 if limit is not None else None)
        seconds = self.seconds()
        body = _read_within(environ, seconds, most)
        if body is None:
            # The app answers the 408 (in the request's language): see init_app.
            environ[TIMED_OUT] = seconds
            body = b""
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        return self.app(environ, start_response)


def _read_all(stream: Any, most: int | None) -> bytes:
    parts = []
    while most is None or most > 0:
        data = stream.read(65536 if most is None else min(65536, most))
        if not data:
            break
        parts.append(data)
        if most is not None:
            most -= len(data)
    return b"".join(parts)


def _shut_reading(environ: Environ) -> None:
    sock = environ.get("gunicorn.socket")
    if isinstance(sock, socket.socket):
        with suppress(OSError):
            sock.shutdown(socket.SHUT_RD)


def _read_within(environ: Environ, seconds: float, most: int | None) -> bytes | None:
    """The body, or None when it did not arrive within ``seconds``."""
    stream = environ["wsgi.input"]
    if isinstance(stream, io.BytesIO):
        # Already in memory (a test client's, or a server that buffers bodies): no wait.
        return _read_all(stream, most)
    if _gevent_patched():
        import gevent

        try:
            with gevent.Timeout(seconds):
                return _read_all(stream, most)
        except gevent.Timeout:
            _shut_reading(environ)
            return None
    # A thread's blocking read: shutting the socket's reading side at the deadline ends it.
    expired = threading.Event()

    def expire() -> None:
        expired.set()
        _shut_reading(environ)

    alarm = _WATCHDOG.set(seconds, expire)
    try:
        body = _read_all(stream, most)
    except Exception:
        if expired.is_set():
            return None
        raise
    finally:
        _WATCHDOG.cancel(alarm)
    return None if expired.is_set() else body


class Watchdog:
    """One thread per process that calls each callback set with :meth:`set` when its time
    comes, unless cancelled first: a body read under threads costs a heap entry, not a timer
    thread of its own (starting one took about 200 us, most of a small request)."""

    def __init__(self) -> None:
        self._alarms: list[tuple[float, int, Callable[[], None]]] = []
        self._cancelled: set[int] = set()
        self._count = itertools.count()
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    def set(self, seconds: float, callback: Callable[[], None]) -> int:
        """Call ``callback`` in ``seconds``; the alarm's number, for :meth:`cancel`."""
        number = next(self._count)
        with self._changed:
            heapq.heappush(self._alarms, (time.monotonic() + seconds, number, callback))
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="body-deadlines",
                                                daemon=True)
                self._thread.start()
            elif self._alarms[0][1] == number:
                self._changed.notify()
        return number

    def cancel(self, number: int) -> None:
        with self._changed:
            if self._alarms and self._alarms[0][1] == number:
                heapq.heappop(self._alarms)
            elif any(alarm[1] == number for alarm in self._alarms):
                # Dropped when it comes to the top (the heap holds one per body being read).
                self._cancelled.add(number)

    def _run(self) -> None:
        while True:
            with self._changed:
                while self._alarms and self._alarms[0][1] in self._cancelled:
                    self._cancelled.discard(heapq.heappop(self._alarms)[1])
                if not self._alarms:
                    self._changed.wait()
                    continue
                when, _, callback = self._alarms[0]
                wait = when - time.monotonic()
                if wait > 0:
                    self._changed.wait(wait)
                    continue
                heapq.heappop(self._alarms)
            callback()


_WATCHDOG = Watchdog()


def _gevent_patched() -> bool:
    try:
        from gevent import monkey
    except ImportError:
        return False
    return bool(monkey.is_module_patched("socket"))
