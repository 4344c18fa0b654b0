"""The moves that are due without a human to choose them, played one slice at a time.

A move is due (:func:`due_move`) when a bot seat is to move, or between rounds when no human
seat is left in the match to deal the next round (every human seat eliminated, or none at
all). It is played in slices of at most :data:`SLICE_CPU_SECONDS` of this worker's CPU (and
:data:`SLICE_WALL_SECONDS` in all, since a strong bot thinks in the compute pool), each slice
committed as one version (:func:`play_due`):

- a human's move, a seat left or a table dealt plays the bots' answers in the same commit;
- otherwise the worker's scheduler (:mod:`.scheduler`) plays the next slice off the request
  path, as the :class:`~thirtyone.web.tables.commands.Advance` command, so a table of bots
  alone (or one whose humans are out) plays on to its end and never stops between rounds.

Any instance may advance any table: a slice is committed by compare-and-set on the version, so
two advancing at once lose nothing (the later one's slice is dropped and it reads the table
again). Within one worker, one request at a time advances a table (:func:`advancing`).

A turn clock's autopilot adds its own case to :func:`due_move`: the one place that says which
move is due.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Any

from thirtyone.game import GameState
from thirtyone.web.compute import NotReady
from thirtyone.web.jsonio import dumps
from thirtyone.web.store import SeatRecord, TableRecord
from thirtyone.web.tables.playing import bot_move, play

SLICE_CPU_SECONDS = 0.05
"""The most CPU one request spends on a table's due moves (measured on its thread)."""

SLICE_WALL_SECONDS = 0.25
"""The longest one request waits on a table's due moves, pool work included."""


def is_due(seats: tuple[SeatRecord, ...], state: GameState) -> bool:
    """Whether a move is due at ``state`` without a human's choice (cheaply: no bot is asked
    for its choice)."""
    if state.is_over:
        return False
    seat = state.to_move
    if seat is None:
        return not any(stored.bot is None and not state.seats[index].eliminated
                       for index, stored in enumerate(seats))
    return seats[seat].bot is not None


def due_move(seats: tuple[SeatRecord, ...], state: GameState, wait: float,
             decision: Hashable) -> dict[str, Any] | None:
    """The move due at ``state`` (see :func:`is_due`), or None when a human is to choose or
    the match is over; a bot thinking in the compute pool is waited for ``wait`` seconds at
    most (:class:`~thirtyone.web.compute.NotReady`), its job keyed by ``decision``."""
    if not is_due(seats, state):
        return None
    seat = state.to_move
    if seat is None:
        return {"type": "next_round"}
    level = seats[seat].bot
    assert level is not None
    return bot_move(state, seat, level, wait, decision)


def play_due(record: TableRecord, seats: tuple[SeatRecord, ...], state: GameState,
             moves: list[dict[str, Any]], cpu_seconds: float = SLICE_CPU_SECONDS,
             pause: Callable[[], None] | None = None) -> tuple[GameState, list[Any]]:
    """Play the moves due from ``state`` (reached from ``record``'s version by ``moves``) for
    one slice of ``cpu_seconds`` (or until none is due), appending each to ``moves``; the
    state reached and the events. ``pause`` runs between two moves (the scheduler yields
    there).

    A bot's job in the pool is keyed by the exact decision: the table, its epoch and
    version, and a digest of the moves played on it so far in this commit."""
    cpu = time.thread_time() + cpu_seconds
    wall = time.monotonic() + SLICE_WALL_SECONDS
    events: list[Any] = []
    played = hashlib.sha256(dumps(moves))
    while time.thread_time() < cpu and (remaining := wall - time.monotonic()) > 0:
        decision = (record.table, record.epoch, record.version, played.hexdigest())
        try:
            move = due_move(seats, state, remaining, decision)
        except NotReady:
            # The bot thinks on in the pool; the next slice (a read, a stream) takes its move.
            break
        if move is None:
            break
        state, happened = play(state, move, moves)
        played.update(dumps(moves[-1]))
        events += happened
        if pause is not None:
            pause()
    return state, events


_lock = threading.Lock()
_tables: set[str] = set()


@contextmanager
def advancing(table: str) -> Iterator[bool]:
    """Whether this request holds the right to advance ``table`` in this process."""
    with _lock:
        mine = table not in _tables
        _tables.add(table)
    try:
        yield mine
    finally:
        if mine:
            with _lock:
                _tables.discard(table)
