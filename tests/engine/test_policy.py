"""The knock policy: a threshold by turn from the fitted data, adjusted by the acting seat's
lives left (lives games only) and by a short stock; the presets the fit did not cover keep the
former rule."""

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from thirtyone import policy
from thirtyone.game import apply_move, legal_moves, new_game
from thirtyone.game.views import view
from thirtyone.policy import (
    DEFAULT_KNOCK,
    DEFAULT_POLICY,
    Judge,
    KnockPolicy,
    knock_model,
    knock_policy,
    knock_threshold,
)
from thirtyone.rules import make_rules

TABLE: dict[str, Any] = {
    "thresholds": {"scat": {"2": [28.0, 27.0, 26.0]}, "schwimmen": {"2": [24.0, 23.0]},
                   "no-elimination": {"2": [26.0]}},
    "lives": {"scat": {"2": [-3.0, -2.0, 1.0, 0.0]}, "schwimmen": {"2": [-1.0, 0.0, 0.0, 2.0]},
              "no-elimination": {"2": [-5.0, -5.0, -5.0, -5.0]}},
    "short_stock": {"scat": {"2": -4.0}, "schwimmen": {"2": 3.0}},
}


@pytest.fixture
def fitted(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The policy reads :data:`TABLE` instead of the shipped data."""
    monkeypatch.setattr(policy, "_fitted", lambda: TABLE)
    knock_policy.cache_clear()
    yield
    knock_policy.cache_clear()


def test_the_shipped_data_holds_a_policy_for_each_fitted_case():
    for variant, players in (("scat", 2), ("schwimmen", 2)):
        fitted = knock_policy(variant, players)
        assert fitted is not DEFAULT_POLICY
        assert fitted.by_turn and all(18 <= value <= 99 for value in fitted.by_turn)
        assert len(fitted.by_lives) in (0, policy.LIVES_BUCKETS)


@pytest.mark.parametrize(("variant", "players"), [("blitz", 2), ("schnautz", 3), ("scat", 9),
                                                   ("bank", 4)])
def test_an_unfitted_case_keeps_the_former_rule(variant, players):
    rules = make_rules(variant)
    assert knock_policy(variant, players) == DEFAULT_POLICY
    assert knock_policy(variant, players).by_turn == DEFAULT_KNOCK
    for each, expected in enumerate(DEFAULT_KNOCK):
        for lives in (None, 0, 1, 3):
            for stock in (None, 0, 40):
                assert knock_threshold(rules, players, each * players, lives, stock) \
                    == expected


@pytest.mark.usefixtures("fitted")
def test_the_threshold_by_turn_then_by_lives():
    rules = make_rules("scat")
    assert knock_policy("scat", 2).by_turn == (28.0, 27.0, 26.0)
    assert [knock_threshold(rules, 2, turns) for turns in (0, 1, 2, 4, 40)] == \
        [28.0, 28.0, 27.0, 26.0, 26.0]
    # Lives 0 (a free ride), 1, 2, then 3 and more share the last bucket.
    assert [knock_threshold(rules, 2, 0, lives) for lives in (0, 1, 2, 3, 7)] == \
        [25.0, 26.0, 29.0, 28.0, 28.0]
    assert knock_threshold(rules, 2, 2, 1, 40) == 25.0


@pytest.mark.usefixtures("fitted")
def test_no_lives_adjustment_outside_a_lives_game():
    rules = make_rules("no-elimination")
    assert [knock_threshold(rules, 2, 0, lives) for lives in (None, 0, 1, 3)] == [26.0] * 4


@pytest.mark.usefixtures("fitted")
def test_a_short_stock_by_family():
    scat = make_rules("scat")
    # The draw family: fewer than three draws each left.
    assert knock_threshold(scat, 2, 0, None, 6) == 28.0
    assert knock_threshold(scat, 2, 0, None, 5) == 24.0
    assert knock_threshold(scat, 2, 0, 0, 0) == 21.0
    # The widow family (the stock only renews the table): fewer than two renewals left.
    schwimmen = make_rules("schwimmen")
    assert knock_threshold(schwimmen, 2, 0, None, 6) == 24.0
    assert knock_threshold(schwimmen, 2, 0, None, 5) == 27.0
    assert knock_threshold(schwimmen, 2, 2, 3, 2) == 28.0


@pytest.mark.usefixtures("fitted")
def test_the_knock_model_adjusts_but_never_exceeds_the_former_rule():
    rules = make_rules("schwimmen")
    assert knock_model(rules, 2, 0) == 24.0
    assert knock_model(rules, 2, 0, lives=0) == 23.0
    assert knock_model(rules, 2, 0, lives=3, stock=2) == DEFAULT_KNOCK[0]


@pytest.mark.usefixtures("fitted")
@pytest.mark.parametrize("variant", ["scat", "schwimmen"])
def test_the_judges_read_the_acting_seats_lives_and_the_stock(variant):
    state = new_game(variant, 2, seed=3, dealer=0)
    while state.turn is None:  # schwimmen's dealer chooses a hand first
        state, _ = apply_move(state, legal_moves(state)[0])
    seat = state.turn
    for lives, stock in ((0, len(state.stock)), (1, 2), (3, 0)):
        seats = list(state.seats)
        seats[seat] = replace(seats[seat], lives=lives, free_ride=lives == 0)
        position = state.evolve(seats=tuple(seats), stock=state.stock[:stock])
        expected = knock_threshold(position.rules, 2, position.turns, lives, stock)
        assert Judge.of_state(position).knock_at == expected
        assert Judge.of_view(view(position, seat)).knock_at == expected
    # A whole policy given to the judge is read the same way; a list by turn is not adjusted.
    given = KnockPolicy((30.0,), (-1.0, -2.0, -3.0, -4.0), -5.0)
    seen = view(state.evolve(stock=()), seat)
    assert Judge.of_view(seen, knock_at=given).knock_at == 30.0 - 4.0 - 5.0
    assert Judge.of_view(seen, knock_at=[30.0]).knock_at == 30.0
