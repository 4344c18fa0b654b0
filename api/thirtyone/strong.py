"""The strong computer player: the playout policy, improved by the advice where it is sure.

:class:`StrongBot` sees only its seat's view, like every bot. On each decision it keeps a
shortlist of the legal moves (the playout policy's favourites, plus the knock, stand, pass or
declaration, which the policy judges by fixed values) and values them on up to ``samples``
worlds (:func:`~thirtyone.advice.sample_values`), sampling no longer than its time ``budget``
per move. It plays the policy's own move unless another one does better world by world, by
more than ``margin`` standard errors of the difference: a few dozen playouts are noisy, and a
move picked on noise alone loses to the plain policy. In the race to 31, where nothing is
hidden, it plays perfectly with the solver.

>>> from thirtyone.bots import GreedyBot, play_match
>>> from thirtyone.game import new_game
>>> state = play_match(new_game("scat", 2, seed=4), [StrongBot(seed=1), GreedyBot(seed=2)])
>>> state.is_over
True
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Mapping, Sequence
from typing import Any

from thirtyone.advice import Move, WorldDealer, judge_moves, sample_values
from thirtyone.race import solve
from thirtyone.rules import Settlement

ALWAYS_CONSIDERED = frozenset({"knock", "stand", "pass", "declare", "join"})
"""Moves the shortlist keeps whatever the playout policy thinks of them."""


class StrongBot:
    """Plays the policy's move, or a better one of a shortlist of ``width`` moves by the
    advice on ``samples`` worlds, or as many as ``budget`` seconds allow."""

    uses_view = True

    def __init__(self, seed: int | str | None = None, *, budget: float = 0.05,
                 samples: int = 48, width: int = 3, margin: float = 1.0) -> None:
        self.budget = budget
        self.margin = margin
        self.samples = samples
        self.width = width
        self._random = random.Random(seed)

    def choose(self, seen: Mapping[str, Any] | None, moves: Sequence[Move]) -> Move:
        assert seen is not None
        if len(moves) == 1:
            return moves[0]
        if moves[0]["type"] == "take":
            return _race_move(seen, moves)
        deadline = time.perf_counter() + self.budget
        seed = self._random.getrandbits(32)
        world = WorldDealer(seen)(random.Random(seed))
        judged = judge_moves(world, moves)
        ranked = sorted(range(len(moves)), key=lambda index: -judged[index])
        keep = set(ranked[:self.width])
        keep.update(index for index, move in enumerate(moves)
                    if move["type"] in ALWAYS_CONSIDERED)
        shortlist = [moves[index] for index in sorted(keep)]
        base = shortlist.index(moves[ranked[0]])
        # Losing two lives as a knocker is worse than one, and another seat's loss is a gain:
        # in lives games the bot weighs the lives lost rather than its chance to lose none.
        measure = "lives" if world.rules.settlement == Settlement.LIVES else None
        _, _, values = sample_values(seen, self.samples, seed, moves=shortlist,
                                     deadline=deadline, measure=measure)
        return shortlist[self._improve(base, values)]

    def _improve(self, base: int, values: Sequence[Sequence[float]]) -> int:
        """The move that beats ``base`` by the widest margin, world by world, when that margin
        is more than ``margin`` standard errors; else ``base``."""
        chosen, best = base, 0.0
        count = len(values[base])
        if count < 2:
            return base
        for index, worlds in enumerate(values):
            if index == base:
                continue
            gains = [a - b for a, b in zip(worlds, values[base], strict=True)]
            mean = statistics.fmean(gains)
            error = statistics.stdev(gains, mean) / math.sqrt(count)
            if mean > best and mean > self.margin * error:
                chosen, best = index, mean
        return chosen


def _race_move(seen: Mapping[str, Any], moves: Sequence[Move]) -> Move:
    """A winning card when there is one (the race is solved), else the first move."""
    solution = solve(seen["discard"])
    for move in moves:
        if move["card"] in solution.winning_cards:
            return move
    return moves[0]
