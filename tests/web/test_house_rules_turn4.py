"""The house rules of RULES.md §4.15 (new turn 4) and "Il 31" through the API: listed by
``GET /v1/variants`` with their types, values and localized descriptions, accepted as options,
refused with a 422 problem naming the field."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "draw_positions", Path(__file__).parents[1] / "engine" / "test_game_draw.py")
_draw = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_draw)
draw_position = _draw.position

TURN4 = {
    "spare_hand_to": ("choice", ["dealer", "first-player"], "dealer"),
    "fire": ("choice", ["off", "aces", "any-trips"], "aces"),
    "losers": ("choice", ["lowest", "all-but-best"], "lowest"),
    "knocker_ties": ("choice", ["penalty", "safe", "shared", "double"], "shared"),
    "knock_min": ("int-or-none", [], None),
    "deal_passes": ("choice", ["left", "right"], "left"),
    "count_same_rank": ("bool", [], False),
    "exchange_max": ("int", [], 1),
    "exchange": ("choice", ["up-to-max", "one-or-three"], "one-or-three"),
}


def _options(client, variant, lang="en"):
    answer = client.get(f"/v1/variants/{variant}?lang={lang}")
    assert answer.status_code == 200
    return {option["name"]: option for option in answer.json["options"]}


def test_schwimmen_lists_every_new_option(client):
    options = _options(client, "schwimmen")
    for name, (kind, choices, default) in TURN4.items():
        assert (options[name]["type"], options[name]["choices"], options[name]["default"]) == (
            kind, choices, default), name
    assert {"nine24", "five40", "italian40"} <= set(options["deck"]["choices"])
    italian = _options(client, "schwimmen", "it")
    russian = _options(client, "schwimmen", "ru")
    for name in TURN4:
        assert italian[name]["description"] != options[name]["description"] != (
            russian[name]["description"]), name


def test_scat_lists_the_knocker_caught(client):
    options = _options(client, "scat")
    assert options["knocker_caught"]["type"] == "bool"
    assert options["knock_min"]["maximum"] == 31


def test_il_31_is_a_variant_found_by_its_italian_names(client):
    listed = {variant["id"]: variant for variant in client.get("/v1/variants").json["variants"]}
    il31 = listed["trentuno-40"]
    assert il31["players"] == {"min": 2, "max": 12}
    assert "Trentuno italiano" in il31["aliases"]
    assert client.get("/v1/variants/trentuno italiano").json["id"] == "trentuno-40"
    options = {option["name"]: option for option in il31["options"]}
    assert options["deck"]["default"] == "italian40"
    assert options["knock_min"]["default"] == 26
    assert options["deal_passes"]["default"] == "right"
    answer = client.post("/v1/games", json={"variant": "Il 31", "players": 4, "seed": 2})
    assert answer.status_code == 201, answer.json
    assert answer.json["view"]["rules"]["variant"] == "trentuno-40"


@pytest.mark.parametrize(("variant", "options", "code", "field"), [
    ("schwimmen", {"fire": "aces", "three_aces_fire": False}, "option_conflict",
     "options.fire"),
    ("scat", {"fire": "any-trips"}, "option_conflict", "options.fire"),
    ("scat", {"knocker_caught": True}, "option_conflict", "options.knocker_caught"),
    ("schwimmen", {"exchange_max": 2}, "option_conflict", "options.exchange_max"),
    ("schwimmen", {"knock_min": 21, "close_after_exchange": True}, "option_conflict",
     "options.knock_min"),
    ("schwimmen", {"knock_min": 40}, "option_out_of_range", "options.knock_min"),
    ("schwimmen", {"losers": "everyone"}, "bad_option_value", "options.losers"),
    ("schwimmen", {"deck": "race24"}, "option_conflict", "options.deck"),
    ("scat", {"spare_hand_to": "first-player"}, "option_not_applicable",
     "options.spare_hand_to"),
    ("race", {"deal_passes": "right"}, "option_not_applicable", "options.deal_passes"),
])
def test_the_new_options_are_refused_with_the_field_at_fault(client, variant, options, code,
                                                              field):
    answer = client.post("/v1/games?lang=it", json={"variant": variant, "players": 2,
                                                    "options": options})
    assert answer.status_code == 422
    assert answer.mimetype == "application/problem+json"
    assert answer.json["code"] == code
    assert [(error["field"], error["code"]) for error in answer.json["errors"]] == [(field, code)]


def test_too_many_players_for_a_short_deck_is_a_problem(client):
    answer = client.post("/v1/games?lang=ru", json={"variant": "schwimmen", "players": 8,
                                                    "options": {"deck": "nine24"}})
    assert answer.status_code == 422
    assert answer.json["code"] == "bad_players"
    assert "nine24" in answer.json["detail"]


def test_a_knock_below_the_minimum_is_refused_in_italian(client):
    hands = [["AS", "KS", "2D"], ["AH", "4H", "6C"]]
    state = draw_position(hands, variant="trentuno-40", discard=("3S",)).to_dict()
    answer = client.post("/v1/games/moves?lang=it", json={
        "state": state, "seat": 1, "move": {"type": "knock"}})
    assert answer.status_code == 409
    assert answer.json["code"] == "knock_below_minimum"
    assert answer.json["detail"] == "per bussare servono almeno 26 punti in mano"


@pytest.mark.parametrize(("lang", "name"), [
    ("it", "cavallo di coppe"), ("ru", "всадник кубков"), ("en", "knight of cups")])
def test_the_play_page_draws_the_italian_pack(client, lang, name):
    """The faces of "Il 31" on the play page: the pack's own suits and regional names."""
    face = client.get(f"/play/cards/QH.svg?lang={lang}&pack=italian")
    assert face.status_code == 200 and face.mimetype == "image/svg+xml"
    assert f'aria-label="{name}"' in face.text and ">C</text>" in face.text
    assert client.get(f"/play/cards/QH.svg?lang={lang}").text != face.text
    page = client.get(f"/play?lang={lang}")
    assert name in page.text


