"""Hosted tables: matches the server keeps, for players who talk to the API directly.

``POST /v1/tables`` deals a match, draws its seed (publishing only its SHA-256 until the match
is over) and gives a secret key to each human seat; bot seats play on the server. A seat shows
its key as ``Authorization: Bearer <key>`` to see its cards and to move; without a key one
sees what a spectator sees. Each committed move makes a new version of the table: a move names
the version it was chosen at, so an old view can never be replayed with another move.
``GET /v1/tables/{table}/events`` pushes every version to the seats as Server-Sent Events (or
answers a long poll).

The tables live in a :class:`~thirtyone.web.store.TableStore` (``THIRTYONE_STORE``).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import re
import secrets
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from typing import Any

import marshmallow as ma
from apispec import APISpec
from flask import Flask, Response, current_app, jsonify, request, stream_with_context
from flask.views import MethodView

from thirtyone.bots import BOTS, make_bot
from thirtyone.errors import N_, MoveError
from thirtyone.game import GameState, apply_move, legal_moves, new_game, view
from thirtyone.web.api import Blueprint
from thirtyone.web.contract import COMPONENT
from thirtyone.web.games import MoveSchema, localize_events
from thirtyone.web.jsonio import dumps
from thirtyone.web.problems import Problem
from thirtyone.web.store import (
    Entry,
    SeatRecord,
    StaleVersion,
    StoreUnavailable,
    TableNotFound,
    TableRecord,
    TableStore,
    open_store,
)
from thirtyone.web.validation import Message, RulesSchema, Schema, between, one_of

_log = logging.getLogger(__name__)

blp = Blueprint(
    "tables", __name__, url_prefix="/v1/tables",
    description="Hosted tables: the server keeps the match, each seat proves itself with its "
    "key, bots fill seats, and every move is pushed to the other seats.",
)

BOT_LEVELS: tuple[str, ...] = tuple(BOTS)
RETRY_AFTER_SECONDS = 5
# The bots of one table stop after this many moves in one commit: a safeguard, since every
# match of the engine ends long before.
MAX_BOT_MOVES = 100_000
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}\Z")

_SEATS_DOC = {"description": "The seats, in order: `bot` is the level of a bot seat, null for a "
              "human seat."}


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


def _store() -> TableStore:
    return current_app.extensions["thirtyone.tables"]


# Problems.


@blp.errorhandler(TableNotFound)
def table_not_found(error: TableNotFound) -> Response:
    return Problem(
        404, "table_not_found", N_("There is no table {table}, or it has expired."),
        table=str(error)[:64],
    ).response()


@blp.errorhandler(StoreUnavailable)
def store_unavailable(error: StoreUnavailable) -> Response:
    _log.error("the table store did not answer: %s", error)
    return Problem(
        503, "store_unavailable",
        N_("The table store is not answering, so nothing was changed; try again in a few "
           "seconds."),
        title=N_("Service unavailable"), headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
    ).response()


@blp.errorhandler(StaleVersion)
def _stale(error: StaleVersion) -> Response:
    return _stale_problem(error.current).response()


def _stale_problem(current: int) -> Problem:
    return Problem(
        409, "stale_version",
        N_("The table has moved on to version {current}: read it again and choose anew."),
        title=N_("Stale version"), current=current,
        errors=[{"field": "version", "code": "stale_version",
                 "detail": N_("The table's current version is {current}."),
                 "params": {"current": current}}],
    )


def _bad_key() -> Problem:
    return Problem(
        403, "bad_seat_key", N_("This key opens no seat at this table."),
        title=N_("Forbidden"),
    )


# Schemas.


class NewTableSchema(RulesSchema):
    players = ma.fields.Integer(
        required=True, validate=between(1, 15),
        metadata={"description": "Seats at the table; each variant has its own range."},
    )
    bots = ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.String(validate=one_of(BOT_LEVELS)),
        load_default=dict,
        metadata={"description": "Bot seats: a bot level by seat number, e.g. "
                  "`{\"1\": \"greedy\"}`. The other seats are for humans.",
                  "additionalProperties": {"type": "string", "enum": list(BOT_LEVELS)}},
    )

    @ma.pre_load
    def refuse_seed(self, data: Any, **kwargs: Any) -> Any:
        if isinstance(data, dict) and "seed" in data:
            raise ma.ValidationError(
                Message(N_("The server draws a table's seed and publishes its SHA-256; it "
                           "cannot be chosen."), "seed_not_allowed"),
                field_name="seed",
            )
        return data

    @ma.validates_schema
    def bots_sit_at_seats(self, data: dict[str, Any], **kwargs: Any) -> None:
        errors = {
            f"bots.{seat}": [Message(N_("Not a seat of this table (seats count from 0)."),
                                     "bad_seat")]
            for seat in data["bots"]
            if not (seat.isascii() and seat.isdigit() and int(seat) < data["players"])
        }
        if errors:
            raise ma.ValidationError(errors)


class TableMoveRequestSchema(Schema):
    move = ma.fields.Nested(
        MoveSchema, required=True,
        metadata={"description": "A move, as for `POST /v1/games/moves`; it is played for "
                  "the seat whose key is shown. The legal ones are in `legal_moves`."},
    )
    version = ma.fields.Integer(
        required=True, validate=between(0, 2**53),
        metadata={"description": "The table's version the move was chosen at (from the last "
                  "answer or event); another version is refused with `stale_version`."},
    )


class EventsQuerySchema(Schema):
    class Meta:
        # ``lang`` and a browser's cache busters share the query string.
        unknown = ma.EXCLUDE

    key = ma.fields.String(
        load_default=None,
        metadata={"description": "The seat's key, for clients that cannot set headers "
                  "(a browser's EventSource); kept out of the access log."},
    )
    after = ma.fields.Integer(
        load_default=None, validate=between(0, 2**53),
        metadata={"description": "Send the versions after this one (as `Last-Event-ID` "
                  "does); without either, the stream starts with the current version."},
    )
    wait = ma.fields.Integer(
        load_default=None, validate=between(0, 60),
        metadata={"description": "Long poll: answer JSON once the table is past `after`, or "
                  "after this many seconds with no new events."},
    )


class ResumeHeadersSchema(Schema):
    class Meta:
        unknown = ma.EXCLUDE

    last_event_id = ma.fields.Integer(
        data_key="Last-Event-ID", load_default=None, validate=between(0, 2**53),
        metadata={"description": "The last version received (an EventSource sends it when "
                  "it reconnects): the stream resumes after it."},
    )


class SeatSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    bot = ma.fields.String(required=True, allow_none=True,
                           metadata={"enum": [*BOT_LEVELS, None]})


class NewSeatSchema(SeatSchema):
    key = ma.fields.String(
        required=True, allow_none=True,
        metadata={"description": "The seat's secret key (null for a bot seat): hand it to "
                  "the player of that seat only. It is never shown again."},
    )


class TableSchema(ma.Schema):
    table = ma.fields.String(required=True, metadata={"description": "The table's id."})
    version = ma.fields.Integer(
        required=True, metadata={"description": "Counts the commits since the deal (0)."}
    )
    variant = ma.fields.String(required=True)
    players = ma.fields.Integer(required=True)
    seats = ma.fields.List(ma.fields.Nested(SeatSchema), required=True, metadata=_SEATS_DOC)
    seed_sha256 = ma.fields.String(
        required=True,
        metadata={"description": "SHA-256 (hex) of the seed as UTF-8 text, published before "
                  "the first move; `view.seed` reveals the seed once the match is over."},
    )
    seat = ma.fields.Integer(
        required=True, allow_none=True,
        metadata={"description": "The seat whose key was shown; null for a spectator."},
    )
    view = ma.fields.Dict(
        required=True,
        metadata={"description": "The match as this seat sees it; hidden cards are null.",
                  COMPONENT: "View"},
    )
    to_move = ma.fields.Integer(
        required=True, allow_none=True,
        metadata={"description": "The seat to act; null between rounds (any human seat may "
                  "deal the next one) and once the match is over."},
    )
    is_over = ma.fields.Boolean(required=True)
    legal_moves = ma.fields.List(
        ma.fields.Dict(metadata={COMPONENT: "Move"}), required=True,
        metadata={"description": "The moves this seat may make now."},
    )


class TableUpdateSchema(TableSchema):
    events = ma.fields.List(
        ma.fields.Dict(metadata={COMPONENT: "Event"}), required=True,
        metadata={"description": "What happened since the version asked about (bots' moves "
                  "included), in order, each with a localized `message`."},
    )


class NewTableResultSchema(TableUpdateSchema):
    seats = ma.fields.List(ma.fields.Nested(NewSeatSchema), required=True, metadata=_SEATS_DOC)


# The table as a seat sees it.


def _answer(record: TableRecord, version: int, state: GameState, seat: int | None,
            events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    to_move = state.to_move
    # Between rounds (to_move is None) any human seat may deal; a key is always a human's.
    may_move = seat is not None and (to_move is None or to_move == seat)
    answer = {
        "table": record.table,
        "version": version,
        "variant": state.rules.variant,
        "players": state.players,
        "seats": [{"seat": index, "bot": stored.bot} for index, stored in enumerate(record.seats)],
        "seed_sha256": record.seed_sha256,
        "seat": seat,
        "view": view(state, seat),
        "to_move": to_move,
        "is_over": state.is_over,
        "legal_moves": legal_moves(state) if may_move else [],
    }
    if events is not None:
        answer["events"] = localize_events(events)
    return answer


def bearer_key() -> str | None:
    """The seat key of the request: the bearer credential, else ``?key=`` (streams only)."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, key = header.partition(" ")
    if scheme.lower() != "bearer" or not key.strip():
        raise _bad_key()
    return key.strip()


