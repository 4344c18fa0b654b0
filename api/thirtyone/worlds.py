"""Worlds consistent with one seat's view: the cards the seat cannot see dealt at random.

A :class:`WorldDealer` is built once per view and dealt from a :class:`random.Random`: the
other hands, the stock, face-down table cards and cards out of play get the rest of the deck,
consistently with what every seat knows of the round (the view's ``public`` part,
:mod:`thirtyone.game.public`: a card another seat took face up is in that seat's hand until it
gives it away, a turned-over stock keeps its order, Schwimmen's renewed table cards are out of
play) and with what the policy (:mod:`thirtyone.policy`) makes of the hands:

- a seat that drew cards from the stock kept the best of what it saw (each card drawn gives
  it one more card to choose from); a card taken blind (Schwimmen's dealer taking the second
  hand, a face-down table card) is a card dealt at random;
- a knocker holds a hand the knock model (:func:`~thirtyone.policy.knock_model`) knocks with
  at the turn of the knock: its hidden cards
  are drawn uniformly from every completion of its known cards that qualifies (enumerated
  once per view), not by trying random hands.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from thirtyone.cards import Card, parse_card
from thirtyone.game import GameState, Seat
from thirtyone.game.public import Public
from thirtyone.hands import HAND_SIZE
from thirtyone.policy import knock_model, mask_scorer, scorer
from thirtyone.rules import make_rules

MAX_CHOICE = 4
"""The most extra cards a seat's hidden cards are chosen from (see :meth:`WorldDealer._hand`)."""


