"""What every seat knows of the round being played, beyond the cards lying face up.

The history keeps only the last moves; what they told is kept here for the whole round, and
its size is bounded by the deck, not by a count of moves:

- ``held``: for each seat, the cards it is known to hold: taken face up (from the discard
  pile, the face-up table, a stock whose order everyone knows) and not given away since;
- ``drawn``: for each seat, how many cards it drew from the stock this round (it saw them and
  kept the best: what the advice's worlds model);
- ``out``: the cards put out of play this round that lay face up (Schwimmen's renewed table
  cards);
- ``stock``: the stock, when everyone knows its cards (a discard pile turned over, top card
  first, ``stock_ordered``; or shuffled in, in deck order), else ``None``;
- ``knocked_at``: the count of turns played when the knock came.

:func:`track` is called by :func:`~thirtyone.game.apply_move` for every move; a new deal starts
afresh. Every field is public: :func:`~thirtyone.game.view` shows it to everyone.

>>> from thirtyone.game import new_game, apply_move
>>> state = new_game("scat", 2, seed=3, dealer=0)
>>> top = state.discard[-1]
>>> state, _ = apply_move(state, {"type": "draw", "source": "discard"})
>>> state.public.held[1] == (top,), state.public.drawn
(True, (0, 0))
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from thirtyone.cards import DECKS, Card, CardCode
from thirtyone.hands.reading import mask_of


class PublicData(TypedDict):
    """:class:`Public` as plain data (in :func:`~thirtyone.game.view` and the state)."""

    held: list[list[CardCode]]
    drawn: list[int]
    out: list[CardCode]
    stock: list[CardCode] | None
    stock_ordered: bool
    knocked_at: int | None


@dataclass(frozen=True, slots=True)
class Public:
    """The round's public knowledge (see the module docstring); empty tuples before any
    move of the round."""

    held: tuple[tuple[Card, ...], ...] = ()
    drawn: tuple[int, ...] = ()
    out: tuple[Card, ...] = ()
    stock: tuple[Card, ...] | None = None
    stock_ordered: bool = False
    knocked_at: int | None = None

    @property
    def is_empty(self) -> bool:
        return self == NOTHING_KNOWN

    def to_dict(self, players: int) -> PublicData:
        return {
            "held": [[card.code for card in cards] for cards in self.held] or [[]] * players,
            "drawn": list(self.drawn) or [0] * players,
            "out": [card.code for card in self.out],
            "stock": None if self.stock is None else [card.code for card in self.stock],
            "stock_ordered": self.stock_ordered,
            "knocked_at": self.knocked_at,
        }


NOTHING_KNOWN = Public()
_ROUND_ENDED = frozenset({"round_over", "game_over"})


def track(old: Any, new: Any, events: Sequence[Mapping[str, Any]]) -> Public:
    """The public knowledge after the move that turned ``old`` into ``new`` (two
    :class:`~thirtyone.game.GameState`), with the events it caused."""
    if new.round != old.round or new.phase in _ROUND_ENDED or not any(new.hands):
        # A settled round shows its hands; a new deal starts with nothing known.
        return NOTHING_KNOWN
    known: Public = old.public
    kinds = {event.get("type") for event in events}
    reshuffled = "stock_reshuffled" in kinds
    recycled = "stock_recycled" in kinds
    # Sets of cards as bit masks (Card.mask): a card's own hash and equality are Python
    # calls, and this runs on every move.
    face_up = mask_of([card for card, up in zip(old.table, old.table_face_up, strict=True)
                       if up])
    pile = mask_of(old.discard)
    held, drawn = _hands_seen(old, new, known, face_up, pile, reshuffled)
    if new.out:
        was_out = mask_of(old.out)
        out = known.out + tuple(card for card in new.out if not card.mask & was_out
                                and card.mask & (face_up | pile))
    else:
        out = known.out
    stock, stock_ordered = _stock_seen(old, new, known, recycled, reshuffled)
    knocked_at = known.knocked_at
    if new.knocker is not None and old.knocker is None:
        knocked_at = old.turns
    return Public(held, drawn, out, stock, stock_ordered, knocked_at)


def _hands_seen(old: Any, new: Any, known: Public, face_up: int, pile: int,
                reshuffled: bool) -> tuple[tuple[tuple[Card, ...], ...], tuple[int, ...]]:
    """``held`` and ``drawn`` after the move: the cards each seat took in everyone's sight
    (face up from the table, the discard pile, or the top of a stock everyone knows), and how
    many it drew unseen; ``face_up`` and ``pile``: the masks of the cards that lay face up on
    the table and in the discard pile before it."""
    players = len(new.hands)
    held = list(known.held) or [()] * players
    drawn = list(known.drawn) or [0] * players
    ordered = known.stock if known.stock_ordered and known.stock else ()
    if reshuffled:
        pile = 0
    stock = None
    for seat, (before, after) in enumerate(zip(old.hands, new.hands, strict=True)):
        if before is after or before == after:
            continue
        now, had = mask_of(after), mask_of(before)
        cards = [card for card in held[seat] if card.mask & now]
        for card in after:
            if card.mask & had:
                continue
            if card.mask & (face_up | pile) or (ordered and card is ordered[0]):
                cards.append(card)
            elif reshuffled:
                drawn[seat] += 1
            else:
                if stock is None:
                    stock = mask_of(old.stock)
                if card.mask & stock:
                    drawn[seat] += 1
        held[seat] = tuple(cards)
    return tuple(held), tuple(drawn)


def _stock_seen(old: Any, new: Any, known: Public, recycled: bool,
                reshuffled: bool) -> tuple[tuple[Card, ...] | None, bool]:
    """``stock`` and ``stock_ordered`` after the move."""
    stock, stock_ordered = known.stock, known.stock_ordered
    if recycled or reshuffled:
        stock_ordered = recycled
        stock = new.stock if recycled else tuple(sorted(new.stock, key=lambda c: c.index))
    elif stock is not None and new.stock != old.stock:
        # An ordered stock stays known as its top cards go; a shuffled one is known no more
        # once a seat drew a card from it unseen.
        shorter = len(old.stock) - len(new.stock)
        stock = new.stock if stock_ordered and shorter > 0 \
            and old.stock[shorter:] == new.stock else None
        stock_ordered = stock is not None and stock_ordered
    return stock, stock_ordered


def read_public(data: Any, state: Any) -> Public:
    """The :class:`Public` that ``data`` (as :meth:`Public.to_dict` wrote it) describes for
    ``state``, or ``None`` when it does not fit the state's cards (``ValueError``)."""
    if data is None:
        return NOTHING_KNOWN
    by_code = _cards_of(state.rules.deck)
    if not isinstance(data, Mapping) or set(data) != set(PublicData.__annotations__):
        raise ValueError("fields")
    held, drawn = _read_seats(data, state, by_code)
    out = _read_cards(data["out"], by_code)
    if not set(out) <= set(state.out):
        raise ValueError("out")
    stock, ordered = _read_stock(data, state, by_code)
    knocked_at = data["knocked_at"]
    if not (knocked_at is None or (type(knocked_at) is int and 0 <= knocked_at <= state.turns)):
        raise ValueError("knock")
    return Public(held, drawn, out, stock, ordered, knocked_at)


