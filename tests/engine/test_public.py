"""The round's public knowledge: kept in the state and the view, read back and checked."""

import pytest

from thirtyone.errors import StateError
from thirtyone.game import GameState, apply_move, new_game, view


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
