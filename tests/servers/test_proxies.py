"""nginx and HAProxy with the repo's configurations (deploy/nginx/thirtyone.conf,
deploy/haproxy/haproxy.cfg) in front of two API instances sharing a Redis: a push through each
adds at most 5 ms at p50 over a direct stream, a long poll at the contract's longest `wait`
answers 200, and a rolling restart (SIGTERM, restart, one instance after the other) loses,
duplicates or skips no event for clients that resume with Last-Event-ID."""

from __future__ import annotations

import http.client
import json
import os
import statistics
import threading
import time
from typing import Any

from thirtyone.web.tables.schemas import MAX_WAIT_SECONDS

from .conftest import (
    DEPLOY,
    Instance,
    Processes,
    RedisNode,
    Stream,
    binary,
    claim_seats,
    free_port,
    request,
    wait_for,
)
from .harness import bearer

MOVES = 30


def _nginx(processes: Processes, upstreams: list[int]) -> int:
    port = free_port()
    folder = processes.folder / "nginx"
    folder.mkdir()
    site = (DEPLOY / "nginx" / "thirtyone.conf").read_text()
    site = site.replace("127.0.0.1:8001", f"127.0.0.1:{upstreams[0]}").replace(
        "127.0.0.1:8002", f"127.0.0.1:{upstreams[1]}").replace(
        "127.0.0.1:8080", f"127.0.0.1:{port}")
    (folder / "thirtyone.conf").write_text(site)
    temp = "".join(f"{name}_temp_path {folder}/{name};\n"
                   for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    (folder / "nginx.conf").write_text(
        ("user root;\n" if os.geteuid() == 0 else "")
        + f"daemon off;\nworker_processes 1;\npid {folder}/nginx.pid;\n"
        f"error_log {folder}/error.log;\nevents {{ worker_connections 1024; }}\n"
        f"http {{\naccess_log off;\n{temp}include {folder}/thirtyone.conf;\n}}\n")
    processes.start([binary("nginx", "nginx"), "-c", str(folder / "nginx.conf"),
                     "-p", str(folder)], "nginx")
    wait_for(lambda: request(port, "GET", "/healthz")[0] == 200, 15, "nginx")
    return port


def _haproxy(processes: Processes, upstreams: list[int]) -> int:
    port = free_port()
    config = (DEPLOY / "haproxy" / "haproxy.cfg").read_text()
    config = config.replace("127.0.0.1:8001", f"127.0.0.1:{upstreams[0]}").replace(
        "127.0.0.1:8002", f"127.0.0.1:{upstreams[1]}").replace(
        "127.0.0.1:8080", f"127.0.0.1:{port}")
    path = processes.folder / "haproxy.cfg"
    path.write_text(config)
    processes.start([binary("haproxy", "haproxy"), "-f", str(path), "-db"], "haproxy")
    wait_for(lambda: request(port, "GET", "/healthz")[0] == 200, 15, "haproxy")
    return port


def _setup(processes: Processes) -> tuple[list[Instance], dict[str, int]]:
    node = RedisNode(processes, "primary.conf", free_port(), "--min-replicas-to-write", "0")
    instances = [Instance(processes, f"redis://127.0.0.1:{node.port}/0") for _ in range(2)]
    upstreams = [instance.port for instance in instances]
    return instances, {"direct": upstreams[0], "nginx": _nginx(processes, upstreams),
                       "haproxy": _haproxy(processes, upstreams)}


def _open(port: int) -> tuple[str, dict[int, str]]:
    status, created = request(port, "POST", "/v1/tables",
                              {"variant": "scat", "players": 2,
                               "options": {"lives": 3, "free_ride": False}})
    assert status == 201, created
    created, keys = claim_seats(lambda method, path, body: request(port, method, path, body),
                                created)
    return created["table"], keys


def _move(port: int, table: str, keys: dict[int, str],
          sent: list[float] | None = None) -> dict[str, Any]:
    """The seat to move draws or discards (never knocks); ``sent`` gets the moment the move
    itself was sent."""
    status, public = request(port, "GET", f"/v1/tables/{table}")
    seat = public["to_move"] if public["to_move"] is not None else 0
    status, mine = request(port, "GET", f"/v1/tables/{table}", headers=bearer(keys[seat]))
    move = next(move for move in mine["legal_moves"] if move["type"] != "knock")
    if sent is not None:
        sent.append(time.perf_counter())
    status, answer = request(port, "POST", f"/v1/tables/{table}/moves",
                             {"move": move, "version": mine["version"]}, bearer(keys[seat]))
    assert status == 200, answer
    return answer


def _push_ms(mover: int, through: int) -> float:
    """p50 of the time from sending a move to its arrival on a stream through ``through``."""
    table, keys = _open(mover)
    stream = Stream(through, table, keys[0])
    stream.next()
    delays = []
    for _ in range(MOVES):
        sent: list[float] = []
        answer = _move(mover, table, keys, sent)
        while True:
            item = stream.next()
            assert item is not None
            if item[1] == answer["version"]:
                break
        delays.append((time.perf_counter() - sent[0]) * 1000)
        if answer["is_over"]:
            break
    stream.close()
    return statistics.median(delays)


def test_a_proxy_adds_little_to_a_push_and_keeps_a_long_poll(processes):
    _, ports = _setup(processes)
    table, _ = _open(ports["direct"])
    status, now = request(ports["direct"], "GET", f"/v1/tables/{table}")
    polls: dict[str, tuple[int, float]] = {}

    def poll(name: str) -> None:
        started = time.monotonic()
        status, _ = request(ports[name], "GET", f"/v1/tables/{table}/updates?after="
                            f"{now['version']}&wait={MAX_WAIT_SECONDS}",
                            timeout=MAX_WAIT_SECONDS + 30)
        polls[name] = (status, time.monotonic() - started)

    pollers = [threading.Thread(target=poll, args=(name,)) for name in ("nginx", "haproxy")]
    for poller in pollers:
        poller.start()
    medians = {name: _push_ms(ports["direct"], port) for name, port in ports.items()}
    print("push p50 (ms):", medians)
    for name in ("nginx", "haproxy"):
        assert medians[name] <= medians["direct"] + 5, medians
    for poller in pollers:
        poller.join()
    for name, (status, seconds) in polls.items():
        assert status == 200 and seconds >= MAX_WAIT_SECONDS - 1, (name, status, seconds)


class EventSource:
    """A browser's EventSource, in a thread: it reconnects after each stream ends, waiting the
    `retry:` it was given, with the last id it saw as Last-Event-ID."""

    def __init__(self, port: int, table: str, key: str) -> None:
        self.port, self.table, self.key = port, table, key
        self.versions: list[int] = []
        self.resets = 0
        self.reconnects = 0
        self.closed = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        retry = 1000
        while not self.closed:
            headers = {"Last-Event-ID": str(self.versions[-1])} if self.versions else {}
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            try:
                connection.request("GET", f"/v1/tables/{self.table}/events?key={self.key}",
                                   headers=headers)
                response = connection.getresponse()
                if response.status != 200:
                    response.read()
                else:
                    event = None
                    for raw in iter(response.readline, b""):
                        line = raw.decode().rstrip("\n")
                        if line.startswith("retry: "):
                            retry = int(line[7:])
                        elif line.startswith("event: "):
                            event = line[7:]
                        elif line.startswith("data: ") and event is None:
                            self.versions.append(json.loads(line[6:])["version"])
                        elif line.startswith("data: "):
                            self.resets += event == "table_reset"
                            self.reconnects += event == "reconnect"
                        elif not line:
                            event = None
            except (OSError, http.client.HTTPException):
                pass
            finally:
                connection.close()
            time.sleep(retry / 1000)


def _roll(instance: Instance, ports: list[int]) -> None:
    """SIGTERM an instance, wait for it to exit, start it again and wait until it is ready."""
    instance.terminate()
    instance.start()
    wait_for(lambda: request(instance.port, "GET", "/readyz")[0] == 200, 30, "readiness")
    time.sleep(2)  # the proxies' health checks see it back


def test_a_rolling_restart_loses_duplicates_or_skips_no_event(processes):
    instances, ports = _setup(processes)
    tables = [_open(ports["direct"]) for _ in range(4)]
    sources = [EventSource(ports[proxy], table, keys[0])
               for proxy in ("nginx", "haproxy") for table, keys in tables]
    direct = Stream(instances[0].port, tables[0][0], tables[0][1][0])
    direct.next()
    done = threading.Event()
    made: dict[str, int] = {}

    def play() -> None:
        turn = 0
        while not done.is_set():
            table, keys = tables[turn % len(tables)]
            through = ports["nginx"] if turn % 2 else ports["haproxy"]
            try:
                made[table] = _move(through, table, keys)["version"]
            except (AssertionError, OSError):
                time.sleep(0.2)  # a request cut by the restart: read the table again
            turn += 1
            time.sleep(0.02)

    mover = threading.Thread(target=play)
    mover.start()
    time.sleep(2)
    stopped = time.monotonic()
    _roll(instances[0], ports)
    # The direct stream on the stopped instance ended with a last event telling its client to
    # reconnect after a jittered retry, within the graceful timeout.
    items = []
    while (item := direct.next(timeout=1)) is not None:
        items.append(item)
    assert items[-1][0] == "reconnect" and 1000 <= (direct.retry or 0) <= 5000
    assert time.monotonic() - stopped < 30
    _roll(instances[1], ports)
    time.sleep(2)
    done.set()
    mover.join()
    time.sleep(6)  # the last reconnections (retry up to 5 s)
    for source in sources:
        source.closed = True
    for source, (table, _) in zip(sources, tables * 2, strict=True):
        status, now = request(ports["direct"], "GET", f"/v1/tables/{table}")
        assert status == 200 and now["version"] >= made[table] > 5
        first = source.versions[0]
        assert source.versions == list(range(first, now["version"] + 1)), (
            table, source.versions)
        assert source.resets == 0
    assert sum(source.reconnects for source in sources) > 0
