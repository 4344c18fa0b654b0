"""The ``thirtyone`` command: the engine in a terminal, in the API's sentences."""

from __future__ import annotations

import importlib.util
import itertools

import pytest

import thirtyone
from thirtyone.__main__ import main


def run(capsys, *argv: str) -> str:
    main(list(argv))
    return capsys.readouterr().out


def test_version(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["--version"])
    assert exit.value.code == 0
    assert capsys.readouterr().out.strip() == f"thirtyone {thirtyone.__version__}"


def test_score_says_what_the_api_says(capsys):
    from thirtyone.web import create_app

    said = run(capsys, "score", "A♠", "KS", "10s", "--lang", "ru")
    client = create_app({"THIRTYONE_SECRET_KEY": "cli", "SITE_DIR": None}).test_client()
    answer = client.post("/v1/hands/score?lang=ru", json={"hand": ["A♠", "KS", "10s"]}).json
    assert said.strip() == answer["description"]
    assert said.startswith("Блиц: 31 очко в пиках (туз пик")


def test_compare_ranks_hands_best_first(capsys):
    said = run(capsys, "compare", "7H 7D 7C", "AS,KS,QS", "--variant", "schnautz",
               "--lang", "it").splitlines()
    assert said[0].startswith("1. #2 AS KS QS: Blitz: 31 punti a picche")
    assert said[1].startswith("2. #1 7H 7D 7C: ")


def test_solve_names_the_winning_cards(capsys):
    said = run(capsys, "solve", "5H", "5S", "--lang", "en")
    assert said.strip() == ("At 10, the player to move wins with perfect play by taking: "
                            "two of clubs, two of diamonds, two of hearts, two of spades.")
    assert "проигрывает" in run(capsys, "solve", "5H", "--lang", "ru")


def test_bad_input_is_a_sentence_not_a_traceback(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["score", "AS", "KS", "ZZ", "--lang", "en"])
    assert "thirtyone score: " in str(exit.value.code) and "ZZ" in str(exit.value.code)


def test_play_a_match_against_bots_in_the_terminal(capsys, monkeypatch):
    asked = itertools.count()
    monkeypatch.setattr("builtins.input", lambda prompt: (next(asked), "1")[1])
    said = run(capsys, "play", "scat", "--players", "3", "--bots", "greedy", "--seed", "cli",
               "--lang", "ru")
    assert next(asked) > 1
    assert "Ваши карты: " in said and "Игрок 1 " in said
    assert "выиграл" in said.splitlines()[-3]  # the match's last event, then the standings
    assert said.splitlines()[-1].startswith("Партия окончена, победа: Игрок ")


def test_play_ends_quietly_at_the_end_of_input(capsys, monkeypatch):
    def no_more(prompt: str) -> str:
        raise EOFError

    monkeypatch.setattr("builtins.input", no_more)
    with pytest.raises(SystemExit) as exit:
        main(["play", "blitz", "--players", "2", "--lang", "en"])
    assert exit.value.code == 0


@pytest.mark.parametrize("command", ["serve", "openapi"])
def test_without_the_server_extra_the_server_commands_say_how_to_install_it(
        command, monkeypatch):
    found = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *args: None if name == "flask" else found(name, *args))
    with pytest.raises(SystemExit) as exit:
        main([command])
    assert "pip install '.[server]'" in str(exit.value.code)


def test_options_lists_a_presets_options_with_their_defaults_and_values(capsys):
    said = run(capsys, "options", "schwimmen", "--lang", "it").splitlines()
    assert "tie_break = trips  [none | trips | ranks | suit]" in said
    assert "knocker_ties = shared  [penalty | safe | shared | double]" in said
    assert "fire = aces  [off | aces | any-trips]" in said
    assert "spare_hand_to = dealer  [dealer | first-player]" in said
    assert "lose_below = none  [1-31 | none]" in said
    assert "close_after_exchange = false  [bool]" in said
    index = said.index("close_after_exchange = false  [bool]")
    assert said[index + 1].strip() == ("Un giocatore può bussare (chiudere) subito dopo il proprio "
                                       "scambio, nello stesso turno.")


@pytest.mark.parametrize(("argv", "expected"), [
    (["score", "7H", "7D", "7C", "-o", "count_same_rank=true", "--lang", "en"],
     "Cards of one rank: 21 points"),
    (["score", "AS", "QS", "10S", "-o", "blitz=ace-ten-face", "--lang", "en"], "Blitz: 31"),
    (["compare", "7D 7H 7S", "8C 8D 8H", "--variant", "schwimmen", "-o", "tie_break=none",
      "--lang", "en"], "1. #1 7D 7H 7S"),
])
def test_option_settings_change_what_the_commands_say(capsys, argv, expected):
    assert run(capsys, *argv).startswith(expected)


def test_a_refused_option_is_a_sentence(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["score", "7H", "7D", "7C", "--variant", "schnautz", "-o", "count_same_rank=true",
              "--lang", "en"])
    assert "cards of one rank cannot add up while three of a kind scores 30.5" in str(
        exit.value.code)
    with pytest.raises(SystemExit):
        main(["score", "7H", "7D", "7C", "-o", "lose_below"])


def _record_file(tmp_path, alter=None):
    from thirtyone import record

    contributions = ["a", None]
    state = record.start_state({"variant": "race", "players": 2, "options": {},
                                "seed": {"deal": record.derive_seed("s", contributions)}})
    moves = []
    from thirtyone.game import apply_move, legal_moves

    while not state.is_over:
        move = legal_moves(state)[0]
        state, _ = apply_move(state, move)
        moves.append(move if move["type"] == "next_round" else dict(state.history[-1]))
    data = record.make_record(variant="race", players=2, options={}, names=["Ana", None],
                              bots=[None, "greedy"], server_seed="s",
                              contributions=contributions, moves=moves)
    if alter:
        alter(data)
    path = tmp_path / "record.json"
    path.write_text(record.dumps(data), encoding="utf-8")
    return str(path)


def test_verify_prints_what_it_checked(capsys, tmp_path):
    said = run(capsys, "verify", _record_file(tmp_path), "--lang", "en").splitlines()
    assert said[0] == "OK  Format thirtyone-record version 1."
    assert any("matches its SHA-256" in line for line in said)
    assert said[-1] == "The record is verified."


def test_verify_fails_with_a_sentence_on_an_altered_seed(capsys, tmp_path):
    def alter(data):
        data["seed"]["contributions"][0] = "b"

    with pytest.raises(SystemExit) as exit:
        main(["verify", _record_file(tmp_path, alter), "--lang", "en"])
    assert exit.value.code == ("thirtyone verify: The deal's seed is not the one derived from "
                               "the server's seed and the contributions.")


def test_replay_shows_every_move_with_its_events(capsys, tmp_path):
    said = run(capsys, "replay", _record_file(tmp_path), "--lang", "en").splitlines()
    assert said[0].startswith("1. ") and ("Ana: " in said[0] or "#1: " in said[0])
    assert len([line for line in said if not line.startswith("    ")]) > 3
