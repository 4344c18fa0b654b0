"""Draw and discard with a widow: bank (RULES.md §4.7).

Scat's turn, plus one more choice instead of drawing: exchange one card (up to
``exchange_max``) with the widow, three cards dealt face down one after each round of dealing;
``{"type": "exchange", "give": ["7H"], "take": [0]}`` names widow positions, a face-down card
is taken unseen, and the cards given lie face up (``widow_discards: face-down`` [001]: face
down). The exchange ends the turn; a blitz it makes is shown at once. With ``tie: carry`` a
carried deal begins with the ``join`` phase of :mod:`thirtyone.game.widow`, and the seats
that sit it out have no turns. The draw family without a widow is
:class:`~thirtyone.game.draw.DrawFlow`'s, which this flow extends.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from thirtyone.errors import N_, MoveError, StateError
from thirtyone.game.dealing import deal, dealing_order
from thirtyone.game.draw import AFTER_DRAWING, DRAW, KNOCK, STAND, DrawFlow
from thirtyone.game.exchange import exchange_moves, exchange_sizes, hide_gift, read_exchange, swap
from thirtyone.game.family import Events, shows_blitz
from thirtyone.game.moves import Move, PlayedMove, move_card, refuse
from thirtyone.game.operations import Exchange, Join, Operation, Pass
from thirtyone.game.settlers import settle_blitz
from thirtyone.game.state import GameState, Phase
from thirtyone.game.widow import (
    JOINING,
    WIDOW_SIZE,
    WidowPhase,
    check_carried_deal,
    next_player,
    to_join,
)
from thirtyone.hands import evaluator
from thirtyone.rules import Rules


class BankFlow(DrawFlow):
    """The draw family with a widow: its deal, the exchange, the carried deal's joins."""

    phases = DrawFlow.phases | {WidowPhase.JOIN}

    def start_round(self, state: GameState) -> tuple[GameState, Events]:
        order = dealing_order(state)
        hands, widow, rest = deal(state, order, widow=True)
        state = state.evolve(
            phase=Phase.DRAW, turn=order[0], turns=0, hands=hands, stock=rest[1:],
            discard=rest[:1], table=widow, table_face_up=(False,) * len(widow), out=(),
            knocker=None, final_turns=0, pickup=None,
        )
        events: Events = [
            {"type": "dealt", "round": state.round, "dealer": state.dealer},
            {"type": "widow_dealt", "cards": [None] * len(widow)},
            {"type": "turned_up", "card": rest[0].code},
        ]
        joining = to_join(state, order)
        if joining:
            return state.evolve(phase=WidowPhase.JOIN, turn=joining[0]), events
        return self.begin(state, events)

    def begin(self, state: GameState, events: Events) -> tuple[GameState, Events]:
        """After the deal (and the joins): blitzes shown at once, then the first turn."""
        players = self.players(state)
        state = state.evolve(phase=Phase.DRAW, turn=players[0])
        score = evaluator(state.rules).score
        blitz = tuple(seat for seat in sorted(players) if score(state.hands[seat]).is_blitz)
        if blitz:
            return settle_blitz(state, blitz, events)
        return state, events

    def uses(self, rules: Rules) -> frozenset[str]:
        carried = frozenset({"join", "pass"}) if rules.tie == "carry" else frozenset()
        return super().uses(rules) | {"exchange"} | carried

    def refusal(self, state: GameState, kind: str) -> MoveError:
        """A carried deal is joined (or passed) first; ``join`` and ``pass`` are for it."""
        if state.phase == WidowPhase.JOIN:
            return refuse("must_join", N_("join the carried deal or pass first"), field="type")
        if kind in (Join.type, Pass.type) and state.rules.tie == "carry":
            return refuse("wrong_phase", N_("{move!r} cannot be played in the {phase} phase"),
                          field="type", move=kind, phase=str(state.phase))
        return super().refusal(state, kind)

    def end_turn(self, state: GameState, seat: int, events: Events,
                  **changes: Any) -> tuple[GameState, Events]:
        new, events = super().end_turn(state, seat, events, **changes)
        if new.turn is not None and not new.hands[new.turn]:
            # A seat sitting out a carried deal has no turns.
            new = new.evolve(turn=next_player(new, seat))
        return new, events

    def public_move(self, entry: Mapping[str, Any], seat: int | None,
                    rules: Rules) -> PlayedMove:
        return hide_gift(entry, rules)

    def check_state(self, state: GameState) -> None:
        if len(state.table) != WIDOW_SIZE:
            raise StateError("bad_table", N_("the widow must hold {count} cards"),
                             field="table", count=WIDOW_SIZE)
        sitting_out = check_carried_deal(state)
        # The hand sizes and the stock are the draw family's: check them with the widow
        # taken away and the seats sitting out a carried deal (their cards out) left out.
        seats = tuple(replace(seat, eliminated=True) if index in sitting_out else seat
                      for index, seat in enumerate(state.seats))
        super().check_state(state.evolve(table=(), table_face_up=(), out=(), seats=seats))


class WidowExchange(Exchange[BankFlow]):
    """Exchange with the widow instead of drawing: the turn ends (a blitz it makes is shown
    at once)."""

    def legal(self, flow: BankFlow, state: GameState) -> list[Move]:
        hand = state.hands[state.seat_to_act]
        return list(exchange_moves(hand, len(state.table), exchange_sizes(state.rules)))

    def verify(self, flow: BankFlow, state: GameState,
               move: Mapping[str, Any]) -> Move:
        hand = state.hands[state.seat_to_act]
        return read_exchange(move, hand, len(state.table), exchange_sizes(state.rules))

    def apply(self, flow: BankFlow, state: GameState,
              move: Mapping[str, Any]) -> tuple[GameState, Events]:
        seat = state.seat_to_act
        cards = [move_card({"card": code}) for code in move["give"]]
        state, event = swap(state, seat, cards, move["take"],
                            state.rules.widow_discards == "face-up")
        events: Events = [event]
        if shows_blitz(state, evaluator(state.rules).score(state.hands[seat])):
            return settle_blitz(state.evolve(turns=state.turns + 1), (seat,), events)
        return flow.end_turn(state, seat, events)


WIDOW_TURN: tuple[Operation[Any], ...] = (DRAW, STAND, WidowExchange(), KNOCK)
"""A turn's first step: draw or exchange with the widow, or knock (``stand`` after one)."""
BankFlow.turns = {Phase.DRAW: WIDOW_TURN, Phase.DISCARD: AFTER_DRAWING,
                  WidowPhase.JOIN: JOINING}
