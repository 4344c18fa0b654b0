"""A table's versions: read from the store, committed to it, and rebuilt from its log.

Each version is the state after the moves of its log entry; this process keeps the last state
of each table it committed or read (:class:`StateCache`), by version *and digest*, so a move at
the version it saw last neither reads nor checks the state again, and a state is never served
for a version the store has on another timeline.

A version never goes backwards. A store restored from an older copy, or a failover that lost
writes, may hold an older version of a table than one this process saw (or the same version
with another digest). :func:`load_table` notices it (the cache remembers) and moves the table
onto a new epoch at a version above any it saw (:func:`catch_up`): the versions a client saw
are never reused, a move chosen on the lost timeline is stale, and a stream sends
``table_reset`` and resyncs. A process started after the loss remembers nothing: there the
store tells (:attr:`TableRecord.reloaded`, a table last written before the store's data was
reloaded) and the table is moved onto a new epoch the same way, before any commit.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import re
import secrets
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from apispec import APISpec
from flask import Flask, current_app

from thirtyone.errors import N_
from thirtyone.game import GameState
from thirtyone.web import draining, metrics
from thirtyone.web.jsonio import dumps
from thirtyone.web.problems import Problem
from thirtyone.web.store import (
    Entry,
    RequestRecord,
    StaleVersion,
    TableLost,
    TableNotFound,
    TableRecord,
    TableStore,
    first_digest,
)
from thirtyone.web.store.schemes import open_store
from thirtyone.web.tables.playing import replay_move
from thirtyone.web.tables.table import of, stored

_log = logging.getLogger(__name__)

_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}\Z")


def default_config() -> dict[str, Any]:
    """The tables' settings, from the environment where it names them."""
    return {
        "THIRTYONE_STORE": os.environ.get("THIRTYONE_STORE"),
        "THIRTYONE_TABLE_TTL": int(os.environ.get("THIRTYONE_TABLE_TTL") or 86_400),
        # How many Redis replicas must have a commit before it is acknowledged (WAIT).
        "THIRTYONE_REDIS_REPLICAS": int(os.environ.get("THIRTYONE_REDIS_REPLICAS") or 0),
        # A comment line this often keeps proxies from closing a quiet stream.
        "TABLE_KEEPALIVE_SECONDS": 15.0,
        # A stream ends after this long; the browser's EventSource reconnects at once with
        # Last-Event-ID, so nothing is lost, and servers can stop without waiting on it.
        "TABLE_STREAM_SECONDS": 300.0,
    }


def init_app(app: Flask) -> None:
    """Open the table store named by ``THIRTYONE_STORE``.

    Without one, tables go to a SQLite file in the temporary folder of this process: they do
    not survive a restart and other workers do not see them (``thirtyone serve`` and ``make
    serve`` name a file under ``.data/``).
    """
    for key, value in default_config().items():
        app.config.setdefault(key, value)
    url = app.config["THIRTYONE_STORE"]
    if not url:
        path = os.path.join(tempfile.mkdtemp(prefix="thirtyone-"), "tables.sqlite3")
        url = f"sqlite:///{path}"
        _log.warning("THIRTYONE_STORE is not set: tables are kept in %s, for this process only",
                     path)
    tables = open_store(url, int(app.config["THIRTYONE_TABLE_TTL"]),
                        int(app.config["THIRTYONE_REDIS_REPLICAS"]))
    app.extensions["thirtyone.tables"] = tables
    app.extensions["thirtyone.table_states"] = StateCache()
    # A stopping instance wakes its streams, which then tell their clients to reconnect.
    draining.on_stop(tables.hub.notify_all)


def document(spec: APISpec) -> None:
    """The seat key, as an HTTP bearer credential, in the contract."""
    spec.components.security_scheme("seatKey", {
        "type": "http", "scheme": "bearer",
        "description": "A seat's key from `POST /v1/tables`: `Authorization: Bearer <key>`.",
    })


def store() -> TableStore:
    """The app's table store."""
    tables: TableStore = current_app.extensions["thirtyone.tables"]
    return tables


AFTER_COMMIT = "thirtyone.after_commit"
"""The app's extension listing what runs after each commit of a version, with the table as
then stored and its state (the scheduler: :mod:`.scheduler`)."""

MAX_VERSIONS = 100_000
"""The most versions a table may have: a match of the engine ends long before."""


def new_epoch() -> str:
    """A new table's epoch: random, so two timelines of one table never share digests."""
    return secrets.token_hex(8)


def first_record(table: str, state_json: str | bytes, **meta: Any) -> TableRecord:
    """A new table's record at version 0, on a new epoch."""
    epoch = new_epoch()
    return TableRecord(table=table, version=0, state_json=state_json, epoch=epoch,
                       digest=first_digest(epoch), **meta)


