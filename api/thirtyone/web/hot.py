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
``tests/web/test_hot_path.py`` compares the two paths request by request. What a plain
request may hold (its fields, their types and limits) the hot path reads from the request
schemas themselves (:class:`Shape`), so that it never takes what they refuse; a move's answer
is dumped as its response schema dumps it, by fields read from that schema (:class:`Dump`).

What it costs in code: this module; the views' helpers take the catalog and sealer as
arguments (the hot path has no Flask request or app context to find them in).
"""

from __future__ import annotations

import functools
import io
import re
import time
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any

import marshmallow as ma
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
# What the hot path answers of a move request: a sealed game's move (not open mode's state).
_SEALED_MOVE = ("token", "seat", "seat_key", "move")
_CACHED_ORIGINS = 256

Reader = Callable[[Any], Any]
"""A request field's reading: the value as its schema loads it, or :data:`_DECLINED`."""
_DECLINED: Any = object()


class Shape:
    """The plain requests a request schema loads, worked out from the schema itself (its
    fields' types, ``required``, ``allow_none``, defaults and validators, and its own
    ``validates_schema`` and ``post_load`` hooks): :meth:`load` gives what ``schema.load``
    would give, or ``None`` for anything else (which Flask then answers with the schema).

    The rule stays in one place, the schema: a limit tightened there (a shorter hand, a
    narrower seat range) is the hot path's too. It reads JSON values of the exact types the
    fields load unchanged (a ``str`` for a ``String``, an ``int`` but no ``bool`` for an
    ``Integer``...), a narrower set than the schema's, never a wider one; a field, validator
    or hook it cannot read exactly (a ``pre_load`` hook, a ``data_key``, another validator)
    makes building it fail, so that the app does not start with a hot path wider than its
    schema. ``only``: the fields the hot path takes (others make it decline), ``required``:
    those it needs besides the schema's required ones, ``nested``: how each ``Nested`` field
    is read (its value as its schema loads it; an exception declines the request).
    """

    def __init__(self, schema: ma.Schema, *, only: Collection[str] | None = None,
                 required: Collection[str] = (), nested: Mapping[str, Reader] | None = None
                 ) -> None:
        fields = {name: field for name, field in schema.load_fields.items()
                  if only is None or name in only}
        if only is not None and set(only) - set(fields):
            raise TypeError(f"{type(schema).__name__} has no fields {set(only) - set(fields)}")
        self.readers = {name: _reader(field, (nested or {}).get(name))
                        for name, field in fields.items()}
        self.required = frozenset(
            {name for name, field in fields.items() if field.required} | set(required))
        missing = set(schema.load_fields) - set(fields)
        if any(schema.load_fields[name].required for name in missing):
            raise TypeError(f"{type(schema).__name__}: a field it requires is left out")
        self.defaults = tuple((name, field.load_default, callable(field.load_default))
                              for name, field in fields.items()
                              if field.load_default is not ma.missing)
        self.names = frozenset(fields)
        self.validators: list[Callable[..., Any]] = []
        self.processors: list[Callable[..., Any]] = []
        # A schema's hooks by tag, as marshmallow itself finds them when the class is made.
        hooks: dict[str, list[tuple[str, bool, dict[str, Any]]]] = \
            type(schema).resolve_hooks()
        for tag, entries in hooks.items():
            for name, many, options in entries:
                if many or options.get("pass_original") or tag not in (
                        "validates_schema", "post_load"):
                    raise TypeError(f"the hot path cannot run {type(schema).__name__}.{name} "
                                    f"({tag}): let Flask answer this route")
                kept = self.validators if tag == "validates_schema" else self.processors
                kept.append(getattr(schema, name))

    def load(self, value: Any) -> dict[str, Any] | None:
        """``value`` as the schema loads it (raising as it would in a schema hook), or
        ``None`` when the hot path does not read it (see the class docstring)."""
        if type(value) is not dict or not value.keys() <= self.names \
                or not self.required <= value.keys():
            return None
        data: dict[str, Any] = {}
        for name, default, made in self.defaults:
            if name not in value:
                data[name] = default() if made else default
        readers = self.readers
        for name, item in value.items():
            read = readers[name](item)
            if read is _DECLINED:
                return None
            data[name] = read
        for validate in self.validators:
            validate(data, partial=None, many=False, unknown=ma.RAISE)
        for process in self.processors:
            data = process(data, partial=None, many=False, unknown=ma.RAISE)
        return data


