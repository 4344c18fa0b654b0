"""The rules RULES.md marks **(new turn 3)**, one scripted test per rule and per value: the
blitz after a knock in ``no-elimination`` (§4.4), trips made with the jack of clubs (§2),
``three_of_a_kind: 30``, ``count_same_rank``, ``tie_break: trips``, ``blitz: ace-ten-face``
(§2), ``knocker_ties`` with ``shared`` and its stored meaning, ``knocker_must_win``,
``lose_below`` and ``close_after_exchange`` (§3)."""

import importlib.util
from pathlib import Path

import pytest

from thirtyone.errors import MoveError, OptionError
from thirtyone.game import GameState, apply_move, legal_moves, new_game
from thirtyone.hands import compare_hands, score_hand
from thirtyone.rules import make_rules, read_rules


def _load(name):
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_draw = _load("test_game_draw")
_widow = _load("widow_arrange")
draw_position, play, types = _draw.position, _draw.play, _widow.types

KNOCK, PASS = {"type": "knock"}, {"type": "pass"}


def lives(state):
    return [seat.lives for seat in state.seats]


def exchange(give, take, **more):
    return {"type": "exchange", "give": give.split(), "take": take, **more}


def schwimmen(hands, table="10H JH 7S", *, options=None, turn=1, turns=3):
    """Three seats of Schwimmen, seat 0 dealing, in the exchange phase, the table face up."""
    return _widow.arrange("schwimmen", len(hands), hands, table, options=options,
                          phase="exchange", turn=turn, turns=turns, table_face_up=[True] * 3)


# §4.4 no-elimination: a blitz made in the last turns after a knock scores 6


@pytest.mark.parametrize(("options", "points"), [
    (None, [6, 4, 1]),
    ({"blitz_after_knock": False}, [3, 1, 1]),
])
def test_no_elimination_scores_a_blitz_made_after_a_knock(options, points):
    # Seat 1 (K-Q of hearts, 20) knocks, seat 2 (11) stands, seat 0 draws the queen of spades.
    hands = [["AS", "KS", "2D"], ["KH", "QH", "3C"], ["AD", "2C", "4H"]]
    state = draw_position(hands, variant="no-elimination", stock=["QS"], options=options)
    state, events = play(state, "knock", "stand", "stock", "2D")
    assert state.result["points"] == points
    assert ("blitz" in types(events)) == (options is None)


# §2 trips made with the jack of clubs, for every value that scores trips


@pytest.mark.parametrize("value", ["30", "30.5", "30-below-suited"])
@pytest.mark.parametrize("tie_break", ["none", "ranks"])
def test_pure_trips_beat_trips_made_with_the_jack_of_clubs(value, tie_break):
    options = {"three_of_a_kind": value, "tie_break": tie_break}
    assert compare_hands(["7H 7D 7S", "8H 8D JC"], "trentuno", options).order == [[0], [1]]
    # Among trips made with the jack, the higher rank wins.
    assert compare_hands(["8H 8D JC", "9H 9D JC"], "trentuno", options).order == [[1], [0]]
    made = score_hand("8H 8D JC", "trentuno", options)
    assert made.category == "three-of-a-kind" and dict(made.wild) == {"JC": "8C"}


# §2 three_of_a_kind: 30


def test_three_of_a_kind_30_is_a_plain_30():
    options = {"three_of_a_kind": "30"}
    score = score_hand("7H 7D 7C", "scat", options)
    assert (score.points, score.category) == (30, "three-of-a-kind")
    # Tied with a suited 30 under no tie-break, below 30½ trips and a 31.
    assert compare_hands(["7H 7D 7C", "KS QS JS", "AH KH QH"], "scat", options).order == [
        [2], [0, 1]]
    # With the ranks tie-break the cards' ranks decide, as between any two 30s.
    ranked = options | {"tie_break": "ranks"}
    assert compare_hands(["7H 7D 7C", "KS QS JS", "AH AD AC"], "scat", ranked).order == [
        [2], [1], [0]]


