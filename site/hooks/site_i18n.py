"""The site's languages and catalogs, shared by the hook's modules.

Strings the hook writes itself are translated through the ``site`` domain
(``translations/<lang>/LC_MESSAGES/site.po``); preset names, summaries, option descriptions,
hand categories and event messages are the engine's own English texts, looked up in the API's
``messages`` catalogs. Both are read straight from the ``.po`` files (compiled in memory), so
the site needs no compile step. English is the source language: its ``site`` catalog stays
empty and every English string is its own message id.

A sentence with a number goes through ``ngettext`` with the catalog's own plural forms
(three in Russian: 1 очко, 2 очка, 5 очков).
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from functools import cache
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.pages import Page

from thirtyone.words import LANGUAGES as ENGINE_LANGUAGES
from thirtyone.words import compiled_catalog

SITE = Path(__file__).resolve().parent.parent
ROOT = SITE.parent
TRANSLATIONS = ROOT / "translations"
DEFAULT_LANGUAGE = ENGINE_LANGUAGES[0]
LANGUAGES = (*(lang for lang in ENGINE_LANGUAGES if lang != DEFAULT_LANGUAGE), DEFAULT_LANGUAGE)
"""The engine's languages in the column order of every side-by-side text on a wide screen:
the sources' languages (ru, it) first, English last."""

Gettext = Callable[[str], str]

_directory_urls = True
"""False for the offline archive (``make site-zip``): every link names its page's file."""


def set_directory_urls(value: bool) -> None:
    global _directory_urls
    _directory_urls = value


def offline() -> bool:
    """True for the archive read from disk: no directory URLs, no server beside it."""
    return not _directory_urls


def sibling_href(stem: str) -> str:
    """A link, in raw HTML (which MkDocs leaves as it is), to the page ``<stem>.md`` in the
    same folder as the page that holds it."""
    return f"../{stem}/" if _directory_urls else f"{stem}.html"
NGettext = Callable[[str, str, int], str]


@cache
def translations(lang: str, domain: str) -> gettext.NullTranslations:
    """One catalog, compiled in memory from its ``.po`` file by the engine's one loader
    (translated, non-fuzzy entries; English from the message ids when the file or an entry is
    missing)."""
    compiled = compiled_catalog(TRANSLATIONS, lang, domain, use_mo=False)
    return gettext.NullTranslations() if compiled is None else gettext.GNUTranslations(compiled)


def site_gettext(lang: str) -> Gettext:
    """Translate the hook's own strings (domain ``site``), English when an entry is missing."""
    return translations(lang, "site").gettext


def site_ngettext(lang: str) -> NGettext:
    """The plural form of a hook's sentence for a count (domain ``site``)."""
    return translations(lang, "site").ngettext


def engine_gettext(lang: str) -> Gettext:
    """Translate the engine's ``N_`` strings (domain ``messages``), English when missing."""
    return translations(lang, "messages").gettext


def page_language(page: Page) -> str:
    """The language tree a page lives in (``docs/<lang>/...``)."""
    lang = page.file.src_uri.split("/", 1)[0]
    if lang not in LANGUAGES:
        raise PluginError(f"{page.file.src_uri}: page outside the ru/it/en trees")
    return lang


def points_text(points: float) -> str:
    """A hand's points as a player writes them: 31, 30½."""
    whole = int(points)
    return f"{whole}½" if points - whole == 0.5 else str(whole)


def plural_count(points: float) -> int:
    """The count that picks the plural form for ``points``: a whole number is itself; a
    fraction reads like 2 (Russian says «30½ очка», as «2 очка»; Italian and English use their
    plural)."""
    return int(points) if points == int(points) else 2
