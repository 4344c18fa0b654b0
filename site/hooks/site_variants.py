"""Every preset described in words from its rules: the facts of its page, the variant
comparison table and the one-page summaries.

Each description reads the preset's options (``Preset.rules``), never its id, so a preset added
to ``thirtyone.rules.PRESETS`` gets its row and its summary without a change here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import escape

from mkdocs.exceptions import PluginError

from site_i18n import (
    SITE,
    engine_gettext,
    plural_count,
    points_text,
    sibling_href,
    site_gettext,
    site_ngettext,
)
from thirtyone.cards import DECKS, RANK_NAMES, Card
from thirtyone.rules import PRESETS, Family, Preset, Settlement


def players(preset: Preset) -> str:
    low, high = preset.players
    return str(low) if low == high else f"{low}–{high}"


def table_players(preset: Preset) -> int:
    """The number of players the site's examples and play links use: three where allowed."""
    low, high = preset.players
    return max(low, min(3, high))


def has_blitz(preset: Preset) -> bool:
    """Whether a 31 is a *blitz* in this preset: a hand shown at once that costs the others.

    The widow games end the exchanges on a 31 without calling it so; a preset has a blitz when
    its table may choose which hands are one (the ``blitz`` option) and it is not off.
    """
    return "blitz" in preset.settable and preset.rules.blitz != "off"


def deck(preset: Preset, lang: str) -> str:
    engine = engine_gettext(lang)
    return engine(DECKS[preset.rules.deck].name)


def card_values(preset: Preset, lang: str) -> str:
    """What each card counts, read from the preset's deck and values: the ace, the cards worth
    ten, and the numbered ones (RULES.md §1). The Italian pack's queen is its knight."""
    _ = site_gettext(lang)
    engine = engine_gettext(lang)
    rules = preset.rules
    deck = rules.deck_cards
    ranks = {card.rank for card in deck if not card.is_joker}
    names = {rank: engine(RANK_NAMES[rank]) for rank in ranks}
    if rules.deck == "italian40":
        names["Q"] = _("knight")
    ace = 1 if rules.values == "race" else deck.value(Card.of("A", "S"))
    parts = [_("{cards} {points}").format(cards=names["A"], points=ace)]
    tens = [names[rank] for rank in ("K", "Q", "J", "10") if rank in ranks]
    if tens:
        parts.append(_("{cards} {points}").format(cards=", ".join(tens), points=10))
    numbered = sorted(int(rank) for rank in ranks if rank.isdigit() and rank != "10")
    if numbered:
        parts.append(_("{low} to {high} their number").format(low=numbered[0],
                                                              high=numbered[-1]))
    return "; ".join(parts)


def flow(preset: Preset, lang: str) -> str:
    _ = site_gettext(lang)
    names = {
        Family.DRAW: _("draw from the stock or the discard pile, then discard"),
        Family.WIDOW: _("exchange cards with the table"),
        Family.SWITCH: _("swap cards or whole hands with the table hands"),
        Family.RACE: _("take cards in turn toward 31"),
    }
    rules = preset.rules
    text = names[preset.family]
    if preset.family is Family.DRAW and rules.widow != "none":
        text = _("draw, or exchange with a face-down widow, then discard")
    if preset.family is Family.WIDOW and rules.exchange == "one-or-three":
        text = _("swap one card or all three with the table")
    if rules.may_pass:
        text = _("{flow}, or pass; after a full round of passes the table cards go out of play "
                 "and three new ones are laid from the stock").format(flow=text)
    if rules.declarations:
        text = _("{flow}, after a round of declarations").format(flow=text)
    if rules.knock == "plain" and rules.knock_first_round == "forbidden":
        # Knocking at once is the usual rule, said only where it does not hold; what an early
        # knock does under ``showdown`` is among the round's ends.
        text += "; " + _("nobody may knock until every player has had a turn")
    if rules.knock_min is not None:
        text += "; " + _("a knock needs at least {points} points in the hand").format(
            points=rules.knock_min)
    if rules.spare_hand_to == "first-player":
        text += "; " + _("the player on the dealer's left chooses between the dealt hand and "
                         "the spare one")
    if preset.family is Family.WIDOW and rules.exchange == "up-to-max" and rules.may_pass:
        text += "; " + _("up to {count} cards may be swapped at once").format(
            count=rules.exchange_max)
    return text


