"""GET /v1/hand-tables/{variant}: the portable table, cached by its ETag."""

from __future__ import annotations

import pytest

from thirtyone.hands.portable import build_table, read_binary, to_json


def test_the_binary_is_the_engines_table_and_revalidates(client):
    answer = client.get("/v1/hand-tables/Schnauz?tie_break=ranks&lang=ru")
    assert answer.status_code == 200
    assert answer.content_type == "application/vnd.thirtyone.hand-table"
    assert read_binary(answer.data) == build_table("schnautz", {"tie_break": "ranks"})
    assert answer.cache_control.public and answer.cache_control.max_age >= 24 * 3600
    etag = answer.headers["ETag"]
    again = client.get("/v1/hand-tables/schnautz?lang=it&tie_break=ranks",
                       headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.headers["ETag"] == etag
    other = client.get("/v1/hand-tables/schnautz")
    assert other.headers["ETag"] != etag


def test_the_json_form_holds_the_same_table(client):
    answer = client.get("/v1/hand-tables/jokers?format=json&three_aces=33")
    assert answer.status_code == 200 and answer.content_type == "application/json"
    assert answer.json == to_json(build_table("jokers", {"three_aces": 33}))


@pytest.mark.parametrize(("query", "status", "code", "field"), [
    ("nope", 404, "unknown_variant", "variant"),
    ("scat?format=csv", 422, "validation_failed", "format"),
    ("scat?tie_break=best", 422, "bad_option_value", "options.tie_break"),
    ("scat?ante=3", 422, "option_not_applicable", "options.ante"),
    ("scat?wild=jokers", 422, "option_conflict", None),
])
def test_bad_requests_are_problems(client, query, status, code, field):
    answer = client.get(f"/v1/hand-tables/{query}")
    assert answer.status_code == status, answer.json
    assert answer.content_type == "application/problem+json"
    assert answer.json["code"] == code
    if field:
        assert answer.json["errors"][0]["field"] == field


def test_the_docs_landing_page_describes_both_ways_to_play_and_the_tables(client):
    described = " ".join(client.get("/openapi.json").json["info"]["description"].split())
    assert "Sealed games" in described and "Hosted tables" in described
    assert "/v1/hand-tables/{variant}" in described and "Games are stateless" not in described
