"""The scoring tables: an :class:`Evaluator` per set of hand rules, whose table maps the
bitwise OR of three cards' masks to their :class:`~thirtyone.hands.score.HandScore`, each made the
first time it is asked for (:class:`ScoreTable`), wild cards by brute force over the natural
hands they may stand for."""

from __future__ import annotations

import itertools
import math
import reprlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from thirtyone.cards import DECKS, JOKERS, SUITS, Card, Deck, parse_card
from thirtyone.errors import N_, CardError, HandError
from thirtyone.hands.basis import HAND_SIZE, Basis
from thirtyone.hands.reading import DETAIL_BITS, Reader, Reading, mask_of
from thirtyone.hands.score import HandScore

_NO_WILD: Mapping[str, str] = MappingProxyType({})


class Evaluator:
    """Scores hands under one rule set: get one from :func:`evaluator`.

    ``score(cards)`` is the fast path for game code: three parsed :class:`Card` objects in, the
    prebuilt :class:`HandScore` out, in one table lookup. Anything else (codes, a wrong number
    of cards, duplicates, cards outside the deck) takes the slow path of :meth:`read`, which
    parses codes or raises the right error. ``table`` maps the OR of three cards' masks to
    their score; it is shared, so treat it as read-only.

    >>> from thirtyone.cards import parse_cards
    >>> from thirtyone.hands import evaluator
    >>> from thirtyone.rules import make_rules
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

    def __init__(self, basis: Basis, on_fill: Callable[[], None] | None = None) -> None:
        self.deck = DECKS[basis.deck]
        self.table = table = ScoreTable(basis, on_fill)
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

        >>> from thirtyone.hands import evaluator
        >>> evaluator("trentuno").read(["2S", "AS", "KS"], field="hands[0]")
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
            return self.table[mask_of(cards)]
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


def _nobody() -> None:
    """What a table made outside the evaluators' cache tells of the scores it makes."""


def _descending(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, reverse=True))


def _wild_cards(basis: Basis) -> tuple[Card, ...]:
    if basis.wild != "jokers":
        return ()
    if basis.joker_card is not None:
        return (parse_card(basis.joker_card),)
    return JOKERS


class ScoreTable(dict[int, HandScore]):
    """Every hand of one basis by mask, each score made the first time it is asked for.

    A mask that is not three distinct cards of the deck is a :class:`KeyError`, as in a plain
    dict; a wild hand takes the best natural hand it can stand for, found by brute force over
    the natural hands holding its other cards (their readings are kept too).
    """

    def __init__(self, basis: Basis, on_fill: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.basis = basis
        # Told of every score made: the evaluators' cache keeps the tables' size bounded so.
        self.on_fill = on_fill or _nobody
        self.reader = Reader(basis)
        deck = DECKS[basis.deck]
        self.deck_mask = mask_of(deck)
        self.by_mask = {card.mask: card for card in deck}
        self.wild_mask = mask_of(_wild_cards(basis))
        self.jack = Card.of("J", "C") if basis.wild == "jack-of-clubs-trips" else None
        self.naturals = _descending(card for card in deck if not card.is_joker)
        # Natural readings by mask (wild cards choose among these), and the natural hand each
        # set of natural cards held with wild cards becomes.
        self.readings: dict[int, tuple[Reading, tuple[Card, ...]]] = {}
        self.best_for: dict[int, int] = {}

    def __missing__(self, mask: int) -> HandScore:
        if mask & ~self.deck_mask or mask.bit_count() != HAND_SIZE:
            raise KeyError(mask)
        self[mask] = score = self._make(mask)
        self.on_fill()
        return score

    def _cards(self, mask: int) -> tuple[Card, ...]:
        cards = []
        while mask:
            low = mask & -mask
            cards.append(self.by_mask[low])
            mask ^= low
        return _descending(cards)

    def natural(self, mask: int) -> tuple[Reading, tuple[Card, ...]]:
        found = self.readings.get(mask)
        if found is None:
            cards = self._cards(mask)
            found = self.readings[mask] = (self.reader.read(cards), cards)
        return found

    def preference(self, mask: int) -> int:
        """Among equal hands a wild card prefers higher ranks, then the higher suit."""
        reading = self.natural(mask)[0]
        return reading.key << DETAIL_BITS | reading.detail

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
    basis: Basis, reading: Reading, cards: tuple[Card, ...], wild: Mapping[str, str]
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
    reading: Reading, natural: tuple[Card, ...], cards: tuple[Card, ...], wild_mask: int
) -> tuple[Reading, tuple[Card, ...], Mapping[str, str]]:
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
    reader: Reader, cards: tuple[Card, ...], jack: Card
) -> tuple[Reading, tuple[Card, ...], Mapping[str, str]] | None:
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