class StateCache:
    """The last state of each table that this process committed or read, by version and
    digest, with the table's record at that version when the process had it.

    A state is immutable and a (version, digest) names one state, so a move at the version
    this process saw last skips reading and checking the state again (about half of a move's
    work); with keep-alive connections, a seat's requests mostly reach the same worker. The
    newest (version, digest) it saw of a table is what :func:`load_table` checks the store
    against. A (version, digest) names one record too (seats, keys and every other field of
    the metadata change only by a commit, which makes a new version with a new digest): a
    move named at that version is tried on it without reading the table (:func:`held`).

    >>> cache = StateCache(size=1)
    >>> cache.put("t1", 2, "d2", "state 2"); cache.put("t1", 1, "d1", "state 1")
    >>> cache.get("t1", 2, "d2"), cache.get("t1", 2, "other"), cache.get("t1", 1, "d1")
    ('state 2', None, None)
    >>> cache.put("t2", 0, "d0", "state 0"); cache.get("t1", 2, "d2") is None
    True
    """

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._states: OrderedDict[str, tuple[int, str, GameState, TableRecord | None]] = (
            OrderedDict())
        self._lock = threading.Lock()

    def get(self, table: str, version: int, digest: str) -> GameState | None:
        with self._lock:
            cached = self._states.get(table)
        if cached is not None and cached[0] == version and cached[1] == digest:
            return cached[2]
        return None

    def record(self, table: str, version: int) -> TableRecord | None:
        """The table's record at ``version``, if that is the newest version held here and
        the process had its record (it committed or read it, not only replayed it)."""
        with self._lock:
            cached = self._states.get(table)
        return cached[3] if cached is not None and cached[0] == version else None

    def seen(self, table: str) -> tuple[int, str] | None:
        """The newest version (and its digest) of ``table`` that this process holds."""
        with self._lock:
            cached = self._states.get(table)
        return None if cached is None else (cached[0], cached[1])

    def put(self, table: str, version: int, digest: str, state: GameState,
            record: TableRecord | None = None) -> None:
        with self._lock:
            cached = self._states.get(table)
            if cached is not None and cached[0] > version:
                return  # a stream catching up keeps no old version over the newest
            if record is None and cached is not None and cached[:2] == (version, digest):
                record = cached[3]  # the same version, replayed: its record stays
            self._states[table] = (version, digest, state, record)
            self._states.move_to_end(table)
            if len(self._states) > self.size:
                self._states.popitem(last=False)

    def forget(self, table: str) -> None:
        with self._lock:
            self._states.pop(table, None)


def _states() -> StateCache:
    states: StateCache = current_app.extensions["thirtyone.table_states"]
    return states


def load_table(table: str, seen: tuple[int, str] | None = None) -> TableRecord:
    """The table's record as the store has it now, caught up (see :func:`catch_up`) when the
    store lost versions this process saw (its cache's, or ``seen``: a stream's cursor and
    digest); :class:`TableNotFound` if it has none."""
    if not _TABLE_ID.match(table):
        raise TableNotFound(table)
    record = store().load(table)
    if record.reloaded:
        try:
            record = catch_up(record, record.version)
        except StaleVersion:
            record = store().load(table)  # another process moved it on first
    for known in (_states().seen(table), seen):
        if known is not None and _behind(record, *known):
            # A commit of this process (its scheduler's, another request's) may have landed
            # between the read and the check: read again before calling the timeline lost.
            record = store().load(table)
            if _behind(record, *known):
                try:
                    record = catch_up(record, known[0])
                except StaleVersion:
                    record = store().load(table)  # another commit came first: it stands
    return record


def _behind(record: TableRecord, version: int, digest: str) -> bool:
    """Whether the store's ``record`` lost the timeline of (version, digest)."""
    return record.version < version or (record.version == version and record.digest != digest)


def catch_up(record: TableRecord, seen: int) -> TableRecord:
    """Move a table whose store lost versions (it is at ``record``, and version ``seen`` was
    served) onto a new epoch at a version above ``seen``, with the state the store has: no
    version a client saw is used again. Another process doing the same at once commits the
    same entry, which the store takes as one commit."""
    if record.reloaded:
        _log.warning("table %s: last written before the store's data was reloaded; it goes on "
                     "from version %d on a new epoch", record.table, record.version + 1)
    else:
        _log.warning("table %s: the store is at version %d but version %d was served; it goes "
                     "on from version %d on a new epoch", record.table, record.version, seen,
                     seen + 1)
    metrics.STORE_ERRORS.labels("reloaded" if record.reloaded else "timeline_lost").inc()
    entry = Entry(max(seen, record.version) + 1, [], [], prev=record.digest, reset=True).chained()
    store().commit(record.table, record.version, record.state(), entry)
    caught_up = dataclasses.replace(record, version=entry.version, digest=entry.digest,
                                    epoch=entry.digest, reloaded=False)
    _states().forget(record.table)
    return caught_up


