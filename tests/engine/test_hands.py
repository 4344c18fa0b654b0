"""Hand values and comparisons (RULES.md §2): table-driven cases, errors and the fast path."""

from __future__ import annotations

import copy
import dataclasses
import itertools
import json
import pickle
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thirtyone import (
    CATEGORY_NAMES,
    CardError,
    HandError,
    OptionError,
    compare_hands,
    evaluator,
    parse_cards,
    score_hand,
)
from thirtyone.hands.reading import mask_of
from thirtyone.rules import PRESETS, make_rules

# (variant, options, hand, points, category, counted suit, wild)
CASES = [
    # scat: best suit, blitz any-31, trips off, no tie-break
    ("scat", None, "AS KS QS", 31, "blitz", "S", {}),
    ("scat", None, "AS KS 10S", 31, "blitz", "S", {}),
    ("scat", None, "10H JH 2C", 20, "suit", "H", {}),
    ("scat", None, "2S 3S 4H", 5, "suit", "S", {}),
    ("scat", None, "AS 2H 3C", 11, "high-card", "S", {}),
    ("scat", None, "7H 7D 7C", 7, "high-card", "H", {}),
    # Two suits giving equal points: the one whose cards rank higher counts.
    ("scat", None, "KS QH 5C", 10, "high-card", "S", {}),
    ("scat", None, "5S 6S AH", 11, "high-card", "H", {}),
    ("scat", {"three_of_a_kind": "30.5"}, "7H 7D 7C", 30.5, "three-of-a-kind", None, {}),
    ("scat", {"three_aces": 31}, "AH AD AC", 31, "three-aces", None, {}),
    ("scat", {"three_aces": 20}, "AH AD AC", 20, "three-aces", None, {}),
    ("scat", {"three_of_a_kind": "30.5", "three_aces": 25}, "AH AD AC", 30.5,
     "three-of-a-kind", None, {}),
    ("scat", {"blitz": "off"}, "AS KS QS", 31, "suit", "S", {}),
    # scat with a wild jack of clubs: it still counts as a jack otherwise.
    ("scat", {"three_of_a_kind": "30.5", "wild": "jack-of-clubs-trips"}, "JC 4H 4S", 30.5,
     "three-of-a-kind", None, {"JC": "4C"}),
    ("scat", {"three_of_a_kind": "30.5", "wild": "jack-of-clubs-trips"}, "JC AC 4S", 21,
     "suit", "C", {}),
    # blitz: only ace, king and ten of one suit
    ("blitz", None, "AS KS 10S", 31, "blitz", "S", {}),
    ("blitz", None, "AS KS QS", 31, "suit", "S", {}),
    ("blitz", {"blitz": "any-31"}, "AS KS QS", 31, "blitz", "S", {}),
    ("cut-throat", None, "2H 2D 2C", 30.5, "three-of-a-kind", None, {}),
    ("eenendertigen", None, "AD 10D 9D", 30, "suit", "D", {}),
    ("schnautz", None, "6H 6D 6C", 30.5, "three-of-a-kind", None, {}),
    # trentuno: trips are worth 30; the jack of clubs is wild for trips only
    ("trentuno", None, "AH AD AC", 30, "three-of-a-kind", None, {}),
    ("trentuno", None, "JC 9H 9D", 30, "three-of-a-kind", None, {"JC": "9C"}),
    ("trentuno", None, "JC 9C 9D", 30, "three-of-a-kind", None, {"JC": "9H"}),
    ("trentuno", None, "JC JD JH", 30, "three-of-a-kind", None, {}),
    ("trentuno", None, "JC QC KC", 30, "suit", "C", {}),
    # trentuno's three_of_a_kind and tie_break may be set: trips worth 30½, as some play it
    ("trentuno", {"three_of_a_kind": "30.5"}, "JC 9H 9D", 30.5, "three-of-a-kind", None,
     {"JC": "9C"}),
    ("trentuno", {"three_of_a_kind": "30.5", "tie_break": "none"}, "7H 7D 7C", 30.5,
     "three-of-a-kind", None, {}),
    ("trentuno", None, "JC 9H 8D", 10, "high-card", "C", {}),
    ("trentuno", None, "AC KC JC", 31, "blitz", "C", {}),
    # jokers: a joker is any card not in the hand; three aces are 31
    ("jokers", None, "AS KS X1", 31, "blitz", "S", {"X1": "QS"}),
    ("jokers", None, "AS AH X1", 31, "three-aces", None, {"X1": "AD"}),
    ("jokers", None, "AS AH AD", 31, "three-aces", None, {}),
    ("jokers", None, "X1 X2 AS", 31, "blitz", "S", {"X1": "KS", "X2": "QS"}),
    ("jokers", None, "X1 X2 2C", 23, "suit", "C", {"X1": "AC", "X2": "KC"}),
    ("jokers", None, "X2 7S 2D", 18, "suit", "S", {"X2": "AS"}),
    ("jokers", None, "7H 7D 7C", 7, "high-card", "H", {}),
    ("jokers", {"deck": "short36"}, "6S AH KH", 31, "blitz", "H", {"6S": "QH"}),
    ("jokers", {"deck": "short36", "joker_card": "7D"}, "7D AH KH", 31, "blitz", "H",
     {"7D": "QH"}),
    ("jokers", {"deck": "short36", "joker_card": "7D"}, "6S AH KH", 21, "suit", "H", {}),
    ("no-trips", None, "7H 7D 7C", 7, "high-card", "H", {}),
    ("bank", None, "AH KH QH", 31, "blitz", "H", {}),
    ("no-elimination", None, "9C 8C 7C", 24, "suit", "C", {}),
    ("switch", None, "2C 2D 9D", 11, "suit", "D", {}),
    # stop-the-bus: the brag ranking
    ("stop-the-bus", None, "2H 2D 2C", 2, "three-of-a-kind", None, {}),
    ("stop-the-bus", None, "QS KS AS", 31, "running-flush", "S", {}),
    ("stop-the-bus", None, "AS 2D 3H", 11, "run", None, {}),
    ("stop-the-bus", None, "AS 9S 2S", 22, "flush", "S", {}),
    ("stop-the-bus", None, "KS KD 2H", 10, "pair", None, {}),
    ("stop-the-bus", None, "AS QD 9H", 11, "high-card", None, {}),
    # schwimmen: three aces are Feuer, worth 33; three of a kind 30½
    ("schwimmen", None, "AH AD AC", 33, "three-aces", None, {}),
    # trentuno-40 (Il 31): the Italian pack, asso 11, fante, cavallo and re 10
    ("trentuno-40", None, "AH QH KH", 31, "blitz", "H", {}),
    ("trentuno-40", None, "AS JS 5D", 21, "suit", "S", {}),
    ("trentuno-40", None, "7C 6C 2D", 13, "suit", "C", {}),
    ("schwimmen", None, "7H 7D 7C", 30.5, "three-of-a-kind", None, {}),
    ("schwimmen", None, "AS KS QS", 31, "blitz", "S", {}),
    ("schwimmen", None, "AS KS 9D", 21, "suit", "S", {}),
    ("schwimmen", {"three_aces_fire": False}, "AH AD AC", 33, "three-aces", None, {}),
    ("scat", {"three_aces": 32, "three_aces_fire": True}, "AH AD AC", 32, "three-aces", None,
     {}),
    # race: the ace counts one
    ("race", None, "AS 2S 3S", 6, "suit", "S", {}),
    ("race", None, "AS 6D 2D", 8, "suit", "D", {}),
]


