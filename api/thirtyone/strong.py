"""The strong computer player: the playout policy, improved by the advice where it is sure.

:class:`StrongBot` sees only its seat's view, like every bot. On each decision it keeps a
shortlist of the legal moves (the playout policy's favourites, plus the stand, pass or
declaration, which the policy judges by fixed values; a knock only when the policy knocks,
but always in the widow family, see :data:`ALWAYS_CONSIDERED`) and values them on up to
``samples`` worlds (:func:`~thirtyone.advice.evaluate`): a number of worlds per preset
(:data:`WORLDS`), never a time, so that the same seed and view give the same move on any
machine and under any load. It plays the policy's own move unless another one does better
world by world, by more than ``margin`` standard errors of the difference: a few dozen
playouts are noisy, and a move picked on noise alone loses to the plain policy. In the race
to 31, where nothing is hidden, it plays perfectly with the solver
(:func:`~thirtyone.policy.race_move`).

>>> from thirtyone.bots import GreedyBot, play_match
>>> from thirtyone.game import new_game
>>> strong = StrongBot(seed=1, samples=8)   # 8 worlds a decision: a quick example
>>> state = play_match(new_game("scat", 2, seed=4), [strong, GreedyBot(seed=2)])
>>> state.is_over
True
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from thirtyone.advice import evaluate
from thirtyone.game import Move
from thirtyone.game.operations import Declare, Join, Knock, Operation, Pass, Stand, is_move
from thirtyone.policy import SURE, Judge, forced_move
from thirtyone.rules import Family

ALWAYS_CONSIDERED: tuple[type[Operation[Any]], ...] = (Stand, Pass, Declare, Join)
"""Moves the shortlist keeps whatever the playout policy thinks of them. Not the knock: the
playouts after going on play the policy's moves, which the bot itself betters, so going on is
valued below what the bot makes of it and a knock the policy would not make looks better than
it is. In two-player Scat against the greedy bot (120 seeded matches), the bot won 77.5% with
the policy's move in place of such a knock, and its knocks alone (the policy's other moves)
won 62.5%."""

KNOCK_ALWAYS_CONSIDERED = frozenset({Family.WIDOW})
"""Families in which the shortlist keeps the knock whatever the policy thinks of it. Their
rounds last a few turns (the policy knocks at 21 to 25 points), so the undervalued going on
(see :data:`ALWAYS_CONSIDERED`) weighs little, and a knock the policy would not make is
often right: in two-player Schwimmen against the greedy bot (300 seeded matches) the bot won
72.0% with it against 69.7% without (of the 13 matches whose winner changed, 10 went its
way)."""

WORLDS = 32
"""The worlds a decision samples, unless :data:`PRESET_WORLDS` says otherwise."""
PRESET_WORLDS: dict[str, int] = {
    "eenendertigen": 60, "scat": 72, "schwimmen": 48, "stop-the-bus": 48,
    "cut-throat": 44, "no-elimination": 44, "blitz": 40, "no-trips": 40, "schnautz": 21,
    "switch": 18, "bank": 17, "jokers": 15, "trentuno": 8,
}
"""Worlds per decision where a preset's playouts cost less or more (short or long rounds, few
or many moves a turn): what keeps the median decision under 50 ms of CPU, as
``benchmarks/bots.py --effort`` measured it. The draw family's playouts play its plain turns
on the cards alone (:mod:`thirtyone.playout`), so it samples most; Trentuno's rounds have no
knock to cut them short, so it samples fewest."""


def worlds_for(variant: str) -> int:
    """The worlds the strong bot samples per decision in ``variant``."""
    return PRESET_WORLDS.get(variant, WORLDS)


class StrongBot:
    """Plays the policy's move, or a better one of a shortlist of ``width`` moves by the
    advice on ``samples`` worlds (by default :func:`worlds_for` the preset)."""

    uses_view = True

    def __init__(self, seed: int | str | None = None, *, samples: int | None = None,
                 width: int = 3, margin: float = 1.0) -> None:
        self.margin = margin
        self.samples = samples
        self.width = width
        self._random = random.Random(seed)

    def choose(self, seen: Mapping[str, Any] | None, moves: Sequence[Move]) -> Move:
        assert seen is not None
        if (forced := forced_move(seen["discard"], moves)) is not None:
            return forced
        seed = self._random.getrandbits(32)
        judge = Judge.of_view(seen)
        judged = judge.values(moves)
        if max(judged) >= SURE:
            return moves[judged.index(max(judged))]  # a sure 31: nothing can do better
        ranked = sorted((index for index, move in enumerate(moves)
                         if not is_move(move, Knock) or judged[index] > -math.inf),
                        key=lambda index: -judged[index])
        keep = set(ranked[:self.width])
        considered = ALWAYS_CONSIDERED + (
            (Knock,) if judge.rules.family in KNOCK_ALWAYS_CONSIDERED else ())
        keep.update(index for index, move in enumerate(moves) if is_move(move, considered))
        shortlist = [moves[index] for index in sorted(keep)]
        base = shortlist.index(moves[ranked[0]])
        samples = self.samples or worlds_for(judge.rules.variant)
        evaluation = evaluate(seen, samples, seed, moves=shortlist)
        if evaluation.exact is not None:
            exact = evaluation.exact
            return shortlist[base if exact[base] >= max(exact) else exact.index(max(exact))]
        return shortlist[self._improve(base, evaluation.worlds)]

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

