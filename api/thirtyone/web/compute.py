"""CPU-heavy work off the event loop: a small pool of processes in each worker.

A strong bot's move takes about 50 ms of CPU and a hint up to the advice's cap. Run in a
gevent worker's greenlet, that CPU stops every other connection of the worker (streams,
``/healthz``) meanwhile; run in a thread it holds the GIL for 5 ms at a time (measured with
strong bots' moves back to back under gevent: a greenlet sleeping 1 ms woke 174 times a second
with the work in a thread, 916 with it in a process, p99 12 ms against 2 ms). So such work goes to
``THIRTYONE_COMPUTE_PROCESSES`` processes per worker (1 by default), started on first use at
the lowest CPU priority (nice 19) so that the workers' loops get the cores first; the request
waits for its result cooperatively. At most ``THIRTYONE_COMPUTE_QUEUE`` jobs (16) wait in a
worker at once; one more is answered 503 ``busy`` with ``Retry-After``, rather than held.
With 0 processes the work runs in the request itself (a test's app, a script).

Only engine functions are sent (a bot's ``choose``, :func:`thirtyone.advice.advise_view`): a
pool process imports the engine alone, never the app.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from flask import Flask, current_app

from thirtyone.errors import N_
from thirtyone.web.problems import Problem

T = TypeVar("T")

NICENESS = 19
BUSY_RETRY_SECONDS = 2


def default_config() -> dict[str, Any]:
    """The pool's settings, from the environment where it names them."""
    return {
        "THIRTYONE_COMPUTE_PROCESSES": int(os.environ.get("THIRTYONE_COMPUTE_PROCESSES") or 1),
        "THIRTYONE_COMPUTE_QUEUE": int(os.environ.get("THIRTYONE_COMPUTE_QUEUE") or 16),
    }


class ComputePool:
    """``processes`` processes (none: inline) and room for ``queue`` jobs at once.

    >>> ComputePool(0, 1).run(sum, [1, 2, 3])
    6
    """

    def __init__(self, processes: int, queue: int) -> None:
        self.processes = processes
        self._slots = threading.BoundedSemaphore(max(queue, 1))
        self._executor: ProcessPoolExecutor | None = None
        self._pid: int | None = None
        self._lock = threading.Lock()

    def run(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``function(*args, **kwargs)`` in a pool process; a 503 ``busy`` problem when the
        queue is full."""
        if self.processes <= 0:
            return function(*args, **kwargs)
        if not self._slots.acquire(blocking=False):
            raise busy()
        try:
            executor = self._pool()
            try:
                return executor.submit(function, *args, **kwargs).result()
            except BrokenProcessPool:
                # A pool process died (killed, out of memory): the next job starts a new pool.
                with self._lock:
                    if self._executor is executor:
                        self._executor = None
                raise busy() from None
        finally:
            self._slots.release()

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
                    initializer=os.nice, initargs=(NICENESS,),
                )
                self._pid = pid
            return self._executor


def busy() -> Problem:
    return Problem(
        503, "busy",
        N_("The server is busy computing other moves and hints; try again in a few seconds."),
        title=N_("Service unavailable"), headers={"Retry-After": str(BUSY_RETRY_SECONDS)},
    )


def init_app(app: Flask) -> None:
    for key, value in default_config().items():
        app.config.setdefault(key, value)
    app.extensions["thirtyone.compute"] = ComputePool(
        int(app.config["THIRTYONE_COMPUTE_PROCESSES"]), int(app.config["THIRTYONE_COMPUTE_QUEUE"])
    )


def run(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``function(*args, **kwargs)`` in the app's pool (see :class:`ComputePool`)."""
    pool: ComputePool = current_app.extensions["thirtyone.compute"]
    return pool.run(function, *args, **kwargs)