@pytest.mark.parametrize(
    ("variant", "options", "hand", "points", "category", "suit", "wild"),
    CASES,
)
def test_score(variant, options, hand, points, category, suit, wild):
    score = score_hand(hand, variant, options)
    assert (score.points, score.category, score.suit, dict(score.wild)) == (
        points, category, suit, wild,
    )
    assert type(score.points) is type(points)
    fire = category == "three-aces" and make_rules(variant, options).three_aces_fire
    assert score.is_blitz == (category == "blitz" or fire)
    assert category in CATEGORY_NAMES
    assert sorted(card.code for card in score.cards) == sorted(hand.split())
    assert set(score.counted) <= set(score.cards)
    # The wild cards stand for cards not in the hand, and never for each other.
    standing = set(score.wild.values())
    assert len(standing) == len(score.wild)
    assert not standing & {card.code for card in score.cards} - set(score.wild)


def test_every_preset_has_a_case():
    assert {case[0] for case in CASES} == set(PRESETS)


# (variant, options, better hand, worse hand): the sources' examples and each tie-break
BETTER = [
    ("schnautz", None, "AS KS QS", "AS KS JS"),  # AKQ beats AKJ [000][002]
    ("schnautz", None, "AH KH QH", "AS KS JS"),
    ("schnautz", None, "6S 6H 6D", "5S 5H 5D"),  # three sixes beat three fives
    ("schnautz", None, "2S 2H 2D", "AS KS 9S"),  # 30½ beats any 30
    ("schnautz", None, "AS KS QS", "AH AD AC"),  # 31 beats 30½
    ("schnautz", None, "KS QS 9H", "KH JH 9D"),  # counted ranks first
    ("schnautz", None, "KS 9S 8H", "KH 9H 7D"),  # then the other cards
    ("schnautz", None, "10D 8D 2S", "9C 7C 2H"),  # 18 beats 16
    ("trentuno", None, "AS KS 9S", "AH AD AC"),  # a suited 30 beats any trips [002]
    ("trentuno", None, "QS KS JS", "AH AD AC"),
    ("trentuno", None, "7S 7H 7D", "AH AD JC"),  # pure trips beat trips made with JC
    ("trentuno", None, "8S 8H 8D", "7S 7H 7D"),  # higher trips beat lower
    ("trentuno", None, "AH AD JC", "7S 7H JC"),
    ("trentuno", None, "AS KS QS", "AH KH JH"),  # the 31 with higher cards wins
    ("trentuno", None, "7H 7D JC", "AS KS 8S"),  # trips beat a 29
    ("blitz", None, "AS KS 10S", "AH KH QH"),  # the blitz beats another 31
    ("jokers", None, "AH KH QH", "AS KS QS"),  # suit tie-break: hearts above spades
    ("jokers", None, "AD KD X1", "AC KC QC"),
    ("jokers", None, "AS KS QS", "AH AD AC"),  # three aces have no suit to rank
    ("jokers", {"suit_order": "SHDC"}, "AS KS QS", "AH KH QH"),
    ("scat", {"tie_break": "ranks"}, "AS KS QS", "AH KH JH"),
    ("scat", {"tie_break": "suit"}, "KH 2C 3D", "KS 2C 3D"),
    ("scat", {"tie_break": "suit"}, "KS QH 5C", "KD 2C 3S"),  # the hearts queen counts
    ("cut-throat", None, "2S 2H 2D", "AS KS 9S"),
    ("stop-the-bus", None, "2H 2D 2C", "QS KS AS"),
    ("stop-the-bus", None, "2S 3S 4S", "AS KD QH"),
    # brag_order traditional: the prial of threes tops the prials, A-2-3 the runs
    ("stop-the-bus", None, "3S 3D 3H", "AS AD AH"),
    ("stop-the-bus", None, "AS AD AH", "KS KD KH"),
    ("stop-the-bus", None, "2S 2D 2H", "AS 2S 3S"),
    ("stop-the-bus", None, "AS 2S 3S", "AH KH QH"),
    ("stop-the-bus", None, "AH KH QH", "AS 2D 3H"),
    ("stop-the-bus", None, "AS 2D 3H", "AS KD QH"),
    ("stop-the-bus", None, "AS KD QH", "KS QD JH"),
    ("stop-the-bus", None, "5S 3D 4H", "2S 3D 4H"),  # 4-3-2 the lowest run
    ("stop-the-bus", None, "2S 3D 4H", "AS KS 9S"),
    # brag_order ace-high: A-A-A on top, A-2-3 the lowest run
    ("stop-the-bus", {"brag_order": "ace-high"}, "AS AD AH", "3S 3D 3H"),
    ("stop-the-bus", {"brag_order": "ace-high"}, "4S 4D 4H", "3S 3D 3H"),
    ("stop-the-bus", {"brag_order": "ace-high"}, "AS KD QH", "2S 3D 4H"),
    ("stop-the-bus", {"brag_order": "ace-high"}, "2S 3D 4H", "AS 2D 3H"),
    ("stop-the-bus", {"brag_order": "ace-high"}, "AH KH QH", "AS 2S 3S"),
    ("stop-the-bus", None, "AS 2D 3H", "AS 9S 2S"),
    ("stop-the-bus", None, "4S 6S 2S", "AS AD KH"),
    ("stop-the-bus", None, "2S 2D 3H", "AS QD 9H"),
    ("stop-the-bus", None, "KS KD 2H", "QS QD AH"),  # the pair first
    ("stop-the-bus", None, "KS KD 3H", "KC KH 2H"),  # then the kicker
    ("stop-the-bus", None, "AS QD 9H", "AS QD 8H"),
    ("race", None, "6S 5S 4S", "AS 2S 3S"),
]


