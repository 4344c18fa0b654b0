"""/play shows the table as it happens: each event in order, a computer player's move after a
pause, the last move marked; and on a phone your hand and moves stay on screen."""

from __future__ import annotations

import itertools
import json
import time

import pytest
from tests.conftest import calibrated
from tests.play.conftest import TIMEOUT_MS, boxes

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
BOT_ACTIONS = {"drew", "discarded", "knocked", "exchanged", "passed", "joined", "stood"}
PAUSE_MS = 600


def live_events(player, first: int) -> list[dict[str, str]]:
    """The events shown from number ``first`` on, each with its type, seat and message."""
    shown = player.page.locator(".events li[data-live]")
    events = []
    for index in range(shown.count()):
        item = shown.nth(index)
        number = int(item.get_attribute("data-event"))
        if number >= first:
            events.append({"number": number, "type": item.get_attribute("data-event-type"),
                           "seat": item.get_attribute("data-event-seat"),
                           "at": int(item.get_attribute("data-at")),
                           "message": item.inner_text()})
    return events


def test_bot_moves_are_shown_one_by_one_after_a_human_move(server, new_player, artifacts):
    player = new_player(seed=21)
    # Scat with three computer players and no dealt blitz to end the round at once: deal
    # again until the first move is this seat's and no computer player knocked before it
    # (this seat's move would then be the round's last).
    for _ in range(10):
        player.page.goto(f"{server}/play?variant=scat&players=4&bots=1,2,3&lives=1"
                         "&free_ride=false")
        player.settled()
        knocked = player.page.locator(".events [data-event-type='knocked']").count()
        if player.may_move() and not knocked:
            break
    # Draw from the stock, then discard: the three computer players move after it.
    player.page.locator("button[data-move*='\"stock\"']").click()
    player.settled()
    before = int(player.attribute("shown"))
    player.page.locator(".hand button[data-move*='discard']").first.click()
    # The page is busy while it shows the computer players' moves, then settles.
    player.page.wait_for_selector("#table[aria-busy=true]")
    player.settled()
    events = live_events(player, before + 1)
    # Each shown event has the next number, in the order the API gave them.
    numbers = [event["number"] for event in events]
    assert numbers == list(range(before + 1, before + 1 + len(events)))
    assert events[0] == {**events[0], "type": "discarded", "seat": "0"}
    bot_moves = [index for index, event in enumerate(events)
                 if event["type"] in BOT_ACTIONS and event["seat"] in {"1", "2", "3"}]
    # (A computer player's 31 may end the round after its first move: two at the least.)
    assert len(bot_moves) >= 2, events
    # The computer players move in turn, seat after seat.
    seats = [events[index]["seat"] for index in bot_moves]
    assert seats[:2] in (["1", "1"], ["1", "2"]), seats
    # A pause before each computer move; none before this seat's own.
    gaps = [events[index]["at"] - events[index - 1]["at"] for index in bot_moves if index > 0]
    assert min(gaps) >= PAUSE_MS * 0.9, gaps
    assert max(gaps) < PAUSE_MS * 3, gaps
    # The last move is marked on the table: its seat, and its words.
    last = events[bot_moves[-1]]
    assert player.page.locator(f".seat.last-actor[data-seat-index='{last['seat']}']").count() == 1
    assert last["message"].split(" ", 1)[0] in player.page.locator("[data-last-move]").inner_text()
    # The same words went to the one live region.
    assert player.page.locator("[aria-live]").count() == 1
    player.screenshots(artifacts, "live-last-move")
    assert player.errors == []


def test_a_discard_taken_is_named_in_the_log(server, new_player):
    player = new_player(seed=22)
    take = player.page.locator("button[data-move*='\"discard\"'][data-move*='draw']")
    # A dealt blitz may end the round before the first move: deal again then.
    for _ in range(5):
        player.page.goto(f"{server}/play?variant=scat&players=2&bots=1&lives=1&free_ride=false")
        player.settled()
        if take.count():
            break
    top = player.page.locator(".discard img.card").get_attribute("data-card")
    take.click()
    player.settled()
    taken = player.page.locator(".events li[data-event-type='drew'][data-event-seat='0']").last
    assert taken.locator(f"img[data-card='{top}']").count() == 1
    assert player.errors == []


def off_screen(page, selector: str, viewport: dict[str, int]) -> list[str]:
    """The text of each element of ``selector`` not wholly on screen (``["nothing"]`` when
    none matches)."""
    found = boxes(page, selector)
    return [box["text"] for box in found
            if not (box["width"] > 0 and box["x"] >= 0 and box["y"] >= 0
                    and box["x"] + box["width"] <= viewport["width"]
                    and box["y"] + box["height"] <= viewport["height"])] if found else ["nothing"]


