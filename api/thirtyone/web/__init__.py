"""The REST API over the engine: a Flask app built by :func:`create_app`.

Every resource lives under ``/v1``; ``/openapi.json`` is the contract and ``/docs`` shows it.
Games are stateless: the server seals each game state into a token that the client sends
back with its next request (see :mod:`thirtyone.web.sealing`).

>>> app = create_app({"TESTING": True, "THIRTYONE_SECRET_KEY": "doctest secret"})
>>> response = app.test_client().get("/v1/variants/scat?lang=it")
>>> response.json["name"], response.headers["Content-Language"]
('Trentuno (Scat)', 'it')
"""

from __future__ import annotations

import logging
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, Response, redirect, request
from flask_cors import CORS
from whitenoise import WhiteNoise

import thirtyone
from thirtyone.web import (
    advice,
    compute,
    connections,
    contract,
    docs,
    games,
    hands,
    i18n,
    limits,
    meta,
    metrics,
    play,
    problems,
    race,
    tables,
    variants,
)
from thirtyone.web.api import Api
from thirtyone.web.jsonio import JSONProvider
from thirtyone.web.sealing import Sealer
from thirtyone.web.security import BodyLimit, SecurityHeaders
from thirtyone.web.validation import HAND_DOC, Points

__all__ = ["create_app"]

_log = logging.getLogger(__name__)

API_DESCRIPTION = """\
The Thirty-One family of card games as a service: score and compare hands, read the rules of
every variant, and play whole games.

Games are stateless. `POST /v1/games` returns a sealed `token` holding the whole game (it is
encrypted and authenticated with the server's secret) and one secret `seat_key` per seat. Send
the token back with each move: the answer carries the next token. A seat's key is needed to see
that seat's cards or to move for it.

Between rounds `to_move` is `null` and the only legal move is `{"type": "next_round"}`: any
seat may send it (with its key, in a sealed game) to deal the next round. Once the match is
over, `to_move` is `null`, `is_over` is true and no move is legal.

Every answer speaks the language asked for by `?lang=` (`en`, `ru`, `it`), else by
`Accept-Language`, else English. Errors are RFC 9457 problem details
(`application/problem+json`) with a stable `code`.
"""


class _Flask(Flask):
    json_provider_class = JSONProvider


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
        # The most CPU time one hint may take; the answer then counts fewer samples.
        "THIRTYONE_ADVICE_SECONDS": float(os.environ.get("THIRTYONE_ADVICE_SECONDS", "1.0")),
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
    compute.init_app(app)
    metrics.init_app(app)

    i18n.init_app(app)
    problems.init_app(app)
    api = Api(app)
    api.register_field(Points, "number", None)
    contract.document(api.spec, api.ma_plugin.converter.add_attribute_function)
    api.spec.components.schema("Hand", HAND_DOC)
    games.document(api.spec, api.ma_plugin)
    tables.document(api.spec)
    # flask-smorest's own, for paginated answers, which this API has none of.
    del api.spec.components.schemas["PaginationMetadata"]
    blueprints = (variants.blp, hands.blp, games.blp, advice.blp, tables.blp, advice.tables_blp,
                  race.blp, meta.blp)
    for blueprint in blueprints:
        api.register_blueprint(blueprint, parameters=[LANGUAGE_PARAMETER])
    limits.init_app(app)
    docs.init_app(app)
    # The browser client: a plain Flask blueprint, so it stays out of the API's contract.
    app.register_blueprint(play.blp)
    _cors(app, _origins(app.config["CORS_ORIGINS"]))

    app.wsgi_app = BodyLimit(  # type: ignore[method-assign]
        app.wsgi_app, lambda: app.config["MAX_CONTENT_LENGTH"]
    )
    connections.init_app(app)
    site_dir = app.config["SITE_DIR"]
    if site_dir and Path(site_dir).is_dir():
        # The rules site is static: whitenoise answers its files (and "/ru/" with
        # "/ru/index.html") before Flask routes anything else.
        app.wsgi_app = WhiteNoise(  # type: ignore[method-assign]
            app.wsgi_app, root=str(site_dir), index_file=True
        )
    else:
        site_dir = None
        app.add_url_rule("/", "home", lambda: redirect("/docs"))
    # Outermost, so that the site's files and every error carry the headers too.
    app.wsgi_app = SecurityHeaders(app.wsgi_app, site_dir)  # type: ignore[method-assign]
    return app


def _cors(app: Flask, origins: str | list[str]) -> None:
    """flask-cors for the API, consulted only for requests that name an ``Origin``.

    Only browsers send ``Origin``, and flask-cors costs a tenth of a small request's time; the
    answers to the others vary by origin all the same when the origins are a list.
    """
    CORS(app, resources={r"/v1/*": {"origins": origins}}, expose_headers=["Content-Language"])
    funcs = app.after_request_funcs[None]
    (index, cors_after_request), = (
        (i, f) for i, f in enumerate(funcs) if getattr(f, "__name__", None) == "cors_after_request"
    )

    def cors_for_browsers(response: Response) -> Response:
        if "Origin" in request.headers:
            return cors_after_request(response)
        if origins != "*":
            response.vary.add("Origin")
        return response

    funcs[index] = cors_for_browsers


def _origins(setting: str | list[str]) -> str | list[str]:
    if isinstance(setting, str) and setting != "*":
        return [origin.strip() for origin in setting.split(",") if origin.strip()]
    return setting
