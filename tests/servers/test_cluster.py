"""Tables on a real Redis Cluster (nine nodes of deploy/redis/cluster-node.conf: three primaries
with two replicas each, as shipped) behind two API instances: a primary killed mid-game and
left down loses no acknowledged move, no version is used twice, and its shard takes moves
again within the failover time (its promoted replica still has a replica to confirm them);
a worker receives the moves of the tables it streams alone."""

from __future__ import annotations

import threading
import time

import redis
from tests.conftest import calibrated

from thirtyone.web.store import Entry, first_digest
from thirtyone.web.store.redis import RedisStore
from thirtyone.web.tables.ledger import first_record

from .conftest import Instance, RedisNode, reads_counted, request, start_cluster, wait_for
from .harness import Table, check, play_all, resets_in

TABLES = 20
NODE_TIMEOUT = 3.0
"""deploy/redis/cluster-node.conf's `cluster-node-timeout`, in seconds."""


def _by_primary(nodes: list[RedisNode], tables: list[Table]) -> tuple[RedisNode, list[Table]]:
    """The primary that holds the most of the tables, and its tables."""
    client = redis.cluster.RedisCluster(host="127.0.0.1", port=nodes[0].port)
    held: dict[int, list[Table]] = {}
    for table in tables:
        node = client.get_node_from_key(f"thirtyone:{{{table.table}}}")
        held.setdefault(node.port, []).append(table)
    client.close()
    port = max(held, key=lambda port: len(held[port]))
    return next(node for node in nodes if node.port == port), held[port]


def test_a_primary_killed_and_left_down_loses_no_acknowledged_move(processes):
    nodes, url = start_cluster(processes)
    instances = [Instance(processes, url, THIRTYONE_REDIS_REPLICAS="1") for _ in range(2)]
    ports = [instance.port for instance in instances]
    tables = [Table(ports, index) for index in range(TABLES)]
    play_all(tables, 6)
    victim, shard = _by_primary(nodes, tables)
    killed = time.monotonic()
    victim.process.kill()
    # Every primary is probed: the dead one shows until its replica takes over, while the
    # instance stays ready (the other shards and the stateless API serve).
    def degraded() -> bool:
        status, ready = request(ports[0], "GET", "/readyz")
        assert status == 200
        return ready["tables"]["status"] == "degraded" and not ready["tables"]["nodes"][
            f"127.0.0.1:{victim.port}"]

    wait_for(degraded, 10, "the dead primary in /readyz")
    # Play goes on at once on the other shards; on the victim's once a replica took over,
    # with the other replica now its own (each commit's WAIT 1 is answered): the dead node
    # is never restarted. The harness sends each move again, with its Idempotency-Key,
    # while the answer is a 503.
    others = [table for table in tables if table not in shard]
    elsewhere = threading.Thread(target=play_all, args=(others, 6))
    elsewhere.start()
    first = shard[0]
    before = first.version
    first.play(1)
    outage = time.monotonic() - killed
    assert not first.errors and first.version > before, first.errors
    elsewhere.join()
    play_all(shard, 6)
    play_all(tables, 6)
    alive = next(node for node in nodes if node is not victim)  # the victim stays down
    cluster = redis.cluster.RedisCluster(host="127.0.0.1", port=alive.port)
    check(tables, ports, resets_in(cluster))
    cluster.close()
    assert victim.process.process.poll() is not None
    assert sum(len(table.acknowledged) for table in tables) > TABLES * 12
    # Moves resumed on the dead primary's shard within the failover time: the node timeout,
    # the failure agreed by the other primaries, a replica's election (about 1-2 s more).
    assert outage < calibrated(3 * NODE_TIMEOUT), outage
    print(f"a primary killed and left down: moves on its shard resumed after {outage:.1f} s "
          f"(node timeout {NODE_TIMEOUT:.0f} s); {len(shard)} of {TABLES} tables on it")


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
    _, url = start_cluster(processes, replicas=1)  # no failover here: fewer nodes do
    _isolation(url)


def test_the_rate_limits_count_once_for_the_whole_fleet(processes):
    """Two instances on one Cluster share each client's counts (they were each worker's own)."""
    _, url = start_cluster(processes, replicas=0)
    seen = reads_counted(processes, url)
    assert [remaining for _, remaining in seen] == ["3", "2", "1", "0", "0"]
    assert [status == 429 for status, _ in seen] == [False] * 4 + [True]


def test_a_presence_sweep_reads_tables_on_every_primary(processes):
    """On a cluster a sweep's script keeps to one slot: one call per table, each table's seats
    noted and its version read, wherever its slot is."""
    _, url = start_cluster(processes, replicas=0)
    tables = RedisStore(url, 600)
    try:
        names = []
        for index in range(12):  # a dozen slots: every primary holds some
            record = first_record(f"swept-{index}-{time.monotonic_ns()}", "{}", seats=(),
                                  seed_sha256="")
            tables.create(record, {})
            names.append(record.table)
        gone = f"gone-{time.monotonic_ns()}"
        swept = tables.sweep({**{name: [0, 1] for name in names}, gone: [0]}, 1000.0)
        assert set(swept) == set(names)
        assert all(found.seen == {0: 1000.0, 1: 1000.0} and found.version == 0
                   for found in swept.values()), swept
        again = tables.sweep({name: [] for name in names}, 2000.0)
        assert {name: found.seen for name, found in again.items()} == {
            name: {0: 1000.0, 1: 1000.0} for name in names}
    finally:
        tables.close()
