"""The glossary's other words and related games (``data/terms.yml``).

The site uses one word for each thing in each language (``term``); readers know others
(``synonyms``), which the glossary lists so a search for them lands there, and tests/site
checks that no other page uses a ``forbidden`` one. The related games are those of each
language's own tradition (Сека and Свара; Petrangola and Mambassa).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import yaml

from site_i18n import SITE, site_gettext


@cache
def terms() -> dict[str, Any]:
    text = (SITE / "data" / "terms.yml").read_text(encoding="utf-8")
    loaded: dict[str, Any] = yaml.safe_load(text)
    return loaded


def render_terms(lang: str) -> str:
    _ = site_gettext(lang)
    data = terms()
    lines = [
        "## " + _("Other words for the same things"),
        "",
        _("This site uses one word for each thing; other books and players use these too."),
        "",
        "| " + _("Here") + " | " + _("Also called") + " |",
        "| --- | --- |",
    ]
    notes = []
    for row in data["terms"]:
        entry = row[lang]
        if synonyms := entry.get("synonyms"):
            lines.append(f"| **{entry['term']}** | {', '.join(synonyms)} |")
        if note := entry.get("note"):
            notes.append(note)
    if notes:
        lines += [""] + [f"!!! note\n    {note}" for note in notes]
    lines += ["", "## " + _("Related games"), ""]
    lines += [f"- **{game['name']}** — {game['note']}" for game in data["relatives"][lang]]
    return "\n".join(lines)
