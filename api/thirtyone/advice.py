"""Move advice: what each legal move is worth to one seat, from what that seat may see.

:func:`advise` reads only the seat's :func:`~thirtyone.game.view` of the state. It deals the
cards the seat cannot see (the other hands, the stock, face-down table cards, cards out of
play) at random, consistently with what every seat knows of the round
(:mod:`thirtyone.worlds`). In each of these worlds every legal move is played, then the round
is played out by the judging policy for every seat (:mod:`thirtyone.playout`); the same worlds
serve every move, so the moves are compared on equal cards. Where enumeration is cheap the
values are exact instead (``exact``, no sampling): the race to 31 (its solver) and the last
turn of a round after a knock against the knocker's hand (:mod:`thirtyone.exact`). What a
round is worth depends on the match (:func:`measure_of`):

- ``match``, lives games: the chance of winning the match, from the lives each seat has left
  once the round is settled (:func:`match_chance`);
- ``chips``, pot games: the chips won (or lost, when negative) by the end of the deal;
- ``points``, points games: the points scored this round;
- ``win``, the race to 31: the chance of winning.

The advice is the same for the same view, ``samples`` and ``seed``.

>>> from thirtyone.game import new_game
>>> state = new_game("scat", 2, seed=3, dealer=0)
>>> advice = advise(state, 1, samples=20, seed=1)
>>> advice.measure, advice.samples, [entry.move["type"] for entry in advice.moves]
('match', 20, ['draw', 'draw', 'knock'])
>>> 0 <= advice.best.value <= 1
True
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from thirtyone.errors import N_, StateError
from thirtyone.exact import final_turn_values
from thirtyone.game import GameState, Phase, apply_move, legal_moves, view
from thirtyone.game.operations import Take, is_move
from thirtyone.playout import play_out
from thirtyone.policy import Move
from thirtyone.race import solve
from thirtyone.rules import Rules, Settlement
from thirtyone.worlds import WorldDealer

MEASURES: dict[Settlement, str] = {
    Settlement.LIVES: "match",
    Settlement.POT: "chips",
    Settlement.ESCALATING: "chips",
    Settlement.POINTS: "points",
    Settlement.NONE: "win",
}
"""What a move's value counts, by the match's settlement (see the module docstring)."""

MEASURE_TEXTS: dict[str, str] = {
    "match": N_("the chance of winning the match"),
    "chips": N_("the chips won or lost by the end of the deal"),
    "points": N_("the points scored this round"),
    "win": N_("the chance of winning"),
}
"""Each measure in words (translated by the catalogs)."""

_ROUND_ENDED = frozenset({Phase.ROUND_OVER, Phase.GAME_OVER})


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One legal move, the mean of what it was worth over the samples, and the standard
    error of that mean."""

    move: Move
    value: float
    stderr: float

    def to_dict(self) -> dict[str, Any]:
        return {"move": dict(self.move), "value": self.value, "stderr": self.stderr}


@dataclass(frozen=True, slots=True)
class Advice:
    """The advice for ``seat``: every legal move (in :func:`~thirtyone.game.legal_moves`
    order, or the moves asked about) with its value in ``measure``, over ``samples`` worlds,
    or ``exact`` (``samples`` is then 0 and every standard error 0)."""

    seat: int
    measure: str
    samples: int
    moves: tuple[MoveValue, ...]
    exact: bool = False

    @property
    def best(self) -> MoveValue:
        """The move of highest value (the first of equal ones)."""
        return max(self.moves, key=lambda entry: entry.value)

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "measure": self.measure, "samples": self.samples,
                "exact": self.exact, "moves": [entry.to_dict() for entry in self.moves]}


def measure_of(rules: Rules) -> str:
    """What advice values count under ``rules``: ``match``, ``chips``, ``points``, ``win``."""
    return MEASURES[rules.settlement]


def advise(state: GameState, seat: int, samples: int = 200, seed: int | str = 0) -> Advice:
    """Every legal move of ``seat`` with its value, from ``seat``'s view of ``state`` only.

    ``samples`` worlds are dealt from the seed; a :class:`~thirtyone.errors.StateError` says
    when it is not ``seat``'s turn.
    """
    return advise_view(view(state, seat), samples=samples, seed=seed)


def advise_view(seen: Mapping[str, Any], samples: int = 200, seed: int | str = 0, *,
                moves: Sequence[Move] | None = None) -> Advice:
    """:func:`advise` from a seat's view ``seen``; only ``moves`` when given (legal ones).

    The effort is ``samples`` worlds, never a time: the same view, samples and seed give the
    same advice on any machine and under any load.
    """
    seat = seen["seat"]
    if seat is None or seen["turn"] != seat or seen["phase"] in _ROUND_ENDED:
        raise StateError("not_your_turn", N_("seat {seat} has no move to make now"),
                         field="seat", seat=seat)
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise StateError("bad_samples", N_("the number of samples must be a positive whole "
                                           "number"), field="samples", samples=samples)
    evaluation = evaluate(seen, samples, seed, moves=moves)
    if evaluation.exact is not None:
        return Advice(seat, evaluation.measure, 0, tuple(
            MoveValue(dict(move), value, 0.0)
            for move, value in zip(evaluation.moves, evaluation.exact, strict=True)
        ), exact=True)
    return Advice(seat, evaluation.measure, samples, tuple(
        MoveValue(dict(move), *_mean_and_error(worlds))
        for move, worlds in zip(evaluation.moves, evaluation.worlds, strict=True)
    ))