@pytest.mark.parametrize(("variant", "players"), [("scat", 9), ("schnautz", 15)])
def test_on_a_phone_the_hand_and_the_moves_stay_on_screen(server, new_player, artifacts,
                                                          variant, players):
    player = new_player(seed=23, viewport=PHONE)
    bots = ",".join(str(seat) for seat in range(1, players))
    for _ in range(5):
        player.page.goto(f"{server}/play?variant={variant}&players={players}&bots={bots}")
        player.settled()
        if player.may_move():
            break
    assert player.may_move()
    for position in (0, 400):
        player.page.mouse.wheel(0, position)
        player.page.wait_for_timeout(100)
        assert off_screen(player.page, ".hand", PHONE) == []
        assert off_screen(player.page, ".own button[data-move]", PHONE) == []
    # The log is one tap away.
    player.page.locator("[data-show-log]").click()
    assert player.page.locator(".events:focus").count() == 1
    assert off_screen(player.page, "#log h2", PHONE) == []
    player.page.mouse.wheel(0, -10_000)
    player.page.screenshot(path=str(artifacts / f"play-phone-{players}-seats-390x844.png"))
    assert player.errors == []


def test_an_invite_opens_in_the_invitees_own_language(server, new_player):
    host = new_player(seed=24, locale="ru-RU")
    host.page.goto(f"{server}/play?variant=scat&players=2&lang=ru&bots=")
    host.settled()
    invite = host.page.locator("[data-invite]").get_attribute("data-invite")
    assert "lang" not in invite
    # The host's own address keeps the language they chose.
    assert "lang=ru" in host.page.url
    guest = new_player(seed=25, locale="it-IT")
    guest.page.goto(invite)
    assert guest.page.locator("html").get_attribute("lang") == "it"
    guest.page.locator("form.claim button[type=submit]").click()
    guest.settled()
    assert guest.seat == 1
    assert host.errors == [] and guest.errors == []


def test_the_seed_is_checked_without_crypto_subtle(server, new_player):
    player = new_player(seed=26)
    # As on a page served over plain http (not a secure context): no crypto.subtle.
    player.page.add_init_script("Object.defineProperty(Crypto.prototype, 'subtle', "
                                "{get: () => undefined})")
    player.page.goto(f"{server}/play?variant=race&players=2&bots=1")
    player.play_alone()
    seed = player.page.locator(".seed").inner_text()
    assert "matches the fingerprint" in seed, seed
    assert player.errors == []


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_cards_move_unless_the_reader_asked_for_reduced_motion(server, new_player, motion):
    player = new_player(seed=27, viewport=DESKTOP, reduced_motion=motion)
    hand = player.page.locator(".hand button[data-move*='discard']")
    for _ in range(5):
        player.page.goto(f"{server}/play?variant=scat&players=2&bots=1&lives=1&free_ride=false")
        player.settled()
        if player.may_move():
            break
    player.page.locator("button[data-move*='\"stock\"']").click()
    hand.first.wait_for()
    # The page counts what moved: every animation the browser ran on the table.
    player.page.evaluate("window.moved = 0; new MutationObserver(() => { window.moved = "
                         "Math.max(window.moved, document.getAnimations().length); }).observe("
                         "document.body, {subtree: true, childList: true, attributes: true})")
    hand.first.click()
    player.settled()
    moved = player.page.evaluate("window.moved")
    if motion == "reduce":
        assert moved == 0
    else:
        assert moved > 0
    assert player.errors == []


def test_a_spectator_link_shows_the_table_and_no_ones_cards(server, new_player, hidden_cards):
    host = new_player(seed=28)
    # The bots may end the first round before the host's first turn (a dealt 31, a knock):
    # its hands are shown then. A table where the host is to move keeps its hands hidden
    # while the spectator looks (the bots wait for the host).
    for _ in range(10):
        host.page.goto(f"{server}/play?variant=scat&players=3&bots=1,2&lives=1"
                       "&free_ride=false")
        if host.may_move() and not host.showing_result():
            break
    assert not host.showing_result()
    watch = host.page.locator("[data-watch]").get_attribute("data-watch")
    assert "key=" not in watch
    # The fingerprint of the seed is shown from the start.
    table = host.page.request.get(f"{server}/v1/tables/{host.table_id}").json()
    assert table["seed_sha256"] in host.page.locator(".invites").inner_text()
    spectator = new_player(seed=29)
    spectator.page.goto(watch)
    spectator.settled()
    assert spectator.attribute("seat") == ""
    assert spectator.page.locator(".hand, [data-move]").count() == 0
    hidden = hidden_cards(host.table_id, -1)
    assert hidden.isdisjoint(spectator.cards_shown())
    assert host.errors == [] and spectator.errors == []


