"""Replay the golden playthroughs: the same seed and moves give the same deals, events and
final state on every machine (regenerate with ``python tests/engine/golden_tools.py``)."""

import json
from pathlib import Path

import pytest

from thirtyone.game import GameState, apply_move, new_game

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def test_every_draw_and_race_preset_has_a_golden_file():
    names = {path.stem for path in GOLDEN}
    assert {"scat", "blitz", "cut-throat", "no-elimination", "eenendertigen", "race",
            "schwimmen"} <= names


@pytest.mark.parametrize("path", GOLDEN, ids=[path.stem for path in GOLDEN])
def test_golden_playthrough_replays_exactly(path):
    golden = json.loads(path.read_text())
    state = new_game(golden["variant"], golden["players"], seed=golden["seed"],
                     options=golden["options"] or None)
    assert state.to_dict() == golden["start"]
    for move, expected in zip(golden["moves"], golden["events"], strict=True):
        state, events = apply_move(state, move)
        assert events == expected, move
    assert state.is_over
    assert state.to_dict() == golden["final"]
    assert GameState.from_dict(golden["final"]) == state


def test_every_move_played_in_the_golden_files_is_a_listed_move_type():
    from thirtyone.game.operations import MOVE_TYPES

    played = {move["type"] for path in GOLDEN for move in json.loads(path.read_text())["moves"]}
    assert played <= set(MOVE_TYPES)
    assert {"draw", "discard", "knock", "exchange", "take", "next_round"} <= played
