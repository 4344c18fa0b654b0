"""Seeded, counter-based randomness: the same seed gives the same deals everywhere.

The generator is specified here so any implementation can reproduce a game. Block ``k`` of
the stream named ``label`` for ``seed`` is::

    SHA-256( UTF-8(str(seed)) || 0x00 || UTF-8(label) || 0x00 || k as 8 bytes big-endian )

Each block gives four 64-bit big-endian words, read in order. A number below ``n`` is the
first word ``w`` with ``w < 2**64 - 2**64 % n`` (rejection keeps it unbiased), taken
``w % n``. A shuffle is Fisher-Yates over the deck in canonical order: for ``i`` from the last
position down to 1, swap position ``i`` with position ``below(i + 1)``. Python's ``random`` is
never used, so neither the Python version nor the machine changes a deal.

>>> from thirtyone.cards import DECKS
>>> [card.code for card in shuffled(DECKS["race24"].cards, "seed", "deal:1")[:5]]
['2C', 'AD', '6D', '2D', '3D']
>>> below_stream = Stream("seed", "first-dealer:0")
>>> [below_stream.below(6) for _ in range(5)]
[5, 1, 0, 1, 1]
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import Sequence
from typing import TypeGuard, TypeVar

T = TypeVar("T")

_WORD = 1 << 64


SEED_LENGTH = 200
"""The longest seed, in characters (digits for a number)."""


def is_seed(value: object) -> TypeGuard[int | str]:
    """Whether ``value`` may seed a match: a number or a text of up to 200 characters.

    >>> is_seed("abc"), is_seed(10**199), is_seed(10**200), is_seed(True), is_seed(1.5)
    (True, True, False, False, False)
    """
    if isinstance(value, str):
        return len(value) <= SEED_LENGTH
    # Compared, not measured with str(): that conversion is refused beyond 4,300 digits.
    return isinstance(value, int) and not isinstance(value, bool) and (
        abs(value) < 10**SEED_LENGTH
    )


def fresh_seed() -> str:
    """A new unpredictable seed, for a game started without one."""
    return secrets.token_hex(16)


class Stream:
    """The stream of unbiased numbers named ``label`` for ``seed``."""

    __slots__ = ("_base", "_block", "_words")

    def __init__(self, seed: int | str, label: str) -> None:
        self._base = hashlib.sha256(f"{seed}\x00{label}\x00".encode())
        self._block = 0
        self._words: list[int] = []

    def below(self, n: int) -> int:
        """A number in ``range(n)``, every value equally likely."""
        limit = _WORD - _WORD % n
        words = self._words
        while True:
            if not words:
                digest = self._base.copy()
                digest.update(self._block.to_bytes(8, "big"))
                self._block += 1
                # Popped from the end, so stored last-first.
                words.extend(reversed(_FOUR_WORDS.unpack(digest.digest())))
            word = words.pop()
            if word < limit:
                return word % n


_FOUR_WORDS = struct.Struct(">4Q")


def shuffled(items: Sequence[T], seed: int | str, label: str) -> tuple[T, ...]:
    """``items`` in the order of the seeded Fisher-Yates shuffle named ``label``."""
    order = list(items)
    below = Stream(seed, label).below
    for i in range(len(order) - 1, 0, -1):
        j = below(i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)
