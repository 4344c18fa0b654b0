"""The game's words in a language: card names, points, hand descriptions, event sentences,
moves.

Each function reads one translations object with the interface of the standard library's
:mod:`gettext` (``gettext``, ``ngettext``, ``pgettext``): the API passes the catalog of the
request's language, the command line the catalog its ``--lang`` names, so both say the same
sentences. :func:`compiled_catalog` is the one catalog loader (the engine's, the API's and the
site's): it reads a compiled ``.mo``, or compiles a ``.po`` in memory when Babel is present.

>>> from thirtyone.hands import score_hand
>>> describe_score(NULL, score_hand(["AS", "KS", "10S"]))
'Blitz: 31 points in spades (ace of spades, king of spades, ten of spades).'
>>> event_message(NULL, {"type": "drew", "seat": 1, "source": "stock"})
'Seat 1 drew from the stock.'
>>> describe_move(NULL, {"type": "swap_hand", "hand": 0}, {"table": [], "discard": []})
'Swap your hand for table hand 1'
"""

from __future__ import annotations

import gettext
import io
import logging
import weakref
from collections.abc import Mapping
from pathlib import Path
from typing import Any, BinaryIO

import thirtyone
from thirtyone.cards import RANK_NAMES, Card, parse_card
from thirtyone.errors import N_, OptionError
from thirtyone.events import EVENT_MESSAGES, EVENT_PLURALS
from thirtyone.game.operations import CardNames, Ordinal, Phrase, operation_of
from thirtyone.hands import CATEGORY_NAMES, HandScore
from thirtyone.rules import find_preset

LANGUAGES: tuple[str, ...] = ("en", "ru", "it")
"""The languages the catalogs hold; the first is the default."""

DOMAIN = "messages"

NULL = gettext.NullTranslations()
"""No translation: the English texts."""

_log = logging.getLogger(__name__)

# Russian puts the suit in the genitive plural after the rank ("туз пик"), Italian uses "di"
# ("asso di picche"): a whole template per suit lets each language inflect the suit.
CARD_NAMES: dict[str, str] = {
    "C": N_("{rank} of clubs"),
    "D": N_("{rank} of diamonds"),
    "H": N_("{rank} of hearts"),
    "S": N_("{rank} of spades"),
}

IN_SUIT: dict[str, str] = {
    "C": N_("in clubs"),
    "D": N_("in diamonds"),
    "H": N_("in hearts"),
    "S": N_("in spades"),
}
"""Where points are counted: "27 points in hearts"."""


def translations_directory() -> Path:
    """The folder holding ``<lang>/LC_MESSAGES/messages.po``: in the wheel or the repository."""
    package = Path(thirtyone.__file__).resolve().parent
    packaged = package / "translations"
    if packaged.is_dir():
        return packaged
    return package.parents[1] / "translations"


def compiled_catalog(directory: Path, language: str, domain: str = DOMAIN, *,
                     use_mo: bool = True) -> BinaryIO | None:
    """The compiled catalog of one language and domain, ready for a translations class
    (``gettext.GNUTranslations``, Babel's ``Translations``), or None when there is none.

    This is the one catalog loader of the engine, the API and the site. A ``.mo`` is used when
    ``use_mo`` and it is at least as new as its ``.po``; otherwise the ``.po`` is compiled in
    memory with Babel (the API's and the site's dependency; without Babel, None): a fresh
    checkout localizes before ``make translations`` has run. An entry whose plural forms are
    not all translated is dropped, so the English message ids answer instead of empty forms.
    """
    folder = directory / language / "LC_MESSAGES"
    mo, po = folder / f"{domain}.mo", folder / f"{domain}.po"
    if use_mo and mo.is_file() and (not po.is_file()
                                    or mo.stat().st_mtime >= po.stat().st_mtime):
        return io.BytesIO(mo.read_bytes())
    if not po.is_file():
        _log.info("%s is missing: run `make translations`", mo if use_mo else po)
        return None
    try:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po
    except ImportError:  # the engine alone depends on nothing: English then
        _log.info("%s is not compiled and Babel is absent: run `make translations`", po)
        return None
    with po.open("rb") as file:
        catalog = read_po(file, locale=language, domain=domain)
    for message in list(catalog)[1:]:
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(forms):
            catalog.delete(message.id, message.context)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    if use_mo:
        _log.info("compiled %s in memory: run `make translations` to compile it once", po)
    return compiled


def load_catalogs(directory: Path | None = None,
                  domain: str = DOMAIN) -> dict[str, gettext.NullTranslations]:
    """One translations object per language (English where a catalog is missing), read by
    :func:`compiled_catalog`."""
    directory = directory or translations_directory()
    catalogs: dict[str, gettext.NullTranslations] = {}
    for language in LANGUAGES:
        compiled = compiled_catalog(directory, language, domain)
        catalogs[language] = NULL if compiled is None else gettext.GNUTranslations(compiled)
    return catalogs