@functools.cache
def _cards_of(deck: str) -> dict[str, Card]:
    """The cards of ``deck`` by code (a deck's cards never change)."""
    return {card.code: card for card in DECKS[deck].cards}


def read_sealed_public(data: Mapping[str, Any], card: Callable[[str], Card]) -> Public:
    """The :class:`Public` that ``data`` describes, its cards looked up by ``card``, read
    without :func:`read_public`'s checks: for a state the server wrote and sealed itself
    (:func:`thirtyone.game.checks.read_sealed_state`), never for data from outside."""
    stock = data["stock"]
    return Public(tuple([tuple(map(card, cards)) for cards in data["held"]]),
                  tuple(data["drawn"]), tuple(map(card, data["out"])),
                  None if stock is None else tuple(map(card, stock)), data["stock_ordered"],
                  data["knocked_at"])


def _read_cards(codes: Any, by_code: Mapping[str, Card]) -> tuple[Card, ...]:
    if not isinstance(codes, list) or not all(isinstance(code, str) and code in by_code
                                              for code in codes):
        raise ValueError("cards")
    return tuple(by_code[code] for code in codes)


def _read_seats(data: Mapping[str, Any], state: Any, by_code: Mapping[str, Card]
                ) -> tuple[tuple[tuple[Card, ...], ...], tuple[int, ...]]:
    """``held`` and ``drawn``: a seat's cards seen taken are in its hand; a count of cards
    drawn unseen within the deck."""
    players = len(state.hands)
    held = data["held"]
    drawn = data["drawn"]
    if not isinstance(held, list) or len(held) != players or not isinstance(drawn, list) \
            or len(drawn) != players:
        raise ValueError("seats")
    held_cards = tuple(_read_cards(codes, by_code) for codes in held)
    if any(not set(hand) <= set(state.hands[seat]) for seat, hand in enumerate(held_cards)):
        raise ValueError("held")
    deck = len(by_code)
    if not all(type(count) is int and 0 <= count <= deck for count in drawn):
        raise ValueError("drawn")
    return held_cards, tuple(drawn)


def _read_stock(data: Mapping[str, Any], state: Any, by_code: Mapping[str, Card]
                ) -> tuple[tuple[Card, ...] | None, bool]:
    """``stock`` and ``stock_ordered``: the stock known is the state's, in its order when
    known to be ordered."""
    stock = None if data["stock"] is None else _read_cards(data["stock"], by_code)
    ordered = data["stock_ordered"]
    if stock is not None and (sorted(stock, key=lambda c: c.index)
                              != sorted(state.stock, key=lambda c: c.index)
                              or (ordered is True and stock != state.stock)):
        raise ValueError("stock")
    if not isinstance(ordered, bool):
        raise ValueError("stock_ordered")
    return stock, ordered
