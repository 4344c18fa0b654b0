"""A table's versions: read from the store, committed to it, and rebuilt from its log.

Each version is the state after the moves of its log entry; this process keeps the last state
of each table it committed or read (:class:`StateCache`), so a move at the version it saw
last neither reads nor checks the state again.
"""

from __future__ import annotations

import logging
import os
import re
import tempfile
import threading
from collections import OrderedDict
from typing import Any

from apispec import APISpec
from flask import Flask, current_app

from thirtyone.game import GameState
from thirtyone.web.store import Entry, TableNotFound, TableRecord, TableStore, open_store
from thirtyone.web.tables.playing import replay_move

_log = logging.getLogger(__name__)

_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}\Z")


def default_config() -> dict[str, Any]:
    """The tables' settings, from the environment where it names them."""
    return {
        "THIRTYONE_STORE": os.environ.get("THIRTYONE_STORE"),
        "THIRTYONE_TABLE_TTL": int(os.environ.get("THIRTYONE_TABLE_TTL") or 86_400),
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
    app.extensions["thirtyone.tables"] = open_store(url, int(app.config["THIRTYONE_TABLE_TTL"]))
    app.extensions["thirtyone.table_states"] = StateCache()


def document(spec: APISpec) -> None:
    """The seat key, as an HTTP bearer credential, in the contract."""
    spec.components.security_scheme("seatKey", {
        "type": "http", "scheme": "bearer",
        "description": "A seat's key from `POST /v1/tables`: `Authorization: Bearer <key>`.",
    })


def store() -> TableStore:
    """The app's table store."""
    return current_app.extensions["thirtyone.tables"]


class StateCache:
    """The last state of each table that this process committed or read, by version.

    A state is immutable and a version never changes, so a move at the version this process
    saw last skips reading and checking the state again (about half of a move's work); with
    keep-alive connections, a seat's requests mostly reach the same worker.

    >>> cache = StateCache(size=1)
    >>> cache.put("t1", 2, "state 2"); cache.put("t1", 1, "state 1")
    >>> cache.get("t1", 2), cache.get("t1", 1)
    ('state 2', None)
    >>> cache.put("t2", 0, "state 0"); cache.get("t1", 2) is None
    True
    """

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._states: OrderedDict[str, tuple[int, GameState]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, table: str, version: int) -> GameState | None:
        with self._lock:
            cached = self._states.get(table)
        return cached[1] if cached is not None and cached[0] == version else None

    def put(self, table: str, version: int, state: GameState) -> None:
        with self._lock:
            cached = self._states.get(table)
            if cached is not None and cached[0] > version:
                return  # a stream catching up keeps no old version over the newest
            self._states[table] = (version, state)
            self._states.move_to_end(table)
            if len(self._states) > self.size:
                self._states.popitem(last=False)


def _states() -> StateCache:
    return current_app.extensions["thirtyone.table_states"]


def load_table(table: str) -> TableRecord:
    """The table's record as the store has it now; :class:`TableNotFound` if it has none."""
    if not _TABLE_ID.match(table):
        raise TableNotFound(table)
    return store().load(table)


def table_state(record: TableRecord) -> GameState:
    """The table's state at the record's version."""
    state = _states().get(record.table, record.version)
    if state is None:
        state = GameState.from_dict(record.state())
        _states().put(record.table, record.version, state)
    return state


def commit(record: TableRecord, version: int, moves: list[dict[str, Any]], after: GameState,
           events: list[Any], meta: TableRecord | None = None) -> int:
    """Commit ``after``, reached by ``moves``, as the next version of a table at ``version``
    (with ``meta``'s seats and meta when given); the new version."""
    data = after.to_dict()
    entry = Entry(version + 1, moves, events)
    store().commit(record.table, version, data, entry,
                   meta=None if meta is None else meta.meta_json())
    _states().put(record.table, entry.version, after)
    return entry.version


def replay(table: str, state: GameState, entry: Entry) -> GameState:
    """The state after ``entry``'s moves: the engine is deterministic, so a version's state is
    rebuilt from the one before rather than stored for every version (and only once per
    process: the worker that committed it, or the first stream to need it, keeps it)."""
    states = _states()
    cached = states.get(table, entry.version)
    if cached is not None:
        return cached
    for move in entry.moves:
        state = replay_move(state, move)
    states.put(table, entry.version, state)
    return state