class WorldDealer:
    """Deals worlds consistent with one seat's view: call it with a :class:`random.Random`.

    Built once per view: it reads the rules, the cards the seat sees and what the round made
    public; each call deals the rest of the deck at random into the places the seat cannot
    see.
    """

    def __init__(self, seen: Mapping[str, Any]) -> None:
        rules = make_rules(seen["rules"]["variant"], seen["rules"]["options"])
        self.rules = rules
        self.seat: int = seen["seat"]
        self.seen = seen
        by_code = {card.code: card for card in rules.deck_cards.cards}
        self.hands = [[None if code is None else by_code[code] for code in hand]
                      for hand in seen["hands"]]
        self.discard = tuple(by_code[code] for code in seen["discard"])
        self.table = [None if code is None else by_code[code] for code in seen["table"]]
        public = seen["public"]
        self.public = Public(
            held=tuple(tuple(by_code[code] for code in held) for held in public["held"]),
            drawn=tuple(public["drawn"]), out=tuple(by_code[code] for code in public["out"]),
            stock=None if public["stock"] is None else tuple(
                by_code[code] for code in public["stock"]),
            stock_ordered=public["stock_ordered"], knocked_at=public["knocked_at"],
        )
        if self.public == Public(held=((),) * len(self.hands), drawn=(0,) * len(self.hands)):
            self.public = Public()  # what a state holds before anything is known
        self.choice = dict(enumerate(public["drawn"]))
        self.knocker: int | None = seen["knocker"]
        players = sum(1 for hand in seen["hands"] if hand)
        knocked_at = public["knocked_at"]
        self.knock_at = knock_model(
            rules, players, seen["turns"] if knocked_at is None else knocked_at)
        self.worth = scorer(rules)
        visible = {card for hand in self.hands for card in hand if card is not None}
        visible.update(self.discard)
        visible.update(card for card in self.table if card is not None)
        known: dict[int, set[Card]] = {}
        for index, held in enumerate(self.public.held):
            cards = set(held) - visible
            if cards and len(cards) <= self.hands[index].count(None):
                known[index] = cards
        self.known = known
        self.out_known = [card for card in self.public.out if card not in visible]
        stock = self.public.stock
        self.stock = None if stock is None else [card for card in stock if card not in visible]
        self.pool = self._pool(visible)
        if len(self.pool) != self._slots():
            # What the view tells does not fit it (it cannot happen for a state the engine
            # played); deal every hidden card at random instead.
            self.known, self.stock, self.out_known = {}, None, []
            self.pool = self._pool(visible)
        self.seats = tuple(Seat(**standing) for standing in seen["seats"])
        # The flows read the last moves (a full round of passes renews the table): the worlds
        # keep them as the seat saw them.
        self.history = tuple(seen["history"][max(round_start(seen["history"]) - 1, 0):])
        self.knocker_hands = self._knocker_hands()

    def _pool(self, visible: set[Card]) -> list[Card]:
        placed = set(visible)
        for cards in self.known.values():
            placed |= cards
        if self.stock is not None:
            placed.update(self.stock)
        placed.update(self.out_known)
        return [card for card in self.rules.deck_cards.cards if card not in placed]

    def _slots(self) -> int:
        hidden = sum(card is None for hand in self.hands for card in hand)
        hidden -= sum(len(cards) for cards in self.known.values())
        stock = 0 if self.stock is not None else self.seen["stock"]
        out = len(self.seen["out"]) - len(self.out_known)
        return hidden + stock + self.table.count(None) + out

    def _knocker_hands(self) -> list[tuple[Card, ...]] | None:
        """Every set of hidden cards that completes the knocker's known cards into a hand
        worth the knock threshold (all of them when none is: the knocker bluffed)."""
        index = self.knocker
        if index is None or index == self.seat:
            return None
        hand = self.hands[index]
        fixed = [card for card in hand if card is not None]
        fixed += sorted(self.known.get(index, ()), key=lambda card: card.index)
        hidden = len(hand) - len(fixed)
        if not hidden or len(hand) != HAND_SIZE:
            return None
        worth = mask_scorer(self.rules)
        base = 0
        for card in fixed:
            base |= card.mask
        threshold = self.knock_at
        every = list(combinations(self.pool, hidden))
        qualifying = []
        for cards in every:
            mask = base
            for card in cards:
                mask |= card.mask
            if worth(mask) >= threshold:
                qualifying.append(cards)
        return qualifying or every

    def __call__(self, rng: random.Random) -> GameState:
        pool = list(self.pool)
        taken: tuple[Card, ...] = ()
        if self.knocker_hands:
            taken = self.knocker_hands[rng.randrange(len(self.knocker_hands))]
            chosen = set(taken)
            pool = [card for card in pool if card not in chosen]
        rng.shuffle(pool)
        hands = [self._hand(index, hand, pool, rng, taken if index == self.knocker else None)
                 for index, hand in enumerate(self.hands)]
        draw = iter(pool)
        table = tuple(card if card is not None else next(draw) for card in self.table)
        out_known = iter(self.out_known)
        out = tuple(next(out_known, None) or next(draw) for _ in self.seen["out"])
        if self.stock is None:
            stock = tuple(draw)
        elif self.public.stock_ordered:
            stock = tuple(self.stock)
        else:
            stock = tuple(rng.sample(self.stock, len(self.stock)))
        seen = self.seen
        return GameState(
            rules=self.rules, seed=f"world:{rng.random()}", seats=self.seats,
            dealer=seen["dealer"], round=seen["round"], phase=seen["phase"], turn=seen["turn"],
            turns=seen["turns"], hands=tuple(hands), stock=stock, discard=self.discard,
            table=table, table_face_up=tuple(seen["table_face_up"]), out=out,
            knocker=seen["knocker"], final_turns=seen["final_turns"],
            pickup=None if seen["pickup"] is None else parse_card(seen["pickup"]),
            pot=seen["pot"], result=seen["result"], winners=tuple(seen["winners"]),
            history=self.history, public=self.public,
        )

    def _hand(self, index: int, hand: list[Card | None], pool: list[Card],
              rng: random.Random, taken: tuple[Card, ...] | None) -> tuple[Card, ...]:
        """Seat ``index``'s hand in a world: the cards seen, the cards known to be there, and
        cards of the ``pool`` for the rest, taken out of it (``taken``: the knocker's hidden
        cards, already drawn).

        A seat keeps the best of the cards it drew from the stock: each card drawn gives it
        one more card to choose from, and the cards it did not keep go back into the pool.
        Random hands would make the other seats weaker than they are.
        """
        known = sorted(self.known.get(index, ()), key=lambda card: card.index)
        hidden = hand.count(None) - len(known)
        if not hidden:
            cards = iter(known)
            return tuple(card if card is not None else next(cards) for card in hand)
        if taken is not None and self.knocker_hands:
            kept: Sequence[Card] = taken
        else:
            fixed = [card for card in hand if card is not None] + known
            whole = len(fixed) + hidden == HAND_SIZE
            choice = min(self.choice.get(index, 0), MAX_CHOICE, len(pool) - hidden)
            drawn = [pool.pop() for _ in range(hidden + max(choice, 0))]
            kept = tuple(drawn)
            if choice > 0 and whole:
                kept = max(combinations(drawn, hidden),
                           key=lambda some: self.worth([*fixed, *some]))
                for card in drawn:
                    if card not in kept:
                        pool.insert(rng.randrange(len(pool) + 1), card)
        cards = iter((*known, *kept))
        return tuple(card if card is not None else next(cards) for card in hand)


def round_start(history: Sequence[Mapping[str, Any]]) -> int:
    """Where the moves of the round being played begin in ``history``: after the last
    ``next_round``."""
    return max((index + 1 for index, entry in enumerate(history)
                if entry.get("type") == "next_round"), default=0)
