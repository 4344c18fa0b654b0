"""The operations on a table: open it, read it, move at it."""

from __future__ import annotations

import secrets
from typing import Any

from flask import Response, jsonify, url_for
from flask.views import MethodView

from thirtyone.errors import MoveError
from thirtyone.game import GameState
from thirtyone.web import metrics
from thirtyone.web.problems import Problem
from thirtyone.web.store import RequestRecord, StaleVersion, TableExists, TableRecord
from thirtyone.web.tables import idempotency, scheduler
from thirtyone.web.tables.answers import table_answer
from thirtyone.web.tables.autoplay import advance, is_due, play_due
from thirtyone.web.tables.blueprint import blp
from thirtyone.web.tables.clocks import enforce
from thirtyone.web.tables.ledger import commit, digest_of, load_table, table_state
from thirtyone.web.tables.life import TableSpec, life_meta, open_table
from thirtyone.web.tables.playing import play
from thirtyone.web.tables.presence import touch
from thirtyone.web.tables.problems import (
    key_required,
    seat_played_by_bot,
    stale_version,
    table_waiting,
)
from thirtyone.web.tables.schemas import (
    NewTableResultSchema,
    NewTableSchema,
    TableMoveRequestSchema,
    TableSchema,
    TableUpdateSchema,
)
from thirtyone.web.tables.seats import address_digest, bearer_key, check_name, seat_of
from thirtyone.web.tables.table import Phase, of

IDEMPOTENCY_KEY = {
    "in": "header", "name": idempotency.HEADER, "required": False,
    "schema": {"type": "string", "pattern": "^[A-Za-z0-9_.:-]{16,128}$"},
    "description": "A random key (a UUID) naming this request: sent again with the same key "
    "and body, the request is answered as the first time instead of being applied twice; the "
    "same key with another body is a 422 `idempotency_key_reused`. A repeated answer carries "
    "`Idempotent-Replayed: true`.",
}


_TABLE = {"table": "$response.body#/table"}
# What a client does with a new table (schemathesis' stateful tests follow these too).
TABLE_LINKS = {
    "getTable": {"operationId": "getTable", "parameters": _TABLE,
                 "description": "Read the new table."},
    "playTableMove": {"operationId": "playTableMove", "parameters": _TABLE,
                      "description": "Play at the new table (with a seat's key)."},
    "tableEvents": {"operationId": "tableEvents", "parameters": _TABLE,
                    "description": "Follow the new table's events."},
    "pollTable": {"operationId": "pollTable", "parameters": _TABLE,
                  "description": "Wait for the new table's next version."},
}


@blp.route("")
class Tables(MethodView):
    @blp.doc(operationId="openTable", responses={201: {"links": TABLE_LINKS}})
    @blp.arguments(NewTableSchema(),
                   example={"variant": "scat", "players": 3, "bots": {"2": "greedy"},
                            "name": "Ana", "public": True, "turn_seconds": 60})
    @blp.response(201, NewTableResultSchema, headers={"Location": {
        "description": "The new table's address (`GET` it to read the table).",
        "schema": {"type": "string", "format": "uri-reference"}}})
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE",
                      description="The table store is not answering.")
    @blp.doc(parameters=[IDEMPOTENCY_KEY])
    def post(self, body: dict[str, Any]) -> tuple[Response, int, dict[str, str]]:
        """Open a table: your own seat's key, one invitation per other human seat, bots in
        the others, and the SHA-256 of the server's seed. With other human seats it waits
        (phase `waiting`, no card dealt) until they are claimed or you start it."""
        key = idempotency.request_key()
        record = idempotency.opened(key, body) if key is not None else None
        if record is not None and key is not None:
            return self._again(record, key), 201, _location(record)
        check_name(body["name"])
        table = idempotency.table_id(key) if key is not None else secrets.token_urlsafe(12)
        bots = {int(seat): level for seat, level in body["bots"].items()}
        humans = body["players"] - len(bots)
        spec = TableSpec(
            variant=body["variant"], players=body["players"], options=body["options"] or {},
            bots=bots, creator=body["seat"], name=body["name"], entropy=body["entropy"],
            public=body["public"], turn_seconds=body["turn_seconds"], level=body["level"],
            hints=body["hints"] == "on" if body["hints"] is not None else humans < 2,
            table=table,
            seat_key=None if key is None else lambda seat: idempotency.seat_key(key, seat),
            invitation=None if key is None else lambda seat: idempotency.invitation(key, seat),
            request=None if key is None else {"body": idempotency.body_digest(body)},
            address=address_digest(table) if body["public"] else None,
            lister=address_digest() if body["public"] else None,
        )

        try:
            with metrics.bot_cpu():
                opened = open_table(spec)
        except TableExists:
            # The same creation, retried while the first one was being made.
            again = idempotency.opened(key, body) if key is not None else None
            if again is None or key is None:
                raise
            return self._again(again, key), 201, _location(again)
        record = opened.record
        touch(record, of(record).creator)
        answer = _opened(record, opened.version, opened.state, opened.events, opened.keys,
                         opened.invitations)
        return answer, 201, _location(record)

    @staticmethod
    def _again(record: TableRecord, key: str) -> Response:
        """The answer of the creation with idempotency key ``key`` that opened ``record``:
        version 0, or 1 when bots were to move first (played now if that request stopped
        before they did)."""
        meta = of(record)
        creator = meta.creator
        keys = {} if creator is None else {creator: idempotency.seat_key(key, creator)}
        invitations = {seat: idempotency.invitation(key, seat)
                       for seat, kept in enumerate(meta.seats) if kept.invitation is not None}
        dealt, _ = idempotency.original(record, 0)
        version = 1 if meta.phase != Phase.WAITING and is_due(record.seats, dealt) else 0
        if version > record.version:
            advanced = advance(record)
            return _opened(record, advanced.version, advanced.state, advanced.events, keys,
                           invitations)
        played, events = idempotency.original(record, version)
        answer = _opened(record, version, played, events, keys, invitations)
        answer.headers[idempotency.REPLAYED] = "true"
        return answer