def test_a_lost_stream_backs_off_and_obeys_retry_after(server, new_player):
    player = new_player(seed=30)
    opened: list[float] = []
    refused = {"left": 1}

    def stream(route) -> None:
        opened.append(time.monotonic())
        route.fulfill(status=503, body="")

    def table(route) -> None:
        # The first look at the table after the stream failed is refused for load: 3 s.
        if route.request.method == "GET" and opened and refused["left"]:
            refused["left"] -= 1
            route.fulfill(status=429, headers={"Retry-After": "3",
                                               "Content-Type": "application/problem+json"},
                          body=json.dumps({"status": 429, "code": "rate_limited",
                                           "title": "Too many requests"}))
        else:
            route.continue_()

    # Every stream the page opens fails at once.
    player.page.route("**/v1/tables/*/events?*", stream)
    player.page.route("**/v1/tables/*?*", table)
    player.page.goto(f"{server}/play?variant=scat&players=2&bots=1&lives=1&free_ride=false")
    deadline = time.monotonic() + calibrated(25)
    while len(opened) < 4 and time.monotonic() < deadline:
        player.page.wait_for_timeout(200)
    assert len(opened) >= 4, opened
    gaps = [later - earlier for earlier, later in itertools.pairwise(opened)]
    # After the 429 the page waited its Retry-After at least; then each wait doubles (drawn
    # in its upper half): 0.5-1 s, then 1-2 s.
    assert gaps[0] >= 2.9, gaps
    assert 0.4 <= gaps[1] <= 1.6 and 0.9 <= gaps[2] <= 2.6, gaps
    assert player.page.locator(".warning").count() == 1
    # The next wait is 2-4 s: "Try again now" opens the stream at once instead.
    before = len(opened)
    pressed = time.monotonic()
    player.page.locator("[data-offline] button[data-retry]").click()
    while len(opened) == before and time.monotonic() < pressed + 10:
        player.page.wait_for_timeout(50)
    assert len(opened) > before and opened[before] - pressed < 1.5, (opened, pressed)


@pytest.mark.parametrize(("locale", "words"), [
    ("en-GB", "The move was not made: No answer from the server"),
    ("ru-RU", "Ход не сделан: Сервер не отвечает"),
    ("it-IT", "La mossa non è stata fatta: Il server non risponde"),
])
def test_a_move_the_server_never_got_is_said_in_the_pages_words(server, new_player, locale,
                                                                 words):
    player = new_player(seed=32, locale=locale)
    language = locale[:2]
    player.page.goto(f"{server}/play?variant=scat&players=2&bots=1&lang={language}")
    player.settled()
    # The server cannot be reached when the move is sent (the browser would say "Failed to
    # fetch" in its own words).
    player.page.route("**/v1/tables/*/moves?*", lambda route: route.abort("connectionrefused"))
    player.page.locator("button[data-move]:not(:disabled)").first.click()
    error = player.page.locator("#table .error")
    error.wait_for()
    assert error.inner_text().startswith(words), error.inner_text()
    assert "fetch" not in error.inner_text().lower()


@pytest.mark.parametrize(("locale", "gives"), [("en-GB", "gives"), ("ru-RU", "отдаёт"),
                                               ("it-IT", "dà")])