# §2 count_same_rank


@pytest.mark.parametrize(("hand", "points", "category"), [
    ("7H 7D 7C", 21, "same-rank"),
    ("KH KD 5D", 20, "same-rank"),
    ("KH QH KD", 20, "same-rank"),  # equal counts: the pair of kings over king-queen
    ("AS KS 5S", 26, "suit"),
    ("9C 9D AH", 18, "same-rank"),
])
def test_count_same_rank_counts_the_better_of_the_best_suit_and_the_best_rank(
        hand, points, category):
    score = score_hand(hand, "scat", {"count_same_rank": True})
    assert (score.points, score.category) == (points, category)


def test_count_same_rank_is_refused_with_three_of_a_kind_scoring():
    with pytest.raises(OptionError) as raised:
        make_rules("schnautz", {"count_same_rank": True})
    error = raised.value
    assert (error.code, error.field, error.params) == (
        "option_conflict", "options.count_same_rank",
        {"option": "count_same_rank", "value": "30.5"})
    make_rules("schnautz", {"count_same_rank": True, "three_of_a_kind": "off"})


# §2, §4.14 tie_break: trips, Schwimmen's default


@pytest.mark.parametrize(("tie_break", "trips", "ordinary"), [
    ("trips", [[1], [0]], [[0, 1]]),
    ("none", [[0, 1]], [[0, 1]]),
    ("ranks", [[1], [0]], [[0], [1]]),
])
def test_tie_break_trips_ranks_three_of_a_kind_only(tie_break, trips, ordinary):
    options = {"tie_break": tie_break}
    assert compare_hands(["7D 7H 7S", "8C 8D 8H"], "schwimmen", options).order == trips
    # 17 each: queen-seven of diamonds, nine-eight of clubs.
    assert compare_hands(["7D QD 9H", "8C 9C 7S"], "schwimmen", options).order == ordinary


def test_schwimmen_seats_tied_for_lowest_with_ordinary_hands_all_lose():
    # 21, 19 and 19 (king-nine and queen-nine of one suit): seat 0 knocks, the others pass.
    state = schwimmen(["AS KS 7D", "9C QC 8H", "9D KD 8S"], turn=0)
    state, _ = play(state, KNOCK, PASS, PASS)
    assert lives(state) == [3, 2, 2]
    ranked = schwimmen(["AS KS 7D", "9C QC 8H", "9D KD 8S"], turn=0,
                       options={"tie_break": "ranks"})
    state, _ = play(ranked, KNOCK, PASS, PASS)
    assert lives(state) == [3, 2, 3]


# §2 blitz: ace-ten-face


@pytest.mark.parametrize(("hand", "blitz"), [
    ("AS KS 10S", True), ("AS QS 10S", True), ("AS JS 10S", True), ("AS KS QS", False),
])
def test_blitz_ace_ten_face(hand, blitz):
    score = score_hand(hand, "scat", {"blitz": "ace-ten-face"})
    assert score.points == 31 and score.is_blitz is blitz


def test_an_ace_ten_face_blitz_ends_the_round():
    hands = [["AS", "10S", "2D"], ["QC", "JC", "2H"]]
    options = {"blitz": "ace-ten-face"}
    state, events = play(draw_position(hands, discard=["JS"], turn=0, options=options),
                         "discard", "2D")
    assert "blitz" in types(events) and lives(state) == [3, 2]
    state, events = play(draw_position(hands, discard=["9S"], turn=0, options=options),
                         "discard", "2D")
    assert "blitz" not in types(events) and state.phase == "draw"


# §3 knocker_ties: penalty, safe, shared; knocker_penalty is the amount only

TIED = [["AS", "KS", "2D"], ["9C", "8C", "2H"], ["9D", "8D", "3C"]]  # 21; the knocker 17, 17
LOWEST = [["AS", "KS", "2D"], ["9C", "2C", "3H"], ["9D", "8D", "3C"]]  # the knocker 11 alone


