"""Scripted games of the draw-and-discard presets (RULES.md §3-§4.5), from hand-built positions:
each test states the rule it plays."""

import pytest

from thirtyone.cards import parse_card
from thirtyone.errors import MoveError, OptionError
from thirtyone.game import GameState, apply_move, dealing, legal_moves, new_game, validate_move
from thirtyone.hands import evaluator
from thirtyone.rules import make_rules


def position(hands, *, variant="scat", discard=("4S",), stock=(), options=None, dealer=0,
             turn=None, **fields):
    """A draw-phase state with these hands and discard pile; the stock is ``stock`` on top of
    the rest of the deck in deck order."""
    data = new_game(variant, len(hands), seed="scripted", options=options,
                    dealer=dealer).to_dict()
    used = {code for hand in hands for code in hand} | set(discard) | set(stock)
    deck = make_rules(variant, options).deck_cards
    data.update(
        hands=[list(hand) for hand in hands], discard=list(discard),
        stock=list(stock) + [card.code for card in deck if card.code not in used],
        turn=(dealer + 1) % len(hands) if turn is None else turn,
        phase="draw", turns=len(hands), result=None,
    )
    for name, value in fields.items():
        if name == "seats":
            for seat, changes in zip(data["seats"], value, strict=True):
                seat.update(changes)
        else:
            data[name] = value
    return GameState.from_dict(data)


def play(state, *moves):
    """Apply ``moves`` (dicts, or short strings: "stock", "discard", "knock", "stand",
    "next", or a card code to discard); return the state and all events."""
    shorthand = {
        "stock": {"type": "draw", "source": "stock"},
        "discard": {"type": "draw", "source": "discard"},
        "knock": {"type": "knock"},
        "stand": {"type": "stand"},
        "next": {"type": "next_round"},
    }
    events = []
    for move in moves:
        if isinstance(move, str):
            move = shorthand.get(move, {"type": "discard", "card": move})
        state, happened = apply_move(state, move)
        events += happened
    return state, events


def refused(state, move, code):
    before = state.to_dict()
    with pytest.raises(MoveError) as error:
        apply_move(state, move)
    assert error.value.code == code
    assert move not in legal_moves(state)
    assert state.to_dict() == before
    return error.value


def types(events):
    return [event["type"] for event in events]


def lives(state):
    return [seat.lives for seat in state.seats]


# A turn


def test_a_turn_is_draw_then_discard():
    state = position([["AS", "2S", "3D"], ["4C", "5C", "6C"], ["7H", "8H", "9H"]],
                     stock=["KS"], discard=["QH"])
    assert state.to_move == 1
    state, events = play(state, "stock")
    assert state.hands[1][-1].code == "KS" and state.phase == "discard"
    assert events == [{"type": "drew", "seat": 1, "source": "stock"}]
    refused(state, {"type": "knock"}, "must_discard")
    refused(state, {"type": "draw", "source": "stock"}, "must_discard")
    refused(state, {"type": "discard", "card": "AS"}, "card_not_in_hand")
    refused(state, {"type": "discard", "card": "1Z"}, "bad_card")
    refused(state, {"type": "discard"}, "bad_move")
    state, events = play(state, "4C")
    assert events == [{"type": "discarded", "seat": 1, "card": "4C"}]
    assert state.discard[-1].code == "4C" and state.to_move == 2 and state.phase == "draw"
    refused(state, {"type": "discard", "card": "7H"}, "must_draw")
    refused(state, {"type": "draw", "source": "deck"}, "bad_move")


def test_the_card_taken_from_the_discard_pile_stays_this_turn():
    hands = [["AS", "2S", "3D"], ["4C", "5C", "6C"]]
    state, events = play(position(hands, discard=["QH"]), "discard")
    assert events == [{"type": "drew", "seat": 1, "source": "discard", "card": "QH"}]
    assert state.pickup.code == "QH" and not state.discard
    refused(state, {"type": "discard", "card": "QH"}, "cannot_discard_pickup")
    assert len(legal_moves(state)) == 3
    state = position(hands, discard=["QH"], options={"may_discard_pickup": True})
    state, _ = play(state, "discard", "QH")
    assert state.discard[-1].code == "QH"