def test_a_computer_players_exchange_is_seen_card_by_card_and_named(server, new_player, locale,
                                                                     gives):
    player = new_player(seed=50, locale=locale, viewport=DESKTOP)
    player.page.goto(f"{server}/play?variant=schnautz&players=3&bots=1,2&lang={locale[:2]}"
                     "&rounds=3")
    # Each look is one snapshot taken in the page at once: under load the next computer
    # move may come between two separate reads and take the cards just given.
    snapshot_js = """actions => {
        const shown = [...document.querySelectorAll('.events li[data-live]')]
            .filter(item => actions.includes(item.dataset.eventType));
        const last = shown[shown.length - 1];
        if (!last || last.dataset.eventType !== 'exchanged' || last.dataset.eventSeat === '0')
            return null;
        const fact = last.querySelector('.fact');
        const gave = [...(fact ? fact.querySelectorAll('img') : [])]
            .filter(image => image.dataset.card)
            .map(image => [image.dataset.card, image.alt]);
        return {
            gave,
            marked: gave.map(([code]) => document.querySelectorAll(
                `.centre img.card.last[data-card='${code}']`).length),
            line: document.querySelector('.last-move').innerText,
            event: last.dataset.event,
            moving: Number(last.dataset.moving || 0),
        };
    }"""
    seen = None
    for _ in range(120):
        player.settled()
        if player.over:
            break
        seen = player.page.evaluate(snapshot_js, sorted(BOT_ACTIONS))
        # An exchange whose table cards were no longer drawn when it was shown (the page
        # caught up with a table drawn further on, under heavy load) has nothing to move:
        # look at the next one.
        if seen is not None and seen["moving"]:
            break
        seen = None
        player.move()
    assert seen is not None, "no computer exchange moved card by card in 120 moves"
    gave = [code for code, _name in seen["gave"]]
    assert gave
    # The cards given lie on the table with the last move's mark, and the last-move line names
    # them in words, its player named.
    assert seen["marked"] == [1] * len(gave), seen
    line, names = seen["line"], [name for _code, name in seen["gave"]]
    assert gives in line and all(name in line for name in names), (line, names)
    # They arrived one after the other, and what came next waited for the last of them.
    moving = seen["moving"]
    assert moving == (len(gave) - 1) * 250 + 350, seen
    seen = player.page.locator(f".events li[data-event='{seen['event']}']")
    number = int(seen.get_attribute("data-event"))
    following = player.page.locator(f".events li[data-event='{number + 1}']")
    if following.count():
        waited = int(following.get_attribute("data-at")) - int(seen.get_attribute("data-at"))
        assert waited >= moving - 20, (waited, moving)
    assert player.errors == []


def test_the_settings_are_kept_and_the_fast_speed_is_fast(server, new_player):
    player = new_player(seed=24)
    player.page.goto(f"{server}/play")
    player.page.wait_for_selector("form.lobby")
    # Sounds are off, the speed normal and the theme the system's until chosen.
    player.page.locator(".settings summary").click()
    assert not player.page.locator("#setting-sound").is_checked()
    assert player.page.locator("#setting-speed").input_value() == "normal"
    player.page.select_option("#setting-speed", "fast")
    player.page.select_option("#setting-theme", "dark")
    player.page.check("#setting-sound")
    assert player.page.locator("html").get_attribute("data-theme") == "dark"
    for _ in range(10):
        player.page.goto(f"{server}/play?variant=scat&players=4&bots=1,2,3&lives=1"
                         "&free_ride=false")
        player.settled()
        knocked = player.page.locator(".events [data-event-type='knocked']").count()
        if player.may_move() and not knocked:
            break
    # Kept across pages: the dark felt, and the turn's sound played.
    assert player.page.locator("html").get_attribute("data-theme") == "dark"
    assert player.page.locator("html").get_attribute("data-sound") == "turn"
    player.page.locator("button[data-move*='\"stock\"']").click()
    player.settled()
    before = int(player.attribute("shown"))
    player.page.locator(".hand button[data-move*='discard']").first.click()
    player.page.wait_for_selector("#table[aria-busy=true]")
    player.settled()
    events = live_events(player, before + 1)
    bot_moves = [index for index, event in enumerate(events)
                 if event["type"] in BOT_ACTIONS and event["seat"] in {"1", "2", "3"}]
    gaps = [events[index]["at"] - events[index - 1]["at"] for index in bot_moves if index > 0]
    # 80 ms before each computer move at the fast speed (600 at the normal one).
    assert gaps and min(gaps) >= 80 * 0.9 and max(gaps) < 300, gaps
    assert player.errors == []


def test_a_finished_match_opened_on_a_lost_stream_still_tells_every_round(server, new_player):
    player = new_player(seed=33)
    player.page.goto(f"{server}/play?variant=no-trips&players=2&bots=1&max_turns=10")
    player.play_alone()
    assert player.over
    address = player.page.url
    rounds = player.page.request.get(
        f"{server}/v1/tables/{player.table_id}").json()["view"]["round"]
    # Opened again, the page has the match over from its first read of the table; the first
    # stream (which brings the table's story, its rounds) is lost at once. The page must open
    # it again: the story has not come yet, however over the match is.
    refused = {"left": 1}

    def stream(route) -> None:
        if refused["left"]:
            refused["left"] -= 1
            route.fulfill(status=503, body="")
        else:
            route.continue_()

    player.page.route("**/v1/tables/*/events?*", stream)
    player.page.goto("about:blank")
    player.page.goto(address)
    player.page.wait_for_function(
        "count => document.querySelectorAll('.rounds tbody tr[data-round]').length === count",
        arg=rounds, timeout=TIMEOUT_MS)
    assert refused["left"] == 0
    assert player.page.locator("[data-summary]").count() == 1
