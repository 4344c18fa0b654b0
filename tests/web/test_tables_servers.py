"""Tables on real servers: gunicorn's gevent workers as `thirtyone serve` runs them.

Two instances share one store (a real Redis, or one SQLite file on this machine): a table
opened on A is played on B and A in turn, a stream on A receives the moves made on B, and
killing A mid-game loses nothing. A SQLite-backed server restarted mid-game goes on. Sockets
that send half a request do not stop ``/healthz``, and the access log shows no seat key.
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import calibrated

pytestmark = pytest.mark.slow  # real gunicorn servers

QUICK = {"lives": 1, "free_ride": False}


def _free_port() -> int:
    with closing(socket.socket()) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """One gunicorn instance (gevent workers, the settings of `thirtyone serve`)."""

    def __init__(self, store: str, folder: Path, workers: int = 1,
                 app: str = "thirtyone.web:create_app()") -> None:
        self.port = _free_port()
        self.log = folder / f"access-{self.port}.log"
        env = {**os.environ, "THIRTYONE_STORE": store, "THIRTYONE_SECRET_KEY": "servers",
               "THIRTYONE_SITE_DIR": str(folder / "no-site")}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "python:thirtyone.web.serving",
             "--bind", f"127.0.0.1:{self.port}", "--workers", str(workers),
             "--graceful-timeout", "1", "--access-logfile", str(self.log),
             app],
            env=env, stdout=subprocess.DEVNULL,
            stderr=(folder / f"errors-{self.port}.log").open("wb"),
            # Its own process group: killing the instance kills its workers too.
            start_new_session=True,
        )

    def wait_up(self) -> None:
        deadline = time.monotonic() + calibrated(30)
        while True:
            try:
                if self.request("GET", "/healthz")[0] == 200:
                    break
            except OSError as error:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.stop()
                    errors = self.log.with_name(f"errors-{self.port}.log").read_text()
                    raise AssertionError(f"the server did not start:\n{errors[-3000:]}") from error
                time.sleep(0.1)

    def request(self, method: str, path: str, body: Any = None, key: str | None = None,
                timeout: float = 10) -> tuple[int, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = {"Content-Type": "application/json"}
        if key is not None:
            headers["Authorization"] = f"Bearer {key}"
        try:
            connection.request(method, path, None if body is None else json.dumps(body),
                               headers)
            response = connection.getresponse()
            data = response.read()
            return response.status, json.loads(data) if data else None
        finally:
            connection.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
        self.process.wait(timeout=15)

    def kill(self) -> None:
        """The whole instance dies at once, as a machine that fails."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=15)


@contextmanager
def servers(store: str, folder: Path, count: int = 1) -> Iterator[list[Server]]:
    started: list[Server] = []
    try:
        for _ in range(count):
            started.append(Server(store, folder))
        for server in started:
            server.wait_up()
        yield started
    finally:
        for server in started:
            server.stop()


@pytest.fixture(params=["redis", "sqlite"])
def store_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/tables.sqlite3"
    return request.getfixturevalue("redis_url")


class Stream:
    """An event stream read by a thread: ``next()`` is the next (version, data) pushed."""

    def __init__(self, server: Server, table: str, key: str, after: int | None = None) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        headers = {} if after is None else {"Last-Event-ID": str(after)}
        self.connection.request("GET", f"/v1/tables/{table}/events?key={key}", headers=headers)
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        self.received: queue.Queue[tuple[int, dict[str, Any]] | None] = queue.Queue()
        # The keep-alive comments read so far.
        self.keepalives = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        version = None
        try:
            for raw in iter(self.response.readline, b""):
                line = raw.decode().rstrip("\n")
                if line.startswith("id: "):
                    version = int(line[4:].split(".")[1])  # EPOCH.VERSION.DIGEST
                elif line.startswith("data: "):
                    self.received.put((version, json.loads(line[6:])))
                elif line == ": keep-alive":
                    self.keepalives += 1
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            # The connection was closed under the reader (by close(), or a server's death).
            pass
        self.received.put(None)

    def next(self, timeout: float = 10) -> tuple[int, dict[str, Any]] | None:
        return self.received.get(timeout=timeout)

    def close(self) -> None:
        # Shut the socket down: the reader thread still holds it open otherwise.
        if self.connection.sock is not None:
            self.connection.sock.shutdown(socket.SHUT_RDWR)
        self.connection.close()


