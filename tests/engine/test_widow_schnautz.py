"""Schnautz (RULES.md §4.6), scripted: ante and pot, the declaration phase, one-card
exchanges with the face-up widow, 31 ending the exchanges, the knock and its last turns, the
best hand taking the pot, ties splitting it with the odd chip staying, the match's end."""

import importlib.util
from pathlib import Path

import pytest

from thirtyone.errors import MoveError
from thirtyone.game import legal_moves, new_game, view

_spec = importlib.util.spec_from_file_location(
    "widow_arrange", Path(__file__).with_name("widow_arrange.py"))
_arrange = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_arrange)
arrange, play, types = _arrange.arrange, _arrange.play, _arrange.types

PASS = {"type": "pass"}


def test_ante_widow_face_up_and_declarations_from_the_dealers_left():
    state = new_game("schnautz", 4, seed="s", dealer=2)
    assert state.pot == 4 and [seat.chips for seat in state.seats] == [-1] * 4
    assert len(state.table) == 3 and all(state.table_face_up)
    assert view(state, None)["table"] == [card.code for card in state.table]
    assert (state.phase, state.to_move) == ("declare", 3)
    assert len(state.stock) == 52 - 15


def test_only_a_suited_hand_or_trips_may_be_declared():
    state = arrange("schnautz", 3, ["2C 3D 4H", "7H 8D 9C", "5S 5H 5D"], "AS KS QS",
                    phase="declare", turn=1)
    assert state.to_move == 1
    with pytest.raises(MoveError) as error:
        play(state, {"type": "declare"})
    assert error.value.code == "nothing_to_declare"
    state, _ = play(state, PASS)
    assert {"type": "declare"} in legal_moves(state)  # 5-5-5 is three of a kind


def test_a_declaration_ends_the_deal_and_the_best_hand_takes_the_pot():
    # Seat 1 declares 24 points in hearts; seat 0, the dealer, holds 31 and wins the pot.
    state = arrange("schnautz", 3, ["AC KC QC", "7H 8H 9H", "2S 3D 4H"], "AS KS 4S",
                    phase="declare", turn=1)
    state, events = play(state, {"type": "declare"})
    assert types(events)[:2] == ["declared", "showdown"]
    assert events[0]["points"] == 24
    assert state.phase == "round_over"
    assert state.result["deal_winners"] == [0]
    assert [seat.chips for seat in state.seats] == [2, -1, -1] and state.pot == 0


def test_everyone_passes_then_one_card_exchanges_from_the_dealers_left():
    state = arrange("schnautz", 3, ["2C 3D 4H", "7H 8D 9C", "5S 6H 7D"], "AS KS 4S",
                    phase="declare", turn=1)
    state, events = play(state, PASS, PASS, PASS)
    assert types(events) == ["passed"] * 3
    assert (state.phase, state.to_move) == ("exchange", 1)
    with pytest.raises(MoveError) as error:
        play(state, {"type": "exchange", "give": ["7H", "8D"], "take": [0, 1]})
    assert error.value.code == "bad_exchange_size"
    state, events = play(state, {"type": "exchange", "give": ["7H"], "take": [0]})
    assert events == [{"type": "exchanged", "seat": 1, "count": 1, "gave": ["7H"],
                       "took": ["AS"], "positions": [0]}]
    assert [card.code for card in state.table] == ["7H", "KS", "4S"]
    # The card given can be taken by the next player.
    state, _ = play(state, {"type": "exchange", "give": ["5S"], "take": [0]})
    assert "7H" in [card.code for card in state.hands[2]]


def test_exchange_max_allows_up_to_three():
    state = arrange("schnautz", 3, ["2C 3D 4H", "7H 8D 9C", "5S 6H 7D"], "AS KS 4S",
                    options={"exchange_max": 3}, phase="exchange", turn=1)
    state, _ = play(state, {"type": "exchange", "give": ["7H", "8D", "9C"], "take": [2, 0, 1]})
    assert sorted(card.code for card in state.hands[1]) == ["4S", "AS", "KS"]
    assert [card.code for card in state.table] == ["8D", "9C", "7H"]


def test_making_31_ends_the_exchanges_at_once():
    state = arrange("schnautz", 3, ["2C 3D 4H", "AH KH 2S", "5S 6H 7D"], "10H 9S 4S",
                    phase="exchange", turn=1)
    state, events = play(state, {"type": "exchange", "give": ["2S"], "take": [0]})
    assert "thirty_one" in types(events)
    assert state.phase == "round_over" and state.result["reason"] == "thirty_one"
    assert state.result["deal_winners"] == [1] and state.seats[1].chips == 2


