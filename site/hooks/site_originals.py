"""The sources as their authors wrote them: one page each (``sources/originals/<page>.md``).

Each retold source (``sources/<page>.md``) links to its original's page, which says what the
text is, who published it and where to read it, in the reader's language. The text itself is
shown, in its own language and as it is in our copy, only where its licence lets anyone
republish it (``text:`` in ``data/originals.yml``: the Wikipedia article, CC BY-SA); the others
are copyrighted, and the site retells their rules instead of copying them.
"""

from __future__ import annotations

from functools import cache
from html import escape
from typing import Any

import yaml
from mkdocs.exceptions import PluginError

from site_i18n import LANGUAGES, SITE, site_gettext

DATA = SITE / "data"


@cache
def originals() -> dict[str, dict[str, Any]]:
    """The originals of ``data/originals.yml``, by the name of their retelling's page."""
    rows = yaml.safe_load((DATA / "originals.yml").read_text(encoding="utf-8"))
    for row in rows:
        for field in ("cite", "where"):
            if missing := [lang for lang in LANGUAGES if not row[field].get(lang)]:
                raise PluginError(f"originals.yml {row['page']}: no {field} in {missing}")
    return {row["page"]: row for row in rows}


def cited_title(source: dict[str, Any], lang: str) -> tuple[str, str]:
    """A source's title as a reader of ``lang`` cites it, and that title's language: a
    translation is cited by its original's title, except in the translation's own language
    (the Wikipedia article is «Thirty-one (card game)» on the English and Italian pages)."""
    if "original_title" in source and lang != source["language"]:
        return source["original_title"], source["original_language"]
    return source["title"], source["language"]


def source_title(source_id: str, lang: str) -> tuple[str, str]:
    for source in originals().values():
        if source["id"] == source_id:
            return cited_title(source, lang)
    raise PluginError(f"originals.yml: no source {source_id}")


def render_original_link(page: str, lang: str) -> str:
    """The line on a retold source's page that leads to its original."""
    if page not in originals():
        raise PluginError(f"originals.yml: no original for sources/{page}")
    _ = site_gettext(lang)
    source = originals()[page]
    label = _("The original text") if "text" in source else _("Where the original text is")
    return f"[{label}](originals/{page}.md) →\n{{: .original-link }}"


def render_original(page: str, lang: str) -> str:
    """The page of one original: its citation, licence and where to read it, then its text
    when its licence allows."""
    if page not in originals():
        raise PluginError(f"originals.yml: no original named {page}")
    _ = site_gettext(lang)
    source = originals()[page]
    title, title_lang = cited_title(source, lang)
    where = source["where"][lang]
    if "url" in source:
        where += f' [{title}]({source["url"]}){{ lang="{title_lang}" }}'
    heading = _("Source")
    retold = _("Its rules, retold side by side")
    parts = [
        f'!!! quote "{heading} [{source["id"]}]"\n    {source["cite"][lang]}',
        where,
        f"[{retold}](../{page}.md)",
    ]
    if "text" not in source:
        parts.append(_(
            "The text is its authors' copyrighted work, so this site does not reproduce it: "
            "it retells the rules in its own words and cites the source."))
        return "\n\n".join(parts)
    licence = f'[{source["licence"]}]({source["licence_url"]})'
    parts.append(_(
        "The text below is shown as it is in our copy, mistakes included, under its licence, "
        "{licence}.").format(licence=licence))
    text = (DATA / source["text"]).read_text(encoding="utf-8")
    paragraphs = [line.strip() for line in text.splitlines() if line.strip()]
    body = "\n".join(f"<p>{escape(line)}</p>" for line in paragraphs)
    parts.append(f'<div class="original" lang="{source["language"]}" translate="no">\n'
                 f"{body}\n</div>")
    return "\n\n".join(parts)