def _move(server: Server, table: str, keys: dict[int, str]) -> dict[str, Any]:
    """The seat to move (the first human between rounds) plays its first legal move, or a
    knock once two turns are played."""
    status, public = server.request("GET", f"/v1/tables/{table}")
    assert status == 200
    seat = public["to_move"] if public["to_move"] is not None else min(keys)
    status, mine = server.request("GET", f"/v1/tables/{table}", key=keys[seat])
    knocks = [move for move in mine["legal_moves"] if move["type"] == "knock"]
    move = knocks[0] if knocks and mine["view"]["turns"] >= 2 else mine["legal_moves"][0]
    status, answer = server.request("POST", f"/v1/tables/{table}/moves",
                                    {"move": move, "version": mine["version"]}, keys[seat])
    assert status == 200, answer
    return answer


def _open(server: Server, **body: Any) -> tuple[str, dict[int, str], dict[str, Any]]:
    status, created = server.request(
        "POST", "/v1/tables", {"variant": "scat", "players": 3, "options": QUICK, **body})
    assert status == 201, created
    keys = {seat["seat"]: seat["key"] for seat in created["seats"] if seat["key"]}
    # Each invited seat claimed (the last claim deals): the last answer stands for the table.
    for seat in created["seats"]:
        if seat["invitation"]:
            status, created = server.request(
                "POST", f"/v1/tables/{created['table']}/seats/{seat['seat']}",
                {"invitation": seat["invitation"], "name": f"Player {seat['seat']}"})
            assert status == 201, created
            keys[seat["seat"]] = created["key"]
    return created["table"], keys, created


def test_two_instances_share_tables_and_streams_and_a_killed_one_loses_nothing(
        store_url, tmp_path):
    with servers(store_url, tmp_path, 2) as (a, b):
        table, keys, created = _open(a, bots={"2": "greedy"})
        stream = Stream(a, table, keys[0])
        version, first = stream.next()
        assert version == created["version"] and first["seat"] == 0
        answers = []
        for server in (b, a, b, b):
            answer = _move(server, table, keys)
            answers.append(answer)
            # Each move, wherever it was made, reaches the stream on A with its events.
            pushed_version, pushed = stream.next()
            assert pushed_version == answer["version"]
            assert pushed["events"] == answer["events"]
            if answer["is_over"]:
                break
        a.kill()
        assert stream.next() is None
        last_seen = answers[-1]["version"]
        status, on_b = b.request("GET", f"/v1/tables/{table}", key=keys[0])
        assert status == 200 and on_b["version"] == last_seen
        if not on_b["is_over"]:
            more = _move(b, table, keys)
            resumed = Stream(b, table, keys[0], after=last_seen)
            assert resumed.next()[0] == more["version"]
            resumed.close()
        stream.close()


def test_a_sqlite_server_restarted_mid_game_goes_on(tmp_path):
    store = f"sqlite:///{tmp_path}/tables.sqlite3"
    with servers(store, tmp_path) as (first,):
        table, keys, _ = _open(first, players=2)
        before = _move(first, table, keys)
    with servers(store, tmp_path) as (second,):
        status, again = second.request("GET", f"/v1/tables/{table}", key=keys[0])
        assert status == 200 and again["version"] == before["version"]
        after = _move(second, table, keys)
        assert after["version"] == before["version"] + 1


def test_half_open_sockets_do_not_stop_healthz_and_the_log_hides_keys(tmp_path):
    store = f"sqlite:///{tmp_path}/tables.sqlite3"
    with servers(store, tmp_path) as (server,):
        idle = []
        for _ in range(50):
            sock = socket.create_connection(("127.0.0.1", server.port))
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            idle.append(sock)
        try:
            for _ in range(10):
                assert server.request("GET", "/healthz", timeout=calibrated(2))[0] == 200
            table, keys, _ = _open(server, players=2)
            status, _ = server.request("GET", f"/v1/tables/{table}/updates?key={keys[0]}&wait=0")
            assert status == 200
        finally:
            for sock in idle:
                sock.close()
    log = server.log.read_text()
    assert "/updates?key=[redacted]&wait=0" in log
    assert keys[0] not in log
