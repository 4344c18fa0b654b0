"""Tables that play on by themselves, a slice at a time, and the table rule on hints."""

from __future__ import annotations

import dataclasses
import json

from thirtyone.game import new_game
from thirtyone.game.state import Phase
from thirtyone.web.store import SeatRecord
from thirtyone.web.tables.autoplay import is_due

from .test_tables import bearer, keys_of, make_app, open_table

BOTS_15 = {str(seat): "greedy" for seat in range(15)}


def test_a_long_match_of_bots_is_opened_at_once_and_played_on_by_its_readers(tmp_path):
    client = make_app(f"sqlite:///{tmp_path}/t.sqlite3").test_client()
    created = open_table(client, variant="schnautz", players=15, bots=BOTS_15,
                         options={"rounds": 1000})
    # One slice of the match, not the match (the time it takes is the hostile suite's).
    assert not created["is_over"] and created["version"] == 1
    versions = [client.get(f"/v1/tables/{created['table']}").json["version"]
                for _ in range(3)]
    # Each read plays one more slice, committed as one version.
    assert versions == [2, 3, 4]


def test_a_stream_plays_a_match_of_bots_to_its_end_through_every_round(tmp_path):
    app = make_app(f"sqlite:///{tmp_path}/t.sqlite3", TABLE_STREAM_SECONDS=60.0)
    client = app.test_client()
    created = open_table(client, variant="schnautz", players=9,
                         bots={str(seat): "greedy" for seat in range(9)},
                         options={"rounds": 40})
    stream = client.get(f"/v1/tables/{created['table']}/events", buffered=False)
    answers = [json.loads(line[len(b"data: "):]) for chunk in stream.response
               for line in chunk.split(b"\n") if line.startswith(b"data: ")]
    stream.close()
    assert answers[-1]["is_over"]
    assert [answer["version"] for answer in answers] == list(
        range(created["version"], answers[-1]["version"] + 1))
    assert answers[-1]["view"]["round"] == 40
    assert len(answers) > 2


def test_the_bots_deal_between_rounds_only_when_no_human_is_left_in_the_match():
    state = new_game("schwimmen", 3, seed="between", dealer=0)
    between = state.evolve(phase=Phase.ROUND_OVER, turn=None)
    seats = (SeatRecord(None, "h"), SeatRecord("greedy", None), SeatRecord("greedy", None))
    assert between.to_move is None and not between.is_over
    assert not is_due(seats, between)
    human_out = between.evolve(
        seats=(dataclasses.replace(between.seats[0], eliminated=True), *between.seats[1:]))
    assert is_due(seats, human_out)
    assert is_due((seats[1],) * 3, between)
    assert is_due(seats, state.evolve(turn=1)) and not is_due(seats, state.evolve(turn=0))


def test_hints_are_off_by_default_at_a_table_of_friends(tmp_path):
    client = make_app(f"sqlite:///{tmp_path}/t.sqlite3").test_client()
    friends = open_table(client, players=3, bots={"2": "greedy"})
    assert friends["hints"] == "off"
    table, keys = friends["table"], keys_of(friends)
    seat = friends["to_move"] if friends["to_move"] is not None else 0
    refused = client.get(f"/v1/tables/{table}/advice?samples=2", headers=bearer(keys[seat]))
    assert (refused.status_code, refused.json["code"]) == (403, "hints_off")
    assert refused.mimetype == "application/problem+json"
    allowed = open_table(client, players=2, hints="on")
    assert allowed["hints"] == "on"
    seat = allowed["to_move"]
    asked = client.get(f"/v1/tables/{allowed['table']}/advice?samples=2",
                       headers=bearer(keys_of(allowed)[seat]))
    assert asked.status_code == 200
    alone = open_table(client, players=2, bots={"1": "greedy"})
    assert alone["hints"] == "on"
    assert open_table(client, players=2, bots={"1": "greedy"}, hints="off")["hints"] == "off"
    bad = client.post("/v1/tables", json={"variant": "scat", "players": 2, "hints": "yes"})
    assert bad.status_code == 422 and bad.json["errors"][0]["field"] == "hints"
