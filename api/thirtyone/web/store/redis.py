"""Tables in Redis: the store for several servers behind a load balancer.

Each table is a hash (``version``, ``state``, ``meta``, ``start``) and a Redis Stream, its
log, whose entry ids are ``<version>-0``: a stream reads the versions after its cursor with
one ``XRANGE``. A commit is a Lua script, atomic in Redis: it checks the version, writes the
state, appends the entry, renews both keys' time to live and publishes the entry on the
table's channel.

Each process runs one listener (a pattern subscription to every table's channel) that hands
the entry to the local streams of that table; a stream that missed more reads the log from its
cursor. One connection per open stream would exhaust the pool at a few hundred streams. The
pool blocks for up to 5 s when all its connections are busy, so a burst waits rather than
fails.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any, cast

import redis

from thirtyone.web.jsonio import dumps
from thirtyone.web.store import (
    Entry,
    StaleVersion,
    StoreUnavailable,
    TableNotFound,
    TableRecord,
    TableStore,
)

PREFIX = "thirtyone:"

# KEYS: the table's hash, its log. ARGV: expected version, new version, state, entry, ttl,
# channel. Returns 1 when committed, -1 when the table is gone, else the current version
# (as a negative number minus 2, so that version 0 and "gone" stay apart).
_COMMIT = """
local current = redis.call('HGET', KEYS[1], 'version')
if not current then return -1 end
if current ~= ARGV[1] then return -2 - tonumber(current) end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'state', ARGV[3])
redis.call('XADD', KEYS[2], ARGV[2] .. '-0', 'entry', ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
redis.call('EXPIRE', KEYS[2], ARGV[5])
redis.call('PUBLISH', ARGV[6], ARGV[4])
return 1
"""

_ERRORS = (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError,
           redis.ReadOnlyError)


def _table_key(table: str) -> str:
    return f"{PREFIX}table:{table}"


def _log_key(table: str) -> str:
    return f"{PREFIX}table:{table}:log"


def _channel(table: str) -> str:
    return f"{PREFIX}moves:{table}"


class RedisStore(TableStore):
    def __init__(self, url: str, ttl: int) -> None:
        super().__init__(ttl)
        pool = redis.BlockingConnectionPool.from_url(
            url, max_connections=64, timeout=5, socket_timeout=5, socket_connect_timeout=2,
        )
        self._client = redis.Redis(connection_pool=pool)
        self._commit = self._client.register_script(_COMMIT)

    def create(self, record: TableRecord, start: Mapping[str, Any]) -> None:
        key = _table_key(record.table)
        try:
            with self._client.pipeline(transaction=True) as pipe:
                pipe.hset(key, mapping={"version": record.version,
                                        "state": record.state_json,
                                        "meta": record.meta_json(),
                                        "start": dumps(start)})
                pipe.expire(key, self.ttl)
                pipe.execute()
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error

    def load(self, table: str) -> TableRecord:
        try:
            version, state, meta = self._client.hmget(
                _table_key(table), ["version", "state", "meta"]
            )
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error
        if version is None or state is None or meta is None:
            raise TableNotFound(table)
        return TableRecord.from_stored(table, int(version), state, meta)

    def start(self, table: str) -> dict[str, Any]:
        try:
            start = self._client.hget(_table_key(table), "start")
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error
        if start is None:
            raise TableNotFound(table)
        data: dict[str, Any] = json.loads(start)
        return data

    def commit(self, table: str, version: int, state: Mapping[str, Any], entry: Entry) -> None:
        try:
            result = self._commit(
                keys=[_table_key(table), _log_key(table)],
                args=[version, entry.version, dumps(state), entry.to_json(), self.ttl,
                      _channel(table)],
            )
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error
        if result == -1:
            raise TableNotFound(table)
        if result != 1:
            raise StaleVersion(-2 - result)

    def entries(self, table: str, after: int) -> list[Entry]:
        try:
            # The synchronous client answers a list of (id, fields) pairs.
            rows = cast(list[tuple[bytes, dict[bytes, bytes]]],
                        self._client.xrange(_log_key(table), min=f"{after + 1}-0"))
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error
        return [Entry.from_json(fields[b"entry"]) for _, fields in rows]

    def _watch(self) -> None:
        while True:
            pubsub = self._client.pubsub(  # type: ignore[no-untyped-call]  # redis-py's own
                ignore_subscribe_messages=True)
            try:
                pubsub.psubscribe(f"{PREFIX}moves:*")
                # Subscribed (again): a commit published while this listener was away
                # would be missed, so every local stream reads its log once.
                self.hub.notify_all()
                channel_start = len(_channel(""))
                while True:
                    message = pubsub.get_message(timeout=1.0)
                    if message is not None and message["type"] == "pmessage":
                        self.hub.notify(message["channel"][channel_start:].decode(),
                                        Entry.from_json(message["data"]))
            except (*_ERRORS, OSError):
                time.sleep(0.5)
            finally:
                pubsub.close()

    def close(self) -> None:
        self._client.close()
        self._client.connection_pool.disconnect()
