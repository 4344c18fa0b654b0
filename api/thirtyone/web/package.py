"""The npm package ``thirtyone`` (``clients/ts``, built by ``make clients``) served to browsers
at ``/play/lib/thirtyone/``, so that the play page (or any page of this origin) imports it as
ES modules: ``import { HandTable } from "/play/lib/thirtyone/index.js"``, then scores hands
from ``GET /v1/hand-tables/{variant}`` with no request per hand.

The built files live in the repository, not in the Python package: where they were not built
(an installed wheel), or ``THIRTYONE_TS_PACKAGE_DIR`` names no folder, the path answers 404.
Under ``/play`` the page's policy applies (``script-src 'self'``).
"""

from __future__ import annotations

import os
from pathlib import Path

from flask import Blueprint, Flask, abort, current_app, send_from_directory
from werkzeug import Response

BUILT = Path(__file__).resolve().parents[3] / "clients" / "ts" / "dist"
CACHE_SECONDS = 3600

blp = Blueprint("package", __name__, url_prefix="/play/lib/thirtyone")


@blp.get("/<path:name>")
def module(name: str) -> Response:
    """A module of the built package (``.js`` only: its types and maps are for builds)."""
    folder = Path(current_app.config["THIRTYONE_TS_PACKAGE_DIR"])
    if not name.endswith(".js") or not folder.is_dir():
        abort(404)
    return send_from_directory(folder, name, mimetype="text/javascript",
                               max_age=CACHE_SECONDS)


def init_app(app: Flask) -> None:
    app.config.setdefault("THIRTYONE_TS_PACKAGE_DIR",
                          os.environ.get("THIRTYONE_TS_PACKAGE_DIR") or str(BUILT))
    app.register_blueprint(blp)
