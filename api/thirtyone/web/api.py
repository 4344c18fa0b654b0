"""flask-smorest, adjusted: problem+json errors in the document and on the wire.

flask-smorest documents its error responses as ``application/json`` and answers HTTP errors
with its own payload (dropping the ``Allow`` header of a 405); webargs answers a body that is
not JSON by ignoring it. Here every error is a problem document, and a request body must be
JSON (415) that parses (400).
"""

from __future__ import annotations

import http
from collections.abc import Callable
from typing import Any, NoReturn, Protocol, TypeVar, cast

import flask
import flask_smorest
import marshmallow as ma
from apispec import BasePlugin
from webargs import core
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import HTTPException

from thirtyone.errors import N_
from thirtyone.web.jsonio import loads
from thirtyone.web.problems import (
    PROBLEM_MEDIA_TYPE,
    STATUS_CODES,
    Problem,
    from_http_exception,
)


class ProblemSchema(ma.Schema):
    """RFC 9457 problem details, in the language of the request."""

    type = ma.fields.String(required=True, metadata={"description": "URI of the problem type."})
    title = ma.fields.String(required=True, metadata={"description": "Short localized summary."})
    status = ma.fields.Integer(required=True, metadata={"description": "The HTTP status."})
    detail = ma.fields.String(required=True, metadata={"description": "Localized explanation."})
    code = ma.fields.String(
        required=True, metadata={"description": "Stable machine-readable error code."}
    )
    errors = ma.fields.List(
        ma.fields.Nested(lambda: FieldErrorSchema()),
        metadata={"description": "One entry per field at fault."},
    )


class FieldErrorSchema(ma.Schema):
    field = ma.fields.String(
        required=True,
        metadata={"description": "Path of the field, e.g. `hands[2]` or `options.lives`."},
    )
    code = ma.fields.String(required=True, metadata={"description": "Stable error code."})
    detail = ma.fields.String(required=True, metadata={"description": "Localized explanation."})


class JSONParser(FlaskParser):
    """A parser that refuses bodies that are not JSON, or not valid JSON, with a problem."""

    def load_json(self, req: flask.Request, schema: ma.Schema) -> Any:
        if not core.is_json(req.mimetype):
            code, detail = STATUS_CODES[415]
            raise Problem(415, code, detail)
        data = req.get_data(cache=True)
        if not data:
            return core.missing
        return read_json(data, flask.current_app.config["BATCH_LIMIT"] + 64)

    def handle_error(self, error: ma.ValidationError, req: flask.Request, schema: ma.Schema,
                     *, error_status_code: int | None, error_headers: Any) -> NoReturn:
        raise Problem.from_validation(error.messages)


def read_json(data: bytes, limit: int) -> Any:
    """A request body's JSON value; a 400 problem when it holds more than ``limit`` objects
    and arrays or is not strict JSON (:func:`thirtyone.web.jsonio.loads`)."""
    # Reading a body costs by its objects and arrays (a megabyte of "[]" is half a million
    # lists, some 100 ms): the largest request the API takes, a full batch of hands, holds
    # one per hand and one more (``limit``: the batch's limit and a margin). Brackets inside
    # strings count too, which no request needs.
    if data.count(b"[") + data.count(b"{") > limit:
        raise Problem(
            400, "too_many_values",
            N_("The request body holds more than {limit} objects and arrays."),
            title=N_("Request too complex"), limit=limit,
        )
    try:
        return loads(data)
    except (ValueError, RecursionError):
        # Besides syntax errors: bytes that are not UTF-8, lone surrogates, NaN and
        # Infinity (not JSON), integers of more than 4300 digits, deep nesting.
        raise Problem(
            400, "malformed_json", N_("The request body is not valid JSON."),
            title=N_("Malformed JSON"),
        ) from None


View = TypeVar("View", bound=Callable[..., Any])
"""A view function or a :class:`~flask.views.MethodView` class, which a decorator returns as
it is (flask-smorest ships no types: its decorators are typed here)."""



class Decorator(Protocol):
    """What flask-smorest's decorators are: the view back, documented or wrapped."""

    def __call__(self, view: View, /) -> View: ...


class Blueprint(flask_smorest.Blueprint):  # type: ignore[misc]  # flask-smorest is untyped
    ARGUMENTS_PARSER = JSONParser()

    def route(self, rule: str, **options: Any) -> Decorator:
        return cast(Decorator, super().route(rule, **options))

    def response(self, status_code: int, schema: Any = None, **kwargs: Any) -> Decorator:
        return cast(Decorator, super().response(status_code, schema, **kwargs))

    def alt_response(self, status_code: int, response: Any = None,
                     **kwargs: Any) -> Decorator:
        return cast(Decorator, super().alt_response(status_code, response, **kwargs))

    @staticmethod
    def doc(**kwargs: Any) -> Decorator:
        return cast(Decorator, flask_smorest.Blueprint.doc(**kwargs))

    def after_request(self, hook: View) -> View:
        return cast(View, super().after_request(hook))

    def etag(self, obj: View) -> View:
        return cast(View, super().etag(obj))

    def arguments(self, schema: Any, **kwargs: Any) -> Decorator:
        """flask-smorest's, and the errors of every request body in the contract: a body that
        is not JSON (415), is not valid JSON (400), is too large (413) or comes too slowly
        (408)."""
        documented = cast(Decorator, super().arguments(schema, **kwargs))
        if kwargs.get("location", "json") != "json":
            return documented

        def decorator(func: View, /) -> View:
            func = documented(func)
            for status in (400, 408, 413, 415):
                func = self.alt_response(status, response=http.HTTPStatus(status).name)(func)
            return func

        return decorator


class ProblemResponses(BasePlugin):
    """An apispec plugin: flask-smorest documents its error responses (every status from 400,
    and ``DEFAULT_ERROR``) as ``application/json``; they are problem documents here."""

    def response_helper(self, response: dict[str, Any], **kwargs: Any) -> dict[str, Any] | None:
        content = response.get("content", {})
        if set(content) != {"application/json"}:
            return None
        documented: dict[str, Any] = {
            "content": {PROBLEM_MEDIA_TYPE: content["application/json"]}}
        if response.get("description") == "Default error response":
            documented["description"] = "An error, as RFC 9457 problem details."
        return documented


class Api(flask_smorest.Api):  # type: ignore[misc]  # flask-smorest is untyped
    """flask-smorest's, with problem documents for errors (pass :class:`ProblemResponses` in
    ``spec_kwargs["extra_plugins"]``)."""

    ERROR_SCHEMA = ProblemSchema

    def handle_http_exception(self, error: HTTPException) -> flask.Response:
        return from_http_exception(error).response()

