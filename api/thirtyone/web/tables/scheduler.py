"""The moves nobody chooses, played off the request path: bots' moves and the clock's autopilot.

Reads, streams and long polls never play a move: they :func:`notice` the table (a check of
its seats and clock, no engine work), and each worker's scheduler, one background thread
(a greenlet under gevent), plays what is due:

- a bot to move (or a round to deal with no human left): one slice of moves
  (:data:`SLICE_CPU_SECONDS` of CPU, strong bots thinking in the compute pool), committed as
  the next version by compare-and-set like any move, and the table noticed again, so a
  table of bots alone plays on to its end while nobody watches;
- a turn clock: a timer at the deadline, then the autopilot's move
  (:class:`~thirtyone.web.tables.commands.Autopilot`).

Each job answers the exact decision it was made for: the pool keys a bot's thinking by the
table, its epoch, its version and the moves played since, and the commit is refused if the
table moved on meanwhile (another worker or instance played it first: its slice stands, this
one is dropped and the table noticed again). Between two slices the scheduler yields, so a
worker's other connections never wait on it for more than a slice.

Every worker that sees a table (a read, a stream, a commit) may schedule it; the
compare-and-set lets one of them win. A table nobody touches after its worker stopped waits
for the next read of it, which schedules it on the reader's worker.

An app made for tests (``TESTING``) plays the due moves in the request that noticed them
(``TABLE_SCHEDULER = "inline"``), as its compute pool runs inline: its tests need no
waiting. The servers, and the tests of this module, run the background scheduler.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass

from flask import Flask, current_app

from thirtyone.game import GameState
from thirtyone.web import compute, draining
from thirtyone.web.store import StoreUnavailable, TableNotFound, TableRecord
from thirtyone.web.tables import autoplay, clocks, playing
from thirtyone.web.tables.commands import Advance, Autopilot
from thirtyone.web.tables.commit_path import execute
from thirtyone.web.tables.ledger import AFTER_COMMIT, load_table, table_state
from thirtyone.web.tables.table import Phase, of

_log = logging.getLogger(__name__)

SLICE_CPU_SECONDS = autoplay.SLICE_CPU_SECONDS
"""The most CPU of the worker one scheduled slice spends; the scheduler yields between two
moves of a slice, so the worker's other connections run meanwhile."""

PACE_SECONDS = 0.05
"""A table of bots alone (or whose humans are out) gets a slice at most this often: every
version is pushed to every stream of the table, so its pace bounds what its watchers cost."""

WATCH_SECONDS = 1.0
"""A read schedules a due table on its own worker this long after the version it saw, and
only plays it then if that version is still the table's: the worker that committed the
table last plays it on (its commit scheduled it), and another takes over only from one that
stopped."""

THINKING_SECONDS = 0.05
"""How soon a table whose bot still thinks in the pool is looked at again."""

STORE_RETRY_SECONDS = 1.0


def default_config(testing: bool) -> dict[str, str]:
    return {"TABLE_SCHEDULER": "inline" if testing else "background"}


@dataclass(frozen=True, slots=True)
class Job:
    """Look at a table at ``when`` (Unix time); with ``version``, only if the table is still
    there (a read's watch), else in any case (a commit of this worker's)."""

    when: float
    version: int | None = None

    def before(self, other: Job) -> bool:
        """Whether this job replaces ``other``, already scheduled."""
        if (self.version is None) != (other.version is None):
            return self.version is None
        return self.when < other.when or (self.version or 0) > (other.version or 0)


class Scheduler:
    """This worker's due tables and the thread (a greenlet under gevent) that plays them."""

    def __init__(self, app: Flask) -> None:
        self._app = app
        self._due: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._woken = threading.Event()
        self._pid: int | None = None
        self._stopped = False
        self._waking: float | None = 0.0
        """When the thread wakes next by itself (Unix time; None: only when woken)."""

    def at(self, table: str, job: Job) -> None:
        with self._lock:
            if self._stopped:
                return
            if self._pid != os.getpid():
                # Started in the process that uses it: a forked worker starts its own.
                self._pid = os.getpid()
                threading.Thread(target=self._run, name="thirtyone-scheduler",
                                 daemon=True).start()
            kept = self._due.get(table)
            if kept is not None and not job.before(kept):
                return
            self._due[table] = job
            # Woken only when it would sleep past this job: every stream of a table notices
            # each version, and a wake-up per notice cost the worker one loop each.
            if self._waking is not None and job.when >= self._waking:
                return
            self._waking = job.when
        self._woken.set()

    def stop(self) -> None:
        """Play no more (an instance that stops: another one's scheduler, woken by the next
        read of each table, plays its tables on)."""
        with self._lock:
            self._stopped = True
            self._due.clear()
            self._waking = 0.0
        self._woken.set()

    def _run(self) -> None:
        while not self._stopped:
            self._woken.clear()
            now = time.time()
            with self._lock:
                ready = {table: job for table, job in self._due.items() if job.when <= now}
                for table in ready:
                    del self._due[table]
                upcoming = min((job.when for job in self._due.values()), default=None)
                # A job due before this is scheduled while the slices below run, or while
                # the thread sleeps: it wakes the thread.
                self._waking = now if ready else upcoming
            for table, job in ready.items():
                with self._app.app_context():
                    try:
                        play(table, job.version)
                    except StoreUnavailable:
                        self.at(table, Job(time.time() + STORE_RETRY_SECONDS))
                    except TableNotFound:
                        pass
                    except Exception:  # a bug must not stop every table of the worker
                        _log.exception("table %s: the scheduled move failed", table)
                # Under gevent, the worker's connections run between two slices.
                time.sleep(0)
            if not ready:
                self._woken.wait(None if upcoming is None else max(0.0, upcoming - time.time()))


