"""/play in a real Chromium: whole games of every family, two browsers at one table, a reload
that resumes, the languages, and the page's own rules (no console error, no hidden card)."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

import pytest
from tests.play.conftest import DESKTOP, TIMEOUT_MS, boxes

# One preset per family, with options that keep the match short: one life and no free ride,
# one deal, at most ten turns a round; no-trips (the widow family's dealer who may take the
# table) with two players.
FAMILIES = {
    "draw": "scat&players=3&bots=1,2&lives=1&free_ride=false&max_turns=10",
    "widow": "schnautz&players=3&bots=1,2&rounds=1&max_turns=10",
    "bank": "bank&players=3&bots=1,2&rounds=1&max_turns=10",
    "switch": "switch&players=3&bots=1,2&lives=1&free_ride=false&max_turns=10",
    "race": "race&players=2&bots=1",
    "no-trips": "no-trips&players=2&bots=1&max_turns=10",
}


@pytest.mark.parametrize("family", FAMILIES)
def test_a_whole_game_of_each_family_against_bots(server, new_player, hidden_cards, artifacts,
                                                  family):
    player = new_player(seed=len(family))
    # A dealt 31 (or a widow of 31) may end a one-round match before this seat moves: deal
    # again until it has a move to make.
    for _ in range(5):
        player.page.goto(f"{server}/play?variant={FAMILIES[family]}")
        if player.may_move():
            break
    # The start link gave way to the seat's own address: the key is in the fragment only.
    address = urlsplit(player.page.url)
    assert "variant" not in address.query and "key=" in address.fragment
    assert player.seat == 0

    shot = {"taken": False}

    def check() -> None:
        player.assert_nothing_hidden_shown(hidden_cards(player.table_id, player.seat))
        if not shot["taken"] and player.version >= 2:
            player.screenshots(artifacts, family)
            shot["taken"] = True

    moves = player.play_alone(check=check)
    assert moves > 0
    assert player.over
    assert player.page.locator(".status").inner_text().startswith("The match is over.")
    assert player.page.locator(".result").count() == 1
    # The seed comes out at the end and matches the fingerprint published at the start.
    assert "matches the fingerprint" in player.page.locator(".seed").inner_text(), (
        player.page.locator(".seed").inner_text())
    # Every round of the match is in the history, and the match's summary ends it.
    # A table read anew (the stream reconnected under load) may show the match over before
    # the stream's last versions are drawn: their events, and the last round, follow.
    table = player.page.request.get(f"{server}/v1/tables/{player.table_id}").json()
    player.page.wait_for_function(
        "count => document.querySelectorAll('.rounds tbody tr[data-round]').length === count",
        arg=table["view"]["round"], timeout=TIMEOUT_MS)
    assert player.page.locator("[data-summary]").count() == 1
    player.screenshots(artifacts, f"{family}-over")
    assert player.errors == []


def test_two_browsers_play_one_scat_table_by_invitation(server, new_player, hidden_cards,
                                                        artifacts):
    host = new_player(seed=1)
    host.page.goto(f"{server}/play?variant=scat&players=3&bots=2&lives=1&free_ride=false"
                   "&max_turns=10")
    host.settled()
    invites = host.page.locator("[data-invite]")
    assert invites.count() == 1
    invite = invites.get_attribute("data-invite")
    # The invitation (not a key: the guest's key is made when they claim the seat) rides in
    # the fragment, which the browser never sends.
    assert invite.startswith(server) and "invite=" in urlsplit(invite).fragment
    assert "invite=" not in urlsplit(invite).query and "key=" not in invite

    guest = new_player(seed=2, locale="ru-RU")
    guest.page.goto(invite)
    # The invitation asks the guest's name, then claims the seat.
    guest.page.locator("form.claim button[type=submit]").click()
    guest.settled()
    assert (host.seat, guest.seat) == (0, 1)
    # The invitation used is no longer listed on the host's page.
    host.page.wait_for_selector("#table[data-phase='playing'], #table[data-phase='over']")
    host.settled()
    assert host.page.locator("[data-invite]").count() == 0
    # The guest's browser speaks Russian: the same table, in their language.
    assert guest.page.locator("html").get_attribute("lang") == "ru"

    players = (host, guest)
    for _ in range(400):
        version = max(player.version for player in players)
        for player in players:
            player.wait_for_version(version)
        if all(player.over for player in players):
            break
        for player in players:
            player.assert_nothing_hidden_shown(hidden_cards(player.table_id, player.seat))
        # Between rounds either human may deal; the host does, so they never race.
        dealer = host if host.attribute("to-move") == "" else None
        mover = dealer or next((player for player in players if player.may_move()), None)
        if mover is not None:
            mover.move()
    else:
        raise AssertionError("the match did not end")
    assert host.version == guest.version
    host.screenshots(artifacts, "scat-host")
    guest.screenshots(artifacts, "scat-guest-ru")
    assert host.errors == [] and guest.errors == []


def test_a_reload_resumes_the_game(server, new_player):
    player = new_player(seed=3)
    player.page.goto(f"{server}/play?variant=scat&players=3&bots=1,2&lives=2")
    for _ in range(3):
        player.move()
    version, hand = player.version, player.own_hand()
    events = player.page.locator(".events li").count()
    assert events > 0
    player.page.reload()
    player.settled()
    assert (player.version, player.own_hand()) == (version, hand)
    # The story of the table comes back with it.
    player.page.wait_for_selector(f".events li >> nth={events - 1}")
    player.move()
    assert player.version > version
    assert player.errors == []


def test_moves_are_the_apis_and_the_keyboard_plays_them(server, new_player):
    player = new_player(seed=4)
    player.page.goto(f"{server}/play?variant=scat&players=2&bots=1")
    player.settled()
    offered = player.page.locator("button[data-move]")
    moves = [json.loads(offered.nth(i).get_attribute("data-move")) for i in range(offered.count())]
    key = dict(part.split("=", 1) for part in urlsplit(player.page.url).fragment.split("&"))
    table = player.page.request.get(f"{server}/v1/tables/{key['table']}",
                                    headers={"Authorization": f"Bearer {key['key']}"}).json()
    assert sorted(map(json.dumps, moves)) == sorted(map(json.dumps, table["legal_moves"]))
    for index in range(len(table["view"]["seats"])):
        assert player.page.locator(f"[data-seat-index='{index}']").count() == 1

    before = player.version
    player.page.locator("button[data-move]").first.focus()
    player.page.keyboard.press("Enter")
    player.page.wait_for_selector(f"#table:not([data-version='{before}'])[aria-busy=false]")
    # The focus stays on a control, so the next move is a key press away.
    player.page.keyboard.press("Tab")
    assert player.page.locator(":focus").count() == 1
    assert player.errors == []


def test_the_lobby_starts_a_table_with_a_friends_seat(server, new_player):
    player = new_player(seed=5, locale="it-IT")
    response = player.page.goto(f"{server}/play")
    # The page runs under the strict policy: a script or style it inlined would be refused.
    assert "script-src 'self';" in response.headers["content-security-policy"]
    assert player.page.locator("html").get_attribute("lang") == "it"
    player.page.select_option("#variant", "schnautz")
    player.page.fill("#players", "3")
    player.page.locator("#players").dispatch_event("change")
    player.page.select_option("[data-seat-choice='2']", "friend")
    # The options come from the variants list, labelled in Italian; two rounds only.
    player.page.locator("details.options summary").click()
    player.page.fill("[data-option='rounds']", "2")
    player.page.get_by_role("button", name="Inizia").click()
    player.settled()
    assert player.page.locator("[data-invite]").count() == 1
    table = player.page.request.get(f"{server}/v1/tables/{player.table_id}").json()
    # The friend has not claimed the seat yet: the table waits, with the options chosen.
    assert table["phase"] == "waiting" and table["options"] == {"rounds": 2}
    # Seats are counted from 1: the API's seat 2 is the third.
    assert "Giocatore 3" in player.page.locator(".invites").inner_text()
    assert player.errors == []


def test_each_seat_keeps_its_choice_when_the_number_of_players_changes(server, new_player):
    player = new_player(seed=6)
    player.page.goto(f"{server}/play")
    player.page.select_option("#variant", "scat")
    player.page.fill("#players", "3")
    player.page.locator("#players").dispatch_event("change")
    player.page.select_option("[data-seat-choice='1']", "friend")

    def choices() -> list[str]:
        found = player.page.locator("[data-seat-choice]")
        return [found.nth(index).input_value() for index in range(found.count())]

    assert choices() == ["friend", "bot"]
    for players, expected in (("4", ["friend", "bot", "bot"]), ("2", ["friend"]),
                              ("5", ["friend", "bot", "bot", "bot"])):
        player.page.fill("#players", players)
        player.page.locator("#players").dispatch_event("change")
        assert choices() == expected, players
    # Seats counted from 1: "You" sit at seat 1, the friend at seat 2.
    assert player.page.locator(".seat-choices li").first.inner_text().startswith("Seat 1")
    player.page.get_by_role("button", name="Start").click()
    player.settled()
    # Start dealt nothing: the friend's invitation waits.
    assert player.page.locator("[data-invite]").count() == 1
    assert player.attribute("phase") == "waiting"
    assert player.errors == []


@pytest.mark.parametrize(("language", "ace"), [("ru", "туз пик"), ("it", "asso di picche")])
def test_languages_and_their_card_faces(server, new_player, language, ace):
    player = new_player(seed=6)
    player.page.goto(f"{server}/play?variant=race&players=2&bots=1&lang={language}")
    player.settled()
    assert player.page.locator(f"img[aria-label='{ace}']").count() == 1
    # The switcher keeps the seat: the fragment survives a change of language.
    fragment = urlsplit(player.page.url).fragment
    player.page.locator("[data-lang='en']").click()
    player.page.wait_for_selector("html[lang='en']")
    player.settled()
    assert urlsplit(player.page.url).fragment == fragment
    assert player.page.locator("img[aria-label='ace of spades']").count() == 1
    assert player.errors == []


def test_card_faces_speak_the_language(server, new_player):
    player = new_player(seed=7)
    russian = player.page.request.get(f"{server}/play/cards/QH.svg?lang=ru").text()
    english = player.page.request.get(f"{server}/play/cards/QH.svg?lang=en").text()
    assert ">Д</text>" in russian and "дама червей" in russian
    assert ">Q</text>" in english and "queen of hearts" in english
    assert player.page.request.get(f"{server}/play/cards/ZZ.svg").status == 404


def test_a_table_of_bots_alone_is_watched(server, new_player):
    player = new_player(seed=8)
    player.page.goto(f"{server}/play?variant=scat&players=2&bots=0,1&lives=1&free_ride=false")
    player.settled()
    # No seat is this browser's: the address names the table only, and no move is offered.
    assert "key=" not in urlsplit(player.page.url).fragment
    assert player.attribute("seat") == ""
    player.page.wait_for_selector("#table[data-over='true']")
    assert player.page.locator("[data-move], .hand").count() == 0
    assert player.page.locator(".result").count() == 1
    assert player.errors == []


def test_a_start_link_the_api_refuses_says_why_and_offers_the_lobby(server, new_player):
    player = new_player(seed=9)
    player.page.goto(f"{server}/play?variant=scat&players=10&lang=it")
    player.page.wait_for_selector("form.lobby")
    # The API's own problem detail, in the page's language.
    assert "giocatori" in player.page.locator("[role=alert]").first.inner_text()
    assert player.page.locator("#table").count() == 0
    # The refused request is the only console error: the browser reports the 422 itself.
    assert len(player.errors) == 1 and "422" in player.errors[0], player.errors


def test_schwimmens_dealer_choice_offers_two_buttons_and_no_card_to_choose(server, new_player):
    player = new_player(seed=7)
    # The dealer of Schwimmen's first round takes the face-down table or turns it up: deal
    # again until this seat deals.
    moves = player.page.locator("button[data-move]")
    for _ in range(20):
        player.page.goto(f"{server}/play?variant=schwimmen&players=2&bots=1")
        player.settled()
        kinds = sorted(json.loads(moves.nth(index).get_attribute("data-move"))["type"]
                       for index in range(moves.count()))
        if "reveal" in kinds:
            break
    assert kinds == ["exchange", "reveal"], kinds
    # Neither the hand's nor the table's cards look selectable: the exchange is all or none.
    assert player.page.locator("#table .card-button, [data-select]").count() == 0
    assert player.page.locator(".hand .card, .widow .card").count() == 6
    assert player.errors == []


def test_at_the_end_of_a_match_on_a_desktop_the_log_stays_beside_the_board(server, new_player):
    player = new_player(seed=8, viewport=DESKTOP)
    player.page.goto(f"{server}/play?variant=scat&players=2&bots=1&lives=1&free_ride=false")
    player.play_alone()
    player.settled()
    box = {name: boxes(player.page, f"#table > {selector}")[0]
           for name, selector in (("board", ".board"), ("ending", ".ending"), ("log", ".log"))}
    # Rematch and the record under the board, in its column; the log in the right column,
    # level with the board (not pushed below the ending's row).
    right = box["board"]["x"] + box["board"]["width"]
    assert box["ending"]["x"] + box["ending"]["width"] <= right + 1
    assert box["log"]["x"] >= right
    assert box["log"]["y"] < box["board"]["y"] + box["board"]["height"]
    assert player.errors == []


@pytest.mark.parametrize(("locale", "walkthrough", "ways", "invites"), [
    ("en-GB", "/first-game/", "You may draw from the stock", "Ana invites you to a game of"),
    ("ru-RU", "/ru/first-game/", "Вы можете взять карту из прикупа", "Ana приглашает вас сыграть"),
    ("it-IT", "/it/first-game/", "Puoi pescare dal tallone", "Ana ti invita a una partita di"),
])
def test_a_first_time_player_is_told_how_to_play(server, new_player, locale, walkthrough, ways,
                                                  invites):
    player = new_player(seed=9, locale=locale)
    language = locale[:2]
    player.page.goto(f"{server}/play?variant=scat&players=2&bots=1&lang={language}")
    # "How to play" leads to the rules site's first game, in the page's language.
    assert player.page.locator("[data-how-to-play]").get_attribute("href") == walkthrough
    for _ in range(5):
        player.settled()
        if player.may_move():
            break
        player.page.reload()
    # Under "Your turn." the moves the seat may make, in words, joined by the language's "or".
    said = player.page.locator(".status [data-ways]").inner_text()
    assert said.startswith(ways), said
    # An invitation says what it is to: the game, the host and the options chosen.
    made = player.page.request.post(f"{server}/v1/tables?lang={language}", data={
        "variant": "scat", "players": 3, "bots": {"2": "greedy"}, "options": {"lives": 2},
        "name": "Ana"}).json()
    invitation = next(seat["invitation"] for seat in made["seats"] if seat["invitation"])
    player.page.goto(f"{server}/play?lang={language}#table={made['table']}&seat=1"
                     f"&invite={invitation}")
    about = player.page.locator("[data-invitation] li[data-option='lives']")
    about.wait_for()
    text = player.page.locator("[data-invitation]").inner_text()
    scat = player.page.request.get(f"{server}/v1/variants?lang={language}").json()["variants"][0]
    assert text.startswith(invites) and scat["name"] in text, text
    assert about.inner_text().endswith(": 2")
    assert player.errors == []
