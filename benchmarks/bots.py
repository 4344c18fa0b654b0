"""How strong the strong bot is, against the greedy and the random bots, and how fast it decides.

Run: ``.venv/bin/python benchmarks/bots.py`` (``--matches``, ``--jobs``, ``--only``). Every
match is seeded (``bots:<pairing>:<index>``), so a run gives the same results anywhere; the
strong bot's seat moves round the table from match to match, and the first dealer comes from
the seed. Matches are spread over ``--jobs`` worker processes.

Targets (issue 15), each with a 95% interval:
- 2-player ``scat`` and ``schwimmen``: the strong bot wins at least 60% of its matches against
  the greedy bot and at least 90% against the random bot (a shared win counts half);
- 3-player ``schnautz``, the strong bot against two greedy bots: it ends a match with more
  chips than each of them on average;
- the strong bot's median decision time at most 50 ms, in CPU time of its process (a decision
  with one legal move is not counted: the bot plays it at once).

Exit status 1 when a target fails.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from thirtyone import PRESETS
from thirtyone.bots import Bot, GreedyBot, RandomBot, play_match
from thirtyone.game import new_game
from thirtyone.strong import StrongBot

MATCHES = 500
WIN_TARGETS = {"greedy": 0.60, "random": 0.90}
DECISION_TARGET_MS = 50.0
Z95 = 1.959964


@dataclass(frozen=True)
class Pairing:
    variant: str
    opponents: tuple[str, ...]
    """The other seats' bots, in seat order after the strong bot's."""

    @property
    def name(self) -> str:
        return f"{self.variant}: strong vs " + " + ".join(self.opponents)


PAIRINGS = (
    Pairing("scat", ("greedy",)),
    Pairing("scat", ("random",)),
    Pairing("schwimmen", ("greedy",)),
    Pairing("schwimmen", ("random",)),
    Pairing("schnautz", ("greedy", "greedy")),
)


class TimedBot:
    """The strong bot, with the CPU time of each decision that had a choice to make."""

    uses_view = True

    def __init__(self, bot: StrongBot) -> None:
        self.bot = bot
        self.times: list[float] = []

    def choose(self, seen: Any, moves: Sequence[dict[str, Any]]) -> dict[str, Any]:
        if len(moves) == 1:
            return moves[0]
        start = time.thread_time()
        move = self.bot.choose(seen, moves)
        self.times.append(time.thread_time() - start)
        return move


_OPPONENTS: dict[str, Callable[[str], Bot]] = {
    "greedy": lambda seed: GreedyBot(seed=seed),
    "random": lambda seed: RandomBot(seed),
}


def play_one(job: tuple[Pairing, int, dict[str, Any]]) -> dict[str, Any]:
    """One match of ``pairing``: the strong bot's score (1 win, 0.5 shared, 0 lost), the chips
    of every seat rotated so that the strong bot is first, and its decision times."""
    pairing, index, settings = job
    players = 1 + len(pairing.opponents)
    seed = f"bots:{pairing.name}:{index}"
    strong_seat = index % players
    strong = TimedBot(StrongBot(seed=f"{seed}:strong", **settings))
    others = iter(pairing.opponents)
    bots: list[Bot] = []
    for seat in range(players):
        bots.append(strong if seat == strong_seat else
                    _OPPONENTS[next(others)](f"{seed}:{seat}"))
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


def run(pairing: Pairing, matches: int, pool: Any,
        settings: dict[str, Any]) -> tuple[list[str], bool, list[float]]:
    """Play ``matches`` of ``pairing``; the report lines, whether its target is met, and the
    decision times."""
    start = time.perf_counter()
    jobs = [(pairing, index, settings) for index in range(matches)]
    results = pool.map(play_one, jobs, chunksize=4)
    wall = time.perf_counter() - start
    times = [t for result in results for t in result["times"]]
    lines = [f"{pairing.name} ({matches} matches, {wall:.0f} s wall, {len(times)} decisions)"]
    if len(pairing.opponents) == 1:
        wins = sum(result["score"] for result in results)
        low, high = wilson(wins, matches)
        target = WIN_TARGETS[pairing.opponents[0]]
        met = wins / matches >= target
        lines.append(f"  strong wins {wins / matches:.1%} of matches (95% CI {low:.1%}-"
                     f"{high:.1%}); target >= {target:.0%}: {'PASS' if met else 'FAIL'}")
    else:
        met = True
        strong = [result["chips"][0] for result in results]
        mean, low, high = mean_interval(strong)
        lines.append(f"  strong's chips per match {mean:+.2f} (95% CI {low:+.2f} to {high:+.2f})")
        for seat in range(1, 1 + len(pairing.opponents)):
            other = [result["chips"][seat] for result in results]
            diff = [a - b for a, b in zip(strong, other, strict=True)]
            d_mean, d_low, d_high = mean_interval(diff)
            ahead = d_mean > 0
            met = met and ahead
            lines.append(f"  {pairing.opponents[seat - 1]} bot {seat}: "
                         f"{statistics.fmean(other):+.2f} chips; strong minus it {d_mean:+.2f} "
                         f"(95% CI {d_low:+.2f} to {d_high:+.2f}): "
                         f"{'PASS' if ahead else 'FAIL'}")
    return lines, met, times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=MATCHES)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", action="append", help="variants to play (default: all)")
    parser.add_argument("--samples", type=int, help="the strong bot's worlds per decision")
    parser.add_argument("--margin", type=float, help="the strong bot's margin, in errors")
    args = parser.parse_args(argv)
    settings = {name: getattr(args, name) for name in ("samples", "margin")
                if getattr(args, name) is not None}
    pairings = [pairing for pairing in PAIRINGS if pairing.variant in PRESETS
                and (not args.only or pairing.variant in args.only)]
    missing = sorted({pairing.variant for pairing in PAIRINGS} - set(PRESETS))
    if missing:
        print(f"not played (no such preset yet): {', '.join(missing)}")
    ok = True
    all_times: list[float] = []
    with multiprocessing.Pool(args.jobs) as pool:
        for pairing in pairings:
            lines, met, times = run(pairing, args.matches, pool, settings)
            print("\n".join(lines), flush=True)
            ok = ok and met
            all_times += times
    if all_times:
        ms = sorted(t * 1000 for t in all_times)
        median = statistics.median(ms)
        p90 = ms[int(0.9 * (len(ms) - 1))]
        fast = median <= DECISION_TARGET_MS
        ok = ok and fast
        print(f"strong bot decisions: {len(ms)}, median {median:.1f} ms, p90 {p90:.1f} ms, "
              f"max {ms[-1]:.1f} ms (CPU); target median <= {DECISION_TARGET_MS:.0f} ms: "
              f"{'PASS' if fast else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
