"""The npm package served to browsers at /play/lib/thirtyone/ (clients/ts/dist, make clients)."""

from __future__ import annotations

from tests.conftest import missing

from thirtyone.web import create_app
from thirtyone.web.package import BUILT


def test_the_built_modules_are_served_as_javascript(client):
    if not (BUILT / "index.js").is_file():
        missing("the TypeScript package: run `make clients`")
    answer = client.get("/play/lib/thirtyone/index.js")
    assert answer.status_code == 200 and answer.mimetype == "text/javascript"
    assert b'from "./tables.js"' in answer.data
    assert "script-src 'self'" in answer.headers["Content-Security-Policy"]
    assert client.get("/play/lib/thirtyone/tables.js").status_code == 200
    assert client.get("/play/lib/thirtyone/index.d.ts").status_code == 404
    assert client.get("/play/lib/thirtyone/../../openapi.yaml").status_code == 404


def test_nothing_is_served_where_the_package_was_not_built(tmp_path):
    app = create_app({"TESTING": True, "THIRTYONE_SECRET_KEY": "s", "SITE_DIR": None,
                      "THIRTYONE_TS_PACKAGE_DIR": str(tmp_path / "none")})
    assert app.test_client().get("/play/lib/thirtyone/index.js").status_code == 404
