"""Real processes for the deployment tests: Redis Cluster and Sentinel, gunicorn instances,
nginx and HAProxy, each started on free loopback ports in a temporary folder with the repo's
configuration files (``deploy/``), and stopped by PID.

Everything here is slow (seconds to a minute a test): the module marks every test ``slow``.
A binary that is missing skips the test on a developer's machine and fails it under
``CI=true`` (``make system`` installs them).
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import closing, suppress
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import ROOT, calibrated, missing

DEPLOY = ROOT / "deploy"


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/servers/" in str(item.fspath):
            item.add_marker(pytest.mark.slow)


def binary(name: str, package: str) -> str:
    path = shutil.which(name) or next(
        (str(folder / name) for folder in (Path("/usr/sbin"), Path("/usr/bin"))
         if (folder / name).is_file()), None)
    if path is None:
        missing(f"{name} (Debian package {package})")
    return path  # type: ignore[return-value]


def free_port(bus: bool = False) -> int:
    """A free loopback port (and, with ``bus``, one whose cluster bus port, +10000, is free
    too)."""
    while True:
        with closing(socket.socket()) as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        if not bus:
            return port
        if port + 10000 < 65536:
            with closing(socket.socket()) as sock:
                try:
                    sock.bind(("127.0.0.1", port + 10000))
                except OSError:
                    continue
            return port


def replicas_online(port: int) -> int:
    """How many replicas of the Redis on ``port`` have finished their first sync: a commit's
    WAIT is answered by those alone (a replica merely connected may still be loading)."""
    import redis

    info = redis.Redis(port=port).info("replication")
    return sum(1 for name, value in info.items()
               if name.startswith("slave") and isinstance(value, dict)
               and value.get("state") == "online")


def wait_for(check, timeout: float = 30.0, what: str = "a condition") -> Any:
    deadline = time.monotonic() + calibrated(timeout)
    while True:
        try:
            result = check()
            if result:
                return result
        except Exception:  # anything that fails now may pass in a moment
            if time.monotonic() > deadline:
                raise
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        time.sleep(0.1)


class Process:
    """A process started by a test, in its own process group, stopped by its PID."""

    def __init__(self, args: list[str], log: Path, env: dict[str, str] | None = None,
                 cwd: Path | None = None) -> None:
        self.args, self.log, self.env, self.cwd = args, log, env, cwd
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen(
            self.args, stdout=self.log.open("ab"), stderr=subprocess.STDOUT, env=self.env,
            cwd=self.cwd, start_new_session=True)

    @property
    def pid(self) -> int:
        return self.process.pid

    def signal(self, signum: int) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signum)

    def kill(self) -> None:
        """Gone at once, with its children, as a machine that fails."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=15)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]


class Processes:
    """What a test started, stopped (by PID) when it ends."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.started: list[Process] = []

    def start(self, args: list[str], name: str, **kwargs: Any) -> Process:
        process = Process(args, self.folder / f"{name}.log", **kwargs)
        self.started.append(process)
        return process

    def stop_all(self) -> None:
        for process in reversed(self.started):
            with suppress(Exception):
                process.stop()


@pytest.fixture
def processes(tmp_path) -> Iterator[Processes]:
    started = Processes(tmp_path)
    try:
        yield started
    finally:
        started.stop_all()


def redis_ping(port: int) -> bool:
    import redis

    return bool(redis.Redis(port=port, socket_timeout=1).ping())


class RedisNode:
    def __init__(self, processes: Processes, config: str, port: int, *extra: str) -> None:
        self.port = port
        self.folder = processes.folder / f"redis-{port}"
        self.folder.mkdir(exist_ok=True)
        # A copy: Redis rewrites its file when Sentinel reconfigures it.
        copy = self.folder / config
        shutil.copy(DEPLOY / "redis" / config, copy)
        self.process = processes.start(
            [binary("redis-server", "redis-server"), str(copy),
             "--port", str(port), "--bind", "127.0.0.1", "--dir", str(self.folder), *extra],
            f"redis-{port}")
        wait_for(lambda: redis_ping(port), 15, f"redis on {port}")

    def restart(self) -> None:
        self.process.start()
        wait_for(lambda: redis_ping(self.port), 15, f"redis on {self.port}")


def start_cluster(processes: Processes, replicas: int = 2) -> tuple[list[RedisNode], str]:
    """Three primaries of deploy/redis/cluster-node.conf with ``replicas`` replicas each (two,
    as the shipped configuration says: nine nodes)."""
    nodes = [RedisNode(processes, "cluster-node.conf", free_port(bus=True))
             for _ in range(3 * (1 + replicas))]
    subprocess.run(
        [binary("redis-cli", "redis-tools"), "--cluster", "create",
         *[f"127.0.0.1:{node.port}" for node in nodes], "--cluster-replicas", str(replicas),
         "--cluster-yes"], check=True, capture_output=True, timeout=60)

    def ready() -> bool:
        import redis

        for node in nodes:
            info = redis.Redis(port=node.port).cluster("info")
            if info["cluster_state"] != "ok":
                return False
        return True

    wait_for(ready, 30, "the cluster")

    def replicated() -> bool:
        import redis

        # Each primary has its replicas (a commit's WAIT 1 is not answered until one is).
        return all(replicas_online(node.port) >= replicas for node in nodes
                   if redis.Redis(port=node.port).info("replication")["role"] == "master")

    wait_for(replicated, 60, "the replicas")
    return nodes, "redis+cluster://" + ",".join(f"127.0.0.1:{node.port}" for node in nodes[:3])


# Every client of these tests is 127.0.0.1: the rate limits per address would stop them.
UNLIMITED = {name: "1000000 per minute" for name in (
    "THIRTYONE_LIMIT_TABLES", "THIRTYONE_LIMIT_MOVES", "THIRTYONE_LIMIT_STREAMS",
    "THIRTYONE_LIMIT_ADVICE", "THIRTYONE_ADVICE_CPU", "THIRTYONE_LIMIT_READS",
    "THIRTYONE_LIMIT_SEATS", "THIRTYONE_LIMIT_KEYS")} | {"THIRTYONE_OPEN_TABLES": "1000000"}


class Instance:
    """One API instance: gunicorn as `thirtyone serve` runs it."""

    def __init__(self, processes: Processes, store: str, port: int | None = None,
                 workers: int = 1, graceful: int = 5, **env: str) -> None:
        self.processes = processes
        self.port = port or free_port()
        self.store, self.workers, self.graceful, self.extra = store, workers, graceful, env
        self.start()

    def start(self) -> None:
        folder = self.processes.folder
        env = {**os.environ, "THIRTYONE_STORE": self.store, "THIRTYONE_SECRET_KEY": "servers",
               "THIRTYONE_SITE_DIR": str(folder / "no-site"), **UNLIMITED, **self.extra}
        env.pop("PROMETHEUS_MULTIPROC_DIR", None)
        self.process = self.processes.start(
            [sys.executable, "-m", "gunicorn", "-c", "python:thirtyone.web.serving",
             "--bind", f"127.0.0.1:{self.port}", "--workers", str(self.workers),
             "--graceful-timeout", str(self.graceful), "thirtyone.web:create_app()"],
            f"api-{self.port}", env=env, cwd=ROOT)
        wait_for(lambda: request(self.port, "GET", "/healthz")[0] == 200, 30,
                 f"the API on {self.port}")

    def terminate(self) -> None:
        """SIGTERM to gunicorn's master, as a rolling restart sends it; waits for the exit."""
        self.process.signal(signal.SIGTERM)
        self.process.process.wait(timeout=30)


