"""Match records: written, read back, verified by replaying them with the engine alone, and
refused with a clear message when one move, card or seed is altered."""

from __future__ import annotations

import copy
import json

import pytest

from thirtyone import record
from thirtyone.bots import make_bot
from thirtyone.game import apply_move, legal_moves, view

SERVER = "c0ffee" * 10 + "abcd"


def _played(variant: str, players: int, contributions: list[str | None]) -> record.Record:
    """A whole match of greedy bots from the derived seed, as a record."""
    seed = record.derive_seed(SERVER, contributions)
    state = record.start_state({"variant": variant, "players": players, "options": {},
                                "seed": {"deal": seed}})
    moves: list[dict] = []
    while not state.is_over:
        if state.to_move is None:
            move = {"type": "next_round"}
        else:
            bot = make_bot("greedy", str(len(moves)))
            move = bot.choose(view(state, state.to_move), legal_moves(state))
        state, _ = apply_move(state, move)
        moves.append(move if move["type"] == "next_round" else dict(state.history[-1]))
    return record.make_record(
        variant=variant, players=players, options={},
        names=["Ана", None, *[f"P{seat}" for seat in range(2, players)]][:players],
        bots=[None, "greedy", *[None] * (players - 2)][:players], server_seed=SERVER,
        contributions=contributions, moves=moves, table="t1")


@pytest.fixture(scope="module")
def scat() -> record.Record:
    return _played("scat", 3, ["dice 6 1 4", None, "🎲"])


def test_the_derivation_is_the_documented_formula():
    import hashlib

    def h(text: str) -> str:
        return hashlib.sha256(text.encode()).hexdigest()

    assert record.derive_seed("s", ["a", None]) == h(f"thirtyone-deal-1:s:{h('a')}:{h('')}")
    assert record.seed_commitment("s") == h("s")
    with pytest.raises(record.RecordError) as error:
        record.derive_seed("a:b", [])
    assert error.value.code == "bad_server_seed"


@pytest.mark.parametrize(("variant", "players"), [("scat", 3), ("schnautz", 4), ("race", 2)])
def test_a_whole_match_round_trips_and_verifies(variant, players):
    written = _played(variant, players, ["x"] + [None] * (players - 1))
    read = record.loads(record.dumps(written))
    assert read == json.loads(json.dumps(written))
    checks = [check.code for check in record.verify(read)]
    assert checks == ["format", "commitment", "derivation", "moves", "rounds", "winners"]
    assert read["is_over"] and read["rounds"]


def test_the_deal_of_a_replay_is_the_seeded_one(scat):
    steps = list(record.replay(scat))
    assert steps[0].index == -1 and steps[0].state.seed == scat["seed"]["deal"]
    assert [step.move for step in steps[1:]] == scat["moves"]
    assert steps[-1].state.is_over


def _refused(data: dict) -> record.RecordError:
    with pytest.raises(record.RecordError) as error:
        record.verify(record.loads(json.dumps(data)))
    return error.value


def test_an_altered_move_is_refused_naming_it(scat):
    altered = copy.deepcopy(scat)
    index = next(i for i, move in enumerate(altered["moves"]) if move["type"] == "discard")
    before = list(record.replay(scat))[index].state  # the state the discard was made in
    hand = {card.code for card in before.hands[altered["moves"][index]["seat"]]}
    altered["moves"][index]["card"] = next(card for card in ("2C", "3C", "4C") if card not in hand)
    error = _refused(altered)
    assert error.code == "illegal_move" and error.field == f"moves.{index}"
    assert f"Move {index + 1} " in str(error)


def test_an_altered_card_in_a_result_is_refused(scat):
    altered = copy.deepcopy(scat)
    shown = next(hand for result in altered["rounds"] for hand in result.get("hands") or []
                 if hand)
    shown["cards"][0] = "QH" if shown["cards"][0] != "QH" else "QS"
    error = _refused(altered)
    assert error.code == "round_mismatch"


@pytest.mark.parametrize(("where", "code"), [
    (("seed", "server"), "commitment_mismatch"),
    (("seed", "deal"), "derivation_mismatch"),
])
def test_an_altered_seed_is_refused(scat, where, code):
    altered = copy.deepcopy(scat)
    altered[where[0]][where[1]] = "0" * 64
    assert _refused(altered).code == code


def test_an_altered_contribution_is_refused(scat):
    altered = copy.deepcopy(scat)
    altered["seed"]["contributions"][1] = "mine"
    assert _refused(altered).code == "derivation_mismatch"


def test_altered_winners_are_refused(scat):
    altered = copy.deepcopy(scat)
    altered["winners"] = [seat for seat in range(3) if seat not in scat["winners"]][:1]
    assert _refused(altered).code == "winners_mismatch"


@pytest.mark.parametrize(("text", "code"), [
    ("not json", "bad_record"),
    ("[]", "bad_record"),
    ('{"format": "other"}', "unknown_format"),
    ('{"format": "thirtyone-record", "format_version": 2}', "unknown_format_version"),
    ('{"format": "thirtyone-record", "format_version": 1, "variant": "scat", "players": true}',
     "bad_record"),
])
def test_what_is_no_record_is_refused_by_loads(text, code):
    with pytest.raises(record.RecordError) as error:
        record.loads(text)
    assert error.value.code == code


def test_a_record_of_an_unfinished_match_says_so(scat):
    partial = record.make_record(
        variant="scat", players=3, options={}, names=[None] * 3, bots=[None] * 3,
        server_seed=SERVER, contributions=scat["seed"]["contributions"],
        moves=scat["moves"][:5])
    assert not partial["is_over"]
    assert record.verify(partial)[-1].code == "unfinished"
