"""axe-core (npm, pinned in tests/play/axe/package-lock.json, installed by `make axe`) finds
no serious or critical violation on the lobby (with a public table listed and without), a
table's waiting room, an invitation's form, a live table, a showdown and the match's end
(its rematch and record controls), a clocked table at desktop size too, in each language and
in the light and the dark theme. The test puts axe into the page itself
(the app never serves it)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from tests.play.conftest import DESKTOP, PHONE

AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
AXE_VERSION = json.loads((AXE.parents[2] / "package.json").read_text())["devDependencies"][
    "axe-core"]
SERIOUS = {"serious", "critical"}


def axe_source() -> str:
    if not AXE.is_file():
        message = f"{AXE} is missing: run `make axe` (npm ci in tests/play/axe)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return AXE.read_text(encoding="utf-8")


def violations(player, source: str) -> list[dict[str, object]]:
    """The serious and critical violations axe-core finds in the page as it is now. The
    page's policy lets no inline script in, so axe comes through the test's own channel
    (Playwright's evaluate, which a policy does not govern)."""
    if player.page.locator("#table").count():
        player.settled()
    player.page.evaluate(source)
    result = player.page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    # axe did look: the pinned version, and rules the page passed.
    assert result["testEngine"]["version"] == AXE_VERSION
    assert len(result["passes"]) > 10
    return [
        {"id": rule["id"], "impact": rule["impact"], "help": rule["help"],
         "nodes": [node["target"] for node in rule["nodes"]][:5]}
        for rule in result["violations"] if rule["impact"] in SERIOUS
    ]


@pytest.mark.slow
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("language", "locale"), [("en", "en-GB"), ("ru", "ru-RU"),
                                                  ("it", "it-IT")])
def test_no_serious_violation_in_any_state(server, new_player, artifacts, language, locale,
                                           scheme):
    source = axe_source()
    # The dark felt follows the system's dark scheme.
    player = new_player(seed=31, locale=locale, color_scheme=scheme)
    found: dict[str, list[dict[str, object]]] = {}

    player.page.goto(f"{server}/play")
    player.page.wait_for_selector("form.lobby")
    found["lobby"] = violations(player, source)

    # A public table with a friend's seat: its waiting room, the invitation's form, and the
    # lobby listing it.
    player.page.fill("#name", "Ana")
    player.page.select_option("[data-seat-choice='1']", "friend")
    player.page.check("#public")
    player.page.locator("form.lobby button[type=submit]").click()
    player.page.wait_for_selector("#table[data-phase='waiting']")
    found["waiting room"] = violations(player, source)
    player.page.screenshot(path=str(artifacts / f"play-axe-waiting-{language}-{scheme}.png"),
                           full_page=True)
    invite = player.page.locator("[data-invite]").first.get_attribute("data-invite")
    player.page.goto(f"{server}/play")
    player.page.wait_for_selector("[data-public-table]")
    found["lobby with tables"] = violations(player, source)
    player.page.screenshot(path=str(artifacts / f"play-axe-lobby-{language}-{scheme}.png"),
                           full_page=True)
    player.page.goto(invite)
    player.page.wait_for_selector("form.claim")
    found["invitation"] = violations(player, source)

    # A table with a clock: its countdown is drawn on the felt beside the moves.
    player.page.goto(f"{server}/play?variant=scat&players=4&bots=1,2,3&lives=2"
                     "&free_ride=false&max_turns=10&turn_seconds=3600")
    # The seat's own clock shows while it is to move: a round the bots end before its first
    # turn (a dealt 31, a knock) leaves it to deal the next one first.
    for _ in range(10):
        player.settled()
        if player.page.locator(".own [data-clock]").count():
            break
        if player.may_move():
            player.move()
        else:
            player.wait_for_version(player.version + 1)
    player.page.wait_for_selector(".own [data-clock]")
    found["table"] = violations(player, source)
    player.page.set_viewport_size(DESKTOP)
    found["table on a desktop"] = violations(player, source)
    player.page.set_viewport_size(PHONE)
    player.page.screenshot(path=str(artifacts / f"play-axe-table-{language}-{scheme}.png"),
                           full_page=True)

    # Play on to the first settled round (the showdown's panel), then to the match's end.
    for _ in range(300):
        player.settled()
        if player.over or (player.showing_result() and "showdown" not in found):
            break
        player.move()
    if not player.over:
        found["showdown"] = violations(player, source)
        player.page.screenshot(path=str(artifacts / f"play-axe-showdown-{language}-{scheme}.png"),
                               full_page=True)
    player.play_alone()
    found["match end"] = violations(player, source)
    player.page.screenshot(path=str(artifacts / f"play-axe-end-{language}-{scheme}.png"),
                           full_page=True)
    (artifacts / f"play-axe-{language}-{scheme}.json").write_text(json.dumps(found, indent=1))
    assert {state: rules for state, rules in found.items() if rules} == {}
    assert "showdown" in found
    assert player.errors == []
