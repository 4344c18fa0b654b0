"""The play page scores this seat's hand itself: it loads the table's hand table once
(GET /v1/hand-tables/{variant} with the table's options) and scores every hand with the npm
package's HandTable, vendored in /play (vendor/thirtyone), so no hand costs a request."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from tests.conftest import missing

ROOT = Path(__file__).resolve().parents[2]
VENDORED = ROOT / "api" / "thirtyone" / "web" / "play" / "vendor" / "thirtyone"
BUILT = ROOT / "clients" / "ts" / "dist"

# Scat with a table option that changes the hand table's address, so the test also sees the
# options reach it; one life and at most ten turns keep the match short.
START = "scat&players=2&bots=1&lives=1&free_ride=false&max_turns=10"


def test_the_vendored_modules_are_the_packages_build() -> None:
    """vendor/thirtyone holds the package's two runtime modules as `make clients` builds
    them: a change to clients/ts/src that is not copied there fails here."""
    if not (BUILT / "tables.js").is_file():
        missing("clients/ts/dist (make clients)")
    for name in ("tables.js", "cards.js"):
        assert (VENDORED / name).read_bytes() == (BUILT / name).read_bytes(), (
            f"copy clients/ts/dist/{name} to {VENDORED.relative_to(ROOT)}")


def expected(app: Any, rules: dict[str, Any], cards: list[str], language: str) -> str:
    """The value the page should show, from the API's own scoring (outside the browser)."""
    score = app.test_client().post(f"/v1/hands/score?lang={language}",
                                   json={**rules, "hand": cards}).get_json()
    words = {"en": "value", "ru": "очки", "it": "valore"}[language]
    return f"{words}: {score['points']} ({score['category_name']})"


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_hands_value_is_scored_in_the_page_with_no_request(server, app, new_player,
                                                                language):
    player = new_player(seed=3)
    scoring: list[str] = []
    tables: list[str] = []

    def seen(request: Any) -> None:
        path = urlsplit(request.url).path
        if path.startswith("/v1/hand-tables/"):
            tables.append(request.url)
        elif path.startswith("/v1/hands"):
            scoring.append(request.url)

    player.page.on("request", seen)
    player.page.goto(f"{server}/play?variant={START}&lang={language}")
    player.settled()
    worth = player.page.locator(".hand figcaption .worth")
    worth.wait_for()
    # One hand table, for the table's variant with its options.
    assert len(tables) == 1, tables
    address = urlsplit(tables[0])
    assert address.path == "/v1/hand-tables/scat" and "max_turns=10" in address.query
    loaded = len(tables)

    changes = 0
    shown: set[str] = set()
    for _ in range(40):
        player.settled()
        if player.over:
            break
        table = player.page.request.get(
            f"{server}/v1/tables/{player.table_id}").json()
        cards = [card.get_attribute("data-card")
                 for card in player.page.locator(".hand [data-hand-seat] [data-card]").all()]
        if len(cards) == 3 and not player.showing_result():
            hand = " ".join(cards)
            text = expected(app, table["view"]["rules"], cards, language)
            assert worth.inner_text() == f" · {text}", (hand, worth.inner_text())
            if hand not in shown:
                shown.add(hand)
                changes += 1
        if changes >= 3:
            break
        if player.may_move():
            player.move()
    assert changes >= 2, "the hand did not change during the match"
    # Every change of hand was scored in the page: no scoring request, no second table.
    assert scoring == []
    assert len(tables) == loaded
    assert player.errors == []