# The JSON values each field type loads unchanged (marshmallow's Integer also takes "5" and
# 5.0, Boolean "true" and 1: those are Flask's to read).
_PLAIN_TYPES: dict[type[ma.fields.Field[Any]], type] = {
    ma.fields.String: str, ma.fields.Integer: int, ma.fields.Boolean: bool,
}


def _reader(field: ma.fields.Field[Any], nested: Reader | None = None) -> Reader:
    """How :class:`Shape` reads a field's value (see its docstring), or a ``TypeError``."""
    # The exact classes (a subclass may load otherwise); isinstance tells the type checker.
    kind = type(field)
    if field.data_key is not None or field.attribute is not None:
        raise TypeError(f"the hot path reads no renamed field ({field!r})")
    read: Reader
    if kind in _PLAIN_TYPES:
        wanted = _PLAIN_TYPES[kind]

        def read(value: Any) -> Any:
            return value if type(value) is wanted else _DECLINED
    elif _plain_dict(field):
        def read(value: Any) -> Any:
            return value if type(value) is dict else _DECLINED
    elif isinstance(field, ma.fields.List) and kind is ma.fields.List \
            and type(field.inner) in _PLAIN_TYPES and not field.inner.validators \
            and not field.inner.allow_none:
        # A list of plain values (a hand's cards) loads as a list of the same values.
        item_type = _PLAIN_TYPES[type(field.inner)]
        _reader(field.inner)  # a renamed or otherwise unreadable item field refuses here

        def read(value: Any) -> Any:
            if type(value) is not list:
                return _DECLINED
            for item in value:
                if type(item) is not item_type:
                    return _DECLINED
            return value
    elif kind is ma.fields.Nested and nested is not None:
        read = nested
    else:
        raise TypeError(f"the hot path cannot read {field!r}: let Flask answer this route")
    checks = tuple(_check(validator) for validator in field.validators)
    if not checks and not field.allow_none:
        return read  # a None is no str, int, list...: declined by read itself
    allow_none = field.allow_none

    def checked(value: Any) -> Any:
        if value is None:
            return None if allow_none else _DECLINED
        loaded = read(value)
        if loaded is _DECLINED:
            return _DECLINED
        for check in checks:
            if not check(loaded):
                return _DECLINED
        return loaded
    return checked


def _check(validator: Any) -> Callable[[Any], bool]:
    """A field validator as a test, or a ``TypeError`` for one the hot path cannot run."""
    kind = type(validator)
    if kind is ma.validate.Length:
        low, high, equal = validator.min, validator.max, validator.equal
        return lambda value: (len(value) == equal if equal is not None else
                              (low is None or len(value) >= low)
                              and (high is None or len(value) <= high))
    if kind is ma.validate.Range:
        def in_range(value: Any) -> bool:
            low, high = validator.min, validator.max
            return ((low is None or (value >= low if validator.min_inclusive else value > low))
                    and (high is None
                         or (value <= high if validator.max_inclusive else value < high)))
        return in_range
    if kind is ma.validate.OneOf:
        choices = validator.choices
        return lambda value: value in choices
    raise TypeError(f"the hot path cannot run the validator {validator!r}")


