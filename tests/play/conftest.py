"""Fixtures of the browser tests: a live server with a SQLite table store, and players.

A :class:`Player` drives one browser page the way a person would: it reads the table's
``data-*`` attributes and clicks the ``[data-move]`` controls the page offers (choosing cards
first when the move is an exchange). Each page records its console errors and uncaught
exceptions; a test ends by asserting there were none.

Playwright's string evaluation (``wait_for_function``) is refused by the page's
Content-Security-Policy, as an attacker's would be, so the players wait on selectors only.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from tests.conftest import calibrated

from thirtyone.web import create_app

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
# Long enough for the page to show the rest of a match the computer players play alone (60 s
# on an idle machine, longer on a busy one).
TIMEOUT_MS = int(calibrated(60) * 1000)


def boxes(page: Any, selector: str) -> list[dict[str, Any]]:
    """Where each element of ``selector`` is on the screen (``x``, ``y``, ``width``,
    ``height``, with its ``text``), found and measured in one task of the page: the page redraws
    its table (a presence, a clock) between two of Playwright's steps, so an element found in
    one step may be gone in the next, and measure as nothing."""
    found: list[dict[str, Any]] = page.evaluate("""selector => [...document.querySelectorAll(
        selector)].map((element) => {
          const box = element.getBoundingClientRect();
          return { x: box.x, y: box.y, width: box.width, height: box.height,
                   text: element.textContent };
        })""", selector)
    return found
CARD = re.compile(r'data-card="([^"]+)"')


# The policy the security layer sends with /play: the tests hold the page to it, so a script
# or style the page would inline shows up as a console error.
PLAY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)


@pytest.fixture
def app(tmp_path: Path) -> Any:
    """The whole app (API, tables, /play), its tables in a fresh SQLite file."""
    app = create_app({
        "TESTING": True,
        "THIRTYONE_SECRET_KEY": "play tests",
        "SITE_DIR": None,
        "THIRTYONE_STORE": f"sqlite:///{tmp_path / 'tables.sqlite3'}",
    })

    @app.after_request
    def confine(response: Any) -> Any:
        response.headers.setdefault("Content-Security-Policy", PLAY_POLICY)
        return response

    return app


@pytest.fixture
def server(live_server: Callable[[Any], str], app: Any) -> str:
    """The app on a free port: its base URL."""
    return live_server(app)


@pytest.fixture
def hidden_cards(app: Any) -> Callable[[str, int], set[str]]:
    """``hidden_cards(table, seat)``: the cards that ``seat`` may not see now, read from the
    store behind the API: the other seats' hands, face-down table cards, the stock and the
    cards out of play."""

    def hidden(table: str, seat: int) -> set[str]:
        state = app.extensions["thirtyone.tables"].load(table).state()
        hands = [card for other, hand in enumerate(state["hands"]) if other != seat
                 for card in hand]
        face_down = [card for card, up in zip(state["table"], state["table_face_up"], strict=True)
                     if not up]
        return {*hands, *face_down, *state["stock"], *state["out"]}

    return hidden


class Player:
    """One person at a table, in their own browser page."""

    def __init__(self, page: Any, seed: int) -> None:
        self.page = page
        self.random = random.Random(seed)
        self.errors: list[str] = []
        page.set_default_timeout(TIMEOUT_MS)
        page.on("console", lambda message: self.errors.append(message.text)
                if message.type == "error" else None)
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    @property
    def table(self) -> Any:
        return self.page.locator("#table")

    def attribute(self, name: str) -> str:
        return self.table.get_attribute(f"data-{name}") or ""

    @property
    def seat(self) -> int:
        return int(self.attribute("seat"))

    @property
    def version(self) -> int:
        return int(self.attribute("version"))

    @property
    def over(self) -> bool:
        return self.attribute("over") == "true"

    def settled(self) -> None:
        """Wait until the table is drawn and no move of this page is on its way."""
        self.page.wait_for_selector("#table[data-version][aria-busy=false]")

    def wait_for_version(self, version: int) -> None:
        """Wait until this page shows ``version`` or a later one (pushed by the stream)."""
        for _ in range(TIMEOUT_MS // 20):
            self.settled()
            if self.version >= version:
                return
            self.page.wait_for_timeout(20)
        raise AssertionError(f"the page stayed at version {self.version}, not {version}")

    def may_move(self) -> bool:
        """This seat is to move, or a round is over and this seat may deal the next one."""
        self.settled()
        return not self.over and self.page.locator("button[data-move]:not(:disabled)").count() > 0

    def move(self) -> None:
        """Make one legal move, chosen at random among the page's controls, and wait for it."""
        self.settled()
        before = self.version
        if not self._exchange():
            controls = self.page.locator("button[data-move]:not(:disabled)")
            controls.nth(self.random.randrange(controls.count())).click()
        self.page.wait_for_selector(f"#table:not([data-version='{before}'])[aria-busy=false]")

    def _exchange(self) -> bool:
        """Half the time, when exchanges are offered: choose cards, then press Exchange."""
        gives = self.page.locator("button[data-select^='give:']")
        takes = self.page.locator("button[data-select^='take:']")
        if not (gives.count() and takes.count()) or self.random.random() < 0.5:
            return False
        gives.nth(self.random.randrange(gives.count())).click()
        takes.nth(self.random.randrange(takes.count())).click()
        exchange = self.page.locator("button[data-move*='\"exchange\"']")
        # Some games exchange all three cards or none: a single pair may make no legal move.
        if exchange.count() == 0:
            self.page.locator("button[data-select='clear:']").click()
            return False
        exchange.last.click()
        return True

    def play_alone(self, *, max_moves: int = 400, check: Callable[[], None] | None = None) -> int:
        """Play against bots to the end of the match; the number of moves made."""
        for moves in range(max_moves):
            self.settled()
            if self.over:
                return moves
            if check:
                check()
            self.move()
        raise AssertionError(f"the match did not end in {max_moves} moves")

    def cards_shown(self) -> list[str]:
        """Every card face on the table now (a back has no code). The log and the rounds'
        history may name a card everyone saw once (taken from the discard pile, shown at a
        showdown) that lies hidden now."""
        board = self.page.locator("#table .board")
        return CARD.findall(board.inner_html()) if board.count() else []

    @property
    def table_id(self) -> str:
        fragment = dict(part.split("=", 1) for part in urlsplit(self.page.url).fragment.split("&"))
        return fragment["table"]

    def own_hand(self) -> set[str]:
        hand = self.page.locator(".hand [data-card]")
        return {code for code in (hand.nth(i).get_attribute("data-card")
                                  for i in range(hand.count())) if code}

    def showing_result(self) -> bool:
        return self.page.locator(".result").count() > 0

    def assert_nothing_hidden_shown(self, hidden: set[str]) -> None:
        """Before a showdown, no card of ``hidden`` is in the page, and every other seat's
        cards are backs."""
        if self.showing_result():
            return
        shown = self.cards_shown()
        assert hidden.isdisjoint(shown), f"hidden cards in the page: {hidden & set(shown)}"
        backs = self.page.locator(".seats [data-card]")
        faces = [backs.nth(i).get_attribute("data-card") for i in range(backs.count())]
        assert not any(faces), f"another seat's card is in the page: {faces}"

    def screenshots(self, folder: Path, name: str) -> None:
        """The page as it is, at phone and desktop size."""
        for size, label in ((PHONE, "390x844"), (DESKTOP, "1280x800")):
            self.page.set_viewport_size(size)
            self.settled()
            self.page.screenshot(path=str(folder / f"play-{name}-{label}.png"), full_page=True)
        self.page.set_viewport_size(PHONE)


@pytest.fixture
def new_player(chromium: Any) -> Iterator[Callable[..., Player]]:
    """``new_player(seed, locale=...)``: a player in a browser context of their own (their
    own storage, as on another device)."""
    contexts = []

    def make(seed: int = 0, *, locale: str = "en-GB", viewport: dict[str, int] = PHONE,
             reduced_motion: str = "no-preference", color_scheme: str = "light") -> Player:
        context = chromium.new_context(locale=locale, viewport=viewport,
                                       reduced_motion=reduced_motion, color_scheme=color_scheme)
        contexts.append(context)
        return Player(context.new_page(), seed)

    yield make
    for context in contexts:
        context.close()
