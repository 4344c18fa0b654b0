"""The page of the API's problem codes: each code with its HTTP statuses, what it means (its
detail's template, in the page's language) and what a client does about it, from
:func:`thirtyone.web.codes.problem_codes` (the codes the sources raise)."""

from __future__ import annotations

import re

from site_i18n import engine_gettext, site_gettext
from thirtyone.web.codes import problem_codes

# A template's conversions ("{card!r}") are for programs: the page shows the placeholder.
_CONVERSION = re.compile(r"\{(\w+)![rsa]\}")


def _cell(text: str) -> str:
    return _CONVERSION.sub(r"{\1}", text).replace("|", "\\|")


def render_problem_codes(lang: str) -> str:
    """A table of every code, in alphabetical order."""
    _ = site_gettext(lang)
    engine = engine_gettext(lang)
    lines = [
        "| " + " | ".join((_("Code"), _("HTTP status"), _("What it means"), _("What to do")))
        + " |",
        "| --- | --- | --- | --- |",
    ]
    for code in problem_codes().values():
        statuses = ", ".join(str(status) for status in code.statuses)
        meaning = engine(code.detail)
        lines.append(f"| `{code.code}` | {statuses} | {_cell(meaning[:1].upper() + meaning[1:])} "
                     f"| {_cell(engine(code.advice))} |")
    return "\n".join(lines)
