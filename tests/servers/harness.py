"""A harness that plays many tables at once through the API, as careful clients do: every move
carries an Idempotency-Key and is sent again (same key, same body) while the answer is a 503 or
the connection fails; what each table's stream pushed is kept, to check afterwards that no
acknowledged move was lost and no version seen was used twice.

A version is named by its epoch: after a failover (or a restore) a table goes on on a new
epoch, above every version it acknowledged (see ARCHITECTURE.md, "A store that lost
versions"); the stream says ``table_reset`` and resumes from the full cursor, as the play
page's EventSource does with ``Last-Event-ID``."""

from __future__ import annotations

import json
import queue
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

from .conftest import Stream, claim_seats, request

QUICK = {"lives": 3, "free_ride": False}


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def send(ports: list[int], method: str, path: str, body: Any = None,
         headers: dict[str, str] | None = None, patience: float = 60.0,
         refused: list[Any] | None = None) -> tuple[int, Any]:
    """The request sent again (to the next instance) while it fails for want of a store;
    each refusal's problem code (or status) is added to ``refused`` when given."""
    deadline = time.monotonic() + patience
    attempt = 0
    while True:
        port = ports[attempt % len(ports)]
        attempt += 1
        try:
            status, answer = request(port, method, path, body, headers)
        except OSError:
            status, answer = 0, None
        if status not in (0, 502, 503) or time.monotonic() > deadline:
            return status, answer
        if refused is not None:
            refused.append(answer.get("code", status) if isinstance(answer, dict) else status)
        time.sleep(0.2)


