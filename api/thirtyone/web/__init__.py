"""The REST API over the engine: a Flask app built by :func:`create_app`.

Every resource lives under ``/v1``; ``/openapi.json`` is the contract and ``/docs`` shows it.
Games are stateless: the server seals each game state into a token that the client sends
back with its next request (see :mod:`thirtyone.web.sealing`).

>>> app = create_app({"TESTING": True, "THIRTYONE_SECRET_KEY": "doctest secret"})
>>> response = app.test_client().get("/v1/variants/scat?lang=it")
>>> response.json["name"], response.headers["Content-Language"]
('Trentuno americano', 'it')
"""

from __future__ import annotations

import inspect
import logging
import os
import secrets
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, cast

import marshmallow as ma
from apispec.ext.marshmallow import MarshmallowPlugin, resolver
from flask import Flask, redirect
from flask_cors import CORS
from flask_cors.core import get_cors_options
from flask_smorest.pagination import PaginationMetadataSchema

import thirtyone
from thirtyone.web import (
    advice,
    archive,
    codes,
    compute,
    connections,
    contract,
    docs,
    games,
    hand_tables,
    hands,
    i18n,
    limits,
    meta,
    metrics,
    package,
    play,
    problems,
    race,
    review,
    tables,
    variants,
)
from thirtyone.web.api import Api, ProblemResponses
from thirtyone.web.archive import routes as archive_routes
from thirtyone.web.games import MoveSchema
from thirtyone.web.hot import HotPath
from thirtyone.web.jsonio import JSONProvider
from thirtyone.web.sealing import Sealer
from thirtyone.web.security import BodyLimit, SecurityHeaders, wrap
from thirtyone.web.site import serve_site
from thirtyone.web.validation import HAND_DOC, Points

__all__ = ["create_app"]

_log = logging.getLogger(__name__)

API_DESCRIPTION = """\
The Thirty-One family of card games as a service: score and compare hands, read the rules of
every variant, and play whole games.

Two ways to play. **Sealed games** keep nothing on the server: `POST /v1/games` returns a
sealed `token` holding the whole game (encrypted and authenticated with the server's secret)
and one secret `seat_key` per seat. Send the token back with each move: the answer carries the
next token. A seat's key is needed to see that seat's cards or to move for it. **Hosted
tables** live on the server for players on different devices: `POST /v1/tables` opens one (its
`Location`), each player claims a seat by invitation and plays with that seat's key as a bearer
token; a table's moves are versioned (send the `version` you saw), retried safely with
`Idempotency-Key`, and pushed to every seat by Server-Sent Events
(`GET /v1/tables/{table}/events`, resumed with `Last-Event-ID`) or the long poll
(`GET /v1/tables/{table}/updates`); a finished match's record can be verified offline.

To score hands with no request at all, `GET /v1/hand-tables/{variant}` gives every three-card
hand's value and rank (the npm package `thirtyone` reads it; `conformance/` in the repository
holds vectors for any other implementation).

Between rounds `to_move` is `null` and the only legal move is `{"type": "next_round"}`: any
seat may send it (with its key, in a sealed game) to deal the next round. Once the match is
over, `to_move` is `null`, `is_over` is true and no move is legal.

Every answer speaks the language asked for by `?lang=` (`en`, `ru`, `it`), else by
`Accept-Language`, else English. Errors are RFC 9457 problem details
(`application/problem+json`) with a stable `code`. Within `/v1` answers may gain fields, problem
codes, enum values and event types: ignore what you do not know.
"""


class _Flask(Flask):
    json_provider_class = JSONProvider

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        """Flask's, with a plain function or method told from its code's flags at once:
        flask-smorest and Flask ask about a score's view and hooks some twenty times per
        request, and ``inspect.iscoroutinefunction`` unwraps each before it looks."""
        code = getattr(getattr(func, "__func__", func), "__code__", None)
        if code is not None and not code.co_flags & inspect.CO_COROUTINE:
            return func
        return super().ensure_sync(func)


def _default_site_dir() -> Path | None:
    site = Path(__file__).resolve().parents[3] / "build" / "site"
    return site if (site / "index.html").is_file() else None


LANGUAGE_PARAMETER = {
    "in": "query",
    "name": "lang",
    "required": False,
    "schema": {"type": "string"},
    "description": "The language of the answer: `en`, `ru` or `it` (another value is ignored). "
    "Without it, `Accept-Language` decides, then English.",
}


