"""Schwimmen (RULES.md §4.14) and the widow family's new house rules (§3: ``on_31``,
``knock_first_round``), scripted from hand-built positions; then random matches of 2, 4 and 9
players with the shared invariants checked after every move."""

import importlib.util
import json
import random
import time
from pathlib import Path

import pytest

from thirtyone.cards import parse_card
from thirtyone.errors import MoveError
from thirtyone.events import EVENT_MESSAGES
from thirtyone.game import GameState, apply_move, dealing, legal_moves, new_game, view


def _load(name):
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_arrange = _load("widow_arrange")
arrange, play, types = _arrange.arrange, _arrange.play, _arrange.types
shared = _load("test_game_random")

KNOCK, PASS = {"type": "knock"}, {"type": "pass"}
DECK = [card.code for card in new_game("schwimmen", 2, seed=0).rules.deck_cards]


def exchange(give, take):
    return {"type": "exchange", "give": give.split(), "take": take}


def lives(state):
    return [seat.lives for seat in state.seats]


def table(state):
    return [card.code for card in state.table]


def position(hands, table_cards, *, options=None, turn=1, turns=3, **fields):
    """Three seats, seat 0 dealing, in the exchange phase with the table face up."""
    return arrange("schwimmen", len(hands), hands, table_cards, options=options,
                   phase="exchange", turn=turn, turns=turns,
                   table_face_up=[True] * 3, **fields)


# Seat 0 21 (AS KS 7D), seat 1 19 (9C QC 8H), seat 2 17 (8D 9D 7H); the table 10H JH 7S.
HANDS = ["AS KS 7D", "9C QC 8H", "8D 9D 7H"]
TABLE = "10H JH 7S"


# The deal and the dealer's choice


def _deal(monkeypatch, hands, spare, dealer=0):
    """Deal ``hands`` (by seat) and the dealer's ``spare`` hand, one card at a time from the
    dealer's left, the spare hand getting one card after each round."""
    players = len(hands)
    order = [(dealer + step) % players for step in range(1, players + 1)]
    top = []
    for position_ in range(3):
        top += [parse_card(hands[seat].split()[position_]) for seat in order]
        top.append(parse_card(spare.split()[position_]))
    rest = [card for card in new_game("schwimmen", 2, seed=0).rules.deck_cards
            if card not in top]
    monkeypatch.setattr(dealing, "shuffled", lambda cards, seed, label: (*top, *rest))


def test_the_dealer_keeps_the_first_hand_or_takes_the_spare_one_unseen(monkeypatch):
    _deal(monkeypatch, HANDS, TABLE)
    state = new_game("schwimmen", 3, seed="choice", dealer=0)
    assert (state.phase, state.to_move) == ("choose", 0)
    assert legal_moves(state) == [exchange("AS KS 7D", [0, 1, 2]), {"type": "reveal"}]
    for seat in (None, 0, 1):
        assert view(state, seat)["table"] == [None, None, None]
    kept, events = apply_move(state, {"type": "reveal"})
    assert events[0]["type"] == "widow_revealed" and table(kept) == TABLE.split()
    assert (kept.phase, kept.to_move, kept.turns) == ("exchange", 1, 0)
    taken, events = apply_move(state, exchange("AS KS 7D", [0, 1, 2]))
    # The spare hand is taken unseen; the dealer's first hand lies face up.
    assert events[0]["took"] == [None, None, None]
    assert sorted(card.code for card in taken.hands[0]) == sorted(TABLE.split())
    assert view(taken, 1)["table"] == ["AS", "KS", "7D"]


def test_a_31_dealt_is_shown_at_once_and_the_lowest_loses(monkeypatch):
    _deal(monkeypatch, ["AS KS QS", "9C QC 8H", "8D 9D 7H"], TABLE)
    state = new_game("schwimmen", 3, seed="dealt 31", dealer=0)
    assert state.phase == "round_over" and state.result["reason"] == "thirty_one"
    assert not state.history
    # Everyone shows; only the lowest hand (seat 2, 17) loses a life, not everyone.
    assert all(hand is not None for hand in state.result["hands"])
    assert lives(state) == [3, 3, 2]


