"""The rules RULES.md §4.15 marks **(new turn 4)**, each played through the public API
(``new_game``, ``legal_moves``, ``apply_move``, ``score_hand``, ``compare_hands``): the
``count_same_rank`` fix and its place on ``schwimmen``, ``spare_hand_to``, the exchange of two
cards in Schwimmen, ``fire``, the decks ``nine24``, ``five40`` and ``italian40``, ``losers``,
``knocker_ties: double``, ``knocker_caught``, ``knock_min``, ``deal_passes``, and the preset
"Il 31" (``trentuno-40``)."""

import importlib.util
from pathlib import Path

import pytest

from thirtyone.errors import CardError, MoveError, OptionError
from thirtyone.game import apply_move, legal_moves, new_game
from thirtyone.hands import compare_hands, score_hand
from thirtyone.rules import find_preset, make_rules, read_rules


def _load(name):
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_draw = _load("test_game_draw")
_widow = _load("widow_arrange")
draw_position, play, types = _draw.position, _draw.play, _widow.types

KNOCK, PASS, REVEAL = {"type": "knock"}, {"type": "pass"}, {"type": "reveal"}


def lives(state):
    return [seat.lives for seat in state.seats]


def exchange(give, take, **more):
    return {"type": "exchange", "give": give.split(), "take": take, **more}


def conflict(variant, options):
    with pytest.raises(OptionError) as raised:
        make_rules(variant, options)
    return raised.value.code, raised.value.field


def schwimmen(hands, table="10H JH 7S", *, options=None, turn=1, turns=3):
    """Three seats of Schwimmen, seat 0 dealing, in the exchange phase, the table face up."""
    return _widow.arrange("schwimmen", len(hands), hands, table, options=options,
                          phase="exchange", turn=turn, turns=turns, table_face_up=[True] * 3)


# count_same_rank: three aces count 30, not 33 (the engine mistake), and on schwimmen


def test_three_aces_added_up_count_30_and_lose_to_a_31():
    options = {"count_same_rank": True}
    aces = score_hand("AH AD AC", "scat", options)
    assert (aces.points, aces.category, aces.is_blitz) == (30, "same-rank", False)
    assert compare_hands(["AH AD AC", "AS KS QS"], "scat", options).order == [[1], [0]]
    # A pair of aces still adds up: 22 over the best suit's 11.
    assert score_hand("AH AD 5C", "scat", options).points == 22


@pytest.mark.parametrize(("more", "points", "category", "fire"), [
    ({"three_aces": 30}, 30, "three-aces", False),
    ({"three_aces": 25}, 30, "same-rank", False),
    ({"three_aces": 32}, 32, "three-aces", False),
    ({"three_aces": 33, "three_aces_fire": True}, 33, "three-aces", True),
])
def test_three_aces_or_feuer_may_ask_for_more(more, points, category, fire):
    score = score_hand("AH AD AC", "scat", {"count_same_rank": True, **more})
    assert (score.points, score.category, score.is_blitz) == (points, category, fire)


def test_count_same_rank_is_settable_on_schwimmen():
    options = {"count_same_rank": True, "three_of_a_kind": "off"}
    assert score_hand("KH KD 8D", "schwimmen", options).points == 20
    # Schwimmen's own three aces (33, Feuer) still ask for more than 30.
    feuer = score_hand("AH AD AC", "schwimmen", options)
    assert (feuer.points, feuer.is_blitz) == (33, True)
    plain = {**options, "three_aces": None, "three_aces_fire": False}
    assert score_hand("AH AD AC", "schwimmen", plain).points == 30
    assert conflict("schwimmen", {"count_same_rank": True}) == (
        "option_conflict", "options.count_same_rank")
    # Played: seat 1 takes the king of clubs (K-K-K, 30), seat 2 knocks, the others pass:
    # seat 0 (15) is lowest.
    state = schwimmen(["7C 8C 9D", "KH KD 7H", "8D 9S 10S"], table="KC JH 7S",
                      options=options)
    state, events = play(state, exchange("7H", [0]), KNOCK, PASS, PASS)
    shown = {event["seat"]: event["points"] for event in events if event["type"] == "shown"}
    assert shown == {0: 15, 1: 30, 2: 19} and lives(state) == [2, 3, 3]