@pytest.mark.parametrize(("variant", "options", "better", "worse"), BETTER)
def test_better(variant, options, better, worse):
    high, low = score_hand(better, variant, options), score_hand(worse, variant, options)
    assert high > low and low < high and high >= low and low <= high
    assert high != low and not high == low  # noqa: SIM201
    ranking = compare_hands([worse, better], variant, options)
    assert ranking.order == [[1], [0]]
    assert (ranking.winners, ranking.losers) == ([1], [0])


# (variant, options, hand, hand): equal under the tie-break
TIED = [
    ("scat", None, "AS KS QS", "AH KH 10H"),  # tie-break none
    ("scat", None, "KS 2C 3D", "QH 4C 5D"),
    ("scat", {"three_of_a_kind": "30.5"}, "2H 2D 2C", "AH AD AC"),
    ("cut-throat", None, "2H 2D 2C", "AH AD AC"),  # trips_equal
    ("schnautz", None, "AS KS QS", "AH KH QH"),  # same ranks, suits do not count
    ("schnautz", {"trips_equal": True}, "2H 2D 2C", "AH AD AC"),
    ("trentuno", None, "7H 7D JC", "7S 7C JC"),
    ("jokers", None, "AS KS QS", "AS KS X1"),  # same points, same suit
    ("jokers", None, "AH AD AC", "AS AH X1"),
    ("stop-the-bus", None, "AS KS QS", "AH KH QH"),
    ("trentuno", {"tie_break": "none"}, "AS KS QS", "AH KH JH"),
    ("stop-the-bus", None, "KS KD 3H", "KC KH 3D"),
]


