"""Perfect play in the race to 31 (RULES.md §4.13).

Only the values still on the table matter, not their suits, and the running total follows from
them, so a position is the count of cards left of each value, ace (1) to six. :func:`solve`
searches every line of play from a position, remembering each position it settles; at most
5**6 positions exist, so a cold solve from the start takes a fraction of a second.

The source says the first player wins by opening with 5, also with 1 or 2, and that opening
with 3 (aiming at 10, 17, 24, 31) is a trap. The solver agrees on all four:

>>> [(opening["value"], opening["wins"]) for opening in opening_outcomes()]
[(1, True), (2, True), (3, False), (4, False), (5, True), (6, False)]
>>> winning_openings()
(1, 2, 5)
>>> solve(["5H", "5S"]).winning_values
(2,)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from thirtyone.cards import DECKS, Card, parse_card
from thirtyone.errors import N_, CardError, StateError
from thirtyone.game.racing import GOAL
from thirtyone.game.state import GameState

DECK = DECKS["race24"]
VALUES: tuple[int, ...] = tuple(sorted({DECK.value(card) for card in DECK}))
"""The card values of the race, 1 to 6."""
_FULL: tuple[int, ...] = tuple(sum(1 for card in DECK if DECK.value(card) == value)
                               for value in VALUES)


@dataclass(frozen=True, slots=True)
class RaceSolution:
    """What perfect play makes of a position.

    ``wins``: the player to move wins against any defence. ``outcomes``: for each value the
    player may take, whether taking it wins. ``winning_values`` and ``winning_cards`` (the
    cards left on the table of those values) are the winning moves; empty when the player to
    move loses whatever they do, or when the race is over.
    """

    total: int
    wins: bool
    outcomes: tuple[tuple[int, bool], ...]
    winning_values: tuple[int, ...]
    winning_cards: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "wins": self.wins,
            "outcomes": [{"value": value, "wins": wins} for value, wins in self.outcomes],
            "winning_values": list(self.winning_values),
            "winning_cards": list(self.winning_cards),
        }


def solve(position: GameState | Iterable[str | Card]) -> RaceSolution:
    """Solve a race position: a race :class:`~thirtyone.game.GameState`, or the cards taken so
    far (codes or cards, in any order).

    >>> solve([]).wins, solve(["AS", "AH"]).total
    (True, 2)
    >>> solve(["6S", "6H", "6D", "6C", "5S", "2S"]).wins
    False
    """
    taken = _taken(position)
    counts = list(_FULL)
    for card in taken:
        counts[VALUES.index(DECK.value(card))] -= 1
    total = sum(DECK.value(card) for card in taken)
    if total > GOAL:
        raise StateError("bad_total", N_("a race at {total} cannot go on"), field="position",
                         total=total)
    outcomes = tuple(
        (value, total + value == GOAL or not _to_move_wins(_without(tuple(counts), index)))
        for index, value in enumerate(VALUES)
        if counts[index] and total + value <= GOAL and total < GOAL
    )
    winning = tuple(value for value, wins in outcomes if wins)
    left = [card for card in DECK if card not in taken]
    return RaceSolution(
        total=total,
        wins=bool(winning),
        outcomes=outcomes,
        winning_values=winning,
        winning_cards=tuple(card.code for card in left if DECK.value(card) in winning),
    )


def opening_outcomes() -> list[dict[str, Any]]:
    """For each opening value (1 to 6), whether the first player wins with it under perfect
    play, as the rules site shows it."""
    return [{"value": value, "wins": wins} for value, wins in solve([]).outcomes]


def winning_openings() -> tuple[int, ...]:
    """The opening values that win for the first player."""
    return solve([]).winning_values


def full_solve() -> int:
    """Solve every position that can arise in a race, from scratch (the cache is emptied
    first); return how many there are. The benchmark times this."""
    _to_move_wins.cache_clear()
    seen = {_FULL}
    frontier = [_FULL]
    while frontier:
        counts = frontier.pop()
        _to_move_wins(counts)
        total = _total(counts)
        for index, value in enumerate(VALUES):
            if counts[index] and total + value < GOAL:
                child = _without(counts, index)
                if child not in seen:
                    seen.add(child)
                    frontier.append(child)
    return len(seen)


def _taken(position: GameState | Iterable[str | Card]) -> list[Card]:
    if isinstance(position, GameState):
        if position.rules.deck != DECK.id:
            raise StateError("not_a_race", N_("this is not a race to 31"), field="position")
        return list(position.discard)
    if isinstance(position, str):
        position = position.replace(",", " ").split()
    cards = [parse_card(code) for code in position]
    seen: set[Card] = set()
    for card in cards:
        if card not in DECK:
            raise CardError("card_not_in_deck", N_("the card {card} is not in the deck {deck}"),
                            field="position", card=card.code, deck=DECK.id)
        if card in seen:
            raise CardError("duplicate_card", N_("the card {card} is taken twice"),
                            field="position", card=card.code)
        seen.add(card)
    return cards


def _without(counts: tuple[int, ...], index: int) -> tuple[int, ...]:
    return (*counts[:index], counts[index] - 1, *counts[index + 1:])


def _total(counts: tuple[int, ...]) -> int:
    return sum(value * (full - left) for value, full, left in zip(VALUES, _FULL, counts,
                                                                  strict=True))


@functools.cache
def _to_move_wins(counts: tuple[int, ...]) -> bool:
    """Whether the player to move wins when ``counts`` cards of each value are left."""
    total = _total(counts)
    for index, value in enumerate(VALUES):
        if counts[index] and total + value <= GOAL and (
            total + value == GOAL or not _to_move_wins(_without(counts, index))
        ):
            return True
    return False
