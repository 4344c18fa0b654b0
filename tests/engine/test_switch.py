"""Switch (RULES.md §4.11), scripted: the dealer's two hands and choice, swapping a card
(unseen from the face-down hand, the card given then lying face up), swapping a whole hand,
renewing a table hand face up (the turn ends) or face down (act again), knock, blitz, lives."""

import importlib.util
from pathlib import Path

import pytest

from thirtyone.errors import MoveError
from thirtyone.game import GameState, apply_move, legal_moves, new_game, view
from thirtyone.game.shuffle import shuffled
from thirtyone.rules import make_rules

_spec = importlib.util.spec_from_file_location(
    "widow_arrange", Path(__file__).with_name("widow_arrange.py"))
_arrange = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_arrange)
arrange, play, types = _arrange.arrange, _arrange.play, _arrange.types

UP, DOWN = [True] * 3, [False] * 3


def codes(cards):
    return [card.code for card in cards]


def test_the_dealer_is_dealt_two_hands_and_keeps_one():
    state = new_game("switch", 3, seed="sw", dealer=0)
    deck = shuffled(make_rules("switch").deck_cards.cards, "sw", "deal:1")
    # Each round of dealing: seat 1, seat 2, the dealer's two hands, the centre.
    first, second = deck[2:15:5], deck[3:15:5]
    assert state.hands[0] == first + second and state.table == deck[4:15:5]
    assert (state.phase, state.to_move) == ("keep", 0)
    assert view(state, 0)["hands"][0] == codes(first + second)
    assert view(state, 1)["hands"][0] == [None] * 6 and view(state, 1)["table"] == [None] * 3
    assert legal_moves(state) == [{"type": "keep", "hand": 0}, {"type": "keep", "hand": 1}]
    kept, events = play(state, {"type": "keep", "hand": 1})
    if kept.phase == "round_over":
        pytest.skip("this deal is a blitz")
    assert kept.hands[0] == second and kept.table == deck[4:15:5] + first
    assert list(kept.table_face_up) == DOWN + UP
    assert view(kept, 2)["table"] == [None] * 3 + codes(first)
    assert events[0] == {"type": "hand_kept", "seat": 0, "hand": 1, "laid": codes(first)}
    assert (kept.phase, kept.to_move) == ("exchange", 1)


def _table(**fields):
    return arrange("switch", 3, ["2C 3D 4H", "7H 8S 9C", "10D JD 2H"], "AS KS 5S 6D 7D 8D",
                   table_face_up=DOWN + UP, phase="exchange", turn=1, **fields)


def test_a_card_taken_from_the_face_down_hand_is_unseen_and_the_one_given_lies_face_up():
    state = _table()
    state, events = play(state, {"type": "exchange", "give": ["7H"], "take": [1]})
    assert events[0]["took"] == [None] and events[0]["gave"] == ["7H"]
    assert list(state.table_face_up) == [False, True, False, *UP]
    assert view(state, 2)["table"] == [None, "7H", None, "6D", "7D", "8D"]
    assert "KS" in codes(state.hands[1]) and state.to_move == 2


def test_swapping_a_whole_hand():
    state = _table()
    state, events = play(state, {"type": "swap_hand", "hand": 1})
    assert codes(state.hands[1]) == ["6D", "7D", "8D"]
    assert codes(state.table[3:]) == ["7H", "8S", "9C"]
    assert events[0]["type"] == "hand_swapped" and state.to_move == 2


def test_renewing_face_up_ends_the_turn_face_down_acts_again():
    state = _table()
    stock = state.stock
    up, events = play(state, {"type": "renew", "hand": 0, "face_up": True})
    assert up.table[:3] == stock[:3] and list(up.table_face_up[:3]) == UP
    assert codes(up.out) == ["AS", "KS", "5S"] and up.to_move == 2
    assert view(up, 0)["out"] == [None] * 3
    down, events = play(state, {"type": "renew", "hand": 1, "face_up": False})
    assert down.table[3:] == stock[:3] and list(down.table_face_up[3:]) == DOWN
    assert down.to_move == 1 and events[0]["cards"] is None
    assert view(down, 2)["table"][3:] == [None] * 3


def test_renewing_needs_three_cards_in_the_stock():
    state = _table()
    data = state.to_dict()
    data["out"], data["stock"] = data["stock"][:-2], data["stock"][-2:]
    short = GameState.from_dict(data)
    assert not any(move["type"] == "renew" for move in legal_moves(short))
    with pytest.raises(MoveError) as error:
        apply_move(short, {"type": "renew", "hand": 0, "face_up": True})
    assert error.value.code == "stock_empty"


def test_knock_one_last_turn_each_and_the_lowest_loses_a_life():
    state = _table()
    state, events = play(state, {"type": "knock"}, {"type": "stand"},
                         {"type": "exchange", "give": ["2C"], "take": [3]})
    assert "showdown" in types(events)
    # Seat 0: 6D 3D 4H = 9 in diamonds; seat 1: 9; seat 2: 20. The knocker ties for lowest.
    assert state.result["lives_lost"] == [0, 2, 0]


def test_a_swap_that_makes_31_is_a_blitz():
    state = arrange("switch", 3, ["2C 3D 4H", "AH KH 2S", "10D JD 2H"],
                    "AS KS 5S 10H 7D 8D", table_face_up=DOWN + UP, phase="exchange", turn=1)
    state, events = play(state, {"type": "exchange", "give": ["2S"], "take": [3]})
    assert "blitz" in types(events) and state.result["lives_lost"] == [1, 0, 1]


@pytest.mark.parametrize("after", [False, True])
def test_a_swap_that_makes_31_after_a_knock_follows_blitz_after_knock(after):
    state = arrange("switch", 3, ["2C 3D 4H", "AH KH 2S", "10D JD 2H"],
                    "AS KS 5S 10H 7D 8D", table_face_up=DOWN + UP, phase="exchange", turn=0,
                    options={"blitz_after_knock": after})
    state, events = play(state, {"type": "knock"},
                         {"type": "exchange", "give": ["2S"], "take": [3]})
    if after:
        assert "blitz" in types(events) and state.result["lives_lost"] == [1, 0, 1]
    else:
        # Seat 2 still has its last turn; then seat 1's 31 is the best hand at the showdown.
        assert "blitz" not in types(events) and state.to_move == 2
        state, events = play(state, {"type": "stand"})
        assert state.result["reason"] == "showdown"
        assert state.result["lives_lost"] == [2, 0, 0]
