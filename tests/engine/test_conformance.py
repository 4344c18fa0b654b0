"""The conformance vectors: current, complete, and the runner that checks an implementation."""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from thirtyone import conformance
from thirtyone.game import MOVE_TYPES
from thirtyone.hands import SCORING_OPTIONS
from thirtyone.rules import PRESETS, make_rules

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "conformance"


@pytest.mark.slow  # writes every vector again: a third of the engine's fast tests' time
def test_the_committed_vectors_are_what_the_engine_answers(tmp_path):
    """A change of the engine's answers must be deliberate: bump conformance.VERSION, write the
    vectors again (``thirtyone conformance --write``) and say so in the CHANGELOG."""
    conformance.write(tmp_path)
    made = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    kept = sorted(p.relative_to(VECTORS) for p in VECTORS.rglob("*.json*"))
    assert made == kept, "the vectors' files changed: run thirtyone conformance --write"
    committed = json.loads((VECTORS / "hands.json").read_text(encoding="utf-8"))["version"]
    changed = [str(name) for name in made
               if (tmp_path / name).read_bytes() != (VECTORS / name).read_bytes()]
    if committed == conformance.VERSION:
        assert not changed, (
            f"the engine's answers changed in {changed} but the vectors' version is still "
            f"{committed}: if deliberate, bump thirtyone.conformance.VERSION, run "
            "`thirtyone conformance --write` and add a CHANGELOG line")
    else:
        pytest.fail(f"VERSION is {conformance.VERSION}, the vectors say {committed}: "
                    "run `thirtyone conformance --write`")


def test_the_changelog_names_the_vectors_version():
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"[Cc]onformance vectors,? version {conformance.VERSION}\b", changelog)


def test_every_preset_and_hand_option_has_hands():
    cases = json.loads((VECTORS / "hands.json").read_text(encoding="utf-8"))["cases"]
    assert {case["variant"] for case in cases if not case["options"]} == set(PRESETS)
    varied = {name for case in cases for name in case["options"]}
    # the deck's card values and the brag ranking come with their presets (race, stop-the-bus)
    assert set(SCORING_OPTIONS) - varied <= {"values", "ranking"}
    for case in cases:
        assert len(case["hands"]) >= conformance.HANDS_PER_CASE
        assert case["comparisons"]


def test_the_games_cover_every_move_type_family_and_settlement():
    games = conformance.load_games(VECTORS)
    played = {step["move"]["type"] for game in games for step in game["steps"]}
    assert played == set(MOVE_TYPES)
    ended = [make_rules(game["variant"], game["options"] or None) for game in games
             if game["steps"][-1]["state"]["phase"] == "game_over"]
    assert {rules.family for rules in ended} == {p.family for p in PRESETS.values()}
    assert {rules.settlement for rules in ended} == {p.settlement for p in PRESETS.values()}
    sizes = [path.stat().st_size for path in (VECTORS / "games").glob("*.json.gz")]
    assert max(sizes) < 20_000 and sum(sizes) < 200_000


@pytest.mark.slow  # a minute on a busy machine: every state read back and every move replayed
def test_the_engine_passes_its_own_vectors():
    report = conformance.check(VECTORS, conformance.engine_answer)
    assert report.ok, report.lines()
    assert report.passed["apply"] == sum(len(g["steps"]) for g in conformance.load_games(VECTORS))


ADAPTER = """
import json, sys
from thirtyone.conformance import engine_answer
for line in sys.stdin:
    request = json.loads(line)
    answer = engine_answer(request)
    if request["op"] == "score" and request["cards"][0].endswith("S") and {lie}:
        answer["rank"] += 1
    print(json.dumps(answer), flush=True)
"""


@pytest.mark.parametrize("lie", [False, True])
def test_the_command_checks_an_implementation_over_json_lines(tmp_path, lie):
    # the first cases only (and the game of the race), so that the test stays quick
    hands = json.loads((VECTORS / "hands.json").read_text(encoding="utf-8"))
    hands["cases"] = hands["cases"][:2]
    (tmp_path / "hands.json").write_text(json.dumps(hands), encoding="utf-8")
    (tmp_path / "games").mkdir()
    race = next((VECTORS / "games").glob("race-*.json.gz"))
    (tmp_path / "games" / race.name).write_bytes(race.read_bytes())
    adapter = tmp_path / "adapter.py"
    adapter.write_text(ADAPTER.format(lie=lie), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "thirtyone", "conformance", "--dir", str(tmp_path),
         "--command", f"{sys.executable} {adapter}"],
        capture_output=True, text=True, timeout=600, check=False)
    assert "apply: 10 passed, 0 failed" in done.stdout, done.stdout + done.stderr
    assert ("score: 64 passed" in done.stdout) is (not lie), done.stdout + done.stderr
    assert done.returncode == (1 if lie else 0)
    if lie:
        assert "FAIL score scat" in done.stdout and "failed" in done.stdout


def test_an_implementation_may_skip_what_it_does_not_do():
    report = conformance.check(VECTORS, lambda request: {"skip": True}, games=False)
    assert report.ok and not report.passed and report.skipped["score"] > 1000


def test_the_games_are_gzip_without_a_timestamp():
    for path in (VECTORS / "games").glob("*.json.gz"):
        assert path.read_bytes()[4:8] == b"\0\0\0\0"
        assert json.loads(gzip.decompress(path.read_bytes()))["version"] == conformance.VERSION
