"""Whole games, with no game kept on the server.

A game lives in a sealed ``token`` the client sends back with each request; a seat proves
itself with its ``seat_key``. In open mode a trusted client sends the plain ``state`` instead
and gets the next one back: the engine checks it, nothing is sealed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import marshmallow as ma
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import current_app
from flask.views import MethodView

from thirtyone.errors import N_, MoveError, ThirtyOneError
from thirtyone.game import GameState, apply_move, legal_moves, moves, new_game, validate_move, view
from thirtyone.game.checks import read_sealed_state
from thirtyone.game.operations import MOVE_TYPES
from thirtyone.web.api import Blueprint
from thirtyone.web.contract import COMPONENT
from thirtyone.web.i18n import catalog, describe_move, format_message
from thirtyone.web.problems import Problem, request_field
from thirtyone.web.sealing import Sealer
from thirtyone.web.validation import (
    CARD_DOC,
    Message,
    RulesSchema,
    Schema,
    between,
    length,
    one_of,
    players_field,
)
from thirtyone.words import event_message, pack_of_deck

blp = Blueprint(
    "games", __name__, url_prefix="/v1/games",
    description="Play a match: sealed tokens carry the game, seat keys prove the seat.",
)

_STATE_DOC = {
    COMPONENT: "State",
    "description": "The plain game state (open mode): send it back as it came; the engine "
    "checks it.",
}

_TO_MOVE_DOC = (
    "The seat to act, if any. Between rounds it is `null` and the only legal move is "
    "`{\"type\": \"next_round\"}`, which any seat may send (with its key, in a sealed game) "
    "to deal the next round; after the match it is `null` and nothing is legal."
)


# The examples of the contract, which Swagger UI's "Try it out" sends as they are: a token
# holds the server's secret, so the examples of the game endpoints play in open mode, on a
# state dealt here the same way every time (scat, three seats, seat 1 to move).
EXAMPLE_STATE = new_game("scat", 3, seed=42, dealer=0).to_dict()
EXAMPLE_MOVE = {"type": "draw", "source": "stock"}


class NewGameSchema(RulesSchema):
    players = players_field()
    seed = ma.fields.Raw(
        allow_none=True,
        metadata={"description": "A number or a text of up to 200 characters: the same seed, "
                  "options and moves give the same game. Drawn at random when absent.",
                  "anyOf": [{"type": "integer", "nullable": True},
                            {"type": "string", "maxLength": 200, "nullable": True}]},
    )
    dealer = ma.fields.Integer(
        allow_none=True, validate=between(0, 14),
        metadata={"description": "The first dealer's seat; drawn by the rules when absent."},
    )
    sealed = ma.fields.Boolean(
        metadata={"description": "`false` for open mode: the plain state instead of a token. "
                  "Sealed when absent."},
    )

    @ma.post_load
    def absent(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        # Filled here rather than by load_default, which the contract would show as a
        # `default` that generated clients then send or require.
        return {"seed": None, "dealer": None, "sealed": True} | data


class GameRequestSchema(Schema):
    """A game, as a sealed `token` or (open mode) a plain `state`: exactly one of the two."""

    token = ma.fields.String(
        metadata={"description": "The token of the game (sealed mode); send it or `state`."},
    )
    state = ma.fields.Dict(metadata=_STATE_DOC)
    seat = ma.fields.Integer(
        allow_none=True, validate=between(0, 14),
        metadata={"description": "The seat asking; absent or null for a spectator."},
    )
    seat_key = ma.fields.String(
        metadata={"description": "The seat's key (sealed mode)."},
    )

    @ma.validates_schema
    def one_game(self, data: dict[str, Any], **kwargs: Any) -> None:
        if ("token" in data) == ("state" in data):
            raise ma.ValidationError(
                Message(N_("Send the game either as a token or as a state."),
                        "token_or_state"),
                field_name="token",
            )

    @ma.post_load
    def absent(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        # Filled here rather than by load_default: see NewGameSchema.absent.
        return {"token": None, "state": None, "seat": None, "seat_key": None} | data


def _move_field(spec: moves.MoveField) -> ma.fields.Field[Any]:
    """The request schema's field for a move's field, as the engine declares it
    (:data:`thirtyone.game.moves.MOVE_FIELDS`)."""
    doc = {"description": spec.description} if spec.description else {}
    if spec.kind == "type":
        return ma.fields.String(required=True, validate=one_of(MOVE_TYPES), metadata=doc)
    if spec.kind == "seat":
        return ma.fields.Integer(allow_none=True, metadata=doc)
    if spec.kind == "choice":
        return ma.fields.String(validate=one_of(spec.choices), metadata=doc)
    if spec.kind == "card":
        return ma.fields.String(metadata=CARD_DOC | doc)
    if spec.kind == "cards":
        return ma.fields.List(ma.fields.String(metadata=CARD_DOC),
                              validate=length(maximum=spec.most), metadata=doc)
    if spec.kind == "int":
        return ma.fields.Integer(validate=between(spec.low, spec.high), metadata=doc)
    if spec.kind == "positions":
        return ma.fields.List(ma.fields.Integer(validate=between(spec.low, spec.high)),
                              validate=length(maximum=spec.most), metadata=doc)
    return ma.fields.Boolean(metadata=doc)  # bool, flag


class MoveSchema(Schema):
    """The shape of a move; whether it is legal now is the engine's to say."""

    class Meta(Schema.Meta):
        # Every field of every move, as the engine declares it.
        include = {name: _move_field(spec)  # noqa: RUF012 - marshmallow reads it so
                   for name, spec in moves.MOVE_FIELDS.items()}

    description = ma.fields.String(
        load_only=True,
        metadata={"description": "Ignored: the words `legal_moves` gives, so that a legal move "
                  "is sent back as it is."},
    )

    @ma.post_load
    def words_dropped(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        data.pop("description", None)
        return data


class MoveRequestSchema(GameRequestSchema):
    move = ma.fields.Nested(MoveSchema, required=True, metadata={COMPONENT: "Move"})


class GameSchema(Schema):
    token = ma.fields.String(metadata={"description": "The next token (sealed mode)."})
    state = ma.fields.Dict(metadata=_STATE_DOC)
    seat = ma.fields.Integer(required=True, allow_none=True)
    view = ma.fields.Dict(
        required=True,
        metadata={"description": "The game as the seat sees it; hidden cards are null.",
                  COMPONENT: "View"},
    )
    to_move = ma.fields.Integer(
        required=True, allow_none=True, metadata={"description": _TO_MOVE_DOC}
    )
    is_over = ma.fields.Boolean(required=True)
    legal_moves = ma.fields.List(
        ma.fields.Dict(metadata={COMPONENT: "Move"}), required=True,
        metadata={"description": "The moves this seat may make now (between rounds, "
                  "`next_round` for any seat)."},
    )


class NewGameResultSchema(GameSchema):
    seat_keys = ma.fields.List(
        ma.fields.String(),
        metadata={"description": "One secret key per seat, by seat (sealed mode): hand each "
                  "player their own."},
    )


class MoveResultSchema(GameSchema):
    events = ma.fields.List(
        ma.fields.Dict(metadata={COMPONENT: "Event"}), required=True,
        metadata={"description": "What happened, in order, each with a localized message."},
    )


class ValidationResultSchema(Schema):
    valid = ma.fields.Boolean(required=True)
    code = ma.fields.String(
        required=True, allow_none=True, metadata={"description": "The engine's refusal code."}
    )
    reason = ma.fields.String(
        required=True, allow_none=True, metadata={"description": "Localized reason."}
    )
    field = ma.fields.String(required=True, allow_none=True)


_BOUNDS = ("minimum", "maximum", "minItems", "maxItems")


def document(spec: APISpec, plugin: MarshmallowPlugin) -> None:
    """Document a move as the engine's typed ``Move`` (thirtyone.web.contract), not as the
    loose shape that MoveSchema checks before the engine does, with the bounds MoveSchema
    checks on each field (a take's ``value``, a Switch ``hand``...)."""
    fields = MoveSchema().fields
    converter = plugin.converter
    assert converter is not None, "the marshmallow plugin converts once the spec is made"
    schemas = spec.components.schemas
    for target in schemas["Move"]["discriminator"]["mapping"].values():
        properties = schemas[target.rsplit("/", 1)[1]]["properties"]
        for name, documented in properties.items():
            if name not in fields or name in ("type", "seat"):
                continue
            checked = converter.field2property(fields[name])
            documented.update({key: checked[key] for key in _BOUNDS if key in checked})
            inner = checked.get("items", {})
            if "type" in documented.get("items", {}):
                documented["items"].update(
                    {key: inner[key] for key in _BOUNDS if key in inner})


MOVE_FIELDS: dict[str, str | None] = {"seat": "seat"}
"""The engine's arguments of a move outside the request's ``move``: the seat asking."""


def _sealer() -> Sealer:
    sealer: Sealer = current_app.extensions["thirtyone.sealer"]
    return sealer


class Table:
    """The game a request is about, and the seat asking, checked."""

    def __init__(self, body: dict[str, Any], *, needs_seat: bool = False) -> None:
        self.seat: int | None = body["seat"]
        self.game_id: str | None = None
        if body["token"] is not None:
            # The token opened, so this server sealed the state in it, checked: it is trusted.
            self.game_id, data = _sealer().unseal(body["token"])
            self.state = read_sealed_state(data)
        else:
            try:
                self.state = GameState.from_dict(body["state"])
            except ThirtyOneError as error:
                raise Problem.from_engine(error, prefix="state.") from None
        if self.seat is not None and self.seat >= self.state.players:
            raise Problem(422, "bad_seat", N_("This game has no seat {seat}."), seat=self.seat,
                          errors=[{"field": "seat", "code": "bad_seat",
                                   "detail": N_("This game has no seat {seat}."),
                                   "params": {"seat": self.seat}}])
        if self.game_id is None:
            return
        if self.seat is None and not needs_seat:
            return
        if self.seat is None or body["seat_key"] is None:
            raise Problem(
                403, "seat_key_required",
                N_("A sealed game needs the seat and its key for this."),
                title=N_("Forbidden"),
                errors=[{"field": "seat_key", "code": "seat_key_required",
                         "detail": N_("Send the seat and the key the server gave for it."),
                         "params": {}}],
            )
        _sealer().check_seat_key(self.game_id, self.seat, body["seat_key"])

    def move(self, move: dict[str, Any]) -> dict[str, Any]:
        """The move as played by the seat asking (a move naming another seat is its own)."""
        return move if self.seat is None else {**move, "seat": self.seat}

    def seen(self, state: GameState) -> dict[str, Any]:
        """The game as the seat asking sees it, and the moves it may make."""
        to_move = state.to_move
        seen = view(state, self.seat)
        return {
            "seat": self.seat,
            "view": seen,
            "to_move": to_move,
            "is_over": state.is_over,
            "legal_moves": described_moves(state, seen)
            if to_move is None or (self.seat is not None and self.seat == to_move) else [],
        }

    def answer(self, state: GameState) -> dict[str, Any]:
        """The game after a move: the next token (or state) and what the seat asking sees."""
        if self.game_id is not None:
            carried: dict[str, Any] = {
                "token": _sealer().seal(self.game_id, state.to_dict(shared=True))
            }
        else:
            carried = {"state": state.to_dict()}
        return {**carried, **self.seen(state)}


def described_moves(state: GameState, seen: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The legal moves, each with its localized ``description`` in the words of ``seen``
    (the mover's view): what every answer listing ``legal_moves`` gives."""
    return [{**move, "description": describe_move(move, seen)} for move in legal_moves(state)]


def localize_events(events: Sequence[Mapping[str, Any]],
                    pack: str = "french") -> list[dict[str, Any]]:
    """``events`` with their ``message``, the cards named by ``pack`` (the Italian pack's
    regional names at an Il 31 table: words.pack_of_deck)."""
    translations = catalog()
    return [{**event, "message": event_message(translations, event, pack)} for event in events]


@blp.route("")
class Games(MethodView):
    @blp.doc(operationId="newGame")
    @blp.arguments(NewGameSchema(), example={"variant": "scat", "players": 3, "seed": 42})
    @blp.response(201, NewGameResultSchema)
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Deal a new match: its token, one key per seat, and what a spectator sees."""
        state = new_game(
            body["variant"], body["players"], seed=body["seed"],
            options=body["options"] or None, dealer=body["dealer"],
        )
        result: dict[str, Any]
        if body["sealed"]:
            sealer = _sealer()
            game_id = sealer.new_game_id()
            result = {
                "token": sealer.seal(game_id, state.to_dict()),
                "seat_keys": [sealer.seat_key(game_id, seat) for seat in range(state.players)],
            }
        else:
            result = {"state": state.to_dict()}
        return {
            **result,
            "seat": None,
            "view": view(state, None),
            "to_move": state.to_move,
            "is_over": state.is_over,
            "legal_moves": [],
        }


@blp.route("/view")
class GameView(MethodView):
    @blp.doc(operationId="viewGame")
    @blp.arguments(GameRequestSchema(), example={"state": EXAMPLE_STATE, "seat": 1})
    @blp.response(200, GameSchema)
    @blp.alt_response(403, response="FORBIDDEN", description="The seat key is wrong.")
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """The game as one seat (with its key) or a spectator sees it, and that seat's moves."""
        table = Table(body)
        return table.seen(table.state)


@blp.route("/validate")
class ValidateMove(MethodView):
    @blp.doc(operationId="validateMove")
    @blp.arguments(MoveRequestSchema(),
                   example={"state": EXAMPLE_STATE, "seat": 1, "move": EXAMPLE_MOVE})
    @blp.response(200, ValidationResultSchema)
    @blp.alt_response(403, response="FORBIDDEN", description="The seat key is wrong.")
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Whether a move is legal now, and if not, why; the game does not change."""
        table = Table(body, needs_seat=True)
        try:
            validate_move(table.state, table.move(body["move"]))
        except MoveError as error:
            return {
                "valid": False, "code": error.code,
                "reason": format_message(error.message, error.params),
                "field": request_field(error.field, MOVE_FIELDS, "move.") if error.field else None,
            }
        return {"valid": True, "code": None, "reason": None, "field": None}


@blp.route("/moves")
class Moves(MethodView):
    @blp.doc(operationId="playMove")
    @blp.arguments(MoveRequestSchema(),
                   example={"state": EXAMPLE_STATE, "seat": 1, "move": EXAMPLE_MOVE})
    @blp.response(200, MoveResultSchema)
    @blp.alt_response(403, response="FORBIDDEN", description="The seat key is wrong.")
    @blp.alt_response(409, response="CONFLICT", description="The move is not legal now.")
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Play a move for a seat: the next token, the seat's view and what happened."""
        table = Table(body, needs_seat=True)
        try:
            state, events = apply_move(table.state, table.move(body["move"]))
        except MoveError as error:
            # A well-formed move that the game's state does not allow now: a conflict.
            raise Problem.from_engine(
                error, status=409, fields=MOVE_FIELDS, prefix="move."
            ) from None
        return {**table.answer(state),
                "events": localize_events(events, pack_of_deck(state.rules.deck))}

