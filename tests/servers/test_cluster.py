"""Tables on a real Redis Cluster (six nodes of deploy/redis/cluster-node.conf: three primaries
and three replicas) behind two API instances: a primary killed mid-game loses no acknowledged
move and no version is used twice; a worker receives the moves of the tables it streams
alone."""

from __future__ import annotations

import threading
import time

import redis

from thirtyone.web.store import Entry, first_digest
from thirtyone.web.store.redis import RedisStore
from thirtyone.web.tables.ledger import first_record

from .conftest import Instance, RedisNode, request, start_cluster, wait_for
from .harness import Table, check, play_all, resets_in

TABLES = 20


def _primary_of_most(nodes: list[RedisNode], tables: list[Table]) -> RedisNode:
    """The primary that holds the most of the tables."""
    client = redis.cluster.RedisCluster(host="127.0.0.1", port=nodes[0].port)
    counts: dict[int, int] = {}
    for table in tables:
        node = client.get_node_from_key(f"thirtyone:{{{table.table}}}")
        counts[node.port] = counts.get(node.port, 0) + 1
    client.close()
    port = max(counts, key=counts.__getitem__)
    return next(node for node in nodes if node.port == port)


def test_a_primary_killed_mid_game_loses_no_acknowledged_move(processes):
    nodes, url = start_cluster(processes)
    instances = [Instance(processes, url, THIRTYONE_REDIS_REPLICAS="1") for _ in range(2)]
    ports = [instance.port for instance in instances]
    tables = [Table(ports, index) for index in range(TABLES)]
    play_all(tables, 6)
    victim = _primary_of_most(nodes, tables)
    victim.process.kill()
    # Every primary is probed: the dead one shows until its replica takes over, while the
    # instance stays ready (the other shards and the stateless API serve).
    def degraded() -> bool:
        status, ready = request(ports[0], "GET", "/readyz")
        assert status == 200
        return ready["tables"]["status"] == "degraded" and not ready["tables"]["nodes"][
            f"127.0.0.1:{victim.port}"]

    wait_for(degraded, 10, "the dead primary in /readyz")
    # Play goes on: at once on the other shards, and on the victim's once its replica took
    # over and has a replica of its own: the old primary, restarted 5 s later, which rejoins
    # as a replica (until then no replica answers a commit's WAIT 1: a 503). The harness
    # sends each move again, with its Idempotency-Key, while the answer is a 503.
    restart = threading.Timer(5, victim.restart)
    restart.start()
    play_all(tables, 6)
    restart.join()
    play_all(tables, 6)
    cluster = redis.cluster.RedisCluster(host="127.0.0.1", port=nodes[0].port)
    check(tables, ports, resets_in(cluster))
    cluster.close()
    assert sum(len(table.acknowledged) for table in tables) > TABLES * 12


def _pass(store: RedisStore, table: str, count: int) -> None:
    record = store.load(table)
    digest = record.digest
    for version in range(record.version, record.version + count):
        entry = Entry(version + 1, [], [], prev=digest, nonce=str(version)).chained()
        store.commit(table, version, {}, entry)
        digest = entry.digest


def _isolation(url: str) -> None:
    streaming, elsewhere = RedisStore(url, 600), RedisStore(url, 600)
    try:
        for table in ("watched", "busy"):
            record = first_record(f"{table}-{time.monotonic_ns()}", "{}", seats=(),
                                  seed_sha256="")
            assert record.digest == first_digest(record.epoch)
            elsewhere.create(record, {})
            if table == "watched":
                watched = record.table
            else:
                busy = record.table
        with streaming.listen(watched) as woken:
            time.sleep(0.5)  # subscribed
            before = _messages()
            _pass(elsewhere, busy, 10_000)
            time.sleep(0.5)
            assert _messages() == before, "a worker received moves of a table it does not stream"
            woken.clear()
            _pass(elsewhere, watched, 1)
            assert woken.wait(5)
            wait_for(lambda: _messages() == before + 1, 5, "the watched table's move")
    finally:
        streaming.close()
        elsewhere.close()


def _messages() -> float:
    from prometheus_client import REGISTRY

    return REGISTRY.get_sample_value("thirtyone_pubsub_messages_total") or 0.0


def test_a_worker_receives_only_the_moves_of_tables_it_streams(processes, redis_url):
    _isolation(redis_url)
    _, url = start_cluster(processes)
    _isolation(url)
