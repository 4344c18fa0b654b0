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
        version = _move(server, table, keys)["version"]
        for stream in streams:
            while (pushed := stream.next(timeout=calibrated(10))) is not None \
                    and pushed[0] < version:
                pass
            assert pushed is not None and pushed[0] == version
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
