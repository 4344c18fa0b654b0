"""Worlds consistent with one seat's view: the cards the seat cannot see dealt at random.

A :class:`WorldDealer` is built once per view and dealt from a :class:`random.Random`: the
other hands, the stock, face-down table cards and cards out of play get the rest of the deck,
consistently with what the seat saw this round (a card another seat took face up is in that
seat's hand until it gives it away; a recycled stock holds the discard pile it was turned over
from, in order), and with what the policy (:mod:`thirtyone.policy`) makes of the hands: a seat
keeps the best of the cards it saw, a knocker holds a hand it knocks with.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from thirtyone.cards import Card, parse_card
from thirtyone.game import GameState, Seat
from thirtyone.hands import HAND_SIZE
from thirtyone.policy import knock_threshold, scorer
from thirtyone.rules import Family, Rules, make_rules

MAX_CHOICE = 4
"""The most extra cards a seat's hidden cards are chosen from (see :meth:`WorldDealer._hand`)."""
KNOCKER_TRIES = 40
"""Deals tried for a knocker's hidden cards, looking for a hand worth a knock."""


class WorldDealer:
    """Deals worlds consistent with one seat's view: call it with a :class:`random.Random`.

    Built once per view: it reads the rules, the cards the seat sees, and which cards the
    round's moves put in another seat's hand or in a recycled stock; each call deals the rest
    of the deck at random into the places the seat cannot see.
    """

    def __init__(self, seen: Mapping[str, Any]) -> None:
        rules = make_rules(seen["rules"]["variant"], seen["rules"]["options"])
        self.rules = rules
        self.seat: int = seen["seat"]
        self.seen = seen
        self.hands = [[None if code is None else parse_card(code) for code in hand]
                      for hand in seen["hands"]]
        self.discard = tuple(parse_card(code) for code in seen["discard"])
        self.table = [None if code is None else parse_card(code) for code in seen["table"]]
        known, stock, self.choice = _round_knowledge(seen, rules)
        self.knocker: int | None = seen["knocker"]
        players = sum(1 for hand in seen["hands"] if hand)
        self.knock_at = knock_threshold(rules, players, seen["turns"])
        self.worth = scorer(rules)
        visible = {card for hand in self.hands for card in hand if card is not None}
        visible.update(self.discard)
        visible.update(card for card in self.table if card is not None)
        for index, cards in known.items():
            cards -= visible
            if len(cards) > self.hands[index].count(None):
                cards.clear()  # the seat sat out a carried deal: its cards went out of play
        stock = [card for card in stock if card not in visible] if stock is not None else None
        self.known = known
        self.stock = stock
        self.pool = self._pool(visible)
        if len(self.pool) != self._slots():
            # What the moves told did not fit the view (it cannot happen for a state the
            # engine played); deal every hidden card at random instead.
            self.known, self.stock = {}, None
            self.pool = self._pool(visible)
        self.seats = tuple(Seat(**standing) for standing in seen["seats"])
        # The flows read the round's moves (a full round of passes renews the table): the
        # worlds keep them, as the seat saw them, from the deal on.
        self.history = tuple(seen["history"][max(round_start(seen["history"]) - 1, 0):])

    def _pool(self, visible: set[Card]) -> list[Card]:
        placed = set(visible)
        for cards in self.known.values():
            placed |= cards
        if self.stock is not None:
            placed.update(self.stock)
        return [card for card in self.rules.deck_cards.cards if card not in placed]

    def _slots(self) -> int:
        hidden = sum(card is None for hand in self.hands for card in hand)
        hidden -= sum(len(cards) for cards in self.known.values())
        stock = 0 if self.stock is not None else self.seen["stock"]
        return hidden + stock + self.table.count(None) + len(self.seen["out"])

    def __call__(self, rng: random.Random) -> GameState:
        pool = list(self.pool)
        rng.shuffle(pool)
        hands = [self._hand(index, hand, pool, rng) for index, hand in enumerate(self.hands)]
        draw = iter(pool)
        table = tuple(card if card is not None else next(draw) for card in self.table)
        out = tuple(next(draw) for _ in self.seen["out"])
        stock = tuple(self.stock) if self.stock is not None else tuple(draw)
        seen = self.seen
        return GameState(
            rules=self.rules, seed=f"world:{rng.random()}", seats=self.seats,
            dealer=seen["dealer"], round=seen["round"], phase=seen["phase"], turn=seen["turn"],
            turns=seen["turns"], hands=tuple(hands), stock=stock, discard=self.discard,
            table=table, table_face_up=tuple(seen["table_face_up"]), out=out,
            knocker=seen["knocker"], final_turns=seen["final_turns"],
            pickup=None if seen["pickup"] is None else parse_card(seen["pickup"]),
            pot=seen["pot"], result=seen["result"], winners=tuple(seen["winners"]),
            history=self.history,
        )

    def _hand(self, index: int, hand: list[Card | None], pool: list[Card],
              rng: random.Random) -> tuple[Card, ...]:
        """Seat ``index``'s hand in a world: the cards seen, the cards known to be there, and
        cards of the ``pool`` for the rest, taken out of it.

        A seat keeps the best of the cards it saw: each card it took unseen this round gives
        it one more card to choose from, and the cards it did not keep go back into the pool;
        a knocker holds what the playout policy knocks with, when such a hand can be found.
        Random hands would make the other seats weaker than they are.
        """
        known = sorted(self.known.get(index, ()), key=lambda card: card.index)
        hidden = hand.count(None) - len(known)
        if not hidden:
            cards = iter(known)
            return tuple(card if card is not None else next(cards) for card in hand)
        fixed = [card for card in hand if card is not None] + known
        whole = len(fixed) + hidden == HAND_SIZE
        if index == self.knocker and whole:
            kept = self._knocker_cards(fixed, hidden, pool, rng)
        else:
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

    def _knocker_cards(self, fixed: list[Card], hidden: int, pool: list[Card],
                       rng: random.Random) -> tuple[Card, ...]:
        """The knocker's hidden cards, taken out of ``pool``: a hand the playout policy would
        knock with when one turns up in :data:`KNOCKER_TRIES` tries, else the best tried."""
        best: tuple[float, list[int]] = (-math.inf, [])
        for _ in range(KNOCKER_TRIES):
            places = rng.sample(range(len(pool)), hidden)
            worth = self.worth([*fixed, *(pool[place] for place in places)])
            if worth > best[0]:
                best = (worth, places)
            if worth >= self.knock_at:
                break
        kept = tuple(pool[place] for place in best[1])
        for place in sorted(best[1], reverse=True):
            del pool[place]
        return kept


