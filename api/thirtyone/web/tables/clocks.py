"""Turn clocks: a table's ``turn_seconds``, and the autopilot that moves for a seat whose time
ran out.

A turn starts when the version that gives it is committed (``turn_started`` in the table's
meta); past ``turn_started + turn_seconds`` a bot of the table's level plays the seat's move
(between rounds, when no human has dealt, it deals): the
:class:`~thirtyone.web.tables.commands.Autopilot` command, which the worker's scheduler runs at
the deadline and every move, leave or return past it commits first, so the clock works with
any number of stateless instances (the commit's compare-and-set lets one of them win). Three
missed turns in a row hand the seat to the bot for the rest of the match.

:func:`due` is the whole rule, a pure function of the record, the state and the time.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

from thirtyone.game import GameState
from thirtyone.web.store import TableRecord
from thirtyone.web.tables.autoplay import SLICE_WALL_SECONDS
from thirtyone.web.tables.playing import bot_move
from thirtyone.web.tables.table import Phase, of

MISSED_TURNS_TO_BOT = 3


def _humans_in(record: TableRecord, state: GameState) -> list[int]:
    return [seat for seat, stored in enumerate(record.seats)
            if stored.bot is None and not state.seats[seat].eliminated]


def deadline(record: TableRecord, state: GameState) -> float | None:
    """When the move due now must be made (Unix time); None when no clock runs: no
    ``turn_seconds``, a waiting or finished table, or a bot to move."""
    meta = of(record)
    seconds, started = meta.turn_seconds, meta.turn_started
    if not seconds or started is None or meta.phase != Phase.PLAYING or state.is_over:
        return None
    seat = state.to_move
    deadline = float(started) + float(seconds)
    if seat is None:
        return deadline if _humans_in(record, state) else None
    if record.seats[seat].bot is not None:
        return None
    return deadline


def now() -> float:
    """The time the clocks read (Unix time)."""
    return time.time()


def due(record: TableRecord, state: GameState, now: float) -> bool:
    """Whether the autopilot is to move at ``now``."""
    limit = deadline(record, state)
    return limit is not None and now >= limit


def seat_deadlines(record: TableRecord, state: GameState) -> list[float | None]:
    """Each seat's deadline: the seat to move's, or every human's between rounds."""
    limit = deadline(record, state)
    players = len(record.seats)
    if limit is None:
        return [None] * players
    if state.to_move is None:
        humans = set(_humans_in(record, state))
        return [limit if seat in humans else None for seat in range(players)]
    return [limit if seat == state.to_move else None for seat in range(players)]


def timestamp(when: float | None) -> str | None:
    """A time as the answers show it: ISO 8601 in UTC, to the millisecond."""
    if when is None:
        return None
    return datetime.fromtimestamp(when, UTC).isoformat(timespec="milliseconds").replace(
        "+00:00", "Z")


def autopilot_move(record: TableRecord, state: GameState) -> dict[str, Any]:
    """The move the autopilot makes for the seat to move (or the deal between rounds)."""
    seat = state.to_move
    if seat is None:
        return {"type": "next_round"}
    # A strong level thinks in the compute pool, as a bot's seat does.
    return bot_move(state, seat, of(record).level, SLICE_WALL_SECONDS,
                    (record.table, record.epoch, record.version), role="autopilot")
