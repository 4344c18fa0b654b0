"""Perfect play in the race to 31."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask.views import MethodView

from thirtyone.race import solve
from thirtyone.web.api import Blueprint
from thirtyone.web.i18n import card_name
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


@blp.route("/solve")
class Solve(MethodView):
    @blp.doc(operationId="solveRace")
    @blp.arguments(PositionSchema(), example={"taken": ["5H"]})
    @blp.response(200, SolutionSchema)
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Whether the player to move wins the race with perfect play, and with which cards."""
        solution = solve(body["taken"])
        return {
            **solution.to_dict(),
            "winning_card_names": [card_name(card) for card in solution.winning_cards],
        }
