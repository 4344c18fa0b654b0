"""Game review: every decision of a finished (or unfinished) match valued against the best
move its seat could see (:mod:`thirtyone.review`).

The request is the match's record: the rules, the number of players, the seed and first
dealer, and the moves in order. A sealed game gives all of it to the client that played it:
the seed shows in the state once the match is over, and the moves are those it sent and the
events it was answered with; a match record of a hosted table carries the same fields. The
CPU of one request is bounded by the engine's budget (:data:`thirtyone.review.WORLDS` worlds
in all, at most :data:`thirtyone.review.MAX_DECISIONS` decisions), run in the worker's
compute pool (:mod:`thirtyone.web.compute`) and limited per client like the hints (requests and
CPU time, :class:`~thirtyone.web.limits.CPUBudget`).
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask.views import MethodView

from thirtyone.advice import MEASURE_TEXTS
from thirtyone.errors import N_, ThirtyOneError
from thirtyone.review import MAX_MOVES, mistake_text, review
from thirtyone.web import limits
from thirtyone.web.api import Blueprint
from thirtyone.web.i18n import catalog, describe_move, format_message
from thirtyone.web.problems import Problem
from thirtyone.web.validation import RulesSchema, Schema, between, length, players_field

blp = Blueprint(
    "review", __name__, url_prefix="/v1/review",
    description="Game review: each decision valued against the best the seat could see.",
)


class ReviewRequestSchema(RulesSchema):
    players = players_field()
    seed = ma.fields.Raw(
        required=True,
        metadata={"description": "The match's seed (a finished game's state shows it).",
                  "anyOf": [{"type": "integer"}, {"type": "string", "maxLength": 200}]},
    )
    dealer = ma.fields.Integer(
        allow_none=True, validate=between(0, 14),
        metadata={"description": "The first dealer's seat (as the game was created)."},
    )
    moves = ma.fields.List(
        ma.fields.Dict(), required=True, validate=length(maximum=MAX_MOVES),
        metadata={"description": "The moves played, in order, as they were sent (the "
                  "`next_round` moves included)."},
    )


class ReviewedDecisionSchema(Schema):
    number = ma.fields.Integer(required=True, metadata={"description": "Its index in `moves`."})
    seat = ma.fields.Integer(required=True)
    round = ma.fields.Integer(required=True)
    played = ma.fields.Dict(required=True)
    played_description = ma.fields.String(required=True, metadata={"description": "Localized."})
    best = ma.fields.Dict(required=True)
    best_description = ma.fields.String(required=True, metadata={"description": "Localized."})
    value = ma.fields.Float(required=True, metadata={"description": "The move played, in "
                                                     "`measure`."})
    best_value = ma.fields.Float(required=True)
    stderr = ma.fields.Float(required=True)
    exact = ma.fields.Boolean(required=True)
    loss = ma.fields.Float(required=True, metadata={"description": "What the move played "
                                                    "cost against the best."})


class ReviewedPlayerSchema(Schema):
    seat = ma.fields.Integer(required=True)
    decisions = ma.fields.Integer(required=True)
    accuracy = ma.fields.Float(required=True, metadata={
        "description": "The share of its decisions as good as the best, within the error."})
    lost = ma.fields.Float(required=True, metadata={"description": "What its moves cost in all."})


class MistakeSchema(Schema):
    number = ma.fields.Integer(required=True)
    seat = ma.fields.Integer(required=True)
    loss = ma.fields.Float(required=True)
    text = ma.fields.String(required=True, metadata={"description": "Localized."})


class ReviewSchema(Schema):
    measure = ma.fields.String(required=True)
    measure_description = ma.fields.String(required=True, metadata={"description": "Localized."})
    players = ma.fields.List(ma.fields.Nested(ReviewedPlayerSchema), required=True)
    mistakes = ma.fields.List(ma.fields.Nested(MistakeSchema), required=True, metadata={
        "description": "The three biggest mistakes, biggest first."})
    decisions = ma.fields.List(ma.fields.Nested(ReviewedDecisionSchema), required=True)


MAX_WORK = 600
"""The most moves times players one review may weigh (its CPU grows with both: a review of
295 moves at 15 seats took 37.5 s of the pool, one at this bound about 5 s)."""


def too_large(work: int) -> Problem:
    return Problem(
        422, "review_too_large",
        N_("This review would weigh {work} moves times players; the server reviews at most "
           "{limit}: send part of the match."),
        title=N_("Invalid request"), work=work, limit=MAX_WORK,
        errors=[{"field": "moves", "code": "review_too_large",
                 "detail": N_("Send fewer moves."), "params": {"limit": MAX_WORK}}])


@blp.route("")
class GameReview(MethodView):
    @blp.arguments(ReviewRequestSchema(), example={
        "variant": "race", "players": 2, "seed": 5, "dealer": 1,
        "moves": [{"type": "take", "value": 5}, {"type": "take", "value": 6}]})
    @blp.response(200, ReviewSchema)
    @blp.doc(operationId="reviewGame")
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Review a match: each decision, each player's accuracy, the biggest mistakes."""
        record = {key: body.get(key) for key in ("variant", "players", "seed", "dealer",
                                                 "options", "moves")}
        work = len(body["moves"]) * body["players"]
        if work > MAX_WORK:
            raise too_large(work)
        try:
            done = limits.budgeted("THIRTYONE_ADVICE_CPU", review, record)
        except ThirtyOneError as error:
            # The record is the request body itself.
            raise Problem.from_engine(error, fields={"record": None}) from None
        translations = catalog()
        return {
            "measure": done.measure,
            "measure_description": format_message(MEASURE_TEXTS[done.measure])
            if done.measure else "",
            "players": [player.to_dict() for player in done.players],
            "mistakes": [{"number": decision.number, "seat": decision.seat,
                          "loss": decision.loss,
                          "text": mistake_text(translations, decision, done.measure)}
                         for decision in done.mistakes],
            "decisions": [{**decision.to_dict(),
                           "played_description": describe_move(decision.played, decision.seen),
                           "best_description": describe_move(decision.best, decision.seen)}
                          for decision in done.decisions],
        }
