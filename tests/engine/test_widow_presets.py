"""Trentuno, jokers, no-trips and stop-the-bus (RULES.md §4.8-§4.10, §4.12), scripted."""

import importlib.util
from pathlib import Path

import pytest

from thirtyone.errors import MoveError, OptionError, StateError
from thirtyone.game import GameState, apply_move, legal_moves, new_game, view
from thirtyone.hands import evaluator
from thirtyone.rules import make_rules

_spec = importlib.util.spec_from_file_location(
    "widow_arrange", Path(__file__).with_name("widow_arrange.py"))
_arrange = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_arrange)
arrange, play, types = _arrange.arrange, _arrange.play, _arrange.types

KNOCK, STAND = {"type": "knock"}, {"type": "stand"}


def exchange(give, take):
    return {"type": "exchange", "give": give.split(), "take": take}


# Trentuno


def _first_deal(variant, reason, tries=3000):
    """The first seeded deal that ends at once for ``reason``."""
    for seed in range(tries):
        state = new_game(variant, 4, seed=seed, dealer=0)
        if state.result and state.result["reason"] == reason:
            return state
    raise AssertionError(f"no deal ends with {reason}")


def test_trentuno_a_widow_of_31_wins_the_pot_for_the_dealer():
    state = _first_deal("trentuno", "widow_31")
    score = evaluator(state.rules).score(state.table)
    assert score.points == 31 and all(state.table_face_up)
    assert state.result["deal_winners"] == [0]
    assert state.seats[0].chips == 3 and state.pot == 0
    # No showdown: the widow is shown, the hands stay hidden (RULES.md §3).
    assert state.result["hands"] == [None] * 4


def test_trentuno_players_dealt_31_win_the_pot():
    state = _first_deal("trentuno", "dealt_31")
    score = evaluator(state.rules).score
    holders = [seat for seat in range(4) if score(state.hands[seat]).points == 31]
    assert state.result["blitz"] == holders
    assert set(state.result["deal_winners"]) <= set(holders)
    # Only the 31s are declared and shown (RULES.md §3, §4.8).
    assert [seat for seat, hand in enumerate(state.result["hands"]) if hand] == holders


def test_trentuno_every_turn_exchanges_one_to_three_cards_and_never_knocks():
    state = arrange("trentuno", 3, ["7C 8D 9H", "7H 8S 9C", "10D JD QH"], "AS KS QS",
                    phase="exchange", turn=1)
    kinds = {move["type"] for move in legal_moves(state)}
    assert kinds == {"exchange"}
    assert len(legal_moves(state)) == 9 + 9 + 1
    for move, code in ((KNOCK, "no_plain_knock"), (STAND, "must_exchange"),
                       ({"type": "pass"}, "unknown_move")):
        with pytest.raises(MoveError) as error:
            apply_move(state, move)
        assert error.value.code == code


def test_trentuno_taking_all_three_is_the_knock_and_play_returns_to_the_taker():
    state = arrange("trentuno", 3, ["7C 8D 9H", "7H 8S 9C", "10D JD QH"], "AS KS 9S",
                    phase="exchange", turn=1)
    state, events = play(state, exchange("7H 8S 9C", [0, 1, 2]))
    assert types(events) == ["exchanged", "knocked"]
    assert (state.knocker, state.final_turns, state.to_move) == (1, 2, 2)
    with pytest.raises(MoveError):
        apply_move(state, STAND)
    state, events = play(state, exchange("QH", [0]), exchange("7C", [1]))
    assert "showdown" in types(events) and state.phase == "round_over"
    assert state.result["deal_winners"] == [1]  # A K 9 of spades, 30


def test_trentuno_making_31_wins_at_once():
    state = arrange("trentuno", 3, ["7C 8D 9H", "AH KH 8S", "10D JD QD"], "10H 9S 7S",
                    phase="exchange", turn=1)
    state, events = play(state, exchange("8S", [0]))
    assert types(events)[:2] == ["exchanged", "thirty_one"]
    assert state.result["deal_winners"] == [1] and state.seats[1].chips == 2


def test_trentuno_the_jack_of_clubs_makes_trips_below_a_suited_30():
    score = evaluator(make_rules("trentuno")).read
    with_jack, pure, suited = score("8C JC 8H"), score("8C 8D 8H"), score("KD QD JD")
    assert (with_jack.category, with_jack.points) == ("three-of-a-kind", 30)
    assert with_jack < pure < suited
    assert score("JC 9H 7S").category != "three-of-a-kind"


# Jokers


