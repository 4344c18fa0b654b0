"""The Redis store's table watcher waits on its one subscription (up to ``IDLE_SECONDS``, where
it woke every 0.1 s): a stream opening on a table new to the process ends that wait with a
``PING``, so the table is subscribed at once and its first move is pushed at once, not at the
watcher's next round."""

from __future__ import annotations

import time

import pytest
import redis
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


def _calls(client: redis.Redis, command: str) -> int:
    stats = client.info("commandstats").get(f"cmdstat_{command}", {})
    return int(stats.get("calls", 0))


@pytest.mark.slow  # a real redis-server
def test_a_sweep_notes_every_seat_and_reads_every_table_in_one_script_call(redis_url):
    tables = RedisStore(redis_url, 600)
    client = redis.Redis.from_url(redis_url)
    try:
        names = [new_table(tables, f"swept-{index}-{time.monotonic_ns()}") for index in range(3)]
        commit_next(tables, names[1])
        gone = f"gone-{time.monotonic_ns()}"
        tables.touch(names[2], 0, 1000.0)
        tables.sweep({names[0]: [], names[1]: [0, 1]}, 1.0)  # the script loaded
        before = {command: _calls(client, command) for command in ("evalsha", "hset", "hgetall")}
        swept = tables.sweep({names[0]: [0, 1], names[1]: [1], names[2]: [], gone: [0]}, 2000.0)
        after = {command: _calls(client, command) for command in ("evalsha", "hset", "hgetall")}
        # One call for the four tables (the counts include the script's own commands: a
        # seat's time written per seat noted, a read per table there).
        assert {command: after[command] - before[command] for command in after} == {
            "evalsha": 1, "hset": 3, "hgetall": 3}
        assert set(swept) == set(names)  # a table gone is left out
        assert swept[names[0]].seen == {0: 2000.0, 1: 2000.0}
        assert swept[names[1]].seen == {0: 1.0, 1: 2000.0}
        assert swept[names[2]].seen == {0: 1000.0}
        loaded = [tables.load(name) for name in names]
        assert [(found.version, found.digest) for found in swept.values()] == [
            (record.version, record.digest) for record in loaded]
        assert loaded[1].version == 1
        # Nothing noted for a table gone, and a seat's time keeps the table's own expiry.
        assert not client.exists(f"{redis_store.PREFIX}{{{gone}}}:presence")
        assert 0 < client.ttl(f"{redis_store.PREFIX}{{{names[0]}}}:presence") <= 600
    finally:
        client.close()
        tables.close()