@dataclass(frozen=True, slots=True)
class Evaluation:
    """What :func:`evaluate` found: the measure, the moves, and either each move's exact
    value (``exact``) or its value in each world sampled (``worlds``: the same worlds in the
    same order for every move, so two moves can be compared world by world)."""

    measure: str
    moves: list[Move]
    worlds: list[list[float]]
    exact: list[float] | None = None


def evaluate(seen: Mapping[str, Any], samples: int, seed: int | str, *,
             moves: Sequence[Move] | None = None, exact: bool = True) -> Evaluation:
    """Value the moves (the legal ones unless ``moves`` are given) of the seat of ``seen``:
    exactly in the race (the solver) and in a last turn after a knock that
    :mod:`thirtyone.exact` enumerates, else on ``samples`` worlds. Arguments as for
    :func:`advise_view`; ``exact=False`` samples even where enumeration would do (to
    compare the two)."""
    deal = WorldDealer(seen)
    first = deal(random.Random(f"advice:{seed}:world:0"))
    candidates: list[Move] = list(moves) if moves is not None else list(legal_moves(first))
    measure = measure_of(first.rules)
    if candidates and is_move(candidates[0], Take):
        winning = set(solve(first).winning_cards)
        return Evaluation(measure, candidates, [],
                          [float(move["card"] in winning) for move in candidates])
    worth = _worth(measure, seen["seat"], first)
    values = final_turn_values(deal, candidates, worth) if exact else None
    if values is not None:
        return Evaluation(measure, candidates, [], values)
    totals: list[list[float]] = [[] for _ in candidates]
    for dealt in range(samples):
        world = first if not dealt else deal(random.Random(f"advice:{seed}:world:{dealt}"))
        for index, move in enumerate(candidates):
            policy = random.Random(f"advice:{seed}:play:{dealt}")
            after, _ = apply_move(world, move)
            totals[index].append(worth(play_out(after, policy)))
    return Evaluation(measure, candidates, totals)


def _mean_and_error(values: Sequence[float]) -> tuple[float, float]:
    count = len(values)
    mean = math.fsum(values) / count
    if count < 2:
        return mean, 0.0
    variance = math.fsum((value - mean) ** 2 for value in values) / (count - 1)
    return mean, math.sqrt(variance / count)


def match_chance(state: GameState, seat: int) -> float:
    """``seat``'s chance of winning the match of lives from ``state`` (a settled round): 1 or
    0 (a share when tied) once the match is won, else by a model where each round costs one
    seat still in, any of them alike, a life, until one seat is left. Playing better moves
    the chances of the later rounds; the model weighs what this round leaves, so that one
    life less matters more to a seat with fewer.

    >>> from thirtyone.game import new_game
    >>> round(match_chance(new_game("scat", 2, seed=1), 0), 3)
    0.5
    """
    if state.winners:
        return 1 / len(state.winners) if seat in state.winners else 0.0
    free_ride = state.rules.free_ride
    left = [0 if standing.eliminated else standing.lives + (
        free_ride and (standing.lives > 0 or standing.free_ride))
        for standing in state.seats]
    if not left[seat]:
        return 0.0
    others = tuple(sorted(count for index, count in enumerate(left) if index != seat and count))
    return _last_seat_chance(left[seat], others)


@functools.lru_cache(maxsize=4096)
def _last_seat_chance(mine: int, others: tuple[int, ...]) -> float:
    if not others:
        return 1.0
    if not mine:
        return 0.0
    share = 1 / (1 + len(others))
    chance = share * _last_seat_chance(mine - 1, others)
    for index, count in enumerate(others):
        rest = (*others[:index], count - 1, *others[index + 1:]) if count > 1 else \
            (*others[:index], *others[index + 1:])
        chance += share * _last_seat_chance(mine, tuple(sorted(rest)))
    return chance


def _worth(measure: str, seat: int, before: GameState) -> Callable[[GameState], float]:
    """What a round played out to its end was worth to ``seat`` in ``measure``."""
    if measure == "match":
        return lambda after: match_chance(after, seat)
    if measure == "points":
        points = before.seats[seat].points
        return lambda after: float(after.seats[seat].points - points)
    if measure == "chips":
        chips = before.seats[seat].chips
        return lambda after: float(after.seats[seat].chips - chips)
    return lambda after: float(seat in after.winners)
