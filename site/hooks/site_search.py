"""Relative links and one search index per language.

The language plugin builds ru and it into folders of one site and writes a single search
index for all three languages at the root, so a Russian reader's search listed the English
pages first and every page three times. After the build the index is split: each language
gets ``<lang>/search/search_index.json`` with its own pages and its own stemmer, and the ru
and it pages point the theme's search (its ``base``) at their language's folder.

The theme and the language plugin also write a few links from the site's root (``/ru/``);
they are made relative to the page, so the site can be served under any sub-path. The 404
page is the exception: it is served at any depth, so MkDocs writes it against ``site_url``
(set ``THIRTYONE_SITE_URL`` when the site lives under a sub-path).
"""

from __future__ import annotations

import json
import re
from html import escape
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.pages import Page

from site_i18n import DEFAULT_LANGUAGE, LANGUAGES

# The theme reads each head link to another language as that language's root and fetches a
# sitemap.xml beside it: three failing requests a page. The sitemap carries the pages'
# languages to search engines instead (hreflang), and the switcher links stay.
_ALTERNATE = re.compile(r'[ \t]*<link rel="alternate" href="[^"]*" hreflang="[^"]*">\n?')
_ROOT_LINK = re.compile(r'(\b(?:href|src)=")/(?!/)')
_CONFIG = re.compile(r'(<script id="__config" type="application/json">)(.*?)(</script>)',
                     re.DOTALL)
OTHER_LANGUAGES = tuple(lang for lang in LANGUAGES if lang != DEFAULT_LANGUAGE)
WORKERS = Path("assets") / "javascripts" / "workers"
STEMS_WORKER = "search-stems.js"
"""The theme's search worker wrapped (overrides/assets/javascripts/workers/search-stems.js)."""
_THEME_WORKER = re.compile(r'^const THEME_WORKER = "[^"]*";$', re.MULTILINE)
_CANONICAL = re.compile(r'[ \t]*<link rel="canonical" href="[^"]*">\n?')
CELL_SEPARATOR = " · "
"""Between two cells of a table row in a search snippet (rows become paragraphs)."""


def _keep_table_cells() -> None:
    """Make the theme's search parser keep a table's rows and cells apart.

    It keeps paragraphs and lists and drops every other tag, so a table row's cells ran
    together in a snippet ("Игроки 3–9 Колода 32 карты"). Each row now becomes a paragraph
    and its cells are parted by CELL_SEPARATOR. tests/site checks a snippet of a table.
    """
    from material.plugins.search.plugin import Parser

    if getattr(Parser, "_keeps_cells", False):
        return
    start, end, data = Parser.handle_starttag, Parser.handle_endtag, Parser.handle_data

    def _part_cells(self: Parser, text: str) -> None:
        # The separator goes before a cell's first words (or its first kept tag, <code>), so
        # an empty row or cell adds none.
        if getattr(self, "_new_cell", False) and not text.isspace() \
                and not self.skip.intersection(self.context):
            if self._row_has_text and self.section is not None:
                self.section.text.append(CELL_SEPARATOR)
            self._row_has_text = True
            self._new_cell = False

    def handle_starttag(self: Parser, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self._row_has_text = False
        if tag in ("td", "th"):
            self._new_cell = True
        elif tag in self.keep:
            _part_cells(self, "")
        start(self, "p" if tag == "tr" else tag, attrs)

    def handle_endtag(self: Parser, tag: str) -> None:
        end(self, "p" if tag == "tr" else tag)

    def handle_data(self: Parser, text: str) -> None:
        _part_cells(self, text)
        data(self, text)

    Parser.handle_starttag = handle_starttag
    Parser.handle_endtag = handle_endtag
    Parser.handle_data = handle_data
    Parser._keeps_cells = True


_keep_table_cells()


def _depth(url: str) -> int:
    """How many folders below the site's root a page's URL lies."""
    return url.count("/")


def _relative(depth: int) -> str:
    return "../" * depth or "./"


def localize_page(output: str, page: Page, canonical: bool = True) -> str:
    """``canonical`` is False when the site's address is not known (``THIRTYONE_SITE_URL``
    unset): a canonical link to 127.0.0.1 would tell search engines the page lives there."""
    url = page.url
    output = _ALTERNATE.sub("", output)
    if not canonical:
        output = _CANONICAL.sub("", output)
    if url == "404.html":
        return _CONFIG.sub(lambda match: _stems_worker(match, None), output, count=1)
    depth = _depth(url)
    output = _ROOT_LINK.sub(lambda match: match[1] + _relative(depth), output)
    lang = url.split("/", 1)[0]
    # The page's language folder lies one level above the site's root.
    base = (_relative(depth - 1).rstrip("/") or ".") if lang in OTHER_LANGUAGES else None
    return _CONFIG.sub(lambda match: _stems_worker(match, base), output, count=1)


_SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'


def name_search_dialog(output: str, name: str) -> str:
    """Give the theme's search dialog an accessible name (it has none: axe's
    aria-dialog-name); the build stops if the theme's markup changes."""
    if _SEARCH_DIALOG not in output:
        raise PluginError("the theme's search dialog is not where the hook expects it")
    return output.replace(_SEARCH_DIALOG, _SEARCH_DIALOG[:-1] + f' aria-label="{escape(name)}">', 1)


def _stems_worker(match: re.Match[str], base: str | None) -> str:
    """Point the page's search at the wrapped worker, and ru and it at their own index."""
    config = json.loads(match[2])
    folder, _, _ = str(config["search"]).rpartition("/")
    config["search"] = f"{folder}/{STEMS_WORKER}"
    if base is not None:
        config["base"] = base
    return match[1] + json.dumps(config) + match[3]


def write_stems_worker(site_dir: Path) -> None:
    """Fill in the name of the theme's worker (it changes with the theme's version)."""
    folder = site_dir / WORKERS
    theme = [path.name for path in folder.glob("search.*.min.js")]
    if len(theme) != 1:
        raise PluginError(f"{folder}: expected one theme search worker, found {theme}")
    target = folder / STEMS_WORKER
    text = target.read_text(encoding="utf-8")
    text, count = _THEME_WORKER.subn(f"const THEME_WORKER = {json.dumps(theme[0])};", text)
    if count != 1:
        raise PluginError(f"{target}: no THEME_WORKER line to fill in")
    target.write_text(text, encoding="utf-8")


def split_search_index(site_dir: Path) -> None:
    """Move each language's entries from the root index into that language's own index."""
    index_file = site_dir / "search" / "search_index.json"
    if not index_file.is_file():
        return
    index = json.loads(index_file.read_text(encoding="utf-8"))
    by_language: dict[str, list[dict[str, object]]] = {lang: [] for lang in LANGUAGES}
    for doc in index["docs"]:
        location = str(doc["location"])
        lang = location.split("/", 1)[0]
        if lang in OTHER_LANGUAGES:
            doc = {**doc, "location": location.removeprefix(f"{lang}/")}
        else:
            lang = DEFAULT_LANGUAGE
        by_language[lang].append(doc)
    for lang, docs in by_language.items():
        # A nested build sees only part of the site; the last pass sees it all.
        if not docs:
            continue
        folder = site_dir if lang == DEFAULT_LANGUAGE else site_dir / lang
        target = folder / "search" / "search_index.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        config = {**index["config"], "lang": [lang]}
        target.write_text(json.dumps({"config": config, "docs": docs}, ensure_ascii=False),
                          encoding="utf-8")
