"""The hand scorer on each preset page: pick three cards, see what the hand is worth under
the preset's rules, and why (its category, and how many of the deck's hands it beats).

The page's script (docs/en/javascripts/scorer.js) scores with the npm package's ``HandTable``
(clients/ts; its two runtime modules, committed in the play page's vendor folder, are copied
to ``javascripts/thirtyone/``) from the preset's hand table, written beside the pages as
``hand-tables/<preset>.bin`` (what ``GET /v1/hand-tables/<preset>`` serves). Once the page is
loaded, scoring needs no network. Without the script, or from disk (the offline archive),
the scorer stays hidden.
"""

from __future__ import annotations

import json
import shutil
from functools import cache
from html import escape
from pathlib import Path

from site_cards import card_label, pack_of
from site_i18n import engine_gettext, site_gettext
from thirtyone.hands import CATEGORY_NAMES
from thirtyone.hands.portable import build_table, to_binary
from thirtyone.rules import PRESETS, Family, Preset

PACKAGE = Path(__file__).resolve().parents[2] / "api/thirtyone/web/play/vendor/thirtyone"
"""The package's runtime modules as the play page has them (`make clients` builds them)."""
FOLDER = "hand-tables"


@cache
def _deck(preset_id: str) -> tuple[str, ...]:
    return build_table(preset_id).deck


def render_scorer(preset: Preset, lang: str, root: str) -> str:
    """The scorer's form (hidden until its script has the table); ``root`` leads from the
    page to the site's root."""
    _ = site_gettext(lang)
    engine = engine_gettext(lang)
    pack = pack_of(preset)
    options = "".join(f'<option value="{code}">{escape(card_label(code, lang, pack))}</option>'
                      for code in _deck(preset.id))
    # The calls to _ stand outside the f-strings, where pybabel's extraction finds them.
    card = _("Card {number}")
    title = _("Score a hand")
    selects = "".join(
        f'<label>{escape(card.format(number=number))} '
        f'<select data-card-choice><option value="">—</option>{options}</select></label>'
        for number in (1, 2, 3))
    strings = {
        "value": _("Worth {points}: {category}."),
        "beats": _("It beats {percent} of the {hands} hands of this deck."),
        "pick": _("Pick three different cards."),
        "categories": {key: engine(name) for key, name in CATEGORY_NAMES.items()},
    }
    block = json.dumps(strings, ensure_ascii=False).replace("</", "<\\/")
    return (
        f'<section class="hand-scorer" hidden data-table="{root}{FOLDER}/{preset.id}.bin" '
        f'data-lang="{lang}" markdown="0">'
        f'<h2 id="hand-scorer">{escape(title)}</h2>'
        f'<script type="application/json" data-scorer-strings>{block}</script>'
        f'<div class="hand-scorer-cards">{selects}</div>'
        f'<output aria-live="polite" data-scorer-result></output></section>'
    )


def write_scorer_files(site_dir: Path) -> None:
    """Each preset's hand table and the package's modules the scorer imports."""
    tables = site_dir / FOLDER
    tables.mkdir(exist_ok=True)
    for preset in PRESETS.values():
        if preset.family is not Family.RACE:
            (tables / f"{preset.id}.bin").write_bytes(to_binary(build_table(preset.id)))
    modules = site_dir / "javascripts" / "thirtyone"
    modules.mkdir(parents=True, exist_ok=True)
    for name in ("tables.js", "cards.js"):
        shutil.copyfile(PACKAGE / name, modules / name)
