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
  once per view), not by trying random hands;
- in the widow family with a plain knock, the other seats' exchanges and passes since the
  seat's own last turn (before any knock) were made from their hands then: a world in which
  the policy would have played each of them is kept, one in which it would not is kept with
  the chance :data:`UNLIKE` only (the seats met need not play the policy), so that a seat
  that passed likely holds a hand no exchange betters, and one that gave a card away likely
  keeps nothing of its suit. Each hand then is the world's hand with the exchange undone: the
  cards taken are the last the seat is known to hold (``public.held``), the table then is
  today's with them back in their places;
- in the draw family, likewise, the other seats' discards since the seat's last turn: the
  policy discards the card whose loss leaves the best hand, so a world in which the seat
  would rather have thrown another of the four cards it held is kept with the chance
  :data:`UNLIKE` only.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from thirtyone.cards import Card, parse_card
from thirtyone.game import GameState, Seat, legal_moves
from thirtyone.game.operations import Discard, Draw, Exchange, NextRound, Pass, is_move
from thirtyone.game.public import Public
from thirtyone.game.widow import trailing_passes
from thirtyone.hands import HAND_SIZE
from thirtyone.playout import plain_exchanges, plain_moves
from thirtyone.policy import Judge, discard_values, knock_model, mask_scorer, scorer
from thirtyone.rules import Family, make_rules

MAX_CHOICE = 10
"""The most extra cards a seat's hidden cards are chosen from (see :meth:`WorldDealer._hand`)."""
UNLIKE = 0.05
"""The chance that a world is kept in which the policy would not have made another seat's
last exchange, pass or discard (see the module docstring): a world that fits them is kept
always. Not
0: the seats met need not play the policy, and a world that does not fit them is unlikely,
not impossible. In two-player Schwimmen against the greedy bot (500 seeded matches, with the
knock always shortlisted) the strong bot won 71.6% at 0.05 and 69.8% at 0.2."""
TRIES = 12
"""The most worlds dealt for one: past them, the last one dealt is kept."""


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
        self.public = _public(public, by_code, len(self.hands))
        self.choice = dict(enumerate(public["drawn"]))
        self.knocker: int | None = seen["knocker"]
        self.knock_at = self._knock_model(seen)
        self.worth = scorer(rules)
        visible = {card for hand in self.hands for card in hand if card is not None}
        visible.update(self.discard)
        visible.update(card for card in self.table if card is not None)
        self._place_known(visible)
        self.seats = tuple(Seat(**standing) for standing in seen["seats"])
        # The flows read the last moves (a full round of passes renews the table): the worlds
        # keep them as the seat saw them.
        self.history = tuple(seen["history"][max(round_start(seen["history"]) - 1, 0):])
        self.knocker_hands = self._knocker_hands()
        self.recent = self._recent_moves(seen)
        self.discards = self._recent_discards(seen)

    def _knock_model(self, seen: Mapping[str, Any]) -> float:
        """The knock threshold the knocker is taken to have knocked at (the model's at this
        turn when no one knocked yet)."""
        players = sum(1 for hand in seen["hands"] if hand)
        knocked_at = seen["public"]["knocked_at"]
        # The knocker's lives are the same all round; the stock at the knock is not known.
        return knock_model(
            self.rules, players, seen["turns"] if knocked_at is None else knocked_at,
            lives=None if self.knocker is None else seen["seats"][self.knocker]["lives"])

    def _place_known(self, visible: set[Card]) -> None:
        """Place the hidden cards the round made public (in a seat's hand, the stock, out
        of play), and pool the rest, to be dealt at random."""
        self.known = self._known(visible)
        self.out_known = [card for card in self.public.out if card not in visible]
        stock = self.public.stock
        self.stock = None if stock is None else [card for card in stock if card not in visible]
        self.pool = self._pool(visible)
        if len(self.pool) != self._slots():
            # What the view tells does not fit it (it cannot happen for a state the engine
            # played); deal every hidden card at random instead.
            self.known, self.stock, self.out_known = {}, None, []
            self.pool = self._pool(visible)

    def _known(self, visible: set[Card]) -> dict[int, set[Card]]:
        """The cards each seat is known to hold that this seat does not see (as many as its
        hidden places at most)."""
        known: dict[int, set[Card]] = {}
        for index, held in enumerate(self.public.held):
            cards = set(held) - visible
            if cards and len(cards) <= self.hands[index].count(None):
                known[index] = cards
        return known

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

    def _reads_exchanges(self, seen: Mapping[str, Any]) -> bool:
        """Whether the worlds fit the other seats' recent exchanges: in the widow family's
        exchanges with a plain knock, none made yet, the table face up.

        Not in Trentuno's rounds, which have no plain knock and are played out to a 31: there
        the worlds that fit the exchanges made the playouts several times longer (in
        ``benchmarks/bots.py --effort``, one match's median decision went from 21 to 65 ms).
        """
        return (self.rules.family == Family.WIDOW and self.rules.knock == "plain"
                and self.knocker is None and seen["phase"] == "exchange"
                and None not in self.table)

    def _recent_moves(self, seen: Mapping[str, Any]) -> list[_Undone]:
        """The other seats' exchanges and passes since this seat's last turn (widow family,
        no knock yet), latest first, each with the table it was made on; none past a pass
        that renewed the table, or a move not read (see the module docstring)."""
        if not self._reads_exchanges(seen):
            return []
        history = seen["history"][round_start(seen["history"]):]
        table = [card for card in self.table if card is not None]  # all of them: face up
        held = [list(cards) for cards in self.public.held]
        players = sum(1 for hand in self.hands if hand)
        undone: list[_Undone] = []
        for back, entry in enumerate(reversed(history)):
            seat, turns = entry.get("seat"), seen["turns"] - back - 1
            if seat == self.seat or seat is None or turns < 0 \
                    or not is_move(entry, (Exchange, Pass)):
                break  # this seat's own turn, or the dealer's choice before the first turn
            if is_move(entry, Pass):
                passes = trailing_passes(history[:len(history) - back])
                if passes % players == 0:
                    break  # the table was renewed after it: the one it was made on is gone
                undone.append(_Undone(seat, None, (), tuple(table), turns))
                continue
            count = len(entry["give"])
            if not held or len(held[seat]) < count:
                break
            taken = tuple(held[seat][-count:])
            del held[seat][-count:]
            given = tuple(parse_card(code) for code in entry["give"])
            for card, position in zip(taken, entry["take"], strict=True):
                table[position] = card
            undone.append(_Undone(seat, entry, taken, tuple(table), turns, given))
        return undone

    def _recent_discards(self, seen: Mapping[str, Any]) -> list[_Discarded]:
        """The other seats' discards since this seat's last turn (draw family, no knock
        yet), latest first, each with the card it could not discard (a card just taken from
        the discard pile, where the rules keep it; ``None`` when it could discard any)."""
        if self.rules.family != Family.DRAW or self.knocker is not None \
                or seen["phase"] != "draw":
            return []
        history = seen["history"][round_start(seen["history"]):]
        discards: list[_Discarded] = []
        for back in range(len(history) - 1, -1, -1):
            entry = history[back]
            if entry.get("seat") == self.seat or not is_move(entry, (Draw, Discard)):
                break
            if not is_move(entry, Discard):
                continue
            drawn = history[back - 1] if back else None
            if drawn is None or not is_move(drawn, Draw):
                break
            kept = None
            if drawn["source"] == "discard" and not self.rules.may_discard_pickup:
                # The card taken was the pile's top: the one discarded just before.
                before = history[back - 2] if back > 1 else None
                if before is None or not is_move(before, Discard):
                    break
                kept = parse_card(before["card"])
            discards.append(_Discarded(entry["seat"], parse_card(entry["card"]), kept))
        return discards

    def _likely(self, world: GameState) -> bool:
        """Whether the policy would have made each of the recent moves in ``world``: none
        of the moves it could make was worth more to it than the one made."""
        hands = list(world.hands)
        rules = world.rules
        plain = plain_exchanges(rules)
        worth = mask_scorer(rules)
        for discarded in self.discards:
            # The policy's discard (discard_values): none of the cards it could have
            # discarded instead leaves a better hand.
            hand = hands[discarded.seat]
            whole = discarded.card.mask
            for card in hand:
                whole |= card.mask
            others = (card for card in hand if card is not discarded.kept)
            kept, *values = discard_values(worth, whole, (discarded.card, *others))
            if any(value > kept for value in values):
                return False
        for move in self.recent:
            hand = hands[move.seat]
            if move.entry is not None:
                hand = (*(card for card in hand if card not in move.taken), *move.given)
                hands[move.seat] = hand
            mask = 0
            for card in hand:
                mask |= card.mask
            then = world.evolve(hands=tuple(hands), table=move.table, turn=move.seat,
                                turns=move.turns, history=())
            judge = Judge.of_state(then)
            played = {"type": "pass"} if move.entry is None else {
                "type": "exchange", "give": move.entry["give"], "take": move.entry["take"]}
            if plain and worth(mask) < judge.knock_at:
                # The policy's plain moves on the cards alone (as the playouts play them),
                # many times cheaper than the engine's legal moves judged one by one.
                best = max(plain_moves(rules, hand, mask, move.table)[1])
            else:
                best = max(judge.values(legal_moves(then)))
            if judge.values([played])[0] < best:
                return False
        return True

    def __call__(self, rng: random.Random) -> GameState:
        world = self._deal(rng)
        for _ in range(TRIES - 1):
            if not (self.recent or self.discards) or self._likely(world) \
                    or rng.random() < UNLIKE:
                break
            world = self._deal(rng)
        return world

    def _deal(self, rng: random.Random) -> GameState:
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


