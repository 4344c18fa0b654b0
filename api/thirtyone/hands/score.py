"""What scoring a hand gives: a :class:`HandScore` (and its plain data, :class:`ScoreData`),
and the names of the hand categories."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict, TypeGuard

from thirtyone.cards import Card, CardCode
from thirtyone.errors import N_
from thirtyone.hands.basis import Basis

CATEGORY_NAMES: dict[str, str] = {
    "blitz": N_("Blitz"),
    "three-aces": N_("Three aces"),
    "three-of-a-kind": N_("Three of a kind"),
    "suit": N_("Cards of one suit"),
    "same-rank": N_("Cards of one rank"),
    "high-card": N_("High card"),
    "running-flush": N_("Running flush"),
    "run": N_("Run"),
    "flush": N_("Flush"),
    "pair": N_("Pair"),
}
"""The English name of every hand category, by category id."""


class ScoreData(TypedDict):
    """A :class:`HandScore` as plain data (:meth:`HandScore.to_dict`)."""

    points: int | float
    category: str
    suit: str | None
    counted: list[CardCode]
    cards: list[CardCode]
    wild: dict[CardCode, CardCode]


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class HandScore:
    """The value of one hand under one rule set.

    ``points`` is an int, or 30.5 for three of a kind where it is worth 30½; ``category`` is a
    key of :data:`CATEGORY_NAMES`; ``suit`` is the counted suit's letter (``None`` when no
    suit counts); ``counted`` holds the cards that make the value and ``cards`` the whole hand,
    highest first, a wild card in the place of the card it stands for; ``wild`` maps each wild
    card's code to the code of that card (read-only); ``strength`` grows with the hand's worth.
    With the brag ranking ``points`` is the hand's usual count, shown for information only.

    Scores compare with ``<`` and ``==`` by the rule set's order, tie-break included: equal
    scores are tied hands, whatever their cards. Only scores of the same hand rules compare.

    >>> from thirtyone.hands import score_hand
    >>> score_hand("AS KS QS", "schnautz") > score_hand("AH KH JH", "schnautz")
    True
    >>> score_hand("AS KS QS") == score_hand("AH KH JH")
    True
    """

    points: int | float
    category: str
    suit: str | None
    counted: tuple[Card, ...]
    cards: tuple[Card, ...]
    wild: Mapping[str, str]
    is_blitz: bool
    strength: int
    basis: Basis = field(repr=False)
    """The hand rules the score belongs to; only scores of equal bases compare."""

    def to_dict(self) -> ScoreData:
        """The score as plain JSON-able data.

        >>> from thirtyone.hands import score_hand
        >>> score_hand("AS KS X1", "jokers").to_dict()
        {'points': 31, 'category': 'blitz', 'suit': 'S', 'counted': ['AS', 'KS', 'X1'],
         'cards': ['AS', 'KS', 'X1'], 'wild': {'X1': 'QS'}}
        """
        return {
            "points": self.points,
            "category": self.category,
            "suit": self.suit,
            "counted": [card.code for card in self.counted],
            "cards": [card.code for card in self.cards],
            "wild": dict(self.wild),
        }

    def _comparable(self, other: object) -> TypeGuard[HandScore]:
        return isinstance(other, HandScore) and (
            other.basis is self.basis or other.basis == self.basis
        )

    def __eq__(self, other: object) -> bool:
        if not self._comparable(other):
            return NotImplemented
        return self.strength == other.strength

    def __lt__(self, other: HandScore) -> bool:
        if not self._comparable(other):
            return NotImplemented
        return self.strength < other.strength

    def __le__(self, other: HandScore) -> bool:
        if not self._comparable(other):
            return NotImplemented
        return self.strength <= other.strength

    def __gt__(self, other: HandScore) -> bool:
        if not self._comparable(other):
            return NotImplemented
        return self.strength > other.strength

    def __ge__(self, other: HandScore) -> bool:
        if not self._comparable(other):
            return NotImplemented
        return self.strength >= other.strength

    def __hash__(self) -> int:
        return hash(self.strength)

    # Scores are immutable and shared by the table: a copy is the score itself (and a pickled
    # score comes back as the table's own: see thirtyone.hands.evaluators).
    def __copy__(self) -> HandScore:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> HandScore:
        return self

    def __repr__(self) -> str:
        wild = f", wild={dict(self.wild)!r}" if self.wild else ""
        counted = " ".join(card.code for card in self.counted)
        return (
            f"HandScore(points={self.points!r}, category={self.category!r}, "
            f"suit={self.suit!r}, counted={counted!r}{wild})"
        )
