"""Switch (RULES.md §4.11): the dealer's two hands and the table hands.

The dealer is dealt two hands (one card to each in every round of dealing) and a third hand
goes face down to the centre. In the ``keep`` phase the dealer, holding all six cards (the
first hand, then the second), keeps one with ``{"type": "keep", "hand": 0}`` or ``1``; the
other is laid face up beside the face-down one. The ``table`` then holds two table hands:
hand 0 (positions 0-2, dealt face down) and hand 1 (positions 3-5).

A turn (phase ``exchange``, from the dealer's left) is one of:

- ``{"type": "exchange", "give": ["7H"], "take": [4]}``: swap one card for the table card at
  a position; a face-down card is taken unseen, and the card given lies there face up;
- ``{"type": "swap_hand", "hand": 0}``: swap the whole hand with a table hand; the hand given
  lies face up [resolved, as for one card];
- ``{"type": "renew", "hand": 1, "face_up": true}``: the table hand goes out of play and
  three cards from the stock replace it, face up (the turn ends) or face down (the same seat
  acts again);
- ``{"type": "knock"}``; after a knock every other seat has one last turn (or ``stand``s).

Blitz, showdown and lives as scat.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from thirtyone.errors import N_, StateError
from thirtyone.events import HandSwapped
from thirtyone.game.dealing import deal, dealing_order
from thirtyone.game.exchange import exchange_moves, read_exchange, swap
from thirtyone.game.family import (
    Events,
    PlainKnock,
    PlainStand,
    TurnFlow,
    close_turn,
    showdown_due,
    shows_blitz,
)
from thirtyone.game.moves import Move, move_card, refuse
from thirtyone.game.operations import Exchange, Keep, Operation, Renew, SwapHand, read_table_hand
from thirtyone.game.settlers import settle_blitz, settle_showdown
from thirtyone.game.state import GameState
from thirtyone.game.widow import check_widow_state
from thirtyone.hands import HAND_SIZE, HandScore, evaluator
from thirtyone.rules import Family, Rules

TABLE_HANDS = 2


class SwitchPhase(StrEnum):
    KEEP = "keep"
    """The dealer keeps one of their two hands."""
    EXCHANGE = "exchange"
    """A seat swaps a card or a hand, renews a table hand, knocks, or stands after a knock."""


class SwitchFlow(TurnFlow):
    family = Family.SWITCH
    phases = frozenset(SwitchPhase)

    def supports(self, rules: Rules) -> None:
        """Every Switch option is played."""

    def start_round(self, state: GameState) -> tuple[GameState, Events]:
        order = dealing_order(state)
        dealer = state.dealer
        hands, centre, rest = deal(state, (*order, dealer), widow=True)
        dealt = hands[dealer]
        seats = list(hands)
        seats[dealer] = dealt[0::2] + dealt[1::2]
        state = state.evolve(
            phase=SwitchPhase.KEEP, turn=dealer, turns=0, hands=tuple(seats), stock=rest,
            discard=(), table=centre, table_face_up=(False,) * HAND_SIZE, out=(), knocker=None,
            final_turns=0, pickup=None,
        )
        return state, [{"type": "dealt", "round": state.round, "dealer": dealer}]

    def uses(self, rules: Rules) -> frozenset[str]:
        return MOVE_TYPES

    def score(self, state: GameState, seat: int) -> HandScore:
        return evaluator(state.rules).score(state.hands[seat])

    def keep(self, state: GameState, dealer: int, index: int) -> tuple[GameState, Events]:
        both = state.hands[dealer]
        start, other = HAND_SIZE * index, HAND_SIZE * (1 - index)
        kept, laid = both[start:start + HAND_SIZE], both[other:other + HAND_SIZE]
        hands = list(state.hands)
        hands[dealer] = kept
        state = state.evolve(
            phase=SwitchPhase.EXCHANGE, turn=state.next_active(dealer), hands=tuple(hands),
            table=state.table + laid, table_face_up=state.table_face_up + (True,) * HAND_SIZE,
        )
        events: Events = [{"type": "hand_kept", "seat": dealer, "hand": index,
                           "laid": [card.code for card in laid]}]
        blitz = tuple(seat for seat in state.active_seats if self.score(state, seat).is_blitz)
        if blitz:
            return settle_blitz(state, blitz, events)
        return state, events

    def renew(self, state: GameState, seat: int, index: int,
               face_up: bool) -> tuple[GameState, Events]:
        start = HAND_SIZE * index
        table, flags = list(state.table), list(state.table_face_up)
        fresh = state.stock[:HAND_SIZE]
        out = state.out + tuple(table[start:start + HAND_SIZE])
        table[start:start + HAND_SIZE] = fresh
        flags[start:start + HAND_SIZE] = [face_up] * HAND_SIZE
        state = state.evolve(table=tuple(table), table_face_up=tuple(flags),
                             stock=state.stock[HAND_SIZE:], out=out)
        events: Events = [{"type": "renewed", "seat": seat, "hand": index, "face_up": face_up,
                           "cards": [card.code for card in fresh] if face_up else None}]
        if face_up:
            return self.end_turn(state, seat, events)
        return state, events

    def end_turn(self, state: GameState, seat: int, events: Events,
                 **changes: Any) -> tuple[GameState, Events]:
        state = close_turn(state, state.next_active(seat), **changes)
        if showdown_due(state, events):
            return settle_showdown(state, events)
        return state, events

    def check_state(self, state: GameState) -> None:
        if state.phase == SwitchPhase.KEEP:
            dealer = state.hands[state.dealer]
            if (state.turn != state.dealer or len(dealer) != 2 * HAND_SIZE
                    or len(state.table) != HAND_SIZE):
                raise StateError("bad_hand_size", N_("the dealer must hold two hands and the "
                                                     "table one"), field="hands")
            if any(state.table_face_up):
                raise StateError("bad_table", N_("the table hand lies face down until the "
                                                 "dealer keeps a hand"), field="table_face_up")
            others = state.evolve(hands=tuple(
                hand[:HAND_SIZE] if seat == state.dealer else hand
                for seat, hand in enumerate(state.hands)))
            check_widow_state(others, self.phases, HAND_SIZE)
            return
        check_widow_state(state, self.phases, HAND_SIZE * TABLE_HANDS)


class KeepHand(Keep[SwitchFlow]):
    """The dealer keeps one of their two hands and lays the other face up."""

    def legal(self, flow: SwitchFlow, state: GameState) -> list[Move]:
        return [{"type": "keep", "hand": index} for index in range(TABLE_HANDS)]

    def verify(self, flow: SwitchFlow, state: GameState,
               move: Mapping[str, Any]) -> Move:
        return {"type": "keep", "hand": read_table_hand(move, TABLE_HANDS)}

    def apply(self, flow: SwitchFlow, state: GameState,
              move: Mapping[str, Any]) -> tuple[GameState, Events]:
        return flow.keep(state, state.seat_to_act, move["hand"])


def _after_swap(flow: SwitchFlow, state: GameState, seat: int,
                events: Events) -> tuple[GameState, Events]:
    """A swap ends the turn; a blitz it makes is shown at once."""
    if shows_blitz(state, flow.score(state, seat)):
        return settle_blitz(state.evolve(turns=state.turns + 1), (seat,), events)
    return flow.end_turn(state, seat, events)


class SwapCard(Exchange[SwitchFlow]):
    """Swap one card for a table card; a face-down one is taken unseen."""

    def legal(self, flow: SwitchFlow, state: GameState) -> list[Move]:
        return list(exchange_moves(state.hands[state.seat_to_act], len(state.table), (1,)))

    def verify(self, flow: SwitchFlow, state: GameState,
               move: Mapping[str, Any]) -> Move:
        hand = state.hands[state.seat_to_act]
        return read_exchange(move, hand, len(state.table), (1,))

    def apply(self, flow: SwitchFlow, state: GameState,
              move: Mapping[str, Any]) -> tuple[GameState, Events]:
        seat = state.seat_to_act
        card = move_card({"card": move["give"][0]})
        state, event = swap(state, seat, [card], move["take"], True)
        return _after_swap(flow, state, seat, [event])


class SwapWholeHand(SwapHand[SwitchFlow]):
    """Swap the whole hand with a table hand; the hand given lies face up."""

    def legal(self, flow: SwitchFlow, state: GameState) -> list[Move]:
        return [{"type": "swap_hand", "hand": index} for index in range(TABLE_HANDS)]

    def verify(self, flow: SwitchFlow, state: GameState,
               move: Mapping[str, Any]) -> Move:
        return {"type": "swap_hand", "hand": read_table_hand(move, TABLE_HANDS)}

    def apply(self, flow: SwitchFlow, state: GameState,
              move: Mapping[str, Any]) -> tuple[GameState, Events]:
        seat = state.seat_to_act
        start = HAND_SIZE * move["hand"]
        positions = list(range(start, start + HAND_SIZE))
        state, swapped = swap(state, seat, state.hands[seat], positions, True)
        event: HandSwapped = {"type": "hand_swapped", "seat": seat, "hand": move["hand"],
                 "gave": swapped["gave"], "took": swapped["took"]}
        return _after_swap(flow, state, seat, [event])


class RenewHand(Renew[SwitchFlow]):
    """Put a table hand out of play for three cards of the stock, face up or down."""

    def legal(self, flow: SwitchFlow, state: GameState) -> list[Move]:
        if len(state.stock) < HAND_SIZE:
            return []
        return [{"type": "renew", "hand": index, "face_up": up}
                for index in range(TABLE_HANDS) for up in (True, False)]

    def verify(self, flow: SwitchFlow, state: GameState,
               move: Mapping[str, Any]) -> Move:
        index = read_table_hand(move, TABLE_HANDS)
        face_up = move.get("face_up")
        if not isinstance(face_up, bool):
            raise refuse("bad_move", N_("say whether the new hand lies face up"),
                         field="face_up")
        if len(state.stock) < HAND_SIZE:
            raise refuse("stock_empty", N_("the stock has too few cards to renew a hand"),
                         field="hand")
        return {"type": "renew", "hand": index, "face_up": face_up}

    def apply(self, flow: SwitchFlow, state: GameState,
              move: Mapping[str, Any]) -> tuple[GameState, Events]:
        return flow.renew(state, state.seat_to_act, move["hand"], move["face_up"])


KEEPING: tuple[Operation[Any], ...] = (KeepHand(),)
TURN: tuple[Operation[Any], ...] = (SwapCard(), SwapWholeHand(), RenewHand(), PlainKnock(),
                                    PlainStand())
"""A turn: swap a card or the hand, renew a table hand, or knock (``stand`` after one)."""
MOVE_TYPES = frozenset(operation.type for operation in (*KEEPING, *TURN))
SwitchFlow.turns = {SwitchPhase.KEEP: KEEPING, SwitchPhase.EXCHANGE: TURN}
