"""Portable hand tables (:mod:`thirtyone.hands.portable`): every three-card hand's value and
rank under a variant and options, for clients that score hands themselves, offline."""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Any

import marshmallow as ma
from apispec import APISpec
from flask import Flask, current_app, request
from flask.views import MethodView
from werkzeug import Response

from thirtyone.errors import N_, OptionError
from thirtyone.hands.portable import export, option_from_text
from thirtyone.rules import OPTIONS, find_preset
from thirtyone.web import compute
from thirtyone.web.api import Blueprint
from thirtyone.web.problems import STATUS_TITLES, Problem

CACHE_SECONDS = 7 * 24 * 3600
"""A table changes only with a release (the conformance vectors' version says so): caches keep
it a week, then revalidate it by its ETag."""
BINARY = "application/vnd.thirtyone.hand-table"
FORMATS = {"binary": BINARY, "json": "application/json"}
_NOT_OPTIONS = {"format", "lang"}

blp = Blueprint(
    "hand_tables", __name__, url_prefix="/v1/hand-tables",
    description="Every hand's value and rank under a variant, to score hands without a request.",
)

_TABLE_DOC = {
    "operationId": "getHandTable",
    "parameters": [
        {"in": "path", "name": "variant", "required": True, "schema": {"type": "string"},
         "example": "schnautz", "description": "A variant id or any of its names."},
        {"in": "query", "name": "format", "required": False,
         "schema": {"type": "string", "enum": list(FORMATS), "default": "binary"},
         "description": "`binary` (the compact format) or `json` (the same data)."},
        {"in": "query", "name": "options", "required": False, "style": "form",
         "explode": True, "example": {},
         "schema": {"type": "object", "additionalProperties": False,
                    "properties": {name: {"type": "string"} for name in OPTIONS}},
         "description": "Options overriding the variant's, one query parameter each, as "
                        "`GET /v1/variants/{variant}` lists them: `?tie_break=ranks`; "
                        "`true`/`false`, numbers, `none` for an empty number."},
    ],
    "responses": {"200": {
        "description": "The table. The binary format (magic `T31H`, format 1): a JSON "
                       "header with the deck, the hand rules and the classes `[points, "
                       "category, rank]`, each hand's class id in colex order of its cards' "
                       "deck indices, and a CRC-32; see the docs' readers.",
        "headers": {"ETag": {"schema": {"type": "string"}},
                    "Cache-Control": {"schema": {"type": "string"}}},
        "content": {
            BINARY: {"schema": {"type": "string", "format": "binary"}},
            "application/json": {"schema": {"$ref": "#/components/schemas/HandTable"}},
        },
    }},
}


class HandTableSchema(ma.Schema):
    """The JSON form of a table (:func:`thirtyone.hands.portable.to_json`)."""

    format = ma.fields.Integer(required=True, metadata={"description": "The format's version: 1."})
    variant = ma.fields.String(required=True)
    # Objects of options by name (Raw: a Dict field would document any property as allowed).
    options = ma.fields.Raw(
        required=True, metadata={"type": "object", "description": "The options asked for."})
    hand_rules = ma.fields.Raw(
        required=True,
        metadata={"type": "object", "description": "Every option that decides a hand's worth."})
    deck = ma.fields.List(
        ma.fields.String(), required=True,
        metadata={"description": "The deck's card codes; a card's index is its position."})
    hands = ma.fields.Integer(required=True, metadata={"description": "C(deck size, 3)."})
    classes = ma.fields.List(
        ma.fields.List(
            ma.fields.Raw(metadata={"oneOf": [{"type": "number"}, {"type": "string"}]}),
            metadata={"minItems": 3, "maxItems": 3}),
        required=True,
        metadata={"description": "`[points, category, rank]` by class id; rank 0 is the "
                  "lowest hand, equal ranks tie."})
    hand_classes = ma.fields.List(
        ma.fields.Integer(), required=True,
        metadata={"description": "Each hand's class id, hands in colex order of their cards' "
                  "deck indices (a < b < c: C(c,3) + C(b,2) + a)."})


def document(spec: APISpec) -> None:
    """The JSON form of a table, as a schema of the contract."""
    spec.components.schema("HandTable", schema=HandTableSchema)


def json_table(variant: str, options: dict[str, Any]) -> bytes:
    """A table's JSON form, dumped through :class:`HandTableSchema` (the engine's bytes for
    the same table: ``thirtyone tables export --format json``)."""
    dumped = HandTableSchema().dump(json.loads(export(variant, options, "json")))
    return json.dumps(dumped, ensure_ascii=False, separators=(",", ":")).encode()


def _build(variant: str, options: tuple[tuple[str, Any], ...], kind: str) -> tuple[bytes, str]:
    data = compute.run(json_table, variant, dict(options)) if kind == "json" else \
        compute.run(export, variant, dict(options), kind)
    return data, '"' + hashlib.sha256(data).hexdigest()[:32] + '"'


_EXTENSION = "thirtyone.hand_tables"


def init_app(app: Flask) -> None:
    # A table takes 0.01-0.3 s of CPU to build: in the compute pool, once per app (a worker)
    # and rule set (64 kept, a few MB at most).
    app.extensions[_EXTENSION] = functools.lru_cache(maxsize=64)(_build)


def _table(variant: str, options: tuple[tuple[str, Any], ...], kind: str) -> tuple[bytes, str]:
    built: tuple[bytes, str] = current_app.extensions[_EXTENSION](variant, options, kind)
    return built


@blp.route("/<variant>")
class HandTable(MethodView):
    @blp.doc(**_TABLE_DOC)
    @blp.alt_response(304, description="Not modified (`If-None-Match`).")
    @blp.alt_response(404, response="NOT_FOUND", description="No variant has this id or name.")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY",
                      description="An option that does not exist, apply or fit.")
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE",
                      description="`busy`: the server's work queue is full (a table not built "
                      "yet); try again after `Retry-After` seconds.")
    def get(self, variant: str) -> Response:
        """Every three-card hand's value and rank under a variant and options."""
        try:
            preset = find_preset(variant)
        except OptionError as error:
            problem = Problem.from_engine(error, status=404)
            problem.title = STATUS_TITLES[404]
            raise problem from None
        kind = request.args.get("format", "binary")
        if kind not in FORMATS:
            raise Problem(422, "validation_failed", N_(
                "The request has invalid fields: see errors."), errors=[
                {"field": "format", "code": "invalid_field", "detail": N_("Invalid value."),
                 "params": {}}])
        options = tuple(sorted(
            (name, option_from_text(name, text))
            for name, text in request.args.items() if name not in _NOT_OPTIONS))
        try:
            data, etag = _table(preset.id, options, kind)
        except OptionError as error:
            raise Problem.from_engine(error) from None
        response = Response(data, mimetype=FORMATS[kind])
        response.set_etag(etag.strip('"'))
        response.cache_control.public = True
        response.cache_control.max_age = CACHE_SECONDS
        response.vary.add("Accept-Encoding")
        return response.make_conditional(request)
