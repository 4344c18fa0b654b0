"""What a hand of three cards is worth, and how hands compare (RULES.md §2).

Every set of scoring options (:data:`SCORING_OPTIONS`) has one lookup table: it maps the
bitwise OR of a hand's card masks to a :class:`HandScore`, made the first time that hand is
asked for and kept. Scoring a hand is then one dict lookup, and no request pays for the hands
it does not ask about (a whole table costs 0.1-0.5 s to make, and house rules make many);
anything that is not three distinct cards of the deck misses the table and falls to a slow path
that raises the right error. Scores from card codes are also kept by the codes and the rule
set, the way the API asks for them.

Where RULES.md leaves a case open, this module decides so:

- a blitz ranks above any other hand of 31 (a 31 that is not ace-king-ten, three aces worth 31);
- when two suits give equal points, the counted suit is the one whose cards rank higher, then
  the higher one in the suit order; under the ``suit`` tie-break the higher suit counts first,
  as the better choice, and a hand that counts no suit (three of a kind, three aces) ranks
  below every suit;
- trips made with the jack of clubs lose to pure trips where trips are worth 30 below a suited
  30 (Trentuno); where they are worth 30½, the ``ranks`` tie-break compares the ranks the jack
  stands for; the jack of clubs with two aces makes three aces;
- a wild card takes the best hand; among equal hands, higher ranks, then the higher suit; the
  short-deck wild card may stand for itself;
- under the brag ranking ``points`` is the hand's usual count, for information only;
- three aces that are Feuer (``three_aces_fire``) are a blitz (``is_blitz``) whatever their
  points, with the category ``three-aces``; the flows end the round on them as on a blitz.

>>> score_hand("AS KS QS")
HandScore(points=31, category='blitz', suit='S', counted='AS KS QS')
>>> score_hand("7H 7D 7C", "schnautz")
HandScore(points=30.5, category='three-of-a-kind', suit=None, counted='7H 7D 7C')
>>> score_hand("AS KS X1", "jokers").wild
mappingproxy({'X1': 'QS'})
>>> compare_hands(["AS KS QS", "AH KH JH", "9D 8D 7C"], "schnautz").order
[[0], [1], [2]]
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
import operator
import reprlib
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NamedTuple, TypedDict, TypeGuard

from thirtyone.cards import ALL_CARDS, DECKS, JOKERS, SUITS, Card, CardCode, Deck, parse_card
from thirtyone.errors import N_, CardError, HandError
from thirtyone.rules import PRESETS, Rules, make_rules

HAND_SIZE = 3

CATEGORY_NAMES: dict[str, str] = {
    "blitz": N_("Blitz"),
    "three-aces": N_("Three aces"),
    "three-of-a-kind": N_("Three of a kind"),
    "suit": N_("Cards of one suit"),
    "high-card": N_("High card"),
    "running-flush": N_("Running flush"),
    "run": N_("Run"),
    "flush": N_("Flush"),
    "pair": N_("Pair"),
}
"""The English name of every hand category, by category id."""

_NO_WILD: Mapping[str, str] = MappingProxyType({})
_ACE = 14
_ABOVE_ACE = 15  # the traditional brag order's prial of threes and A-2-3 rank above the ace
_ACE_KING_TEN = 14 << 8 | 13 << 4 | 10


@dataclass(frozen=True, slots=True)
class _Basis:
    """The options that decide hand values; rule sets that agree on them share one table.

    Options that cannot matter under the others are left out (``None``), so that, for
    example, every suit order gives the same table unless the tie-break is by suit.
    """

    deck: str
    ace_value: int
    three_of_a_kind: str
    trips_equal: bool
    three_aces: int | None
    wild: str
    joker_card: str | None
    tie_break: str
    suit_order: str | None
    blitz: str
    ranking: str
    three_aces_fire: bool
    brag_order: str | None

    @classmethod
    def of(cls, rules: Mapping[str, Any]) -> _Basis:
        """The basis of the hand options ``rules`` (by option name)."""
        return cls(
            deck=rules["deck"],
            ace_value=1 if rules["values"] == "race" else 11,
            three_of_a_kind=rules["three_of_a_kind"],
            trips_equal=rules["trips_equal"],
            three_aces=rules["three_aces"],
            wild=rules["wild"],
            joker_card=(
                rules["joker_card"]
                if rules["wild"] == "jokers" and rules["deck"] == "short36" else None
            ),
            tie_break=rules["tie_break"],
            suit_order=rules["suit_order"] if rules["tie_break"] == "suit" else None,
            blitz=rules["blitz"],
            ranking=rules["ranking"],
            three_aces_fire=rules["three_aces_fire"] and rules["three_aces"] is not None,
            brag_order=rules["brag_order"] if rules["ranking"] == "brag" else None,
        )


SCORING_OPTIONS: tuple[str, ...] = (
    "deck", "values", "three_of_a_kind", "trips_equal", "three_aces", "wild", "joker_card",
    "tie_break", "suit_order", "blitz", "ranking", "three_aces_fire", "brag_order",
)
"""The options that change what a hand is worth, the one list the tables are keyed by: rule
sets that agree on these share a table, whatever their other options. An option that changes
scoring is added here (and read in :meth:`_Basis.of`)."""
_hand_options = operator.attrgetter(*SCORING_OPTIONS)


def _basis_of(rules: Rules) -> _Basis:
    # Game code asks for an evaluator on every move: reading the hand options with attrgetter
    # and caching the basis by them is much cheaper than hashing a whole Rules.
    return _basis(_hand_options(rules))


@functools.lru_cache(maxsize=256)
def _basis(options: tuple[Any, ...]) -> _Basis:
    return _Basis.of(dict(zip(SCORING_OPTIONS, options, strict=True)))


class ScoreData(TypedDict):
    """A :class:`HandScore` as plain data (:meth:`HandScore.to_dict`)."""

    points: int | float
    category: str
    suit: str | None
    counted: list[CardCode]
    cards: list[CardCode]
    wild: dict[CardCode, CardCode]


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class HandScore:
    """The value of one hand under one rule set.

    ``points`` is an int, or 30.5 for three of a kind where it is worth 30½; ``category`` is a
    key of :data:`CATEGORY_NAMES`; ``suit`` is the counted suit's letter (``None`` when no
    suit counts); ``counted`` holds the cards that make the value and ``cards`` the whole hand,
    highest first, a wild card in the place of the card it stands for; ``wild`` maps each wild
    card's code to the code of that card (read-only); ``strength`` grows with the hand's worth.
    With the brag ranking ``points`` is the hand's usual count, shown for information only.

    Scores compare with ``<`` and ``==`` by the rule set's order, tie-break included: equal
    scores are tied hands, whatever their cards. Only scores of the same hand rules compare.

    >>> score_hand("AS KS QS", "schnautz") > score_hand("AH KH JH", "schnautz")
    True
    >>> score_hand("AS KS QS") == score_hand("AH KH JH")
    True
    """

    points: int | float
    category: str
    suit: str | None
    counted: tuple[Card, ...]
    cards: tuple[Card, ...]
    wild: Mapping[str, str]
    is_blitz: bool
    strength: int
    _basis: _Basis = field(repr=False)

    def to_dict(self) -> ScoreData:
        """The score as plain JSON-able data.

        >>> score_hand("AS KS X1", "jokers").to_dict()
        {'points': 31, 'category': 'blitz', 'suit': 'S', 'counted': ['AS', 'KS', 'X1'],
         'cards': ['AS', 'KS', 'X1'], 'wild': {'X1': 'QS'}}
        """
        return {
            "points": self.points,
            "category": self.category,
            "suit": self.suit,
            "counted": [card.code for card in self.counted],
            "cards": [card.code for card in self.cards],
            "wild": dict(self.wild),
        }

    def _comparable(self, other: object) -> TypeGuard[HandScore]:
        return isinstance(other, HandScore) and (
            other._basis is self._basis or other._basis == self._basis
        )

    def __eq__(self, other: object) -> bool:
        if not self._comparable(other):
            return NotImplemented
        return self.strength == other.strength

    def __lt__(self, other: HandScore) -> bool:
        if not self._comparable(other):
            return NotImplemented
        return self.strength < other.strength

    def __le__(self, other: HandScore) -> bool:
        if not self._comparable(other):
            return NotImplemented
        return self.strength <= other.strength

    def __gt__(self, other: HandScore) -> bool:
        if not self._comparable(other):
            return NotImplemented
        return self.strength > other.strength

    def __ge__(self, other: HandScore) -> bool:
        if not self._comparable(other):
            return NotImplemented
        return self.strength >= other.strength

    def __hash__(self) -> int:
        return hash(self.strength)

    # Scores are immutable and shared by the table: a copy is the score itself, and a pickled
    # score comes back as the table's own.
    def __copy__(self) -> HandScore:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> HandScore:
        return self

    def __reduce__(self) -> tuple[Callable[..., HandScore], tuple[Any, ...]]:
        return (_stored_score, (self._basis, tuple(card.code for card in self.cards)))

    def __repr__(self) -> str:
        wild = f", wild={dict(self.wild)!r}" if self.wild else ""
        counted = " ".join(card.code for card in self.counted)
        return (
            f"HandScore(points={self.points!r}, category={self.category!r}, "
            f"suit={self.suit!r}, counted={counted!r}{wild})"
        )


@dataclass(frozen=True, slots=True)
class Ranking:
    """Hands ranked best first: ``order`` groups tied hands' indices, ``winners`` are the
    indices of the best hands and ``losers`` those of the lowest (all hands tied: both)."""

    order: list[list[int]]
    winners: list[int]
    losers: list[int]
    scores: list[HandScore]

    def to_dict(self) -> dict[str, Any]:
        """The ranking as plain JSON-able data.

        >>> data = compare_hands(["7H 8D 9C", "9S 8S 2H"]).to_dict()
        >>> data["order"], data["winners"], data["losers"], data["scores"][1]["points"]
        ([[1], [0]], [1], [0], 17)
        """
        return {
            "order": [list(group) for group in self.order],
            "winners": list(self.winners),
            "losers": list(self.losers),
            "scores": [score.to_dict() for score in self.scores],
        }


class _Reading(NamedTuple):
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


_TIE_BITS = 24  # room for two packed rank lists (12 bits each)
_DETAIL_BITS = 27


class _Reader:
    """Reads hands of natural (non-wild) cards under one :class:`_Basis`.

    An order key packs, from the most significant bits down: points × 2; a level that puts a
    blitz above other hands of the same points and, where trips are worth 30 below a suited
    30, puts those trips below; the tie-break part, which is 0 (a tie), the counted and then
    the other cards' packed ranks, or the counted suit's place in the suit order. Brag keys
    pack the category's level, then the highest, middle and lowest rank.
    """

    def __init__(self, basis: _Basis) -> None:
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
        self.trips_on = basis.three_of_a_kind != "off"
        # How a group of cards of one suit ranks against another group of the hand: by
        # points, then (RULES.md §2) the group whose cards rank higher, or, when suits break
        # ties, the higher suit, which is then the better choice for the hand.
        self._choices: dict[int, int] = {}
        # Readings that count the same cards, the other cards ranking alike, are one reading.
        self._suited: dict[int, _Reading] = {}

    def tie_part(self, counted: int, others: int, suit: str | None) -> int:
        if self.by_ranks:
            return counted << 12 | others
        if self.by_suit:
            return self.suit_rank[suit]
        return 0

    def trips(self, cards: tuple[Card, ...], rank_order: int, pure: bool) -> _Reading:
        """Three of a kind of ``rank_order``; ``pure`` is False when made with a wild card."""
        basis = self.basis
        ranks = rank_order * 0x111
        detail = ranks << 15
        if basis.three_of_a_kind == "30-below-suited":
            part = 0 if basis.trips_equal else pure << 4 | rank_order
            key = (60 << 2 | 0) << _TIE_BITS | part
            return _Reading(key, 30, "three-of-a-kind", None, cards, False, detail)
        part = 0 if basis.trips_equal else self.tie_part(ranks, 0, None)
        key = (61 << 2 | 1) << _TIE_BITS | part
        return _Reading(key, 30.5, "three-of-a-kind", None, cards, False, detail)

    def three_aces(self, cards: tuple[Card, ...]) -> _Reading:
        points = self.basis.three_aces
        assert points is not None
        ranks = _ACE * 0x111
        key = (points * 2 << 2 | 1) << _TIE_BITS | self.tie_part(ranks, 0, None)
        # Feuer (three_aces_fire) ends a round as a blitz does: the flows read it as one.
        fire = self.basis.three_aces_fire
        return _Reading(key, points, "three-aces", None, cards, fire, ranks << 15)

    def read(self, cards: tuple[Card, ...]) -> _Reading:
        """The best reading of three natural cards, given highest rank first."""
        if self.basis.ranking == "brag":
            return self.brag(cards)
        best = self.best_suit(cards)
        first, second, third = cards
        if first.rank == second.rank == third.rank:
            if self.trips_on:
                best = max(best, self.trips(cards, first.rank_order, True))
            if self.basis.three_aces is not None and first.rank == "A":
                best = max(best, self.three_aces(cards))
        return best

    def best_suit(self, cards: tuple[Card, ...]) -> _Reading:
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

    def suited(self, group: tuple[Card, ...], others: tuple[Card, ...]) -> _Reading:
        """The reading that counts ``group``, the cards of one suit."""
        other_ranks = _ranks(others)
        memo = _mask(group) << 12 | other_ranks
        found = self._suited.get(memo)
        if found is None:
            found = self._suited[memo] = self._read_suited(group, other_ranks)
        return found

    def _read_suited(self, group: tuple[Card, ...], other_ranks: int) -> _Reading:
        value = self.value
        points = sum([value[card.index] for card in group])
        suit = group[0].suit
        ranks = _ranks(group)
        blitz = points == 31 and (
            self.basis.blitz == "any-31"
            or (self.basis.blitz == "ace-king-ten" and ranks == _ACE_KING_TEN)
        )
        category = "blitz" if blitz else "suit" if len(group) > 1 else "high-card"
        key = (points * 2 << 2 | (2 if blitz else 1)) << _TIE_BITS | self.tie_part(
            ranks, other_ranks, suit)
        detail = (ranks << 12 | other_ranks) << 3 | self.suit_rank[suit]
        return _Reading(key, points, category, suit, group, blitz, detail)

    def brag(self, cards: tuple[Card, ...]) -> _Reading:
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
        return _Reading(key, points, category, suit, counted, False, 0)


def _descending(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, reverse=True))


def _mask(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= card.mask
    return mask


def _wild_cards(basis: _Basis) -> tuple[Card, ...]:
    if basis.wild != "jokers":
        return ()
    if basis.joker_card is not None:
        return (parse_card(basis.joker_card),)
    return JOKERS


class _Table(dict[int, HandScore]):
    """Every hand of one basis by mask, each score made the first time it is asked for.

    A mask that is not three distinct cards of the deck is a :class:`KeyError`, as in a plain
    dict; a wild hand takes the best natural hand it can stand for, found by brute force over
    the natural hands holding its other cards (their readings are kept too).
    """

    def __init__(self, basis: _Basis) -> None:
        super().__init__()
        self.basis = basis
        self.reader = _Reader(basis)
        deck = DECKS[basis.deck]
        self.deck_mask = _mask(deck)
        self.by_mask = {card.mask: card for card in deck}
        self.wild_mask = _mask(_wild_cards(basis))
        self.jack = Card.of("J", "C") if basis.wild == "jack-of-clubs-trips" else None
        self.naturals = _descending(card for card in deck if not card.is_joker)
        # Natural readings by mask (wild cards choose among these), and the natural hand each
        # set of natural cards held with wild cards becomes.
        self.readings: dict[int, tuple[_Reading, tuple[Card, ...]]] = {}
        self.best_for: dict[int, int] = {}

    def __missing__(self, mask: int) -> HandScore:
        if mask & ~self.deck_mask or mask.bit_count() != HAND_SIZE:
            raise KeyError(mask)
        self[mask] = score = self._make(mask)
        _count_filled()
        return score

    def _cards(self, mask: int) -> tuple[Card, ...]:
        cards = []
        while mask:
            low = mask & -mask
            cards.append(self.by_mask[low])
            mask ^= low
        return _descending(cards)

    def natural(self, mask: int) -> tuple[_Reading, tuple[Card, ...]]:
        found = self.readings.get(mask)
        if found is None:
            cards = self._cards(mask)
            found = self.readings[mask] = (self.reader.read(cards), cards)
        return found

    def preference(self, mask: int) -> int:
        """Among equal hands a wild card prefers higher ranks, then the higher suit."""
        reading = self.natural(mask)[0]
        return reading.key << _DETAIL_BITS | reading.detail

    def _make(self, mask: int) -> HandScore:
        basis = self.basis
        if mask & self.wild_mask:
            return self._wild(mask)
        reading, cards = self.natural(mask)
        jack = self.jack
        if jack is not None and mask & jack.mask:
            made = _jack_of_clubs_trips(self.reader, cards, jack)
            if made is not None and made[0].key > reading.key:
                return _score(basis, *made)
        return HandScore(
            reading.points, reading.category, reading.suit, reading.counted, cards, _NO_WILD,
            reading.is_blitz, reading.key, basis,
        )

    def _wild(self, mask: int) -> HandScore:
        cards = self._cards(mask)
        kept = mask & ~self.wild_mask
        best = self.best_for.get(kept)
        if best is None:
            missing = HAND_SIZE - kept.bit_count()
            best = self.best_for[kept] = max(
                _completions(kept, self.naturals, missing), key=self.preference
            )
        reading, natural = self.natural(best)
        return _score(self.basis, *_substitute(reading, natural, cards, self.wild_mask))


def _score(
    basis: _Basis, reading: _Reading, cards: tuple[Card, ...], wild: Mapping[str, str]
) -> HandScore:
    return HandScore(
        reading.points, reading.category, reading.suit, reading.counted, cards, wild,
        reading.is_blitz, reading.key, basis,
    )


def _completions(rest: int, naturals: Sequence[Card], missing: int) -> list[int]:
    """The masks of every natural hand that holds the cards of ``rest``."""
    free = [card.mask for card in naturals if not card.mask & rest]
    if missing == 1:
        return [rest | mask for mask in free]
    return [rest | one | other for one, other in itertools.combinations(free, 2)]


def _substitute(
    reading: _Reading, natural: tuple[Card, ...], cards: tuple[Card, ...], wild_mask: int
) -> tuple[_Reading, tuple[Card, ...], Mapping[str, str]]:
    """Map a natural hand's reading back onto a hand whose wild cards stand for its cards;
    each wild card takes the place of its card in ``counted`` and ``cards``."""
    wilds = sorted((card for card in cards if card.mask & wild_mask), key=lambda c: c.index)
    kept = {card for card in cards if not card.mask & wild_mask}
    stood_for = [card for card in natural if card not in kept]
    actual = dict(zip(stood_for, wilds, strict=True))
    counted = tuple(actual.get(card, card) for card in reading.counted)
    wild = MappingProxyType({w.code: c.code for c, w in actual.items()})
    return (
        reading._replace(counted=counted),
        tuple(actual.get(card, card) for card in natural),
        wild,
    )


def _jack_of_clubs_trips(
    reader: _Reader, cards: tuple[Card, ...], jack: Card
) -> tuple[_Reading, tuple[Card, ...], Mapping[str, str]] | None:
    """Trips made with the jack of clubs standing for the rank of the hand's other two cards."""
    first, second = (card for card in cards if card is not jack)
    if first.rank != second.rank or first.rank == jack.rank:
        return None
    taken = {first.suit, second.suit}
    stood_for = Card.of(first.rank, next(suit for suit in SUITS if suit not in taken))
    ordered = tuple(card for _, card in sorted(
        ((first, first), (second, second), (stood_for, jack)), reverse=True))
    reading = reader.trips(ordered, first.rank_order, False)
    if first.rank == "A" and reader.basis.three_aces is not None:
        reading = max(reading, reader.three_aces(ordered))
    return reading, ordered, MappingProxyType({jack.code: stood_for.code})


