"""Hosted tables under load, against the stateless sealed move measured in the same run.

Run: ``.venv/bin/python benchmarks/tables.py [seconds] [--moves] [--streams] [--store]
[--growth] [--finished [--archive URL]]`` (also run by ``make bench``): the parts named, or all
of them. It starts its own ``redis-server`` and gunicorn servers as ``thirtyone serve`` runs
them (gevent workers, 2 of them unless said otherwise), then measures:

- throughput (``--moves``) with wrk (16 connections, one table each,
  ``benchmarks/table_moves.lua``): a table move over HTTP with SQLite and with Redis, against
  ``POST /v1/games/moves`` with a sealed token on the same server. Target: a table move >= 70%
  of the sealed move's requests/s. With it, the app's CPU per request (the workers' user and
  system time over the runs, divided by the requests): a table move without bots (targets <= 3
  ms), a spectator's read of a table at a seat's turn (<= 1 ms, and <= 1.2x a bare read of a
  table whose match is over: a read does no engine work), and Redis's CPU per table move (<=
  0.2 ms), with what makes it: the round trips (from MONITOR, in a run of their own), the bytes
  in and out, each command's calls per move and the time Redis spent in it, and the share of
  Redis's CPU that runs commands (the rest serves the round trips);
- (``--streams``) push latency at 200 concurrent tables (two human seats each, a stream open
  for each seat, each table moving about once a second): from the moment the mover has the
  answer to the moment the other seat's stream has the version. Targets: p99 <= 50 ms with
  Redis, <= 250 ms with SQLite;
- 1,000 open streams on one worker: its resident memory. Target: <= 200 MB;
- ``/healthz`` p99 with wrk while 50 sockets hold half-sent requests. Target: <= 50 ms.

And idle streams (``--idle-streams N`` runs these alone, N = 1,000 by default): N streams open on
one worker (ten to a table, opened a hundred at a time) with nothing happening, over two
keep-alive periods (30 s): the worker's CPU as a % of a core, with SQLite and with Redis (and
Redis's own CPU). Target: <= 0.5% of a core per 1,000 streams.

And the distributed store (``--store``), on a Redis Cluster of six nodes
(``deploy/redis/cluster-node.conf``: three primaries, three replicas) started here too:

- a table move on the cluster against the same on one Redis (same wrk script). Target: >= 90%
  of one Redis's requests/s; Redis CPU per move is reported (all nodes of the cluster);
- push latency at 200 tables on the cluster. Target: p99 <= 50 ms;
- a stream resumed one version behind on a table at version 20,000 against the same resume at
  version 20 (median of 30, from the request to the first event). Target: at most 2x.

And growth (``--growth``, in this process, as CPU time of its thread, which the machine's
other load inflates less than wall time):

- the work each stream of a table with 500 watchers (half Russian, half English) costs per new
  version, the event shared by :mod:`thirtyone.web.tables.fanout` against each stream
  building its own. Target: <= 0.05 ms per watcher;
- ``GET /v1/tables`` (the whole request) with 100,000 live tables, 20 of them listed, on
  SQLite and on Redis. Target: <= 5 ms.

And what a finished match costs (``--finished``, in this process, against the run's Redis;
``--archive URL`` names the archive, a SQLite file by default):

- bytes per finished table in the live store, once archived: at the end (its log and
  snapshots stay 30 s for the streams behind) and after (target < 4 KB), against the same
  table kept whole when no shared archive is configured;
- the archive's write cost per match: its record built (a replay of the match) and written,
  median and p90 over the matches.

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
from contextlib import closing, suppress  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CONNECTIONS = 16
ROUNDS = 3
PUSH_TABLES = 200
OPEN_STREAMS = 1000
HALF_OPEN = 50
TARGETS = {"move_ratio": 0.70, "push_redis_ms": 50.0, "push_sqlite_ms": 250.0,
           "streams_rss_mb": 200.0, "healthz_p99_ms": 50.0, "cluster_ratio": 0.90,
           "push_cluster_ms": 50.0, "resume_ratio": 2.0, "move_cpu_ms": 3.0,
           "read_cpu_ms": 1.0, "read_ratio": 1.2, "redis_cpu_ms": 0.2,
           "idle_core_percent": 0.5}
KEEPALIVE_SECONDS = 15.0
IDLE_WAVE = 100
LONG_TABLE = 20_000
SHORT_TABLE = 20
RESUMES = 30


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


# One address plays every seat here: the per-client limits are raised out of reach, and still
# counted, so their cost is measured.
UNLIMITED = {name: "1000000 per second" for name in (
    "THIRTYONE_LIMIT_TABLES", "THIRTYONE_LIMIT_MOVES", "THIRTYONE_LIMIT_STREAMS",
    "THIRTYONE_LIMIT_SEATS", "THIRTYONE_LIMIT_READS")}
UNLIMITED["THIRTYONE_OPEN_TABLES"] = "1000000"
# Every stream here comes from one address too: its cap per worker (32) would refuse them.
UNLIMITED["THIRTYONE_STREAMS_PER_CLIENT"] = "1000000"


class Server:
    def __init__(self, store, folder, workers=2):
        self.port = free_port()
        env = {**os.environ, "THIRTYONE_STORE": store, "THIRTYONE_SECRET_KEY": "benchmark",
               "THIRTYONE_SITE_DIR": str(Path(folder) / "no-site"), **UNLIMITED}
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

    def cpu_seconds(self):
        """CPU seconds (user + system) the workers have used (from /proc, 10 ms steps)."""
        pids = subprocess.run(["ps", "-o", "pid=", "--ppid", str(self.process.pid)],
                              capture_output=True, text=True).stdout.split()
        ticks = 0
        for pid in pids:
            with suppress(OSError):
                fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
                ticks += int(fields[11]) + int(fields[12])
        return ticks / os.sysconf("SC_CLK_TCK")

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


def redis_calls(port):
    """Redis's count of each command (those its scripts call included) with the time it
    spent in them (µs; a script's time includes its own calls'), and the bytes it received
    and sent."""
    import redis

    client = redis.Redis(port=port)
    stats = client.info("stats")
    calls = {name.removeprefix("cmdstat_"): (value["calls"], value["usec"])
             for name, value in client.info("commandstats").items()}
    return calls, stats["total_net_input_bytes"], stats["total_net_output_bytes"]


def redis_round_trips(url, port, seconds):
    """The commands that clients sent Redis (each a round trip, pipelines aside: the
    limiter's hit counts once; not those its scripts ran) per table move of a wrk run, by
    command (a script by the key it names first: the limiter's counts or a table), from
    MONITOR: a run of its own, since MONITOR costs Redis CPU; and the commands sent (each
    one, pipelined or not, scripts by their name ``evalsha``) per move."""
    import redis

    marker = f"round-trips-{random.random()}"
    trips: dict[str, int] = {}
    sent: dict[str, int] = {}
    with closing(redis.Redis(port=port, socket_timeout=60)) as watcher, \
            watcher.monitor() as monitor:
        rps = wrk(url, seconds, ROOT / "benchmarks" / "table_moves.lua")[0]
        redis.Redis(port=port).echo(marker)
        while marker not in (command := monitor.next_command())["command"]:
            if command["client_type"] != "lua":
                words = command["command"].split()
                name = words[0].lower()
                sent[name] = sent.get(name, 0) + 1
                if name == "evalsha":
                    name = "limits script" if "LIMITS:" in words[3] else "table script"
                elif "LIMITS:" in command["command"]:
                    if name != "incrby":
                        continue  # the hit's EXPIRE and TTL go in its INCRBY's pipeline
                    name = "limits hit"
                trips[name] = trips.get(name, 0) + 1
    moves = rps * seconds
    return ({name: count / moves for name, count in trips.items()},
            {name: count / moves for name, count in sent.items()})


def throughput(servers, folder, seconds, redis_port):
    """Per run: requests/s, p50 and p99 ms and non-2xx answers (averaged over the rounds, p99
    the worst), then the app's CPU ms per request (the server's workers, all rounds) and
    Redis's (the Redis run only); and, per request of the Redis run, each Redis command's
    calls and the bytes in and out (``summary["redis_calls"]``)."""
    sqlite, redis_server = servers
    sealed = sealed_move_script(sqlite, folder)
    moves = ROOT / "benchmarks" / "table_moves.lua"
    read = Client(sqlite.port).call("POST", "/v1/tables", {"variant": "scat", "players": 2,
                                                           "bots": {"1": "greedy"}})[1]
    finished = finished_table(sqlite)
    runs = {
        "sealed": (sqlite, f"{sqlite.url}/v1/games/moves", sealed),
        "sqlite": (sqlite, sqlite.url, moves),
        "redis": (redis_server, redis_server.url, moves),
        "read": (sqlite, f"{sqlite.url}/v1/tables/{read['table']}", None),
        "finished": (sqlite, f"{sqlite.url}/v1/tables/{finished}", None),
    }
    for _, url, script in runs.values():  # warm up: imports, hand tables, connections
        wrk(url, 1, script)
    results = {name: [] for name in runs}
    cpu = {name: 0.0 for name in runs}
    redis_spent = 0.0
    calls: dict[str, tuple[int, int]] = {}
    traffic = [0, 0]
    for _ in range(ROUNDS):  # taking turns, so the machine's other work weighs on each alike
        for name, (server, url, script) in runs.items():
            before, redis_before = server.cpu_seconds(), redis_cpu([redis_port])
            counted = redis_calls(redis_port)
            results[name].append(wrk(url, seconds, script))
            cpu[name] += server.cpu_seconds() - before
            if name == "redis":
                redis_spent += redis_cpu([redis_port]) - redis_before
                after = redis_calls(redis_port)
                for command, (count, usec) in after[0].items():
                    known, spent = calls.get(command, (0, 0))
                    was, took = counted[0].get(command, (0, 0))
                    calls[command] = (known + count - was, spent + usec - took)
                traffic[0] += after[1] - counted[1]
                traffic[1] += after[2] - counted[2]
    summary = {}
    for name, rounds in results.items():
        requests = sum(r[0] for r in rounds) * seconds
        summary[name] = (sum(r[0] for r in rounds) / ROUNDS, sum(r[1] for r in rounds) / ROUNDS,
                         max(r[2] for r in rounds), sum(r[3] for r in rounds),
                         1000 * cpu[name] / requests,
                         1000 * redis_spent / requests if name == "redis" else None)
    moves = sum(r[0] for r in results["redis"]) * seconds
    summary["redis_calls"] = ({command: (count / moves, usec / moves)
                               for command, (count, usec) in calls.items()
                               if count / moves >= 0.05},
                              traffic[0] / moves, traffic[1] / moves,
                              redis_round_trips(redis_server.url, redis_port, seconds))
    return summary


def finished_table(server):
    """A table whose match is over: two greedy bots play a one-life scat to its end on the
    server's scheduler, off the request path."""
    client = Client(server.port)
    _, created = client.call("POST", "/v1/tables", {
        "variant": "scat", "players": 2, "seat": None, "options": {"lives": 1},
        "bots": {"0": "greedy", "1": "greedy"}})
    deadline = time.monotonic() + 120
    while not client.call("GET", f"/v1/tables/{created['table']}")[1]["is_over"]:
        assert time.monotonic() < deadline, "the bots' match did not end"
        gevent.sleep(0.2)
    return created["table"]


def read_stream(port, table, key, seen, opened):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    connection.request("GET", f"/v1/tables/{table}/events?key={key}")
    response = connection.getresponse()
    # Its status: a stream refused (a cap) is no open stream, and the run says so.
    opened.append(response.status)
    if response.status != 200:
        return
    try:
        for raw in iter(response.readline, b""):
            if raw.startswith(b"id: "):
                # The id is the cursor EPOCH.VERSION.DIGEST.
                seen[(table, key, int(raw[4:].split(b".")[1]))] = time.perf_counter()
    except (OSError, http.client.HTTPException, ValueError, AttributeError):
        pass


def open_two_seats(client):
    """A two-seat table with both seats' keys: the creator's, and the invited seat's claim
    (which deals); the claim's answer stands for the table."""
    _, created = client.call("POST", "/v1/tables", {"variant": "scat", "players": 2})
    invited = created["seats"][1]
    _, claimed = client.call("POST", f"/v1/tables/{created['table']}/seats/1",
                             {"invitation": invited["invitation"], "name": "B"})
    assert "key" in claimed, claimed
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
    return before, rss, opened.count(200), health["status"]


def idle_streams(server, count, redis_port=None):
    """The % of a core one worker uses while ``count`` streams stay open and idle on it, over
    two keep-alive periods (and the same of Redis, when given); the streams that opened."""
    setup = Client(server.port)
    tables = [open_two_seats(setup)[:2] for _ in range(max(1, count // 10))]
    seen, opened, readers = {}, [], []
    deadline = time.monotonic() + 120
    # Opened in waves of IDLE_WAVE, each answered before the next: a thousand opened at once
    # on a busy machine waited out the Redis pool (2 s) and some were refused; what is
    # measured here is what they cost once open.
    for table, keys in tables:
        readers += [gevent.spawn(read_stream, server.port, table, keys[index % 2], seen, opened)
                    for index in range(count // len(tables))]
        while len(opened) < len(readers) - IDLE_WAVE and time.monotonic() < deadline:
            gevent.sleep(0.05)
    while len(opened) < len(readers) and time.monotonic() < deadline:
        gevent.sleep(0.1)
    # Past the openings' own work (a presence write and a read each).
    gevent.sleep(2.0)
    began, cpu = time.monotonic(), server.cpu_seconds()
    store_cpu = redis_cpu([redis_port]) if redis_port else 0.0
    gevent.sleep(2 * KEEPALIVE_SECONDS)
    wall = time.monotonic() - began
    worker = 100 * (server.cpu_seconds() - cpu) / wall
    store = 100 * (redis_cpu([redis_port]) - store_cpu) / wall if redis_port else None
    gevent.killall(readers, block=False)
    return worker, store, opened.count(200)


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


NOT_PERSISTED = ("--save", "", "--appendonly", "no")
"""A redis-server's options that keep nothing on disk (a benchmark's store)."""


def redis_node(folder, port, *extra):
    """A redis-server of ours (stopped by the caller), on deploy/'s cluster node settings when
    ``extra`` says ``cluster``."""
    node_dir = Path(folder) / f"redis-{port}"
    node_dir.mkdir()
    process = subprocess.Popen(["redis-server", *extra, "--port", str(port), "--bind",
                                "127.0.0.1", "--dir", str(node_dir)], stdout=subprocess.DEVNULL)
    wait_port(port)
    return process


def redis_cpu(ports):
    """CPU seconds (user + system) the Redis processes on ``ports`` have used."""
    import redis

    total = 0.0
    for port in ports:
        info = redis.Redis(port=port).info("cpu")
        total += info["used_cpu_user"] + info["used_cpu_sys"]
    return total


def start_cluster(folder):
    ports = []
    while len(ports) < 6:
        port = free_port()
        if port + 10000 < 65536 and port not in ports:
            ports.append(port)
    config = str(ROOT / "deploy" / "redis" / "cluster-node.conf")
    processes = [redis_node(folder, port, config) for port in ports]
    subprocess.run(["redis-cli", "--cluster", "create",
                    *[f"127.0.0.1:{port}" for port in ports], "--cluster-replicas", "1",
                    "--cluster-yes"], check=True, capture_output=True)
    import redis

    deadline = time.monotonic() + 30
    def forming():
        infos = [redis.Redis(port=port).info("replication") for port in ports]
        return (any(redis.Redis(port=port).cluster("info")["cluster_state"] != "ok"
                    for port in ports)
                or any(info["connected_slaves"] < 1
                       for info in infos if info["role"] == "master"))

    while forming():
        if time.monotonic() > deadline:
            raise TimeoutError("the cluster did not form")
        gevent.sleep(0.2)
    return processes, ports


def moves_throughput(servers, seconds):
    """wrk's table moves on each server in turn; (req/s, p50, p99, non-2xx, Redis CPU s/move)."""
    moves = ROOT / "benchmarks" / "table_moves.lua"
    for server, _ in servers.values():
        wrk(server.url, 1, moves)
    results = {name: [] for name in servers}
    for _ in range(ROUNDS):
        for name, (server, ports) in servers.items():
            cpu = redis_cpu(ports)
            rps, p50, p99, bad = wrk(server.url, seconds, moves)
            results[name].append((rps, p50, p99, bad, (redis_cpu(ports) - cpu) / (rps * seconds)))
    return {name: tuple(sum(r[i] for r in rounds) / ROUNDS for i in range(5))
            for name, rounds in results.items()}


def lowest_move(state):
    """Draw from the stock and discard so as to keep the lowest hand: nobody ever reaches 31 or
    knocks, and a round whose stock runs out is void, so the match never ends."""
    from thirtyone.game import legal_moves
    from thirtyone.hands import score_hand

    if state.to_move is None:
        return {"type": "next_round"}
    discards = [move for move in legal_moves(state) if move["type"] == "discard"]
    if not discards:
        return {"type": "draw", "source": "stock", "seat": state.to_move}
    hand = [str(card.code) for card in state.hands[state.to_move]]

    def kept(move):
        rest = list(hand)
        rest.remove(move["card"])
        return score_hand(rest, state.rules.variant).points

    return {**min(discards, key=kept), "seat": state.to_move}


def long_table(redis_url, versions):
    """A table played to ``versions`` by :func:`lowest_move`, in this process through the
    ledger (a table that long over HTTP would take minutes)."""
    from thirtyone.web import create_app
    from thirtyone.web.tables import ledger
    from thirtyone.web.tables.playing import play

    app = create_app({"TESTING": True, "THIRTYONE_SECRET_KEY": "benchmark", "SITE_DIR": None,
                      "THIRTYONE_STORE": redis_url})
    created = app.test_client().post("/v1/tables", json={"variant": "scat", "players": 2}).json
    table = created["table"]
    with app.app_context():
        record = ledger.load_table(table)
        state = ledger.table_state(record)
        while record.version < versions:
            moves = []
            state, events = play(state, lowest_move(state), moves)
            version = ledger.commit(record, record.version, moves, state, events).version
            record = app.extensions["thirtyone.tables"].load(table)
            assert record.version == version
    return table, {seat["seat"]: seat["key"] for seat in created["seats"]}, record.version


def resume_ms(server, table, key, version):
    """Median ms from a stream's request, resumed one version behind, to its first event."""
    times = []
    for _ in range(RESUMES):
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        started = time.perf_counter()
        connection.request("GET", f"/v1/tables/{table}/events?key={key}",
                           headers={"Last-Event-ID": str(version - 1)})
        response = connection.getresponse()
        for raw in iter(response.readline, b""):
            if raw.startswith(b"data: "):
                break
        times.append((time.perf_counter() - started) * 1000)
        connection.close()
    return percentile(times, 0.5)


def store_benchmarks(seconds, folder, check, started):
    single_port = free_port()
    nodes = [redis_node(folder, single_port, str(ROOT / "deploy" / "redis" / "primary.conf"),
                        "--min-replicas-to-write", "0")]
    cluster, ports = start_cluster(folder)
    nodes += cluster
    try:
        single = Server(f"redis://127.0.0.1:{single_port}/0", folder)
        started.append(single)
        clustered = Server("redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in ports[:3]),
                           folder)
        started.append(clustered)
        summary = moves_throughput({"one Redis": (single, [single_port]),
                                    "Redis Cluster": (clustered, ports)}, seconds)
        print(f"{'store':<40}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'non-2xx':>9}"
              f"{'Redis CPU/move':>16}")
        for name, (rps, p50, p99, bad, cpu) in summary.items():
            print(f"{'POST /v1/tables/{t}/moves, ' + name:<40}{rps:>9.0f}{p50:>9.2f}"
                  f"{p99:>9.2f}{bad:>9.0f}{cpu * 1e6:>13.0f} us")
        ratio = summary["Redis Cluster"][0] / summary["one Redis"][0]
        check("table move on a 3-primary cluster >= 90% of one Redis's throughput",
              ratio >= TARGETS["cluster_ratio"], f"{ratio:.0%}")
        latencies, missing = push_latency(clustered, 2 * seconds)
        p50, p99 = percentile(latencies, 0.5), percentile(latencies, 0.99)
        check(f"push latency at {PUSH_TABLES} tables, Redis Cluster: p99 <= "
              f"{TARGETS['push_cluster_ms']:.0f} ms",
              p99 <= TARGETS["push_cluster_ms"] and missing == 0,
              f"p50 {p50:.1f} ms, p99 {p99:.1f} ms over {len(latencies)} pushes, "
              f"{missing} missing")
        url = f"redis://127.0.0.1:{single_port}/0"
        short = long_table(url, SHORT_TABLE)
        built = time.perf_counter()
        long = long_table(url, LONG_TABLE)
        print(f"(a table played to version {long[2]} in {time.perf_counter() - built:.1f} s)")
        short_ms = resume_ms(single, short[0], short[1][0], short[2])
        long_ms = resume_ms(single, long[0], long[1][0], long[2])
        ratio = long_ms / short_ms
        check(f"a resume one version behind at version {LONG_TABLE:,} <= 2x the same at "
              f"version {SHORT_TABLE}", ratio <= TARGETS["resume_ratio"],
              f"{long_ms:.2f} ms against {short_ms:.2f} ms: {ratio:.2f}x")
    finally:
        for node in nodes:
            node.terminate()
            node.wait(timeout=10)


FINISHED_MATCHES = 20


def _table_bytes(client, table, without=()):
    keys = [key for key in client.scan_iter(f"thirtyone:{{{table}}}*")
            if not key.decode().endswith(without)]
    return sum(client.memory_usage(key, samples=0) or 0 for key in keys)


def finished_tables(redis_port, folder, archive_url, check):
    """Bytes per finished table in Redis and the archive's write cost per match."""
    import uuid

    import redis as redis_client
    from prometheus_client import REGISTRY

    from thirtyone.web import create_app

    live = redis_client.Redis(port=redis_port)
    figures = {}
    sizes: list[int] = []
    for shared in (True, False):
        app = create_app({"TESTING": True, "THIRTYONE_SECRET_KEY": "bench", "SITE_DIR": None,
                          "THIRTYONE_STORE": f"redis://127.0.0.1:{redis_port}/0",
                          "THIRTYONE_ARCHIVE": archive_url if shared else None,
                          **{name: "1000000 per minute" for name in (
                              "THIRTYONE_LIMIT_TABLES", "THIRTYONE_LIMIT_MOVES")}})
        app.extensions["thirtyone.archive"].migrate()
        client = app.test_client()
        ends, afters, versions, costs = [], [], [], []
        sizes = [] if shared else sizes
        for _ in range(FINISHED_MATCHES):
            created = client.post("/v1/tables", json={
                "variant": "scat", "players": 2, "options": {"lives": 3, "free_ride": False}}
            ).json
            table = created["table"]
            keys = {0: created["seats"][0]["key"]}
            invitation = created["seats"][1]["invitation"]
            keys[1] = client.post(f"/v1/tables/{table}/seats/1",
                                  json={"invitation": invitation, "name": "B"}).json["key"]
            answer = {"is_over": False}
            while not answer["is_over"]:
                public = client.get(f"/v1/tables/{table}").json
                seat = public["to_move"] if public["to_move"] is not None else 0
                mine = client.get(f"/v1/tables/{table}",
                                  headers={"Authorization": f"Bearer {keys[seat]}"}).json
                moves = mine["legal_moves"]
                knocks = [move for move in moves if move["type"] == "knock"]
                move = knocks[0] if knocks and mine["view"]["turns"] >= 4 else moves[0]
                before = REGISTRY.get_sample_value("thirtyone_archive_write_seconds_sum") or 0
                answer = client.post(
                    f"/v1/tables/{table}/moves", json={"move": move, "version": mine["version"]},
                    headers={"Authorization": f"Bearer {keys[seat]}",
                             "Idempotency-Key": str(uuid.uuid4())}).json
            costs.append((REGISTRY.get_sample_value("thirtyone_archive_write_seconds_sum")
                          or 0) - before)
            versions.append(answer["version"])
            if shared:
                sizes.append(len(client.get(f"/v1/tables/{table}/record").data))
            ends.append(_table_bytes(live, table))
            afters.append(_table_bytes(live, table, (":log", ":snapshots")))
        figures[shared] = (ends, afters, versions, costs)
    ends, afters, versions, costs = figures[True]
    whole = figures[False][0]
    mean = sum(afters) / len(afters)
    print(f"{FINISHED_MATCHES} matches of scat (3 lives), {sum(versions) / len(versions):.0f} "
          f"versions on average; archive {archive_url.split(':')[0]}", flush=True)
    print(f"finished table in Redis: {sum(ends) / len(ends):.0f} B at the end (log and "
          f"snapshots for 30 s), {mean:.0f} B after (max {max(afters)}); kept whole without "
          f"a shared archive: {sum(whole) / len(whole):.0f} B", flush=True)
    costs.sort()
    median, p90 = costs[len(costs) // 2], costs[int(len(costs) * 0.9)]
    print(f"archive write per match (record built and written): median {median * 1000:.1f} "
          f"ms, p90 {p90 * 1000:.1f} ms; a record is {sum(sizes) / len(sizes):.0f} B",
          flush=True)
    check("bytes per finished table in the live store < 4 KB", mean < 4096,
          f"{mean:.0f} B (max {max(afters)})")


WATCHERS = 500
WATCHER_ROUNDS = 5
LIVE_TABLES = 100_000
LOBBY_PAGE = 20
GROWTH_TARGETS = {"watcher_ms": 0.05, "lobby_ms": 5.0}


def _app(store_url, **config):
    from thirtyone.web import create_app

    return create_app({"TESTING": True, "THIRTYONE_SECRET_KEY": "bench", "SITE_DIR": None,
                       "THIRTYONE_STORE": store_url, **config})


def push_per_watcher(folder, watchers=WATCHERS):
    """The work (ms of this thread's CPU, which the machine's other load does not inflate)
    each of ``watchers`` spectators' streams of one table (half asking in
    Russian, half in English) costs per new version: the event each stream sends as
    :mod:`thirtyone.web.tables.fanout` shares it, against each stream building its own answer
    (the view, the events in its language, the JSON), as before it, in the same run,
    interleaved (best of the rounds); in this process, each stream holding its own record of
    the table as streams do from one version to the next."""
    from thirtyone.web.jsonio import dumps
    from thirtyone.web.tables import fanout
    from thirtyone.web.tables.answers import table_answer
    from thirtyone.web.tables.ledger import load_table, table_state

    app = _app(f"sqlite:///{folder}/fanout.sqlite3")
    client = app.test_client()
    opened = client.post("/v1/tables", json={"variant": "scat", "players": 2,
                                             "bots": {"1": "greedy"}}).json
    key = next(seat["key"] for seat in opened["seats"] if seat["key"])
    headers = {"Authorization": f"Bearer {key}"}
    mine = client.get(f"/v1/tables/{opened['table']}", headers=headers).json
    move = {name: value for name, value in mine["legal_moves"][0].items()
            if name != "description"}
    moved = client.post(f"/v1/tables/{opened['table']}/moves", headers=headers,
                        json={"version": mine["version"], "move": move}).json
    languages = ["ru", "en"]
    with app.app_context():
        held = {language: [load_table(opened["table"])
                           for _ in range(watchers // len(languages))]
                for language in languages}
    best = {"each stream builds": float("inf"), "shared": float("inf")}
    for round_ in range(WATCHER_ROUNDS):
        for kind in best:
            spent = 0.0
            for language in languages:
                with app.test_request_context(f"/v1/tables/x/events?lang={language}"):
                    app.preprocess_request()
                    records = held[language]
                    state = table_state(records[0])
                    # Every round is a new version for the shared events.
                    digest = f"{records[0].digest}/{round_}"
                    start = time.thread_time()
                    for record in records:
                        if kind == "shared":
                            fanout.event(record, record.version, digest, state, None,
                                         moved["events"])
                        else:
                            answer = table_answer(record, record.version, state, None,
                                                  moved["events"])
                            b"id: %d\ndata: %s\n\n" % (record.version, dumps(answer))
                    spent += time.thread_time() - start
            best[kind] = min(best[kind], spent)
    return {kind: seconds / watchers * 1000 for kind, seconds in best.items()}


def _lobby_ms(app, rounds=20):
    """The medians (ms) of ``GET /v1/tables`` (a page of 20), in this process: the CPU of its
    thread (SQLite's work included, Redis's not: its server's) and the wall time."""
    client = app.test_client()
    cpu, wall = [], []
    for _ in range(rounds):
        started, spent = time.perf_counter(), time.thread_time()
        page = client.get(f"/v1/tables?limit={LOBBY_PAGE}").json
        cpu.append((time.thread_time() - spent) * 1000)
        wall.append((time.perf_counter() - started) * 1000)
    assert len(page["tables"]) == LOBBY_PAGE, page
    return percentile(cpu, 0.5), percentile(wall, 0.5)


def lobby_at(folder, redis_port, live=LIVE_TABLES):
    """``GET /v1/tables`` (the whole request: the store's page and each listed table read)
    with ``live`` tables in the store, 20 of them public and waiting, on SQLite and on Redis:
    the median ms of each (CPU, wall). The other tables are written straight into the store (opening
    100,000 through the API would take minutes); the listed ones are opened through it."""
    import sqlite3

    import redis as redis_client

    sqlite_url = f"sqlite:///{folder}/lobby.sqlite3"
    redis_url = f"redis://127.0.0.1:{redis_port}/3"
    figures = {}
    for name, url in (("SQLite", sqlite_url), ("Redis", redis_url)):
        app = _app(url)
        client = app.test_client()
        for index in range(LOBBY_PAGE):
            created = client.post("/v1/tables", json={
                "variant": "scat", "players": 3, "public": True, "name": f"P{index}"})
            assert created.status_code == 201, created.json
        now = time.time()
        if name == "SQLite":
            with closing(sqlite3.connect(url.removeprefix("sqlite:///"))) as connection:
                connection.executemany(
                    "INSERT INTO tables (id, version, digest, epoch, state, meta, expires) "
                    "VALUES (?, 0, '', '', '{}', '{}', ?)",
                    ((f"live{index}", now + 86_400) for index in range(live)))
                connection.commit()
        else:
            store = redis_client.Redis.from_url(url)
            pipe = store.pipeline(transaction=False)
            for index in range(live):
                pipe.hset(f"thirtyone:{{live{index}}}", mapping={"version": 0, "state": "{}"})
                if index % 5000 == 4999:
                    pipe.execute()
            pipe.execute()
        _lobby_ms(app, 3)  # warm up
        figures[name] = _lobby_ms(app)
    return figures


def growth_benchmarks(folder, redis_port, check):
    per_watcher = push_per_watcher(folder)
    shared, own = per_watcher["shared"], per_watcher["each stream builds"]
    print(f"{WATCHERS} watchers of one table (half ru, half en), best of {WATCHER_ROUNDS}: "
          f"{shared:.4f} ms per watcher per version shared, {own:.4f} ms each building its "
          f"own ({own / shared:.1f}x)", flush=True)
    check(f"push cost per watcher with {WATCHERS} watchers <= "
          f"{GROWTH_TARGETS['watcher_ms']} ms", shared <= GROWTH_TARGETS["watcher_ms"],
          f"{shared:.4f} ms")
    lobby = lobby_at(folder, redis_port)
    for name, (cpu, wall) in lobby.items():
        check(f"GET /v1/tables at {LIVE_TABLES:,} live tables ({name}) <= "
              f"{GROWTH_TARGETS['lobby_ms']} ms of app CPU", cpu <= GROWTH_TARGETS["lobby_ms"],
              f"median {cpu:.2f} ms of CPU ({wall:.2f} ms of wall time) for a page of "
              f"{LOBBY_PAGE}")


def idle_benchmarks(count):
    """Exit status of the idle streams' runs (see the module's doc)."""
    folder = tempfile.mkdtemp(prefix="thirtyone-bench-")
    redis_port = free_port()
    redis_process = redis_node(folder, redis_port, *NOT_PERSISTED)
    checks = []
    target = TARGETS["idle_core_percent"] * count / 1000
    try:
        for name, url, port in (("sqlite", f"sqlite:///{folder}/idle.sqlite3", None),
                                ("redis", f"redis://127.0.0.1:{redis_port}/0", redis_port)):
            server = Server(url, folder, workers=1)
            try:
                worker, store, opened = idle_streams(server, count, port)
            finally:
                server.stop()
            ok = worker <= target and opened == count
            checks.append(ok)
            redis_figure = "" if store is None else f", Redis {store:.2f}% of a core"
            print(f"{'PASS' if ok else 'FAIL'}  {count} idle streams on one worker ({name}): "
                  f"<= {target:.2f}% of a core: {worker:.2f}%{redis_figure}, {opened} open",
                  flush=True)
    finally:
        redis_process.terminate()
        redis_process.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)
    return 0 if all(checks) else 1


PARTS = ("--store", "--moves", "--streams", "--growth", "--finished")
"""The parts of the run (see the module's docstring): those named, or all of them."""


def main():
    if "--idle-streams" in sys.argv:
        at = sys.argv.index("--idle-streams") + 1
        count = int(sys.argv[at]) if len(sys.argv) > at else OPEN_STREAMS
        sys.exit(idle_benchmarks(count))
    archive = (sys.argv[sys.argv.index("--archive") + 1] if "--archive" in sys.argv
               else None)
    chosen = {part for part in PARTS if part in sys.argv} or set(PARTS)
    arguments = [argument for argument in sys.argv[1:]
                 if argument not in PARTS and argument not in ("--archive", archive)]
    seconds = int(arguments[0]) if arguments else 5
    served = chosen & {"--store", "--moves", "--streams"}
    if (served and shutil.which("wrk") is None) or shutil.which("redis-server") is None:
        sys.exit("wrk and redis-server are needed: apt-get install wrk redis-server")
    folder = tempfile.mkdtemp(prefix="thirtyone-bench-")
    redis_port = free_port()
    redis_process = redis_node(folder, redis_port, *NOT_PERSISTED)
    started = []
    checks = []

    def check(name, ok, figure):
        checks.append(ok)
        print(f"{'PASS' if ok else 'FAIL'}  {name}: {figure}", flush=True)

    try:
        if served:
            sqlite = Server(f"sqlite:///{folder}/tables.sqlite3", folder)
            started.append(sqlite)
            redis_server = Server(f"redis://127.0.0.1:{redis_port}/0", folder)
            started.append(redis_server)
            print(f"gunicorn gevent, 2 workers; wrk {CONNECTIONS} connections, {ROUNDS} rounds "
                  f"of {seconds}s per endpoint", flush=True)
        if "--store" in chosen:
            store_benchmarks(seconds, folder, check, started)
        if "--moves" in chosen:
            moves_benchmarks((sqlite, redis_server), folder, seconds, redis_port, check)
        if "--streams" in chosen:
            streams_benchmarks((sqlite, redis_server), folder, seconds, check, started)
        if "--growth" in chosen:
            growth_benchmarks(folder, redis_port, check)
        if "--finished" in chosen:
            finished_tables(redis_port, folder, archive or f"sqlite:///{folder}/archive.sqlite3",
                            check)
    finally:
        for server in started:
            server.stop()
        redis_process.terminate()
        redis_process.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)
    sys.exit(0 if all(checks) else 1)


def moves_benchmarks(servers, folder, seconds, redis_port, check):
    summary = throughput(servers, folder, seconds, redis_port)
    print(f"{'endpoint':<40}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'non-2xx':>9}"
          f"{'app CPU ms':>12}")
    names = {"sealed": "POST /v1/games/moves (sealed, baseline)",
             "sqlite": "POST /v1/tables/{t}/moves, SQLite",
             "redis": "POST /v1/tables/{t}/moves, Redis",
             "read": "GET /v1/tables/{t}, SQLite",
             "finished": "GET /v1/tables/{t} (over), SQLite"}
    per_move, received, sent, (round_trips, sent_alone) = summary.pop("redis_calls")
    for name, (rps, p50, p99, bad, app_ms, _) in summary.items():
        print(f"{names[name]:<40}{rps:>9.0f}{p50:>9.2f}{p99:>9.2f}{bad:>9}{app_ms:>12.2f}")
    base = summary["sealed"][0]
    for name in ("sqlite", "redis"):
        ratio = summary[name][0] / base
        check(f"table move ({name}) >= 70% of the sealed move's throughput",
              ratio >= TARGETS["move_ratio"], f"{ratio:.0%}")
    check("no non-2xx answers", sum(s[3] for s in summary.values()) == 0,
          str(sum(s[3] for s in summary.values())))
    for name in ("sqlite", "redis"):
        check(f"app CPU per table move without bots ({name}) <= {TARGETS['move_cpu_ms']} ms",
              summary[name][4] <= TARGETS["move_cpu_ms"], f"{summary[name][4]:.2f} ms")
    check(f"app CPU per table read <= {TARGETS['read_cpu_ms']} ms",
          summary["read"][4] <= TARGETS["read_cpu_ms"], f"{summary['read'][4]:.2f} ms")
    read_ratio = summary["read"][4] / summary["finished"][4]
    check(f"a table read <= {TARGETS['read_ratio']}x a bare read of a finished table "
          "(app CPU)", read_ratio <= TARGETS["read_ratio"],
          f"{summary['read'][4]:.2f} ms against {summary['finished'][4]:.2f} ms: "
          f"{read_ratio:.2f}x")
    check(f"Redis CPU per table move <= {TARGETS['redis_cpu_ms']} ms",
          summary["redis"][5] <= TARGETS["redis_cpu_ms"], f"{summary['redis'][5]:.3f} ms")
    print(f"Redis per table move: {sum(round_trips.values()):.2f} round trips ("
          + ", ".join(f"{name} {count:.2f}" for name, count in sorted(
              round_trips.items(), key=lambda item: -item[1]) if count >= 0.05)
          + f"), {received:.0f} B in, {sent:.0f} B out; calls "
          "(those in scripts too) and the µs Redis spent in them: " + ", ".join(
              f"{command} {count:.2f} ({usec:.1f} µs)" for command, (count, usec) in
              sorted(per_move.items(), key=lambda item: -item[1][1])), flush=True)
    # The scripts' time includes the commands they call; each command a client sent
    # (MONITOR's count, a script as EVALSHA) is taken at its mean time per call. What no
    # command accounts for is Redis reading, parsing and answering the round trips.
    commands = sum(count * per_move[name][1] / per_move[name][0]
                   for name, count in sent_alone.items() if name in per_move)
    print(f"Redis CPU per table move: {1000 * summary['redis'][5]:.0f} µs, of which "
          f"{commands:.0f} µs run commands (the scripts {per_move.get('evalsha', (0, 0.0))[1]:.0f}"
          f" µs, with the calls they make) and the rest serves the round trips (reading, "
          "parsing, answering, the event loop)", flush=True)


def streams_benchmarks(servers, folder, seconds, check, started):
    sqlite, redis_server = servers
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


if __name__ == "__main__":
    main()
