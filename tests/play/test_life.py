"""A table's life in the page: names (remembered) and presence (pushed with no move), the
waiting room and its Start, the turn clock and the autopilot, leaving, a rematch both browsers
follow, the lobby's public tables to join or watch, a spectator who sees no hidden card and no
key, the match record downloaded and checked in the page (a tampered one fails), and the
stream's table_reset and a stopping server's reconnect."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from contextlib import closing
from pathlib import Path
from urllib.parse import urlsplit

from tests.conftest import calibrated
from tests.play.conftest import boxes
from tests.play.test_accessibility import axe_source, violations

from thirtyone.web import draining

SCAT = "variant=scat&lives=1&free_ride=false&max_turns=10"


def fragment(player) -> dict[str, str]:
    return dict(part.split("=", 1) for part in urlsplit(player.page.url).fragment.split("&"))


def seat_text(player, seat: int) -> str:
    return player.page.locator(f".seats [data-seat-index='{seat}']").inner_text()


def host_with_a_friend(server, new_player, name: str = "Ana", extra: str = ""):
    """Ana makes a table of three in the lobby: her, a friend's seat, a computer."""
    host = new_player(seed=41)
    host.page.goto(f"{server}/play")
    host.page.fill("#name", name)
    host.page.select_option("#variant", "scat")
    host.page.fill("#players", "3")
    host.page.locator("#players").dispatch_event("change")
    host.page.select_option("[data-seat-choice='1']", "friend")
    if extra == "public":
        host.page.check("#public")
    host.page.locator("form.lobby button[type=submit]").click()
    host.page.wait_for_selector("#table[data-phase='waiting']")
    return host


def test_two_browsers_with_names_see_each_other(server, app, new_player, artifacts):
    # A seat is away four seconds after its last sign of life (an open stream gives one every
    # second, each read at most a second late); streams look every second.
    app.config.update(TABLE_PRESENCE_SECONDS=4.0, TABLE_KEEPALIVE_SECONDS=1.0)
    host = host_with_a_friend(server, new_player)
    invite = host.page.locator("[data-invite]").get_attribute("data-invite")
    assert "invite=" in urlsplit(invite).fragment and "lang" not in invite
    host.page.screenshot(path=str(artifacts / "play-life-waiting-390x844.png"), full_page=True)

    guest = new_player(seed=42, locale="it-IT")
    guest.page.goto(invite)
    guest.page.fill("#name", "Bruno")
    guest.page.locator("form.claim button[type=submit]").click()
    guest.settled()
    # The claim gave the guest a key of their own, in place of the invitation.
    assert "key=" in guest.page.url and "invite=" not in guest.page.url
    # The last seat claimed deals: both pages show the table, each with the other's name.
    host.page.wait_for_selector("#table[data-phase='playing']")
    host.settled()
    assert "Bruno" in seat_text(host, 1)
    assert seat_text(host, 0).startswith("You")
    assert "Ana" in seat_text(guest, 0)
    assert seat_text(guest, 1).startswith("Tu")
    # Both are here now.
    host.page.locator(".seats [data-seat-index='1'] .badge", has_text="here").wait_for()
    guest.page.screenshot(path=str(artifacts / "play-life-names-it-390x844.png"), full_page=True)
    # The name is offered again next time, in the lobby of the same browser.
    guest.page.goto(f"{server}/play")
    assert guest.page.locator("#name").input_value() == "Bruno"
    # The guest left the table's page: with no move made, the host's page is told so.
    version = host.version
    host.page.locator(".seats [data-seat-index='1'] .badge", has_text="away").wait_for(
        timeout=20_000)
    assert host.version == version
    assert host.errors == [] and guest.errors == []


def test_the_creator_starts_a_waiting_table(server, new_player):
    host = host_with_a_friend(server, new_player)
    host.page.locator("[data-start]").click()
    host.page.wait_for_selector("#table[data-phase='playing']")
    host.settled()
    # The friend never came: the computer plays the seat.
    assert "computer" in seat_text(host, 1)
    assert host.errors == []


def test_the_clock_runs_out_and_the_autopilot_moves(server, new_player, artifacts):
    player = new_player(seed=43)
    # A minute's clock counts down on the seat to move, and is read out as time left.
    for _ in range(5):
        player.page.goto(f"{server}/play?{SCAT}&players=2&bots=1&turn_seconds=60")
        if player.may_move():
            break
    ticking = player.page.locator(".seats [data-clock]")
    first = ticking.inner_text()
    player.page.wait_for_timeout(1500)
    assert ticking.inner_text() != first and "left to move" in ticking.get_attribute("aria-label")
    assert violations(player, axe_source()) == []
    for _ in range(5):
        player.page.goto(f"{server}/play?{SCAT}&players=2&bots=1&turn_seconds=2")
        player.settled()
        if player.may_move():
            break
    clock = player.page.locator(".seats [data-seat-index='0'] [data-clock]")
    assert clock.count() == 1
    # The same clock beside the seat's own moves, which stay on screen on a phone.
    assert player.page.locator(".own [data-clock]").is_visible()
    assert boxes(player.page, ".own [data-clock]")[0]["y"] < 844
    player.page.screenshot(path=str(artifacts / "play-life-clock-390x844.png"), full_page=True)
    # Nobody moves: past the deadline the autopilot plays the seat's move, and it is shown.
    player.page.wait_for_selector(".events li[data-live][data-event-seat='0']", timeout=30_000)
    assert player.errors == []


