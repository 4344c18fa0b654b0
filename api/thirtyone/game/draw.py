"""The draw-and-discard family: scat, blitz, cut-throat, no-elimination, eenendertigen
(RULES.md §4.1-§4.5).

A turn is ``draw`` (from the stock or the discard pile) then ``discard``, or ``knock``; after
a knock every other seat has one final turn, which may be ``stand``. A blitz ends the round at
once, after the deal or after the discard that makes it. The rules read here:
``may_discard_pickup``, ``stock_exhausted`` and, through the hand evaluator, ``blitz``; the
knock's rules (``knock_first_round``, ``max_turns``, ``blitz_after_knock``) are read by
:mod:`thirtyone.game.family` for every family, the settlement reads the rest.

The stock runs out (``stock_exhausted``): with ``void`` or ``showdown``, at the end of a turn
before anyone knocked, the round ends with no loser or with a showdown without a knocker; with
``recycle`` or ``reshuffle``, a seat drawing from the empty stock first gets the discard pile
but its top card turned over as the new stock, or shuffled by the seeded shuffle
(:mod:`thirtyone.game.shuffle`, the stream ``reshuffle:<round>:<turns>``).

Bank, the family with a widow, is played by :class:`~thirtyone.game.bank.BankFlow`, which
adds its phases to these (:mod:`thirtyone.game.families` finds the one a rule set plays).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from thirtyone.errors import N_, MoveError, StateError
from thirtyone.game.dealing import deal, dealing_order
from thirtyone.game.family import (
    Events,
    PlainKnock,
    PlainStand,
    TurnFlow,
    close_turn,
    showdown_due,
    shows_blitz,
)
from thirtyone.game.moves import Move, move_card, refuse, unknown_move
from thirtyone.game.operations import Discard, Draw, Operation
from thirtyone.game.settlement import Outcome
from thirtyone.game.settlers import settle_blitz, settle_round, settle_showdown
from thirtyone.game.shuffle import shuffled
from thirtyone.game.state import GameState, Phase
from thirtyone.hands import HAND_SIZE, evaluator
from thirtyone.rules import Family, Rules


class DrawFlow(TurnFlow):
    family = Family.DRAW
    phases = frozenset({Phase.DRAW, Phase.DISCARD})

    def supports(self, rules: Rules) -> None:
        """Every option of the draw family is played (bank's widow by
        :class:`~thirtyone.game.bank.BankFlow`)."""

    # The deal

    def start_round(self, state: GameState) -> tuple[GameState, Events]:
        order = dealing_order(state)
        hands, _, rest = deal(state, order)
        state = state.evolve(
            phase=Phase.DRAW, turn=order[0], turns=0, hands=hands, stock=rest[1:],
            discard=rest[:1], table=(), table_face_up=(), out=(), knocker=None, final_turns=0,
            pickup=None,
        )
        events: Events = [
            {"type": "dealt", "round": state.round, "dealer": state.dealer},
            {"type": "turned_up", "card": rest[0].code},
        ]
        score = evaluator(state.rules).score
        blitz = tuple(seat for seat in sorted(order) if score(hands[seat]).is_blitz)
        if blitz:
            return settle_blitz(state, blitz, events)
        return state, events

    # The operations of each phase: DrawFlow.turns, below

    def uses(self, rules: Rules) -> frozenset[str]:
        return MOVE_TYPES

    def refusal(self, state: GameState, kind: str) -> MoveError:
        """A draw-family move out of its phase: draw before discarding, discard after."""
        if kind not in self.uses(state.rules):
            return unknown_move(kind, state.rules.variant)
        if state.phase == Phase.DRAW:
            return refuse("must_draw", N_("draw a card (or knock) before discarding"))
        return refuse("must_discard", N_("discard a card first"))

    # Playing a move

    def end_turn(self, state: GameState, seat: int, events: Events,
                 **changes: Any) -> tuple[GameState, Events]:
        """Close ``seat``'s turn: a void round or a showdown when the stock ran out before
        anyone knocked, a showdown after the last final turn or at ``max_turns``, else the
        next seat."""
        state = close_turn(state, state.next_active(seat), phase=Phase.DRAW, **changes)
        if state.knocker is None and not state.stock:
            exhausted = state.rules.stock_exhausted
            if exhausted == "void":
                events.append({"type": "stock_exhausted"})
                return settle_round(state, Outcome("void", knocker=None), events)
            if exhausted == "showdown":
                events.append({"type": "stock_showdown"})
                return settle_showdown(state, events)
        if showdown_due(state, events):
            return settle_showdown(state, events)
        return state, events

    # Consistency of a state read from data

    def check_state(self, state: GameState) -> None:
        playing = state.phase in self.phases
        for index, (seat, hand) in enumerate(zip(state.seats, state.hands, strict=True)):
            if playing:
                expected = 0 if seat.eliminated else HAND_SIZE
                if state.phase == Phase.DISCARD and index == state.turn:
                    expected = HAND_SIZE + 1
                good = len(hand) == expected
            else:
                good = len(hand) in ((0, HAND_SIZE) if seat.eliminated else (HAND_SIZE,))
            if not good:
                raise StateError("bad_hand_size",
                                 N_("seat {seat} holds {count} cards, which is not possible "
                                    "now"), field="hands", seat=index, count=len(hand))
        if state.table or state.out:
            raise StateError("bad_table", N_("this game has no cards on the table"),
                             field="table")
        if playing and state.phase == Phase.DRAW and not (state.stock or state.discard):
            raise StateError("bad_stock", N_("the stock and the discard pile are both empty"),
                             field="stock")


class DrawCard(Draw["DrawFlow"]):
    """Take the top card of the stock (the discard pile turned over first when the rules
    recycle it) or of the discard pile."""

    def legal(self, flow: DrawFlow, state: GameState) -> list[Move]:
        moves: list[Move] = []
        if state.stock or _can_recycle(state):
            moves.append({"type": "draw", "source": "stock"})
        if state.discard:
            moves.append({"type": "draw", "source": "discard"})
        return moves

    def verify(self, flow: DrawFlow, state: GameState,
               move: Mapping[str, Any]) -> Move:
        source = self.read(move)
        if source == "stock" and not state.stock and not _can_recycle(state):
            raise refuse("stock_empty", N_("the stock is empty"), field="source")
        if source == "discard" and not state.discard:
            raise refuse("discard_empty", N_("the discard pile is empty"), field="source")
        return {"type": "draw", "source": source}

    def apply(self, flow: DrawFlow, state: GameState,
              move: Mapping[str, Any]) -> tuple[GameState, Events]:
        seat = state.seat_to_act
        source = move["source"]
        hands = list(state.hands)
        stock, discard = state.stock, state.discard
        events: Events = []
        if source == "discard":
            card = discard[-1]
            hands[seat] += (card,)
            events.append({"type": "drew", "seat": seat, "source": source, "card": card.code})
            return state.evolve(phase=Phase.DISCARD, hands=tuple(hands), discard=discard[:-1],
                                pickup=card), events
        if not stock:
            stock, discard = discard[:-1], discard[-1:]
            if state.rules.stock_exhausted == "reshuffle":
                label = f"reshuffle:{state.round}:{state.turns}"
                stock = shuffled(stock, state.seed, label)
                events.append({"type": "stock_reshuffled", "cards": len(stock)})
            else:
                # Turned over without shuffling: the first card discarded is now on top.
                events.append({"type": "stock_recycled", "cards": len(stock)})
        hands[seat] += (stock[0],)
        events.append({"type": "drew", "seat": seat, "source": source})
        return state.evolve(phase=Phase.DISCARD, hands=tuple(hands), stock=stock[1:],
                            discard=discard, pickup=None), events


class DiscardCard(Discard["DrawFlow"]):
    """Discard a card after drawing (not the one just taken from the discard pile unless
    ``may_discard_pickup``)."""

    def legal(self, flow: DrawFlow, state: GameState) -> list[Move]:
        pickup = None if state.rules.may_discard_pickup else state.pickup
        return [{"type": "discard", "card": card.code}
                for card in state.hands[state.seat_to_act] if card is not pickup]

    def verify(self, flow: DrawFlow, state: GameState,
               move: Mapping[str, Any]) -> Move:
        card = move_card(move)
        if card not in state.hands[state.seat_to_act]:
            raise refuse("card_not_in_hand", N_("{card} is not in your hand"),
                         field="card", card=card.code)
        if card is state.pickup and not state.rules.may_discard_pickup:
            raise refuse("cannot_discard_pickup",
                         N_("{card} was just taken from the discard pile and may not be "
                            "discarded this turn"), field="card", card=card.code)
        return {"type": "discard", "card": card.code}

    def apply(self, flow: DrawFlow, state: GameState,
              move: Mapping[str, Any]) -> tuple[GameState, Events]:
        seat = state.seat_to_act
        card = move_card(move)
        hands = list(state.hands)
        hand = tuple(held for held in hands[seat] if held is not card)
        hands[seat] = hand
        events: Events = [{"type": "discarded", "seat": seat, "card": card.code}]
        if shows_blitz(state, evaluator(state.rules).score(hand)):
            state = state.evolve(hands=tuple(hands), discard=(*state.discard, card),
                                 pickup=None, turns=state.turns + 1)
            return settle_blitz(state, (seat,), events)
        return flow.end_turn(state, seat, events, hands=tuple(hands),
                             discard=(*state.discard, card), pickup=None)


DRAW, DISCARD, KNOCK, STAND = DrawCard(), DiscardCard(), PlainKnock(), PlainStand()
TURN: tuple[Operation[Any], ...] = (DRAW, KNOCK, STAND)
"""A turn's first step: draw, or knock (``stand`` after a knock)."""
AFTER_DRAWING: tuple[Operation[Any], ...] = (DISCARD,)
MOVE_TYPES = frozenset(operation.type for operation in (*TURN, *AFTER_DRAWING))
DrawFlow.turns = {Phase.DRAW: TURN, Phase.DISCARD: AFTER_DRAWING}


def _can_recycle(state: GameState) -> bool:
    return state.rules.stock_exhausted in ("recycle", "reshuffle") and len(state.discard) >= 2