def test_feuer_dealt_ends_the_round_and_every_other_seat_loses_a_life(monkeypatch):
    _deal(monkeypatch, ["KS QS 7D", "AC AD AH", "8D 9D 7H"], TABLE)
    state = new_game("schwimmen", 3, seed="dealt fire", dealer=0)
    assert state.result["reason"] == "blitz" and state.result["blitz"] == [1]
    assert state.result["hands"][1]["score"] == {
        "points": 33, "category": "three-aces", "suit": None,
        "counted": ["AH", "AD", "AC"], "cards": ["AH", "AD", "AC"], "wild": {}}
    # No showdown: the other hands stay hidden.
    assert state.result["hands"][0] is None and state.result["hands"][2] is None
    assert lives(state) == [2, 3, 2]


def test_feuer_taken_with_the_spare_hand_ends_the_round(monkeypatch):
    _deal(monkeypatch, HANDS, "AC AD AH")
    state = new_game("schwimmen", 3, seed="spare fire", dealer=0)
    state, events = apply_move(state, exchange("AS KS 7D", [0, 1, 2]))
    assert types(events) == ["exchanged", "fire", "shown", "lives_lost", "lives_lost",
                             "round_over"]
    assert lives(state) == [3, 2, 2]


# A turn: swap one, swap all three, pass, knock


def test_a_turn_swaps_one_or_all_three_passes_or_knocks():
    state = position(HANDS, TABLE)
    moves = legal_moves(state)
    assert len([m for m in moves if m["type"] == "exchange" and len(m["give"]) == 1]) == 9
    assert exchange("9C QC 8H", [0, 1, 2]) in moves
    assert moves[-2:] == [PASS, KNOCK]
    with pytest.raises(MoveError) as error:
        apply_move(state, exchange("9C QC", [0, 1]))
    assert error.value.code == "bad_exchange_size"
    with pytest.raises(MoveError) as error:
        apply_move(state, {"type": "stand"})
    assert error.value.code == "unknown_move"
    state, events = apply_move(state, exchange("9C QC 8H", [0, 1, 2]))
    assert events[0]["gave"] == ["9C", "QC", "8H"] and table(state) == ["9C", "QC", "8H"]
    assert sorted(card.code for card in state.hands[1]) == sorted(TABLE.split())


def test_a_full_round_of_passes_renews_the_table_from_the_stock():
    state = position(HANDS, TABLE)
    stock = [card.code for card in state.stock]
    state, events = play(state, PASS, PASS)
    assert types(events) == ["passed", "passed"] and table(state) == TABLE.split()
    state, events = play(state, PASS)
    assert events == [{"type": "passed", "seat": 0},
                      {"type": "table_renewed", "cards": stock[:3]}]
    assert table(state) == stock[:3] and all(state.table_face_up)
    assert [card.code for card in state.out] == TABLE.split()
    assert [card.code for card in state.stock] == stock[3:]
    assert state.to_move == 1 and state.phase == "exchange"
    # The count starts again: two passes and an exchange renew nothing.
    state, events = play(state, PASS, PASS, exchange("7D", [0]), PASS, PASS)
    assert "table_renewed" not in types(events)
    state, events = play(state, PASS)
    assert types(events) == ["passed", "table_renewed"]
    assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


def test_a_round_of_passes_with_too_short_a_stock_goes_to_the_showdown():
    rest = [code for code in DECK if code not in " ".join([*HANDS, TABLE]).split()]
    state = position(HANDS, TABLE, stock=rest[:2], out=rest[2:])
    state, events = play(state, PASS, PASS, PASS)
    assert types(events)[:5] == ["passed", "passed", "passed", "table_not_renewed", "showdown"]
    assert events[3] == {"type": "table_not_renewed", "cards": 2}
    assert state.result["reason"] == "showdown" and state.result["knocker"] is None
    assert lives(state) == [3, 3, 2]


def test_after_a_knock_each_other_seat_has_one_last_turn_and_the_knocker_is_lowest():
    # Seat 2 (17) knocks: seats 0 and 1 play once more, then the showdown.
    state = position(HANDS, TABLE, turn=2)
    state, events = play(state, KNOCK)
    assert events == [{"type": "knocked", "seat": 2}] and state.final_turns == 2
    moves = legal_moves(state)
    assert moves[-1] == PASS and KNOCK not in moves and {"type": "stand"} not in moves
    # Passes after a knock renew nothing, however many.
    state, events = play(state, PASS, PASS)
    assert "table_renewed" not in types(events)
    assert state.result["reason"] == "showdown" and state.result["knocker"] == 2
    # knocker_penalty 1: the knocker lowest loses one life, like anyone.
    assert lives(state) == [3, 3, 2]


