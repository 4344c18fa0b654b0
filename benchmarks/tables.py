"""Hosted tables under load, against the stateless sealed move measured in the same run.

Run: ``.venv/bin/python benchmarks/tables.py [seconds]`` (also run by ``make bench``). It starts
its own ``redis-server`` and gunicorn servers as ``thirtyone serve`` runs them (gevent workers,
2 of them unless said otherwise), then measures:

- throughput with wrk (16 connections, one table each, ``benchmarks/table_moves.lua``): a table
  move over HTTP with SQLite and with Redis, against ``POST /v1/games/moves`` with a sealed
  token on the same server. Target: a table move >= 70% of the sealed move's requests/s;
- push latency at 200 concurrent tables (two human seats each, a stream open for each seat,
  each table moving about once a second): from the moment the mover has the answer to the
  moment the other seat's stream has the version. Targets: p99 <= 50 ms with Redis, <= 250 ms
  with SQLite;
- 1,000 open streams on one worker: its resident memory. Target: <= 200 MB;
- ``/healthz`` p99 with wrk while 50 sockets hold half-sent requests. Target: <= 50 ms.

Prints PASS or FAIL for each target; exit status 1 when one fails.
"""

from gevent import monkey

monkey.patch_all()

import http.client  # noqa: E402 - after gevent's patching, as gevent requires
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from contextlib import closing  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CONNECTIONS = 16
ROUNDS = 3
PUSH_TABLES = 200
OPEN_STREAMS = 1000
HALF_OPEN = 50
TARGETS = {"move_ratio": 0.70, "push_redis_ms": 50.0, "push_sqlite_ms": 250.0,
           "streams_rss_mb": 200.0, "healthz_p99_ms": 50.0}


def free_port():
    with closing(socket.socket()) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_port(port, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with closing(socket.socket()) as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on port {port}")


class Server:
    def __init__(self, store, folder, workers=2):
        self.port = free_port()
        env = {**os.environ, "THIRTYONE_STORE": store, "THIRTYONE_SECRET_KEY": "benchmark",
               "THIRTYONE_SITE_DIR": str(Path(folder) / "no-site")}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "python:thirtyone.web.serving",
             "--bind", f"127.0.0.1:{self.port}", "--workers", str(workers),
             "--graceful-timeout", "1", "--log-level", "warning", "thirtyone.web:create_app()"],
            env=env, start_new_session=True,
        )
        wait_port(self.port)
        self.url = f"http://127.0.0.1:{self.port}"

    def worker_rss_mb(self):
        out = subprocess.run(["ps", "-o", "rss=", "--ppid", str(self.process.pid)],
                             capture_output=True, text=True).stdout.split()
        return max(int(value) for value in out) / 1024

    def stop(self):
        os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(timeout=30)


class Client:
    """One keep-alive connection."""

    def __init__(self, port):
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, method, path, body=None, key=None):
        headers = {"Content-Type": "application/json"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        self.connection.request(method, path, None if body is None else json.dumps(body),
                                headers)
        response = self.connection.getresponse()
        return response.status, json.loads(response.read())


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def wrk(url, seconds, script=None, connections=CONNECTIONS, threads=None):
    """requests/s, p50 ms, p99 ms and non-2xx answers, from wrk's report."""
    command = ["wrk", f"-t{threads or connections}", f"-c{connections}", f"-d{seconds}s",
               "--latency"]
    if script:
        command += ["-s", str(script)]
    out = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout

    def ms(text):
        value, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", text).groups()
        return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]

    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = ms(re.search(r"^\s+50%\s+(\S+)", out, re.M).group(1))
    p99 = ms(re.search(r"^\s+99%\s+(\S+)", out, re.M).group(1))
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    return rps, p50, p99, int(bad.group(1)) if bad else 0


