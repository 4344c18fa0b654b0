"""A table's versions pushed as they are committed: Server-Sent Events, or a long poll.

A stream resumed with ``Last-Event-ID`` (or ``after``) rebuilds that version from the nearest
snapshot, so a resume costs the same at any version. Whenever its cursor is no longer on the
store's timeline (the store lost versions and the table went on on a new epoch, see
:mod:`.ledger`; the client names a version past the table; or the log no longer reaches back
to the cursor) the stream sends ``event: table_reset`` with the table as it is now and goes
on from there: the client replaces what it showed. When a player comes or goes with no move
(a stream opened or closed, a window with no sign of life), ``event: presence`` brings the
table as it is now, its seats' ``connected`` changed: at once when a seat's last stream on
this process ends (a closed tab is noticed at once: the event loop watches each stream's
socket, see :class:`~thirtyone.web.connections.ClientWatch`), in every other process
within half a second with Redis or at its next presence sweep (2 s) with SQLite (see
:mod:`.presence`); such a wake-up reads nothing from the store. A stream sleeps between these:
it wakes for a version, a seat come or gone, a keep-alive, a turn's deadline, the instance
stopping or its client leaving, nothing else; on gunicorn's gevent worker not even for a
keep-alive, which the worker's keeper writes while the stream sleeps (see
:mod:`thirtyone.web.keepalives`), unless the stream has something else to do. When the
instance stops, every stream ends with ``event: reconnect`` and a jittered ``retry:``.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Generator, Iterator
from typing import Any

from flask import Response, current_app, jsonify, redirect, request, stream_with_context, url_for
from flask.views import MethodView
from werkzeug import Response as WerkzeugResponse

from thirtyone.game import GameState
from thirtyone.web import draining, metrics
from thirtyone.web.connections import ClientWatch, holding_stream, stream_slot
from thirtyone.web.keepalives import KEEPALIVE, Kept, count, due, keeper
from thirtyone.web.store import Entry, StoreUnavailable, Swept, TableRecord, TableStore
from thirtyone.web.tables import clocks, fanout, presence, scheduler
from thirtyone.web.tables.answers import table_answer
from thirtyone.web.tables.blueprint import blp
from thirtyone.web.tables.cursors import Cursor, table_reset
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

_STREAM_ANSWER: dict[str, Any] = {
    "description": "A stream of Server-Sent Events, one per version: `id:` the version's "
    "cursor (`EPOCH.VERSION.DIGEST`) and "
    "`data:` a `TableUpdate` as JSON (the table as this seat sees it, with the events of "
    "that version); `: keep-alive` comments every 15 s. The stream ends after a few "
    "minutes or with the match; reconnect with `Last-Event-ID` (EventSource does). "
    "`event: table_reset` carries the table as it is now when the stream's cursor is no "
    "longer on the table's timeline (past the table, before the kept log, or lost by the "
    "store): replace what you showed. `event: presence` carries the table as it is now "
    "when a seat's `connected` changed with no move (within seconds: a seat whose last "
    "stream ends is told gone within about 3 s). "
    "`event: reconnect` is the last event of an instance that stops: reconnect after "
    "its `retry:`.",
    "content": {"text/event-stream": {"schema": "TableEventMessageSchema"}},
}
"""The stream's 200 answer, as the API's description shows it."""


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
    @blp.doc(security=[{"seatKey": []}, {}], responses={"200": _STREAM_ANSWER})
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
    @blp.alt_response(409, response="CONFLICT", description="`stale_version`: a bare `after` "
                      "is past the table; `table_reset`: `after` is not on the table's "
                      "timeline (past it, or from a timeline the store lost): read the table "
                      "again (the problem's `detail` names its epoch).")
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
        cursor: Cursor = query["after"] or Cursor(record.version, record.epoch, None)
        if cursor.version > record.version:
            # Past the table: a bare version was always refused so; a named one is a
            # version of a timeline the store lost.
            raise stale_version(record.version) if cursor.epoch is None \
                else table_reset(record, cursor)
        if cursor.lost(record, record.digest if cursor.version == record.version else None):
            raise table_reset(record, cursor)
        with holding_stream():
            return _long_poll(record, seat, cursor, query["wait"])


def _long_poll(record: TableRecord, seat: int | None, cursor: Cursor, wait: int) -> Response:
    tables = store()
    after, version = cursor.version, record.version
    if version <= after and wait > 0:
        deadline = time.monotonic() + wait
        with tables.listen(record.table) as woken, ClientWatch() as client:
            woken.set()
            # An instance that stops answers at once.
            while (remaining := deadline - time.monotonic()) > 0 and not draining.stopping():
                if woken.is_set():
                    woken.clear()
                    # Only reads: the scheduler plays what is due, and its commit wakes us.
                    fresh = scheduler.notice(tables.load(record.table))
                    version = fresh.version
                    if version > after:
                        break
                elif client.wait(woken, remaining) is None:
                    # The slot goes back as soon as the client does, not when the wait ends.
                    break
    if version != record.version:
        record = tables.load(record.table)
    entries = tables.entries(record.table, after)
    if entries and entries[0].version == after + 1 and (
            cursor.lost(record, entries[0].prev) or any(entry.reset for entry in entries)):
        # The versions after the cursor were played on another timeline than its own.
        raise table_reset(record, cursor)
    events = [event for entry in entries
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


def _event_stream(record: TableRecord, seat: int | None, resume: Cursor | None) -> Response:
    found = _resumed(record, resume)
    # A cursor the store cannot rebuild: the stream starts from the table now, told so.
    reset = resume is not None and found is None
    state, pending = found if found is not None else (table_state(record), [])
    if state.is_over and found is not None and not pending and _final(record):
        # Nothing will ever come: 204 tells an EventSource to stop reconnecting.
        return Response(status=204)
    tables = store()
    keepalive = float(current_app.config["TABLE_KEEPALIVE_SECONDS"])
    deadline = time.monotonic() + float(current_app.config["TABLE_STREAM_SECONDS"])
    # A cursor was found only for a version asked for.
    cursor = record.version if found is None or resume is None else resume.version

    def stream() -> Iterator[bytes]:
        yield b"retry: 1000\n\n"
        metrics.OPEN_STREAMS.inc()
        try:
            # The seat is held from the stream's start: its end is the seat's going.
            with presence.hold(tables, record, seat):
                follower = _Follower(tables, record, seat, state, pending, cursor)
                yield from follower.follow(found is None, reset, keepalive, deadline)
        finally:
            metrics.OPEN_STREAMS.dec()

    response = Response(stream_with_context(stream()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def _resumed(record: TableRecord, resume: Cursor | None) -> tuple[GameState, list[Entry]] | None:
    """The state at the version ``resume`` names and the log's entries after it; None with no
    cursor, or one the store cannot rebuild (past the table, on a lost timeline, or before
    the kept log)."""
    if resume is None or resume.version > record.version or resume.lost(record, None):
        return None
    found = state_at(record, resume.version)
    if found is not None and resume.lost(
            record, record.digest if not found[1] else found[1][0].prev):
        return None  # the cursor's version has another digest here: a lost timeline
    return found


class _Follower:
    """One stream's place on the table's timeline (its cursor, that version's digest and
    state), the versions it has still to send, and who its client was last shown here.

    :meth:`follow` sends what the client lacks, then waits for news; it ends with the
    stream's time, the match, the store's failure or the client."""

    def __init__(self, tables: TableStore, record: TableRecord, seat: int | None,
                 state: GameState, pending: list[Entry], cursor: int) -> None:
        self.tables, self.record, self.seat = tables, record, seat
        self.state, self.pending, self.cursor = state, pending, cursor
        # The digest of the cursor's version: the next entry must have been played on it.
        self.digest = record.digest if not pending else pending[0].prev
        # Who the client was last told is here: each answer sent says it.
        self.shown = presence.connected(record)
        # When presence was last asked, while it answers as shown (see _presence_changed).
        self.looked: presence.Look | None = None
        # Kept: looked up in the app's context, it cost each keep-alive a tenth of its time.
        self.presence = presence.current()
        self.generation = tables.hub.generation
        # The table's notices of new versions here when the stream last read the store.
        self.noticed = -1
        # Whether the last wait ended with no notice (a keep-alive).
        self.quiet = False
        # When the stream last read the store or moved its cursor (see presence.Presence.head).
        self.since = time.monotonic()
        # The client's connection, watched while the stream waits: its closing wakes it.
        self.client = ClientWatch()
        # When the stream ends (monotonic; see follow).
        self.ends = math.inf
        # Its keep-alives, written by the worker's keeper while it sleeps (None: it writes
        # them itself, where the server lets nothing else write to its client).
        self.kept: Kept | None = None
        # What _timing worked out, and for which record and state.
        self._timed: tuple[TableRecord, GameState, bool, float | None] | None = None

    def _event(self, name: str | None, events: list[dict[str, Any]]) -> bytes:
        # What the client is shown now, and when it was looked at: a keep-alive after it
        # asks again only once that may have changed (an idle stream, kept by the worker's
        # keeper from its first keep-alive on).
        sent, self.shown, self.looked = fanout.event(self.record, self.cursor, self.digest,
                                                     self.state, self.seat, events, name)
        return sent

    def follow(self, opening: bool, reset: bool, keepalive: float,
               deadline: float) -> Iterator[bytes]:
        """The stream's messages after ``retry:``: the table now if ``opening`` (a client
        with no cursor, or one not on the table's timeline: ``reset``), then each version
        and who comes and goes, as they come."""
        if opening:
            yield self._event("table_reset" if reset else None, [])
        self.ends = deadline
        with self.tables.listen(self.record.table) as woken, self.client:
            if self.client.writer is not None:
                self.kept = Kept(self.client.writer, self._asleep, woken.set, keepalive)
            while (yield from self._catch_up()):
                if draining.stopping():
                    # The wait is in `data` too: a browser's EventSource never shows `retry:`.
                    wait = draining.retry_ms()
                    yield b'retry: %d\nevent: reconnect\ndata: {"retry": %d}\n\n' % (wait, wait)
                    return
                remaining = deadline - time.monotonic()
                if remaining <= 0 or (self.state.is_over and _final(self.record)):
                    return
                if not self._read(woken):
                    return  # the client reconnects with Last-Event-ID when the store is back
                if not self.pending and not (
                        yield from self._wait(woken, min(keepalive, remaining))):
                    return  # the client is gone: its seat is, at once

    def _catch_up(self) -> Generator[bytes, None, bool]:
        """Send the versions pending; False when the stream must end (the store failed)."""
        for entry in self.pending:
            if entry.prev != self.digest or entry.reset:
                # Not the timeline this stream followed: resync from the store.
                try:
                    self.record = load_table(self.record.table, seen=(self.cursor, self.digest))
                except StoreUnavailable:
                    return False  # the client reconnects with Last-Event-ID
                self.state = table_state(self.record)
                self.cursor, self.digest = self.record.version, self.record.digest
                yield self._event("table_reset", [])
                break
            self.state = replay(self.record.table, self.state, entry)
            self.cursor, self.digest = entry.version, entry.digest
            if of(self.record).clocked or any(event["type"] in MESSAGES
                                              for event in entry.events):
                # Seats, names, phase or clock changed: the answer shows them.
                self.record = _fresh(self.record)
            yield self._event(None, entry.events)
        if self.pending:
            self.since = time.monotonic()
        return True

    def _read(self, woken: threading.Event) -> bool:
        """What the stream missed, into ``pending``; False when the store failed."""
        # Quiet since the last keep-alive, with no notice missed: nothing to read.
        idle = self.quiet and not woken.is_set() and self.generation == self.tables.hub.generation
        table = self.record.table
        # Counted before the read: a notice after it wakes the stream to read again.
        self.noticed = self.tables.hub.notices(table)
        woken.clear()
        try:
            # The stream plays nothing: the scheduler plays what is due at the version just
            # sent (a bot, a clock's deadline), and its commit wakes this stream. With nothing
            # due the notice would do nothing: an idle stream skips it.
            if self._timing()[0]:
                scheduler.notice(self.record, self.state)
            if idle:
                # No store call of its own: the sweeper read the table's version for every
                # stream of this process; a notice lost anyway shows there.
                head = self.presence.head(table, self.since)
                self.pending = [] if head is None else _behind(
                    self.tables, table, self.cursor, self.digest, head)
            else:
                self.pending = self.tables.entries_after(table, self.cursor)
                if not self.pending and self.generation != self.tables.hub.generation:
                    # Back from a lost subscription (a store restarted, a failover): is the
                    # store still on this stream's timeline?
                    self.generation = self.tables.hub.generation
                    self.pending = _behind(self.tables, table, self.cursor, self.digest,
                                           self.tables.load(table))
        except StoreUnavailable:
            return False
        self.quiet = False
        return True

    def _wait(self, woken: threading.Event, pause: float) -> Generator[bytes, None, bool]:
        """Wait for a new version, up to ``pause``, telling who comes and goes meanwhile;
        then keep the stream alive if nothing came. False when the client is gone."""
        # A turn's deadline wakes the stream as it passes (an app made for tests plays the
        # autopilot's move inline there).
        nudge, limit = self._timing()
        if limit is not None and limit > time.time():
            until = time.monotonic() + min(pause, limit - time.time() + 0.01)
        else:
            until = due(time.monotonic(), pause)
        # The keeper keeps a stream with nothing timed of its own: no turn's deadline, no move
        # for the scheduler to be nudged about at each keep-alive, its end beyond the next.
        kept = None if nudge or limit is not None or until >= self.ends else self.kept
        if kept is not None:
            kept.at = until
        while (woke := self._sleep(woken, until, kept)) and self._no_version(woken):
            if self._presence_changed():
                yield self._event("presence", [])
        if woke is None:
            return False
        self.quiet = not woke
        if self._presence_changed():
            # Someone came or went without a move: no version tells it.
            yield self._event("presence", [])
        elif self.quiet:
            count("stream")
            yield KEEPALIVE
        return True

    def _sleep(self, woken: threading.Event, until: float, kept: Kept | None) -> bool | None:
        """Wait as :meth:`ClientWatch.wait` does, until ``until`` (monotonic); with ``kept``,
        until the stream's end, the worker's keeper writing its keep-alives meanwhile (from
        ``kept.at`` on) for as long as it has nothing else to do, and waking it (False, as a
        wait run out) when it has, or the keep-alive must come from it."""
        if kept is None:
            return self.client.wait(woken, until - time.monotonic())
        keeper().keep(kept, kept.at)
        try:
            woke = self.client.wait(woken, self.ends - time.monotonic())
        finally:
            keeper().drop(kept)
            # What the socket did not take of the keeper's last keep-alive goes first.
            kept.writer.finish()
        if woke and kept.due:
            # The keeper's wake-up (with a notice of a version too, perhaps).
            kept.due = False
            return not self._no_version(woken)
        return woke

    def _asleep(self, following: float) -> bool:
        """Whether the stream, asleep, has nothing to send but a keep-alive now and, as far
        as it can tell, until ``following`` (monotonic): what its own wake-up for a keep-alive
        would find (see _read, _presence_changed and follow), read without a wait (the
        worker's keeper asks it, for each stream kept, at each step of the grid)."""
        table = self.record.table
        hub = self.tables.hub
        head = self.presence.head(table, self.since)
        return (following < self.ends and not draining.stopping()
                and hub.notices(table) == self.noticed and hub.generation == self.generation
                and (head is None or (head.version == self.cursor and head.digest == self.digest))
                and self.looked is not None and presence.same(self.record, self.looked))

    def _timing(self) -> tuple[bool, float | None]:
        """Whether a move nobody chooses is due at the stream's version (see
        :func:`scheduler.next_time`), and its turn's deadline: pure functions of the record
        and state, so worked out once for each, not at every keep-alive."""
        timed = self._timed
        if timed is None or timed[0] is not self.record or timed[1] is not self.state:
            timed = self._timed = (self.record, self.state,
                                   scheduler.next_time(self.record, self.state) is not None,
                                   clocks.deadline(self.record, self.state))
        return timed[2], timed[3]

    def _no_version(self, woken: threading.Event) -> bool:
        """Whether a wake-up brought no notice of a version since the stream's last read
        (a seat came or went, see presence.py): the stream waits on, reading nothing."""
        woken.clear()  # before the count: a notice after it wakes the stream again
        return self.tables.hub.notices(self.record.table) == self.noticed

    def _presence_changed(self) -> bool:
        """Whether who is at the table changed since the client was last told. Not asked
        again while presence is as it was when last asked and no seat's time ran out (see
        presence.same): an idle stream's keep-alive looks at one counter and the time."""
        if self.looked is not None and presence.same(self.record, self.looked):
            return False
        now, self.looked = presence.look(self.record)
        return now != self.shown
