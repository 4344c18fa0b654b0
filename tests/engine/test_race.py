"""The race to 31: the game, and the perfect-play solver checked against the source's claims
and against a brute-force search."""

import functools
import random

import pytest

from thirtyone.cards import DECKS
from thirtyone.errors import CardError, MoveError, StateError
from thirtyone.game import GameState, apply_move, legal_moves, new_game, validate_move
from thirtyone.race import full_solve, opening_outcomes, solve, winning_openings

DECK = DECKS["race24"]


def take(state, *codes):
    for code in codes:
        state, events = apply_move(state, {"type": "take", "card": code})
    return state, events


def test_the_layout_and_the_first_player():
    state = new_game("race", 2, seed=1, dealer=0)
    assert len(state.table) == 24 and all(state.table_face_up)
    assert state.to_move == 1 and state.phase == "take"
    assert not any(state.hands) and not state.stock
    assert len(legal_moves(state)) == 24


def test_taking_cards_calls_the_total_and_31_wins():
    state = new_game("race", 2, seed=1, dealer=1)
    state, events = take(state, "2C")
    assert events == [{"type": "took", "seat": 0, "card": "2C", "total": 2}]
    state, events = apply_move(state, {"type": "take", "value": 5})
    assert events[0]["card"] == "5C" and events[0]["total"] == 7
    state, events = take(state, "6C", "6D", "6H", "5D")
    assert events[0]["total"] == 30 and not state.is_over
    state, events = take(state, "AC")
    assert state.is_over and state.winners == (0,)
    assert events[-1] == {"type": "match_won", "seat": 0, "shared": False}
    assert state.result["reason"] == "thirty_one"
    assert GameState.from_dict(state.to_dict()) == state


def test_who_cannot_take_without_passing_31_loses():
    # Every ace and two gone, the total at 29: nothing fits for the next player.
    state = new_game("race", 2, seed=1, dealer=1)
    state, events = take(state, "AC", "AD", "AH", "AS", "2C", "2D", "2H", "2S", "6C", "6D", "5C")
    assert sum(DECK.value(card) for card in state.discard) == 29
    assert state.is_over and state.winners == (0,)
    assert events[-2] == {"type": "stuck", "seat": 1, "total": 29}
    assert state.result["reason"] == "stuck"


@pytest.mark.parametrize("move, code", [
    ({"type": "take", "card": "7C"}, "card_not_on_table"),
    ({"type": "take", "card": "2C"}, "card_not_on_table"),
    ({"type": "take", "value": 9}, "value_not_on_table"),
    ({"type": "take", "card": "6S"}, "over_31"),
    ({"type": "take"}, "bad_move"),
    ({"type": "draw", "source": "stock"}, "unknown_move"),
    ({"type": "take", "card": "6S", "seat": 1}, "not_your_turn"),
])
def test_refused_takes(move, code):
    state = new_game("race", 2, seed=1, dealer=1)
    state, _ = take(state, "2C", "6C", "6D", "6H", "5C", "2D")
    assert state.to_move == 0
    before = state.to_dict()
    with pytest.raises(MoveError) as error:
        validate_move(state, move)
    assert error.value.code == code
    assert state.to_dict() == before


# The solver


def test_the_sources_claims_as_the_solver_finds_them():
    outcomes = {opening["value"]: opening["wins"] for opening in opening_outcomes()}
    # "Opening with 5, the first player can always win": confirmed.
    assert outcomes[5]
    # "1 and 2 also win": confirmed.
    assert outcomes[1] and outcomes[2]
    # "3 is the trap" (aiming at 10, 17, 24): opening 3 loses against perfect play.
    assert not outcomes[3]
    # The solver also finds that 4 and 6 lose.
    assert not outcomes[4] and not outcomes[6]
    assert winning_openings() == (1, 2, 5)
    assert solve([]).wins


def test_the_sources_lines_of_play():
    # After 5 and 5, the source answers 2 to make 12: the only winning reply.
    assert solve(["5C", "5D"]).winning_values == (2,)
    # The trap: 3, 4, 3, 3, 4, 4, 3 makes 24 with every three gone; the opponent takes the
    # last four (28), and the player who aimed at 31 cannot get there.
    trap = ["3C", "4C", "3D", "3H", "4D", "4H", "3S", "4S"]
    assert solve(trap).total == 28
    assert not solve(trap).wins and not solve(trap).winning_values


@functools.cache
def _brute(taken):
    """Win for the player to move, by trying every card (not just every value)."""
    total = sum(DECK.value(card) for card in taken)
    return any(
        total + DECK.value(card) == 31 or not _brute(taken | {card})
        for card in DECK
        if card not in taken and total + DECK.value(card) <= 31
    )


def test_the_solver_agrees_with_brute_force_on_late_positions():
    rng = random.Random(31)
    checked = 0
    while checked < 60:
        cards = list(DECK)
        rng.shuffle(cards)
        taken, total = [], 0
        for card in cards:
            if total + DECK.value(card) < 31 and total < 18:
                taken.append(card)
                total += DECK.value(card)
        solution = solve(taken)
        assert solution.wins == _brute(frozenset(taken))
        for value, wins in solution.outcomes:
            card = next(c for c in DECK if DECK.value(c) == value and c not in taken)
            assert wins == (total + value == 31 or not _brute(frozenset([*taken, card])))
        checked += 1


def test_solve_takes_a_game_state():
    state = new_game("race", 2, seed=1, dealer=1)
    state, _ = take(state, "5C", "5D")
    solution = solve(state)
    assert solution == solve(["5C", "5D"])
    assert solution.winning_cards == ("2C", "2D", "2H", "2S")
    assert solution.to_dict()["winning_values"] == [2]


def test_perfect_play_from_the_solver_always_wins_as_first_player():
    rng = random.Random(5)
    for match in range(40):
        state = new_game("race", 2, seed=match, dealer=1)
        while not state.is_over:
            if state.to_move == 0:
                move = {"type": "take", "card": solve(state).winning_cards[0]}
            else:
                move = rng.choice(legal_moves(state))
            state, _ = apply_move(state, move)
        assert state.winners == (0,)


def test_full_solve_settles_every_reachable_position():
    assert full_solve() == full_solve() > 1000


@pytest.mark.parametrize("position, error, code", [
    (["ZZ"], CardError, "bad_card"),
    (["7C"], CardError, "card_not_in_deck"),
    (["5C", "5C"], CardError, "duplicate_card"),
    (["6C", "6D", "6H", "6S", "5C", "5D"], StateError, "bad_total"),
])
def test_solve_refuses_impossible_positions(position, error, code):
    with pytest.raises(error) as raised:
        solve(position)
    assert raised.value.code == code
    with pytest.raises(StateError) as raised:
        solve(new_game("scat", 2, seed=1))
    assert raised.value.code == "not_a_race"
