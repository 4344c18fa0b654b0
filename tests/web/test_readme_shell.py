"""The README's shell examples run as written, in order, against a live server.

Every ```` ```sh ```` block runs in one bash session (variables carry from block to block, as
for a reader pasting them), with ``http://127.0.0.1:8000`` pointing at a server of this test
and the package's ``thirtyone`` command first on ``PATH``; a block preceded by
``<!-- readme: not run (why) -->`` is skipped (setting up a machine, an interactive game).

A command's printed result is written under it as a comment starting with ``# →``, continued
on the next comment lines; ``...`` stands for any text, and whitespace is ignored (the README
wraps long JSON anywhere). The result must be what the command printed last before the comment.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from tests.conftest import ROOT, missing

pytestmark = pytest.mark.slow

README = ROOT / "README.md"
SKIP = re.compile(r"<!--\s*readme:\s*not run\b")
BASE = "http://127.0.0.1:8000"
BEGIN = "@@readme-begin {}@@"
MARK = "@@readme-end {}@@"


@dataclass
class Expectation:
    line: int
    text: str

    def matches(self, printed: str) -> bool:
        wanted = "".join(self.text.split())
        got = "".join(printed.split())
        pattern = ".*?".join(re.escape(part) for part in wanted.split("..."))
        return re.fullmatch(pattern, got, flags=re.DOTALL) is not None


def blocks(text: str) -> list[tuple[int, list[str]]]:
    """The runnable sh blocks: their first line number and their lines."""
    found: list[tuple[int, list[str]]] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        if lines[index].strip() == "```sh":
            before = next((line for line in reversed(lines[:index]) if line.strip()), "")
            start = index + 1
            end = next(i for i in range(start, len(lines)) if lines[i].strip() == "```")
            if not SKIP.search(before):
                found.append((start + 1, lines[start:end]))
            index = end
        index += 1
    return found


def script(runnable: list[tuple[int, list[str]]]) -> tuple[str, list[Expectation]]:
    """One bash script of every block, each result's command between two printed markers."""
    body: list[str] = []
    expectations: list[Expectation] = []
    for first, lines in runnable:
        index = 0
        while index < len(lines):
            line = lines[index]
            if not line.lstrip().startswith("# →"):
                body.append(line)
                index += 1
                continue
            text = [line.lstrip().removeprefix("# →")]
            while index + 1 < len(lines) and lines[index + 1].lstrip().startswith("#") \
                    and not lines[index + 1].lstrip().startswith("# →"):
                index += 1
                text.append(lines[index].lstrip().removeprefix("#"))
            number = len(expectations)
            expectations.append(Expectation(first + index, " ".join(text)))
            # The command is the line above, with the lines it continues (a trailing "\\").
            start = len(body) - 1
            while start > 0 and body[start - 1].rstrip().endswith("\\"):
                start -= 1
            body.insert(start, f"printf '{BEGIN.format(number)}'")
            body.append(f"printf '{MARK.format(number)}'")
            index += 1
    return "\n".join(body) + "\n", expectations


@pytest.fixture
def shell(live_server, app, tmp_path: Path) -> dict[str, str]:
    for tool in ("bash", "curl", "jq"):
        if shutil.which(tool) is None:
            missing(f"{tool} (Debian package {tool})")
    base = live_server(app)
    return {"base": base, "cwd": str(tmp_path), "PATH": f"{Path(sys.executable).parent}:"
            f"{os.environ['PATH']}"}


def test_every_shell_example_prints_what_the_readme_says(shell):
    source, expectations = script(blocks(README.read_text(encoding="utf-8")))
    assert len(expectations) >= 8, "the README shows results of its commands"
    source = source.replace(BASE, shell["base"])
    ran = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", source], cwd=shell["cwd"], capture_output=True,
        text=True, timeout=300, env={**os.environ, "PATH": shell["PATH"], "LANG": "C.UTF-8"},
    )
    assert ran.returncode == 0, f"the README's commands failed:\n{ran.stderr[-3000:]}"
    for number, expectation in enumerate(expectations):
        _, begun, rest = ran.stdout.partition(BEGIN.format(number))
        printed, ended, _ = rest.partition(MARK.format(number))
        assert begun and ended, f"README line {expectation.line}: the script never got there"
        assert expectation.matches(printed), (
            f"README line {expectation.line}: expected {expectation.text.strip()!r}, "
            f"printed {printed.strip()[:800]!r}"
        )
