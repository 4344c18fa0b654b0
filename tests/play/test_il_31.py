"""/play and "Il 31" (RULES.md §4.15) in a real Chromium: the lobby offers the new choices
(the deal passing right, Feuer of any trips), and a table of the Italian pack shows its cards
with the pack's own faces and regional names."""

from __future__ import annotations

import re


def test_the_lobby_offers_the_new_choices(server, new_player):
    player = new_player(seed=31, locale="it-IT")
    player.page.goto(f"{server}/play")
    player.page.select_option("#variant", "schwimmen")
    player.page.fill("#players", "3")
    player.page.locator("#players").dispatch_event("change")
    player.page.select_option("[data-seat-choice='2']", "friend")
    player.page.locator("details.options summary").click()
    assert player.page.locator("[data-option='fire'] option").all_inner_texts() == [
        "off", "aces", "any-trips"]
    player.page.select_option("[data-option='deal_passes']", "right")
    player.page.select_option("[data-option='spare_hand_to']", "first-player")
    player.page.get_by_role("button", name="Inizia").click()
    player.settled()
    table = player.page.request.get(f"{server}/v1/tables/{player.table_id}").json()
    assert table["options"] == {"deal_passes": "right", "spare_hand_to": "first-player"}
    assert player.errors == []


def test_a_table_of_il_31_shows_the_italian_pack(server, new_player):
    player = new_player(seed=32, locale="it-IT")
    player.page.goto(f"{server}/play?variant=trentuno-40&players=2&bots=1&lang=it")
    player.settled()
    faces = player.page.locator("img.card[src*='pack=italian']")
    assert faces.count() >= 3
    names = [faces.nth(index).get_attribute("aria-label") for index in range(faces.count())]
    named = [name for name in names if name and re.search(r" di (coppe|denari|bastoni|spade)$",
                                                          name)]
    assert len(named) >= 3, names
    # The move buttons, the log and the labels name no French suit.
    labels = player.page.locator("[aria-label]").evaluate_all(
        "(nodes) => nodes.map((node) => node.ariaLabel)")
    text = " ".join([player.page.locator("body").inner_text(), *names, *labels])
    assert not re.search(r" di (cuori|quadri|fiori|picche)\b", text), text
    assert player.errors == []