def test_knock_then_each_opponent_sticks_or_exchanges_once():
    state = arrange("schnautz", 3, ["2C 3D 4H", "AH KH 2S", "5S 6H 7D"], "10S 9S 4S",
                    phase="exchange", turn=1)
    state, events = play(state, {"type": "knock"})
    assert (state.knocker, state.final_turns, state.to_move) == (1, 2, 2)
    assert {"type": "stand"} in legal_moves(state) and {"type": "knock"} not in legal_moves(state)
    state, _ = play(state, {"type": "exchange", "give": ["7D"], "take": [0]})
    state, events = play(state, {"type": "stand"})
    assert types(events)[:2] == ["stood", "showdown"]
    # Seat 1's 21 in hearts beats seat 2's 15 in spades and the dealer's 4.
    assert state.result["deal_winners"] == [1]


def test_equal_best_hands_split_and_the_odd_chip_stays():
    state = arrange("schnautz", 3, ["3C 4D 5H", "AH KH 2S", "AD KD 2C"], "10S 9S 4S",
                    phase="exchange", turn=1, options={"rounds": 2})
    state, events = play(state, {"type": "knock"}, {"type": "stand"}, {"type": "stand"})
    assert state.result["deal_winners"] == [1, 2]
    assert [seat.chips for seat in state.seats] == [-1, 0, 0] and state.pot == 1
    assert "pot_left" in types(events)
    state, events = play(state, {"type": "next_round"})
    assert state.pot == 4 and events[0] == {"type": "ante", "chips": 1, "pot": 4}


def test_a_pot_left_after_the_last_deal_is_split_and_most_chips_win():
    state = arrange("schnautz", 3, ["3C 4D 5H", "AH KH 2S", "AD KD 2C"], "10S 9S 4S",
                    phase="exchange", turn=1, options={"rounds": 1})
    state, _ = play(state, {"type": "knock"}, {"type": "stand"}, {"type": "stand"})
    assert state.is_over and state.pot == 0
    # The odd chip goes to the seat nearest the dealer's left: seat 1.
    assert [seat.chips for seat in state.seats] == [-1, 1, 0]
    assert state.winners == (1,)


def test_the_odd_chip_left_at_the_end_goes_to_the_seat_nearest_the_dealers_left():
    # Dealer 2: three seats tie for the pot of 4, one chip stays, and after the last deal it
    # goes to seat 3, the dealer's left (not to the lowest seat number).
    state = arrange("schnautz", 4, ["AH KH 2S", "AD KD 2C", "AC KC 2H", "3C 4D 5H"],
                    "10S 9S 4S", phase="exchange", turn=3, dealer=2, options={"rounds": 1})
    state, events = play(state, {"type": "knock"}, {"type": "stand"}, {"type": "stand"},
                         {"type": "stand"})
    assert state.result["deal_winners"] == [0, 1, 2] and state.is_over and state.pot == 0
    assert [e for e in events if e["type"] == "pot_won"][-1] == {
        "type": "pot_won", "seat": 3, "chips": 1}
    assert [seat.chips for seat in state.seats] == [0, 0, 0, 0]


def test_tie_carry_plays_the_next_deal_among_the_tied_seats():
    state = arrange("schnautz", 3, ["3C 4D 5H", "AH KH 2S", "AD KD 2C"], "10S 9S 4S",
                    phase="exchange", turn=1, options={"tie": "carry"})
    state, events = play(state, {"type": "knock"}, {"type": "stand"}, {"type": "stand"})
    assert state.result["carry"] == [1, 2] and state.pot == 3
    assert "pot_carried" in types(events)
    state, events = play(state, {"type": "next_round"})
    # No antes; seat 0 (not tied) decides first whether to join for the pot's amount.
    assert "ante" not in types(events)
    assert (state.phase, state.to_move, state.pot) == ("join", 0, 3)
    state, events = play(state, {"type": "join"})
    assert events == [{"type": "joined", "seat": 0, "chips": 3}]
    assert state.pot == 6 and state.seats[0].chips == -4
    assert state.phase == "declare"


def test_a_seat_that_passes_sits_the_carried_deal_out():
    state = arrange("schnautz", 3, ["3C 4D 5H", "AH KH 2S", "AD KD 2C"], "10S 9S 4S",
                    phase="exchange", turn=1, options={"tie": "carry"})
    state, _ = play(state, {"type": "knock"}, {"type": "stand"}, {"type": "stand"},
                    {"type": "next_round"}, PASS)
    assert state.hands[0] == () and len(state.out) == 3
    assert view(state, 1)["out"] == [None] * 3
    order = []
    while state.phase == "declare":
        order.append(state.to_move)
        state, _ = play(state, PASS)
    assert order == [2, 1]


def test_a_dealt_31_is_announced_at_once_before_any_declaration():
    for seed in range(3000):
        state = new_game("schnautz", 5, seed=seed, dealer=0)
        if state.phase == "round_over":
            break
    else:
        raise AssertionError("no deal of 31 found")
    assert state.result["reason"] == "thirty_one"
    assert state.history == () and state.result["hands"][0] is not None  # all show
    assert all(score["points"] == 31 for seat in state.result["deal_winners"]
               for score in [state.result["hands"][seat]["score"]])
