"""Cards as pictures: the play page's faces (``thirtyone.faces``), inline in the site's pages.

Each face carries its name in the page's language as its accessible label, and the rank
letters readers of that language know from their own packs (Т К Д В in Russian, R D F in
Italian).
"""

from __future__ import annotations

from collections.abc import Iterable

from site_i18n import engine_gettext, site_gettext
from thirtyone.cards import RANK_NAMES, Card, parse_card
from thirtyone.faces import ITALIAN_RANK_LETTERS, card_svg
from thirtyone.rules import Preset
from thirtyone.words import CARD_NAMES

RANK_LETTERS = {
    "ru": {"A": "Т", "K": "К", "Q": "Д", "J": "В", "X": "ДЖОКЕР"},
    "it": {"A": "A", "K": "R", "Q": "D", "J": "F", "X": "JOLLY"},
    "en": {},
}


SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def pack_of(preset: Preset) -> str:
    """The faces a preset's cards wear: the Italian regional pack for ``italian40``."""
    return "italian" if preset.rules.deck == "italian40" else "french"


def cards_text(cards: Iterable[Card], lang: str, pack: str = "french") -> str:
    """Cards written short with the letters of the faces beside them: "Т♠ К♠" in Russian,
    "A♠ R♠" in Italian, "A♠ K♠" in English; a joker by its name; the Italian pack's cards by
    their names ("asso di coppe"), its suits having no symbol in fonts."""
    if pack == "italian":
        return ", ".join(card_label(card.code, lang, pack) for card in cards)
    letters = RANK_LETTERS[lang]
    return " ".join(
        card_label(card.code, lang) if card.suit is None
        else f"{letters.get(card.rank, card.rank)}{SUIT_SYMBOLS[card.suit]}"
        for card in cards
    )


def card_label(code: str, lang: str, pack: str = "french") -> str:
    """A card's name in ``lang``: "ace of spades", "туз пик", "asso di picche"; in the Italian
    pack "knight of cups", "всадник кубков", "cavallo di coppe"."""
    engine = engine_gettext(lang)
    card = parse_card(code)
    if card.suit is None:
        return engine(RANK_NAMES["X"])
    if pack == "italian":
        _ = site_gettext(lang)
        suits = {"H": _("{rank} of cups"), "D": _("{rank} of coins"),
                 "C": _("{rank} of batons"), "S": _("{rank} of swords")}
        rank = _("knight") if card.rank == "Q" else engine(RANK_NAMES[card.rank])
        return suits[card.suit].format(rank=rank)
    return engine(CARD_NAMES[card.suit]).format(rank=engine(RANK_NAMES[card.rank]))


def cards_picture(codes: Iterable[str | None], lang: str, pack: str = "french") -> str:
    """Inline HTML showing ``codes`` side by side; ``None`` is a card seen from its back; the
    Italian pack's faces with its own suits and letters (F, C, R)."""
    letters = ITALIAN_RANK_LETTERS if pack == "italian" else RANK_LETTERS[lang]
    faces = [
        card_svg(code, ranks=letters, pack=pack,
                 label=None if code is None else card_label(code, lang, pack))
        for code in codes
    ]
    return f'<span class="cards">{"".join(faces)}</span>'
