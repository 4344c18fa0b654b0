"""The game state: new_game's checks, the seeded deal, to_dict/from_dict and its refusals,
views, and the refusals shared by every family."""

import copy
import json
import random

import pytest

from thirtyone import OptionError, StateError
from thirtyone.errors import MoveError
from thirtyone.game import GameState, apply_move, legal_moves, new_game, validate_move, view
from thirtyone.game.checks import read_sealed_state
from thirtyone.game.dealing import first_dealer
from thirtyone.game.shuffle import Stream, shuffled
from thirtyone.rules import PRESETS, make_rules


def played(variant="scat", players=3, seed="state", moves=6, **kwargs):
    state = new_game(variant, players, seed=seed, **kwargs)
    for _ in range(moves):
        state, _ = apply_move(state, legal_moves(state)[0])
    return state


# new_game


def test_new_game_deals_three_cards_each_and_turns_up_one():
    state = new_game("scat", 4, seed=1, dealer=2)
    assert [len(hand) for hand in state.hands] == [3, 3, 3, 3]
    assert len(state.discard) == 1 and len(state.stock) == 52 - 12 - 1
    assert state.dealer == 2 and state.to_move == 3 and state.round == 1
    assert [seat.lives for seat in state.seats] == [3, 3, 3, 3]


def test_dealing_is_one_card_at_a_time_from_the_dealers_left():
    state = new_game("scat", 3, seed="deal", dealer=1)
    deck = shuffled(make_rules("scat").deck_cards.cards, "deal", "deal:1")
    # Seat 2 (left of the dealer) gets cards 0, 3, 6; seat 0 gets 1, 4, 7; the dealer 2, 5, 8.
    assert state.hands[2] == deck[0:9:3]
    assert state.hands[0] == deck[1:9:3]
    assert state.hands[1] == deck[2:9:3]
    assert state.discard == deck[9:10] and state.stock == deck[10:]


def test_same_seed_same_game_other_seed_other_game():
    assert new_game("scat", 4, seed="x") == new_game("scat", 4, seed="x")
    assert new_game("scat", 4, seed="x").hands != new_game("scat", 4, seed="y").hands


def test_without_a_seed_a_fresh_one_is_recorded():
    first, second = new_game("scat", 2), new_game("scat", 2)
    assert isinstance(first.seed, str) and len(first.seed) == 32
    assert first.seed != second.seed
    assert new_game("scat", 2, seed=first.seed, dealer=first.dealer).hands == first.hands


def test_shuffle_is_uniform_enough_and_unbiased_below():
    stream = Stream("uniform", "test")
    counts = [0] * 6
    for _ in range(6000):
        counts[stream.below(6)] += 1
    assert all(850 < count < 1150 for count in counts)
    firsts = {shuffled(range(4), seed, "t")[0] for seed in range(100)}
    assert firsts == {0, 1, 2, 3}


@pytest.mark.parametrize("mode, pick", [("draw-low", min), ("draw-high", max)])
def test_first_dealer_by_seeded_draw(mode, pick):
    rules = make_rules("scat", {"first_dealer": mode})
    deck = rules.deck_cards
    for seed in range(20):
        dealer = first_dealer(rules, seed, 4)
        cards = shuffled(deck.cards, seed, "first-dealer:0")[:4]
        keys = [(deck.value(card), card.rank_order) for card in cards]
        best = pick(keys)
        if keys.count(best) == 1:
            assert dealer == keys.index(best)
        else:
            assert keys[dealer] == best


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_presets_first_dealer_defaults(variant):
    # RULES.md §3: draw-low for the presets from [000] and [001], draw-high for
    # no-elimination, random for the others.
    if variant in ("no-elimination", "trentuno-40"):
        # Il 31: the highest card cut deals (toysblog, lettera43).
        expected = "draw-high"
    elif {"000", "001"} & set(PRESETS[variant].sources):
        expected = "draw-low"
    else:
        expected = "random"
    assert make_rules(variant).first_dealer == expected


def test_the_first_dealer_is_drawn_from_the_seed():
    state = new_game("blitz", 4, seed=5)
    assert state.dealer == first_dealer(state.rules, 5, 4)


