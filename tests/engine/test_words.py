"""thirtyone.words: every move type in every language, table hands and places from 1."""

from __future__ import annotations

import pytest

from thirtyone.game.operations import MOVES
from thirtyone.words import LANGUAGES, NULL, describe_move, event_message, load_catalogs, ordinal

CATALOGS = load_catalogs()
SEEN = {"table": [None, "AS", "7H", "8H", "9H", "10H"], "discard": ["QC"]}
EXAMPLES = {
    "draw": {"type": "draw", "source": "discard"},
    "discard": {"type": "discard", "card": "QS"},
    "knock": {"type": "knock"},
    "stand": {"type": "stand"},
    "next_round": {"type": "next_round"},
    "take": {"type": "take", "card": "5H"},
    "exchange": {"type": "exchange", "give": ["KD", "2C"], "take": [0, 1]},
    "declare": {"type": "declare"},
    "pass": {"type": "pass"},
    "join": {"type": "join"},
    "reveal": {"type": "reveal"},
    "keep": {"type": "keep", "hand": 1},
    "swap_hand": {"type": "swap_hand", "hand": 0},
    "renew": {"type": "renew", "hand": 1, "face_up": False},
}


def test_every_move_type_has_an_example():
    assert set(EXAMPLES) == set(MOVES)


@pytest.mark.parametrize("language", [language for language in LANGUAGES if language != "en"])
def test_every_move_is_said_in_the_language_of_its_catalog(language):
    for move in EXAMPLES.values():
        english = describe_move(NULL, move, SEEN)
        said = describe_move(CATALOGS[language], move, SEEN)
        assert said and said != english, move


def test_table_hands_and_places_are_counted_from_one():
    assert ordinal(0) == 1
    assert describe_move(NULL, EXAMPLES["keep"], SEEN) == "Keep hand 2"
    assert describe_move(NULL, EXAMPLES["exchange"], SEEN) == (
        "Exchange with the table: give king of diamonds, two of clubs; take the face-down "
        "card in place 1, ace of spades")
    assert describe_move(NULL, EXAMPLES["draw"], SEEN) == (
        "Take from the discard pile: queen of clubs")
    assert event_message(NULL, {"type": "renewed", "seat": 1, "hand": 0}) == (
        "Seat 1 renewed table hand 1.")
