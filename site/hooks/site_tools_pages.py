"""Reader tools generated from the engine's presets: the variant finder and the score sheets.

- The finder (``presets/finder.md``): how many players, which pack, lives or chips; the
  presets that fit. Every preset is listed with its players, pack and scoring as data
  attributes; the site's script (javascripts/site.js) hides those that do not fit. Without the
  script the whole list shows.
- A printable score sheet per preset (``presets/score-sheets.md``): one table per preset with a
  column per player and a row per round, headed by what is written in it (lives left, chips
  paid, points), printed one preset per A4 page.
"""

from __future__ import annotations

import json
from html import escape

from site_i18n import engine_gettext, sibling_href, site_gettext, site_ngettext
from thirtyone.cards import DECKS
from thirtyone.rules import PRESETS, Preset, Settlement

SCORING = {
    Settlement.LIVES: "lives",
    Settlement.POT: "chips",
    Settlement.ESCALATING: "chips",
    Settlement.POINTS: "points",
    Settlement.NONE: "none",
}
"""What a reader keeps count of, by the preset's settlement: lives, chips or points."""
SHEET_ROUNDS = 12
SHEET_PLAYERS = 6
"""A sheet's rows and player columns: enough for an evening, on one A4 page."""


def _scoring_labels(lang: str) -> dict[str, str]:
    _ = site_gettext(lang)
    return {"lives": _("Lives"), "chips": _("Chips"), "points": _("Points"),
            "none": _("No score: one game decides")}


def render_finder(lang: str) -> str:
    _ = site_gettext(lang)
    engine = engine_gettext(lang)
    ngettext = site_ngettext(lang)
    decks = sorted({preset.rules.deck for preset in PRESETS.values()})
    most = max(preset.players[1] for preset in PRESETS.values())
    scoring = _scoring_labels(lang)
    options = "".join(f'<option value="{deck}">{escape(engine(DECKS[deck].name))}</option>'
                      for deck in decks)
    kinds = "".join(f'<option value="{kind}">{escape(label)}</option>'
                    for kind, label in scoring.items())
    form = (
        "<form class=\"variant-finder\" data-counts='{counts}'>"
        '<label>{players} <input type="number" name="players" min="2" max="{most}" '
        'inputmode="numeric"></label>'
        '<label>{deck} <select name="deck"><option value="">{any}</option>{options}</select>'
        '</label>'
        '<label>{keep} <select name="scoring"><option value="">{any}</option>{kinds}</select>'
        '</label></form>'
        '<p class="variant-finder-count" role="status" aria-live="polite"></p>'
    ).format(players=escape(_("Players")), most=most, deck=escape(_("Deck")),
             any=escape(_("any")), options=options, keep=escape(_("Keep count of")),
             kinds=kinds,
             counts=escape(json.dumps({
                 count: ngettext("{count} variant fits", "{count} variants fit", count).format(
                     count=count) for count in range(len(PRESETS) + 1)}, ensure_ascii=False)))
    items = []
    for preset in PRESETS.values():
        low, high = preset.players
        kind = SCORING[preset.settlement]
        items.append(
            f'<li data-players="{low}-{high}" data-deck="{preset.rules.deck}" '
            f'data-scoring="{kind}"><a href="{sibling_href(preset.id)}">'
            f"{escape(engine(preset.name))}</a> — "
            + escape(_("{players} players, {deck}, {scoring}").format(
                players=f"{low}–{high}" if low != high else str(low),
                deck=engine(DECKS[preset.rules.deck].name), scoring=scoring[kind].lower()))
            + "</li>")
    return form + '\n\n<ul class="variant-finder-list">\n' + "\n".join(items) + "\n</ul>"


def _sheet(preset: Preset, lang: str) -> str:
    _ = site_gettext(lang)
    engine = engine_gettext(lang)
    kind = SCORING[preset.settlement]
    _low, high = preset.players
    seats = min(high, SHEET_PLAYERS)
    what = {
        "lives": _("Write the lives each player has left after each round; {lives} at the "
                   "start.").format(lives=preset.rules.lives),
        "chips": _("Write the chips each player pays in or takes after each deal; the total of "
                   "each row is zero."),
        "points": _("Write the points each player scores in each round, and the running total "
                    "at the foot."),
        "none": _("One game decides: tick the winner."),
    }[kind]
    player, round_, total = _("Player"), _("Round"), _("Total")
    # The columns are numbered (six names would not fit a phone); the label names them.
    head = "".join(f'<th scope="col" aria-label="{escape(player)} {seat}">{seat}<br>&nbsp;</th>'
                   for seat in range(1, seats + 1))
    rows = "".join(
        f"<tr><th scope=\"row\">{number}</th>" + "<td></td>" * seats + "</tr>"
        for number in range(1, SHEET_ROUNDS + 1))
    foot = (f"<tr><th scope=\"row\">{escape(total)}</th>" + "<td></td>" * seats + "</tr>"
            if kind in ("points", "chips") else "")
    return (
        f'<section class="score-sheet" id="sheet-{preset.id}" markdown>\n\n'
        f"## {engine(preset.name)} {{ #sheet-{preset.id}-title }}\n\n"
        f"{what}\n\n"
        f'<table class="sheet"><thead><tr><th>{escape(round_)}</th>{head}</tr></thead>'
        f"<tbody>{rows}{foot}</tbody></table>\n\n</section>")


def render_score_sheets(lang: str) -> str:
    return "\n\n".join(_sheet(preset, lang) for preset in PRESETS.values())
