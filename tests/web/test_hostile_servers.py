"""The service under abuse, on real servers: `thirtyone serve` (2 gevent workers), started here.

Each attack of the hardening issue, replayed: a bots-only table of strong bots and a thousand
rounds, hint loops, thousands of streams from one address, abandoned long polls, a body sent a
byte at a time, a 60 KB header, an encoded key parameter, a fractional version, and the rate
limits on Redis shared by the workers. Each server gets its limits through the environment,
as an operator would set them.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import selectors
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import calibrated, slowdown

from thirtyone.web.advice import MAX_SAMPLES

pytestmark = pytest.mark.slow

STRONG_15 = {str(seat): "strong" for seat in range(15)}


def _free_port() -> int:
    with closing(socket.socket()) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Serve:
    """`thirtyone serve` on a free port, its output (the access log) kept in ``log``."""

    def __init__(self, folder: Path, store: str, workers: int = 2, **env: str) -> None:
        self.port = _free_port()
        self.log = folder / f"serve-{self.port}.log"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "thirtyone", "serve", "--port", str(self.port),
             "--workers", str(workers), "--access-log"],
            env={**os.environ, "THIRTYONE_STORE": store, "THIRTYONE_SECRET_KEY": "hostile",
                 "THIRTYONE_SITE_DIR": str(folder / "no-site"), **env},
            stdout=self.log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True,
        )
        deadline = time.monotonic() + calibrated(30)
        while True:
            try:
                if self.request("GET", "/healthz", timeout=2)[0] == 200:
                    break
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.stop()
                    raise AssertionError(f"no server:\n{self.log.read_text()[-3000:]}") from None
                time.sleep(0.1)
        # Both workers up, and their compute pools started.
        time.sleep(1.0)

    def request(self, method: str, path: str, body: Any = None, key: str | None = None,
                timeout: float = 10, headers: dict[str, str] | None = None,
                ) -> tuple[int, Any, http.client.HTTPResponse]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        sent = {"Content-Type": "application/json", **(headers or {})}
        if key is not None:
            sent["Authorization"] = f"Bearer {key}"
        try:
            connection.request(method, path, None if body is None else json.dumps(body), sent)
            response = connection.getresponse()
            data = response.read()
            return response.status, json.loads(data) if data else None, response
        finally:
            connection.close()

    def healthz_ms(self, timeout: float = 2) -> float | None:
        """One /healthz round trip in ms, or None when it did not answer 200 in time."""
        start = time.perf_counter()
        try:
            status = self.request("GET", "/healthz", timeout=timeout)[0]
        except OSError:
            return None
        return (time.perf_counter() - start) * 1000 if status == 200 else None

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, 9)
            self.process.wait(timeout=5)


@contextmanager
def serve(folder: Path, store: str, workers: int = 2, **env: str) -> Iterator[Serve]:
    server = Serve(folder, store, workers, **env)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "redis"])
def store(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/tables.sqlite3"
    return request.getfixturevalue("redis_url")


def _redis_db(redis_url: str, db: int) -> str:
    """Another database of the session's Redis: counts of one test never reach another."""
    return redis_url.rsplit("/", 1)[0] + f"/{db}"