@dataclass(frozen=True, slots=True)
class _Undone:
    """One of the other seats' recent moves, as :meth:`WorldDealer._likely` replays it: the
    history entry (``None``: a pass), the cards it took and gave, the table and the count of
    turns before it."""

    seat: int
    entry: Mapping[str, Any] | None
    taken: tuple[Card, ...]
    table: tuple[Card, ...]
    turns: int
    given: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class _Discarded:
    """One of the other seats' recent discards, as :meth:`WorldDealer._likely` checks it:
    the card discarded and the card the seat had to keep (``None``: none)."""

    seat: int
    card: Card
    kept: Card | None


def _public(public: Mapping[str, Any], by_code: Mapping[str, Card], seats: int) -> Public:
    """The round's public knowledge as a view shows it (``public``), with cards."""
    known = Public(
        held=tuple(tuple(by_code[code] for code in held) for held in public["held"]),
        drawn=tuple(public["drawn"]), out=tuple(by_code[code] for code in public["out"]),
        stock=None if public["stock"] is None else tuple(
            by_code[code] for code in public["stock"]),
        stock_ordered=public["stock_ordered"], knocked_at=public["knocked_at"],
    )
    if known == Public(held=((),) * seats, drawn=(0,) * seats):
        return Public()  # what a state holds before anything is known
    return known


def round_start(history: Sequence[Mapping[str, Any]]) -> int:
    """Where the moves of the round being played begin in ``history``: after the last
    ``next_round``."""
    return max((index + 1 for index, entry in enumerate(history)
                if is_move(entry, NextRound)), default=0)
