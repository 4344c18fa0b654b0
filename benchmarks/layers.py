"""Where one request of each kind spends its work, layer by layer: writes ``benchmarks/PROFILE.md``.

Each request kind (score, batch score, variants, sealed new game, sealed move, table read,
table move without bots, table move with a greedy bot, hint) is sent ``--requests`` times to an
app built as ``thirtyone serve`` builds it (limits on, metrics on, a SQLite table store, the
compute pool inline so that its work is counted here), through Flask's test client, in this
process. cProfile counts every Python call and times it in this process's CPU time (other
processes on the machine weigh on it little; the shares still move by a few points from run
to run); each function's own time goes to the layer of its module (a built-in's to its
caller's layer). The Python calls per request are an exact count; the milliseconds, wall time
unprofiled, are a guide only.

The layers: routing (werkzeug's URL map), schema (marshmallow, webargs, flask-smorest's argument
and response decorators), locale (flask-babel, babel, gettext and the engine's words), limiter
(Flask-Limiter and limits), metrics (prometheus_client and its hooks), CORS (flask-cors), body
deadline (reading the body within its time), idempotency (the tables' idempotency module),
sealing (cryptography, zlib, HMAC), JSON (orjson, json, the JSON provider), store (the table
store, sqlite3, redis), engine (``thirtyone`` outside ``thirtyone.web``), web (the API's own
handlers) and Flask/werkzeug (the request and response machinery).

Usage: ``python benchmarks/layers.py [--requests N] [--output benchmarks/PROFILE.md]``
(``--output -`` prints it).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

LAYERS = ("routing", "schema", "locale", "limiter", "metrics", "CORS", "body deadline",
          "idempotency", "sealing",
          "JSON", "store", "engine", "web", "Flask/werkzeug", "other")

CLIENT = "test client"
"""Werkzeug's test client, which builds each request here: left out of the shares."""

# (layer, a fragment of the file path or of a built-in's name), the first that matches wins.
_RULES: tuple[tuple[str, str], ...] = (
    (CLIENT, "werkzeug/test.py"), (CLIENT, "flask/testing.py"), (CLIENT, "benchmarks/layers"),
    ("routing", "werkzeug/routing"),
    ("schema", "/marshmallow/"), ("schema", "/webargs/"), ("schema", "/flask_smorest/"),
    ("schema", "/apispec/"), ("schema", "thirtyone/web/validation.py"),
    ("locale", "/flask_babel/"), ("locale", "/babel/"), ("locale", "gettext.py"),
    ("locale", "thirtyone/web/i18n.py"), ("locale", "thirtyone/words"),
    ("limiter", "/flask_limiter/"), ("limiter", "/limits/"), ("limiter", "thirtyone/web/limits"),
    ("metrics", "/prometheus_client/"), ("metrics", "thirtyone/web/metrics.py"),
    ("CORS", "/flask_cors/"),
    ("body deadline", "thirtyone/web/connections.py"),
    ("idempotency", "thirtyone/web/tables/idempotency.py"),
    ("sealing", "/cryptography/"), ("sealing", "thirtyone/web/sealing.py"), ("sealing", "zlib"),
    ("sealing", "hmac.py"), ("sealing", "_hashlib"), ("sealing", "base64.py"),
    ("sealing", "binascii"),
    ("JSON", "/orjson"), ("JSON", "orjson."), ("JSON", "/json/"), ("JSON", "_json"),
    ("JSON", "thirtyone/web/jsonio.py"), ("JSON", "json/provider.py"),
    ("store", "thirtyone/web/store/"), ("store", "sqlite3"), ("store", "/redis/"),
    ("web", "thirtyone/web/"),
    ("engine", "thirtyone/"),
    ("Flask/werkzeug", "/flask/"), ("Flask/werkzeug", "/werkzeug/"),
)


# Helpers of every layer: their time goes to their callers' layers, as a built-in's does.
_SHARED = ("/threading.py", "/contextlib.py", "/functools.py")