@pytest.mark.parametrize("kwargs, code", [
    ({"variant": "nope", "players": 3}, "unknown_variant"),
    ({"variant": "scat", "players": 1}, "bad_players"),
    ({"variant": "scat", "players": 10}, "bad_players"),
    ({"variant": "scat", "players": True}, "bad_players"),
    ({"variant": "race", "players": 3}, "bad_players"),
    ({"variant": "scat", "players": 3, "seed": 1.5}, "bad_seed"),
    ({"variant": "scat", "players": 3, "seed": "x" * 201}, "bad_seed"),
    ({"variant": "scat", "players": 3, "dealer": 3}, "bad_dealer"),
    ({"variant": "scat", "players": 3, "dealer": -1}, "bad_dealer"),
    ({"variant": "scat", "players": 3, "options": {"lives": 0}}, "option_out_of_range"),
])
def test_new_game_refusals(kwargs, code):
    with pytest.raises(OptionError) as error:
        new_game(**kwargs)
    assert error.value.code == code


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_every_preset_plays_or_says_not_implemented(variant):
    low = PRESETS[variant].players[0]
    try:
        state = new_game(variant, max(low, 3) if variant != "race" else 2, seed=1)
    except OptionError as error:
        assert error.code == "not_implemented"
    else:
        assert legal_moves(state)


# to_dict / from_dict


@pytest.mark.parametrize("variant", ["scat", "blitz", "cut-throat", "no-elimination",
                                     "eenendertigen", "race"])
def test_round_trip_is_lossless_and_json(variant):
    state = played(variant, 2, moves=5)
    data = json.loads(json.dumps(state.to_dict()))
    again = GameState.from_dict(data)
    assert again == state
    assert again.to_dict() == state.to_dict()
    assert legal_moves(again) == legal_moves(state)


def test_a_sealed_state_reads_back_as_the_checked_one():
    # read_sealed_state trusts what the server sealed and skips read_state's checks: along a
    # random match of every preset, through JSON as a token carries it, it reads the same
    # state (its public knowledge and rules included) and writes the same data back.
    for variant in PRESETS:
        state = new_game(variant, PRESETS[variant].players[0], seed="sealed", dealer=0)
        rng = random.Random(variant)
        for _ in range(60):
            data = json.loads(json.dumps(state.to_dict(shared=True)))
            sealed = read_sealed_state(data)
            assert sealed == GameState.from_dict(data) == state
            assert sealed.to_dict() == state.to_dict()
            if state.is_over:
                break
            state, _ = apply_move(state, rng.choice(legal_moves(state)))


def test_to_dict_layout():
    data = played("scat", 3, moves=3).to_dict()
    assert data["rules"] == {"variant": "scat", "options": {}}
    assert all(isinstance(hand, list) and len(hand) in (3, 4) for hand in data["hands"])
    assert {"stock", "discard", "table", "table_face_up", "knocker", "final_turns", "seed",
            "pot", "result", "history", "seats", "dealer", "round", "phase", "turn"} <= set(data)


def test_to_dict_is_a_copy():
    state = played("scat", 3, moves=3)
    data = state.to_dict()
    data["history"][0]["type"] = "changed"
    data["hands"][0].clear()
    assert state.to_dict() != data
    assert state.history[0]["type"] != "changed"


def _broken(change, state=None):
    data = (state or played("scat", 3, moves=4)).to_dict()
    change(data)
    with pytest.raises(StateError) as error:
        GameState.from_dict(data)
    return error.value


@pytest.mark.parametrize("change, code", [
    (lambda d: d["hands"][0].__setitem__(0, d["stock"][0]), "duplicate_card"),
    (lambda d: d["stock"].pop(), "missing_card"),
    (lambda d: d["stock"].append("X1"), "card_not_in_deck"),
    (lambda d: d["stock"].__setitem__(0, "ZZ"), "bad_card"),
    (lambda d: d["rules"].__setitem__("variant", "poker"), "unknown_variant"),
    (lambda d: d["rules"].__setitem__("options", {"lives": "many"}), "bad_option_type"),
    (lambda d: d.__setitem__("phase", "bidding"), "bad_phase"),
    (lambda d: d.__setitem__("turn", 7), "bad_turn"),
    (lambda d: d.__setitem__("turn", None), "bad_turn"),
    (lambda d: d.__setitem__("version", 99), "bad_version"),
    (lambda d: d.__setitem__("dealer", 5), "bad_dealer"),
    (lambda d: d.__setitem__("round", 0), "bad_round"),
    (lambda d: d.__setitem__("knocker", 9), "bad_knock"),
    (lambda d: d.__setitem__("final_turns", 2), "bad_knock"),
    (lambda d: d.__setitem__("pot", 3), "chips_not_conserved"),
    (lambda d: d["seats"][0].__setitem__("lives", 4), "bad_lives"),
    (lambda d: d["seats"][0].__setitem__("lives", "3"), "bad_state"),
    (lambda d: d.__setitem__("winners", [0]), "bad_winners"),
    (lambda d: d["hands"][1].append(d["stock"].pop()), "bad_hand_size"),
    (lambda d: d.__setitem__("seats", d["seats"][:2]), "bad_state"),
    (lambda d: d.__setitem__("table_face_up", [True]), "bad_table"),
    (lambda d: d.__setitem__("history", "none"), "bad_history"),
    (lambda d: d.__setitem__("pickup", d["discard"][0]), "bad_pickup"),
    (lambda d: d.__setitem__("seed", None), "bad_seed"),
])
def test_from_dict_names_the_fault(change, code):
    assert _broken(change).code == code


