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
from typing import Any

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
# channel, and the new meta (empty: unchanged). Returns 1 when committed, -1 when the table
# is gone, else the current version (as a negative number minus 2, so that version 0 and
# "gone" stay apart).
_COMMIT = """
local current = redis.call('HGET', KEYS[1], 'version')
if not current then return -1 end
if current ~= ARGV[1] then return -2 - tonumber(current) end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'state', ARGV[3])
if ARGV[7] ~= '' then redis.call('HSET', KEYS[1], 'meta', ARGV[7]) end
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


def _presence_key(table: str) -> str:
    return f"{PREFIX}table:{table}:presence"


# The lobby: a sorted set of table ids by creation time.
_LOBBY = f"{PREFIX}lobby"


class RedisStore(TableStore):
    def __init__(self, url: str, ttl: int) -> None:
        super().__init__(ttl)
        pool = redis.BlockingConnectionPool.from_url(
            url, max_connections=64, timeout=5, socket_timeout=5, socket_connect_timeout=2,
        )
        self._client = redis.Redis(connection_pool=pool)
        self._commit = self._client.register_script(_COMMIT)

    def create(self, record: TableRecord, start: dict[str, Any]) -> None:
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
        if version is None:
            raise TableNotFound(table)
        return TableRecord.from_stored(table, int(version), state, meta)

    def start(self, table: str) -> dict[str, Any]:
        try:
            start = self._client.hget(_table_key(table), "start")
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error
        if start is None:
            raise TableNotFound(table)
        return json.loads(start)

    def commit(self, table: str, version: int, state: dict[str, Any], entry: Entry,
               meta: bytes | None = None) -> None:
        try:
            result = self._commit(
                keys=[_table_key(table), _log_key(table)],
                args=[version, entry.version, dumps(state), entry.to_json(), self.ttl,
                      _channel(table), meta or b""],
            )
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error
        if result == -1:
            raise TableNotFound(table)
        if result != 1:
            raise StaleVersion(-2 - result)

    def entries(self, table: str, after: int) -> list[Entry]:
        try:
            rows = self._client.xrange(_log_key(table), min=f"{after + 1}-0")
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error
        return [Entry.from_json(fields[b"entry"]) for _, fields in rows]

    def _watch(self) -> None:
        while True:
            pubsub = self._client.pubsub(ignore_subscribe_messages=True)
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

    def touch(self, table: str, seat: int, when: float) -> None:
        key = _presence_key(table)
        try:
            with self._client.pipeline(transaction=False) as pipe:
                pipe.hset(key, str(seat), repr(when))
                pipe.expire(key, self.ttl)
                pipe.execute()
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error

    def seen(self, table: str) -> dict[int, float]:
        try:
            stored = self._client.hgetall(_presence_key(table))
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error
        return {int(seat): float(when) for seat, when in stored.items()}

    def list_public(self, table: str, when: float) -> None:
        try:
            self._client.zadd(_LOBBY, {table: when})
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error

    def unlist(self, table: str) -> None:
        try:
            self._client.zrem(_LOBBY, table)
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error

    def public_tables(self, offset: int, limit: int) -> tuple[list[str], int]:
        try:
            # Tables that expired while listed leave the lobby here, the first time it is read
            # after their time to live (listed at creation; a waiting table has no moves).
            self._client.zremrangebyscore(_LOBBY, "-inf", time.time() - self.ttl)
            with self._client.pipeline(transaction=False) as pipe:
                pipe.zrevrange(_LOBBY, offset, offset + limit - 1)
                pipe.zcard(_LOBBY)
                ids, total = pipe.execute()
        except _ERRORS as error:
            raise StoreUnavailable(str(error)) from error
        return [table.decode() for table in ids], int(total)

    def close(self) -> None:
        self._client.close()
        self._client.connection_pool.disconnect()
