"""The rules site: built once per session (per xdist worker) with ``--strict``, then checked.

The build fails on any warning, broken link or anchor; these tests check what a warning cannot:
every page in all three languages, a page per preset, the sources in three aligned columns, a
language switcher that stays on the page, search in every language, and that no sentence of a
source text was copied into the site.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml
from babel.messages.pofile import read_po

from thirtyone.rules import PRESETS

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"
DOCS = SITE / "docs"
TRANSLATIONS = ROOT / "translations"
SOURCES = ROOT.parent / "shared" / "sources"
LANGUAGES = ("en", "ru", "it")
COLUMNS = ["ru", "it", "en"]
SOURCE_PAGES = ("parlett", "handbook", "trentuno", "wikipedia")
COPIED_RUN = 12
"""No run of this many words of a source text may appear in the site."""
DEFAULT_LANGUAGE = "en"


@dataclass
class Built:
    """A finished build: its output folder and what MkDocs printed."""

    root: Path
    log: str

    def page(self, lang: str, page: str) -> Path:
        """The HTML file of ``page`` (a docs path such as ``presets/scat.md``) in ``lang``."""
        stem = page.removesuffix(".md")
        parts = [] if lang == DEFAULT_LANGUAGE else [lang]
        if stem == "index":
            return self.root.joinpath(*parts, "index.html")
        if stem.endswith("/index"):
            stem = stem.removesuffix("/index")
        return self.root.joinpath(*parts, stem, "index.html")


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(SITE / "mkdocs.yml"),
         "-d", str(out)],
        capture_output=True, text=True, env=env, cwd=ROOT, check=False,
    )
    log = result.stdout + result.stderr
    assert result.returncode == 0, log
    return Built(out, log)


def doc_pages() -> list[str]:
    """Every Markdown page of the English tree, as a docs path (``presets/scat.md``)."""
    base = DOCS / DEFAULT_LANGUAGE
    return sorted(path.relative_to(base).as_posix() for path in base.rglob("*.md"))


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    def text(self) -> str:
        return " ".join(
            child if isinstance(child, str) else child.text() for child in self.children
        )

    def elements(self) -> list[Node]:
        return [child for child in self.children if isinstance(child, Node)]

    def iter(self) -> list[Node]:
        found = [self]
        for child in self.elements():
            found += child.iter()
        return found

    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())


_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
         "track", "wbr"}


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {name: value or "" for name, value in attrs})
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse_html(path: Path) -> Node:
    builder = _TreeBuilder()
    builder.feed(path.read_text(encoding="utf-8"))
    return builder.root


def main_content(document: Node) -> Node:
    """The article of a Material page (without navigation, header and footer)."""
    return next(node for node in document.iter() if "md-content" in node.classes())


# -- Tests -----------------------------------------------------------------------------------


def test_build_is_quiet(built: Built) -> None:
    assert not [line for line in built.log.splitlines() if "WARNING" in line], built.log


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_exists_in_every_language(built: Built, lang: str) -> None:
    for page in doc_pages():
        assert (DOCS / lang / page).is_file(), f"{lang}/{page} is missing"
        assert built.page(lang, page).is_file(), f"{lang}/{page} was not built"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_preset_has_its_page(built: Built, lang: str) -> None:
    for preset in PRESETS.values():
        article = main_content(parse_html(built.page(lang, f"presets/{preset.id}.md")))
        text = article.text()
        assert preset.id in text
        tables = [node for node in article.iter() if node.tag == "table"]
        options = {
            row.elements()[0].text().strip()
            for table in tables for row in table.iter() if row.tag == "tr" and row.elements()
        }
        assert {spec.name for spec in preset.option_specs()} <= options
        assert "POST" in text or "/v1/games" in text


def test_option_tables_follow_the_engine(built: Built) -> None:
    article = main_content(parse_html(built.page("en", "presets/blitz.md")))
    rows = {
        cells[0].text().strip(): [cell.text().strip() for cell in cells]
        for row in article.iter() if row.tag == "tr" and (cells := row.elements())
        and cells[0].tag == "td"
    }
    for spec in PRESETS["blitz"].option_specs():
        assert rows[spec.name][2] == json.dumps(spec.default), spec.name


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("source", SOURCE_PAGES)
def test_source_pages_have_three_aligned_columns(built: Built, lang: str, source: str) -> None:
    article = main_content(parse_html(built.page(lang, f"sources/{source}.md")))
    grids = [node for node in article.iter() if "grid" in node.classes()]
    assert len(grids) >= 5
    for grid in grids:
        columns = grid.elements()
        assert [column.attrs.get("lang") for column in columns] == COLUMNS
        assert all(column.tag == "div" and column.text().strip() for column in columns)
    assert article.text().count("[0") >= 1, "the page must cite its source by id"


def _switcher_targets(built: Built, page_file: Path) -> dict[str, Path]:
    """Where each language of the switcher leads (the site is served at ``/``)."""
    document = parse_html(page_file)
    targets = {}
    for node in document.iter():
        if node.tag == "a" and "md-select__link" in node.classes():
            href = node.attrs["href"]
            base = built.root if href.startswith("/") else page_file.parent
            target = (base / href.lstrip("/")).resolve()
            targets[node.attrs["hreflang"]] = (
                target if href.endswith(".html") else target / "index.html"
            )
    return targets


@pytest.mark.parametrize("lang", LANGUAGES)
def test_language_switcher_stays_on_the_page(built: Built, lang: str) -> None:
    for page in doc_pages():
        targets = _switcher_targets(built, built.page(lang, page))
        assert set(targets) == set(LANGUAGES), page
        for other, target in targets.items():
            assert target == built.page(other, page).resolve(), (lang, page, other)


def test_search_covers_every_language(built: Built) -> None:
    index = json.loads((built.root / "search" / "search_index.json").read_text("utf-8"))
    assert set(LANGUAGES) <= set(index["config"]["lang"])
    assert re.match(index["config"]["separator"], " ")
    assert not re.search(index["config"]["separator"], "прикуп"), "Cyrillic words must stay whole"
    locations = {doc["location"].split("/", 1)[0] for doc in index["docs"]}
    assert {"ru", "it"} <= locations
    russian = " ".join(doc["text"] for doc in index["docs"] if doc["location"].startswith("ru/"))
    assert "прикуп" in russian


_WORD = re.compile(r"\w+(?:['’]\w+)*")


def _words(text: str) -> list[str]:
    return [word.casefold().replace("ё", "е") for word in _WORD.findall(text)]


def _site_text(built: Built) -> dict[str, list[str]]:
    texts = {}
    for path in built.root.rglob("*.html"):
        document = parse_html(path)
        for node in document.iter():
            if node.tag in ("script", "style"):
                node.children.clear()
        texts[path.relative_to(built.root).as_posix()] = _words(document.text())
    return texts


def _runs(words: list[str], length: int) -> set[tuple[str, ...]]:
    return {tuple(words[i:i + length]) for i in range(len(words) - length + 1)}


@pytest.mark.skipif(not SOURCES.is_dir(), reason="the source texts are not next to the repo")
def test_no_sentence_of_a_source_is_copied(built: Built) -> None:
    source_runs: set[tuple[str, ...]] = set()
    for path in sorted(SOURCES.glob("[0-9]*.txt")):
        source_runs |= _runs(_words(path.read_text(encoding="utf-8")), COPIED_RUN)
    assert source_runs
    copied = {
        page: " ".join(run)
        for page, words in _site_text(built).items()
        for run in _runs(words, COPIED_RUN) & source_runs
    }
    assert not copied, copied


def test_copy_check_would_catch_a_copy() -> None:
    sentence = "Если игрок не может поставить карты без превышения 31, он проигрывает совсем."
    assert _runs(_words(sentence), COPIED_RUN) & _runs(_words("x " + sentence), COPIED_RUN)


def _msgids(path: Path) -> set[str]:
    with path.open("rb") as po:
        return {message.id for message in read_po(po) if message.id}


def test_site_template_matches_a_fresh_extraction(tmp_path: Path) -> None:
    fresh = tmp_path / "site.pot"
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "extract", "-k", "_",
         "--no-default-keywords", "-o", str(fresh), str(SITE / "hooks" / "engine_pages.py")],
        check=True, capture_output=True,
    )
    assert _msgids(fresh) == _msgids(TRANSLATIONS / "site.pot")


@pytest.mark.parametrize("lang", ["ru", "it"])
def test_site_catalogs_are_complete(lang: str) -> None:
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "site.po").open("rb") as po:
        catalog = read_po(po)
    messages = [message for message in catalog if message.id]
    assert {message.id for message in messages} == _msgids(TRANSLATIONS / "site.pot")
    assert not [message.id for message in messages if not message.string or message.fuzzy]


@pytest.mark.parametrize("lang", ["ru", "it"])
def test_generated_strings_are_translated(built: Built, lang: str) -> None:
    text = main_content(parse_html(built.page(lang, "presets/scat.md"))).text()
    english = main_content(parse_html(built.page("en", "presets/scat.md"))).text()
    for label in ("Worked examples", "Playing through the API", "Variant id"):
        assert label in english
        assert label not in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_markdown_is_left_unrendered(built: Built, lang: str) -> None:
    for page in doc_pages():
        article = main_content(parse_html(built.page(lang, page)))
        for node in article.iter():
            if node.tag in ("code", "pre"):
                node.children.clear()
        text = article.text()
        assert "{{" not in text and "## " not in text and "!!!" not in text, (lang, page)


def test_api_reference_covers_the_contract(built: Built) -> None:
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    for lang in LANGUAGES:
        text = main_content(parse_html(built.page(lang, "api/reference.md"))).text()
        for path, item in spec["paths"].items():
            for method in item.keys() & {"get", "post", "put", "patch", "delete"}:
                assert f"{method.upper()} {path}" in " ".join(text.split()), (lang, path)
        for schema in spec["components"]["schemas"]:
            assert schema in text, (lang, schema)
