r"""JSON with orjson, for request bodies, answers and sealed tokens (and :func:`deflate`,
which compresses the tokens and the stored states).

orjson writes JSON several times faster than :mod:`json`, which shows on every answer and every
sealed token. It refuses integers beyond 64 bits (a seed may be one), so those few documents
fall back to :mod:`json`.

Reading goes through orjson too, for its strictness more than its speed: it refuses a lone
surrogate (``"\ud800"``, which no answer could write back as UTF-8), NaN and Infinity, and
nesting deeper than 1,024 levels, all with a :class:`ValueError`, where :mod:`json` accepts
the first two and overflows the stack on the third. orjson reads integers beyond 64 bits as
floats, which would change a seed: a body holding a run of 19 digits or more is read again with
:mod:`json`, once orjson has found it sound. The run is found with :meth:`bytes.translate`
(every digit made ``0``, every other byte a space) and a substring search: a tenth of a
regular expression's time on a sealed state.

>>> loads(b'{"seed": 123456789012345678901234567890}')
{'seed': 123456789012345678901234567890}
>>> dumps({"seed": 123456789012345678901234567890, 2: [{3: None}]})
b'{"seed":123456789012345678901234567890,"2":[{"3":null}]}'
>>> dumps({1: "a", "b": [{2: None}]}) == orjson.dumps({"1": "a", "b": [{"2": None}]})
True
>>> loads(rb'{"seed": "\ud800"}')
Traceback (most recent call last):
...
orjson.JSONDecodeError: no low surrogate in string: line 1 column 11 (char 10)
"""

from __future__ import annotations

import json
import zlib
from typing import Any

import orjson
from flask import Response, current_app
from flask.json.provider import DefaultJSONProvider

_OPTIONS = orjson.OPT_NON_STR_KEYS
_DIGITS = bytes(0x30 if 0x30 <= byte <= 0x39 else 0x20 for byte in range(256))
_LONG_INTEGER = b"0" * 19


def loads(data: bytes) -> Any:
    """The value of a JSON document; a :class:`ValueError` when it is not strict JSON (see the
    module docstring)."""
    value = orjson.loads(data)
    if len(data) >= 19 and _LONG_INTEGER in data.translate(_DIGITS):
        return json.loads(data)
    return value


def dumps(value: Any) -> bytes:
    """``value`` as compact UTF-8 JSON."""
    try:
        # Without OPT_NON_STR_KEYS first: it checks every key's type, 40% more time on a
        # sealed state (callgrind: 74k instructions against 44k), and hardly any document
        # has other keys than strings; those few are written by the second call, to the
        # same bytes.
        return orjson.dumps(value, default=DefaultJSONProvider.default)
    except TypeError:
        pass
    try:
        return orjson.dumps(value, default=DefaultJSONProvider.default, option=_OPTIONS)
    except TypeError:
        return json.dumps(
            value, default=DefaultJSONProvider.default, ensure_ascii=False, separators=(",", ":")
        ).encode()


def deflate(document: bytes) -> bytes:
    """``document`` compressed by zlib's fastest level, with a 4 KB window: as short as with
    zlib's default window for the few kilobytes of a state, at a seventh of the time
    (``zlib.compress(document, 1)``: 52 us against 8 us on a 2.7 KB state, most of it
    setting up and clearing its 256 KB of tables). Any zlib decompressor reads it."""
    compressor = zlib.compressobj(1, zlib.DEFLATED, 12, 5)
    return compressor.compress(document) + compressor.flush()


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON provider, writing with :func:`dumps` (indented output stays Flask's)."""

    sort_keys = False
    ensure_ascii = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs.get("indent") is not None:
            return super().dumps(obj, **kwargs)
        return dumps(obj).decode()

    def response(self, *args: Any, **kwargs: Any) -> Response:
        """``jsonify``'s answer, written with :func:`dumps`: one value, a list of the
        positional arguments, or an object of the keyword ones."""
        if args and kwargs:
            raise TypeError("jsonify() takes either args or kwargs, not both")
        value = (args[0] if len(args) == 1 else list(args)) if args else (kwargs or None)
        return current_app.response_class(dumps(value), content_type=self.mimetype)
