"""How a hand of three natural (non-wild) cards reads under one
:class:`~thirtyone.hands.basis.Basis`: its best suit, its cards of one rank, three of a kind,
three aces, or its brag category, packed into an order key (:class:`Reader`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from thirtyone.cards import ALL_CARDS, SUITS, Card
from thirtyone.hands.basis import HAND_SIZE, Basis

_ACE = 14
_ABOVE_ACE = 15  # the traditional brag order's prial of threes and A-2-3 rank above the ace
_ACE_KING_TEN = 14 << 8 | 13 << 4 | 10
_TEN = 10
_SAME_RANK_ACES = 30  # three aces added up under count_same_rank


class Reading(NamedTuple):
    """One way to read a hand of natural cards: its order key and what a HandScore shows.

    ``key`` is an int that orders hands (it becomes the score's ``strength``); ``detail``
    (the counted and the other cards' ranks, the counted suit's rank) refines it: among
    readings of equal key a wild card chooses the one with the greater detail.
    """

    key: int
    points: int | float
    category: str
    suit: str | None
    counted: tuple[Card, ...]
    is_blitz: bool
    detail: int


def _ranks(cards: Sequence[Card]) -> int:
    """Up to three ranks, given highest first, packed so that ints compare as the rank lists
    do (a shorter list is lower)."""
    packed = 0
    for card in cards:
        packed = packed << 4 | card.rank_order
    return packed << 4 * (HAND_SIZE - len(cards))


_TIE_BITS = 25  # room for two packed rank lists (12 bits each) and the pure-trips bit
_PURE = 1 << 24  # pure trips above trips made with a wild jack of clubs, at the same points
DETAIL_BITS = 27


class Reader:
    """Reads hands of natural (non-wild) cards under one :class:`Basis`.

    An order key packs, from the most significant bits down: points × 2; a level that puts a
    blitz above other hands of the same points and, where trips are worth 30 below a suited
    30, puts those trips below; the tie-break part, which is 0 (a tie), the counted and then
    the other cards' packed ranks, or the counted suit's place in the suit order. Brag keys
    pack the category's level, then the highest, middle and lowest rank.
    """

    def __init__(self, basis: Basis) -> None:
        self.basis = basis
        order = basis.suit_order or "HDCS"
        # Higher is better; a hand with no counted suit ranks below every suit.
        self.suit_rank: dict[str | None, int] = {
            suit: len(order) - order.index(suit) for suit in SUITS
        }
        self.suit_rank[None] = 0
        self.value = tuple(
            basis.ace_value if card.rank == "A" else card.value for card in ALL_CARDS
        )
        self.by_suit = basis.tie_break == "suit"
        self.by_ranks = basis.tie_break == "ranks"
        self.trips_by_rank = basis.tie_break in ("ranks", "trips")
        self.trips_on = basis.three_of_a_kind != "off"
        # How a group of cards of one suit ranks against another group of the hand: by
        # points, then (RULES.md §2) the group whose cards rank higher, or, when suits break
        # ties, the higher suit, which is then the better choice for the hand.
        self._choices: dict[int, int] = {}
        # Readings that count the same cards, the other cards ranking alike, are one reading.
        self._suited: dict[int, Reading] = {}

    def tie_part(self, counted: int, others: int, suit: str | None) -> int:
        if self.by_ranks:
            return counted << 12 | others
        if self.by_suit:
            return self.suit_rank[suit]
        return 0

    def trips_part(self, ranks: int) -> int:
        """The tie-break part of a three of a kind: by rank under ``ranks`` and ``trips``."""
        return ranks << 12 if self.trips_by_rank else self.tie_part(ranks, 0, None)

    def trips(self, cards: tuple[Card, ...], rank_order: int, pure: bool) -> Reading:
        """Three of a kind of ``rank_order``; ``pure`` is False when made with a wild card
        (the jack of clubs), which ranks below every pure trips of the same points and
        above a lower one made so."""
        basis = self.basis
        ranks = rank_order * 0x111
        detail = ranks << 15
        if basis.trips_equal:
            order = 0
        elif not pure or basis.three_of_a_kind == "30-below-suited":
            order = rank_order
        else:
            order = self.trips_part(ranks)
        # fire: any-trips makes every three of a kind Feuer, read by the flows as a blitz.
        fire = basis.fire == "any-trips"
        if basis.three_of_a_kind == "30":
            # A plain 30, compared as any other 30; made with the jack, just below them all.
            level = 60 << 2 | 1 if pure else 60 << 2 | 0
            return Reading(level << _TIE_BITS | order, 30, "three-of-a-kind", None, cards,
                            fire, detail)
        part = (_PURE if pure else 0) | order
        if basis.three_of_a_kind == "30-below-suited":
            key = (60 << 2 | 0) << _TIE_BITS | part
            return Reading(key, 30, "three-of-a-kind", None, cards, fire, detail)
        key = (61 << 2 | 1) << _TIE_BITS | part
        return Reading(key, 30.5, "three-of-a-kind", None, cards, fire, detail)

    def same_rank(self, cards: tuple[Card, ...]) -> Reading | None:
        """With ``count_same_rank``: the reading that adds up the hand's cards of one rank,
        if two or three share one (cards given highest first)."""
        first, second, third = cards
        group: tuple[Card, ...]
        others: tuple[Card, ...]
        if first.rank == second.rank == third.rank:
            group, others = cards, ()
        elif first.rank == second.rank:
            group, others = (first, second), (third,)
        elif second.rank == third.rank:
            group, others = (second, third), (first,)
        else:
            return None
        points = sum(self.value[card.index] for card in group)
        if len(group) == HAND_SIZE and first.rank == "A":
            # Three aces added up would be 33, above every 31: they count 30 (Board Game
            # Arena: "valued 30, not 33, if not playing with fire"); three_aces and Feuer,
            # read after this, may ask for more (RULES.md §4.15).
            points = _SAME_RANK_ACES
        ranks, other_ranks = _ranks(group), _ranks(others)
        key = (points * 2 << 2 | 1) << _TIE_BITS | self.tie_part(ranks, other_ranks, None)
        detail = (ranks << 12 | other_ranks) << 3
        fire = not others and self.basis.fire == "any-trips"
        return Reading(key, points, "same-rank", None, group, fire, detail)

    def three_aces(self, cards: tuple[Card, ...]) -> Reading:
        points = self.basis.three_aces
        assert points is not None
        ranks = _ACE * 0x111
        key = (points * 2 << 2 | 1) << _TIE_BITS | self.trips_part(ranks)
        # Feuer (three_aces_fire, fire) ends a round as a blitz does: the flows read it as one.
        fire = self.basis.fire != "off"
        return Reading(key, points, "three-aces", None, cards, fire, ranks << 15)

    def read(self, cards: tuple[Card, ...]) -> Reading:
        """The best reading of three natural cards, given highest rank first."""
        if self.basis.ranking == "brag":
            return self.brag(cards)
        best = self.best_suit(cards)
        if self.basis.count_same_rank:
            by_rank = self.same_rank(cards)
            # The better count; equal counts, the higher ranks (a pair over a suit).
            if by_rank is not None and (by_rank.key, by_rank.detail) > (best.key, best.detail):
                best = by_rank
        first, second, third = cards
        if first.rank == second.rank == third.rank:
            if self.trips_on:
                best = max(best, self.trips(cards, first.rank_order, True))
            if self.basis.three_aces is not None and first.rank == "A":
                best = max(best, self.three_aces(cards))
        return best

    def best_suit(self, cards: tuple[Card, ...]) -> Reading:
        first, second, third = cards
        if first.suit == second.suit:
            if second.suit == third.suit:
                return self.suited(cards, ())
            groups: tuple[tuple[Card, ...], ...] = ((first, second), (third,))
        elif second.suit == third.suit:
            groups = ((second, third), (first,))
        elif first.suit == third.suit:
            groups = ((first, third), (second,))
        else:
            groups = ((first,), (second,), (third,))
        best = max(groups, key=self.choice)
        return self.suited(best, tuple(card for card in cards if card.suit != best[0].suit))

    def choice(self, group: tuple[Card, ...]) -> int:
        mask = 0
        for card in group:
            mask |= card.mask
        found = self._choices.get(mask)
        if found is None:
            points = sum(self.value[card.index] for card in group)
            rank = self.suit_rank[group[0].suit]
            ranks = _ranks(group)
            found = points << 15 | (rank << 12 | ranks if self.by_suit else ranks << 3 | rank)
            self._choices[mask] = found
        return found

    def suited(self, group: tuple[Card, ...], others: tuple[Card, ...]) -> Reading:
        """The reading that counts ``group``, the cards of one suit."""
        other_ranks = _ranks(others)
        memo = mask_of(group) << 12 | other_ranks
        found = self._suited.get(memo)
        if found is None:
            found = self._suited[memo] = self._read_suited(group, other_ranks)
        return found

    def _read_suited(self, group: tuple[Card, ...], other_ranks: int) -> Reading:
        value = self.value
        points = sum([value[card.index] for card in group])
        suit = group[0].suit
        ranks = _ranks(group)
        blitz = points == 31 and (
            self.basis.blitz == "any-31"
            or (self.basis.blitz == "ace-king-ten" and ranks == _ACE_KING_TEN)
            # An ace, a ten and a face card: the only 31s of one suit holding an ace and a ten.
            or (self.basis.blitz == "ace-ten-face" and ranks >> 8 == _ACE
                and ranks & 0xF == _TEN)
        )
        category = "blitz" if blitz else "suit" if len(group) > 1 else "high-card"
        key = (points * 2 << 2 | (2 if blitz else 1)) << _TIE_BITS | self.tie_part(
            ranks, other_ranks, suit)
        detail = (ranks << 12 | other_ranks) << 3 | self.suit_rank[suit]
        return Reading(key, points, category, suit, group, blitz, detail)

    def brag(self, cards: tuple[Card, ...]) -> Reading:
        high, middle, low = (card.rank_order for card in cards)
        flush = cards[0].suit == cards[1].suit == cards[2].suit
        traditional = self.basis.brag_order == "traditional"
        if (high, middle, low) == (_ACE, 3, 2):
            # A-2-3: the top run in the traditional order, else the lowest (the ace plays low).
            run = True
            high, middle, low = (_ABOVE_ACE, 3, 2) if traditional else (3, 2, 1)
        else:
            run = high - middle == 1 and middle - low == 1
        if traditional and high == middle == low == 3:
            # The prial of threes is the top three of a kind.
            high = middle = low = _ABOVE_ACE
        counted = cards
        if high == middle == low:
            category, level = "three-of-a-kind", 5
        elif run:
            category, level = ("running-flush", 4) if flush else ("run", 3)
        elif flush:
            category, level = "flush", 2
        elif high == middle or middle == low:
            category, level = "pair", 1
            pair_rank = middle
            kicker = low if high == middle else high
            high, middle, low = pair_rank, kicker, 0
            counted = tuple(card for card in cards if card.rank_order == pair_rank)
        else:
            category, level = "high-card", 0
        suit = cards[0].suit if flush else None
        points = self.best_suit(cards).points
        key = level << 12 | high << 8 | middle << 4 | low
        return Reading(key, points, category, suit, counted, False, 0)


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= card.mask
    return mask
