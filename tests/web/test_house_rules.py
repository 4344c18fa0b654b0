"""The house rules and Schwimmen through the API (RULES.md §2-§4.14, new): listed by
``GET /v1/variants`` with their values and localized descriptions, accepted as options, refused
with a problem naming the field."""

from __future__ import annotations

import pytest

NEW_OPTIONS = {
    "brag_order": ("choice", ["traditional", "ace-high"]),
    "blitz_after_knock": ("bool", []),
    "knocker_ties": ("choice", ["penalty", "safe", "shared", "double"]),
    "knocker_must_win": ("bool", []),
    "lose_below": ("int-or-none", []),
    "count_same_rank": ("bool", []),
    "close_after_exchange": ("bool", []),
    "three_of_a_kind": ("choice", ["off", "30.5", "30-below-suited", "30"]),
    "tie_break": ("choice", ["none", "trips", "ranks", "suit"]),
    "blitz": ("choice", ["any-31", "ace-king-ten", "ace-ten-face", "off"]),
    "knock_first_round": ("choice", ["allowed", "forbidden", "showdown"]),
    "on_31": ("choice", ["showdown", "knock"]),
    "stock_exhausted": ("choice", ["void", "showdown", "recycle", "reshuffle"]),
    "three_aces_fire": ("bool", []),
}


def _options(client, variant, lang="en"):
    answer = client.get(f"/v1/variants/{variant}?lang={lang}")
    assert answer.status_code == 200
    return {option["name"]: option for option in answer.json["options"]}


def test_variants_list_schwimmen_with_its_names_and_options(client):
    listed = {variant["id"]: variant for variant in client.get("/v1/variants").json["variants"]}
    schwimmen = listed["schwimmen"]
    assert schwimmen["players"] == {"min": 2, "max": 9}
    assert (schwimmen["family"], schwimmen["settlement"]) == ("widow", "lives")
    assert {"Einunddreißig", "Knack", "Hosn obi", "Швиммен",
            "Тридцать одно по-немецки"} <= set(schwimmen["aliases"])
    options = {option["name"]: option for option in schwimmen["options"]}
    assert options["three_aces"]["default"] == 33 and options["three_aces"]["maximum"] == 33
    assert options["three_aces_fire"]["default"] is True
    assert options["knocker_penalty"]["default"] == 1
    assert options["knocker_ties"]["default"] == "shared"
    assert options["tie_break"]["default"] == "trips"
    assert options["lose_below"]["default"] is None
    assert (options["lose_below"]["minimum"], options["lose_below"]["maximum"]) == (1, 31)
    assert listed["scat"]["players"] == {"min": 2, "max": 9}
    for name in ("Einunddreissig", "Hosn obi", "Швиммен"):
        assert client.get(f"/v1/variants/{name}").json["id"] == "schwimmen"


@pytest.mark.parametrize(("variant", "names"), [
    ("scat", ["blitz_after_knock", "knocker_ties", "knock_first_round", "stock_exhausted",
              "three_aces_fire", "knocker_must_win", "lose_below", "count_same_rank",
              "three_of_a_kind", "tie_break", "blitz"]),
    ("stop-the-bus", ["brag_order", "knock_first_round", "knocker_ties", "knocker_must_win",
                      "lose_below", "close_after_exchange"]),
    ("schnautz", ["knock_first_round", "on_31", "three_aces_fire", "knocker_must_win",
                  "close_after_exchange"]),
    ("schwimmen", ["knock_first_round", "on_31", "knocker_ties", "three_aces_fire",
                   "knocker_must_win", "lose_below", "close_after_exchange", "tie_break"]),
    ("bank", ["knocker_must_win", "count_same_rank"]),
])
def test_every_new_option_is_listed_with_its_values(client, variant, names):
    options = _options(client, variant)
    for name in names:
        kind, choices = NEW_OPTIONS[name]
        assert (options[name]["type"], options[name]["choices"]) == (kind, choices)
    russian = _options(client, variant, "ru")
    assert all(russian[name]["description"] != options[name]["description"] for name in names)


