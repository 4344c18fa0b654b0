"""The engine's types carry an embedding app through ``mypy --strict`` (py.typed ships)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def test_an_embedding_app_passes_mypy_strict(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path),
         str(HERE / "embedding.py")],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_engine_is_marked_typed():
    assert (ROOT / "api" / "thirtyone" / "py.typed").is_file()


def test_the_embedding_app_runs():
    result = subprocess.run([sys.executable, str(HERE / "embedding.py")],
                            capture_output=True, text=True, timeout=60, check=True)
    assert "match_won" in result.stdout
