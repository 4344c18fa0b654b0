"""The words the site's script (docs/en/javascripts/site.js) shows, in the page's language.

The script builds its controls in the browser (the sources' language switches, the cue over a
wide table); their words go through the ``site`` catalog like every other generated string,
and reach the script as a JSON block at the top of each page (``#site-strings``).
"""

from __future__ import annotations

import json
import re

from site_i18n import LANGUAGES, site_gettext

ENDONYMS = {"ru": "Русский", "it": "Italiano", "en": "English"}
"""Each language's name in itself: a switch for a language is labelled as its readers say it."""
_BODY = re.compile(r"(<body\b[^>]*>)")


def script_strings(lang: str) -> dict[str, object]:
    _ = site_gettext(lang)
    return {
        "parallel_show": _("Retold side by side, also in"),
        "languages": {other: ENDONYMS[other] for other in LANGUAGES},
        "table_scrolls": _("Table, scrolls sideways"),
        "table_cue": _("Swipe or use the arrow keys: the table goes on"),
    }


def add_script_strings(output: str, lang: str) -> str:
    block = json.dumps(script_strings(lang), ensure_ascii=False).replace("</", "<\\/")
    tag = f'<script type="application/json" id="site-strings">{block}</script>'
    return _BODY.sub(lambda match: match[1] + tag, output, count=1)
