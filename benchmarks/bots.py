"""How strong the strong bot is, against the greedy bot and an expert baseline, and how fast
it decides in every preset.

Run: ``.venv/bin/python benchmarks/bots.py`` (``--matches``, ``--jobs``, ``--only``,
``--effort``). Every match is seeded (``bots:<pairing>:<index>``), so a run gives the same
results anywhere (the strong bot's effort is a number of worlds, never a clock); the strong
bot's seat moves round the table from match to match, and the first dealer comes from the
seed. Matches are spread over ``--jobs`` worker processes.

The expert baseline (:class:`ExpertBot`) is what a strong player writes in an afternoon: the
greedy policy knocking at the best fixed threshold of the self-play fit (``flat`` in
``policy_thresholds.json``, from ``benchmarks/fit_policy.py``), and in the last turn after a
knock the exact best move (:mod:`thirtyone.exact`).

Targets (issue 25), each with a 95% interval (Wilson for win rates, normal for chips):
- 2-player ``scat`` and ``schwimmen``: strong vs greedy >= 70% with the lower bound above
  65%; strong vs the expert baseline >= 55% with the lower bound above 50%;
- 3-player ``schnautz``: the strong bot ahead of each greedy bot in chips, the interval of the
  difference excluding 0;
- ``--effort``: the strong bot's median decision, in CPU time of its thread, at most 50 ms in
  every preset (a decision with one legal move is not counted: the bot plays it at once).

Exit status 1 when a target fails.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from thirtyone import PRESETS
from thirtyone.advice import evaluate
from thirtyone.bots import Bot, GreedyBot, play_match
from thirtyone.game import new_game
from thirtyone.policy import DEFAULT_KNOCK, Move
from thirtyone.strong import StrongBot

MATCHES = 500
DECISION_TARGET_MS = 50.0
Z95 = 1.959964


class ExpertBot:
    """Greedy at the best fixed knock threshold, exact in the last turn after a knock."""

    uses_view = True

    def __init__(self, variant: str, players: int, seed: int | str | None = None) -> None:
        flat = _flat_threshold(variant, players)
        self.greedy = GreedyBot(knock_at=flat, seed=seed)

    def choose(self, seen: Mapping[str, Any] | None, moves: Sequence[Move]) -> Move:
        assert seen is not None
        if len(moves) > 1 and seen["knocker"] is not None and seen["final_turns"] == 1:
            evaluation = evaluate(seen, 1, 0, moves=moves)
            if evaluation.exact is not None:
                return moves[evaluation.exact.index(max(evaluation.exact))]
        return self.greedy.choose(seen, moves)


def _flat_threshold(variant: str, players: int) -> float:
    text = resources.files("thirtyone").joinpath("policy_thresholds.json").read_text()
    flat: float | None = json.loads(text).get("flat", {}).get(variant, {}).get(str(players))
    return DEFAULT_KNOCK[0] if flat is None else flat


@dataclass(frozen=True)
class Pairing:
    variant: str
    opponents: tuple[str, ...]
    """The other seats' bots, in seat order after the strong bot's."""
    win_target: float | None = None
    low_target: float | None = None

    @property
    def name(self) -> str:
        return f"{self.variant}: strong vs " + " + ".join(self.opponents)


PAIRINGS = (
    Pairing("scat", ("greedy",), 0.70, 0.65),
    Pairing("scat", ("expert",), 0.55, 0.50),
    Pairing("schwimmen", ("greedy",), 0.70, 0.65),
    Pairing("schwimmen", ("expert",), 0.55, 0.50),
    Pairing("schnautz", ("greedy", "greedy")),
)


class TimedBot:
    """A bot, with the CPU time of each decision that had a choice to make."""

    uses_view = True

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.times: list[float] = []

    def choose(self, seen: Any, moves: Sequence[Move]) -> Move:
        if len(moves) == 1:
            return moves[0]
        start = time.thread_time()
        move = self.bot.choose(seen, moves)
        self.times.append(time.thread_time() - start)
        return move


def _opponent(name: str, variant: str, players: int, seed: str) -> Bot:
    factories: dict[str, Callable[[], Bot]] = {
        "greedy": lambda: GreedyBot(seed=seed),
        "expert": lambda: ExpertBot(variant, players, seed),
    }
    return factories[name]()


def play_one(job: tuple[Pairing, int]) -> dict[str, Any]:
    """One match of ``pairing``: the strong bot's score (1 win, a share when shared, 0 lost),
    the chips of every seat rotated so that the strong bot is first, its decision times."""
    pairing, index = job
    players = 1 + len(pairing.opponents)
    seed = f"bots:{pairing.name}:{index}"
    strong_seat = index % players
    strong = TimedBot(StrongBot(seed=f"{seed}:strong"))
    others = iter(pairing.opponents)
    bots: list[Bot] = [strong if seat == strong_seat else
                       _opponent(next(others), pairing.variant, players, f"{seed}:{seat}")
                       for seat in range(players)]
    state = play_match(new_game(pairing.variant, players, seed=seed), bots)
    winners = state.winners
    score = (1.0 / len(winners)) if strong_seat in winners else 0.0
    chips = [state.seats[(strong_seat + step) % players].chips for step in range(players)]
    return {"score": score, "chips": chips, "times": strong.times}


def wilson(successes: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    p = successes / n
    centre = (p + Z95 ** 2 / (2 * n)) / (1 + Z95 ** 2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / (1 + Z95 ** 2 / n)
    return centre - half, centre + half


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def run(pairing: Pairing, matches: int, pool: Any) -> tuple[list[str], bool]:
    """Play ``matches`` of ``pairing``: the report lines and whether its target is met."""
    start = time.perf_counter()
    results = pool.map(play_one, [(pairing, index) for index in range(matches)], chunksize=2)
    wall = time.perf_counter() - start
    times = sorted(t * 1000 for result in results for t in result["times"])
    lines = [f"{pairing.name} ({matches} matches, {wall:.0f} s wall, {len(times)} decisions, "
             f"median {statistics.median(times):.1f} ms CPU)"]
    if pairing.win_target is not None:
        wins = sum(result["score"] for result in results)
        low, high = wilson(wins, matches)
        met = wins / matches >= pairing.win_target and low > (pairing.low_target or 0)
        lines.append(f"  strong wins {wins / matches:.1%} of matches (95% CI {low:.1%}-"
                     f"{high:.1%}); target >= {pairing.win_target:.0%}, lower bound > "
                     f"{pairing.low_target:.0%}: {'PASS' if met else 'FAIL'}")
        return lines, met
    met = True
    strong = [result["chips"][0] for result in results]
    mean, low, high = mean_interval(strong)
    lines.append(f"  strong's chips per match {mean:+.2f} (95% CI {low:+.2f} to {high:+.2f})")
    for seat in range(1, 1 + len(pairing.opponents)):
        other = [result["chips"][seat] for result in results]
        diff = [a - b for a, b in zip(strong, other, strict=True)]
        d_mean, d_low, d_high = mean_interval(diff)
        ahead = d_low > 0
        met = met and ahead
        lines.append(f"  {pairing.opponents[seat - 1]} bot {seat}: "
                     f"{statistics.fmean(other):+.2f} chips; strong minus it {d_mean:+.2f} "
                     f"(95% CI {d_low:+.2f} to {d_high:+.2f}): {'PASS' if ahead else 'FAIL'}")
    return lines, met


def effort_one(job: tuple[str, int]) -> list[float]:
    """The strong bot's decision times in one seeded match of ``variant`` against greedy
    bots (a short match: one life or one round where the preset has them)."""
    variant, index = job
    preset = PRESETS[variant]
    players = min(3, preset.players[1])
    players = max(players, preset.players[0])
    short = {name: 1 for name in ("lives", "rounds") if name in preset.settable}
    strong = TimedBot(StrongBot(seed=f"effort:{variant}:{index}"))
    bots: list[Bot] = [strong, *(GreedyBot(seed=seat) for seat in range(1, players))]
    play_match(new_game(variant, players, seed=f"effort:{variant}:{index}", options=short),
               bots)
    return strong.times


def effort(matches: int, pool: Any) -> tuple[list[str], bool]:
    lines, ok = [], True
    for variant in sorted(PRESETS):
        times = sorted(t * 1000 for result in pool.map(
            effort_one, [(variant, index) for index in range(matches)]) for t in result)
        if not times:
            continue
        median = statistics.median(times)
        fast = median <= DECISION_TARGET_MS
        ok = ok and fast
        lines.append(f"  {variant}: {len(times)} decisions, median {median:.1f} ms, p90 "
                     f"{times[int(0.9 * (len(times) - 1))]:.1f} ms: "
                     f"{'PASS' if fast else 'FAIL'}")
    return lines, ok


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=MATCHES)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", action="append", help="pairings whose name has this text")
    parser.add_argument("--effort", type=int, metavar="MATCHES",
                        help="only time the decisions: this many short matches per preset")
    args = parser.parse_args(argv)
    ok = True
    with multiprocessing.Pool(args.jobs) as pool:
        if args.effort:
            lines, ok = effort(args.effort, pool)
            print("strong bot decisions, CPU per decision (target median <= "
                  f"{DECISION_TARGET_MS:.0f} ms in every preset):")
            print("\n".join(lines), flush=True)
            return 0 if ok else 1
        for pairing in PAIRINGS:
            if args.only and not any(text in pairing.name for text in args.only):
                continue
            lines, met = run(pairing, args.matches, pool)
            print("\n".join(lines), flush=True)
            ok = ok and met
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
