"""``GET /v1/records?player=...``: a player's finished matches, the latest first, a page at a
time, each with the address of its record (``GET /v1/tables/{table}/record``)."""

from __future__ import annotations

import logging
from typing import Any

import marshmallow as ma
from flask import Response
from flask.views import MethodView

from thirtyone.errors import N_
from thirtyone.web.api import Blueprint
from thirtyone.web.archive import ArchiveUnavailable, archive
from thirtyone.web.contract import COMPONENT
from thirtyone.web.problems import Problem
from thirtyone.web.validation import PageSchema, Schema, between, length

_log = logging.getLogger(__name__)

PAGE = 20

blp = Blueprint("records", __name__, url_prefix="/v1/records",
                description="Finished matches, kept for good: a player finds their matches "
                "again, each with its verifiable record.")


def archive_unavailable(error: ArchiveUnavailable) -> Response:
    _log.error("the archive did not answer: %s", error)
    return Problem(503, "archive_unavailable",
                   N_("The archive of finished matches is not answering; try again in a few "
                      "seconds."),
                   title=N_("Service unavailable"), headers={"Retry-After": "5"}).response()


blp.register_error_handler(ArchiveUnavailable, archive_unavailable)


class RecordsQuerySchema(Schema):
    class Meta:
        unknown = ma.EXCLUDE

    player = ma.fields.String(required=True, validate=length(1, 128), metadata={
        "description": "A seat's name (any case) or the SHA-256 of a seat's key, in hex.",
        "example": "Anna"})
    offset = ma.fields.Integer(load_default=0, validate=between(0, 100_000),
                               metadata={"description": "Matches to skip."})
    limit = ma.fields.Integer(load_default=PAGE, validate=between(1, 100),
                              metadata={"description": "Matches per page."})


class RecordSeatSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    name = ma.fields.String(required=True, allow_none=True)
    bot = ma.fields.String(required=True, allow_none=True, metadata={COMPONENT: "BotLevel"})


class FinishedMatchSchema(ma.Schema):
    table = ma.fields.String(required=True)
    variant = ma.fields.String(required=True)
    players = ma.fields.Integer(required=True)
    finished_at = ma.fields.Float(required=True, metadata={
        "description": "When its last move was played (Unix time, seconds)."})
    seats = ma.fields.List(ma.fields.Nested(RecordSeatSchema), required=True)
    winners = ma.fields.List(ma.fields.Integer(), required=True)
    record = ma.fields.String(required=True, metadata={
        "description": "Where its match record is: `/v1/tables/{table}/record`."})


class FinishedMatchesSchema(PageSchema):
    matches = ma.fields.List(ma.fields.Nested(FinishedMatchSchema), required=True)


@blp.route("")
class FinishedMatches(MethodView):
    @blp.doc(operationId="listRecords")
    @blp.arguments(RecordsQuerySchema(), location="query")
    @blp.response(200, FinishedMatchesSchema)
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE",
                      description="The archive is not answering.")
    def get(self, query: dict[str, Any]) -> dict[str, Any]:
        """A player's finished matches, the latest first: found by a seat's name or by the
        SHA-256 of a seat's key. Each names its record, which `thirtyone verify` checks."""
        found, total = archive().matches(query["player"], query["offset"], query["limit"])
        return {
            "matches": [{"table": match.table, "variant": match.variant,
                         "players": match.players, "finished_at": match.finished_at,
                         "seats": match.seats, "winners": match.winners,
                         "record": f"/v1/tables/{match.table}/record"} for match in found],
            "total": total, "offset": query["offset"], "limit": query["limit"]}
