"""The rules site served beside the API (``make serve``): its static files compressed, cached
and revalidated, and its own 404 page in the reader's language.

- WhiteNoise answers the site's files before Flask routes anything else (``/ru/`` with
  ``/ru/index.html``). It sends the gzip or brotli copy that ``make site`` writes beside each
  file when the client takes it, an ``ETag`` with each file and a ``304`` to an
  ``If-None-Match`` that still holds. A file whose name carries its content's hash
  (``bundle.a5f9d56c.min.js``) never changes under that name: it is cached for a year; every
  other file (the pages, the search index) for a minute, then revalidated.
- A path that no file answers and that is not the API's (``/ru/presetz/``) gets the site's
  404 page in the language of its folder (``ru/404.html``) instead of the API's JSON problem;
  ``/v1/...``, ``/play``, ``/docs`` and the other paths of the app keep their own answers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from flask import Flask
from whitenoise import WhiteNoise

from thirtyone.web.security import Environ, StartResponse, WSGIApp
from thirtyone.words import LANGUAGES

_HASHED = re.compile(r"\.[0-9a-f]{8,}\.(?:min\.)?[a-z0-9]+$")
PAGE_MAX_AGE = 60
"""Seconds a page or another unhashed file is used before the browser revalidates it."""
LANGUAGE_FOLDERS = tuple(lang for lang in LANGUAGES if lang != LANGUAGES[0])
"""The site's language folders; English, the default language, lives at the root."""


def is_hashed(path: str, url: str = "") -> bool:
    """Whether a file's name carries its content's hash (WhiteNoise's ``immutable_file_test``).

    >>> is_hashed("", "/assets/javascripts/bundle.a5f9d56c.min.js")
    True
    >>> is_hashed("", "/assets/javascripts/lunr/min/lunr.ru.min.js")
    False
    """
    return bool(_HASHED.search(url or path))


def _api_prefixes(app: Flask) -> frozenset[str]:
    """The first segment of every path the app itself routes: ``v1``, ``play``, ``docs``..."""
    return frozenset(
        rule.rule.lstrip("/").split("/", 1)[0] for rule in app.url_map.iter_rules()
    ) - {""}


class SiteNotFound:
    """The site's own 404 page for a path outside the API that the app answers with 404."""

    def __init__(self, app: WSGIApp, site_dir: Path, api_prefixes: frozenset[str]) -> None:
        self.app = app
        self.pages = {
            lang: page.read_bytes()
            for lang in ("", *LANGUAGE_FOLDERS)
            if (page := site_dir / lang / "404.html").is_file()
        }
        self.api_prefixes = api_prefixes

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        path = environ.get("PATH_INFO") or "/"
        first = path.lstrip("/").split("/", 1)[0]
        if first in self.api_prefixes or "" not in self.pages:
            return self.app(environ, start_response)
        lang = first if first in self.pages else ""
        answered: list[Any] = []

        def catch(status: str, headers: list[tuple[str, str]], *args: Any) -> Any:
            answered.append(status)
            if status.startswith("404"):
                return lambda _data: None
            return start_response(status, headers, *args)

        body = self.app(environ, catch)
        if not answered or not answered[0].startswith("404"):
            return body
        if hasattr(body, "close"):
            body.close()
        page = self.pages[lang]
        start_response("404 Not Found", [
            ("Content-Type", "text/html; charset=utf-8"),
            ("Content-Length", str(len(page))),
            ("Content-Language", lang or "en"),
            ("Cache-Control", "no-cache"),
        ])
        return [] if environ.get("REQUEST_METHOD") == "HEAD" else [page]


def serve_site(app: Flask, wsgi: WSGIApp, site_dir: Path) -> WSGIApp:
    """``wsgi`` (the app) behind the rules site in ``site_dir``."""
    files = WhiteNoise(wsgi, root=str(site_dir), index_file=True, max_age=PAGE_MAX_AGE,
                       immutable_file_test=is_hashed)
    return SiteNotFound(files, site_dir, _api_prefixes(app))
