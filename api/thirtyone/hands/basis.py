"""The options that decide what a hand is worth (:data:`SCORING_OPTIONS`), gathered in one
:class:`Basis`: rule sets that agree on them share one scoring table."""

from __future__ import annotations

import functools
import operator
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from thirtyone.rules import (
    BlitzHand,
    BragOrder,
    Fire,
    HandRanking,
    Rules,
    ThreeOfAKind,
    TieBreak,
    WildCards,
)

HAND_SIZE = 3

SCORING_OPTIONS: tuple[str, ...] = (
    "deck", "values", "three_of_a_kind", "trips_equal", "count_same_rank", "three_aces", "wild",
    "joker_card", "tie_break", "suit_order", "blitz", "ranking", "three_aces_fire", "brag_order",
    "fire",
)
"""The options that change what a hand is worth, the one list the tables are keyed by: rule
sets that agree on these share a table, whatever their other options. An option that changes
scoring is added here (and read in :meth:`Basis.of`)."""
_hand_options = operator.attrgetter(*SCORING_OPTIONS)


@dataclass(frozen=True, slots=True)
class Basis:
    """The options that decide hand values; rule sets that agree on them share one table.

    Options that cannot matter under the others are left out (``None``), so that, for
    example, every suit order gives the same table unless the tie-break is by suit.
    """

    deck: str
    ace_value: int
    three_of_a_kind: ThreeOfAKind
    trips_equal: bool
    count_same_rank: bool
    three_aces: int | None
    wild: WildCards
    joker_card: str | None
    tie_break: TieBreak
    suit_order: str | None
    blitz: BlitzHand
    ranking: HandRanking
    three_aces_fire: bool
    brag_order: BragOrder | None
    fire: Fire
    """Which hands are Feuer: none, three aces (``three_aces_fire``), or any three of a kind."""

    @classmethod
    def of(cls, rules: Mapping[str, Any]) -> Basis:
        """The basis of the hand options ``rules`` (by option name)."""
        return cls(
            deck=rules["deck"],
            ace_value=1 if rules["values"] == "race" else 11,
            three_of_a_kind=rules["three_of_a_kind"],
            trips_equal=rules["trips_equal"],
            count_same_rank=rules["count_same_rank"],
            three_aces=rules["three_aces"],
            wild=rules["wild"],
            joker_card=(
                rules["joker_card"]
                if rules["wild"] == "jokers" and rules["deck"] == "short36" else None
            ),
            tie_break=rules["tie_break"],
            suit_order=rules["suit_order"] if rules["tie_break"] == "suit" else None,
            blitz=rules["blitz"],
            ranking=rules["ranking"],
            three_aces_fire=rules["three_aces_fire"] and rules["three_aces"] is not None,
            brag_order=rules["brag_order"] if rules["ranking"] == "brag" else None,
            fire=rules["fire"],
        )


def basis_of(rules: Rules) -> Basis:
    # Game code asks for an evaluator on every move: reading the hand options with attrgetter
    # and caching the basis by them is much cheaper than hashing a whole Rules.
    return _basis(_hand_options(rules))


@functools.lru_cache(maxsize=256)
def _basis(options: tuple[Any, ...]) -> Basis:
    return Basis.of(dict(zip(SCORING_OPTIONS, options, strict=True)))
