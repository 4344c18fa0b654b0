"""The lean hot path: the API's most frequent requests answered without Flask's machinery.

A score (``POST /v1/hands/score``), a sealed game's move (``POST /v1/games/moves`` with a
token) and the variants (``GET /v1/variants``, ``GET /v1/variants/{id}``) are most of what
apps send, and through Flask each paid some 150-250 us of request and response objects,
context locals, flask-smorest's wrappers, webargs and marshmallow's loading, flask-babel and the
after-request hooks (``benchmarks/PROFILE.md``), several times the work of the answer itself.
:class:`HotPath`, a WSGI layer just around Flask's own, answers them with the same functions
the views call (:func:`thirtyone.web.hands.describe_score`,
:func:`thirtyone.web.games.play`, the variants' cached answers) dumped through the same
response schemas, the same language
(:func:`thirtyone.web.i18n.choose_language`), the same headers (CORS from flask-cors' own
functions, ``Content-Language`` and ``Vary`` from :func:`thirtyone.web.i18n.announce`) and the
same request metrics; the outer layers (body limit and deadline, security headers) wrap it as
they wrap Flask.

It answers only requests it can answer exactly as Flask would: any other (a body that is not
a plain well-formed one, a query other than ``?lang=``, ``If-None-Match``, a variant not yet
built in this language, and every refusal: a bad card, a wrong seat key, an illegal move)
goes to Flask unchanged, which answers it with its problem document. So a refused request is
read twice (cheap next to its problem) and every answer, header and problem stays Flask's;
``tests/web/test_hot_path.py`` compares the two paths request by request.

What it costs in code: this module; the views' helpers take the catalog and sealer as
arguments (the hot path has no Flask request or app context to find them in).
"""

from __future__ import annotations

import functools
import io
import re
import time
from collections.abc import Callable, Iterable
from typing import Any

from babel.support import NullTranslations
from flask import Flask, Response
from flask_cors.core import get_cors_headers
from werkzeug.datastructures import Headers
from werkzeug.http import quote_etag

from thirtyone import words
from thirtyone.errors import ThirtyOneError
from thirtyone.hands import score_hand
from thirtyone.rules import find_preset, make_rules
from thirtyone.web import games, hands, metrics, variants
from thirtyone.web.api import read_json
from thirtyone.web.connections import TIMED_OUT
from thirtyone.web.i18n import announce, choose_language
from thirtyone.web.jsonio import dumps, loads
from thirtyone.web.sealing import Sealer

Environ = dict[str, Any]
StartResponse = Callable[..., Any]
WSGIApp = Callable[[Environ, StartResponse], Iterable[bytes]]
Answer = tuple[bytes, list[tuple[str, str]]]
"""A 200 answer's body and the headers it carries besides its type, length and language."""

# The one query these routes read: the language (anything else goes to Flask, whose query
# parsing decides what it means).
_LANG_QUERY = re.compile(r"lang=([A-Za-z-]{1,35})")
_SCORE_FIELDS = frozenset({"variant", "hand", "options"})
_MOVE_FIELDS = frozenset({"token", "seat", "seat_key", "move"})
_CACHED_ORIGINS = 256


