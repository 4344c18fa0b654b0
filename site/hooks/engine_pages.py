"""MkDocs hook: the parts of the rules site generated from the engine and from site data.

A page asks for generated content with a directive on a line of its own, ``{{ name }}`` or
``{{ name argument }}``; the hook replaces it with Markdown before MkDocs renders the page. A
preset page (``presets/<id>.md``) gets its preset from its file name. An unknown directive
stops the build, so a typo can never ship as literal text.

Strings the hook writes itself are translated through the ``site`` domain
(``translations/<lang>/LC_MESSAGES/site.po``); preset names, summaries, option descriptions
and hand categories are the engine's own English texts, looked up in the API's ``messages``
catalogs. Both are read straight from the ``.po`` files, so the site needs no compile step.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from babel.messages.pofile import read_po
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from thirtyone.cards import Card, parse_cards
from thirtyone.errors import OptionError
from thirtyone.hands import CATEGORY_NAMES, compare_hands, score_hand
from thirtyone.rules import PRESETS, SOURCES, Family, OptionSpec, Preset, make_rules

SITE = Path(__file__).resolve().parent.parent
ROOT = SITE.parent
TRANSLATIONS = ROOT / "translations"
DATA = SITE / "data"
LANGUAGES = ("ru", "it", "en")
"""Column order of every side-by-side text: the sources' languages first."""

SOURCE_PAGES = {"000": "parlett", "001": "handbook", "002": "trentuno", "003": "wikipedia"}
"""The source page (``sources/<name>.md``) of each source id of ``rules.SOURCES``."""

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
API_URL = "http://127.0.0.1:8000"

Gettext = Callable[[str], str]
_DIRECTIVE = re.compile(r"^\{\{\s*([a-z-]+)(?:\s+([^\s}]+))?\s*\}\}\s*$", re.MULTILINE)


@cache
def _catalog(lang: str, domain: str) -> dict[str, str]:
    """The translated, non-fuzzy entries of one catalog (empty if the file is not there)."""
    path = TRANSLATIONS / lang / "LC_MESSAGES" / f"{domain}.po"
    if not path.exists():
        return {}
    with path.open("rb") as po:
        catalog = read_po(po)
    return {
        message.id: message.string
        for message in catalog
        if isinstance(message.id, str) and message.id and message.string and not message.fuzzy
    }


def site_gettext(lang: str) -> Gettext:
    """Translate the hook's own strings (domain ``site``), English when an entry is missing."""
    entries = _catalog(lang, "site")
    return lambda message: entries.get(message, message)


def engine_gettext(lang: str) -> Gettext:
    """Translate the engine's ``N_`` strings (domain ``messages``), English when missing."""
    entries = _catalog(lang, "messages")
    return lambda message: entries.get(message, message)


def page_language(page: Page) -> str:
    """The language tree a page lives in (``docs/<lang>/...``)."""
    lang = page.file.src_uri.split("/", 1)[0]
    if lang not in LANGUAGES:
        raise PluginError(f"{page.file.src_uri}: page outside the ru/it/en trees")
    return lang


def page_preset(page: Page) -> Preset:
    stem = Path(page.file.src_uri).stem
    if stem not in PRESETS:
        raise PluginError(f"{page.file.src_uri}: not a preset page")
    return PRESETS[stem]


# -- Side-by-side texts ----------------------------------------------------------------------


@cache
def _parallel_data(name: str) -> list[dict[str, Any]]:
    path = DATA / f"{name}.yml"
    rows = yaml.safe_load(path.read_text(encoding="utf-8"))
    for number, row in enumerate(rows, 1):
        languages = row.get("section", row)
        missing = [lang for lang in LANGUAGES if not languages.get(lang)]
        if missing:
            raise PluginError(f"{path.name} row {number}: no text in {', '.join(missing)}")
    return rows


def _column(lang: str, text: str, note: bool) -> str:
    body = text.strip()
    if note:
        title = site_gettext(lang)("Editor's note")
        body = f'!!! note "{title}"\n\n' + _indent(body)
    return f'<div lang="{lang}" markdown>\n\n{body}\n\n</div>'


def _indent(text: str) -> str:
    return "\n".join(f"    {line}" if line else "" for line in text.splitlines())


def render_parallel(name: str, lang: str) -> str:
    """Rows of ``data/<name>.yml`` as aligned ru / it / en columns, one grid per paragraph.

    A row ``{section: {ru, it, en}}`` becomes a heading in the reader's language; a row with
    ``note: true`` is an editor's note (a garbled or ambiguous source, and what the engine does).
    """
    blocks = []
    for row in _parallel_data(name):
        if "section" in row:
            blocks.append(f"## {row['section'][lang].strip()}")
            continue
        note = bool(row.get("note"))
        columns = "\n".join(_column(column, row[column], note) for column in LANGUAGES)
        kind = "grid parallel note" if note else "grid parallel"
        blocks.append(f'<div class="{kind}" markdown>\n{columns}\n</div>')
    return "\n\n".join(blocks)


