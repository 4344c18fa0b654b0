"""A token and a state stay small however long the match: 5,000 moves of one match."""

from __future__ import annotations

import json
import random

from thirtyone.game import apply_move, legal_moves, new_game
from thirtyone.game.state import HISTORY_LIMIT
from thirtyone.web.sealing import Sealer

from .conftest import SECRET

LIMIT = 8 * 1024
MOVES = 5_000


def _size(data) -> int:
    return len(json.dumps(data, separators=(",", ":")).encode())


def test_a_5000_move_match_keeps_its_token_and_state_under_8_kb():
    # One deal that never ends by itself (nobody knocks, the discard pile becomes the stock),
    # the longest history a match can hold; a 7-seat table, the largest of the draw family.
    state = new_game("scat", 7, seed="long", dealer=0,
                     options={"max_turns": 10_000, "stock_exhausted": "recycle"})
    sealer = Sealer(SECRET)
    rng = random.Random("long")
    largest_state = largest_token = 0
    for move_number in range(MOVES):
        moves = [move for move in legal_moves(state) if move["type"] != "knock"]
        state, _ = apply_move(state, rng.choice(moves))
        if move_number % 250 == 0 or move_number == MOVES - 1:
            data = state.to_dict()
            largest_state = max(largest_state, _size(data))
            largest_token = max(largest_token, len(sealer.seal("game", data)))
    assert not state.is_over and len(state.history) == HISTORY_LIMIT
    assert largest_state < LIMIT and largest_token < LIMIT, (largest_state, largest_token)


def test_the_largest_table_after_a_showdown_stays_under_8_kb():
    # Fifteen seats, each hand shown with its score in the result, and a full history.
    state = new_game("schnautz", 15, seed="x" * 200, dealer=0)
    sealer = Sealer(SECRET)
    rng = random.Random("wide")
    largest = 0
    for _ in range(600):
        if state.is_over:
            break
        state, _ = apply_move(state, rng.choice(legal_moves(state)))
        data = state.to_dict()
        largest = max(largest, _size(data), len(sealer.seal("game", data)))
    assert largest < LIMIT, largest
