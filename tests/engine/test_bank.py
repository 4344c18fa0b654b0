"""Bank (RULES.md §4.7), scripted: ante, the face-down widow dealt one card per round of
dealing, the exchange instead of drawing (a face-down card taken unseen, the card given lying
face up or, with ``widow_discards: face-down``, face down), the blitz fee, the best hand
taking the pot."""

import importlib.util
from pathlib import Path

import pytest

from thirtyone.errors import MoveError
from thirtyone.game import GameState, legal_moves, new_game, view
from thirtyone.game.shuffle import shuffled
from thirtyone.rules import make_rules

_spec = importlib.util.spec_from_file_location(
    "widow_arrange", Path(__file__).with_name("widow_arrange.py"))
_arrange = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_arrange)
arrange, play, types = _arrange.arrange, _arrange.play, _arrange.types

HIDDEN = [None, None, None]


def test_the_widow_is_dealt_face_down_after_each_round_of_dealing():
    state = new_game("bank", 3, seed="bank", dealer=0)
    deck = shuffled(make_rules("bank").deck_cards.cards, "bank", "deal:1")
    # Seats 1, 2, 0 get a card each, then the widow one: every fourth card.
    assert state.table == deck[3:12:4]
    assert state.hands[1] == deck[0:12:4]
    assert state.discard == deck[12:13] and state.stock == deck[13:]
    assert state.pot == 3 and not any(state.table_face_up)
    for seat in (None, 0, 1, 2):
        assert view(state, seat)["table"] == HIDDEN


def test_exchange_instead_of_drawing_takes_a_face_down_card_unseen():
    state = arrange("bank", 3, ["2C 3D 4H", "AH KH 2S", "5S 6H 7D"], "QS 9S 4S",
                    table_face_up=[False] * 3, phase="draw", turn=1, discard=True)
    assert {"type": "exchange", "give": ["2S"], "take": [1]} in legal_moves(state)
    state, events = play(state, {"type": "exchange", "give": ["2S"], "take": [1]})
    assert events == [{"type": "exchanged", "seat": 1, "count": 1, "gave": ["2S"],
                       "took": [None], "positions": [1]}]
    assert state.to_move == 2 and "9S" in [card.code for card in state.hands[1]]
    assert view(state, 2)["table"] == [None, "2S", None]
    with pytest.raises(MoveError) as error:
        play(state, {"type": "exchange", "give": ["5S", "6H"], "take": [0, 1]})
    assert error.value.code == "bad_exchange_size"


def test_no_exchange_after_drawing():
    state = arrange("bank", 3, ["2C 3D 4H", "AH KH 2S", "5S 6H 7D"], "QS 9S 4S",
                    table_face_up=[False] * 3, phase="draw", turn=1, discard=True)
    state, _ = play(state, {"type": "draw", "source": "stock"})
    with pytest.raises(MoveError) as error:
        play(state, {"type": "exchange", "give": ["2S"], "take": [1]})
    assert error.value.code == "must_discard"


def test_cards_given_face_down_are_hidden_from_everyone():
    state = arrange("bank", 3, ["2C 3D 4H", "AH KH 2S", "5S 6H 7D"], "QS 9S 4S",
                    table_face_up=[False] * 3, phase="draw", turn=1, discard=True,
                    options={"widow_discards": "face-down"})
    state, events = play(state, {"type": "exchange", "give": ["2S"], "take": [1]})
    assert events[0]["gave"] == [None]
    for seat in (None, 0, 1, 2):
        seen = view(state, seat)
        assert seen["table"] == HIDDEN
        assert seen["history"][-1]["give"] == [None]


def test_a_blitz_makes_every_other_seat_pay_and_takes_the_pot():
    state = arrange("bank", 3, ["2C 3D 4H", "AH KH 2S", "5S 6H 7D"], "10H 9S 4S",
                    table_face_up=[False] * 3, phase="draw", turn=1, discard=True)
    state, events = play(state, {"type": "exchange", "give": ["2S"], "take": [0]})
    assert "blitz" in types(events)
    assert [e for e in events if e["type"] == "paid"] == [
        {"type": "paid", "seat": 0, "chips": 1}, {"type": "paid", "seat": 2, "chips": 1}]
    assert [seat.chips for seat in state.seats] == [-2, 4, -2] and state.pot == 0


