"""``/docs``: Swagger UI over the contract, served from the package's own files.

Swagger UI 5 (``swagger-ui-dist``, vendored in ``static/swagger-ui`` with its license) is
served at ``/docs/assets/``; the page starts it from ``/docs/init.js``, with no inline
script or style, so it works under a strict Content-Security-Policy.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Flask, Response, current_app, send_from_directory, url_for
from markupsafe import escape

SWAGGER_UI_VERSION = "5.35.0"
STATIC = Path(__file__).resolve().parent / "static"

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="{assets}swagger-ui.css">
<link rel="icon" type="image/png" href="{assets}favicon-32x32.png">
</head>
<body>
<div id="swagger-ui" data-url="{spec}"></div>
<script src="{assets}swagger-ui-bundle.js"></script>
<script src="{init}"></script>
</body>
</html>
"""

blp = Blueprint("docs", __name__, url_prefix="/docs", static_folder=STATIC / "swagger-ui",
                static_url_path="/assets")


@blp.get("")
def page() -> Response:
    config = current_app.config
    html = PAGE.format(
        title=escape(config["API_TITLE"]),
        assets=url_for("docs.static", filename=""),
        spec=escape(config["OPENAPI_URL_PREFIX"].rstrip("/") + "/" + config["OPENAPI_JSON_PATH"]),
        init=url_for("docs.init_script"),
    )
    return Response(html, mimetype="text/html")


@blp.get("/init.js")
def init_script() -> Response:
    return send_from_directory(STATIC, "docs.js", mimetype="text/javascript")


def init_app(app: Flask) -> None:
    app.register_blueprint(blp)