def default_config() -> dict[str, Any]:
    """Settings, from the environment where it names them."""
    return {
        "THIRTYONE_SECRET_KEY": os.environ.get("THIRTYONE_SECRET_KEY"),
        "CORS_ORIGINS": os.environ.get("THIRTYONE_CORS_ORIGINS", "*"),
        "SITE_DIR": os.environ.get("THIRTYONE_SITE_DIR") or _default_site_dir(),
        "TRANSLATIONS_DIR": None,
        "BATCH_LIMIT": 10_000,
        # Scores, sealed moves and variants answered without Flask's machinery (thirtyone.web.
        # hot); off, Flask answers them (the same answers: tests/web/test_hot_path.py).
        "THIRTYONE_HOT_PATH": True,
        # A full batch of 10,000 hands is about 250 kB of JSON.
        "MAX_CONTENT_LENGTH": 1024 * 1024,
        "API_TITLE": "Thirty-One API",
        "API_VERSION": thirtyone.__version__,
        "OPENAPI_VERSION": "3.0.3",
        "OPENAPI_URL_PREFIX": "/",
        "OPENAPI_JSON_PATH": "openapi.json",
        "API_SPEC_OPTIONS": {
            "info": {
                "description": API_DESCRIPTION,
                "license": {"name": "MIT", "url": "https://opensource.org/license/mit"},
            },
            "servers": [{"url": "/", "description": "The server that serves this document."}],
            # No operation needs credentials: a sealed game's seat key travels in the body.
            "security": [],
        },
    }


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the API app; ``config`` overrides :func:`default_config`."""
    app = _Flask(__name__)
    app.config.update(default_config())
    app.config.update(config or {})

    secret = app.config["THIRTYONE_SECRET_KEY"]
    if not secret:
        secret = secrets.token_urlsafe(32)
        _log.warning(
            "THIRTYONE_SECRET_KEY is not set: games are sealed with a random secret and "
            "will not survive a restart or move between workers"
        )
    app.extensions["thirtyone.sealer"] = Sealer(secret)
    tables.init_app(app)
    archive.init_app(app, app.config["THIRTYONE_STORE"])
    compute.init_app(app)
    advice.init_app(app)
    hand_tables.init_app(app)
    metrics.init_app(app)

    i18n.init_app(app)
    problems.init_app(app)
    plugin = MarshmallowPlugin(schema_name_resolver=cast(Callable[[type[ma.Schema]], str],
                                                         schema_name))
    api = app.extensions["thirtyone.api"] = Api(app, spec_kwargs={
        "marshmallow_plugin": plugin,
        "extra_plugins": [ProblemResponses(), limits.RateLimitResponses(),
                          contract.DeclaredStatuses()]})
    api.register_field(Points, "number", None)
    contract.document(api.spec, api.ma_plugin.converter.add_attribute_function)
    api.spec.components.schema("Hand", HAND_DOC)
    games.document(api.spec, api.ma_plugin)
    tables.document(api.spec)
    hand_tables.document(api.spec)
    codes.document(api.spec)
    blueprints = (variants.blp, hands.blp, games.blp, advice.blp, tables.blp, advice.tables_blp,
                  archive_routes.blp, race.blp, review.blp, meta.blp, hand_tables.blp)
    for blueprint in blueprints:
        api.register_blueprint(blueprint, parameters=[LANGUAGE_PARAMETER])
    contract.evolvable(api.spec)
    limits.init_app(app)
    docs.init_app(app)
    # The browser client: a plain Flask blueprint, so it stays out of the API's contract.
    app.register_blueprint(play.blp)
    package.init_app(app)
    _cors(app, _origins(app.config["CORS_ORIGINS"]))

    if app.config["THIRTYONE_HOT_PATH"]:
        # Innermost: the layers below see its requests as they see Flask's.
        wrap(app, lambda inner: HotPath(app, inner))
    wrap(app, lambda inner: BodyLimit(inner, lambda: app.config["MAX_CONTENT_LENGTH"]))
    connections.init_app(app)
    site_dir = app.config["SITE_DIR"]
    if site_dir and Path(site_dir).is_dir():
        # The rules site is static: its files answer before Flask routes anything else.
        wrap(app, lambda inner: serve_site(app, inner, Path(site_dir)))
    else:
        site_dir = None
        app.add_url_rule("/", "home", lambda: redirect("/docs"))
    # Outermost, so that the site's files and every error carry the headers too.
    wrap(app, lambda inner: SecurityHeaders(inner, site_dir))
    return app


def schema_name(schema: Any) -> str | None:
    """The component a marshmallow schema is documented as (apispec's default name), or none:
    a move is documented as the engine's typed ``Move`` (:func:`thirtyone.web.games.document`),
    not as the loose shape :class:`~thirtyone.web.games.MoveSchema` checks, and flask-smorest's
    pagination metadata belongs to no answer of this API."""
    # apispec passes a schema class, an instance, or a class's registered name.
    unnamed = (MoveSchema, PaginationMetadataSchema)
    if schema in unnamed or isinstance(schema, unnamed):
        return None
    return str(resolver(schema))


EXPOSED_HEADERS = (
    "Content-Language", "Location", "ETag", "Retry-After", "RateLimit-Limit",
    "RateLimit-Remaining", "RateLimit-Reset", "Idempotent-Replayed",
)
"""The answer headers a web page's script may read: the ones the docs tell a client to use."""


def _cors(app: Flask, origins: str | list[str]) -> None:
    """flask-cors for the API, as configured: the origins allowed, :data:`EXPOSED_HEADERS`
    readable by their scripts, and in a preflight only the methods some route has."""
    methods = sorted({method for rule in app.url_map.iter_rules()
                      if rule.rule.startswith("/v1/") for method in rule.methods or ()})
    options: dict[str, Any] = {"origins": origins, "expose_headers": list(EXPOSED_HEADERS),
                               "methods": methods}
    CORS(app, resources={r"/v1/*": options})
    # The same options as flask-cors resolves them, for the hot path's headers.
    app.extensions["thirtyone.cors"] = get_cors_options(app, options)


def _origins(setting: str | list[str]) -> str | list[str]:
    if isinstance(setting, str) and setting != "*":
        return [origin.strip() for origin in setting.split(",") if origin.strip()]
    return setting
