"""What a web page's script may read and send: exposed headers, offered methods, replay marks."""

from __future__ import annotations

import uuid

import yaml
from tests.conftest import ROOT

from thirtyone.web import EXPOSED_HEADERS

ORIGIN = {"Origin": "https://cards.example"}


def test_scripts_may_read_the_headers_the_docs_advertise(client):
    answer = client.get("/v1/variants", headers=ORIGIN)
    exposed = {name.strip() for name in answer.headers["Access-Control-Expose-Headers"].split(",")}
    assert exposed == set(EXPOSED_HEADERS)
    assert {"Location", "ETag", "Retry-After", "RateLimit-Limit", "RateLimit-Remaining",
            "RateLimit-Reset", "Idempotent-Replayed", "Content-Language"} <= exposed


def test_a_preflight_offers_only_the_methods_that_exist(client):
    answer = client.options("/v1/tables", headers={
        **ORIGIN, "Access-Control-Request-Method": "POST"})
    offered = {m.strip() for m in answer.headers["Access-Control-Allow-Methods"].split(",")}
    documented = {method.upper() for path in yaml.safe_load(
        (ROOT / "openapi.yaml").read_text(encoding="utf-8"))["paths"].values()
        for method in path if method != "parameters"}
    assert offered == documented | {"HEAD", "OPTIONS"}
    assert not offered & {"PUT", "PATCH", "DELETE"}


def test_a_replayed_answer_says_so(client):
    key = {"Idempotency-Key": str(uuid.uuid4())}
    body = {"variant": "scat", "players": 2, "bots": {"1": "greedy"}}
    first = client.post("/v1/tables", json=body, headers=key)
    again = client.post("/v1/tables", json=body, headers=key)
    assert first.status_code == again.status_code == 201
    assert "Idempotent-Replayed" not in first.headers
    assert again.headers["Idempotent-Replayed"] == "true"
    table = first.json["table"]
    seat = next(entry["key"] for entry in first.json["seats"] if entry["key"])
    seen = client.get(f"/v1/tables/{table}", headers={"Authorization": f"Bearer {seat}"}).json
    move = {"move": seen["legal_moves"][0], "version": seen["version"]}
    headers = {"Authorization": f"Bearer {seat}", "Idempotency-Key": str(uuid.uuid4())}
    played = client.post(f"/v1/tables/{table}/moves", json=move, headers=headers)
    replayed = client.post(f"/v1/tables/{table}/moves", json=move, headers=headers)
    assert played.status_code == replayed.status_code == 200, (played.json, replayed.json)
    assert "Idempotent-Replayed" not in played.headers
    assert replayed.headers["Idempotent-Replayed"] == "true"
    assert replayed.json == played.json


def test_every_keyed_operation_declares_401_and_every_limited_one_503():
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":
                continue
            statuses = set(operation["responses"])
            if operation.get("security"):
                assert "401" in statuses, (method, path)
            if "429" in statuses:
                assert "503" in statuses, (method, path)
            if "requestBody" in operation:
                assert "408" in statuses, (method, path)
