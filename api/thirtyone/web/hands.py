"""Scoring and comparing hands."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask import current_app, jsonify
from flask.views import MethodView
from werkzeug import Response

from thirtyone import words
from thirtyone.cards import parse_card
from thirtyone.errors import N_, ThirtyOneError
from thirtyone.hands import CATEGORY_NAMES, HandScore, compare_hands, evaluator, score_hand
from thirtyone.rules import make_rules
from thirtyone.web.api import Blueprint
from thirtyone.web.contract import COMPONENT
from thirtyone.web.i18n import card_name, catalog, suit_name
from thirtyone.web.problems import Problem
from thirtyone.web.validation import Message, Points, RulesSchema, Schema, length

blp = Blueprint(
    "hands", __name__, url_prefix="/v1/hands",
    description="What a hand of three cards is worth under a variant's rules, and which wins.",
)

_NOT_A_LIST = Message(N_("Not a valid list."), "wrong_type")


def hand_field(**kwargs: Any) -> ma.fields.List[Any]:
    return ma.fields.List(ma.fields.String(), metadata={COMPONENT: "Hand"}, **kwargs)


class ScoreRequestSchema(RulesSchema):
    hand = hand_field(required=True, validate=length(maximum=54))


class CompareRequestSchema(RulesSchema):
    hands = ma.fields.List(
        hand_field(), required=True, validate=length(1, 1000),
        metadata={"description": "The hands to rank; they may share cards.", "minItems": 1,
                  "maxItems": 1000},
    )


class BatchRequestSchema(RulesSchema):
    hands = ma.fields.Raw(
        required=True,
        metadata={
            "description": "Up to 10,000 hands of three card codes.",
            "type": "array",
            "items": {"$ref": "#/components/schemas/Hand"},
            "maxItems": 10_000,
        },
    )


class ScoreSchema(Schema):
    points = Points(required=True, metadata={"description": "33 at most (three aces); 30.5 is "
                                                        "30½."})
    category = ma.fields.String(
        required=True,
        metadata={"description": "`blitz`, `three-aces`, `three-of-a-kind`, `suit`, "
                  "`same-rank` (with `count_same_rank`), `high-card`; with the brag "
                  "ranking `running-flush`, `run`, `flush`, `pair`."},
    )
    category_name = ma.fields.String(required=True, metadata={"description": "Localized."})
    suit = ma.fields.String(
        required=True, allow_none=True, metadata={"description": "The counted suit's letter."}
    )
    suit_name = ma.fields.String(required=True, allow_none=True)
    counted = ma.fields.List(
        ma.fields.String(), required=True, metadata={"description": "The cards that count."}
    )
    cards = ma.fields.List(ma.fields.String(), required=True)
    card_names = ma.fields.List(
        ma.fields.String(), required=True, metadata={"description": "Localized, as `cards`."}
    )
    wild = ma.fields.Dict(
        keys=ma.fields.String(), values=ma.fields.String(), required=True,
        metadata={"description": "Each wild card and the card it stands for."},
    )
    is_blitz = ma.fields.Boolean(required=True)
    description = ma.fields.String(required=True, metadata={"description": "Localized."})


class RankingSchema(Schema):
    order = ma.fields.List(
        ma.fields.List(ma.fields.Integer()), required=True,
        metadata={"description": "Hand indices, best first; tied hands share a group."},
    )
    winners = ma.fields.List(ma.fields.Integer(), required=True)
    losers = ma.fields.List(ma.fields.Integer(), required=True)
    scores = ma.fields.List(ma.fields.Nested(ScoreSchema), required=True)


class BriefScoreSchema(Schema):
    points = Points(required=True)
    category = ma.fields.String(required=True)
    suit = ma.fields.String(required=True, allow_none=True)


class BatchSchema(Schema):
    scores = ma.fields.List(
        ma.fields.Nested(BriefScoreSchema), required=True,
        metadata={"description": "One score per hand, in the order sent."},
    )


_BRIEF_SCHEMA = BriefScoreSchema()
"""The items of :class:`BatchSchema`."""


def describe_score(score: HandScore, pack: str = "french") -> dict[str, Any]:
    """A score with its localized names and a sentence describing it; the cards of the Italian
    pack (``pack``: words.pack_of_deck) by their regional names."""
    translations = catalog()
    names = ([words.italian_card_name(translations, card) for card in score.cards]
             if pack == "italian" else [card_name(card) for card in score.cards])
    return {
        **score.to_dict(),
        "category_name": translations.gettext(CATEGORY_NAMES[score.category]),
        "suit_name": suit_name(score.suit) if score.suit else None,
        "card_names": names,
        "is_blitz": score.is_blitz,
        "description": words.describe_score(translations, score, pack),
    }


@blp.route("/score")
class Score(MethodView):
    @blp.doc(operationId="scoreHand")
    @blp.arguments(ScoreRequestSchema(), example={"variant": "scat", "hand": ["AS", "KS", "10S"]})
    @blp.response(200, ScoreSchema)
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Score one hand."""
        rules = make_rules(body["variant"], body["options"] or None)
        return describe_score(score_hand(body["hand"], rules), words.pack_of_deck(rules.deck))