@pytest.mark.parametrize(("options", "tied", "lowest"), [
    ({"knocker_ties": "penalty"}, [3, 1, 3], [3, 1, 3]),
    ({"knocker_ties": "penalty", "knocker_penalty": 1}, [3, 2, 3], [3, 2, 3]),
    ({"knocker_ties": "safe"}, [3, 3, 2], [3, 1, 3]),
    ({"knocker_ties": "shared"}, [3, 2, 2], [3, 1, 3]),
    ({"knocker_ties": "shared", "knocker_penalty": 1}, [3, 2, 2], [3, 2, 3]),
])
def test_knocker_ties(options, tied, lowest):
    state, _ = play(draw_position(TIED, options=options), "knock", "stand", "stand")
    assert lives(state) == tied
    state, _ = play(draw_position(LOWEST, options=options), "knock", "stand", "stand")
    assert lives(state) == lowest


@pytest.mark.parametrize("variant", ["blitz", "schwimmen"])
def test_blitz_and_schwimmen_default_to_shared(variant):
    rules = make_rules(variant)
    assert (rules.knocker_ties, rules.knocker_penalty) == ("shared", 1)
    # Shared is what a penalty of one meant before: nothing more to write.
    assert "knocker_ties" not in rules.to_dict()["options"]


def test_schwimmen_the_knocker_alone_loses_with_penalty_and_a_penalty_of_one():
    hands = ["AS KS 7D", "9C QC 8H", "9D QD 8S"]  # 21, 19, 19: seat 1 knocks
    state, _ = play(schwimmen(hands), KNOCK, PASS, PASS)
    assert lives(state) == [3, 2, 2]
    state, _ = play(schwimmen(hands, options={"knocker_ties": "penalty"}), KNOCK, PASS, PASS)
    assert lives(state) == [3, 2, 3]


@pytest.mark.parametrize(("stored", "meaning"), [
    ({"variant": "scat", "options": {"knocker_penalty": 1}}, "shared"),
    ({"variant": "scat", "options": {}}, "penalty"),
    ({"variant": "blitz", "options": {"knocker_penalty": 2}}, "penalty"),
    ({"variant": "blitz", "options": {}}, "shared"),
    ({"variant": "schwimmen", "options": {"knocker_penalty": 2}}, "penalty"),
    ({"variant": "scat", "options": {"knocker_ties": "safe", "knocker_penalty": 1}}, "safe"),
])
def test_a_state_saved_before_knocker_ties_shared_keeps_its_meaning(stored, meaning):
    assert read_rules(stored).knocker_ties == meaning
    data = new_game(stored["variant"], 3, seed="old", options=stored["options"] or None,
                    dealer=0).to_dict()
    data["rules"] = stored
    state = GameState.from_dict(data)
    assert state.rules.knocker_ties == meaning
    # What this version writes reads back as it is, in a state and as plain options.
    again = GameState.from_dict(state.to_dict())
    assert again.rules == state.rules
    written = state.rules.to_dict()
    assert make_rules(written["variant"], written["options"]) == state.rules


@pytest.mark.parametrize(("variant", "option", "earlier", "now"), [
    ("schwimmen", "tie_break", "none", "trips"),
    ("no-elimination", "blitz_after_knock", False, True),
])
def test_a_state_saved_before_a_default_changed_keeps_its_rules(variant, option, earlier, now):
    data = new_game(variant, 3, seed="old", dealer=0).to_dict()
    assert data["rules"] == {"variant": variant, "options": {option: now}}
    data["rules"] = {"variant": variant, "options": {}}
    assert getattr(GameState.from_dict(data).rules, option) == earlier
    assert getattr(GameState.from_dict(data).rules, option) != getattr(make_rules(variant), option)
    assert getattr(read_rules({"variant": variant, "options": {}}), option) == earlier


