"""Hints: what each legal move of the seat to act is worth, from what that seat may see.

The game comes as in :mod:`thirtyone.web.games` (a sealed token with the seat's key, or an
open state with the seat), or is a hosted table (:mod:`thirtyone.web.tables`, the seat
holding the bearer key); the answer lists the seat's legal moves with their value
(:func:`thirtyone.advice.advise`), its standard error, and a localized description.

The effort is a number of worlds, never a time, so the same request gets the same answer on
any machine and under any load: :data:`DEFAULT_SAMPLES` unless the request asks for another
number, at most :data:`MAX_SAMPLES` (what bounds the CPU time of one request; a final round
after a knock small enough to enumerate is answered exactly, with no sampling). At a hosted
table the advice of a (table, version, seat) is computed once per process and kept.
The sampling runs in the worker's compute pool (:mod:`thirtyone.web.compute`), never on its
event loop. A hosted table's hints follow its ``hints`` rule: off, the advice there is 403
``hints_off``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import marshmallow as ma
from flask import Flask, current_app
from flask.views import MethodView

from thirtyone.advice import MEASURE_TEXTS, MEASURES, Advice, advise_view
from thirtyone.errors import N_, StateError
from thirtyone.game import view
from thirtyone.web import limits
from thirtyone.web.api import Blueprint
from thirtyone.web.contract import COMPONENT
from thirtyone.web.games import EXAMPLE_STATE, GameRequestSchema, Table
from thirtyone.web.i18n import describe_move, format_message
from thirtyone.web.problems import Problem

# The table's helpers: the same key check, store and state cache as its other operations.
from thirtyone.web.store import StoreUnavailable, TableNotFound
from thirtyone.web.tables import (
    bearer_key,
    key_required,
    load_table,
    seat_of,
    store_unavailable,
    table_not_found,
    table_state,
)
from thirtyone.web.validation import Schema, between, length, one_of

blp = Blueprint(
    "advice", __name__, url_prefix="/v1/games",
    description="Hints: the value of every legal move of the seat to act.",
)
tables_blp = Blueprint(
    "table-advice", __name__, url_prefix="/v1/tables",
    description="Hints at a hosted table, for the seat holding the key.",
)
tables_blp.register_error_handler(TableNotFound, table_not_found)
tables_blp.register_error_handler(StoreUnavailable, store_unavailable)

DEFAULT_SAMPLES = 200
"""Worlds a hint samples unless the request asks for another number."""
MAX_SAMPLES = 400
"""The most worlds one request may ask for: about a second of CPU in the costliest preset."""

class AdviceRequestSchema(GameRequestSchema):
    seat = ma.fields.Integer(
        required=True, validate=between(0, 14),
        metadata={"description": "The seat asking: it must be the one to act."},
    )
    samples = ma.fields.Integer(
        load_default=DEFAULT_SAMPLES, validate=between(1, MAX_SAMPLES),
        metadata={"description": f"Worlds to sample ({DEFAULT_SAMPLES} by default, at most "
                  f"{MAX_SAMPLES}); the same request always gets the same answer."},
    )
    seed = ma.fields.Raw(
        load_default=0,
        metadata={"description": "A number or a text of up to 200 characters: the same game, "
                  "seat, samples and seed give the same advice.",
                  "oneOf": [{"type": "integer"}, {"type": "string", "maxLength": 200}]},
    )

    @ma.validates("seed")
    def check_seed(self, value: Any, **kwargs: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, int | str) or len(str(value)) > 200:
            raise ma.ValidationError(N_("A seed is a number or a text of up to 200 characters."))


class TableAdviceQuerySchema(Schema):
    samples = ma.fields.Integer(
        load_default=DEFAULT_SAMPLES, validate=between(1, MAX_SAMPLES),
        metadata={"description": f"Worlds to sample ({DEFAULT_SAMPLES} by default, at most "
                  f"{MAX_SAMPLES}); the same request always gets the same answer."},
    )
    seed = ma.fields.String(
        load_default="0", validate=length(maximum=200),
        metadata={"description": "The same table version, seat, samples and seed give the "
                  "same advice."},
    )


class MoveValueSchema(Schema):
    move = ma.fields.Dict(
        required=True, metadata={COMPONENT: "Move", "description": "The legal move."}
    )
    description = ma.fields.String(required=True, metadata={"description": "Localized."})
    value = ma.fields.Float(
        required=True, metadata={"description": "The mean over the worlds, in `measure`."}
    )
    stderr = ma.fields.Float(required=True, metadata={"description": "Its standard error."})


class AdviceSchema(Schema):
    seat = ma.fields.Integer(required=True)
    measure = ma.fields.String(
        required=True, validate=one_of(tuple(sorted(set(MEASURES.values())))),
        metadata={"description": "What the values count: `match` (lives games, the chance "
                  "of winning the match, from the lives left after this round), `chips` (pot "
                  "games, chips won by the end of the deal), `points` (points games), `win` "
                  "(the race)."},
    )
    measure_description = ma.fields.String(required=True, metadata={"description": "Localized."})
    samples = ma.fields.Integer(
        required=True, metadata={"description": "Worlds sampled (0 when `exact`)."}
    )
    exact = ma.fields.Boolean(
        required=True, metadata={"description": "The values are exact, with no sampling: the "
                                 "race to 31 (its solver), and the last turn after a knock "
                                 "against the knocker's hand (every hand enumerated)."},
    )
    best = ma.fields.Integer(
        required=True, metadata={"description": "The index in `moves` of the best move."}
    )
    moves = ma.fields.List(ma.fields.Nested(MoveValueSchema), required=True)


@blp.route("/advice")
class GameAdvice(MethodView):
    @blp.arguments(AdviceRequestSchema(),
                   example={"state": EXAMPLE_STATE, "seat": 1, "samples": 50})
    @blp.response(200, AdviceSchema)
    @blp.alt_response(403, response="FORBIDDEN", description="The seat key is wrong.")
    @blp.alt_response(409, response="CONFLICT", description="The seat has no move to make.")
    @blp.doc(operationId="adviseGame")
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """A hint: every legal move of the seat to act with its value, from its view only."""
        table = Table(body, needs_seat=True)
        return hint(view(table.state, table.seat), body["samples"], body["seed"])


@tables_blp.route("/<table>/advice")
class TableAdvice(MethodView):
    @tables_blp.arguments(TableAdviceQuerySchema(), location="query")
    @tables_blp.response(200, AdviceSchema)
    @tables_blp.alt_response(401, response="UNAUTHORIZED", description="No bearer key was sent.")
    @tables_blp.alt_response(403, response="FORBIDDEN", description="The key opens no seat "
                             "here, or hints are off at this table (`hints_off`).")
    @tables_blp.alt_response(404, response="NOT_FOUND", description="No such table (or expired).")
    @tables_blp.alt_response(409, response="CONFLICT", description="The seat has no move to make.")
    @tables_blp.alt_response(503, response="SERVICE_UNAVAILABLE",
                             description="The table store is not answering.")
    @tables_blp.doc(operationId="adviseTable", security=[{"seatKey": []}])
    def get(self, query: dict[str, Any], table: str) -> dict[str, Any]:
        """A hint for the seat holding the key: every legal move with its value."""
        record = load_table(table)
        seat = seat_of(record, bearer_key())
        if seat is None:
            raise key_required()
        if not record.hints:
            raise Problem(403, "hints_off", N_("Hints are off at this table."),
                          title=N_("Forbidden"))
        # A version of a table is never reused: its advice for a seat is computed once.
        key = (record.table, record.version, seat, query["samples"], query["seed"])
        # The seat is the key's: the request names no seat.
        return hint(view(table_state(record), seat), query["samples"], query["seed"], key,
                    fields={"seat": None})


TABLE_CACHE_SIZE = 256
"""Hints kept per app, by table, version, seat, samples and seed (a seat asking again, or
from a second tab, gets the same answer without the CPU)."""


class AdviceCache:
    """The app's last :data:`TABLE_CACHE_SIZE` hints, least recently used dropped first. It
    lives on the app (:func:`init_app`), so two apps in one process never share answers."""

    def __init__(self, size: int = TABLE_CACHE_SIZE) -> None:
        self.size = size
        self._entries: OrderedDict[tuple[Any, ...], Advice] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> Advice | None:
        with self._lock:
            advice = self._entries.get(key)
            if advice is not None:
                self._entries.move_to_end(key)
            return advice

    def put(self, key: tuple[Any, ...], advice: Advice) -> None:
        with self._lock:
            self._entries[key] = advice
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)


_EXTENSION = "thirtyone.advice_cache"


def init_app(app: Flask) -> None:
    app.extensions[_EXTENSION] = AdviceCache()


def hint(seen: Mapping[str, Any], samples: int, seed: int | str,
         key: tuple[Any, ...] | None = None, *,
         fields: Mapping[str, str | None] | None = None) -> dict[str, Any]:
    """The answer of both operations: the advice for the seat of ``seen``, described;
    ``key`` names a table's version and seat whose advice is kept; ``fields`` maps the
    engine's field names to the request's (:meth:`Problem.from_engine`)."""
    cache: AdviceCache = current_app.extensions[_EXTENSION]
    advice = cache.get(key) if key is not None else None
    if advice is None:
        try:
            advice = limits.budgeted("THIRTYONE_ADVICE_CPU", advise_view, seen, samples, seed)
        except StateError as error:
            raise Problem.from_engine(error, status=409, fields=fields) from None
        if key is not None:
            cache.put(key, advice)
    moves = [{**entry.to_dict(), "description": describe_move(entry.move, seen)}
             for entry in advice.moves]
    return {
        "seat": advice.seat,
        "measure": advice.measure,
        "measure_description": format_message(MEASURE_TEXTS[advice.measure]),
        "samples": advice.samples,
        "exact": advice.exact,
        "best": advice.moves.index(advice.best),
        "moves": moves,
    }