def test_a_31_after_a_turn_ends_the_round_with_a_showdown():
    state = position(["AS KS 7D", "9C QC 8H", "8D 9D 7H"], "QS JH 7S", turn=0)
    state, events = play(state, exchange("7D", [0]))
    assert types(events)[:3] == ["exchanged", "thirty_one", "shown"]
    assert state.result["reason"] == "thirty_one"
    assert all(hand is not None for hand in state.result["hands"])
    assert lives(state) == [3, 3, 2]


def test_on_31_knock_the_31_is_a_knock_and_the_others_play_once_more():
    state = position(["AS KS 7D", "9C QC 8H", "8D 9D 7H"], "QS JH 7S", turn=0,
                     options={"on_31": "knock"})
    state, events = play(state, exchange("7D", [0]))
    assert types(events) == ["exchanged", "thirty_one", "knocked"]
    assert (state.phase, state.knocker, state.final_turns, state.to_move) == (
        "exchange", 0, 2, 1)
    state, events = play(state, exchange("8H", [2]), PASS)
    assert state.result["reason"] == "showdown" and state.result["knocker"] == 0
    assert [card.code for card in state.hands[0]] == ["AS", "KS", "QS"]
    assert lives(state) == [3, 3, 2]


def test_on_31_knock_after_a_knock_the_31_is_only_the_best_hand():
    state = position(["AS KS 7D", "9C QC 8H", "8D 9D 7H"], "QS JH 7S", turn=2,
                     options={"on_31": "knock"})
    state, _ = play(state, KNOCK)
    state, events = play(state, exchange("7D", [0]))
    assert types(events) == ["exchanged", "thirty_one"] and state.knocker == 2
    state, events = play(state, PASS)
    assert state.result["reason"] == "showdown" and lives(state) == [3, 3, 2]


def test_feuer_made_after_a_knock_ends_the_round_at_once():
    state = position(["AS AD 7D", "9C QC 8H", "8D 9D 7H"], "AH JH 7S", turn=2)
    state, _ = play(state, KNOCK)
    state, events = play(state, exchange("7D", [0]))
    assert types(events)[:2] == ["exchanged", "fire"]
    assert events[1] == {"type": "fire", "seat": 0, "cards": ["AS", "AD", "AH"]}
    assert state.result["reason"] == "blitz" and state.result["knocker"] == 2
    # Every other seat loses a life, the knocker included; seat 1 never played its turn.
    assert lives(state) == [3, 2, 2]


@pytest.mark.parametrize("value", ["allowed", "forbidden", "showdown"])
def test_knock_first_round_a_knock_before_anyone_has_played(value):
    state = position(HANDS, TABLE, turns=0, options={"knock_first_round": value})
    if value == "forbidden":
        assert KNOCK not in legal_moves(state)
        with pytest.raises(MoveError) as error:
            apply_move(state, KNOCK)
        assert error.value.code == "no_knock_first_round"
        state, _ = play(state, PASS, PASS, PASS)
        assert KNOCK in legal_moves(state)
        return
    state, events = play(state, KNOCK)
    if value == "allowed":
        assert (state.phase, state.final_turns) == ("exchange", 2)
        return
    assert types(events)[:3] == ["knocked", "first_turn_knock", "showdown"]
    assert state.result["knocker"] == 1 and lives(state) == [3, 3, 2]


def test_a_seat_out_of_lives_swims_then_goes_out_and_the_last_seat_wins():
    hands = ["AS KS 7D", "9C QC 8H"]
    state = arrange("schwimmen", 2, hands, TABLE, phase="exchange", turn=1, turns=2,
                    table_face_up=[True] * 3, seats=[
                        {"lives": 3, "chips": 0, "points": 0, "free_ride": False,
                         "eliminated": False},
                        {"lives": 1, "chips": 0, "points": 0, "free_ride": False,
                         "eliminated": False}])
    state, events = play(state, KNOCK, PASS)
    assert {"type": "free_ride", "seat": 1} in events and state.seats[1].free_ride
    assert state.phase == "round_over"
    data = state.to_dict()
    data["result"] = None
    swimming = arrange("schwimmen", 2, hands, TABLE, phase="exchange", turn=1, turns=2,
                       table_face_up=[True] * 3, seats=data["seats"])
    state, events = play(swimming, KNOCK, PASS)
    assert state.is_over and state.winners == (0,)
    assert {"type": "eliminated", "seat": 1} in events


