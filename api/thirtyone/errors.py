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

from typing import Any


def N_(message: str) -> str:
    """Mark ``message`` for extraction into the translation catalogs; return it unchanged.

    The engine never translates (it imports no Babel): the web layer looks the same English
    text up in its catalogs.
    """
    return message


class ThirtyOneError(ValueError):
    """Base class of every error the engine raises on bad input."""

    def __init__(
        self, code: str, message: str, /, *, field: str | None = None, **params: Any
    ) -> None:
        self.code = code
        self.message = message
        self.field = field
        self.params = params
        super().__init__(message.format(**params))

    def to_dict(self) -> dict[str, Any]:
        """The error as plain data: ``code``, ``message`` (English), ``field`` and ``params``."""
        return {"code": self.code, "message": str(self), "field": self.field, "params": self.params}


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