def test_no_knock_in_the_first_round_when_the_option_says_so():
    hands = [["AS", "2S", "3D"], ["4C", "5C", "6C"]]
    state = position(hands, options={"knock_first_round": False}, turns=0)
    refused(state, {"type": "knock"}, "no_knock_first_round")
    state, _ = play(state, "stock", "4C", "stock")
    state, _ = play(state, state.hands[0][0].code)
    validate_move(state, {"type": "knock"})
    # The default allows it.
    validate_move(position(hands, turns=0), {"type": "knock"})


# Knock and showdown


def test_after_a_knock_everyone_else_has_exactly_one_more_turn():
    hands = [["AS", "KS", "2D"], ["QC", "JC", "2H"], ["9D", "8D", "3C"]]
    state = position(hands, stock=["4H", "5H"])
    refused(state, {"type": "stand"}, "cannot_stand")
    state, events = play(state, "knock")
    assert events == [{"type": "knocked", "seat": 1}]
    assert state.knocker == 1 and state.final_turns == 2 and state.to_move == 2
    refused(state, {"type": "knock"}, "already_knocked")
    assert {"type": "stand"} in legal_moves(state)
    state, _ = play(state, "stock", "4H")
    assert state.final_turns == 1 and state.to_move == 0
    state, events = play(state, "stand")
    assert types(events)[:3] == ["stood", "showdown", "shown"]
    assert state.phase == "round_over"
    # 21, 20 and 17: the lowest (seat 2) loses one life.
    assert lives(state) == [3, 3, 2]
    assert state.result["lives_lost"] == [0, 0, 1]
    assert [hand["score"]["points"] for hand in state.result["hands"]] == [21, 20, 17]


def test_players_tied_for_lowest_all_lose_a_life():
    hands = [["AS", "KS", "2D"], ["QC", "7C", "2H"], ["9D", "8D", "3C"]]
    state, _ = play(position(hands, turn=0), "knock", "stand", "stand")
    assert lives(state) == [3, 2, 2]


def test_a_knocker_lowest_or_tied_loses_two_lives_and_the_tied_lose_nothing():
    hands = [["AS", "KS", "2D"], ["9C", "8C", "2H"], ["9D", "8D", "3C"]]
    state, _ = play(position(hands), "knock", "stand", "stand")
    assert lives(state) == [3, 1, 3]
    # knocker_penalty 1 is the amount only: the knocker alone still pays it (RULES.md §3).
    state, _ = play(position(hands, options={"knocker_penalty": 1}), "knock", "stand", "stand")
    assert lives(state) == [3, 2, 3]
    # knocker_ties: shared is "no knocker rule": the tied all pay one.
    state, _ = play(position(hands, options={"knocker_ties": "shared"}), "knock", "stand",
                    "stand")
    assert lives(state) == [3, 2, 2]


# Blitz


def test_a_blitz_after_a_discard_ends_the_round_and_costs_everyone_else_a_life():
    # blitz_after_knock: a blitz made in a last turn after a knock is a blitz too.
    state = position([["AS", "KS", "2D"], ["QC", "JC", "2H"], ["9D", "8D", "3C"]],
                     discard=["QS"], turn=0, knocker=1, final_turns=2,
                     options={"blitz_after_knock": True})
    state, events = play(state, "discard", "2D")
    assert events[2] == {"type": "blitz", "seat": 0, "cards": ["AS", "KS", "QS"]}
    assert state.phase == "round_over" and state.result["reason"] == "blitz"
    # Everyone else loses one life, the knocker included (not two).
    assert lives(state) == [3, 2, 2]
    assert state.result["hands"][1] is None