def test_jokers_plays_54_cards_exchanges_any_number_and_charges_the_caller():
    state = new_game("jokers", 3, seed="j", dealer=0)
    assert len(state.rules.deck_cards) == 54 and state.pot == 3
    assert {len(move["give"]) for move in legal_moves(state) if move["type"] == "exchange"} == {
        1, 2, 3}
    state, events = play(state, KNOCK)
    assert events[:2] == [{"type": "knocked", "seat": 1}, {"type": "paid", "seat": 1, "chips": 1}]
    assert state.pot == 4 and state.seats[1].chips == -2


def test_jokers_without_a_call_fee_the_knock_is_free():
    state = new_game("jokers", 3, seed="j", dealer=0, options={"call_fee": 0})
    state, events = play(state, KNOCK)
    assert events == [{"type": "knocked", "seat": 1}]
    assert state.pot == 3 and state.seats[1].chips == -1


def test_jokers_three_aces_are_31_and_end_the_exchanges():
    state = arrange("jokers", 3, ["7C 8D 9H", "AH AD 8S", "10D JD QD"], "AC 9S 7S",
                    phase="exchange", turn=1)
    state, events = play(state, exchange("8S", [0]))
    assert "thirty_one" in types(events) and state.result["deal_winners"] == [1]


def test_jokers_equal_points_go_to_the_higher_suit():
    state = arrange("jokers", 3, ["2D 3D 4H", "AS KS 2C", "AH KH 3C"], "5S 9C 7D",
                    phase="exchange", turn=1)
    state, _ = play(state, KNOCK, STAND, STAND)
    assert state.result["deal_winners"] == [2]  # hearts rank above spades


def test_jokers_tie_split_in_the_same_suit():
    # Two hands of 21 in hearts and diamonds would not tie; the same suit needs a joker.
    state = arrange("jokers", 3, ["2C 3D 4H", "AH KH 2S", "X1 QH 3S"], "5S 9C 7D",
                    phase="exchange", turn=1)
    score = evaluator(state.rules).score
    assert score(state.hands[1]) == score(state.hands[2])
    state, _ = play(state, KNOCK, STAND, STAND)
    assert state.result["deal_winners"] == [1, 2]
    assert [seat.chips for seat in state.seats] == [-1, -2 + 2, -1 + 2] and state.pot == 0


def test_jokers_tie_carry_others_join_by_paying_the_pot():
    state = arrange("jokers", 3, ["2C 3D 4H", "AH KH 2S", "X1 QH 3S"], "5S 9C 7D",
                    phase="exchange", turn=1, options={"tie": "carry"})
    state, _ = play(state, KNOCK, STAND, STAND, {"type": "next_round"})
    assert state.result["carry"] == [1, 2] and state.pot == 4
    assert (state.phase, state.to_move) == ("join", 0)
    state, _ = play(state, {"type": "join"})
    assert state.pot == 8 and state.seats[0].chips == -5
    assert state.phase == "exchange"


def test_jokers_with_36_cards_has_one_wild_card_and_at_most_11_players():
    rules = make_rules("jokers", {"deck": "short36"})
    six = next(card for card in rules.deck_cards if card.code == "6S")
    score = evaluator(rules).score(
        [six, *(card for card in rules.deck_cards if card.code in ("AH", "KH"))])
    assert score.points == 31
    new_game("jokers", 11, options={"deck": "short36"})
    with pytest.raises(OptionError) as error:
        new_game("jokers", 12, options={"deck": "short36"})
    assert error.value.code == "bad_players"


# No-trips


def test_no_trips_the_dealer_chooses_and_the_table_is_hidden_until_then():
    state = new_game("no-trips", 3, seed="nt", dealer=0)
    assert (state.phase, state.to_move) == ("choose", 0)
    for seat in (None, 0, 1, 2):
        assert view(state, seat)["table"] == [None, None, None]
    hand = [card.code for card in state.hands[0]]
    table = [card.code for card in state.table]
    swapped, events = play(state, {"type": "exchange", "give": hand, "take": [0, 1, 2]})
    assert sorted(card.code for card in swapped.hands[0]) == sorted(table)
    assert view(swapped, 1)["table"] == hand and events[0]["took"] == [None] * 3
    assert (swapped.phase, swapped.to_move) == ("exchange", 1)
    revealed, events = play(state, {"type": "reveal"})
    assert view(revealed, 2)["table"] == table and events[0]["type"] == "widow_revealed"
    with pytest.raises(MoveError) as error:
        apply_move(state, {"type": "exchange", "give": hand[:1], "take": [0]})
    assert error.value.code == "bad_exchange_size"


