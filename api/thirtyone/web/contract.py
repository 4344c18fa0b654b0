"""The contract's schemas of moves, events and views, read from the engine's own types.

The engine types each move, event and view as a :class:`~typing.TypedDict`
(:mod:`thirtyone.game.moves`, :mod:`thirtyone.events`, :mod:`thirtyone.game.views`); this
module turns them into OpenAPI 3.0 components, so the contract cannot drift from the engine:
a move or event type added there is one more member of the ``oneOf`` here. The marshmallow
schemas of the endpoints point at them with ``metadata={"component": NAME}``.
"""

from __future__ import annotations

import re
import types
from collections.abc import Callable
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    Protocol,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    runtime_checkable,
)

import marshmallow as ma
from apispec import APISpec, BasePlugin

from thirtyone.bots import BOTS
from thirtyone.cards import ALL_CARDS, CARD
from thirtyone.events import EVENTS, Event
from thirtyone.game.moves import Move, PlayedMove
from thirtyone.game.operations import MOVES
from thirtyone.game.state import StateData
from thirtyone.game.views import View
from thirtyone.rules import OPTION_VALUES, OPTIONS, PRESETS, OptionSpec

COMPONENT = "component"
"""The metadata key naming the component a marshmallow field is documented as."""

CARD_SCHEMA: dict[str, Any] = {
    "type": "string",
    "minLength": 2,
    "maxLength": 12,
    "description": "A card code: rank then suit, `AS`, `10H`, `QC`; jokers `X1`, `X2`. The "
    "server answers with these; it also reads `T` for ten, lower case and suit symbols (`as`, "
    "`A♠`), and Russian and Italian rank letters.",
    "example": "AS",
}

VARIANT_SCHEMA: dict[str, Any] = {
    "type": "string",
    "description": "A variant id (`GET /v1/variants`); its other names are read too.",
    "example": "scat",
}

EVENT_MESSAGE = {"type": "string", "description": "What happened, in the request's language."}

MOVE_DESCRIPTION = {
    "type": "string",
    "description": "In `legal_moves`: the move in words of the request's language (table hands "
    "and places counted from 1). Ignored in a move sent.",
}


def _option_doc(spec: OptionSpec) -> dict[str, Any]:
    doc: dict[str, Any] = {"description": spec.description}
    if spec.kind == "choice":
        doc |= {"type": "string", "enum": [str(choice) for choice in spec.choices]}
    elif spec.kind == "bool":
        doc["type"] = "boolean"
    elif spec.kind in ("int", "int-or-none"):
        doc |= {"type": "integer", "minimum": spec.minimum, "maximum": spec.maximum}
        if spec.kind == "int-or-none":
            doc["nullable"] = True
    elif spec.kind == "suits":
        doc |= {"type": "string", "pattern": "^(?!.*(.).*\\1)[CDHS]{4}$"}
    else:
        doc |= {"type": "string", "enum": [card.code for card in ALL_CARDS[:52]]}
    return doc


OPTIONS_DOC: dict[str, Any] = {
    "type": "object",
    "properties": {name: _option_doc(spec) for name, spec in OPTIONS.items()},
    "additionalProperties": False,
    "description": "Options overriding the variant's defaults, by name; each variant lets a "
    "table set some of them (`GET /v1/variants/{id}`), and some values exclude others.",
    "example": {},
}


def _markdown(docstring: str) -> str:
    """A docstring as the contract's Markdown: Sphinx roles and literals become code."""
    text = re.sub(r":\w+:`~?([\w.]+)`", r"`\1`", " ".join(docstring.split()))
    return text.replace("``", "`")


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _nullable(schema: dict[str, Any], kind: str = "object") -> dict[str, Any]:
    """``schema`` or null, each `nullable` beside a `type` (OpenAPI 3.0 ignores it alone);
    ``kind`` is the JSON type of the component a reference points at."""
    if schema == _ref("Card"):
        return _ref("CardOrHidden")
    if "$ref" in schema:
        # The reference or null. OpenAPI 3.0 has no null type: the second member is null
        # alone (`nullable` beside a `type`, its enum only null), not an empty object that
        # generated clients read as a model of its own; they read `X | None`.
        return {"oneOf": [schema, {"type": kind, "nullable": True, "enum": [None]}]}
    if "oneOf" in schema:
        return {"anyOf": [_nullable(member) for member in schema["oneOf"]]}
    return {**schema, "nullable": True}


