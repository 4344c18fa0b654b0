"""The contract read by the npm tools app developers use (built by `make clients`).

`make clients` installs the pinned packages of clients/ts, lints openapi.yaml with redocly,
generates TypeScript types with openapi-typescript and compiles an openapi-fetch script with
`tsc --strict`; here that script plays a whole sealed game and a hosted table against the API,
and redocly must find no problem beyond the justified ones in .redocly.lint-ignore.yaml.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from tests.conftest import ROOT, missing

CLIENTS = ROOT / "clients" / "ts"


@pytest.fixture(scope="module")
def node() -> str:
    binary = shutil.which("node")
    if binary is None:
        missing("node (Debian package nodejs)")
    if not (CLIENTS / "build" / "play.js").is_file():
        missing("the TypeScript client: run `make clients`")
    return binary


@pytest.mark.slow
def test_the_typescript_client_plays_a_sealed_game_and_a_table(node, live_server, app):
    base = live_server(app)
    played = subprocess.run([node, str(CLIENTS / "build" / "play.js"), base],
                            capture_output=True, text=True, timeout=120)
    assert played.returncode == 0, played.stderr
    lines = played.stdout.splitlines()
    assert any(line.startswith("Il giocatore") for line in lines)
    assert any(line.startswith("winners: ") for line in lines)
    assert lines[-1].startswith("table over at version ")


@pytest.mark.slow
def test_redocly_finds_no_problem(node):
    linted = subprocess.run([node, str(CLIENTS / "node_modules" / ".bin" / "redocly"), "lint",
                             "openapi.yaml"], cwd=ROOT, capture_output=True, text=True,
                            timeout=120)
    assert linted.returncode == 0, linted.stdout + linted.stderr
    said = linted.stdout + linted.stderr
    # (Its banner about Node.js 20 is no finding: findings are counted in its summary.)
    assert "Your API description is valid" in said, said
    assert not re.search(r"You have \d+ warning", said), said
