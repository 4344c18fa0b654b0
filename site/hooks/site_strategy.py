"""The figures of the Strategy page, computed by the engine at build time.

- Every three-card hand of a full pack, scored under Scat: how often the deal gives a blitz,
  and how much a dealt hand is worth.
- Self-play: three of the engine's greedy players play seeded rounds of Scat; one of them
  knocks at a threshold that changes from row to row, the others at their default. The same
  seeds serve every threshold, so the rows differ by the threshold alone. About three seconds
  of a build.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from site_i18n import points_text, site_gettext, site_ngettext

from thirtyone.bots import GreedyBot
from thirtyone.game import Phase, apply_move, legal_moves, new_game, view
from thirtyone.hands import score_hand
from thirtyone.rules import PRESETS

VARIANT = "scat"
PLAYERS = 3
THRESHOLDS = (20, 23, 25, 27, 29)
"""The knock thresholds tried; 25 is the computer players' own."""
ROUNDS = 150
"""Seeded rounds per threshold (the seat that tries it moves round the table)."""
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
    rounds: int
    lost: int
    """Rounds in which the seat knocking at ``knock_at`` lost a life."""
    knocks: int
    knocks_lost: int
    """Of the seat's own knocks, those after which it lost a life."""


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


@cache
def thresholds() -> tuple[Threshold, ...]:
    rows = []
    for knock_at in THRESHOLDS:
        played = [_round(seed, knock_at) for seed in range(1, ROUNDS + 1)]
        rows.append(Threshold(
            knock_at, len(played), sum(lost for _knocked, lost in played),
            sum(knocked for knocked, _lost in played),
            sum(knocked and lost for knocked, lost in played)))
    return tuple(rows)


def _percent(share: float, lang: str) -> str:
    text = f"{100 * share:.1f}" if share < 0.1 else f"{100 * share:.0f}"
    return text.replace(".", ",") + " %" if lang != "en" else text + "%"


def render_deal(lang: str) -> str:
    _ = site_gettext(lang)
    figures = deal()
    one_in = round(figures.hands / figures.blitzes)
    lines = [
        _("The engine scored all {hands} hands of three cards that a full pack can deal. "
          "{blitzes} of them are a blitz (an ace with two of the king, queen, jack and ten of "
          "its suit): one deal in {one_in}, or {percent} for each player. At a table of four, "
          "a blitz is dealt about once in {table} rounds.").format(
            hands=f"{figures.hands:,}".replace(",", " " if lang != "en" else ","),
            blitzes=figures.blitzes, one_in=one_in,
            percent=_percent(figures.blitzes / figures.hands, lang),
            table=round(one_in / 4)),
        _("A dealt hand is worth {mean} points on average, and half the hands are worth "
          "{median} or less:").format(mean=f"{figures.mean():.1f}".replace(
              ".", "," if lang != "en" else "."), median=points_text(figures.median())),
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
    lines = [
        ngettext("Three computer players played {rounds} seeded round of Scat for each "
                 "threshold; one of them knocked as soon as its hand reached the threshold, "
                 "the other two at 25.",
                 "Three computer players played {rounds} seeded rounds of Scat for each "
                 "threshold; one of them knocked as soon as its hand reached the threshold, "
                 "the other two at 25.", ROUNDS).format(rounds=ROUNDS),
        "",
        _table_row([_("Knock at"), _("Rounds with a life lost"), _("Its knocks"),
                    _("Knocks that cost a life")]),
        "| --- | --- | --- | --- |",
    ]
    for row in rows:
        lines.append(
            f"| {row.knock_at} | {_percent(row.lost / row.rounds, lang)} | {row.knocks} "
            f"| {_cost(row, lang)} |")
    best = min(rows, key=lambda row: row.lost)
    low, high = rows[0], rows[-1]
    lines += ["", _("In these rounds the seat that knocked at {best} lost a life least often "
                   "({share} of the rounds). An early knock catches the others before they "
                   "have built a hand, but it costs the knocker more often: {low_cost} of the "
                   "knocks at {low} cost a life, against {high_cost} of those at {high}.").format(
        best=best.knock_at, share=_percent(best.lost / best.rounds, lang),
        low=low.knock_at, low_cost=_cost(low, lang), high=high.knock_at,
        high_cost=_cost(high, lang))]
    return "\n".join(lines)


def _cost(row: Threshold, lang: str) -> str:
    return _percent(row.knocks_lost / row.knocks, lang) if row.knocks else "—"