@runtime_checkable
class TypedDictClass(Protocol):
    """A TypedDict's class, by what the contract reads of it that a plain ``type`` lacks."""

    __required_keys__: frozenset[str]


class Components:
    """The components read from the engine's types, registered in ``spec`` as they are met.

    ``names`` renames a TypedDict's component (events get an ``Event`` suffix); ``extra``
    adds required properties to some (the localized ``message`` of an API event),
    ``optional`` properties that may be absent (the ``description`` of a legal move).
    """

    def __init__(self, spec: APISpec) -> None:
        self.spec = spec
        self.names: dict[type, str] = {}
        self.extra: dict[type, dict[str, dict[str, Any]]] = {}
        self.optional: dict[type, dict[str, dict[str, Any]]] = {}
        self.done: set[str] = set()
        self.unions: dict[Any, str] = {}

    def name(self, kind: type) -> str:
        return self.names.get(kind, kind.__name__)

    def schema(self, hint: Any) -> dict[str, Any]:
        """The OpenAPI schema of a type hint."""
        if hint in self.unions:
            return _ref(self.unions[hint])
        origin = get_origin(hint)
        if origin is Annotated:
            inner, *marks = get_args(hint)
            if CARD in marks:
                return _ref("Card")
            if OPTION_VALUES in marks:
                return _ref("Options")
            return self.schema(inner)
        if origin is NotRequired:
            return self.schema(get_args(hint)[0])
        if origin in (Union, types.UnionType):
            members = [member for member in get_args(hint) if member is not type(None)]
            nullable = len(members) < len(get_args(hint))
            if set(members) == {int, float}:
                schema: dict[str, Any] = {"type": "number"}
            elif len(members) == 1:
                schema = self.schema(members[0])
            else:
                schema = {"oneOf": [self.schema(member) for member in members]}
            return _nullable(schema) if nullable else schema
        if origin is Literal:
            return {"type": "string", "enum": list(get_args(hint))}
        if origin is list:
            return {"type": "array", "items": self.schema(get_args(hint)[0])}
        if origin is dict:
            return {"type": "object", "additionalProperties": self.schema(get_args(hint)[1])}
        if isinstance(hint, type) and isinstance(hint, TypedDictClass):
            return _ref(self.typed_dict(hint))
        simple = {bool: "boolean", int: "integer", float: "number", str: "string"}
        return {"type": simple[hint]}

    def typed_dict(self, kind: type) -> str:
        """Register a TypedDict as a component (once); its name."""
        if not isinstance(kind, TypedDictClass):
            raise TypeError(f"{kind.__name__} is not a TypedDict")
        name = self.name(kind)
        if name in self.done:
            return name
        self.done.add(name)
        hints = get_type_hints(kind, include_extras=True)
        properties = {key: self.schema(hint) for key, hint in hints.items()}
        properties |= self.extra.get(kind, {}) | self.optional.get(kind, {})
        required = [key for key in hints if key in kind.__required_keys__]
        required += list(self.extra.get(kind, {}))
        # Exactly these keys: the engine sends no other, and the API refuses any other.
        schema: dict[str, Any] = {"type": "object", "properties": properties,
                                  "required": required, "additionalProperties": False}
        if kind.__doc__ and not kind.__doc__.startswith(kind.__name__ + "("):
            schema["description"] = _markdown(kind.__doc__)
        self.spec.components.schema(name, schema)
        return name

    def tagged_union(self, name: str, union: Any, description: str) -> None:
        """A ``oneOf`` of the union's TypedDicts with a discriminator on ``type``."""
        mapping = {}
        for kind in get_args(union):
            tag = get_args(get_type_hints(kind)["type"])[0]
            mapping[tag] = f"#/components/schemas/{self.typed_dict(kind)}"
        self.unions[union] = name
        self.spec.components.schema(name, {
            "description": description,
            "oneOf": [{"$ref": target} for target in mapping.values()],
            "discriminator": {"propertyName": "type", "mapping": mapping},
        })


