"""An idle stream sleeps between events: it wakes for a new version, a seat come or gone, a
keep-alive, the instance stopping, or its client leaving, never to look at its socket now and
then. Counted by ``thirtyone_stream_wakeups`` (by cause), on a real gunicorn server (the
gevent worker, whose loop watches the streams' sockets) and on the fallbacks: no socket (a test
client, a development server) and a socket without gevent (gunicorn's threads worker)."""

from __future__ import annotations

import http.client
import re
import socket
import threading
import time

import pytest
from flask import Flask
from prometheus_client import REGISTRY
from tests.conftest import calibrated

from thirtyone.web import connections

from .test_tables_servers import Server, Stream, _move, _open

STREAMS = 12
QUIET_SECONDS = 4.0
"""Shorter than a keep-alive period: each stream may send one keep-alive in it."""
KEEPALIVE_SECONDS = 15.0
"""The server's keep-alive period (``TABLE_KEEPALIVE_SECONDS``)."""


def _metrics(server: Server) -> str:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request("GET", "/metrics")
        return connection.getresponse().read().decode()
    finally:
        connection.close()


def _wakeups(text: str) -> dict[str, float]:
    return {cause: float(value) for cause, value in re.findall(
        r'^thirtyone_stream_wakeups_total\{cause="(\w+)"\} (\S+)$', text, re.M)}


def _open_streams(text: str) -> float:
    found = re.search(r"^thirtyone_open_streams (\S+)$", text, re.M)
    return float(found.group(1)) if found else 0.0


