"""A store that does not answer is a 503 with Retry-After, never a 500."""

from __future__ import annotations

from thirtyone.web import create_app


def test_a_store_that_is_down_is_a_503_with_retry_after():
    client = create_app({
        "TESTING": True, "THIRTYONE_SECRET_KEY": "down", "SITE_DIR": None,
        "THIRTYONE_STORE": "redis://127.0.0.1:1/0"  # nothing listens on port 1,
    }).test_client()
    for response in (
        client.post("/v1/tables?lang=ru", json={"variant": "scat", "players": 2}),
        client.get("/v1/tables/abc"),
        client.post("/v1/tables/abc/moves", json={"move": {"type": "knock"}, "version": 0}),
    ):
        assert response.status_code == 503
        assert response.json["code"] == "store_unavailable"
        assert int(response.headers["Retry-After"]) > 0
