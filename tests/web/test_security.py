"""Security headers on every answer, per-path policies, and the body limit for chunked bodies."""

from __future__ import annotations

import http.client
import json
import re

import pytest

from thirtyone.web import create_app
from thirtyone.web.security import inline_hashes, policy_for

from .conftest import SECRET

COMMON = {"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY"}


def directives(response):
    policy = response.headers["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in policy.split("; ")}


@pytest.fixture(scope="module")
def site_app(tmp_path_factory):
    site = tmp_path_factory.mktemp("site")
    (site / "index.html").write_text(
        "<html><head><style>:root{--x:1}</style><script>var home=1</script>"
        '<script src="assets/app.js"></script></head></html>')
    (site / "ru").mkdir()
    (site / "ru" / "index.html").write_text("<script>var ru=1</script>")
    return create_app({"TESTING": True, "THIRTYONE_SECRET_KEY": SECRET, "SITE_DIR": site})


@pytest.mark.parametrize(("method", "path", "status"), [
    ("GET", "/v1/variants", 200), ("GET", "/v1/nothing", 404), ("DELETE", "/v1/games", 405),
    ("GET", "/openapi.json", 200), ("GET", "/healthz", 200), ("GET", "/docs", 200),
    ("GET", "/docs/assets/swagger-ui.css", 200), ("POST", "/v1/games/moves", 422),
])
def test_every_answer_carries_the_headers(client, method, path, status):
    response = client.open(path, method=method, json={} if method == "POST" else None)
    assert response.status_code == status
    for name, value in COMMON.items():
        assert response.headers[name] == value
    assert directives(response)["frame-ancestors"] == ["'none'"]


def test_the_api_may_load_nothing(client):
    assert directives(client.get("/v1/variants"))["default-src"] == ["'none'"]
    assert "script-src" not in directives(client.get("/v1/variants"))


def test_docs_allow_swagger_ui_files_and_no_inline_script(client):
    response = client.get("/docs")
    found = directives(response)
    assert inline_hashes(response.get_data(), "script") == set()
    assert found["script-src"] == ["'self'"]
    assert "'unsafe-inline'" not in found["script-src"]
    assert found["connect-src"] == ["'self'"] and found["img-src"] == ["'self'", "data:"]


def test_the_site_allows_the_inline_code_of_its_pages_by_hash(site_app):
    client = site_app.test_client()
    for path in ("/", "/ru/"):
        response = client.get(path)
        assert response.status_code == 200
        found = directives(response)
        assert COMMON.items() <= dict(response.headers).items()
        assert sorted(found["script-src"][1:]) == sorted(
            inline_hashes(b"<script>var home=1</script><script>var ru=1</script>", "script"))
        assert found["style-src"] == ["'self'", *inline_hashes(
            b"<style>:root{--x:1}</style>", "style")]
        assert "'unsafe-inline'" not in found["script-src"] + found["style-src"]
    # The API under the site keeps its own policy.
    assert directives(client.get("/v1/variants"))["default-src"] == ["'none'"]


def test_the_play_page_policy():
    policy = dict(part.split(" ", 1) for part in policy_for("/play/index.html").split("; "))
    assert policy["script-src"] == policy["style-src"] == policy["connect-src"] == "'self'"
    assert policy["img-src"] == "'self' data:"


def _chunked(url, body, chunk=64 * 1024):
    host, port = re.match(r"http://([^:]+):(\d+)", url).groups()
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    connection.putrequest("POST", "/v1/hands/score-batch")
    connection.putheader("Content-Type", "application/json")
    connection.putheader("Transfer-Encoding", "chunked")
    connection.endheaders()
    try:
        for start in range(0, len(body), chunk):
            part = body[start:start + chunk]
            connection.send(b"%x\r\n%s\r\n" % (len(part), part))
        connection.send(b"0\r\n\r\n")
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server may answer and close before the whole body is sent
    response = connection.getresponse()
    answer = response.status, response.getheader("Content-Type"), response.read()
    connection.close()
    return answer


def test_chunked_bodies_are_held_to_the_limit(live_server):
    app = create_app({"TESTING": True, "THIRTYONE_SECRET_KEY": SECRET, "SITE_DIR": None,
                      "MAX_CONTENT_LENGTH": 64 * 1024})
    url = live_server(app)
    hands = [["AS", "KS", "QS"]] * 5000
    small = json.dumps({"hands": hands[:100]}).encode()
    status, _, body = _chunked(url, small)
    assert status == 200 and len(json.loads(body)["scores"]) == 100
    # Over the limit: refused whole, not cut to the limit and read as far as it goes.
    large = json.dumps({"hands": hands}).encode()
    assert len(large) > 64 * 1024
    status, kind, body = _chunked(url, large)
    assert status == 413 and kind == "application/problem+json"
    assert json.loads(body)["code"] == "payload_too_large"
