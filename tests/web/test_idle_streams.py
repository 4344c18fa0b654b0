"""Idle streams cost the table store at most one call each per keep-alive: a process's sweeper
notes their seats and reads their tables in one call for them all, and new versions come from
the process's listener (not counted here: one per process, there with no stream open). A seat
gone, in this process or another, is told to the table's streams with no read of their own."""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from tests.conftest import calibrated

from thirtyone.web import connections, keepalives
from thirtyone.web.store import TableStore
from thirtyone.web.tables import presence

from .test_tables import bearer, hold_tab, make_app, open_table, store_url  # noqa: F401

STREAMS_PER_TABLE = 2
TABLES = 4
KEEPALIVES = 5


def _count_calls(tables: TableStore, counts: Counter[str], counting: threading.Event) -> None:
    """Count, while ``counting`` is set, each call of the store's public methods that reach the
    backend (patched on the instance, so the store's own calls to them count too)."""
    names = [name for name in dir(TableStore) if not name.startswith("_")
             and getattr(getattr(TableStore, name), "__isabstractmethod__", False)]
    assert {"load", "entries", "touch", "seen", "sweep"} <= set(names)

    def counted(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            if counting.is_set():
                counts[name] += 1
            return method(*args, **kwargs)
        return call

    for name in names:
        setattr(tables, name, counted(name, getattr(tables, name)))


def test_an_idle_stream_makes_at_most_one_store_call_per_keepalive(store_url):  # noqa: F811
    app = make_app(store_url, TABLE_KEEPALIVE_SECONDS=0.2, TABLE_STREAM_SECONDS=60.0)
    client = app.test_client()
    counts: Counter[str] = Counter()
    counting = threading.Event()
    _count_calls(app.extensions["thirtyone.tables"], counts, counting)
    keepalives: list[int] = []
    happened: list[bytes] = []
    stop = threading.Event()

    def follow(index: int, table: str, key: str) -> None:
        stream = client.get(f"/v1/tables/{table}/events", headers=bearer(key), buffered=False)
        try:
            for chunk in stream.response:
                # Nothing happens at these tables but their seats coming (a presence).
                if b"event:" in chunk and b"event: presence" not in chunk:
                    happened.append(chunk)
                if b": keep-alive" in chunk:
                    keepalives[index] += 1
                if stop.is_set():
                    return
        finally:
            stream.close()

    readers = []
    for _ in range(TABLES):
        opened = open_table(client, players=2)
        for seat in range(STREAMS_PER_TABLE):
            keepalives.append(0)
            readers.append(threading.Thread(target=follow, daemon=True, args=(
                len(keepalives) - 1, opened["table"], opened["keys"][seat])))
    for reader in readers:
        reader.start()
    try:
        deadline = time.monotonic() + calibrated(60)
        while min(keepalives) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert min(keepalives) >= 2, keepalives
        # Every stream is open and idle: count from here.
        before = list(keepalives)
        counting.set()
        while (min(now - then for now, then in zip(keepalives, before, strict=True)) < KEEPALIVES
               and time.monotonic() < deadline):
            time.sleep(0.05)
        counting.clear()
        sent = sum(now - then for now, then in zip(keepalives, before, strict=True))
    finally:
        stop.set()
        for reader in readers:
            reader.join(timeout=10)
    assert happened == []
    assert sent >= KEEPALIVES * len(readers), keepalives
    calls = sum(counts.values())
    # At most one call per idle stream per keep-alive; in fact one sweep per period for all.
    assert calls <= sent, (calls, sent, counts)
    assert set(counts) <= {"sweep"}, counts


@pytest.mark.parametrize("where", ["here", "elsewhere"])
def test_a_seat_gone_costs_the_streams_told_no_store_call(store_url, where):  # noqa: F811
    # Elsewhere: a second app on the store stands for another worker process.
    settings = {"TABLE_KEEPALIVE_SECONDS": 1.0, "TABLE_STREAM_SECONDS": 30.0}
    app = make_app(store_url, **settings)
    client = app.test_client()
    other = client if where == "here" else make_app(store_url, **settings).test_client()
    counts: Counter[str] = Counter()
    counting = threading.Event()
    _count_calls(app.extensions["thirtyone.tables"], counts, counting)
    opened = open_table(client, players=2)
    table, keys = opened["table"], opened["keys"]
    ready, close = threading.Event(), threading.Event()
    told: list[bytes] = []

    def their_tab() -> None:
        hold_tab(other, table, keys[1], ready, close, 30)

    def my_tab() -> None:
        stream = client.get(f"/v1/tables/{table}/events", headers=bearer(keys[0]),
                            buffered=False)
        for chunk in stream.response:
            if b": keep-alive" in chunk:
                if told:
                    break  # the stream waited (and read what it would) after telling it
                ready.set()  # idle: counted from here
            if chunk.startswith(b"event: presence"):
                told.append(chunk)
        stream.close()

    tab = threading.Thread(target=their_tab)
    tab.start()
    assert ready.wait(30)
    ready.clear()
    mine = threading.Thread(target=my_tab)
    mine.start()
    assert ready.wait(30)
    counting.set()
    close.set()
    tab.join(30)
    mine.join(30)
    counting.clear()
    assert len(told) == 1
    connected = [seat["connected"] for seat in json.loads(told[0].split(b"data: ", 1)[1])["seats"]]
    assert connected == [True, False]
    # The seat forgotten where its last stream was (here: by this app), the sweeps; the stream
    # told reads nothing itself.
    assert set(counts) <= {"sweep", "gone"}, counts


def test_a_keepalive_asks_no_presence_of_seats_held_here(store_url, monkeypatch):  # noqa: F811
    # A window short enough that the seats' times would run out between two keep-alives: the
    # sweeper writes them again, but a stream that looked at the times looked again each time.
    app = make_app(store_url, TABLE_KEEPALIVE_SECONDS=0.2, TABLE_STREAM_SECONDS=60.0,
                   TABLE_PRESENCE_SECONDS=0.6)
    client = app.test_client()
    looks: list[str] = []
    look = presence.look

    def counted(record: Any) -> Any:
        looks.append(record.table)
        return look(record)

    monkeypatch.setattr(presence, "look", counted)
    opened = open_table(client, players=2)
    table, keys = opened["table"], opened["keys"]
    ready, close = threading.Event(), threading.Event()
    keepalives = looked = 0
    told: list[bytes] = []
    tabs = [threading.Thread(target=hold_tab, args=(client, table, keys[1], ready, close, 30))]
    tabs[0].start()
    assert ready.wait(30)
    stream = client.get(f"/v1/tables/{table}/events", headers=bearer(keys[0]), buffered=False)
    try:
        deadline = time.monotonic() + calibrated(60)
        for chunk in stream.response:
            if chunk.startswith(b"event: presence") and keepalives >= 2:
                told.append(chunk)
            if b": keep-alive" in chunk:
                keepalives += 1
                if keepalives == 2:
                    looked = len(looks)  # the stream's start told: counted from here
                    # Players come to another table: no news at this one.
                    other = open_table(client, players=2)
                    tabs.append(threading.Thread(target=hold_tab, args=(
                        client, other["table"], other["keys"][0], threading.Event(), close,
                        30)))
                    tabs[-1].start()
                if keepalives == 12 or time.monotonic() > deadline:
                    break
    finally:
        stream.close()
        close.set()
        for tab in tabs:
            tab.join(30)
    assert keepalives == 12
    # Ten keep-alives (2 s: the seats' times ran out three times over), no look, nothing told.
    assert [one for one in looks[looked:] if one == table] == []
    assert told == []


def test_keepalives_fall_due_on_the_process_grid_never_late(store_url, monkeypatch):  # noqa: F811
    # Streams opened at any moment wake for their keep-alives together: one turn of the event
    # loop for those due in the same step, never later than the period.
    app = make_app(store_url, TABLE_KEEPALIVE_SECONDS=1.0, TABLE_STREAM_SECONDS=60.0)
    client = app.test_client()
    ends: list[tuple[float, float]] = []
    wait = connections.ClientWatch.wait

    def watched(self: Any, woken: threading.Event, seconds: float) -> Any:
        began = time.monotonic()
        answer = wait(self, woken, seconds)
        if answer is False:  # a keep-alive's wait, run out
            ends.append((began, began + seconds))
        return answer

    monkeypatch.setattr(connections.ClientWatch, "wait", watched)
    opened = open_table(client, players=2)
    stream = client.get(f"/v1/tables/{opened['table']}/events",
                        headers=bearer(opened["keys"][0]), buffered=False)
    try:
        for chunk in stream.response:
            if b": keep-alive" in chunk and len(ends) >= 3:
                break
    finally:
        stream.close()
    for began, end in ends:
        # The end as the wait was given it, a few microseconds after the stream's own look
        # at the clock: on the grid within 5 ms (a 4% chance each for an end off it).
        grid = keepalives.GRID
        assert abs(end - round(end / grid) * grid) < 0.005, (began, end)
        assert 1.0 - keepalives.GRID - 0.05 <= end - began <= 1.0, (began, end)
