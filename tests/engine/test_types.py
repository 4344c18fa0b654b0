"""The engine's typed moves, events and views match what it really returns.

Random matches of every preset are played; every legal move, event, history entry and view
is checked against its TypedDict: the keys it must have, no others, and each value's type.
"""

from __future__ import annotations

import functools
import random
import types
from typing import Annotated, Any, Literal, NotRequired, Union, get_args, get_origin, get_type_hints

import pytest
from tests.conftest import sampled

import thirtyone
from thirtyone import EVENT_MESSAGES, EVENTS, MOVE_TYPES, MOVES, PRESETS, PlayedMove, View
from thirtyone.game import apply_move, legal_moves, new_game, view


@functools.cache
def hints_of(kind: type) -> dict[str, Any]:
    return get_type_hints(kind, include_extras=True)


def conforms(value: Any, hint: Any, where: str) -> None:
    """Raise AssertionError naming ``where`` when ``value`` does not have type ``hint``."""
    origin = get_origin(hint)
    if origin is Annotated or origin is NotRequired:
        conforms(value, get_args(hint)[0], where)
    elif origin in (Union, types.UnionType):
        options = get_args(hint)
        if isinstance(value, dict) and "type" in value:
            # A tagged union: check against the member its ``type`` names.
            tagged = [o for o in options if isinstance(o, type) and hasattr(o, "__required_keys__")
                      and get_args(hints_of(o)["type"]) == (value["type"],)]
            if tagged:
                conforms(value, tagged[0], where)
                return
        for option in options:
            try:
                conforms(value, option, where)
                return
            except AssertionError:
                continue
        raise AssertionError(f"{where}: {value!r} is none of {hint}")
    elif origin is Literal:
        assert value in get_args(hint), f"{where}: {value!r} not in {get_args(hint)}"
    elif origin is list:
        assert isinstance(value, list), f"{where}: {value!r} is not a list"
        for index, item in enumerate(value):
            conforms(item, get_args(hint)[0], f"{where}[{index}]")
    elif origin is dict:
        assert isinstance(value, dict), f"{where}: {value!r} is not a dict"
        key_type, item_type = get_args(hint)
        for key, item in value.items():
            conforms(key, key_type, f"{where} key")
            conforms(item, item_type, f"{where}.{key}")
    elif isinstance(hint, type) and hasattr(hint, "__required_keys__"):
        assert isinstance(value, dict), f"{where}: {value!r} is not an object"
        hints = hints_of(hint)
        missing = hint.__required_keys__ - value.keys()
        extra = value.keys() - hints.keys()
        assert not missing and not extra, f"{where}: missing {missing}, extra {extra}: {value}"
        for key, item in value.items():
            conforms(item, hints[key], f"{where}.{key}")
    elif hint is type(None):
        assert value is None, f"{where}: {value!r} is not None"
    elif hint is float:
        assert isinstance(value, int | float) and not isinstance(value, bool), where
    elif hint is int:
        assert isinstance(value, int) and not isinstance(value, bool), f"{where}: {value!r}"
    else:
        assert isinstance(value, hint), f"{where}: {value!r} is not {hint}"


@pytest.mark.parametrize("variant", sampled(list(PRESETS), fast=2))
def test_random_matches_return_what_the_types_say(variant):
    preset = PRESETS[variant]
    seen_events: set[str] = set()
    for seed in range(2):
        chooser = random.Random(seed)
        players = chooser.randint(*preset.players)
        state = new_game(variant, players, seed=seed)
        for turn in range(250):
            if state.is_over:
                break
            moves = legal_moves(state)
            for move in moves:
                conforms(move, MOVES[move["type"]], f"{variant} legal move")
            state, events = apply_move(state, chooser.choice(moves))
            for event in events:
                conforms(event, EVENTS[event["type"]], f"{variant} event")
                seen_events.add(event["type"])
            if turn % 25 == 0 or state.phase in ("round_over", "game_over"):
                for seat in (None, *range(players)):
                    conforms(view(state, seat), View, f"{variant} view of {seat}")
        conforms(view(state, 0), View, f"{variant} final view")
    assert seen_events


def test_the_move_types_are_the_typed_moves():
    assert tuple(MOVES) == MOVE_TYPES
    played = {get_args(get_type_hints(kind)["type"])[0]: kind for kind in get_args(PlayedMove)}
    assert played.keys() == MOVES.keys(), "a move type is missing from PlayedMove"
    assert all(played[name] is MOVES[name] for name in MOVES if name != "exchange")


def test_every_event_has_its_type_and_its_sentence():
    assert list(EVENTS) == list(EVENT_MESSAGES)


def test_every_type_is_exported():
    exported = set(thirtyone.__all__)
    assert {kind.__name__ for kind in (*MOVES.values(), *EVENTS.values())} <= exported
    assert {"Move", "Event", "View", "PlayedMove", "RoundResult"} <= exported