class HotPath:
    """Answers the hot routes of ``app`` (see the module docstring) and hands every other
    request to ``flask_app``, Flask's WSGI callable."""

    def __init__(self, app: Flask, flask_app: WSGIApp) -> None:
        self.flask_app = flask_app
        app.extensions["thirtyone.hot"] = self
        self.sealer: Sealer = app.extensions["thirtyone.sealer"]
        self.catalogs: dict[str, NullTranslations] = app.extensions["thirtyone.catalogs"]
        self.counter: metrics.RequestCounter = app.extensions["thirtyone.requests"]
        self.cors: Any = app.extensions["thirtyone.cors"]
        # The variants' answers, as variants.answer builds and keeps them.
        self.variants: dict[tuple[str, str | None], tuple[bytes, str]] = \
            app.extensions.setdefault("thirtyone.variants", {})
        self.body_limit: int | None = app.config["MAX_CONTENT_LENGTH"]
        self.values_limit = int(app.config["BATCH_LIMIT"]) + 64
        # The headers each (Origin, Private-Network, language) gets after the body's own.
        self.tails: dict[tuple[str | None, str | None, str], list[tuple[str, str]]] = {}
        # The answers go through their declared schemas, as flask-smorest dumps the views'.
        self.score_schema = hands.ScoreSchema()
        self.move_result_schema = games.MoveResultSchema()
        move_schema = games.MoveSchema()

        def read_move(raw: bytes) -> bytes:
            return dumps(move_schema.load(loads(raw)))

        # A move read by MoveSchema, by its JSON: a pure function of it, and a fifth of a
        # move's work in the hot path, while clients send a few dozen distinct moves (a
        # refused one raises, and is not kept).
        self.read_move = functools.lru_cache(maxsize=1024)(read_move)
        cacheable = variants.cacheable(Response())
        self.cache_control = cacheable.headers["Cache-Control"]

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        method, path = environ["REQUEST_METHOD"], environ.get("PATH_INFO", "")
        if environ.get(TIMED_OUT) is not None:
            answered = None  # Flask's 408
        elif method == "POST" and path in ("/v1/hands/score", "/v1/games/moves"):
            answered = self.posted(environ, start_response, path)
        elif method == "GET" and path.startswith("/v1/variants"):
            answered = self.variant(environ, start_response, path)
        else:
            answered = None
        return self.flask_app(environ, start_response) if answered is None else answered

    def language(self, environ: Environ) -> str | None:
        """The request's language, or ``None`` when its query holds more than ``lang``."""
        query = environ.get("QUERY_STRING")
        wanted = None
        if query:
            found = _LANG_QUERY.fullmatch(query)
            if found is None:
                return None
            wanted = found[1]
        return choose_language(wanted, environ.get("HTTP_ACCEPT_LANGUAGE"))

    def posted(self, environ: Environ, start_response: StartResponse,
               path: str) -> list[bytes] | None:
        """A score or a move answered, or ``None`` (its body put back for Flask)."""
        start = time.perf_counter()
        length = environ.get("CONTENT_LENGTH") or ""
        content_type = environ.get("CONTENT_TYPE", "")
        if (not length.isdigit()
                or (self.body_limit is not None and int(length) > self.body_limit)
                or content_type.partition(";")[0].strip().lower() != "application/json"):
            return None
        language = self.language(environ)
        if language is None:
            return None
        data = environ["wsgi.input"].read(int(length))
        try:
            translations = self.catalogs[language]
            value = read_json(data, self.values_limit) if data else None
            if path == "/v1/hands/score":
                body = self.score(value, translations)
                operation = "POST /v1/hands/score"
            else:
                body = self.move(value, translations)
                operation = "POST /v1/games/moves"
        except Exception:
            body = None
        if body is None:
            environ["wsgi.input"] = io.BytesIO(data)
            return None
        return self.respond(environ, start_response, start, operation, language, body, [])

    def score(self, value: Any, translations: NullTranslations) -> bytes | None:
        """The view's answer to a plain score request (ScoreRequestSchema's shape exactly:
        ``hand`` a list of at most 54 strings, ``variant`` a string, ``options`` an
        object), else ``None``."""
        if type(value) is not dict or not value.keys() <= _SCORE_FIELDS:
            return None
        hand, variant, options = value.get("hand"), value.get("variant", "scat"), \
            value.get("options", {})
        if (type(hand) is not list or len(hand) > 54 or type(variant) is not str
                or type(options) is not dict
                or not all(type(card) is str for card in hand)):
            return None
        rules = make_rules(variant, options or None)
        return dumps(self.score_schema.dump(hands.describe_score(
            score_hand(hand, rules), words.pack_of_deck(rules.deck), translations)))

    def move(self, value: Any, translations: NullTranslations) -> bytes | None:
        """The view's answer to a sealed game's move (MoveRequestSchema's shape with a token,
        a seat from 0 to 14 and its key; the move read by MoveSchema itself), else
        ``None``."""
        if type(value) is not dict or value.keys() != _MOVE_FIELDS:
            return None
        seat, token, key, move = value["seat"], value["token"], value["seat_key"], value["move"]
        if (type(seat) is not int or not 0 <= seat <= 14 or type(token) is not str
                or type(key) is not str or type(move) is not dict):
            return None
        body = {"token": token, "state": None, "seat": seat, "seat_key": key,
                "move": loads(self.read_move(dumps(move)))}
        return dumps(self.move_result_schema.dump(games.play(body, self.sealer, translations)))

    def variant(self, environ: Environ, start_response: StartResponse,
                path: str) -> list[bytes] | None:
        """A variant's (or every variant's) answer as Flask built and kept it in this
        language, or ``None`` (not built yet, a conditional request, another path)."""
        start = time.perf_counter()
        if path == "/v1/variants":
            wanted: str | None = None
            operation = "GET /v1/variants"
        else:
            name = path[len("/v1/variants/"):]
            if not path.startswith("/v1/variants/") or not name or "/" in name:
                return None
            try:
                wanted = find_preset(name).id
            except ThirtyOneError:
                return None  # Flask's 404 problem
            operation = "GET /v1/variants/<variant_id>"
        if "HTTP_IF_NONE_MATCH" in environ:
            return None
        language = self.language(environ)
        entry = self.variants.get((language, wanted)) if language is not None else None
        if language is None or entry is None:
            return None
        body, etag = entry
        return self.respond(environ, start_response, start, operation, language, body,
                            [("ETag", quote_etag(etag)), ("Cache-Control", self.cache_control)])

    def respond(self, environ: Environ, start_response: StartResponse, start: float,
                operation: str, language: str, body: bytes,
                headers: list[tuple[str, str]]) -> list[bytes]:
        """Send a 200 with the headers Flask's answer has, in its order: type and length, the
        view's own, CORS, then the language; and count it as Flask's hooks would."""
        start_response("200 OK", [
            ("Content-Type", "application/json"), ("Content-Length", str(len(body))),
            *headers, *self.tail(environ, language)])
        metrics.start_sampler()
        self.counter.count(operation, 200, time.perf_counter() - start)
        return [body]

    def tail(self, environ: Environ, language: str) -> list[tuple[str, str]]:
        """flask-cors' headers for the request's origin, then ``Content-Language`` and
        ``Vary``, as Flask's after-request hooks add them (made once per origin and
        language: they depend on nothing else for these routes)."""
        origin = environ.get("HTTP_ORIGIN")
        private = environ.get("HTTP_ACCESS_CONTROL_REQUEST_PRIVATE_NETWORK")
        key = (origin, private, language)
        found = self.tails.get(key)
        if found is None:
            asked = Headers()
            if origin is not None:
                asked.add("Origin", origin)
            if private is not None:
                asked.add("Access-Control-Request-Private-Network", private)
            headers = Headers()
            for name, value in get_cors_headers(self.cors, asked, "GET").items():
                headers.add(name, value)
            announce(headers, language)
            found = headers.to_wsgi_list()
            if len(self.tails) < _CACHED_ORIGINS:
                self.tails[key] = found
        return found
