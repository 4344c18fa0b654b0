"""thirtyone: the reference engine for the Thirty-One family of card games."""

from thirtyone.cards import ALL_CARDS, DECKS, Card, Deck, parse_card, parse_cards
from thirtyone.errors import (
    CardError,
    HandError,
    MoveError,
    OptionError,
    StateError,
    ThirtyOneError,
)

__version__ = "0.1.0"

__all__ = [
    "ALL_CARDS",
    "DECKS",
    "Card",
    "CardError",
    "Deck",
    "HandError",
    "MoveError",
    "OptionError",
    "StateError",
    "ThirtyOneError",
    "parse_card",
    "parse_cards",
]
