"""How a family of game flows plugs into the engine.

A family (:class:`~thirtyone.rules.Family`: draw, widow, switch, race) is a subclass of
:class:`FamilyFlow` that implements the hooks below; a preset is only data (its
:class:`~thirtyone.rules.Rules`), and each rule is an option read where the hook needs it.
:func:`register` adds a family; :func:`flow_for` finds the one that plays a rule set.

The shared machinery (:mod:`thirtyone.game.flow`) does everything that is the same for all
families: it refuses moves after the match or between rounds, checks the move's ``seat``,
records the history, rotates the deal for ``next_round`` and takes the antes through the
rule set's settlement (:mod:`thirtyone.game.settlement`) before calling
:meth:`FamilyFlow.start_round`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

from thirtyone.errors import N_, OptionError
from thirtyone.game.state import GameState, thaw
from thirtyone.rules import Family, Rules

Events = list[dict[str, Any]]


class FamilyFlow(ABC):
    """The hooks of one family. Subclasses set ``family`` and ``phases`` (their turn phases)."""

    family: ClassVar[Family]
    phases: ClassVar[frozenset[str]]

    @abstractmethod
    def supports(self, rules: Rules) -> None:
        """Raise :class:`~thirtyone.errors.OptionError` (``not_implemented``) for rules this
        family cannot play yet."""

    @abstractmethod
    def start_round(self, state: GameState) -> tuple[GameState, Events]:
        """Shuffle and deal ``state.round`` (seats, dealer and pot are already set)."""

    @abstractmethod
    def legal_moves(self, state: GameState) -> list[dict[str, Any]]:
        """The moves the seat to act may make, in a turn phase of this family."""

    @abstractmethod
    def check(self, state: GameState, move: Mapping[str, Any], kind: str) -> dict[str, Any]:
        """Refuse an illegal move with a :class:`~thirtyone.errors.MoveError`; return it in
        canonical form (codes for cards, no ``seat``) for :meth:`play` and the history."""

    @abstractmethod
    def play(self, state: GameState, move: dict[str, Any]) -> tuple[GameState, Events]:
        """Apply a move returned by :meth:`check`."""

    @abstractmethod
    def check_state(self, state: GameState) -> None:
        """Raise :class:`~thirtyone.errors.StateError` when the family's card counts or
        phase data are inconsistent (the shared checks have passed)."""

    def public_move(self, entry: Mapping[str, Any], seat: int | None,
                    rules: Rules) -> dict[str, Any]:
        """A history entry as ``seat`` may see it under ``rules`` (a face-down card given is
        hidden)."""
        return thaw(entry)


_FLOWS: dict[Family, FamilyFlow] = {}


def register(flow: FamilyFlow) -> FamilyFlow:
    """Make ``flow`` the one that plays its family."""
    _FLOWS[flow.family] = flow
    return flow


def flow_for(rules: Rules) -> FamilyFlow:
    """The flow that plays ``rules``; ``not_implemented`` when its family is not built."""
    flow = _FLOWS.get(rules.family)
    if flow is None:
        raise not_implemented(rules, rules.family.value)
    flow.supports(rules)
    return flow


def flow_of(state: GameState) -> FamilyFlow:
    """The flow of a state already built (its rules were accepted then): the fast path."""
    return _FLOWS[state.rules.family]


def not_implemented(rules: Rules, feature: str) -> OptionError:
    return OptionError(
        "not_implemented", N_("{variant!r} cannot be played yet: {feature} is not implemented"),
        field="variant", variant=rules.variant, feature=feature,
    )
