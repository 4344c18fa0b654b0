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
from thirtyone.hands import (
    CATEGORY_NAMES,
    Evaluator,
    HandScore,
    Ranking,
    compare_hands,
    evaluator,
    score_hand,
)

__version__ = "0.1.0"

__all__ = [
    "ALL_CARDS",
    "CATEGORY_NAMES",
    "DECKS",
    "Card",
    "CardError",
    "Deck",
    "Evaluator",
    "HandError",
    "HandScore",
    "MoveError",
    "OptionError",
    "Ranking",
    "StateError",
    "ThirtyOneError",
    "compare_hands",
    "evaluator",
    "parse_card",
    "parse_cards",
    "score_hand",
]
