"""One instance under gunicorn as `thirtyone serve` runs it: metrics shared by its workers
(prometheus_client's multiprocess mode), and a SIGTERM that drains: not ready, every stream told
to reconnect with a jittered retry, and an exit within the graceful timeout."""

from __future__ import annotations

import http.client
import re
import signal
import threading
import time
import uuid
from collections import Counter
from typing import Any

from tests.conftest import calibrated

from .conftest import Instance, Stream, request, wait_for
from .harness import Table, bearer

MOVES_PATH = "POST /v1/tables/<table>/moves"


def _count(text: str, operation: str, status: str) -> float:
    pattern = (r'^thirtyone_requests_total\{operation="' + re.escape(operation)
               + r'",status="' + status + r'"\} (\S+)$')
    found = re.search(pattern, text, re.M)
    return float(found.group(1)) if found else 0.0


def test_metrics_add_up_every_worker_and_sigterm_drains(processes, tmp_path):
    api = Instance(processes, f"sqlite:///{tmp_path}/tables.sqlite3", workers=2)
    opened = 12
    for _ in range(opened):
        assert request(api.port, "POST", "/v1/tables", {"variant": "scat", "players": 2})[0] \
            == 201
    # Whichever worker answers /metrics counts the requests of both.
    for _ in range(4):
        status, text = request(api.port, "GET", "/metrics")
        assert status == 200
        assert _count(text, "POST /v1/tables", "201") == opened
    assert 'thirtyone_store_seconds_count{call="create"} 12.0' in text
    # Process metrics per worker: a pid label each, both workers seen once each has answered.
    def two_workers() -> bool:
        request(api.port, "GET", "/healthz")
        text = request(api.port, "GET", "/metrics")[1]
        return len(set(re.findall(r'^thirtyone_process_resident_bytes\{pid="(\d+)"\} [1-9]',
                                  text, re.M))) == 2

    wait_for(two_workers, 20, "both workers' process metrics")
    status, created = request(api.port, "POST", "/v1/tables", {"variant": "scat", "players": 2})
    key = created["seats"][0]["key"]
    streams = [Stream(api.port, created["table"], key) for _ in range(3)]
    for stream in streams:
        assert stream.next()[0] is None
    wait_for(lambda: "thirtyone_open_streams 3.0" in request(api.port, "GET", "/metrics")[1],
             10, "three open streams")
    assert request(api.port, "GET", "/readyz")[0] == 200
    stopped = time.monotonic()
    api.process.signal(15)
    for stream in streams:
        event, _, _ = stream.next(timeout=10)
        assert event == "reconnect"
        assert 1000 <= (stream.retry or 0) <= 5000
        assert stream.next(timeout=10) is None
    api.process.process.wait(timeout=15)
    assert time.monotonic() - stopped < 5 + calibrated(2)  # the graceful timeout is 5 s


def _next_move(port: int, table: Table) -> tuple[str, dict[str, Any], int]:
    """The seat to move's key, a legal move (never a knock) and the version it is at."""
    public = request(port, "GET", f"/v1/tables/{table.table}")[1]
    seat = public["to_move"] if public["to_move"] is not None else 0
    mine = request(port, "GET", f"/v1/tables/{table.table}", headers=bearer(table.keys[seat]))[1]
    move = next(move for move in mine["legal_moves"] if move["type"] != "knock")
    return table.keys[seat], move, mine["version"]


def test_sigterm_ends_streams_at_once_and_a_move_in_the_drain_is_kept_or_refused(
        processes, tmp_path):
    """SIGTERM with streams and a long poll open and moves coming in: every stream ends
    with `event: reconnect` and a `retry:` at once, the long poll answers, the workers
    exit by themselves in a second or two, and each move sent meanwhile is answered 2xx
    and kept, or refused (503 or no connection) and not applied. A graceful timeout far
    above that: a worker that does not end by itself (they waited for gunicorn's SIGKILL at
    the graceful timeout) fails the test, however slow the machine."""
    store = f"sqlite:///{tmp_path}/tables.sqlite3"
    api = Instance(processes, store, workers=2, graceful=30)
    tables = [Table([api.port], index) for index in range(4)]
    for table in tables:
        assert table.stream.next()[0] is None  # the table as it is
    polled: dict[str, Any] = {}

    def poll() -> None:
        table = tables[0]
        polled["answer"] = request(api.port, "GET", f"/v1/tables/{table.table}/updates?wait=60",
                                   headers=bearer(table.keys[0]), timeout=90)
        polled["at"] = time.monotonic()

    poller = threading.Thread(target=poll)
    poller.start()
    wait_for(lambda: "thirtyone_open_streams 4.0" in request(api.port, "GET", "/metrics")[1],
             10, "four open streams")
    time.sleep(1)  # the long poll waits
    # The moves sent in the drain: each table's last version a 2xx answer acknowledged.
    acknowledged = {table.table: table.version for table in tables[1:]}
    outcomes: list[str] = []
    stop = threading.Event()

    def move(table: Table) -> None:
        while not stop.is_set():
            try:
                key, body, version = _next_move(api.port, table)
                status, answer = request(
                    api.port, "POST", f"/v1/tables/{table.table}/moves",
                    {"move": body, "version": version},
                    {**bearer(key), "Idempotency-Key": str(uuid.uuid4())})
            except (OSError, http.client.HTTPException, TypeError, KeyError) as error:
                outcomes.append(type(error).__name__)  # refused, or cut before an answer
                if isinstance(error, ConnectionRefusedError):
                    return
                continue
            outcomes.append(str(status))
            if status == 200:
                acknowledged[table.table] = answer["version"]
            else:
                assert status == 503, answer

    movers = [threading.Thread(target=move, args=(table,)) for table in tables[1:]]
    for mover in movers:
        mover.start()
    time.sleep(0.5)
    stopped = time.monotonic()
    api.process.signal(signal.SIGTERM)
    for table in tables:
        # The versions played until the drain, then the last event.
        while (item := table.stream.next(timeout=calibrated(5))) is not None \
                and item[0] != "reconnect":
            assert item[0] in (None, "presence"), item
        assert item is not None, "the stream ended without its reconnect event"
        data = item[2]
        assert 1000 <= (table.stream.retry or 0) <= 5000, table.stream.retry
        assert data["retry"] == table.stream.retry
        assert table.stream.next(timeout=calibrated(5)) is None  # the stream ended cleanly
    ended = time.monotonic() - stopped
    poller.join(timeout=calibrated(10))
    assert polled["answer"][0] == 200, polled
    api.process.process.wait(timeout=60)
    exited = time.monotonic() - stopped
    stop.set()
    for mover in movers:
        mover.join(timeout=30)
    assert ended < calibrated(1.5), ended
    assert polled["at"] - stopped < calibrated(2)
    assert exited < calibrated(4), exited
    assert "200" in outcomes, outcomes  # moves were answered until the drain
    # Another instance on the same store: each table is at its last acknowledged version,
    # no further (a move refused or cut was not applied).
    after = Instance(processes, store)
    for table, version in acknowledged.items():
        assert request(after.port, "GET", f"/v1/tables/{table}")[1]["version"] == version
    print(f"SIGTERM: streams ended in {ended:.2f} s, the long poll answered in "
          f"{polled['at'] - stopped:.2f} s, the instance exited in {exited:.2f} s; moves in "
          f"the drain: {sorted(Counter(outcomes).items())}")