def test_every_new_event_has_its_message():
    for kind in ("fire", "table_renewed", "table_not_renewed", "first_turn_knock",
                 "stock_showdown", "stock_reshuffled"):
        assert kind in EVENT_MESSAGES


# Random matches


def _house_rules_turn4(rng, options, players):
    """RULES.md §4.15 (new turn 4) on Schwimmen, each in some matches: the deck (one that
    seats ``players``), the spare hand's chooser, two cards swapped, any trips as Feuer,
    cards of one rank added up, every seat but the best losing, the knocker's double, a
    minimum to knock, the deal passing right."""
    if rng.random() < 0.3:
        decks = [deck for deck, most in (("nine24", 7), ("five40", 12), ("italian40", 12))
                 if players <= most]
        options["deck"] = rng.choice(decks)
    if rng.random() < 0.2:
        options["spare_hand_to"] = "first-player"
    if rng.random() < 0.2:
        options |= {"exchange": "up-to-max", "exchange_max": rng.choice((2, 3))}
    if rng.random() < 0.2:
        options["fire"] = "any-trips"
    elif rng.random() < 0.15:
        options |= {"count_same_rank": True, "three_of_a_kind": "off"}
    if rng.random() < 0.2:
        options["losers"] = "all-but-best"
    if rng.random() < 0.15 and "knocker_ties" not in options:
        options["knocker_ties"] = "double"
    if rng.random() < 0.2 and not options.get("close_after_exchange"):
        options["knock_min"] = rng.choice((15, 21, 25))
    if rng.random() < 0.2:
        options["deal_passes"] = "right"


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4, 9])
def test_random_matches_keep_every_invariant(players):
    """1,000 matches per player count with random moves, every invariant of the shared random
    tests checked after every move; in one match of ten the views too, and the state
    round-tripped through JSON at the end of each round and every eighth move (as the widow
    family's random tests do); every event's message formatted.

    A move is drawn by its type first, then among the moves of that type: a knock or a pass
    is as likely as an exchange, so the rounds are short (thousands of matches fit in the
    suite) and full rounds of passes, renewals and short stocks are common."""
    rng = random.Random(f"schwimmen:{players}")
    started = time.perf_counter()
    seen = set()
    for match in range(1000):
        options = {"lives": rng.choice((1, 1, 2, 3)), "free_ride": rng.random() < 0.5}
        if rng.random() < 0.3:
            options["knock_first_round"] = rng.choice(("forbidden", "showdown"))
        if rng.random() < 0.3:
            options["on_31"] = "knock"
        # The house rules of RULES.md §2-§3 (turn 3), each in some matches.
        if rng.random() < 0.2:
            options["close_after_exchange"] = True
        if rng.random() < 0.2:
            options["knocker_ties"] = rng.choice(("penalty", "safe"))
        if rng.random() < 0.2:
            options["knocker_must_win"] = True
        if rng.random() < 0.2:
            options["lose_below"] = rng.choice((21, 25))
        if rng.random() < 0.2:
            options["tie_break"] = rng.choice(("none", "ranks"))
        _house_rules_turn4(rng, options, players)
        state = new_game("schwimmen", players, seed=f"schwimmen:{players}:{match}",
                         options=options)
        look = match % 10 == 0
        moves = shared.check_invariants(state, state, look)
        for step in range(5000):
            if state.is_over:
                break
            kind = rng.choice(sorted({move["type"] for move in moves}))
            new, events = apply_move(state, rng.choice([m for m in moves if m["type"] == kind]))
            for event in events:
                EVENT_MESSAGES[event["type"]].format(**event)
                seen.add(event["type"])
            moves = shared.check_invariants(new, state, look, events)
            ended = new.phase in ("round_over", "game_over")
            if look and (ended or step % 8 == 0):
                assert GameState.from_dict(json.loads(json.dumps(new.to_dict()))) == new
            state = new
        assert state.is_over and state.winners
        assert all(not state.seats[seat].eliminated for seat in state.winners)
    assert {"passed", "knocked", "showdown", "thirty_one", "table_renewed"} <= seen
    print(f"schwimmen, {players} players: {time.perf_counter() - started:.1f} s")