def test_the_blitz_rule_is_an_option():
    hands = [["AS", "KS", "2D"], ["QC", "JC", "2H"]]
    state, events = play(position(hands, discard=["QS"], turn=0), "discard", "2D")
    assert "blitz" in types(events)
    blitz = position(hands, variant="blitz", discard=["QS"], turn=0)
    state, events = play(blitz, "discard", "2D")
    assert "blitz" not in types(events) and state.phase == "draw"
    state, events = play(position(hands, variant="blitz", discard=["10S"], turn=0),
                         "discard", "2D")
    assert "blitz" in types(events)


def _dealt_blitz_seed(players=4):
    for seed in range(5000):
        state = new_game("scat", players, seed=seed, dealer=0)
        if state.phase == "round_over":
            return seed, state
    raise AssertionError("no dealt blitz found")


def test_a_blitz_dealt_ends_the_round_at_once():
    _, state = _dealt_blitz_seed()
    score = evaluator(state.rules).score
    holders = [seat for seat, hand in enumerate(state.hands) if score(hand).is_blitz]
    assert state.result["reason"] == "blitz" and state.result["blitz"] == holders
    assert all(seat.lives == (3 if i in holders else 2) for i, seat in enumerate(state.seats))
    assert not state.history


def test_several_dealt_blitzes_are_all_spared(monkeypatch):
    # Seats 0 and 2 are dealt 31 (dealing one card at a time from the dealer's left, seat 0).
    hands = [["AS", "KS", "QS"], ["2C", "3C", "5D"], ["AH", "KH", "QH"], ["4D", "6D", "7C"]]
    top = [parse_card(hand[i]) for i in range(3) for hand in hands]
    deck = make_rules("scat").deck_cards.cards
    monkeypatch.setattr(dealing, "shuffled", lambda cards, seed, label: (
        *top, *(card for card in deck if card not in top)))
    state = new_game("scat", 4, seed="two blitzes", dealer=3)
    assert [[card.code for card in hand] for hand in state.hands] == hands
    assert state.result["reason"] == "blitz" and state.result["blitz"] == [0, 2]
    assert lives(state) == [3, 2, 3, 2]
    assert [hand is not None for hand in state.result["hands"]] == [True, False, True, False]


# The stock runs out


def test_void_when_the_stock_runs_out_before_a_knock():
    deck = make_rules("scat").deck_cards
    hands = [["AS", "KS", "2D"], ["QC", "JC", "2H"]]
    used = {"AS", "KS", "2D", "QC", "JC", "2H", "5H"}
    state = position(hands, stock=["5H"])
    data = state.to_dict()
    data["discard"] = [card.code for card in deck if card.code not in used]
    data["stock"] = ["5H"]
    state = GameState.from_dict(data)
    state, events = play(state, "stock", "5H")
    assert types(events) == ["drew", "discarded", "stock_exhausted", "round_over"]
    assert state.result["reason"] == "void" and state.result["hands"] == [None, None]
    assert lives(state) == [3, 3]


def test_void_after_a_knock_leaves_the_discard_or_standing():
    deck = make_rules("scat").deck_cards
    hands = [["AS", "KS", "2D"], ["QC", "JC", "2H"], ["9D", "8D", "3C"]]
    used = {code for hand in hands for code in hand}
    rest = [card.code for card in deck if card.code not in used]
    state = position(hands, stock=rest[:1], discard=rest[1:])
    state, _ = play(state, "knock", "stock", "2C")
    assert state.phase == "draw" and not state.stock and state.to_move == 0
    refused(state, {"type": "draw", "source": "stock"}, "stock_empty")
    assert legal_moves(state) == [{"type": "draw", "source": "discard"}, {"type": "stand"}]
    state, _ = play(state, "stand")
    assert state.result["reason"] == "showdown"


