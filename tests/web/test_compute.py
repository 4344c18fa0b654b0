"""The compute pool: work in another process, and a job a request could not wait for kept for
the next request."""

from __future__ import annotations

import os
import time

import pytest

from thirtyone.web.compute import ComputePool, NotReady


def _logged(path: str, seconds: float) -> int:
    with open(path, "a") as log:
        log.write("started\n")
    time.sleep(seconds)
    return os.getpid()


def test_a_job_runs_in_another_process_and_one_not_ready_is_kept_for_the_next_request(
        tmp_path):
    pool = ComputePool(1, 4)
    log = str(tmp_path / "jobs.log")
    try:
        assert pool.run(os.getpid) != os.getpid()
        with pytest.raises(NotReady):
            pool.result("job", 0.0, _logged, log, 0.5)
        # Asked again, the same job answers: it is not started twice.
        assert pool.result("job", 30.0, _logged, log, 0.5) != os.getpid()
        with open(log) as jobs:
            assert jobs.read() == "started\n"
    finally:
        pool._pool().shutdown(wait=True)


def test_inline_without_processes():
    pool = ComputePool(0, 1)
    assert pool.result("job", 0.0, os.getpid) == os.getpid()