def test_the_best_hand_takes_the_pot_at_the_showdown():
    state = arrange("bank", 3, ["2C 3D 4H", "AH KH 2S", "5S 6H 7D"], "10H 9S 4S",
                    table_face_up=[False] * 3, phase="draw", turn=1, discard=True)
    state, _ = play(state, {"type": "knock"}, {"type": "stand"}, {"type": "stand"})
    assert state.result["deal_winners"] == [1]
    assert [seat.chips for seat in state.seats] == [-1, 2, -1]


def _tied(**options):
    state = arrange("bank", 3, ["3C 4D 5H", "AH KH 2S", "AD KD 2C"], "10H 9S 4S",
                    table_face_up=[False] * 3, phase="draw", turn=1, discard=True,
                    options={"tie": "carry", **options})
    return play(state, {"type": "knock"}, {"type": "stand"}, {"type": "stand"})[0]


def test_tie_carry_the_next_deal_is_played_by_the_tied_seats_and_those_who_join():
    state = _tied()
    assert state.result["carry"] == [1, 2] and state.pot == 3
    state, events = play(state, {"type": "next_round"})
    assert "ante" not in types(events)
    assert (state.phase, state.to_move, legal_moves(state)) == (
        "join", 0, [{"type": "join"}, {"type": "pass"}])
    with pytest.raises(MoveError) as error:
        play(state, {"type": "draw", "source": "stock"})
    assert error.value.code == "must_join"
    joined, events = play(state, {"type": "join"})
    assert joined.pot == 6 and joined.seats[0].chips == -4 and joined.phase == "draw"


def test_a_seat_sitting_out_a_carried_bank_deal_has_no_turn():
    state, _ = play(_tied(), {"type": "next_round"}, {"type": "pass"})
    assert state.hands[0] == () and len(state.out) == 3 and state.to_move == 2
    assert GameState.from_dict(state.to_dict()) == state
    state, _ = play(state, {"type": "knock"})
    assert (state.to_move, state.final_turns) == (1, 1)
    state, _ = play(state, {"type": "stand"})
    assert state.phase == "round_over" and state.result["hands"][0] is None


def test_without_a_blitz_fee_the_blitz_takes_the_pot_as_it_stands():
    state = arrange("bank", 3, ["2C 3D 4H", "AH KH 2S", "5S 6H 7D"], "10H 9S 4S",
                    table_face_up=[False] * 3, phase="draw", turn=1, discard=True,
                    options={"blitz_fee": 0})
    state, events = play(state, {"type": "exchange", "give": ["2S"], "take": [0]})
    assert "blitz" in types(events) and "paid" not in types(events)
    assert [seat.chips for seat in state.seats] == [-1, 2, -1] and state.pot == 0


def test_a_blitz_shows_only_the_blitz_not_the_other_hands():
    # A blitz is shown at once (RULES.md §4.7); there is no showdown, so the other hands stay
    # hidden (§3).
    state = arrange("bank", 3, ["2C 3D 4H", "AH KH 2S", "5S 6H 7D"], "10H 9S 4S",
                    table_face_up=[False] * 3, phase="draw", turn=1, discard=True)
    state, events = play(state, {"type": "exchange", "give": ["2S"], "take": [0]})
    assert [event["seat"] for event in events if event["type"] == "shown"] == [1]
    assert [hand is not None for hand in state.result["hands"]] == [False, True, False]
    seen = view(state, None)
    assert seen["hands"][0] == HIDDEN and seen["hands"][2] == HIDDEN


def test_an_exchange_that_makes_31_after_a_knock_is_a_blitz_only_when_the_option_says_so():
    for after, reason in ((False, "showdown"), (True, "blitz")):
        state = arrange("bank", 3, ["2C 3D 4H", "AH KH 2S", "5S 6H 7D"], "10H 9S 4S",
                        table_face_up=[False] * 3, phase="draw", turn=0, discard=True,
                        options={"blitz_after_knock": after})
        state, events = play(state, {"type": "knock"},
                             {"type": "exchange", "give": ["2S"], "take": [0]})
        if not after:
            assert "blitz" not in types(events)
            state, events = play(state, {"type": "stand"})
        assert state.result["reason"] == reason