def document(spec: APISpec, add_attribute_function: Callable[..., Any]) -> None:
    """Register the typed components and let marshmallow fields point at them."""
    components = Components(spec)
    spec.components.schema("Card", CARD_SCHEMA)
    spec.components.schema("CardOrHidden", {
        "type": "string", "nullable": True, "example": "AS",
        "description": "A card code (see `Card`), or `null` for a card this seat may not see.",
    })
    spec.components.schema("VariantId", {**VARIANT_SCHEMA, "enum": list(PRESETS)})
    spec.components.schema("BotLevel", {
        "type": "string", "enum": list(BOTS),
        "description": "A bot's level: `random` plays any legal move, `greedy` the best for "
        "now, `strong` looks ahead.",
    })
    spec.components.schema("Options", OPTIONS_DOC)
    for kind in MOVES.values():
        components.optional[kind] = {"description": MOVE_DESCRIPTION}
    components.tagged_union(
        "Move", Move, "A move: its `type` says which, and which fields it has. The legal ones "
        "are listed in `legal_moves`; send one back as it is.",
    )
    # Imported here: the tables package (whose __init__ imports its blueprint's modules)
    # imports this module; the events module itself imports nothing of the web layer.
    from thirtyone.web.tables.events import TABLE_EVENTS, TableEvent

    components.tagged_union(
        "PlayedMove", PlayedMove, "A move of the history, with the seat that made it (`null` "
        "for `next_round`); cards given face down are `null`.",
    )
    for kind in [*EVENTS.values(), *TABLE_EVENTS.values()]:
        components.names[kind] = kind.__name__ + "Event"
        components.extra[kind] = {"message": EVENT_MESSAGE}
    # The engine's events and a hosted table's own (seats claimed, left, handed to a bot, the
    # autopilot, the deal of a waiting table, a rematch): one union, as a table sends both.
    components.tagged_union(
        "Event", Event | TableEvent, "Something that happened: its `type`, its parameters and "
        "a localized `message`. Hidden cards are never named.",
    )
    components.unions[Event] = "Event"
    components.typed_dict(View)
    components.names[StateData] = "State"
    components.typed_dict(StateData)

    def component_ref(converter: Any, field: ma.fields.Field[Any], ret: dict[str, Any],
                      **kwargs: Any) -> dict[str, Any]:
        name = field.metadata.get(COMPONENT)
        if name is None:
            if "anyOf" in ret and "type" not in ret:
                # The members say whether null is allowed: `nullable` needs a `type` beside it.
                ret.pop("nullable", None)
            return {}
        nullable = ret.get("nullable", False)
        description = ret.get("description")
        ret.clear()
        if nullable:
            ret.update(_nullable(_ref(name), spec.components.schemas[name].get("type", "object")))
        elif description:
            # OpenAPI 3.0 ignores the siblings of a $ref: wrap it to keep them.
            ret["allOf"] = [_ref(name)]
        else:
            ret.update(_ref(name))
        if description:
            ret["description"] = description
        return {}

    add_attribute_function(component_ref)


OPEN_NOTE = ("Open: values not listed here may come within `/v1` (CHANGELOG.md, Versioning); "
             "treat an unknown one by its generic meaning.")


