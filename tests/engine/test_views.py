"""game.view: a seat sees its own cards and the public ones, nobody sees the stock or what
lies face down, and a card given face down stays hidden in the history."""

from __future__ import annotations

import random

from thirtyone.game import apply_move, legal_moves, new_game, view
from thirtyone.game.families import flow_of
from thirtyone.game.family import FamilyFlow
from thirtyone.rules import PRESETS


def test_a_seat_sees_its_own_hand_and_a_spectator_none():
    state = new_game("scat", 3, seed="views", dealer=0)
    mine = view(state, 1)
    assert all(mine["hands"][1]) and not any(mine["hands"][0] + mine["hands"][2])
    assert not any(card for hand in view(state, None)["hands"] for card in hand)
    assert mine["stock"] == len(state.stock) and mine["discard"] == [state.discard[-1].code]


def test_the_face_down_widow_and_a_gift_laid_face_down_stay_hidden():
    state = new_game("bank", 3, seed="views", dealer=0, options={"widow_discards": "face-down"})
    seen = view(state, state.to_move)
    assert seen["table"] == [None, None, None]
    exchange = next(move for move in legal_moves(state) if move["type"] == "exchange")
    after, _ = apply_move(state, exchange)
    for seat in (None, 0, 1, 2):
        (entry,) = view(after, seat)["history"]
        assert entry["give"] == [None] * len(exchange["give"])
        assert view(after, seat)["table"][exchange["take"][0]] is None


def test_a_shared_view_is_the_same_view_with_the_states_own_history_entries():
    # Every preset, along a random match: the same view; its entries are the state's own
    # where the family shows them as they are, and copies where it hides something.
    for variant in PRESETS:
        state = new_game(variant, PRESETS[variant].players[0], seed="shared", dealer=0)
        rng = random.Random(variant)
        for _ in range(40):
            if state.is_over:
                break
            for seat in (None, *range(state.players)):
                shared = view(state, seat, shared=True)
                assert shared == view(state, seat)
                if state.history and type(flow_of(state)).public_move is FamilyFlow.public_move:
                    assert shared["history"][-1] is state.history[-1]
            state, _ = apply_move(state, rng.choice(legal_moves(state)))
