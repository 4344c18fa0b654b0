"""A griffe extension for the engine reference: the engine's docstrings name other objects
with Sphinx roles (:func:`new_game`, :class:`~thirtyone.game.GameState`), which Markdown
would print raw. Each role becomes a cross-reference that autorefs turns into a link.

A name is resolved the way Sphinx does: a dotted path as written; a short (or ``.``-relative)
name against the documented object, then its class, module and packages, outwards. Each
reference is autorefs' *optional* kind, so a target the site does not document (``json``, a
private helper) stays plain code instead of failing the strict build."""

from __future__ import annotations

import re
from html import escape
from typing import Any

import griffe

ROLE = re.compile(r":(?:func|class|meth|data|mod|attr|exc|obj):`(?P<target>[^`]+)`")
"""A Sphinx role of the Python domain, as the engine's docstrings write them."""


def resolve(name: str, scope: griffe.Object | griffe.Alias) -> str:
    """The full dotted path ``name`` stands for in ``scope``'s docstring (``name`` itself
    when nothing around ``scope`` holds its first component)."""
    relative = name.lstrip(".")
    head, _, rest = relative.partition(".")
    place: griffe.Object | griffe.Alias | None = scope
    while place is not None:
        member = place.members.get(head)
        if member is not None:
            try:
                path = member.canonical_path
            except griffe.AliasResolutionError:
                path = member.path
            return f"{path}.{rest}" if rest else path
        place = place.parent
    return relative


def link_roles(text: str, scope: griffe.Object | griffe.Alias) -> str:
    """``text`` with every role replaced by an optional autorefs cross-reference."""

    def replace(match: re.Match[str]) -> str:
        target = match["target"]
        name = target.removeprefix("~")
        # As in Sphinx: ``~`` shows only the path's last component, a leading ``.`` is not shown.
        shown = name.rsplit(".", 1)[-1] if target.startswith("~") else name.lstrip(".")
        identifier = resolve(name, scope)
        return (f'<autoref identifier="{escape(identifier)}" optional>'
                f"<code>{escape(shown)}</code></autoref>")

    return ROLE.sub(replace, text)


def _walk(obj: griffe.Object) -> None:
    if obj.docstring is not None:
        obj.docstring.value = link_roles(obj.docstring.value, obj)
    for member in obj.members.values():
        # An alias shares its target's docstring: rewrite each docstring once, where it lives.
        if not member.is_alias and isinstance(member, griffe.Object):
            _walk(member)


class SphinxRoles(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, loader: Any, **kwargs: Any) -> None:
        _walk(pkg)