def settlement(preset: Preset, lang: str) -> str:
    _ = site_gettext(lang)
    rules = preset.rules
    names = {
        Settlement.LIVES: _("the lowest hand loses a life"),
        Settlement.POINTS: _("every player scores points each round"),
        Settlement.POT: _("the best hand takes the pot"),
        Settlement.ESCALATING: _("the loser pays more each deal"),
        Settlement.NONE: _("the race is won or lost outright"),
    }
    text = names[preset.settlement]
    if rules.losers == "all-but-best":
        text = _("every player but the best hand loses a life")
    if preset.settlement is Settlement.LIVES:
        text += "; " + lives(preset, lang)
    elif preset.settlement is Settlement.POT and rules.ante:
        ngettext = site_ngettext(lang)
        text += "; " + ngettext(
            "each player puts {count} chip in the pot every deal",
            "each player puts {count} chips in the pot every deal", rules.ante,
        ).format(count=rules.ante)
    return text


def lives(preset: Preset, lang: str) -> str:
    _ = site_gettext(lang)
    rules = preset.rules
    ngettext = site_ngettext(lang)
    text = ngettext("{count} life each", "{count} lives each", rules.lives).format(
        count=rules.lives)
    if rules.free_ride:
        text += ", " + _("then a free ride until the next loss")
    if rules.knocker_ties == "safe":
        text += "; " + _("the knocker wins ties: when tied for lowest, only the others tied "
                         "lose")
        if rules.knocker_penalty > 1:
            text += "; " + ngettext(
                "a knocker alone lowest loses {count} life",
                "a knocker alone lowest loses {count} lives", rules.knocker_penalty,
            ).format(count=rules.knocker_penalty)
    elif rules.knocker_ties == "double":
        text += "; " + ngettext(
            "a knocker lowest or tied for lowest loses {count} life, the others tied one",
            "a knocker lowest or tied for lowest loses {count} lives, the others tied one",
            rules.knocker_penalty,
        ).format(count=rules.knocker_penalty)
    elif rules.knocker_ties == "penalty":
        text += "; " + ngettext(
            "a knocker lowest or tied for lowest loses {count} life, and the others tied lose "
            "nothing",
            "a knocker lowest or tied for lowest loses {count} lives, and the others tied lose "
            "nothing", rules.knocker_penalty,
        ).format(count=rules.knocker_penalty)
    elif rules.knocker_penalty > 1:
        # knocker_ties: shared, where a tie costs the knocker what it costs the others.
        text += "; " + ngettext(
            "a knocker alone lowest loses {count} life",
            "a knocker alone lowest loses {count} lives", rules.knocker_penalty,
        ).format(count=rules.knocker_penalty)
    return text


def round_ends(preset: Preset, lang: str) -> list[str]:
    """What ends a round of ``preset``, most usual first."""
    _ = site_gettext(lang)
    rules = preset.rules
    if preset.family is Family.RACE:
        return [_("a player makes exactly 31"),
                _("a player cannot take a card without passing 31")]
    if rules.knock == "take-all":
        ends = [_("a player takes all three table cards: one more turn round, then the "
                  "showdown")]
    else:
        ends = [_("a knock: every other player has one more turn, then the showdown")]
        if rules.knock_first_round == "showdown":
            ends.append(_("a knock before anyone has played: the showdown at once, with no "
                          "last turns"))
    if rules.declarations:
        ends.append(_("a declaration: everyone shows at once"))
    if has_blitz(preset):
        ends.append(_("a blitz, shown at once, even in the last turns after a knock")
                    if rules.blitz_after_knock
                    else _("a blitz, shown at once; once someone has knocked it is only the "
                           "best hand at the showdown"))
        if rules.knocker_caught:
            ends.append(_("a knocker caught by a blitz made after the knock pays the knocker's "
                          "penalty"))
    elif preset.family is Family.WIDOW and rules.ranking != "brag":
        ends.append(_("a 31 made by exchanging counts as a knock: every other player has one "
                      "more turn") if rules.on_31 == "knock" else _("a 31, shown at once"))
    if rules.fire == "any-trips":
        ends.append(_("Feuer (any three of a kind), shown at once: every other player loses a "
                      "life")
                    if preset.settlement is Settlement.LIVES
                    else _("Feuer (any three of a kind), shown at once: every other player pays "
                           "the blitz fee"))
    elif rules.three_aces_fire:
        ends.append(_("Feuer (three aces), shown at once: every other player loses a life")
                    if preset.settlement is Settlement.LIVES
                    else _("Feuer (three aces), shown at once: every other player pays the "
                           "blitz fee"))
    if rules.may_pass:
        ends.append(_("a full round of passes with fewer than three cards left in the stock: "
                      "the showdown"))
    if rules.widow_31_wins:
        ends.append(_("a widow dealt with 31 in it: the dealer takes the pot"))
    if rules.dealt_31_wins:
        ends.append(_("a player dealt 31 takes the pot at once"))
    if preset.family is Family.DRAW:
        stock = {
            "void": _("the stock runs out before a knock: nobody loses"),
            "showdown": _("the stock runs out before a knock: the showdown at once, with no "
                          "knocker"),
            "recycle": _("the stock never runs out: the discard pile, turned over, becomes "
                         "the stock again"),
            "reshuffle": _("the stock never runs out: the discard pile is shuffled into a new "
                           "stock"),
        }
        ends.append(stock[rules.stock_exhausted])
    return ends


