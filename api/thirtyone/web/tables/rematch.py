"""A rematch: after the end, any seat asks for it, and the table's players move to a new
table with the same variant, options, seats, names and bots.

The first seat to ask opens the new table (its seat claimed, a new key) and the old table
announces it (a ``rematch`` event and its ``rematch`` field, pushed to every seat). The other
players' seats there are kept for them: each claims its own by asking for the rematch with
its old key, and gets a new key that nobody else has seen. The new table is dealt once every
kept seat is claimed, or when the one who opened it starts it (the commands
:class:`~.commands.Rematch` and :class:`~.commands.JoinRematch`).
"""

from __future__ import annotations

from flask import Response, jsonify
from flask.views import MethodView

from thirtyone.web.tables.answers import table_answer
from thirtyone.web.tables.blueprint import blp
from thirtyone.web.tables.commands import Rematch as AskRematch
from thirtyone.web.tables.commit_path import execute
from thirtyone.web.tables.schemas import ClaimedTableSchema


@blp.route("/<table>/rematch")
class Rematch(MethodView):
    @blp.doc(operationId="rematch", security=[{"seatKey": []}])
    @blp.response(201, ClaimedTableSchema)
    @blp.alt_response(403, response="FORBIDDEN", description="No key, or it opens no seat.")
    @blp.alt_response(404, response="NOT_FOUND", description="No such table (or expired).")
    @blp.alt_response(409, response="CONFLICT",
                      description="The match is not over, or your seat there is taken.")
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE",
                      description="The table store is not answering.")
    def post(self, table: str) -> tuple[Response, int]:
        """Ask for a rematch once the match is over, with your seat's key: the new table as
        your seat sees it and your key there (the first to ask opens it; the old table's
        stream announces it to the others, who ask in turn)."""
        done = execute(AskRematch(table))
        answer = table_answer(done.record, done.version, done.state, done.seat, done.events)
        assert done.seat is not None
        answer["key"] = done.keys[done.seat]
        return jsonify(answer), 201
