"""Tables on a Redis watched by Sentinel (deploy/redis/primary.conf, replica.conf and three
sentinels of sentinel.conf) behind two API instances with THIRTYONE_REDIS_REPLICAS=1: the
primary killed mid-game, and restarted after the promotion, loses no acknowledged move; and a
commit that Redis cannot confirm (its replica frozen mid-commit) answers an honest 503, whose
retry with the same Idempotency-Key gets the original answer, never a 409."""

from __future__ import annotations

import signal
import threading
import time
import uuid

import redis
import redis.sentinel
from tests.conftest import calibrated

from .conftest import (
    DEPLOY,
    Instance,
    RedisNode,
    binary,
    claim_seats,
    free_port,
    reads_counted,
    replicas_online,
    request,
    wait_for,
)
from .harness import Table, bearer, check, play_all, resets_in

TABLES = 10
SERVICE = "thirtyone"


def start_sentinels(processes, primary: int) -> list[int]:
    ports = []
    for _ in range(3):
        port = free_port()
        config = processes.folder / f"sentinel-{port}.conf"
        text = (DEPLOY / "redis" / "sentinel.conf").read_text()
        config.write_text(text.replace("127.0.0.1 6379", f"127.0.0.1 {primary}"))
        processes.start([binary("redis-sentinel", "redis-sentinel"), str(config),
                         "--port", str(port), "--bind", "127.0.0.1"], f"sentinel-{port}")
        ports.append(port)
    for port in ports:
        wait_for(lambda port=port: redis.Redis(port=port).sentinel_master(SERVICE)
                 ["num-other-sentinels"] == 2, 30, "the sentinels to know each other")
    return ports


def master_port(sentinel: int) -> int:
    return int(redis.Redis(port=sentinel).sentinel_get_master_addr_by_name(SERVICE)[1])


def named_primary(sentinels: list[int]) -> redis.Redis:
    """A client of the primary the sentinels name now."""
    return redis.sentinel.Sentinel([("127.0.0.1", port) for port in sentinels]).master_for(
        SERVICE)


def test_a_primary_killed_and_restarted_loses_no_acknowledged_move(processes):
    primary = RedisNode(processes, "primary.conf", free_port())
    replica = RedisNode(processes, "replica.conf", free_port(),
                        "--replicaof", "127.0.0.1", str(primary.port))
    wait_for(lambda: replicas_online(primary.port)
             == 1, 20, "the replica")
    sentinels = start_sentinels(processes, primary.port)
    url = "redis+sentinel://" + ",".join(f"127.0.0.1:{port}" for port in sentinels) \
        + f"/{SERVICE}/0"
    instances = [Instance(processes, url, THIRTYONE_REDIS_REPLICAS="1") for _ in range(2)]
    ports = [instance.port for instance in instances]
    tables = [Table(ports, index) for index in range(TABLES)]
    play_all(tables, 6)

    def fail_over() -> None:
        primary.process.kill()
        wait_for(lambda: master_port(sentinels[0]) == replica.port, 30, "the promotion")
        # Back with its own data, as a primary, until Sentinel makes it a replica: a write
        # it takes meanwhile no replica confirms (WAIT 1), so it is never acknowledged; then
        # the new primary has a replica to confirm its commits.
        primary.restart()

    failover = threading.Thread(target=fail_over)
    failover.start()
    play_all(tables, 8)
    failover.join()
    play_all(tables, 6)
    check(tables, ports, resets_in(named_primary(sentinels)))
    assert master_port(sentinels[0]) == replica.port
    assert redis.Redis(port=primary.port).info("replication")["role"] == "slave"


