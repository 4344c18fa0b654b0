"""The service's metrics at ``/metrics``, in the Prometheus text format (prometheus_client).

Requests by operation and status with latency histograms, commits and conflicts, the store's
errors and latency by call, open streams and their wake-ups by cause, pub/sub messages and
their lag, the CPU time the bots spend, and the compute pools' jobs, room and wait. Under
gunicorn every worker is a process: with ``PROMETHEUS_MULTIPROC_DIR`` set (as
:mod:`thirtyone.web.serving` does before the workers fork) the values are kept in files there
and ``/metrics`` adds up every worker's, whichever worker answers.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

from flask import Flask, Response, request

_NAMES = ("REQUESTS", "REQUEST_SECONDS", "COMMITS", "CONFLICTS", "STORE_ERRORS", "STORE_SECONDS",
          "OPEN_STREAMS", "PUBSUB_MESSAGES", "PUBSUB_LAG", "BOT_SECONDS", "ARCHIVE_WRITES",
          "ARCHIVE_SECONDS", "ARCHIVE_LAG", "PROCESS_CPU", "PROCESS_RSS", "PROCESS_FDS",
          "POOL_JOBS", "POOL_SLOTS", "POOL_WAIT", "STREAM_WAKEUPS", "STREAM_KEEPALIVES")
_made: dict[str, Any] = {}
_lock = threading.Lock()


def _make() -> dict[str, Any]:
    """The metrics, made on first use. prometheus_client picks its single- or multi-process
    mode when it is first imported: a gunicorn master imports this package before it sets
    ``PROMETHEUS_MULTIPROC_DIR``, so the import waits for the first metric, in a worker."""
    from prometheus_client import Counter, Gauge, Histogram

    return {
        "REQUESTS": Counter("thirtyone_requests",
                            "HTTP requests answered, by operation and status.",
                            ["operation", "status"]),
        "REQUEST_SECONDS": Histogram("thirtyone_request_seconds",
                                     "Time to answer a request (a stream: to its first byte).",
                                     ["operation"]),
        "COMMITS": Counter("thirtyone_commits", "Versions committed to the table store."),
        "CONFLICTS": Counter("thirtyone_conflicts", "Commits refused: the table had moved on."),
        "STORE_ERRORS": Counter("thirtyone_store_errors", "Errors of the table store, by kind.",
                                ["error"]),
        "STORE_SECONDS": Histogram("thirtyone_store_seconds",
                                   "Time of the table store's calls.", ["call"]),
        "OPEN_STREAMS": Gauge("thirtyone_open_streams", "Event streams open now.",
                              multiprocess_mode="livesum"),
        "PUBSUB_MESSAGES": Counter(
            "thirtyone_pubsub_messages",
            "Pub/sub messages this instance received (moves of tables it streams)."),
        "PUBSUB_LAG": Histogram(
            "thirtyone_pubsub_lag_seconds", "From a commit to its pub/sub message here.",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)),
        "BOT_SECONDS": Histogram(
            "thirtyone_bot_cpu_seconds", "CPU time the bots took, per request.",
            buckets=(0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0)),
        "ARCHIVE_WRITES": Counter(
            "thirtyone_archive_writes",
            "Finished matches sent to the archive, by outcome: written, already there, or "
            "failed (the record endpoint writes it later).", ["outcome"]),
        "ARCHIVE_SECONDS": Histogram(
            "thirtyone_archive_write_seconds",
            "Time to archive a finished match: its record built and written.",
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)),
        # Per worker (a ``pid`` label in multiprocess mode, a dead worker's dropped): the
        # client's own process collector sees one process only, the one that answers.
        "PROCESS_CPU": Gauge("thirtyone_process_cpu_seconds",
                             "CPU time this worker used (user and system).",
                             multiprocess_mode="liveall"),
        "PROCESS_RSS": Gauge("thirtyone_process_resident_bytes",
                             "Resident memory of this worker.", multiprocess_mode="liveall"),
        "PROCESS_FDS": Gauge("thirtyone_process_open_fds",
                             "File descriptors this worker holds open (each stream holds one).",
                             multiprocess_mode="liveall"),
        # The compute pools (bots' moves, hints, reviews): a queue near its room refuses hints
        # (503 busy) and delays bots.
        "POOL_JOBS": Gauge("thirtyone_pool_jobs",
                           "Jobs in the workers' compute pools now: computing, or waiting for "
                           "a pool process.", multiprocess_mode="livesum"),
        "POOL_SLOTS": Gauge("thirtyone_pool_slots",
                            "Room for jobs in the workers' compute pools "
                            "(THIRTYONE_COMPUTE_QUEUE each).", multiprocess_mode="livesum"),
        "POOL_WAIT": Histogram(
            "thirtyone_pool_wait_seconds",
            "From a job's submission to its start in a pool process.",
            buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)),
        "ARCHIVE_LAG": Histogram(
            "thirtyone_archive_lag_seconds",
            "From a match's last move to its record in the archive.",
            buckets=(0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 60.0, 600.0, 3600.0)),
        # An idle stream should wake only for news, a keep-alive or its client leaving: a
        # steady rate of "check" (a threads worker looking at its clients' sockets) or of
        # wake-ups per open stream tells what idle streams cost.
        "STREAM_WAKEUPS": Counter(
            "thirtyone_stream_wakeups",
            "Wake-ups of waiting event streams and long polls, by cause: notice (a new "
            "version, a seat come or gone, the instance stopping), timeout (a keep-alive, a "
            "turn's deadline, the wait's end), client (its socket readable: it left), check "
            "(a periodic look at the client's socket, without gevent).", ["cause"]),
        # Keep-alives the worker's keeper wrote with the stream asleep ("keeper") against
        # those the stream woke to write ("stream"): see keepalives.py.
        "STREAM_KEEPALIVES": Counter(
            "thirtyone_stream_keepalives",
            "Keep-alive comments written to event streams, by whom: keeper (the worker's, "
            "the stream asleep) or stream (the stream woke to write it).", ["by"]),
    }


def __getattr__(name: str) -> Any:
    if name not in _NAMES:
        raise AttributeError(name)
    with _lock:
        if not _made:
            _made.update(_make())
    return _made[name]


_children: dict[tuple[str, str], Any] = {}


def child(name: str, label: str) -> Any:
    """The metric ``name``'s child for the one label ``label``, looked up once: ``labels()``
    at each of an idle stream's wake-ups or keep-alives cost it a tenth of its time."""
    found = _children.get((name, label))
    if found is None:
        found = _children.setdefault((name, label), __getattr__(name).labels(label))
    return found