def test_recycle_turns_the_discard_pile_over_without_shuffling():
    deck = make_rules("blitz").deck_cards
    hands = [["AS", "KS", "2D"], ["QC", "JC", "2H"]]
    used = {code for hand in hands for code in hand}
    rest = [card.code for card in deck if card.code not in used]
    data = position(hands, variant="blitz").to_dict()
    data.update(stock=[], discard=rest)
    state = GameState.from_dict(data)
    assert {"type": "draw", "source": "stock"} in legal_moves(state)
    state, events = play(state, "stock")
    assert events[0] == {"type": "stock_recycled", "cards": len(rest) - 1}
    # The first card discarded is now the top of the stock, and was drawn.
    assert state.hands[1][-1].code == rest[0]
    assert [card.code for card in state.discard] == rest[-1:]
    assert [card.code for card in state.stock] == rest[1:-1]


# Lives, the free ride, elimination, the end of the match


def test_the_free_ride_then_elimination_and_the_last_seat_wins():
    hands = [["AS", "KS", "2D"], ["9C", "8C", "2H"], ["9D", "7D", "3C"]]
    state = position(hands, seats=[{}, {}, {"lives": 1}])
    state, events = play(state, "knock", "stand", "stand")
    assert state.seats[2].lives == 0 and state.seats[2].free_ride
    assert {"type": "free_ride", "seat": 2} in events
    state = position(hands[:2], seats=[{}, {"lives": 0, "free_ride": True}])
    state, events = play(state, "knock", "stand")
    assert state.is_over and state.winners == (0,)
    assert {"type": "eliminated", "seat": 1} in events
    assert events[-1] == {"type": "match_won", "seat": 0, "shared": False}


def test_a_knocker_with_one_life_who_loses_two_is_out():
    hands = [["AS", "KS", "2D"], ["9C", "8C", "2H"], ["9D", "8D", "3C"]]
    state, events = play(position(hands, seats=[{}, {"lives": 1}, {}]), "knock", "stand", "stand")
    assert state.seats[1].eliminated
    assert {"type": "eliminated", "seat": 1} in events


def test_seats_all_put_out_by_one_settlement_share_the_win():
    hands = [["9S", "8S", "2D"], ["9C", "8C", "2H"]]
    state = position(hands, options={"max_turns": 10}, turns=9,
                     seats=[{"lives": 0, "free_ride": True}, {"lives": 0, "free_ride": True}])
    state, events = play(state, "stock", state.to_dict()["stock"][0])
    assert "turn_limit" in types(events)
    assert state.is_over and state.winners == (0, 1)
    assert not any(seat.eliminated for seat in state.seats)
    assert [event for event in events if event["type"] == "match_won"] == [
        {"type": "match_won", "seat": 0, "shared": True},
        {"type": "match_won", "seat": 1, "shared": True},
    ]


def test_max_turns_goes_straight_to_the_showdown():
    hands = [["AS", "KS", "2D"], ["9C", "8C", "2H"]]
    state = position(hands, options={"max_turns": 10}, turns=9)
    state, events = play(state, "stock", "2H")
    assert {"type": "turn_limit", "turns": 10} in events
    assert state.result["reason"] == "showdown" and state.result["knocker"] is None
    assert lives(state)[1] == 2


def test_the_deal_passes_left_skipping_eliminated_seats():
    state = new_game("scat", 3, seed="rotate", dealer=2)
    data = state.to_dict()
    data["seats"][0].update(lives=0, eliminated=True)
    data.update(phase="round_over", turn=None, result={"reason": "showdown"})
    state, events = play(GameState.from_dict(data), "next")
    assert state.dealer == 1 and state.round == 2
    assert events[0] == {"type": "dealt", "round": 2, "dealer": 1}
    assert state.hands[0] == () and state.to_move == 2
    assert len(state.stock) == 52 - 6 - 1
    state, _ = play(state, "knock")
    assert state.to_move == 1 and state.final_turns == 1


def test_rounds_limit_a_lives_match():
    hands = [["AS", "KS", "2D"], ["9C", "8C", "2H"], ["9D", "7D", "3C"]]
    state, _ = play(position(hands, options={"rounds": 1}), "knock", "stand", "stand")
    assert state.is_over and state.winners == (0, 1)


# Blitz (the handbook's game): chips, the pot, the honour tie-break


