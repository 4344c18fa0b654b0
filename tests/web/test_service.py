"""The service around the API: its contract, its docs, the rules site, CORS, health."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from thirtyone.web import create_app

ROOT = Path(__file__).resolve().parents[2]


def test_committed_contract_is_what_the_app_serves(client):
    served = client.get("/openapi.json").json
    with (ROOT / "openapi.yaml").open(encoding="utf-8") as file:
        committed = yaml.safe_load(file)
    assert committed == json.loads(json.dumps(served)), "run `thirtyone openapi`"


def test_every_error_is_documented_as_problem_json(client):
    spec = client.get("/openapi.json").json
    responses = spec["components"]["responses"]
    # 304 Not Modified (a cached answer revalidated by its ETag) has no body at all.
    assert "content" not in responses.pop("NOT_MODIFIED")
    assert all(list(response["content"]) == ["application/problem+json"]
               for response in responses.values())
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":
                continue
            assert "default" in operation["responses"], (method, path)


def test_swagger_ui_is_served_without_a_cdn(client):
    page = client.get("/docs").get_data(as_text=True)
    assert "/docs/assets/swagger-ui-bundle.js" in page
    assert "//cdn" not in page and "unpkg" not in page
    assert client.get("/docs/assets/swagger-ui-bundle.js").status_code == 200


def test_health(client):
    assert client.get("/healthz").json["status"] == "ok"


def test_rules_site_is_served_beside_the_api(tmp_path):
    (tmp_path / "ru").mkdir()
    (tmp_path / "index.html").write_text("<h1>Thirty-One</h1>")
    (tmp_path / "ru" / "index.html").write_text("<h1>Тридцать одно</h1>")
    client = create_app({"THIRTYONE_SECRET_KEY": "x", "SITE_DIR": tmp_path}).test_client()
    assert "Thirty-One" in client.get("/").get_data(as_text=True)
    assert "Тридцать одно" in client.get("/ru/").get_data(as_text=True)
    assert client.get("/ru").status_code in (301, 302)
    assert client.get("/v1/variants/scat").json["id"] == "scat"
    assert client.get("/nothing/here").mimetype == "application/problem+json"


def test_without_a_site_the_root_leads_to_the_docs(client):
    response = client.get("/")
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/docs")


def test_cors_follows_the_configured_origins():
    client = create_app({"THIRTYONE_SECRET_KEY": "x", "SITE_DIR": None,
                         "CORS_ORIGINS": "https://cards.example"}).test_client()
    allowed = client.get("/v1/variants/scat", headers={"Origin": "https://cards.example"})
    assert allowed.headers["Access-Control-Allow-Origin"] == "https://cards.example"
    other = client.get("/v1/variants/scat", headers={"Origin": "https://elsewhere.example"})
    assert "Access-Control-Allow-Origin" not in other.headers
    preflight = client.options("/v1/hands/score", headers={
        "Origin": "https://cards.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "Content-Type"})
    assert preflight.status_code == 200
    assert "POST" in preflight.headers["Access-Control-Allow-Methods"]


def test_thirtyone_openapi_writes_the_committed_file(tmp_path):
    from thirtyone.__main__ import main

    main(["openapi", str(tmp_path / "openapi.yaml")])
    assert (tmp_path / "openapi.yaml").read_text(encoding="utf-8") == (
        ROOT / "openapi.yaml").read_text(encoding="utf-8")
