"""The offline archive (`make site-zip`): unpacked and opened from disk, every link lands on a
page, in Chromium and in the files themselves."""

from __future__ import annotations

import subprocess
import zipfile
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a" and (href := dict(attrs).get("href")):
            self.hrefs.append(href)


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("offline")
    archive = work / "site.zip"
    result = subprocess.run(
        ["make", "-s", "site-zip", f"SITE_ZIP={archive}", f"OFFLINE_DIR={work / 'build'}"],
        cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    with zipfile.ZipFile(archive) as zipped:
        zipped.extractall(work / "unpacked")
    return work / "unpacked" / "site"


def _target(page: Path, href: str) -> Path | None:
    """The file a relative link of ``page`` opens, or None for another site or the page."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or not parts.path:
        return None
    return (page.parent / unquote(parts.path)).resolve()


def test_every_link_of_the_archive_names_a_page(unpacked: Path) -> None:
    pages = sorted(unpacked.rglob("*.html"))
    assert len(pages) > 100
    broken: dict[str, list[str]] = {}
    for page in pages:
        links = _Links()
        links.feed(page.read_text(encoding="utf-8"))
        for href in links.hrefs:
            target = _target(page, href)
            # A link to a folder opens a directory listing from disk: each must name a file.
            if target is not None and not target.is_file():
                broken.setdefault(str(page.relative_to(unpacked)), []).append(href)
    assert not broken, dict(list(broken.items())[:5])


def test_archive_opened_from_disk_in_a_browser(chromium: Any, unpacked: Path) -> None:
    page = chromium.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(15_000)
    try:
        for start in ("index.html", "ru/index.html", "it/index.html"):
            page.goto((unpacked / start).as_uri(), wait_until="load")
            tabs = page.eval_on_selector_all(".md-tabs__link", "links => links.map(a => a.href)")
            assert len(tabs) >= 8, tabs
            for href in tabs:
                page.goto(href, wait_until="load")
                assert href.startswith("file://") and href.split("#")[0].endswith(".html"), href
                assert page.locator("article h1").count() == 1, href
            # The language switch leads to the other language's page, a file too.
            switch = page.eval_on_selector_all(
                ".md-select__link[hreflang]", "links => links.map(a => a.href)")
            for href in switch:
                page.goto(href, wait_until="load")
                assert page.locator("article h1").count() == 1, href
    finally:
        page.close()
