"""The presets of the engine, with their options, in the request's language.

The answers change only with a release: each (language, variant) answer is dumped, encoded and
given its ETag once per app, then served as it is (a fifteenth of the work of building it).
"""

from __future__ import annotations

import hashlib
from typing import Any

import marshmallow as ma
from flask import Response, current_app, json, request
from flask.views import MethodView
from flask_smorest.exceptions import NotModified
from flask_smorest.utils import get_appcontext

from thirtyone.errors import OptionError
from thirtyone.rules import PRESETS, SOURCES, Preset, find_preset
from thirtyone.web.api import Blueprint
from thirtyone.web.i18n import gettext, language
from thirtyone.web.jsonio import dumps
from thirtyone.web.problems import STATUS_TITLES, Problem

CACHE_SECONDS = 3600

blp = Blueprint(
    "variants", __name__, url_prefix="/v1/variants",
    description="The variants (presets) of the game and the options each one lets a table set.",
)


class OptionSchema(ma.Schema):
    name = ma.fields.String(required=True, metadata={"description": "The option's name."})
    type = ma.fields.String(
        required=True,
        metadata={"description": "`choice`, `bool`, `int`, `int-or-none`, `suits` (an order of "
                  "the letters C, D, H, S) or `card` (a card code)."},
    )
    default = ma.fields.Raw(
        required=True, allow_none=True,
        metadata={"description": "The variant's value.",
                  "anyOf": [{"type": kind, "nullable": True}
                            for kind in ("boolean", "integer", "string")]},
    )
    choices = ma.fields.List(
        ma.fields.String(), required=True,
        metadata={"description": "The allowed values of a `choice` option."},
    )
    minimum = ma.fields.Integer(required=True, allow_none=True)
    maximum = ma.fields.Integer(required=True, allow_none=True)
    description = ma.fields.String(required=True, metadata={"description": "Localized."})


class PlayersSchema(ma.Schema):
    min = ma.fields.Integer(required=True)
    max = ma.fields.Integer(required=True)


class SourceSchema(ma.Schema):
    id = ma.fields.String(required=True)
    title = ma.fields.String(required=True)
    author = ma.fields.String(required=True)
    language = ma.fields.String(required=True)


class VariantSchema(ma.Schema):
    id = ma.fields.String(required=True, metadata={"description": "Use it as `variant`."})
    name = ma.fields.String(required=True, metadata={"description": "Localized name."})
    summary = ma.fields.String(required=True, metadata={"description": "Localized summary."})
    family = ma.fields.String(
        required=True, metadata={"description": "The game flow: draw, widow, switch or race."}
    )
    settlement = ma.fields.String(
        required=True,
        metadata={"description": "How rounds are paid: lives, points, pot, escalating, none."},
    )
    players = ma.fields.Nested(PlayersSchema, required=True)
    aliases = ma.fields.List(
        ma.fields.String(), required=True, metadata={"description": "Other names of the game."}
    )
    sources = ma.fields.List(ma.fields.Nested(SourceSchema), required=True)
    options = ma.fields.List(
        ma.fields.Nested(OptionSchema), required=True,
        metadata={"description": "The options a table may set, with this variant's defaults."},
    )


class VariantListSchema(ma.Schema):
    variants = ma.fields.List(ma.fields.Nested(VariantSchema), required=True)


_LIST_SCHEMA = VariantListSchema()
_VARIANT_SCHEMA = VariantSchema()


def describe(preset: Preset) -> dict[str, Any]:
    """A preset as the API shows it, localized."""
    return {
        "id": preset.id,
        "name": gettext(preset.name),
        "summary": gettext(preset.summary),
        "family": preset.family.value,
        "settlement": preset.settlement.value,
        "players": {"min": preset.players[0], "max": preset.players[1]},
        "aliases": list(preset.aliases),
        "sources": [
            {"id": source.id, "title": source.title, "author": source.author,
             "language": source.language}
            for source in (SOURCES[source_id] for source_id in preset.sources)
        ],
        "options": [
            {**spec.to_dict(), "choices": [str(choice) for choice in spec.choices],
             "description": gettext(spec.description)}
            for spec in preset.option_specs()
        ],
    }


def answer(variant: str | None, schema: ma.Schema, build: Any) -> Response:
    """The answer about ``variant`` (``None``: every variant) in the request's language, as
    ``schema`` dumps what ``build()`` gives, built once per language and app; its ETag (the
    one flask-smorest makes from the dump) is set, and a matching ``If-None-Match`` is 304."""
    cache: dict[tuple[str, str | None], tuple[bytes, str]] = \
        current_app.extensions.setdefault("thirtyone.variants", {})
    key = (language(), variant)
    entry = cache.get(key)
    if entry is None:
        dump = schema.dump(build())
        # The ETag flask-smorest makes from a dump (Blueprint.set_etag), made once.
        etag = hashlib.sha1(json.dumps(dump, sort_keys=True).encode()).hexdigest()
        entry = cache[key] = (dumps(dump), etag)
    body, etag = entry
    if etag in request.if_none_match:
        raise NotModified
    # flask-smorest's etag decorator writes the ETag kept here in the answer's headers.
    get_appcontext().setdefault("etag", {})["etag"] = etag
    return current_app.response_class(body, mimetype="application/json")


@blp.after_request
def cacheable(response: Response) -> Response:
    """The variants change only with a new release: caches may keep an answer for an hour and
    then revalidate it by its ETag (flask-smorest's, from the localized answer; ``Vary:
    Accept-Language`` is set with the language)."""
    if response.status_code in (200, 304):
        response.cache_control.public = True
        response.cache_control.max_age = CACHE_SECONDS
    return response


@blp.route("")
class Variants(MethodView):
    @blp.etag
    @blp.doc(operationId="listVariants")
    @blp.response(200, VariantListSchema)
    def get(self) -> Response:
        """Every variant, with its options."""
        return answer(None, _LIST_SCHEMA,
                      lambda: {"variants": [describe(preset) for preset in PRESETS.values()]})


@blp.route("/<variant_id>")
class Variant(MethodView):
    @blp.etag
    @blp.doc(operationId="getVariant", parameters=[
        {"in": "path", "name": "variant_id", "required": True, "schema": {"type": "string"},
         "example": "scat", "description": "A variant id or any of its names."}])
    @blp.response(200, VariantSchema)
    @blp.alt_response(404, response="NOT_FOUND", description="No variant has this id or name.")
    def get(self, variant_id: str) -> Response:
        """One variant, found by its id or any of its names ("Big Tonka", "Schnauz")."""
        try:
            preset = find_preset(variant_id)
        except OptionError as error:
            problem = Problem.from_engine(error, status=404)
            problem.title = STATUS_TITLES[404]
            raise problem from None
        return answer(preset.id, _VARIANT_SCHEMA, lambda: describe(preset))