@pytest.mark.parametrize(("variant", "options", "first", "second"), TIED)
def test_tied(variant, options, first, second):
    one, other = score_hand(first, variant, options), score_hand(second, variant, options)
    assert one == other and not one != other  # noqa: SIM202
    assert one <= other and one >= other and not one < other and not one > other
    assert hash(one) == hash(other)
    ranking = compare_hands([first, second], variant, options)
    assert ranking.order == [[0, 1]]
    assert ranking.winners == ranking.losers == [0, 1]


def test_compare_hands_groups_ties():
    ranking = compare_hands(["9C 8C 2S", "AS KS QS", "7D 8H 9S", "AH KH JH", "9S 8S 2D"])
    assert ranking.order == [[1, 3], [0, 4], [2]]
    assert (ranking.winners, ranking.losers) == ([1, 3], [2])
    data = ranking.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["scores"][1]["category"] == "blitz"
    assert [score.points for score in ranking.scores] == [17, 31, 9, 31, 17]


def test_compare_hands_accepts_rules_and_cards():
    rules = make_rules("schnautz")
    ranking = compare_hands([parse_cards("AS KS QS"), ("AH", "KH", "JH")], rules)
    assert ranking.winners == [0]


def test_to_dict_is_plain_json():
    data = score_hand("AS KS X1", "jokers").to_dict()
    assert data == {
        "points": 31, "category": "blitz", "suit": "S", "counted": ["AS", "KS", "X1"],
        "cards": ["AS", "KS", "X1"], "wild": {"X1": "QS"},
    }
    assert json.loads(json.dumps(data)) == data
    trips = score_hand("7H 7D 7C", "schnautz").to_dict()
    assert trips["points"] == 30.5 and trips["suit"] is None


def test_scores_are_immutable_and_shared():
    score = score_hand("AS KS QS")
    with pytest.raises(dataclasses.FrozenInstanceError):
        score.points = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        score_hand("AS KS X1", "jokers").wild["X1"] = "2C"  # type: ignore[index]
    assert score_hand("QS AS KS") is score
    assert score_hand(["A♠", "k♠", "Д♠"]) is score


def test_scores_copy_and_pickle_as_themselves():
    for score in (score_hand("AS KS X1", "jokers"), score_hand("JC 9H 9D", "trentuno")):
        assert copy.copy(score) is score and copy.deepcopy({"s": score})["s"] is score
        assert pickle.loads(pickle.dumps(score)) is score


def test_scores_of_other_hand_rules_do_not_compare():
    scat, schnautz = score_hand("AS KS QS"), score_hand("AS KS QS", "schnautz")
    assert scat != schnautz
    with pytest.raises(TypeError):
        assert scat < schnautz
    # Options outside the hand rules share the table.
    assert score_hand("AS KS QS", "scat", {"lives": 5}) is scat


def test_evaluator_fast_path():
    rules = make_rules("scat")
    judge = evaluator(rules)
    assert evaluator(rules) is judge and evaluator("scat") is judge
    hand = parse_cards("10H JH 2C")
    assert judge.score(hand) is judge.table[hand[0].mask | hand[1].mask | hand[2].mask]
    assert judge.score(tuple(hand)) is judge.score(["10H", "JH", "2C"])
    assert judge.score(iter(hand)).points == 20
    assert repr(judge) == "Evaluator('full52', 22100 hands)"
    assert repr(evaluator(make_rules("jokers"))) == "Evaluator('full54', 24804 hands)"


def test_tables_fill_only_with_the_hands_asked_for():
    # A rule set of its own: no other test has filled its table.
    rules = make_rules("jokers", {"three_aces": 17})
    judge = evaluator(rules)
    assert len(judge.table) == 0
    assert score_hand(["AS", "KS", "X1"], rules).wild == {"X1": "QS"}
    assert len(judge.table) == 1
    assert judge.score(parse_cards("AS KS X1")) is judge.table[mask_of(parse_cards("AS KS X1"))]
    with pytest.raises(KeyError):
        judge.table[mask_of(parse_cards("AS KS"))]
    assert len(judge.table) == 1


