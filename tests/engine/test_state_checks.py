"""Open-mode states that no match can reach, each refused with the code naming its fault."""

from __future__ import annotations

import copy

import pytest

from thirtyone import StateError
from thirtyone.game import GameState, apply_move, legal_moves, new_game
from thirtyone.game.state import HISTORY_LIMIT, MAX_ROUND


def _settled(variant, players=3, **options):
    """A match of ``variant`` played with the first legal move until its first deal is
    settled."""
    state = new_game(variant, players, seed="checks", dealer=0, options=options or None)
    while state.phase != "round_over":
        state, _ = apply_move(state, legal_moves(state)[0])
    return state.to_dict()


def _code(data):
    with pytest.raises(StateError) as error:
        GameState.from_dict(data)
    return error.value.code


@pytest.fixture(scope="module")
def scat():
    return _settled("scat")


@pytest.fixture(scope="module")
def bank():
    return _settled("bank")


def test_the_settled_positions_are_sound(scat, bank):
    for data in (scat, bank):
        assert GameState.from_dict(data).to_dict() == data


@pytest.mark.parametrize(("change", "code"), [
    # A result that is not the engine's shape.
    (lambda d: d.__setitem__("result", {"carry": 5}), "bad_result"),
    (lambda d: d.__setitem__("result", {"hands": 5}), "bad_result"),
    (lambda d: d["result"].__setitem__("hands", [{"cards": [["AS"]], "score": None}] * 3),
     "bad_result"),
    (lambda d: d["result"].__setitem__("reason", "x" * 1000), "bad_result"),
    (lambda d: d["result"].__setitem__("round", 10**4000), "bad_result"),
    (lambda d: d["result"].__setitem__("surprise", 1), "bad_result"),
    (lambda d: d.__setitem__("result", None), "bad_state"),
    # Rounds and seeds beyond any match.
    (lambda d: d.__setitem__("round", 10**4000), "bad_state"),
    (lambda d: d.__setitem__("round", MAX_ROUND + 1), "bad_round"),
    (lambda d: d.__setitem__("seed", "s" * 900_000), "bad_seed"),
    (lambda d: d.__setitem__("seed", 10**300), "bad_seed"),
    # Standing the settlement cannot give.
    (lambda d: d["seats"][0].__setitem__("points", 10**9), "bad_points"),
    (lambda d: d["seats"][0].__setitem__("chips", -5) or d.__setitem__("pot", 5),
     "chips_not_conserved"),
    (lambda d: d["seats"][0].update(lives=0, free_ride=False), "bad_lives"),
    (lambda d: d["seats"][0].update(lives=0, eliminated=True, free_ride=True), "bad_lives"),
    (lambda d: d.update(phase="game_over", winners=[0])
     or d["result"].__setitem__("winners", [0]), "bad_winners"),
    (lambda d: d.update(phase="game_over", winners=[0]), "bad_winners"),
    # A history that is not the engine's.
    (lambda d: d.__setitem__("history", [{"seat": 0, "type": "knock"}] * (HISTORY_LIMIT + 1)),
     "bad_history"),
    (lambda d: d.__setitem__("history", [{"seat": 0, "type": "draw", "source": [[[]]]}]),
     "bad_history"),
    (lambda d: d.__setitem__("history", [{"seat": 0, "type": "fly"}]), "bad_history"),
    (lambda d: d.__setitem__("history", [{"seat": 0, "type": "discard", "card": "as"}]),
     "bad_history"),
])
def test_impossible_positions_of_a_lives_match(scat, change, code):
    data = copy.deepcopy(scat)
    change(data)
    assert _code(data) == code


def test_deep_nesting_is_refused_without_walking_it(scat):
    data = copy.deepcopy(scat)
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    data["history"] = [{"seat": 0, "type": "knock", "card": deep}]
    assert _code(data) == "bad_history"
    data["history"] = []
    data["result"] = {"round": 1, "reason": "showdown", "hands": deep}
    assert _code(data) == "bad_result"


def test_a_pot_match_keeps_its_pot_but_no_points(bank):
    data = copy.deepcopy(bank)
    data["seats"][1]["points"] = 3
    assert _code(data) == "bad_points"
    data = copy.deepcopy(bank)
    data["result"]["carry"] = [0, 1]
    assert _code(data) == "bad_result"


def test_a_points_match_cannot_score_more_than_its_deals_give():
    data = _settled("stop-the-bus")
    data["seats"][0]["points"] = 7
    assert _code(data) == "bad_points"


def test_the_switch_table_hand_lies_face_down_until_the_dealer_keeps():
    data = new_game("switch", 3, seed="checks", dealer=0).to_dict()
    assert data["phase"] == "keep"
    data["table_face_up"] = [True] * len(data["table"])
    assert _code(data) == "bad_table"


def test_the_history_keeps_the_last_moves_of_the_deal():
    state = new_game("scat", 2, seed="history", dealer=0, options={"max_turns": 1000,
                                                                    "stock_exhausted": "recycle"})
    moves = 0
    while state.phase != "round_over" and moves < 3 * HISTORY_LIMIT:
        move = next(m for m in legal_moves(state) if m["type"] != "knock")
        state, _ = apply_move(state, move)
        moves += 1
    assert len(state.history) == HISTORY_LIMIT
    assert GameState.from_dict(state.to_dict()) == state


@pytest.mark.parametrize(("field", "value"), [
    ("seat", 5), ("type", "fold"), ("source", "deck"), ("card", "1X"), ("value", 12),
    ("give", ["AS", "KS", "QS", "JS"]), ("take", [9]), ("hand", 2), ("face_up", "yes"),
    ("knock", False),
])
def test_history_field_out_of_its_declared_domain_is_refused(field, value):
    """The history check is read from each field's MoveField (moves.MOVE_FIELDS)."""
    data = new_game("scat", 2, seed="fields", dealer=0).to_dict()
    data["history"] = [{"seat": 1, "type": "knock"}]
    GameState.from_dict(data)  # the shape alone is checked: this one fits
    data["history"] = [{"seat": 1, "type": "knock", field: value}]
    with pytest.raises(StateError) as caught:
        GameState.from_dict(data)
    assert caught.value.code == "bad_history"