def _stored_score(basis: _Basis, codes: tuple[str, ...]) -> HandScore:
    return _evaluator(basis).table[_mask(parse_card(code) for code in codes)]


class Evaluator:
    """Scores hands under one rule set: get one from :func:`evaluator`.

    ``score(cards)`` is the fast path for game code: three parsed :class:`Card` objects in, the
    prebuilt :class:`HandScore` out, in one table lookup. Anything else (codes, a wrong number
    of cards, duplicates, cards outside the deck) takes the slow path of :meth:`read`, which
    parses codes or raises the right error. ``table`` maps the OR of three cards' masks to
    their score; it is shared, so treat it as read-only.

    >>> from thirtyone.cards import parse_cards
    >>> scat = evaluator(make_rules("scat"))
    >>> scat.score(parse_cards("10H JH 2C")).points
    20
    >>> scat.score(parse_cards("10H JH 10H"))
    Traceback (most recent call last):
    ...
    thirtyone.errors.CardError: the card 10H appears twice in the hand
    """

    __slots__ = ("deck", "score", "table")

    deck: Deck
    table: dict[int, HandScore]
    score: Callable[[Iterable[Card]], HandScore]

    def __init__(self, basis: _Basis) -> None:
        self.deck = DECKS[basis.deck]
        self.table = table = _Table(basis)
        read = self.read

        def score(cards: Iterable[Card]) -> HandScore:
            try:
                first, second, third = cards
                return table[first.mask | second.mask | third.mask]
            except (KeyError, ValueError, TypeError, AttributeError):
                pass
            return read(cards)

        self.score = score

    def read(self, hand: str | Iterable[str | Card], field: str = "hand") -> HandScore:
        """Score a hand given as codes, cards, or one string of codes; ``field`` names the
        input in errors.

        >>> evaluator(make_rules("trentuno")).read(["2S", "AS", "KS"], field="hands[0]")
        Traceback (most recent call last):
        ...
        thirtyone.errors.CardError: the card 2S is not in the deck piquet32
        """
        cards = _read_cards(hand, field)
        if len(cards) != HAND_SIZE:
            raise HandError(
                "wrong_hand_size", N_("a hand has {expected} cards, not {size}"),
                field=field, expected=HAND_SIZE, size=len(cards),
            )
        try:
            return self.table[_mask(cards)]
        except KeyError:
            pass
        seen: set[Card] = set()
        for card in cards:
            if card in seen:
                raise CardError(
                    "duplicate_card", N_("the card {card} appears twice in the hand"),
                    field=field, card=card.code,
                )
            seen.add(card)
        outside = next(card for card in cards if card not in self.deck)
        raise CardError(
            "card_not_in_deck", N_("the card {card} is not in the deck {deck}"),
            field=field, card=outside.code, deck=self.deck.id,
        )

    def __repr__(self) -> str:
        hands = math.comb(len(self.deck.cards), HAND_SIZE)
        return f"Evaluator({self.deck.id!r}, {hands} hands)"