def _key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def seat_of(record: TableRecord, key: str | None) -> int | None:
    if key is None:
        return None
    digest = _key_hash(key)
    for index, stored in enumerate(record.seats):
        if stored.key_hash is not None and hmac.compare_digest(stored.key_hash, digest):
            return index
    raise _bad_key()


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


def table_state(record: TableRecord) -> GameState:
    """The table's state at the record's version."""
    state = _states().get(record.table, record.version)
    if state is None:
        state = GameState.from_dict(record.state())
        _states().put(record.table, record.version, state)
    return state


def load_table(table: str) -> TableRecord:
    if not _TABLE_ID.match(table):
        raise TableNotFound(table)
    return _store().load(table)


def _play(state: GameState, move: Mapping[str, Any],
          moves: list[dict[str, Any]]) -> tuple[GameState, list[Any]]:
    """Apply ``move`` and append it to ``moves`` as the engine recorded it (canonical, with its
    seat), so that a version replays exactly; a state's own history is bounded and starts
    afresh each deal, so it cannot be the log."""
    after, events = apply_move(state, move)
    if move.get("type") == "next_round":
        moves.append({"type": "next_round"})
    else:
        moves.append(dict(after.history[-1]))
    return after, events


def _play_bots(state: GameState, seats: tuple[SeatRecord, ...],
               moves: list[dict[str, Any]]) -> tuple[GameState, list[Any]]:
    """The bots move until a human is to move or the match is over; between rounds they deal
    on only at a table of bots alone. Each bot sees only its seat's view; each move played is
    appended to ``moves``."""
    humans = any(stored.bot is None for stored in seats)
    events: list[Any] = []
    for _ in range(MAX_BOT_MOVES):
        if state.is_over:
            break
        seat = state.to_move
        if seat is None:
            if humans:
                break
            move: dict[str, Any] = {"type": "next_round"}
        else:
            level = seats[seat].bot
            if level is None:
                break
            # Seeded from the table's secret seed and the move's place in the match: the same
            # table replays the same bots, and nobody can foresee them before the seed is out.
            place = f"{state.round}/{state.turns}/{len(state.history)}"
            bot = make_bot(level, f"{state.seed}/bot/{seat}/{place}")
            seen = view(state, seat) if bot.uses_view else None
            move = bot.choose(seen, legal_moves(state))
        state, played = _play(state, move, moves)
        events += played
    return state, events


