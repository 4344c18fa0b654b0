"""What sets a preset apart from American Thirty-One (Scat), the family's base, shown on its
page with examples the engine computes: the rules that read differently, the hands that count
differently, the hand pairs decided the other way, and what a smaller or larger pack does to
the hands dealt. Everything is read from the presets' rules, never from their ids.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import combinations

from site_cards import cards_picture
from site_i18n import engine_gettext, points_text, site_gettext
from site_variants import flow, has_blitz, round_ends, settlement, special_hands
from thirtyone.cards import parse_cards
from thirtyone.hands import CATEGORY_NAMES, HandScore, compare_hands, score_hand
from thirtyone.rules import PRESETS, Family, Preset

BASE = "scat"
HANDS = (
    "AS KS 10S", "AS QS JS", "AH QH JH", "KD QD 5C", "9S 8S 7S", "AH KD QC", "7H 7D 7C",
    "AC AD AH", "8S 8C 8D", "JC 9D 9S", "JC 8H 8D", "X1 AS KS", "X1 X2 9H", "3D 2C AS",
    "KS 5H 3H",
)
"""Hands tried under each preset and under the base: those that count differently are shown."""
PAIRS = (
    ("KH QH 7C", "QS JS 8D"), ("8S 8C 8D", "7H 7D 7C"), ("AS KS 9C", "AD KD 9H"),
    ("7H 7D 7C", "AS KS QS"), ("AC AD AH", "AS KS 10S"), ("QS JS 9S", "QH JH 9H"),
    ("KS QS 8S", "KH QH 7H"), ("AS 2S 3S", "AH KH QH"),
)
"""Pairs tried under each preset and under the base: those decided differently are shown."""
MAX_ROWS = 4


def _in_deck(hand: str, preset: Preset) -> bool:
    deck = preset.rules.deck_cards
    return all(card in deck for card in parse_cards(hand.split()))


def _counts(score: HandScore, preset: Preset, lang: str) -> str:
    """What a hand is worth under ``preset``, in words: "31, blitz"; "pair" under brag."""
    engine = engine_gettext(lang)
    category = score.category
    if category == "blitz" and not has_blitz(preset):
        name = site_gettext(lang)("31 in one suit")
    else:
        name = engine(CATEGORY_NAMES[category])
    if preset.rules.ranking == "brag":
        return name
    return f"{points_text(score.points)} ({name})"


def _score(hand: str, preset: Preset) -> HandScore:
    return score_hand(hand.split(), preset.id)


def differing_hands(preset: Preset) -> list[str]:
    """The hands of :data:`HANDS` that count differently here and in the base."""
    base = PRESETS[BASE]
    found = []
    for hand in HANDS:
        if not _in_deck(hand, preset):
            continue
        here = _score(hand, preset)
        if not _in_deck(hand, base) or preset.rules.ranking != base.rules.ranking:
            found.append(hand)
            continue
        there = _score(hand, base)
        if (here.points, here.category) != (there.points, there.category):
            found.append(hand)
    return found[:MAX_ROWS]


def _verdict(pair: tuple[str, str], preset: Preset) -> int:
    ranking = compare_hands(list(pair), preset.id)
    return -1 if len(ranking.order) == 1 else ranking.winners[0]


def differing_pairs(preset: Preset) -> list[tuple[str, str]]:
    """The pairs of :data:`PAIRS` decided differently here and in the base."""
    base = PRESETS[BASE]
    return [
        pair for pair in PAIRS
        if all(_in_deck(hand, preset) and _in_deck(hand, base) for hand in pair)
        and _verdict(pair, preset) != _verdict(pair, base)
    ][:MAX_ROWS]


@cache
def dealt_mean(preset_id: str) -> float:
    """The average points of every three-card hand the preset's pack can deal."""
    preset = PRESETS[preset_id]
    cards = list(preset.rules.deck_cards)
    total: float = 0
    count = 0
    for hand in combinations(cards, 3):
        total += score_hand(list(hand), preset_id).points
        count += 1
    return total / count


def _phrases(preset: Preset, lang: str) -> list[str]:
    return [flow(preset, lang), *round_ends(preset, lang), settlement(preset, lang),
            *special_hands(preset, lang)]


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def render_distinct(preset: Preset, lang: str) -> str:
    """The section "What sets it apart" of a preset's page, empty for the base itself."""
    base = PRESETS[BASE]
    if preset.id == BASE or preset.family is Family.RACE:
        return ""
    _ = site_gettext(lang)
    name = engine_gettext(lang)(base.name)
    theirs = set(_phrases(base, lang))
    own = [phrase for phrase in _phrases(preset, lang) if phrase not in theirs]
    parts = ["## " + _("What sets it apart")]
    if own:
        parts.append(_("Where its rules differ from {base}:").format(base=name))
        parts.append("\n".join(f"- {phrase[0].upper()}{phrase[1:]}" for phrase in own))
    if hands := differing_hands(preset):
        parts.append(_("Hands that count differently here:"))
        lines = [_row([_("Hand"), _("Here"), _("In {base}").format(base=name)]),
                 "| --- | --- | --- |"]
        for hand in hands:
            there = (_counts(_score(hand, base), base, lang) if _in_deck(hand, base)
                     else _("not in its pack"))
            lines.append(_row([cards_picture(hand.split(), lang),
                               _counts(_score(hand, preset), preset, lang), there]))
        parts.append("\n".join(lines))
    if pairs := differing_pairs(preset):
        parts.append(_("Hands compared the other way round:"))
        lines = [_row([_("First hand"), _("Second hand"), _("Here"),
                       _("In {base}").format(base=name)]), "| --- | --- | --- | --- |"]
        words: dict[int, Callable[[], str]] = {
            -1: lambda: _("a tie"), 0: lambda: _("the first hand wins"),
            1: lambda: _("the second hand wins")}
        for pair in pairs:
            lines.append(_row([cards_picture(pair[0].split(), lang),
                               cards_picture(pair[1].split(), lang),
                               words[_verdict(pair, preset)](),
                               words[_verdict(pair, base)]()]))
        parts.append("\n".join(lines))
    if preset.rules.deck != base.rules.deck and preset.rules.ranking != "brag":
        mean_here = dealt_mean(preset.id)
        mean_there = dealt_mean(base.id)
        parts.append(_("With this pack a dealt hand is worth {here} points on average, against "
                       "{there} in {base}: the engine scored every hand of three cards each "
                       "pack can deal.").format(
            here=_decimal(mean_here, lang), there=_decimal(mean_there, lang), base=name))
    return "\n\n".join(parts) if len(parts) > 1 else ""


def _decimal(value: float, lang: str) -> str:
    text = f"{value:.1f}"
    return text if lang == "en" else text.replace(".", ",")
