"""The operations on a table: open it, read it, move at it."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, url_for
from flask.views import MethodView

from thirtyone.errors import MoveError
from thirtyone.web.problems import Problem
from thirtyone.web.tables.answers import table_answer
from thirtyone.web.tables.blueprint import blp
from thirtyone.web.tables.clocks import enforce
from thirtyone.web.tables.ledger import commit, load_table, table_state
from thirtyone.web.tables.life import (
    WAITING,
    TableSpec,
    changed,
    clocked,
    commit_life,
    open_table,
    phase,
)
from thirtyone.web.tables.playing import play, play_bots
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
from thirtyone.web.tables.seats import bearer_key, seat_of


@blp.route("")
class Tables(MethodView):
    @blp.doc(operationId="openTable")
    @blp.arguments(NewTableSchema(),
                   example={"variant": "scat", "players": 3, "bots": {"2": "greedy"},
                            "name": "Ana", "public": True, "turn_seconds": 60})
    @blp.response(201, NewTableResultSchema, headers={"Location": {
        "description": "The new table's address (`GET` it to read the table).",
        "schema": {"type": "string", "format": "uri-reference"}}})
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE",
                      description="The table store is not answering.")
    def post(self, body: dict[str, Any]) -> tuple[Response, int, dict[str, str]]:
        """Open a table: your own seat's key, one invitation per other human seat, bots in
        the others, and the SHA-256 of the server's seed. With other human seats it waits
        (phase `waiting`, no card dealt) until they are claimed or you start it."""
        opened = open_table(TableSpec(
            variant=body["variant"], players=body["players"], options=body["options"] or {},
            bots={int(seat): level for seat, level in body["bots"].items()},
            creator=body["seat"], name=body["name"], entropy=body["entropy"],
            public=body["public"],
            turn_seconds=body["turn_seconds"], level=body["level"],
        ))
        record = opened.record
        if record.meta.get("creator") is not None:
            touch(record, record.meta["creator"])
        answer = table_answer(record, opened.version, opened.state, None, opened.events)
        for seat in answer["seats"]:
            seat["key"] = opened.keys.get(seat["seat"])
            seat["invitation"] = opened.invitations.get(seat["seat"])
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
        touch(record, seat)
        record = enforce(record)
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
    @blp.doc(security=[{"seatKey": []}])
    def post(self, body: dict[str, Any], table: str) -> Response:
        """Move for your seat; the bots answer at once. The next version, what happened and
        what your seat now sees."""
        record = load_table(table)
        key = bearer_key()
        if key is None:
            raise key_required()
        seat = seat_of(record, key)
        touch(record, seat)
        record = enforce(record)
        if body["version"] != record.version:
            raise stale_version(record.version)
        if phase(record) == WAITING:
            raise table_waiting()
        if record.seats[seat].bot is not None:
            raise seat_played_by_bot(seat)
        state = table_state(record)
        moves: list[dict[str, Any]] = []
        try:
            moved, events = play(state, {**body["move"], "seat": seat}, moves)
        except MoveError as error:
            raise Problem.from_engine(error, status=409) from None
        moved, bot_events = play_bots(moved, record.seats, moves)
        if clocked(record):
            # The player moved in time: the count of missed turns starts again.
            record = commit_life(record, changed(record, seat_meta_changes={seat: {"missed": 0}}),
                                 moves, moved, events + bot_events)
            version = record.version
        else:
            version = commit(record, record.version, moves, moved, events + bot_events)
        return jsonify(table_answer(record, version, moved, seat, events + bot_events))