def round_start(history: Sequence[Mapping[str, Any]]) -> int:
    """Where the moves of the round being played begin in ``history``: after the last
    ``next_round``."""
    return max((index + 1 for index, entry in enumerate(history)
                if entry.get("type") == "next_round"), default=0)


def _round_knowledge(seen: Mapping[str, Any], rules: Rules,
                     ) -> tuple[dict[int, set[Card]], list[Card] | None, dict[int, int]]:
    """Replay the round's moves as the seat saw them: the cards each other seat took from the
    discard pile or from face-up table places (and still holds), the stock when it is a
    turned-over discard pile (its order is then known), and how many cards each other seat
    took unseen (from the stock, face down, or a widow card dealt before the moves).

    The first turned-up card and the widow's first cards are not in the history: a place
    holding one of them is unknown (``None``) until a card given face up lies there.
    """
    seat = seen["seat"]
    history = seen["history"]
    start = round_start(history)
    known: dict[int, set[Card]] = {}
    unseen: dict[int, int] = {}
    if rules.family not in (Family.DRAW, Family.WIDOW):
        return known, None, unseen
    pile: list[Card | None] = [None] if rules.family == Family.DRAW else []
    table: list[Card | None] = [None] * len(seen["table"])
    players = sum(1 for hand in seen["hands"] if hand)
    unseen_stock = len(rules.deck_cards.cards) - HAND_SIZE * players - len(table) - len(pile)
    stock: list[Card | None] | None = None

    def took(who: int, card: Card | None) -> None:
        if who == seat:
            return
        # A card taken from the stock was a choice among more cards; one taken face up was
        # chosen because it went with the cards held.
        unseen[who] = unseen.get(who, 0) + 1
        if card is not None:
            known.setdefault(who, set()).add(card)

    def gave(who: int, card: Card) -> None:
        known.get(who, set()).discard(card)

    for entry in history[start:]:
        who, kind = entry.get("seat"), entry.get("type")
        if kind == "draw" and entry["source"] == "discard" and pile:
            took(who, pile.pop())
        elif kind == "draw":
            if unseen_stock > 0:
                unseen_stock -= 1
                took(who, None)
                continue
            if not stock:
                stock, pile = pile[:-1], pile[-1:]
            took(who, stock.pop(0))
        elif kind == "discard":
            card = parse_card(entry["card"])
            pile.append(card)
            gave(who, card)
        elif kind == "exchange" and len(entry["take"]) <= len(table):
            for code, position in zip(entry["give"], entry["take"], strict=True):
                took(who, table[position])
                card = None if code is None else parse_card(code)
                table[position] = card
                if card is not None:
                    gave(who, card)
    if rules.family == Family.DRAW and not _replayed(pile, stock, unseen_stock, seen):
        # The moves kept do not reach back to the deal (a history cut short): what they say
        # about the discard pile cannot be placed, so the worlds do without it.
        return {}, None, {}
    if stock is not None and None in stock:
        stock = None
    return known, None if stock is None else [card for card in stock if card is not None], unseen


def _replayed(pile: Sequence[Card | None], stock: Sequence[Card | None] | None,
              unseen_stock: int, seen: Mapping[str, Any]) -> bool:
    """Whether a replay of the round's moves ends with the discard pile and the stock the seat
    sees now."""
    discard = [parse_card(code) for code in seen["discard"]]
    stock_left = unseen_stock if stock is None else len(stock)
    return (len(pile) == len(discard) and stock_left == seen["stock"]
            and all(card is None or card is shown for card, shown in zip(pile, discard,
                                                                       strict=True)))