@pytest.mark.parametrize(
    ("variant", "hand", "error", "code", "params"),
    [
        ("scat", "AS KS", HandError, "wrong_hand_size", {"size": 2, "expected": 3}),
        ("scat", "AS KS QS JS", HandError, "wrong_hand_size", {"size": 4, "expected": 3}),
        ("scat", "AS AS KS QS", HandError, "wrong_hand_size", {"size": 4, "expected": 3}),
        ("scat", "", HandError, "wrong_hand_size", {"size": 0, "expected": 3}),
        ("scat", "AS AS KS", CardError, "duplicate_card", {"card": "AS"}),
        ("scat", ["AS", "A♠", "KS"], CardError, "duplicate_card", {"card": "AS"}),
        ("scat", "AS KS X1", CardError, "card_not_in_deck", {"card": "X1", "deck": "full52"}),
        ("trentuno", "2S AS KS", CardError, "card_not_in_deck",
         {"card": "2S", "deck": "piquet32"}),
        ("race", "AS 2S 10S", CardError, "card_not_in_deck", {"card": "10S", "deck": "race24"}),
        ("scat", "AS KS ZZ", CardError, "bad_card", {"card": "ZZ"}),
        ("scat", ["AS", "KS", 7], CardError, "bad_card", {"card": "7"}),
        ("scat", 123, HandError, "bad_hand", {"hand": "123"}),
        ("scat", None, HandError, "bad_hand", {"hand": "None"}),
        ("scat", {"AS": 1, "KS": 2, "QS": 3}, HandError, "bad_hand",
         {"hand": "{'AS': 1, 'KS': 2, 'QS': 3}"}),
    ],
)
def test_hand_errors(variant, hand, error, code, params):
    with pytest.raises(error) as raised:
        score_hand(hand, variant)
    assert raised.value.code == code
    assert raised.value.params == params
    assert raised.value.field.startswith("hand")
    # The fast path refuses the same input with the same error.
    cards = hand
    if isinstance(hand, str) and code != "bad_card":
        cards = parse_cards(hand)
    with pytest.raises(error) as again:
        evaluator(variant).score(cards)
    assert again.value.code == code


def test_bad_card_names_its_position():
    with pytest.raises(CardError) as raised:
        compare_hands(["AS KS QS", "AH 1H KH"])
    assert raised.value.field == "hands[1][1]"
    assert raised.value.params == {"card": "1H"}


@pytest.mark.parametrize(
    ("hands", "code"),
    [([], "no_hands"), ("AS KS QS", "bad_hands"), (7, "bad_hands"), ({"a": 1}, "bad_hands")],
)
def test_compare_errors(hands, code):
    with pytest.raises(HandError) as raised:
        compare_hands(hands)
    assert raised.value.code == code
    assert raised.value.field == "hands"


def test_compare_wrong_size_names_the_hand():
    with pytest.raises(HandError) as raised:
        compare_hands(["AS KS QS", "AH KH"])
    assert raised.value.code == "wrong_hand_size"
    assert raised.value.field == "hands[1]"


@pytest.mark.parametrize(
    ("variant", "options", "code"),
    [
        ("nonsense", None, "unknown_variant"),
        ("scat", {"colour": 1}, "unknown_option"),
        ("trentuno", {"wild": "jokers"}, "option_not_applicable"),
        ("scat", {"wild": "jokers"}, "option_conflict"),
        ("scat", {"trips_equal": "yes"}, "bad_option_type"),
        ("scat", {"three_aces": 40}, "option_out_of_range"),
    ],
)
def test_option_errors(variant, options, code):
    with pytest.raises(OptionError) as raised:
        score_hand("AS KS QS", variant, options)
    assert raised.value.code == code


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_order_is_total_and_transitive(data):
    variant = data.draw(st.sampled_from(sorted(PRESETS)))
    deck = make_rules(variant).deck_cards.cards
    hand = st.lists(st.sampled_from(deck), min_size=3, max_size=3, unique=True)
    hands = [data.draw(hand) for _ in range(3)]
    first, second, third = (score_hand(cards, variant) for cards in hands)
    for one, other in ((first, second), (second, third), (first, third)):
        assert [one < other, one == other, one > other].count(True) == 1
        assert (one <= other) == (one < other or one == other)
        assert (one >= other) == (other <= one)
    if first <= second <= third:
        assert first <= third
    if first < second <= third or first <= second < third:
        assert first < third
    if first == second == third:
        assert first == third
    ranking = compare_hands(hands, variant)
    scores = [first, second, third]
    for better, worse in itertools.pairwise(ranking.order):
        assert all(scores[i] > scores[j] for i in better for j in worse)
    assert all(scores[i] == scores[group[0]] for group in ranking.order for i in group)


