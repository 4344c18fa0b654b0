"""On a phone, every card on the table stays in sight at every table size: the other seats
take one row that scrolls sideways, so the table's cards (stock, discard pile, widow, table
hands) stand above your hand's panel, which stays at the bottom of the screen."""

from __future__ import annotations

import pytest
from tests.play.conftest import boxes

# A game for each table size: Switch has two table hands, Jokers (to 15 seats) a widow.
TABLES = [("switch", 2), ("switch", 5), ("switch", 7), ("jokers", 9), ("jokers", 15)]
SCREENS = [{"width": 390, "height": 844}, {"width": 360, "height": 640}]


@pytest.mark.parametrize("screen", SCREENS, ids=lambda size: f"{size['width']}x{size['height']}")
@pytest.mark.parametrize(("variant", "players"), TABLES, ids=str)
def test_every_table_card_is_in_sight_on_a_phone(server, new_player, artifacts, variant, players,
                                                 screen):
    player = new_player(seed=40 + players, viewport=screen)
    bots = ",".join(str(seat) for seat in range(1, players))
    player.page.goto(f"{server}/play?variant={variant}&players={players}&bots={bots}")
    # Your turn: your panel is at its tallest then (your hand and your moves).
    for _ in range(300):
        if player.may_move():
            break
        player.page.wait_for_timeout(100)
    assert player.may_move()
    player.page.screenshot(path=str(artifacts / (
        f"play-phone-{variant}-{players}-{screen['width']}x{screen['height']}.png")))
    cards = boxes(player.page, "#table .centre img.card")
    assert len(cards) >= 2
    [own] = boxes(player.page, "#table .own")
    for index, card in enumerate(cards):
        where = f"card {index} of {len(cards)} at {card}, your panel from y={own['y']}"
        assert card["x"] >= 0 and card["x"] + card["width"] <= screen["width"], where
        assert card["y"] >= 0 and card["y"] + card["height"] <= own["y"] + 1, where
    # Your hand and your moves are in sight too.
    [hand] = boxes(player.page, "#table .hand")
    assert hand["y"] + hand["height"] <= screen["height"]
    assert player.errors == []


@pytest.mark.parametrize("screen", SCREENS, ids=lambda size: f"{size['width']}x{size['height']}")
@pytest.mark.parametrize("locale", ["en-GB", "ru-RU", "it-IT"])
def test_the_lobby_fits_a_phones_width(server, new_player, screen, locale):
    player = new_player(seed=3, viewport=screen, locale=locale)
    player.page.goto(f"{server}/play")
    player.page.wait_for_selector("form.lobby")
    player.page.locator("details.options summary").click()
    player.page.locator(".settings summary").click()
    wide = player.page.evaluate("document.documentElement.scrollWidth")
    beyond = player.page.evaluate("""width => [...document.querySelectorAll('body *')]
        .filter(element => element.getBoundingClientRect().right > width)
        .map(element => `${element.tagName}#${element.id}.${element.className}`)""",
                                  screen["width"])
    assert wide <= screen["width"], (wide, beyond[:5])
    assert player.errors == []
