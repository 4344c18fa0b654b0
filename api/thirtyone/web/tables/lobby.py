"""The lobby: ``GET /v1/tables`` lists the public tables that wait for players, newest first,
a page at a time, with what anyone may see (never a key or an invitation), and none idle past
:data:`IDLE_SECONDS`. A client (by address) has at most :data:`PER_ADDRESS` tables listed:
a public table it opens beyond them is refused (:func:`admit`, 409 ``too_many_listed_tables``),
and a page lists no more of one address (tables opened at once may pass the first check). A
free seat of a listed table is claimed without invitation
(``POST /v1/tables/{table}/seats/{seat}``)."""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import marshmallow as ma
from flask import Response, jsonify
from flask.views import MethodView

from thirtyone.web.contract import COMPONENT
from thirtyone.web.store import TableNotFound, TableRecord
from thirtyone.web.tables.blueprint import blp
from thirtyone.web.tables.ledger import load_table, store
from thirtyone.web.tables.life import waiting_for
from thirtyone.web.tables.problems import too_many_listed_tables
from thirtyone.web.tables.table import Phase, of
from thirtyone.web.validation import PageSchema, Schema, between

PAGE = 20

PER_ADDRESS = 3
"""The most tables of one creator's address the lobby lists: a client opening hundreds of
public tables fills no lobby."""

IDLE_SECONDS = 600
"""A waiting public table with no clock leaves the lobby this long after it opened (one with
a clock leaves it when dealt, or as its waiting ends)."""


class LobbyQuerySchema(Schema):
    class Meta:
        unknown = ma.EXCLUDE

    offset = ma.fields.Integer(load_default=0, validate=between(0, 10_000),
                               metadata={"description": "Tables to skip."})
    limit = ma.fields.Integer(load_default=PAGE, validate=between(1, 100),
                              metadata={"description": "Tables per page."})


class LobbySeatSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    name = ma.fields.String(required=True, allow_none=True)
    bot = ma.fields.String(required=True, allow_none=True, metadata={COMPONENT: "BotLevel"})
    free = ma.fields.Boolean(required=True, metadata={"description": "Anyone may claim it."})


class LobbyTableSchema(ma.Schema):
    table = ma.fields.String(required=True)
    variant = ma.fields.String(required=True)
    players = ma.fields.Integer(required=True)
    options = ma.fields.Dict(required=True)
    turn_seconds = ma.fields.Integer(required=True, allow_none=True)
    seats = ma.fields.List(ma.fields.Nested(LobbySeatSchema), required=True)
    free = ma.fields.Integer(required=True, metadata={"description": "Seats free to claim."})
    age_seconds = ma.fields.Integer(required=True,
                                    metadata={"description": "Seconds since it opened."})


class LobbySchema(PageSchema):
    tables = ma.fields.List(ma.fields.Nested(LobbyTableSchema), required=True)


@blp.route("")
class Lobby(MethodView):
    @blp.doc(operationId="listTables")
    @blp.arguments(LobbyQuerySchema(), location="query")
    @blp.response(200, LobbySchema)
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE",
                      description="The table store is not answering.")
    def get(self, query: dict[str, Any]) -> Response:
        """The public tables waiting for players, newest first: variant, options, seats
        (names, bots, free), age. Private tables are never listed."""
        ids, total = store().public_tables(query["offset"], query["limit"])
        now = time.time()
        tables = []
        listed: Counter[str | None] = Counter()
        for table in ids:
            record = _listed(table, now)
            if record is None:
                continue
            meta = of(record)
            listed[meta.lister] += 1
            if meta.lister is not None and listed[meta.lister] > PER_ADDRESS:
                continue
            free = set(waiting_for(record))
            tables.append({
                "table": table, "variant": meta.variant, "players": meta.players,
                "options": meta.options or {}, "turn_seconds": meta.turn_seconds,
                "seats": [{"seat": seat, "name": meta.seat(seat).name,
                           "bot": stored.bot,
                           "free": seat in free and not meta.seat(seat).reserved}
                          for seat, stored in enumerate(record.seats)],
                "free": len(free), "age_seconds": int(now - (meta.created or now)),
            })
        return jsonify({"tables": tables, "total": total, "offset": query["offset"],
                        "limit": query["limit"]})


def _listed(table: str, now: float) -> TableRecord | None:
    """The lobby's ``table`` if it is still to be listed; None (and out of the lobby) when it
    expired, started, or waited idle past :data:`IDLE_SECONDS` with no clock."""
    try:
        record = load_table(table)
    except TableNotFound:
        store().unlist(table)
        return None
    meta = of(record)
    idle = not meta.clocked and now - (meta.created or now) > IDLE_SECONDS
    if meta.phase != Phase.WAITING or not meta.public or idle:
        store().unlist(table)
        return None
    return record


def admit(lister: str | None) -> None:
    """Refuse a new listed table to the client ``lister`` names (its address digest; None: a
    loopback address, bound by nothing) when :data:`PER_ADDRESS` of its tables are listed
    already: 409 ``too_many_listed_tables``, before anything is stored."""
    if lister is None:
        return
    now = time.time()
    listed = sum(_listed(table, now) is not None for table in store().listed_by(lister))
    if listed >= PER_ADDRESS:
        raise too_many_listed_tables(PER_ADDRESS)
