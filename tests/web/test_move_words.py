"""Every legal move of every preset says the same words on every surface: the API's
``legal_moves``, the hints and the command line, in each language (``thirtyone.words``).

The Switch hand numbering once differed between the hint ("table hand 1") and the play page
("table hand 0") for the same move: here a move's words, the event it causes and each surface
are compared, so that a second copy of the words cannot drift again.
"""

from __future__ import annotations

import random
import re

import pytest

from thirtyone.__main__ import main
from thirtyone.game import GameState, apply_move, legal_moves, new_game, view
from thirtyone.rules import PRESETS
from thirtyone.words import LANGUAGES, describe_move, event_message, load_catalogs

CATALOGS = load_catalogs()
MOVES_PER_PRESET = 40


def _walk(variant: str) -> list[GameState]:
    """The positions of a seeded random match of ``variant``, from the deal on."""
    rng = random.Random(variant)
    state = new_game(variant, PRESETS[variant].players[0], seed=variant)
    seen = [state]
    while not state.is_over and len(seen) < MOVES_PER_PRESET:
        state, _ = apply_move(state, rng.choice(legal_moves(state)))
        seen.append(state)
    return seen


def _mover(state: GameState) -> int:
    return 0 if state.to_move is None else state.to_move


def _said(state: GameState, language: str) -> list[str]:
    seen = view(state, _mover(state))
    return [describe_move(CATALOGS[language], move, seen) for move in legal_moves(state)]


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_the_api_gives_each_legal_move_the_words_of_the_engine(client, variant):
    for state in _walk(variant):
        if state.is_over:
            continue
        for language in LANGUAGES:
            answer = client.post(f"/v1/games/view?lang={language}",
                                 json={"state": state.to_dict(), "seat": _mover(state)}).json
            expected = _said(state, language)
            assert [move.pop("description") for move in answer["legal_moves"]] == expected
            assert answer["legal_moves"] == legal_moves(state)
            # Two moves a player could confuse never read the same.
            assert len(set(expected)) == len(expected), expected


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_the_hint_says_the_words_of_the_api(client, variant):
    state = next((state for state in _walk(variant) if len(legal_moves(state)) > 1), None)
    assert state is not None
    for language in LANGUAGES:
        asked = client.post(f"/v1/games/advice?lang={language}", json={
            "state": state.to_dict(), "seat": _mover(state), "samples": 1})
        assert asked.status_code == 200, asked.json
        described = {str(entry["move"]): entry["description"] for entry in asked.json["moves"]}
        said = dict(zip(map(str, legal_moves(state)), _said(state, language), strict=True))
        assert described == said


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_the_command_line_lists_the_moves_in_the_words_of_the_api(capsys, monkeypatch,
                                                                   variant):
    """A match whose seat 0 acts first: the menu the terminal shows before its first answer."""
    players = PRESETS[variant].players[0]
    seed = next(seed for seed in map(str, range(200))
                if new_game(variant, players, seed=seed).to_move == 0)
    state = new_game(variant, players, seed=seed)

    def no_more(prompt: str) -> str:
        raise EOFError

    monkeypatch.setattr("builtins.input", no_more)
    for language in LANGUAGES:
        with pytest.raises(SystemExit):
            main(["play", variant, "--players", str(players), "--seed", seed, "--lang", language])
        menu = re.findall(r"^  \d+\) (.*)$", capsys.readouterr().out, re.MULTILINE)
        assert menu == _said(state, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_switch_hand_is_named_alike_by_the_move_and_by_its_event(language):
    """Table hands are counted from 1 in words (``hand: 0`` is table hand 1), in a move and in
    the event it causes."""
    state = new_game("switch", 2, seed="hands", dealer=0)
    state, _ = apply_move(state, {"type": "keep", "hand": 0})
    seen = view(state, state.to_move)
    for hand in (0, 1):
        move = {"type": "swap_hand", "hand": hand}
        said = describe_move(CATALOGS[language], move, seen)
        _, events = apply_move(state, move)
        message = event_message(CATALOGS[language], events[0])
        assert re.findall(r"\d+", said) == [str(hand + 1)]
        assert str(hand + 1) in re.findall(r"\d+", message)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_hosted_table_gives_its_seat_the_words_of_the_engine(client, language):
    created = client.post("/v1/tables", json={"variant": "switch", "players": 2}).json
    claimed = client.post(f"/v1/tables/{created['table']}/seats/1",
                          json={"invitation": created["seats"][1]["invitation"], "name": "B"})
    keys = {0: created["seats"][0]["key"], 1: claimed.json["key"]}
    for _ in range(6):
        public = client.get(f"/v1/tables/{created['table']}").json
        seat = 0 if public["to_move"] is None else public["to_move"]
        mine = client.get(f"/v1/tables/{created['table']}?lang={language}",
                          headers={"Authorization": f"Bearer {keys[seat]}"}).json
        said = [move.pop("description") for move in mine["legal_moves"]]
        assert said == [describe_move(CATALOGS[language], move, mine["view"])
                        for move in mine["legal_moves"]]
        played = client.post(f"/v1/tables/{created['table']}/moves",
                             headers={"Authorization": f"Bearer {keys[seat]}"},
                             json={"move": {**mine["legal_moves"][-1], "description": said[-1]},
                                   "version": mine["version"]})
        assert played.status_code == 200, played.json


class _Unread(dict):
    """A view that no words may read: any look-up fails the test."""

    def __getitem__(self, key):
        raise AssertionError(f"the words read the view's {key!r}")

    get = __getitem__


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_words_kept_by_move_read_the_move_alone(variant):
    """An operation marked ``words_of_move_alone`` (whose words describe_move keeps, by
    catalog, pack and move) says its words without reading the view; and the words kept are
    those said afresh."""
    from thirtyone.game.operations import operation_of
    from thirtyone.words import _DESCRIBED, say

    kept = 0
    for state in _walk(variant):
        seen = view(state, _mover(state))
        for move in legal_moves(state):
            operation = operation_of(move)
            if not operation.words_of_move_alone:
                continue
            phrase = operation.words(move, _Unread())
            for translations in CATALOGS.values():
                for _ in range(2):  # said afresh, then kept
                    assert describe_move(translations, move, seen, "french") \
                        == say(translations, phrase, "french")
            kept += 1
    assert kept == 0 or _DESCRIBED