# --- The table against a slow, obviously correct reference evaluator, for every hand -------


class Claim(NamedTuple):
    """One way the reference reads a hand of natural cards."""

    points: float
    category: str
    suit: str | None
    counted: frozenset[str]
    key: tuple
    choice: tuple  # the key, refined by the rule that picks the counted suit


def ref_value(card, rules):
    if card.rank == "A":
        return 1 if rules.values == "race" else 11
    return 10 if card.rank in ("10", "J", "Q", "K") else int(card.rank)


def ref_suit_rank(suit, rules):
    """Higher is better; no suit ranks lowest."""
    return 0 if suit is None else 4 - rules.suit_order.index(suit)


def ref_ranks(cards):
    return tuple(sorted((card.rank_order for card in cards), reverse=True))


def ref_thirty_one_claims(cards, rules):
    """Every reading of three natural cards: each suit held, three of a kind, three aces."""
    claims = []
    for suit in "CDHS":
        group = [card for card in cards if card.suit == suit]
        if not group:
            continue
        others = [card for card in cards if card.suit != suit]
        points = sum(ref_value(card, rules) for card in group)
        ranks = {c.rank for c in group}
        blitz = points == 31 and (
            rules.blitz == "any-31"
            or (rules.blitz == "ace-king-ten" and ranks == {"A", "K", "10"})
            or (rules.blitz == "ace-ten-face" and len(ranks & {"K", "Q", "J"}) == 1
                and {"A", "10"} <= ranks)
        )
        category = "blitz" if blitz else ("suit" if len(group) >= 2 else "high-card")
        claims.append(ref_claim(rules, points, category, suit, group, others, None))
    if rules.count_same_rank:
        for rank in {card.rank for card in cards}:
            group = [card for card in cards if card.rank == rank]
            if len(group) >= 2:
                others = [card for card in cards if card.rank != rank]
                points = sum(ref_value(card, rules) for card in group)
                if len(group) == 3 and rank == "A":
                    points = 30  # RULES.md §4.15: three aces added up count 30
                claims.append(ref_claim(rules, points, "same-rank", None, group, others, None))
    ranks = {card.rank for card in cards}
    if len(ranks) == 1:
        claims += ref_trips_claims(cards, rules, ranks.pop(), pure=True)
    return claims


def ref_trips_claims(cards, rules, rank, pure):
    claims = []
    if rules.three_of_a_kind == "30.5":
        claims.append(ref_claim(rules, 30.5, "three-of-a-kind", None, cards, [], (pure, rank)))
    elif rules.three_of_a_kind in ("30-below-suited", "30"):
        claims.append(ref_claim(rules, 30, "three-of-a-kind", None, cards, [], (pure, rank)))
    if rank == "A" and rules.three_aces is not None:
        # Three aces, the jack of clubs among them or not, count as three aces.
        claims.append(ref_claim(rules, rules.three_aces, "three-aces", None, cards, [], None,
                                (14, 14, 14)))
    return claims


def ref_claim(rules, points, category, suit, counted, others, trips, counted_ranks=None):
    rank_order = {"J": 11, "Q": 12, "K": 13, "A": 14}
    if trips is not None:
        pure, rank = trips
        order = rank_order.get(rank) or int(rank)
        counted_ranks = (order,) * 3
    elif counted_ranks is None:
        counted_ranks = ref_ranks(counted)
    other_ranks = ref_ranks(others)
    if rules.tie_break == "ranks":
        tie = (counted_ranks, other_ranks)
    elif rules.tie_break == "trips" and category in ("three-of-a-kind", "three-aces"):
        tie = (counted_ranks,)
    elif rules.tie_break == "suit":
        tie = (ref_suit_rank(suit, rules),)
    else:
        tie = ()
    if trips is not None and rules.trips_equal:
        tie = ()
    if trips is not None:
        # Trips made with the jack of clubs rank below every pure trips of their points,
        # the higher rank first; Trentuno's pure trips too go by rank, whatever the tie-break.
        by_rank = () if rules.trips_equal else (counted_ranks[0],)
        order = tie if pure and rules.three_of_a_kind != "30-below-suited" else by_rank
        if rules.three_of_a_kind == "30-below-suited":
            # Worth 30, but below every suited 30.
            key = (30, 0, (pure, order))
        elif rules.three_of_a_kind == "30":
            # A plain 30, as any other; made with the jack, below every 30.
            key = (30, 1, tie) if pure else (30, 0, order)
        else:
            key = (points, 1, (pure, order))
    else:
        key = (points, 2 if category == "blitz" else 1, tie)
    choice = (key, counted_ranks, ref_suit_rank(suit, rules))
    codes = frozenset(card.code for card in counted)
    return Claim(points, category, suit, codes, key, choice)


