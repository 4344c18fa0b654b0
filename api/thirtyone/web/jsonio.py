"""JSON out with orjson, for answers and sealed tokens; JSON in stays with the standard library.

orjson writes JSON several times faster than :mod:`json`, which shows on every answer and every
sealed token. It refuses integers beyond 64 bits (a seed may be one), so those few documents
fall back to :mod:`json`. Reading stays with :mod:`json`: orjson reads such integers as floats,
which would change a seed.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from flask.json.provider import DefaultJSONProvider, _default
from werkzeug import Response

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> bytes:
    """``value`` as compact UTF-8 JSON."""
    try:
        return orjson.dumps(value, default=_default, option=_OPTIONS)
    except TypeError:
        return json.dumps(
            value, default=_default, ensure_ascii=False, separators=(",", ":")
        ).encode()


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON provider, writing with :func:`dumps` (indented output stays Flask's)."""

    sort_keys = False
    ensure_ascii = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs.get("indent") is not None:
            return super().dumps(obj, **kwargs)
        return dumps(obj).decode()

    def response(self, *args: Any, **kwargs: Any) -> Response:
        value = self._prepare_response_obj(args, kwargs)
        return self._app.response_class(dumps(value), content_type=self.mimetype)