class Table:
    """One table of two human seats, seat 0's stream open, played to a number of moves."""

    def __init__(self, ports: list[int], index: int) -> None:
        self.ports = ports
        self.index = index
        headers = {"Idempotency-Key": str(uuid.uuid4())}
        status, created = send(ports, "POST", "/v1/tables",
                               {"variant": "scat", "players": 2, "options": QUICK}, headers)
        assert status == 201, created
        created, self.keys = claim_seats(
            lambda method, path, body: send(ports, method, path, body), created)
        self.table = created["table"]
        # The moves this harness makes, by the version each answer acknowledged (the claim's
        # answer is the claimant's, not a move).
        self.acknowledged: dict[int, list[Any]] = {}
        # Every acknowledged answer as (epoch, version, events), in order: a version of one
        # epoch is one content, whatever happens to the store.
        self.answers: list[tuple[str, int, list[Any]]] = []
        # What the stream pushed, by (epoch, version); each table_reset's (epoch, version).
        self.pushed: dict[tuple[str, int], list[Any]] = {}
        self.resets: list[tuple[str, int]] = []
        self.errors: list[str] = []
        # Moves refused 409 stale_version after a 503 (see :meth:`play`), and the code of
        # every 503 a move got before its answer.
        self.resynced = 0
        self.refused: list[Any] = []
        self.stream = Stream(ports[index % len(ports)], self.table, self.keys[0])
        self.version = created["version"]

    def play(self, moves: int, resync: bool = False) -> None:
        """Make ``moves`` moves (or until the match ends), alternating instances. With
        ``resync``, a move answered 409 ``stale_version`` after a 503 (it was never
        acknowledged, and the table went on on a new epoch meanwhile) is read again and
        played anew, as the 503's problem tells a client to."""
        for turn in range(moves):
            ports = self.ports[turn % len(self.ports):] + self.ports[:turn % len(self.ports)]
            status, public = send(ports, "GET", f"/v1/tables/{self.table}")
            if status != 200:
                self.errors.append(f"read: {status} {public}")
                return
            if public["is_over"]:
                return
            seat = public["to_move"] if public["to_move"] is not None else 0
            status, mine = send(ports, "GET", f"/v1/tables/{self.table}",
                                headers=bearer(self.keys[seat]))
            legal = mine["legal_moves"]
            # Draw and discard, never knock: long matches.
            move = next((move for move in legal if move["type"] not in ("knock",)), legal[0])
            headers = {**bearer(self.keys[seat]), "Idempotency-Key": str(uuid.uuid4())}
            status, answer = send(ports, "POST", f"/v1/tables/{self.table}/moves",
                                  {"move": move, "version": mine["version"]}, headers,
                                  refused=self.refused)
            if resync and status == 409 and answer["code"] == "stale_version":
                self.resynced += 1
                continue
            if status != 200:
                self.errors.append(f"move at {mine['version']}: {status} {answer}")
                return
            self.acknowledged[answer["version"]] = answer["events"]
            self.answers.append((answer["epoch"], answer["version"], answer["events"]))
            self.version = answer["version"]

    def collect(self, timeout: float = 10.0) -> None:
        """What the stream pushed until it caught up with the last acknowledged version
        (reconnecting with Last-Event-ID as an EventSource does when it ends)."""
        deadline = time.monotonic() + timeout
        cursor: int | None = None
        cursor_id: str | None = None
        while time.monotonic() < deadline:
            try:
                item = self.stream.next(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:  # nothing more came
                break
            if item is None:
                self.stream.close()
                if cursor is not None and cursor >= self.version:
                    break
                time.sleep(0.3)
                port = self.ports[0]
                try:
                    self.stream = Stream(port, self.table, self.keys[0], after=cursor_id)
                except OSError:
                    continue
                continue
            event, version, data = item
            if event == "table_reset":
                self.resets.append((data["epoch"], data["version"]))
            elif event is None and version is not None:
                named = (data["epoch"], version)
                if named in self.pushed and self.pushed[named] != data["events"]:
                    self.errors.append(f"version {named} pushed twice, differently")
                self.pushed[named] = data["events"]
            if version is not None:
                cursor, cursor_id = version, data["cursor"]
            if cursor is not None and cursor >= self.version:
                break


def play_all(tables: list[Table], moves: int, resync: bool = False) -> None:
    threads = [threading.Thread(target=table.play, args=(moves, resync)) for table in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def resets_in(store: Any) -> Callable[[str], list[int]]:
    """The versions at which a table went on on a new epoch, read from its archive in the
    Redis ``store`` (a client of the primary, or of the cluster): the archive keeps every
    version's moves, and a new epoch drops what it held from that version on."""

    def resets(table: str) -> list[int]:
        archived = [json.loads(row) for row in store.zrange(f"thirtyone:{{{table}}}:archive",
                                                            0, -1)]
        return [version for version, _, reset in archived if reset]

    return resets


def check(tables: list[Table], ports: list[int], resets: Callable[[str], list[int]]) -> None:
    """No acknowledged move lost, no version of an epoch acknowledged or pushed with two
    contents, and the stream showed every version of each epoch from the first it saw.
    ``resets`` names each table's new epochs (:func:`resets_in`)."""
    for table in tables:
        table.collect()
        assert not table.errors, table.errors
        status, now = send(ports, "GET", f"/v1/tables/{table.table}")
        assert status == 200 and now["version"] == table.version
        answered: dict[tuple[str, int], list[Any]] = {}
        for epoch, version, events in table.answers:
            assert answered.setdefault((epoch, version), events) == events, \
                (table.table, epoch, version, "acknowledged twice, differently")
            if (epoch, version) in table.pushed:
                assert table.pushed[epoch, version] == events, (table.table, epoch, version)
        # A table moved onto a new epoch goes on above every version it acknowledged: one
        # acknowledged at or past the start of the epoch after its own was lost. An epoch's
        # timeline is the versions its reset kept, then its own: it starts at the newest
        # reset at or before the version its table_reset showed (the first epoch at 0), and
        # a version it names may lie before that (a retry's original answer).
        new_epochs = resets(table.table)
        starts = {epoch: max((start for start in new_epochs if start <= shown), default=0)
                  for epoch, shown in table.resets}
        for epoch, version in answered:
            if epoch not in starts:
                assert table.answers[0][0] == epoch, (table.table, epoch, "never announced")
                starts[epoch] = 0
            after = min((start for start in new_epochs if start > starts[epoch]),
                        default=version + 1)
            assert version < after, (table.table, epoch, version, "lost", new_epochs)
        for epoch in starts:
            shown = sorted({version for named, version in [*table.pushed, *table.resets]
                            if named == epoch})
            last = table.version if epoch == now["epoch"] else shown[-1] if shown else 0
            assert not shown or shown == list(range(shown[0], last + 1)), \
                (table.table, epoch, shown)
        table.stream.close()