def _commit(record: TableRecord, version: int, moves: list[dict[str, Any]], after: GameState,
            events: list[Any]) -> int:
    """Commit ``after``, reached by ``moves``, as the next version of a table at ``version``;
    the new version."""
    data = after.to_dict()
    entry = Entry(version + 1, moves, events)
    _store().commit(record.table, version, data, entry)
    _states().put(record.table, entry.version, after)
    return entry.version


def _replay(table: str, state: GameState, entry: Entry) -> GameState:
    """The state after ``entry``'s moves: the engine is deterministic, so a version's state is
    rebuilt from the one before rather than stored for every version (and only once per
    process: the worker that committed it, or the first stream to need it, keeps it)."""
    states = _states()
    cached = states.get(table, entry.version)
    if cached is not None:
        return cached
    for move in entry.moves:
        state, _ = apply_move(state, move)
    states.put(table, entry.version, state)
    return state


@blp.route("")
class Tables(MethodView):
    @blp.doc(operationId="openTable")
    @blp.arguments(NewTableSchema(),
                   example={"variant": "scat", "players": 2, "bots": {"1": "greedy"}})
    @blp.response(201, NewTableResultSchema)
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE",
                      description="The table store is not answering.")
    def post(self, body: dict[str, Any]) -> tuple[Response, int]:
        """Open a table: one key per human seat, bots in the others, and the seed's SHA-256."""
        state = new_game(body["variant"], body["players"], options=body["options"] or None)
        bots = {int(seat): level for seat, level in body["bots"].items()}
        keys = {seat: secrets.token_urlsafe(24) for seat in range(state.players)
                if seat not in bots}
        seats = tuple(
            SeatRecord(bots.get(seat), _key_hash(keys[seat]) if seat in keys else None)
            for seat in range(state.players)
        )
        start = state.to_dict()
        record = TableRecord(
            table=secrets.token_urlsafe(12), version=0, state_json=dumps(start), seats=seats,
            seed_sha256=hashlib.sha256(str(state.seed).encode()).hexdigest(),
        )
        _store().create(record, start)
        # A bot to move first plays at once: version 1, before anyone has seen the table.
        moves: list[dict[str, Any]] = []
        played, events = _play_bots(state, seats, moves)
        version = _commit(record, 0, moves, played, events) if moves else 0
        answer = _answer(record, version, played, None, events)
        answer["seats"] = [{"seat": seat, "bot": stored.bot, "key": keys.get(seat)}
                           for seat, stored in enumerate(seats)]
        return jsonify(answer), 201