def test_il_31_moves_name_the_italian_pack(client):
    """A move's words name the cards of Il 31 by the Italian pack's suits; Scat's by the
    French ones."""
    hands = [["AS", "KS", "2D"], ["AH", "4H", "6C"]]
    state = draw_position(hands, variant="trentuno-40", discard=("3S",)).to_dict()
    answer = client.post("/v1/games/moves?lang=it", json={
        "state": state, "seat": 1, "move": {"type": "draw", "source": "discard"}})
    assert answer.status_code == 200, answer.json
    words = " ".join(move["description"] for move in answer.json["legal_moves"])
    assert "asso di coppe" in words and "sei di bastoni" in words and "cuori" not in words
    scat = draw_position(hands, discard=("3S",)).to_dict()
    answer = client.post("/v1/games/moves?lang=it", json={
        "state": scat, "seat": 1, "move": {"type": "draw", "source": "discard"}})
    words = " ".join(move["description"] for move in answer.json["legal_moves"])
    assert "asso di cuori" in words and "coppe" not in words


def test_il_31_events_name_the_italian_pack(client):
    hands = [["AS", "KS", "2D"], ["AH", "4H", "6C"]]
    state = draw_position(hands, variant="trentuno-40", discard=("3S",)).to_dict()
    answer = client.post("/v1/games/moves?lang=it", json={
        "state": state, "seat": 1, "move": {"type": "draw", "source": "discard"}})
    answer = client.post("/v1/games/moves?lang=it", json={
        "state": answer.json["state"], "seat": 1, "move": {"type": "discard", "card": "6C"}})
    assert answer.status_code == 200, answer.json
    said = " ".join(event["message"] for event in answer.json["events"])
    assert "sei di bastoni" in said and "fiori" not in said


def test_il_31_scores_say_the_italian_pack(client):
    answer = client.post("/v1/hands/score?lang=it", json={"variant": "trentuno-40",
                                                          "hand": ["AH", "QH", "KH"]})
    assert answer.status_code == 200, answer.json
    assert "a coppe" in answer.json["description"]
    assert "cavallo di coppe" in answer.json["card_names"]
    scat = client.post("/v1/hands/score?lang=it", json={"variant": "scat",
                                                       "hand": ["AH", "QH", "KH"]}).json
    assert "a cuori" in scat["description"] and "donna di cuori" in scat["card_names"]