BRAG = ["high-card", "pair", "flush", "run", "running-flush", "three-of-a-kind"]


def ref_brag_claim(cards, rules):
    ranks = ref_ranks(cards)
    flush = len({card.suit for card in cards}) == 1
    traditional = rules.brag_order == "traditional"
    run = ranks[0] - ranks[1] == 1 and ranks[1] - ranks[2] == 1
    if ranks == (14, 3, 2):
        run = True
        # Traditional: above A-K-Q (any rank above the ace will do); ace-high: the ace low.
        ranks = (15, 3, 2) if traditional else (3, 2, 1)
    if traditional and ranks == (3, 3, 3):
        ranks = (15, 15, 15)
    counted = cards
    if len(set(ranks)) == 1:
        category = "three-of-a-kind"
    elif run:
        category = "running-flush" if flush else "run"
    elif flush:
        category = "flush"
    elif len(set(ranks)) == 2:
        category = "pair"
        pair = max(set(ranks), key=ranks.count)
        kicker = min(set(ranks), key=ranks.count)
        counted = [card for card in cards if card.rank_order == pair]
        ranks = (pair, kicker)
    else:
        category = "high-card"
    points = max(claim.points for claim in ref_thirty_one_claims(cards, rules) if claim.suit)
    key = (BRAG.index(category), ranks)
    suit = cards[0].suit if flush else None
    return Claim(points, category, suit, frozenset(c.code for c in counted), key, (key,))


def ref_best(cards, rules):
    """The reference reading of three natural cards."""
    if rules.ranking == "brag":
        return ref_brag_claim(cards, rules)
    return max(ref_thirty_one_claims(cards, rules), key=lambda claim: claim.choice)


def ref_wild_cards(rules):
    if rules.wild != "jokers":
        return set()
    return {rules.joker_card} if rules.deck == "short36" else {"X1", "X2"}


HAND_RULES = [
    ("scat", {"three_of_a_kind": "30.5", "tie_break": "ranks"}),
    ("scat", {"three_of_a_kind": "30-below-suited", "wild": "jack-of-clubs-trips",
              "three_aces": 30}),
    ("scat", {"three_of_a_kind": "30-below-suited", "trips_equal": True,
              "wild": "jack-of-clubs-trips", "tie_break": "suit"}),
    ("scat", {"tie_break": "suit", "suit_order": "SCDH", "three_aces": 31}),
    ("scat", {"deck": "full54", "wild": "jokers", "three_of_a_kind": "30.5",
              "tie_break": "ranks", "blitz": "ace-king-ten"}),
    ("scat", {"deck": "short36", "wild": "jokers", "joker_card": "AS", "tie_break": "suit",
              "three_of_a_kind": "30.5"}),
    ("schnautz", {"wild": "jack-of-clubs-trips", "three_aces": 31}),
    ("cut-throat", {"tie_break": "ranks"}),
    ("stop-the-bus", {"brag_order": "ace-high"}),
    ("scat", {"three_aces": 31, "three_aces_fire": True, "tie_break": "ranks"}),
    ("jokers", {"deck": "short36"}),
    ("scat", {"three_of_a_kind": "30", "tie_break": "ranks", "wild": "jack-of-clubs-trips"}),
    ("scat", {"three_of_a_kind": "30", "wild": "jack-of-clubs-trips", "three_aces": 30}),
    ("scat", {"three_of_a_kind": "30", "tie_break": "suit", "trips_equal": True}),
    ("scat", {"three_of_a_kind": "30.5", "wild": "jack-of-clubs-trips", "tie_break": "trips"}),
    ("scat", {"three_of_a_kind": "30.5", "wild": "jack-of-clubs-trips", "three_aces": 31}),
    ("scat", {"count_same_rank": True, "tie_break": "ranks"}),
    ("scat", {"count_same_rank": True, "deck": "full54", "wild": "jokers",
              "blitz": "ace-ten-face"}),
    ("scat", {"count_same_rank": True, "tie_break": "suit", "three_aces": 32}),
    ("scat", {"blitz": "ace-ten-face", "tie_break": "suit"}),
] + [(variant, None) for variant in PRESETS]


HAND_OPTIONS = (
    "deck", "values", "suit_order", "three_of_a_kind", "trips_equal", "count_same_rank",
    "three_aces", "wild",
    "joker_card", "tie_break", "blitz", "ranking", "brag_order", "three_aces_fire",
)


def distinct_hand_rules():
    """One rule set per distinct set of hand options, named after every case that has it."""
    found = {}
    for variant, options in HAND_RULES:
        rules = make_rules(variant, options)
        name = variant + ("" if options is None else "+" + ",".join(sorted(options)))
        key = tuple(getattr(rules, option) for option in HAND_OPTIONS)
        found.setdefault(key, (rules, []))[1].append(name)
    return [pytest.param(rules, id="|".join(names)) for rules, names in found.values()]


