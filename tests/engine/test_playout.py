"""Playouts: the draw family's plain turns, and the widow family's plain exchanges, played on
the cards alone give the very round the engine gives, move by move, with the same policy and
the same random draws."""

import math
import random
from dataclasses import replace

import pytest

from thirtyone import playout, policy
from thirtyone.game import GameState, Phase, apply_move, legal_moves, new_game
from thirtyone.playout import HORIZON, play_out
from thirtyone.policy import knock_policy, playout_move

ENDED = {Phase.ROUND_OVER, Phase.GAME_OVER}


def engine_play_out(state: GameState, rng: random.Random, horizon: float = math.inf) -> GameState:
    """The reference: every move of the round through the engine (past ``horizon`` turns,
    the policy hurries to knock, as the widow family's playouts do)."""
    while state.phase not in ENDED:
        state, _ = apply_move(state, playout_move(state, legal_moves(state), rng,
                                                  hurry=state.turns >= horizon))
    return state


@pytest.mark.parametrize("variant", ["scat", "blitz", "cut-throat", "eenendertigen",
                                     "no-elimination", "bank"])
@pytest.mark.parametrize("players", [2, 3])
def test_playout_is_the_engines_round(variant, players):
    compared = 0
    for index in range(40):
        state = new_game(variant, players, seed=f"playout:{index}")
        moves = random.Random(index)
        for _ in range(moves.randrange(6)):  # some random moves first: any position
            if state.phase in ENDED:
                break
            state, _ = apply_move(state, moves.choice(legal_moves(state)))
        if state.phase in ENDED:
            continue
        fast = play_out(state, random.Random(index))
        slow = engine_play_out(state, random.Random(index))
        assert fast.phase in ENDED
        assert (fast.turns, fast.hands, fast.discard, fast.seats, fast.result) == \
            (slow.turns, slow.hands, slow.discard, slow.seats, slow.result)
        compared += 1
    assert compared >= 20


def test_long_round_of_two_player_scat():
    # Two-player scat's fitted policy knocks only with 31: the playout goes on to a blitz
    # or the stock's end, no horizon cuts it short.
    state = new_game("scat", 2, seed="long")
    ended = play_out(state, random.Random(0))
    assert ended.phase in ENDED
    assert ended.turns == engine_play_out(state, random.Random(0)).turns


@pytest.mark.parametrize(("variant", "players"), [
    ("schwimmen", 2), ("schwimmen", 3), ("schwimmen", 5), ("stop-the-bus", 2),
    ("stop-the-bus", 4), ("no-trips", 3), ("jokers", 3),
])
def test_widow_playout_is_the_engines_round(variant, players, monkeypatch):
    played = []
    exchange_turns = playout._exchange_turns

    def counted(state: GameState, *args: object) -> GameState:
        after = exchange_turns(state, *args)  # type: ignore[arg-type]
        played.append(after.turns - state.turns)
        return after

    monkeypatch.setattr(playout, "_exchange_turns", counted)
    compared = 0
    for index in range(40):
        state = new_game(variant, players, seed=f"widow playout:{index}")
        moves = random.Random(index)
        for _ in range(moves.randrange(8)):
            if state.phase in ENDED:
                break
            state, _ = apply_move(state, moves.choice(legal_moves(state)))
        if state.phase in ENDED:
            continue
        horizon = state.turns + HORIZON * players
        fast = play_out(state, random.Random(index))
        slow = engine_play_out(state, random.Random(index), horizon)
        assert fast.phase in ENDED
        assert (fast.turns, fast.hands, fast.table, fast.out, fast.seats, fast.result) == \
            (slow.turns, slow.hands, slow.table, slow.out, slow.seats, slow.result)
        compared += 1
    assert compared >= 20
    assert sum(played) >= compared  # the exchanges on the cards alone did play turns


ADJUSTED = {
    "thresholds": {"scat": {"2": [30.0, 28.0, 26.0], "3": [27.0, 25.0]},
                   "schwimmen": {"2": [27.0, 25.0], "3": [26.0, 24.0]}},
    "lives": {variant: {"2": [-4.0, -2.0, 1.0, 0.0], "3": [-3.0, 0.0, 2.0, -1.0]}
              for variant in ("scat", "schwimmen")},
    "short_stock": {variant: {"2": -3.0, "3": -2.0} for variant in ("scat", "schwimmen")},
}


@pytest.mark.parametrize(("variant", "players"), [("scat", 2), ("scat", 3), ("schwimmen", 2),
                                                   ("schwimmen", 3)])
def test_playouts_adjust_the_threshold_as_the_engine_does(variant, players, monkeypatch):
    # Knock thresholds adjusted by each seat's lives and by a short stock: the playouts'
    # shortcuts read them as the engine's moves (Judge.of_state) do.
    monkeypatch.setattr(policy, "_fitted", lambda: ADJUSTED)
    knock_policy.cache_clear()
    try:
        knocks = 0
        for index in range(40):
            state = new_game(variant, players, seed=f"adjusted playout:{index}")
            rng = random.Random(index)
            lives = [rng.randrange(4) for _ in range(players)]
            seats = tuple(replace(seat, lives=left, free_ride=left == 0)
                          for seat, left in zip(state.seats, lives, strict=True))
            # A stock cut short, so that the round reaches a short stock.
            state = state.evolve(seats=seats,
                                 stock=state.stock[:rng.randrange(3 * players, 24)])
            fast = play_out(state, random.Random(index))
            slow = engine_play_out(state, random.Random(index), state.turns + HORIZON * players
                                   if variant == "schwimmen" else math.inf)
            assert (fast.turns, fast.hands, fast.table, fast.discard, fast.seats, fast.result) \
                == (slow.turns, slow.hands, slow.table, slow.discard, slow.seats, slow.result)
            knocks += slow.knocker is not None
        assert knocks >= 10
    finally:
        knock_policy.cache_clear()
