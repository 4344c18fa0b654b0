"""The terminal game reads like the table: round headers and standings, your hand with its
value, numbered moves in words, what happened, and once you are out, the others playing on;
in a real terminal (a pty) in colour, elsewhere in plain text."""

from __future__ import annotations

import io
import os
import pty
import re
import select
import subprocess
import sys
import time

from tests.conftest import calibrated

from thirtyone import terminal, words
from thirtyone.game import new_game

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def knock_at_once(count: int) -> int:
    """Knock whenever the draw phase offers it (its third move), else the first move."""
    return count if count == 3 else 1


def played(language: str, seed: int = 3, **options: object) -> tuple[str, object]:
    out = io.StringIO()
    state = terminal.play(words.load_catalogs()[language], "scat", 3, bots="greedy", seed=seed,
                          options={"lives": 1, "free_ride": False, **options}, out=out,
                          colour=False, ask=knock_at_once)
    return out.getvalue(), state


def test_a_match_reads_round_by_round_and_the_out_seat_watches():
    text, state = played("en")
    assert state.is_over and 0 not in state.winners
    lines = text.splitlines()
    assert lines[1] == "Round 1"
    assert lines[2] == "Seat 0 (you): 1 life  ·  Seat 1: 1 life  ·  Seat 2: 1 life"
    hand = new_game("scat", 3, seed=3, options={"lives": 1, "free_ride": False}).hands[0]
    names = ", ".join(words.card_name(words.NULL, card) for card in hand)
    assert lines[3].startswith(f"Your hand: {names} — ") and "points" in lines[3]
    assert lines[4].startswith("Top of the discard pile: ")
    assert lines[5:8] == ["  1) Draw from the stock", lines[6], "  3) Knock"]
    assert lines[6].startswith("  2) Take from the discard pile: ")
    assert "Seat 0 knocked." in lines
    # Once out, no hand of yours is shown again, and you are told so once.
    out_at = lines.index("You are out of the match; the others play it out.")
    assert not any(line.startswith("Your hand") for line in lines[out_at:])
    assert text.count("You are out of the match") == 1
    assert "Round 2" in lines and "Seat 0 (you): 0 lives (out)" in text
    assert lines[-1] == f"The match is over: Seat {state.winners[0]} won."


def test_each_language_reads_natively_with_its_plural_forms():
    russian, _ = played("ru")
    assert "Раунд 1" in russian and "Игрок 0 (вы): 1 жизнь" in russian
    assert "Ваши карты: " in russian and "очк" in russian
    assert "Игрок 0 (вы): 0 жизней (выбыл)" in russian
    italian, _ = played("it")
    assert "Mano 1" in italian and "Giocatore 0 (tu): 1 vita" in italian
    assert "In mano hai: " in italian and "0 vite (fuori)" in italian
    chips = io.StringIO()
    terminal.play(words.load_catalogs()["ru"], "schnautz", 3, bots="greedy", seed=1,
                  out=chips, colour=False, ask=lambda count: 1)
    assert re.search(r"Игрок 1: -?\d+ фиш(ка|ки|ек)", chips.getvalue())


def run_in_pty(*arguments: str, answers: int = 400) -> str:
    """``thirtyone play`` in a pseudo-terminal, answering 1 to every question."""
    main, child = pty.openpty()
    env = {**os.environ, "COLUMNS": "120", "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    process = subprocess.Popen([sys.executable, "-m", "thirtyone", "play", *arguments],
                               stdin=child, stdout=child, stderr=child, env=env)
    os.close(child)
    output = b""
    deadline = time.monotonic() + calibrated(60)
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(main, 65536)
                except OSError:  # the child closed the terminal: the match is over
                    break
                output += chunk
                if chunk.rstrip().endswith((b"):", b": \x1b[0m")) or b"): " in chunk[-12:]:
                    os.write(main, b"1\n")
            elif process.poll() is not None:
                break
    finally:
        process.kill()
        process.wait()
        os.close(main)
    return output.decode("utf-8", "replace")


def test_a_real_terminal_gets_colours_and_a_pipe_plain_text():
    coloured = run_in_pty("scat", "--players", "2", "--seed", "3", "--lang", "ru",
                          "-o", "lives=1")
    assert ANSI.search(coloured), coloured[:500]
    plain = ANSI.sub("", coloured)
    assert "Раунд 1" in plain and "Ваши карты:" in plain and "Партия окончена" in plain
    piped = subprocess.run(
        [sys.executable, "-m", "thirtyone", "play", "scat", "--players", "2", "--seed", "3",
         "--lang", "it", "-o", "lives=1"], input="1\n" * 400, capture_output=True, text=True,
        timeout=60)
    assert not ANSI.search(piped.stdout) and "Mano 1" in piped.stdout
    assert "La partita è finita" in piped.stdout
    no_colour = run_in_pty("scat", "--players", "2", "--seed", "3", "--no-colour",
                           "-o", "lives=1")
    assert not ANSI.search(no_colour) and "Round 1" in no_colour