@blp.route("/<table>")
class Table(MethodView):
    @blp.doc(operationId="getTable")
    @blp.response(200, TableSchema)
    @blp.alt_response(403, response="FORBIDDEN", description="The key opens no seat here.")
    @blp.alt_response(404, response="NOT_FOUND", description="No such table (or expired).")
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE",
                      description="The table store is not answering.")
    @blp.doc(security=[{"seatKey": []}, {}])
    def get(self, table: str) -> Response:
        """The table as a seat (with its key) or a spectator (without) sees it."""
        record = load_table(table)
        seat = seat_of(record, bearer_key())
        return jsonify(_answer(record, record.version, table_state(record), seat))


@blp.route("/<table>/moves")
class TableMoves(MethodView):
    @blp.doc(operationId="playTableMove")
    @blp.arguments(TableMoveRequestSchema())
    @blp.response(200, TableUpdateSchema)
    @blp.alt_response(403, response="FORBIDDEN", description="No key, or it opens no seat.")
    @blp.alt_response(404, response="NOT_FOUND", description="No such table (or expired).")
    @blp.alt_response(409, response="CONFLICT",
                      description="`stale_version`, or the move is not legal now.")
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE",
                      description="The table store is not answering.")
    @blp.doc(security=[{"seatKey": []}])
    def post(self, body: dict[str, Any], table: str) -> Response:
        """Move for your seat; the bots answer at once. The next version, what happened and
        what your seat now sees."""
        record = load_table(table)
        key = bearer_key()
        if key is None:
            raise Problem(
                403, "seat_key_required",
                N_("Show your seat's key to move: Authorization: Bearer followed by the key."),
                title=N_("Forbidden"),
            )
        seat = seat_of(record, key)
        if body["version"] != record.version:
            raise _stale_problem(record.version)
        state = table_state(record)
        moves: list[dict[str, Any]] = []
        try:
            moved, events = _play(state, {**body["move"], "seat": seat}, moves)
        except MoveError as error:
            raise Problem.from_engine(error, status=409) from None
        moved, bot_events = _play_bots(moved, record.seats, moves)
        version = _commit(record, record.version, moves, moved, events + bot_events)
        return jsonify(_answer(record, version, moved, seat, events + bot_events))


