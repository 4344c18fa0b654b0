"""Each settler checks the standing it can produce (``Settler.check_standing``), beside the
code that settles: the state checks ask the settler of the state's rules."""

from __future__ import annotations

from dataclasses import replace

import pytest

from thirtyone.errors import StateError
from thirtyone.game import new_game
from thirtyone.game.settlers import settler_for


def _standing(state):
    settler_for(state.rules).check_standing(state, state.round - 1, None)


def test_a_fresh_match_has_a_standing_its_settler_allows():
    for variant in ("scat", "no-elimination", "schnautz", "no-trips", "race"):
        _standing(new_game(variant, 3 if variant != "race" else 2, seed="standing"))


def test_lives_beyond_the_rules_are_refused_by_the_lives_settler():
    state = new_game("scat", 3, seed="standing")
    seats = (replace(state.seats[0], lives=0), *state.seats[1:])
    with pytest.raises(StateError) as refused:
        _standing(state.evolve(seats=seats))
    assert refused.value.code == "bad_lives"


def test_points_no_deal_could_give_are_refused_by_the_points_settler():
    state = new_game("no-elimination", 3, seed="standing")
    seats = (replace(state.seats[0], points=1), *state.seats[1:])
    with pytest.raises(StateError) as refused:
        _standing(state.evolve(seats=seats))
    assert refused.value.code == "bad_points"


def test_chips_from_nowhere_are_refused_where_nothing_is_paid():
    state = new_game("race", 2, seed="standing")
    with pytest.raises(StateError) as refused:
        _standing(state.evolve(pot=3))
    assert refused.value.code == "chips_not_conserved"
