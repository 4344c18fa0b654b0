"""The operations on a table: open it, read it, move at it (each change a command of
:mod:`.commands`)."""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, jsonify, url_for
from flask.views import MethodView

from thirtyone.web.store import TableRecord
from thirtyone.web.tables import fanout, idempotency, scheduler
from thirtyone.web.tables.answers import table_answer
from thirtyone.web.tables.blueprint import blp
from thirtyone.web.tables.commands import Move, Open
from thirtyone.web.tables.commit_path import Done, execute
from thirtyone.web.tables.ledger import load_table, table_state
from thirtyone.web.tables.presence import touch
from thirtyone.web.tables.schemas import (
    NewTableResultSchema,
    NewTableSchema,
    TableMoveRequestSchema,
    TableSchema,
    TableUpdateSchema,
)
from thirtyone.web.tables.seats import bearer_key, seat_of

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
    @blp.alt_response(409, response="CONFLICT",
                      description="`too_many_listed_tables`: a public table waiting for "
                      "players, from a client that has as many listed in the lobby as it may "
                      "(open it private, or wait until one of them starts).")
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE",
                      description="The table store is not answering.")
    @blp.doc(parameters=[IDEMPOTENCY_KEY])
    def post(self, body: dict[str, Any]) -> tuple[Response, int, dict[str, str]]:
        """Open a table: your own seat's key, one invitation per other human seat, bots in
        the others, and the SHA-256 of the server's seed. With other human seats it waits
        (phase `waiting`, no card dealt) until they are claimed or you start it."""
        done = Open(body).execute()
        answer = table_answer(done.record, done.version, done.state, None, done.events)
        for seat in answer["seats"]:
            seat["key"] = done.keys.get(seat["seat"])
            seat["invitation"] = done.invitations.get(seat["seat"])
        return _replayed(jsonify(answer), done), 201, _location(done.record)


def _location(record: TableRecord) -> dict[str, str]:
    return {"Location": url_for("tables.Table", table=record.table)}


def _replayed(answer: Response, done: Done) -> Response:
    if done.replayed:
        answer.headers[idempotency.REPLAYED] = "true"
    return answer


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
        return current_app.response_class(fanout.answer(record, table_state(record), seat),
                                          mimetype="application/json")


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
        done = execute(Move(table, body))
        return _replayed(jsonify(table_answer(done.record, done.version, done.state, done.seat,
                                              done.events, done.digest)), done)
