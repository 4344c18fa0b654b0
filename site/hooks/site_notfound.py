"""Each language's 404 page: ``404.html`` at the root (English), ``ru/404.html`` and
``it/404.html``, written from that language's ``not-found.md``.

The theme's own 404 page is English whatever the address. A 404 page is answered at any depth
(``/ru/presets/typo/``), so the links of each language's page are made absolute from the
site's path (the path of ``site_url``); the page at ``<lang>/not-found/`` itself keeps its
relative links.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.pages import Page

NOT_FOUND = "not-found"
"""The stem of each language's page behind its 404.html."""

_LINK = re.compile(r'(\b(?:href|src)=")([^"]*)"')
_CONFIG = re.compile(r'(<script id="__config" type="application/json">)(.*?)(</script>)',
                     re.DOTALL)
_EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|/|#)", re.IGNORECASE)


def is_not_found(page: Page) -> bool:
    return page.url.rstrip("/").rsplit("/", 1)[-1] == NOT_FOUND


def absolute_links(output: str, page_url: str, site_path: str) -> str:
    """``output`` (a page at ``page_url``) with every relative link made absolute."""
    here = site_path + page_url

    def absolute(href: str) -> str:
        return href if not href or _EXTERNAL.match(href) else urljoin(here, href)

    output = _LINK.sub(lambda match: f'{match[1]}{absolute(match[2])}"', output)

    def rebase(match: re.Match[str]) -> str:
        config = json.loads(match[2])
        config["base"] = absolute(config["base"].rstrip("/") + "/").rstrip("/") or "/"
        config["search"] = absolute(config["search"])
        return match[1] + json.dumps(config) + match[3]

    return _CONFIG.sub(rebase, output, count=1)


PAGES: dict[Path, str] = {}
"""Each language's 404 page by the file it is written to, kept until the build is over."""


def keep_404(output: str, page: Page, config: MkDocsConfig) -> None:
    """Keep ``page`` (a ``not-found`` page) as its language's 404.html, for
    :func:`write_404s`."""
    site_path = urlsplit(config.site_url or "/").path or "/"
    if not site_path.endswith("/"):
        site_path += "/"
    lang = page.url.split("/", 1)[0]
    prefix = "" if lang == NOT_FOUND else f"{lang}/"
    # The site's root: the page's output file less the address it is written at.
    dest = Path(page.file.abs_dest_path)
    root = dest.parents[len(Path(page.file.dest_uri).parts) - 1]
    PAGES[root / prefix / "404.html"] = absolute_links(output, page.url, site_path)


def write_404s() -> None:
    """Write every 404 page kept so far, over the theme's (English) one. The language plugin
    builds each language in a pass of its own, and each pass writes the theme's 404 page, so
    the pages are written again after every pass."""
    for target, page in PAGES.items():
        target.write_text(page, encoding="utf-8")