def _wait_for(condition, seconds: float, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + calibrated(seconds)
    while not condition():
        assert time.monotonic() < deadline, f"no {what} in time"
        time.sleep(0.1)


def _move_seen_by_all(server: Server, table: str, keys: dict[int, str],
                      streams: list[Stream]) -> int:
    """Make a move, and wait until every stream pushed its version, which it returns."""
    version = _move(server, table, keys)["version"]
    for stream in streams:
        while (pushed := stream.next(timeout=calibrated(10))) is not None \
                and pushed[0] < version:
            pass
        assert pushed is not None and pushed[0] == version
    return version


@pytest.mark.slow  # a real gunicorn server
def test_idle_streams_wake_for_nothing_and_a_closed_one_is_noticed_at_once(tmp_path):
    server = Server(f"sqlite:///{tmp_path}/tables.sqlite3", tmp_path)
    streams: list[Stream] = []
    try:
        server.wait_up()
        table, keys, _ = _open(server)
        for index in range(STREAMS):
            streams.append(Stream(server, table, keys[index % len(keys)]))
        for stream in streams:
            assert stream.next(timeout=calibrated(10)) is not None  # the table, at its start
        _wait_for(lambda: _open_streams(_metrics(server)) == STREAMS, 10, "open streams")
        # Past the openings: the seats' coming told (at the worker's next presence sweep).
        time.sleep(3.0)
        # A move wakes every stream once (counted), and each sends it.
        _move_seen_by_all(server, table, keys, streams)
        before = _wakeups(_metrics(server))
        assert before.get("notice", 0.0) >= STREAMS, before
        began = time.monotonic()
        time.sleep(QUIET_SECONDS)
        after = _wakeups(_metrics(server))
        quiet = time.monotonic() - began
        woke = {cause: after.get(cause, 0.0) - before.get(cause, 0.0) for cause in after}
        # At most a keep-alive each per period begun (one, unless a slow machine stretched the
        # window); a stream that looked at its socket every half second woke twice a second.
        keepalives = 1 + int(quiet // KEEPALIVE_SECONDS)
        assert sum(woke.values()) <= STREAMS * keepalives, (woke, quiet)
        assert woke.get("check", 0.0) == 0.0, woke

        # A tab closed: its stream notices it at once, with no look of its own.
        streams.pop().close()
        _wait_for(lambda: _open_streams(_metrics(server)) == STREAMS - 1, 10,
                  "closed stream's end")
        assert _wakeups(_metrics(server)).get("client", 0.0) >= 1.0
    finally:
        for stream in streams:
            stream.close()
        server.stop()


def _keepalives(text: str) -> dict[str, float]:
    return {by: float(value) for by, value in re.findall(
        r'^thirtyone_stream_keepalives_total\{by="(\w+)"\} (\S+)$', text, re.M)}


def _raw_stream(server: Server, table: str, key: str) -> socket.socket:
    """An HTTP/1.0 event stream (not chunked) on a raw socket, its headers read."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    sock.sendall(f"GET /v1/tables/{table}/events?key={key} HTTP/1.0\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.0 200") or head.startswith(b"HTTP/1.1 200"), head
    assert b"chunked" not in head.lower()
    return sock


@pytest.mark.slow  # a real gunicorn server
def test_the_workers_keeper_keeps_idle_streams_alive_while_they_sleep(tmp_path):
    # A keep-alive a second: the worker's keeper writes them, the streams stay asleep.
    period = 1.0
    server = Server(f"sqlite:///{tmp_path}/tables.sqlite3", tmp_path,
                    app=f"thirtyone.web:create_app({{'TABLE_KEEPALIVE_SECONDS': {period}}})")
    streams: list[Stream] = []
    raw = None
    try:
        server.wait_up()
        table, keys, _ = _open(server)
        for index in range(STREAMS):
            streams.append(Stream(server, table, keys[index % len(keys)]))
        raw = _raw_stream(server, table, keys[0])
        for stream in streams:
            assert stream.next(timeout=calibrated(10)) is not None
        _wait_for(lambda: _open_streams(_metrics(server)) == STREAMS + 1, 10, "open streams")
        time.sleep(3 * period)  # past the openings, and each stream's first keep-alive
        before = _wakeups(_metrics(server)), _keepalives(_metrics(server))
        read = [stream.keepalives for stream in streams]
        began = time.monotonic()
        time.sleep(6 * period)
        quiet = time.monotonic() - began
        after = _wakeups(_metrics(server)), _keepalives(_metrics(server))
        woke = {cause: after[0].get(cause, 0.0) - before[0].get(cause, 0.0)
                for cause in after[0]}
        kept = {by: after[1].get(by, 0.0) - before[1].get(by, 0.0) for by in after[1]}
        # Every client had its keep-alives (at least one a period, give or take the edges of
        # the window and a busy machine), and the streams did not wake for them.
        assert all(stream.keepalives - then >= 2 for stream, then in zip(streams, read,
                                                                        strict=True)), (
            [stream.keepalives - then for stream, then in zip(streams, read, strict=True)])
        assert kept.get("keeper", 0.0) >= 2 * (STREAMS + 1), kept
        assert kept.get("stream", 0.0) == 0.0, (kept, quiet)
        assert sum(woke.values()) == 0.0, (woke, quiet)

        # The keeper's writes kept the streams' framing: a move reaches every client.
        version = _move_seen_by_all(server, table, keys, streams)
        # The HTTP/1.0 client had its keep-alives unframed, then the version's event.
        received = b""
        deadline = time.monotonic() + calibrated(10)
        while not re.search(rb"^id: \w+\.%d\." % version, received, re.M):
            assert time.monotonic() < deadline, received
            received += raw.recv(65536)
        assert received.count(b": keep-alive\n\n") >= 4, received
        assert b"\r\n" not in received, received
        # After an event too the keep-alives are the keeper's: the event said who is here,
        # and when that was looked at.
        time.sleep(4 * period)
        later = _keepalives(_metrics(server))
        assert later.get("keeper", 0.0) >= after[1].get("keeper", 0.0) + 2 * STREAMS
        assert later.get("stream", 0.0) == after[1].get("stream", 0.0), (later, after[1])
    finally:
        if raw is not None:
            raw.close()
        for stream in streams:
            stream.close()
        server.stop()


def _counted() -> dict[str, float]:
    return {cause: REGISTRY.get_sample_value("thirtyone_stream_wakeups_total",
                                             {"cause": cause}) or 0.0
            for cause in ("notice", "timeout", "client", "check")}


def test_without_a_socket_a_wait_wakes_only_for_its_event_or_its_end():
    app = Flask(__name__)
    woken = threading.Event()
    with app.test_request_context("/"), connections.ClientWatch() as client:
        before = _counted()
        assert client.wait(woken, 0.8) is False
        threading.Timer(0.2, woken.set).start()
        assert client.wait(woken, calibrated(10)) is True
        after = _counted()
    assert {cause: after[cause] - before[cause] for cause in after} == {
        "notice": 1.0, "timeout": 1.0, "client": 0.0, "check": 0.0}


def test_without_gevent_a_waiting_stream_looks_at_its_socket_and_sees_it_closed():
    app = Flask(__name__)
    served, client_end = socket.socketpair()
    woken = threading.Event()
    try:
        with app.test_request_context("/", environ_overrides={"gunicorn.socket": served}), \
                connections.ClientWatch() as client:
            assert client.wait(woken, 0.2) is False  # there, quiet
            threading.Timer(0.3, client_end.close).start()
            began = time.monotonic()
            assert client.wait(woken, calibrated(30)) is None
            # Within a look or so, not at the wait's end.
            assert time.monotonic() - began < calibrated(30) / 2
    finally:
        served.close()
        client_end.close()
