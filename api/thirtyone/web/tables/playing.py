"""A move played and recorded in the table's log, and a bot's choice of its move."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

from thirtyone.bots import make_bot
from thirtyone.game import GameState, apply_move, legal_moves, new_game, view
from thirtyone.web import compute

OFF_LOOP_LEVELS = frozenset({"strong"})
"""Bot levels whose move costs enough CPU (the strong bot samples for about 50 ms) to be
chosen in the worker's compute pool (:mod:`thirtyone.web.compute`) rather than on its loop;
the others choose in microseconds."""


def play(state: GameState, move: Mapping[str, Any],
         moves: list[dict[str, Any]]) -> tuple[GameState, list[Any]]:
    """Apply ``move`` and append it to ``moves`` as the engine recorded it (canonical, with its
    seat), so that a version replays exactly; a state's own history is bounded and starts
    afresh each deal, so it cannot be the log."""
    played = apply_move(state, move)
    moves.append(played.entry)
    return played.state, played.events


def replay_move(state: GameState, move: Mapping[str, Any]) -> GameState:
    """The state after a logged move: the engine's, or the ``deal`` that ends a table's wait
    (:mod:`~thirtyone.web.tables.life`), which names the deal's seed."""
    if move.get("type") == "deal":
        return new_game(state.rules, state.players, seed=move["seed"])
    return apply_move(state, move)[0]


def job_key(role: str, decision: Hashable, seat: int) -> Hashable:
    """The compute pool's key of a bot's (or the autopilot's) decision at ``seat``:
    ``decision`` is ``(table, epoch, version, digest of the moves played since)``."""
    return (role, decision, seat)


def stale_jobs(table: str, version: int) -> Callable[[Hashable], bool]:
    """Whether a pool job's key (:func:`job_key`) asks about ``table`` at a version before
    ``version``, which it has passed: nobody asks for those answers again."""

    def stale(key: Hashable) -> bool:
        decision = key[1] if isinstance(key, tuple) and len(key) == 3 else None
        return (isinstance(decision, tuple) and decision[0] == table
                and decision[2] < version)

    return stale


def bot_move(state: GameState, seat: int, level: str, wait: float, decision: Hashable,
             role: str = "bot") -> dict[str, Any]:
    """The move of the bot of ``level`` at ``seat``, the seat to move, from its view alone;
    a bot that thinks in the compute pool is waited for ``wait`` seconds at most
    (:class:`~thirtyone.web.compute.NotReady` then: asked again with the same ``decision``,
    the same thinking goes on). ``decision`` names exactly the state it answers (the
    table, its epoch and version, and the moves played since): the pool hands a job's
    answer to whoever asks with its key, so two decisions must never share one
    (a key built from the state's capped history once did, and a draw was played as a
    discard). ``role`` seeds the bot: ``bot`` for a bot's seat, ``autopilot`` for a late
    player's."""
    # Seeded from the table's secret seed and the move's place in the match: the same
    # table replays the same bots, and nobody can foresee them before the seed is out.
    place = f"{state.round}/{state.turns}/{len(state.history)}"
    bot = make_bot(level, f"{state.seed}/{role}/{seat}/{place}")
    seen = view(state, seat) if bot.uses_view else None
    moves = legal_moves(state)
    if len(moves) > 1 and level in OFF_LOOP_LEVELS:
        return dict(compute.result(job_key(role, decision, seat), wait, bot.choose, seen,
                                   moves))
    return dict(bot.choose(seen, moves))
