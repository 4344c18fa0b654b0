"""CPU-heavy work off the event loop: a small pool of processes in each worker.

A strong bot's move takes about 50 ms of CPU and a hint up to the advice's cap. Run in a
gevent worker's greenlet, that CPU stops every other connection of the worker (streams,
``/healthz``) meanwhile; run in a thread it holds the GIL for 5 ms at a time (measured with
strong bots' moves back to back under gevent: a greenlet sleeping 1 ms woke 174 times a second
with the work in a thread, 916 with it in a process, p99 12 ms against 2 ms). So such work goes to
``THIRTYONE_COMPUTE_PROCESSES`` processes per worker (1 by default), started on first use at
the lowest CPU priority (nice 19) so that the workers' loops get the cores first; the request
waits for its result cooperatively. At most ``THIRTYONE_COMPUTE_QUEUE`` jobs (16) wait in a
worker at once. The live work (bots' and the autopilot's moves) comes first: hints, reviews
and records take at most :data:`ADVICE_PER_PROCESS` slots per process (one more is a 503
``busy`` with ``Retry-After``) and one client address at most :data:`CLIENT_JOBS` of them
(429 ``client_busy``); a bot's move that finds the queue full is not ready yet, and its
table's scheduler asks again. With 0 processes the work runs in the request itself (an app
made for tests).

Only engine functions are sent (a bot's ``choose``, :func:`thirtyone.advice.advise_view`): a
pool process starts with :func:`thirtyone.pool.start_pool_process` and imports the engine
alone, never the app.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from flask import Flask, current_app, has_request_context, request

from thirtyone.errors import N_
from thirtyone.pool import start_pool_process, timed
from thirtyone.web import metrics
from thirtyone.web.problems import Problem

T = TypeVar("T")

BUSY_RETRY_SECONDS = 2

ADVICE_PER_PROCESS = 2
"""Hints, reviews and records (:meth:`ComputePool.run`) in the pool at once, per process: the
live work (bots' moves, :meth:`ComputePool.result`) waits behind this few at most, and has
the rest of the queue to itself."""

CLIENT_JOBS = 1
"""Hints, reviews and records of one client address in the pool at once: one address asking
many cannot take every slot from the others."""
PENDING_JOBS = 256
"""Jobs left running by requests that could not wait for them, kept for the next request."""


class NotReady(Exception):
    """A job of :meth:`ComputePool.result` still running when its request could wait no more."""


def default_config() -> dict[str, Any]:
    """The pool's settings, from the environment where it names them."""
    processes = os.environ.get("THIRTYONE_COMPUTE_PROCESSES")
    return {
        "THIRTYONE_COMPUTE_PROCESSES": int(processes) if processes else None,
        "THIRTYONE_COMPUTE_QUEUE": int(os.environ.get("THIRTYONE_COMPUTE_QUEUE") or 16),
    }


class ComputePool:
    """``processes`` processes (none: inline) and room for ``queue`` jobs at once.

    >>> ComputePool(0, 1).run(sum, [1, 2, 3])
    6
    """

    def __init__(self, processes: int, queue: int) -> None:
        self.processes = processes
        self._room = max(queue, 1)
        self._slots = threading.BoundedSemaphore(max(queue, 1))
        self._advice = threading.BoundedSemaphore(max(processes * ADVICE_PER_PROCESS, 1))
        self._clients: Counter[str] = Counter()
        self._executor: ProcessPoolExecutor | None = None
        self._pid: int | None = None
        self._lock = threading.Lock()
        self._pending: OrderedDict[Hashable, Future[tuple[float, Any]]] = OrderedDict()

    def run(self, function: Callable[..., T], *args: Any, client: str | None = None,
            **kwargs: Any) -> T:
        """``function(*args, **kwargs)`` in a pool process: work a client asked for (a hint,
        a review, a record), after the live work. A 429 ``client_busy`` when ``client`` has
        :data:`CLIENT_JOBS` in the pool already; a 503 ``busy`` when the advice's share of the
        pool is taken."""
        if self.processes <= 0:
            return function(*args, **kwargs)
        with self._lock:
            if client is not None and self._clients[client] >= CLIENT_JOBS:
                raise client_busy()
            self._clients[client or ""] += 1
        try:
            if not self._advice.acquire(blocking=False):
                raise busy()
            try:
                return self._run(function, *args, **kwargs)
            finally:
                self._advice.release()
        finally:
            with self._lock:
                self._clients[client or ""] -= 1
                if not self._clients[client or ""]:
                    del self._clients[client or ""]

    def _run(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        if not self._slots.acquire(blocking=False):
            raise busy()
        try:
            executor = self._pool()
            try:
                return self._submit(executor, function, args, kwargs).result()[1]
            except BrokenProcessPool:
                self._drop_pool()
                raise busy() from None
        finally:
            self._slots.release()

    def result(self, key: Hashable, seconds: float, function: Callable[..., T], *args: Any,
               **kwargs: Any) -> T:
        """``function(*args, **kwargs)`` in a pool process, waited for ``seconds`` at most:
        :class:`NotReady` if it is still running then. The job goes on, kept under ``key``:
        the next call with that key waits for the same job (it is never started twice).

        This is the live work (bots' and the autopilot's moves): a full queue is
        :class:`NotReady` too, never a 503: the move that asked is committed without the
        bots' answers, and the table's scheduler asks again shortly."""
        if self.processes <= 0:
            return function(*args, **kwargs)
        with self._lock:
            future = self._pending.get(key)
        if future is None:
            if not self._slots.acquire(blocking=False):
                raise NotReady(key)
            try:
                future = self._submit(self._pool(), function, args, kwargs)
            except BaseException:
                self._slots.release()
                raise
            future.add_done_callback(lambda _: self._slots.release())
            with self._lock:
                self._pending[key] = future
                while len(self._pending) > PENDING_JOBS:
                    self._pending.popitem(last=False)
        try:
            done: T = future.result(timeout=max(seconds, 0.0))[1]
            return done
        except FutureTimeout:
            raise NotReady(key) from None
        except BrokenProcessPool:
            self._drop_pool()
            raise busy() from None
        finally:
            if future.done():
                with self._lock:
                    self._pending.pop(key, None)

    def cancel(self, stale: Callable[[Hashable], bool]) -> int:
        """Cancel the jobs of :meth:`result` whose key is ``stale`` and that no process has
        started: nobody will ask for their answers (their table moved on), and the live work
        behind them would wait for nothing. How many were cancelled."""
        with self._lock:
            keys = [key for key, future in self._pending.items()
                    if stale(key) and future.cancel()]
            for key in keys:
                del self._pending[key]
        return len(keys)

    @staticmethod
    def _submit(executor: ProcessPoolExecutor, function: Callable[..., T], args: tuple[Any, ...],
                kwargs: dict[str, Any]) -> Future[tuple[float, T]]:
        """The job in the pool, counted in the pool's metrics until it is done, and the time it
        waited for a process observed when it starts there."""
        submitted = time.time()
        future = executor.submit(timed, function, args, kwargs)
        metrics.POOL_JOBS.inc()

        def done(finished: Future[tuple[float, T]]) -> None:
            metrics.POOL_JOBS.dec()
            if not finished.cancelled() and finished.exception() is None:
                metrics.POOL_WAIT.observe(max(0.0, finished.result()[0] - submitted))

        future.add_done_callback(done)
        return future

    def _drop_pool(self) -> None:
        # A pool process died (killed, out of memory): the next job starts a new pool.
        with self._lock:
            self._executor = None

    def warm(self) -> None:
        """Start the pool's processes now, without waiting for them: a server's worker calls
        it as it starts, so that its first strong bot does not wait for a process to boot."""
        if self.processes > 0:
            executor = self._pool()
            for _ in range(self.processes):
                executor.submit(os.getpid)

    def _pool(self) -> ProcessPoolExecutor:
        # Started in the process that uses it: a gunicorn worker forked from a master that
        # built the app must not share the master's pool (nor its pipes).
        pid = os.getpid()
        with self._lock:
            if self._executor is None or self._pid != pid:
                # spawn, not fork: a forked gevent hub (or a held lock) would be inherited.
                self._executor = ProcessPoolExecutor(
                    self.processes, mp_context=multiprocessing.get_context("spawn"),
                    initializer=start_pool_process, initargs=(pid,),
                )
                if self._pid != pid:
                    metrics.POOL_SLOTS.inc(self._room)  # once per worker, whose pool it is
                self._pid = pid
            return self._executor


def busy() -> Problem:
    return Problem(
        503, "busy",
        N_("The server is busy computing other moves and hints; try again in a few seconds."),
        title=N_("Service unavailable"), headers={"Retry-After": str(BUSY_RETRY_SECONDS)},
    )


def client_busy() -> Problem:
    return Problem(
        429, "client_busy",
        N_("Your address has a hint or review being computed already: ask again once it is "
           "answered."),
        title=N_("Too many requests"), headers={"Retry-After": str(BUSY_RETRY_SECONDS)},
        retry_after=BUSY_RETRY_SECONDS,
    )


def init_app(app: Flask) -> None:
    """The app's pool: 1 process unless ``THIRTYONE_COMPUTE_PROCESSES`` says otherwise, and
    none (inline) in an app made for tests, which has no event loop to keep free (the tests
    on real servers run the pool)."""
    for key, value in default_config().items():
        app.config.setdefault(key, value)
    processes = app.config["THIRTYONE_COMPUTE_PROCESSES"]
    if processes is None:
        processes = 0 if app.config.get("TESTING") else 1
    app.extensions["thirtyone.compute"] = ComputePool(
        int(processes), int(app.config["THIRTYONE_COMPUTE_QUEUE"])
    )


def run(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``function(*args, **kwargs)`` in the app's pool (see :class:`ComputePool`)."""
    pool: ComputePool = current_app.extensions["thirtyone.compute"]
    client = request.remote_addr if has_request_context() else None
    return pool.run(function, *args, client=client, **kwargs)


def result(key: Hashable, seconds: float, function: Callable[..., T], *args: Any,
           **kwargs: Any) -> T:
    """:meth:`ComputePool.result` in the app's pool."""
    pool: ComputePool = current_app.extensions["thirtyone.compute"]
    return pool.result(key, seconds, function, *args, **kwargs)


def cancel(stale: Callable[[Hashable], bool]) -> int:
    """:meth:`ComputePool.cancel` in the app's pool."""
    pool: ComputePool = current_app.extensions["thirtyone.compute"]
    return pool.cancel(stale)
