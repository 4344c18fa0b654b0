"""The rules site: built once per session (per xdist worker) with ``--strict``, then checked.

The build fails on any warning, broken link or anchor; these tests check what a warning cannot:
every page in all three languages, a page per preset, the sources in three aligned columns, a
language switcher that stays on the page, search in every language, and that no sentence of a
source text was copied into the site.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
import yaml
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from thirtyone.rules import OPTIONS, PRESETS, make_rules

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
    # The site's address unknown, as under `make site` without THIRTYONE_SITE_URL.
    env.pop("THIRTYONE_SITE_URL", None)
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


def front_matter(lang: str, page: str) -> dict[str, Any]:
    text = (DOCS / lang / page).read_text(encoding="utf-8")
    if not text.startswith("---\n"):
        return {}
    return yaml.safe_load(text[4:text.index("\n---\n", 4)]) or {}


def searched_pages(lang: str) -> list[str]:
    """The pages of the search index: all but those their front matter leaves out."""
    return [page for page in doc_pages()
            if not front_matter(lang, page).get("search", {}).get("exclude")]


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


def _search_index(built: Built, lang: str) -> dict[str, Any]:
    folder = built.root if lang == DEFAULT_LANGUAGE else built.root / lang
    return json.loads((folder / "search" / "search_index.json").read_text("utf-8"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_search_has_one_index_per_language(built: Built, lang: str) -> None:
    index = _search_index(built, lang)
    assert index["config"]["lang"] == [lang]
    assert re.match(index["config"]["separator"], " ")
    assert not re.search(index["config"]["separator"], "прикуп"), "Cyrillic words must stay whole"
    pages = [doc["location"] for doc in index["docs"] if "#" not in doc["location"]]
    assert len(pages) == len(set(pages)), "a page is indexed twice"
    # Every page of the language, and nothing of the others (locations are relative to the
    # language's folder, where the theme's search looks for them).
    assert len(pages) == len(searched_pages(lang))
    assert not [page for page in pages if page.split("/", 1)[0] in LANGUAGES]
    # The theme on each page of the language reads that language's index.
    document = built.page(lang, "presets/scat.md")
    config = json.loads(re.search(r'<script id="__config"[^>]*>(.*?)</script>',
                                  document.read_text("utf-8"), re.DOTALL)[1])
    index_file = (document.parent / config["base"] / "search" / "search_index.json").resolve()
    assert json.loads(index_file.read_text("utf-8")) == index


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


def _originals() -> dict[str, dict[str, Any]]:
    rows = yaml.safe_load((SITE / "data" / "originals.yml").read_text(encoding="utf-8"))
    return {row["page"]: row for row in rows}


def _licensed_original(page: str) -> bool:
    """The page of an original whose licence lets the site show its text (Wikipedia's)."""
    match = re.fullmatch(r"(?:(?:ru|it)/)?sources/originals/([a-z]+)/index\.html", page)
    return match is not None and "text" in _originals()[match[1]]


@pytest.mark.skipif(not SOURCES.is_dir(), reason="the source texts are not next to the repo")
def test_no_sentence_of_a_source_is_copied(built: Built) -> None:
    source_runs: set[tuple[str, ...]] = set()
    for path in sorted(SOURCES.glob("[0-9]*.txt")):
        source_runs |= _runs(_words(path.read_text(encoding="utf-8")), COPIED_RUN)
    assert source_runs
    # The copyrighted sources are retold, never copied: only a licensed original is shown.
    copied = {
        page: " ".join(run)
        for page, words in _site_text(built).items() if not _licensed_original(page)
        for run in _runs(words, COPIED_RUN) & source_runs
    }
    assert not copied, copied


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("source", SOURCE_PAGES)
def test_each_retold_source_links_to_its_original(built: Built, lang: str, source: str) -> None:
    retold = built.page(lang, f"sources/{source}.md")
    links = [href for href in _hrefs(retold) if f"originals/{source}/" in href]
    assert links, (lang, source)
    original = built.page(lang, f"sources/originals/{source}.md")
    document = parse_html(original)
    article = main_content(document)
    row = _originals()[source]
    assert row["cite"][lang] in " ".join(article.text().split())
    shown = [node for node in article.iter() if "original" in node.classes()]
    if "text" in row:
        # Shown in its own language, marked so, as the copy the rules were read from.
        assert [node.attrs["lang"] for node in shown] == [row["language"]]
        text = (SITE / "data" / row["text"]).read_text(encoding="utf-8")
        first = next(line.strip() for line in text.splitlines() if line.strip())
        assert first in shown[0].text()
    else:
        assert not shown


def test_wikipedia_is_cited_by_its_own_title_outside_russian(built: Built) -> None:
    for lang in LANGUAGES:
        text = main_content(parse_html(built.page(lang, "presets/scat.md"))).text()
        if lang == "ru":
            assert "Тридцать один (карточная игра)" in text
        else:
            assert "Thirty-one (card game)" in text and "Тридцать один (" not in text


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
         "-k", "ngettext:1,2", "--no-default-keywords", "-o", str(fresh), str(SITE / "hooks")],
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


# -- One language per page -------------------------------------------------------------------

_PLACEHOLDER = re.compile(r"\{[^}]*\}|[*`\[\]()«»\"“”:;,.!?—–]+")
MIN_FRAGMENT_WORDS = 3
"""A foreign catalog text is looked for by its runs of this many words or more (shorter runs,
"Scat" or "API", are shared by every language); one- and two-word texts are looked for as the
whole text of a table cell, heading or label."""


