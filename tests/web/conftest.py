"""Fixtures of the web tests: an app with a test secret, its client, and a sealed game."""

from __future__ import annotations

from typing import Any

import pytest

from thirtyone.web import create_app

SECRET = "test secret, not for production"


@pytest.fixture(scope="session")
def app():
    return create_app({"TESTING": True, "THIRTYONE_SECRET_KEY": SECRET, "SITE_DIR": None})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def start_game(client):
    """Deal a game through the API: ``start_game(players=4, variant="blitz")``."""

    def start(lang: str = "en", **body: Any) -> dict[str, Any]:
        body = {"variant": "scat", "players": 3, "seed": "web tests", "dealer": 0, **body}
        response = client.post(f"/v1/games?lang={lang}", json=body)
        assert response.status_code == 201, response.json
        return response.json

    return start