def test_from_dict_refuses_non_objects_and_too_many_seats():
    for data in (None, [], "state"):
        with pytest.raises(StateError) as error:
            GameState.from_dict(data)
        assert error.value.code == "bad_state"
    state = new_game("race", 2, seed=1)
    error = _broken(lambda d: (d["seats"].append(d["seats"][0]), d["hands"].append([])), state)
    assert error.code == "bad_players"


def test_from_dict_refuses_every_seat_eliminated():
    error = _broken(lambda d: [seat.__setitem__("eliminated", True) for seat in d["seats"]])
    assert error.code == "bad_seats"


# Views


def test_view_hides_other_hands_stock_and_seed():
    state = played("scat", 3, moves=2)
    for seat in (0, 1, 2, None):
        seen = view(state, seat)
        for index, hand in enumerate(seen["hands"]):
            if index == seat:
                assert hand == [card.code for card in state.hands[index]]
            else:
                assert hand == [None] * len(state.hands[index])
        assert seen["stock"] == len(state.stock)
        assert seen["seed"] is None
        assert seen["discard"] == [card.code for card in state.discard]
    json.dumps(view(state, 0))


def test_view_shows_the_hands_of_a_showdown_and_the_seed_at_the_end():
    state = new_game("scat", 2, seed="show", dealer=0)
    state, _ = apply_move(state, {"type": "knock"})
    state, _ = apply_move(state, {"type": "stand"})
    assert state.phase == "round_over"
    seen = view(state, None)
    assert seen["hands"] == [[card.code for card in hand] for hand in state.hands]
    finished = state
    while not finished.is_over:
        finished, _ = apply_move(finished, legal_moves(finished)[-1])
    assert view(finished, None)["seed"] == "show"


def test_view_refuses_a_bad_seat():
    state = new_game("scat", 2, seed=1)
    for seat in (2, -1, "0", True):
        with pytest.raises(StateError) as error:
            view(state, seat)
        assert error.value.code == "bad_seat"


# Refusals shared by every family


@pytest.mark.parametrize("move, code", [
    (None, "bad_move"),
    ("knock", "bad_move"),
    ({}, "bad_move"),
    ({"type": 3}, "bad_move"),
    ({"type": "knock", "seat": "1"}, "bad_move"),
    ({"type": "knock", "seat": 0}, "not_your_turn"),
    ({"type": "knock", "seat": 3}, "bad_seat"),
    ({"type": "next_round"}, "round_not_over"),
    ({"type": "fly"}, "unknown_move"),
    ({"type": "take", "card": "5H"}, "unknown_move"),
])
def test_shared_refusals(move, code):
    state = new_game("scat", 3, seed=1, dealer=0)
    before = copy.deepcopy(state.to_dict())
    with pytest.raises(MoveError) as error:
        apply_move(state, move)
    assert error.value.code == code
    with pytest.raises(MoveError):
        validate_move(state, move)
    assert state.to_dict() == before


def test_round_over_and_game_over_refusals():
    state = new_game("scat", 2, seed="end", dealer=0)
    state, _ = apply_move(state, {"type": "knock"})
    state, _ = apply_move(state, {"type": "stand"})
    with pytest.raises(MoveError) as error:
        validate_move(state, {"type": "knock"})
    assert error.value.code == "round_over"
    assert legal_moves(state) == [{"type": "next_round"}]
    validate_move(state, {"type": "next_round", "seat": 1})
    while not state.is_over:
        state, _ = apply_move(state, legal_moves(state)[-1])
    assert legal_moves(state) == []
    for move in ({"type": "next_round"}, {"type": "knock"}):
        with pytest.raises(MoveError) as error:
            validate_move(state, move)
        assert error.value.code == "game_over"


def test_history_records_each_move_with_its_seat():
    state = new_game("scat", 2, seed=3, dealer=0)
    state, _ = apply_move(state, {"type": "draw", "source": "stock", "seat": 1})
    card = state.hands[1][0]
    state, _ = apply_move(state, {"type": "discard", "card": card.code.lower()})
    assert list(state.history) == [
        {"seat": 1, "type": "draw", "source": "stock"},
        {"seat": 1, "type": "discard", "card": card.code},
    ]