# spare_hand_to: first-player


def _choosing(options, players=3):
    for seed in range(200):
        state = new_game("schwimmen", players, seed=seed, options=options, dealer=0)
        if state.phase == "choose":
            return state
    raise AssertionError("no deal without a 31 or Feuer")  # pragma: no cover


@pytest.mark.parametrize(("value", "chooser", "first"), [
    ("dealer", 0, 1),
    ("first-player", 1, 2),
])
def test_spare_hand_to_says_who_chooses_and_who_begins(value, chooser, first):
    state = _choosing({"spare_hand_to": value})
    assert state.turn == chooser
    assert REVEAL in legal_moves(state)
    taken = legal_moves(state)[0]
    assert taken["type"] == "exchange" and taken["take"] == [0, 1, 2]
    revealed, events = apply_move(state, REVEAL)
    assert revealed.phase == "exchange" and revealed.turn == first
    assert events[0] == {"type": "widow_revealed", "seat": chooser,
                         "cards": [card.code for card in state.table]}
    with pytest.raises(OptionError):
        make_rules("scat", {"spare_hand_to": "first-player"})


# exchange_max on schwimmen: two cards at once (gamedesign.de "1 - 3")


def test_schwimmen_may_swap_two_cards_when_the_table_says_so():
    hands = ["7C 8C 9D", "KH QD 7H", "8D 9S 10S"]
    state = schwimmen(hands)
    two = exchange("QD 7H", [0, 1])
    with pytest.raises(MoveError) as refused:
        apply_move(state, two)
    assert refused.value.code == "bad_exchange_size"
    options = {"exchange": "up-to-max", "exchange_max": 3}
    state = schwimmen(hands, options=options)
    sizes = {len(move["give"]) for move in legal_moves(state) if move["type"] == "exchange"}
    assert sizes == {1, 2, 3}
    state, events = apply_move(state, two)
    assert sorted(card.code for card in state.hands[1]) == ["10H", "JH", "KH"]
    assert events[0]["count"] == 2
    assert conflict("schwimmen", {"exchange_max": 2}) == ("option_conflict",
                                                          "options.exchange_max")


# fire: aces | any-trips, three_aces_fire its other spelling


def test_fire_and_three_aces_fire_are_one_setting():
    assert make_rules("schwimmen").fire == "aces"
    assert make_rules("schwimmen", {"three_aces_fire": False}) == make_rules(
        "schwimmen", {"fire": "off"})
    assert make_rules("scat", {"three_aces": 33, "fire": "aces"}) == make_rules(
        "scat", {"three_aces": 33, "three_aces_fire": True})
    assert conflict("schwimmen", {"fire": "aces", "three_aces_fire": False}) == (
        "option_conflict", "options.fire")
    assert conflict("scat", {"fire": "any-trips"}) == ("option_conflict", "options.fire")
    stored = make_rules("schwimmen", {"fire": "any-trips"}).to_dict()
    assert stored["options"]["fire"] == "any-trips"
    assert read_rules(stored) == make_rules("schwimmen", {"fire": "any-trips"})


def test_any_three_of_a_kind_made_is_feuer():
    options = {"fire": "any-trips"}
    sevens = score_hand("7H 7D 7C", "schwimmen", options)
    assert (sevens.points, sevens.is_blitz) == (30.5, True)
    assert not score_hand("7H 7D 7C", "schwimmen").is_blitz
    state = schwimmen(["7C 8C 9D", "7H 7D KH", "8D 9S 10S"], table="7S JH QS",
                      options=options)
    state, events = apply_move(state, exchange("KH", [0]))
    assert "fire" in types(events) and state.result["reason"] == "blitz"
    assert lives(state) == [2, 3, 2]


