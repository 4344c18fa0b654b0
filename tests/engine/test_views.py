"""game.view: a seat sees its own cards and the public ones, nobody sees the stock or what
lies face down, and a card given face down stays hidden in the history."""

from __future__ import annotations

from thirtyone.game import apply_move, legal_moves, new_game, view


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