@contextmanager
def store_call(call: str) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        __getattr__("STORE_SECONDS").labels(call).observe(time.perf_counter() - start)


@contextmanager
def bot_cpu() -> Iterator[None]:
    """Measure the CPU time of the block (the bots' moves): this thread's alone."""
    start = time.thread_time()
    try:
        yield
    finally:
        __getattr__("BOT_SECONDS").observe(time.thread_time() - start)


SAMPLE_SECONDS = 5.0
"""How often each worker updates its process metrics."""

_sampled_pid = 0
_sampler_lock = threading.Lock()


def sample_process() -> None:
    """This process's CPU time, resident memory and open descriptors, into its gauges."""
    times = os.times()
    __getattr__("PROCESS_CPU").set(times.user + times.system)
    with suppress(OSError):
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[1])
        __getattr__("PROCESS_RSS").set(pages * os.sysconf("SC_PAGE_SIZE"))
    with suppress(OSError):
        __getattr__("PROCESS_FDS").set(open_fds())


def open_fds() -> int:
    """How many descriptors this process holds open. Linux 6.2 on gives the count as the size
    of ``/proc/self/fd`` (a stat, some microseconds); listing it took 2 ms every sample with
    1,000 streams open (a twentieth of what they cost idle)."""
    size = os.stat("/proc/self/fd").st_size
    return size if size > 0 else len(os.listdir("/proc/self/fd"))


def _sample_forever() -> None:
    while True:
        sample_process()
        time.sleep(SAMPLE_SECONDS)


def start_sampler() -> None:
    """Start this process's sampler once (a forked worker starts its own)."""
    global _sampled_pid
    if _sampled_pid != os.getpid():
        with _sampler_lock:
            if _sampled_pid != os.getpid():
                _sampled_pid = os.getpid()
                sample_process()
                threading.Thread(target=_sample_forever, name="thirtyone-process-metrics",
                                 daemon=True).start()


def _registry() -> Any:
    from prometheus_client import REGISTRY, CollectorRegistry, multiprocess

    if "PROMETHEUS_MULTIPROC_DIR" not in os.environ:
        return REGISTRY
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    return registry


_STARTED = "thirtyone.metrics_start"


class RequestCounter:
    """Counts answered requests by operation (``"POST /v1/hands/score"``) and status, with
    their time. The labelled series of each operation and status are looked up once per
    process: a lookup through ``labels`` (a lock, a tuple of strings) on every answer costs
    more than counting it."""

    def __init__(self) -> None:
        self._series: dict[tuple[str, int], tuple[Any, Any]] = {}

    def count(self, operation: str, status: int, seconds: float) -> None:
        key = (operation, status)
        found = self._series.get(key)
        if found is None:
            found = self._series[key] = (__getattr__("REQUESTS").labels(operation, str(status)),
                                         __getattr__("REQUEST_SECONDS").labels(operation))
        found[0].inc()
        found[1].observe(seconds)


def init_app(app: Flask) -> None:
    """Count every request and serve ``/metrics``; the counter is
    ``app.extensions["thirtyone.requests"]`` (the hot path counts its answers there too)."""
    counter = app.extensions["thirtyone.requests"] = RequestCounter()

    @app.before_request
    def started() -> None:
        request.environ[_STARTED] = time.perf_counter()
        start_sampler()

    @app.after_request
    def answered(response: Response) -> Response:
        environ = request.environ
        start = environ.pop(_STARTED, None)
        if start is not None:
            rule = request.url_rule
            counter.count(f"{environ['REQUEST_METHOD']} {rule.rule if rule else '-'}",
                          response.status_code, time.perf_counter() - start)
        return response

    def metrics() -> Response:
        from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

        __getattr__("REQUESTS")  # made, so that every metric is listed from the start
        return Response(generate_latest(_registry()), mimetype=CONTENT_TYPE_LATEST)

    app.add_url_rule("/metrics", "metrics", metrics)


def worker_exited(pid: int) -> None:
    """Drop a dead worker's live gauges (gunicorn's ``child_exit``)."""
    if "PROMETHEUS_MULTIPROC_DIR" in os.environ:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid)
