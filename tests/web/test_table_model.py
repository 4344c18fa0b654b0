"""The table's typed metadata (:mod:`thirtyone.web.tables.table`): one module reads and writes
the stored JSON, and the table's life is a state machine that refuses a transition it lacks."""

from __future__ import annotations

import ast
import pathlib

import pytest

from thirtyone.bots import make_bot
from thirtyone.game import apply_move, legal_moves, new_game, view
from thirtyone.web import tables
from thirtyone.web.store import SeatRecord, TableRecord
from thirtyone.web.tables.table import BadTransition, Phase, Seat, Table, of, stored

PACKAGE = pathlib.Path(tables.__file__).parent


def test_the_stored_json_round_trips_and_keeps_what_it_does_not_know():
    table = Table(seats=(Seat(name="Ana", missed=2), Seat(reserved="h1")),
                  phase=Phase.WAITING, server_seed="s", variant="scat", players=2,
                  options={"lives": 3}, level="strong", turn_seconds=30, public=True,
                  created=12.5, creator=0, rematch_of="old",
                  unknown={"from_a_newer_instance": [1, 2]})
    data = table.to_json()
    assert data["phase"] == "waiting" and data["from_a_newer_instance"] == [1, 2]
    assert Table.from_json(data, 2) == table
    record = stored(TableRecord("t", 0, b"", (SeatRecord(None, None),) * 2, "sha"), table)
    assert of(record) == table


def test_an_old_record_without_seat_metadata_or_phase_reads_as_a_dealt_table():
    record = TableRecord("t", 4, b"", (SeatRecord(None, "h"), SeatRecord("greedy", None)),
                         "sha", extra={"turn_seconds": 10})
    meta = of(record)
    assert meta.phase == Phase.PLAYING and meta.seats == (Seat(), Seat())
    assert meta.level == "greedy" and meta.clocked and not meta.public


def test_the_life_goes_waiting_playing_over_rematched_and_never_back():
    dealt = new_game("scat", 2, seed="life")
    over = dealt
    while not over.is_over:
        seat = over.to_move
        move = ({"type": "next_round"} if seat is None else
                make_bot("greedy", "x").choose(view(over, seat), legal_moves(over)))
        over = apply_move(over, move)[0]
    waiting = Table(seats=(Seat(), Seat()), phase=Phase.WAITING)
    assert waiting.life(dealt) == Phase.WAITING
    playing = waiting.to(Phase.PLAYING, dealt)
    assert playing.life(dealt) == Phase.PLAYING and playing.life(over) == Phase.OVER
    rematched = playing.to(Phase.REMATCHED, over, rematch="next")
    assert rematched.life(over) == Phase.REMATCHED and rematched.rematch == "next"
    with pytest.raises(BadTransition):
        playing.to(Phase.REMATCHED, dealt)  # a match not over has no rematch
    with pytest.raises(BadTransition):
        playing.to(Phase.WAITING, dealt)
    with pytest.raises(BadTransition):
        rematched.to(Phase.REMATCHED, over)


def test_no_module_but_the_table_s_reads_the_stored_metadata_by_key():
    readers = []
    for path in sorted(PACKAGE.glob("*.py")):
        if path.name == "table.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr == "extra":
                readers.append(f"{path.name}:{node.lineno}")
    assert readers == []