def special_hands(preset: Preset, lang: str) -> list[str]:
    """The hands that count other than by points in one suit."""
    _ = site_gettext(lang)
    rules = preset.rules
    if preset.family is Family.RACE:
        return []
    if rules.ranking == "brag":
        order = {
            "traditional": _("three threes are the top three of a kind, and ace-two-three the "
                             "top run"),
            "ace-high": _("the ace is high throughout: three aces top, ace-two-three the lowest "
                          "run"),
        }
        return [_("hands rank as in brag: three of a kind, running flush, run, flush, pair, "
                  "high card"), order[rules.brag_order]]
    hands = []
    if has_blitz(preset):
        hands.append(_("blitz: ace, king and ten of one suit") if rules.blitz == "ace-king-ten"
                     else _("blitz: any 31 in one suit"))
    trips = {
        "30.5": _("three of a kind: 30½"),
        "30-below-suited": _("three of a kind: 30, below a 30 in one suit"),
    }
    if rules.three_of_a_kind in trips:
        hands.append(trips[rules.three_of_a_kind])
        if rules.trips_equal:
            hands.append(_("all three of a kind are equal"))
    if rules.count_same_rank:
        hands.append(_("cards of one rank add up too; three aces added up count 30"))
    if rules.three_aces is not None:
        ngettext = site_ngettext(lang)
        count = plural_count(rules.three_aces)
        hands.append(
            ngettext("three aces are Feuer, worth {points} point, and end the round at once",
                     "three aces are Feuer, worth {points} points, and end the round at once",
                     count).format(points=points_text(rules.three_aces))
            if rules.three_aces_fire
            else ngettext("three aces are worth {points} point",
                          "three aces are worth {points} points", count).format(
                points=points_text(rules.three_aces)))
    wild = {
        "jokers": _("jokers are wild"),
        "jack-of-clubs-trips": _("the jack of clubs is wild for three of a kind"),
    }
    if rules.wild in wild:
        hands.append(wild[rules.wild])
    return hands


def first_dealer(preset: Preset, lang: str) -> str:
    _ = site_gettext(lang)
    names = {
        "draw-low": _("the lowest card drawn"),
        "draw-high": _("the highest card drawn"),
        "random": _("chosen at random"),
    }
    return names[preset.rules.first_dealer]


def play_order(preset: Preset, lang: str) -> str:
    _ = site_gettext(lang)
    if preset.family is Family.RACE:
        return _("the two players take cards in turn; the first is decided by {dealer}").format(
            dealer=first_dealer(preset, lang))
    if preset.rules.deal_passes == "right":
        return _("the player on the dealer's left plays first, then play goes clockwise; the "
                 "deal passes to the right after each round")
    return _("the player on the dealer's left plays first, then play goes clockwise; the deal "
             "passes to the left after each round")


def joined(items: Iterable[str]) -> str:
    return "; ".join(items) or "—"


