"""The service's metrics at ``/metrics``, in the Prometheus text format (prometheus_client).

Requests by operation and status with latency histograms, commits and conflicts, the store's
errors and latency by call, open streams, pub/sub messages and their lag, and the CPU time the
bots spend. Under gunicorn every worker is a process: with ``PROMETHEUS_MULTIPROC_DIR`` set (as
:mod:`thirtyone.web.serving` does before the workers fork) the values are kept in files there
and ``/metrics`` adds up every worker's, whichever worker answers.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask, Response, g, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

REQUESTS = Counter("thirtyone_requests", "HTTP requests answered, by operation and status.",
                   ["operation", "status"])
REQUEST_SECONDS = Histogram("thirtyone_request_seconds",
                            "Time to answer a request (a stream: to its first byte).",
                            ["operation"])
COMMITS = Counter("thirtyone_commits", "Versions committed to the table store.")
CONFLICTS = Counter("thirtyone_conflicts", "Commits refused: the table had moved on.")
STORE_ERRORS = Counter("thirtyone_store_errors", "Errors of the table store, by kind.",
                       ["error"])
STORE_SECONDS = Histogram("thirtyone_store_seconds", "Time of the table store's calls.",
                          ["call"])
OPEN_STREAMS = Gauge("thirtyone_open_streams", "Event streams open now.",
                     multiprocess_mode="livesum")
PUBSUB_MESSAGES = Counter("thirtyone_pubsub_messages",
                          "Pub/sub messages this instance received (moves of tables it streams).")
PUBSUB_LAG = Histogram("thirtyone_pubsub_lag_seconds",
                       "From a commit to its pub/sub message here.",
                       buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0))
BOT_SECONDS = Histogram("thirtyone_bot_cpu_seconds", "CPU time the bots took, per request.",
                        buckets=(0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0))


@contextmanager
def store_call(call: str) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        STORE_SECONDS.labels(call).observe(time.perf_counter() - start)


@contextmanager
def bot_cpu() -> Iterator[None]:
    """Measure the CPU time of the block (the bots' moves): this thread's alone."""
    start = time.thread_time()
    try:
        yield
    finally:
        BOT_SECONDS.observe(time.thread_time() - start)


def _registry() -> CollectorRegistry:
    if "PROMETHEUS_MULTIPROC_DIR" not in os.environ:
        return REGISTRY
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    return registry


def init_app(app: Flask) -> None:
    """Count every request and serve ``/metrics``."""

    @app.before_request
    def started() -> None:
        g.metrics_start = time.perf_counter()

    @app.after_request
    def answered(response: Response) -> Response:
        start = g.pop("metrics_start", None)
        if start is not None:
            operation = f"{request.method} {request.url_rule.rule if request.url_rule else '-'}"
            REQUESTS.labels(operation, str(response.status_code)).inc()
            REQUEST_SECONDS.labels(operation).observe(time.perf_counter() - start)
        return response

    def metrics() -> Response:
        return Response(generate_latest(_registry()), mimetype=CONTENT_TYPE_LATEST)

    app.add_url_rule("/metrics", "metrics", metrics)


def worker_exited(pid: int) -> None:
    """Drop a dead worker's live gauges (gunicorn's ``child_exit``)."""
    if "PROMETHEUS_MULTIPROC_DIR" in os.environ:
        multiprocess.mark_process_dead(pid)