def layer_of(function: tuple[str, int, str]) -> str | None:
    """The layer of a profiled function (file, line, name); ``None`` for a built-in that
    belongs to no layer by its own name, or a helper of every layer (its time then goes to its
    callers' layers)."""
    path, _, name = function
    where = path.replace(os.sep, "/") if path != "~" else name
    if where.endswith(_SHARED):
        return None
    for layer, fragment in _RULES:
        if fragment in where:
            return layer
    return None if path == "~" else "other"


def shares(stats: pstats.Stats) -> dict[str, float]:
    """The own time of each layer, in seconds; a built-in's goes to its callers' layers, in
    proportion to the time each caller spent in it, and so does a function of a library (a
    werkzeug helper) that only the test client called."""
    table: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]  # pstats' own table
    found: dict[str, float] = defaultdict(float)

    def callers_of(function: Any, depth: int) -> dict[str, float]:
        callers = table[function][4]
        total = sum(entry[2] for entry in callers.values())
        if not callers or total <= 0:
            return {}
        weights: dict[str, float] = defaultdict(float)
        for caller, entry in callers.items():
            for name, weight in owner(caller, depth + 1).items():
                weights[name] += weight * entry[2] / total
        return weights

    def owner(function: Any, depth: int = 0) -> dict[str, float]:
        layer = layer_of(function)
        if depth > 8:
            return {layer or "other": 1.0}
        if layer is None:
            return callers_of(function, depth) or {"other": 1.0}
        if layer == "Flask/werkzeug":
            above = callers_of(function, depth)
            if above and set(above) == {CLIENT}:
                return above
        return {layer: 1.0}

    for function, (_, _, own, _, _) in table.items():
        for name, weight in owner(function).items():
            found[name] += own * weight
    return found


class Requests:
    """The app and one request of each kind, ready to be sent again and again."""

    def __init__(self, folder: str) -> None:
        os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", "")
        os.environ.pop("PROMETHEUS_MULTIPROC_DIR")
        from thirtyone.game import GameState, apply_move, legal_moves
        from thirtyone.web import create_app
        from thirtyone.web.sealing import Sealer

        secret = "profile secret"
        self.app = create_app({
            "THIRTYONE_SECRET_KEY": secret, "SITE_DIR": None,
            "THIRTYONE_STORE": f"sqlite:///{folder}/tables.sqlite3",
            "THIRTYONE_COMPUTE_PROCESSES": 0, "RATELIMIT_ENABLED": True,
            # One address sends everything here: limits out of reach, still counted.
            "THIRTYONE_LIMIT_MOVES": "1000000 per minute",
            "THIRTYONE_LIMIT_TABLES": "1000000 per minute",
            "THIRTYONE_LIMIT_ADVICE": "1000000 per minute",
            "THIRTYONE_ADVICE_CPU": "1000000 per minute",
            "THIRTYONE_OPEN_TABLES": "1000000",
        })
        self.client = self.app.test_client()
        headers = {"Accept-Language": "ru,en;q=0.5"}
        self.headers = headers
        game = self.post("/v1/games", {"variant": "scat", "players": 4, "seed": "profile",
                                       "dealer": 0})
        sealer = Sealer(secret)
        game_id, data = sealer.unseal(game["token"])
        state, rng, played = GameState.from_dict(data), random.Random("profile"), 0
        while played < 80 or state.phase != "draw":
            state, _ = apply_move(state, rng.choice(
                [m for m in legal_moves(state) if m["type"] != "knock"]))
            played += 1
        seat = state.to_move
        self.sealed_move = {
            "token": sealer.seal(game_id, state.to_dict()), "seat": seat,
            "seat_key": game["seat_keys"][seat], "move": {"type": "draw", "source": "stock"}}
        self.hint = {"token": self.sealed_move["token"], "seat": seat,
                     "seat_key": self.sealed_move["seat_key"], "samples": 40, "seed": 1}
        ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
        cards = [rank + suit for suit in "CDHS" for rank in ranks]
        self.batch = {"variant": "scat", "hands": [
            [cards[i % 52], cards[(i + 13) % 52], cards[(i + 27) % 52]] for i in range(1000)]}
        # A table of two people, each with a key, and one with a greedy bot.
        self.humans = self.open_humans()
        self.botted = self.open_botted()

    def open_humans(self) -> dict[str, Any]:
        opened = self.post("/v1/tables", {"variant": "scat", "players": 2})
        invitation = next(s["invitation"] for s in opened["seats"] if s["invitation"])
        claimed = self.post(f"/v1/tables/{opened['table']}/seats/1",
                            {"invitation": invitation, "name": "B"})
        return {"table": opened["table"], "open": self.open_humans, "answer": claimed,
                "keys": {0: next(s["key"] for s in opened["seats"] if s["key"]),
                         1: claimed["key"]}}

    def open_botted(self) -> dict[str, Any]:
        botted = self.post("/v1/tables", {"variant": "scat", "players": 2,
                                          "bots": {"1": "greedy"}})
        return {"table": botted["table"], "open": self.open_botted, "answer": botted,
                "keys": {0: next(s["key"] for s in botted["seats"] if s["key"])}}

    def post(self, path: str, body: Any, headers: dict[str, str] | None = None) -> Any:
        response = self.client.post(path, json=body, headers={**self.headers, **(headers or {})})
        assert response.status_code in (200, 201), (path, response.status_code, response.json)
        return response.json

    def get(self, path: str, headers: dict[str, str] | None = None) -> Any:
        response = self.client.get(path, headers={**self.headers, **(headers or {})})
        assert response.status_code == 200, (path, response.status_code, response.json)
        return response.json

    def next_table_move(self, table: dict[str, Any]) -> Callable[[], Any]:
        """The next move at ``table`` by the seat to act (a person), avoiding knocks, found
        by reading the table as that seat (not profiled); the move itself is what the
        returned function sends."""
        answer = table.pop("answer", None) or self.get(
            f"/v1/tables/{table['table']}", {"Authorization": f"Bearer {table['keys'][0]}"})
        to_move = answer["to_move"]
        if answer["is_over"]:
            # The match is over: the moves go on at a new table.
            table.update(table["open"]())
            return self.next_table_move(table)
        if to_move is not None and to_move not in table["keys"]:
            raise RuntimeError(f"seat {to_move} is nobody's here")
        # Between rounds any seat deals the next one.
        seat = 0 if to_move is None else to_move
        key = table["keys"][seat]
        seen = answer if answer.get("seat") == seat else self.get(
            f"/v1/tables/{table['table']}", {"Authorization": f"Bearer {key}"})
        moves = [m for m in seen["legal_moves"] if m["type"] != "knock"] or seen["legal_moves"]
        move = {k: v for k, v in moves[0].items() if k not in ("description", "seat")}

        def send() -> None:
            table["answer"] = self.post(f"/v1/tables/{table['table']}/moves",
                                        {"version": seen["version"], "move": move},
                                        {"Authorization": f"Bearer {key}"})
        return send

    def kinds(self) -> dict[str, Callable[[], Callable[[], Any]]]:
        """Per kind, a function that prepares one request (unprofiled) and returns the
        function sending it."""
        def score() -> Any:
            return self.post("/v1/hands/score", {"variant": "scat", "hand": ["AS", "KS", "10S"]})

        sends: dict[str, Callable[[], Any]] = {
            "score": score,
            "batch score (1,000 hands)": lambda: self.post("/v1/hands/score-batch", self.batch),
            "variants": lambda: self.get("/v1/variants"),
            "sealed new game": lambda: self.post("/v1/games", {"variant": "scat", "players": 4}),
            "sealed move": lambda: self.post("/v1/games/moves", self.sealed_move),
            "table read": lambda: self.get(
                f"/v1/tables/{self.humans['table']}",
                {"Authorization": f"Bearer {self.humans['keys'][0]}"}),
            "hint (40 worlds)": lambda: self.post("/v1/games/advice", self.hint),
        }
        kinds: dict[str, Callable[[], Callable[[], Any]]] = {
            name: (lambda send=send: send) for name, send in sends.items()}
        kinds["table move, no bots"] = lambda: self.next_table_move(self.humans)
        kinds["table move, greedy bot"] = lambda: self.next_table_move(self.botted)
        return kinds