def test_a_new_penalty_of_one_is_written_so_that_it_reads_back():
    rules = make_rules("scat", {"knocker_penalty": 1})
    assert rules.knocker_ties == "penalty"
    assert rules.to_dict()["options"] == {"knocker_penalty": 1, "knocker_ties": "penalty"}
    assert read_rules(rules.to_dict()) == rules


# §3 knocker_must_win


@pytest.mark.parametrize(("hands", "expected"), [
    # The knocker (seat 1) 20 below seat 0's 21: seat 2 (17) and the knocker lose one.
    ([["AS", "KS", "2D"], ["KH", "QH", "3C"], ["9D", "8D", "4H"]], [3, 2, 2]),
    # The knocker tied for best (20, 20) is not the best: it loses one too.
    ([["KS", "QS", "2D"], ["KH", "QH", "3C"], ["9D", "8D", "4H"]], [3, 2, 2]),
    # The knocker alone best: only the lowest loses.
    ([["10S", "8S", "2D"], ["KH", "QH", "3C"], ["9D", "8D", "4H"]], [3, 3, 2]),
    # The knocker lowest pays the penalty (two), once.
    ([["AS", "KS", "2D"], ["9C", "2C", "3H"], ["9D", "8D", "4H"]], [3, 1, 3]),
])
def test_knocker_must_win(hands, expected):
    state, _ = play(draw_position(hands, options={"knocker_must_win": True}),
                    "knock", "stand", "stand")
    assert lives(state) == expected
    plain, _ = play(draw_position(hands), "knock", "stand", "stand")
    assert lives(plain) == ([3, 3, 2] if expected != [3, 1, 3] else expected)


def test_knocker_must_win_in_a_pot_game_the_knocker_pays_a_chip_to_the_pot():
    options = {"knocker_must_win": True}
    state = _widow.arrange("schnautz", 3, ["AS KS 7D", "9C QC 8H", "8D 9D 7H"], "10H JH 7S",
                           options=options, phase="exchange", turn=1, turns=3,
                           table_face_up=[True] * 3)
    pot = state.pot
    state, events = play(state, KNOCK, {"type": "stand"}, {"type": "stand"})
    assert {"type": "paid", "seat": 1, "chips": 1} in events
    assert {"type": "pot_won", "seat": 0, "chips": pot + 1} in events


# §3 lose_below


@pytest.mark.parametrize(("options", "hands", "expected"), [
    # Seats 1 (the knocker, 20) and 2 (17) are under 21: one life each, the knocker too, no
    # penalty; of seats 0 (21) and 3 (25) the lowest loses as usual.
    ({"lose_below": 21},
     [["AS", "KS", "2D"], ["KH", "QH", "3C"], ["9D", "8D", "4H"], ["AH", "9H", "5H"]],
     [2, 2, 2, 3]),
    # At or above it, the knocker tied for lowest pays the penalty alone (knocker_ties).
    ({"lose_below": 15},
     [["KS", "QS", "2D"], ["KH", "QH", "3C"], ["9D", "2C", "5S"], ["AH", "9H", "5H"]],
     [3, 1, 2, 3]),
    # Nobody reaches it: only the hands below lose, one life each.
    ({"lose_below": 26},
     [["AS", "KS", "2D"], ["KH", "QH", "3C"], ["9D", "8D", "4H"], ["AH", "9H", "5H"]],
     [2, 2, 2, 2]),
    # Without it, only the lowest.
    ({}, [["AS", "KS", "2D"], ["KH", "QH", "3C"], ["9D", "8D", "4H"], ["AH", "9H", "5H"]],
     [3, 3, 2, 3]),
])
def test_lose_below(options, hands, expected):
    state, _ = play(draw_position(hands, options=options or None),
                    "knock", "stand", "stand", "stand")
    assert lives(state) == expected


