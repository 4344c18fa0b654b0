"""A move played and recorded in the table's log, and the bots' moves that follow it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from thirtyone.bots import make_bot
from thirtyone.game import GameState, apply_move, legal_moves, new_game, view
from thirtyone.web.store import SeatRecord

# The bots of one table stop after this many moves in one commit: a safeguard, since every
# match of the engine ends long before.
MAX_BOT_MOVES = 100_000


def play(state: GameState, move: Mapping[str, Any],
         moves: list[dict[str, Any]]) -> tuple[GameState, list[Any]]:
    """Apply ``move`` and append it to ``moves`` as the engine recorded it (canonical, with its
    seat), so that a version replays exactly; a state's own history is bounded and starts
    afresh each deal, so it cannot be the log."""
    after, events = apply_move(state, move)
    if move.get("type") == "next_round":
        moves.append({"type": "next_round"})
    else:
        moves.append(dict(after.history[-1]))
    return after, events


def replay_move(state: GameState, move: Mapping[str, Any]) -> GameState:
    """The state after a logged move: the engine's, or the ``deal`` that ends a table's wait
    (:mod:`~thirtyone.web.tables.life`), which names the deal's seed."""
    if move.get("type") == "deal":
        return new_game(state.rules, state.players, seed=move["seed"])
    return apply_move(state, move)[0]  # type: ignore[arg-type]


def play_bots(state: GameState, seats: tuple[SeatRecord, ...],
              moves: list[dict[str, Any]]) -> tuple[GameState, list[Any]]:
    """The bots move until a human is to move or the match is over; between rounds they deal
    on only when no human is left in the match. Each bot sees only its seat's view; each
    move played is appended to ``moves``."""
    events: list[Any] = []
    for _ in range(MAX_BOT_MOVES):
        if state.is_over:
            break
        seat = state.to_move
        if seat is None:
            # A human still in the match deals; once they are all out, the bots play on.
            if any(stored.bot is None and not state.seats[index].eliminated
                   for index, stored in enumerate(seats)):
                break
            move: dict[str, Any] = {"type": "next_round"}
        else:
            level = seats[seat].bot
            if level is None:
                break
            # Seeded from the table's secret seed and the move's place in the match: the same
            # table replays the same bots, and nobody can foresee them before the seed is out.
            place = f"{state.round}/{state.turns}/{len(state.history)}"
            bot = make_bot(level, f"{state.seed}/bot/{seat}/{place}")
            seen = view(state, seat) if bot.uses_view else None
            move = bot.choose(seen, legal_moves(state))
        state, played = play(state, move, moves)
        events += played
    return state, events
