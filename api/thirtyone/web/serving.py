"""How gunicorn serves the API: gevent workers, an access log that shows no seat key, metrics
shared by the workers, and a graceful stop.

A sync worker is held by one client for as long as it stays connected, so a few open event
streams, or sockets that send half a request and wait, would starve everyone else (with two
sync workers, two such sockets stop even ``/healthz``). A gevent worker serves each connection
in a greenlet: one worker holds thousands of streams and slow clients. Stateless requests
(scores, sealed games, table reads and moves) do better on threads (``thirtyone serve
--threads 4``, :class:`ThreadWorker`): with ``benchmarks/http.sh`` in one run the sealed move
made 1.6x the requests of the gevent worker at 27% of its p99. A deployment with much such
traffic runs both, the proxy sending ``/events`` and ``/updates`` to the gevent group (see the
README's "Which worker").

On SIGTERM a worker first reports not-ready (``/readyz`` answers 503) and ends every open
stream with a last event that tells its client to reconnect after a jittered ``retry:`` (to
another instance, through the load balancer, with ``Last-Event-ID``); its long polls answer,
the connections idle between two requests close, the requests under way finish (their
connections close after the answer), and the worker exits as soon as none is left (about a
second; gunicorn's graceful timeout bounds it). The workers keep their metrics in files of
one folder (``PROMETHEUS_MULTIPROC_DIR``, made when the server starts unless set), which
``/metrics`` adds up.

``thirtyone serve`` applies these settings; gunicorn reads them from this module too:
``gunicorn -c python:thirtyone.web.serving 'thirtyone.web:create_app()'``.

>>> redact("GET /v1/tables/t/events?lang=ru&key=s3cret&after=2 HTTP/1.1")
'GET /v1/tables/t/events?lang=ru&key=[redacted]&after=2 HTTP/1.1'
>>> redact("GET /v1/tables/t/events?%6Bey=s3cret&K%2545Y=s3cret HTTP/1.1")
'GET /v1/tables/t/events?%6Bey=[redacted]&K%2545Y=[redacted] HTTP/1.1'
"""

from __future__ import annotations

import gc
import json
import logging
import os
import re
import shutil
import signal
import socket
import sys
import tempfile
import threading
from collections.abc import Iterable, MutableMapping
from contextlib import suppress
from typing import Any
from urllib.parse import unquote_plus

import gevent
import gevent.socket
from gunicorn import glogging, util
from gunicorn.http import errors
from gunicorn.http.errors import (  # type: ignore[attr-defined]  # gunicorn 27's, not in types-gunicorn 26.2
    InvalidResponseHeader,
    InvalidResponseHeaderName,
)
from gunicorn.workers import base, ggevent, gthread

from thirtyone.errors import N_

worker_class = "thirtyone.web.serving.GeventWorker"
worker_connections = 2000
logger_class = "thirtyone.web.serving.AccessLogger"
# Open streams hold a stopping worker this long at most; their clients reconnect elsewhere
# with Last-Event-ID.
graceful_timeout = 5
# gunicorn 27's control socket has one default path per user: instances on one machine
# would share it.
control_socket_disable = True


