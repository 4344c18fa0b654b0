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
import os
import re
from collections.abc import Iterable
from functools import cache
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import yaml
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from site_cards import cards_picture, cards_text, pack_of
from site_distinct import render_distinct
from site_i18n import (
    LANGUAGES,
    ROOT,
    SITE,
    Gettext,
    engine_gettext,
    offline,
    page_language,
    points_text,
    set_directory_urls,
    site_gettext,
    site_ngettext,
)
from site_notfound import is_not_found, keep_404, write_404s
from site_originals import render_original, render_original_link, source_title
from site_problems import render_problem_codes
from site_scorer import render_scorer, write_scorer_files
from site_search import localize_page, name_search_dialog, split_search_index, write_stems_worker
from site_strategy import render_deal, render_knock
from site_terms import render_terms
from site_tools import add_script_strings
from site_tools_pages import render_finder, render_score_sheets
from site_variants import (
    card_values,
    comparison_table,
    deck,
    first_dealer,
    flow,
    has_blitz,
    joined,
    play_order,
    players,
    render_summaries,
    round_ends,
    settlement,
    special_hands,
    table_players,
)
from site_walkthrough import render_first_game
from thirtyone import legal_moves, new_game
from thirtyone.cards import DECKS, parse_cards
from thirtyone.errors import OptionError
from thirtyone.game import Move
from thirtyone.hands import CATEGORY_NAMES, compare_hands, score_hand
from thirtyone.race import VALUES, full_solve, opening_outcomes, solve
from thirtyone.rules import (
    PRESETS,
    Family,
    OptionSpec,
    Preset,
    make_rules,
)

DATA = SITE / "data"

SOURCE_PAGES = {"000": "parlett", "001": "handbook", "002": "trentuno", "003": "wikipedia"}
"""The source page (``sources/<name>.md``) of each source id of ``rules.SOURCES``."""

API_URL = "http://127.0.0.1:8000"

_DIRECTIVE = re.compile(r"^\{\{[ \t]*([a-z-]+)(?:[ \t]+([^\s}]+))?[ \t]*\}\}[ \t]*$", re.MULTILINE)


def page_preset(page: Page) -> Preset:
    stem = Path(page.file.src_uri).stem
    if stem not in PRESETS:
        raise PluginError(f"{page.file.src_uri}: not a preset page")
    return PRESETS[stem]


# -- Side-by-side texts ----------------------------------------------------------------------


@cache
def _parallel_data(name: str) -> list[dict[str, Any]]:
    path = DATA / f"{name}.yml"
    rows: list[dict[str, Any]] = yaml.safe_load(path.read_text(encoding="utf-8"))
    for number, row in enumerate(rows, 1):
        languages = row.get("section", row)
        missing = [lang for lang in LANGUAGES if not languages.get(lang)]
        if missing:
            raise PluginError(f"{path.name} row {number}: no text in {', '.join(missing)}")
    return rows


def _column(lang: str, text: str, note: bool) -> str:
    body = text.strip()
    if note:
        _ = site_gettext(lang)
        title = _("Editor's note")
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


