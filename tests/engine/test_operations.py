"""One operation per move type, listed by the families' phases; the registries of families
and settlers cover every family and settlement."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args, get_type_hints

import pytest

from thirtyone.errors import MoveError
from thirtyone.game import apply_move, legal_moves, new_game, operations
from thirtyone.game.bank import BankFlow
from thirtyone.game.draw import DrawFlow
from thirtyone.game.families import FLOWS, WITH_A_WIDOW, flow_for, flow_of
from thirtyone.game.moves import MOVE_FIELDS, Move, PlayedExchange
from thirtyone.game.operations import MOVES, OPERATIONS, Operation, Phrase
from thirtyone.game.settlers import SETTLERS, settler_for
from thirtyone.rules import PRESETS, Family, Settlement


def test_every_move_type_has_one_operation_with_its_fields():
    """The one registry lists the Move union's TypedDicts, in its order, each under the
    ``type`` its TypedDict declares."""
    assert list(OPERATIONS) == list(MOVES)
    assert list(MOVES.values()) == list(get_args(Move))
    for kind, operation in OPERATIONS.items():
        assert operation.type == kind and operation.fields is MOVES[kind]
        assert get_args(get_type_hints(operation.fields)["type"]) == (kind,)


def test_every_field_of_a_move_is_declared_once():
    """Each key of each move's TypedDict has its MoveField, and each MoveField is used."""
    keys = {key for kind in (*MOVES.values(), PlayedExchange) for key in get_type_hints(kind)}
    assert keys == set(MOVE_FIELDS)


def test_every_family_and_settlement_is_in_its_registry():
    assert set(FLOWS) == set(Family)
    assert set(SETTLERS) == set(Settlement)
    for preset in PRESETS.values():
        widow = preset.rules.widow != "none" and preset.family in WITH_A_WIDOW
        expected = WITH_A_WIDOW[preset.family] if widow else FLOWS[preset.family]
        assert flow_for(preset.rules) is expected
        assert flow_of(new_game(preset.rules, preset.players[0], seed=1)) is expected
        assert settler_for(preset.rules) is SETTLERS[preset.settlement]
    # Bank is the draw family with a widow, played by a flow of its own.
    assert type(flow_for(PRESETS["bank"].rules)) is BankFlow
    assert type(flow_for(PRESETS["scat"].rules)) is DrawFlow


def test_each_flow_has_a_table_of_its_phases():
    for flow in (*FLOWS.values(), *WITH_A_WIDOW.values()):
        assert set(flow.turns) == flow.phases, type(flow).__name__
        assert all(flow.turns.values())


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_a_phase_offers_only_moves_of_its_operations_and_the_rules_moves(variant):
    """Each legal move comes from an operation the phase lists, of a type the rules use; a
    move of a type the rules never use (and the phase does not refuse with its own reason,
    as trentuno's phase refuses a plain knock) is an unknown move."""
    state = new_game(variant, PRESETS[variant].players[0], seed="operations")
    flow = flow_of(state)
    for _ in range(30):
        if state.is_over:
            break
        moves = legal_moves(state)
        if state.to_move is not None:
            operations: list[Operation] = list(flow.operations(state))
            listed = {op.type for op in operations}
            assert {move["type"] for move in moves} <= listed & flow.uses(state.rules)
            unused = sorted(set(MOVES) - flow.uses(state.rules) - listed - {"next_round"})
            for kind in unused:
                with pytest.raises(MoveError) as refused:
                    apply_move(state, {"type": kind})
                assert refused.value.code == "unknown_move"
        state, _ = apply_move(state, moves[-1])


def test_an_operation_says_its_move_as_a_phrase_of_the_catalogs():
    seen = {"table": ["AS", None, "7H"], "discard": ["QC"]}
    phrase = OPERATIONS["exchange"].words({"type": "exchange", "give": ["KD"], "take": [1]},
                                          seen)
    assert phrase.template == "Exchange with the table: give {given}; take {taken}"
    (taken,) = phrase.params["taken"]
    assert isinstance(taken, Phrase) and taken.params["place"].index == 1


_TYPE_READ = r"""(?:\[\s*["']type["']\s*\]|\.get\(\s*["']type["']\s*\)|(?<![.\w])kind\b)"""
_COMPARED = re.compile(_TYPE_READ + r"\s*(?:==|!=|not\s+in\b|in\b)\s*(?P<rhs>[^:\n]*)")
_REVERSED = re.compile(r"""["'](?P<name>\w+)["']\s*(?:==|!=)\s*[\w.]*""" + _TYPE_READ)


def type_comparisons(text: str) -> list[str]:
    """The lines of ``text`` that compare a move's type with a move type's name."""
    names = set(MOVES)
    found = []
    for line in text.splitlines():
        compared = {name for match in _COMPARED.finditer(line)
                    for name in re.findall(r"""["'](\w+)["']""", match["rhs"])}
        compared |= {match["name"] for match in _REVERSED.finditer(line)}
        if compared & names:
            found.append(line.strip())
    return found


def test_type_comparisons_are_found():
    assert type_comparisons('        if move["type"] == "take":') != []
    assert type_comparisons('    if kind in ("join", "pass") and x:') != []
    assert type_comparisons('if entry.get("type") not in ("draw", "discard"):') != []
    assert type_comparisons('if "knock" != move["type"]:') != []
    assert type_comparisons('if spec.kind == "choice":') == []
    assert type_comparisons('if seen["phase"] != "draw":') == []


def test_only_the_operations_compare_a_moves_type_with_names():
    """The bots, the flows and the web ask a move's operation (``is_move``, ``read_move``)
    rather than compare its type with names: only the operations' own module does."""
    root = Path(operations.__file__).parents[1]
    found = {}
    for path in sorted(root.rglob("*.py")):
        if path != Path(operations.__file__):
            lines = type_comparisons(path.read_text())
            if lines:
                found[str(path.relative_to(root))] = lines
    assert found == {}
