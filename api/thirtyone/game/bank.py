"""Draw and discard with a widow: bank (RULES.md §4.7).

Scat's turn, plus one more choice instead of drawing: exchange one card (up to
``exchange_max``) with the widow, three cards dealt face down one after each round of dealing;
``{"type": "exchange", "give": ["7H"], "take": [0]}`` names widow positions, a face-down card
is taken unseen, and the cards given lie face up (``widow_discards: face-down`` [001]: face
down). The exchange ends the turn; a blitz it makes is shown at once. This flow plays the draw
family: without a widow it is the plain draw-and-discard flow.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from thirtyone.errors import N_, StateError
from thirtyone.game.dealing import deal, dealing_order
from thirtyone.game.draw import DrawFlow
from thirtyone.game.family import Events, not_implemented, register
from thirtyone.game.moves import move_card, refuse
from thirtyone.game.state import GameState, Phase
from thirtyone.game.widow import (
    WIDOW_SIZE,
    exchange_moves,
    exchange_sizes,
    hide_gift,
    read_exchange,
    swap,
)
from thirtyone.hands import evaluator
from thirtyone.rules import Rules


class BankFlow(DrawFlow):
    def supports(self, rules: Rules) -> None:
        if rules.widow != "none" and rules.tie == "carry":
            # A carried pot needs seats sitting out a deal, which the draw turns do not skip.
            raise not_implemented(rules, "tie: carry with draw and discard")

    def start_round(self, state: GameState) -> tuple[GameState, Events]:
        if state.rules.widow == "none":
            return super().start_round(state)
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
        score = evaluator(state.rules).score
        blitz = tuple(seat for seat in sorted(order) if score(hands[seat]).is_blitz)
        if blitz:
            return self._blitz(state, blitz, events)
        return state, events

    def legal_moves(self, state: GameState) -> list[dict[str, Any]]:
        moves = super().legal_moves(state)
        if state.table and state.phase == Phase.DRAW:
            hand = state.hands[state.turn]  # type: ignore[index]
            moves[-1:-1] = exchange_moves(hand, len(state.table), exchange_sizes(state.rules))
        return moves

    def check(self, state: GameState, move: Mapping[str, Any], kind: str) -> dict[str, Any]:
        if kind != "exchange" or not state.table:
            return super().check(state, move, kind)
        if state.phase != Phase.DRAW:
            raise refuse("must_discard", N_("discard a card first"))
        hand = state.hands[state.turn]  # type: ignore[index]
        cards, take = read_exchange(move, hand, len(state.table),
                                    exchange_sizes(state.rules))
        return {"type": "exchange", "give": [card.code for card in cards], "take": take}

    def play(self, state: GameState, move: dict[str, Any]) -> tuple[GameState, Events]:
        if move["type"] != "exchange":
            return super().play(state, move)
        seat: int = state.turn  # type: ignore[assignment]
        cards = [move_card({"card": code}) for code in move["give"]]
        state, event = swap(state, seat, cards, move["take"],
                            state.rules.widow_discards == "face-up")
        events: Events = [event]
        if evaluator(state.rules).score(state.hands[seat]).is_blitz:
            return self._blitz(state.evolve(turns=state.turns + 1), (seat,), events)
        return self._end_turn(state, seat, events)

    def public_move(self, entry: Mapping[str, Any], seat: int | None,
                    rules: Rules) -> dict[str, Any]:
        return hide_gift(entry, rules)

    def check_state(self, state: GameState) -> None:
        if state.rules.widow == "none":
            super().check_state(state)
            return
        if len(state.table) != WIDOW_SIZE:
            raise StateError("bad_table", N_("the widow must hold {count} cards"),
                             field="table", count=WIDOW_SIZE)
        # The hand sizes and the stock are the draw family's: check them without the widow.
        super().check_state(state.evolve(table=(), table_face_up=()))


register(BankFlow())