def _read_cards(hand: object, field: str) -> list[Card]:
    items: Sequence[Any]
    if isinstance(hand, str):
        items = hand.replace(",", " ").split()
    elif isinstance(hand, list | tuple):
        items = hand
    elif isinstance(hand, Iterable) and not isinstance(hand, Mapping | bytes | bytearray):
        items = list(hand)
    else:
        raise HandError(
            "bad_hand", N_("a hand is a list of card codes, not {hand}"),
            field=field, hand=reprlib.repr(hand),
        )
    cards = []
    for position, item in enumerate(items):
        if item.__class__ is Card:
            cards.append(item)
            continue
        try:
            cards.append(parse_card(item))
        except CardError as error:
            raise CardError(
                error.code, error.message, field=f"{field}[{position}]", **error.params
            ) from None
    return cards


def evaluator(rules: Rules | str) -> Evaluator:
    """The :class:`Evaluator` of ``rules`` (a :class:`Rules` or a preset name), cached: its
    table is built on first use, once per set of hand rules.

    >>> evaluator(make_rules("jokers"))
    Evaluator('full54', 24804 hands)
    >>> evaluator("trentuno") is evaluator(make_rules("trentuno"))
    True
    >>> evaluator("scat") is evaluator(make_rules("bank", {"ante": 5}))
    True
    """
    if not isinstance(rules, Rules):
        rules = make_rules(rules)
    return _evaluator(_basis_of(rules))


