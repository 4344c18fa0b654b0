"""The Redis store's table watcher waits on its one subscription (up to ``IDLE_SECONDS``, where
it woke every 0.1 s): a stream opening on a table new to the process ends that wait with a
``PING``, so the table is subscribed at once and its first move is pushed at once, not at the
watcher's next round."""

from __future__ import annotations

import time

import pytest
from tests.conftest import calibrated
from tests.web.test_sqlite_listener import commit_next, new_table

from thirtyone.web.store import redis as redis_store
from thirtyone.web.store.redis import RedisStore


@pytest.mark.slow  # a real redis-server
def test_a_table_new_to_the_process_is_subscribed_while_the_watcher_waits(
        redis_url, monkeypatch):
    # The watcher's wait on its subscription would outlast the test: only the ping ends it.
    monkeypatch.setattr(redis_store, "IDLE_SECONDS", 3600.0)
    streaming, elsewhere = RedisStore(redis_url, 600), RedisStore(redis_url, 600)
    try:
        # Names of their own: the test Redis is shared.
        first, second = (new_table(elsewhere, f"{name}-{time.monotonic_ns()}")
                         for name in ("first", "second"))
        with streaming.listen(first) as woken:
            # Subscribed (its confirmation wakes the table's streams), then a move is heard.
            assert woken.wait(calibrated(10))
            woken.clear()
            commit_next(elsewhere, first)
            assert woken.wait(calibrated(10)), "the first table's move was not heard"
            # The watcher now waits on the first table's subscription.
            with streaming.listen(second) as other:
                assert other.wait(calibrated(10)), "the second table was not subscribed"
                other.clear()
                commit_next(elsewhere, second)
                assert other.wait(calibrated(10)), "the second table's move was not heard"
    finally:
        streaming.close()
        elsewhere.close()
