"""The rules options are typed by their values: ``thirtyone.rules`` and ``thirtyone.hands``
pass ``mypy --strict``, and a comparison of an option with a value it cannot take is an error
(each choice option's values are its ``Literal`` type, read at run time for the checks)."""

from __future__ import annotations

import subprocess
import sys
import typing
from pathlib import Path

import pytest

from thirtyone import rules as rules_module
from thirtyone.rules import OPTIONS, Preset, Rules

ROOT = Path(__file__).resolve().parents[2]

MISTAKES = '''
from thirtyone.rules import make_rules

rules = make_rules("scat")
ok = rules.blitz == "ace-ten-face" and rules.knocker_ties == "shared"
wrong = rules.blitz == "any31"
'''


@pytest.mark.slow
def test_rules_and_hands_pass_mypy_strict_and_a_wrong_value_is_caught(tmp_path):
    mistakes = tmp_path / "mistakes.py"
    mistakes.write_text(MISTAKES)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "cache"),
         str(ROOT / "api" / "thirtyone" / "rules.py"), str(ROOT / "api" / "thirtyone" / "hands"),
         str(mistakes)],
        capture_output=True, text=True, timeout=300,
    )
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1, result.stdout + result.stderr
    assert errors[0].startswith(f"{mistakes}:6:") and "comparison-overlap" in errors[0]


def test_each_choice_option_lists_the_values_of_its_type():
    hints = typing.get_type_hints(Rules)
    for name, spec in OPTIONS.items():
        if spec.kind == "choice" and name != "deck":
            assert spec.choices == typing.get_args(hints[name]), name
            assert spec.default in spec.choices, name


def test_presets_are_made_by_keyword():
    with pytest.raises(TypeError):
        Preset("scat", "Scat")  # type: ignore[misc]
    assert all(isinstance(preset, Preset) for preset in rules_module.PRESETS.values())