def profile(requests: int) -> list[tuple[str, float, int, dict[str, float]]]:
    """Per kind: milliseconds per request (unprofiled), Python calls per request, and the
    layers' shares."""
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        made = Requests(folder)
        for name, prepare in made.kinds().items():
            count = requests if "table move" not in name else max(1, requests // 4)
            spent = []
            for _ in range(3):  # warm, then the best of a few unprofiled rounds
                elapsed = 0.0
                for _ in range(max(1, count // 3)):
                    send = prepare()
                    start = time.perf_counter()
                    send()
                    elapsed += time.perf_counter() - start
                spent.append(elapsed / max(1, count // 3))
            profiler = cProfile.Profile(time.process_time_ns, 1e-9)
            for _ in range(count):
                send = prepare()
                profiler.enable()
                send()
                profiler.disable()
            stats = pstats.Stats(profiler)
            table: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]  # pstats' own
            calls = sum(entry[1] for function, entry in table.items()
                        if layer_of(function) != CLIENT)
            found = shares(stats)
            found.pop(CLIENT, None)
            total = sum(found.values()) or 1.0
            rows.append((name, min(spent) * 1000, calls // count,
                         {layer: found.get(layer, 0.0) / total for layer in LAYERS}))
    return rows


def markdown(rows: list[tuple[str, float, int, dict[str, float]]], requests: int) -> str:
    shown = [layer for layer in LAYERS if any(row[3][layer] >= 0.005 for row in rows)]
    lines = [
        "# Where a request's work goes",
        "",
        "Written by `benchmarks/layers.py` (run it again to regenerate this file). One "
        f"request of each kind, {requests} times (table moves a quarter as often), through "
        "Flask's test client on an app built as `thirtyone serve` builds it (limits and "
        "metrics on, SQLite table store, advice inline), `Accept-Language: ru`. The shares "
        "are each layer's part of the CPU time cProfile saw (own time per function, a "
        "built-in's given to its caller's layer); `calls` is the Python calls per request, "
        "a count that load does not change. `ms` is the unprofiled time per request on this "
        "machine, a guide only (it moves with load). Under gunicorn at 16 connections: "
        "`benchmarks/http.sh`. The test client's own work (building each request) is left out.",
        "",
        "| request | ms | calls | " + " | ".join(shown) + " |",
        "|---|---:|---:|" + "---:|" * len(shown),
    ]
    for name, ms, calls, found in rows:
        cells = [f"{found[layer]:.0%}" if found[layer] >= 0.005 else "" for layer in shown]
        lines.append(f"| {name} | {ms:.2f} | {calls:,} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "Layers: " + "; ".join([
            "routing: werkzeug's URL map",
            "schema: marshmallow, webargs, flask-smorest",
            "locale: flask-babel, babel, gettext, the engine's words",
            "limiter: Flask-Limiter, limits",
            "metrics: prometheus_client and the hooks",
            "CORS: flask-cors",
            "body deadline: reading the body within its time",
            "idempotency: the tables' idempotency keys",
            "sealing: cryptography, zlib, HMAC",
            "JSON: orjson, json",
            "store: the table store, sqlite3",
            "engine: `thirtyone` outside `thirtyone.web`",
            "web: the API's own handlers",
            "Flask/werkzeug: requests and responses"]) + ".",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--output", default=str(Path(__file__).with_name("PROFILE.md")))
    parser.add_argument("--json", action="store_true", help="print the rows as JSON too")
    args = parser.parse_args(argv)
    rows = profile(args.requests)
    text = markdown(rows, args.requests)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        Path(args.output).write_text(text, encoding="utf-8")
        sys.stdout.write(text)
    if args.json:
        print(json.dumps(rows))


if __name__ == "__main__":
    main()
