"""Portable hand tables: the binary and JSON agree with the engine, and say when damaged."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest
from tests.conftest import sampled

from thirtyone.__main__ import main
from thirtyone.hands import evaluator
from thirtyone.hands.portable import build_table, read_binary, to_binary, to_json
from thirtyone.rules import make_rules


@pytest.mark.parametrize(("variant", "options"), sampled([
    ("race", {}), ("scat", {}), ("schnautz", {}), ("jokers", {}), ("stop-the-bus", {}),
    ("scat", {"tie_break": "suit", "suit_order": "SHDC"}),
]))
def test_every_hand_has_the_engines_value_and_order(variant, options):
    table = build_table(variant, options)
    judge = evaluator(make_rules(variant, options or None))
    deck = judge.deck.cards
    assert len(table.hands) == math.comb(len(deck), 3)
    position = 0
    ranks = {}
    for c in range(len(deck)):
        for b in range(c):
            for a in range(b):
                score = judge.score((deck[a], deck[b], deck[c]))
                points, category, rank = table.classes[table.hands[position]]
                assert (points, category) == (score.points, score.category)
                ranks.setdefault(score.strength, set()).add(rank)
                position += 1
    # one rank per strength, in the strengths' order
    assert all(len(found) == 1 for found in ranks.values())
    ordered = [next(iter(ranks[strength])) for strength in sorted(ranks)]
    assert ordered == list(range(len(ordered)))


def test_the_binary_reads_back_and_a_damaged_one_is_refused():
    table = build_table("trentuno")
    data = to_binary(table)
    assert data[:4] == b"T31H" and data[4] == 1
    assert read_binary(data) == table
    damaged = bytearray(data)
    damaged[len(data) // 2] ^= 1
    with pytest.raises(ValueError, match="checksum"):
        read_binary(bytes(damaged))


def test_export_writes_binary_and_json(tmp_path, capsys):
    binary, text = tmp_path / "t.bin", tmp_path / "t.json"
    main(["tables", "export", "schwimmen", "-o", "tie_break=ranks", "--output", str(binary)])
    main(["tables", "export", "schwimmen", "-o", "tie_break=ranks", "--format", "json",
          "--output", str(text)])
    table = read_binary(binary.read_bytes())
    assert table.options == {"tie_break": "ranks"} and table.hand_rules["tie_break"] == "ranks"
    assert to_json(table) == json.loads(text.read_text(encoding="utf-8"))
    assert "bytes" in capsys.readouterr().err


def test_the_command_line_stops_quietly_on_a_closed_pipe():
    process = subprocess.Popen(
        [sys.executable, "-m", "thirtyone", "tables", "export", "schnautz", "--format", "json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.read(10)
    process.stdout.close()
    errors = process.stderr.read().decode()
    process.wait(timeout=120)
    assert "Traceback" not in errors and "BrokenPipeError" not in errors
