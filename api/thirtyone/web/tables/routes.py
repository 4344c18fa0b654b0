"""The operations on a table: open it, read it, move at it."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from flask import Response, jsonify, url_for
from flask.views import MethodView

from thirtyone.errors import MoveError
from thirtyone.game import new_game
from thirtyone.web.jsonio import dumps
from thirtyone.web.problems import Problem
from thirtyone.web.store import SeatRecord, TableRecord
from thirtyone.web.tables.answers import table_answer
from thirtyone.web.tables.autoplay import advance, play_due
from thirtyone.web.tables.blueprint import blp
from thirtyone.web.tables.ledger import commit, load_table, store, table_state
from thirtyone.web.tables.playing import play
from thirtyone.web.tables.problems import key_required, stale_version
from thirtyone.web.tables.schemas import (
    NewTableResultSchema,
    NewTableSchema,
    TableMoveRequestSchema,
    TableSchema,
    TableUpdateSchema,
)
from thirtyone.web.tables.seats import bearer_key, key_hash, new_key, seat_of


@blp.route("")
class Tables(MethodView):
    @blp.doc(operationId="openTable")
    @blp.arguments(NewTableSchema(),
                   example={"variant": "scat", "players": 2, "bots": {"1": "greedy"}})
    @blp.response(201, NewTableResultSchema, headers={"Location": {
        "description": "The new table's address (`GET` it to read the table).",
        "schema": {"type": "string", "format": "uri-reference"}}})
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE",
                      description="The table store is not answering.")
    def post(self, body: dict[str, Any]) -> tuple[Response, int, dict[str, str]]:
        """Open a table: one key per human seat, bots in the others, and the seed's SHA-256."""
        state = new_game(body["variant"], body["players"], options=body["options"] or None)
        bots = {int(seat): level for seat, level in body["bots"].items()}
        keys = {seat: new_key() for seat in range(state.players)
                if seat not in bots}
        seats = tuple(
            SeatRecord(bots.get(seat), key_hash(keys[seat]) if seat in keys else None)
            for seat in range(state.players)
        )
        start = state.to_dict()
        hints = body["hints"] == "on" if body["hints"] is not None else len(keys) < 2
        record = TableRecord(
            table=secrets.token_urlsafe(12), version=0, state_json=dumps(start), seats=seats,
            seed_sha256=hashlib.sha256(str(state.seed).encode()).hexdigest(), hints=hints,
        )
        store().create(record, start)
        # Bots to move first play one slice at once (version 1), before anyone has seen the
        # table; a table of bots alone plays on as it is read or streamed.
        advanced = advance(record)
        answer = table_answer(record, advanced.version, advanced.state, None, advanced.events)
        answer["seats"] = [{"seat": seat, "bot": stored.bot, "key": keys.get(seat)}
                           for seat, stored in enumerate(seats)]
        return jsonify(answer), 201, {"Location": url_for("tables.Table", table=record.table)}


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
        advanced = advance(record)
        return jsonify(table_answer(record, advanced.version, advanced.state, seat))


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
    @blp.doc(security=[{"seatKey": []}])
    def post(self, body: dict[str, Any], table: str) -> Response:
        """Move for your seat; the bots answer at once (for a slice of work: strong bots at a
        long table go on after the answer, as its stream shows). The next version, what
        happened and what your seat now sees."""
        record = load_table(table)
        key = bearer_key()
        if key is None:
            raise key_required()
        seat = seat_of(record, key)
        if body["version"] != record.version:
            raise stale_version(record.version)
        state = table_state(record)
        moves: list[dict[str, Any]] = []
        try:
            moved, events = play(state, {**body["move"], "seat": seat}, moves)
        except MoveError as error:
            raise Problem.from_engine(error, status=409) from None
        moved, bot_events = play_due(record.seats, moved, moves)
        version = commit(record, record.version, moves, moved, events + bot_events)
        return jsonify(table_answer(record, version, moved, seat, events + bot_events))