def comparison_table(lang: str) -> str:
    """One row per preset: deck, players, flow, round end, settlement, special hands.

    Written as HTML so that each cell carries its column's name: on a phone every row becomes
    a card of labelled lines instead of a table wider than the screen.
    """
    _ = site_gettext(lang)
    engine = engine_gettext(lang)
    header = [_("Variant"), _("Deck"), _("Players"), _("Game flow"), _("What ends a round"),
              _("Settlement"), _("Special hands")]
    head = "".join(f"<th>{escape(label)}</th>" for label in header)
    rows = []
    for preset in PRESETS.values():
        # The page sits at presets/comparison/, beside each preset's folder.
        link = f'<a href="{sibling_href(preset.id)}">{escape(engine(preset.name))}</a>'
        cells = [
            link, escape(deck(preset, lang)), players(preset), escape(flow(preset, lang)),
            _html_list(round_ends(preset, lang)), escape(settlement(preset, lang)),
            _html_list(special_hands(preset, lang)),
        ]
        rows.append("<tr>" + "".join(
            f'<td data-label="{escape(label)}">{cell}</td>' for label, cell in zip(
                header, cells, strict=True)
        ) + "</tr>")
    return (f'<table class="comparison">\n<thead><tr>{head}</tr></thead>\n<tbody>\n'
            + "\n".join(rows) + "\n</tbody>\n</table>")


def _html_list(items: list[str]) -> str:
    if not items:
        return "—"
    return "<ul>" + "".join(f"<li>{escape(item)}</li>" for item in items) + "</ul>"


PRESET_PAGES = SITE / "docs"
BASE = "scat"
"""The preset others are told as changes of."""
_RULES_TEXT = re.compile(
    r"^\{\{ *preset-facts *\}\}[ \t]*$(.*?)^\{\{ *preset-details *\}\}", re.MULTILINE | re.DOTALL
)


def rules_text(preset: Preset, lang: str) -> str:
    """The hand-written rules of the preset's page in ``lang`` (what lies between its facts
    and its generated details), without their headings."""
    path = PRESET_PAGES / lang / "presets" / f"{preset.id}.md"
    if not path.is_file():
        raise PluginError(f"{path}: every preset needs its page in every language")
    found = _RULES_TEXT.search(path.read_text(encoding="utf-8"))
    if found is None:
        raise PluginError(f"{path}: no rules between {{{{ preset-facts }}}} and "
                          "{{ preset-details }}")
    lines = [line for line in found[1].strip().splitlines() if not line.startswith("#")]
    return "\n".join(lines).strip()


def summary(preset: Preset, lang: str) -> str:
    """One preset on one printed page: its name and gist, the facts, and the page's rules."""
    _ = site_gettext(lang)
    engine = engine_gettext(lang)
    facts = [
        (_("Players"), players(preset)),
        (_("Deck"), deck(preset, lang)),
        (_("Card values"), card_values(preset, lang)),
        (_("Order of play"), play_order(preset, lang)),
        (_("Game flow"), flow(preset, lang)),
        (_("What ends a round"), joined(round_ends(preset, lang))),
        (_("Settlement"), settlement(preset, lang)),
    ]
    if special := special_hands(preset, lang):
        facts.append((_("Special hands"), joined(special)))
    table = ["| | |", "| --- | --- |"] + [f"| **{label}** | {value} |" for label, value in facts]
    rules = rules_text(preset, lang)
    sheet = [
        f'<div class="summary" id="{preset.id}" markdown>',
        f"## {engine(preset.name)}",
        f"*{engine(preset.summary)}*",
        "\n".join(table),
        "### " + _("Rules"),
        rules,
    ]
    if preset.id != BASE and f"]({BASE}.md)" in rules.splitlines()[0]:
        # Rules that open with "As Scat, except...": the sheet prints the rules they start
        # from, so that it stands alone on paper.
        sheet += ['<div class="base-rules" markdown>',
                  "#### " + _("The rules of {base} it starts from").format(
                      base=engine(PRESETS[BASE].name)), rules_text(PRESETS[BASE], lang),
                  "</div>"]
    sheet += ["[{text}]({page}.md)".format(text=_("The whole page"), page=preset.id), "</div>"]
    return "\n\n".join(sheet)


def render_summaries(lang: str) -> str:
    """A list of links, then every preset's summary (each on its own printed page)."""
    engine = engine_gettext(lang)
    links = "\n".join(f"- [{engine(preset.name)}](#{preset.id})" for preset in PRESETS.values())
    sheets = [summary(preset, lang) for preset in PRESETS.values()]
    return "\n\n".join([f'<div class="summary-links" markdown>\n\n{links}\n\n</div>', *sheets])