def on_starting(server: Any) -> None:
    """Before the workers fork: the folder where they keep their metrics (prometheus_client
    reads the variable when it is first imported, in each worker)."""
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        folder = tempfile.mkdtemp(prefix="thirtyone-metrics-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = folder
        os.environ["THIRTYONE_METRICS_DIR_OWNED"] = folder


def on_exit(server: Any) -> None:
    folder = os.environ.get("THIRTYONE_METRICS_DIR_OWNED")
    if folder:
        shutil.rmtree(folder, ignore_errors=True)


def post_worker_init(worker: Any) -> None:
    """A worker starts its compute pool (:mod:`thirtyone.web.compute`) as soon as it runs,
    freezes what the app made at start out of the garbage collector's work, and on SIGTERM
    drains before gunicorn's own handler stops it."""
    pool = getattr(worker.wsgi, "extensions", {}).get("thirtyone.compute")
    if pool is not None:
        pool.warm()
    # What the app made at start (schemas, catalogs, the contract, tables of hands) lives as
    # long as the worker: out of the collector's generations, a full collection no longer
    # walks it, a few percent of a sealed move's CPU (benchmarks/http.sh).
    gc.freeze()
    stop = signal.getsignal(signal.SIGTERM)

    def drain(signum: int, frame: Any) -> None:
        from thirtyone.web import draining

        # Out of the signal handler: waking the streams takes locks the interrupted code
        # may hold. Under gevent a greenlet (a thread's start would block in the handler).
        if _gevent_patched():
            import gevent

            gevent.spawn(draining.begin)
        else:
            threading.Thread(target=draining.begin, daemon=True).start()
        if callable(stop):
            stop(signum, frame)

    signal.signal(signal.SIGTERM, drain)


def _gevent_patched() -> bool:
    try:
        from gevent import monkey
    except ImportError:
        return False
    return bool(monkey.is_module_patched("threading"))


def child_exit(server: Any, worker: Any) -> None:
    from thirtyone.web import metrics

    metrics.worker_exited(worker.pid)


SETTINGS: dict[str, Any] = {
    "worker_class": worker_class,
    "worker_connections": worker_connections,
    "logger_class": logger_class,
    "graceful_timeout": graceful_timeout,
    "control_socket_disable": control_socket_disable,
    "on_starting": on_starting,
    "on_exit": on_exit,
    "post_worker_init": post_worker_init,
    "child_exit": child_exit,
}
"""The settings above, for a gunicorn application to apply (``cfg.set``)."""

DEFAULT_STORE = "sqlite:///.data/tables.sqlite3"
"""The table store of ``thirtyone serve`` when ``THIRTYONE_STORE`` is not set."""

_PARAMETER = re.compile(r"(?<=[?&;])([^=&;\s]*)=([^&;\s]*)")
# Percent-encodings of percent-encodings are undone this many times over.
_DECODINGS = 4


def _hide_key(match: re.Match[str]) -> str:
    name = match.group(1)
    for _ in range(_DECODINGS):
        name = unquote_plus(name)
    return f"{match.group(1)}=[redacted]" if name.strip().lower() == "key" else match.group(0)


def redact(text: str) -> str:
    """``text`` (a request line, query string or URL) with the value of every parameter named
    ``key`` hidden, however its name is spelled or percent-encoded."""
    return _PARAMETER.sub(_hide_key, text) if "=" in text else text


class AccessLogger(glogging.Logger):
    """gunicorn's logger, with seat keys taken out of everything an access log line may show:
    a browser's EventSource sends its seat key as ``?key=``, others as a bearer credential."""

    # types-gunicorn types the atoms a closed TypedDict; gunicorn adds one per header
    # ("{name}i") and formats any mapping.
    def atoms(  # type: ignore[override]  # types-gunicorn closes an open dict
            self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        atoms: dict[str, Any] = dict(super().atoms(resp, req, environ, request_time))
        for name, value in atoms.items():
            if isinstance(value, str):
                atoms[name] = redact(value)
        if "{authorization}i" in atoms:
            atoms["{authorization}i"] = "[redacted]"
        return atoms


# What gunicorn answers itself, before the app sees a request: the requests it cannot read.
# No request was read, so no language is known: these are in English (marked for the
# catalogs all the same, for the site's page of problem codes).
PARSE_PROBLEMS: tuple[
    tuple[type[Exception] | tuple[type[Exception], ...], int, str, str, str], ...] = (
    (errors.LimitRequestHeaders, 431, "Request Header Fields Too Large", "headers_too_large",
     N_("The request's headers are larger than this server reads.")),
    (errors.LimitRequestLine, 414, "URI Too Long", "uri_too_long",
     N_("The request line is longer than this server reads.")),
    ((errors.InvalidRequestLine, errors.InvalidRequestMethod, errors.InvalidHTTPVersion,
      errors.InvalidHeader, errors.InvalidHeaderName, errors.ObsoleteFolding,
      errors.InvalidChunkSize, errors.ChunkMissingTerminator, errors.InvalidChunkExtension,
      errors.InvalidSchemeHeaders, errors.InvalidProxyLine), 400, "Bad Request",
     "bad_request", N_("The request cannot be read.")),
)


def parse_problem(exc: BaseException) -> bytes | None:
    """The raw HTTP answer (problem+json, connection closed) to a request gunicorn could not
    read, or None for the errors gunicorn answers itself (the app's, a bad configuration).

    >>> for line in parse_problem(errors.LimitRequestHeaders("too large")).split(b"\\r\\n")[:3]:
    ...     print(line.decode())
    HTTP/1.1 431 Request Header Fields Too Large
    Connection: close
    Content-Type: application/problem+json
    >>> parse_problem(errors.InvalidResponseHeader("x")) is None
    True
    """
    if isinstance(exc, InvalidResponseHeader | InvalidResponseHeaderName):
        return None  # the app's fault: a 500, as gunicorn answers it
    for kinds, status, reason, code, detail in PARSE_PROBLEMS:
        if isinstance(exc, kinds):
            body = json.dumps({"type": f"urn:thirtyone:problem:{code}", "title": reason,
                               "status": status, "detail": detail, "code": code}).encode()
            head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n"
                    f"Content-Type: application/problem+json\r\n"
                    f"Content-Length: {len(body)}\r\n\r\n")
            return head.encode("latin-1") + body
    return None


class _ProblemErrors(base.Worker):
    """A worker that answers the requests it cannot read as problem+json, not in HTML, and
    logs them without the seat key a request line may hold (mixed in before a gunicorn
    worker class, whose ``handle_error`` it calls for the others)."""

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        answer = parse_problem(exc)
        if answer is None:
            super().handle_error(req, client, addr, exc)
            return
        self.log.warning("Invalid request from ip=%s: %s", (addr or ("",))[0],
                         redact(str(exc))[:200])
        with suppress(OSError):
            util.write_nonblock(client, answer)


class GeventWorker(_ProblemErrors, ggevent.GeventWorker):
    """gunicorn's gevent worker, fair between connections.

    A greenlet serving a keep-alive connection whose client sends its next request at once
    finds it already there: it reads, answers and reads again without ever waiting, so the
    other connections of the worker wait for it (measured with wrk, 16 connections: p99 of a
    bare endpoint 522 ms, against 88 ms when each request first lets the others run).
    """

    # The client sockets of this worker's connections, and those of them inside a request.
    _connections: set[Any]
    _serving: set[Any]

    def init_process(self) -> None:
        self._connections, self._serving = set(), set()
        super().init_process()

    def run(self) -> None:
        super().run()
        # Every request is answered (or was cut at the graceful timeout): the worker ends
        # here, as a forked child should (os._exit), not through the exit handlers the master
        # registered before the fork. One of them, concurrent.futures' join of the compute
        # pool's manager thread (its module imported by the master, before gevent patched
        # threading), never returned: each worker waited for gunicorn's SIGKILL at the
        # graceful timeout. The pool's processes end with the worker (PR_SET_PDEATHSIG,
        # thirtyone.pool); the master marks the worker's metrics dead.
        self.log.info("Worker exiting (pid: %s)", self.pid)
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)

    def load_wsgi(self) -> None:
        from thirtyone.web import keepalives
        from thirtyone.web.security import StartResponse

        super().load_wsgi()
        app = self.wsgi

        def serve(environ: MutableMapping[str, Any],
                  start_response: StartResponse) -> Iterable[bytes]:
            # The response (gunicorn passes its bound `start_response`): the worker's keeper
            # writes idle streams' keep-alives to it while they sleep (keepalives.py).
            environ[keepalives.RESPONSE] = getattr(start_response, "__self__", None)
            return app(environ, start_response)

        self.wsgi = serve

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        if type(client) is gevent.socket.socket:
            client.__class__ = _Sending  # the same object, a quicker sendall (no TLS here)
        self._connections.add(client)
        try:
            super().handle(listener, client, addr)
        finally:
            self._connections.discard(client)

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
        gevent.sleep(0)
        self._serving.add(sock)
        try:
            handled = super().handle_request(listener_name, req, sock, addr)
        finally:
            self._serving.discard(sock)
        if not self.alive:
            # Stopping: the connection closes after this answer (a stream that began before
            # the SIGTERM would otherwise be kept alive, holding the worker `keepalive` s).
            raise StopIteration
        return handled

    def handle_exit(self, sig: int, frame: Any) -> None:
        """SIGTERM: stop, and close the connections that wait between two requests (a
        proxy's kept-alive ones would hold the worker until their `keepalive` ran out);
        those inside a request finish it and close after their answer."""
        super().handle_exit(sig, frame)
        for client in self._connections - self._serving:
            with suppress(OSError):
                client.shutdown(socket.SHUT_RDWR)


def _send_at_once(sock: Any, data: Any, flags: int = 0) -> None:
    """``sendall`` for the gevent worker's client sockets: the data offered to the kernel at
    once, so that what it takes whole (a keep-alive, an event, most answers) costs one
    ``send(2)``. gevent's own asks the buffer's size first (a ``getsockopt(2)``) and goes
    through four calls: 2.3 us against 4.4 us a write, a twentieth of what an idle stream's
    keep-alive costs."""
    try:
        sent = sock._sock.send(data, flags)
    except BlockingIOError:
        sent = 0
    if sent < len(data):
        # The rest as gevent sends it: waiting for the socket, within its timeout.
        gevent.socket.socket.sendall(sock, memoryview(data)[sent:], flags)


# Made with type(): gevent ships no types, and a class statement on its socket would need an
# ignore. No slots of its own: a client socket takes this class in place (GeventWorker.handle).
_Sending = type("_Sending", (gevent.socket.socket,), {
    "__slots__": (), "sendall": _send_at_once, "__doc__": _send_at_once.__doc__})


class ThreadWorker(_ProblemErrors, gthread.ThreadWorker):
    """gunicorn's threads worker (``thirtyone serve --threads N``), with problem+json errors."""