def test_blitz_lost_lives_are_chips_in_the_pot_for_the_last_seat():
    hands = [["AS", "KS", "2D"], ["9C", "8C", "2H"], ["9D", "7D", "3C"]]
    state, events = play(position(hands, variant="blitz"), "knock", "stand", "stand")
    assert state.pot == 1 and state.seats[2].chips == -1
    assert {"type": "paid", "seat": 2, "chips": 1} in events
    hands = [["AS", "KS", "2D"], ["9C", "8C", "2H"]]
    seats = [{"chips": -2, "lives": 1}, {"chips": -3, "lives": 0, "free_ride": True}]
    state = position(hands, variant="blitz", pot=5, seats=seats)
    state, events = play(state, "knock", "stand")
    assert state.is_over and state.winners == (0,)
    assert state.pot == 0 and state.seats[0].chips == 3
    assert {"type": "pot_won", "seat": 0, "chips": 5} in events


def test_blitz_honour_tie_break_by_ranks():
    # Two seats left, tied at 20, the knocker (seat 1) on a free ride: ranks decide.
    hands = [["KS", "QC", "2D"], ["JC", "QH", "3D"]]
    # Each life lost was a chip paid into the pot: seat 1 paid its three.
    seats = [{"chips": 0}, {"chips": -3, "lives": 0, "free_ride": True}]
    state, events = play(position(hands, variant="blitz", pot=3, seats=seats), "knock", "stand")
    assert state.is_over and state.winners == (0,)
    # Without the option the tie costs both a life: the knocker goes out, seat 0 pays a chip.
    state = position(hands, variant="blitz", pot=3, seats=seats,
                     options={"honour_tie_break": False})
    state, events = play(state, "knock", "stand")
    assert state.winners == (0,) and {"type": "paid", "seat": 0, "chips": 1} in events


def test_blitz_identical_ranks_end_the_match_drawn_odd_chip_to_the_knockers_opponent():
    hands = [["KS", "QC", "2D"], ["KC", "QH", "2S"]]
    seats = [{"chips": 0}, {"chips": -3, "lives": 0, "free_ride": True}]
    state, events = play(position(hands, variant="blitz", pot=3, seats=seats), "knock", "stand")
    assert state.is_over and state.winners == (0, 1) and state.result["draw"]
    # Seat 1 knocked: seat 0, its opponent, gets the odd chip.
    assert [event for event in events if event["type"] == "pot_won"] == [
        {"type": "pot_won", "seat": 0, "chips": 2}, {"type": "pot_won", "seat": 1, "chips": 1}]


# Cut-throat


def test_cut_throat_trips_equal_and_no_free_ride():
    hands = [["AS", "AH", "AD"], ["2C", "2H", "2D"], ["KS", "QS", "9D"]]
    state, _ = play(position(hands, variant="cut-throat"), "knock", "stand", "stand")
    # Both trips score 30.5 and tie; seat 2 (20) is lowest.
    assert lives(state) == [3, 3, 2]
    hands = [["AS", "AH", "AD"], ["2C", "2H", "2D"]]
    state, _ = play(position(hands, variant="cut-throat", turn=0), "knock", "stand")
    # The knocker (seat 0) ties: it alone pays two lives.
    assert lives(state) == [1, 3]
    state = position(hands, variant="cut-throat", turn=0, seats=[{"lives": 1}, {}])
    state, events = play(state, "knock", "stand")
    assert state.is_over and state.seats[0].eliminated and "free_ride" not in types(events)


# No elimination: points


