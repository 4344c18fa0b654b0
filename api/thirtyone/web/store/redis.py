"""Tables in Redis: the store for several servers behind a load balancer.

Each table is a hash (``version``, ``digest``, ``epoch``, ``state``, ``meta``, two snapshots,
and ``req:<key>`` for each idempotent request it committed), a Redis Stream, its log, whose
entry ids are ``<version>-0`` (a stream reads the versions after its cursor with one
``XRANGE``), and a sorted set, its archive: each version's moves, scored by the version. The
keys carry the table's id as a hash tag (``thirtyone:{<table>}``), so they sit in one hash
slot of a Redis Cluster and one script can change them all. A commit is that Lua script,
atomic in Redis: it checks the version and its digest, writes the state, appends the entry to
the log and its moves to the archive, keeps a snapshot every ``SNAPSHOT_EVERY`` versions and
trims the log before the older snapshot, renews the keys' time to live and publishes the
entry on the table's shard channel.

With ``replicas`` > 0 the commit is followed, on the same connection, by ``WAIT``: the move is
acknowledged (and published) only once that many replicas have it, so a failover cannot lose
it; the deployment guide runs two replicas per primary (README, Deployment).

Each table's hash also keeps the *lineage* of the data it was last committed in: the node's
replication id, which Redis draws anew whenever its data may not continue what it served (a
restart from its files, a restored copy, a promoted replica). A commit on a table of another
lineage is refused (:class:`TableReloaded`) unless it moves the table onto a new epoch, and a
load says so (:attr:`TableRecord.reloaded`): instances restarted on a restored Redis remember
nothing, yet never acknowledge a version of an epoch twice (ARCHITECTURE.md, "A store that
lost versions").

Each process subscribes (``SSUBSCRIBE``, sharded pub/sub) to the channels of the tables its
own streams wait on, and to nothing else: what a worker receives grows with what it streams,
not with the fleet. In a cluster it holds one subscription connection per primary that owns
such a channel. One connection per open stream would exhaust the pool at a few hundred
streams. The pool blocks for up to 2 s when all its connections are busy, so a burst waits
rather than fails.
"""

from __future__ import annotations

import contextlib
import json
import logging
import string
import threading
import time
import zlib
from collections.abc import Collection, Iterator, Mapping
from typing import Any
from urllib.parse import urlsplit

import redis
import redis.cluster
import redis.exceptions
import redis.sentinel
from redis.backoff import NoBackoff
from redis.retry import Retry

from thirtyone.web import metrics
from thirtyone.web.jsonio import deflate, dumps
from thirtyone.web.store import (
    KEPT_LOG_SECONDS,
    KEPT_REQUESTS,
    SNAPSHOT_EVERY,
    Archived,
    CommitUnconfirmed,
    Entry,
    RequestRecord,
    StaleVersion,
    StoreFull,
    StoreUnavailable,
    Swept,
    TableExists,
    TableLost,
    TableNotFound,
    TableRecord,
    TableReloaded,
    TableStore,
)

_log = logging.getLogger(__name__)

PREFIX = "thirtyone:"
WAIT_MS = 1000
"""How long a commit waits for its replicas before it is an honest 503."""
LINEAGE_SECONDS = 2.0
"""How long a process takes a node's lineage as it last read it, for reads: a commit checks
it in Redis itself, and a table whose commit found another lineage is read anew at once."""
IDLE_SECONDS = 1.0
"""How long the table watcher waits on its subscription with nothing heard and nothing asked
of it (see :meth:`RedisStore._receive`): how long a table no stream here waits on any more
stays subscribed, and how soon a wait a ``PING`` failed to end ends all the same."""

# The lineage of the node's data (see the module's docstring): its replication id, which Redis
# draws anew whenever its data may not be the continuation of what it served (a restart from
# its files, a copy restored, a replica promoted). INFO in a script costs Redis 7.0 about 4
# microseconds, and a pattern match on its text 2 more.
_LINEAGE = "string.match(redis.call('INFO', 'replication'), 'master_replid:(%w+)')"

