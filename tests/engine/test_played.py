"""apply_move's record of a move: what was played, by whom, and what it caused."""

import re
from pathlib import Path

import pytest

from thirtyone.game import Played, apply_move, legal_moves, new_game

ENGINE = Path(__file__).resolve().parents[2] / "api" / "thirtyone"


def test_record_names_the_move_the_seat_and_the_events() -> None:
    state = new_game("scat", 3, seed="played", dealer=0)
    played = apply_move(state, {"type": "draw", "source": "stock", "seat": 1})
    assert isinstance(played, Played)
    after, events = played  # the pair apply_move has always returned
    assert after is played.state and events is played.events
    assert played.move == {"type": "draw", "source": "stock"}
    assert played.seat == 1
    assert played.entry == {"seat": 1, "type": "draw", "source": "stock"}
    assert after.history[-1] == played.entry
    assert [event["type"] for event in events] == ["drew"]


def test_record_is_canonical() -> None:
    state = new_game("scat", 2, seed="canonical", dealer=0)
    state, _ = apply_move(state, {"type": "draw", "source": "stock"})
    card = state.hands[1][0]
    played = apply_move(state, {"type": "discard", "card": card.code.lower()})
    assert played.move == {"type": "discard", "card": card.code}


def test_next_round_is_nobodys() -> None:
    state = new_game("scat", 2, seed="next", dealer=0)
    while legal_moves(state) != [{"type": "next_round"}]:
        state, _ = apply_move(state, legal_moves(state)[-1])
    played = apply_move(state, {"type": "next_round", "seat": 0})
    assert played.seat is None and played.entry == {"type": "next_round"}
    assert played.state.history == ()


def test_seat_to_act() -> None:
    state = new_game("scat", 3, seed="act", dealer=0)
    assert state.seat_to_act == state.turn == 1
    with pytest.raises(AssertionError):
        _ = state.evolve(turn=None).seat_to_act


def test_engine_has_no_cast_and_few_ignores() -> None:
    """mypy passes the engine without casts; an ignore is left only at an untyped library's
    edge, and says which library."""
    casts, ignores = [], []
    for path in ENGINE.rglob("*.py"):
        if "web" in path.relative_to(ENGINE).parts:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"\bcast\(", line):
                casts.append(f"{path.name}:{number}")
            if "type: ignore" in line and "is untyped" not in line:
                ignores.append(f"{path.name}:{number}")
    assert casts == [] and ignores == []
