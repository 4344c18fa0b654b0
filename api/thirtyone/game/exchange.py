"""Exchanges with the table, shared by the families that play them: the widow family,
bank (the draw family with a widow) and Switch.

An exchange gives ``give[i]`` for the table card at position ``take[i]``
(``{"type": "exchange", "give": ["7H"], "take": [0]}``); the cards given take the places of
those taken, face up or face down as the rules lay them, and a card given face down is hidden
in the history everyone sees (:func:`hide_gift`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from thirtyone.cards import Card
from thirtyone.errors import N_
from thirtyone.events import Exchanged
from thirtyone.game.moves import ExchangeMove, PlayedMove, move_card, refuse
from thirtyone.game.operations import operation_of
from thirtyone.game.state import GameState, thaw
from thirtyone.hands import HAND_SIZE
from thirtyone.rules import Rules


def exchange_sizes(rules: Rules) -> tuple[int, ...]:
    """How many cards one exchange may swap."""
    if rules.exchange == "one-or-three":
        return (1, HAND_SIZE)  # one card, or the whole widow
    return tuple(range(1, rules.exchange_max + 1))


def read_exchange(move: Mapping[str, Any], hand: Sequence[Card], positions: int,
                  sizes: Sequence[int]) -> ExchangeMove:
    """An exchange move checked, in canonical form (card codes, table positions)."""
    give, take = move.get("give"), move.get("take")
    if not isinstance(give, list) or not isinstance(take, list) or not give:
        raise refuse("bad_move", N_("an exchange names the cards given and the table "
                                    "positions taken"), field="give")
    cards = [move_card({"give": code}, "give") for code in give]
    for card in cards:
        if card not in hand:
            raise refuse("card_not_in_hand", N_("{card} is not in your hand"), field="give",
                         card=card.code)
    if len(set(cards)) != len(cards):
        raise refuse("bad_move", N_("a card may be given only once"), field="give")
    if any(isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < positions
           for p in take) or len(set(take)) != len(take):
        raise refuse("bad_position", N_("take distinct table positions from 0 to {last}"),
                     field="take", last=positions - 1)
    if len(take) != len(cards):
        raise refuse("bad_move", N_("give as many cards as you take"), field="take")
    if len(cards) not in sizes:
        raise refuse("bad_exchange_size",
                     N_("exchange {sizes} cards, not {count}"), field="give",
                     sizes=" or ".join(map(str, sizes)), count=len(cards))
    return {"type": "exchange", "give": [card.code for card in cards], "take": list(take)}


def swap(state: GameState, seat: int, cards: Sequence[Card], positions: Sequence[int],
         given_face_up: bool) -> tuple[GameState, Exchanged]:
    """Exchange ``cards`` of ``seat``'s hand for the table cards at ``positions``; the cards
    given take the places of those taken. Returns the state and the public ``exchanged``
    event (a face-down card is not named)."""
    table, face_up = list(state.table), list(state.table_face_up)
    taken = [table[p] for p in positions]
    seen = [table[p].code if face_up[p] else None for p in positions]
    for card, position in zip(cards, positions, strict=True):
        table[position], face_up[position] = card, given_face_up
    hand = [card for card in state.hands[seat] if card not in cards] + taken
    hands = list(state.hands)
    hands[seat] = tuple(hand)
    event: Exchanged = {"type": "exchanged", "seat": seat, "count": len(cards),
             "gave": [card.code if given_face_up else None for card in cards],
             "took": seen, "positions": list(positions)}
    return state.evolve(hands=tuple(hands), table=tuple(table),
                        table_face_up=tuple(face_up)), event


def exchange_moves(hand: Sequence[Card], positions: int,
                   sizes: Sequence[int]) -> list[ExchangeMove]:
    """Every exchange, one per set of cards given and set of positions taken."""
    return [{"type": "exchange", "give": [card.code for card in give], "take": list(take)}
            for size in sizes
            for give in combinations(hand, size)
            for take in combinations(range(positions), size)]


def hide_gift(entry: Mapping[str, Any], rules: Rules) -> PlayedMove:
    """A history entry with the cards given face down hidden from everyone."""
    if rules.widow_discards == "face-down":
        return operation_of(entry).face_down(entry)
    shown: PlayedMove = thaw(entry)
    return shown
