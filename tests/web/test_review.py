"""Game review over HTTP and in the terminal: each decision valued, accuracy, mistakes."""

import json

import pytest

from thirtyone.bots import GreedyBot, RandomBot
from thirtyone.game import apply_move, legal_moves, new_game, view
from thirtyone.review import review


def _record(seed=9):
    """A short match of scat (one life) between a greedy and a random bot."""
    state = new_game("scat", 2, seed=seed, dealer=0, options={"lives": 1})
    bots = [GreedyBot(seed=1), RandomBot(2)]
    moves = []
    while not state.is_over:
        legal = legal_moves(state)
        bot = bots[state.turn] if state.turn is not None else None
        move = legal[0] if bot is None else bot.choose(
            view(state, state.turn) if bot.uses_view else None, legal)
        moves.append(move)
        state, _ = apply_move(state, move)
    return {"variant": "scat", "players": 2, "seed": seed, "dealer": 0,
            "options": {"lives": 1}, "moves": moves}


def test_a_review_values_each_decision_and_names_the_biggest_mistakes(client):
    record = _record()
    done = review(record)
    assert done.measure == "match"
    assert {decision.seat for decision in done.decisions} == {0, 1}
    assert all(decision.best_value >= decision.value - 1e-9 for decision in done.decisions)
    assert len(done.mistakes) <= 3
    answer = client.post("/v1/review?lang=ru", json=record)
    assert answer.status_code == 200, answer.json
    body = answer.json
    assert [player["seat"] for player in body["players"]] == [0, 1]
    # The random bot plays worse than the greedy one.
    assert body["players"][1]["lost"] >= body["players"][0]["lost"]
    assert body["mistakes"] and body["mistakes"][0]["text"].startswith("Раунд")
    assert body["measure_description"] == "вероятность выиграть партию"
    assert client.post("/v1/review?lang=ru", json=record).json == body  # deterministic


@pytest.mark.parametrize("change, field", [
    (lambda record: record["moves"].insert(3, {"type": "knock"}), "moves[3]"),
    (lambda record: record.update(variant="nosuch"), "variant"),
    (lambda record: record.update(moves="draw"), "moves"),
])
def test_a_bad_record_is_a_clear_problem(client, change, field):
    record = _record()
    change(record)
    answer = client.post("/v1/review", json=record)
    assert answer.status_code == 422
    assert answer.json["errors"][0]["field"].startswith(field)


def test_the_review_command(tmp_path, capsys):
    from thirtyone.__main__ import main

    path = tmp_path / "record.json"
    path.write_text(json.dumps(_record()))
    main(["review", str(path), "--lang", "it"])
    said = capsys.readouterr().out
    assert "Posto 0" in said and "Mano 1" in said


def test_a_review_larger_than_the_budget_is_refused_naming_the_limit(client):
    from thirtyone.web.review import MAX_WORK

    state = new_game("schnautz", 15, seed=3)
    moves = []
    bot = GreedyBot(seed=1)
    while len(moves) < 200 and not state.is_over:
        legal = legal_moves(state)
        move = legal[0] if state.turn is None else bot.choose(view(state, state.turn), legal)
        moves.append(move)
        state, _ = apply_move(state, move)
    answer = client.post("/v1/review?lang=it", json={
        "variant": "schnautz", "players": 15, "seed": 3, "moves": moves})
    assert (answer.status_code, answer.json["code"]) == (422, "review_too_large")
    assert str(MAX_WORK) in answer.json["detail"] and answer.json["errors"][0]["field"] == "moves"
