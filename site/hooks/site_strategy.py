"""The figures of the Strategy page, computed by the engine at build time.

- Every three-card hand of a full pack, scored under Scat: how often the deal gives a blitz,
  and how much a dealt hand is worth.
- Self-play: three of the engine's greedy players play seeded rounds of Scat; one of them
  knocks at a threshold that changes from row to row, the others at their default. The same
  seeds serve every threshold, so the rows differ by the threshold alone, and each row is
  compared with the best one seed by seed (a paired difference with its 95% interval): two
  thresholds are called different only when that interval leaves out zero. 150 rounds could not
  tell 20 from 27; ROUNDS can. About 30 s of CPU, so the rounds' outcomes are cached under
  ``build/cache`` by a digest of the engine's code and these settings: a build from clean plays
  them once, a rebuild reads them.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from babel.lists import format_list
from babel.numbers import format_decimal, format_percent

from site_i18n import ROOT, points_text, site_gettext, site_ngettext
from thirtyone.bots import GreedyBot
from thirtyone.game import Phase, apply_move, legal_moves, new_game, view
from thirtyone.hands import score_hand
from thirtyone.rules import PRESETS

VARIANT = "scat"
PLAYERS = 3
THRESHOLDS = (20, 23, 25, 27, 29)
"""The knock thresholds tried; 25 is the computer players' own."""
ROUNDS = 3000
"""Seeded rounds per threshold (the seat that tries it moves round the table): enough for a
95% interval of about ±1.6 points on a share of lost rounds near 27%."""
CACHE = ROOT / "build" / "cache"
Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""
VALUE_BANDS = ((3, 10), (11, 15), (16, 20), (21, 25), (26, 30), (31, 31))
"""Bands of points at the deal, low to high (inclusive)."""


@dataclass(frozen=True)
class Deal:
    hands: int
    blitzes: int
    values: Counter[float]

    def share(self, low: float, high: float) -> float:
        return sum(n for value, n in self.values.items() if low <= value <= high) / self.hands

    def median(self) -> float:
        seen = 0
        for value in sorted(self.values):
            seen += self.values[value]
            if 2 * seen >= self.hands:
                return value
        raise ValueError("no hands")

    def mean(self) -> float:
        return sum(value * n for value, n in self.values.items()) / self.hands


@cache
def deal() -> Deal:
    """Every hand the deal can give in Scat, scored by the engine."""
    cards = list(PRESETS[VARIANT].rules.deck_cards)
    values: Counter[float] = Counter()
    blitzes = 0
    for hand in combinations(cards, 3):
        score = score_hand(list(hand), VARIANT)
        values[score.points] += 1
        blitzes += score.category == "blitz"
    return Deal(sum(values.values()), blitzes, values)


@dataclass(frozen=True)
class Threshold:
    knock_at: int
    lost_in: tuple[bool, ...]
    """Per seed: did the seat knocking at ``knock_at`` lose a life."""
    knocked_in: tuple[bool, ...]
    """Per seed: did it knock."""

    @property
    def rounds(self) -> int:
        return len(self.lost_in)

    @property
    def lost(self) -> int:
        return sum(self.lost_in)

    @property
    def knocks(self) -> int:
        return sum(self.knocked_in)

    @property
    def knocks_lost(self) -> int:
        """Of the seat's own knocks, those after which it lost a life."""
        return sum(k and lost for k, lost in zip(self.knocked_in, self.lost_in, strict=True))

    def interval(self) -> tuple[float, float]:
        """Wilson's 95% interval of the share of rounds with a life lost."""
        n, share = self.rounds, self.lost / self.rounds
        centre = (share + Z95 ** 2 / (2 * n)) / (1 + Z95 ** 2 / n)
        spread = math.sqrt(share * (1 - share) / n + Z95 ** 2 / (4 * n * n))
        half = Z95 * spread / (1 + Z95 ** 2 / n)
        return centre - half, centre + half

    def against(self, other: Threshold) -> tuple[float, float, float]:
        """The paired difference of lost shares, this row minus ``other``, seed by seed, with
        its 95% interval (normal approximation; the seeds are the same in both rows)."""
        diffs = [int(a) - int(b) for a, b in zip(self.lost_in, other.lost_in, strict=True)]
        n = len(diffs)
        mean = sum(diffs) / n
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) / math.sqrt(n)
        return mean, mean - Z95 * spread, mean + Z95 * spread


def _round(seed: int, knock_at: int) -> tuple[bool, bool]:
    """One seeded round: did the trying seat knock, and did it lose a life."""
    trying = seed % PLAYERS
    state = new_game(VARIANT, PLAYERS, seed=seed)
    bots = [GreedyBot(knock_at=knock_at if seat == trying else 25, seed=seed * PLAYERS + seat)
            for seat in range(PLAYERS)]
    knocked = False
    while state.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER):
        seat = state.turn
        assert seat is not None
        move = bots[seat].choose(view(state, seat), legal_moves(state))
        knocked |= seat == trying and move["type"] == "knock"
        state, _events = apply_move(state, move)
    result = state.result or {}
    return knocked, result["lives_lost"][trying] > 0


def _cache_key() -> str:
    """A digest of everything the rounds depend on: the engine's code and these settings."""
    digest = hashlib.sha256(repr((VARIANT, PLAYERS, THRESHOLDS, ROUNDS)).encode())
    engine = ROOT / "api" / "thirtyone"
    for path in sorted(engine.rglob("*.py")):
        if "web" not in path.relative_to(engine).parts:
            digest.update(path.relative_to(engine).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@cache
def thresholds() -> tuple[Threshold, ...]:
    cached = CACHE / f"strategy-{_cache_key()}.json"
    if cached.is_file():
        rows = json.loads(cached.read_text(encoding="utf-8"))
    else:
        rows = []
        for knock_at in THRESHOLDS:
            played = [_round(seed, knock_at) for seed in range(1, ROUNDS + 1)]
            rows.append({"knock_at": knock_at,
                         "lost": "".join("1" if lost else "0" for _k, lost in played),
                         "knocked": "".join("1" if knocked else "0" for knocked, _l in played)})
        CACHE.mkdir(parents=True, exist_ok=True)
        for old in CACHE.glob("strategy-*.json"):
            old.unlink()
        cached.write_text(json.dumps(rows), encoding="utf-8")
    return tuple(Threshold(row["knock_at"], tuple(bit == "1" for bit in row["lost"]),
                           tuple(bit == "1" for bit in row["knocked"])) for row in rows)


def _percent(share: float, lang: str) -> str:
    """A share as the language writes a percentage (Babel: 27%, 27 %, 0,1 %)."""
    digits = "#,##0.0" if abs(share) < 0.1 else "#,##0"
    pattern = {"en": f"{digits}%", "ru": f"{digits}\u00a0%", "it": f"{digits}%"}[lang]
    return format_percent(share, pattern, locale=lang)


def _the_percent(share: float, lang: str) -> str:
    """An Italian percentage with its article, as it is read: lo 0,1%, l'11%, l'8%, il 27%."""
    text = _percent(share, lang)
    whole = int(100 * abs(share) + (0 if abs(share) < 0.1 else 0.5))
    if whole == 0:
        return f"lo {text}"
    if whole in (1, 11) or (str(whole).startswith("8") and whole < 100):
        return f"l'{text}"
    return f"il {text}"


def _points(value: float, lang: str) -> str:
    return format_decimal(round(value, 1), "#,##0.0", locale=lang)


def render_deal(lang: str) -> str:
    _ = site_gettext(lang)
    figures = deal()
    one_in = round(figures.hands / figures.blitzes)
    lines = [
        _("The engine scored all {hands} hands of three cards that a full pack can deal. "
          "{blitzes} of them are a blitz (an ace with two of the king, queen, jack and ten of "
          "its suit): one deal in {one_in}, or {percent} for each player. At a table of four, "
          "a blitz is dealt about once in {table} rounds.").format(
            hands=format_decimal(figures.hands, locale=lang),
            blitzes=figures.blitzes, one_in=one_in,
            percent=_percent(figures.blitzes / figures.hands, lang),
            the_percent=_the_percent(figures.blitzes / figures.hands, lang),
            table=round(one_in / 4)),
        _("A dealt hand is worth {mean} points on average, and half the hands are worth "
          "{median} or less:").format(mean=_points(figures.mean(), lang),
                                      median=points_text(figures.median())),
        "",
        _table_row([_("Points at the deal"), _("Share of hands")]),
        "| --- | --- |",
    ]
    for low, high in VALUE_BANDS:
        band = str(low) if low == high else f"{low}–{high}"
        lines.append(f"| {band} | {_percent(figures.share(low, high), lang)} |")
    return "\n".join(lines)


def _table_row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def render_knock(lang: str) -> str:
    _ = site_gettext(lang)
    ngettext = site_ngettext(lang)
    rows = thresholds()
    best = min(rows, key=lambda row: row.lost)
    lines = [
        ngettext("Three computer players played {rounds} seeded round of Scat for each "
                 "threshold, the same rounds for every threshold; one of them knocked as soon "
                 "as its hand reached the threshold, the other two at 25. Each share comes with "
                 "its 95% confidence interval.",
                 "Three computer players played {rounds} seeded rounds of Scat for each "
                 "threshold, the same rounds for every threshold; one of them knocked as soon "
                 "as its hand reached the threshold, the other two at 25. Each share comes with "
                 "its 95% confidence interval.", ROUNDS).format(
                     rounds=format_decimal(ROUNDS, locale=lang)),
        "",
        _table_row([_("Knock at"), _("Rounds with a life lost"), _("95% interval"),
                    _("Against the best, round by round (percentage points)"), _("Its knocks"),
                    _("Knocks that cost a life")]),
        "| --- | --- | --- | --- | --- | --- |",
    ]
    tied = []
    for row in rows:
        low, high = row.interval()
        if row is best:
            versus = _("the best")
        else:
            mean, below, above = row.against(best)
            versus = _("{diff} (from {low} to {high})").format(
                diff=_signed(mean, lang), low=_signed(below, lang), high=_signed(above, lang))
            if below <= 0:
                tied.append(row.knock_at)
        lines.append(
            f"| {row.knock_at} | {_percent(row.lost / row.rounds, lang)} "
            f"| {_percent(low, lang)} – {_percent(high, lang)} | {versus} "
            f"| {format_decimal(row.knocks, locale=lang)} | {_cost(row, lang)} |")
    share = best.lost / best.rounds
    lines += ["", _("In these rounds the seat that knocked at {best} lost a life least often "
                   "({share} of the rounds).").format(
        best=best.knock_at, share=_percent(share, lang), the_share=_the_percent(share, lang))]
    if tied:
        lines.append(ngettext(
            "Knocking at {thresholds} did not do worse beyond chance: the interval of its "
            "difference from the best still holds zero, so these rounds cannot rank them.",
            "Knocking at {thresholds} did not do worse beyond chance: the intervals of their "
            "differences from the best still hold zero, so these rounds cannot rank them.",
            len(tied)).format(thresholds=_listed(tied, lang)))
    else:
        lines.append(_("Every other threshold lost a life more often, beyond chance: none of "
                       "the intervals of the differences holds zero."))
    first, last = rows[0], rows[-1]
    lines.append(_("An early knock catches the others before they have built a hand, but it "
                   "costs the knocker more often: {low_cost} of the knocks at {low} cost a "
                   "life, against {high_cost} of those at {high}.").format(
        low=first.knock_at, low_cost=_cost(first, lang),
        the_low_cost=_the_cost(first, lang), high=last.knock_at,
        high_cost=_cost(last, lang), the_high_cost=_the_cost(last, lang)))
    return "\n".join(lines)


def _signed(share: float, lang: str) -> str:
    """A difference of shares in points of percentage, with its sign: +2,1 / −0,4."""
    points = format_decimal(abs(100 * share), "#,##0.0", locale=lang)
    return ("+" if share > 0 else "−" if share < 0 else "") + points


def _listed(values: list[int], lang: str) -> str:
    return format_list([str(value) for value in values], locale=lang)


def _cost(row: Threshold, lang: str) -> str:
    return _percent(row.knocks_lost / row.knocks, lang) if row.knocks else "—"


def _the_cost(row: Threshold, lang: str) -> str:
    return _the_percent(row.knocks_lost / row.knocks, lang) if row.knocks else "—"
