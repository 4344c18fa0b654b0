"""The round's public knowledge: kept in the state and the view, read back and checked."""

import pytest

from thirtyone.errors import StateError
from thirtyone.game import GameState, apply_move, legal_moves, new_game, view


def _after_a_pickup():
    state = new_game("scat", 3, seed=8, dealer=0)
    state, _ = apply_move(state, {"type": "draw", "source": "discard"})
    return state


def test_a_state_carries_its_public_knowledge_through_json():
    state = _after_a_pickup()
    data = state.to_dict()
    assert data["public"]["held"][1] == [state.public.held[1][0].code]
    assert GameState.from_dict(data) == state
    assert view(state, 2)["public"] == data["public"]
    fresh = new_game("scat", 3, seed=8, dealer=0)
    assert "public" not in fresh.to_dict()
    assert view(fresh, 0)["public"]["held"] == [[], [], []]


@pytest.mark.parametrize("change", [
    lambda public: public.update(held=[["AS"], [], []]),       # a card the seat does not hold
    lambda public: public.update(held=[[]]),                   # not one entry per seat
    lambda public: public.update(drawn=[0, -1, 0]),
    lambda public: public.update(out=["KS"]),
    lambda public: public.update(stock=["KS"], stock_ordered=True),
    lambda public: public.update(knocked_at=99),
    lambda public: public.update(extra=1),
])
def test_public_knowledge_that_does_not_fit_is_refused(change):
    data = _after_a_pickup().to_dict()
    held = data["public"]["held"][1][0]
    data["public"]["held"] = [[], [held], []]
    change(data["public"])
    with pytest.raises(StateError) as refused:
        GameState.from_dict(data)
    assert refused.value.code == "bad_public"


def _play_until_knock(variant, players, knock_after, seed, **options):
    """Play the first legal non-knock move until ``knock_after`` turns are done, then the
    first knocking move; the state before and after it."""
    state = new_game(variant, players, seed=seed, dealer=0, options=options or None)
    while True:
        moves = legal_moves(state)
        knocks = [move for move in moves if move["type"] == "knock" or move.get("knock")]
        if state.turns >= knock_after and knocks:
            return state, apply_move(state, knocks[0]).state
        state, _ = apply_move(state, next(move for move in moves if move not in knocks))


@pytest.mark.parametrize(("variant", "players", "options"), [
    ("scat", 3, {}),
    ("schwimmen", 3, {}),
    ("schwimmen", 3, {"close_after_exchange": True}),
])
@pytest.mark.parametrize("knock_after", [3, 5])
def test_knocked_at_is_the_count_of_turns_played_before_the_knock(variant, players, options,
                                                                  knock_after):
    """``knocked_at`` records the turns played when the knock came (what the worlds' knock
    model reads), in the knocking move itself, and keeps it for the rest of the round."""
    before, after = _play_until_knock(variant, players, knock_after, "knocked", **options)
    assert before.public.knocked_at is None and before.knocker is None
    assert after.knocker == before.turn
    assert after.public.knocked_at == before.turns
    assert view(after, 0)["public"]["knocked_at"] == before.turns
    later, checked = after, 0
    while later.turn is not None:  # the final turns, until the showdown settles the round
        later, _ = apply_move(later, legal_moves(later)[0])
        if later.turn is not None:
            assert later.public.knocked_at == before.turns
            checked += 1
    assert checked or after.turn is None
