"""A griffe extension for the engine reference: the engine's docstrings carry doctests
(``>>>`` lines and their output) in plain text, which Markdown would render as prose (and read
``[[0], [1]]`` as links). Each run of doctest lines becomes a fenced ``pycon`` block."""

from __future__ import annotations

import re
from typing import Any

import griffe

_PROMPT = re.compile(r"^(\s*)>>> ")


def fence_doctests(text: str) -> str:
    """``text`` with every doctest (a ``>>>`` line, its ``...`` lines and its output up to
    the next blank line) inside a fence."""
    lines = text.splitlines()
    out: list[str] = []
    index = 0
    while index < len(lines):
        prompt = _PROMPT.match(lines[index])
        if not prompt:
            out.append(lines[index])
            index += 1
            continue
        indent = prompt[1]
        out.append(f"{indent}```pycon")
        while index < len(lines) and lines[index].strip():
            out.append(lines[index])
            index += 1
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    def on_instance(self, *, node: Any, obj: griffe.Object, agent: Any, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)
