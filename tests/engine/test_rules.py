"""Rule options, presets and the rule sets built from them (RULES.md §1-§4)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from thirtyone import OptionError
from thirtyone.cards import DECKS
from thirtyone.rules import (
    OPTIONS,
    PRESETS,
    SOURCES,
    Family,
    Rules,
    Settlement,
    check_combination,
    find_preset,
    make_rules,
)

PRESET_IDS = [
    "scat", "blitz", "cut-throat", "no-elimination", "eenendertigen", "schnautz", "bank",
    "trentuno", "jokers", "no-trips", "switch", "stop-the-bus", "race", "schwimmen",
    "trentuno-40",
]

# What RULES.md §4 says of each preset: family, players, sources and option values.
PRESET_FACTS = {
    "scat": (Family.DRAW, (2, 9), ("003",), {
        "deck": "full52", "three_of_a_kind": "off", "blitz": "any-31", "tie_break": "none",
        "stock_exhausted": "void", "knocker_penalty": 2, "lives": 3, "free_ride": True,
        "may_discard_pickup": False, "knock_first_round": "allowed", "wild": "none",
        "blitz_after_knock": False, "knocker_ties": "penalty",
    }),
    "blitz": (Family.DRAW, (2, 7), ("001",), {
        "blitz": "ace-king-ten", "stock_exhausted": "recycle", "knocker_penalty": 1,
        "knocker_ties": "shared", "first_dealer": "draw-low", "lives_to_pot": True,
        "honour_tie_break": True,
    }),
    "cut-throat": (Family.DRAW, (2, 7), ("003",), {
        "lives": 3, "free_ride": False, "three_of_a_kind": "30.5", "trips_equal": True,
    }),
    "no-elimination": (Family.DRAW, (2, 7), ("003",), {
        "first_dealer": "draw-high", "blitz_after_knock": True,
    }),
    "eenendertigen": (Family.DRAW, (2, 7), ("003",), {"deck": "piquet32"}),
    "schnautz": (Family.WIDOW, (3, 15), ("000",), {
        "deck": "full52", "three_of_a_kind": "30.5", "tie_break": "ranks",
        "first_dealer": "draw-low", "ante": 1, "exchange_max": 1, "widow": "face-up",
    }),
    "bank": (Family.DRAW, (2, 7), ("001", "003"), {
        "ante": 1, "widow": "face-down", "widow_discards": "face-up", "exchange_max": 1,
    }),
    "trentuno": (Family.WIDOW, (3, 9), ("002",), {
        "deck": "piquet32", "wild": "jack-of-clubs-trips",
        "three_of_a_kind": "30-below-suited", "tie_break": "ranks", "ante": 1,
    }),
    "jokers": (Family.WIDOW, (3, 15), ("000",), {
        "deck": "full54", "wild": "jokers", "three_of_a_kind": "off", "three_aces": 31,
        "exchange_max": 3, "tie_break": "suit", "call_fee": 1, "joker_card": "6S",
        "tie": "split", "suit_order": "HDCS",
    }),
    "no-trips": (Family.WIDOW, (2, 9), ("000",), {
        "deck": "piquet32", "three_of_a_kind": "off", "tie_break": "none",
        "table_face_up": False, "stakes": "escalating",
    }),
    "switch": (Family.SWITCH, (2, 7), ("003",), {"deck": "full52"}),
    "stop-the-bus": (Family.WIDOW, (2, 7), ("003",), {
        "ranking": "brag", "blitz": "off", "exchange": "one-or-three",
        "brag_order": "traditional",
    }),
    "race": (Family.RACE, (2, 2), ("000",), {"deck": "race24", "values": "race"}),
    "schwimmen": (Family.WIDOW, (2, 9), (), {
        "deck": "piquet32", "three_of_a_kind": "30.5", "three_aces": 33,
        "three_aces_fire": True, "tie_break": "trips", "blitz": "any-31", "lives": 3,
        "free_ride": True, "knocker_penalty": 1, "knocker_ties": "shared", "first_dealer": "random",
        "widow": "face-down",
        "exchange": "one-or-three", "may_pass": True, "on_31": "showdown",
        "knock_first_round": "allowed", "fire": "aces", "spare_hand_to": "dealer",
    }),
    # RULES.md §4.15 (new turn 4): "Il 31" with the Italian 40-card pack.
    "trentuno-40": (Family.DRAW, (2, 12), (), {
        "deck": "italian40", "first_dealer": "draw-high", "deal_passes": "right",
        "knock_min": 26, "blitz": "any-31", "blitz_after_knock": True, "knocker_penalty": 1,
        "knocker_ties": "shared", "lives": 3, "free_ride": False, "lives_to_pot": True,
        "three_of_a_kind": "off", "tie_break": "none", "losers": "lowest", "fire": "off",
    }),
}


def test_the_fourteen_presets():
    assert list(PRESETS) == PRESET_IDS
    assert set(PRESET_FACTS) == set(PRESETS)


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_preset_facts(preset_id):
    family, players, sources, values = PRESET_FACTS[preset_id]
    preset = PRESETS[preset_id]
    rules = make_rules(preset_id)
    assert rules is preset.rules and rules.variant == preset_id
    assert (preset.family, rules.family, preset.players, preset.sources) == (
        family, family, players, sources,
    )
    assert set(preset.sources) <= set(SOURCES)
    assert preset.name and preset.summary
    assert isinstance(preset.settlement, Settlement) and rules.settlement is preset.settlement
    for name, value in values.items():
        assert getattr(rules, name) == value, name
    check_combination(rules)
    assert rules.overrides() == {}
    # A default changed since a state could be saved is written, so that such a state keeps
    # the rules it was dealt with (CHANGELOG.md).
    changed = {"no-elimination": {"blitz_after_knock": True}, "schwimmen": {"tie_break": "trips"}}
    assert rules.to_dict() == {"variant": preset_id, "options": changed.get(preset_id, {})}


@pytest.mark.parametrize("preset_id", PRESET_IDS)
def test_every_settable_option_takes_its_default_and_every_choice(preset_id):
    preset = PRESETS[preset_id]
    specs = preset.option_specs()
    assert [spec.name for spec in specs] == [name for name in OPTIONS if name in preset.settable]
    for spec in specs:
        assert spec.default == getattr(preset.rules, spec.name)
        assert make_rules(preset_id, {spec.name: spec.default}) == preset.rules
        assert json.loads(json.dumps(spec.to_dict())) == spec.to_dict()
        for choice in spec.choices:
            try:
                rules = make_rules(preset_id, {spec.name: choice})
            except OptionError as error:
                assert error.code in ("option_conflict", "not_implemented")
                continue
            assert getattr(rules, spec.name) == choice


def test_every_option_is_described():
    kinds = {"choice", "bool", "int", "int-or-none", "suits", "card"}
    assert set(OPTIONS) == {field.name for field in dataclasses.fields(Rules)} - {
        "variant", "family", "settlement",
    }
    for name, spec in OPTIONS.items():
        assert spec.name == name and spec.kind in kinds and spec.description
        assert spec.check(spec.default) == spec.default
        if spec.kind == "choice":
            assert spec.default in spec.choices
        if spec.kind in ("int", "int-or-none") and spec.default is not None:
            assert spec.minimum <= spec.default <= spec.maximum


@pytest.mark.parametrize(
    ("name", "preset_id"),
    [
        ("scat", "scat"), ("Scat", "scat"), ("Thirty-One (Scat)", "scat"),
        ("Big Tonka", "scat"), ("big-tonka", "scat"), ("NICKEL NOCK", "scat"),
        ("Тридцать один", "scat"), ("Trente et un", "scat"), ("31", "scat"),
        ("Тридцать одно", "blitz"), ("West Lansing Cut Throat", "cut-throat"),
        ("Cut Throat", "cut-throat"), ("no elimination", "no-elimination"),
        ("Dutch", "eenendertigen"), ("Schnauz", "schnautz"), ("Thirty-One (2)", "schnautz"),
        ("Banking", "bank"), ("Il Trentuno", "trentuno"), ("jokers", "jokers"),
        ("no_trips", "no-trips"), ("Switch", "switch"), ("stop the bus", "stop-the-bus"),
        ("Race to 31", "race"), ("Тридцать одно (1)", "race"),
    ],
)
def test_find_preset_by_any_name(name, preset_id):
    assert find_preset(name).id == preset_id
    assert make_rules(name).variant == preset_id


@pytest.mark.parametrize("name", ["", "poker", "scat!!x", None, 31, ["scat"]])
def test_unknown_variant(name):
    with pytest.raises(OptionError) as raised:
        make_rules(name)
    error = raised.value
    assert (error.code, error.field, error.params) == (
        "unknown_variant", "variant", {"variant": name},
    )


def test_overrides_and_round_trip():
    rules = make_rules("scat", {"three_of_a_kind": 30.5, "lives": 4, "suit_order": "shdc"})
    assert (rules.three_of_a_kind, rules.lives, rules.suit_order) == ("30.5", 4, "SHDC")
    assert rules.overrides() == {"three_of_a_kind": "30.5", "lives": 4, "suit_order": "SHDC"}
    data = rules.to_dict()
    assert make_rules(data["variant"], data["options"]) == rules
    assert json.loads(json.dumps(data)) == data
    assert make_rules(rules) is rules
    merged = make_rules(rules, {"lives": 5})
    assert (merged.lives, merged.three_of_a_kind) == (5, "30.5")
    assert make_rules("scat", {}) is PRESETS["scat"].rules
    assert make_rules("jokers", {"joker_card": "7d", "deck": "short36"}).joker_card == "7D"
    assert rules.options()["lives"] == 4 and rules.preset is PRESETS["scat"]
    assert rules.deck_cards is DECKS["full52"]
    assert hash(rules) == hash(make_rules("scat", data["options"]))
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.lives = 2  # type: ignore[misc]


@pytest.mark.parametrize(
    ("variant", "options", "code", "field", "params"),
    [
        ("scat", {"colour": "red"}, "unknown_option", "options.colour", {"option": "colour"}),
        ("scat", {1: 2}, "unknown_option", "options.1", {"option": 1}),
        ("trentuno", {"lives": 5}, "option_not_applicable", "options.lives",
         {"option": "lives", "variant": "trentuno"}),
        ("race", {"deck": "full52"}, "option_not_applicable", "options.deck",
         {"option": "deck", "variant": "race"}),
        ("stop-the-bus", {"tie_break": "ranks"}, "option_not_applicable", "options.tie_break",
         {"option": "tie_break", "variant": "stop-the-bus"}),
        ("scat", {"lives": "3"}, "bad_option_type", "options.lives",
         {"option": "lives", "type": "int", "value": "3"}),
        ("scat", {"lives": True}, "bad_option_type", "options.lives",
         {"option": "lives", "type": "int", "value": True}),
        ("scat", {"lives": 2.0}, "bad_option_type", "options.lives",
         {"option": "lives", "type": "int", "value": 2.0}),
        ("scat", {"free_ride": 1}, "bad_option_type", "options.free_ride",
         {"option": "free_ride", "type": "bool", "value": 1}),
        ("scat", {"rounds": "none"}, "bad_option_type", "options.rounds",
         {"option": "rounds", "type": "int-or-none", "value": "none"}),
        ("scat", {"tie_break": ["ranks"]}, "bad_option_type", "options.tie_break",
         {"option": "tie_break", "type": "choice", "value": ["ranks"]}),
        ("scat", {"suit_order": 4}, "bad_option_type", "options.suit_order",
         {"option": "suit_order", "type": "suits", "value": 4}),
        ("scat", {"lives": 0}, "option_out_of_range", "options.lives",
         {"option": "lives", "value": 0, "minimum": 1, "maximum": 10}),
        ("scat", {"lives": 11}, "option_out_of_range", "options.lives",
         {"option": "lives", "value": 11, "minimum": 1, "maximum": 10}),
        ("scat", {"three_aces": 34}, "option_out_of_range", "options.three_aces",
         {"option": "three_aces", "value": 34, "minimum": 1, "maximum": 33}),
        ("scat", {"knock_first_round": "never"}, "bad_option_value",
         "options.knock_first_round",
         {"option": "knock_first_round", "value": "never",
          "choices": "allowed, forbidden, showdown"}),
        ("scat", {"knock_first_round": 1}, "bad_option_type", "options.knock_first_round",
         {"option": "knock_first_round", "type": "choice", "value": 1}),
        ("scat", {"knocker_ties": "knocker"}, "bad_option_value", "options.knocker_ties",
         {"option": "knocker_ties", "value": "knocker",
          "choices": "penalty, safe, shared, double"}),
        ("scat", {"blitz_after_knock": "yes"}, "bad_option_type", "options.blitz_after_knock",
         {"option": "blitz_after_knock", "type": "bool", "value": "yes"}),
        ("scat", {"stock_exhausted": "shuffle"}, "bad_option_value",
         "options.stock_exhausted",
         {"option": "stock_exhausted", "value": "shuffle",
          "choices": "void, showdown, recycle, reshuffle"}),
        ("scat", {"three_aces_fire": 1}, "bad_option_type", "options.three_aces_fire",
         {"option": "three_aces_fire", "type": "bool", "value": 1}),
        ("stop-the-bus", {"brag_order": "ace-low"}, "bad_option_value", "options.brag_order",
         {"option": "brag_order", "value": "ace-low", "choices": "traditional, ace-high"}),
        ("schnautz", {"on_31": "win"}, "bad_option_value", "options.on_31",
         {"option": "on_31", "value": "win", "choices": "showdown, knock"}),
        # Which presets may set the new options.
        ("scat", {"brag_order": "ace-high"}, "option_not_applicable", "options.brag_order",
         {"option": "brag_order", "variant": "scat"}),
        ("scat", {"on_31": "knock"}, "option_not_applicable", "options.on_31",
         {"option": "on_31", "variant": "scat"}),
        ("trentuno", {"knock_first_round": "showdown"}, "option_not_applicable",
         "options.knock_first_round", {"option": "knock_first_round", "variant": "trentuno"}),
        ("trentuno", {"on_31": "knock"}, "option_not_applicable", "options.on_31",
         {"option": "on_31", "variant": "trentuno"}),
        ("stop-the-bus", {"on_31": "knock"}, "option_not_applicable", "options.on_31",
         {"option": "on_31", "variant": "stop-the-bus"}),
        ("schnautz", {"knocker_ties": "safe"}, "option_not_applicable", "options.knocker_ties",
         {"option": "knocker_ties", "variant": "schnautz"}),
        ("schnautz", {"blitz_after_knock": True}, "option_not_applicable",
         "options.blitz_after_knock", {"option": "blitz_after_knock", "variant": "schnautz"}),
        ("schwimmen", {"lives_to_pot": True}, "option_not_applicable", "options.lives_to_pot",
         {"option": "lives_to_pot", "variant": "schwimmen"}),
        ("schwimmen", {"stock_exhausted": "reshuffle"}, "option_not_applicable",
         "options.stock_exhausted", {"option": "stock_exhausted", "variant": "schwimmen"}),
        ("race", {"three_aces_fire": True}, "option_not_applicable",
         "options.three_aces_fire", {"option": "three_aces_fire", "variant": "race"}),
        ("scat", {"max_turns": 9}, "option_out_of_range", "options.max_turns",
         {"option": "max_turns", "value": 9, "minimum": 10, "maximum": 10_000}),
        ("scat", {"tie_break": "coin"}, "bad_option_value", "options.tie_break",
         {"option": "tie_break", "value": "coin", "choices": "none, trips, ranks, suit"}),
        ("scat", {"three_of_a_kind": "31"}, "bad_option_value", "options.three_of_a_kind",
         {"option": "three_of_a_kind", "value": "31",
          "choices": "off, 30.5, 30-below-suited, 30"}),
        ("scat", {"suit_order": "HDC"}, "bad_option_value", "options.suit_order",
         {"option": "suit_order", "value": "HDC"}),
        ("scat", {"suit_order": "HHDC"}, "bad_option_value", "options.suit_order",
         {"option": "suit_order", "value": "HHDC"}),
        ("jokers", {"joker_card": "ZZ"}, "bad_option_value", "options.joker_card",
         {"option": "joker_card", "value": "ZZ"}),
        ("jokers", {"joker_card": 6}, "bad_option_value", "options.joker_card",
         {"option": "joker_card", "value": 6}),
        ("scat", ["lives"], "bad_options", "options", {}),
        ("scat", "lives=4", "bad_options", "options", {}),
        ("scat", [], "bad_options", "options", {}),
    ],
)
def test_option_errors(variant, options, code, field, params):
    with pytest.raises(OptionError) as raised:
        make_rules(variant, options)
    error = raised.value
    assert (error.code, error.field, error.params) == (code, field, params)
    assert error.to_dict()["message"] == str(error)


# Each conflict of check_combination, reached through make_rules where a preset allows it.
CONFLICTS = [
    ("scat", {"wild": "jokers"}, "wild"),
    ("scat", {"wild": "jokers", "deck": "piquet32"}, "wild"),
    ("scat", {"deck": "full54"}, "deck"),
    ("jokers", {"deck": "short36", "joker_card": "2S"}, "joker_card"),
    ("jokers", {"deck": "full52"}, "wild"),
    ("scat", {"wild": "jack-of-clubs-trips"}, "wild"),
    ("scat", {"trips_equal": True}, "trips_equal"),
    ("cut-throat", {"three_of_a_kind": "off"}, "trips_equal"),
    ("scat", {"deck": "race24"}, "deck"),
    ("scat", {"three_aces_fire": True}, "three_aces_fire"),
    ("schwimmen", {"three_aces": None}, "three_aces_fire"),
    ("scat", {"blitz": "off", "blitz_after_knock": True}, "blitz_after_knock"),
    ("blitz", {"knocker_ties": "safe"}, "knocker_ties"),
    ("trentuno", {"three_of_a_kind": "off"}, "wild"),
]


@pytest.mark.parametrize(("variant", "options", "option"), CONFLICTS)
def test_conflicts(variant, options, option):
    with pytest.raises(OptionError) as raised:
        make_rules(variant, options)
    error = raised.value
    assert (error.code, error.field, error.params["option"]) == (
        "option_conflict", f"options.{option}", option,
    )


@pytest.mark.parametrize(
    ("variant", "changes", "option"),
    [
        ("stop-the-bus", {"blitz": "any-31"}, "ranking"),
        ("stop-the-bus", {"wild": "jokers", "deck": "full54"}, "ranking"),
        ("scat", {"ranking": "brag"}, "ranking"),
        ("race", {"deck": "full52", "values": "standard"}, "deck"),
    ],
)
def test_conflicts_no_preset_can_reach(variant, changes, option):
    # No preset lets a table set these, so check the combination rule itself.
    rules = dataclasses.replace(PRESETS[variant].rules, **changes)
    with pytest.raises(OptionError) as raised:
        check_combination(rules)
    assert (raised.value.code, raised.value.params["option"]) == ("option_conflict", option)


def test_betting_stakes_are_not_implemented():
    with pytest.raises(OptionError) as raised:
        make_rules("no-trips", {"stakes": "betting"})
    error = raised.value
    assert (error.code, error.field, error.params) == (
        "not_implemented", "options.stakes", {"option": "stakes", "value": "betting"},
    )


def test_bad_options_on_a_rules_object():
    with pytest.raises(OptionError) as raised:
        make_rules(make_rules("scat"), ["lives"])
    assert raised.value.code == "bad_options"


@pytest.mark.parametrize(
    ("options", "value"),
    [({"knock_first_round": True}, "allowed"), ({"knock_first_round": False}, "forbidden")],
)
def test_knock_first_round_still_takes_its_old_booleans(options, value):
    rules = make_rules("scat", options)
    assert rules.knock_first_round == value
    assert rules == make_rules("scat", {"knock_first_round": value})


def test_the_new_settable_options_by_preset():
    settable = {preset_id: set(PRESETS[preset_id].settable) for preset_id in PRESET_IDS}
    draw_and_widow = {"scat", "blitz", "cut-throat", "no-elimination", "eenendertigen", "bank",
                      "schnautz", "jokers", "no-trips", "stop-the-bus", "schwimmen",
                      "trentuno-40"}
    assert {p for p, names in settable.items() if "knock_first_round" in names} == (
        draw_and_widow)
    assert {p for p, names in settable.items() if "on_31" in names} == {
        "schnautz", "jokers", "no-trips", "schwimmen"}
    assert {p for p, names in settable.items() if "brag_order" in names} == {"stop-the-bus"}
    assert {"three_of_a_kind", "tie_break"} <= settable["trentuno"]
    assert make_rules("trentuno", {"three_of_a_kind": "30.5", "tie_break": "none"}) \
        .three_of_a_kind == "30.5"
    assert make_rules("scat", {"three_aces": 33, "three_aces_fire": True}).three_aces == 33
