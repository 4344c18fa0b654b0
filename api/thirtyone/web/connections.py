"""What one client may hold of a worker: open streams and long polls, and a request body's time.

- Each worker lets one client address hold ``THIRTYONE_STREAMS_PER_CLIENT`` event streams and
  long polls at once (32); one more is answered 429 ``too_many_streams``. A slot is given back
  when the stream ends or its client goes away, and a long poll notices a client that closed
  its connection within :data:`GONE_CHECK_SECONDS`, rather than when its ``wait`` runs out.
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
from thirtyone.web.problems import Problem
from thirtyone.web.security import Environ, StartResponse, WSGIApp, wrap

GONE_CHECK_SECONDS = 0.5
"""How often a waiting long poll looks whether its client is still there."""

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


def client_gone() -> bool:
    """Whether the request's client has closed its connection (its socket reads as ended).

    Only a server that hands the socket to the app (gunicorn's ``gunicorn.socket``) can tell;
    elsewhere the client is taken to be there.
    """
    sock = request.environ.get("gunicorn.socket")
    if not isinstance(sock, socket.socket):
        return False
    try:
        readable, _, _ = select.select([sock], [], [], 0)
        if not readable:
            return False
        # Readable with nothing to read: the client closed (a pipelined request is data).
        return sock.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):
        return True


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