def _location(record: TableRecord) -> dict[str, str]:
    return {"Location": url_for("tables.Table", table=record.table)}


def _opened(record: TableRecord, version: int, state: GameState, events: list[Any],
            keys: dict[int, str], invitations: dict[int, str]) -> Response:
    """A new table as its creator sees it: its own key, and the other seats' invitations."""
    answer = table_answer(record, version, state, None, events)
    for seat in answer["seats"]:
        seat["key"] = keys.get(seat["seat"])
        seat["invitation"] = invitations.get(seat["seat"])
    return jsonify(answer)


@blp.route("/<table>")
class Table(MethodView):
    @blp.doc(operationId="getTable")
    @blp.response(200, TableSchema)
    @blp.alt_response(401, response="UNAUTHORIZED",
                      description="An Authorization header that is not a bearer key.")
    @blp.alt_response(403, response="FORBIDDEN", description="The key opens no seat here.")
    @blp.alt_response(404, response="NOT_FOUND", description="No such table (or expired).")
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE",
                      description="The table store is not answering.")
    @blp.doc(security=[{"seatKey": []}, {}])
    def get(self, table: str) -> Response:
        """The table as a seat (with its key) or a spectator (without) sees it."""
        record = load_table(table)
        seat = seat_of(record, bearer_key())
        touch(record, seat)
        # A read plays nothing: the worker's scheduler plays what is due (an app made for
        # tests plays it here, inline).
        record = scheduler.notice(record)
        return jsonify(table_answer(record, record.version, table_state(record), seat))


@blp.route("/<table>/moves")
class TableMoves(MethodView):
    @blp.doc(operationId="playTableMove")
    @blp.arguments(TableMoveRequestSchema())
    @blp.response(200, TableUpdateSchema)
    @blp.alt_response(401, response="UNAUTHORIZED", description="No bearer key was shown.")
    @blp.alt_response(403, response="FORBIDDEN", description="The key opens no seat here.")
    @blp.alt_response(404, response="NOT_FOUND", description="No such table (or expired).")
    @blp.alt_response(409, response="CONFLICT",
                      description="`stale_version`, or the move is not legal now.")
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE",
                      description="The table store is not answering.")
    @blp.doc(security=[{"seatKey": []}], parameters=[IDEMPOTENCY_KEY])
    def post(self, body: dict[str, Any], table: str) -> Response:
        """Move for your seat; the bots answer at once (for a slice of work: strong bots at a
        long table go on after the answer, as its stream shows). The next version, what
        happened and what your seat now sees."""
        record = load_table(table)
        key = bearer_key()
        if key is None:
            raise key_required()
        seat = seat_of(record, key)
        request_key = idempotency.request_key()
        if request_key is not None:
            done = idempotency.committed(record, request_key, body, seat)
            if done is not None:
                return _original(record, done.version, seat)
        touch(record, seat)
        record = enforce(record)
        if body["version"] != record.version:
            raise stale_version(record.version)
        if of(record).phase == Phase.WAITING:
            raise table_waiting()
        assert seat is not None  # a key was shown, and it opened a seat
        if record.seats[seat].bot is not None:
            raise seat_played_by_bot(seat)
        state = table_state(record)
        moves: list[dict[str, Any]] = []
        try:
            moved, events = play(state, {**body["move"], "seat": seat}, moves)
        except MoveError as error:
            # The seat is the key's: the request names no seat.
            raise Problem.from_engine(error, status=409, fields={"seat": None},
                                      prefix="move.") from None
        with metrics.bot_cpu():
            moved, bot_events = play_due(record, record.seats, moved, moves)
        request = None if request_key is None else (
            request_key, RequestRecord(record.version + 1, idempotency.body_digest(body, seat),
                                       seat))
        # At a clocked table the player moved in time: the count of missed turns starts again
        # (and the next turn's clock with this commit).
        clock = life_meta(record, seat_changes={seat: {"missed": 0}}) \
            if of(record).clocked else None
        try:
            version = commit(record, record.version, moves, moved, events + bot_events, request,
                             meta=clock)
        except StaleVersion:
            # The same request, retried while the first one was being committed.
            done = None if request_key is None else idempotency.committed(
                record, request_key, body, seat)
            if done is None:
                raise
            return _original(record, done.version, seat)
        return jsonify(table_answer(clock or record, version, moved, seat, events + bot_events,
                                    digest_of(record.table, version)))


def _original(record: TableRecord, version: int, seat: int | None) -> Response:
    """The answer a move committed at ``version`` got, for its retry."""
    record = load_table(record.table)
    state, events, digest = idempotency.original_entry(record, version)
    answer = jsonify(table_answer(record, version, state, seat, events, digest))
    answer.headers[idempotency.REPLAYED] = "true"
    return answer
