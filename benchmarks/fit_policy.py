"""Fit the judging policy's knock thresholds by self-play, per preset and number of players.

Run: ``.venv/bin/python benchmarks/fit_policy.py`` (``--matches``, ``--adjust-matches``,
``--only scat:2``, ``--jobs``); it writes ``api/thirtyone/policy_thresholds.json`` (after each
case, so that a run cut short keeps the cases done), which the engine ships and
:func:`thirtyone.policy.knock_policy` reads (the greedy bot, the playouts and the worlds' knock
model all use it).

The fit is a coordinate search against the current policy, on common seeds (each candidate
plays the same deals, seats rotating, so that candidates differ by their play, not their
cards):

1. a flat threshold: each of 20 to 31 points, and never knocking (``NEVER``), plays
   ``--matches`` matches in one seat against the incumbent policy in the others; the best
   becomes the incumbent (and is written as ``flat``: the expert baseline of
   ``benchmarks/bots.py`` knocks at it);
2. a threshold per count of turns each played (0 to ``BUCKETS - 1``, the last holding from
   then on): each in turn tries two points less and more, kept when it scores better than the
   incumbent by more than one standard error;
3. on ``--adjust-matches`` matches, an adjustment of that threshold by the acting seat's own
   lives left (one per bucket of :data:`thirtyone.policy.LIVES_BUCKETS`: a free ride or
   swimming, 1, 2, 3 or more lives), then one when the stock is short
   (:func:`thirtyone.policy.short_stock`): each tries ``ADJUSTMENTS`` and keeps the best when
   it scores better than the incumbent by more than one standard error.

The thresholds thus depend on the preset, the number of players, the turn, the seat's lives and
the stock. Cases not in ``CASES`` keep the former rule (:data:`thirtyone.policy.DEFAULT_KNOCK`,
no adjustment).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from multiprocessing import Pool
from pathlib import Path

from thirtyone.bots import GreedyBot, play_match
from thirtyone.game import new_game
from thirtyone.policy import DEFAULT_KNOCK, LIVES_BUCKETS, KnockPolicy

CASES = (("scat", 2), ("scat", 3), ("schwimmen", 2), ("schwimmen", 3))
"""The presets and player counts fitted: the two most played games, at the table sizes the
strength targets name."""
BUCKETS = 6
NEVER = 99.0
MATCHES = 300
ADJUSTMENTS = (-3.0, -2.0, -1.0, 1.0, 2.0, 3.0)
"""The adjustments by lives and by a short stock that stage 3 tries (points added to the
threshold by turn)."""
OUTPUT = Path(__file__).resolve().parent.parent / "api" / "thirtyone" / "policy_thresholds.json"


Task = tuple[str, int, int, KnockPolicy, KnockPolicy]
Mapper = Callable[[Callable[[Task], float], Iterable[Task]], list[float]]


def play(task: Task) -> float:
    """One seeded match of ``candidate`` in one seat (rotating with the index) against
    ``incumbent`` in the others: the candidate seat's share of the win."""
    variant, players, index, candidate, incumbent = task
    seat = index % players
    bots = [GreedyBot(knock_at=candidate if other == seat else incumbent, seed=other)
            for other in range(players)]
    state = play_match(new_game(variant, players, seed=f"fit:{variant}:{index}"), bots)
    winners = state.winners
    return 1 / len(winners) if seat in winners else 0.0


@dataclasses.dataclass(frozen=True)
class Scorer:
    """Scores candidates of one case on ``matches`` common seeds, through ``mapper`` (the
    built-in map, or a process pool's)."""

    variant: str
    players: int
    mapper: Mapper

    def __call__(self, candidate: KnockPolicy, incumbent: KnockPolicy,
                 matches: int) -> tuple[float, float]:
        """The candidate's share of match wins in one seat against the incumbent in the
        others (a shared win counts its share), and its standard error."""
        results = self.mapper(play, [(self.variant, self.players, index, candidate, incumbent)
                                     for index in range(matches)])
        mean = statistics.fmean(results)
        return mean, statistics.stdev(results) / math.sqrt(len(results))