class Dump:
    """An answer as its response schema dumps it (``schema.dump``), worked out from the schema
    itself: for an answer of plain values (a ``str`` for a ``String``, an ``int`` but no
    ``bool`` for an ``Integer``, a ``dict`` for a ``Dict``, a list of them for a
    ``List(Dict)``, or ``None``) it gives the same data without marshmallow's calls per field
    (a fifth of a sealed move's work in the hot path); any other answer goes through
    ``schema.dump``. A field it cannot dump exactly (a renamed one, a default, another type)
    or a hook makes building it fail."""

    def __init__(self, schema: ma.Schema) -> None:
        self.schema = schema
        if any(type(schema).resolve_hooks().values()):
            raise TypeError(f"{type(schema).__name__} has hooks: let schema.dump run")
        self.fields: list[tuple[str, type]] = []
        for name, field in schema.dump_fields.items():
            kind = type(field)
            if field.data_key is not None or field.attribute is not None \
                    or field.dump_default is not ma.missing or hasattr(dict, name):
                raise TypeError(f"the hot path cannot dump {name!r} of {schema!r}")
            if kind in _PLAIN_TYPES:
                self.fields.append((name, _PLAIN_TYPES[kind]))
            elif _plain_dict(field):
                self.fields.append((name, dict))
            elif isinstance(field, ma.fields.List) and kind is ma.fields.List \
                    and _plain_dict(field.inner):
                self.fields.append((name, list))
            else:
                raise TypeError(f"the hot path cannot dump {name!r} of {schema!r}")

    def __call__(self, answer: Mapping[str, Any]) -> dict[str, Any]:
        dumped: dict[str, Any] = {}
        for name, kind in self.fields:
            if name not in answer:
                continue  # marshmallow leaves out what the answer lacks
            value = answer[name]
            found = type(value)
            if value is None:
                dumped[name] = None
            elif found is not kind:
                return dict(self.schema.dump(answer))
            elif kind is list:
                if not all(type(item) is dict for item in value):
                    return dict(self.schema.dump(answer))
                dumped[name] = value
            else:
                # The answer's own dict or list (marshmallow copies them): it is written at
                # once, and the copies cost a tenth of the answer's dump.
                dumped[name] = value
        return dumped


def _plain_dict(field: Any) -> bool:
    """Whether ``field`` is a ``Dict`` of any keys and values (dumped as a copy)."""
    return isinstance(field, ma.fields.Dict) and type(field) is ma.fields.Dict \
        and field.key_field is None and field.value_field is None


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
        # The answers go through their declared schemas, as flask-smorest dumps the views'
        # (a move's as MoveResultSchema dumps it: Dump).
        self.score_schema = hands.ScoreSchema()
        self.move_result = Dump(games.MoveResultSchema())
        move_schema = games.MoveSchema()

        def read_move(raw: bytes) -> bytes:
            return dumps(move_schema.load(loads(raw)))

        # A move read by MoveSchema, by its JSON: a pure function of it, and a fifth of a
        # move's work in the hot path, while clients send a few dozen distinct moves (a
        # refused one raises, and is not kept).
        self.read_move = functools.lru_cache(maxsize=1024)(read_move)
        # The requests read as their schemas read them (see Shape).
        self.score_request = Shape(hands.ScoreRequestSchema())
        self.move_request = Shape(
            games.MoveRequestSchema(), only=_SEALED_MOVE, required=_SEALED_MOVE,
            nested={"move": lambda move: loads(self.read_move(dumps(move)))
                    if type(move) is dict else _DECLINED})
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
        """The view's answer to a plain score request (as ScoreRequestSchema reads it:
        :class:`Shape`), else ``None``."""
        body = self.score_request.load(value)
        if body is None:
            return None
        rules = make_rules(body["variant"], body["options"] or None)
        return dumps(self.score_schema.dump(hands.describe_score(
            score_hand(body["hand"], rules), words.pack_of_deck(rules.deck), translations)))

    def move(self, value: Any, translations: NullTranslations) -> bytes | None:
        """The view's answer to a sealed game's move (a token, a seat and its key, as
        MoveRequestSchema reads them: :class:`Shape`; the move read by MoveSchema itself),
        else ``None``."""
        body = self.move_request.load(value)
        if body is None:
            return None
        return dumps(self.move_result(games.play(body, self.sealer, translations)))

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
