"""A table's versions pushed as they are committed: Server-Sent Events, or a long poll."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from flask import Response, current_app, jsonify, redirect, request, stream_with_context, url_for
from flask.views import MethodView

from thirtyone.game import GameState
from thirtyone.web.jsonio import dumps
from thirtyone.web.store import Entry, StoreUnavailable, TableRecord
from thirtyone.web.tables import clocks, presence
from thirtyone.web.tables.answers import table_answer
from thirtyone.web.tables.blueprint import blp
from thirtyone.web.tables.ledger import load_table, replay, store, table_state
from thirtyone.web.tables.life import clocked
from thirtyone.web.tables.notices import MESSAGES
from thirtyone.web.tables.problems import stale_version
from thirtyone.web.tables.schemas import (
    EventsQuerySchema,
    ResumeHeadersSchema,
    TableUpdateSchema,
    UpdatesQuerySchema,
)
from thirtyone.web.tables.seats import bearer_key, seat_of


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
    @blp.alt_response(409, response="CONFLICT", description="`after` is past the table.")
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE",
                      description="The table store is not answering.")
    @blp.doc(security=[{"seatKey": []}, {}], responses={"200": {
        "description": "A stream of Server-Sent Events, one per version: `id: <version>` and "
        "`data:` a `TableUpdate` as JSON (the table as this seat sees it, with the events of "
        "that version); `: keep-alive` comments every 15 s. The stream ends after a few "
        "minutes or with the match; reconnect with `Last-Event-ID` (EventSource does).",
        "content": {"text/event-stream": {"schema": "TableEventMessageSchema"}},
    }})
    def get(self, query: dict[str, Any], headers: dict[str, Any], table: str) -> Response:
        """Every new version of the table as this seat sees it, pushed as Server-Sent Events."""
        if query["wait"] is not None:
            return redirect(url_for("tables.TableUpdates", table=table, **request.args), 307)
        record = load_table(table)
        key = bearer_key()
        seat = seat_of(record, key if key is not None else query["key"])
        presence.touch(record, seat)
        record = clocks.enforce(record)
        after = query["after"] if query["after"] is not None else headers["last_event_id"]
        if after is not None and after > record.version:
            raise stale_version(record.version)
        return _event_stream(record, seat, after)


def _final(record: TableRecord) -> bool:
    """Whether a finished table will have no more versions: it has no human seat to ask for a
    rematch, or its rematch was announced."""
    return record.meta.get("rematch") is not None or all(
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
        seat = seat_of(record, key if key is not None else query["key"])
        presence.touch(record, seat)
        record = clocks.enforce(record)
        after = record.version if query["after"] is None else query["after"]
        if after > record.version:
            raise stale_version(record.version)
        return _long_poll(record, seat, after, query["wait"])


def _long_poll(record: TableRecord, seat: int | None, after: int, wait: int) -> Response:
    tables = store()
    if record.version <= after and wait > 0:
        deadline = time.monotonic() + wait
        with tables.listen(record.table) as woken:
            while (remaining := deadline - time.monotonic()) > 0:
                woken.clear()
                record = tables.load(record.table)
                if record.version > after:
                    break
                woken.wait(remaining)
    events = [event for entry in tables.entries(record.table, after)
              if entry.version <= record.version for event in entry.events]
    state = table_state(record)
    return jsonify(table_answer(record, record.version, state, seat, events))


def _sse(answer: dict[str, Any]) -> bytes:
    return b"id: %d\ndata: %s\n\n" % (answer["version"], dumps(answer))


def _event_stream(record: TableRecord, seat: int | None, after: int | None) -> Response:
    tables = store()
    if after is None or after == record.version:
        state = table_state(record)
        pending: list[Entry] = []
    else:
        log = tables.entries(record.table, 0)
        state = GameState.from_dict(tables.start(record.table))
        for entry in log[:after]:
            state = replay(record.table, state, entry)
        pending = log[after:]
    if state.is_over and after is not None and not pending and _final(record):
        # Nothing will ever come: 204 tells an EventSource to stop reconnecting.
        return Response(status=204)
    keepalive = float(current_app.config["TABLE_KEEPALIVE_SECONDS"])
    deadline = time.monotonic() + float(current_app.config["TABLE_STREAM_SECONDS"])

    def stream() -> Iterator[bytes]:
        nonlocal state, pending, record
        yield b"retry: 1000\n\n"
        cursor = record.version if after is None else after
        if after is None:
            yield _sse(table_answer(record, cursor, state, seat, []))
        quiet = False
        with tables.listen(record.table) as woken:
            while True:
                for entry in pending:
                    state = replay(record.table, state, entry)
                    cursor = entry.version
                    if clocked(record) or any(event["type"] in MESSAGES
                                              for event in entry.events):
                        # Seats, names, phase or clock changed: the answer shows them.
                        record = _fresh(record)
                    yield _sse(table_answer(record, cursor, state, seat, entry.events))
                remaining = deadline - time.monotonic()
                if remaining <= 0 or (state.is_over and _final(record)):
                    return
                presence.touch(record, seat)
                if cursor == record.version:
                    limit = clocks.deadline(record, state)
                    if limit is not None and time.time() >= limit:
                        # This worker holds the stream: it plays the move that is due.
                        clocks.enforce(record)
                        limit = None
                else:
                    limit = None
                woken.clear()
                try:
                    # After a quiet spell the log is read, whatever the notices said.
                    pending = tables.entries_after(record.table, cursor, from_log=quiet)
                except StoreUnavailable:
                    # The client reconnects with Last-Event-ID when the store is back.
                    return
                quiet = False
                wait = min(keepalive, remaining)
                if limit is not None:
                    wait = max(0.0, min(wait, limit - time.time() + 0.01))
                if not pending and not woken.wait(wait):
                    quiet = True
                    yield b": keep-alive\n\n"

    response = Response(stream_with_context(stream()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response