def format_message(translations: gettext.NullTranslations, template: str,
                   params: Mapping[str, Any] | None = None) -> str:
    """Translate an engine template and fill it with its params (``None``: a finished text).

    A translation that names a placeholder the params lack falls back to the English template,
    so a catalog slip can never turn a clear message into a crash.
    """
    translated = translations.gettext(template)
    if params is None:
        return translated
    for text in (translated, template):
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):
            _log.warning("message %r does not fit its params %r", text, params)
    return template


_CARD_NAMES: weakref.WeakKeyDictionary[gettext.NullTranslations, dict[str, str]] = (
    weakref.WeakKeyDictionary())

ITALIAN_SUIT_NAMES: dict[str, str] = {
    "H": N_("{rank} of cups"),
    "D": N_("{rank} of coins"),
    "C": N_("{rank} of batons"),
    "S": N_("{rank} of swords"),
}
"""The Italian regional pack's suits (coppe, denari, bastoni, spade) in the places of hearts,
diamonds, clubs and spades, for the ``italian40`` deck of "Il 31" (RULES.md §4.15)."""
ITALIAN_IN_SUIT: dict[str, str] = {
    "H": N_("in cups"),
    "D": N_("in coins"),
    "C": N_("in batons"),
    "S": N_("in swords"),
}
KNIGHT = N_("knight")
"""The Italian pack's cavallo, in the queen's place."""


def italian_card_name(translations: gettext.NullTranslations, card: str | Card) -> str:
    """A card of the Italian pack by its regional name: "cavallo di coppe", "всадник кубков".

    >>> italian_card_name(NULL, "QH")
    'knight of cups'
    """
    parsed = parse_card(card)
    if parsed.suit is None:
        return translations.gettext(RANK_NAMES["X"])
    rank = KNIGHT if parsed.rank == "Q" else RANK_NAMES[parsed.rank]
    return translations.gettext(ITALIAN_SUIT_NAMES[parsed.suit]).format(
        rank=translations.gettext(rank))


def pack_of_deck(deck: str) -> str:
    """The pack a deck's cards are named by: ``italian`` for ``italian40``, else ``french``."""
    return "italian" if deck == "italian40" else "french"


def pack_of(seen: Mapping[str, Any]) -> str:
    """The pack a view's cards are named by: ``italian`` for the deck ``italian40`` (the table's
    own option, or its preset's default), ``french`` otherwise."""
    rules = seen.get("rules")
    if not isinstance(rules, Mapping):
        return "french"
    deck = (rules.get("options") or {}).get("deck")
    if deck is None:
        try:
            deck = find_preset(rules.get("variant", "")).rules.deck
        except OptionError:
            return "french"
    return pack_of_deck(deck)


def card_name(translations: gettext.NullTranslations, card: str | Card) -> str:
    """A card's name: "ace of spades", "туз пик", "asso di picche"."""
    # A catalog never changes once loaded, so the names made with it are kept, by the
    # spelling asked for (only spellings of real cards get that far), as long as it lives.
    names = _CARD_NAMES.get(translations)
    if names is None:
        names = _CARD_NAMES[translations] = {}
    key = card.code if isinstance(card, Card) else card
    known = names.get(key)
    if known is not None:
        return known
    parsed = parse_card(card)
    if parsed.suit is None:
        name = translations.gettext(RANK_NAMES["X"])
    else:
        name = translations.gettext(CARD_NAMES[parsed.suit]).format(
            rank=translations.gettext(RANK_NAMES[parsed.rank])
        )
    names[key] = name
    return name


def points_text(translations: gettext.NullTranslations, points: float) -> str:
    """ "31 points", "31 очко", "30½ points"."""
    if float(points).is_integer():
        count = int(points)
        return translations.ngettext("{points} point", "{points} points", count).format(
            points=count)
    # A fraction takes its own grammar ("30½ очка"), not the plural of any whole number.
    text = f"{int(points)}½" if points % 1 == 0.5 else f"{points:g}"
    return translations.pgettext("fraction", "{points} points").format(points=text)


def describe_score(translations: gettext.NullTranslations, score: HandScore,
                   pack: str = "french") -> str:
    """A sentence saying what a hand is worth, its counted cards named (by ``pack``)."""
    name = italian_card_name if pack == "italian" else card_name
    in_suits = ITALIAN_IN_SUIT if pack == "italian" else IN_SUIT
    shown = [
        f"{name(translations, card)} ({name(translations, score.wild[card.code])})"
        if card.code in score.wild else name(translations, card)
        for card in score.counted
    ]
    category = translations.gettext(CATEGORY_NAMES[score.category])
    points = points_text(translations, score.points)
    if score.suit and len(score.counted) > 1:
        return translations.gettext(N_("{category}: {points} {in_suit} ({cards}).")).format(
            category=category, points=points, in_suit=translations.gettext(in_suits[score.suit]),
            cards=", ".join(shown),
        )
    return translations.gettext(N_("{category}: {points} ({cards}).")).format(
        category=category, points=points, cards=", ".join(shown)
    )


def ordinal(index: int) -> int:
    """A table hand or table position as words count it: from 1, where moves and events count
    from 0 (``{"type": "swap_hand", "hand": 0}`` is "table hand 1")."""
    return index + 1