def test_the_clock_counts_in_the_servers_time(server, new_player):
    player = new_player(seed=52)
    # This browser's clock is two minutes behind the server's.
    player.page.clock.set_system_time(time.time() - 120)
    for _ in range(5):
        player.page.goto(f"{server}/play?{SCAT}&players=2&bots=1&turn_seconds=60")
        if player.may_move():
            break
    minutes, seconds = player.page.locator(".seats [data-clock]").inner_text().split(":")
    # (A Date has whole seconds: the offset is known to half a second.)
    assert 55 <= int(minutes) * 60 + int(seconds) <= 61
    assert player.errors == []


def test_leave_hands_the_seat_to_the_computer(server, new_player):
    player = new_player(seed=44)
    for _ in range(5):
        player.page.goto(f"{server}/play?{SCAT}&players=2&bots=1")
        player.settled()
        if player.may_move():
            break
    player.page.locator("[data-leave]").click()
    # A second press, once it says what it does, leaves.
    player.page.locator("[data-leave][aria-pressed='true']").click()
    # Out of the match at once: New game and Leave the table, without watching the rest.
    player.page.wait_for_selector(".own-links [data-new-game], #table[data-over='true']")
    if player.attribute("over") != "true":
        assert player.page.locator(".own-links [data-leave-table]").count() == 1
    player.page.wait_for_selector("#table[data-over='true']", timeout=60_000)
    assert "computer" in seat_text(player, 0)
    # The seat's result is the computer's: never "You won!", and no rematch for one who left.
    status = player.page.locator(".status h2").inner_text()
    assert "You won" not in status, status
    assert status.startswith("The match is over."), status
    assert player.page.locator("[data-rematch]").count() == 0
    assert "computer" in player.page.locator("[data-summary]").inner_text()
    assert player.errors == []