def evolvable(spec: APISpec) -> None:
    """Make the contract say what the CHANGELOG's versioning policy says: within `/v1` answers
    may gain fields, problem codes, enum values and event types.

    Run once every operation is registered. A schema no request can hold (found from the
    request bodies and parameters) allows additional properties, and each enum in it but the
    tag of a union member is open: ``anyOf`` the known values and any string, so a generated
    client keeps a value it does not know (openapi-python-client tries the enum, then the
    string; openapi-typescript types it ``string``). ``ProblemCode`` is open the same way (its
    known values in ``KnownProblemCode``), and ``Event`` has a last member, ``OtherEvent``,
    for an event type this version does not name. Schemas a request holds stay closed: the
    API refuses unknown fields and values there.
    """
    schemas = spec.components.schemas
    known = schemas["ProblemCode"]
    schemas["KnownProblemCode"] = {"type": "string", "enum": known["enum"]}
    schemas["ProblemCode"] = {"description": known["description"] + " " + OPEN_NOTE, "anyOf": [
        _ref("KnownProblemCode"), {"type": "string"}]}
    schemas["OtherEvent"] = {
        "type": "object", "required": ["type", "message"],
        "properties": {"type": {"type": "string", "description": "A type this version of the "
                                "contract does not name."}, "message": EVENT_MESSAGE},
        "additionalProperties": True,
        "description": "An event of a type added after this contract: show its `message`."}
    # anyOf: an event of a named type matches OtherEvent too, and oneOf would refuse it.
    event = schemas["Event"]
    event["anyOf"] = [*event.pop("oneOf"), _ref("OtherEvent")]
    schemas["Event"]["description"] += " " + OPEN_NOTE
    requested = _requested(spec.to_dict())
    for name, schema in schemas.items():
        if name not in requested:
            _open(schema)


def _requested(document: dict[str, Any]) -> set[str]:
    """The names of the components a request body or parameter may hold, however deep."""
    components = document["components"]["schemas"]
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            target = node.get("$ref", "")
            if isinstance(target, str) and target.startswith("#/components/schemas/"):
                name = target.rsplit("/", 1)[1]
                if name not in found:
                    found.add(name)
                    walk(components.get(name))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in document["paths"].values():
        for operation in path.values():
            if isinstance(operation, dict):
                walk(operation.get("requestBody"))
                walk(operation.get("parameters"))
            elif isinstance(operation, list):
                walk(operation)
    return found


def _open(schema: Any) -> None:
    """Allow additional properties and open the enums of ``schema`` and its inline schemas."""
    if isinstance(schema, list):
        for item in schema:
            _open(item)
        return
    if not isinstance(schema, dict):
        return
    if schema.get("additionalProperties") is False:
        del schema["additionalProperties"]
    for key, value in list(schema.items()):
        if key == "properties" and isinstance(value, dict):
            for name, member in value.items():
                tag = name == "type" and len(member.get("enum", ())) == 1
                if isinstance(member.get("enum"), list) and not tag and None not in member["enum"]:
                    value[name] = _open_enum(member)
                _open(value[name])
        elif key in ("items", "additionalProperties", "allOf", "anyOf", "oneOf"):
            _open(value)


def _open_enum(member: dict[str, Any]) -> dict[str, Any]:
    described: dict[str, Any] = {
        key: member[key] for key in ("description", "example") if key in member}
    closed = {key: value for key, value in member.items() if key not in described}
    note = (described.get("description", "") + " " + OPEN_NOTE).strip()
    return {**described, "description": note, "anyOf": [closed, {"type": "string"}]}


_PROBLEM_CONTENT = {"application/problem+json": {"schema": _ref("Problem")}}


class DeclaredStatuses(BasePlugin):
    """An apispec plugin, after the others: every operation declares each status it can
    answer. An operation a seat's key opens (``security``) answers 401 to an Authorization
    header that is not a bearer key; one with a rate limit answers 503 when the limits' store
    is down, as it answers 429 when the limit is reached."""

    def operation_helper(self, path: str | None = None,
                         operations: dict[str, Any] | None = None, **kwargs: Any) -> None:
        for operation in (operations or {}).values():
            if not isinstance(operation, dict):
                continue
            responses = operation.setdefault("responses", {})
            if operation.get("security") and "401" not in responses:
                responses["401"] = {
                    "description": "An Authorization header that is not a bearer key.",
                    "content": _PROBLEM_CONTENT}
            if "429" in responses and "503" not in responses:
                responses["503"] = {
                    "description": "The limits' store (or the server's work queue) is not "
                    "answering; try again after `Retry-After` seconds.",
                    "headers": {"Retry-After": {"schema": {"type": "integer"}}},
                    "content": _PROBLEM_CONTENT}
