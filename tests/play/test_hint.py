"""/play's hint on request (the seat's own advice from the API) and the computer players'
level chosen in the lobby or by a start link."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

import pytest

from thirtyone.bots import BOTS
from thirtyone.game import GameState
from thirtyone.race import solve
from thirtyone.web.i18n import card_name


def seat_of(player) -> dict[str, str]:
    """The table and seat key in the page's fragment."""
    return dict(part.split("=", 1) for part in urlsplit(player.page.url).fragment.split("&"))


def test_a_hint_names_a_legal_move_and_marks_its_control(server, app, new_player, hidden_cards,
                                                         artifacts):
    player = new_player(seed=11)
    # A dealt 31 ends the round before anyone moves (the deal is random): deal again then.
    for _ in range(5):
        player.page.goto(f"{server}/play?variant=scat&players=3&bots=1,2")
        player.settled()
        if player.page.locator("button[data-hint]").count():
            break
    seat = seat_of(player)
    auth = {"Authorization": f"Bearer {seat['key']}"}
    table = player.page.request.get(f"{server}/v1/tables/{seat['table']}", headers=auth).json()
    assert table["to_move"] == player.seat
    legal = sorted(map(json.dumps, table["legal_moves"]))
    # Every move the hint may name, described in the page's language by the API itself.
    advice = player.page.request.get(f"{server}/v1/tables/{seat['table']}/advice?samples=5",
                                     headers=auth).json()
    descriptions = {entry["description"] for entry in advice["moves"]}
    assert player.page.locator("[data-advised]").count() == 0

    # The keyboard asks for it, like any other control.
    player.page.locator("button[data-hint]").focus()
    player.page.keyboard.press("Enter")
    shown = player.page.locator(".advice-move")
    shown.wait_for()
    text = shown.inner_text()
    assert text.startswith("Hint: ")
    assert text.removeprefix("Hint: ") in descriptions
    assert "over" in player.page.locator(".advice").inner_text()
    assert advice["measure_description"] in player.page.locator(".advice").inner_text()

    marked = player.page.locator("[data-move][data-advised='true']")
    assert marked.count() == 1
    assert json.dumps(json.loads(marked.get_attribute("data-move"))) in legal
    # The seat's own advice: no card it may not see is named, or drawn, in the page.
    hidden = hidden_cards(seat["table"], player.seat)
    with app.test_request_context("/?lang=en"):
        names = {card_name(code) for code in hidden}
    # (The log may name a card a bot took from the discard pile, which all saw: not here.)
    hint_text = player.page.locator(".advice").inner_text()
    assert not [name for name in names if name in hint_text]
    player.assert_nothing_hidden_shown(hidden)
    player.screenshots(artifacts, "hint")

    # Playing the move takes the hint away: it was for that version only.
    before = player.version
    marked.click()
    player.page.wait_for_selector(f"#table:not([data-version='{before}'])[aria-busy=false]")
    assert player.page.locator(".advice-move").count() == 0
    assert player.errors == []


def test_no_hint_button_for_a_spectator(server, new_player):
    player = new_player(seed=12)
    player.page.goto(f"{server}/play?variant=race&players=2&bots=0,1")
    player.settled()
    assert player.page.locator("button[data-hint]").count() == 0
    assert player.errors == []


@pytest.mark.parametrize("how", ["lobby", "link"])
def test_the_computer_players_level(server, new_player, how):
    player = new_player(seed=13)
    if how == "lobby":
        player.page.goto(f"{server}/play")
        # The lobby is drawn by the page's script: its options exist once it has run.
        player.page.wait_for_selector("#level option", state="attached")
        levels = player.page.locator("#level option")
        assert [levels.nth(i).get_attribute("value") for i in range(levels.count())] == list(BOTS)
        assert player.page.locator("#level").input_value() == "greedy"
        player.page.select_option("#variant", "scat")
        player.page.fill("#players", "3")
        player.page.locator("#players").dispatch_event("change")
        player.page.select_option("#level", "strong")
        player.page.get_by_role("button", name="Start").click()
    else:
        player.page.goto(f"{server}/play?variant=scat&players=3&bots=1,2&level=strong")
    player.settled()
    seat = seat_of(player)
    table = player.page.request.get(f"{server}/v1/tables/{seat['table']}",
                                    headers={"Authorization": f"Bearer {seat['key']}"}).json()
    assert [entry["bot"] for entry in table["seats"]] == [None, "strong", "strong"]
    assert player.errors == []


