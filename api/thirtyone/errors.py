"""Errors raised by the engine.

Every error carries a stable ``code`` (for programs), an English ``message`` template
(marked for translation, so the web layer can localize it), the ``params`` that fill the
template, and, where one input was at fault, the ``field`` that names it.

>>> from thirtyone import parse_card
>>> try:
...     parse_card("ZZ")
... except CardError as error:
...     print(error.code, error.params, error)
bad_card {'card': 'ZZ'} not a card: 'ZZ'
"""

from __future__ import annotations

import reprlib
from typing import Any

_SHOWN = reprlib.Repr()
_SHOWN.maxlevel, _SHOWN.maxlist, _SHOWN.maxdict = 2, 8, 8
_SHOWN.maxstring = _SHOWN.maxother = _SHOWN.maxlong = 60
_TEXT_LIMIT = 80


def N_(message: str) -> str:
    """Mark ``message`` for extraction into the translation catalogs; return it unchanged.

    The engine never translates (it imports no Babel): the web layer looks the same English
    text up in its catalogs.
    """
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a message with plural forms for extraction (``ngettext`` picks the form by the
    count once the language is known); return both forms unchanged."""
    return singular, plural


class ThirtyOneError(ValueError):
    """Base class of every error the engine raises on bad input."""

    def __init__(
        self, code: str, message: str, /, *, field: str | None = None, **params: Any
    ) -> None:
        self.code = code
        self.message = message
        self.field = field
        self.params = {key: _bounded(value) for key, value in params.items()}
        super().__init__(message.format(**self.params))

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled whole (a server computes hints in other processes): the default would call
        # the class with the formatted message alone.
        return _rebuild, (type(self), self.code, self.message, self.field, self.params)

    def to_dict(self) -> dict[str, Any]:
        """The error as plain data: ``code``, ``message`` (English), ``field`` and ``params``."""
        return {"code": self.code, "message": str(self), "field": self.field, "params": self.params}


def _rebuild(cls: type[ThirtyOneError], code: str, message: str, field: str | None,
             params: dict[str, Any]) -> ThirtyOneError:
    return cls(code, message, field=field, **params)


def _bounded(value: Any) -> Any:
    """A parameter small enough to show: a long text cut short, a deep or long container or a
    huge number as a short repr. Bad input is quoted back in messages, and a 1 MB or deeply
    nested value must neither come back whole nor overflow the stack of ``repr``.
    """
    if isinstance(value, str):
        return value if len(value) <= _TEXT_LIMIT else value[:_TEXT_LIMIT] + "…"
    if isinstance(value, bool | float | None):
        return value
    if isinstance(value, int):
        return value if value.bit_length() <= 64 else _SHOWN.repr(value)
    if isinstance(value, list | tuple) and len(value) <= 16 and all(
        isinstance(item, str | int | None) and not isinstance(item, bool)
        and _bounded(item) == item for item in value
    ):
        return value
    return _SHOWN.repr(value)


class CardError(ThirtyOneError):
    """A card code that cannot be read, a duplicate card, or a card not in the deck."""


class OptionError(ThirtyOneError):
    """An unknown variant or option, a bad option value, or options that cannot go together."""


class HandError(ThirtyOneError):
    """A hand of the wrong size."""


class StateError(ThirtyOneError):
    """A game state that is malformed or inconsistent."""


class MoveError(ThirtyOneError):
    """A move that is malformed or not legal in the current state."""