def test_a_primary_killed_and_left_down_writes_resume_on_its_replica(processes):
    """Two replicas, as deploy/redis/ ships them, and no min-replicas-to-write: the primary
    killed and never restarted, writes resume once Sentinel promotes a replica (its sibling
    replicates from it, so WAIT 1 is answered), and no acknowledged move is lost."""
    primary = RedisNode(processes, "primary.conf", free_port())
    replicas = [RedisNode(processes, "replica.conf", free_port(),
                          "--replicaof", "127.0.0.1", str(primary.port)) for _ in range(2)]
    wait_for(lambda: replicas_online(primary.port)
             == 2, 20, "the replicas")
    sentinels = start_sentinels(processes, primary.port)
    url = "redis+sentinel://" + ",".join(f"127.0.0.1:{port}" for port in sentinels) \
        + f"/{SERVICE}/0"
    instances = [Instance(processes, url, THIRTYONE_REDIS_REPLICAS="1") for _ in range(2)]
    ports = [instance.port for instance in instances]
    tables = [Table(ports, index) for index in range(TABLES)]
    play_all(tables, 4)
    killed = time.monotonic()
    primary.process.kill()
    promoted = wait_for(lambda: master_port(sentinels[0]) != primary.port
                        and master_port(sentinels[0]), 30, "the promotion")
    assert promoted in [replica.port for replica in replicas]
    # The promoted replica has a replica of its own: WAIT 1 is answered, writes go on.
    wait_for(lambda: redis.Redis(port=promoted).info("replication")["connected_slaves"] >= 1,
             30, "the sibling replicating from the promoted one")
    play_all(tables, 6)
    print(f"writes resumed {time.monotonic() - killed:.1f} s after the kill")
    check(tables, ports, resets_in(named_primary(sentinels)))
    assert primary.process.process.poll() is not None  # left down


def test_a_commit_redis_cannot_confirm_is_a_503_and_the_retry_the_original(processes):
    """The replica freezes (SIGSTOP) as a move is committed: the primary applied it but no
    replica acknowledges it (WAIT), so the answer is an honest 503; the retry with the same
    Idempotency-Key gets the original answer, never a 409."""
    primary = RedisNode(processes, "primary.conf", free_port())
    replica = RedisNode(processes, "replica.conf", free_port(),
                        "--replicaof", "127.0.0.1", str(primary.port))
    wait_for(lambda: replicas_online(primary.port)
             == 1, 20, "the replica")
    api = Instance(processes, f"redis://127.0.0.1:{primary.port}/0",
                   THIRTYONE_REDIS_REPLICAS="1")
    status, created = request(api.port, "POST", "/v1/tables",
                              {"variant": "scat", "players": 2})
    assert status == 201
    created, keys = claim_seats(lambda method, path, body: request(api.port, method, path, body),
                                created)
    table = created["table"]
    seat = created["to_move"]
    status, mine = request(api.port, "GET", f"/v1/tables/{table}", headers=bearer(keys[seat]))
    body = {"move": mine["legal_moves"][0], "version": mine["version"]}
    headers = {**bearer(keys[seat]), "Idempotency-Key": str(uuid.uuid4())}
    replica.process.signal(signal.SIGSTOP)
    try:
        started = time.monotonic()
        status, answer = request(api.port, "POST", f"/v1/tables/{table}/moves", body, headers)
        assert (status, answer["code"]) == (503, "commit_unconfirmed"), answer
        assert "Idempotency-Key" in answer["detail"]
        assert time.monotonic() - started < calibrated(5)
        # The primary has it: the move was made after all.
        assert redis.Redis(port=primary.port).hget(f"thirtyone:{{{table}}}", "version") \
            == str(mine["version"] + 1).encode()
        # Its retry is no more durable than the first attempt while the replica is frozen:
        # the same honest 503, not the stored answer at once.
        status, retried = request(api.port, "POST", f"/v1/tables/{table}/moves", body, headers)
        assert (status, retried["code"]) == (503, "commit_unconfirmed"), retried
    finally:
        replica.process.signal(signal.SIGCONT)
    # Retried as the problem says, once the replica has caught up: the original answer.
    answers: list[tuple[int, dict]] = []
    wait_for(lambda: answers.append(request(api.port, "POST", f"/v1/tables/{table}/moves",
                                            body, headers)) or answers[-1][0] != 503,
             20, "a confirmed retry")
    status, again = answers[-1]
    assert status == 200, again
    assert again["version"] == mine["version"] + 1
    status, now = request(api.port, "GET", f"/v1/tables/{table}", headers=bearer(keys[seat]))
    assert now["version"] == again["version"] and now["view"] == again["view"]
    # Sent once more, still the same answer, and the table moved once.
    assert request(api.port, "POST", f"/v1/tables/{table}/moves", body, headers) == (200, again)


