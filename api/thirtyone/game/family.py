"""How a family of game flows plugs into the engine.

A family (:class:`~thirtyone.rules.Family`: draw, widow, switch, race) is a subclass of
:class:`FamilyFlow` that implements the hooks below; a preset is only data (its
:class:`~thirtyone.rules.Rules`), and each rule is an option read where the hook needs it.
A family lists the operations (:class:`~thirtyone.game.moves.Operation`, one per move type)
each of its phases allows, in :meth:`FamilyFlow.operations`: the legal moves, the checks and
the effects are theirs. :mod:`thirtyone.game.families` holds every family's flow and finds
the one that plays a rule set.

The shared machinery (:mod:`thirtyone.game.flow`) does everything that is the same for all
families: it refuses moves after the match or between rounds, checks the move's ``seat``,
records the history, rotates the deal for ``next_round`` and takes the antes through the
rule set's settlement (:mod:`thirtyone.game.settlement`) before calling
:meth:`FamilyFlow.start_round`. The knock is the same in every family that has one: who may
knock (``knock_first_round``), the final turns after it, and the showdown after the last of
them or at ``max_turns`` (:meth:`FamilyFlow.check_knock`, :meth:`FamilyFlow.knock`,
:func:`close_turn`, :func:`showdown_due`); and whether a blitz made after a knock still ends the
round (``blitz_after_knock``, :func:`shows_blitz`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from thirtyone.errors import N_, MoveError, OptionError
from thirtyone.game.dealing import dealing_order
from thirtyone.game.moves import Move, PlayedMove, refuse, unknown_move
from thirtyone.game.operations import Events, Knock, Operation, Stand
from thirtyone.game.state import GameState, thaw
from thirtyone.hands import HandScore, evaluator
from thirtyone.rules import Family, Rules

__all__ = ["Events", "FamilyFlow", "PlainKnock", "PlainStand", "TurnFlow"]


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

    turns: ClassVar[Mapping[str, Sequence[Operation[Any]]]]
    """The family's table of phases: the operations each phase of a turn allows, in the
    order of the legal moves (set where the family's operations are made)."""

    def operations(self, state: GameState) -> Sequence[Operation[Any]]:
        """The operations the phase being played allows, in the order of the legal moves:
        the phase's row of :attr:`turns`."""
        return self.turns[state.phase]

    @abstractmethod
    def uses(self, rules: Rules) -> frozenset[str]:
        """The move types these rules ever play: any other is an ``unknown_move``."""

    def refusal(self, state: GameState, kind: str) -> MoveError:
        """Why a move of type ``kind`` cannot be played in this phase: an ``unknown_move``
        when the rules never play it, else ``wrong_phase``."""
        if kind not in self.uses(state.rules):
            return unknown_move(kind, state.rules.variant)
        return refuse("wrong_phase", N_("{move!r} cannot be played in the {phase} phase"),
                      field="type", move=kind, phase=str(state.phase))

    def operation(self, state: GameState, kind: str) -> Operation[Any]:
        """The operation of type ``kind`` this phase allows, or its :meth:`refusal`."""
        for operation in self.operations(state):
            if operation.type == kind:
                return operation
        raise self.refusal(state, kind)

    def legal_moves(self, state: GameState) -> list[Move]:
        """The moves the seat to act may make, in a turn phase of this family."""
        return [move for operation in self.operations(state)
                for move in operation.legal(self, state)]

    @abstractmethod
    def check_state(self, state: GameState) -> None:
        """Raise :class:`~thirtyone.errors.StateError` when the family's card counts or
        phase data are inconsistent (the shared checks have passed)."""

    def public_move(self, entry: Mapping[str, Any], seat: int | None,
                    rules: Rules) -> PlayedMove:
        """A history entry as ``seat`` may see it under ``rules`` (a face-down card given is
        hidden)."""
        shown: PlayedMove = thaw(entry)
        return shown

    def players(self, state: GameState) -> tuple[int, ...]:
        """The seats playing this deal, from the dealer's left: those holding cards (a seat
        sitting out a carried deal holds none)."""
        return tuple(seat for seat in dealing_order(state) if state.hands[seat])


class TurnFlow(FamilyFlow):
    """A family whose turns end with :meth:`end_turn` and that has the knock, the same in
    every such family."""

    @abstractmethod
    def end_turn(self, state: GameState, seat: int, events: Events,
                 **changes: Any) -> tuple[GameState, Events]:
        """Close ``seat``'s turn with ``changes``: the next seat to act, or the showdown."""

    def may_knock(self, state: GameState) -> bool:
        """Knocking is refused in the first round of turns when ``knock_first_round`` is
        ``forbidden``, and to a hand below ``knock_min``."""
        return self._knock_in_round(state) and self._holds_knock_min(state)

    @staticmethod
    def _holds_knock_min(state: GameState) -> bool:
        minimum = state.rules.knock_min
        if minimum is None or state.turn is None:
            return True
        return evaluator(state.rules).score(state.hands[state.turn]).points >= minimum

    def _knock_in_round(self, state: GameState) -> bool:
        return (state.rules.knock_first_round != "forbidden"
                or state.turns >= len(self.players(state)))

    def check_knock(self, state: GameState) -> Move:
        if state.knocker is not None:
            raise refuse("already_knocked", N_("seat {knocker} has already knocked"),
                         knocker=state.knocker)
        if not self._knock_in_round(state):
            raise refuse("no_knock_first_round", N_("nobody may knock in the first round"))
        if not self._holds_knock_min(state):
            raise refuse("knock_below_minimum",
                         N_("a knock needs at least {minimum} points in the hand"),
                         minimum=state.rules.knock_min)
        return {"type": "knock"}

    def check_stand(self, state: GameState) -> Move:
        if state.knocker is None:
            raise refuse("cannot_stand", N_("you may stand only in your last turn after a knock"))
        return {"type": "stand"}

    def knock(self, state: GameState, seat: int, events: Events) -> dict[str, Any]:
        """The changes a knock by ``seat`` makes: every other seat playing has one final turn;
        with ``knock_first_round: showdown`` a knock before anyone has played has none, so the
        showdown follows at once (a ``first_turn_knock`` event in ``events`` says so)."""
        if state.rules.knock_first_round == "showdown" and state.turns == 0:
            events.append({"type": "first_turn_knock", "seat": seat})
            return {"knocker": seat, "final_turns": 0}
        return {"knocker": seat, "final_turns": len(self.players(state)) - 1}


class PlainKnock(Knock[TurnFlow]):
    """The knock: every other seat playing has one final turn (:meth:`TurnFlow.knock`)."""

    def legal(self, flow: TurnFlow, state: GameState) -> list[Move]:
        return [{"type": "knock"}] if state.knocker is None and flow.may_knock(state) else []

    def verify(self, flow: TurnFlow, state: GameState,
               move: Mapping[str, Any]) -> Move:
        return flow.check_knock(state)

    def apply(self, flow: TurnFlow, state: GameState,
              move: Mapping[str, Any]) -> tuple[GameState, Events]:
        seat = state.seat_to_act
        events: Events = [{"type": "knocked", "seat": seat}]
        return flow.end_turn(state, seat, events, **flow.knock(state, seat, events))


class PlainStand(Stand[TurnFlow]):
    """Keeping the hand in the final turn after a knock."""

    def legal(self, flow: TurnFlow, state: GameState) -> list[Move]:
        return [{"type": "stand"}] if state.knocker is not None else []

    def verify(self, flow: TurnFlow, state: GameState,
               move: Mapping[str, Any]) -> Move:
        return flow.check_stand(state)

    def apply(self, flow: TurnFlow, state: GameState,
              move: Mapping[str, Any]) -> tuple[GameState, Events]:
        seat = state.seat_to_act
        return flow.end_turn(state, seat, [{"type": "stood", "seat": seat}])


def shows_blitz(state: GameState, score: HandScore) -> bool:
    """Whether a hand made during a turn is a blitz that ends the round at once: not after a
    knock unless ``blitz_after_knock`` [003: a blitz is shown before anyone knocked]."""
    return score.is_blitz and (state.knocker is None or state.rules.blitz_after_knock)


def close_turn(state: GameState, turn: int, **changes: Any) -> GameState:
    """The state after a turn, with ``changes``: one more turn played, one final turn fewer
    after a knock (a knock in ``changes`` starts the count), and ``turn`` to act."""
    final_turns = changes.pop("final_turns", state.final_turns)
    if state.knocker is not None:
        final_turns -= 1
    return state.evolve(turns=state.turns + 1, final_turns=final_turns, turn=turn, **changes)


def showdown_due(state: GameState, events: Events) -> bool:
    """Whether the round goes to its showdown after the turn just closed: the last final turn
    after a knock was played, or the round reached ``max_turns`` (a ``turn_limit`` event)."""
    if state.knocker is not None and state.final_turns == 0:
        return True
    if state.turns >= state.rules.max_turns:
        events.append({"type": "turn_limit", "turns": state.turns})
        return True
    return False


def not_implemented(rules: Rules, feature: str) -> OptionError:
    return OptionError(
        "not_implemented", N_("{variant!r} cannot be played yet: {feature} is not implemented"),
        field="variant", variant=rules.variant, feature=feature,
    )