def _row(cells: Iterable[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _code(value: Any) -> str:
    return f"`{json.dumps(value, ensure_ascii=False)}`"


def _accepted(preset: Preset, name: str, value: Any) -> bool:
    try:
        make_rules(preset.id, {name: value})
    except OptionError:
        return False
    return True


def _values(preset: Preset, spec: OptionSpec, _: Gettext) -> str:
    if spec.kind == "choice":
        # Only the values this preset takes with its other defaults (no race24 deck for Scat).
        choices = [choice for choice in spec.choices if _accepted(preset, spec.name, choice)]
        return ", ".join(_code(choice) for choice in choices)
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
        _row([_("Option"), _("Values"), _("Default"), _("Description")]),
        "| --- | --- | --- | --- |",
    ]
    lines += [
        f"| `{spec.name}` | {_values(preset, spec, _)} | {_code(spec.default)} "
        f"| {engine(spec.description)} |"
        for spec in specs
    ]
    return "\n".join(lines)


def _source_links(source_ids: Iterable[str], lang: str) -> str:
    # A source's title stays in its own language, and says so (for readers and the site's
    # one-language-per-page check alike); a translation goes by its original's title except
    # in the translation's language (site_originals.cited_title).
    links = []
    for source in source_ids:
        title, title_lang = source_title(source, lang)
        links.append(f"[{title}](../sources/{SOURCE_PAGES[source]}.md)"
                     f'{{ lang="{title_lang}" translate="no" }} [{source}]')
    return ", ".join(links)


def play_href(page: Page, preset: Preset, lang: str) -> str:
    """The browser client's address for ``preset``, relative to ``page``: the API server serves
    it at ``play`` beside the site, so the link holds under any sub-path."""
    seats = table_players(preset)
    query = urlencode(safe=",", query={
        "variant": preset.id, "players": seats,
        "bots": ",".join(str(seat) for seat in range(1, seats)), "lang": lang,
    })
    return f"{site_root(page)}play?{query}"


def site_root(page: Page) -> str:
    """The relative path from ``page`` to the site's root (the folder that holds ``play``).
    Opened from disk (the offline archive) the site has no server beside it: the game is
    where `make serve` answers."""
    if offline():
        return f"{LOCAL_SERVER}/"
    return "../" * page.url.count("/") if page.url else ""


def render_play_link(page: Page, lang: str, preset: Preset | None = None) -> str:
    """A button to the browser client: a table of ``preset`` against computer players, or the
    client's own start page."""
    _ = site_gettext(lang)
    if preset is None:
        href, text = f"{site_root(page)}play?{urlencode({'lang': lang})}", _("Play")
    else:
        href, text = play_href(page, preset, lang), _("Play this variant")
    # The client is served by the API server beside the site; a static copy of the site has
    # none, so the button says where the game runs and how to start it.
    note = _("The game runs on the project's server: with {make} or {serve} this button opens "
             "it. A copy of this site without the server cannot play; install the server with "
             "{install}, start it with {serve} and open {url}.").format(
        make="<code>make serve</code>", serve="<code>thirtyone serve</code>",
        install="<code>pip install 'thirtyone[server]'</code>",
        url=f"<code>{API_URL}/play</code>")
    return (f'<p><a class="md-button md-button--primary play" href="{escape(href)}">{text}</a>'
            f'</p>\n<p class="play-note">{note}</p>')


def render_preset_facts(preset: Preset, page: Page, lang: str) -> str:
    """The preset's id, localized name and summary, players, cards, order of play, family,
    what ends a round, settlement, special hands and sources; then a link to play it."""
    _ = site_gettext(lang)
    engine = engine_gettext(lang)
    rows = [
        (_("Variant id"), f"`{preset.id}`"),
        (_("Name"), engine(preset.name)),
        (_("In short"), engine(preset.summary)),
        (_("Players"), players(preset)),
        (_("Deck"), deck(preset, lang)),
        (_("Card values"), card_values(preset, lang)),
        (_("First dealer"), first_dealer(preset, lang)),
        (_("Order of play"), play_order(preset, lang)),
        (_("Game flow"), flow(preset, lang)),
        (_("What ends a round"), joined(round_ends(preset, lang))),
        (_("Settlement"), settlement(preset, lang)),
    ]
    if special := special_hands(preset, lang):
        rows.append((_("Special hands"), joined(special)))
    # A preset from how the game is played today (the rules branch's schwimmen) has none.
    rows.append((_("Sources"), _source_links(preset.sources, lang) if preset.sources else _(
        "none of the four texts: the game as it is played today, checked against "
        "several descriptions of it")))
    if preset.aliases:
        # Names the game goes by, in whatever language: never translated.
        names = escape(", ".join(preset.aliases))
        rows.append((_("Also called"), f'<span translate="no">{names}</span>'))
    table = ["| | |", "| --- | --- |"]
    table += [_row([f"**{label}**", value]) for label, value in rows]
    return "\n".join(table) + "\n\n" + render_play_link(page, lang, preset)


def render_presets_table(lang: str) -> str:
    """Every preset with its localized name, summary and player range."""
    _ = site_gettext(lang)
    engine = engine_gettext(lang)
    lines = [
        _row([_("Variant id"), _("Name"), _("Players"), _("In short")]),
        "| --- | --- | --- | --- |",
    ]
    for preset in PRESETS.values():
        lines.append(
            f"| [`{preset.id}`]({preset.id}.md) | {engine(preset.name)} | {players(preset)} "
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

MAX_EXAMPLES = 7


def _in_deck(hand: str, preset: Preset) -> bool:
    deck = preset.rules.deck_cards
    return all(card in deck for card in parse_cards(hand))


def _pick_examples(preset: Preset) -> list[str]:
    """Up to MAX_EXAMPLES hands of the preset's deck: one of each kind first (category, wild
    or not), then the others, shown in the order of EXAMPLE_HANDS. Each preset starts its
    pick at its own place in the list, so presets that score alike still show different hands
    of each kind (eight pages showed the same 42 cards)."""
    hands = [hand for hand in EXAMPLE_HANDS if _in_deck(hand, preset)]
    start = (list(PRESETS).index(preset.id) * 7) % len(hands) if hands else 0
    kinds: set[tuple[str, bool]] = set()
    first: list[str] = []
    rest: list[str] = []
    for hand in hands[start:] + hands[:start]:
        score = score_hand(hand, preset.id)
        kind = (score.category, bool(score.wild))
        (rest if kind in kinds else first).append(hand)
        kinds.add(kind)
    chosen = set((first + rest)[:MAX_EXAMPLES])
    return [hand for hand in hands if hand in chosen]


def _category(preset: Preset, category: str, lang: str) -> str:
    """A hand's category as the preset's players call it: the engine marks every 31 in one
    suit a blitz, but only presets that have a blitz call it so."""
    if category == "blitz" and not has_blitz(preset):
        _ = site_gettext(lang)
        return _("31 in one suit")
    return engine_gettext(lang)(CATEGORY_NAMES[category])


def render_examples(preset: Preset, lang: str) -> str:
    """Hands scored by the engine under the preset, and how it decides equal hands."""
    _ = site_gettext(lang)
    pack = pack_of(preset)
    # Under the brag ranking a hand's points decide nothing, so they are left out.
    brag = preset.rules.ranking == "brag"
    header = [_("Hand"), _("Points"), _("Category"), _("Counted cards"), _("Wild cards")]
    if brag:
        header.remove(_("Points"))
    lines = [_row(header), _row(["---"] * len(header))]
    for hand in _pick_examples(preset):
        score = score_hand(hand, preset.id)
        wild = ", ".join(
            f"{code} → {cards_text(parse_cards([card]), lang)}" for code, card in score.wild.items()
        )
        cells = [cards_picture(hand.split(), lang, pack), points_text(score.points),
                 _category(preset, score.category, lang), cards_text(score.counted, lang, pack),
                 wild or "—"]
        if brag:
            del cells[1]
        lines.append(_row(cells))
    pairs = [pair for pair in EXAMPLE_PAIRS if all(_in_deck(hand, preset) for hand in pair)]
    lines += [
        "",
        _row([_("First hand"), _("Second hand"), _("Result")]),
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
        lines.append(_row([cards_picture(first.split(), lang, pack),
                           cards_picture(second.split(), lang, pack), result]))
    return "\n".join(lines)


# -- The race to 31 --------------------------------------------------------------------------

RACE_DECK = DECKS["race24"]
SOURCE_SERIES = (3, 10, 17, 24)
"""The totals the dictionary tells the first player to keep to."""
TRAP_LINE = ("3C", "4C", "3D", "3H", "4D", "4H", "3S", "4S")
"""The dictionary's losing line: the threes run out at 28."""


def _race_cards(values: Iterable[int]) -> list[str]:
    """Card codes for taken values, using a different suit for each repeat of a value."""
    used: dict[int, int] = {}
    codes = []
    for value in values:
        cards = [card for card in RACE_DECK if RACE_DECK.value(card) == value]
        codes.append(cards[used.get(value, 0)].code)
        used[value] = used.get(value, 0) + 1
    return codes


def _race_values(codes: Iterable[str]) -> str:
    return ", ".join(str(RACE_DECK.value(card)) for card in parse_cards(codes))


def render_openings(lang: str) -> str:
    """For each opening value: does the first player win, and how does the second answer."""
    _ = site_gettext(lang)
    wins, loses = _("wins"), _("loses")
    lines = [
        _row([_("First card"), _("First player with perfect play"),
              _("Winning answers of the second player")]),
        "| --- | --- | --- |",
    ]
    for opening in opening_outcomes():
        answers = solve(_race_cards([opening["value"]])).winning_values
        lines.append(
            f"| {opening['value']} | {wins if opening['wins'] else loses} "
            f"| {', '.join(map(str, answers)) or '—'} |"
        )
    return "\n".join(lines)


@cache
def _positions_by_total() -> dict[int, tuple[int, int]]:
    """For each total below 31: how many positions have it, and in how many the player to move
    loses. A position is how many cards of each value were taken; every such multiset with a
    total below 31 can arise, since totals only grow."""
    counts: dict[int, tuple[int, int]] = {}
    ranges = [range(sum(1 for card in RACE_DECK if RACE_DECK.value(card) == v) + 1)
              for v in VALUES]

    def visit(index: int, taken: list[int], total: int) -> None:
        if index == len(VALUES):
            lost = not solve(_race_cards(taken)).wins
            seen, losing = counts.get(total, (0, 0))
            counts[total] = (seen + 1, losing + lost)
            return
        value = VALUES[index]
        for copies in ranges[index]:
            if total + copies * value > 30:
                break
            visit(index + 1, taken + [value] * copies, total + copies * value)

    visit(0, [], 0)
    return dict(sorted(counts.items()))


def _claims(_: Gettext) -> list[tuple[str, bool, str]]:
    """The dictionary's claims about the race, each with the solver's verdict and evidence."""
    openings = {o["value"]: o["wins"] for o in opening_outcomes()}
    after_fives = solve(_race_cards([5, 5])).winning_values
    other_replies = []
    for reply in (value for value in VALUES if value != 5):
        position = solve(_race_cards([5, reply]))
        other_replies.append(any(
            position.total + value in (10, 17) for value in position.winning_values
        ))
    trap = solve(TRAP_LINE)
    return [
        (_("Opening with 5, the first player always wins."), openings[5],
         _("opening 5: {verdict}").format(verdict=_("wins") if openings[5] else _("loses"))),
        (_("Opening with an ace or a two also wins."), openings[1] and openings[2],
         _("opening 1: {one}; opening 2: {two}").format(
             one=_("wins") if openings[1] else _("loses"),
             two=_("wins") if openings[2] else _("loses"))),
        (_("Opening with 3 and keeping to 10, 17, 24 does not win: it is a trap."),
         not openings[3],
         _("opening 3: {verdict}").format(verdict=_("wins") if openings[3] else _("loses"))),
        (_("After 5 and 5, taking a 2 (total 12) wins."), 2 in after_fives,
         _("winning answers at 10: {values}").format(
             values=", ".join(map(str, after_fives)) or "—")),
        (_("After 5 and any other answer, going to 10 or 17 wins."), all(other_replies),
         _("checked for the answers {values}").format(
             values=", ".join(str(v) for v in VALUES if v != 5))),
        (_("After 3, 4, 3, 3, 4, 4, 3, 4 (28, no threes left) the player to move has lost."),
         not trap.wins,
         _("cards taken: {values}; total {total}").format(
             values=_race_values(TRAP_LINE), total=trap.total)),
    ]


def render_race(lang: str) -> str:
    """The solver's results: openings, the totals to aim for, and the source's claims."""
    _ = site_gettext(lang)
    positions = full_solve()
    sections = [
        "## " + _("Openings"),
        _("The solver searched all {count} positions of the race. A position is what is left "
          "on the table; suits do not matter, only how many cards of each value remain.")
        .format(count=positions),
        render_openings(lang),
        "## " + _("Totals to aim for"),
        _("For every total, the share of positions in which the player to move loses: a total "
          "that leaves the opponent lost is one to aim for. The dictionary's series is "
          "{series}."
          ).format(series=", ".join(map(str, SOURCE_SERIES))),
    ]
    lines = [
        _row([_("Total"), _("Positions"), _("Player to move loses")]),
        "| --- | --- | --- |",
    ]
    for total, (seen, losing) in _positions_by_total().items():
        mark = f"**{total}**" if total in SOURCE_SERIES else str(total)
        share = _("{count} ({percent}%)").format(count=losing, percent=round(100 * losing / seen))
        lines.append(_row([mark, str(seen), share]))
    sections.append("\n".join(lines))
    sections.append("## " + _("The source’s claims"))
    claims = [
        _row([_("The dictionary says"), _("Verdict"), _("Solver")]),
        "| --- | --- | --- |",
    ]
    for claim, holds, evidence in _claims(_):
        verdict = _("holds") if holds else _("does not hold")
        claims.append(_row([claim, verdict, evidence]))
    sections.append("\n".join(claims))
    return "\n\n".join(sections)


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
            if _accepted(preset, spec.name, value):
                return {spec.name: value}
    return None


MAX_MOVES_LISTED = 8


def render_api(preset: Preset, lang: str) -> str:
    """curl commands that score a hand and play the first move of ``preset`` over the API."""
    _ = site_gettext(lang)
    seats = table_players(preset)
    parts = [_(
        "Run the server with `make serve`, then try these commands; the [API guide]"
        "(../api/index.md) explains the token, the seat keys and the moves."
    )]
    if preset.family is not Family.RACE:
        hand = next(hand for hand in EXAMPLE_HANDS if _in_deck(hand, preset))
        parts.append(_bash(_curl(
            "/v1/hands/score", {"variant": preset.id, "hand": hand.split()},
            _("Score a hand under this preset."),
        )))
    try:
        state = new_game(preset.id, seats, seed=7)
    except OptionError as error:
        # The engine gains its game families one by one; until it plays this one, say so.
        parts.append(_(
            "The engine scores this preset's hands, but cannot play its games yet: "
            "`POST /v1/games` answers with the error `{code}`."
        ).format(code=error.code))
        return "\n\n".join(parts)
    seat = state.to_move
    if seat is None:
        raise PluginError(f"{preset.id}: a new game has no seat to move")
    moves = legal_moves(state)
    parts.append(_(
        "Start a game with a fixed seed: the answer holds a sealed token, one secret key per "
        "seat and the public view. With seed 7, seat {seat} moves first: it asks for its view, "
        "then makes its first legal move."
    ).format(seat=seat))
    parts.append(_game_commands(preset, seats, seat, moves[0]))
    parts.append(_("The legal moves of seat {seat} at that point:").format(seat=seat))
    listed = [f"- `{json.dumps(move)}`" for move in moves[:MAX_MOVES_LISTED]]
    if len(moves) > MAX_MOVES_LISTED:
        more = len(moves) - MAX_MOVES_LISTED
        ngettext = site_ngettext(lang)
        listed.append("- " + ngettext(
            "… and {count} more move", "… and {count} more moves", more).format(count=more))
    parts.append("\n".join(listed))
    override = example_override(preset)
    if override is not None:
        parts.append(_bash(_curl(
            "/v1/games", {"variant": preset.id, "players": seats, "options": override},
            _("A game with a house rule: any option of the table above."),
        )))
    return "\n\n".join(parts)


def _bash(code: str) -> str:
    return f"```bash\n{code}\n```"


def _game_commands(preset: Preset, players: int, seat: int, move: Move) -> str:
    start = json.dumps({"variant": preset.id, "players": players, "seed": 7})
    auth = f'\\"token\\": \\"$TOKEN\\", \\"seat\\": {seat}, \\"seat_key\\": \\"$KEY\\"'
    move_json = json.dumps(move).replace('"', '\\"')
    lines = [
        f"GAME=$(curl -s {API_URL}/v1/games -H 'Content-Type: application/json' \\",
        f"  -d '{start}')",
        'TOKEN=$(echo "$GAME" | jq -r .token)',
        f"KEY=$(echo \"$GAME\" | jq -r '.seat_keys[{seat}]')",
        "",
        f"curl -s {API_URL}/v1/games/view -H 'Content-Type: application/json' \\",
        f'  -d "{{{auth}}}"',
        "",
        f"curl -s {API_URL}/v1/games/moves -H 'Content-Type: application/json' \\",
        f'  -d "{{{auth}, \\"move\\": {move_json}}}"',
    ]
    return _bash("\n".join(lines))


def render_preset_details(preset: Preset, lang: str) -> str:
    """The generated sections of a preset page: options, examples, and the API."""
    _ = site_gettext(lang)
    sections = [distinct] if (distinct := render_distinct(preset, lang)) else []
    sections += ["## " + _("Options"), render_options(preset, lang)]
    examples = (
        render_openings(lang) if preset.family is Family.RACE else render_examples(preset, lang)
    )
    sections += ["## " + _("Worked examples"), examples]
    sections += ["## " + _("Playing through the API"), render_api(preset, lang)]
    return "\n\n".join(sections)


# -- The OpenAPI reference ------------------------------------------------------------------

OPENAPI = ROOT / "openapi.yaml"
HTTP_METHODS = ("get", "put", "post", "delete", "patch")


@cache
def _openapi() -> dict[str, Any]:
    spec: dict[str, Any] = yaml.safe_load(OPENAPI.read_text(encoding="utf-8"))
    return spec


def _cell(text: Any) -> str:
    """Text fit for one table cell: one line, pipes escaped."""
    return " ".join(str(text).split()).replace("|", "\\|")


def _contract(text: str) -> str:
    """A block of the contract's own text, which is English on every page: marked so, for
    screen readers and for the site's one-language-per-page check."""
    return f'<div lang="en" markdown>\n\n{text}\n\n</div>' if text.strip() else ""


def _contract_cell(text: Any) -> str:
    """The contract's English text in a table cell."""
    cell = _cell(text)
    return f'<span lang="en">{cell}</span>' if cell else ""


def _schema_anchor(name: str) -> str:
    return "schema-" + name.lower()


def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def _type(schema: dict[str, Any]) -> str:
    """A schema's type in a few words, with links to named schemas."""
    if "$ref" in schema:
        name = _ref_name(schema["$ref"])
        return f"[`{name}`](#{_schema_anchor(name)})"
    for combinator in ("oneOf", "anyOf", "allOf"):
        if combinator in schema:
            return " \\| ".join(_type(part) for part in schema[combinator])
    kind = schema.get("type", "any")
    if kind == "array":
        text = f"array of {_type(schema.get('items', {}))}"
    elif "enum" in schema:
        text = " \\| ".join(f"`{json.dumps(value)}`" for value in schema["enum"])
    else:
        text = f"`{kind}`"
    return text + (" \\| `null`" if schema.get("nullable") else "")


def _resolve(item: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    if "$ref" not in item:
        return item
    section, name = item["$ref"].split("/")[-2:]
    resolved: dict[str, Any] = spec["components"][section][name]
    return resolved


def _operation(path: str, method: str, operation: dict[str, Any], spec: dict[str, Any],
               _: Gettext) -> list[str]:
    lines = [f"### {method.upper()} `{path}`", "", _contract(operation.get("summary", ""))]
    if operation.get("description"):
        lines += ["", _contract(operation["description"])]
    parameters = [
        _resolve(parameter, spec)
        for parameter in (*spec["paths"][path].get("parameters", ()),
                          *operation.get("parameters", ()))
    ]
    if parameters:
        lines += ["", _row([_("Parameter"), _("In"), _("Type"), _("Required")]),
                  "| --- | --- | --- | --- |"]
        lines += [
            _row([f"`{parameter['name']}`", parameter["in"], _type(parameter.get("schema", {})),
                  _("yes") if parameter.get("required") else _("no")])
            for parameter in parameters
        ]
    body = operation.get("requestBody")
    if body:
        for media, content in _resolve(body, spec).get("content", {}).items():
            lines += ["", _("Request body ({media}): {type}").format(
                media=f"`{media}`", type=_type(content.get("schema", {})))]
    lines += ["", _row([_("Status"), _("Meaning"), _("Body")]), "| --- | --- | --- |"]
    for status, response in operation.get("responses", {}).items():
        response = _resolve(response, spec)
        bodies = ", ".join(
            f"`{media}` {_type(content.get('schema', {}))}"
            for media, content in response.get("content", {}).items()
        )
        lines.append(_row([f"`{status}`", _contract_cell(response.get("description", "")),
                           bodies or "—"]))
    return lines


def _schema(name: str, schema: dict[str, Any], _: Gettext) -> list[str]:
    # Schemas stay out of the search index (a third of it, and no reader searches them):
    # the operations that use them are in it.
    lines = [f"### {name} {{ #{_schema_anchor(name)} data-search-exclude }}", ""]
    if schema.get("description"):
        lines += [_contract(schema["description"]), ""]
    properties = schema.get("properties", {})
    if not properties:
        return [*lines, _("Type: {type}").format(type=_type(schema))]
    required = set(schema.get("required", ()))
    lines += [_row([_("Field"), _("Type"), _("Required"), _("Description")]),
              "| --- | --- | --- | --- |"]
    lines += [
        _row([f"`{field}`", _type(prop), _("yes") if field in required else _("no"),
              _contract_cell(prop.get("description", ""))])
        for field, prop in properties.items()
    ]
    return lines


def render_openapi(lang: str) -> str:
    """The API reference: every operation by tag, then every schema, from ``openapi.yaml``."""
    _ = site_gettext(lang)
    spec = _openapi()
    info = spec["info"]
    lines = [
        _("Generated from `openapi.yaml` ({title} {version}, OpenAPI {openapi}); the running "
          "server also serves it as `/openapi.json`, with an interactive console at `/docs`. "
          "The descriptions are those of the contract, in English; the answers themselves "
          "speak the language you ask for.").format(
            title=info["title"], version=info["version"], openapi=spec["openapi"]),
        "",
        _contract(info.get("description", "")),
    ]
    tags = [tag["name"] for tag in spec.get("tags", ())]
    operations: dict[str, list[tuple[str, str, dict[str, Any]]]] = {tag: [] for tag in tags}
    for path, item in spec["paths"].items():
        for method in HTTP_METHODS:
            if method in item:
                tag = (item[method].get("tags") or ["other"])[0]
                operations.setdefault(tag, []).append((path, method, item[method]))
    described = {tag["name"]: tag.get("description", "") for tag in spec.get("tags", ())}
    for tag, entries in operations.items():
        if not entries:
            continue
        lines += ["", f"## {tag}", "", _contract(described.get(tag, ""))]
        for path, method, operation in entries:
            lines += ["", *_operation(path, method, operation, spec, _)]
    lines += ["", "## " + _("Schemas") + " { data-search-exclude }"]
    for name, schema in spec.get("components", {}).get("schemas", {}).items():
        lines += ["", *_schema(name, schema, _)]
    return "\n".join(lines)


# -- The engine reference -------------------------------------------------------------------

ENGINE_MODULES = (
    "thirtyone.game", "thirtyone.cards", "thirtyone.hands", "thirtyone.rules",
    "thirtyone.events", "thirtyone.bots", "thirtyone.advice", "thirtyone.race",
    "thirtyone.errors",
)
"""The modules of the engine reference, in the order a newcomer reads them."""


def render_engine_reference() -> str:
    """mkdocstrings' directives for the engine's modules, marked as the English they are."""
    blocks = "\n\n".join(f"::: {module}" for module in ENGINE_MODULES)
    return f'<div lang="en" markdown>\n\n{blocks}\n\n</div>'


# -- The hook --------------------------------------------------------------------------------


def _preset_details(page: Page, lang: str) -> str:
    """A preset page's generated sections, after its hand scorer (the race's hands are totals
    of any number of cards: it has none)."""
    preset = page_preset(page)
    details = render_preset_details(preset, lang)
    if preset.family is Family.RACE:
        return details
    root = "../" * page.file.dest_uri.count("/")
    return render_scorer(preset, lang, root) + "\n\n" + details


def _render(directive: str, argument: str | None, page: Page) -> str:
    lang = page_language(page)
    if directive == "parallel" and argument:
        parallel = render_parallel(argument, lang)
        if argument.startswith("sources/"):
            return render_original_link(argument.removeprefix("sources/"), lang) + "\n\n" + parallel
        return parallel
    if directive == "variant-finder":
        return render_finder(lang)
    if directive == "score-sheets":
        return render_score_sheets(lang)
    if directive == "terms":
        return render_terms(lang)
    if directive == "original" and argument:
        return render_original(argument, lang)
    if directive == "preset-facts":
        return render_preset_facts(page_preset(page), page, lang)
    if directive == "preset-details":
        return _preset_details(page, lang)
    if directive == "presets":
        return render_presets_table(lang)
    if directive == "variants":
        return comparison_table(lang)
    if directive == "summaries":
        return render_summaries(lang)
    if directive == "first-game":
        return render_first_game(lang)
    if directive == "play":
        return render_play_link(page, lang)
    if directive == "race":
        return render_race(lang)
    if directive == "openapi":
        return render_openapi(lang)
    if directive == "strategy-deal":
        return render_deal(lang)
    if directive == "strategy-knock":
        return render_knock(lang)
    if directive == "engine-reference":
        return render_engine_reference()
    if directive == "problem-codes":
        return render_problem_codes(lang)
    raise PluginError(f"{page.file.src_uri}: unknown directive {directive!r}")


LOCAL_SERVER = "http://127.0.0.1:8000"
"""Where `make serve` answers: the offline archive's Play buttons lead there."""


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    set_directory_urls(config.use_directory_urls)
    return config


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Replace each ``{{ directive }}`` line of a page with its generated Markdown."""
    return _DIRECTIVE.sub(lambda match: _render(match[1], match[2], page), markdown)


@event_priority(-200)
def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    """Make the links the theme and the language plugin write from the site's root relative
    to the page, so the site works under any sub-path; point ru and it at their own search.
    A language's ``not-found`` page is also written as its 404.html."""
    output = localize_page(output, page, canonical=bool(os.environ.get("THIRTYONE_SITE_URL")))
    lang = page_language(page)
    _ = site_gettext(lang)
    output = name_search_dialog(output, _("Search the site"))
    output = add_script_strings(output, lang)
    if is_not_found(page):
        keep_404(output, page, config)
    return output


@event_priority(-200)
def on_post_build(config: MkDocsConfig) -> None:
    """Split the one search index the language plugin writes into one per language; write
    each language's 404 page, and the hand scorer's tables and modules."""
    split_search_index(Path(config.site_dir))
    write_stems_worker(Path(config.site_dir))
    write_404s()
    write_scorer_files(Path(config.site_dir))