def test_lose_below_is_refused_with_the_brag_ranking():
    with pytest.raises(OptionError) as raised:
        make_rules("stop-the-bus", {"lose_below": 21})
    assert (raised.value.code, raised.value.field) == ("option_conflict", "options.lose_below")


# §3 close_after_exchange


def test_close_after_exchange_knocks_at_the_end_of_the_exchange():
    options = {"close_after_exchange": True}
    state = schwimmen(["AS KS 7D", "9C QC 8H", "8D 9D 7H"], options=options)
    close = exchange("8H", [0], knock=True)
    assert close in legal_moves(state)
    state, events = play(state, close)
    assert types(events) == ["exchanged", "knocked"]
    assert (state.knocker, state.final_turns, state.to_move) == (1, 2, 2)
    assert [card.code for card in state.hands[1]] == ["9C", "QC", "10H"]
    assert not any(move.get("knock") for move in legal_moves(state))
    with pytest.raises(MoveError) as raised:
        apply_move(state, exchange("7H", [0], knock=True))
    assert raised.value.code == "already_knocked"
    state, events = play(state, PASS, PASS)
    assert state.result["reason"] == "showdown" and state.result["knocker"] == 1
    assert {"type": "exchange", "give": ["8H"], "take": [0], "knock": True, "seat": 1} in [
        dict(entry) for entry in state.history]


def test_close_after_exchange_is_refused_unless_the_rules_allow_it():
    state = schwimmen(["AS KS 7D", "9C QC 8H", "8D 9D 7H"])
    assert not any(move.get("knock") for move in legal_moves(state))
    with pytest.raises(MoveError) as raised:
        apply_move(state, exchange("8H", [0], knock=True))
    assert (raised.value.code, raised.value.field) == ("no_close_after_exchange", "knock")
    with pytest.raises(MoveError) as raised:
        apply_move(state, exchange("8H", [0], knock="yes"))
    assert (raised.value.code, raised.value.field) == ("bad_move", "knock")


@pytest.mark.parametrize("value", ["allowed", "forbidden", "showdown"])
def test_a_first_round_close_follows_knock_first_round(value):
    options = {"close_after_exchange": True, "knock_first_round": value}
    state = schwimmen(["AS KS 7D", "9C QC 8H", "8D 9D 7H"], options=options, turns=0)
    close = exchange("8H", [0], knock=True)
    if value == "forbidden":
        assert close not in legal_moves(state)
        with pytest.raises(MoveError) as raised:
            apply_move(state, close)
        assert raised.value.code == "no_knock_first_round"
        return
    state, events = play(state, close)
    if value == "showdown":
        assert "first_turn_knock" in types(events) and state.result["reason"] == "showdown"
    else:
        assert (state.knocker, state.final_turns) == (1, 2)


def test_close_after_exchange_pays_the_call_fee():
    options = {"close_after_exchange": True}
    state = _widow.arrange("jokers", 3, ["AS KS 7D", "9C QC 8H", "8D 9D 7H"], "10H JH 7S",
                           options=options, phase="exchange", turn=1, turns=3,
                           table_face_up=[True] * 3)
    state, events = play(state, exchange("8H", [0], knock=True))
    assert types(events) == ["exchanged", "knocked", "paid"]


def test_a_close_is_described_as_an_exchange_and_a_knock():
    from thirtyone.game import view
    from thirtyone.words import describe_move, load_catalogs

    state = schwimmen(["AS KS 7D", "9C QC 8H", "8D 9D 7H"],
                      options={"close_after_exchange": True})
    seen = view(state, 1)
    catalogs = load_catalogs()
    plain, close = exchange("8H", [0]), exchange("8H", [0], knock=True)
    assert describe_move(catalogs["en"], close, seen).startswith(
        "Exchange with the table and knock: give")
    assert describe_move(catalogs["ru"], close, seen).startswith("Обмен со столом и стук")
    assert describe_move(catalogs["it"], plain, seen) != describe_move(catalogs["it"], close, seen)