def held(table: str, version: int) -> TableRecord | None:
    """This process's record of ``table`` at ``version``, when that is the newest version it
    holds (it committed or read it): a command named at that version may be tried on it
    without reading the table, if only a commit on exactly that version and digest answers
    it (:func:`~thirtyone.web.tables.commit_path.execute`)."""
    return _states().record(table, version)


def table_state(record: TableRecord) -> GameState:
    """The table's state at the record's version."""
    state = _states().get(record.table, record.version, record.digest)
    if state is None:
        state = GameState.from_dict(record.state())
        _states().put(record.table, record.version, record.digest, state,
                      None if record.reloaded else record)
    return state


def version_cap() -> Problem:
    return Problem(
        409, "table_version_cap",
        N_("This table has reached its limit of {limit} versions: open a new table."),
        title=N_("Table full"), limit=MAX_VERSIONS,
    )


_match_over: list[Callable[[str, float], None]] = []


def on_match_over(hook: Callable[[str, float], None]) -> None:
    """Call ``hook(table, when)`` after the commit that ends a table's match (the archive's,
    which writes the match's record)."""
    _match_over.append(hook)


def commit(record: TableRecord, version: int, moves: list[dict[str, Any]], after: GameState,
           events: list[Any], request: tuple[str, RequestRecord] | None = None,
           meta: TableRecord | None = None) -> TableRecord:
    """Commit ``after``, reached by ``moves``, as the next version of a table at ``version``
    (the record's), with the idempotency record of the request that made it (and ``meta``'s
    seats and metadata when given); the table as then stored. A table's commands commit
    through :func:`~thirtyone.web.tables.commit_path.execute` alone (a test checks it)."""
    meta_table = of(meta or record)
    if not moves:
        # A change of seats, keys or names, not a move: it does not count against the cap.
        meta = stored(meta or record,
                      dataclasses.replace(meta_table, changes=meta_table.changes + 1))
    elif version + 1 - meta_table.changes > MAX_VERSIONS:
        raise version_cap()
    data = after.to_dict()
    entry = Entry(version + 1, moves, events, prev=record.digest, request=request,
                  at=time.time(), nonce=secrets.token_hex(8)).chained()
    try:
        store().commit(record.table, version, data, entry,
                       meta=None if meta is None else meta.meta_json())
    except StaleVersion:
        metrics.CONFLICTS.inc()
        raise
    metrics.COMMITS.inc()
    over = after.is_over and not table_state(record).is_over
    # The record as stored now: the metadata the commit wrote (or kept: the record's, which
    # the compare-and-set proved current) at the new version and digest.
    committed = dataclasses.replace(meta or record, version=entry.version, digest=entry.digest,
                                    state_json=dumps(data), reloaded=False)
    _states().put(record.table, entry.version, entry.digest, after, committed)
    if over:
        for hook in _match_over:
            hook(record.table, entry.at)
    for hook in current_app.extensions.get(AFTER_COMMIT, ()):
        hook(committed, after)
    return committed


def state_at(record: TableRecord, version: int) -> tuple[GameState, list[Entry]] | None:
    """The table's state at ``version`` and the log's entries after it, up to the record's
    version; None when the log no longer reaches back to ``version``. Replays fewer than
    ``SNAPSHOT_EVERY`` moves: from the newest snapshot at or before ``version``."""
    if version == record.version:
        return table_state(record), []
    snapshot = store().snapshot(record.table, version)
    if snapshot is None:
        return None
    start, data = snapshot
    log = [entry for entry in store().entries(record.table, start)
           if entry.version <= record.version]
    if record.version > start and (not log or log[-1].version != record.version):
        # The record is ahead of its own log: the log was evicted or lost apart from it.
        raise TableLost(record.table)
    state = GameState.from_dict(data)
    for entry in log:
        if entry.version > version:
            return state, [entry for entry in log if entry.version > version]
        state = replay(record.table, state, entry)
    return state, []


def replay(table: str, state: GameState, entry: Entry) -> GameState:
    """The state after ``entry``'s moves: the engine is deterministic, so a version's state is
    rebuilt from the one before rather than stored for every version (and only once per
    process: the worker that committed it, or the first stream to need it, keeps it)."""
    states = _states()
    cached = states.get(table, entry.version, entry.digest)
    if cached is not None:
        return cached
    for move in entry.moves:
        state = replay_move(state, move)
    states.put(table, entry.version, entry.digest, state)
    return state