def test_trentuno_lists_its_trips_and_tie_break(client):
    options = _options(client, "trentuno")
    assert options["three_of_a_kind"]["default"] == "30-below-suited"
    assert options["tie_break"]["default"] == "ranks"
    assert "knock_first_round" not in options and "on_31" not in options


def test_a_schwimmen_game_with_house_rules_is_dealt(client):
    answer = client.post("/v1/games", json={
        "variant": "schwimmen", "players": 9, "seed": 5, "dealer": 0,
        "options": {"knock_first_round": "forbidden", "on_31": "knock"}})
    assert answer.status_code == 201, answer.json
    # tie_break: trips is written as well: it became the default after states were saved.
    assert answer.json["view"]["rules"]["options"] == {
        "knock_first_round": "forbidden", "on_31": "knock", "tie_break": "trips"}


@pytest.mark.parametrize(("variant", "options", "code", "field"), [
    ("trentuno", {"on_31": "knock"}, "option_not_applicable", "options.on_31"),
    ("scat", {"knocker_ties": "never"}, "bad_option_value", "options.knocker_ties"),
    ("scat", {"three_aces_fire": True}, "option_conflict", "options.three_aces_fire"),
    ("scat", {"three_aces": 34}, "option_out_of_range", "options.three_aces"),
    ("scat", {"count_same_rank": True, "three_of_a_kind": "30"}, "option_conflict",
     "options.count_same_rank"),
    ("cut-throat", {"count_same_rank": True}, "option_conflict", "options.count_same_rank"),
    ("stop-the-bus", {"lose_below": 21}, "option_conflict", "options.lose_below"),
    ("scat", {"lose_below": 32}, "option_out_of_range", "options.lose_below"),
    ("scat", {"lose_below": "21"}, "bad_option_type", "options.lose_below"),
    ("scat", {"close_after_exchange": True}, "option_not_applicable",
     "options.close_after_exchange"),
    ("trentuno", {"close_after_exchange": True}, "option_not_applicable",
     "options.close_after_exchange"),
    ("no-elimination", {"lose_below": 21}, "option_not_applicable", "options.lose_below"),
    ("trentuno", {"knocker_must_win": True}, "option_not_applicable",
     "options.knocker_must_win"),
    ("schwimmen", {"knocker_ties": "sometimes"}, "bad_option_value", "options.knocker_ties"),
])
def test_new_options_are_refused_with_the_field_at_fault(client, variant, options, code, field):
    answer = client.post("/v1/games?lang=it", json={"variant": variant, "players": 3,
                                                    "options": options})
    assert answer.status_code == 422
    assert answer.mimetype == "application/problem+json"
    assert answer.json["code"] == code
    assert [(error["field"], error["code"]) for error in answer.json["errors"]] == [(field, code)]


def test_the_new_conflicts_are_localized(client):
    answer = client.post("/v1/games?lang=ru", json={
        "variant": "scat", "players": 3,
        "options": {"count_same_rank": True, "three_of_a_kind": "30.5"}})
    assert answer.status_code == 422
    assert answer.json["detail"].startswith("карты одного достоинства не могут складываться")
    answer = client.post("/v1/games?lang=it", json={
        "variant": "stop-the-bus", "players": 3, "options": {"lose_below": 21}})
    assert answer.json["detail"] == ("le mani classificate come nel brag non hanno punti "
                                     "sotto cui scendere")


def test_a_game_with_every_new_option_is_dealt_and_its_rules_read_back(client):
    options = {"knocker_must_win": True, "lose_below": 21, "close_after_exchange": True,
               "knocker_ties": "penalty", "tie_break": "ranks"}
    answer = client.post("/v1/games", json={"variant": "schwimmen", "players": 4, "seed": 3,
                                            "options": options})
    assert answer.status_code == 201, answer.json
    assert answer.json["view"]["rules"]["options"] == options
