"""Random matches of the widow family, bank and Switch with the shared invariants checked after
every move (each card once, chips conserved, lives never grow, no face-down or hidden card in
any view, the match always ends), every move outside the legal ones refused with the state
untouched, and every event's message formatted from the event's own keys."""

import importlib.util
import json
import random
from pathlib import Path

import pytest
from tests.conftest import sampled

from thirtyone.errors import MoveError
from thirtyone.events import EVENT_MESSAGES
from thirtyone.game import GameState, apply_move, legal_moves, new_game, validate_move, view
from thirtyone.rules import PRESETS

_spec = importlib.util.spec_from_file_location(
    "shared_random", Path(__file__).with_name("test_game_random.py"))
shared = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(shared)

WIDOW_PRESETS = ["schnautz", "bank", "trentuno", "jokers", "no-trips", "switch", "stop-the-bus"]
MATCHES = 1000
"""Matches per preset; every one is checked move by move, one in ``LOOK_EVERY`` with views."""
LOOK_EVERY = 10


def _setup(variant, rng):
    preset = PRESETS[variant]
    low, high = preset.players
    options = {}
    if "rounds" in preset.settable:
        # Short matches (the default is one deal per seat) keep thousands of deals fast.
        options["rounds"] = rng.choice((1, 1, 1, 2, None)) if high <= 9 else 1
    if "lives" in preset.settable:
        options["lives"] = rng.choice((1, 1, 2))
    if "tie" in preset.settable and rng.random() < 0.4:
        options["tie"] = "carry"
    if "exchange_max" in preset.settable and rng.random() < 0.3:
        options["exchange_max"] = rng.randint(1, 3)
        if preset.rules.exchange == "one-or-three":
            options["exchange"] = "up-to-max"
    if "widow_discards" in preset.settable and rng.random() < 0.3:
        options["widow_discards"] = "face-down"
    if "table_face_up" in preset.settable and rng.random() < 0.3:
        options["table_face_up"] = True
    if variant == "jokers" and rng.random() < 0.3:
        options["deck"] = "short36"
        high = 11
    if "knock_first_round" in preset.settable and rng.random() < 0.2:
        options["knock_first_round"] = rng.choice(("forbidden", "showdown"))
    if "on_31" in preset.settable and rng.random() < 0.2:
        options["on_31"] = "knock"
    for name in ("close_after_exchange", "knocker_must_win"):
        if name in preset.settable and rng.random() < 0.2:
            options[name] = True
    if "knock_min" in preset.settable and not options.get("close_after_exchange") and (
            rng.random() < 0.2):
        options["knock_min"] = rng.choice((15, 21))
    if "deal_passes" in preset.settable and rng.random() < 0.2:
        options["deal_passes"] = "right"
    if "lose_below" in preset.settable and preset.rules.ranking != "brag" and rng.random() < 0.2:
        options["lose_below"] = 21
    options = {key: value for key, value in options.items() if value is not None}
    return rng.randint(low, high), options


@pytest.mark.slow
@pytest.mark.parametrize("variant", WIDOW_PRESETS)
def test_random_matches_keep_every_invariant(variant):
    rng = random.Random(f"widow:{variant}")
    reasons = set()
    for match in range(MATCHES):
        players, options = _setup(variant, rng)
        state = new_game(variant, players, seed=f"{variant}:{match}", options=options or None)
        look = match % LOOK_EVERY == 0
        moves = shared.check_invariants(state, state, look)
        for step in range(5000):
            if state.is_over:
                break
            new, events = apply_move(state, rng.choice(moves))
            for event in events:
                EVENT_MESSAGES[event["type"]].format(**event)
            moves = shared.check_invariants(new, state, look, events)
            ended = new.phase in ("round_over", "game_over")
            if look and (ended or step % 8 == 0):
                data = json.loads(json.dumps(new.to_dict()))
                assert GameState.from_dict(data) == new
                if ended:
                    reasons.add(new.result["reason"])
            if look:
                for seat in range(new.players):
                    _no_face_down_in_history(new, seat)
            state = new
        assert state.is_over, "the match always ends"
        assert state.winners
    assert "showdown" in reasons


def _no_face_down_in_history(state, seat):
    if state.rules.widow_discards != "face-down":
        return
    for entry in view(state, seat)["history"]:
        if entry["type"] == "exchange":
            assert entry["give"] == [None] * len(entry["take"])


def _candidates(state):
    """Moves of the whole vocabulary, around the legal ones."""
    hand = [card.code for card in state.hands[state.to_move]] if state.to_move is not None else []
    other = next(card.code for card in state.rules.deck_cards if card.code not in hand)
    moves = [{"type": kind} for kind in ("knock", "stand", "next_round", "pass", "join",
                                         "reveal", "declare", "draw", "discard", "swap_hand")]
    moves += [{"type": "exchange", "give": [code], "take": [position]}
              for code in [*hand, other] for position in range(-1, 7)]
    moves += [{"type": "exchange", "give": hand[:size], "take": list(range(size))}
              for size in (2, 3)]
    moves += [{"type": "exchange", "give": hand[:1] * 2, "take": [0, 1]},
              {"type": "exchange", "give": hand[:2], "take": [0]},
              {"type": "exchange", "give": "7H", "take": 0}]
    moves += [{"type": "keep", "hand": hand} for hand in (0, 1, 2, True)]
    moves += [{"type": "swap_hand", "hand": hand} for hand in (0, 1, 2)]
    moves += [{"type": "renew", "hand": hand, "face_up": up}
              for hand in (0, 1) for up in (True, False, None)]
    return moves


@pytest.mark.parametrize("variant", sampled([*WIDOW_PRESETS, "schwimmen"]))
def test_exactly_the_legal_moves_are_accepted(variant):
    rng = random.Random(f"widow-legal:{variant}")
    for match in range(6):
        players, options = _setup(variant, rng)
        state = new_game(variant, players, seed=f"legal:{match}", options=options or None)
        while not state.is_over:
            legal = legal_moves(state)
            for move in legal:
                validate_move(state, move)
            before = state.to_dict()
            for move in _candidates(state):
                if move in legal:
                    continue
                try:
                    apply_move(state, move)
                except MoveError as error:
                    assert error.code not in ("bad_state",)
                else:
                    # Another order of the same cards and positions is the same exchange.
                    assert move["type"] == "exchange"
                    assert any(m["type"] == "exchange"
                               and sorted(m["give"]) == sorted(move["give"])
                               and sorted(m["take"]) == sorted(move["take"]) for m in legal)
            assert state.to_dict() == before, "a refused move changes nothing"
            state, _ = apply_move(state, rng.choice(legal))


def test_every_widow_preset_has_a_golden_playthrough():
    golden = Path(__file__).with_name("golden")
    for variant in WIDOW_PRESETS:
        recorded = json.loads((golden / f"{variant}.json").read_text())
        assert recorded["variant"] == variant and recorded["final"]["winners"]
