"""Languages of the API: locale selection, message catalogs, and localized game words.

The engine marks its English texts with ``N_`` and never translates; this module looks the
same texts up in the ``messages`` catalogs of the request's language. The language comes from
``?lang=``, then ``Accept-Language``, then English.

Catalogs are read from ``translations/`` beside the package (a wheel) or at the top of the
repository (an editable install). A compiled ``.mo`` is used when it is at least as new as its
``.po``; otherwise the ``.po`` is compiled in memory, so a fresh checkout localizes before
``make translations`` has run.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import flask_babel
from babel import Locale
from babel.support import NullTranslations, Translations
from flask import Flask, current_app, has_request_context, request

from thirtyone import words
from thirtyone.cards import SUIT_NAMES, Card
from thirtyone.words import DOMAIN, LANGUAGES, compiled_catalog, translations_directory

_LOCALES: dict[str, Locale] = {language: Locale.parse(language) for language in LANGUAGES}
_NULL = NullTranslations()
_log = logging.getLogger(__name__)

# Where a request keeps its language and catalog once chosen: its WSGI environ, which lives as
# long as the request and no longer.
_LANGUAGE_KEY = "thirtyone.language"
_CATALOG_KEY = "thirtyone.catalog"

def load_catalogs(directory: Path, domain: str = DOMAIN) -> dict[str, NullTranslations]:
    """One Babel translations object per language (flask-babel asks for ``ugettext``), read
    by the one loader, :func:`thirtyone.words.compiled_catalog`."""
    catalogs: dict[str, NullTranslations] = {}
    for language in LANGUAGES:
        compiled = compiled_catalog(directory, language, domain)
        catalogs[language] = _NULL if compiled is None else Translations(compiled, domain=domain)
    return catalogs


def select_locale() -> Locale:
    """``?lang=`` when it names a language we speak, then ``Accept-Language``, then English.

    flask-babel asks once per request; the choice is also kept in the request's WSGI environ,
    where :func:`catalog` and the ``Content-Language`` header find it without asking again.
    """
    locale = _choose_locale()
    if has_request_context():
        request.environ[_LANGUAGE_KEY] = locale.language
    return locale


def _choose_locale() -> Locale:
    # This runs on every request: each source is parsed only when the request has it.
    environ = request.environ
    if environ.get("QUERY_STRING"):
        wanted = request.args.get("lang")
        if wanted:
            locale = _LOCALES.get(wanted.split("-")[0].lower())
            if locale is not None:
                return locale
    if environ.get("HTTP_ACCEPT_LANGUAGE"):
        best = request.accept_languages.best_match(LANGUAGES)
        if best:
            return _LOCALES[best]
    return _LOCALES[LANGUAGES[0]]


def language() -> str:
    """The request's language, chosen by flask-babel (through :func:`select_locale`)."""
    language = request.environ.get(_LANGUAGE_KEY)
    if language is None:
        return str(flask_babel.get_locale().language)
    return str(language)


def init_app(app: Flask) -> None:
    """Install flask-babel with our catalogs and announce the language of every response."""
    directory = Path(app.config.get("TRANSLATIONS_DIR") or translations_directory())
    # flask-babel chooses the request's language; the catalogs are loaded once, here, and
    # read by :func:`catalog` (flask-babel's own gettext, which would read them from folders
    # at its first use, is not called).
    flask_babel.Babel(app, locale_selector=select_locale, configure_jinja=False)
    app.extensions["thirtyone.catalogs"] = load_catalogs(directory)

    @app.after_request
    def announce_language(response: Any) -> Any:
        headers = response.headers
        headers.add("Content-Language", language())
        # As text: ``response.vary`` parses and rebuilds the header on every answer.
        vary = headers.get("Vary")
        if vary:
            headers["Vary"] = f"{vary}, Accept-Language"
        else:
            headers.add("Vary", "Accept-Language")
        return response


def catalog() -> NullTranslations:
    """The request's catalog, as flask-babel chose it; looked up once per request, since a
    scored hand alone asks for a dozen translations."""
    if not has_request_context():
        return _NULL
    environ = request.environ
    found: NullTranslations | None = environ.get(_CATALOG_KEY)
    if found is None:
        catalogs = current_app.extensions["thirtyone.catalogs"]
        found = environ[_CATALOG_KEY] = catalogs.get(language(), _NULL)
    return found


def gettext(message: str) -> str:
    """``message`` in the request's language (the English text when it has no translation)."""
    return catalog().ugettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    return catalog().ungettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    return catalog().upgettext(context, message)


def format_message(template: str, params: Mapping[str, Any] | None = None) -> str:
    """Translate an engine template and fill it with its params (see
    :func:`thirtyone.words.format_message`)."""
    return words.format_message(catalog(), template, params)


def describe_move(move: Mapping[str, Any], seen: Mapping[str, Any]) -> str:
    """A legal move in words of the request's language (see
    :func:`thirtyone.words.describe_move`)."""
    return words.describe_move(catalog(), move, seen)


def card_name(card: str | Card) -> str:
    """A card's name in the request's language: "ace of spades", "туз пик", "asso di picche"."""
    return words.card_name(catalog(), card)


def suit_name(suit: str) -> str:
    return gettext(SUIT_NAMES[suit])


def points_text(points: float) -> str:
    """ "31 points", "31 очко", "30½ points"."""
    return words.points_text(catalog(), points)