def test_no_trips_one_card_exchanges_including_the_dealer_then_knock():
    state = arrange("no-trips", 3, ["7C 8D 9H", "7H 8S 9C", "10D JD QH"], "AS KS QS",
                    table_face_up=[True] * 3, phase="exchange", turn=1)
    assert {len(m["give"]) for m in legal_moves(state) if m["type"] == "exchange"} == {1}
    state, _ = play(state, exchange("7H", [0]), exchange("10D", [1]))
    assert state.to_move == 0  # the dealer exchanges too
    state, _ = play(state, KNOCK, STAND, exchange("QH", [2]))
    assert state.phase == "round_over" and state.result["reason"] == "showdown"


def test_no_trips_table_face_up_has_no_dealers_choice():
    state = new_game("no-trips", 3, seed="nt", dealer=0, options={"table_face_up": True})
    assert (state.phase, state.to_move) == ("exchange", 1) and all(state.table_face_up)
    with pytest.raises(MoveError) as error:
        apply_move(state, {"type": "reveal"})
    assert error.value.code == "wrong_phase"


def test_no_trips_escalating_the_loser_of_deal_k_pays_k_and_ties_all_pay():
    state = arrange("no-trips", 3, ["7C 8D 9H", "7H 8S 9C", "10D JD QH"], "AS KS QS",
                    table_face_up=[True] * 3, phase="exchange", turn=1, round=3)
    state, _ = play(state, KNOCK, STAND, STAND)
    # Seats 0 and 1 tie for lowest at 9 points: both pay 3.
    assert state.result["losers"] == [0, 1]
    assert [seat.chips for seat in state.seats] == [-3, -3, 0] and state.pot == 6
    assert not state.is_over


def test_no_trips_a_31_makes_every_opponent_pay():
    state = arrange("no-trips", 3, ["7C 8D 9H", "AH KH 8S", "10D JD QH"], "10H 9S 7S",
                    table_face_up=[True] * 3, phase="exchange", turn=1, round=2)
    state, _ = play(state, exchange("8S", [0]))
    assert state.result["losers"] == [0, 2] and state.pot == 4
    # The 31 ends the deal at once, without a showdown: only it is shown (RULES.md §3).
    assert [hand is not None for hand in state.result["hands"]] == [False, True, False]


def test_no_trips_from_the_fifth_deal_the_loser_is_out_and_the_last_takes_the_pot():
    state = arrange("no-trips", 2, ["7C 8D 9H", "10D JD QH"], "AS KS QS",
                    table_face_up=[True] * 3, phase="exchange", turn=1, round=5,
                    seats=[{"lives": 0, "chips": -4, "points": 0, "free_ride": False,
                            "eliminated": False},
                           {"lives": 0, "chips": -6, "points": 0, "free_ride": False,
                            "eliminated": False}], pot=10)
    state, events = play(state, KNOCK, STAND)
    assert "eliminated" in types(events)
    assert state.is_over and state.winners == (1,)
    assert [seat.chips for seat in state.seats] == [-9, 9] and state.pot == 0


def test_no_trips_betting_is_refused_until_built():
    with pytest.raises(OptionError) as error:
        new_game("no-trips", 3, options={"stakes": "betting"})
    assert error.value.code == "not_implemented"


# Stop the Bus


def test_stop_the_bus_exchanges_one_or_all_three_and_ranks_as_brag():
    state = arrange("stop-the-bus", 3, ["2C 3D 5H", "7H 7S 9C", "QD QH 4S"], "8D 9D 10D",
                    phase="exchange", turn=1)
    sizes = {len(m["give"]) for m in legal_moves(state) if m["type"] == "exchange"}
    assert sizes == {1, 3}
    with pytest.raises(MoveError) as error:
        apply_move(state, exchange("7H 7S", [0, 1]))
    assert error.value.code == "bad_exchange_size"
    state, _ = play(state, exchange("7H 7S 9C", [0, 1, 2]), KNOCK, STAND, STAND)
    # Seat 1's running flush 8-9-10 beats seat 2's pair of queens; seat 0 loses a life.
    assert state.result["lives_lost"] == [1, 0, 0]


@pytest.mark.parametrize(("hands", "order", "lost"), [
    # Three threes, three aces (the knocker), three kings.
    ("3C 3D 3H|AH AD AS|KC KD KH", "traditional", [0, 0, 1]),
    ("3C 3D 3H|AH AD AS|KC KD KH", "ace-high", [1, 0, 0]),
    # A-2-3, A-K-Q (the knocker), 4-3-2.
    ("AC 2D 3S|AH KD QS|4C 3H 2C", "traditional", [0, 0, 1]),
    ("AC 2D 3S|AH KD QS|4C 3H 2C", "ace-high", [1, 0, 0]),
])
def test_stop_the_bus_brag_order_decides_the_showdown(hands, order, lost):
    state = arrange("stop-the-bus", 3, hands.split("|"), "8D 9C JH", phase="exchange", turn=1,
                    turns=3, options={"brag_order": order})
    state, _ = play(state, KNOCK, STAND, STAND)
    assert state.result["reason"] == "showdown" and state.result["lives_lost"] == lost