def _event_words(translations: gettext.NullTranslations, key: str, value: Any,
                 pack: str = "french") -> Any:
    """An event parameter as the sentence shows it: card names (by ``pack``), localized
    sources, table hands counted from 1."""
    name = italian_card_name if pack == "italian" else card_name
    if key == "card" and isinstance(value, str):
        return name(translations, value)
    if key == "hand" and isinstance(value, int):
        return ordinal(value)
    if key == "cards" and isinstance(value, list) and all(isinstance(code, str) for code in value):
        return ", ".join(name(translations, code) for code in value)
    if key == "source" and value == "stock":
        return translations.pgettext("event source", "stock")
    if key == "source" and value == "discard":
        return translations.pgettext("event source", "discard")
    if key == "points" and isinstance(value, float) and not value.is_integer():
        # One notation for a half point everywhere: 30½, as points_text writes it.
        return f"{int(value)}½" if value % 1 == 0.5 else f"{value:g}"
    return value


def event_message(translations: gettext.NullTranslations, event: Mapping[str, Any],
                  pack: str = "french") -> str:
    """What an event says (its ``type`` when no sentence is known for it), its cards named by
    ``pack`` (:func:`pack_of_deck`)."""
    params = {key: _event_words(translations, key, value, pack) for key, value in event.items()}
    counted = EVENT_PLURALS.get(event["type"])
    if counted is not None and isinstance(event.get(counted[0]), int):
        name, (singular, plural) = counted
        translated = translations.ngettext(singular, plural, event[name])
        try:
            return translated.format(**params)
        except (KeyError, IndexError, ValueError):
            _log.warning("message %r does not fit its params %r", translated, params)
    template = EVENT_MESSAGES.get(event["type"])
    if template is None:
        return str(event["type"])
    return format_message(translations, template, params)


def say(translations: gettext.NullTranslations, phrase: Phrase, pack: str = "french") -> str:
    """A :class:`~thirtyone.game.moves.Phrase` in the language of ``translations``, its cards
    named by ``pack`` (``italian``: the regional names of the Italian pack)."""
    # The same few phrases come again and again (each legal move of every answer: "Discard:
    # king of clubs"), and a catalog never changes once loaded: what a phrase of plain
    # parameters says is kept (a phrase holding a list or another phrase is said each time).
    key = (translations, pack, phrase.template, *phrase.params.items())
    try:
        said = _SAID.get(key)
    except TypeError:  # a list or a phrase among the parameters: no key
        return _say(translations, phrase, pack)
    if said is None:
        said = _say(translations, phrase, pack)
        if len(_SAID) >= _SAID_KEPT:
            _SAID.clear()
        _SAID[key] = said
    return said


def _say(translations: gettext.NullTranslations, phrase: Phrase, pack: str) -> str:
    return format_message(translations, phrase.template, {
        name: _part(translations, value, pack) for name, value in phrase.params.items()})


_SAID: dict[tuple[Any, ...], str] = {}
""":func:`say`'s sentences, by catalog, pack, template and parameters."""
_SAID_KEPT = 4096


def _part(translations: gettext.NullTranslations, value: Any, pack: str = "french") -> Any:
    if isinstance(value, Phrase):
        return say(translations, value, pack)
    if isinstance(value, CardNames):
        name = italian_card_name if pack == "italian" else card_name
        return ", ".join(name(translations, card) for card in value.cards)
    if isinstance(value, Ordinal):
        return ordinal(value.index)
    if isinstance(value, list):
        return ", ".join(str(_part(translations, part, pack)) for part in value)
    return value


def describe_move(translations: gettext.NullTranslations, move: Mapping[str, Any],
                  seen: Mapping[str, Any], pack: str | None = None) -> str:
    """A legal move in words, with the cards named that ``seen`` (the mover's
    :func:`~thirtyone.game.view`) shows: what the API's ``legal_moves``, the command line and
    the hints say; the cards of the Italian pack (``italian40``) by their regional names.
    ``pack`` is ``pack_of(seen)``, for a caller that knows it (the state's
    ``pack_of_deck(rules.deck)``) and describes several moves."""
    operation = operation_of(move)
    if pack is None:
        pack = pack_of(seen)
    if not operation.words_of_move_alone:
        return say(translations, operation.words(move, seen), pack)
    # A move whose words read it alone says the same in every game: kept by catalog, pack
    # and move (a mid-game answer's four discards took a fifth of a sealed move's engine
    # work, in phrases built, hashed and compared again for each).
    key = (translations, pack, *move.items())
    try:
        said = _DESCRIBED.get(key)
    except TypeError:  # a list among the move's values: no key
        return say(translations, operation.words(move, seen), pack)
    if said is None:
        said = say(translations, operation.words(move, seen), pack)
        if len(_DESCRIBED) >= _SAID_KEPT:
            _DESCRIBED.clear()
        _DESCRIBED[key] = said
    return said


_DESCRIBED: dict[tuple[Any, ...], str] = {}
""":func:`describe_move`'s words of moves that read the move alone, by catalog, pack and
move."""
