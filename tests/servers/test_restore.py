"""A Redis restored from an older copy of its data (its RDB file, as a backup restores it)
with the API instances restarted on it: the instances remember nothing of what they served,
yet no version acknowledged before the restore is acknowledged again with other content (the
tables go on on new epochs), and a client resuming from the lost timeline is told
``table_reset`` (stream) or 409 ``table_reset`` (long poll), never read backwards silently."""

from __future__ import annotations

import shutil
import socket
from contextlib import closing

import redis

from .conftest import Instance, RedisNode, free_port, request, wait_for
from .harness import Table, bearer, play_all

TABLES = 6


def rdb_saved(port: int, before: int) -> bool:
    info = redis.Redis(port=port).info("persistence")
    return (not info["rdb_bgsave_in_progress"] and info["rdb_last_save_time"] > before
            and info["rdb_last_bgsave_status"] == "ok")


def first_event(port: int, table: str, key: str, cursor: str) -> str:
    """The name of the first event a stream resumed at ``cursor`` sends."""
    with closing(socket.create_connection(("127.0.0.1", port), timeout=30)) as sock:
        sock.sendall(f"GET /v1/tables/{table}/events?key={key} HTTP/1.1\r\n"
                     f"Host: 127.0.0.1\r\nLast-Event-ID: {cursor}\r\n\r\n".encode())
        received = b""
        while b"\ndata: " not in received:
            chunk = sock.recv(65536)
            assert chunk, received
            received += chunk
    head = received.split(b"\r\n\r\n", 1)[1].decode(errors="replace")
    event = next((line for line in head.splitlines() if line.startswith("event: ")), "")
    return event.removeprefix("event: ")


def test_instances_restarted_on_a_restored_redis_never_acknowledge_a_version_twice(processes):
    node = RedisNode(processes, "primary.conf", free_port(), "--appendonly", "no")
    admin = redis.Redis(port=node.port)
    url = f"redis://127.0.0.1:{node.port}/0"
    instances = [Instance(processes, url, workers=2) for _ in range(2)]
    ports = [instance.port for instance in instances]
    tables = [Table(ports, index) for index in range(TABLES)]
    play_all(tables, 6)
    # The backup: the RDB file as BGSAVE wrote it, copied aside.
    before = admin.info("persistence")["rdb_last_save_time"]
    admin.bgsave()
    wait_for(lambda: rdb_saved(node.port, before), 30, "the snapshot")
    shutil.copy(node.folder / "dump.rdb", node.folder / "backup.rdb")
    play_all(tables, 8)
    lost, answered = {}, {}
    for table in tables:
        status, seen = request(ports[0], "GET", f"/v1/tables/{table.table}",
                               headers=bearer(table.keys[0]))
        assert status == 200
        lost[table.table] = seen["cursor"]
        answered[table.table] = len(table.answers)
        table.stream.close()
    acknowledged = sum(len(table.answers) for table in tables)
    # Everything stops; the backup is put back; everything starts again, remembering nothing.
    for instance in instances:
        instance.terminate()
    node.process.kill()
    shutil.copy(node.folder / "backup.rdb", node.folder / "dump.rdb")
    node.restart()
    wait_for(lambda: admin.info("persistence")["loading"] == 0, 30, "the restored data")
    for instance in instances:
        instance.start()
    # Resumed from the lost timeline, even at a version the restored table has: a reset.
    for table in tables:
        cursor = lost[table.table]
        status, polled = request(ports[1], "GET",
                                 f"/v1/tables/{table.table}/updates?after={cursor}&wait=0",
                                 headers=bearer(table.keys[0]))
        assert (status, polled["code"]) == (409, "table_reset"), polled
        assert first_event(ports[0], table.table, table.keys[0], cursor) == "table_reset"
    play_all(tables, 8)
    contents: dict[tuple[str, int], list] = {}
    twice = reused = 0
    for table in tables:
        assert not table.errors, table.errors
        contents.clear()
        for epoch, version, events in table.answers:
            known = contents.setdefault((epoch, version), events)
            twice += known != events
        old, later = table.answers[:answered[table.table]], table.answers[answered[table.table]:]
        assert later, f"{table.table} made no move after the restore"
        # Every answer after the restore names a new epoch.
        assert not {epoch for epoch, _, _ in later} & {epoch for epoch, _, _ in old}, table.table
        versions_before = {version: events for _, version, events in old}
        reused += sum(1 for _, version, events in later
                      if version in versions_before and versions_before[version] != events)
    print(f"{acknowledged} moves acknowledged before the restore; after it, 0 of them "
          f"acknowledged again with other content on their epoch; {reused} version numbers "
          "used again on the new epochs")
    assert twice == 0
