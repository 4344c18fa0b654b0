"""Taking, keeping and giving up a seat: claim it with an invitation, replace an invitation,
rotate a key, start a waiting table, leave a match, take a departed seat back.

Each route reads the request, builds its command (:mod:`.commands`, where each is verified
and applied) and answers what :func:`~.commit_path.execute` did: every change is a commit of
the table's seats and meta (a new version, pushed to every seat), tried again on the newer
version when another commit came first, so two players claiming their seats at once both get
them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response, jsonify
from flask.views import MethodView

from thirtyone.web.tables.answers import table_answer
from thirtyone.web.tables.blueprint import blp
from thirtyone.web.tables.commands import (
    Claim,
    Leave,
    ReplaceInvitation,
    Return,
    RotateKey,
    Start,
)
from thirtyone.web.tables.commit_path import Done, execute
from thirtyone.web.tables.schemas import (
    ClaimedTableSchema,
    ClaimSeatSchema,
    InvitationSchema,
    SeatKeySchema,
    TableUpdateSchema,
)
from thirtyone.web.tables.seats import address_digest

_ERRORS = {
    403: "FORBIDDEN", 404: "NOT_FOUND", 409: "CONFLICT", 503: "SERVICE_UNAVAILABLE",
}


def _documented(*statuses: int) -> Callable[[Any], Any]:
    def decorate(function: Any) -> Any:
        for status in statuses:
            function = blp.alt_response(status, response=_ERRORS[status])(function)
        return function
    return decorate


def answer(done: Done) -> dict[str, Any]:
    """The table after a command, as the seat it answers sees it."""
    return table_answer(done.record, done.version, done.state, done.seat, done.events)


@blp.route("/<table>/seats/<int:seat>")
class SeatClaim(MethodView):
    @blp.doc(operationId="claimSeat")
    @blp.arguments(ClaimSeatSchema(), example={"invitation": "<the seat's invitation>",
                                               "name": "Bruno", "entropy": "dice 3 6 1"})
    @blp.response(201, ClaimedTableSchema)
    @_documented(403, 404, 409, 503)
    def post(self, body: dict[str, Any], table: str, seat: int) -> tuple[Response, int]:
        """Claim a seat of a waiting table with its invitation (a free seat of a public
        table needs none), with your name and, if you like, your contribution to the deal's
        seed. The answer holds the seat's key, which nobody else has seen. The last seat
        claimed deals the cards."""
        done = execute(Claim(table, seat, body["name"], body["entropy"], body["invitation"],
                             address_digest(table)))
        claimed = answer(done)
        claimed["key"] = done.keys[seat]
        return jsonify(claimed), 201


@blp.route("/<table>/seats/<int:seat>/invitation")
class SeatInvitation(MethodView):
    @blp.doc(operationId="replaceInvitation", security=[{"seatKey": []}])
    @blp.response(201, InvitationSchema)
    @_documented(403, 404, 409, 503)
    def post(self, table: str, seat: int) -> tuple[Response, int]:
        """The creator revokes an unclaimed seat's invitation: a new one replaces it."""
        command = ReplaceInvitation(table, seat)
        execute(command)
        return jsonify({"seat": seat, "invitation": command.invitation}), 201


@blp.route("/<table>/seats/<int:seat>/key")
class SeatKey(MethodView):
    @blp.doc(operationId="rotateSeatKey", security=[{"seatKey": []}])
    @blp.response(201, SeatKeySchema)
    @_documented(403, 404, 503)
    def post(self, table: str, seat: int) -> tuple[Response, int]:
        """Rotate your seat's key: the answer holds a new one and the old one opens nothing
        any more."""
        command = RotateKey(table, seat)
        execute(command)
        return jsonify({"seat": seat, "key": command.seat_key}), 201


@blp.route("/<table>/start")
class TableStart(MethodView):
    @blp.doc(operationId="startTable", security=[{"seatKey": []}])
    @blp.response(200, TableUpdateSchema)
    @_documented(403, 404, 409, 503)
    def post(self, table: str) -> Response:
        """The creator deals a waiting table now: bots of the table's level take the seats
        nobody claimed."""
        return jsonify(answer(execute(Start(table))))


@blp.route("/<table>/leave")
class TableLeave(MethodView):
    @blp.doc(operationId="leaveTable", security=[{"seatKey": []}])
    @blp.response(200, TableUpdateSchema)
    @_documented(403, 404, 409, 503)
    def post(self, table: str) -> Response:
        """Leave (resign): a bot of the table's level plays your seat for the rest of the
        match. Your key still shows your seat's cards."""
        return jsonify(answer(execute(Leave(table))))


@blp.route("/<table>/seats/<int:seat>/return")
class SeatReturn(MethodView):
    @blp.doc(operationId="returnToSeat", security=[{"seatKey": []}])
    @blp.response(200, TableUpdateSchema)
    @_documented(403, 404, 409, 503)
    def post(self, table: str, seat: int) -> Response:
        """Take your seat back from the bot that plays it since you left or missed your
        turns, while the match is not over: you play it again from the next move (at a
        clocked table, within what is left of the turn)."""
        return jsonify(answer(execute(Return(table, seat))))
