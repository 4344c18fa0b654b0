"""Caching and retries: the variants revalidate by ETag in each language, a new table says
where it lives."""

from __future__ import annotations


def test_variants_carry_an_etag_per_language_and_answer_304_when_unchanged(client):
    first = client.get("/v1/variants?lang=ru")
    assert first.status_code == 200
    assert first.headers["Cache-Control"] == "public, max-age=3600"
    assert "Accept-Language" in first.headers["Vary"]
    etag = first.headers["ETag"]
    again = client.get("/v1/variants?lang=ru", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    # Another language is another answer: the Russian ETag does not match it.
    italian = client.get("/v1/variants?lang=it", headers={"If-None-Match": etag})
    assert italian.status_code == 200 and italian.headers["ETag"] != etag
    one = client.get("/v1/variants/scat?lang=ru")
    assert client.get("/v1/variants/scat?lang=ru",
                      headers={"If-None-Match": one.headers["ETag"]}).status_code == 304


def test_a_missing_variant_is_not_cached(client):
    answer = client.get("/v1/variants/nothing")
    assert answer.status_code == 404
    assert "ETag" not in answer.headers and "Cache-Control" not in answer.headers


def test_a_new_table_gives_its_location(client):
    created = client.post("/v1/tables", json={"variant": "scat", "players": 2,
                                              "bots": {"1": "greedy"}})
    assert created.status_code == 201
    location = created.headers["Location"]
    assert location == f"/v1/tables/{created.json['table']}"
    assert client.get(location).status_code == 200
