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


def test_one_catalog_loader_reads_po_when_mo_is_stale(tmp_path):
    """The engine, the API and the site read catalogs through ``compiled_catalog``: a stale
    ``.mo`` is passed over for its ``.po``, and a half-translated plural entry is dropped so
    English answers instead of an empty form."""
    import gettext
    import os

    from thirtyone.words import compiled_catalog

    folder = tmp_path / "ru" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "messages.mo").write_bytes(b"not a catalog")
    os.utime(folder / "messages.mo", (0, 0))
    (folder / "messages.po").write_text(
        'msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : '
        'n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"\n\n'
        'msgid "Rules"\nmsgstr "Правила"\n\n'
        'msgid "{n} point"\nmsgid_plural "{n} points"\nmsgstr[0] "{n} очко"\nmsgstr[1] ""\n'
        'msgstr[2] ""\n', encoding="utf-8")
    compiled = compiled_catalog(tmp_path, "ru")
    assert compiled is not None
    catalog = gettext.GNUTranslations(compiled)
    assert catalog.gettext("Rules") == "Правила"
    assert catalog.ngettext("{n} point", "{n} points", 5) == "{n} points"
    assert compiled_catalog(tmp_path, "it") is None


def test_one_languages_constant():
    """The API's and the site's language lists are the engine's, in their own order."""
    import sys
    from pathlib import Path

    from thirtyone.web.site import LANGUAGE_FOLDERS

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "site" / "hooks"))
    try:
        import site_i18n
    finally:
        sys.path.pop(0)
    assert sorted(site_i18n.LANGUAGES) == sorted(LANGUAGES)
    assert LANGUAGES[0] == site_i18n.DEFAULT_LANGUAGE
    assert set(LANGUAGE_FOLDERS) == set(LANGUAGES) - {LANGUAGES[0]}
