"""The compute pool: work in another process, and a job a request could not wait for kept for
the next request."""

from __future__ import annotations

import os
import time

import pytest

from thirtyone.web.compute import ComputePool, NotReady


def _pid_after(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def test_a_job_runs_in_another_process_and_one_not_ready_is_kept_for_the_next_request():
    pool = ComputePool(1, 4)
    try:
        assert pool.run(os.getpid) != os.getpid()
        with pytest.raises(NotReady):
            pool.result("job", 0.0, _pid_after, 0.5)
        start = time.monotonic()
        # The same job, not a new one: it ends about when the first one began plus 0.5 s.
        assert pool.result("job", 10.0, _pid_after, 0.5) != os.getpid()
        assert time.monotonic() - start < 0.5
    finally:
        pool._pool().shutdown(wait=True)


def test_inline_without_processes():
    pool = ComputePool(0, 1)
    assert pool.result("job", 0.0, os.getpid) == os.getpid()
