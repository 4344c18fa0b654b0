"""The TypeScript package passes the hand vectors as an external implementation would:
`thirtyone conformance --command "node clients/ts/test/adapter.mjs DIR"` (after make clients)."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from tests.conftest import ROOT, missing

CLIENTS = ROOT / "clients" / "ts"


@pytest.mark.slow
def test_the_typescript_package_passes_every_hand_vector(tmp_path):
    node = shutil.which("node")
    if node is None:
        missing("node (Debian package nodejs)")
    if not (CLIENTS / "dist" / "index.js").is_file():
        missing("the TypeScript package: run `make clients`")
    tables = tmp_path / "tables"
    subprocess.run([sys.executable, "-m", "thirtyone", "tables", "vectors", str(tables)],
                   check=True, capture_output=True, timeout=600)
    done = subprocess.run(
        [sys.executable, "-m", "thirtyone", "conformance", "--dir", str(ROOT / "conformance"),
         "--command", f"{node} {CLIENTS / 'test' / 'adapter.mjs'} {tables}"],
        capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = dict(line.split(": ", 1) for line in done.stdout.splitlines())
    assert lines["score"].endswith("0 failed, 0 skipped") and " 0 passed" not in lines["score"]
    assert lines["compare"].endswith("0 failed, 0 skipped")
    assert lines["apply"].startswith("0 passed, 0 failed")  # the games: skipped, not failed
