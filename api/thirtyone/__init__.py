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
from thirtyone.events import EVENT_MESSAGES
from thirtyone.game import (
    GameState,
    Phase,
    Seat,
    apply_move,
    legal_moves,
    new_game,
    validate_move,
    view,
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
from thirtyone.race import solve
from thirtyone.rules import OPTIONS, PRESETS, Preset, Rules, find_preset, make_rules

__version__ = "0.1.0"

__all__ = [
    "ALL_CARDS",
    "CATEGORY_NAMES",
    "DECKS",
    "EVENT_MESSAGES",
    "OPTIONS",
    "PRESETS",
    "Card",
    "CardError",
    "Deck",
    "Evaluator",
    "GameState",
    "HandError",
    "HandScore",
    "MoveError",
    "OptionError",
    "Phase",
    "Preset",
    "Ranking",
    "Rules",
    "Seat",
    "StateError",
    "ThirtyOneError",
    "apply_move",
    "compare_hands",
    "evaluator",
    "find_preset",
    "legal_moves",
    "make_rules",
    "new_game",
    "parse_card",
    "parse_cards",
    "score_hand",
    "solve",
    "validate_move",
    "view",
]