# KEYS: the table's hash, its log, its channel, its archive. ARGV: expected version, expected
# digest, new version, new digest, state, entry, archived moves, new epoch (or ''), then the
# other fields of the hash it writes, name and value (the metadata, a request's record).
# Returns {1} when committed, {2} when this very entry is the table's last already (a retried
# commit), {-1} when the table is gone, {0, current} when it is at another version or digest,
# {3, current} when the table was last written in another lineage of the node's data: only
# the entry that moves it onto a new epoch (a new epoch in ARGV[8]) is committed then. The
# store's own constants are in the script's text ($ttl, $publish, $snapshot_every: see
# _commit_script).
#
# Each call into Redis from a script costs 1-3 microseconds (Redis 7.0), a write more than a
# read, and each argument about a thousand instructions plus twelve a byte: the hash is read
# once (its fields, and whether it holds a snapshot) and written once, and nothing is passed
# that the script can hold. The table's lineage is found in INFO's text by a plain search for
# its line (the common case); the node's own is parsed out only to write it.
_COMMIT = string.Template("""
local current = redis.call('HMGET', KEYS[1], 'version', 'digest', 'snap_version', 'lineage')
if not current[1] then return {-1} end
if current[1] ~= ARGV[1] or current[2] ~= ARGV[2] then
  if current[1] == ARGV[3] and current[2] == ARGV[4] then return {2} end
  return {0, tonumber(current[1])}
end
local fields = {'version', ARGV[3], 'digest', ARGV[4], 'state', ARGV[5]}
local info = redis.call('INFO', 'replication')
if not (current[4] and string.find(info, 'master_replid:' .. current[4] .. '\\r', 1, true)) then
  if ARGV[8] == '' then return {3, tonumber(current[1])} end
  table.insert(fields, 'lineage')
  table.insert(fields, string.match(info, 'master_replid:(%w+)'))
end
if ARGV[8] ~= '' then
  table.insert(fields, 'epoch')
  table.insert(fields, ARGV[8])
end
for i = 9, #ARGV do table.insert(fields, ARGV[i]) end
-- A string: Redis formats a Lua number given to a command anew at each call. A compacted
-- table (its match archived: no snapshot of its own) keeps its short time to live and no
-- moves.
local ttl = '$ttl'
local finished = redis.call('HEXISTS', KEYS[1], 'snap_state') == 0
local trimmed = false
if not finished and tonumber(ARGV[3]) - tonumber(current[3]) >= $snapshot_every then
  table.insert(fields, 'prev_version')
  table.insert(fields, current[3])
  table.insert(fields, 'prev_state')
  table.insert(fields, redis.call('HGET', KEYS[1], 'snap_state'))
  table.insert(fields, 'snap_version')
  table.insert(fields, ARGV[3])
  table.insert(fields, 'snap_state')
  table.insert(fields, ARGV[5])
  trimmed = true
end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('XADD', KEYS[2], ARGV[3] .. '-0', 'entry', ARGV[6])
if trimmed then redis.call('XTRIM', KEYS[2], 'MINID', (tonumber(current[3]) + 1) .. '-0') end
if finished then
  ttl = math.max(redis.call('TTL', KEYS[1]), 1)
else
  -- A new epoch: what the archive holds from this version on is the lost timeline's.
  if ARGV[8] ~= '' then redis.call('ZREMRANGEBYSCORE', KEYS[4], ARGV[3], '+inf') end
  redis.call('ZADD', KEYS[4], ARGV[3], ARGV[7])
end
redis.call('EXPIRE', KEYS[1], ttl)
redis.call('EXPIRE', KEYS[2], ttl)
redis.call('EXPIRE', KEYS[4], ttl)
if $publish then redis.call('SPUBLISH', KEYS[3], ARGV[6]) end
return {1}
""")


def _commit_script(ttl: int, publish: bool) -> str:
    """The commit script of a store whose tables live ``ttl`` seconds after their last move
    and whose commits publish their entry (``publish``: no replicas to wait for first)."""
    return _COMMIT.substitute(ttl=int(ttl), publish="true" if publish else "false",
                              snapshot_every=int(SNAPSHOT_EVERY))


# KEYS: the table's hash, its log, its archive, its presence, its snapshots while the log
# stays. ARGV: the ttl, the requests kept (versions), the log's time to live. Returns 0 when
# the table is gone.
_COMPACT = """
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return 0 end
-- The snapshots move to a key of their own that lives as long as the log: a stream behind
-- replays from them meanwhile; then the one snapshot is the state itself ('state').
local snaps = redis.call('HMGET', KEYS[1], 'snap_version', 'snap_state', 'prev_version',
                         'prev_state')
redis.call('DEL', KEYS[5])
if snaps[2] then
  redis.call('HSET', KEYS[5], 'snap_version', snaps[1], 'snap_state', snaps[2])
  if snaps[4] then
    redis.call('HSET', KEYS[5], 'prev_version', snaps[3], 'prev_state', snaps[4])
  end
end
redis.call('HSET', KEYS[1], 'snap_version', version)
redis.call('HDEL', KEYS[1], 'snap_state', 'prev_version', 'prev_state')
local oldest = tonumber(version) - tonumber(ARGV[2])
local fields = redis.call('HKEYS', KEYS[1])
for _, name in ipairs(fields) do
  if string.sub(name, 1, 4) == 'req:' then
    local kept = cjson.decode(redis.call('HGET', KEYS[1], name))
    if kept['version'] <= oldest then redis.call('HDEL', KEYS[1], name) end
  end
end
-- The log stays a little while (ARGV[3] seconds), for the streams that were behind when the
-- match ended; then a reader behind resyncs from the state (a stream of even one entry holds
-- a 4 KB node).
-- Who is connected no longer matters once the match is over.
redis.call('DEL', KEYS[3], KEYS[4])
redis.call('EXPIRE', KEYS[1], ARGV[1])
local grace = math.min(tonumber(ARGV[1]), tonumber(ARGV[3]))
redis.call('EXPIRE', KEYS[2], grace)
redis.call('EXPIRE', KEYS[5], grace)
return 1
"""

