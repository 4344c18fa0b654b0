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

import random
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from typing import Any, Protocol

from thirtyone.cards import Card, parse_card
from thirtyone.errors import N_, OptionError
from thirtyone.game import GameState, apply_move, legal_moves, view
from thirtyone.hands import HandScore, evaluator
from thirtyone.rules import make_rules
from thirtyone.strong import StrongBot

Move = Mapping[str, Any]
"""A move as the bots read it: any move of :data:`thirtyone.game.Move`, or one from a view."""


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
    """Keeps the best three cards it can make and knocks at ``knock_at`` points or more.

    It takes the discard (or table cards) when that improves its hand, otherwise draws from
    the stock (or, where a turn may pass, passes); discards the card whose loss costs least;
    stands (or passes) in its final turn when its hand is worth at least ``stand_at``. In the
    race it makes 31 when it can and avoids leaving the opponent a card that makes 31. Moves
    it cannot judge (a widow game's declaration, say) it picks at random.
    """

    uses_view = True

    def __init__(self, knock_at: float = 25, stand_at: float = 20,
                 seed: int | str | None = None) -> None:
        self.knock_at = knock_at
        self.stand_at = stand_at
        self._random = random.Random(seed)

    def choose(self, seen: Mapping[str, Any] | None, moves: Sequence[Move]) -> Move:
        assert seen is not None
        if len(moves) == 1:
            return moves[0]
        rules = make_rules(seen["rules"]["variant"], seen["rules"]["options"])
        if moves[0]["type"] == "take":
            return self._race(seen, moves, rules.deck_cards.value)
        score = evaluator(rules).score
        hand = [parse_card(code) for code in seen["hands"][seen["turn"]]]
        judged = [(value, index) for index, move in enumerate(moves)
                  if (value := self._judge(seen, move, hand, score)) is not None]
        if not judged:
            return self._random.choice(moves)
        return moves[max(judged)[1]]

    def _judge(self, seen: Mapping[str, Any], move: Move, hand: list[Card],
               score: Callable[[Any], HandScore]) -> float | None:
        """How good ``move`` looks (higher is better), or ``None`` when it cannot tell."""
        kind = move["type"]
        if kind == "discard":
            card = parse_card(move["card"])
            return _points(score([held for held in hand if held is not card]))
        now = _points(_best(hand, score))
        if kind == "knock":
            return 100.0 if now >= self.knock_at else None
        if kind == "pass" and seen["phase"] == "exchange":
            # Schwimmen's pass keeps the hand: a stand after a knock; before one, worth what
            # the hand is worth, so preferred to an exchange that gains nothing (it comes
            # after them in the list).
            kind = "stand" if seen["knocker"] is not None else kind
            if kind == "pass":
                return now
        if kind == "stand":
            return 50.0 if now >= self.stand_at else now - 2
        if kind == "draw" and move["source"] == "discard":
            top = parse_card(seen["discard"][-1])
            gain = _points(_best([*hand, top], score)) - now
            return now + gain if gain > 0 else now - 1
        if kind == "draw":
            return now - 0.5
        if kind == "exchange":
            table = seen["table"]
            taken = [table[position] for position in move["take"]]
            if None in taken:
                return now - 0.75
            given = {parse_card(code) for code in move["give"]}
            kept = [held for held in hand if held not in given]
            return _points(_best([*kept, *map(parse_card, taken)], score))
        return None

    def _race(self, seen: Mapping[str, Any], moves: Sequence[Move],
              worth: Callable[[Card], int]) -> Move:
        total = sum(worth(parse_card(code)) for code in seen["discard"])
        left = [worth(parse_card(code)) for code in seen["table"]]
        safe = []
        for move in moves:
            value = worth(parse_card(move["card"]))
            if total + value == 31:
                return move
            rest = list(left)
            rest.remove(value)
            if 31 - total - value not in rest:
                safe.append(move)
        return self._random.choice(safe or list(moves))


def _points(score: HandScore) -> float:
    return float(score.points)


def _best(cards: Sequence[Card], score: Callable[[Any], HandScore]) -> HandScore:
    if len(cards) == 3:
        return score(cards)
    return max(score(trio) for trio in combinations(cards, 3))


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
