"""Perfect play in the race to 31."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask.views import MethodView

from thirtyone.cards import parse_card
from thirtyone.errors import CardError
from thirtyone.race import solve
from thirtyone.web.api import Blueprint
from thirtyone.web.i18n import card_name
from thirtyone.web.problems import Problem
from thirtyone.web.validation import Schema, length

blp = Blueprint(
    "race", __name__, url_prefix="/v1/race",
    description="The two-player race to 31, solved.",
)


class PositionSchema(Schema):
    taken = ma.fields.List(
        ma.fields.String(), required=True, validate=length(maximum=24),
        metadata={"description": "The cards taken so far from the 24 (ace to six), any order.",
                  "example": ["5H"], "maxItems": 24, "uniqueItems": True,
                  "items": {"$ref": "#/components/schemas/Card"}},
    )


class OutcomeSchema(Schema):
    value = ma.fields.Integer(required=True)
    wins = ma.fields.Boolean(required=True)


class SolutionSchema(Schema):
    total = ma.fields.Integer(required=True, metadata={"description": "The running total."})
    wins = ma.fields.Boolean(
        required=True, metadata={"description": "The player to move wins with perfect play."}
    )
    outcomes = ma.fields.List(
        ma.fields.Nested(OutcomeSchema), required=True,
        metadata={"description": "For each value that may be taken, whether taking it wins."},
    )
    winning_values = ma.fields.List(ma.fields.Integer(), required=True)
    winning_cards = ma.fields.List(ma.fields.String(), required=True)
    winning_card_names = ma.fields.List(
        ma.fields.String(), required=True, metadata={"description": "Localized."}
    )


def _card_at_fault(taken: list[str], error: CardError) -> int | None:
    """The index in ``taken`` of the card a solver's error is about (the engine names the
    position as a whole): the code that reads as no card, or the card out of the deck, or
    the second time a card is taken."""
    seen: set[str] = set()
    for index, code in enumerate(taken):
        try:
            card = parse_card(code).code
        except CardError:
            return index
        if card == error.params.get("card") and (error.code != "duplicate_card" or card in seen):
            return index
        seen.add(card)
    return None


@blp.route("/solve")
class Solve(MethodView):
    @blp.doc(operationId="solveRace")
    @blp.arguments(PositionSchema(), example={"taken": ["5H"]})
    @blp.response(200, SolutionSchema)
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Whether the player to move wins the race with perfect play, and with which cards."""
        try:
            solution = solve(body["taken"])
        except CardError as error:
            index = _card_at_fault(body["taken"], error)
            field = "taken" if index is None else f"taken[{index}]"
            raise Problem.from_engine(error, fields={"position": field}, field=field) from None
        return {
            **solution.to_dict(),
            "winning_card_names": [card_name(card) for card in solution.winning_cards],
        }