# -- Presets ---------------------------------------------------------------------------------


def _code(value: Any) -> str:
    return f"`{json.dumps(value, ensure_ascii=False)}`"


def _values(spec: OptionSpec, _: Gettext) -> str:
    if spec.kind == "choice":
        return ", ".join(_code(choice) for choice in spec.choices)
    if spec.kind == "bool":
        return f"{_code(True)}, {_code(False)}"
    if spec.kind in ("int", "int-or-none"):
        span = _("integer from {minimum} to {maximum}").format(
            minimum=spec.minimum, maximum=spec.maximum
        )
        return span if spec.kind == "int" else _("{values}, or {null}").format(
            values=span, null=_code(None)
        )
    if spec.kind == "suits":
        return _("the four suit letters C, D, H, S in any order")
    if spec.kind == "card":
        return _("a card code")
    raise PluginError(f"option {spec.name}: unknown kind {spec.kind}")


def render_options(preset: Preset, lang: str) -> str:
    """The table of the options a table may set for ``preset``, with its defaults."""
    _ = site_gettext(lang)
    engine = engine_gettext(lang)
    specs = preset.option_specs()
    if not specs:
        return _("This preset has no options.")
    lines = [
        f"| {_('Option')} | {_('Values')} | {_('Default')} | {_('Description')} |",
        "| --- | --- | --- | --- |",
    ]
    lines += [
        f"| `{spec.name}` | {_values(spec, _)} | {_code(spec.default)} "
        f"| {engine(spec.description)} |"
        for spec in specs
    ]
    return "\n".join(lines)


def _source_links(source_ids: Iterable[str]) -> str:
    return ", ".join(
        f"[{SOURCES[source].title}](../sources/{SOURCE_PAGES[source]}.md) [{source}]"
        for source in source_ids
    )


def render_preset_facts(preset: Preset, lang: str) -> str:
    """The preset's id, localized name and summary, players, family and sources."""
    _ = site_gettext(lang)
    engine = engine_gettext(lang)
    low, high = preset.players
    players = str(low) if low == high else f"{low}–{high}"
    rows = [
        (_("Variant id"), f"`{preset.id}`"),
        (_("Name"), engine(preset.name)),
        (_("In short"), engine(preset.summary)),
        (_("Players"), players),
        (_("Game flow"), f"`{preset.family.value}`"),
        (_("Settlement"), f"`{preset.settlement.value}`"),
        (_("Sources"), _source_links(preset.sources)),
    ]
    if preset.aliases:
        rows.append((_("Also called"), ", ".join(preset.aliases)))
    table = ["| | |", "| --- | --- |"]
    table += [f"| **{label}** | {value} |" for label, value in rows]
    return "\n".join(table)


def render_presets_table(lang: str) -> str:
    """Every preset with its localized name, summary and player range."""
    _ = site_gettext(lang)
    engine = engine_gettext(lang)
    lines = [
        f"| {_('Variant id')} | {_('Name')} | {_('Players')} | {_('In short')} |",
        "| --- | --- | --- | --- |",
    ]
    for preset in PRESETS.values():
        low, high = preset.players
        players = str(low) if low == high else f"{low}–{high}"
        lines.append(
            f"| [`{preset.id}`]({preset.id}.md) | {engine(preset.name)} | {players} "
            f"| {engine(preset.summary)} |"
        )
    return "\n".join(lines)


# -- Worked examples -------------------------------------------------------------------------

EXAMPLE_HANDS = (
    "AS KS 10S", "AH QH JH", "KD QD 5C", "9S 8S 7S", "AH KD QC", "7H 7D 7C", "AC AD AH",
    "JC 9D 9S", "X1 AS KS", "X1 X2 9H", "QH KH AH", "3D 2C AS", "9C 9D 4S", "KS 5H 3H",
)
"""Hands tried on every preset; those whose cards are all in the preset's deck are shown."""

EXAMPLE_PAIRS = (("KH QH 7C", "QS JS 8D"), ("8S 8C 8D", "7H 7D 7C"), ("AS KS 9C", "AD KD 9H"))
"""Pairs of hands that show how a preset breaks ties."""

MAX_EXAMPLES = 8


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(
        card.code if card.rank == "X" else f"{card.rank}{SUIT_SYMBOLS[card.suit]}"
        for card in cards
    )


def _points(points: float) -> str:
    return "30½" if points == 30.5 else str(points)


def _in_deck(hand: str, preset: Preset) -> bool:
    deck = preset.rules.deck_cards
    return all(card in deck for card in parse_cards(hand))


