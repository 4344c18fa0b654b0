#!/usr/bin/env bash
# HTTP speed of the API under gunicorn, against a bare Flask endpoint served the same way.
#
# Both are served by the worker model of `thirtyone serve` (thirtyone.web.serving: gevent,
# fair between connections), 2 workers, while STREAMS event streams (100) stay open on a
# table of the API. One run measures, with wrk at 16 connections: requests/s and p50/p99
# latency of
#   - the baseline: a Flask app whose one endpoint returns a fixed JSON object;
#   - POST /v1/hands/score;
#   - POST /v1/games/moves with a sealed token and seat key, on a mid-game state (80 moves
#     into a 4-seat match: the same legal move, replayed; the server keeps no game, so every
#     request does the whole unseal-move-seal work);
#   - GET /v1/variants (every variant, built once per language and release);
#   - GET /v1/tables/{table} (a spectator's read);
# and, while score, sealed move and variants are under that load, GET /healthz as a load
# balancer's check sends it (one request every 10 ms on its own connection): its p99 is how
# long the workers keep a health check waiting under load. Then the workers' resident memory
# and the time of one 10,000-hand batch over HTTP.
# Targets: score >= 70% of the baseline's throughput, sealed move >= 50%, variants >= 70%,
# p99 <= 50 ms for score and sealed move, and for variants, the table read and /healthz
# under load; no non-2xx answer, worker RSS <= 120 MB, batch <= 100 ms. Prints PASS or FAIL
# for each.
#
# Other worker models, for comparison: WORKER_CLASS=gthread THREADS=8, WORKER_CLASS=sync
# (STREAMS=0: a sync worker is held by each stream), WORKER_CLASS=gevent (gunicorn's own).
#
# Usage: benchmarks/http.sh [seconds per endpoint and round, default 3]
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION="${1:-3}"
CONNECTIONS=16
WORKERS=2
WORKER_CLASS="${WORKER_CLASS:-thirtyone.web.serving.GeventWorker}"
THREADS="${THREADS:-1}"
STREAMS="${STREAMS:-100}"
BIN=.venv/bin
# Free ports, picked now: other runs on the machine must not collide with this one.
read -r PORT_BASE PORT_API < <("$BIN/python" -c '
import socket
socks = [socket.socket() for _ in range(2)]
for sock in socks:
    sock.bind(("127.0.0.1", 0))
print(*(sock.getsockname()[1] for sock in socks))')

if ! command -v wrk >/dev/null; then
    echo "Installing wrk from Debian..."
    if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq wrk >/dev/null
fi

WORK="$(mktemp -d)"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

cat > "$WORK/baseline.py" <<'EOF'
from flask import Flask, jsonify

app = Flask(__name__)


@app.get("/ping")
def ping():
    return jsonify({"status": "ok", "service": "baseline", "version": 1})
EOF

# The same server settings for both: the worker model of `thirtyone serve`, or WORKER_CLASS.
gunicorn_run() {  # port, app, extra args...
    local port="$1" app="$2"
    shift 2
    "$BIN/gunicorn" --bind "127.0.0.1:$port" --workers "$WORKERS" --worker-class "$WORKER_CLASS" \
        --threads "$THREADS" --log-level warning "$@" "$app" &
    PIDS+=($!)
}

wait_up() {  # url
    for _ in $(seq 100); do
        curl -sf -o /dev/null "$1" && return 0
        sleep 0.1
    done
    echo "server at $1 did not start" >&2
    exit 1
}

export THIRTYONE_SECRET_KEY="benchmark secret"
export THIRTYONE_SITE_DIR="$WORK/no-site"
export THIRTYONE_STORE="sqlite:///$WORK/tables.sqlite3"
# One address opens every stream and reads the table here: the per-client caps are raised
# out of reach.
export THIRTYONE_STREAMS_PER_CLIENT=100000 THIRTYONE_LIMIT_STREAMS="1000000 per minute" \
    THIRTYONE_LIMIT_READS="1000000 per minute"
gunicorn_run "$PORT_BASE" baseline:app --chdir "$WORK"
gunicorn_run "$PORT_API" 'thirtyone.web:create_app()' -c python:thirtyone.web.serving
wait_up "http://127.0.0.1:$PORT_BASE/ping"
wait_up "http://127.0.0.1:$PORT_API/healthz"
API="http://127.0.0.1:$PORT_API"

# A sealed game and a legal move for the seat to act.
"$BIN/python" - "$API" "$WORK" <<'EOF'
import json
import os
import random
import sys
import urllib.request

from thirtyone.game import GameState, apply_move, legal_moves
from thirtyone.web.sealing import Sealer

api, work = sys.argv[1], sys.argv[2]


def post(path, body):
    request = urllib.request.Request(api + path, json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


game = post("/v1/games", {"variant": "scat", "players": 4, "seed": "bench", "dealer": 0})
# 80 moves into the match, nobody knocking, sealed with the server's secret (the same
# environment variable): a mid-game token, as a client would send it.
sealer = Sealer(os.environ["THIRTYONE_SECRET_KEY"])
game_id, data = sealer.unseal(game["token"])
state, rng, played = GameState.from_dict(data), random.Random("bench"), 0
while played < 80 or state.phase != "draw":
    state, _ = apply_move(state, rng.choice(
        [m for m in legal_moves(state) if m["type"] != "knock"]))
    played += 1
seat = state.to_move
move = {"token": sealer.seal(game_id, state.to_dict()), "seat": seat,
        "seat_key": game["seat_keys"][seat], "move": {"type": "draw", "source": "stock"}}
score = {"variant": "scat", "hand": ["AS", "KS", "10S"]}
ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
cards = [rank + suit for suit in "CDHS" for rank in ranks]
hands = [[cards[i % 52], cards[(i + 13) % 52], cards[(i + 27) % 52]] for i in range(10_000)]
table = post("/v1/tables", {"variant": "scat", "players": 2, "bots": {"1": "greedy"}})
with open(f"{work}/table", "w") as file:
    file.write(table["table"])
for name, body in (("move", move), ("score", score), ("batch", {"hands": hands})):
    with open(f"{work}/{name}.json", "w") as file:
        json.dump(body, file)
    lua = body if name != "batch" else None
    if lua is not None:
        with open(f"{work}/{name}.lua", "w") as file:
            file.write('wrk.method = "POST"\n'
                       'wrk.headers["Content-Type"] = "application/json"\n'
                       f"wrk.body = {json.dumps(json.dumps(body))}\n")
EOF

TABLE="$(cat "$WORK/table")"

# STREAMS event streams of that table, held open (and read) for the whole run.
"$BIN/python" - "$PORT_API" "$TABLE" "$STREAMS" <<'EOF' &
import selectors
import socket
import sys

port, table, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
chooser = selectors.DefaultSelector()
for _ in range(count):
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(f"GET /v1/tables/{table}/events HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
    sock.setblocking(False)
    chooser.register(sock, selectors.EVENT_READ)
while chooser.get_map():
    for key, _ in chooser.select():
        try:
            data = key.fileobj.recv(65536)
        except BlockingIOError:
            continue
        if not data:
            chooser.unregister(key.fileobj)
EOF
PIDS+=($!)
sleep 1

# wrk, then: requests/s, p50 ms, p99 ms, non-2xx count.
measure() {  # url [lua script]
    local out
    if [ $# -gt 1 ]; then
        out="$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$2" "$1")"
    else
        out="$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency "$1")"
    fi
    echo "$out" | awk '
        function ms(v) {
            if (v ~ /us$/) { sub(/us$/, "", v); return v / 1000 }
            if (v ~ /ms$/) { sub(/ms$/, "", v); return v + 0 }
            if (v ~ /s$/)  { sub(/s$/, "", v);  return v * 1000 }
            return v
        }
        /Requests\/sec/ { rps = $2 }
        $1 == "50%" { p50 = ms($2) }
        $1 == "99%" { p99 = ms($2) }
        /Non-2xx/ { bad = $NF }
        /Socket errors/ { errors = $0 }
        END { printf "%s %.2f %.2f %d\n", rps, p50, p99, bad + 0 }'
}

# /healthz as a load balancer checks it, for DURATION seconds: one request every 10 ms on
# one kept-alive connection; each latency in ms (or "bad"), one a line.
cat > "$WORK/probe.py" <<'PROBE'
import http.client
import sys
import time

port, seconds = int(sys.argv[1]), float(sys.argv[2])
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
end = time.monotonic() + seconds
while time.monotonic() < end:
    start = time.perf_counter()
    connection.request("GET", "/healthz")
    response = connection.getresponse()
    response.read()
    print(f"{(time.perf_counter() - start) * 1000:.3f}" if response.status == 200 else "bad")
    time.sleep(0.01)
PROBE
# measure, with the health probe running beside it (its latencies appended to $WORK/healthz).
measure_probed() {  # url [lua script]
    "$BIN/python" "$WORK/probe.py" "$PORT_API" "$DURATION" >> "$WORK/healthz" &
    local probe=$!
    measure "$@"
    wait "$probe"
}

# Warm both servers (table builds, imports, the variants' answers) before measuring.
wrk -t1 -c2 -d2s "http://127.0.0.1:$PORT_BASE/ping" >/dev/null
wrk -t1 -c2 -d2s -s "$WORK/score.lua" "$API/v1/hands/score" >/dev/null
wrk -t1 -c2 -d2s -s "$WORK/move.lua" "$API/v1/games/moves" >/dev/null
wrk -t1 -c2 -d2s "$API/v1/variants" >/dev/null

# The three endpoints take turns, ROUNDS times, so that whatever else the machine does
# weighs on each of them alike; requests/s and p50 are averaged over the rounds, p99 is the
# worst round's.
ROUNDS=5
: > "$WORK/rounds"
: > "$WORK/healthz"
for round in $(seq "$ROUNDS"); do
    echo "base $(measure "http://127.0.0.1:$PORT_BASE/ping")" >> "$WORK/rounds"
    echo "score $(measure_probed "$API/v1/hands/score" "$WORK/score.lua")" >> "$WORK/rounds"
    echo "move $(measure_probed "$API/v1/games/moves" "$WORK/move.lua")" >> "$WORK/rounds"
    echo "variants $(measure_probed "$API/v1/variants")" >> "$WORK/rounds"
    echo "table $(measure "$API/v1/tables/$TABLE")" >> "$WORK/rounds"
done
summary() {  # endpoint -> rps p50 p99 non-2xx
    awk -v name="$1" '$1 == name { n++; rps += $2; p50 += $3; if ($4 > p99) p99 = $4; bad += $5 }
        END { printf "%.1f %.2f %.2f %d\n", rps / n, p50 / n, p99, bad }' "$WORK/rounds"
}
read -r BASE_RPS BASE_P50 BASE_P99 BASE_BAD < <(summary base)
read -r SCORE_RPS SCORE_P50 SCORE_P99 SCORE_BAD < <(summary score)
read -r MOVE_RPS MOVE_P50 MOVE_P99 MOVE_BAD < <(summary move)
read -r VARIANTS_RPS VARIANTS_P50 VARIANTS_P99 VARIANTS_BAD < <(summary variants)
read -r TABLE_RPS TABLE_P50 TABLE_P99 TABLE_BAD < <(summary table)
# The health checks of every round: how many, p50 and p99 ms (nearest rank), failed ones.
read -r HEALTH_COUNT HEALTH_P50 HEALTH_P99 HEALTH_BAD < <(
    grep -v bad "$WORK/healthz" | sort -n | awk '{ v[NR] = $1 } END {
        printf "%d %.2f %.2f ", NR, v[int(NR * 0.5 + 0.5)], v[int(NR * 0.99 + 0.5)] }'
    grep -c bad "$WORK/healthz" || true)

# Resident memory of the API's workers (the children of its gunicorn master), in MB.
API_MASTER="${PIDS[1]}"
RSS_MB="$(ps -o rss= --ppid "$API_MASTER" | awk 'BEGIN { max = 0 } { if ($1 > max) max = $1 } END { printf "%.1f", max / 1024 }')"

# The 10,000-hand batch: best and median of 7 calls, in ms.
BATCH_TIMES=()
for _ in $(seq 7); do
    BATCH_TIMES+=("$(curl -s -o /dev/null -w '%{http_code} %{time_total}' \
        -H 'Content-Type: application/json' --data-binary "@$WORK/batch.json" \
        "$API/v1/hands/score-batch")")
done
BATCH_BAD="$(printf '%s\n' "${BATCH_TIMES[@]}" | awk '$1 != 200' | wc -l)"
BATCH_MS="$(printf '%s\n' "${BATCH_TIMES[@]}" | awk '{ print $2 * 1000 }' | sort -n | awk '{ v[NR] = $1 } END { printf "%.1f", v[int((NR + 1) / 2)] }')"

"$BIN/python" - <<EOF
checks = []


def check(name, ok, figure):
    checks.append(ok)
    print(f"{'PASS' if ok else 'FAIL'}  {name}: {figure}")


base, score, move, variants = $BASE_RPS, $SCORE_RPS, $MOVE_RPS, $VARIANTS_RPS
print(f"gunicorn $WORKER_CLASS ($THREADS threads), $WORKERS workers, wrk $CONNECTIONS "
      f"connections, $STREAMS streams open, $ROUNDS rounds of ${DURATION}s per endpoint")
print(f"{'endpoint':<28}{'req/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'non-2xx':>9}")
for name, rps, p50, p99, bad in (
    ("baseline GET /ping", base, $BASE_P50, $BASE_P99, $BASE_BAD),
    ("POST /v1/hands/score", score, $SCORE_P50, $SCORE_P99, $SCORE_BAD),
    ("POST /v1/games/moves", move, $MOVE_P50, $MOVE_P99, $MOVE_BAD),
    ("GET /v1/variants", variants, $VARIANTS_P50, $VARIANTS_P99, $VARIANTS_BAD),
    ("GET /v1/tables/{table}", $TABLE_RPS, $TABLE_P50, $TABLE_P99, $TABLE_BAD),
):
    print(f"{name:<28}{rps:>10.0f}{p50:>9.2f}{p99:>9.2f}{bad:>9}")
print(f"{'GET /healthz under load':<28}{'':>10}{$HEALTH_P50:>9.2f}{$HEALTH_P99:>9.2f}"
      f"{$HEALTH_BAD:>9}  ($HEALTH_COUNT checks, every 10 ms beside score, move, variants)")
check("score throughput >= 70% of baseline", score >= 0.7 * base, f"{score / base:.0%}")
check("sealed move (mid-game) throughput >= 50% of baseline", move >= 0.5 * base,
      f"{move / base:.0%}")
check("variants throughput >= 70% of baseline", variants >= 0.7 * base,
      f"{variants / base:.0%}")
check("score and sealed move p99 <= 50 ms at $CONNECTIONS connections, $STREAMS streams open",
      max($SCORE_P99, $MOVE_P99) <= 50,
      f"score {$SCORE_P99:.2f} ms, move {$MOVE_P99:.2f} ms (baseline {$BASE_P99:.2f} ms)")
check("variants, table read and /healthz under load p99 <= 50 ms",
      max($VARIANTS_P99, $TABLE_P99, $HEALTH_P99) <= 50,
      f"variants {$VARIANTS_P99:.2f} ms, table {$TABLE_P99:.2f} ms, "
      f"healthz {$HEALTH_P99:.2f} ms")
bad = ($BASE_BAD + $SCORE_BAD + $MOVE_BAD + $VARIANTS_BAD + $TABLE_BAD + $HEALTH_BAD
       + $BATCH_BAD)
check("no non-2xx answers", bad == 0, f"{bad}")
check("worker RSS <= 120 MB", $RSS_MB <= 120, f"{$RSS_MB} MB")
check("10,000-hand batch <= 100 ms", $BATCH_MS <= 100, f"{$BATCH_MS} ms (median of 7)")
raise SystemExit(0 if all(checks) else 1)
EOF
