"""The "First game" page: one whole round of Scat, played by the engine, told turn by turn.

The round is played by the engine's greedy computer players from a fixed seed: the first seed,
counting from 1, whose round shows what a newcomer needs (a card taken from the discard pile,
a knock, the last turns and a showdown) in a few turns. They knock by the policy's former rule
(25 points, :data:`~thirtyone.policy.DEFAULT_KNOCK`): the self-play fit knocks so late in
three-player Scat (with 31, or 29 on the fifth turn each) that no short round shows a knock.
Every hand is pictured after every turn; at a real table each player sees only their own.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from mkdocs.exceptions import PluginError

from site_cards import card_label, cards_picture
from site_i18n import Gettext, NGettext, plural_count, points_text, site_gettext, site_ngettext
from thirtyone.bots import GreedyBot
from thirtyone.game import GameState, Move, Phase, Seat, apply_move, legal_moves, new_game, view
from thirtyone.hands import score_hand
from thirtyone.policy import DEFAULT_KNOCK

VARIANT = "scat"
PLAYERS = 3
MAX_TURNS = 12
"""The longest round told: a newcomer reads every turn."""
SEEDS = range(1, 1000)


@dataclass(frozen=True)
class Turn:
    seat: int
    moves: tuple[Move, ...]
    taken: str | None
    """The card drawn, when it came from the discard pile (a stock card is unseen by others)."""
    drawn: str | None
    hand: tuple[str, ...]
    final: bool
    """A last turn after the knock."""


@dataclass(frozen=True)
class Round:
    seed: int
    start: GameState
    turns: tuple[Turn, ...]
    end: GameState


def _codes(cards: Any) -> tuple[str, ...]:
    return tuple(card.code for card in cards)


def _play(seed: int) -> Round:
    state = new_game(VARIANT, PLAYERS, seed=seed)
    start = state
    bots = [GreedyBot(knock_at=DEFAULT_KNOCK, seed=seat) for seat in range(PLAYERS)]
    turns: list[Turn] = []
    while state.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER):
        seat = state.turn
        assert seat is not None
        final = state.knocker is not None
        moves = []
        drawn = taken = None
        while state.turn == seat and state.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER):
            move = bots[seat].choose(view(state, seat), legal_moves(state))
            if move["type"] == "draw":
                top = state.stock[0] if move["source"] == "stock" else state.discard[-1]
                drawn = top.code
                taken = top.code if move["source"] == "discard" else None
            state, _events = apply_move(state, move)
            moves.append(move)
            if move["type"] in ("knock", "stand", "discard"):
                break
        turns.append(Turn(seat, tuple(moves), taken, drawn, _codes(state.hands[seat]), final))
    return Round(seed, start, tuple(turns), state)


def _tells_the_game(game: Round) -> bool:
    result = game.end.result or {}
    return (
        result.get("reason") == "showdown"
        and len(game.turns) <= MAX_TURNS
        and any(turn.taken for turn in game.turns)
        and any(move["type"] == "knock" for turn in game.turns for move in turn.moves)
    )


@cache
def first_round() -> Round:
    """The round the page tells: the first seed whose round shows every part of the game."""
    for seed in SEEDS:
        game = _play(seed)
        if _tells_the_game(game):
            return game
    raise PluginError("no seed gives a round of Scat with a knock and a showdown")


def _player(seat: int, _: Gettext) -> str:
    return _("Player {number}").format(number=seat + 1)


def _points(hand: tuple[str, ...], ngettext: NGettext) -> str:
    """"17 points", with the plural form of the language."""
    points = score_hand(list(hand), VARIANT).points
    return ngettext("{points} point", "{points} points", plural_count(points)).format(
        points=points_text(points))


def _hand_block(title: str, codes: tuple[str | None, ...], caption: str, lang: str) -> str:
    return (
        f'<figure class="hand" markdown>\n{cards_picture(codes, lang)}\n'
        f"<figcaption><strong>{title}</strong> — {caption}</figcaption>\n</figure>"
    )


def _turn_text(turn: Turn, lang: str, _: Gettext) -> str:
    who = f"**{_player(turn.seat, _)}**"
    kinds = [move["type"] for move in turn.moves]
    if "knock" in kinds:
        return _("{player} knocks with {points}: each of the others has one last "
                 "turn.").format(player=who, points=_points(turn.hand, site_ngettext(lang)))
    if "stand" in kinds:
        return _("{player} stands: keeps the hand as it is.").format(player=who)
    discarded = next(move["card"] for move in turn.moves if move["type"] == "discard")
    if turn.taken:
        text = _("{player} takes the {card} from the discard pile and throws away the "
                 "{discard}.")
        card = turn.taken
    else:
        text = _("{player} draws the {card} from the stock and throws away the {discard}.")
        card = turn.drawn or ""
    return text.format(player=who, card=card_label(card, lang),
                       discard=card_label(discarded, lang))


def render_first_game(lang: str) -> str:
    """The whole round: the deal, every turn with the hand after it, and the showdown."""
    _ = site_gettext(lang)
    ngettext = site_ngettext(lang)
    game = first_round()
    start, end = game.start, game.end
    dealer = start.dealer
    first = start.turn
    assert first is not None
    parts = [
        "## " + _("The deal"),
        _("Three players, a 52-card pack, three lives each. {dealer} deals three cards to "
          "everyone, one at a time, starting on the left; the rest is the stock, face down, "
          "and its top card is turned up to start the discard pile. {first}, on the dealer's "
          "left, plays first; play goes clockwise.").format(
            dealer=_player(dealer, _), first=_player(first, _),
            # Italian names a player with the article («il giocatore 3»).
            dealer_number=dealer + 1, first_number=first + 1),
        _("The engine dealt this round from shuffle number {seed} and its computer players "
          "played it. "
          "Every hand is shown here so you can follow their choices; at the table you see "
          "only your own.").format(seed=game.seed),
    ]
    for seat, hand in enumerate(start.hands):
        codes = _codes(hand)
        parts.append(_hand_block(_player(seat, _), codes, _points(codes, ngettext), lang))
    parts.append(_hand_block(
        _("The table"), (None, start.discard[-1].code),
        ngettext("the stock ({count} card) and the discard pile",
                 "the stock ({count} cards) and the discard pile", len(start.stock)).format(
            count=len(start.stock)),
        lang))
    parts.append("## " + _("The turns"))
    for number, turn in enumerate(game.turns, 1):
        if turn.final and not game.turns[number - 2].final:
            parts.append("## " + _("The last turns"))
        caption = _("turn {number}, {points}").format(
            number=number, points=_points(turn.hand, ngettext))
        parts.append(_turn_text(turn, lang, _))
        parts.append(_hand_block(_player(turn.seat, _), turn.hand, caption, lang))
    parts.append("## " + _("The showdown"))
    parts.append(_("Everyone shows. The lowest hand loses a life, and players tied for lowest "
                   "all lose one; but a knocker who is lowest, alone or tied, loses two lives, "
                   "and the players tied with the knocker lose nothing."))
    result = end.result or {}
    for seat, shown in enumerate(result.get("hands", ())):
        codes = tuple(shown["cards"])
        parts.append(_hand_block(_player(seat, _), codes, _showdown_caption(
            _points(codes, ngettext), result["lives_lost"][seat], end.seats[seat], lang),
            lang))
    parts.append(_("The round is over: the deal passes to the left and the next round begins "
                   "with fresh cards. A player who loses their last life is not out yet: they "
                   "play on a free ride, and the next loss puts them out. The last one still "
                   "in wins."))
    return "\n\n".join(parts)


def _showdown_caption(points: str, lost: int, seat: Seat, lang: str) -> str:
    """"17 points; loses 1 life, 2 left" in the language, each number with its plural."""
    _ = site_gettext(lang)
    ngettext = site_ngettext(lang)
    if not lost:
        return _("{points}; no life lost").format(points=points)
    loses = ngettext("loses {count} life", "loses {count} lives", lost).format(count=lost)
    if seat.lives:
        remain = ngettext("{count} life left", "{count} lives left", seat.lives).format(
            count=seat.lives)
    elif seat.free_ride:
        remain = _("no life left: a free ride from now on")
    else:
        remain = _("out of the game")
    return _("{points}; {loses}, {left}").format(points=points, loses=loses, left=remain)
