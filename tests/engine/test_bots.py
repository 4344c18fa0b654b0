"""The bots play every preset to the end, seeing only a seat's view and the legal moves."""

import pytest

from thirtyone.bots import GreedyBot, RandomBot, play_match
from thirtyone.game import GameState, apply_move, legal_moves, new_game, view
from thirtyone.rules import make_rules

PLAYED = ["scat", "blitz", "cut-throat", "no-elimination", "eenendertigen", "race"]


@pytest.mark.parametrize("variant", PLAYED)
def test_bots_play_whole_matches(variant):
    players = 2 if variant == "race" else 4
    for seed in range(10):
        bots = [GreedyBot(seed=seed), *(RandomBot(seed * 10 + k) for k in range(players - 1))]
        state = play_match(new_game(variant, players, seed=seed), bots)
        assert state.is_over and state.winners


@pytest.mark.parametrize("variant", PLAYED)
def test_greedy_beats_random(variant):
    players = 2 if variant == "race" else 3
    wins = 0
    for seed in range(30):
        bots = [GreedyBot(seed=seed), *(RandomBot(seed * 10 + k) for k in range(players - 1))]
        state = play_match(new_game(variant, players, seed=f"duel:{seed}"), bots)
        wins += 0 in state.winners
    assert wins > 30 / players * 1.5


def test_greedy_choices():
    state = new_game("scat", 2, seed=2, dealer=0)
    greedy = GreedyBot(knock_at=0)
    assert greedy.choose(view(state, 1), legal_moves(state)) == {"type": "knock"}
    cautious = GreedyBot(knock_at=32)
    move = cautious.choose(view(state, 1), legal_moves(state))
    assert move["type"] == "draw"


def test_greedy_takes_the_discard_that_helps_and_drops_the_card_that_costs_least():
    data = new_game("scat", 2, seed=2, dealer=0).to_dict()
    hands = [["AS", "KS", "2D"], ["QC", "JC", "2H"]]
    used = {code for hand in hands for code in hand} | {"5C"}
    deck = make_rules("scat").deck_cards
    data.update(hands=hands, discard=["5C"],
                stock=[card.code for card in deck if card.code not in used])
    state = GameState.from_dict(data)
    move = GreedyBot().choose(view(state, 1), legal_moves(state))
    assert move == {"type": "draw", "source": "discard"}
    state, _ = apply_move(state, move)
    move = GreedyBot().choose(view(state, 1), legal_moves(state))
    assert move == {"type": "discard", "card": "2H"}


def test_random_bot_is_seeded():
    first = play_match(new_game("scat", 3, seed=1), [RandomBot(1), RandomBot(2), RandomBot(3)])
    second = play_match(new_game("scat", 3, seed=1), [RandomBot(1), RandomBot(2), RandomBot(3)])
    assert first == second


@pytest.mark.parametrize("variant", ["scat", "schwimmen", "schnautz", "switch", "trentuno"])
def test_the_greedy_bot_and_the_playouts_judge_alike(variant):
    """One judging policy: on the same position the greedy bot (from its view) and the
    playouts (from a whole state) value every move the same."""
    import random

    from thirtyone.policy import Judge

    rng = random.Random(variant)
    state = new_game(variant, 3, seed=variant)
    compared = 0
    for _ in range(120):
        if state.is_over:
            break
        moves = legal_moves(state)
        if state.turn is not None and len(moves) > 1:
            assert (Judge.of_view(view(state, state.turn)).values(moves)
                    == Judge.of_state(state).values(moves))
            compared += 1
        state, _ = apply_move(state, rng.choice(moves))
    assert compared >= 10


def test_the_race_is_played_by_the_solver():
    from thirtyone.race import solve

    # The first mover (seat 0) holds a won position: the solver's bot never lets it go.
    for seed in range(10):
        game = new_game("race", 2, seed=seed, dealer=1)
        assert solve(game).wins
        assert play_match(game, [GreedyBot(seed=seed), RandomBot(seed)]).winners == (0,)