def test_a_frozen_replica_then_a_killed_primary_with_retries_running_loses_nothing(processes):
    """The replica frozen (SIGSTOP) while every table's moves are being sent, each one again
    with its Idempotency-Key while it answers 503 (the commits the primary applies meanwhile
    no replica confirms); then the primary killed, the replica thawed (SIGCONT) and promoted,
    the old primary back as its replica. No acknowledged move is lost and no version is
    acknowledged twice with other content (on main before the durable retries: 44 of 1,041
    acknowledged moves lost, 10 versions reused)."""
    primary = RedisNode(processes, "primary.conf", free_port())
    replica = RedisNode(processes, "replica.conf", free_port(),
                        "--replicaof", "127.0.0.1", str(primary.port))
    wait_for(lambda: replicas_online(primary.port) == 1, 20, "the replica")
    sentinels = start_sentinels(processes, primary.port)
    url = "redis+sentinel://" + ",".join(f"127.0.0.1:{port}" for port in sentinels) \
        + f"/{SERVICE}/0"
    instances = [Instance(processes, url, workers=2, THIRTYONE_REDIS_REPLICAS="1")
                 for _ in range(2)]
    ports = [instance.port for instance in instances]
    tables = [Table(ports, index) for index in range(TABLES)]
    play_all(tables, 4)
    before = sum(len(table.answers) for table in tables)
    playing = threading.Thread(target=play_all, args=(tables, 12, True))
    replica.process.signal(signal.SIGSTOP)
    try:
        playing.start()
        time.sleep(calibrated(4))  # every table's move is a 503, sent again and again
        primary.process.kill()
        time.sleep(1)
    finally:
        replica.process.signal(signal.SIGCONT)
    wait_for(lambda: master_port(sentinels[0]) == replica.port, 60, "the promotion")
    # The old primary comes back and Sentinel makes it the new primary's replica: WAIT 1 is
    # answered again and the retries are confirmed.
    primary.restart()
    playing.join()
    play_all(tables, 4, resync=True)
    check(tables, ports, resets_in(named_primary(sentinels)))
    unconfirmed = sum(table.refused.count("commit_unconfirmed") for table in tables)
    reused = 0
    for table in tables:
        by_version: dict[int, list] = {}
        for _, version, events in table.answers:
            reused += by_version.setdefault(version, events) != events
    acknowledged = sum(len(table.answers) for table in tables)
    print(f"{acknowledged} moves acknowledged ({acknowledged - before} around the failover), "
          f"0 lost, {reused} versions reused; {unconfirmed} answers 503 commit_unconfirmed "
          f"sent again; {sum(table.resynced for table in tables)} moves read again after a "
          f"409; {sum(len(table.resets) for table in tables)} table_reset pushed")
    assert reused == 0
    # The freeze did what it is for: commits applied and not confirmed, their retries too.
    assert unconfirmed >= TABLES
    assert acknowledged - before >= TABLES
    assert redis.Redis(port=primary.port).info("replication")["role"] == "slave"


def test_the_rate_limits_count_once_for_the_whole_fleet(processes):
    """Two instances on the primary Sentinel names share each client's counts (they were each
    worker's own)."""
    primary = RedisNode(processes, "primary.conf", free_port())
    sentinels = start_sentinels(processes, primary.port)
    url = "redis+sentinel://" + ",".join(f"127.0.0.1:{port}" for port in sentinels) \
        + f"/{SERVICE}/0"
    seen = reads_counted(processes, url)
    assert [remaining for _, remaining in seen] == ["3", "2", "1", "0", "0"]
    assert [status == 429 for status, _ in seen] == [False] * 4 + [True]