def test_any_three_of_a_kind_made_is_feuer_in_the_draw_family():
    options = {"three_of_a_kind": "30.5", "fire": "any-trips"}
    state = draw_position([["AS", "KS", "2D"], ["9C", "9D", "KH"], ["AD", "2C", "4H"]],
                          options=options, stock=["9H"])
    state, events = play(state, "stock", "KH")
    assert "fire" in types(events) and state.result["reason"] == "blitz"
    assert lives(state) == [2, 3, 2]


# Decks: nine24, five40, italian40, and deck on schwimmen


@pytest.mark.parametrize(("deck", "size", "most"), [
    ("nine24", 24, 7), ("five40", 40, 12), ("italian40", 40, 12), ("piquet32", 32, 9),
])
def test_schwimmen_decks_bound_the_players(deck, size, most):
    rules = make_rules("schwimmen", {"deck": deck})
    assert len(rules.deck_cards) == size
    state = new_game("schwimmen", min(most, 9), seed=1, options={"deck": deck})
    assert sum(len(hand) for hand in state.hands) + len(state.table) + len(state.stock) + len(
        state.out) == size
    if most < 9:
        with pytest.raises(OptionError) as raised:
            new_game("schwimmen", most + 1, seed=1, options={"deck": deck})
        assert (raised.value.code, raised.value.field) == ("bad_players", "players")


def test_the_short_decks_count_as_the_full_pack():
    assert score_hand("AS KS 9S", "schwimmen", {"deck": "nine24"}).points == 30
    assert score_hand("5H 6H AH", "scat", {"deck": "five40"}).points == 22
    with pytest.raises(CardError) as raised:
        score_hand("8H 9H AH", "scat", {"deck": "italian40"})
    assert raised.value.code == "card_not_in_deck"


# losers: all-but-best


@pytest.mark.parametrize(("options", "after"), [
    (None, [3, 3, 2]),
    ({"losers": "all-but-best"}, [2, 3, 2]),
])
def test_every_seat_but_the_best_loses(options, after):
    hands = [["KH", "QH", "2C"], ["AS", "KS", "9S"], ["5D", "3D", "2S"]]
    state = draw_position(hands, options=options)
    state, events = play(state, "knock", "stand", "stand")
    assert "showdown" in types(events) and lives(state) == after


def test_all_but_best_keeps_the_knocker_rules():
    # Seat 2 knocks with the lowest hand: it pays scat's penalty of two, seat 0 one.
    hands = [["KH", "QH", "2C"], ["AS", "KS", "9S"], ["5D", "3D", "2S"]]
    state = draw_position(hands, options={"losers": "all-but-best"}, turn=2)
    state, _ = play(state, "knock", "stand", "stand")
    assert lives(state) == [2, 3, 1]


# knocker_ties: double


@pytest.mark.parametrize(("ties", "after"), [
    ("penalty", [3, 1, 3]),
    ("shared", [3, 2, 2]),
    ("safe", [3, 3, 2]),
    ("double", [3, 1, 2]),
])
def test_knocker_ties_double_the_knocker_pays_the_penalty_the_others_one(ties, after):
    hands = [["AS", "KS", "9S"], ["9C", "6C", "2D"], ["9H", "6H", "3S"]]
    state = draw_position(hands, options={"knocker_ties": ties})
    state, _ = play(state, "knock", "stand", "stand")
    assert lives(state) == after


# knocker_caught


@pytest.mark.parametrize(("caught", "after"), [(False, [3, 2, 2]), (True, [3, 1, 2])])
def test_a_knocker_caught_by_a_31_after_the_knock_pays_the_penalty(caught, after):
    hands = [["AS", "KS", "2D"], ["KH", "QH", "3C"], ["AD", "2C", "4H"]]
    options = {"blitz_after_knock": True, "knocker_caught": caught}
    state = draw_position(hands, stock=["QS"], options=options)
    state, events = play(state, "knock", "stand", "stock", "2D")
    assert "blitz" in types(events) and lives(state) == after
    assert conflict("scat", {"knocker_caught": True}) == ("option_conflict",
                                                          "options.knocker_caught")


