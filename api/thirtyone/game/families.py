"""The families' flows, by family: the one registry (python-chess's ``VARIANTS`` is the
model). A new family is a :class:`~thirtyone.game.family.FamilyFlow` subclass and one more
entry in :data:`FLOWS`.
"""

from __future__ import annotations

from thirtyone.game.bank import BankFlow
from thirtyone.game.draw import DrawFlow
from thirtyone.game.family import FamilyFlow, not_implemented
from thirtyone.game.racing import RaceFlow
from thirtyone.game.state import GameState
from thirtyone.game.switch import SwitchFlow
from thirtyone.game.widow import WidowFlow
from thirtyone.rules import Family, Rules

FLOWS: dict[Family, FamilyFlow] = {
    Family.DRAW: DrawFlow(),
    Family.WIDOW: WidowFlow(),
    Family.SWITCH: SwitchFlow(),
    Family.RACE: RaceFlow(),
}
"""The flow of each family."""

WITH_A_WIDOW: dict[Family, FamilyFlow] = {Family.DRAW: BankFlow()}
"""The flow of a family whose rules deal a widow (``widow`` other than ``none``) when that
is not the family's own: the draw family's is bank."""


def flow_for(rules: Rules) -> FamilyFlow:
    """The flow that plays ``rules``; ``not_implemented`` when its family is not built."""
    flow = _flow(rules)
    if flow is None:
        raise not_implemented(rules, rules.family.value)
    flow.supports(rules)
    return flow


def flow_of(state: GameState) -> FamilyFlow:
    """The flow of a state already built (its rules were accepted then): the fast path."""
    rules = state.rules
    if rules.widow != "none" and rules.family in WITH_A_WIDOW:
        return WITH_A_WIDOW[rules.family]
    return FLOWS[rules.family]


def _flow(rules: Rules) -> FamilyFlow | None:
    if rules.widow != "none":
        flow = WITH_A_WIDOW.get(rules.family)
        if flow is not None:
            return flow
    return FLOWS.get(rules.family)
