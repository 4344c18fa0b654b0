"""Swagger UI at /docs: current, served from the package, and "Try it out" works for every
operation with the contract's examples as they are, under a strict Content-Security-Policy."""

from __future__ import annotations

import re

import pytest

from thirtyone.web import create_app
from thirtyone.web.docs import STATIC, SWAGGER_UI_VERSION

# What the page needs and no more: its own scripts only (no inline script, no eval).
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'")


@pytest.fixture(scope="module")
def strict_app():
    # Hints and reviews computed in the request (the pool's processes are the hostile
    # suite's to try, on real servers): this page is about Swagger UI.
    app = create_app({"THIRTYONE_SECRET_KEY": "docs", "SITE_DIR": None,
                      "THIRTYONE_COMPUTE_PROCESSES": 0})

    @app.after_request
    def strict(response):
        response.headers["Content-Security-Policy"] = CSP
        return response

    return app


def test_the_vendored_swagger_ui_is_current_and_licensed():
    assets = STATIC / "swagger-ui"
    assert (assets / "LICENSE").read_text().startswith("\n") or "Apache" in (
        assets / "LICENSE").read_text()
    bundle = (assets / "swagger-ui-bundle.js").read_text(encoding="utf-8")
    assert "SwaggerUIBundle" in bundle
    assert int(SWAGGER_UI_VERSION.split(".")[0]) >= 5
    assert SWAGGER_UI_VERSION in (assets / "README.md").read_text()


def test_the_page_has_no_inline_script(client):
    page = client.get("/docs").get_data(as_text=True)
    assert re.findall(r"<script[^>]*>\s*[^<\s]", page) == []
    assert "<style" not in page and "//cdn" not in page and "unpkg" not in page


def test_try_it_out_works_for_every_operation(chromium, live_server, strict_app, artifacts):
    base = live_server(strict_app)
    spec = strict_app.test_client().get("/openapi.json").json
    # A hosted table's operations act on a table the server holds and a seat's key, which no
    # example written in the contract can name; opening a table is tried like the rest.
    operation_ids = [operation["operationId"] for path, operations in spec["paths"].items()
                     if "{table}" not in path
                     for method, operation in operations.items() if method != "parameters"]
    page = chromium.new_page()
    problems: list[str] = []
    page.on("console", lambda message: message.type == "error" and problems.append(message.text))
    page.on("pageerror", lambda error: problems.append(str(error)))
    try:
        page.goto(f"{base}/docs")
        page.wait_for_selector(".opblock", timeout=15_000)
        for operation_id in operation_ids:
            block = page.locator(f".opblock[id$='-{operation_id}']")
            block.locator(".opblock-summary").first.click()
            block.locator(".try-out__btn").click()
            block.locator(".execute").click()
            status = block.locator(".live-responses-table tbody .response-col_status").first
            status.wait_for(timeout=15_000)
            code = status.inner_text().strip()
            assert code.startswith("2"), (operation_id, code, block.inner_text()[-600:])
            # Folded again, so that the page does not keep re-rendering every answer so far.
            block.locator(".opblock-summary").first.click()
    except Exception:
        page.screenshot(path=str(artifacts / "docs-try-it-out.png"), full_page=True)
        raise
    finally:
        page.close()
    assert not [problem for problem in problems if "Content Security Policy" in problem
                or "Refused" in problem], problems
