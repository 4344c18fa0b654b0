"""The race to 31 (RULES.md §4.13): two players take turns taking one of the 24 face-up cards
(ace to six, the ace counting one); who makes exactly 31 wins, who cannot take a card without
passing 31 loses.

The layout lies on the ``table``, face up; the cards taken form the ``discard`` row, in order.
The seat left of the dealer takes first. The perfect-play solver is :mod:`thirtyone.race`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from thirtyone.cards import Card
from thirtyone.errors import N_, StateError
from thirtyone.game.family import Events, FamilyFlow
from thirtyone.game.moves import Move, move_card, refuse
from thirtyone.game.operations import Operation, Take
from thirtyone.game.state import GameState, Phase
from thirtyone.rules import Family, Rules

GOAL = 31


def race_total(state: GameState) -> int:
    """The running total: the sum of the cards taken so far."""
    value = state.rules.deck_cards.value
    return sum(value(card) for card in state.discard)


class RaceFlow(FamilyFlow):
    family = Family.RACE
    phases = frozenset({Phase.TAKE})

    def supports(self, rules: Rules) -> None:
        """The race has no option this flow cannot play."""

    def start_round(self, state: GameState) -> tuple[GameState, Events]:
        layout = state.rules.deck_cards.cards
        first = state.next_active(state.dealer)
        state = state.evolve(
            phase=Phase.TAKE, turn=first, turns=0, hands=((),) * state.players, stock=(),
            discard=(), table=layout, table_face_up=(True,) * len(layout), out=(),
            knocker=None, final_turns=0, pickup=None,
        )
        return state, [{"type": "laid_out", "dealer": state.dealer, "seat": first}]

    def uses(self, rules: Rules) -> frozenset[str]:
        return frozenset({"take"})

    def check_state(self, state: GameState) -> None:
        total = race_total(state)
        if any(state.hands) or state.stock or state.out or not all(state.table_face_up):
            raise StateError("bad_table", N_("in the race every card lies face up on the table "
                                             "or in the row taken"), field="table")
        if total > GOAL or (state.phase == Phase.TAKE and
                            (total == GOAL or not self.legal_moves(state))):
            raise StateError("bad_total", N_("a race at {total} cannot go on"),
                             field="discard", total=total)
        if state.phase == Phase.ROUND_OVER:
            raise StateError("bad_phase", N_("the race has a single round"), field="phase")


def _won(state: GameState, seat: int, reason: str, events: Events) -> tuple[GameState, Events]:
    result = {"round": state.round, "reason": reason, "total": race_total(state),
              "winners": [seat]}
    events.append({"type": "match_won", "seat": seat, "shared": False})
    return state.evolve(phase=Phase.GAME_OVER, turn=None, winners=(seat,), result=result), events


class TakeCard(Take[RaceFlow]):
    """Take a card from the layout, named or by value, without passing 31."""

    def legal(self, flow: RaceFlow, state: GameState) -> list[Move]:
        room = GOAL - race_total(state)
        value = state.rules.deck_cards.value
        return [{"type": "take", "card": card.code} for card in state.table if value(card) <= room]

    def verify(self, flow: RaceFlow, state: GameState,
               move: Mapping[str, Any]) -> Move:
        value = state.rules.deck_cards.value
        if "card" not in move and "value" in move:
            wanted = move["value"]
            card = next((card for card in state.table
                         if not isinstance(wanted, bool) and value(card) == wanted), None)
            if card is None:
                raise refuse("value_not_on_table", N_("no card worth {value!r} is left"),
                             field="value", value=wanted)
        else:
            card = move_card(move)
            if card not in state.table:
                raise refuse("card_not_on_table", N_("{card} is not on the table"),
                             field="card", card=card.code)
        total = race_total(state)
        if total + value(card) > GOAL:
            raise refuse("over_31", N_("taking {card} would make {total}, past 31"),
                         field="card", card=card.code, total=total + value(card))
        return {"type": "take", "card": card.code}

    def apply(self, flow: RaceFlow, state: GameState,
              move: Mapping[str, Any]) -> tuple[GameState, Events]:
        card: Card = move_card(move)
        seat = state.seat_to_act
        index = state.table.index(card)
        taken = (*state.discard, card)
        state = state.evolve(
            table=state.table[:index] + state.table[index + 1:],
            table_face_up=state.table_face_up[1:], discard=taken, turns=state.turns + 1,
            turn=state.next_active(seat),
        )
        total = race_total(state)
        events: Events = [{"type": "took", "seat": seat, "card": card.code, "total": total}]
        if total == GOAL:
            return _won(state, seat, "thirty_one", events)
        if not flow.legal_moves(state):
            events.append({"type": "stuck", "seat": state.seat_to_act, "total": total})
            return _won(state, seat, "stuck", events)
        return state, events


TURN: tuple[Operation[Any], ...] = (TakeCard(),)
RaceFlow.turns = {Phase.TAKE: TURN}
