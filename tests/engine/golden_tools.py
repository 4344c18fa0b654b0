"""Write the golden playthroughs replayed by ``test_game_golden.py``.

Run ``python tests/engine/golden_tools.py`` to regenerate every file after a deliberate change
of the rules or of the state layout; review the diff before committing it. Each file holds a
match played by bots from a fixed seed: the moves, the events of each move and the final state.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from thirtyone.bots import GreedyBot, RandomBot
from thirtyone.game import apply_move, legal_moves, new_game, view

GOLDEN = Path(__file__).with_name("golden")

# One match per preset: (variant, players, seed, options).
MATCHES: list[tuple[str, int, str, dict[str, Any]]] = [
    ("scat", 3, "golden-scat", {}),
    ("blitz", 3, "golden-blitz", {}),
    ("cut-throat", 3, "golden-cut-throat", {}),
    ("no-elimination", 4, "golden-no-elimination", {}),
    ("eenendertigen", 3, "golden-eenendertigen", {}),
    ("race", 2, "golden-race", {}),
    ("schnautz", 4, "golden-schnautz", {}),
    ("bank", 3, "golden-bank", {}),
    ("trentuno", 4, "golden-trentuno", {}),
    ("jokers", 4, "golden-jokers", {"tie": "carry"}),
    ("no-trips", 3, "golden-no-trips", {}),
    ("switch", 3, "golden-switch", {}),
    ("stop-the-bus", 3, "golden-stop-the-bus", {}),
    ("schwimmen", 4, "golden-schwimmen", {}),
]


def record(variant: str, players: int, seed: str, options: dict[str, Any]) -> dict[str, Any]:
    """Play one match with a greedy bot in seat 0 and random bots elsewhere."""
    state = new_game(variant, players, seed=seed, options=options or None)
    start = state.to_dict()
    bots = [GreedyBot(seed=seed), *(RandomBot(f"{seed}:{seat}") for seat in range(1, players))]
    moves, events = [], []
    while not state.is_over:
        seat = state.to_move
        bot = bots[state.dealer if seat is None else seat]
        move = bot.choose(view(state, seat), legal_moves(state))
        state, happened = apply_move(state, move)
        moves.append(move)
        events.append(happened)
    return {
        "variant": variant,
        "players": players,
        "seed": seed,
        "options": options,
        "start": start,
        "moves": moves,
        "events": events,
        "final": state.to_dict(),
    }


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for variant, players, seed, options in MATCHES:
        path = GOLDEN / f"{variant}.json"
        path.write_text(json.dumps(record(variant, players, seed, options), indent=1) + "\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
