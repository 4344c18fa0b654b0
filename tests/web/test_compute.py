"""The compute pool: work in another process, and a job a request could not wait for kept for
the next request."""

from __future__ import annotations

import os
import time

import pytest
from tests.conftest import calibrated
from tests.pool_jobs import logged

from thirtyone.web import metrics
from thirtyone.web.compute import ComputePool, NotReady

WAIT = calibrated(60)
"""How long a test waits for a job: the pool runs at the lowest CPU priority."""


def test_a_job_runs_in_another_process_and_one_not_ready_is_kept_for_the_next_request(
        tmp_path):
    pool = ComputePool(1, 4)
    log = str(tmp_path / "jobs.log")
    try:
        assert pool.run(os.getpid) != os.getpid()
        with pytest.raises(NotReady):
            pool.result("job", 0.0, logged, log, 0.5)
        # Asked again, the same job answers: it is not started twice.
        assert pool.result("job", WAIT, logged, log, 0.5) != os.getpid()
        with open(log) as jobs:
            assert jobs.read() == "started\n"
    finally:
        pool._pool().shutdown(wait=True)


def test_jobs_of_a_table_that_moved_on_are_cancelled_unless_started(tmp_path):
    from thirtyone.web.tables.playing import job_key, stale_jobs

    pool = ComputePool(1, 8)
    log = str(tmp_path / "jobs.log")
    try:
        # The one process is busy; the executor hands it one job more in advance.
        with pytest.raises(NotReady):
            pool.result("blocker", 0.0, time.sleep, 1.0)
        keys = [job_key("bot", ("t", "e", version, "d"), 1) for version in (3, 3, 4, 5)]
        keys[1] = job_key("bot", ("other", "e", 3, "d"), 1)
        for key in keys:
            with pytest.raises(NotReady):
                pool.result(key, 0.0, logged, log, 0.0)
        # Table t is at version 5 now: its jobs at 3 and 4 are asked for by nobody.
        cancelled = pool.cancel(stale_jobs("t", 5))
        assert cancelled >= 1
        # The other table's job and t's job at 5 still answer; no cancelled job ever ran.
        assert pool.result(keys[1], WAIT, logged, log, 0.0) != os.getpid()
        assert pool.result(keys[3], WAIT, logged, log, 0.0) != os.getpid()
        pool.result("blocker", WAIT, time.sleep, 1.0)
        with open(log) as jobs:
            assert jobs.read().count("started") == len(keys) - cancelled
        assert pool.cancel(stale_jobs("t", 6)) == 0  # nothing pending is left of t
    finally:
        pool._pool().shutdown(wait=True)
    metrics.POOL_SLOTS.dec(8)


def _value(name: str) -> float:
    from prometheus_client import REGISTRY

    found = REGISTRY.get_sample_value(name)
    return 0.0 if found is None else found


def test_the_pool_counts_its_jobs_room_and_wait():
    pool = ComputePool(1, 4)
    slots, waits = _value("thirtyone_pool_slots"), _value("thirtyone_pool_wait_seconds_count")
    waited = _value("thirtyone_pool_wait_seconds_sum")
    try:
        with pytest.raises(NotReady):
            pool.result("slow", 0.0, time.sleep, 1.0)
        # The slow job computes while a second waits behind it for the one process.
        assert _value("thirtyone_pool_jobs") >= 1
        assert _value("thirtyone_pool_slots") == slots + 4
        assert pool.run(os.getpid) != os.getpid()
        pool.result("slow", WAIT, time.sleep, 1.0)
        deadline = time.monotonic() + calibrated(30)
        while _value("thirtyone_pool_jobs") and time.monotonic() < deadline:
            time.sleep(0.05)  # the done callbacks run on the pool's own thread
        assert _value("thirtyone_pool_jobs") == 0
        assert _value("thirtyone_pool_wait_seconds_count") == waits + 2
        # The second job waited for the first to end: most of its second.
        assert _value("thirtyone_pool_wait_seconds_sum") - waited >= 0.5
    finally:
        pool._pool().shutdown(wait=True)
    metrics.POOL_SLOTS.dec(4)


def test_inline_without_processes():
    pool = ComputePool(0, 1)
    assert pool.result("job", 0.0, os.getpid) == os.getpid()


def test_one_address_takes_one_advice_slot_and_live_work_is_never_refused(tmp_path):
    """Sixteen reviews from one address: one runs, the others are 429 client_busy at once;
    another address still gets its hint; a bot's move never gets a 503 (at worst it is not
    ready yet, and its table's scheduler asks again)."""
    import contextlib
    import threading

    from thirtyone.web.problems import Problem

    pool = ComputePool(1, 4)
    log = str(tmp_path / "jobs.log")
    answers: list[object] = []

    def review_from(client: str) -> None:
        try:
            answers.append(pool.run(logged, log, 1.0, client=client))
        except Problem as problem:
            answers.append(problem.code)

    try:
        pool.run(os.getpid)  # the pool's process started
        attackers = [threading.Thread(target=review_from, args=("203.0.113.9",))
                     for _ in range(16)]
        for thread in attackers:
            thread.start()
        time.sleep(0.3)
        assert pool.run(os.getpid, client="198.51.100.7") != os.getpid()
        for index in range(8):
            # Thinking, or the queue is full: NotReady, never a 503.
            with contextlib.suppress(NotReady):
                pool.result(("bot", index), 0.0, os.getpid)
        for thread in attackers:
            thread.join()
        assert answers.count("client_busy") == 15 and len(answers) == 16
    finally:
        pool._pool().shutdown(wait=True)
