"""The site's languages and catalogs, shared by the hook's modules.

Strings the hook writes itself are translated through the ``site`` domain
(``translations/<lang>/LC_MESSAGES/site.po``); preset names, summaries, option descriptions,
hand categories and event messages are the engine's own English texts, looked up in the API's
``messages`` catalogs. Both are read straight from the ``.po`` files, so the site needs no
compile step. English is the source language: its ``site`` catalog stays empty and every
English string is its own message id.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po
from mkdocs.exceptions import PluginError
from mkdocs.structure.pages import Page

SITE = Path(__file__).resolve().parent.parent
ROOT = SITE.parent
TRANSLATIONS = ROOT / "translations"
LANGUAGES = ("ru", "it", "en")
"""Column order of every side-by-side text on a wide screen: the sources' languages first."""
DEFAULT_LANGUAGE = "en"

Gettext = Callable[[str], str]


@cache
def catalog(lang: str, domain: str) -> dict[str, str]:
    """The translated, non-fuzzy entries of one catalog (empty if the file is not there)."""
    path = TRANSLATIONS / lang / "LC_MESSAGES" / f"{domain}.po"
    if not path.exists():
        return {}
    with path.open("rb") as po:
        messages = read_po(po)
    return {
        message.id: message.string
        for message in messages
        if isinstance(message.id, str) and message.id and message.string and not message.fuzzy
    }


def site_gettext(lang: str) -> Gettext:
    """Translate the hook's own strings (domain ``site``), English when an entry is missing."""
    entries = catalog(lang, "site")
    return lambda message: entries.get(message, message)


def engine_gettext(lang: str) -> Gettext:
    """Translate the engine's ``N_`` strings (domain ``messages``), English when missing."""
    entries = catalog(lang, "messages")
    return lambda message: entries.get(message, message)


def page_language(page: Page) -> str:
    """The language tree a page lives in (``docs/<lang>/...``)."""
    lang = page.file.src_uri.split("/", 1)[0]
    if lang not in LANGUAGES:
        raise PluginError(f"{page.file.src_uri}: page outside the ru/it/en trees")
    return lang