def test_no_elimination_high_middle_low_and_the_knocker():
    # 30, 27, 27, 27: the 30 is high, the three 27s middle, nobody low.
    hands = [["KS", "QS", "JS"], ["KH", "QH", "7H"], ["KD", "QD", "7D"], ["KC", "QC", "7C"]]
    state, _ = play(position(hands, variant="no-elimination"), "knock", "stand", "stand",
                         "stand")
    assert state.result["ranks"] == ["high", "middle", "middle", "middle"]
    # Seat 1 knocked: middle for the knocker is one point.
    assert state.result["points"] == [3, 1, 2, 2]
    hands = [["KS", "QS", "JS"], ["KH", "QH", "7H"], ["KD", "QD", "8D"], ["KC", "2C", "7C"]]
    state, _ = play(position(hands, variant="no-elimination", turn=0), "knock", "stand",
                    "stand", "stand")
    assert state.result["ranks"] == ["high", "middle", "middle", "low"]
    assert state.result["points"] == [4, 2, 2, 1]
    state, _ = play(position(hands, variant="no-elimination", turn=3), "knock", "stand",
                    "stand", "stand")
    assert state.result["points"] == [3, 2, 2, 0]
    assert all(seat.lives == 0 for seat in state.seats)


def test_no_elimination_blitz_scores_six():
    hands = [["AS", "KS", "2D"], ["QC", "JC", "2H"], ["9D", "8D", "3C"]]
    state, _ = play(position(hands, variant="no-elimination", discard=["QS"], turn=0,
                             knocker=1, final_turns=2, options={"blitz_after_knock": True}),
                    "discard", "2D")
    assert state.result["ranks"] == ["blitz", "high", "low"]
    assert state.result["points"] == [6, 4, 1]


def test_no_elimination_lasts_one_deal_per_player_or_until_the_target():
    state = new_game("no-elimination", 3, seed="points")
    rounds = 0
    while not state.is_over:
        state, events = apply_move(state, legal_moves(state)[-1])
        rounds += "round_over" in types(events)
    assert rounds == 3 == state.round
    best = max(seat.points for seat in state.seats)
    assert state.winners == tuple(i for i, s in enumerate(state.seats) if s.points == best)
    hands = [["KS", "QS", "JS"], ["KH", "QH", "7H"], ["KD", "QD", "7D"]]
    state, _ = play(position(hands, variant="no-elimination", options={"target": 3}),
                    "knock", "stand", "stand")
    assert state.is_over and state.winners == (0,)


# Eenendertigen


def test_eenendertigen_plays_with_the_piquet_deck():
    state = new_game("eenendertigen", 4, seed=1)
    assert len(state.stock) == 32 - 12 - 1
    assert all(card.rank_order >= 7 for hand in state.hands for card in hand)
    data = state.to_dict()
    data["stock"][0] = "2S"
    with pytest.raises(Exception) as error:
        GameState.from_dict(data)
    assert error.value.code == "card_not_in_deck"


def test_eenendertigen_a_scripted_round():
    hands = [["AS", "KS", "7D"], ["QC", "JC", "8H"], ["9D", "8D", "7C"]]
    state = position(hands, variant="eenendertigen", discard=["10S"], stock=["AC"])
    assert len(state.stock) == 32 - 9 - 1
    state, events = play(state, "stock", "8H")  # seat 1: QC JC AC, 31 in clubs: a blitz
    assert {"type": "blitz", "seat": 1, "cards": ["QC", "JC", "AC"]} in events
    assert lives(state) == [2, 3, 2]
    state, events = play(state, "next")
    assert state.dealer == 1 and len(state.stock) == 32 - 9 - 1 and state.to_move == 2


# Options that change the defaults above


def test_lives_is_an_option_and_lost_lives_cost_chips_only_with_lives_to_pot():
    hands = [["AS", "KS", "2D"], ["9C", "8C", "2H"], ["9D", "7D", "3C"]]
    # [003]'s five-dollar bill has four corners.
    state, _ = play(position(hands, options={"lives": 4}), "knock", "stand", "stand")
    assert lives(state) == [4, 4, 3]
    state, events = play(position(hands, variant="blitz", options={"lives_to_pot": False}),
                         "knock", "stand", "stand")
    assert lives(state) == [3, 3, 2] and state.pot == 0 and "paid" not in types(events)
    assert all(seat.chips == 0 for seat in state.seats)


# House rules (RULES.md §3, §4.1, new)


