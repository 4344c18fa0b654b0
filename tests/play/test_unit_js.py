"""The play page's modules that need no browser (the pacing queue, the reconnect policy, the
words the page builds), unit-tested by node's own runner: ``node --test tests/play/unit/``
(``make test-js``). Node 20 or later; a missing node skips here and fails in CI."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from tests.conftest import ROOT, missing

UNIT = ROOT / "tests" / "play" / "unit"


@pytest.mark.slow
def test_the_client_modules_pass_their_node_tests() -> None:
    node = shutil.which("node")
    if node is None:
        missing("node (Debian package nodejs)")
    tests = sorted(str(path) for path in UNIT.glob("*.test.mjs"))
    assert tests, f"no node test in {UNIT}"
    done = subprocess.run([node, "--test", *tests], capture_output=True, text=True, timeout=120,
                          check=False, cwd=ROOT)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout
