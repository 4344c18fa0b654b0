"""Computer players for every preset: a random, a greedy and a strong one
(:mod:`thirtyone.strong`), by level in :data:`BOTS`.

A bot sees only what a seat may see: it gets the seat's :func:`~thirtyone.game.view` and
the :func:`~thirtyone.game.legal_moves`, and returns one of those moves. :func:`play_match`
plays a match to its end with one bot per seat.

>>> from thirtyone.game import new_game
>>> state = play_match(new_game("scat", 3, seed=7), [GreedyBot(), RandomBot(1), RandomBot(2)])
>>> state.is_over, len(state.winners) >= 1
(True, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from thirtyone.errors import N_, OptionError
from thirtyone.game import GameState, Move, apply_move, legal_moves, view
from thirtyone.policy import STAND_AT, Judge, KnockPolicy, forced_move
from thirtyone.strong import StrongBot


class Bot(Protocol):
    uses_view: bool

    def choose(self, seen: Mapping[str, Any] | None, moves: Sequence[Move]) -> Move:
        """One of ``moves``, for the seat whose view is ``seen``."""
        ...


class RandomBot:
    """Picks any legal move, uniformly, from its own seeded generator."""

    uses_view = False

    def __init__(self, seed: int | str | None = None) -> None:
        self._random = random.Random(seed)

    def choose(self, seen: Mapping[str, Any] | None, moves: Sequence[Move]) -> Move:
        return self._random.choice(moves)


class GreedyBot:
    """Plays the judging policy (:class:`~thirtyone.policy.Judge`): keeps the best three
    cards it can make, knocks at the fitted threshold (or ``knock_at`` when given: one number,
    one per count of turns each, or a whole :class:`~thirtyone.policy.KnockPolicy`).

    It takes the discard (or table cards) when that improves its hand, otherwise draws from
    the stock (or, where a turn may pass, passes); discards the card whose loss costs least;
    stands (or passes) in its final turn when its hand is worth at least ``stand_at``; always
    takes a sure 31. In the race it plays the exact solver's move. Moves it cannot judge (a
    widow game's declaration, say) it picks at random.
    """

    uses_view = True

    def __init__(self, knock_at: float | Sequence[float] | KnockPolicy | None = None,
                 stand_at: float = STAND_AT,
                 seed: int | str | None = None) -> None:
        self.knock_at = knock_at
        self.stand_at = stand_at
        self._random = random.Random(seed)

    def choose(self, seen: Mapping[str, Any] | None, moves: Sequence[Move]) -> Move:
        assert seen is not None
        if (forced := forced_move(seen["discard"], moves)) is not None:
            return forced
        judge = Judge.of_view(seen, knock_at=self.knock_at, stand_at=self.stand_at)
        values = judge.values(moves)
        judged = [(value, index) for index, value in enumerate(values) if value > -math.inf]
        if not judged:
            return self._random.choice(moves)
        return moves[max(judged)[1]]


def play_match(state: GameState, bots: Sequence[Bot], *, max_moves: int = 1_000_000) -> GameState:
    """Play ``state`` to the end of the match, ``bots[seat]`` moving for each seat (the
    dealer's bot deals the next round); stops after ``max_moves`` moves."""
    for _ in range(max_moves):
        if state.is_over:
            break
        seat = state.to_move
        bot = bots[state.dealer if seat is None else seat]
        moves = legal_moves(state)
        seen = view(state, seat) if bot.uses_view else None
        state, _ = apply_move(state, bot.choose(seen, moves))
    return state


BOTS: dict[str, Callable[[int | str | None], Bot]] = {
    "random": RandomBot,
    "greedy": lambda seed: GreedyBot(seed=seed),
    "strong": lambda seed: StrongBot(seed=seed),
}
"""The bot levels a seat may be given, by name: each builds a bot from a seed."""


def make_bot(level: str, seed: int | str | None = None) -> Bot:
    """The bot of ``level`` (a key of :data:`BOTS`), drawing its choices from ``seed``.

    >>> make_bot("greedy", 7).uses_view, make_bot("random", 7).uses_view
    (True, False)
    """
    try:
        factory = BOTS[level]
    except KeyError:
        raise OptionError("bad_bot", N_("there is no bot level {level!r}"), field="bot",
                          level=level) from None
    return factory(seed)
