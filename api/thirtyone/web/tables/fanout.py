"""One pushed answer per table version, seat and language, shared by every stream of a table
(and one read's answer, shared by every read of it: :func:`answer`).

A table's watchers all receive the same version at once: each stream building the answer for
itself (the seat's view, its described moves, the localized events, the JSON) made a table
with 500 watchers hold its worker for a quarter of a second per move. :func:`event` builds the
Server-Sent Event of an answer once per instance and hands the same bytes to every stream that
asks for it with the same key: the table, the version and its digest (its timeline), the seat,
the language, the kind of event, the events, and the parts of the answer that change with no
new version: the table's stored metadata (names, clocks, seats; read once per record a stream
holds) and who is connected, which each stream reads for itself.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from flask import current_app

from thirtyone.game import GameState
from thirtyone.web.i18n import language
from thirtyone.web.jsonio import dumps
from thirtyone.web.store import TableRecord
from thirtyone.web.tables import presence
from thirtyone.web.tables.answers import table_answer

KEPT = 512
"""Events kept per process: a few recent versions of the tables this instance streams."""


RECORDS = 4096
"""Records whose metadata is kept: one per open stream of this process, about."""


class SharedEvents:
    """The most recent :data:`KEPT` events, by key."""

    def __init__(self, kept: int = KEPT) -> None:
        self._kept = kept
        self._events: OrderedDict[tuple[Any, ...], tuple[bytes, list[bool]]] = OrderedDict()
        # A record's metadata as stored, by the record's identity (kept alive here, so that
        # its id names it): a stream holds one record for many versions.
        self._metas: OrderedDict[int, tuple[TableRecord, bytes]] = OrderedDict()
        self._lock = threading.Lock()

    def meta(self, record: TableRecord) -> bytes:
        with self._lock:
            found = self._metas.get(id(record))
            if found is not None and found[0] is record:
                return found[1]
        meta = record.meta_json()
        with self._lock:
            self._metas[id(record)] = (record, meta)
            while len(self._metas) > RECORDS:
                self._metas.popitem(last=False)
        return meta

    def get(self, key: tuple[Any, ...]) -> tuple[bytes, list[bool]] | None:
        with self._lock:
            found = self._events.get(key)
            if found is not None:
                self._events.move_to_end(key)
            return found

    def put(self, key: tuple[Any, ...], value: tuple[bytes, list[bool]]) -> None:
        with self._lock:
            self._events[key] = value
            while len(self._events) > self._kept:
                self._events.popitem(last=False)


def _shared() -> SharedEvents:
    shared: SharedEvents = current_app.extensions.setdefault("thirtyone.shared_events",
                                                             SharedEvents())
    return shared


def answer(record: TableRecord, state: GameState, seat: int | None) -> bytes:
    """The JSON of ``GET /v1/tables/{table}``: the table as ``seat`` reads it now, made once
    for every read of this instance at the same version, seat, language and presence, so a
    read of a table that has not moved does no engine work (the view, the described moves).
    Its key holds the stored metadata as :func:`event`'s does (a record read anew each time:
    its own JSON, not kept by the record's identity as a stream's is)."""
    shared = _shared()
    connected = presence.connected(record)
    key = (record.table, record.version, record.digest, seat, language(), "read",
           tuple(connected), record.meta_json())
    found = shared.get(key)
    if found is not None:
        return found[0]
    shown = table_answer(record, record.version, state, seat)
    for each, now in zip(shown["seats"], connected, strict=True):
        each["connected"] = now
    made = dumps(shown)
    shared.put(key, (made, connected))
    return made


def event(record: TableRecord, version: int, digest: str, state: GameState,
          seat: int | None, events: Sequence[dict[str, Any]],
          name: str | None = None) -> tuple[bytes, list[bool], presence.Look]:
    """The event (``event: name``, if any, ``id:`` and ``data:``) of the table at
    ``version`` (``state``, on the timeline ``digest`` names) as ``seat`` sees it, with
    ``events``, the seats' ``connected`` it shows, and when that was looked at (see
    :func:`presence.same`); made once for every stream asking."""
    shared = _shared()
    connected, looked = presence.look(record)
    # Everything else the answer shows follows from the stored record and the version.
    key = (record.table, version, digest, seat, language(), name, dumps(events),
           tuple(connected), shared.meta(record))
    found = shared.get(key)
    if found is not None:
        return found[0], found[1], looked
    answer = table_answer(record, version, state, seat, list(events), digest)
    # Who is connected as the key says (read a moment ago): the bytes are the key's.
    for shown, now in zip(answer["seats"], connected, strict=True):
        shown["connected"] = now
    named = b"event: %s\n" % name.encode() if name else b""
    made = (named + b"id: %s\ndata: %s\n\n" % (answer["cursor"].encode(), dumps(answer)),
            connected)
    shared.put(key, made)
    return made[0], made[1], looked