def request(port: int, method: str, path: str, body: Any = None,
            headers: dict[str, str] | None = None, timeout: float = 15) -> tuple[int, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, None if body is None else json.dumps(body),
                           {"Content-Type": "application/json", **(headers or {})})
        response = connection.getresponse()
        data = response.read()
        try:
            return response.status, json.loads(data) if data else None
        except ValueError:
            return response.status, data.decode(errors="replace")
    finally:
        connection.close()


def claim_seats(call: Any, created: dict[str, Any]) -> tuple[dict[str, Any], dict[int, str]]:
    """A new table with every invited seat claimed, as its friends would (so it is dealt):
    the last answer and each human seat's key. ``call(method, path, body)`` sends a request."""
    keys = {seat["seat"]: seat["key"] for seat in created["seats"] if seat.get("key")}
    answer = created
    for seat in created["seats"]:
        if seat.get("invitation"):
            status, answer = call("POST", f"/v1/tables/{created['table']}/seats/{seat['seat']}",
                                  {"invitation": seat["invitation"],
                                   "name": f"Player {seat['seat']}"})
            assert status == 201, answer
            keys[seat["seat"]] = answer.pop("key")
    return answer, keys


class Stream:
    """A table's event stream read by a thread: every (event, version, data) it pushed."""

    def __init__(self, port: int, table: str, key: str, after: int | str | None = None) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=90)
        headers = {} if after is None else {"Last-Event-ID": str(after)}
        self.connection.request("GET", f"/v1/tables/{table}/events?key={key}", headers=headers)
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.received: queue.Queue[tuple[str | None, int | None, Any] | None] = queue.Queue()
        self.retry: int | None = None
        if self.status == 200:
            threading.Thread(target=self._read, daemon=True).start()
        else:
            self.received.put(None)

    def _read(self) -> None:
        event = version = None
        try:
            for raw in iter(self.response.readline, b""):
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("id: "):
                    version = int(line[4:].split(".")[1])  # EPOCH.VERSION.DIGEST
                elif line.startswith("retry: "):
                    self.retry = int(line[7:])
                elif line.startswith("data: "):
                    self.received.put((event, version, json.loads(line[6:])))
                elif not line:
                    event = version = None
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            pass  # closed under the reader
        self.received.put(None)

    def next(self, timeout: float = 20) -> tuple[str | None, int | None, Any] | None:
        return self.received.get(timeout=timeout)

    def close(self) -> None:
        if self.connection.sock is not None:
            with suppress(OSError):
                self.connection.sock.shutdown(socket.SHUT_RDWR)
        self.connection.close()


def reads_counted(processes: Processes, url: str) -> list[tuple[int, str]]:
    """Five reads of one table, sent to two instances of the store ``url`` in turn under a
    limit of four reads a minute: each answer's status and ``RateLimit-Remaining``. Shared
    counts run out on the fifth, whichever instance takes it; counts per instance (or per
    worker) would not."""
    instances = [Instance(processes, url, THIRTYONE_LIMIT_READS="4 per minute")
                 for _ in range(2)]
    seen = []
    for index in range(5):
        connection = http.client.HTTPConnection("127.0.0.1", instances[index % 2].port,
                                                timeout=15)
        try:
            connection.request("GET", "/v1/tables/nothing-here")
            response = connection.getresponse()
            response.read()
            seen.append((response.status, response.headers["RateLimit-Remaining"]))
        finally:
            connection.close()
    return seen
