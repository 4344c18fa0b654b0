"""Languages: how one is chosen, and how the game reads in each."""

from __future__ import annotations

import pytest

from thirtyone.rules import PRESETS
from thirtyone.web.i18n import card_name, points_text


@pytest.mark.parametrize(
    ("query", "header", "language"),
    [
        ("", None, "en"),
        ("?lang=ru", None, "ru"),
        ("?lang=it", "ru", "it"),
        ("?lang=it-IT", None, "it"),
        ("?lang=de", "ru-RU,ru;q=0.9", "ru"),
        ("", "de-DE, it;q=0.5, en;q=0.2", "it"),
        ("", "de", "en"),
    ],
)
def test_language_choice(client, query, header, language):
    headers = {"Accept-Language": header} if header else {}
    response = client.get(f"/v1/variants/scat{query}", headers=headers)
    assert response.headers["Content-Language"] == language
    assert "Accept-Language" in response.headers["Vary"]


@pytest.mark.parametrize(
    ("code", "en", "ru", "it"),
    [
        ("AS", "ace of spades", "туз пик", "asso di picche"),
        ("QD", "queen of diamonds", "дама бубён", "donna di quadri"),
        ("10H", "ten of hearts", "десятка червей", "dieci di cuori"),
        ("7C", "seven of clubs", "семёрка треф", "sette di fiori"),
        ("JC", "jack of clubs", "валет треф", "fante di fiori"),
        ("X2", "joker", "джокер", "jolly"),
    ],
)
def test_card_names(app, code, en, ru, it):
    for language, name in (("en", en), ("ru", ru), ("it", it)):
        with app.test_request_context(f"/?lang={language}"):
            assert card_name(code) == name


@pytest.mark.parametrize(
    ("points", "ru", "it"),
    [(31, "31 очко", "31 punti"), (22, "22 очка", "22 punti"), (27, "27 очков", "27 punti"),
     (11, "11 очков", "11 punti"), (1, "1 очко", "1 punto"), (30.5, "30½ очка", "30½ punti")],
)
def test_points_agree_with_their_number(app, points, ru, it):
    with app.test_request_context("/?lang=ru"):
        assert points_text(points) == ru
    with app.test_request_context("/?lang=it"):
        assert points_text(points) == it


def test_score_described_in_russian(client):
    answer = client.post("/v1/hands/score?lang=ru",
                         json={"hand": ["X1", "KS", "10S"], "variant": "jokers"}).json
    assert answer["category_name"] == "Блиц"
    assert answer["card_names"] == ["джокер", "король пик", "десятка пик"]
    assert answer["description"] == (
        "Блиц: 31 очко в пиках (джокер (туз пик), король пик, десятка пик)."
    )


def test_score_described_in_italian(client):
    answer = client.post("/v1/hands/score?lang=it",
                         json={"hand": ["7H", "7D", "7C"], "variant": "schnautz"}).json
    assert answer["points"] == 30.5
    assert answer["description"] == "Tris: 30½ punti (sette di cuori, sette di quadri, " \
        "sette di fiori)."


def test_every_variant_and_option_reads_in_each_language(client):
    english = client.get("/v1/variants?lang=en").json["variants"]
    for language in ("ru", "it"):
        localized = client.get(f"/v1/variants?lang={language}").json["variants"]
        assert [variant["id"] for variant in localized] == list(PRESETS)
        for ours, theirs in zip(localized, english, strict=True):
            assert ours["summary"] != theirs["summary"]
            assert [option["description"] for option in ours["options"]] != [
                option["description"] for option in theirs["options"]] or not ours["options"]
    assert localized[0]["name"] == "Trentuno americano"


def test_events_read_in_russian(app, client, start_game):
    game = start_game(lang="ru")
    seat = game["to_move"]
    key = game["seat_keys"][seat]
    answer = client.post("/v1/games/moves?lang=ru", json={
        "token": game["token"], "seat": seat, "seat_key": key,
        "move": {"type": "draw", "source": "discard"},
    }).json
    assert answer["events"][0]["message"] == f"Игрок {seat} взял карту из сноса."
    discarded = answer["view"]["hands"][seat][0]
    answer = client.post("/v1/games/moves?lang=ru", json={
        "token": answer["token"], "seat": seat, "seat_key": key,
        "move": {"type": "discard", "card": discarded},
    }).json
    with app.test_request_context("/?lang=ru"):
        name = card_name(discarded)
    assert answer["events"][0]["message"] == f"Игрок {seat} сбросил карту: {name}."


def test_catalogs_are_found_in_a_wheel_and_read_without_compiling(tmp_path, monkeypatch):
    """A wheel carries translations/ inside the package, maybe without .mo files."""
    import shutil

    import thirtyone
    from thirtyone.web import create_app
    from thirtyone.web.i18n import translations_directory

    package = tmp_path / "thirtyone"
    shutil.copytree(translations_directory(), package / "translations",
                    ignore=shutil.ignore_patterns("*.mo"))
    monkeypatch.setattr(thirtyone, "__file__", str(package / "__init__.py"))
    assert translations_directory() == package / "translations"
    client = create_app({"THIRTYONE_SECRET_KEY": "x", "SITE_DIR": None}).test_client()
    answer = client.post("/v1/hands/score?lang=it", json={"hand": ["AS", "KS", "10S"]}).json
    assert answer["card_names"] == ["asso di picche", "re di picche", "dieci di picche"]
