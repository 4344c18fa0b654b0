"""Exact values by enumeration, where the position is small enough: the last turn of a round
after a knock, when the only hand the seat cannot see is the knocker's.

Then every world the sampler could deal is enumerated: each completion of the knocker's hand
worth the knock (:attr:`~thirtyone.worlds.WorldDealer.knocker_hands`, equally likely), and
for a draw from the stock each card it can turn up. The seat plays its own rest of the turn
(the discard after a draw) as well as it can from what it then sees, and the round is settled
by the engine. The settlement depends on the hands' scores only, so it is computed once per
pair of scores, and the knocker's completions are grouped by score: a final turn of
two-player Scat costs a few milliseconds.

Positions outside this case (another hidden hand still to show, a face-down card to take)
give ``None``: the advice samples them.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations

from thirtyone.cards import Card
from thirtyone.game import GameState, apply_move, legal_moves
from thirtyone.game.operations import Discard, Draw, Exchange, Pass, Stand, is_move
from thirtyone.hands import HAND_SIZE, evaluator
from thirtyone.policy import Move
from thirtyone.worlds import WorldDealer

Worth = Callable[[GameState], float]
_STANDS = (Stand, Pass)


def final_turn_values(deal: WorldDealer, moves: Sequence[Move],
                      worth: Worth) -> list[float] | None:
    """The exact value of each of ``moves`` for the seat of ``deal``'s view, or ``None``
    when the position is not one this module enumerates (see the module docstring)."""
    seen = deal.seen
    seat, knocker = deal.seat, deal.knocker
    if knocker is None or knocker == seat or seen["final_turns"] != 1:
        return None
    for index, hand in enumerate(deal.hands):
        if index not in (seat, knocker) and None in hand:
            return None
    completions: list[tuple[Card, ...]] = deal.knocker_hands or [()]
    base = deal(random.Random("exact"))  # any world: the hands compared are set below
    stand = next((move for move in legal_moves(base) if is_move(move, _STANDS)), None)
    discarding = base.phase == "discard" and len(base.hands[seat]) == HAND_SIZE + 1
    if not discarding and (stand is None or len(base.hands[seat]) != HAND_SIZE):
        return None
    known = [card for card in deal.hands[knocker] if card is not None]
    known += sorted(deal.known.get(knocker, ()), key=lambda card: card.index)
    table = _Outcomes(base, seat, knocker, stand, worth, known, completions)
    values = []
    for move in moves:
        value = table.move_value(move, deal)
        if value is None:
            return None
        values.append(value)
    return values


class _Outcomes:
    """What the round is worth to the seat for each hand it may end with, against the
    knocker's completions grouped by their score."""

    def __init__(self, base: GameState, seat: int, knocker: int, stand: Move | None,
                 worth: Worth,
                 known: list[Card], completions: list[tuple[Card, ...]]) -> None:
        self.base, self.seat, self.knocker = base, seat, knocker
        self.stand, self.worth = stand, worth
        self.score = evaluator(base.rules).score
        groups: dict[int, list[tuple[Card, ...]]] = {}
        for cards in completions:
            hand = (*known, *cards)
            groups.setdefault(self.score(hand).strength, []).append(hand)
        self.groups = [(hands[0], len(hands), Counter(card for hand in hands for card in hand))
                       for hands in groups.values()]
        self.total = len(completions)
        self._settled: dict[tuple[int, int], float] = {}

    def outcome(self, hand: Sequence[Card], knocker: tuple[Card, ...]) -> float:
        key = (self.score(hand).strength, self.score(knocker).strength)
        value = self._settled.get(key)
        if value is None:
            hands = list(self.base.hands)
            move = self.stand
            if move is None:
                # The discard that ends the turn: the hand kept is the four held but one.
                extra = next(card for card in hands[self.seat] if card not in hand)
                move = {"type": "discard", "card": extra.code}
                hand = (*hand, extra)
            hands[self.seat], hands[self.knocker] = tuple(hand), knocker
            settled, _ = apply_move(self.base.evolve(hands=tuple(hands)), move)
            value = self._settled[key] = self.worth(settled)
        return value

    def against_all(self, hand: Sequence[Card], without: Card | None = None) -> tuple[float, int]:
        """The sum of the outcomes of ``hand`` over the completions (those not holding
        ``without``), and their count."""
        total, count = 0.0, 0
        for knocker, size, cards in self.groups:
            size -= cards[without] if without is not None else 0
            if size:
                total += size * self.outcome(hand, knocker)
                count += size
        return total, count

    def best_of(self, cards: Sequence[Card], without: Card | None = None) -> tuple[float, int]:
        """The best mean the seat can make keeping three of ``cards`` (it chooses after seeing
        them, not the knocker's hand), and the count of completions it is the mean of."""
        best, weight = -math.inf, 0
        for hand in combinations(cards, HAND_SIZE):
            total, count = self.against_all(hand, without)
            if count and total / count > best:
                best, weight = total / count, count
        return best, weight

    def move_value(self, move: Move, deal: WorldDealer) -> float | None:
        hand = self.base.hands[self.seat]
        if is_move(move, Discard):
            total, count = self.against_all([card for card in hand if card.code != move["card"]])
            return total / count
        if is_move(move, _STANDS):
            total, count = self.against_all(hand)
            return total / count
        if is_move(move, Exchange):
            taken = [deal.table[position] for position in move["take"]]
            if None in taken:
                return None
            given = set(move["give"])
            kept = [card for card in hand if card.code not in given]
            total, count = self.against_all([*kept, *taken])
            return total / count
        if is_move(move, Draw) and move["source"] == "discard":
            return self.best_of([*hand, deal.discard[-1]])[0]
        if is_move(move, Draw):
            return self._draw_stock(hand, deal)
        return None

    def _draw_stock(self, hand: Sequence[Card], deal: WorldDealer) -> float | None:
        if deal.stock is not None:
            # A stock everyone knows: its top card when its order is known, else any of it.
            if not deal.stock:
                return None
            cards = deal.stock[:1] if deal.public.stock_ordered else deal.stock
            return math.fsum(self.best_of([*hand, card])[0] for card in cards) / len(cards)
        # The card turned up is any card of the pool but the knocker's: weighted by how many
        # completions leave it out.
        total = weight = 0.0
        for card in deal.pool:
            best, count = self.best_of([*hand, card], without=card)
            if count:
                total += best * count
                weight += count
        return total / weight if weight else None