@blp.route("/compare")
class Compare(MethodView):
    @blp.doc(operationId="compareHands")
    @blp.arguments(CompareRequestSchema(), example={
        "variant": "schnautz", "hands": [["7H", "7D", "7C"], ["AS", "KS", "QS"]]})
    @blp.response(200, RankingSchema)
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Rank hands best first: the winners, the losers, and every hand's score."""
        ranking = compare_hands(body["hands"], body["variant"], body["options"] or None)
        return {
            "order": ranking.order,
            "winners": ranking.winners,
            "losers": ranking.losers,
            "scores": [describe_score(score) for score in ranking.scores],
        }


@blp.route("/score-batch")
class ScoreBatch(MethodView):
    @blp.doc(operationId="scoreHands")
    @blp.arguments(BatchRequestSchema(), example={
        "variant": "scat", "hands": [["AS", "KS", "10S"], ["7H", "8D", "9C"]]})
    @blp.response(200, BatchSchema)
    def post(self, body: dict[str, Any]) -> Response:
        """Score up to 10,000 hands in one call (points, category and suit of each)."""
        hands = body["hands"]
        limit = current_app.config["BATCH_LIMIT"]
        if type(hands) is not list:
            raise Problem.from_validation({"hands": [_NOT_A_LIST]})
        if len(hands) > limit:
            raise Problem(
                422, "batch_too_large", N_("A batch holds at most {limit} hands, not {count}."),
                limit=limit, count=len(hands),
                errors=[{"field": "hands", "code": "batch_too_large",
                         "detail": N_("Send at most {limit} hands per call."),
                         "params": {"limit": limit}}],
            )
        judge = evaluator(make_rules(body["variant"], body["options"] or None))
        score, parse = judge.score, parse_card
        # Each distinct brief (points, category, suit) goes through the declared item schema
        # once: a variant has a few hundred at most, where dumping every hand's would take
        # some 40 ms of a 10,000-hand batch. Each hand's score is the table's own object.
        dump = _BRIEF_SCHEMA.dump
        dumped: dict[tuple[float, str, str | None], dict[str, Any]] = {}
        briefs: dict[int, dict[str, Any]] = {}
        results = []
        for index, hand in enumerate(hands):
            if type(hand) is not list:
                raise Problem.from_validation({"hands": {index: [_NOT_A_LIST]}})
            try:
                result = score([parse(code) for code in hand])
            except (ThirtyOneError, TypeError):
                # The slow path raises the engine's error, naming the hand at fault.
                result = judge.read(hand, field=f"hands[{index}]")
            brief = briefs.get(id(result))
            if brief is None:
                kind = (result.points, result.category, result.suit)
                brief = dumped.get(kind)
                if brief is None:
                    brief = dumped[kind] = dump(result)
                briefs[id(result)] = brief
            results.append(brief)
        return jsonify({"scores": results})