def fit(score: Scorer, matches: int,
        adjust_matches: int) -> tuple[KnockPolicy, float, list[str]]:
    """The fitted knock policy, the best flat threshold, and the report lines."""
    incumbent = KnockPolicy(DEFAULT_KNOCK[:BUCKETS])
    lines = []
    flat_scores = {}
    for value in [*range(20, 32), NEVER]:
        flat_scores[float(value)] = score(KnockPolicy((float(value),) * BUCKETS), incumbent,
                                          matches)
    flat = max(flat_scores, key=lambda value: flat_scores[value][0])
    lines.append(f"  flat: {', '.join(f'{v:g}: {m:.3f}' for v, (m, _) in flat_scores.items())}"
                 f" -> {flat:g}")
    incumbent = KnockPolicy((flat,) * BUCKETS)
    # What the incumbent scores against itself on these seeds (not always 1 / players: a
    # match may end with no winner).
    baseline = score(incumbent, incumbent, matches)[0]
    for bucket in range(BUCKETS):
        base = incumbent.by_turn[bucket]
        for value in (base - 2, base - 1, base + 1, base + 2):
            if value < 18 or (value > 31 and value != NEVER):
                continue
            by_turn = list(incumbent.by_turn)
            by_turn[bucket] = value
            trial = KnockPolicy(tuple(by_turn))
            mean, error = score(trial, incumbent, matches)
            if mean - baseline > error:
                incumbent = trial
                baseline = score(incumbent, incumbent, matches)[0]
                lines.append(f"  turn {bucket}: {base:g} -> {value:g} ({mean:.3f} +- {error:.3f})")
                break
    incumbent = dataclasses.replace(incumbent, by_lives=(0.0,) * LIVES_BUCKETS)
    baseline = score(incumbent, incumbent, adjust_matches)[0]
    for coordinate in [*range(LIVES_BUCKETS), None]:
        trials = {value: score(adjusted(incumbent, coordinate, value), incumbent,
                               adjust_matches)
                  for value in ADJUSTMENTS}
        best = max(trials, key=lambda value: trials[value][0])
        mean, error = trials[best]
        kept = mean - baseline > error
        name = "short stock" if coordinate is None else f"lives {coordinate}"
        lines.append(f"  {name}: {', '.join(f'{v:+g}: {m:.3f}' for v, (m, _) in trials.items())}"
                     f" (baseline {baseline:.3f}) -> {best if kept else 0:+g}")
        if kept:
            incumbent = adjusted(incumbent, coordinate, best)
            baseline = score(incumbent, incumbent, adjust_matches)[0]
    return incumbent, flat, lines


def adjusted(policy: KnockPolicy, bucket: int | None, value: float) -> KnockPolicy:
    """``policy`` with the adjustment for lives bucket ``bucket`` (``None``: the short
    stock's) set to ``value``."""
    if bucket is None:
        return dataclasses.replace(policy, short_stock=value)
    return dataclasses.replace(policy, by_lives=tuple(
        value if index == bucket else old for index, old in enumerate(policy.by_lives)))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=MATCHES,
                        help="matches per candidate of stages 1 and 2")
    parser.add_argument("--adjust-matches", type=int,
                        help="matches per candidate of stage 3 (default: twice --matches)")
    parser.add_argument("--only", action="append", help="variant:players (default: CASES)")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing the matches")
    args = parser.parse_args(argv)
    adjust_matches = args.adjust_matches or 2 * args.matches
    cases = [(name, int(count)) for name, count in (case.split(":") for case in args.only)] \
        if args.only else list(CASES)
    data = json.loads(OUTPUT.read_text()) if OUTPUT.exists() else {}
    pool = Pool(args.jobs) if args.jobs > 1 else None
    mapper: Mapper = (lambda function, tasks: pool.map(function, tasks, chunksize=16)) \
        if pool else (lambda function, tasks: list(map(function, tasks)))
    try:
        for variant, players in cases:
            start, wall = time.process_time(), time.monotonic()
            fitted, flat, lines = fit(Scorer(variant, players, mapper), args.matches,
                                      adjust_matches)
            key = str(players)
            data.setdefault("thresholds", {}).setdefault(variant, {})[key] = list(fitted.by_turn)
            data.setdefault("lives", {}).setdefault(variant, {})[key] = list(fitted.by_lives)
            data.setdefault("short_stock", {}).setdefault(variant, {})[key] = fitted.short_stock
            data.setdefault("flat", {}).setdefault(variant, {})[key] = flat
            data.setdefault("matches", {}).setdefault(variant, {})[key] = [args.matches,
                                                                           adjust_matches]
            data["fitted_by"] = "benchmarks/fit_policy.py"
            OUTPUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
            print(f"{variant}, {players} players ({args.matches} matches per candidate, "
                  f"{adjust_matches} for the adjustments; {time.process_time() - start:.0f} s "
                  f"CPU, {time.monotonic() - wall:.0f} s): {list(fitted.by_turn)}, lives "
                  f"{list(fitted.by_lives)}, short stock {fitted.short_stock:+g}", flush=True)
            print("\n".join(lines), flush=True)
    finally:
        if pool:
            pool.close()
            pool.join()
    return 0


if __name__ == "__main__":
    sys.exit(main())