def _post(url: str, body: dict | None = None, key: str | None = None) -> dict:
    import urllib.request

    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    request = urllib.request.Request(url, data=json.dumps(body or {}).encode(), headers=headers,
                                     method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def test_a_player_who_left_takes_the_seat_back(server, new_player):
    # Two humans: the other never moves, so the match waits for them while the page's player
    # is away and back.
    created = _post(f"{server}/v1/tables", {"variant": "scat", "players": 2})
    table = created["table"]
    _post(f"{server}/v1/tables/{table}/seats/1",
          {"invitation": created["seats"][1]["invitation"], "name": "Bo"})
    player = new_player(seed=45)
    player.page.goto(f"{server}/play#table={table}&key={created['seats'][0]['key']}")
    player.settled()
    player.page.locator("[data-leave]").click()
    player.page.locator("[data-leave][aria-pressed='true']").click()
    player.page.locator("[data-return]").click()
    # The seat is the player's again: Leave is offered again, the computer is gone from it.
    player.page.wait_for_selector("button[data-leave]")
    assert "computer" not in seat_text(player, 0)
    assert player.page.locator("[data-return]").count() == 0
    assert player.errors == []


def play_to_the_end(players) -> None:
    host = players[0]
    for _ in range(400):
        version = max(player.version for player in players)
        for player in players:
            player.wait_for_version(version)
        if all(player.over for player in players):
            return
        dealer = host if host.attribute("to-move") == "" else None
        mover = dealer or next((player for player in players if player.may_move()), None)
        if mover is not None:
            mover.move()
    raise AssertionError("the match did not end")


def test_rematch_takes_both_browsers_to_the_new_table(server, new_player, artifacts):
    host = host_with_a_friend(server, new_player)
    invite = host.page.locator("[data-invite]").get_attribute("data-invite")
    guest = new_player(seed=45)
    guest.page.goto(invite)
    guest.page.fill("#name", "Bruno")
    guest.page.locator("form.claim button[type=submit]").click()
    guest.settled()
    host.page.wait_for_selector("#table[data-phase='playing']")
    spectator = new_player(seed=53)
    spectator.page.goto(host.page.locator("[data-watch]").get_attribute("data-watch"))
    play_to_the_end([host, guest])
    old = fragment(host)["table"]
    # The record of the match, checked in the page.
    host.page.locator("[data-check-record]").click()
    host.page.wait_for_selector(".record-checks [data-check]")
    assert host.page.locator(".record-checks [data-check='ok']").count() == 5
    assert host.page.locator(".record-checks [data-check='bad']").count() == 0
    record = host.page.locator("[data-record]").get_attribute("href")
    assert urlsplit(record).path == f"/v1/tables/{old}/record"
    host.screenshots(artifacts, "life-over")

    host.page.locator("[data-rematch]").click()
    for player in (host, guest):
        player.page.wait_for_url(lambda url: f"table={old}" not in url, timeout=60_000)
    assert fragment(host)["table"] == fragment(guest)["table"] != old
    assert fragment(host)["key"] != fragment(guest)["key"]
    # Both seats came back: the new table is dealt, with the same names.
    for player in (host, guest):
        player.page.wait_for_selector("#table[data-phase='playing']")
    assert "Bruno" in seat_text(host, 1) and "Ana" in seat_text(guest, 0)
    # A spectator of the old table is offered to watch the new one.
    spectator.page.locator("[data-watch-rematch]").click()
    spectator.page.wait_for_url(lambda url: fragment(host)["table"] in url)
    spectator.page.wait_for_selector("#table[data-phase='playing']")
    spectator.settled()
    assert spectator.attribute("seat") == "" and spectator.table_id == fragment(host)["table"]
    assert host.errors == [] and guest.errors == [] and spectator.errors == []


def test_the_lobby_lists_a_public_table_and_a_third_browser_joins(server, new_player, artifacts):
    third = new_player(seed=46)
    third.page.goto(f"{server}/play")
    third.page.get_by_text("No table is waiting for players now.").wait_for()
    host = host_with_a_friend(server, new_player, extra="public")
    table = fragment(host)["table"]
    # The lobby already shown lists the new table on its own.
    listed = third.page.locator(f"[data-public-table='{table}']")
    listed.wait_for(timeout=15_000)
    third.page.screenshot(path=str(artifacts / "play-life-lobby-390x844.png"), full_page=True)
    third.page.fill("#name", "Chiara")
    listed.locator("[data-join]").click()
    third.settled()
    assert fragment(third)["table"] == table
    host.page.wait_for_selector("#table[data-phase='playing']")
    host.settled()
    assert "Chiara" in seat_text(host, 1)
    # A watcher's link is offered too.
    assert third.page.locator("[data-watch]").count() >= 1
    assert host.errors == [] and third.errors == []


def won_alone(server, player) -> str:
    """Play a table of one seat and a computer to its end: the table's id."""
    player.page.goto(f"{server}/play?{SCAT}&players=2&bots=1")
    player.play_alone()
    return player.table_id


def record_checks(player) -> dict[str, str]:
    player.page.wait_for_selector(".record-checks [data-check]")
    checks = player.page.locator(".record-checks [data-check]")
    return {checks.nth(i).get_attribute("data-check-code"):
            checks.nth(i).get_attribute("data-check") for i in range(checks.count())}


def test_the_record_is_downloaded_and_checked_and_a_tampered_one_fails(server, new_player,
                                                                       artifacts, tmp_path):
    player = new_player(seed=47)
    won_alone(server, player)
    with player.page.expect_download() as download:
        player.page.locator("[data-record]").click()
    saved = tmp_path / "record.json"
    download.value.save_as(saved)
    record = json.loads(saved.read_text(encoding="utf-8"))
    assert record["format"] == "thirtyone-record" and record["is_over"]
    # The record as downloaded: every check the page makes holds, its own contribution too.
    player.page.set_input_files("[data-record-file]", str(saved))
    everything = {"table": "ok", "commitment": "ok", "deal": "ok", "yours": "ok", "result": "ok"}
    assert record_checks(player) == everything
    player.screenshots(artifacts, "life-record")

    def tampered(change) -> dict[str, str]:
        copy = json.loads(json.dumps(record))
        change(copy)
        player.page.set_input_files("[data-record-file]", files=[{
            "name": "tampered.json", "mimeType": "application/json",
            "buffer": json.dumps(copy).encode()}])
        player.page.wait_for_selector(".record-checks [data-check='bad']")
        return record_checks(player)

    def other_seed(copy) -> None:
        copy["seed"]["server"] = "0" * len(copy["seed"]["server"])

    def other_contribution(copy) -> None:
        copy["seed"]["contributions"][0] = "chosen after the fact"

    def other_winner(copy) -> None:
        copy["winners"] = [1 - copy["winners"][0]]

    def other_name(copy) -> None:
        copy["seats"][1]["name"] = "Mallory"

    assert tampered(other_seed) == everything | {"commitment": "bad", "deal": "bad"}
    assert tampered(other_contribution) == everything | {"deal": "bad", "yours": "bad"}
    assert tampered(other_winner) == everything | {"result": "bad"}
    assert tampered(other_name) == everything | {"table": "bad"}
    player.page.set_input_files("[data-record-file]", files=[{
        "name": "junk.json", "mimeType": "application/json", "buffer": b"{not json"}])
    player.page.wait_for_selector(".record-checks [data-check-code='format'][data-check='bad']")
    assert player.errors == []


def test_a_spectator_sees_no_hidden_card_and_no_key(server, new_player, hidden_cards):
    host = host_with_a_friend(server, new_player, extra="public")
    table = fragment(host)["table"]
    # The lobby offers to watch the public table.
    spectator = new_player(seed=48)
    spectator.page.goto(f"{server}/play")
    spectator.page.locator(f"[data-public-table='{table}'] [data-watch]").click()
    guest = new_player(seed=49)
    guest.page.goto(host.page.locator("[data-invite]").get_attribute("data-invite"))
    guest.page.locator("form.claim button[type=submit]").click()
    guest.settled()
    spectator.page.wait_for_selector("#table[data-phase='playing']")
    spectator.settled()
    assert spectator.attribute("seat") == ""
    keys = {fragment(host)["key"], fragment(guest)["key"]}
    for _ in range(3):
        html = spectator.page.content()
        assert not any(key in html for key in keys)
        assert hidden_cards(table, -1).isdisjoint(spectator.cards_shown())
        # Neither player's page holds the other's key.
        assert fragment(guest)["key"] not in host.page.content()
        assert fragment(host)["key"] not in guest.page.content()
        mover = next((player for player in (host, guest) if player.may_move()), None)
        if mover is None:
            break
        mover.move()
    assert host.errors == [] and guest.errors == [] and spectator.errors == []


def copy_store(source: Path, target: Path) -> None:
    """The SQLite store copied whole (its write-ahead log included)."""
    with closing(sqlite3.connect(source)) as origin, closing(sqlite3.connect(target)) as copy:
        origin.backup(copy)


def test_a_table_reset_replaces_what_the_page_showed(server, app, new_player, tmp_path):
    # The stream looks at the store after a second of quiet (not after 15 s).
    app.config["TABLE_KEEPALIVE_SECONDS"] = 1.0
    store = Path(app.config["THIRTYONE_STORE"].removeprefix("sqlite:///"))
    player = new_player(seed=50)
    for _ in range(5):
        player.page.goto(f"{server}/play?variant=scat&players=2&bots=1&lives=3&free_ride=false")
        if player.may_move():
            break
    saved = tmp_path / "saved.sqlite3"
    copy_store(store, saved)
    for _ in range(2):
        if player.may_move():
            player.move()
    highest = player.version
    # The store loses the versions the page has seen since the copy.
    copy_store(saved, store)
    player.wait_for_version(highest + 1)
    tables = app.extensions["thirtyone.tables"]
    kept = tables.load(player.table_id)
    assert player.version == kept.version > highest
    state = kept.state()
    assert player.own_hand() == set(state["hands"][0])
    # The story of the lost versions is gone from the page with them.
    assert player.page.locator(".events li[data-live]").count() == 0
    # Play goes on.
    if player.may_move():
        player.move()
        assert player.version > kept.version
    assert player.errors == []


def test_a_stopping_server_is_reconnected_after_the_retry_it_says(server, new_player,
                                                                  monkeypatch):
    monkeypatch.setattr(draining, "_stopping", threading.Event())
    monkeypatch.setattr(draining, "retry_ms", lambda: 2500)
    player = new_player(seed=51)
    opened: list[float] = []
    player.page.on("request", lambda request: opened.append(time.monotonic())
                   if "/events?" in request.url else None)
    player.page.goto(f"{server}/play?variant=scat&players=2&bots=1&lives=3&free_ride=false")
    player.settled()
    player.page.wait_for_timeout(300)
    before = len(opened)
    stopped = time.monotonic()
    draining.begin()
    player.page.wait_for_timeout(500)
    # Another instance takes the streams: this one is back (as a new one would be).
    draining._stopping.clear()
    player.page.wait_for_timeout(500)
    # A planned handover is no lost connection.
    assert player.page.locator(".warning").count() == 0
    deadline = time.monotonic() + calibrated(10)
    while len(opened) == before and time.monotonic() < deadline:
        player.page.wait_for_timeout(100)
    assert len(opened) == before + 1, opened
    assert 2.4 <= opened[-1] - stopped <= 5.0, opened[-1] - stopped
    # The new stream brings the moves on.
    if player.may_move():
        before = player.version
        player.move()
        assert player.version > before
    assert player.errors == []
