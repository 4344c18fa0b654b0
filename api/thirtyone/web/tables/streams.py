"""A table's versions pushed as they are committed: Server-Sent Events, or a long poll.

A stream resumed with ``Last-Event-ID`` (or ``after``) rebuilds that version from the nearest
snapshot, so a resume costs the same at any version. Whenever its cursor is no longer on the
store's timeline (the store lost versions and the table went on on a new epoch, see
:mod:`.ledger`; the client names a version past the table; or the log no longer reaches back
to the cursor) the stream sends ``event: table_reset`` with the table as it is now and goes
on from there: the client replaces what it showed. When a player comes or goes with no move
(a stream opened or closed), ``event: presence`` brings the table as it is now, its seats'
``connected`` changed, at the next keep-alive. When the instance stops, every stream ends
with ``event: reconnect`` and a jittered ``retry:``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from flask import Response, current_app, jsonify, redirect, request, stream_with_context, url_for
from flask.views import MethodView
from werkzeug import Response as WerkzeugResponse

from thirtyone.web import draining, metrics
from thirtyone.web.connections import (
    GONE_CHECK_SECONDS,
    client_gone,
    holding_stream,
    stream_slot,
)
from thirtyone.web.store import Entry, StoreUnavailable, Swept, TableRecord, TableStore
from thirtyone.web.tables import clocks, fanout, presence, scheduler
from thirtyone.web.tables.answers import table_answer
from thirtyone.web.tables.blueprint import blp
from thirtyone.web.tables.ledger import load_table, replay, state_at, store, table_state
from thirtyone.web.tables.notices import MESSAGES
from thirtyone.web.tables.problems import stale_version
from thirtyone.web.tables.schemas import (
    EventsQuerySchema,
    ResumeHeadersSchema,
    TableUpdateSchema,
    UpdatesQuerySchema,
)
from thirtyone.web.tables.seats import bearer_key, query_key, seat_of
from thirtyone.web.tables.table import of


@blp.route("/<table>/events")
class TableEvents(MethodView):
    @blp.doc(operationId="tableEvents")
    @blp.arguments(EventsQuerySchema(), location="query")
    @blp.arguments(ResumeHeadersSchema(), location="headers")
    @blp.alt_response(204, description="The match is over and every version was sent: "
                      "a browser's EventSource stops reconnecting.")
    @blp.alt_response(307, description="A request with `wait` (a long poll) is sent on to "
                      "`GET /v1/tables/{table}/updates` with the same query.",
                      headers={"Location": {"schema": {"type": "string"}}})
    @blp.alt_response(401, response="UNAUTHORIZED",
                      description="An Authorization header that is not a bearer key.")
    @blp.alt_response(403, response="FORBIDDEN", description="The key opens no seat here.")
    @blp.alt_response(404, response="NOT_FOUND", description="No such table (or expired).")
    @blp.alt_response(410, response="GONE", description="`table_lost`: the store lost the "
                      "table's log.")
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE",
                      description="The table store is not answering.")
    @blp.doc(security=[{"seatKey": []}, {}], responses={"200": {
        "description": "A stream of Server-Sent Events, one per version: `id: <version>` and "
        "`data:` a `TableUpdate` as JSON (the table as this seat sees it, with the events of "
        "that version); `: keep-alive` comments every 15 s. The stream ends after a few "
        "minutes or with the match; reconnect with `Last-Event-ID` (EventSource does). "
        "`event: table_reset` carries the table as it is now when the stream's cursor is no "
        "longer on the table's timeline (past the table, before the kept log, or lost by the "
        "store): replace what you showed. `event: presence` carries the table as it is now "
        "when a seat's `connected` changed with no move (sent at a keep-alive). "
        "`event: reconnect` is the last event of an instance that stops: reconnect after "
        "its `retry:`.",
        "content": {"text/event-stream": {"schema": "TableEventMessageSchema"}},
    }})
    def get(self, query: dict[str, Any], headers: dict[str, Any],
            table: str) -> WerkzeugResponse:
        """Every new version of the table as this seat sees it, pushed as Server-Sent Events."""
        if query["wait"] is not None:
            query_key(query["key"])  # an encoded key's name is refused here as there
            values: dict[str, Any] = {**request.args.to_dict(), "table": table}
            return redirect(url_for("tables.TableUpdates", **values), 307)
        record = load_table(table)
        key = bearer_key()
        seat = seat_of(record, key if key is not None else query_key(query["key"]))
        presence.touch(record, seat)
        # The stream notices the table's due moves once it sent what the client lacks.
        after = query["after"] if query["after"] is not None else headers.get("last_event_id")
        give_back = stream_slot()
        try:
            response = _event_stream(record, seat, after)
        except BaseException:
            give_back()
            raise
        # Called when the server closes the stream: its end, or its client gone.
        response.call_on_close(give_back)
        return response


def _final(record: TableRecord) -> bool:
    """Whether a finished table will have no more versions: it has no human seat to ask for a
    rematch, or its rematch was announced."""
    return of(record).rematch is not None or all(
        stored.bot is not None and stored.key_hash is None for stored in record.seats)


def _fresh(record: TableRecord) -> TableRecord:
    try:
        return store().load(record.table)
    except StoreUnavailable:
        return record


@blp.route("/<table>/updates")
class TableUpdates(MethodView):
    @blp.doc(operationId="pollTable")
    @blp.arguments(UpdatesQuerySchema(), location="query")
    @blp.response(200, TableUpdateSchema)
    @blp.alt_response(401, response="UNAUTHORIZED",
                      description="An Authorization header that is not a bearer key.")
    @blp.alt_response(403, response="FORBIDDEN", description="The key opens no seat here.")
    @blp.alt_response(404, response="NOT_FOUND", description="No such table (or expired).")
    @blp.alt_response(409, response="CONFLICT", description="`after` is past the table.")
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE",
                      description="The table store is not answering.")
    @blp.doc(security=[{"seatKey": []}, {}])
    def get(self, query: dict[str, Any], table: str) -> Response:
        """Long poll: the table once it is past `after` (or `wait` seconds later), with every
        event since, for clients without Server-Sent Events."""
        record = load_table(table)
        key = bearer_key()
        seat = seat_of(record, key if key is not None else query_key(query["key"]))
        presence.touch(record, seat)
        record = scheduler.notice(record)
        after = record.version if query["after"] is None else query["after"]
        if after > record.version:
            raise stale_version(record.version)
        with holding_stream():
            return _long_poll(record, seat, after, query["wait"])


def _long_poll(record: TableRecord, seat: int | None, after: int, wait: int) -> Response:
    tables = store()
    version = record.version
    if version <= after and wait > 0:
        deadline = time.monotonic() + wait
        with tables.listen(record.table) as woken:
            woken.set()
            while (remaining := deadline - time.monotonic()) > 0:
                if woken.is_set():
                    woken.clear()
                    # Only reads: the scheduler plays what is due, and its commit wakes us.
                    fresh = scheduler.notice(tables.load(record.table))
                    version = fresh.version
                    if version > after:
                        break
                elif client_gone() or draining.stopping():
                    # The slot goes back as soon as the client does, not when the wait ends;
                    # an instance that stops answers at once.
                    break
                woken.wait(min(remaining, GONE_CHECK_SECONDS))
    if version != record.version:
        record = tables.load(record.table)
    events = [event for entry in tables.entries(record.table, after)
              if entry.version <= record.version for event in entry.events]
    state = table_state(record)
    return jsonify(table_answer(record, record.version, state, seat, events))


def _behind(tables: TableStore, table: str, cursor: int, digest: str,
            head: TableRecord | Swept) -> list[Entry]:
    """What a stream at ``cursor`` (``digest``) lacks, the store's ``head`` read after the
    stream's last update: nothing, the log after it, or (the store lost this stream's
    versions) a reset entry, that resyncs it."""
    if head.version > cursor:
        return tables.entries(table, cursor)
    if head.version < cursor or head.digest != digest:
        return [Entry(cursor, [], [], reset=True)]
    return []


def _event_stream(record: TableRecord, seat: int | None, after: int | None) -> Response:
    tables = store()
    found = None if after is None or after > record.version else state_at(record, after)
    pending: list[Entry]
    if found is None:
        # No cursor, or one the store cannot rebuild: the stream starts from the table now.
        state, pending = table_state(record), []
    else:
        state, pending = found
    reset = after is not None and found is None
    if state.is_over and after is not None and not pending and not reset and _final(record):
        # Nothing will ever come: 204 tells an EventSource to stop reconnecting.
        return Response(status=204)
    keepalive = float(current_app.config["TABLE_KEEPALIVE_SECONDS"])
    deadline = time.monotonic() + float(current_app.config["TABLE_STREAM_SECONDS"])

    def stream() -> Iterator[bytes]:
        nonlocal state, pending, record
        yield b"retry: 1000\n\n"
        metrics.OPEN_STREAMS.inc()
        try:
            yield from follow()
        finally:
            metrics.OPEN_STREAMS.dec()

    def follow() -> Iterator[bytes]:
        nonlocal state, pending, record
        # A cursor was found only for a version asked for (``after``).
        cursor = record.version if found is None or after is None else after
        # The digest of the cursor's version: the next entry must have been played on it.
        digest = record.digest if not pending else pending[0].prev
        # Who the client was last told is here: each answer sent says it.
        shown = presence.connected(record)
        if after is None or reset:
            sent, shown = fanout.event(record, cursor, digest, state, seat, [],
                                       "table_reset" if reset else None)
            yield sent
        quiet = False
        generation = tables.hub.generation
        # When the stream last read the store or moved its cursor (see presence.head).
        since = time.monotonic()
        with tables.listen(record.table) as woken, presence.hold(tables, record, seat):
            while True:
                for entry in pending:
                    if entry.prev != digest or entry.reset:
                        # Not the timeline this stream followed: resync from the store.
                        try:
                            record = load_table(record.table, seen=(cursor, digest))
                        except StoreUnavailable:
                            return  # the client reconnects with Last-Event-ID
                        state, cursor, digest = table_state(record), record.version, record.digest
                        yield fanout.event(record, cursor, digest, state, seat, [],
                                           "table_reset")[0]
                        break
                    state = replay(record.table, state, entry)
                    cursor, digest = entry.version, entry.digest
                    if of(record).clocked or any(event["type"] in MESSAGES
                                                 for event in entry.events):
                        # Seats, names, phase or clock changed: the answer shows them.
                        record = _fresh(record)
                    sent, shown = fanout.event(record, cursor, digest, state, seat,
                                               entry.events)
                    yield sent
                if pending:
                    since = time.monotonic()
                remaining = deadline - time.monotonic()
                if draining.stopping():
                    # The wait is in `data` too: a browser's EventSource never shows `retry:`.
                    wait = draining.retry_ms()
                    yield b'retry: %d\nevent: reconnect\ndata: {"retry": %d}\n\n' % (wait, wait)
                    return
                if remaining <= 0 or (state.is_over and _final(record)):
                    return
                # Quiet since the last keep-alive, with no notice missed: nothing to read.
                idle = quiet and not woken.is_set() and generation == tables.hub.generation
                woken.clear()
                # The stream plays nothing: the scheduler plays what is due at the version
                # just sent (a bot, a clock's deadline), and its commit wakes this stream.
                try:
                    scheduler.notice(record, state)
                except StoreUnavailable:
                    return
                limit = clocks.deadline(record, state)
                try:
                    if idle:
                        # No store call of its own: the sweeper read the table's version for
                        # every stream of this process; a notice lost anyway shows there.
                        head = presence.head(record, since)
                        pending = [] if head is None else _behind(tables, record.table,
                                                                  cursor, digest, head)
                    else:
                        pending = tables.entries_after(record.table, cursor)
                        if not pending and generation != tables.hub.generation:
                            # Back from a lost subscription (a store restarted, a failover):
                            # is the store still on this stream's timeline?
                            generation = tables.hub.generation
                            pending = _behind(tables, record.table, cursor, digest,
                                              tables.load(record.table))
                except StoreUnavailable:
                    # The client reconnects with Last-Event-ID when the store is back.
                    return
                quiet = False
                # A turn's deadline wakes the stream as it passes (an app made for tests
                # plays the autopilot's move inline there).
                pause = min(keepalive, remaining)
                if limit is not None and limit > time.time():
                    pause = min(pause, limit - time.time() + 0.01)
                if not pending and not woken.wait(pause):
                    quiet = True
                    now_connected = presence.connected(record)
                    if now_connected != shown:
                        # Someone came or went without a move: no version tells it.
                        shown = now_connected
                        yield fanout.event(record, cursor, digest, state, seat, [],
                                           "presence")[0]
                    else:
                        yield b": keep-alive\n\n"

    response = Response(stream_with_context(stream()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response
