"""Compiles the message catalogs into every wheel and sdist.

The runtime reads compiled ``.mo`` catalogs; they are build output (``.gitignore`` keeps them
out of the repository), so a package built from a fresh clone would otherwise speak English
only. The hook compiles each ``translations/<lang>/LC_MESSAGES/messages.po`` with Babel into
the build's own folder and adds it where the package looks (``thirtyone/translations/...`` in
a wheel, ``translations/...`` in an sdist), leaving the work tree untouched.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CompileCatalogs(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        source = Path(self.root) / "translations"
        self._output = tempfile.TemporaryDirectory(prefix="thirtyone-catalogs-")
        prefix = "thirtyone/translations" if self.target_name == "wheel" else "translations"
        for po in sorted(source.glob("*/LC_MESSAGES/messages.po")):
            with po.open("rb") as handle:
                catalog = read_po(handle, locale=po.parent.parent.name)
            relative = po.relative_to(source).with_suffix(".mo")
            mo = Path(self._output.name) / relative
            mo.parent.mkdir(parents=True, exist_ok=True)
            with mo.open("wb") as handle:
                write_mo(handle, catalog, use_fuzzy=False)
            build_data["force_include"][str(mo)] = f"{prefix}/{relative.as_posix()}"

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        self._output.cleanup()