# KEYS: the table's hash, its presence. ARGV: the seat, when it was seen. Presence lives as
# long as its table (a compacted table's short while included), and not without it.
_TOUCH = """
local ttl = redis.call('TTL', KEYS[1])
if ttl < 1 then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[2], ttl)
return 1
"""

# A presence sweep of some tables (one slot each on a cluster, see RedisStore.sweep). KEYS: each
# table's hash and presence hash, in pairs. ARGV: the time, then for each table the number of
# its seats to note as seen at that time (as _TOUCH does) and those seats. Returns, per table,
# its version, digest and presence hash's fields and values; an empty array for a table gone.
_SWEEP = """
local at = 2
local answers = {}
for i = 1, #KEYS, 2 do
  local count = tonumber(ARGV[at])
  if count > 0 then
    local ttl = redis.call('TTL', KEYS[i])
    if ttl >= 1 then
      for j = at + 1, at + count do redis.call('HSET', KEYS[i + 1], ARGV[j], ARGV[1]) end
      redis.call('EXPIRE', KEYS[i + 1], ttl)
    end
  end
  at = at + count + 1
  local head = redis.call('HMGET', KEYS[i], 'version', 'digest')
  if head[1] then
    answers[#answers + 1] = {head[1], head[2] or '', redis.call('HGETALL', KEYS[i + 1])}
  else
    answers[#answers + 1] = {}
  end
end
return answers
"""
_SWEEP_TABLES = 200
"""Tables per sweep call: Redis runs nothing else while a script runs."""