@cache
def _catalog_texts(lang: str) -> dict[str, str]:
    """Every generated text of ``lang`` by message id (``site`` and ``messages`` domains);
    English is the source language, so its text is the id itself."""
    texts: dict[str, str] = {}
    for domain in ("messages", "site"):
        with (TRANSLATIONS / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as po:
            for message in read_po(po):
                if isinstance(message.id, str) and message.id:
                    texts[message.id] = message.id if lang == "en" else message.string
                elif isinstance(message.id, tuple):
                    # A plural entry: each form under its own key (the ids, then "id #n").
                    forms = message.id if lang == "en" else message.string
                    texts[message.id[0]] = forms[0]
                    texts[message.id[1]] = forms[-1]
                    for number, form in enumerate(forms[1:-1], 1):
                        texts[f"{message.id[1]} #{number}"] = form
    return texts


@cache
def _foreign_texts(lang: str) -> tuple[frozenset[str], frozenset[str]]:
    """What another language's catalogs say where ``lang``'s say something else: runs of
    words to find anywhere, and short texts to find as a whole element."""
    own = _catalog_texts(lang)
    runs, short = set(), set()
    for other in LANGUAGES:
        if other == lang:
            continue
        for message_id, text in _catalog_texts(other).items():
            if not text or text == own.get(message_id, message_id):
                continue
            fragments = [" ".join(part.split()) for part in _PLACEHOLDER.split(text)]
            runs |= {part for part in fragments if len(part.split()) >= MIN_FRAGMENT_WORDS}
            if len(text.split()) < MIN_FRAGMENT_WORDS and not _PLACEHOLDER.search(text):
                short.add(text)
    mine = {" ".join(text.split()) for text in own.values()}
    return frozenset(runs - mine), frozenset(short - mine)


def _own_language_text(article: Node, lang: str) -> Node:
    """The article without code, names marked untranslatable, and the parts marked as written
    in another language (the sources' columns, the API contract's English)."""
    for node in article.iter():
        if node.tag in ("code", "pre", "script", "style") or (
            node.attrs.get("lang", lang) != lang or node.attrs.get("translate") == "no"
        ):
            node.children.clear()
    return article


def foreign_strings(article: Node, lang: str) -> list[str]:
    runs, short = _foreign_texts(lang)
    article = _own_language_text(article, lang)
    text = " ".join(article.text().split())
    found = [run for run in runs if run in text]
    # A run found inside a longer one found is the same foreign text, counted once.
    found = [run for run in found if not any(run != other and run in other for other in found)]
    found += [
        cell for node in article.iter()
        if node.tag in ("th", "td", "h1", "h2", "h3", "strong", "figcaption", "a")
        and (cell := " ".join(node.text().split())) in short
    ]
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_page_carries_another_languages_strings(built: Built, lang: str) -> None:
    found = {
        page: hits for page in doc_pages()
        if (hits := foreign_strings(main_content(parse_html(built.page(lang, page))), lang))
    }
    assert not found, found


def test_language_check_would_catch_a_foreign_string() -> None:
    italian = _catalog_texts("it")
    page = Node("article", {}, [
        Node("table", {}, [Node("tr", {}, [Node("th", {}, [italian["Parameter"]])])]),
        Node("p", {}, [f"Game flow: widow — {italian['exchange cards with the table']}"]),
    ])
    found = foreign_strings(page, "en")
    assert italian["Parameter"] in found
    assert italian["exchange cards with the table"] in found
    english = Node("article", {}, [Node("p", {}, ["exchange cards with the table"])])
    assert foreign_strings(english, "en") == []
    assert "exchange cards with the table" in foreign_strings(english, "ru")


def heading_text(heading: Node) -> str:
    """A heading's words, without its permalink (¶)."""
    return " ".join(" ".join(
        child if isinstance(child, str) else child.text()
        for child in heading.children
        if isinstance(child, str) or "headerlink" not in child.classes()
    ).split())


def _facts_name(article: Node, label: str) -> str:
    for row in article.iter():
        cells = row.elements() if row.tag == "tr" else []
        if len(cells) == 2 and cells[0].text().strip() == label:
            return " ".join(cells[1].text().split())
    raise AssertionError(f"no {label!r} row")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_preset_title_is_its_name(built: Built, lang: str) -> None:
    label = _catalog_texts(lang)["Name"]
    for preset in PRESETS.values():
        article = main_content(parse_html(built.page(lang, f"presets/{preset.id}.md")))
        title = next(node for node in article.iter() if node.tag == "h1")
        name = heading_text(title)
        assert name == _facts_name(article, label), (lang, preset.id)
        assert name == (_catalog_texts(lang)[preset.name] or preset.name), (lang, preset.id)


# -- Generated pages -------------------------------------------------------------------------


def _hooks() -> Any:
    """The hook's modules, imported as MkDocs imports them (from their own folder)."""
    sys.path.insert(0, str(SITE / "hooks"))
    try:
        import site_variants
        import site_walkthrough
    finally:
        sys.path.remove(str(SITE / "hooks"))
    return site_variants, site_walkthrough


@pytest.mark.parametrize("lang", LANGUAGES)
def test_first_game_is_a_round_played_by_the_engine(built: Built, lang: str) -> None:
    _variants, walkthrough = _hooks()
    game = walkthrough.first_round()
    article = main_content(parse_html(built.page(lang, "first-game.md")))
    figures = [node for node in article.iter() if node.tag == "figure"]
    # The hands dealt and the table, one hand per turn, the hands shown.
    assert len(figures) == game.start.players + 1 + len(game.turns) + game.start.players
    cards = [node for node in article.iter() if node.tag == "svg"]
    assert len(cards) == 3 * (len(figures) - 1) + 2
    labels = [node.attrs["aria-label"] for node in cards if "aria-label" in node.attrs]
    last = game.end.result["hands"][-1]["cards"]
    english = [walkthrough.card_label(code, lang) for code in last]
    assert labels[-3:] == english
    assert str(game.seed) in article.text()
    assert any(move["type"] == "knock" for turn in game.turns for move in turn.moves)
    assert game.end.result["reason"] == "showdown"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_comparison_has_every_preset(built: Built, lang: str) -> None:
    variants, _walkthrough = _hooks()
    page = built.page(lang, "presets/comparison.md")
    article = main_content(parse_html(page))
    rows = [node for node in article.iter() if node.tag == "tr" and node.elements()[0].tag == "td"]
    assert len(rows) == len(PRESETS)
    blitz = _catalog_texts(lang)["blitz: any 31 in one suit"]
    for row, preset in zip(rows, PRESETS.values(), strict=True):
        cells = row.elements()
        assert len(cells) == 7 and all(cell.attrs.get("data-label") for cell in cells)
        link = next(node for node in cells[0].iter() if node.tag == "a")
        assert (page.parent / link.attrs["href"] / "index.html").resolve() == built.page(
            lang, f"presets/{preset.id}.md").resolve()
        special = cells[6].text()
        assert (blitz in special) == (variants.has_blitz(preset) and
                                      preset.rules.blitz == "any-31"), preset.id


def _words_of(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_schwimmen_row_tells_feuer_and_passing(built: Built, lang: str) -> None:
    article = main_content(parse_html(built.page(lang, "presets/comparison.md")))
    row = next(node for node in article.iter() if node.tag == "tr" and any(
        link.attrs.get("href") == "../schwimmen/" for link in node.iter() if link.tag == "a"))
    cells = [_words_of(cell.text()) for cell in row.elements()]
    texts = _catalog_texts(lang)
    feuer = texts["Feuer (three aces), shown at once: every other player loses a life"]
    assert _words_of(feuer) in cells[4]
    variants, _walkthrough = _hooks()
    feuer_hand = variants.site_ngettext(lang)(
        "three aces are Feuer, worth {points} point, and end the round at once",
        "three aces are Feuer, worth {points} points, and end the round at once", 33)
    assert _words_of(feuer_hand.format(points=33)) in cells[6]
    passing = texts["{flow}, or pass; after a full round of passes the table cards go out of "
                    "play and three new ones are laid from the stock"]
    assert _words_of(passing.split("{flow}")[1]) in cells[3]
    short = texts["a full round of passes with fewer than three cards left in the stock: the "
                  "showdown"]
    assert _words_of(short) in cells[4]


class _HouseRules:
    """A preset played with other options: what the site's descriptions read of it."""

    def __init__(self, preset_id: str, options: dict[str, Any]) -> None:
        self.preset = PRESETS[preset_id]
        self.rules = make_rules(preset_id, options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.preset, name)


@pytest.mark.parametrize(("preset_id", "option"), [
    ("schwimmen", "three_aces_fire"), ("schwimmen", "on_31"),
    ("schwimmen", "knock_first_round"), ("scat", "knock_first_round"),
    ("scat", "knocker_ties"), ("schwimmen", "knocker_ties"), ("scat", "blitz_after_knock"),
    ("scat", "stock_exhausted"), ("stop-the-bus", "brag_order"),
    ("schwimmen", "fire"), ("scat", "losers"), ("schwimmen", "spare_hand_to"),
    ("trentuno-40", "knocker_caught"), ("trentuno-40", "deal_passes"),
])
def test_every_value_of_a_rules_option_reads_differently(preset_id: str, option: str) -> None:
    variants, _walkthrough = _hooks()
    choices = OPTIONS[option].choices or (False, True)
    texts = set()
    for value in choices:
        preset = _HouseRules(preset_id, {option: value})
        texts.add(" | ".join([
            variants.flow(preset, "en"), variants.play_order(preset, "en"),
            *variants.round_ends(preset, "en"),
            variants.settlement(preset, "en"), *variants.special_hands(preset, "en"),
        ]))
    assert len(texts) == len(choices), (preset_id, option)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_summaries_cover_every_preset(built: Built, lang: str) -> None:
    variants, _walkthrough = _hooks()
    article = main_content(parse_html(built.page(lang, "presets/summaries.md")))
    sheets = [node for node in article.iter() if "summary" in node.classes()]
    assert [sheet.attrs["id"] for sheet in sheets] == list(PRESETS)
    for sheet, preset in zip(sheets, PRESETS.values(), strict=True):
        heading = next(node for node in sheet.iter() if node.tag == "h2")
        assert heading_text(heading) == _catalog_texts(lang)[preset.name]
        # The page's own rules follow the facts: their first words are on the sheet.
        rules = re.sub(r"\[([^]]*)\]\([^)]*\)", r"\1", variants.rules_text(preset, lang))
        rules = re.sub(r"^\s*- |[*`]", "", rules, flags=re.MULTILINE)
        assert "".join(rules.split()[:6]) in "".join(sheet.text().split()), preset.id


def _example_categories(built: Built, lang: str, preset: str) -> set[str]:
    """The categories of the worked examples' hands (the five-column table)."""
    article = main_content(parse_html(built.page(lang, f"presets/{preset}.md")))
    return {
        cells[2].text().strip() for row in article.iter()
        if row.tag == "tr" and len(cells := row.elements()) == 5 and cells[0].tag == "td"
    }


@pytest.mark.parametrize("lang", LANGUAGES)
def test_only_presets_with_a_blitz_call_a_31_one(built: Built, lang: str) -> None:
    variants, _walkthrough = _hooks()
    blitz = _catalog_texts(lang)["Blitz"]
    for preset in PRESETS.values():
        categories = _example_categories(built, lang, preset.id)
        if preset.family.value != "race" and preset.rules.ranking != "brag":
            assert categories, preset.id
        assert (blitz in categories) <= variants.has_blitz(preset), preset.id
    assert blitz in _example_categories(built, lang, "scat")


def _hrefs(path: Path) -> list[str]:
    return [node.attrs.get("href") or node.attrs.get("src", "")
            for node in parse_html(path).iter() if node.tag in ("a", "link", "script", "img")]


def test_links_are_relative(built: Built) -> None:
    rooted = {
        path.relative_to(built.root).as_posix(): href
        for path in built.root.rglob("*.html") if path.name != "404.html"
        for href in _hrefs(path) if href.startswith("/") and not href.startswith("//")
    }
    assert not rooted, rooted


@pytest.mark.parametrize("lang", LANGUAGES)
def test_play_links(built: Built, lang: str) -> None:
    home = built.page(lang, "index.md")
    plays = [href for href in _hrefs(home) if "play?" in href]
    assert plays and all(
        (home.parent / href.split("?")[0]).resolve() == (built.root / "play").resolve()
        and f"lang={lang}" in href for href in plays
    )
    for preset in PRESETS.values():
        page = built.page(lang, f"presets/{preset.id}.md")
        [href] = [href for href in _hrefs(page) if "play?" in href]
        target, query = href.split("?")
        assert (page.parent / target).resolve() == (built.root / "play").resolve()
        players = dict(part.split("=") for part in query.split("&"))
        seats = int(players["players"])
        assert players == {"variant": preset.id, "players": str(seats), "lang": lang,
                           "bots": ",".join(map(str, range(1, seats)))}
        assert preset.players[0] <= seats <= preset.players[1]


# -- In a browser ----------------------------------------------------------------------------

NEW_PAGES = ("first-game.md", "strategy.md", "history.md", "presets/scat.md",
             "presets/comparison.md", "presets/summaries.md", "presets/cut-throat.md",
             "api/engine.md")
"""The pages made or fixed for readers on phones and desktops: screenshots of each."""
VIEWPORTS = {"desktop": (1280, 900), "phone": (390, 844)}
SUB_PATH = "/thirtyone/"
"""The site is served under a sub-path in the browser tests: every link must hold there."""
AA_CONTRAST = 4.5


def _static_site(root: Path) -> Any:
    """The built site as a WSGI app under SUB_PATH (whitenoise, as `make serve` serves it)."""
    from whitenoise import WhiteNoise

    def not_found(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        start_response("404 Not Found", [("Content-Type", "text/plain")])
        return [b"not found"]

    return WhiteNoise(not_found, root=str(root), prefix=SUB_PATH.strip("/") + "/",
                      index_file=True)


def _url(base: str, lang: str, page: str) -> str:
    stem = page.removesuffix(".md").removesuffix("index")
    prefix = "" if lang == DEFAULT_LANGUAGE else f"{lang}/"
    return f"{base}{SUB_PATH}{prefix}{stem}/".replace("//", "/").replace(":/", "://")


@pytest.fixture
def served(built: Built, live_server: Any) -> str:
    return live_server(_static_site(built.root))


def _open(chromium: Any, url: str, viewport: str, failures: list[str]) -> Any:
    width, height = VIEWPORTS[viewport]
    page = chromium.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(15_000)
    # The theme probes a sitemap.xml beside each language's version of the page (for its
    # instant navigation, which the site does not use); a missing one is expected.
    page.on("response", lambda response: failures.append(f"{response.status} {response.url}")
            if response.status >= 400 and not response.url.endswith("/sitemap.xml") else None)
    page.goto(url, wait_until="load")
    return page


_TABLES_OVERFLOW = """() => {
    // The page never scrolls sideways; a table wider than the screen must sit in a frame of
    // its own that scrolls (the theme's .md-typeset__scrollwrap).
    const width = document.documentElement.clientWidth;
    const scrolls = element => ['auto', 'scroll'].includes(getComputedStyle(element).overflowX);
    const framed = table => {
        for (let parent = table.parentElement; parent; parent = parent.parentElement)
            if (scrolls(parent) && parent.getBoundingClientRect().right <= width + 1) return true;
        return false;
    };
    const wide = Array.from(document.querySelectorAll('.md-content table'))
        .filter(table => table.getBoundingClientRect().right > width + 1 && !framed(table));
    // A frame that scrolls says so (a visible cue) and takes keyboard focus (arrow keys).
    const unmarked = Array.from(document.querySelectorAll('.md-typeset__scrollwrap'))
        .filter(frame => frame.scrollWidth > frame.clientWidth + 1)
        .filter(frame => frame.tabIndex !== 0 || !frame.getAttribute('aria-label')
            || getComputedStyle(frame, '::before').content.length < 4);
    return [document.documentElement.scrollWidth - width, wide.length, unmarked.length];
}"""


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
def test_new_pages_in_a_browser(chromium: Any, served: str, artifacts: Path, lang: str) -> None:
    failures: list[str] = []
    for doc in NEW_PAGES:
        for viewport in VIEWPORTS:
            page = _open(chromium, _url(served, lang, doc), viewport, failures)
            try:
                assert page.locator("h1").count() == 1
                if viewport == "phone":
                    assert page.evaluate(_TABLES_OVERFLOW) == [0, 0, 0], (doc, lang)
                name = doc.removesuffix(".md").replace("/", "-")
                page.screenshot(path=str(artifacts / f"site-{lang}-{name}-{viewport}.png"),
                                full_page=True)
            finally:
                page.close()
    assert not failures, failures


_COLUMNS_FROM_THE_TOP = """() => Array.from(document.querySelector('.grid.parallel').children)
    .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)
    .map(column => column.lang)"""


_VISIBLE_COLUMNS = """() => Array.from(document.querySelector('.grid.parallel').children)
    .filter(column => column.getBoundingClientRect().height > 0)
    .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top
        || a.getBoundingClientRect().left - b.getBoundingClientRect().left)
    .map(column => column.lang)"""


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
def test_parallel_view_puts_the_reader_first_and_lets_them_choose(
        chromium: Any, served: str, lang: str) -> None:
    failures: list[str] = []
    others = [other for other in COLUMNS if other != lang]
    url = _url(served, lang, "sources/parlett.md")
    # A phone starts with the reader's language alone; the other two are a tap away.
    page = _open(chromium, url, "phone", failures)
    try:
        assert page.evaluate(_VISIBLE_COLUMNS) == [lang]
        boxes = page.locator("fieldset.parallel-languages input[type=checkbox]")
        assert [boxes.nth(i).get_attribute("value") for i in range(boxes.count())] == others
        assert not any(boxes.nth(i).is_checked() for i in range(boxes.count()))
        page.check(f"fieldset.parallel-languages input[value={others[1]}]")
        assert page.evaluate(_VISIBLE_COLUMNS) == [lang, others[1]]
        # Remembered: the next page of sources opens the same way.
        page.goto(_url(served, lang, "sources/handbook.md"), wait_until="load")
        assert page.evaluate(_VISIBLE_COLUMNS) == [lang, others[1]]
        page.uncheck(f"fieldset.parallel-languages input[value={others[1]}]")
        page.reload(wait_until="load")
        assert page.evaluate(_VISIBLE_COLUMNS) == [lang]
    finally:
        page.close()
    # A wide screen shows the three, side by side, the reader's first (leftmost).
    page = _open(chromium, url, "desktop", failures)
    try:
        columns = page.evaluate(_VISIBLE_COLUMNS)
        assert columns[0] == lang and sorted(columns) == sorted(COLUMNS), columns
        tops = page.evaluate("""() => Array.from(document.querySelector('.grid.parallel')
            .children).map(column => Math.round(column.getBoundingClientRect().top))""")
        assert len(set(tops)) == 1
        page.uncheck(f"fieldset.parallel-languages input[value={others[0]}]")
        assert page.evaluate(_VISIBLE_COLUMNS) == [lang, others[1]]
    finally:
        page.close()
    assert not failures, failures


@pytest.mark.slow
def test_language_switch_keeps_the_readers_place(chromium: Any, served: str) -> None:
    failures: list[str] = []
    page = _open(chromium, _url(served, "en", "presets/scat.md"), "desktop", failures)
    try:
        headings = page.eval_on_selector_all(".md-content h2[id]", "hs => hs.map(h => h.id)")
        page.goto(f"{_url(served, 'en', 'presets/scat.md')}#{headings[2]}", wait_until="load")
        # The theme's language menu: its Russian entry.
        page.locator(".md-select__link[hreflang=ru]").first.dispatch_event("click")
        page.wait_for_url("**/ru/presets/scat/#*")
        russian = page.eval_on_selector_all(".md-content h2[id]", "hs => hs.map(h => h.id)")
        assert page.evaluate("decodeURIComponent(location.hash.slice(1))") == russian[2]
    finally:
        page.close()
    assert not failures, failures


SEARCHES = {"en": "knock", "ru": "стук", "it": "bussa"}
SEARCH_READY_SECONDS = 90


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
def test_search_finds_the_readers_pages_once(chromium: Any, served: str, lang: str) -> None:
    failures: list[str] = []
    # The theme runs the query of a `q` parameter as soon as its search worker has read the
    # index (typing earlier is dropped, and that takes seconds on a busy machine).
    url = f"{_url(served, lang, 'index.md')}?{urlencode({'q': SEARCHES[lang]})}"
    page = _open(chromium, url, "desktop", failures)
    try:
        page.wait_for_selector(".md-search-result__item", timeout=SEARCH_READY_SECONDS * 1000)
        # One result per page: its first link; the others lead to its sections.
        found = page.eval_on_selector_all(
            ".md-search-result__item > a:first-child", "links => links.map(link => link.href)")
    finally:
        page.close()
    own = f"{served}{SUB_PATH}" + ("" if lang == DEFAULT_LANGUAGE else f"{lang}/")
    pages = [href.split("#")[0].split("?")[0] for href in found]
    assert len(pages) >= 3, found
    assert all(href.startswith(own) for href in pages), found
    others = [f"{own}{other}/" for other in LANGUAGES if other != DEFAULT_LANGUAGE]
    assert not [href for href in pages if any(href.startswith(other) for other in others)]
    assert len(pages) == len(set(pages)), "a page is listed twice"
    assert not failures, failures


def _luminance(rgb: tuple[float, float, float]) -> float:
    def channel(value: float) -> float:
        value /= 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = (channel(value) for value in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(foreground: tuple[float, float, float], background: tuple[float, float, float],
             alpha: float = 1.0) -> float:
    """WCAG 2 contrast ratio; a foreground of opacity ``alpha`` is blended over the background."""
    blended = tuple(alpha * fore + (1 - alpha) * back
                    for fore, back in zip(foreground, background, strict=True))
    lighter, darker = sorted((_luminance(blended), _luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_contrast_formula() -> None:
    white, black = (255, 255, 255), (0, 0, 0)
    assert round(contrast(black, white), 1) == 21.0
    assert round(contrast((0x4C, 0xAE, 0x4F), white), 1) == 2.8, "the old link colour"
    assert contrast(white, black, alpha=0) == 1.0


_COLOURS = """selector => {
    const rgba = text => text.match(/[\\d.]+/g).map(Number);
    const element = document.querySelector(selector);
    let style = getComputedStyle(element);
    let alpha = Number(style.opacity);
    for (let parent = element.parentElement; parent; parent = parent.parentElement)
        alpha *= Number(getComputedStyle(parent).opacity);
    let background = element;
    while (rgba(getComputedStyle(background).backgroundColor)[3] === 0)
        background = background.parentElement || document.documentElement;
    const colour = rgba(style.color);
    return {colour: colour.slice(0, 3), alpha: alpha * (colour.length > 3 ? colour[3] : 1),
            background: rgba(getComputedStyle(background).backgroundColor).slice(0, 3)};
}"""
CONTRAST_SELECTORS = (
    ".md-header__topic .md-ellipsis",  # the site's name on the header
    ".md-tabs__item:not(.md-tabs__item--active) .md-tabs__link",
    ".md-tabs__item--active .md-tabs__link",
    ".md-typeset p a",  # a link in the text
    ".md-nav__link--active",
)


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_links_and_header_meet_wcag_aa(chromium: Any, served: str, lang: str) -> None:
    failures: list[str] = []
    page = _open(chromium, _url(served, lang, "first-game.md"), "desktop", failures)
    try:
        for selector in CONTRAST_SELECTORS:
            seen = page.evaluate(_COLOURS, selector)
            ratio = contrast(tuple(seen["colour"]), tuple(seen["background"]), seen["alpha"])
            assert ratio >= AA_CONTRAST, (selector, seen, round(ratio, 2))
    finally:
        page.close()
    assert not failures, failures


def _pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page\b", pdf))


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_summary_prints_on_one_a4_page(chromium: Any, built: Built, lang: str) -> None:
    page = chromium.new_page()
    try:
        summaries = built.page(lang, "presets/summaries.md").as_uri()
        page.goto(summaries, wait_until="load")
        # One sheet per preset: a summary longer than a page would add one.
        assert _pdf_pages(page.pdf(format="A4")) == len(PRESETS)
        for preset in ("scat", "trentuno"):
            page.goto(f"{summaries}#{preset}", wait_until="load")
            assert _pdf_pages(page.pdf(format="A4")) == 1, preset
    finally:
        page.close()


# -- Served by `make serve` ------------------------------------------------------------------


@pytest.fixture(scope="session")
def compressed(built: Built) -> Built:
    """The build with the gzip and brotli copies `make site` writes beside each file."""
    subprocess.run([sys.executable, "-m", "whitenoise.compress", "--quiet", str(built.root)],
                   check=True)
    return built


@pytest.fixture
def site_client(compressed: Built) -> Any:
    from thirtyone.web import create_app

    return create_app({"THIRTYONE_SECRET_KEY": "site tests", "SITE_DIR": compressed.root,
                       "TESTING": True}).test_client()


def _asset(built: Built, pattern: str) -> str:
    return "/" + next(built.root.glob(pattern)).relative_to(built.root).as_posix()


def test_served_files_are_compressed_and_hashed_ones_cached_long(
        compressed: Built, site_client: Any) -> None:
    bundle = _asset(compressed, "assets/javascripts/bundle.*.min.js")
    answer = site_client.get(bundle, headers={"Accept-Encoding": "gzip"})
    assert answer.status_code == 200 and answer.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in answer.headers["Vary"]
    smaller = site_client.get(bundle, headers={"Accept-Encoding": "gzip, br"})
    assert smaller.headers["Content-Encoding"] == "br"
    assert len(smaller.data) < len(answer.data)
    max_age = int(re.search(r"max-age=(\d+)", answer.headers["Cache-Control"])[1])
    assert max_age >= 365 * 24 * 3600 and "immutable" in answer.headers["Cache-Control"]
    # A page and the search index change with each build: a minute, then revalidated.
    for path in ("/ru/", "/ru/search/search_index.json"):
        page = site_client.get(path, headers={"Accept-Encoding": "gzip"})
        assert page.headers["Content-Encoding"] == "gzip", path
        assert page.headers["Cache-Control"] == "max-age=60, public", path


@pytest.mark.parametrize("path", ["/", "/ru/presets/scat/", "/stylesheets/site.css",
                                  "/play/static/app.js"])
def test_site_and_static_files_answer_304_to_a_matching_etag(site_client: Any,
                                                             path: str) -> None:
    first = site_client.get(path)
    assert first.status_code == 200, path
    etag = first.headers["ETag"]
    again = site_client.get(path, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b"", path
    assert site_client.get(path, headers={"If-None-Match": '"other"'}).status_code == 200


@pytest.mark.parametrize(("path", "lang", "title"), [
    ("/ru/presetz/scat/", "ru", "Страница не найдена"),
    ("/it/nessuna/", "it", "Pagina non trovata"),
    ("/no/such/page/", "en", "Page not found"),
])
def test_a_missing_site_page_answers_the_sites_404_in_its_language(
        site_client: Any, path: str, lang: str, title: str) -> None:
    answer = site_client.get(path)
    assert answer.status_code == 404 and answer.mimetype == "text/html"
    assert answer.headers["Content-Language"] == lang
    page = answer.get_data(as_text=True)
    assert f'<html lang="{lang}"' in page and title in page
    # Served at any depth: every link of the page starts at the site's root.
    links = re.findall(r'(?:href|src)="([^"#][^"]*)"', page)
    assert links and all(link.startswith(("/", "http")) for link in links), links


def test_the_apis_own_paths_keep_their_answers(site_client: Any) -> None:
    for path in ("/v1/nothing", "/v1/variants/nothing"):
        answer = site_client.get(path)
        assert answer.status_code == 404 and answer.mimetype == "application/problem+json"
    assert site_client.get("/play/nothing").mimetype != "text/html"


def _play_links(built: Built) -> set[str]:
    """Every Play link of the site, as the absolute path a browser would request."""
    from urllib.parse import urljoin

    links = set()
    for path in built.root.rglob("*.html"):
        url = "/" + path.relative_to(built.root).parent.as_posix() + "/"
        links |= {urljoin(url.replace("/./", "/"), href.replace("&amp;", "&"))
                  for href in _hrefs(path) if "play?" in href}
    return links


def test_every_play_button_opens_the_game_under_make_serve(compressed: Built,
                                                           site_client: Any) -> None:
    links = _play_links(compressed)
    assert len(links) >= len(PRESETS) * len(LANGUAGES)
    for link in links:
        answer = site_client.get(link)
        assert answer.status_code == 200 and answer.mimetype == "text/html", link
    # Beside each button, how to start the server where the site is a static copy.
    page = parse_html(compressed.page("it", "presets/scat.md"))
    notes = [node for node in page.iter() if "play-note" in node.classes()]
    assert notes and "thirtyone serve" in notes[0].text()


# -- Hosting, anchors, names -----------------------------------------------------------------


def test_sitemap_holds_the_sites_addresses(built: Built) -> None:
    sitemap = (built.root / "sitemap.xml").read_text(encoding="utf-8")
    locations = re.findall(r"<loc>([^<]*)</loc>", sitemap)
    assert locations and "None" not in sitemap
    assert all(location.startswith("http://127.0.0.1:8000/") for location in locations)
    assert "http://127.0.0.1:8000/ru/strategy/" in locations


def test_no_page_asks_a_third_party(built: Built) -> None:
    remote = {
        path.relative_to(built.root).as_posix(): href
        for path in built.root.rglob("*.html")
        for node in parse_html(path).iter()
        if node.tag in ("link", "script", "img", "iframe")
        # A canonical address is the page's own name, never fetched.
        and node.attrs.get("rel") not in ("canonical", "alternate")
        and (href := node.attrs.get("href") or node.attrs.get("src") or "").startswith(
            ("http:", "https:", "//"))
    }
    assert not remote, remote


@pytest.mark.parametrize("lang", LANGUAGES)
def test_anchors_are_readable_words(built: Built, lang: str) -> None:
    for page in doc_pages():
        ids = [node.attrs["id"] for node in parse_html(built.page(lang, page)).iter()
               if node.tag in ("h2", "h3") and "id" in node.attrs]
        assert not [anchor for anchor in ids if re.fullmatch(r"_\d*", anchor)], (lang, page)
    strategy = [node.attrs.get("id") for node in
                parse_html(built.page(lang, "strategy.md")).iter() if node.tag == "h2"]
    expected = {"en": "when-to-knock", "ru": "когда-стучать", "it": "quando-bussare"}[lang]
    assert expected in strategy


@pytest.mark.parametrize(("lang", "name", "note"), [
    ("ru", "Американское тридцать одно", "скат"),
    ("it", "Trentuno americano", "Skat"),
    ("en", "Thirty-One (Scat)", "Skat"),
])
def test_scat_has_a_native_name_and_says_it_is_not_skat(built: Built, lang: str, name: str,
                                                        note: str) -> None:
    article = main_content(parse_html(built.page(lang, "presets/scat.md")))
    assert heading_text(next(node for node in article.iter() if node.tag == "h1")) == name
    admonition = next(node for node in article.iter() if "admonition" in node.classes())
    assert note in admonition.text()
    comparison = main_content(parse_html(built.page(lang, "presets/comparison.md"))).text()
    assert name in comparison
    index = _search_index(built, lang)
    assert any(name in doc["title"] for doc in index["docs"])
    if lang != "en":
        # In the reader's language, Scat is only ever the English name, quoted as such.
        for page in ("presets/scat.md", "presets/comparison.md", "first-game.md"):
            text = _own_language_text(main_content(parse_html(built.page(lang, page))),
                                      lang).text()
            assert "Scat" not in text, page


# -- The first game tells what the engine did ------------------------------------------------


def test_every_rule_the_first_game_states_is_what_the_engine_did() -> None:
    _variants, walkthrough = _hooks()
    game = walkthrough.first_round()
    start, end = game.start, game.end
    players = start.players
    # "Three players, a 52-card pack, three lives each": three cards each, the stock, and
    # the stock's top card turned up to start the discard pile.
    assert players == 3 and all(seat.lives == 3 for seat in start.seats)
    assert all(len(hand) == 3 for hand in start.hands) and len(start.discard) == 1
    assert 3 * players + len(start.stock) + len(start.discard) == 52
    # "{first}, on the dealer's left, plays first; play goes clockwise."
    assert start.turn == (start.dealer + 1) % players
    seats = [turn.seat for turn in game.turns]
    assert seats[0] == start.turn
    assert all(after == (before + 1) % players for before, after in itertools.pairwise(seats))
    hands = [tuple(card.code for card in hand) for hand in start.hands]
    top = start.discard[-1].code
    knocked = None
    for number, turn in enumerate(game.turns):
        kinds = [move["type"] for move in turn.moves]
        before = hands[turn.seat]
        if "knock" in kinds:
            # "... knocks: each of the others has one last turn."
            knocked = number
            assert turn.hand == before
            last = game.turns[number + 1:]
            assert [t.seat for t in last] == [(turn.seat + k) % players
                                              for k in range(1, players)]
            assert all(t.final for t in last)
        elif "stand" in kinds:
            # "... stands: keeps the hand as it is."
            assert turn.hand == before
        else:
            # "... takes the X from the discard pile (or draws it) and throws away the Y."
            discarded = next(move["card"] for move in turn.moves if move["type"] == "discard")
            if turn.taken:
                assert turn.taken == top
            assert sorted(turn.hand) == sorted(
                [card for card in before if card != discarded] + [turn.drawn]
                if discarded in before else before)
            top = discarded
        hands[turn.seat] = turn.hand
    assert knocked is not None and len(game.turns) == knocked + players
    # "The lowest hand loses a life; players tied for lowest all lose one, and a knocker who
    # is lowest alone loses two."
    result = end.result
    points = [walkthrough.score_hand(list(hand), "scat").points for hand in hands]
    knocker = game.turns[knocked].seat
    lowest = [seat for seat in range(players) if points[seat] == min(points)]
    expected = [0] * players
    if lowest == [knocker] or knocker in lowest:
        expected[knocker] = 2
    else:
        for seat in lowest:
            expected[seat] = 1
    assert result["lives_lost"] == expected
    assert [seat.lives for seat in end.seats] == [3 - lost for lost in expected]


def test_the_free_ride_starts_when_the_last_life_is_lost() -> None:
    """The first game's last paragraph: a player who loses their last life plays on (a free
    ride) and is out at the next loss; the deal passes to the left."""
    from thirtyone import apply_move, legal_moves, new_game, view
    from thirtyone.bots import GreedyBot

    for seed in range(1, 40):
        state = new_game("scat", 3, seed=seed, options={"lives": 1})
        bots = [GreedyBot(seed=seat) for seat in range(3)]
        riding: int | None = None
        dealer = state.dealer
        while not state.is_over:
            moves = legal_moves(state)
            if moves == [{"type": "next_round"}]:
                before = state
                state, _events = apply_move(state, moves[0])
                if not any(seat.eliminated for seat in before.seats):
                    assert state.dealer == (dealer + 1) % 3
                dealer = state.dealer
                continue
            seat = state.to_move
            state, _events = apply_move(state, bots[seat].choose(view(state, seat), moves))
            for index, standing in enumerate(state.seats):
                if standing.lives == 0 and not standing.eliminated and riding is None:
                    assert standing.free_ride, "a seat with no life left rides free"
                    riding = index
            if riding is not None and state.seats[riding].eliminated:
                break
        if riding is not None and state.seats[riding].eliminated:
            break
    assert riding is not None and state.seats[riding].eliminated, "no seed shows it"


# -- Generated text ----------------------------------------------------------------------------

PLURAL_COUNTS = (1, 2, 5)


def _plural_entries() -> list[tuple[str, str]]:
    with (TRANSLATIONS / "site.pot").open("rb") as pot:
        return [message.id for message in read_po(pot) if isinstance(message.id, tuple)]


def test_the_site_has_plural_entries() -> None:
    assert len(_plural_entries()) >= 10


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_plural_sentence_reads_right_with_1_2_and_5(lang: str) -> None:
    from babel import Locale

    variants, _walkthrough = _hooks()
    ngettext = variants.site_ngettext(lang)
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "site.po").open("rb") as po:
        catalog = {message.id: message.string for message in read_po(po)
                   if isinstance(message.id, tuple)}
    locale = Locale.parse(lang)
    # CLDR's categories, in the order of the catalog's forms.
    order = {"ru": ["one", "few", "many"], "it": ["one", "many", "other"],
             "en": ["one", "other"]}[lang]
    for singular, plural in _plural_entries():
        forms = (singular, plural) if lang == "en" else catalog[(singular, plural)]
        for count in PLURAL_COUNTS:
            text = ngettext(singular, plural, count).format(count=count, points=count,
                                                            rounds=count, thresholds=count)
            category = locale.plural_form(count)
            expected = forms[order.index(category) if category in order else -1]
            assert text == expected.format(count=count, points=count, rounds=count,
                                           thresholds=count), (
                lang, singular, count)
            # A number never hangs after a colon ("очков: 10").
            assert not re.search(rf":\s*{count}\b", text), (lang, text)
    if lang == "ru":
        texts = {ngettext("{count} life each", "{count} lives each", n).format(count=n)
                 for n in PLURAL_COUNTS}
        assert texts == {"у каждого 1 жизнь", "у каждого 2 жизни", "у каждого 5 жизней"}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("lives", PLURAL_COUNTS)
def test_generated_settlement_sentences_with_1_2_and_5(lang: str, lives: int) -> None:
    variants, _walkthrough = _hooks()
    preset = _HouseRules("scat", {"lives": lives})
    text = variants.settlement(preset, lang)
    ngettext = variants.site_ngettext(lang)
    assert ngettext("{count} life each", "{count} lives each", lives).format(
        count=lives) in text
    assert str(lives) in text and f": {lives}" not in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_facts_open_with_words_not_codes(built: Built, lang: str) -> None:
    label = _catalog_texts(lang)["Variant id"]
    for preset in PRESETS.values():
        article = main_content(parse_html(built.page(lang, f"presets/{preset.id}.md")))
        facts = next(node for node in article.iter() if node.tag == "table")
        for row in facts.iter():
            cells = row.elements() if row.tag == "tr" else []
            if len(cells) != 2 or cells[0].text().strip() == label:
                continue
            first = next((child for child in cells[1].children
                          if not (isinstance(child, str) and not child.strip())), None)
            assert not (isinstance(first, Node) and first.tag == "code"), (
                lang, preset.id, cells[0].text())


@pytest.mark.parametrize(("lang", "ace", "king"), [("ru", "Т", "К"), ("it", "A", "R"),
                                                    ("en", "A", "K")])
def test_card_letters_match_the_faces(built: Built, lang: str, ace: str, king: str) -> None:
    article = main_content(parse_html(built.page(lang, "presets/scat.md")))
    counted = [cells[3].text().strip() for row in article.iter()
               if row.tag == "tr" and len(cells := row.elements()) == 5 and cells[0].tag == "td"]
    assert f"{ace}♠ {king}♠ 10♠" in counted, counted


# -- Strategy and history --------------------------------------------------------------------


def _strategy() -> Any:
    sys.path.insert(0, str(SITE / "hooks"))
    try:
        import site_strategy
    finally:
        sys.path.remove(str(SITE / "hooks"))
    return site_strategy


@pytest.mark.parametrize("lang", LANGUAGES)
def test_strategy_shows_the_engines_figures(built: Built, lang: str) -> None:
    strategy = _strategy()
    deal = strategy.deal()
    # Every 3-card hand of 52 cards; a blitz is an ace and two tens-or-courts of its suit.
    assert deal.hands == 22100 and deal.blitzes == 4 * 6
    article = main_content(parse_html(built.page(lang, "strategy.md")))
    text = " ".join(article.text().split())
    assert str(round(deal.hands / deal.blitzes)) in text
    rows = [[cell.text().strip() for cell in row.elements()] for row in article.iter()
            if row.tag == "tr" and row.elements()[0].tag == "td"]
    knocks = {row[0]: row for row in rows if len(row) == 6}
    assert list(knocks) == [str(threshold) for threshold in strategy.THRESHOLDS]
    best = min(strategy.thresholds(), key=lambda row: row.lost)
    for row in strategy.thresholds():
        cells = knocks[str(row.knock_at)]
        # Numbers as the language writes them (Babel): 1,721 / 1 721 / 1.721; 36% / 36 %.
        assert cells[4] == format_decimal(row.knocks, locale=lang)
        assert cells[1] == strategy._percent(row.lost / row.rounds, lang)
        low, high = row.interval()
        assert low <= row.lost / row.rounds <= high and " – " in cells[2]
        assert 0 <= row.knocks_lost <= row.knocks and 0 <= row.lost <= row.rounds
        if row is not best:
            mean, below, above = row.against(best)
            assert below <= mean <= above and mean >= 0
    # Enough rounds that a threshold's interval is narrow: ±2 points at most.
    assert all(high - low < 0.04 for low, high in (row.interval() for row in strategy.thresholds()))
    shares = [row for row in rows if len(row) == 2]
    assert len(shares) == len(strategy.VALUE_BANDS)


@pytest.mark.parametrize(("lang", "reason"), [
    ("en", "pays two lives at once, the last one and the free ride"),
    ("ru", "платит сразу две жизни — последнюю и «честное слово»"),
    ("it", "paga subito due vite, l’ultima e quella «sulla parola»"),
])
def test_strategy_states_why_a_last_life_knock_is_risky(built: Built, lang: str,
                                                        reason: str) -> None:
    text = " ".join(main_content(parse_html(built.page(lang, "strategy.md"))).text().split())
    assert reason in text


@pytest.mark.parametrize(("lang", "share", "written"), [
    ("ru", 0.001, "0,1\u00a0%"), ("it", 0.001, "lo 0,1%"), ("it", 0.11, "l’11%"),
    ("it", 0.27, "il 27%"), ("it", 0.08, "l’8,0%"), ("en", 0.27, "27%"),
])
def test_percentages_read_as_the_language_writes_them(lang: str, share: float,
                                                      written: str) -> None:
    strategy = _strategy()
    the = strategy._the_percent(share, lang) if lang == "it" else strategy._percent(share, lang)
    assert the.replace("'", "’") == written


HISTORY_FACTS = {
    "en": ("1440", "Trente-et-un", "Commerce", "Vingt-et-un"),
    "ru": ("1440", "Trente-et-un", "Коммерции", "Двадцать одно"),
    "it": ("1440", "Trente-et-un", "Commercio", "Ventuno"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_history_tells_the_sources_facts(built: Built, lang: str) -> None:
    text = main_content(parse_html(built.page(lang, "history.md"))).text()
    for fact in HISTORY_FACTS[lang]:
        assert fact in text, fact
    for source in ("[000]", "[001]", "[002]", "[003]"):
        assert source in text


# -- In a browser: phones, requests, search ----------------------------------------------------

_SPLIT_WORDS = """() => {
    // Every word of every table cell: a word whose letters lie on more than one line was
    // split inside it ("Игро|ки"). Breaks at spaces, dashes and slashes are between words.
    const split = [];
    for (const cell of document.querySelectorAll('.md-content td, .md-content th')) {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const words = /[^\\s\\-‐–—\\/|,;]+/gu;
            let word;
            while ((word = words.exec(node.data))) {
                const range = document.createRange();
                range.setStart(node, word.index);
                range.setEnd(node, word.index + word[0].length);
                const lines = new Set(Array.from(range.getClientRects())
                    .filter(rect => rect.width > 0).map(rect => Math.round(rect.top)));
                if (lines.size > 1) split.push(word[0]);
            }
        }
    }
    return split;
}"""


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
def test_phone_tables_never_split_a_word(chromium: Any, served: str, lang: str) -> None:
    failures: list[str] = []
    page = _open(chromium, _url(served, lang, "index.md"), "phone", failures)
    split, wide = {}, {}
    try:
        for doc in doc_pages():
            page.goto(_url(served, lang, doc), wait_until="load")
            if words := page.evaluate(_SPLIT_WORDS):
                split[doc] = words[:5]
            if (overflow := page.evaluate(_TABLES_OVERFLOW)) != [0, 0, 0]:
                wide[doc] = overflow
    finally:
        page.close()
    assert not split, split
    assert not wide, wide


def test_split_check_would_catch_a_split_word(chromium: Any) -> None:
    page = chromium.new_page(viewport={"width": 390, "height": 844})
    try:
        page.set_content('<div class="md-content"><table><tr><td style="width: 3em; '
                         'overflow-wrap: anywhere">Переворачивается</td></tr></table></div>')
        assert page.evaluate(_SPLIT_WORDS) == ["Переворачивается"]
    finally:
        page.close()


PAGE_TYPES = ("index.md", "first-game.md", "strategy.md", "history.md", "presets/index.md",
              "presets/scat.md", "presets/comparison.md", "presets/summaries.md",
              "sources/parlett.md", "race.md", "glossary.md", "api/index.md",
              "api/reference.md", "api/engine.md")


@pytest.fixture
def served_app(compressed: Built, live_server: Any) -> str:
    """The site as `make serve` serves it: the API app over the built, compressed site."""
    from thirtyone.web import create_app

    return live_server(create_app({"THIRTYONE_SECRET_KEY": "site tests",
                                   "SITE_DIR": compressed.root}))


def _page_url(base: str, lang: str, page: str) -> str:
    return _url(base, lang, page).replace(SUB_PATH, "/")


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_page_makes_a_failing_or_third_party_request(
        chromium: Any, served_app: str, compressed: Built, artifacts: Path, lang: str) -> None:
    failed: list[str] = []
    foreign: list[str] = []
    index_bytes: list[int] = []
    page = chromium.new_page(viewport={"width": 1280, "height": 900})
    page.on("response", lambda response: failed.append(f"{response.status} {response.url}")
            if response.status >= 400 else None)
    # A request cut short by the next navigation (the search worker still fetching its
    # stemmer) is aborted, not failed; any other network error counts.
    page.on("requestfailed", lambda request: failed.append(f"{request.failure} {request.url}")
            if "ERR_ABORTED" not in (request.failure or "") else None)
    page.on("request", lambda request: foreign.append(request.url)
            if not request.url.startswith((served_app, "data:")) else None)

    def finished(request: Any) -> None:
        if request.url.endswith("search_index.json"):
            index_bytes.append(request.sizes()["responseBodySize"])

    page.on("requestfinished", finished)
    try:
        for doc in PAGE_TYPES:
            # Network idle: the search worker has fetched its index and its stemmer.
            page.goto(_page_url(served_app, lang, doc), wait_until="networkidle")
            assert page.locator("h1").count() == 1, doc
        missing = page.goto(_page_url(served_app, lang, "no-such-page.md"),
                            wait_until="networkidle")
        assert missing is not None and missing.status == 404
        failed.remove(f"404 {missing.url}")
        assert page.locator("h1").count() == 1
    finally:
        page.close()
    assert not failed, failed
    assert not foreign, foreign
    # The index each page load fetches, as sent (compressed); the cache serves it after.
    assert index_bytes
    report = artifacts / f"site-search-index-{lang}.json"
    folder = compressed.root if lang == DEFAULT_LANGUAGE else compressed.root / lang
    raw = (folder / "search" / "search_index.json").stat().st_size
    report.write_text(json.dumps({"lang": lang, "sent_bytes": index_bytes[0],
                                  "raw_bytes": raw}), encoding="utf-8")
    assert index_bytes[0] < raw / 3, (index_bytes[0], raw)


INFLECTED = {
    "ru": ("тузы", "вдове", "семерка", "бубен", "счет", "четверка", "расчет", "сдающему",
           "фишками", "стучит"),
    "it": ("vedove", "busso", "mazzieri", "bussare", "giocatori", "scartato", "vite", "gettoni",
           "round", "semi"),
    "en": ("widows", "knocked", "dealers", "jokers", "chips", "discarded", "rounds", "lives",
           "suits", "knocking"),
}
"""Ten words per language in a form the pages may not use as such: each finds pages, none
is marked missing in a result, and no API page ranks above a rules page."""
FOLDED = (("семерка", "семёрка"), ("бубен", "бубён"), ("счет", "счёт"), ("четверка", "четвёрка"),
          ("расчет", "расчёт"))
"""Most Russian readers type е for ё: both spellings find the same pages."""


@dataclass
class Found:
    pages: list[str]
    missing: list[str]
    """The words a result marks missing (the theme's «Отсутствует: ~~тузы~~»)."""
    snippets: list[str]


def _search(chromium: Any, served: str, lang: str, query: str) -> Found:
    """The pages the theme's search lists for ``query``, best first."""
    failures: list[str] = []
    url = f"{_url(served, lang, 'index.md')}?{urlencode({'q': query})}"
    page = _open(chromium, url, "desktop", failures)
    try:
        # Done when results are listed, or the theme says, in the page's words, none are.
        page.wait_for_function("""() => {
            const none = JSON.parse(document.getElementById('__config').textContent)
                .translations['search.result.none'];
            const meta = document.querySelector('.md-search-result__meta');
            return document.querySelector('.md-search-result__item') !== null
                || (meta !== null && meta.textContent.trim() === none);
        }""", timeout=SEARCH_READY_SECONDS * 1000)
        found = page.eval_on_selector_all(
            ".md-search-result__item > a:first-child", "links => links.map(link => link.href)")
        missing = page.eval_on_selector_all(
            ".md-search-result del", "words => words.map(word => word.textContent.trim())")
        snippets = page.eval_on_selector_all(
            ".md-search-result__article", "articles => articles.map(a => a.innerHTML)")
    finally:
        page.close()
    assert not failures, failures
    return Found([href.split("#")[0].split("?")[0] for href in found], missing, snippets)


def _is_api(url: str) -> bool:
    return "/api/" in url


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
def test_search_knows_word_endings(chromium: Any, served: str, lang: str) -> None:
    for word in INFLECTED[lang]:
        found = _search(chromium, served, lang, word)
        assert found.pages, word
        # Each word is sent once, as its stem: a found word is never marked missing.
        assert not found.missing, (word, found.missing)
        # The rules come first; the API guide and reference, weighted below them, after.
        kinds = [_is_api(page) for page in found.pages]
        assert kinds == sorted(kinds), (word, found.pages)


@pytest.mark.slow
def test_russian_search_folds_yo(chromium: Any, served: str) -> None:
    for plain, with_yo in FOLDED:
        pages = _search(chromium, served, "ru", plain).pages
        assert pages, plain
        assert pages == _search(chromium, served, "ru", with_yo).pages, (plain, with_yo)


@pytest.mark.slow
def test_search_marks_a_word_missing_only_where_it_is(chromium: Any, served: str) -> None:
    # A two-word query: a page with one of them lists the other as missing, the check works.
    found = _search(chromium, served, "en", "widow stock")
    assert found.pages and set(found.missing) <= {"widow", "stock"}
    assert found.missing, "no result lacks a word: the check has nothing to catch"


def test_snippets_keep_table_cells_apart(built: Built) -> None:
    docs = _search_index(built, "ru")["docs"]
    facts = next(doc for doc in docs if doc["location"] == "presets/trentuno/")
    # A row is a paragraph, its cells parted: «Игроки · 3–9», never «Игроки 3–9 Колода».
    assert re.search(r"<p> ?Игроки +· 3–9 ?</p>", facts["text"]), facts["text"][:400]
    assert "<p> ·" not in facts["text"] and "<p>  </p>" not in facts["text"]


def test_search_dialog_has_a_name_on_every_page(built: Built) -> None:
    names = {"en": "Search the site", "ru": "Поиск по сайту", "it": "Cerca nel sito"}
    for lang in LANGUAGES:
        for page in doc_pages():
            html = built.page(lang, page).read_text(encoding="utf-8")
            assert f'role="dialog" aria-label="{names[lang]}"' in html, (lang, page)


def test_canonical_is_left_out_without_the_sites_address(built: Built) -> None:
    for lang in LANGUAGES:
        html = built.page(lang, "index.md").read_text(encoding="utf-8")
        assert 'rel="canonical"' not in html
        assert "127.0.0.1:8000" not in html.split("</head>")[0]


def _section(article: Node, title: str) -> str:
    """The text of the ``##`` section headed ``title``, up to the next ``##``."""
    inner = next(node for node in article.iter() if "md-typeset" in node.classes()
                 and any(child.tag == "h1" for child in node.elements()))
    text, inside = [], False
    for child in inner.elements():
        if child.tag == "h2":
            inside = heading_text(child) == title
            continue
        if inside:
            text.append(" ".join(child.text().split()))
    return " ".join(text)


def _distinct() -> Any:
    sys.path.insert(0, str(SITE / "hooks"))
    try:
        import site_distinct
    finally:
        sys.path.remove(str(SITE / "hooks"))
    return site_distinct


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_preset_page_shows_its_own_distinctive_rule(built: Built, lang: str) -> None:
    distinct = _distinct()
    title = _catalog_texts(lang)["What sets it apart"]
    sections = {}
    for preset in PRESETS.values():
        if preset.id in ("scat", "race"):
            continue
        article = main_content(parse_html(built.page(lang, f"presets/{preset.id}.md")))
        sections[preset.id] = _section(article, title)
        assert sections[preset.id], preset.id
        shown = sum(1 for node in article.iter() if node.tag == "tr" and node.elements()
                    and node.elements()[0].tag == "td" and any(
                        "cards" in cell.classes() for cell in node.iter()))
        assert shown >= len(distinct.differing_hands(preset)), preset.id
    # No two pages show the same thing.
    assert len(set(sections.values())) == len(sections)
    # The hands that set a preset apart are examples of its rules: Cut Throat's trips.
    cut_throat = distinct.differing_hands(PRESETS["cut-throat"])
    assert "7H 7D 7C" in cut_throat


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_summary_told_as_changes_prints_the_rules_it_changes(built: Built,
                                                               lang: str) -> None:
    variants, _walkthrough = _hooks()
    article = main_content(parse_html(built.page(lang, "presets/summaries.md")))
    sheet = next(node for node in article.iter() if node.attrs.get("id") == "cut-throat")
    scat_rules = re.sub(r"\[([^]]*)\]\([^)]*\)", r"\1", variants.rules_text(PRESETS["scat"],
                                                                           lang))
    scat_rules = re.sub(r"^\s*- |[*`]", "", scat_rules, flags=re.MULTILINE)
    assert "".join(scat_rules.split()[:8]) in "".join(sheet.text().split())


def test_make_rebuilds_the_site_only_when_one_of_its_sources_changed(tmp_path: Path) -> None:
    """`make serve` builds the site through a stamp: nothing to do while no source is newer;
    a page, a hook, a catalog, the engine or the contract makes it build again, the web
    layer does not."""
    import shutil

    make = shutil.which("make")
    if make is None:
        pytest.fail("make is missing")
    installed = tmp_path / "installed"
    installed.touch()
    stamp = tmp_path / "built"
    stamp.touch()
    question = [make, "--question", "-C", str(ROOT), f"SITE_STAMP={stamp}",
                f"STAMP={installed}", str(stamp)]

    def up_to_date(*changed: str) -> bool:
        what_if = [argument for path in changed for argument in ("--what-if", path)]
        return subprocess.run([*question, *what_if], capture_output=True,
                              check=False).returncode == 0

    assert up_to_date()
    for source in ("site/docs/ru/strategy.md", "site/hooks/site_i18n.py",
                   "site/overrides/main.html", "translations/it/LC_MESSAGES/site.po",
                   "api/thirtyone/cards.py", "openapi.yaml", "site/mkdocs.yml"):
        assert not up_to_date(source), source
    assert up_to_date("api/thirtyone/web/site.py")


def _terms() -> dict[str, Any]:
    return yaml.safe_load((SITE / "data" / "terms.yml").read_text(encoding="utf-8"))


def _forbidden_uses(text: str, lang: str) -> list[str]:
    found = []
    for row in _terms()["terms"]:
        for pattern in row[lang].get("forbidden", ()):
            found += [f"{row['concept']}: {match[0]}" for match in re.finditer(pattern, text)]
    return found


TERM_FREE_PAGES = ("glossary.md", "sources/originals/")
"""The glossary names the other words on purpose; an original is its authors' own words."""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_thing_has_one_word_on_every_page(built: Built, lang: str) -> None:
    found = {}
    for page in doc_pages():
        if page.startswith(TERM_FREE_PAGES):
            continue
        text = " ".join(main_content(parse_html(built.page(lang, page))).text().split())
        if uses := _forbidden_uses(text, lang):
            found[page] = uses[:5]
    assert not found, found


def test_term_check_would_catch_the_widow_called_the_stock() -> None:
    # The defect the check was made for: the Trentuno row called the widow «прикуп».
    assert _forbidden_uses("если в сданном прикупе 31, банк забирает сдающий", "ru") == [
        "widow: сданном прикуп", "pot: банк", "dealer: сдающий"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_glossary_gives_synonyms_and_related_games(built: Built, lang: str) -> None:
    text = " ".join(main_content(parse_html(built.page(lang, "glossary.md"))).text().split())
    for row in _terms()["terms"]:
        for synonym in row[lang].get("synonyms", ()):
            assert synonym in text, synonym
    for game in _terms()["relatives"][lang]:
        assert game["name"] in text


# -- RULES.md §4.15 (new turn 4): players and card values from the preset, "Il 31" ------------

_NUMBER_WORDS = {
    "en": ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
           "twelve", "thirteen", "fourteen", "fifteen"],
    "ru": ["двух", "трёх", "четырёх", "пяти", "шести", "семи", "восьми", "девяти", "десяти",
           "одиннадцати", "двенадцати", "тринадцати", "четырнадцати", "пятнадцати"],
    "it": ["due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove", "dieci", "undici",
           "dodici", "tredici", "quattordici", "quindici"],
}
_PLAYER_RANGES = {
    "en": re.compile(r"\b(\w+) to (\w+) players", re.IGNORECASE),
    "ru": re.compile(r"\bот (\w+) до (\w+) игрок", re.IGNORECASE),
    "it": re.compile(r"\bda (\w+) a (\w+) giocator", re.IGNORECASE),
}


def _number(word: str, lang: str) -> int:
    return int(word) if word.isdigit() else _NUMBER_WORDS[lang].index(word.casefold()) + 2


def _fact(sheet: str, label: str) -> str:
    found = re.search(rf"^\| \*\*{re.escape(label)}\*\* \| (.*) \|$", sheet, re.MULTILINE)
    assert found, label
    return found[1]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_sheet_gives_the_presets_own_players_and_card_values(lang: str) -> None:
    """One source of truth: the players and the card values of every printed sheet (and the
    rules it prints, the base game's too) are the preset's own."""
    variants, _walkthrough = _hooks()
    labels = _catalog_texts(lang)
    for preset in PRESETS.values():
        sheet = variants.summary(preset, lang)
        low, high = preset.players
        assert _fact(sheet, labels["Players"]) == (str(low) if low == high else f"{low}–{high}")
        for found in _PLAYER_RANGES[lang].finditer(sheet):
            said = (_number(found[1], lang), _number(found[2], lang))
            assert said == preset.players, (preset.id, found[0])
        rules = preset.rules
        values = [int(number) for number in re.findall(r"\d+", _fact(sheet, labels["Card values"]))]
        deck = [card for card in rules.deck_cards if not card.is_joker]
        ace = 1 if rules.values == "race" else 11
        numbered = sorted({int(card.rank) for card in deck if card.rank.isdigit()} - {10})
        tens = [card for card in deck if card.rank in ("10", "J", "Q", "K")]
        assert values == [ace, *([10] if tens else []), numbered[0], numbered[-1]], preset.id


@pytest.mark.parametrize(("lang", "words"), [
    ("it", ("cavallo", "napoletane", "trentuno", "coppe", "denari", "bastoni", "spade")),
    ("en", ("cavallo", "napoletane", "trentuno")),
    ("ru", ("cavallo", "napoletane", "trentuno")),
])
def test_search_finds_il_31_by_the_words_italians_use(built: Built, lang: str,
                                                       words: tuple[str, ...]) -> None:
    index = _search_index(built, lang)
    page = [doc for doc in index["docs"] if doc["location"].startswith("presets/trentuno-40/")]
    assert page
    text = set(_words(" ".join(doc["title"] + " " + doc["text"] for doc in page)))
    assert set(words) <= text


def test_il_31_shows_the_italian_pack(built: Built) -> None:
    page = built.page("it", "presets/trentuno-40.md").read_text("utf-8")
    assert 'aria-label="cavallo di coppe"' in page or "cavallo di" in page
    assert "asso di coppe" in page


def _fitting(players: int | None, deck: str | None, scoring: str | None) -> set[str]:
    """The presets the finder should keep, from the engine's own presets."""
    kinds = {"lives": "lives", "pot": "chips", "escalating": "chips", "points": "points",
             "none": "none"}
    return {preset.id for preset in PRESETS.values()
            if (players is None or preset.players[0] <= players <= preset.players[1])
            and (deck is None or preset.rules.deck == deck)
            and (scoring is None or kinds[preset.settlement.value] == scoring)}


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
def test_variant_finder_keeps_the_presets_that_fit(chromium: Any, served: str,
                                                   lang: str) -> None:
    failures: list[str] = []
    page = _open(chromium, _url(served, lang, "presets/finder.md"), "phone", failures)
    shown = """() => Array.from(document.querySelectorAll('.variant-finder-list > li'))
        .filter(item => !item.hidden && item.getBoundingClientRect().height > 0)
        .map(item => item.querySelector('a').getAttribute('href'))"""

    def ids() -> set[str]:
        return {href.rstrip("/").split("/")[-1].removesuffix(".html")
                for href in page.evaluate(shown)}

    try:
        assert ids() == set(PRESETS)
        for players, deck, scoring in ((2, None, None), (12, None, None), (3, "piquet32", None),
                                       (4, None, "chips"), (None, "full52", "lives"),
                                       (2, "race24", None), (15, "piquet32", "lives")):
            page.fill("form.variant-finder input[name=players]",
                      "" if players is None else str(players))
            page.select_option("form.variant-finder select[name=deck]", deck or "")
            page.select_option("form.variant-finder select[name=scoring]", scoring or "")
            expected = _fitting(players, deck, scoring)
            assert ids() == expected, (players, deck, scoring)
            status = page.text_content(".variant-finder-count") or ""
            assert str(len(expected)) in status
        assert page.evaluate(_TABLES_OVERFLOW)[0] == 0
    finally:
        page.close()
    assert not failures, failures


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_preset_has_a_score_sheet(built: Built, lang: str) -> None:
    article = main_content(parse_html(built.page(lang, "presets/score-sheets.md")))
    sheets = {node.attrs["id"]: node for node in article.iter()
              if "score-sheet" in node.classes()}
    assert set(sheets) == {f"sheet-{preset}" for preset in PRESETS}
    for preset in PRESETS.values():
        table = next(node for node in sheets[f"sheet-{preset.id}"].iter() if node.tag == "table")
        header = next(node for node in table.iter() if node.tag == "tr")
        # A column per player (up to six) beside the round's number.
        assert len(header.elements()) == 1 + min(preset.players[1], 6), preset.id


AXE_PAGES = ("index.md", "first-game.md", "strategy.md", "presets/scat.md",
             "presets/finder.md", "sources/parlett.md", "glossary.md", "presets/comparison.md")
"""Eight pages of each language for axe-core, with the search dialog open on each."""


def _axe_source() -> str:
    from tests.play.test_accessibility import axe_source

    return axe_source()


@pytest.mark.slow
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_axe_finds_no_serious_violation(chromium: Any, served: str, lang: str,
                                        scheme: str) -> None:
    source = _axe_source()
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    page.set_default_timeout(15_000)
    found: dict[str, list[dict[str, object]]] = {}
    try:
        for doc in AXE_PAGES:
            page.goto(f"{_url(served, lang, doc)}?{urlencode({'q': SEARCHES[lang]})}",
                      wait_until="load")
            # The search open, its results listed (the `q` parameter runs the query).
            page.wait_for_selector(".md-search-result__item",
                                   timeout=SEARCH_READY_SECONDS * 1000)
            assert page.evaluate("document.body.dataset.mdColorScheme") == (
                "slate" if scheme == "dark" else "default")
            page.evaluate(source)
            result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
            assert len(result["passes"]) > 10
            serious = [{"id": rule["id"], "help": rule["help"],
                        "nodes": [node["target"] for node in rule["nodes"]][:3]}
                       for rule in result["violations"]
                       if rule["impact"] in ("serious", "critical")]
            if serious:
                found[doc] = serious
    finally:
        context.close()
    assert not found, found


def test_presets_show_their_own_example_hands() -> None:
    sys.path.insert(0, str(SITE / "hooks"))
    try:
        import engine_pages as hooks
    finally:
        sys.path.remove(str(SITE / "hooks"))
    picks = {preset.id: tuple(hooks._pick_examples(preset)) for preset in PRESETS.values()
             if preset.family.value != "race"}
    # Each preset's worked examples are its own pick (they once were the same 42 cards on
    # eight pages), and each still shows every kind of hand its deck allows.
    assert len(set(picks.values())) == len(picks), picks


# A hand of Schwimmen's deck (piquet32) for its page's scorer, and the words of its result
# per language.
SCORED_HAND = ["AS", "KS", "7H"]
WORTH = {"en": "Worth {points}: {category}.", "ru": "Очки: {points} — {category}.",
         "it": "Vale {points}: {category}."}


@pytest.mark.parametrize("lang", ["en", "ru", "it"])
def test_the_hand_scorer_works_with_the_network_cut(chromium: Any, served: str,
                                                    lang: str) -> None:
    """The scorer of a preset page loads its hand table with the page, then scores hands in
    the page's language with no network at all."""
    from thirtyone.web import create_app

    context = chromium.new_context()
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(_url(served, lang, "presets/schwimmen.md"), wait_until="networkidle")
        scorer = page.locator(".hand-scorer:not([hidden])")
        scorer.wait_for()
        context.set_offline(True)
        requests: list[str] = []
        # The site's search worker loads its language's stemmer when it gets to it (late on a
        # loaded machine): the search's, not the scorer's.
        page.on("request", lambda request: None if "/assets/javascripts/lunr/" in request.url
                else requests.append(request.url))
        choices = scorer.locator("[data-card-choice]")
        result = scorer.locator("[data-scorer-result]")
        assert result.inner_text() == _catalog_texts(lang)["Pick three different cards."]
        for index, code in enumerate(SCORED_HAND):
            choices.nth(index).select_option(code)
        app = create_app({"TESTING": True, "THIRTYONE_SECRET_KEY": "site", "SITE_DIR": None})
        score = app.test_client().post(f"/v1/hands/score?lang={lang}", json={
            "variant": "schwimmen", "hand": SCORED_HAND}).get_json()
        expected = WORTH[lang].format(points=score["points"], category=score["category_name"])
        assert result.inner_text().startswith(expected + " "), result.inner_text()
        assert result.get_attribute("data-category") == score["category"]
        # The same card twice is no hand.
        choices.nth(2).select_option(SCORED_HAND[0])
        assert result.inner_text() == _catalog_texts(lang)["Pick three different cards."]
        assert requests == []
    finally:
        context.close()


# -- The engine reference's cross-references --------------------------------------------------

RAW_ROLE = re.compile(r":(func|class|meth|data|mod|attr|exc|obj):")
"""A Sphinx role of the engine's docstrings, printed as written."""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_engine_reference_links_its_roles(built: Built, lang: str) -> None:
    html = built.page(lang, "api/engine.md").read_text(encoding="utf-8")
    assert not RAW_ROLE.findall(html), sorted(set(RAW_ROLE.findall(html)))
    # `thirtyone.game`'s docstring: "Start with :func:`new_game`", a short name its module
    # resolves, links to the function's anchor on the same page of the language.
    assert re.search(r'<a class="autorefs autorefs-internal"[^>]* '
                     r'href="#thirtyone\.game\.new_game"><code>new_game</code></a>', html)
    assert 'id="thirtyone.game.new_game"' in html


def test_sphinx_roles_resolve_like_sphinx() -> None:
    import griffe

    sys.path.insert(0, str(SITE / "hooks"))
    try:
        from griffe_roles import link_roles
    finally:
        sys.path.remove(str(SITE / "hooks"))
    with griffe.temporary_visited_package("pkg", {
        "__init__.py": "from pkg.state import State\n",
        "state.py": "class State:\n    def to_dict(self) -> None: ...\n",
    }) as pkg:
        method = pkg["state.State.to_dict"]

        def ref(target: str, shown: str) -> str:
            return f'<autoref identifier="{target}" optional><code>{shown}</code></autoref>'

        # A method's own class, then its module; an alias by its canonical path; `~` shows
        # the last component; a name nothing holds stays as written (plain code once
        # autorefs finds no page for it).
        assert link_roles(":meth:`to_dict`", method) == ref("pkg.state.State.to_dict", "to_dict")
        assert link_roles(":class:`State`", pkg) == ref("pkg.state.State", "State")
        assert (link_roles(":meth:`~pkg.State.to_dict`", pkg)
                == ref("pkg.State.to_dict", "to_dict"))
        assert link_roles(":mod:`.state`", method) == ref("pkg.state", "state")
        assert link_roles(":mod:`json`", method) == ref("json", "json")
