"""Problem details (RFC 9457): every 4xx and 5xx of the API is ``application/problem+json``.

A problem has a stable ``code`` for programs, and a ``title`` and ``detail`` in the request's
language. Field errors go in ``errors``, each with the ``field`` at fault (a path such as
``hand[1]`` or ``options.lives``, as the engine names fields) and its own ``detail``.

Engine errors (:class:`~thirtyone.errors.ThirtyOneError`) carry an English template marked
with ``N_`` and its params: the template is translated first, then filled.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable, Mapping
from typing import Any

import marshmallow as ma
from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException

from thirtyone.errors import (
    N_,
    CardError,
    HandError,
    MoveError,
    OptionError,
    StateError,
    ThirtyOneError,
)
from thirtyone.web.i18n import format_message, gettext

PROBLEM_MEDIA_TYPE = "application/problem+json"

_log = logging.getLogger(__name__)

# Titles of the HTTP statuses the API answers with, and a detail for the ones that come
# from routing or the server rather than from a view.
STATUS_TITLES: dict[int, str] = {
    400: N_("Bad request"),
    401: N_("Unauthorized"),
    403: N_("Forbidden"),
    404: N_("Not found"),
    405: N_("Method not allowed"),
    406: N_("Not acceptable"),
    413: N_("Request body too large"),
    415: N_("Unsupported media type"),
    422: N_("Invalid request"),
    500: N_("Internal server error"),
    501: N_("Not implemented"),
}

STATUS_CODES: dict[int, tuple[str, str]] = {
    400: ("bad_request", N_("The request cannot be read.")),
    403: ("forbidden", N_("This request is not allowed.")),
    404: ("not_found", N_("There is nothing at {path}.")),
    405: ("method_not_allowed", N_("{path} does not accept the {method} method.")),
    406: ("not_acceptable", N_("The API answers in JSON only.")),
    413: ("payload_too_large", N_("The request body is larger than {limit} bytes.")),
    415: ("unsupported_media_type", N_("Send the request body as JSON (application/json).")),
    422: ("validation_failed", N_("The request has invalid fields: see errors.")),
    500: ("internal_error", N_("Something went wrong on the server; the request changed nothing.")),
    501: ("not_implemented", N_("The server does not support this request.")),
}

ENGINE_TITLES: dict[type[ThirtyOneError], str] = {
    CardError: N_("Invalid card"),
    OptionError: N_("Invalid rules"),
    HandError: N_("Invalid hand"),
    StateError: N_("Invalid game state"),
    MoveError: N_("Illegal move"),
    ThirtyOneError: N_("Invalid input"),
}


class Problem(Exception):
    """An error response: raise it from a view, or let the handlers build one.

    ``detail`` and every field error's ``detail`` are English templates marked with ``N_``,
    translated and filled with ``params`` when the response is built.
    """

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        /,
        *,
        title: str | None = None,
        errors: Iterable[Mapping[str, Any]] = (),
        headers: Mapping[str, str] | None = None,
        **params: Any,
    ) -> None:
        super().__init__(detail.format(**params))
        self.status = status
        self.code = code
        self.detail = detail
        self.title = title or STATUS_TITLES.get(status, N_("Error"))
        self.errors = list(errors)
        self.headers = dict(headers or {})
        self.params = params

    @classmethod
    def from_engine(cls, error: ThirtyOneError, status: int = 422, *,
                    fields: Mapping[str, str | None] | None = None,
                    prefix: str = "", field: str | None = None) -> Problem:
        """The problem of an engine error; its field named as a path into the request
        (see :func:`request_field` for ``fields`` and ``prefix``), or ``field`` where the
        engine names none."""
        title = next(t for kind, t in ENGINE_TITLES.items() if isinstance(error, kind))
        errors = []
        if error.field:
            field = request_field(error.field, fields or {}, prefix)
        if field:
            errors.append(
                {"field": field, "code": error.code, "detail": error.message,
                 "params": error.params}
            )
        return cls(
            status, error.code, error.message, title=title, errors=errors, **error.params
        )

    @classmethod
    def from_validation(cls, messages: Any, status: int = 422) -> Problem:
        errors = [
            {"field": field, "code": getattr(message, "code", "invalid_field"),
             "detail": message, "params": None}
            for field, message in _flatten(messages)
        ]
        code, detail = STATUS_CODES[422]
        return cls(status, code, detail, errors=errors)

    def to_dict(self) -> dict[str, Any]:
        """The problem document in the request's language."""
        document: dict[str, Any] = {
            "type": f"urn:thirtyone:problem:{self.code}",
            "title": gettext(self.title),
            "status": self.status,
            "detail": format_message(self.detail, self.params),
            "code": self.code,
        }
        if self.errors:
            document["errors"] = [
                {
                    "field": error["field"],
                    "code": error["code"],
                    "detail": format_message(error["detail"], error.get("params")),
                }
                for error in self.errors
            ]
        return document

    def response(self) -> Response:
        body = json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))
        response = Response(body, status=self.status, mimetype=PROBLEM_MEDIA_TYPE)
        for name, value in self.headers.items():
            if name.lower() not in ("content-type", "content-length"):
                response.headers[name] = value
        return response