# KEYS: the table's hash. ARGV: the fields of a new table, then the ttl. Returns 0 when a
# table of that id exists.
_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'lineage', """ + _LINEAGE + """, unpack(ARGV, 1, #ARGV - 1))
redis.call('EXPIRE', KEYS[1], ARGV[#ARGV])
return 1
"""

_UNAVAILABLE = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError,
                redis.exceptions.BusyLoadingError, redis.exceptions.ReadOnlyError,
                redis.exceptions.ClusterError, redis.exceptions.RedisClusterException,
                redis.exceptions.ResponseError)


def error_class(error: Exception) -> str:
    """What an SRE alerts on, for an error of redis-py: ``oom``, ``noreplicas`` (a primary
    refusing writes for want of replicas), ``moved`` (MOVED or ASK: a slot changed hands),
    ``readonly`` (a replica, or a demoted primary), ``loading``, ``timeout``, ``connection``,
    ``cluster`` (no node answers for a slot) or ``other``.

    >>> error_class(redis.exceptions.ResponseError("NOREPLICAS Not enough good replicas"))
    'noreplicas'
    >>> error_class(redis.exceptions.ResponseError("MOVED 3999 127.0.0.1:6381"))
    'moved'
    """
    message = str(error)
    if isinstance(error, redis.exceptions.OutOfMemoryError) or message.startswith("OOM"):
        return "oom"
    if message.startswith("NOREPLICAS"):
        return "noreplicas"
    if isinstance(error, redis.exceptions.MovedError | redis.exceptions.AskError) or (
            message.startswith(("MOVED ", "ASK "))):
        return "moved"
    classes: tuple[tuple[type[Exception], str], ...] = (
        (redis.exceptions.ReadOnlyError, "readonly"),
        (redis.exceptions.BusyLoadingError, "loading"),
        (redis.exceptions.TimeoutError, "timeout"),
        (redis.exceptions.ConnectionError, "connection"),
        (redis.exceptions.ClusterError, "cluster"),
        (redis.exceptions.RedisClusterException, "cluster"),
    )
    return next((name for kind, name in classes if isinstance(error, kind)), "other")


def _unavailable(error: Exception, *, sent: bool = False) -> StoreUnavailable:
    """The store's error for what Redis raised: a refusal for memory is :class:`StoreFull`; a
    write that was sent and not answered may have been applied."""
    metrics.STORE_ERRORS.labels(error_class(error)).inc()
    if isinstance(error, redis.exceptions.OutOfMemoryError):
        return StoreFull(str(error))
    # Only a refused connection (nothing listens) or no known primary proves that nothing was
    # sent; a timeout may come from a retry after the first attempt reached Redis. redis-py
    # names no separate error for a refusal: its message says so.
    unsent = (isinstance(error, redis.sentinel.MasterNotFoundError)
              or "Connection refused" in str(error))
    if sent and not unsent and isinstance(
            error, redis.exceptions.ConnectionError | redis.exceptions.TimeoutError):
        return CommitUnconfirmed(str(error))
    return StoreUnavailable(str(error))


def _table_key(table: str) -> str:
    return f"{PREFIX}{{{table}}}"


def _log_key(table: str) -> str:
    return f"{PREFIX}{{{table}}}:log"


def _archive_key(table: str) -> str:
    return f"{PREFIX}{{{table}}}:archive"


def _snapshots_key(table: str) -> str:
    return f"{PREFIX}{{{table}}}:snapshots"


def _channel(table: str) -> str:
    return f"{PREFIX}{{{table}}}:moves"


def _inflate(state: bytes) -> bytes:
    """A state as stored, compressed (see :func:`_packed`) or not (a new table's: a JSON
    object, whose first byte no zlib stream has)."""
    return state if state[:1] == b"{" else zlib.decompress(state)


def _packed(state: bytes) -> bytes:
    """A committed state as the commit script takes it: compressed (:func:`deflate`), when
    that is shorter. Every byte a script is given costs Redis 7.0 about 12
    instructions (Lua hashes and copies each argument, and its collector sweeps them): the
    1.7 KB of a two-seat scat state in mid-round is 0.64 KB compressed, 12,000 instructions
    (8%) less per commit for 12 us of the app's CPU, and about 3 KB less per live table
    (the state and its two snapshots)."""
    packed = deflate(state)
    return packed if len(packed) < len(state) else state


def _presence_key(table: str) -> str:
    return f"{PREFIX}{{{table}}}:presence"


# The lobby: a sorted set of table ids by creation time (one key, on one node of a cluster).
_LOBBY = f"{PREFIX}lobby"


def _lister_key(lister: str) -> str:
    """The sorted set of one client's listed tables (by creation time), kept the tables'
    time to live: its members that left the lobby are dropped when it is read."""
    return f"{PREFIX}lobby:lister:{lister}"


_GONE = b"gone"
"""Published on a table's channel when a seat's last stream in a process ended (a log entry
is a JSON object): the processes streaming the table read its seats at once."""


def _table_of(channel: bytes) -> str:
    text = channel.decode()
    return text[text.index("{") + 1:text.rindex("}")]


def _nodes(netloc: str) -> list[tuple[str, int]]:
    nodes = []
    for part in netloc.split(","):
        host, _, port = part.rpartition(":")
        nodes.append((host or "127.0.0.1", int(port or 6379)))
    return nodes


# A Redis command takes well under a millisecond: one that has not answered in 2 s is a
# frozen or lost Redis, and the request answers 503 rather than hold its worker. One retry, at
# once, on a fresh connection: a pooled connection may be dead after a restart or failover.
_CLIENT: dict[str, Any] = {"socket_timeout": 2, "socket_connect_timeout": 2,
                           "retry": Retry(NoBackoff(), 1)}


class RedisStore(TableStore):
    def __init__(self, url: str, ttl: int, replicas: int = 0) -> None:
        super().__init__(ttl)
        self.replicas = replicas
        self._cluster: redis.cluster.RedisCluster | None = None
        if url.startswith("redis+cluster://"):
            parts = urlsplit(url)
            self._cluster = redis.cluster.RedisCluster(
                startup_nodes=[redis.cluster.ClusterNode(host, port)
                               for host, port in _nodes(parts.netloc)],
                # A full pool waits for a connection (redis-py allows 20 s) rather than fail.
                connection_pool_class=redis.BlockingConnectionPool, max_connections=64,
                **_CLIENT,
            )
            self._client: Any = self._cluster
        elif url.startswith("redis+sentinel://"):
            parts = urlsplit(url)
            service, _, db = parts.path.strip("/").partition("/")
            sentinel = redis.sentinel.Sentinel(_nodes(parts.netloc), **_CLIENT)
            # Sentinel's pool cannot wait for a free connection: it may open more instead.
            self._client = sentinel.master_for(service, db=int(db or 0), max_connections=256,
                                               **_CLIENT)
        else:
            pool = redis.BlockingConnectionPool.from_url(url, max_connections=64, timeout=2,
                                                         **_CLIENT)
            self._client = redis.Redis(connection_pool=pool)
        self._scripts: dict[int, tuple[Any, Any, Any, Any, Any]] = {}
        self._scripts_lock = threading.Lock()
        # Each node's lineage as last read (see LINEAGE_SECONDS), by id of its client.
        self._lineages: dict[int, tuple[float, bytes]] = {}
        self._closed = threading.Event()
        # The one subscription the table watcher waits on now, if it does (see _receive).
        self._waiting_on: Any = None

    def _node(self, table: str) -> Any:
        """The client that talks to the primary holding ``table``: a commit and its ``WAIT``
        must go over one connection of that node, which a cluster client does not promise,
        and a plain client costs a third less time per call than the cluster client's
        routing. A slot that moved answers MOVED, which is a 503 (and a refresh of the slot
        map) for that one request."""
        if self._cluster is None:
            return self._client
        node = self._cluster.get_node_from_key(_table_key(table))
        return self._cluster.get_redis_connection(node)

    def _script(self, client: Any) -> tuple[Any, Any, Any, Any, Any]:
        with self._scripts_lock:
            scripts = self._scripts.get(id(client))
            if scripts is None:
                scripts = (client.register_script(_commit_script(self.ttl, self.replicas <= 0)),
                           client.register_script(_CREATE),
                           client.register_script(_COMPACT), client.register_script(_TOUCH),
                           client.register_script(_SWEEP))
                self._scripts[id(client)] = scripts
            return scripts

    def _refresh(self, error: Exception) -> None:
        """After a node failed or moved its slots, learn the cluster's new shape."""
        if self._cluster is not None and isinstance(
                error, redis.exceptions.ConnectionError | redis.exceptions.MovedError
                | redis.exceptions.TimeoutError):
            # When that fails too, the next request tries again.
            with contextlib.suppress(redis.exceptions.RedisError):
                self._cluster.nodes_manager.initialize()

    def create(self, record: TableRecord, start: Mapping[str, Any]) -> None:
        state = dumps(start)
        fields = ["version", record.version, "digest", record.digest, "epoch", record.epoch,
                  "state", record.state_json, "meta", record.meta_json(),
                  "snap_version", 0, "snap_state", state]
        node = self._node(record.table)
        with metrics.store_call("create"):
            try:
                created = self._script(node)[1](keys=[_table_key(record.table)],
                                                args=[*fields, self.ttl])
            except _UNAVAILABLE as error:
                self._refresh(error)
                raise _unavailable(error, sent=True) from error
        if not created:
            raise TableExists(record.table)

    def load(self, table: str) -> TableRecord:
        node = self._node(table)
        with metrics.store_call("load"):
            try:
                lineage = self._lineage(node)
                version, state, meta, epoch, digest, written = node.hmget(
                    _table_key(table), ["version", "state", "meta", "epoch", "digest",
                                        "lineage"])
            except _UNAVAILABLE as error:
                self._refresh(error)
                raise _unavailable(error) from error
        if version is None:
            raise TableNotFound(table)
        return TableRecord.from_stored(table, int(version), _inflate(state), meta, epoch,
                                       digest, reloaded=written != lineage)

    def _lineage(self, node: Any) -> bytes:
        """The lineage of ``node``'s data (its replication id), read at most every
        :data:`LINEAGE_SECONDS`."""
        now = time.monotonic()
        known = self._lineages.get(id(node))
        if known is not None and now - known[0] < LINEAGE_SECONDS:
            return known[1]
        lineage = str(node.info("replication")["master_replid"]).encode()
        self._lineages[id(node)] = (now, lineage)
        return lineage

    def snapshot(self, table: str, at: int) -> tuple[int, dict[str, Any]] | None:
        try:
            snap_version, snap_state, prev_version, prev_state, state = self._node(table).hmget(
                _table_key(table),
                ["snap_version", "snap_state", "prev_version", "prev_state", "state"])
        except _UNAVAILABLE as error:
            self._refresh(error)
            raise _unavailable(error) from error
        if snap_version is None:
            # A record without its snapshot is a table half gone (evicted, or restored from
            # a partial copy): lost, not unknown.
            if self._node(table).exists(_table_key(table)):
                raise TableLost(table)
            raise TableNotFound(table)
        if snap_state is None:
            # A compacted table (see :meth:`compact`): its snapshots while its log stays,
            # then the state itself.
            try:
                kept = self._node(table).hmget(_snapshots_key(table), [
                    "snap_version", "snap_state", "prev_version", "prev_state"])
            except _UNAVAILABLE as error:
                self._refresh(error)
                raise _unavailable(error) from error
            if kept[1] is not None:
                snap_version, snap_state, prev_version, prev_state = kept
            else:
                snap_state = state
        if int(snap_version) <= at:
            return int(snap_version), json.loads(_inflate(snap_state))
        if prev_version is not None and int(prev_version) <= at:
            return int(prev_version), json.loads(_inflate(prev_state))
        return None

    def commit(self, table: str, version: int, state: Mapping[str, Any], entry: Entry,
               meta: bytes | None = None) -> None:
        key, request = entry.request or ("", None)
        wait = self.replicas > 0
        node = self._node(table)
        args = [version, entry.prev, entry.version, entry.digest, _packed(dumps(state)),
                entry.to_json(), Archived.of(entry).to_json(),
                (entry.reset and entry.digest) or ""]
        if meta is not None:
            args += ["meta", meta]
        if request is not None:
            args += [f"req:{key}", request.to_json()]
        keys = [_table_key(table), _log_key(table), _channel(table), _archive_key(table)]
        commit = self._script(node)[0]
        with metrics.store_call("commit"):
            try:
                if wait:
                    with node.pipeline(transaction=False) as pipe:
                        commit(keys=keys, args=args, client=pipe)
                        pipe.wait(self.replicas, WAIT_MS)
                        result, acknowledged = pipe.execute()
                else:
                    result = commit(keys=keys, args=args)
            except _UNAVAILABLE as error:
                self._refresh(error)
                raise _unavailable(error, sent=True) from error
        if result[0] == -1:
            raise TableNotFound(table)
        if result[0] == 0:
            raise StaleVersion(int(result[1]))
        if result[0] == 3:
            # The node's data was reloaded under this process: read its lineage anew, so
            # the table's next load says so and moves it onto a new epoch.
            self._lineages.pop(id(node), None)
            raise TableReloaded(int(result[1]))
        if wait:
            if acknowledged < self.replicas:
                metrics.STORE_ERRORS.labels("wait_timeout").inc()
                raise CommitUnconfirmed(f"{acknowledged} of {self.replicas} replicas have it")
            try:
                node.spublish(_channel(table), entry.to_json())
            except _UNAVAILABLE as error:
                # Committed and replicated: the streams read it from the log when they
                # resubscribe, or at their next quiet read.
                self._refresh(error)

    def confirm(self, table: str) -> None:
        if self.replicas <= 0:
            return
        node = self._node(table)
        with metrics.store_call("confirm"):
            try:
                with node.pipeline(transaction=False) as pipe:
                    # A write of this connection after the commit (the table's lifetime, set
                    # again): WAIT counts the replicas that reached it, which hold the commit
                    # too, the primary's replication stream being in order.
                    pipe.expire(_table_key(table), self.ttl)
                    pipe.wait(self.replicas, WAIT_MS)
                    _, acknowledged = pipe.execute()
            except _UNAVAILABLE as error:
                self._refresh(error)
                raise _unavailable(error) from error
        if acknowledged < self.replicas:
            metrics.STORE_ERRORS.labels("WaitTimeout").inc()
            raise CommitUnconfirmed(f"{acknowledged} of {self.replicas} replicas have it")

    def entries(self, table: str, after: int) -> list[Entry]:
        with metrics.store_call("entries"):
            try:
                rows = self._node(table).xrange(_log_key(table), min=f"{after + 1}-0")
            except _UNAVAILABLE as error:
                self._refresh(error)
                raise _unavailable(error) from error
        return [Entry.from_json(fields[b"entry"]) for _, fields in rows]

    def archive(self, table: str) -> list[Archived]:
        with metrics.store_call("archive"):
            try:
                with self._node(table).pipeline(transaction=False) as pipe:
                    pipe.exists(_table_key(table))
                    pipe.zrange(_archive_key(table), 0, -1)
                    known, rows = pipe.execute()
            except _UNAVAILABLE as error:
                self._refresh(error)
                raise _unavailable(error) from error
        if not known:
            raise TableNotFound(table)
        return [Archived.from_json(row) for row in rows]

    def compact(self, table: str, ttl: int) -> None:
        node = self._node(table)
        keys = [_table_key(table), _log_key(table), _archive_key(table), _presence_key(table),
                _snapshots_key(table)]
        with metrics.store_call("compact"):
            try:
                self._script(node)[2](keys=keys, args=[ttl, KEPT_REQUESTS, KEPT_LOG_SECONDS])
                self._deflate(node, table)
            except _UNAVAILABLE as error:
                self._refresh(error)
                raise _unavailable(error) from error

    @staticmethod
    def _deflate(node: Any, table: str) -> None:
        """A compacted table's state, kept for late readers only, compressed at zlib's best
        level (a commit stores it at the fastest): 1.6 KB of JSON is most of a finished
        table (it holds the last round's history and the stock), 55-60% less once
        compressed. Left as it is if a commit (a rematch's announcement) comes in between:
        that commit wrote its own state."""
        with contextlib.suppress(redis.exceptions.WatchError), \
                node.pipeline(transaction=True) as pipe:
            pipe.watch(_table_key(table))
            state = pipe.hget(_table_key(table), "state")
            if state is None:
                return
            packed = zlib.compress(_inflate(state), 9)
            if len(packed) < len(state):
                pipe.multi()
                pipe.hset(_table_key(table), "state", packed)
                pipe.execute()

    def request(self, table: str, key: str) -> RequestRecord | None:
        try:
            stored = self._node(table).hget(_table_key(table), f"req:{key}")
        except _UNAVAILABLE as error:
            self._refresh(error)
            raise _unavailable(error) from error
        return None if stored is None else RequestRecord.from_json(stored)

    def ping(self) -> None:
        try:
            if self._cluster is not None:
                # One primary that answers: during one shard's failover the others serve, and
                # an instance taken out of the pool for it would serve none of them.
                self._cluster.ping(target_nodes=redis.cluster.RedisCluster.RANDOM)
            else:
                self._client.ping()
        except _UNAVAILABLE as error:
            self._refresh(error)
            raise _unavailable(error) from error

    def check(self) -> dict[str, bool]:
        if self._cluster is None:
            return super().check()
        # Every primary on its own: a probe of one random node missed a dead shard.
        try:
            primaries = self._cluster.get_primaries()
        except _UNAVAILABLE as error:
            self._refresh(error)
            return {"cluster": False}
        answers = {}
        for node in primaries:
            try:
                answers[node.name] = bool(self._cluster.get_redis_connection(node).ping())
            except _UNAVAILABLE as error:
                self._refresh(error)
                answers[node.name] = False
        return answers or {"cluster": False}

    def _subscriber(self, table: str) -> tuple[str, Any]:
        """The node that publishes ``table``'s channel, and a client for it."""
        if self._cluster is None:
            return "", self._client
        node = self._cluster.get_node_from_key(_channel(table))
        return node.name, self._cluster.get_redis_connection(node)

    def _watch(self) -> None:
        while not self._closed.is_set():
            subscriptions: dict[str, Any] = {}
            tables: dict[str, str] = {}
            try:
                while not self._closed.is_set():
                    self.hub.changed.clear()
                    wanted = set(self.hub.tables())
                    for table in [table for table in tables if table not in wanted]:
                        subscriptions[tables.pop(table)].sunsubscribe(_channel(table))
                    for table in wanted - set(tables):
                        name, client = self._subscriber(table)
                        if name not in subscriptions:
                            subscriptions[name] = client.pubsub()
                        subscriptions[name].ssubscribe(_channel(table))
                        tables[table] = name
                    self._receive(list(subscriptions.values()))
            except (*_UNAVAILABLE, OSError) as error:
                self._refresh(error)
                time.sleep(0.5)
            except Exception:
                # The watcher must outlive anything a subscription does (a socket closed
                # under it, say): without it no stream of this process hears a move.
                _log.exception("the table watcher failed; it subscribes again")
                time.sleep(0.5)
            finally:
                for pubsub in subscriptions.values():
                    pubsub.close()
                # Subscriptions lost: a commit published meanwhile was missed, so every
                # local stream reads its log once when they are made again.
                self.hub.notify_all()

    @contextlib.contextmanager
    def listen(self, table: str) -> Iterator[threading.Event]:
        with super().listen(table) as woken:
            if self.hub.changed.is_set():
                # A table new here, maybe: the watcher subscribes to it now, not at its next
                # round.
                self._stir()
            yield woken

    def _stir(self) -> None:
        """End the table watcher's wait on its one subscription: a ``PING`` on it, whose
        answer the watcher reads (once per wait, however many streams open meanwhile)."""
        pubsub, self._waiting_on = self._waiting_on, None
        if pubsub is not None and pubsub.connection is not None:
            # The watcher's own wait ends anyway within IDLE_SECONDS, or fails and subscribes
            # again.
            with contextlib.suppress(*_UNAVAILABLE, OSError):
                pubsub.ping()

    def _receive(self, subscriptions: list[Any]) -> None:
        """Hand out what the subscriptions bring until the tables streamed here change (or
        :data:`IDLE_SECONDS` pass), through redis-py's public API only.

        One subscription (a single server, a sentinel's master) waits in ``get_message`` until
        a push arrives, handed out at once, or a stream opens on a table new here (its
        :meth:`listen` pings the subscription, whose answer ends the wait: see :meth:`_stir`),
        or :data:`IDLE_SECONDS` pass: an idle worker wakes once a second (it woke ten times a
        second, a sixth of what 1,000 idle streams cost). A table no stream waits on any more
        is unsubscribed at the next round. Several subscriptions (one per cluster node) are
        read in turn without waiting, then the thread waits 5 ms: waiting on each node in
        turn would delay a push by the others' timeouts, and redis-py offers no public wait
        on many connections at once."""
        connected = [pubsub for pubsub in subscriptions if pubsub.connection is not None]
        if any(not pubsub.connection.is_connected for pubsub in connected):
            raise redis.exceptions.ConnectionError("a subscription's connection was closed")
        if len(connected) == 1 and connected[0].subscribed:
            self._receive_one(connected[0])
            return
        deadline = time.monotonic() + IDLE_SECONDS
        while not self.hub.changed.is_set() and time.monotonic() < deadline:
            if not connected or not any(pubsub.subscribed for pubsub in connected):
                # Nothing to hear: a stream's first wait on a table (hub.changed) ends this.
                self.hub.changed.wait(IDLE_SECONDS)
                return
            for pubsub in connected:
                while (message := pubsub.get_message(timeout=0.0)) is not None:
                    self._handle(message)
            self.hub.changed.wait(0.005)

    def _receive_one(self, pubsub: Any) -> None:
        """Hand out what ``pubsub`` brings, for up to :data:`IDLE_SECONDS` or until the tables
        streamed here change (see :meth:`_receive`)."""
        deadline = time.monotonic() + IDLE_SECONDS
        # Before looking at hub.changed: a stream that sets it after the look pings pubsub.
        self._waiting_on = pubsub
        try:
            while not self.hub.changed.is_set() and (
                    left := deadline - time.monotonic()) > 0:
                message = pubsub.get_message(timeout=left)
                if message is not None:
                    self._handle(message)  # a PONG (see _stir) is no message of ours
        finally:
            self._waiting_on = None

    def _handle(self, message: dict[str, Any]) -> None:
        if message["type"] == "smessage" and message["data"] == _GONE:
            self.hub.left.set()
        elif message["type"] == "smessage":
            metrics.PUBSUB_MESSAGES.inc()
            entry = Entry.from_json(message["data"])
            metrics.PUBSUB_LAG.observe(max(0.0, time.time() - entry.at))
            self.hub.notify(_table_of(message["channel"]), entry)
        elif message["type"] == "ssubscribe":
            # Subscribed now: a commit made between a stream's read of the log and this
            # moment was not heard, so that table's streams read the log once more.
            self.hub.notify(_table_of(message["channel"]))

    def touch(self, table: str, seat: int, when: float) -> None:
        node = self._node(table)
        try:
            self._script(node)[3](keys=[_table_key(table), _presence_key(table)],
                                  args=[str(seat), repr(when)])
        except _UNAVAILABLE as error:
            self._refresh(error)
            raise _unavailable(error) from error

    tells_gone = True

    def gone(self, table: str, seat: int) -> None:
        try:
            # In order on one connection: a process that hears it reads the seat gone.
            with self._node(table).pipeline(transaction=False) as pipe:
                pipe.hdel(_presence_key(table), str(seat))
                pipe.spublish(_channel(table), _GONE)
                pipe.execute()
        except _UNAVAILABLE as error:
            self._refresh(error)
            raise _unavailable(error) from error

    def seen(self, table: str) -> dict[int, float]:
        try:
            stored = self._node(table).hgetall(_presence_key(table))
        except _UNAVAILABLE as error:
            self._refresh(error)
            raise _unavailable(error) from error
        return {int(seat): float(when) for seat, when in stored.items()}

    def sweep(self, seats: Mapping[str, Collection[int]], when: float) -> dict[str, Swept]:
        # One script call for up to _SWEEP_TABLES tables (the seats noted and the tables read
        # together), in one pipeline per node: a round trip, and no Redis command per seat.
        # A cluster's script touches one slot: one call per table there.
        per_call = 1 if self._cluster is not None else _SWEEP_TABLES
        by_node: dict[int, tuple[Any, list[str]]] = {}
        for table in seats:
            node = self._node(table)
            by_node.setdefault(id(node), (node, []))[1].append(table)
        swept: dict[str, Swept] = {}
        failed: Exception | None = None
        with metrics.store_call("sweep"):
            for node, tables in by_node.values():
                calls = [tables[first:first + per_call]
                         for first in range(0, len(tables), per_call)]
                try:
                    script = self._script(node)[4]
                    with node.pipeline(transaction=False) as pipe:
                        for called in calls:
                            args: list[str] = [repr(when)]
                            for table in called:
                                args += [str(len(seats[table])), *map(str, seats[table])]
                            script(keys=[key for table in called for key in (
                                _table_key(table), _presence_key(table))], args=args, client=pipe)
                        answers = pipe.execute()
                    for called, answer in zip(calls, answers, strict=True):
                        for table, found in zip(called, answer, strict=True):
                            if found:
                                version, digest, stored = found
                                times = iter(stored)
                                swept[table] = Swept(
                                    {int(seat): float(at) for seat, at in zip(
                                        times, times, strict=True)},
                                    int(version), digest.decode())
                except _UNAVAILABLE as error:
                    # A cluster node down: its tables are left out, the others' swept.
                    self._refresh(error)
                    failed = error
        if failed is not None and not swept:
            raise _unavailable(failed) from failed
        return swept

    def list_public(self, table: str, when: float, lister: str | None = None) -> None:
        try:
            self._client.zadd(_LOBBY, {table: when})
            if lister is not None:
                # Its own key, on its own node of a cluster: two calls, not a transaction (a
                # table the lobby lost is dropped from the lister's set when it is read).
                self._client.zadd(_lister_key(lister), {table: when})
                self._client.expire(_lister_key(lister), self.ttl)
        except _UNAVAILABLE as error:
            self._refresh(error)
            raise _unavailable(error) from error

    def listed_by(self, lister: str) -> list[str]:
        key = _lister_key(lister)
        try:
            tables = self._client.zrevrange(key, 0, -1)
            if not tables:
                return []
            scores = self._client.zmscore(_LOBBY, tables)
            gone = [table for table, score in zip(tables, scores, strict=True) if score is None]
            if gone:
                self._client.zrem(key, *gone)
        except _UNAVAILABLE as error:
            self._refresh(error)
            raise _unavailable(error) from error
        return [table.decode() for table, score in zip(tables, scores, strict=True)
                if score is not None]

    def unlist(self, table: str) -> None:
        try:
            self._client.zrem(_LOBBY, table)
        except _UNAVAILABLE as error:
            self._refresh(error)
            raise _unavailable(error) from error

    def public_tables(self, offset: int, limit: int) -> tuple[list[str], int]:
        try:
            # Tables that expired while listed leave the lobby here, the first time it is
            # read after their time to live (listed at creation; a waiting table has no move).
            self._client.zremrangebyscore(_LOBBY, "-inf", time.time() - self.ttl)
            ids = self._client.zrevrange(_LOBBY, offset, offset + limit - 1)
            total = self._client.zcard(_LOBBY)
        except _UNAVAILABLE as error:
            self._refresh(error)
            raise _unavailable(error) from error
        return [table.decode() for table in ids], int(total)

    def close(self) -> None:
        self._closed.set()
        self._client.close()