def test_a_start_link_without_a_level_seats_greedy_bots(server, new_player):
    player = new_player(seed=14)
    player.page.goto(f"{server}/play?variant=scat&players=2&bots=1")
    player.settled()
    table = player.page.request.get(f"{server}/v1/tables/{player.table_id}").json()
    assert [entry["bot"] for entry in table["seats"]] == [None, "greedy"]
    assert player.errors == []


def test_the_levels_are_named_in_the_pages_language(app):
    client = app.test_client()
    for language, strong in (("ru", "Сильный"), ("it", "Forte")):
        page = client.get(f"/play?lang={language}").text
        data = json.loads(page.split('id="play-data">', 1)[1].split("</script>", 1)[0])
        assert list(data["levels"]) == list(BOTS)
        assert data["levels"]["strong"].startswith(strong)
        assert data["default_level"] in BOTS


@pytest.mark.parametrize(("link", "shown"), [("&bots=2", False), ("&bots=2&hints=on", True),
                                            ("&bots=1,2", True), ("&bots=1,2&hints=off", False)])
def test_hints_follow_the_tables_rule(server, new_player, link, shown):
    player = new_player(seed=16)
    # A dealt 31 ends the round before anyone moves (the deal is random): deal again then.
    for _ in range(5):
        player.page.goto(f"{server}/play?variant=scat&players=3{link}")
        player.settled()
        invite = player.page.locator("[data-invite]")
        if invite.count():
            # A friend's seat: the table waits until the friend claims it by invitation.
            invitation = urlsplit(invite.get_attribute("data-invite"))
            sent = dict(part.split("=", 1) for part in invitation.fragment.split("&"))
            player.page.request.post(f"{server}/v1/tables/{sent['table']}/seats/{sent['seat']}",
                                     data={"invitation": sent["invite"], "name": "B"})
            player.page.reload()  # the table as now dealt
            player.page.wait_for_selector("#table .board")
            player.settled()
        if player.may_move() and player.attribute("to-move") == "0":
            break
    table = player.page.request.get(f"{server}/v1/tables/{player.table_id}").json()
    # Two humans: off unless the link turns them on; one human: on unless turned off.
    assert table["hints"] == ("on" if shown else "off")
    assert player.page.locator("button[data-hint]").count() == (1 if shown else 0)
    assert player.errors == []


def test_the_race_hint_is_the_solvers_verdict(server, app, new_player):
    """On 20 positions of races against the strong bot, the hint's move wins whenever the
    position wins, its worth is exact (1 or 0, no sampling), and it says so."""
    player = new_player(seed=15)
    store = app.extensions["thirtyone.tables"]
    checked = 0
    for _ in range(10):
        player.page.goto(f"{server}/play?variant=race&players=2&bots=1&level=strong")
        player.settled()
        while checked < 20 and not player.over:
            if not player.may_move():
                player.wait_for_version(player.version + 1)
                continue
            state = GameState.from_dict(store.load(player.table_id).state())
            solution = solve(state)
            player.page.locator("button[data-hint]").click()
            player.page.locator(".advice-move").wait_for()
            advised = json.loads(player.page.locator("[data-move][data-advised='true']")
                                 .get_attribute("data-move"))
            assert player.page.locator(".advice-value").get_attribute("data-exact") == "true"
            if solution.wins:
                assert advised["card"] in solution.winning_cards, (advised, solution)
            shown = player.page.locator(".advice-value").inner_text()
            assert shown.startswith("Worth 1" if solution.wins else "Worth 0"), shown
            checked += 1
            player.move()
        if checked >= 20:
            break
    assert checked == 20
    assert player.errors == []