# Every evaluator made is kept, the least recently used going first, while their tables hold no
# more scores than eight whole tables (a whole table is some 6-7 MB; the presets use nine): an
# API worker stays under 120 MB however many house rule sets its clients send, and a client
# rotating a few dozen rule sets, each asking for a few hands, keeps its tables. The count of
# scores is kept as tables fill (_Table.__missing__) and made exact when evaluators go.
_TABLE_BUDGET = 8 * 24_804
_MOST_EVALUATORS = 64
_EVALUATORS: OrderedDict[_Basis, Evaluator] = OrderedDict()
_filled = [0]


def _evaluator(basis: _Basis) -> Evaluator:
    found = _EVALUATORS.get(basis)
    if found is None:
        found = _EVALUATORS[basis] = Evaluator(basis)
        if len(_EVALUATORS) > _MOST_EVALUATORS:
            _forget(_TABLE_BUDGET)
        return found
    # Forgotten by another thread meanwhile? It serves this call all the same.
    with contextlib.suppress(KeyError):
        _EVALUATORS.move_to_end(basis)
    return found


def _count_filled() -> None:
    _filled[0] += 1
    if _filled[0] > _TABLE_BUDGET:
        # Down to half the budget, so that this stays rare.
        _forget(_TABLE_BUDGET // 2)


def _forget(keep: int) -> None:
    """Let the least recently used evaluators go until the rest hold at most ``keep`` scores
    and there are at most _MOST_EVALUATORS of them; the most recent one always stays."""
    total = sum(len(judge.table) for judge in list(_EVALUATORS.values()))
    while len(_EVALUATORS) > 1 and (total > keep or len(_EVALUATORS) > _MOST_EVALUATORS):
        _, gone = _EVALUATORS.popitem(last=False)
        total -= len(gone.table)
    _filled[0] = total
    # Some of the scores kept by codes may be theirs: a hand's score stays the one object of
    # the one table of its rules.
    _score_codes.cache_clear()


def _evaluator_for(variant: str | Rules, options: Mapping[str, Any] | None) -> Evaluator:
    if options is None and isinstance(variant, str):
        # A preset by its id skips the name lookup; the tables themselves stay in the bounded
        # cache above, so this map holds only each preset's small basis.
        basis = _BASIS_BY_PRESET_ID.get(variant)
        if basis is None:
            basis = _basis_of(make_rules(variant))
            if variant in PRESETS:
                _BASIS_BY_PRESET_ID[variant] = basis
        return _evaluator(basis)
    return evaluator(make_rules(variant, options))


_BASIS_BY_PRESET_ID: dict[str, _Basis] = {}


def score_hand(
    hand: str | Iterable[str | Card],
    variant: str | Rules = "scat",
    options: Mapping[str, Any] | None = None,
) -> HandScore:
    """Score a hand of three cards under a preset (by id or name) or a :class:`Rules`, with
    ``options`` overriding the preset's.

    >>> score_hand(["A♠", "K♠", "10♠"], "blitz").category
    'blitz'
    >>> score_hand("AS KS QS", "blitz").category
    'suit'
    >>> score_hand("JC 9H 9D", "trentuno")
    HandScore(points=30, category='three-of-a-kind', suit=None, counted='9H 9D JC',
              wild={'JC': '9C'})
    >>> score_hand("QH JS 10S", "stop-the-bus").category
    'run'
    >>> score_hand("AS KS 10S", "scat", {"three_of_a_kind": "31"})
    Traceback (most recent call last):
    ...
    thirtyone.errors.OptionError: option 'three_of_a_kind' must be one of off, 30.5, \
30-below-suited, not '31'
    >>> score_hand("AS KS X1")
    Traceback (most recent call last):
    ...
    thirtyone.errors.CardError: the card X1 is not in the deck full52
    """
    if options is None and hand.__class__ in _CODE_SEQUENCES:
        # The API's way: a few codes under a preset, asked again and again. The codes and the
        # rule set are the key, which saves parsing them and finding the rules.
        try:
            codes = hand if hand.__class__ is str else tuple(hand)
            return _score_codes(codes, variant)
        except TypeError:
            pass  # something unhashable in the hand: the slow path names the fault
    return _evaluator_for(variant, options).read(hand)


_CODE_SEQUENCES = frozenset({list, tuple, str})


# Room for every hand of a deck in its canonical codes (22,100 to 24,804) and then some: a
# client scoring many different hands would otherwise keep missing and pay for the cache too.
# Some 250 bytes an entry, 8 MB at most.
@functools.lru_cache(maxsize=32_768)
def _score_codes(codes: str | tuple[str | Card, ...], variant: str | Rules) -> HandScore:
    return _evaluator_for(variant, None).read(codes)


def compare_hands(
    hands: Sequence[str | Iterable[str | Card]],
    variant: str | Rules = "scat",
    options: Mapping[str, Any] | None = None,
) -> Ranking:
    """Rank hands best first under a preset or :class:`Rules`; tied hands share a group.

    Hands may share cards: this compares hands, it does not deal them.

    >>> ranking = compare_hands(["AS KS QS", "AH KH JH", "6C 6D 6H", "5C 5D 5H"], "schnautz")
    >>> ranking.order, ranking.winners, ranking.losers
    ([[0], [1], [2], [3]], [0], [3])
    >>> compare_hands(["AS KS QS", "AH KH JH", "9C 9D 2S"]).order
    [[0, 1], [2]]
    >>> compare_hands(["7H 7D 7C", "AS KS"])
    Traceback (most recent call last):
    ...
    thirtyone.errors.HandError: a hand has 3 cards, not 2
    """
    if isinstance(hands, str | bytes | Mapping) or not isinstance(hands, Iterable):
        raise HandError(
            "bad_hands", N_("hands must be a list of hands, not {hands}"),
            field="hands", hands=reprlib.repr(hands),
        )
    judge = _evaluator_for(variant, options)
    scores = [judge.read(hand, field=f"hands[{i}]") for i, hand in enumerate(hands)]
    if not scores:
        raise HandError("no_hands", N_("there are no hands to compare"), field="hands")
    order: list[list[int]] = []
    previous: HandScore | None = None
    for index in sorted(range(len(scores)), key=lambda i: -scores[i].strength):
        if previous is not None and scores[index].strength == previous.strength:
            order[-1].append(index)
        else:
            order.append([index])
        previous = scores[index]
    return Ranking(order, list(order[0]), list(order[-1]), scores)