def _stream(server: Serve, table: str, seconds: float, enough: int | None = None,
            ) -> list[dict[str, Any]]:
    """The versions a stream receives within ``seconds`` (or until the match is over, or
    ``enough`` came)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=seconds)
    answers: list[dict[str, Any]] = []
    deadline = time.monotonic() + seconds
    try:
        connection.request("GET", f"/v1/tables/{table}/events")
        response = connection.getresponse()
        assert response.status == 200
        while time.monotonic() < deadline:
            line = response.fp.readline()
            if not line:
                break
            if line.startswith(b"data: "):
                answers.append(json.loads(line[6:]))
                if answers[-1]["is_over"] or len(answers) == enough:
                    break
    except TimeoutError:
        pass
    finally:
        connection.close()
    return answers


def test_a_bots_only_match_of_strong_bots_answers_at_once_and_plays_on_while_watched(
        tmp_path, store):
    with serve(tmp_path, store) as server:
        start = time.perf_counter()
        status, created, _ = server.request(
            "POST", "/v1/tables", {"variant": "schnautz", "players": 15, "bots": STRONG_15,
                                   "options": {"rounds": 1000}})
        opened = time.perf_counter() - start
        assert status == 201 and opened < calibrated(1.0), (status, opened)
        assert not created["is_over"]
        watched: list[dict[str, Any]] = []
        # Six versions, however long a loaded machine's strong bots take to think them.
        watcher = threading.Thread(target=lambda: watched.extend(
            _stream(server, created["table"], calibrated(60), enough=6)))
        watcher.start()
        time.sleep(0.5)
        times = []
        for _ in range(20):
            times.append(server.healthz_ms(timeout=calibrated(1)))
            time.sleep(0.1)
        watcher.join()
        assert None not in times, times
        # The stream's worker played it on: version after version, strong bots thinking in
        # the compute pool.
        versions = [answer["version"] for answer in watched]
        assert len(versions) > 5 and versions == sorted(versions)
        # A short match of strong bots (two rounds at most: one life, no free ride) reaches
        # its end while a stream watches it.
        status, short, _ = server.request(
            "POST", "/v1/tables", {"variant": "scat", "players": 3,
                                   "options": {"lives": 1, "free_ride": False},
                                   "bots": {"0": "strong", "1": "strong", "2": "strong"}})
        assert status == 201
        answers = _stream(server, short["table"], calibrated(180))
        assert answers and answers[-1]["is_over"], answers[-1:]


def test_hint_loops_leave_healthz_fast(tmp_path):
    with serve(tmp_path, f"sqlite:///{tmp_path}/t.sqlite3",
               THIRTYONE_LIMIT_ADVICE="100000 per minute",
               THIRTYONE_ADVICE_CPU="100000 per minute") as server:
        status, game, _ = server.request("POST", "/v1/games", {"variant": "scat", "players": 3,
                                                               "seed": 5, "dealer": 0})
        assert status == 201
        seat = game["to_move"]
        body = {"token": game["token"], "seat": seat, "seat_key": game["seat_keys"][seat],
                "samples": MAX_SAMPLES}
        idle = [server.healthz_ms(timeout=2) for _ in range(50)]
        stop = threading.Event()
        answered: list[int] = []

        def hint_loop() -> None:
            while not stop.is_set():
                answered.append(server.request("POST", "/v1/games/advice", body, timeout=30)[0])

        loops = [threading.Thread(target=hint_loop) for _ in range(4)]
        for loop in loops:
            loop.start()
        time.sleep(1.0)
        times = []
        for _ in range(100):
            times.append(server.healthz_ms(timeout=2))
            time.sleep(0.02)
        stop.set()
        for loop in loops:
            loop.join()
    assert None not in times and None not in idle
    p99, idle_p99 = statistics.quantiles(times, n=100)[98], statistics.quantiles(idle, n=100)[98]
    median, idle_median = statistics.median(times), statistics.median(idle)
    print(f"/healthz beside four hint loops: p99 {p99:.1f} ms ({idle_p99:.1f} idle), "
          f"median {median:.1f} ms ({idle_median:.1f} idle)")
    # Hints on the workers' loops (hundreds of ms of CPU each, four at a time) would hold
    # /healthz for most of that time, its median too: seconds at p99, hundreds of ms at the
    # median. Bounds well above what a busy machine's other processes cost it (a median of
    # 16 ms at load 25, 1.7 ms idle just before), so that only that fault fails them.
    assert p99 <= max(calibrated(250), 3 * idle_p99), \
        f"/healthz p99 {p99:.1f} ms, {idle_p99:.1f} idle"
    assert median <= max(calibrated(100), 5 * idle_median)
    # One address asking four hints at once: one computes, the others are told to wait
    # (429 client_busy) rather than hold the pool from everyone else.
    assert answered and 200 in answered and set(answered) <= {200, 429, 503}, set(answered)


def _open_many(port: int, path: str, count: int) -> tuple[list[socket.socket], list[int]]:
    """``count`` connections each sending ``GET path``; the status each got within a while
    (0: none yet, its stream or poll still open)."""
    request = f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
    sockets: list[socket.socket] = []
    chooser = selectors.DefaultSelector()
    for index in range(count):
        sock = socket.socket()
        sock.setblocking(False)
        sock.connect_ex(("127.0.0.1", port))
        chooser.register(sock, selectors.EVENT_WRITE, index)
        sockets.append(sock)
    statuses = [0] * count
    sent: set[int] = set()
    deadline = time.monotonic() + calibrated(30)
    while time.monotonic() < deadline and (len(sent) < count or 0 in statuses):
        # Connections past a worker's 2,000 wait to be accepted until answered ones close.
        events = chooser.select(timeout=calibrated(3))
        if not events and len(sent) == count:
            break
        for key, mask in events:
            index = key.data
            if mask & selectors.EVENT_WRITE and index not in sent:
                try:
                    key.fileobj.send(request)
                except OSError:
                    continue
                sent.add(index)
                chooser.modify(key.fileobj, selectors.EVENT_READ, index)
            elif mask & selectors.EVENT_READ:
                try:
                    data = key.fileobj.recv(64)
                except OSError:
                    data = b""
                if data.startswith(b"HTTP/1.1 "):
                    statuses[index] = int(data[9:12])
                chooser.unregister(key.fileobj)
    chooser.close()
    return sockets, statuses


def test_thousands_of_streams_from_one_address_leave_healthz_answering(tmp_path):
    with serve(tmp_path, f"sqlite:///{tmp_path}/t.sqlite3",
               THIRTYONE_LIMIT_STREAMS="1000000 per minute",
               THIRTYONE_STREAMS_PER_CLIENT="20") as server:
        status, created, _ = server.request("POST", "/v1/tables",
                                            {"variant": "scat", "players": 2})
        assert status == 201
        sockets, statuses = _open_many(server.port, f"/v1/tables/{created['table']}/events",
                                       4300)
        try:
            # Every worker holds 20 streams of this address at most; the others were told 429
            # (or, past the 4,000 connections the workers take at once, wait to be accepted).
            assert set(statuses) <= {0, 200, 429}
            assert statuses.count(200) <= 2 * 20
            assert statuses.count(429) >= 2000, statuses.count(429)
            times = [server.healthz_ms(timeout=calibrated(5)) for _ in range(5)]
            assert None not in times, times
        finally:
            for sock in sockets:
                sock.close()


def test_an_abandoned_long_poll_gives_its_slot_back_at_once(tmp_path):
    # One worker, so that which worker a connection reaches does not matter.
    with serve(tmp_path, f"sqlite:///{tmp_path}/t.sqlite3", workers=1,
               THIRTYONE_STREAMS_PER_CLIENT="3") as server:
        _, created, _ = server.request("POST", "/v1/tables", {"variant": "scat", "players": 2})
        path = f"/v1/tables/{created['table']}/updates?wait=60"
        # 3 polls hold the client's slots; the others are refused.
        sockets, statuses = _open_many(server.port, path, 6)
        assert statuses.count(429) == 3 and statuses.count(0) == 3, statuses
        for sock in sockets:
            sock.close()
        # Closed long before their 60 s: their slots are back within a second.
        time.sleep(1.5)
        again, later = _open_many(server.port, path, 3)
        for sock in again:
            sock.close()
        assert later.count(429) == 0, later


def test_a_body_sent_a_byte_at_a_time_is_dropped_with_408(tmp_path):
    with serve(tmp_path, f"sqlite:///{tmp_path}/t.sqlite3", THIRTYONE_BODY_SECONDS="1") as server:
        body = json.dumps({"hand": ["AS", "KS", "QS"]}).encode()
        with closing(socket.create_connection(("127.0.0.1", server.port), timeout=10)) as sock:
            sock.sendall(b"POST /v1/hands/score HTTP/1.1\r\nHost: x\r\n"
                         b"Content-Type: application/json\r\n"
                         b"Content-Length: %d\r\n\r\n" % len(body))
            start = time.monotonic()
            answer = b""
            sock.settimeout(0.2)
            for byte in body:
                try:
                    sock.send(bytes([byte]))
                except OSError:
                    break
                try:
                    answer += sock.recv(4096)
                    if answer:
                        break
                except TimeoutError:
                    pass
            sock.settimeout(5)
            while b"}" not in answer:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                answer += chunk
            elapsed = time.monotonic() - start
        head, _, payload = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408"), answer[:200]
        assert b"application/problem+json" in head
        assert json.loads(payload)["code"] == "body_timeout"
        assert 0.8 <= elapsed < calibrated(3), elapsed
        assert server.healthz_ms() is not None


def test_a_60_kb_header_is_a_problem_not_html(tmp_path):
    with serve(tmp_path, f"sqlite:///{tmp_path}/t.sqlite3") as server:
        with closing(socket.create_connection(("127.0.0.1", server.port), timeout=10)) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n"
                         + b"".join(b"X-Big-%d: %s\r\n" % (i, b"a" * 600) for i in range(100))
                         + b"\r\n")
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
        head, _, payload = answer.partition(b"\r\n\r\n")
        assert head.split(b"\r\n")[0].split(b" ")[1] in (b"400", b"431"), head
        assert b"Content-Type: application/problem+json" in head
        assert json.loads(payload)["code"] in ("headers_too_large", "bad_request")


def test_an_encoded_key_opens_nothing_no_key_reaches_the_log_and_versions_are_whole(tmp_path):
    with serve(tmp_path, f"sqlite:///{tmp_path}/t.sqlite3") as server:
        _, created, _ = server.request("POST", "/v1/tables", {"variant": "scat", "players": 2})
        table = created["table"]
        # The second seat's key is its own: made when it claims the seat by invitation.
        _, claimed, _ = server.request(
            "POST", f"/v1/tables/{table}/seats/1",
            {"invitation": created["seats"][1]["invitation"], "name": "B"})
        keys = [created["seats"][0]["key"], claimed["key"]]
        assert server.request("GET", f"/v1/tables/{table}/updates?%6Bey={keys[0]}&wait=0"
                              )[:2][0] == 400
        assert server.request("GET", f"/v1/tables/{table}/updates?K%2545Y={keys[1]}&wait=0"
                              )[1]["seat"] is None
        assert server.request("GET", f"/v1/tables/{table}/updates?key={keys[0]}&wait=0"
                              )[1]["seat"] == 0
        seat = claimed["to_move"]
        _, mine, _ = server.request("GET", f"/v1/tables/{table}", key=keys[seat])
        status, refused, _ = server.request(
            "POST", f"/v1/tables/{table}/moves",
            {"version": mine["version"] - 0.1 if mine["version"] else 0.9,
             "move": mine["legal_moves"][0]}, key=keys[seat])
        assert status == 422 and refused["errors"][0]["field"] == "version"
        assert server.request("GET", f"/v1/tables/{table}")[1]["version"] == mine["version"]
        server.request("GET", f"/v1/tables/{table}", headers={"Referer": f"/x?key={keys[1]}"})
    log = server.log.read_text()
    assert f"/v1/tables/{table}/updates" in log
    for key in keys:
        assert key not in log


def test_the_limits_answer_429_with_their_headers_counted_across_workers_in_redis(
        tmp_path, redis_url):
    with serve(tmp_path, _redis_db(redis_url, 5), THIRTYONE_LIMIT_TABLES="3 per minute") as server:
        answers = [server.request("POST", "/v1/tables", {"variant": "scat", "players": 2})
                   for _ in range(5)]
    assert [status for status, _, _ in answers] == [201, 201, 201, 429, 429]
    _, problem, response = answers[3]
    assert problem["code"] == "rate_limited"
    assert response.getheader("Content-Type") == "application/problem+json"
    assert 0 < int(response.getheader("Retry-After")) <= 61
    assert response.getheader("RateLimit-Limit") == "3"
    assert response.getheader("RateLimit-Remaining") == "0"
    assert answers[0][2].getheader("RateLimit-Remaining") == "2"


GREEDY_15 = {str(seat): "greedy" for seat in range(15)}


def test_watchers_and_readers_of_bots_only_tables_cost_a_read_and_the_tables_finish(
        tmp_path, store):
    """40 spectator streams and 16 readers of bots-only 15-seat tables, then 200 reads of six
    strong-bot tables with streams open: reads only read (the scheduler plays the bots off
    the request path), so /healthz stays fast, no worker is killed, no read answers a move's
    error, and the tables still finish."""
    # Every client here is 127.0.0.1: the cap of streams per client and worker (32) would
    # refuse some of the 40 when one worker accepts most of them, as a busy machine makes it.
    with serve(tmp_path, store, THIRTYONE_STREAMS_PER_CLIENT="100") as server:
        tables = []
        for _ in range(4):
            status, created, _ = server.request("POST", "/v1/tables", {
                "variant": "schnautz", "players": 15, "bots": GREEDY_15,
                "options": {"rounds": 20}})
            assert status == 201
            tables.append(created["table"])
        stop = threading.Event()
        statuses: list[Any] = []

        def read(table: str) -> None:
            # A reader as a page polls: twice a second.
            while not stop.wait(0.5):
                with contextlib.suppress(OSError):
                    status, body, _ = server.request("GET", f"/v1/tables/{table}", timeout=5)
                    statuses.append(status if status == 200 else (status, body))

        watchers = [threading.Thread(target=_stream, args=(server, tables[index % 4], 30))
                    for index in range(40)]
        readers = [threading.Thread(target=read, args=(tables[index % 4],))
                   for index in range(16)]
        for thread in watchers + readers:
            thread.start()
        # Measured once the 56 clients are connected (opening 40 streams at once is a burst
        # of its own), while the bots play on.
        time.sleep(3)
        times = []
        for _ in range(20):
            # A frozen worker never answers (it was killed at 30 s); a busy machine is slower,
            # never wrong: the bound scales with it, and the 250 ms an idle machine keeps to
            # is printed, not asserted.
            times.append(server.healthz_ms(timeout=calibrated(5)))
            time.sleep(0.1)
        answered = [t for t in times if t is not None]
        print(f"/healthz under load: max {max(answered, default=0):.0f} ms, median "
              f"{statistics.median(answered or [0]):.0f} ms, "
              f"{sum(t < 250 for t in answered)} of {len(times)} under 250 ms "
              f"(slowdown {slowdown():.1f}x)")
        deadline = time.monotonic() + calibrated(180)
        while not all(server.request("GET", f"/v1/tables/{table}",
                                     timeout=calibrated(10))[1]["is_over"]
                      for table in tables):
            assert time.monotonic() < deadline, "the bots-only tables never finished"
            time.sleep(0.5)
        stop.set()
        for thread in watchers + readers:
            thread.join()
        assert None not in times, times
        assert all(status == 200 for status in statuses), [s for s in statuses if s != 200]

        strong = []
        for _ in range(6):
            status, created, _ = server.request("POST", "/v1/tables", {
                "variant": "scat", "players": 4, "options": {"lives": 2},
                "bots": {str(seat): "strong" for seat in range(4)}})
            assert status == 201
            strong.append(created["table"])
        spectators = [threading.Thread(target=_stream, args=(server, table, 20))
                      for table in strong]
        for thread in spectators:
            thread.start()
        answers = [server.request("GET", f"/v1/tables/{strong[index % 6]}",
                                  timeout=calibrated(10))[0]
                   for index in range(200)]
        for thread in spectators:
            thread.join()
        assert answers.count(422) == 0 and set(answers) == {200}, sorted(set(answers))
        assert "WORKER TIMEOUT" not in server.log.read_text()