@pytest.mark.slow
@pytest.mark.parametrize("rules", distinct_hand_rules())
def test_table_equals_reference_for_every_hand(rules):
    table = evaluator(rules).table
    deck = rules.deck_cards
    wild_codes = ref_wild_cards(rules)
    naturals = [card for card in deck if not card.is_joker]
    by_code = {card.code: card for card in deck}
    natural_best = {}

    def best_of(cards):
        hand = sum(card.mask for card in cards)
        if hand not in natural_best:
            natural_best[hand] = ref_best(list(cards), rules)
        return natural_best[hand]

    strengths = {}
    hands = list(itertools.combinations(deck, 3))
    for cards in hands:
        score = table[cards[0].mask | cards[1].mask | cards[2].mask]
        assert {card.code for card in score.cards} == {card.code for card in cards}
        wilds = [card for card in cards if card.code in wild_codes]
        kept = [card for card in cards if card.code not in wild_codes]
        if wilds:
            # Brute force: every choice of distinct cards for the wild cards.
            free = [card for card in naturals if card not in kept]
            best = max(
                best_of(kept + list(choice)).choice
                for choice in itertools.permutations(free, len(wilds))
            )
            assert set(score.wild) == {card.code for card in wilds}
            stood_for = [by_code[code] for code in score.wild.values()]
            assert len(set(stood_for)) == len(stood_for)
            assert not set(stood_for) & set(kept)
            claim = best_of(kept + stood_for)
            assert claim.choice[0] == best[0], cards
            counted = {
                next((w for w, c in score.wild.items() if c == code), code)
                for code in claim.counted
            }
        else:
            claims = [best_of(cards)]
            if rules.wild == "jack-of-clubs-trips" and "JC" in {c.code for c in cards}:
                others = [card for card in cards if card.code != "JC"]
                for rank in {card.rank for card in naturals} - {"J"}:
                    if {card.rank for card in others} == {rank}:
                        claims += ref_trips_claims(cards, rules, rank, pure=False)
            claim = max(claims, key=lambda claim: claim.choice)
            if claim.category in ("three-of-a-kind", "three-aces") and "JC" in claim.counted \
                    and rules.wild == "jack-of-clubs-trips" and claim.key != claims[0].key:
                stand_in = by_code.get(score.wild["JC"]) or parse_cards([score.wild["JC"]])[0]
                assert stand_in.rank == others[0].rank and stand_in not in cards
            else:
                assert not score.wild
            counted = claim.counted
        assert (score.points, score.category, score.suit) == (
            claim.points, claim.category, claim.suit,
        ), cards
        assert {card.code for card in score.counted} == counted, cards
        fire = claim.category == "three-aces" and rules.three_aces_fire
        assert score.is_blitz == (claim.category == "blitz" or fire), cards
        strengths.setdefault(claim.key, set()).add(score.strength)
    assert len(table) == len(hands)
    # The table's order is the reference's: one strength per key, increasing with the key.
    assert all(len(found) == 1 for found in strengths.values())
    ordered = [strengths[key].pop() for key in sorted(strengths)]
    assert ordered == sorted(ordered) and len(set(ordered)) == len(ordered)


def test_rotating_rule_sets_keep_their_tables_and_pay_for_their_hands_only():
    rules = [make_rules("jokers", {"three_aces": points}) for points in range(8, 32)]
    judges = [evaluator(rule_set) for rule_set in rules]
    before = [len(judge.table) for judge in judges]
    for _ in range(3):
        for rule_set in rules:
            assert score_hand(["AS", "KS", "X1"], rule_set).points == 31
    # Every rule set kept its evaluator, and each table made the one hand asked for at most
    # (other tests of this process may have asked for it already).
    assert [evaluator(rule_set) for rule_set in rules] == judges
    assert all(len(judge.table) <= size + 1 for judge, size in zip(judges, before, strict=True))


def test_the_evaluators_kept_hold_no_more_scores_than_the_budget(monkeypatch):
    from thirtyone.hands import evaluators

    monkeypatch.setattr(evaluators, "_TABLE_BUDGET", 2_000)
    deck = make_rules("scat").deck_cards
    masks = [a.mask | b.mask | c.mask for a, b, c in itertools.islice(
        itertools.combinations(deck, 3), 700)]
    for points in range(1, 11):
        table = evaluator(make_rules("scat", {"three_aces": points})).table
        for mask in masks:
            table[mask]
        kept = sum(len(judge.table) for judge in evaluators._EVALUATORS.values())
        assert kept <= 2_000, points
    assert len(evaluators._EVALUATORS) < 10