@pytest.mark.parametrize("ties", ["penalty", "safe"])
def test_knocker_ties_a_tie_with_the_knocker(ties):
    # Seat 1 knocks with 17 and ties seat 2 for lowest; seat 0 has 21.
    hands = [["AS", "KS", "2D"], ["9C", "8C", "2H"], ["9D", "8D", "3C"]]
    state, _ = play(position(hands, options={"knocker_ties": ties}), "knock", "stand", "stand")
    if ties == "penalty":
        # The knocker alone pays knocker_penalty (2); the other tied seat pays nothing.
        assert lives(state) == [3, 1, 3]
    else:
        # The knocker wins ties: only the other seat tied for lowest loses.
        assert lives(state) == [3, 3, 2]
    assert state.result["knocker"] == 1


@pytest.mark.parametrize(("ties", "penalty", "expected"),
                         [("safe", 2, [3, 1, 3]), ("safe", 1, [3, 2, 3])])
def test_knocker_ties_safe_a_knocker_strictly_lowest_still_pays(ties, penalty, expected):
    hands = [["AS", "KS", "2D"], ["9C", "7C", "2H"], ["9D", "8D", "3C"]]
    options = {"knocker_ties": ties, "knocker_penalty": penalty}
    state, _ = play(position(hands, options=options), "knock", "stand", "stand")
    assert lives(state) == expected


def test_knocker_ties_safe_with_no_knocker_rule_spares_only_the_knocker():
    hands = [["9S", "8S", "2D"], ["9C", "8C", "2H"], ["9D", "8D", "3C"]]
    options = {"knocker_ties": "safe", "knocker_penalty": 1}
    state, _ = play(position(hands, options=options), "knock", "stand", "stand")
    assert lives(state) == [2, 3, 2]


@pytest.mark.parametrize("value", ["allowed", "forbidden", "showdown"])
def test_knock_first_round_a_knock_on_the_very_first_turn(value):
    hands = [["AS", "KS", "2D"], ["9C", "8C", "2H"], ["9D", "7D", "3C"]]
    state = position(hands, options={"knock_first_round": value}, turns=0)
    if value == "forbidden":
        refused(state, {"type": "knock"}, "no_knock_first_round")
        return
    state, events = play(state, "knock")
    if value == "allowed":
        # The others each have one last turn.
        assert events == [{"type": "knocked", "seat": 1}]
        assert (state.phase, state.final_turns, state.to_move) == ("draw", 2, 2)
        state, _ = play(state, "stand", "stand")
    else:
        # Nobody has played yet: straight to the showdown, no last turns.
        assert types(events)[:3] == ["knocked", "first_turn_knock", "showdown"]
        assert events[1] == {"type": "first_turn_knock", "seat": 1}
    assert state.result["reason"] == "showdown" and state.result["knocker"] == 1
    # The knocker's 17 is above seat 2's 16: seat 2 loses a life either way.
    assert lives(state) == [3, 3, 2]


def test_knock_first_round_showdown_only_before_anyone_has_played():
    hands = [["AS", "KS", "2D"], ["9C", "8C", "2H"], ["9D", "7D", "3C"]]
    state = position(hands, options={"knock_first_round": "showdown"}, turns=0)
    state, _ = play(state, "stock", state.hands[1][0].code)
    state, events = play(state, "knock")
    assert events == [{"type": "knocked", "seat": 2}] and state.final_turns == 2


def _stock_of_one(variant="scat", options=None):
    """Two seats, one card left in the stock, the rest of the deck in the discard pile."""
    deck = make_rules(variant, options).deck_cards
    hands = [["AS", "KS", "2D"], ["QC", "JC", "2H"]]
    used = {"AS", "KS", "2D", "QC", "JC", "2H", "5H"}
    data = position(hands, variant=variant, options=options).to_dict()
    data["discard"] = [card.code for card in deck if card.code not in used]
    data["stock"] = ["5H"]
    return GameState.from_dict(data)