# knock_min


def test_knock_min_offers_the_knock_only_from_that_many_points():
    options = {"knock_min": 26}
    low = draw_position([["AS", "KS", "9S"], ["KH", "QH", "3C"], ["AD", "2C", "4H"]],
                        options=options)
    assert KNOCK not in legal_moves(low)
    with pytest.raises(MoveError) as refused:
        apply_move(low, KNOCK)
    assert (refused.value.code, refused.value.params) == ("knock_below_minimum",
                                                          {"minimum": 26})
    high = draw_position([["KH", "QH", "3C"], ["AS", "KS", "9S"], ["AD", "2C", "4H"]],
                         options=options)
    assert KNOCK in legal_moves(high)
    state, _ = apply_move(high, KNOCK)
    assert state.knocker == 1
    # In the widow family too, and never with a close after an exchange.
    state = schwimmen(["7C 8C 9D", "KH QD 7H", "8D 9S 10S"], options={"knock_min": 21})
    assert KNOCK not in legal_moves(state)
    assert conflict("schwimmen", {"knock_min": 21, "close_after_exchange": True}) == (
        "option_conflict", "options.knock_min")


# deal_passes: right


def _to_round_over(state):
    while state.phase != "round_over":
        moves = legal_moves(state)
        state, _ = apply_move(state, KNOCK if KNOCK in moves else moves[0])
    return state


@pytest.mark.parametrize(("value", "dealer", "first"), [("left", 1, 2), ("right", 3, 0)])
def test_the_deal_passes_left_or_right_and_play_still_goes_left(value, dealer, first):
    state = new_game("scat", 4, seed=5, options={"deal_passes": value, "lives": 5}, dealer=0)
    state = _to_round_over(state)
    state, events = apply_move(state, {"type": "next_round"})
    assert state.dealer == dealer and events[0]["dealer"] == dealer
    if state.phase == "draw":
        assert state.turn == first


# The preset "Il 31" (trentuno-40)


def test_il_31_is_found_by_the_names_italians_use():
    for name in ("trentuno-40", "Il 31", "trentuno italiano", "Trentuno napoletano"):
        assert find_preset(name).id == "trentuno-40"


def test_il_31_plays_with_the_italian_pack():
    rules = make_rules("trentuno-40")
    assert {card.rank for card in rules.deck_cards} == {
        "A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"}
    assert score_hand("AH QH KH", "trentuno-40").points == 31
    assert score_hand("AS JS 5D", "trentuno-40").points == 21
    state = new_game("trentuno-40", 12, seed=3)
    assert len(state.stock) + len(state.discard) == 40 - 36
    with pytest.raises(OptionError) as raised:
        new_game("trentuno-40", 13, seed=3)
    assert raised.value.field == "players"


def test_il_31_knocks_from_26_and_a_31_after_the_knock_costs_everyone_else():
    # Seat 1 (A-K-7 of hearts, 28) knocks; seat 2 stands; seat 0 draws the queen of
    # spades for 31: both others lose a life, paid into the pot.
    hands = [["AS", "KS", "2D"], ["AH", "KH", "7H"], ["AD", "2C", "4D"]]
    state = draw_position(hands, variant="trentuno-40", stock=["QS"], discard=("3S",))
    assert KNOCK not in legal_moves(draw_position(
        [["AS", "KS", "2D"], ["AH", "4H", "6C"], ["AD", "2C", "4D"]], variant="trentuno-40",
        stock=["QS"], discard=("3S",)))
    state, events = play(state, "knock", "stand", "stock", "2D")
    assert "blitz" in types(events)
    assert lives(state) == [3, 2, 2] and state.pot == 2


def test_il_31_passes_the_deal_to_the_right():
    state = new_game("trentuno-40", 4, seed=7, dealer=2)
    state = _to_round_over(state)
    if not state.is_over:
        state, _ = apply_move(state, {"type": "next_round"})
        assert state.dealer == 1
