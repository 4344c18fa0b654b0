"""How long a player waits at /play: a scripted Scat match against 3 casual (greedy) bots in
Debian's Chromium, at the default bot speed and at the fastest one.

Run: ``.venv/bin/python benchmarks/play_pace.py [matches]`` (1 by default). For each speed it
plays whole matches with random legal moves and prints the median and the 90th percentile of
the time from this seat's discard to its next turn (the computer players' moves shown one by
one in between), and PASS when the fastest speed's median is under 1 s. The app runs in this
process (threaded werkzeug, a SQLite table store in a temporary folder).
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import threading
import time

from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

from thirtyone.web import create_app

CHROMIUM = "/usr/bin/chromium"
TARGET_FAST_S = 1.0
LINK = "/play?variant=scat&players=4&bots=1,2,3&level=greedy"
IDLE = "#table[data-version][aria-busy=false]"
MOVES = "button[data-move]:not(:disabled)"


def play_match(page, base: str, rng: random.Random) -> list[float]:
    """One match: the waits from each discard of this seat to its next turn, in seconds."""
    page.goto(base + LINK)
    waits = []
    for _ in range(2000):
        page.wait_for_selector(IDLE)
        if page.locator("#table").get_attribute("data-over") == "true":
            return waits
        moves = page.locator(MOVES)
        if not moves.count():
            page.wait_for_timeout(20)
            continue
        discards = page.locator(".hand " + MOVES)
        if discards.count():
            before = page.locator("#table").get_attribute("data-version")
            discards.nth(rng.randrange(discards.count())).click()
            start = time.perf_counter()
            page.wait_for_selector(f"#table:not([data-version='{before}'])")
            # This seat's next move: a turn (its draw offered again) is counted, the deal of a
            # next round after a round the discard ended is not.
            page.wait_for_selector(f"{IDLE} {MOVES}, #table[data-over='true']")
            ended = time.perf_counter()
            if page.locator(f"{IDLE} {MOVES}[data-move*='\"draw\"']").count():
                waits.append(ended - start)
            continue
        # Draw (from the stock or the pile) more often than knock, as people do.
        draws = page.locator(f"{MOVES}[data-move*='\"draw\"']")
        chosen = draws if draws.count() and rng.random() < 0.9 else moves
        before = page.locator("#table").get_attribute("data-version")
        chosen.nth(rng.randrange(chosen.count())).click()
        page.wait_for_selector(f"#table:not([data-version='{before}'])")
    raise AssertionError("the match did not end")


def main() -> None:
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"THIRTYONE_SECRET_KEY": "pace", "SITE_DIR": None,
                          "THIRTYONE_STORE": f"sqlite:///{folder}/tables.sqlite3"})
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        results = {}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            for speed in ("normal", "fast"):
                page = browser.new_page()
                page.set_default_timeout(120_000)
                page.goto(base + "/play")
                page.evaluate("speed => localStorage.setItem('thirtyone.settings', "
                              "JSON.stringify({speed}))", speed)
                rng = random.Random(31)
                waits = [wait for _ in range(matches) for wait in play_match(page, base, rng)]
                results[speed] = statistics.median(waits)
                deciles = statistics.quantiles(waits, n=10)
                print(f"{speed:>6}: {len(waits)} turns, from your discard to your next turn "
                      f"median {statistics.median(waits):.2f} s, p90 {deciles[-1]:.2f} s")
                page.close()
            browser.close()
        server.shutdown()
    verdict = "PASS" if results["fast"] < TARGET_FAST_S else "FAIL"
    print(f"{verdict}: the fastest speed's median {results['fast']:.2f} s "
          f"(target under {TARGET_FAST_S:.0f} s)")


if __name__ == "__main__":
    main()
