"""The settlers, by settlement: the one registry (python-chess's ``VARIANTS`` is the model),
and the calls a family makes to end a round.

A new settlement is a :class:`~thirtyone.game.settlement.Settler` subclass and one more entry
in :data:`SETTLERS`.
"""

from __future__ import annotations

from collections.abc import Sequence

from thirtyone.game.family import not_implemented
from thirtyone.game.operations import Events
from thirtyone.game.pot import EscalatingSettler, PotSettler
from thirtyone.game.settlement import (
    LivesSettler,
    Outcome,
    PointsSettler,
    Settler,
    hand_scores,
)
from thirtyone.game.state import GameState
from thirtyone.rules import Rules, Settlement

SETTLERS: dict[Settlement, Settler] = {
    Settlement.LIVES: LivesSettler(),
    Settlement.POINTS: PointsSettler(),
    Settlement.POT: PotSettler(),
    Settlement.ESCALATING: EscalatingSettler(),
    Settlement.NONE: Settler(),
}
"""The settler of each settlement."""


def settler_for(rules: Rules) -> Settler:
    """The settler of ``rules``; ``not_implemented`` for a settlement without one."""
    settler = SETTLERS.get(rules.settlement)
    if settler is None:
        raise not_implemented(rules, f"the {rules.settlement.value} settlement")
    return settler


def settle_round(state: GameState, outcome: Outcome, events: Events) -> tuple[GameState, Events]:
    """End the round of ``state`` with ``outcome``; ``events`` so far get the settlement's."""
    new, settled = settler_for(state.rules).settle(state, outcome)
    events.extend(settled)
    return new, events


def settle_showdown(state: GameState, events: Events) -> tuple[GameState, Events]:
    """Everyone playing shows; the settlement reads the hands."""
    events.append({"type": "showdown", "knocker": state.knocker})
    return settle_round(state, Outcome("showdown", hand_scores(state), state.knocker), events)


def settle_blitz(state: GameState, seats: Sequence[int],
                 events: Events) -> tuple[GameState, Events]:
    """``seats`` show a blitz, or Feuer (three aces, ``three_aces_fire``): the round ends at
    once."""
    scores = hand_scores(state)
    for seat in seats:
        score = scores[seat]
        fire = score is not None and score.category != "blitz"
        cards = [card.code for card in state.hands[seat]]
        if fire:
            events.append({"type": "fire", "seat": seat, "cards": cards})
        else:
            events.append({"type": "blitz", "seat": seat, "cards": cards})
    outcome = Outcome("blitz", scores, state.knocker, tuple(seats))
    return settle_round(state, outcome, events)
