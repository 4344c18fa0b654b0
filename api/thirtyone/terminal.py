"""A match in the terminal, read like the table: ``thirtyone play``.

You hold seat 0 and the bots the others. Each round opens with a header and every seat's
standing (lives, chips or points, as the match counts them); on your turn the page shows your
hand with its value, the discard pile's top card and the table's cards, then your legal moves
as numbered sentences (:func:`thirtyone.words.describe_move`), and everything that happens is
told as the API tells it (:func:`thirtyone.words.event_message`). Once you are out of the match
the bots play it out and you watch.

What is shown is a list of :data:`Segment`: plain text for a pipe or a file, colours through
`rich <https://rich.readthedocs.io>`_ when it is installed and the output is a terminal (hearts
and diamonds in red, headers in bold); ``NO_COLOR`` turns them off.
"""

from __future__ import annotations

import gettext
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from thirtyone import words
from thirtyone.bots import make_bot
from thirtyone.errors import N_, NP_, ThirtyOneError
from thirtyone.game import GameState, apply_move, legal_moves, new_game, view
from thirtyone.hands import score_hand
from thirtyone.rules import Family, Settlement, find_preset

Segment = tuple[str, str]
"""A piece of a line and its style (a rich style name, or "" for none)."""

Line = list[Segment]

YOU = 0

# A seat's standing, by what the match counts: (the count's name, its singular and plural).
STANDINGS: dict[Settlement, tuple[str, tuple[str, str]]] = {
    Settlement.LIVES: ("lives", NP_("{seat}: {count} life", "{seat}: {count} lives")),
    Settlement.POINTS: ("points", NP_("{seat}: {count} point", "{seat}: {count} points")),
    Settlement.POT: ("chips", NP_("{seat}: {count} chip", "{seat}: {count} chips")),
    Settlement.ESCALATING: ("chips", NP_("{seat}: {count} chip", "{seat}: {count} chips")),
}

SUIT_STYLES = {"H": "red", "D": "red", "C": "", "S": ""}


class Screen:
    """Where the lines go: ``out`` as plain text, or with colours through rich."""

    def __init__(self, out: TextIO, colour: bool | None = None) -> None:
        self.out = out
        if colour is None:
            colour = out.isatty() and "NO_COLOR" not in os.environ
        self._console: Any = None
        if colour:
            try:
                from rich.console import Console
            except ImportError:
                pass
            else:
                self._console = Console(file=out, highlight=False)

    def show(self, line: Line) -> None:
        if self._console is None:
            print("".join(text for text, _ in line), file=self.out)
            return
        from rich.text import Text

        text = Text()
        for piece, style in line:
            text.append(piece, style=style or None)
        self._console.print(text)


