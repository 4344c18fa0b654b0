"""Advancing a table: the moves that are due without a human to choose them.

A move is due (:func:`due_move`) when a bot seat is to move, or between rounds when no human
seat is left in the match to deal the next round (every human seat eliminated, or none at
all). Nobody runs a background job for it: whoever touches the table plays what is due, in
slices of at most :data:`SLICE_CPU_SECONDS` of this worker's CPU (and
:data:`SLICE_WALL_SECONDS` in all, since a strong bot thinks in the compute pool), each slice
committed as one version:

- a human's move plays the bots' answers in the same commit (:func:`play_due`);
- opening a table, reading it and a long poll call :func:`advance` first;
- the worker holding a table's event stream calls :func:`advance` again after each version it
  sends, so a table of bots alone (or one whose humans are out) plays on while anyone watches
  and reaches its end, and never stops between rounds.

Any instance may advance any table: a slice is committed by compare-and-set on the version, so
two advancing at once lose nothing (the later one's slice is dropped and it reads the table
again). Within one worker, one request at a time advances a table.

A turn clock's autopilot adds its own case to :func:`due_move`: the one place that says which
move is due.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from thirtyone.game import GameState
from thirtyone.web.compute import NotReady
from thirtyone.web.jsonio import dumps
from thirtyone.web.store import SeatRecord, StaleVersion, TableRecord
from thirtyone.web.tables.ledger import commit, store, table_state
from thirtyone.web.tables.playing import bot_move, play
from thirtyone.web.tables.table import Phase, of

SLICE_CPU_SECONDS = 0.05
"""The most CPU one request spends on a table's due moves (measured on its thread)."""

SLICE_WALL_SECONDS = 0.25
"""The longest one request waits on a table's due moves, pool work included."""


@dataclass(frozen=True, slots=True)
class Advanced:
    """A table after :func:`advance`: its version, state there, and the events of the moves
    this call played (none when nothing was due or another request committed first)."""

    version: int
    state: GameState
    events: list[Any]


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


def advance(record: TableRecord, cpu_seconds: float = SLICE_CPU_SECONDS,
            pause: Callable[[], None] | None = None) -> Advanced:
    """Play one slice of the moves due at the table of ``record`` (the store's latest) and
    commit them as its next version; the table as it then is."""
    state = table_state(record)
    # A table waiting for its players holds no dealt cards yet (see tables.life).
    if of(record).phase == Phase.WAITING or not is_due(record.seats, state):
        return Advanced(record.version, state, [])
    with _advancing(record.table) as mine:
        if not mine:
            # Another request of this worker is playing this slice: its commit wakes the
            # table's streams.
            return Advanced(record.version, state, [])
        moves: list[dict[str, Any]] = []
        after, events = play_due(record, record.seats, state, moves, cpu_seconds, pause)
        if not moves:
            # The bot still thinks in the pool: nothing to commit. A commit of no move would
            # be a new version, and the bot's job, keyed by the version it answers, would be
            # asked anew at each slice and never answered while it thinks longer than a slice.
            return Advanced(record.version, state, [])
        try:
            version = commit(record, record.version, moves, after, events)
        except StaleVersion:
            fresh = store().load(record.table)
            return Advanced(fresh.version, table_state(fresh), [])
    return Advanced(version, after, events)


_lock = threading.Lock()
_tables: set[str] = set()


@contextmanager
def _advancing(table: str) -> Iterator[bool]:
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
