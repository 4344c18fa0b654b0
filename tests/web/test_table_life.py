"""A table's life through the app, on SQLite and on a real Redis: invitations and keys, the
waiting phase and the combined seed, names and presence, clocks and the autopilot, leaving,
rematch, the lobby and the match record."""

from __future__ import annotations

import json
import queue
import threading
import time
from typing import Any

import pytest
from tests.conftest import calibrated

from thirtyone import record as records
from thirtyone.game import GameState
from thirtyone.web.store import TableRecord
from thirtyone.web.tables import clocks, ledger, life
from thirtyone.web.tables.presence import Presence

from .test_tables import (  # noqa: F401
    DEALS,
    LASTING,
    QUICK,
    bearer,
    create_table,
    hold_tab,
    open_table,
    play_one,
    store_url,
)
from .test_tables import make_app as _make_app


@pytest.fixture
def app(store_url):  # noqa: F811 - the fixture imported above
    return _make_app(store_url)


@pytest.fixture
def client(app):
    return app.test_client()


class Clock:
    """The time the clocks read, moved by hand."""

    def __init__(self, now: float) -> None:
        self.now = now

    def time(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    import time

    fake = Clock(time.time())
    monkeypatch.setattr(clocks, "time", fake)
    monkeypatch.setattr(life, "time", fake)
    return fake


def claim(client, table: str, seat: int, body: dict[str, Any]):
    return client.post(f"/v1/tables/{table}/seats/{seat}", json=body)


def test_the_creator_holds_one_key_and_an_invitation_claims_its_seat_once(client):
    created = create_table(client, players=4, bots={"3": "greedy"}, seat=1, name="Ana")
    keys = [seat["key"] for seat in created["seats"] if seat["key"]]
    invitations = {seat["seat"]: seat["invitation"] for seat in created["seats"]
                   if seat["invitation"]}
    assert len(keys) == 1 and created["seats"][1]["key"] == keys[0]
    assert sorted(invitations) == [0, 2]
    table = created["table"]
    wrong = claim(client, table, 0, {"invitation": invitations[2], "name": "Eve"})
    assert (wrong.status_code, wrong.json["code"]) == (403, "bad_invitation")
    private = claim(client, table, 0, {"name": "Eve"})
    assert (private.status_code, private.json["code"]) == (403, "invitation_required")
    first = claim(client, table, 0, {"invitation": invitations[0], "name": "Bruno"})
    assert first.status_code == 201 and first.json["seat"] == 0
    assert first.json["phase"] == "waiting" and first.json["view"] is None
    again = claim(client, table, 0, {"invitation": invitations[0], "name": "Eve"})
    assert (again.status_code, again.json["code"]) == (409, "seat_taken")
    taken = claim(client, table, 1, {"invitation": invitations[0], "name": "Eve"})
    assert taken.json["code"] == "seat_taken"
    assert claim(client, table, 9, {"name": "X"}).json["code"] == "no_such_seat"
    # Each key opens its own seat only, and no answer shows another's key.
    bruno = first.json["key"]
    assert bruno not in keys
    mine = client.get(f"/v1/tables/{table}", headers=bearer(bruno)).json
    assert mine["seat"] == 0 and bruno not in json.dumps(mine) and keys[0] not in json.dumps(mine)


def test_a_table_waits_until_full_then_deals_from_the_combined_seed(app, client):
    for _ in range(DEALS):  # until a deal that does not end the one-life match at once
        created = create_table(client, players=3, bots={"2": "greedy"}, entropy="ana's dice")
        table, ana = created["table"], created["seats"][0]["key"]
        assert created["phase"] == "waiting" and created["to_move"] is None
        early = client.post(f"/v1/tables/{table}/moves", headers=bearer(ana),
                            json={"move": {"type": "knock"}, "version": 0})
        assert (early.status_code, early.json["code"]) == (409, "table_waiting")
        claimed = claim(client, table, 1, {"invitation": created["seats"][1]["invitation"],
                                           "name": "Bruno", "entropy": "qwerty"})
        if claimed.json["phase"] != "over":
            break
    assert claimed.json["phase"] == "playing"
    assert [event["type"] for event in claimed.json["events"]][:2] == [
        "seat_claimed", "table_started"]
    stored = app.extensions["thirtyone.tables"].load(table)
    server = stored.extra["server_seed"]
    assert records.seed_commitment(server) == created["seed_sha256"]
    state = GameState.from_dict(stored.state())
    assert state.seed == records.derive_seed(server, ["ana's dice", "qwerty", None])
    # Neither the seed nor the server's seed shows before the end.
    text = json.dumps(client.get(f"/v1/tables/{table}").json)
    assert server not in text and str(state.seed) not in text


def test_the_creator_starts_a_waiting_table_with_bots(client):
    for _ in range(DEALS):  # until a deal that does not end the one-life match at once
        created = create_table(client, players=3, level="random")
        table, invitation = created["table"], created["seats"][1]["invitation"]
        claimed = claim(client, table, 1, {"invitation": invitation, "name": "Bruno"}).json
        nope = client.post(f"/v1/tables/{table}/start", headers=bearer(claimed["key"]))
        assert (nope.status_code, nope.json["code"]) == (403, "creator_only")
        started = client.post(f"/v1/tables/{table}/start",
                              headers=bearer(created["seats"][0]["key"]))
        if started.json.get("phase") != "over":
            break
    assert started.status_code == 200 and started.json["phase"] == "playing"
    assert [seat["bot"] for seat in started.json["seats"]] == [None, None, "random"]
    twice = client.post(f"/v1/tables/{table}/start", headers=bearer(created["seats"][0]["key"]))
    assert twice.json["code"] == "table_started"


def test_invitations_are_replaced_and_keys_rotated(client):
    created = create_table(client, players=2)
    table, ana = created["table"], created["seats"][0]["key"]
    old = created["seats"][1]["invitation"]
    replaced = client.post(f"/v1/tables/{table}/seats/1/invitation", headers=bearer(ana))
    assert replaced.status_code == 201
    new = replaced.json["invitation"]
    assert claim(client, table, 1, {"invitation": old, "name": "B"}).json["code"] == \
        "bad_invitation"
    bruno = claim(client, table, 1, {"invitation": new, "name": "B"}).json["key"]
    by_guest = client.post(f"/v1/tables/{table}/seats/0/invitation", headers=bearer(bruno))
    assert by_guest.json["code"] == "creator_only"
    other = client.post(f"/v1/tables/{table}/seats/0/key", headers=bearer(bruno))
    assert (other.status_code, other.json["code"]) == (403, "not_your_seat")
    rotated = client.post(f"/v1/tables/{table}/seats/1/key", headers=bearer(bruno))
    assert rotated.status_code == 201 and rotated.json["key"] != bruno
    assert client.get(f"/v1/tables/{table}", headers=bearer(bruno)).json["code"] == \
        "bad_seat_key"
    assert client.get(f"/v1/tables/{table}",
                      headers=bearer(rotated.json["key"])).json["seat"] == 1


def test_names_of_any_script_are_kept_and_presence_shown(client):
    created = create_table(client, players=2, name="  Анна\u200b  Мария ")
    table = created["table"]
    assert created["seats"][0]["name"] == "Анна Мария"
    assert created["seats"][0]["connected"] and not created["seats"][1]["connected"]
    long = claim(client, table, 1, {"invitation": created["seats"][1]["invitation"],
                                    "name": "x" * 33})
    assert (long.status_code, long.json["errors"][0]["code"]) == (422, "bad_name")
    joined = claim(client, table, 1, {"invitation": created["seats"][1]["invitation"],
                                      "name": "李雷 🎴"}).json
    public = client.get(f"/v1/tables/{table}").json
    assert [(seat["name"], seat["connected"]) for seat in public["seats"]] == [
        ("Анна Мария", True), ("李雷 🎴", True)]
    assert joined["events"][0]["message"] == "李雷 🎴 took seat 1."


def test_the_clock_is_a_pure_rule_of_record_state_and_time():
    from thirtyone.game import new_game
    from thirtyone.web.store import SeatRecord

    state = new_game("scat", 2, seed="clock", dealer=1)  # seat 0 to move
    seats = (SeatRecord(None, "h0"), SeatRecord(None, "h1"))
    record = TableRecord("t", 3, b"", seats, "sha", extra={
        "phase": "playing", "turn_seconds": 10, "turn_started": 100.0})
    assert state.to_move == 0
    assert clocks.deadline(record, state) == 110.0
    assert not clocks.due(record, state, 109.9) and clocks.due(record, state, 110.0)
    assert clocks.seat_deadlines(record, state) == [110.0, None]
    unclocked = TableRecord("t", 3, b"", seats, "sha", extra={"phase": "playing"})
    assert clocks.deadline(unclocked, state) is None
    bot_to_move = TableRecord("t", 3, b"", (SeatRecord("greedy", None), seats[1]), "sha",
                              extra=record.extra)
    assert not clocks.due(bot_to_move, state, 1e12)


def test_the_autopilot_moves_past_the_deadline_and_three_misses_make_a_bot(client, clock):
    for _ in range(5):
        # A 31 dealt ends the round before anyone moves (the deal is random): deal again then.
        table, keys = _two_humans(client, turn_seconds=5)
        answer = client.get(f"/v1/tables/{table}").json
        absent = answer["to_move"]
        if absent is not None:
            break
    assert answer["seats"][absent]["deadline"] is not None
    version = answer["version"]
    clock.now += 4.9
    assert client.get(f"/v1/tables/{table}").json["version"] == version
    for _ in range(40):
        # Nobody moves: each read past the deadline plays the move that was due.
        clock.now += 5.1
        answer = client.get(f"/v1/tables/{table}").json
        assert answer["version"] > version
        version = answer["version"]
        if answer["seats"][absent]["bot"] is not None or answer["is_over"]:
            break
    assert answer["is_over"] or answer["seats"][absent]["bot"] == "greedy"
    types = [event["type"] for event in _events_since(client, table, 0)]
    assert "autopilot" in types
    if not answer["is_over"]:
        assert "seat_to_bot" in types
        late = client.post(f"/v1/tables/{table}/moves", headers=bearer(keys[absent]),
                           json={"move": {"type": "knock"}, "version": answer["version"]})
        assert late.json["code"] in ("seat_played_by_bot", "stale_version")


def _two_humans(client, **body: Any) -> tuple[str, dict[int, str]]:
    opened = open_table(client, players=2, **body)
    return opened["table"], opened["keys"]


def _events_since(client, table: str, after: int) -> list[dict[str, Any]]:
    return client.get(f"/v1/tables/{table}/updates?after={after}&wait=0").json["events"]


def test_leave_hands_the_seat_to_a_bot_and_the_match_ends(client):
    table, keys = _two_humans(client, options=QUICK)
    left = client.post(f"/v1/tables/{table}/leave", headers=bearer(keys[1]))
    assert left.status_code == 200 and left.json["events"][0]["type"] == "seat_left"
    assert left.json["seats"][1]["bot"] == "greedy"
    answer = left.json
    for _ in range(300):
        if answer["is_over"]:
            break
        answer = play_one(client, table, {0: keys[0]})
    assert answer["is_over"]
    # The seat's old key still shows its cards, and moves nothing.
    mine = client.get(f"/v1/tables/{table}", headers=bearer(keys[1])).json
    assert mine["seat"] == 1 and mine["legal_moves"] == []
    gone = client.post(f"/v1/tables/{table}/leave", headers=bearer(keys[0]))
    assert gone.json["code"] == "match_over"


def test_a_departed_player_takes_the_seat_back_and_nobody_else_can(client):
    # The bot on the seat may move before the player is back: a 31 it discards would end a
    # one-life match (a loaded CI run).
    table, keys = _two_humans(client, options=LASTING)
    seat_1 = f"/v1/tables/{table}/seats/1/return"
    early = client.post(seat_1, headers=bearer(keys[1]))
    assert (early.status_code, early.json["code"]) == (409, "seat_not_handed_over")
    left = client.post(f"/v1/tables/{table}/leave", headers=bearer(keys[1])).json
    assert left["seats"][1]["bot"] is not None
    # Another seat's key, or none, takes nobody's seat.
    hostile = client.post(seat_1, headers=bearer(keys[0]))
    assert (hostile.status_code, hostile.json["code"]) == (403, "not_your_seat")
    anonymous = client.post(seat_1)
    assert (anonymous.status_code, anonymous.json["code"]) == (401, "seat_key_required")
    assert client.get(f"/v1/tables/{table}").json["seats"][1]["bot"] is not None
    before = client.get(f"/v1/tables/{table}").json["version"]
    back = client.post(f"{seat_1}?lang=ru", headers=bearer(keys[1]))
    assert back.status_code == 200, back.json
    assert back.json["seats"][1]["bot"] is None and back.json["version"] == before + 1
    assert back.json["events"] == [{"type": "seat_returned", "seat": 1,
                                    "message": "Место 1 снова занято: за него опять играет "
                                               "игрок."}]
    # The other seats are told, and the player plays the seat again to the end.
    assert [event["type"] for event in _events_since(client, table, before)] == ["seat_returned"]
    answer = back.json
    for _ in range(300):
        if answer["is_over"]:
            break
        answer = play_one(client, table, keys)
    assert answer["is_over"]
    over = client.post(seat_1, headers=bearer(keys[1]))
    assert (over.status_code, over.json["code"]) == (409, "match_over")


def test_when_every_human_is_gone_the_bots_play_the_match_out(client):
    # A one-life match may end before the last human leaves (a dealt blitz, or the bot that
    # took the first seat ends it): such a table is opened again.
    for _ in range(10):
        table, keys = _two_humans(client, options=QUICK)
        left = client.post(f"/v1/tables/{table}/leave", headers=bearer(keys[1]))
        if left.status_code == 200 and not left.json["is_over"]:
            break
    ended = client.post(f"/v1/tables/{table}/leave", headers=bearer(keys[0])).json
    assert ended["is_over"] and ended["phase"] == "over"


def test_the_record_replays_with_the_engine_and_a_changed_move_fails(client):
    table, keys = _two_humans(client, options=QUICK)
    early = client.get(f"/v1/tables/{table}/record")
    assert (early.status_code, early.json["code"]) == (409, "match_not_over")
    answer: dict[str, Any] = {"is_over": False}
    while not answer["is_over"]:
        answer = play_one(client, table, keys)
    fetched = client.get(f"/v1/tables/{table}/record")
    assert fetched.status_code == 200
    assert "attachment" in fetched.headers["Content-Disposition"]
    document = records.loads(fetched.data)
    assert [check.code for check in records.verify(document)][-1] == "winners"
    assert [seat["name"] for seat in document["seats"]] == [None, "Player 1"]
    assert document["seed"]["deal"] == answer["view"]["seed"]
    assert answer["server_seed"] == document["seed"]["server"]
    changed = json.loads(fetched.data)
    changed["moves"][0]["seat"] = 1 - changed["moves"][0]["seat"]
    with pytest.raises(records.RecordError) as error:
        records.verify(records.loads(json.dumps(changed)))
    assert error.value.code in ("illegal_move", "round_mismatch", "winners_mismatch")


def test_a_rematch_keeps_seats_and_names_and_gives_each_player_a_new_key(client):
    table, keys = _two_humans(client, options=QUICK, name="Ana", turn_seconds=30)
    answer: dict[str, Any] = {"is_over": False}
    early = client.post(f"/v1/tables/{table}/rematch", headers=bearer(keys[0]))
    assert early.json["code"] == "match_not_over"
    while not answer["is_over"]:
        answer = play_one(client, table, keys)
    first = client.post(f"/v1/tables/{table}/rematch", headers=bearer(keys[1]))
    assert first.status_code == 201 and first.json["phase"] == "waiting"
    new = first.json["table"]
    old = client.get(f"/v1/tables/{table}").json
    assert old["rematch"] == new
    assert _events_since(client, table, answer["version"])[-1] == {
        "type": "rematch", "table": new, "message": f"A rematch is open at table {new}."}
    # Seat 0 is kept for Ana's old key: nobody claims it otherwise.
    assert claim(client, new, 0, {"name": "Eve"}).json["code"] in (
        "seat_reserved", "invitation_required")
    second = client.post(f"/v1/tables/{table}/rematch", headers=bearer(keys[0]))
    assert second.status_code == 201 and second.json["table"] == new
    # Dealt (a blitz dealt may end the one-life rematch at once).
    assert second.json["phase"] in ("playing", "over") and second.json["rematch_of"] == table
    assert [seat["name"] for seat in second.json["seats"]] == ["Ana", "Player 1"]
    assert second.json["turn_seconds"] == 30
    fresh = {first.json["key"], second.json["key"]}
    assert len(fresh) == 2 and not fresh & set(keys.values())
    twice = client.post(f"/v1/tables/{table}/rematch", headers=bearer(keys[0]))
    assert twice.json["code"] == "seat_taken"


def test_a_rematch_of_bots_to_move_first_answers_the_version_they_reached(client):
    """A rematch whose bots move first (every other seat a bot) is played to the asker's
    turn before the answer: the answer names that version, as a read of the table does,
    never version 0 (the dealt table before the bots moved) with the state of version 1. A
    version a client saw is never shown again with other content."""
    reached = []
    for _ in range(DEALS):
        created = create_table(client, players=3, bots={"1": "greedy", "2": "greedy"})
        table, mine = created["table"], bearer(created["seats"][0]["key"])
        assert client.post(f"/v1/tables/{table}/leave", headers=mine).status_code == 200
        while not client.get(f"/v1/tables/{table}").json["is_over"]:
            pass  # the bots play the match out, the leaver's seat too
        rematch = client.post(f"/v1/tables/{table}/rematch", headers=mine)
        assert rematch.status_code == 201, rematch.json
        read = client.get(f"/v1/tables/{rematch.json['table']}",
                          headers=bearer(rematch.json["key"])).json
        assert (rematch.json["version"], rematch.json["cursor"], rematch.json["view"]) == (
            read["version"], read["cursor"], read["view"])
        reached.append(read["version"])
        if read["version"] > 0:
            break
    assert reached[-1] > 0, reached  # bots moved first (2 deals in 3): the case was tried


def test_the_lobby_lists_public_waiting_tables_only_and_never_a_key(client):
    public = [create_table(client, players=3, public=True, name=f"P{index}")
              for index in range(3)]
    private = create_table(client, players=2)
    listed = client.get("/v1/tables?limit=2").json
    assert listed["total"] >= 3 and len(listed["tables"]) == 2
    everything = client.get("/v1/tables?limit=100").json
    ids = [entry["table"] for entry in everything["tables"]]
    assert private["table"] not in ids
    assert {entry["table"] for entry in public} <= set(ids)
    text = json.dumps(everything)
    for created in [*public, private]:
        for seat in created["seats"]:
            for secret in (seat["key"], seat["invitation"]):
                assert secret is None or secret not in text
    # Anyone claims a free seat of a public table without invitation; a full one leaves.
    target = public[0]
    for seat in (1, 2):
        # From other addresses: a public table seats one player per client.
        claimed = client.post(f"/v1/tables/{target['table']}/seats/{seat}",
                              json={"name": f"G{seat}"},
                              environ_overrides={"REMOTE_ADDR": f"192.0.2.{seat}"})
        assert claimed.status_code == 201
    after = [entry["table"] for entry in client.get("/v1/tables?limit=100").json["tables"]]
    assert target["table"] not in after and public[1]["table"] in after
    bad = client.get("/v1/tables?limit=0")
    assert bad.status_code == 422


def test_a_long_match_keeps_its_whole_record_after_the_log_is_trimmed(client, app):
    from thirtyone.web.store import SNAPSHOT_EVERY

    table, keys = _two_humans(client, options={"lives": 10})
    answer: dict[str, Any] = {"is_over": False}
    while not answer["is_over"]:
        public = client.get(f"/v1/tables/{table}").json
        seat = public["to_move"] if public["to_move"] is not None else 0
        mine = client.get(f"/v1/tables/{table}", headers=bearer(keys[seat])).json
        # A knock in the thirteenth turn makes rounds long enough that the match outlasts two
        # snapshots.
        moves = mine["legal_moves"]
        knocks = [move for move in moves if move["type"] == "knock"]
        move = knocks[0] if knocks and mine["view"]["turns"] >= 12 else moves[0]
        answer = client.post(f"/v1/tables/{table}/moves", headers=bearer(keys[seat]),
                             json={"move": move, "version": mine["version"]}).json
    with app.app_context():
        from thirtyone.web.tables.ledger import store

        log = store().entries(table, 0)
    # Long enough that the log starts after the deal: the record comes from the archive.
    assert answer["version"] > 2 * SNAPSHOT_EVERY and log[0].version > 1
    fetched = client.get(f"/v1/tables/{table}/record")
    assert fetched.status_code == 200, fetched.json
    document = records.loads(fetched.data)
    assert [check.code for check in records.verify(document)][-1] == "winners"
    assert len(document["moves"]) >= answer["version"] - 1


def test_a_player_gone_without_a_move_is_pushed_to_the_others_streams(store_url):  # noqa: F811
    app = _make_app(store_url, TABLE_KEEPALIVE_SECONDS=0.2, TABLE_PRESENCE_SECONDS=1.0,
                    TABLE_STREAM_SECONDS=5.0)
    client = app.test_client()
    table, keys = _two_humans(client)
    stream = client.get(f"/v1/tables/{table}/events", headers=bearer(keys[0]), buffered=False)
    shown: list[tuple[str | None, list[bool]]] = []
    for chunk in stream.response:
        lines = chunk.decode().strip().split("\n")
        data = [line[6:] for line in lines if line.startswith("data: ")]
        if data:
            named = [line[7:] for line in lines if line.startswith("event: ")]
            seats = json.loads(data[0])["seats"]
            shown.append((named[0] if named else None, [seat["connected"] for seat in seats]))
            if named:
                break
    stream.close()
    # The second player made no request for longer than the window: gone, and told so, while
    # the first (streaming) stays.
    assert shown == [(None, [True, True]), ("presence", [True, False])]


def test_nobody_but_its_player_revokes_or_claims_a_rematch_seat(client):
    table, keys = _two_humans(client, options=QUICK, name="Ana")
    answer: dict[str, Any] = {"is_over": False}
    while not answer["is_over"]:
        answer = play_one(client, table, keys)
    opened = client.post(f"/v1/tables/{table}/rematch", headers=bearer(keys[1])).json
    new = opened["table"]
    # The one who opened the rematch may not revoke Ana's kept seat to hand it to another.
    revoked = client.post(f"/v1/tables/{new}/seats/0/invitation",
                          headers=bearer(opened["key"]))
    assert (revoked.status_code, revoked.json["code"]) == (403, "seat_reserved")
    taken = claim(client, new, 0, {"name": "Ana"})
    assert taken.status_code in (403, 409) and taken.json["code"] in (
        "seat_reserved", "invitation_required")
    mine = client.post(f"/v1/tables/{table}/rematch", headers=bearer(keys[0]))
    assert mine.status_code == 201 and mine.json["seat"] == 0


def test_a_key_rotation_gives_no_more_time(client, clock):
    for _ in range(5):
        table, keys = _two_humans(client, turn_seconds=5)
        answer = client.get(f"/v1/tables/{table}").json
        seat = answer["to_move"]
        if seat is not None:
            break
    deadline = answer["seats"][seat]["deadline"]
    for _ in range(10):
        clock.now += 0.4
        rotated = client.post(f"/v1/tables/{table}/seats/{seat}/key", headers=bearer(keys[seat]))
        assert rotated.status_code == 201
        keys[seat] = rotated.json["key"]
    # The rotations restarted nothing: past the first deadline the autopilot moves the seat.
    assert client.get(f"/v1/tables/{table}").json["seats"][seat]["deadline"] == deadline
    clock.now += 1.1
    moved = client.get(f"/v1/tables/{table}").json
    assert "autopilot" in [event["type"] for event in _events_since(client, table, 0)]
    assert moved["to_move"] != seat or moved["version"] > answer["version"] + 10


def test_a_public_table_seats_one_player_per_client_under_names_of_their_own(client, monkeypatch):
    from thirtyone.web.tables import lobby

    def elsewhere(number: int) -> dict[str, Any]:
        return {"environ_overrides": {"REMOTE_ADDR": f"198.51.100.{number}"}}

    # The creator's own address (a loopback one is bound by nothing: every client of a server
    # on one's own machine shares it).
    client.environ_base["REMOTE_ADDR"] = "198.51.100.200"
    opened = create_table(client, players=4, public=True, name="Ana")
    table = opened["table"]
    url = f"/v1/tables/{table}/seats"
    # The creator's address takes no second seat, nor does a key that holds one.
    again = client.post(f"{url}/1", json={"name": "Victim"})
    assert (again.status_code, again.json["code"]) == (409, "one_seat_per_player")
    first = client.post(f"{url}/1", json={"name": "Bo"}, **elsewhere(1))
    assert first.status_code == 201
    keyed = client.post(f"{url}/2", json={"name": "Cy"}, headers=bearer(first.json["key"]),
                        **elsewhere(2))
    assert (keyed.status_code, keyed.json["code"]) == (409, "one_seat_per_player")
    # Names are the table's own: no two alike, and none that reads as "You".
    same = client.post(f"{url}/2", json={"name": "  ana "}, **elsewhere(3))
    assert (same.status_code, same.json["code"]) == (409, "name_taken")
    for you in ("You", "вы", "Tu"):
        refused = client.post(f"{url}/2", json={"name": you}, **elsewhere(4))
        assert (refused.status_code, refused.json["code"]) == (422, "name_reserved")
        assert refused.json["errors"][0]["field"] == "name"
    opening = client.post("/v1/tables", json={"variant": "scat", "players": 2, "name": "YOU"})
    assert opening.json["code"] == "name_reserved"
    # One address lists a few tables at most: one more is refused when opened, and stores
    # nothing; a private one, or a public one dealt at once (bots in the other seats), is
    # not listed and opens. An idle one without a clock leaves the lobby, and makes room.
    # (A store shared with other tests may list their tables too: only this address's count.)
    mine = {table} | {create_table(client, players=3, public=True, name=f"T{index}")["table"]
                      for index in range(lobby.PER_ADDRESS - 1)}
    listed = [entry["table"] for entry in client.get("/v1/tables?limit=100").json["tables"]]
    assert mine <= set(listed)
    before = client.get("/v1/tables?limit=100").json["total"]
    for language, words in (("en", "3 tables waiting"), ("ru", "уже 3"), ("it", "già 3")):
        refused = client.post(f"/v1/tables?lang={language}", json={
            "variant": "scat", "players": 2, "public": True, "name": "Over"})
        assert refused.status_code == 409, refused.json
        assert refused.headers["Content-Type"] == "application/problem+json"
        assert refused.json["code"] == "too_many_listed_tables", refused.json
        assert words in refused.json["detail"], (language, refused.json["detail"])
        assert refused.json["errors"][0]["field"] == "public"
    assert client.get("/v1/tables?limit=100").json["total"] == before
    # Tables opened at once may pass that check: the page lists no more of one address.
    with monkeypatch.context() as fewer:
        fewer.setattr(lobby, "PER_ADDRESS", lobby.PER_ADDRESS - 1)
        listed = [entry["table"] for entry in
                  client.get("/v1/tables?limit=100").json["tables"]]
        assert len(mine.intersection(listed)) == lobby.PER_ADDRESS
    create_table(client, players=3, name="Private")
    create_table(client, players=2, public=True, bots={"1": "greedy"})
    later = lobby.time.time() + lobby.IDLE_SECONDS + 1
    monkeypatch.setattr(lobby.time, "time", lambda: later)
    listed = [entry["table"] for entry in client.get("/v1/tables?limit=100").json["tables"]]
    assert not mine.intersection(listed)
    fresh = create_table(client, players=3, public=True, name="Again")["table"]
    assert fresh in [entry["table"] for entry in
                     client.get("/v1/tables?limit=100").json["tables"]]


def test_the_sweeper_follows_a_changed_presence_window(store_url):  # noqa: F811
    # A process's one sweeper outlives the stream that started it: a window configured
    # later (a shorter one, as in the play tests) holds from its next sweep on, else a seat
    # streaming here would be written every 100 s and shown away after 0.6 s.
    app = _make_app(store_url)
    client = app.test_client()
    table, _ = _two_humans(client)
    presence = Presence()
    with app.app_context():
        tables = ledger.store()
        written: set[float] = set()
        with presence.hold(tables, table, None, 0.1, 300.0), \
                presence.hold(tables, table, 0, 0.1, 0.6):
            deadline = time.monotonic() + calibrated(10.0)
            while len(written) < 4 and time.monotonic() < deadline:
                written.add(tables.seen(table).get(0, 0.0))
                time.sleep(0.05)
        assert len(written) >= 4, "the seat's time was not written every third of 0.6 s"


def test_a_closed_tab_is_pushed_as_gone_at_once(store_url):  # noqa: F811
    # The keep-alive and the window as deployed: the old way told it 15 to 45 s later.
    app = _make_app(store_url, TABLE_KEEPALIVE_SECONDS=15.0, TABLE_PRESENCE_SECONDS=30.0,
                    TABLE_STREAM_SECONDS=20.0)
    client = app.test_client()
    table, keys = _two_humans(client)

    # Each stream is read (and closed) by one thread: a request's context is its thread's.
    opened, close = threading.Event(), threading.Event()
    pushed: queue.Queue[bytes | None] = queue.Queue()

    def their_tab() -> None:
        hold_tab(client, table, keys[1], opened, close, 30)  # then the tab is closed

    def my_tab() -> None:
        mine = client.get(f"/v1/tables/{table}/events", headers=bearer(keys[0]),
                          buffered=False)
        for chunk in mine.response:
            if b"data: " in chunk:
                pushed.put(chunk)
                if chunk.startswith(b"event: presence"):
                    break
        pushed.put(None)
        mine.close()

    tab = threading.Thread(target=their_tab)
    tab.start()
    assert opened.wait(30)
    threading.Thread(target=my_tab, daemon=True).start()
    first = pushed.get(timeout=30)
    assert first is not None
    assert [seat["connected"] for seat in json.loads(first.split(b"data: ", 1)[1])["seats"]] \
        == [True, True]
    time.sleep(0.5)  # my stream waits for news
    closed = time.monotonic()
    close.set()
    told = pushed.get(timeout=30)
    assert told is not None and told.startswith(b"event: presence\n")
    assert time.monotonic() - closed < 10
    seats = json.loads(told.split(b"data: ", 1)[1])["seats"]
    assert [seat["connected"] for seat in seats] == [True, False]



def test_a_closed_tab_is_pushed_as_gone_within_seconds_in_another_process(
        store_url):  # noqa: F811
    # Two apps on one store stand for two worker processes: each has its own streams,
    # listener and presence sweeper. The keep-alive and the window as deployed: the streams
    # of the other process told it at their next keep-alive, 15 s later.
    settings = {"TABLE_KEEPALIVE_SECONDS": 15.0, "TABLE_PRESENCE_SECONDS": 30.0,
                "TABLE_STREAM_SECONDS": 30.0}
    mine, theirs = (_make_app(store_url, **settings).test_client() for _ in range(2))
    table, keys = _two_humans(mine)
    opened, close = threading.Event(), threading.Event()
    pushed: queue.Queue[tuple[str | None, list[bool]] | None] = queue.Queue()

    def their_tab() -> None:
        hold_tab(theirs, table, keys[1], opened, close, 60)

    def my_tab() -> None:
        stream = mine.get(f"/v1/tables/{table}/events", headers=bearer(keys[0]),
                          buffered=False)
        for chunk in stream.response:
            lines = chunk.decode().split("\n")
            data = [line[6:] for line in lines if line.startswith("data: ")]
            if data:
                named = [line[7:] for line in lines if line.startswith("event: ")]
                seats = json.loads(data[0])["seats"]
                pushed.put((named[0] if named else None, [seat["connected"] for seat in seats]))
                if named:
                    break
        pushed.put(None)
        stream.close()

    tab = threading.Thread(target=their_tab)
    tab.start()
    assert opened.wait(30)
    threading.Thread(target=my_tab, daemon=True).start()
    assert pushed.get(timeout=30) == (None, [True, True])
    time.sleep(0.5)  # both streams wait for news, each process's sweeper has swept
    closed = time.monotonic()
    close.set()
    tab.join(30)
    assert pushed.get(timeout=30) == ("presence", [True, False])
    assert time.monotonic() - closed < calibrated(10)
