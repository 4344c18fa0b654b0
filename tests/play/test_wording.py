"""The words of the play page and of the events it logs: every counted message takes the
language's own plural form (no "1 cards", «1 жизни», "1 gettoni"), and a half point is
written one way. No browser: the catalogs, the engine's event sentences, the page's data."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from babel.support import Translations

from thirtyone.events import EVENT_PLURALS
from thirtyone.web import create_app
from thirtyone.web.i18n import LANGUAGES
from thirtyone.web.play import PLURALS
from thirtyone.words import event_message

TRANSLATIONS = Path(__file__).resolve().parents[2] / "translations"

# What must never be printed: a count of one before a plural noun, and in Russian a count of
# two to four before a genitive plural or a count of five before a genitive singular.
WRONG = {
    "en": re.compile(r"\b1 (cards|chips|lives|points|turns|rounds)\b"),
    "it": re.compile(r"\b1 (carte|gettoni|vite|punti|turni|mani)\b"),
    "ru": re.compile(r"\b1 (карты|карт|фишки|фишек|жизни|жизней|очка|очков|хода|ходов)\b"
                     r"|\b[234] (карт|фишек|жизней|очков|ходов)\b"
                     r"|\b5 (карты|фишки|жизни|очка|хода)\b"),
}
COUNTS = (1, 2, 5)


def translations(language: str) -> Translations:
    """The compiled catalog (``make translations``), as the API reads it."""
    return Translations.load(str(TRANSLATIONS), [language], "messages")


def plural_messages(language: str) -> list[tuple[str, str]]:
    """Every message with plural forms in the language's catalog."""
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as file:
        po = read_po(file, locale=language)
    return [message.id for message in po if message.id and isinstance(message.id, tuple)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_plural_message_reads_right_for_1_2_and_5(language):
    catalog = translations(language)
    messages = plural_messages(language)
    # The page's counted texts and the engine's counted events are all among them.
    assert set(PLURALS.values()) | {forms for _, forms in EVENT_PLURALS.values()} <= set(messages)
    for singular, plural in messages:
        shown = {}
        for count in COUNTS:
            text = catalog.ngettext(singular, plural, count)
            fields = {name: count for name in re.findall(r"\{(\w+)\}", text)}
            shown[count] = text.format(**fields)
            assert not WRONG[language].search(shown[count]), shown[count]
        # One and five never read the same; in Russian two differs from both.
        assert shown[1] != shown[5], (singular, shown)
        if language == "ru":
            assert len(set(shown.values())) == 3, (singular, shown)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", sorted(EVENT_PLURALS))
def test_counted_events_say_their_count_in_the_right_form(language, kind):
    counted = EVENT_PLURALS[kind][0]
    catalog = translations(language)
    for count in COUNTS:
        event = {"type": kind, "seat": 1, "count": 2, "chips": 2, "lives": 2, "points": 2,
                 "total": 9, "left": 1, "pot": 9, "turns": 2, counted: count}
        text = event_message(catalog, event)
        assert str(count) in text
        assert not WRONG[language].search(text), text


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_half_point_is_written_one_way(language):
    catalog = translations(language)
    text = event_message(catalog, {"type": "shown", "seat": 0, "cards": ["AS", "AH", "AD"],
                                   "points": 30.5, "category": "three_of_a_kind"})
    assert "30½" in text and "30.5" not in text and "30,5" not in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_ships_each_plural_form_by_plural_category(language):
    app = create_app({"TESTING": True, "THIRTYONE_SECRET_KEY": "wording", "SITE_DIR": None})
    page = app.test_client().get(f"/play?lang={language}").text
    data = page.split('id="play-data">', 1)[1].split("</script>", 1)[0]
    plurals = json.loads(data)["plurals"]
    assert set(plurals) == set(PLURALS)
    expected = {"en": {"one", "other"}, "it": {"one", "other"}, "ru": {"one", "few", "many"}}
    for forms in plurals.values():
        assert expected[language] <= set(forms), forms
    if language == "ru":
        assert plurals["lives_n"]["one"] == "{count} жизнь"
        assert plurals["lives_n"]["few"] == "{count} жизни"
        assert plurals["lives_n"]["many"] == "{count} жизней"
