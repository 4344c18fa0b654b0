"""Cards, their notation, and the decks of the Thirty-One family.

A :class:`Card` is immutable and interned: parsing the same code twice gives the very same
object, so cards compare and hash by identity-fast integer fields and can key lookup tables
through :attr:`Card.mask`.

>>> parse_card("10h")
Card('10H')
>>> str(parse_card("Д♠")), str(parse_card("F♣")), str(parse_card("T♦"))
('QS', 'JC', '10D')
>>> [str(card) for card in parse_cards(["as", "K♠", "x1"])]
['AS', 'KS', 'X1']
>>> DECKS["race24"].value(parse_card("AS")), DECKS["full52"].value(parse_card("AS"))
(1, 11)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Annotated, ClassVar

from thirtyone.errors import N_, CardError

CARD = "card"
"""The mark of a card code in a type, ``Annotated[str, CARD]``, for those who read types (the
API's contract does)."""

CardCode = Annotated[str, CARD]
"""A card code such as ``"QS"``: canonical in what the engine returns; what it is sent may use
any spelling :func:`parse_card` reads."""

SUITS: tuple[str, ...] = ("C", "D", "H", "S")
"""Suit letters in canonical order: clubs, diamonds, hearts, spades."""

RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Ranks from lowest to highest; jokers have the rank ``X``."""

JOKER_RANK = "X"

SUIT_NAMES: dict[str, str] = {
    "C": N_("clubs"),
    "D": N_("diamonds"),
    "H": N_("hearts"),
    "S": N_("spades"),
}

RANK_NAMES: dict[str, str] = {
    "2": N_("two"),
    "3": N_("three"),
    "4": N_("four"),
    "5": N_("five"),
    "6": N_("six"),
    "7": N_("seven"),
    "8": N_("eight"),
    "9": N_("nine"),
    "10": N_("ten"),
    "J": N_("jack"),
    "Q": N_("queen"),
    "K": N_("king"),
    "A": N_("ace"),
    "X": N_("joker"),
}

_UNICODE_SUITS = {
    "♣": "C", "♧": "C",
    "♦": "D", "♢": "D",
    "♥": "H", "♡": "H",
    "♠": "S", "♤": "S",
}
# Localized rank letters are read only before a Unicode suit symbol: "D" is a suit in the
# canonical notation but the Italian queen (donna), and the Cyrillic "Т" (туз, ace) looks
# like the Latin "T" (ten).
_RUSSIAN_RANKS = {"Т": "A", "К": "K", "Д": "Q", "В": "J"}
_ITALIAN_RANKS = {"A": "A", "R": "K", "D": "Q", "F": "J"}
_RANK_ALIASES = {"T": "10"} | {rank: rank for rank in RANKS}


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Card:
    """One playing card: construct through :func:`parse_card` or :meth:`Card.of`.

    ``index`` is the card's position in the 54-card universe (suits C, D, H, S, each from 2 to
    ace, then the jokers X1, X2); ``mask`` is ``1 << index``, so a set of cards is the bitwise
    OR of their masks. ``code`` is the canonical code (``AS``, ``10H``, ``X1``);
    ``rank_order`` is 2 for a two up to 14 for an ace, 15 for a joker; ``value`` is the card's
    usual value: ace 11, pictures and ten 10, others their number, joker 0 (a deck may count
    differently, the ace is 1 in ``race24``: see :meth:`Deck.value`). These are computed once,
    when the card is made, because hand tables and game code read them in hot loops.
    """

    rank: str
    suit: str | None
    index: int
    mask: int = field(init=False)
    code: str = field(init=False)
    rank_order: int = field(init=False)
    value: int = field(init=False)

    _interned: ClassVar[dict[str, Card]] = {}

    def __post_init__(self) -> None:
        joker = self.suit is None
        object.__setattr__(self, "mask", 1 << self.index)
        object.__setattr__(
            self, "code", f"{JOKER_RANK}{self.index - 51}" if joker else f"{self.rank}{self.suit}"
        )
        object.__setattr__(self, "rank_order", 15 if joker else RANKS.index(self.rank) + 2)
        if joker:
            value = 0
        elif self.rank == "A":
            value = 11
        else:
            value = 10 if self.rank in ("10", "J", "Q", "K") else int(self.rank)
        object.__setattr__(self, "value", value)

    @classmethod
    def of(cls, rank: str, suit: str | None = None) -> Card:
        """The card of ``rank`` and ``suit`` (``Card.of("X", "1")`` is the first joker)."""
        code = f"{rank}{suit}" if suit else rank
        try:
            return cls._interned[code]
        except KeyError:
            raise CardError("bad_card", N_("not a card: {card!r}"), card=code) from None

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Card) and other.index == self.index)

    def __lt__(self, other: Card) -> bool:
        """Cards sort by rank, then by suit letter, jokers last."""
        return (self.rank_order, self.index) < (other.rank_order, other.index)

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (parse_card, (self.code,))


def _build_universe() -> tuple[Card, ...]:
    cards = [
        Card(rank, suit, s * 13 + r) for s, suit in enumerate(SUITS) for r, rank in enumerate(RANKS)
    ]
    cards += [Card(JOKER_RANK, None, 52), Card(JOKER_RANK, None, 53)]
    for card in cards:
        Card._interned[card.code] = card
    return tuple(cards)


ALL_CARDS: tuple[Card, ...] = _build_universe()
"""All 54 cards, in index order."""

JOKERS: tuple[Card, ...] = ALL_CARDS[52:]


def parse_card(code: str | Card) -> Card:
    """Read one card from its code.

    Accepts the canonical codes (``AS``, ``10H``, ``X1``), ``T`` for ten, lower case, Unicode
    suit symbols (``A♠``), and Russian (``Т К Д В``) or Italian (``A R D F``) rank letters
    before a Unicode suit symbol. A :class:`Card` is returned as it is.

    >>> parse_card("Т♥"), parse_card("R♦"), parse_card("td")
    (Card('AH'), Card('KD'), Card('10D'))
    >>> parse_card("11S")
    Traceback (most recent call last):
    ...
    thirtyone.errors.CardError: not a card: '11S'
    """
    if isinstance(code, Card):
        return code
    try:
        return Card._interned[code]
    except (KeyError, TypeError):
        pass
    if not isinstance(code, str):
        raise CardError("bad_card", N_("not a card: {card!r}"), card=repr(code))
    card = _parse_alias(unicodedata.normalize("NFC", code.strip()))
    if card is None:
        raise CardError("bad_card", N_("not a card: {card!r}"), card=code)
    return card


def _parse_alias(text: str) -> Card | None:
    if len(text) < 2:
        return None
    upper = text.upper()
    if upper in ("X1", "X2"):
        return Card._interned[upper]
    rank_text, suit_text = upper[:-1], upper[-1]
    if suit_text in _UNICODE_SUITS:
        suit = _UNICODE_SUITS[suit_text]
        rank = (
            _RUSSIAN_RANKS.get(rank_text)
            or _ITALIAN_RANKS.get(rank_text)
            or _RANK_ALIASES.get(rank_text)
        )
    elif suit_text in SUITS:
        suit = suit_text
        rank = _RANK_ALIASES.get(rank_text)
    else:
        return None
    if rank is None:
        return None
    return Card._interned[f"{rank}{suit}"]


def parse_cards(codes: Iterable[str | Card]) -> list[Card]:
    """Read several cards; the first bad code raises :class:`CardError` naming it.

    A string of space- or comma-separated codes is accepted as well.

    >>> parse_cards("AS KS 10S")
    [Card('AS'), Card('KS'), Card('10S')]
    """
    if isinstance(codes, str):
        codes = codes.replace(",", " ").split()
    return [parse_card(code) for code in codes]


@dataclass(frozen=True, slots=True)
class Deck:
    """A named deck: its cards in canonical order and how much each card counts."""

    id: str
    cards: tuple[Card, ...]
    ace_value: int = 11
    name: str = ""
    mask: int = field(init=False)

    def __post_init__(self) -> None:
        mask = 0
        for card in self.cards:
            mask |= card.mask
        object.__setattr__(self, "mask", mask)

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self.mask & card.mask)

    def value(self, card: Card) -> int:
        """How many points ``card`` counts in this deck."""
        return self.ace_value if card.rank == "A" else card.value


def _suited(ranks: Iterable[str]) -> tuple[Card, ...]:
    wanted = set(ranks)
    return tuple(card for card in ALL_CARDS[:52] if card.rank in wanted)


DECKS: dict[str, Deck] = {
    deck.id: deck
    for deck in (
        Deck("full52", _suited(RANKS), name=N_("52 cards")),
        Deck("piquet32", _suited(RANKS[5:]), name=N_("32 cards, seven to ace")),
        Deck("short36", _suited(RANKS[4:]), name=N_("36 cards, six to ace")),
        Deck("full54", ALL_CARDS, name=N_("52 cards and two jokers")),
        Deck("race24", _suited(("A", "2", "3", "4", "5", "6")), ace_value=1,
             name=N_("24 cards, ace to six, the ace counting one")),
        # RULES.md §4.15 (new turn 4): Schwimmen's short packs (stargames) and the Italian
        # 40-card pack of "Il 31" (toysblog, lettera43), the French pack less 8, 9 and 10.
        Deck("nine24", _suited(RANKS[7:]), name=N_("24 cards, nine to ace")),
        Deck("five40", _suited(RANKS[3:]), name=N_("40 cards, five to ace")),
        Deck("italian40", _suited(("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")),
             name=N_("40 Italian cards: ace, two to seven, jack, knight and king")),
    )
}
"""The decks by id (RULES.md §1)."""
