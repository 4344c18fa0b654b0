"""The base of the API's marshmallow schemas: strict, and with messages in every language.

Marshmallow formats its English messages when it raises, too early for a catalog lookup. Each
message is therefore wrapped in :class:`Message`, a ``str`` whose ``format`` translates first;
the messages marshmallow stores unformatted are translated when the problem is built.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma

from thirtyone.errors import N_
from thirtyone.rules import PRESETS
from thirtyone.web.contract import COMPONENT
from thirtyone.web.i18n import gettext


class Message(str):
    """An English message that translates itself when formatted, with a stable ``code``."""

    code: str

    def __new__(cls, text: str, code: str = "invalid_field") -> Message:
        message = super().__new__(cls, text)
        message.code = code
        return message

    def format(self, *args: Any, **kwargs: Any) -> Message:
        return Message(gettext(str(self)).format(*args, **kwargs), self.code)


# Every message the fields and schemas of this API can raise, by marshmallow's key.
FIELD_MESSAGES: dict[str, tuple[str, ...]] = {
    "required": (N_("Missing data for required field."),),
    "null": (N_("Field may not be null."),),
    "validator_failed": (N_("Invalid value."),),
    "invalid": (
        N_("Not a valid string."),
        N_("Not a valid integer."),
        N_("Not a valid number."),
        N_("Not a valid boolean."),
        N_("Not a valid list."),
        N_("Not a valid mapping type."),
    ),
    "invalid_utf8": (N_("Not a valid utf-8 string."),),
    "too_large": (N_("Number too large."),),
    "special": (N_("Special numeric values (nan or infinity) are not permitted."),),
    "type": (N_("Invalid type."),),
}

MESSAGE_CODES: dict[str, str] = {
    # Also the code of a message that names none (Message's default, a validator's plain text).
    "validator_failed": "invalid_field",
    "required": "missing_field",
    "null": "null_field",
    "invalid": "wrong_type",
    "invalid_utf8": "wrong_type",
    "type": "wrong_type",
    "too_large": "out_of_range",
    "special": "out_of_range",
}

_KNOWN = {text for texts in FIELD_MESSAGES.values() for text in texts}


def localize_field(field: ma.fields.Field[Any]) -> None:
    """Wrap a field's messages (and those of the fields inside it) in :class:`Message`."""
    field.error_messages = {
        key: Message(text, MESSAGE_CODES.get(key, "invalid_field"))
        if isinstance(text, str) and text in _KNOWN else text
        for key, text in field.error_messages.items()
    }
    for inner in (
        getattr(field, "inner", None),
        getattr(field, "key_field", None),
        getattr(field, "value_field", None),
    ):
        if isinstance(inner, ma.fields.Field):
            localize_field(inner)


class Schema(ma.Schema):
    """Refuses unknown fields; every message it raises is translated."""

    error_messages = {  # noqa: RUF012 - marshmallow reads it as a class attribute
        "unknown": Message(N_("Unknown field."), "unknown_field"),
        "type": Message(N_("Invalid input type."), "wrong_type"),
    }

    class Meta:
        unknown = ma.RAISE

    def on_bind_field(self, field_name: str, field_obj: ma.fields.Field[Any]) -> None:
        localize_field(field_obj)


class PageSchema(ma.Schema):
    """One page of a list (its items in the subclass's field): how many there are in all,
    and the ``offset`` and ``limit`` the page was asked with."""

    total = ma.fields.Integer(required=True,
                              metadata={"description": "How many are listed in all."})
    offset = ma.fields.Integer(required=True)
    limit = ma.fields.Integer(required=True)


def between(minimum: int, maximum: int) -> ma.validate.Range:
    return ma.validate.Range(
        minimum, maximum,
        error=Message(N_("Must be between {min} and {max}."), "out_of_range"),
    )


def players_field() -> ma.fields.Integer:
    """The seats of a new game or table: the schema's bounds are the widest any variant allows,
    its description gives each variant's own range, which the engine checks (``bad_players``)."""
    ranges = ", ".join(f"`{preset.id}` {low}-{high}" if low != high else f"`{preset.id}` {low}"
                       for preset in PRESETS.values() for low, high in [preset.players])
    return ma.fields.Integer(
        required=True, strict=True,
        validate=between(min(preset.players[0] for preset in PRESETS.values()),
                         max(preset.players[1] for preset in PRESETS.values())),
        metadata={"description": f"Seats at the table; each variant has its own range: {ranges}."},
    )


def length(minimum: int | None = None, maximum: int | None = None) -> ma.validate.Length:
    # "Number of items: ..." keeps the count out of the grammar of the sentence.
    # Each Message written out, so that thirtyone.web.codes finds the code.
    if minimum is None:
        error = Message(N_("Number of items: at most {max}."), "wrong_length")
    elif maximum is None:
        error = Message(N_("Number of items: at least {min}."), "wrong_length")
    else:
        error = Message(N_("Number of items: from {min} to {max}."), "wrong_length")
    return ma.validate.Length(minimum, maximum, error=error)


def one_of(choices: tuple[str, ...]) -> ma.validate.OneOf:
    return ma.validate.OneOf(
        choices, error=Message(N_("Must be one of: {choices}."), "not_a_choice")
    )


CARD_DOC: dict[str, Any] = {COMPONENT: "Card"}

HAND_DOC: dict[str, Any] = {
    "type": "array",
    "items": {"$ref": "#/components/schemas/Card"},
    "minItems": 3,
    "maxItems": 3,
    "uniqueItems": True,
    "description": "Three card codes.",
    "example": ["AS", "KS", "10S"],
}


class RulesSchema(Schema):
    """The rules a request plays by: a variant and the options that override its defaults."""

    variant = ma.fields.String(load_default="scat", metadata={COMPONENT: "VariantId"})
    # JSON object keys are strings already; the engine checks each name.
    options = ma.fields.Dict(load_default=dict, metadata={COMPONENT: "Options"})


class Points(ma.fields.Field[float]):
    """A hand's points: a whole number, or 30.5 where three of a kind is worth 30½."""
