"""One instance under gunicorn as `thirtyone serve` runs it: metrics shared by its workers
(prometheus_client's multiprocess mode), and a SIGTERM that drains: not ready, every stream told
to reconnect with a jittered retry, and an exit within the graceful timeout."""

from __future__ import annotations

import re
import time

from tests.conftest import calibrated

from .conftest import Instance, Stream, request, wait_for

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