def test_stock_exhausted_showdown_ends_the_round_with_a_showdown_without_a_knocker():
    state, events = play(_stock_of_one(options={"stock_exhausted": "showdown"}), "stock", "5H")
    assert types(events)[:4] == ["drew", "discarded", "stock_showdown", "showdown"]
    assert state.result["reason"] == "showdown" and state.result["knocker"] is None
    # 21 against 20: seat 1 loses one life (no knocker, so no penalty).
    assert lives(state) == [3, 2]


def test_stock_exhausted_showdown_after_a_knock_the_last_turns_are_played():
    state = _stock_of_one(options={"stock_exhausted": "showdown"})
    data = state.to_dict()
    data.update(knocker=0, final_turns=1)
    state, events = play(GameState.from_dict(data), "stock", "5H")
    assert "stock_showdown" not in types(events) and state.result["knocker"] == 0


def test_stock_exhausted_reshuffle_shuffles_the_discard_pile_by_the_seed():
    options = {"stock_exhausted": "reshuffle"}
    state = _stock_of_one(options=options)
    rest = [card.code for card in state.discard]
    state, _ = play(state, "stock", "5H")  # the stock is now empty
    assert state.phase == "draw" and not state.stock
    assert {"type": "draw", "source": "stock"} in legal_moves(state)
    before = state
    state, events = play(state, "stock")
    pile = [*rest, "5H"]
    assert events[0] == {"type": "stock_reshuffled", "cards": len(pile) - 1}
    new_stock = [state.hands[0][-1].code] + [card.code for card in state.stock]
    assert sorted(new_stock) == sorted(pile[:-1]) and new_stock != pile[:-1]
    assert [card.code for card in state.discard] == ["5H"]
    # The same state and move shuffle the same way: the seed decides.
    again, _ = play(before, "stock")
    assert again == state
    recycled, _ = play(GameState.from_dict({**before.to_dict(), "rules": {
        "variant": "scat", "options": {"stock_exhausted": "recycle"}}}), "stock")
    assert [card.code for card in recycled.stock] == pile[1:-1]


@pytest.mark.parametrize("after", [False, True])
def test_blitz_after_knock_both_ways(after):
    # Seat 1 knocked; seat 0 makes 31 in its last turn.
    hands = [["AS", "KS", "2D"], ["QC", "JC", "2H"], ["9D", "8D", "3C"]]
    state = position(hands, discard=["QS"], turn=0, knocker=1, final_turns=1,
                     options={"blitz_after_knock": after})
    state, events = play(state, "discard", "2D")
    if after:
        assert "blitz" in types(events) and state.result["reason"] == "blitz"
        # Everyone else loses a life, the knocker included.
        assert lives(state) == [3, 2, 2]
    else:
        # Only the best hand at the showdown: the lowest (seat 2, 17) loses.
        assert "blitz" not in types(events) and state.result["reason"] == "showdown"
        assert lives(state) == [3, 3, 2]
        assert state.result["hands"][0]["score"]["category"] == "blitz"


def test_a_blitz_before_any_knock_is_shown_whatever_blitz_after_knock():
    hands = [["AS", "KS", "2D"], ["QC", "JC", "2H"]]
    state, events = play(position(hands, discard=["QS"], turn=0), "discard", "2D")
    assert "blitz" in types(events) and state.result["reason"] == "blitz"


def test_feuer_in_the_draw_family_is_a_blitz():
    options = {"three_aces": 33, "three_aces_fire": True}
    hands = [["AS", "AD", "2C"], ["QC", "JC", "2H"], ["9D", "8D", "3C"]]
    state, events = play(position(hands, discard=["AH"], turn=0, options=options),
                         "discard", "2C")
    assert events[2] == {"type": "fire", "seat": 0, "cards": ["AS", "AD", "AH"]}
    assert state.result["reason"] == "blitz" and lives(state) == [3, 2, 2]


def test_scat_seats_up_to_nine():
    state = new_game("scat", 9, seed="nine")
    assert sum(len(hand) for hand in state.hands) == 27
    with pytest.raises(OptionError):
        new_game("scat", 10, seed="ten")