def request_field(field: str, fields: Mapping[str, str | None], prefix: str = "") -> str | None:
    """An engine's field name (the engine names its own arguments: ``card``, ``seat``,
    ``seats.2.lives``) as a path into the request: its first name replaced as ``fields``
    says (None: the request has no such field), else put after ``prefix``; numbered parts
    as indices (``state.seats[2].lives``)."""
    head = re.split(r"[.\[]", field, maxsplit=1)[0]
    if head in fields:
        target = fields[head]
        if target is None:
            return None
    else:
        target = prefix + head
    return re.sub(r"\.(\d+)(?=[.\[]|$)", r"[\1]", target + field[len(head):])


def _flatten(messages: Any, path: tuple[str, ...] = ()) -> Iterable[tuple[str, str]]:
    """Marshmallow's nested error dict as (dotted field, message) pairs.

    The request location that webargs adds (``json``) is dropped, and so is marshmallow's
    ``_schema`` key for errors about the body as a whole.
    """
    if isinstance(messages, Mapping):
        for key, value in messages.items():
            if isinstance(key, int):
                # List items are keyed by index: "hands[2]", as the engine names them.
                inner = (*path[:-1], f"{path[-1]}[{key}]") if path else (f"[{key}]",)
                yield from _flatten(value, inner)
            elif (not path and key in ("json", "query", "view_args", "path")) or (
                key == "_schema"
            ):
                yield from _flatten(value, path)
            else:
                yield from _flatten(value, (*path, str(key)))
    elif isinstance(messages, list | tuple):
        for message in messages:
            yield from _flatten(message, path)
    else:
        yield ".".join(path), messages if isinstance(messages, str) else str(messages)


def from_http_exception(error: HTTPException) -> Problem:
    """A problem for an HTTP error raised by routing, werkzeug or webargs."""
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    headers = dict(error.get_headers())
    headers.update(data.get("headers") or {})
    if status == 422 and "messages" in data:
        problem = Problem.from_validation(data["messages"])
        problem.headers = headers
        return problem
    code, detail = STATUS_CODES.get(status, ("http_error", N_("The request failed.")))
    return Problem(
        status, code, detail, headers=headers, path=request.path, method=request.method,
        limit=request.max_content_length,
    )


def init_app(app: Flask) -> None:
    """Turn every error into a problem document (the API's HTTPException handler is the Api's)."""

    @app.errorhandler(Problem)
    def handle_problem(problem: Problem) -> Response:
        return problem.response()

    @app.errorhandler(ThirtyOneError)
    def handle_engine_error(error: ThirtyOneError) -> Response:
        return Problem.from_engine(error).response()

    @app.errorhandler(ma.ValidationError)
    def handle_validation_error(error: ma.ValidationError) -> Response:
        return Problem.from_validation(error.messages).response()