def sealed_move_script(server, folder):
    """A wrk script replaying one legal sealed move (the server keeps nothing, so every
    request does the whole unseal-check-move-seal work)."""
    _, game = Client(server.port).call(
        "POST", "/v1/games", {"variant": "scat", "players": 2, "seed": "bench", "dealer": 0})
    seat = game["to_move"]
    body = {"token": game["token"], "seat": seat, "seat_key": game["seat_keys"][seat],
            "move": {"type": "draw", "source": "stock"}}
    script = Path(folder) / "sealed.lua"
    script.write_text('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                      f"wrk.body = {json.dumps(json.dumps(body))}\n")
    return script


def throughput(servers, folder, seconds):
    sqlite, redis_server = servers
    sealed = sealed_move_script(sqlite, folder)
    moves = ROOT / "benchmarks" / "table_moves.lua"
    runs = {
        "sealed": (f"{sqlite.url}/v1/games/moves", sealed),
        "sqlite": (sqlite.url, moves),
        "redis": (redis_server.url, moves),
    }
    for url, script in runs.values():  # warm up: imports, hand tables, connections
        wrk(url, 1, script)
    results = {name: [] for name in runs}
    for _ in range(ROUNDS):  # taking turns, so the machine's other work weighs on each alike
        for name, (url, script) in runs.items():
            results[name].append(wrk(url, seconds, script))
    summary = {}
    for name, rounds in results.items():
        summary[name] = (sum(r[0] for r in rounds) / ROUNDS, sum(r[1] for r in rounds) / ROUNDS,
                         max(r[2] for r in rounds), sum(r[3] for r in rounds))
    return summary


def read_stream(port, table, key, seen, opened):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    connection.request("GET", f"/v1/tables/{table}/events?key={key}")
    response = connection.getresponse()
    opened.append(1)
    try:
        for raw in iter(response.readline, b""):
            if raw.startswith(b"id: "):
                seen[(table, key, int(raw[4:]))] = time.perf_counter()
    except (OSError, http.client.HTTPException, ValueError, AttributeError):
        pass


def open_two_seats(client):
    """A two-seat table with both seats' keys: the creator's, and the invited seat's claim
    (which deals); the claim's answer stands for the table."""
    _, created = client.call("POST", "/v1/tables", {"variant": "scat", "players": 2})
    invited = created["seats"][1]
    _, claimed = client.call("POST", f"/v1/tables/{created['table']}/seats/1",
                             {"invitation": invited["invitation"], "name": "B"})
    return created["table"], [created["seats"][0]["key"], claimed.pop("key")], claimed


def push_latency(server, seconds):
    """Latency (ms) from a move's answer to the other seat's stream, at 200 tables."""
    setup = Client(server.port)
    tables = []
    for _ in range(PUSH_TABLES):
        tables.append(open_two_seats(setup))
    seen, opened, answered = {}, [], []
    readers = [gevent.spawn(read_stream, server.port, table, key, seen, opened)
               for table, keys, _ in tables for key in keys]
    while len(opened) < len(readers):
        gevent.sleep(0.05)
    stop = time.monotonic() + seconds

    def play(table, keys, answer):
        client = Client(server.port)
        rng = random.Random(table)
        gevent.sleep(rng.random())
        while time.monotonic() < stop and not answer["is_over"]:
            to_move = answer["to_move"]
            if to_move is None:
                seat, move = 0, {"type": "next_round"}
            else:
                # The seat that just drew discards; any other turn begins with a draw.
                seat = to_move
                move = next((m for m in answer["legal_moves"] if m["type"] == "discard"),
                            {"type": "draw", "source": "stock"})
            status, answer = client.call("POST", f"/v1/tables/{table}/moves",
                                         {"move": move, "version": answer["version"]}, keys[seat])
            assert status == 200, answer
            answered.append((table, keys[1 - seat], answer["version"], time.perf_counter()))
            gevent.sleep(0.5 + rng.random())

    gevent.joinall([gevent.spawn(play, *table) for table in tables])
    gevent.sleep(1.0)
    latencies = [max(0.0, seen[(table, key, version)] - at) * 1000
                 for table, key, version, at in answered if (table, key, version) in seen]
    missing = len(answered) - len(latencies)
    gevent.killall(readers, block=False)
    return latencies, missing


def open_streams(server):
    """RSS (MB) of one worker holding 1,000 open streams, and how many were opened."""
    setup = Client(server.port)
    tables = []
    for _ in range(OPEN_STREAMS // 10):
        tables.append(open_two_seats(setup)[:2])
    before = server.worker_rss_mb()
    seen, opened = {}, []
    readers = [gevent.spawn(read_stream, server.port, table, keys[index % 2], seen, opened)
               for table, keys in tables for index in range(10)]
    deadline = time.monotonic() + 60
    while len(opened) < len(readers) and time.monotonic() < deadline:
        gevent.sleep(0.1)
    gevent.sleep(1.0)
    rss = server.worker_rss_mb()
    _, health = Client(server.port).call("GET", "/healthz")
    gevent.killall(readers, block=False)
    return before, rss, len(opened), health["status"]


def healthz_with_half_open(server, seconds):
    quiet = wrk(f"{server.url}/healthz", seconds, connections=4, threads=2)
    held = []
    for _ in range(HALF_OPEN):
        sock = socket.create_connection(("127.0.0.1", server.port))
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: bench\r\n")
        held.append(sock)
    try:
        loaded = wrk(f"{server.url}/healthz", seconds, connections=4, threads=2)
    finally:
        for sock in held:
            sock.close()
    return quiet, loaded


def main():
    seconds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    if shutil.which("wrk") is None or shutil.which("redis-server") is None:
        sys.exit("wrk and redis-server are needed: apt-get install wrk redis-server")
    folder = tempfile.mkdtemp(prefix="thirtyone-bench-")
    redis_port = free_port()
    redis_process = subprocess.Popen(
        ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", folder], stdout=subprocess.DEVNULL)
    wait_port(redis_port)
    started = []
    try:
        sqlite = Server(f"sqlite:///{folder}/tables.sqlite3", folder)
        started.append(sqlite)
        redis_server = Server(f"redis://127.0.0.1:{redis_port}/0", folder)
        started.append(redis_server)
        checks = []

        def check(name, ok, figure):
            checks.append(ok)
            print(f"{'PASS' if ok else 'FAIL'}  {name}: {figure}", flush=True)

        print(f"gunicorn gevent, 2 workers; wrk {CONNECTIONS} connections, {ROUNDS} rounds of "
              f"{seconds}s per endpoint", flush=True)
        summary = throughput((sqlite, redis_server), folder, seconds)
        print(f"{'endpoint':<40}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'non-2xx':>9}")
        names = {"sealed": "POST /v1/games/moves (sealed, baseline)",
                 "sqlite": "POST /v1/tables/{t}/moves, SQLite",
                 "redis": "POST /v1/tables/{t}/moves, Redis"}
        for name, (rps, p50, p99, bad) in summary.items():
            print(f"{names[name]:<40}{rps:>9.0f}{p50:>9.2f}{p99:>9.2f}{bad:>9}")
        base = summary["sealed"][0]
        for name in ("sqlite", "redis"):
            ratio = summary[name][0] / base
            check(f"table move ({name}) >= 70% of the sealed move's throughput",
                  ratio >= TARGETS["move_ratio"], f"{ratio:.0%}")
        check("no non-2xx answers", sum(s[3] for s in summary.values()) == 0,
              str(sum(s[3] for s in summary.values())))

        for name, server, target in (("redis", redis_server, TARGETS["push_redis_ms"]),
                                     ("sqlite", sqlite, TARGETS["push_sqlite_ms"])):
            latencies, missing = push_latency(server, 2 * seconds)
            p50, p99 = percentile(latencies, 0.5), percentile(latencies, 0.99)
            check(f"push latency at {PUSH_TABLES} tables, {name}: p99 <= {target:.0f} ms",
                  p99 <= target and missing == 0,
                  f"p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {max(latencies):.1f} ms over "
                  f"{len(latencies)} pushes, {missing} missing")
        one = Server(f"sqlite:///{folder}/streams.sqlite3", folder, workers=1)
        started.append(one)
        before, rss, opened, health = open_streams(one)
        check(f"{OPEN_STREAMS} open streams on one worker: RSS <= 200 MB",
              rss <= TARGETS["streams_rss_mb"] and opened == OPEN_STREAMS and health == "ok",
              f"{rss:.1f} MB ({before:.1f} MB before), {opened} streams open, /healthz {health}")
        quiet, loaded = healthz_with_half_open(sqlite, seconds)
        check(f"/healthz p99 <= 50 ms with {HALF_OPEN} half-open sockets",
              loaded[2] <= TARGETS["healthz_p99_ms"] and loaded[3] == 0,
              f"p50 {loaded[1]:.2f} ms, p99 {loaded[2]:.2f} ms, {loaded[0]:.0f} req/s "
              f"(without them: p99 {quiet[2]:.2f} ms, {quiet[0]:.0f} req/s)")
    finally:
        for server in started:
            server.stop()
        redis_process.terminate()
        redis_process.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)
    sys.exit(0 if all(checks) else 1)


if __name__ == "__main__":
    main()
