"""How fast matches play, against pokerkit's simulated No-Limit Hold'em hands.

Run: ``.venv/bin/python benchmarks/games.py`` (or ``make bench``). Everything is measured in
this one run on the same machine, in CPU time of the process (other work on shared cores
does not count). Random play means: ask ``legal_moves``, pick one with a
seeded ``random.Random``, ``apply_move`` it, until the match ends, then start another; the
time counts all three steps.

Targets (issue 3):
- 4-player ``scat``: whole rounds per second at least 2x pokerkit's random 4-player No-Limit
  Hold'em hands per second (pokerkit deals, bets and settles each hand);
- ``scat``: at least 20,000 applied moves per second;
- the race to 31 solved from scratch (every reachable position) in at most 0.1 s.

Also printed: moves/s and rounds/s for every preset that plays, and the ``to_dict`` +
``from_dict`` round trip of a mid-match state. Exit status 1 when a target fails.
"""

from __future__ import annotations

import random
import sys
import time

from pokerkit import Automation, NoLimitTexasHoldem

from thirtyone import OptionError
from thirtyone.game import GameState, apply_move, legal_moves, new_game
from thirtyone.race import full_solve
from thirtyone.rules import PRESETS

SECONDS = 1.5
REPEATS = 5
ROUNDS_RATIO_TARGET = 2.0
MOVES_TARGET = 20_000
SOLVE_TARGET_S = 0.1

_AUTOMATIONS = (
    Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING, Automation.HOLE_DEALING, Automation.BOARD_DEALING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
)


def pokerkit_hands_per_second(seconds: float = SECONDS) -> float:
    """Random 4-player No-Limit Hold'em hands (blinds 1/2, stacks 200): fold, call or raise
    to a random amount, chosen by a seeded generator, until the hand is settled."""
    rng = random.Random(31)
    hands = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = NoLimitTexasHoldem.create_state(
            _AUTOMATIONS, True, 0, (1, 2), 2, (200, 200, 200, 200), 4
        )
        while state.status:
            roll = rng.random()
            if roll < 0.15 and state.can_fold():
                state.fold()
            elif roll < 0.3 and state.can_complete_bet_or_raise_to():
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                state.complete_bet_or_raise_to(rng.randint(low, high))
            else:
                state.check_or_call()
        hands += 1
    return hands / (time.process_time() - start)


def random_play(variant: str, players: int, seconds: float = SECONDS) -> tuple[float, float]:
    """Moves per second and rounds per second of random play of ``variant``."""
    rng = random.Random(variant)
    moves = rounds = match = 0
    elapsed = 0.0
    while elapsed < seconds:
        state = new_game(variant, players, seed=f"bench:{match}")
        match += 1
        start = time.process_time()
        while not state.is_over:
            state, _ = apply_move(state, rng.choice(legal_moves(state)))
            moves += 1
            if state.phase == "round_over" or state.is_over:
                rounds += 1
        elapsed += time.process_time() - start
    return moves / elapsed, rounds / elapsed


def round_trip_us(variant: str = "scat", players: int = 4) -> float:
    """Microseconds for ``GameState.from_dict(state.to_dict())`` of a state 40 moves in."""
    rng = random.Random(1)
    state = new_game(variant, players, seed="round-trip", options={"lives": 5})
    for _ in range(40):
        state, _ = apply_move(state, rng.choice(legal_moves(state)))
    calls = 2000
    best = float("inf")
    for _ in range(REPEATS):
        start = time.process_time()
        for _ in range(calls):
            GameState.from_dict(state.to_dict())
        best = min(best, time.process_time() - start)
    return best / calls * 1e6


def full_solve_seconds() -> tuple[float, int]:
    best, positions = float("inf"), 0
    for _ in range(REPEATS):
        start = time.process_time()
        positions = full_solve()
        best = min(best, time.process_time() - start)
    return best, positions


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def main() -> int:
    print(f"{'preset':<16}{'players':>8}{'moves/s':>12}{'rounds/s':>12}")
    rates: dict[str, tuple[float, float]] = {}
    for variant, preset in PRESETS.items():
        players = min(max(4, preset.players[0]), preset.players[1])
        try:
            new_game(variant, players, seed=0)
        except OptionError as error:
            print(f"{variant:<16}{players:>8}   not played: {error}")
            continue
        rates[variant] = random_play(variant, players)
        moves, rounds = rates[variant]
        print(f"{variant:<16}{players:>8}{moves:>12,.0f}{rounds:>12,.0f}")
    poker = pokerkit_hands_per_second()
    trip = round_trip_us()
    solve_s, positions = full_solve_seconds()
    scat_moves, scat_rounds = rates["scat"]
    print(f"\npokerkit {NoLimitTexasHoldem.__name__}, 4 players: {poker:,.0f} hands/s")
    print(f"to_dict + from_dict round trip (scat, 4 players, 40 moves in): {trip:,.0f} us")
    print(f"race to 31 full solve: {solve_s * 1000:.1f} ms for {positions:,} positions")
    checks = [
        (f"scat rounds/s / pokerkit hands/s = {scat_rounds / poker:.1f} "
         f"(target >= {ROUNDS_RATIO_TARGET})", scat_rounds >= ROUNDS_RATIO_TARGET * poker),
        (f"scat moves/s = {scat_moves:,.0f} (target >= {MOVES_TARGET:,})",
         scat_moves >= MOVES_TARGET),
        (f"race full solve = {solve_s * 1000:.1f} ms (target <= {SOLVE_TARGET_S * 1000:.0f} ms)",
         solve_s <= SOLVE_TARGET_S),
    ]
    print()
    for text, ok in checks:
        print(f"{verdict(ok)}  {text}")
    return 0 if all(ok for _, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
