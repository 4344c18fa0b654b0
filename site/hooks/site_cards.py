"""Cards as pictures: the play page's faces (``thirtyone.faces``), inline in the site's pages.

Each face carries its name in the page's language as its accessible label, and the rank
letters readers of that language know from their own packs (Т К Д В in Russian, R D F in
Italian).
"""

from __future__ import annotations

from collections.abc import Iterable

from site_i18n import engine_gettext

from thirtyone.cards import RANK_NAMES, Card, parse_card
from thirtyone.faces import card_svg
from thirtyone.words import CARD_NAMES

RANK_LETTERS = {
    "ru": {"A": "Т", "K": "К", "Q": "Д", "J": "В", "X": "ДЖОКЕР"},
    "it": {"A": "A", "K": "R", "Q": "D", "J": "F", "X": "JOLLY"},
    "en": {},
}


SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def cards_text(cards: Iterable[Card], lang: str) -> str:
    """Cards written short with the letters of the faces beside them: "Т♠ К♠" in Russian,
    "A♠ R♠" in Italian, "A♠ K♠" in English; a joker by its name."""
    letters = RANK_LETTERS[lang]
    return " ".join(
        card_label(card.code, lang) if card.suit is None
        else f"{letters.get(card.rank, card.rank)}{SUIT_SYMBOLS[card.suit]}"
        for card in cards
    )


def card_label(code: str, lang: str) -> str:
    """A card's name in ``lang``: "ace of spades", "туз пик", "asso di picche"."""
    engine = engine_gettext(lang)
    card = parse_card(code)
    if card.suit is None:
        return engine(RANK_NAMES["X"])
    return engine(CARD_NAMES[card.suit]).format(rank=engine(RANK_NAMES[card.rank]))


def cards_picture(codes: Iterable[str | None], lang: str) -> str:
    """Inline HTML showing ``codes`` side by side; ``None`` is a card seen from its back."""
    faces = [
        card_svg(code, ranks=RANK_LETTERS[lang],
                 label=None if code is None else card_label(code, lang))
        for code in codes
    ]
    return f'<span class="cards">{"".join(faces)}</span>'