@blp.route("/<table>/events")
class TableEvents(MethodView):
    @blp.doc(operationId="tableEvents")
    @blp.arguments(EventsQuerySchema(), location="query")
    @blp.arguments(ResumeHeadersSchema(), location="headers")
    @blp.response(200, TableUpdateSchema)
    @blp.alt_response(204, description="The match is over and every version was sent: "
                      "a browser's EventSource stops reconnecting.")
    @blp.alt_response(403, response="FORBIDDEN", description="The key opens no seat here.")
    @blp.alt_response(404, response="NOT_FOUND", description="No such table (or expired).")
    @blp.alt_response(409, response="CONFLICT", description="`after` is past the table.")
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE",
                      description="The table store is not answering.")
    @blp.doc(security=[{"seatKey": []}, {}], responses={"200": {
        "description": "Without `wait`: a stream of Server-Sent Events, one per version, "
        "`id: <version>` and `data:` the table as this seat sees it with the events of that "
        "version (as in the JSON answer); `: keep-alive` comments every 15 s. With `wait`: "
        "the JSON answer, with every event after `after`.",
        "content": {
            "application/json": {"schema": "TableUpdateSchema"},
            "text/event-stream": {"schema": {"type": "string"}},
        },
    }})
    def get(self, query: dict[str, Any], headers: dict[str, Any], table: str) -> Response:
        """Every new version of the table as this seat sees it, pushed (SSE) or long-polled."""
        record = load_table(table)
        key = bearer_key()
        seat = seat_of(record, key if key is not None else query["key"])
        after = query["after"] if query["after"] is not None else headers["last_event_id"]
        if after is not None and after > record.version:
            raise _stale_problem(record.version)
        if query["wait"] is not None:
            return _long_poll(record, seat, record.version if after is None else after,
                              query["wait"])
        return _event_stream(record, seat, after)


def _long_poll(record: TableRecord, seat: int | None, after: int, wait: int) -> Response:
    store = _store()
    if record.version <= after and wait > 0:
        deadline = time.monotonic() + wait
        with store.listen(record.table) as woken:
            while (remaining := deadline - time.monotonic()) > 0:
                woken.clear()
                record = store.load(record.table)
                if record.version > after:
                    break
                woken.wait(remaining)
    events = [event for entry in store.entries(record.table, after)
              if entry.version <= record.version for event in entry.events]
    state = table_state(record)
    return jsonify(_answer(record, record.version, state, seat, events))


def _sse(answer: dict[str, Any]) -> bytes:
    return b"id: %d\ndata: %s\n\n" % (answer["version"], dumps(answer))


def _event_stream(record: TableRecord, seat: int | None, after: int | None) -> Response:
    store = _store()
    if after is None or after == record.version:
        state = table_state(record)
        pending: list[Entry] = []
    else:
        log = store.entries(record.table, 0)
        state = GameState.from_dict(store.start(record.table))
        for entry in log[:after]:
            state = _replay(record.table, state, entry)
        pending = log[after:]
    if state.is_over and after is not None and not pending:
        # Nothing will ever come: 204 tells an EventSource to stop reconnecting.
        return Response(status=204)
    keepalive = float(current_app.config["TABLE_KEEPALIVE_SECONDS"])
    deadline = time.monotonic() + float(current_app.config["TABLE_STREAM_SECONDS"])

    def stream() -> Iterator[bytes]:
        nonlocal state, pending
        yield b"retry: 1000\n\n"
        cursor = record.version if after is None else after
        if after is None:
            yield _sse(_answer(record, cursor, state, seat, []))
        quiet = False
        with store.listen(record.table) as woken:
            while True:
                for entry in pending:
                    state = _replay(record.table, state, entry)
                    cursor = entry.version
                    yield _sse(_answer(record, cursor, state, seat, entry.events))
                remaining = deadline - time.monotonic()
                if state.is_over or remaining <= 0:
                    return
                woken.clear()
                try:
                    # After a quiet spell the log is read, whatever the notices said.
                    pending = store.entries_after(record.table, cursor, from_log=quiet)
                except StoreUnavailable:
                    # The client reconnects with Last-Event-ID when the store is back.
                    return
                quiet = False
                if not pending and not woken.wait(min(keepalive, remaining)):
                    quiet = True
                    yield b": keep-alive\n\n"

    response = Response(stream_with_context(stream()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response