class TerminalGame:
    """One match: the state, the bots, and what the screen has been told so far."""

    def __init__(self, translations: gettext.NullTranslations, state: GameState, bots: str,
                 screen: Screen) -> None:
        self.t = translations
        self.state = state
        self.bots = {seat: make_bot(bots, seat) for seat in range(1, state.players)}
        self.screen = screen
        self.preset = find_preset(state.rules.variant)
        self._round_shown = 0
        self._out_told = False

    def play(self, ask: Callable[[int], int]) -> GameState:
        """Play to the end, asking ``ask(count)`` for your choice among ``count`` moves
        (counted from 1)."""
        while not self.state.is_over:
            self._round_header()
            seat = self.state.to_move
            moves = legal_moves(self.state)
            if seat is not None and seat in self.bots:
                bot = self.bots[seat]
                move = bot.choose(view(self.state, seat) if bot.uses_view else None, moves)
            else:
                # Your seat to move, or between rounds, when any seat deals: you do.
                self._your_turn(moves)
                move = moves[ask(len(moves)) - 1]
            self.state, events = apply_move(self.state, move)
            for event in events:
                self.screen.show([(words.event_message(self.t, event), "")])
        self._standings()
        return self.state

    def _say(self, template: str, style: str = "", **params: Any) -> None:
        self.screen.show([(words.format_message(self.t, template, params), style)])

    def _seat(self, seat: int) -> str:
        # As the events name seats ("Player 1 drew..."), you among them.
        if seat == YOU:
            return words.format_message(self.t, N_("Seat {seat} (you)"), {"seat": seat})
        return words.format_message(self.t, N_("Seat {seat}"), {"seat": seat})

    def _round_header(self) -> None:
        if self.state.round == self._round_shown:
            return
        self._round_shown = self.state.round
        self.screen.show([("", "")])
        self._say(N_("Round {round}"), "bold", round=self.state.round)
        self._standings()

    def _standings(self) -> None:
        counted = STANDINGS.get(self.preset.settlement)
        line: Line = []
        for index, seat in enumerate(self.state.seats):
            if line:
                line.append(("  ·  ", "dim"))
            text = self._seat(index)
            if counted is not None:
                name, (singular, plural) = counted
                count = getattr(seat, name)
                text = self.t.ngettext(singular, plural, count).format(seat=text, count=count)
            if seat.eliminated:
                text += " " + words.format_message(self.t, N_("(out)"))
            elif seat.free_ride:
                text += " " + words.format_message(self.t, N_("(free ride)"))
            line.append((text, "dim" if seat.eliminated else ""))
        self.screen.show(line)
        if self.state.is_over:
            winners = ", ".join(self._seat(seat) for seat in self.state.winners)
            self._say(N_("The match is over: {winners} won."), "bold", winners=winners)

    def _cards(self, cards: Sequence[str | None]) -> Line:
        line: Line = []
        for card in cards:
            if line:
                line.append((", ", ""))
            if card is None:
                line.append(("?", "dim"))
            else:
                line.append((words.card_name(self.t, card), SUIT_STYLES.get(card[-1], "")))
        return line

    def _your_turn(self, moves: Sequence[Mapping[str, Any]]) -> None:
        seen = view(self.state, YOU)
        me = self.state.seats[YOU]
        if me.eliminated:
            if not self._out_told:
                self._say(N_("You are out of the match; the others play it out."), "bold")
                self._out_told = True
        else:
            hand = [card for card in seen["hands"][YOU] if card is not None]
            line: Line = [(words.format_message(self.t, N_("Your hand: ")), "bold")]
            line += self._cards(hand)
            value = self._value(hand)
            if value:
                line.append((" — " + value, ""))
            self.screen.show(line)
        if seen["discard"]:
            top = words.format_message(self.t, N_("Top of the discard pile: "))
            self.screen.show([(top, ""), *self._cards(seen["discard"][-1:])])
        if seen["table"]:
            table = words.format_message(self.t, N_("On the table: "))
            self.screen.show([(table, ""), *self._cards(seen["table"])])
        for number, option in enumerate(moves, start=1):
            self.screen.show([(f"  {number}) ", "bold"),
                              (words.describe_move(self.t, option, seen), "")])

    def _value(self, hand: list[str]) -> str:
        if self.preset.family is Family.RACE or len(hand) != 3:
            return ""
        try:
            return words.describe_score(self.t, score_hand(hand, self.state.rules))
        except ThirtyOneError:
            return ""


def ask_terminal(translations: gettext.NullTranslations) -> Callable[[int], int]:
    """Your choice read from the keyboard; end of input ends the game."""

    def ask(count: int) -> int:
        prompt = words.format_message(translations, N_("Your move (1-{count}): "),
                                      {"count": count})
        while True:
            try:
                answer = input(prompt).strip()
            except EOFError:
                print()
                sys.exit(0)
            if answer.isdigit() and 1 <= int(answer) <= count:
                return int(answer)

    return ask


def play(translations: gettext.NullTranslations, variant: str, players: int, *, bots: str,
         seed: int | str | None = None, options: Mapping[str, Any] | None = None,
         out: TextIO | None = None, colour: bool | None = None,
         ask: Callable[[int], int] | None = None) -> GameState:
    """Play a match of ``variant`` in the terminal; the state at its end."""
    state = new_game(variant, players, seed=seed, options=options or None)
    screen = Screen(out or sys.stdout, colour)
    game = TerminalGame(translations, state, bots, screen)
    return game.play(ask or ask_terminal(translations))
