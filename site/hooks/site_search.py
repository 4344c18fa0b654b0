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
from pathlib import Path

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


def _depth(url: str) -> int:
    """How many folders below the site's root a page's URL lies."""
    return url.count("/")


def _relative(depth: int) -> str:
    return "../" * depth or "./"


def localize_page(output: str, page: Page) -> str:
    url = page.url
    if url == "404.html":
        return _ALTERNATE.sub("", output)
    depth = _depth(url)
    output = _ALTERNATE.sub("", output)
    output = _ROOT_LINK.sub(lambda match: match[1] + _relative(depth), output)
    lang = url.split("/", 1)[0]
    if lang not in OTHER_LANGUAGES:
        return output

    def rebase(match: re.Match[str]) -> str:
        config = json.loads(match[2])
        # The page's language folder lies one level above the site's root.
        config["base"] = _relative(depth - 1).rstrip("/") or "."
        return match[1] + json.dumps(config) + match[3]

    return _CONFIG.sub(rebase, output, count=1)


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