def init_app(app: Flask) -> None:
    for key, value in default_config(bool(app.config.get("TESTING"))).items():
        app.config.setdefault(key, value)
    scheduler = Scheduler(app)
    app.extensions["thirtyone.scheduler"] = scheduler
    draining.on_stop(scheduler.stop)
    app.extensions.setdefault(AFTER_COMMIT, []).append(_committed)


def _inline() -> bool:
    return bool(current_app.config["TABLE_SCHEDULER"] == "inline")


def _committed(record: TableRecord, state: GameState) -> None:
    """After any commit of this worker (a move, a claim, a slice of its scheduler's): what
    is due next is scheduled here, so a table plays on with nobody reading it. An inline app
    plays it at the next read instead (never inside the commit). The pool's jobs for the
    table's earlier versions that have not started are cancelled (a key rotated or a seat
    claimed while a bot thought: its next decision is asked anew, under the new version)."""
    if _inline():
        return
    compute.cancel(playing.stale_jobs(record.table, record.version))
    when = next_time(record, state)
    if when is None:
        return
    if when <= clocks.now() and not _humans_in_match(record, state):
        when = clocks.now() + PACE_SECONDS
    _scheduler().at(record.table, Job(when))


def _humans_in_match(record: TableRecord, state: GameState) -> bool:
    return any(stored.bot is None and not state.seats[seat].eliminated
               for seat, stored in enumerate(record.seats))


def _scheduler() -> Scheduler:
    scheduler: Scheduler = current_app.extensions["thirtyone.scheduler"]
    return scheduler


def next_time(record: TableRecord, state: GameState) -> float | None:
    """When the table has a move nobody chooses to be played (Unix time), if it has one: now
    for a bot to move, the deadline for a clock; a pure function of the record and state."""
    if of(record).phase == Phase.WAITING or state.is_over:
        return None
    if autoplay.is_due(record.seats, state):
        return clocks.now()
    return clocks.deadline(record, state)


def notice(record: TableRecord, state: GameState | None = None) -> TableRecord:
    """A read saw the table at ``record``: if a move nobody chooses is due there, make sure
    some worker plays it (this one, past :data:`WATCH_SECONDS` or the clock's deadline,
    unless the table moved on meanwhile). The table as the caller is to show it: the same
    record, but in an inline app, where the due move is played at once."""
    state = table_state(record) if state is None else state
    when = next_time(record, state)
    if when is None:
        return record
    if _inline():
        if when <= clocks.now():
            play(record.table)
            return load_table(record.table)
        return record
    _scheduler().at(record.table, Job(max(when, clocks.now() + WATCH_SECONDS) if
                                      autoplay.is_due(record.seats, state) else when,
                                      record.version))
    return record


def play(table: str, version: int | None = None) -> None:
    """Play one slice of what is due at ``table`` (only if it is still at ``version``, when
    given); its commit schedules what follows."""
    record = load_table(table)
    if version is not None and record.version != version:
        return  # it moved on: whoever moved it has it scheduled
    state = table_state(record)
    if clocks.due(record, state, clocks.now()):
        moved = execute(Autopilot(table), record).version != record.version
    elif autoplay.is_due(record.seats, state) and of(record).phase != Phase.WAITING:
        pause = None if _inline() else _yield
        moved = execute(Advance(table, SLICE_CPU_SECONDS, pause), record).version \
            != record.version
    else:
        return
    if not moved and not _inline():
        # Nothing committed: a bot thinks on in the pool, or another request of this worker
        # plays the table now. Looked at again shortly.
        _scheduler().at(table, Job(time.time() + THINKING_SECONDS))


def _yield() -> None:
    # Under gevent (time is patched), the worker's other greenlets run.
    time.sleep(0)