def render_examples(preset: Preset, lang: str) -> str:
    """Hands scored by the engine under the preset, and how it decides equal hands."""
    _ = site_gettext(lang)
    engine = engine_gettext(lang)
    hands = [hand for hand in EXAMPLE_HANDS if _in_deck(hand, preset)][:MAX_EXAMPLES]
    lines = [
        f"| {_('Hand')} | {_('Points')} | {_('Category')} | {_('Counted cards')} "
        f"| {_('Wild cards')} |",
        "| --- | --- | --- | --- | --- |",
    ]
    for hand in hands:
        score = score_hand(hand, preset.id)
        wild = ", ".join(
            f"{code} → {_cards(parse_cards([card]))}" for code, card in score.wild.items()
        )
        lines.append(
            f"| {_cards(parse_cards(hand))} | {_points(score.points)} "
            f"| {engine(CATEGORY_NAMES[score.category])} | {_cards(score.counted)} "
            f"| {wild or '—'} |"
        )
    pairs = [pair for pair in EXAMPLE_PAIRS if all(_in_deck(hand, preset) for hand in pair)]
    lines += [
        "",
        f"| {_('First hand')} | {_('Second hand')} | {_('Result')} |",
        "| --- | --- | --- |",
    ]
    for first, second in pairs:
        ranking = compare_hands([first, second], preset.id)
        if len(ranking.order) == 1:
            result = _("a tie")
        elif ranking.winners == [0]:
            result = _("the first hand wins")
        else:
            result = _("the second hand wins")
        lines.append(
            f"| {_cards(parse_cards(first))} | {_cards(parse_cards(second))} | {result} |"
        )
    return "\n".join(lines)


# -- Playing through the API -----------------------------------------------------------------


def _curl(path: str, body: dict[str, Any], comment: str) -> str:
    payload = json.dumps(body, ensure_ascii=False)
    return (
        f"# {comment}\n"
        f"curl -s {API_URL}{path} -H 'Content-Type: application/json' \\\n"
        f"  -d '{payload}'"
    )


def example_override(preset: Preset) -> dict[str, Any] | None:
    """The first option change the engine accepts for ``preset``, to show how options go."""
    for spec in preset.option_specs():
        if spec.kind == "choice":
            candidates: list[Any] = [value for value in spec.choices if value != spec.default]
        elif spec.kind == "bool":
            candidates = [not spec.default]
        elif spec.kind in ("int", "int-or-none") and spec.minimum is not None:
            start = spec.default if spec.default is not None else spec.minimum
            candidates = [start + 1]
        else:
            continue
        for value in candidates:
            try:
                make_rules(preset.id, {spec.name: value})
            except OptionError:
                continue
            return {spec.name: value}
    return None


def render_api(preset: Preset, lang: str) -> str:
    """curl commands that score a hand and start a game of ``preset`` through the REST API."""
    _ = site_gettext(lang)
    low, _high = preset.players
    players = max(low, min(3, _high))
    blocks = []
    if preset.family is not Family.RACE:
        hand = next(hand for hand in EXAMPLE_HANDS if _in_deck(hand, preset))
        blocks.append(_curl(
            "/v1/hands/score",
            {"variant": preset.id, "hand": hand.split()},
            _("Score a hand under this preset."),
        ))
    blocks.append(_curl(
        "/v1/games", {"variant": preset.id, "players": players, "seed": 7},
        _("Start a game: the answer holds a sealed token, one secret key per seat and the "
          "public view."),
    ))
    override = example_override(preset)
    if override is not None:
        blocks.append(_curl(
            "/v1/games", {"variant": preset.id, "players": players, "options": override},
            _("The same with a house rule: any option of the table above."),
        ))
    intro = _(
        "Run the server with `make serve`, then try these commands; the [API guide]"
        "(../api/index.md) explains the token, the seat keys and the moves."
    )
    return intro + "\n\n```bash\n" + "\n\n".join(blocks) + "\n```"


def render_preset_details(preset: Preset, lang: str) -> str:
    """The generated sections of a preset page: options, examples, and the API."""
    _ = site_gettext(lang)
    sections = [f"## {_('Options')}", render_options(preset, lang)]
    if preset.family is not Family.RACE:
        sections += [f"## {_('Worked examples')}", render_examples(preset, lang)]
    sections += [f"## {_('Playing through the API')}", render_api(preset, lang)]
    return "\n\n".join(sections)


# -- The hook --------------------------------------------------------------------------------


def _render(directive: str, argument: str | None, page: Page) -> str:
    lang = page_language(page)
    if directive == "parallel" and argument:
        return render_parallel(argument, lang)
    if directive == "preset-facts":
        return render_preset_facts(page_preset(page), lang)
    if directive == "preset-details":
        return render_preset_details(page_preset(page), lang)
    if directive == "presets":
        return render_presets_table(lang)
    raise PluginError(f"{page.file.src_uri}: unknown directive {directive!r}")


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Replace each ``{{ directive }}`` line of a page with its generated Markdown."""
    return _DIRECTIVE.sub(lambda match: _render(match[1], match[2], page), markdown)