@pytest.mark.parametrize("variant, phase, turn", [
    ("schnautz", "join", 1), ("jokers", "declare", 1), ("no-trips", "choose", 1),
    ("stop-the-bus", "choose", 0), ("trentuno", "keep", 0),
])
def test_a_phase_that_does_not_fit_the_position_is_refused(variant, phase, turn):
    data = new_game(variant, 3, seed="phase", dealer=0).to_dict()
    data.update(phase=phase, turn=turn)
    with pytest.raises(StateError) as error:
        GameState.from_dict(data)
    assert error.value.code == "bad_phase"


def test_a_widow_state_with_a_discard_pile_or_a_short_widow_is_refused():
    data = new_game("schnautz", 3, seed="table", dealer=0).to_dict()
    data["discard"], data["table"] = data["table"][:1], data["table"][1:]
    data["table_face_up"] = data["table_face_up"][1:]
    with pytest.raises(StateError) as error:
        GameState.from_dict(data)
    assert error.value.code == "bad_table"


@pytest.mark.parametrize("move, code, field", [
    ({"type": "exchange", "give": ["7H"], "take": [3]}, "bad_position", "take"),
    ({"type": "exchange", "give": ["7H"], "take": [True]}, "bad_position", "take"),
    ({"type": "exchange", "give": ["7H", "8S"], "take": [0, 0]}, "bad_position", "take"),
    ({"type": "exchange", "give": ["AS"], "take": [0]}, "card_not_in_hand", "give"),
    ({"type": "exchange", "give": ["7H", "7H"], "take": [0, 1]}, "bad_move", "give"),
    ({"type": "exchange", "give": ["7H", "8S"], "take": [0]}, "bad_move", "take"),
    ({"type": "exchange", "give": ["ZZ"], "take": [0]}, "bad_card", "give"),
    ({"type": "exchange", "give": "7H", "take": [0]}, "bad_move", "give"),
    ({"type": "exchange", "give": [], "take": []}, "bad_move", "give"),
    ({"type": "exchange", "give": ["7H", "8S"], "take": [0, 1]}, "bad_exchange_size", "give"),
    ({"type": "draw", "source": "stock"}, "unknown_move", "type"),
    ({"type": "keep", "hand": 0}, "unknown_move", "type"),
])
def test_a_bad_exchange_is_refused_with_its_code_and_nothing_changes(move, code, field):
    state = arrange("stop-the-bus", 3, ["7C 8D 9H", "7H 8S 9C", "10D JD QH"], "AS KS QS",
                    phase="exchange", turn=1)
    before = state.to_dict()
    with pytest.raises(MoveError) as error:
        apply_move(state, move)
    assert (error.value.code, error.value.field) == (code, field)
    assert state.to_dict() == before


def test_cards_given_face_down_to_a_face_up_widow_are_taken_unseen():
    state = arrange("schnautz", 3, ["2C 3D 4H", "7H 8D 9C", "5S 6H 7D"], "AS KS 4S",
                    phase="exchange", turn=1, options={"widow_discards": "face-down"})
    state, events = play(state, exchange("7H", [0]))
    assert events[0]["gave"] == [None] and view(state, 2)["table"] == [None, "KS", "4S"]
    state, events = play(state, exchange("5S", [0]))
    assert events[0]["took"] == [None] and "7H" in [card.code for card in state.hands[2]]


def test_stop_the_bus_no_knock_in_the_first_round_when_the_table_says_so():
    state = arrange("stop-the-bus", 3, ["7C 8D 9H", "7H 8S 9C", "10D JD QH"], "AS KS QS",
                    phase="exchange", turn=1, options={"knock_first_round": False})
    assert KNOCK not in legal_moves(state)
    with pytest.raises(MoveError) as error:
        apply_move(state, KNOCK)
    assert error.value.code == "no_knock_first_round"
    state, _ = play(state, exchange("7H", [0]), exchange("10D", [0]), exchange("7C", [0]))
    assert KNOCK in legal_moves(state)


def test_jokers_short36_plays_another_wild_card_when_told():
    state = arrange("jokers", 3, ["7C 8D 9H", "AH KH 8S", "10D JD QD"], "7H 9S 6S",
                    phase="exchange", turn=1, options={"deck": "short36", "joker_card": "7H"})
    state, events = play(state, exchange("8S", [0]))
    assert "thirty_one" in types(events)  # 7H stands for the ten of hearts
