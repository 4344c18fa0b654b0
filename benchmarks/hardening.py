"""What hostile or unusual requests cost the API, in-process, against ordinary ones.

Run: ``.venv/bin/python benchmarks/hardening.py`` (or ``make bench``). Every figure is CPU time
of this process (other work on the machine's shared cores does not count), each the best of
several repeats, and every target a ratio to a baseline measured in the same run, except the
per-request ceiling and the memory ceiling.

Targets (issue 11):
- each hostile input the issue lists is answered with a 4xx problem in at most 50 ms of CPU;
- a sealed move on a state 80 moves into the match costs at most 1.2x a move on a fresh one;
- rotating 24 rule sets through ``/v1/hands/score`` keeps at least 50% of the throughput of
  one rule set, and the process stays under 120 MB resident.

Exit status 1 when a target fails.
"""

from __future__ import annotations

import json
import random
import resource
import sys
import time
from collections.abc import Callable

from thirtyone.game import GameState, apply_move, legal_moves, new_game
from thirtyone.web import create_app

HOSTILE_CPU_MS = 50.0
SEALED_RATIO_TARGET = 1.2
ROTATION_TARGET = 0.5
RSS_TARGET_MB = 120.0
REPEATS = 5

APP = create_app({"THIRTYONE_SECRET_KEY": "benchmark secret", "SITE_DIR": None})
CLIENT = APP.test_client()


def cpu_per_call(run: Callable[[], object], calls: int, repeats: int = REPEATS) -> float:
    """Seconds of CPU per call, the best of ``repeats`` batches of ``calls``."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        for _ in range(calls):
            run()
        best = min(best, (time.process_time() - start) / calls)
    return best


def post(path: str, body: bytes) -> tuple[int, str]:
    response = CLIENT.post(path, data=body, content_type="application/json")
    code = response.json.get("code", "") if response.is_json else ""
    return response.status_code, code


def _settled(variant: str, players: int = 3) -> dict:
    state = new_game(variant, players, seed="hostile", dealer=0)
    while state.phase != "round_over":
        state, _ = apply_move(state, legal_moves(state)[0])
    return state.to_dict()


def hostile_inputs() -> list[tuple[str, str, bytes]]:
    """(name, endpoint, body) of each input the issue found."""
    scat, schnautz = _settled("scat"), _settled("schnautz")
    switch = new_game("switch", 3, seed="hostile", dealer=0).to_dict()
    switch["table_face_up"] = [True] * len(switch["table"])

    def state(data: dict, **changes: object) -> bytes:
        return json.dumps({"state": {**data, **changes}, "move": {"type": "next_round"}}).encode()

    deep = "[" * 200 + "]" * 200
    wide = ",".join([deep] * 1300)
    history = json.dumps({"state": {**scat, "history": "H"}, "move": {"type": "knock"}})
    cases = [
        ("lone surrogate, key", "/v1/games", b'{"\\ud800": 1}'),
        ("lone surrogate, seed", "/v1/games", b'{"players": 3, "seed": "\\udfff"}'),
        ("lone surrogate, option", "/v1/hands/score",
         b'{"hand": ["AS", "KS", "QS"], "options": {"\\ud800": 1}}'),
        ("lone surrogate, seat key", "/v1/games/moves",
         b'{"token": "t", "seat": 0, "seat_key": "\\ud800", "move": {"type": "knock"}}'),
        ("result {carry: 5}", "/v1/games/moves", state(schnautz, result={"carry": 5})),
        ("result {hands: 5}", "/v1/games/moves", state(scat, result={"hands": 5})),
        ("history nested 900 levels", "/v1/games/moves",
         history.replace('"H"', "[" * 900 + "]" * 900).encode()),
        ("history nested 200 levels, 1 MB", "/v1/games/moves",
         history.replace('"H"', f'[{{"seat": 0, "type": [{wide}]}}]').encode()),
        ("game over, every life left", "/v1/games/moves",
         state(scat, phase="game_over", winners=[0], result={**scat["result"], "winners": [0]})),
        ("points 1e9", "/v1/games/moves",
         state(scat, seats=[{**scat["seats"][0], "points": 10**9}, *scat["seats"][1:]])),
        ("chips in a game of lives", "/v1/games/moves",
         state(scat, pot=2, seats=[{**scat["seats"][0], "chips": -2}, *scat["seats"][1:]])),
        ("round 10^4000", "/v1/games/moves", state(scat, round=10**4000)),
        ("seed of 900 KB", "/v1/games/moves", state(scat, seed="s" * 900_000)),
        ("switch, table face up before the keep", "/v1/games/view",
         json.dumps({"state": switch}).encode()),
    ]
    return cases


def hostile() -> list[tuple[str, int, str, float]]:
    rows = []
    for name, path, body in hostile_inputs():
        status, code = post(path, body)
        seconds = cpu_per_call(lambda path=path, body=body: post(path, body), 3, 3)
        rows.append((name, status, code, seconds * 1000))
    return rows


def sealed_move_ratio() -> tuple[float, float, int]:
    """CPU per sealed move on a fresh 4-seat scat and on the same match 80 moves on."""
    game = CLIENT.post("/v1/games", json={"variant": "scat", "players": 4, "seed": "bench",
                                          "dealer": 0}).json
    sealer = APP.extensions["thirtyone.sealer"]
    game_id, data = sealer.unseal(game["token"])
    state = GameState.from_dict(data)
    rng = random.Random("sealed")
    played = 0
    while played < 80 or state.phase != "draw":
        moves = [move for move in legal_moves(state) if move["type"] != "knock"]
        state, _ = apply_move(state, rng.choice(moves))
        played += 1
    draw = {"type": "draw", "source": "stock"}

    def request(token: str, seat: int) -> dict:
        return {"token": token, "seat": seat, "seat_key": game["seat_keys"][seat], "move": draw}

    fresh = request(game["token"], game["to_move"])
    later = request(sealer.seal(game_id, state.to_dict()), state.to_move)
    for body in (fresh, later):
        assert CLIENT.post("/v1/games/moves", json=body).status_code == 200
    fresh_s = cpu_per_call(lambda: CLIENT.post("/v1/games/moves", json=fresh), 200)
    later_s = cpu_per_call(lambda: CLIENT.post("/v1/games/moves", json=later), 200)
    return fresh_s * 1e6, later_s * 1e6, played


def rotation() -> tuple[float, float]:
    """CPU per /v1/hands/score call under one rule set, and rotating 24 (jokers with
    three_aces from 8 to 31: 24 scoring tables, three times as many as are kept)."""
    bodies = [json.dumps({"variant": "jokers", "hand": ["AS", "KS", "X1"],
                          "options": {"three_aces": points}}).encode()
              for points in range(8, 32)]
    one = bodies[0]
    turn = iter(range(10**9))

    def rotating() -> None:
        post("/v1/hands/score", bodies[next(turn) % len(bodies)])

    assert post("/v1/hands/score", one)[0] == 200
    one_s = cpu_per_call(lambda: post("/v1/hands/score", one), 240)
    rotating_s = cpu_per_call(rotating, 240)
    return one_s * 1e6, rotating_s * 1e6


def main() -> int:
    rows = hostile()
    fresh_us, later_us, played = sealed_move_ratio()
    one_us, rotating_us = rotation()
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"Python {sys.version.split()[0]}, in-process Flask test client, CPU time, best of "
          f"{REPEATS}")
    print(f"{'hostile input':<42}{'status':>7}  {'code':<22}{'CPU ms':>8}")
    for name, status, code, ms in rows:
        print(f"{name:<42}{status:>7}  {code:<22}{ms:8.2f}")
    print()
    print(f"sealed move, fresh state:            {fresh_us:8.0f} us")
    print(f"sealed move, {played} moves into the match: {later_us:8.0f} us")
    print(f"/v1/hands/score, one rule set:       {one_us:8.0f} us  ({1e6 / one_us:,.0f}/s)")
    print(f"/v1/hands/score, 24 rule sets:       {rotating_us:8.0f} us  "
          f"({1e6 / rotating_us:,.0f}/s)")
    print(f"peak resident memory of this process: {rss_mb:.1f} MB")
    worst = max(rows, key=lambda row: row[3])
    checks = [
        (f"every hostile input a 4xx problem in <= {HOSTILE_CPU_MS:g} ms CPU",
         all(400 <= status < 500 and code for _, status, code, _ in rows)
         and worst[3] <= HOSTILE_CPU_MS, f"slowest {worst[0]}: {worst[3]:.2f} ms"),
        (f"sealed move {played} moves in <= {SEALED_RATIO_TARGET:g}x a fresh one",
         later_us <= SEALED_RATIO_TARGET * fresh_us, f"{later_us / fresh_us:.2f}x"),
        (f"24 rule sets >= {ROTATION_TARGET:.0%} of one rule set's throughput",
         one_us / rotating_us >= ROTATION_TARGET, f"{one_us / rotating_us:.0%}"),
        (f"resident memory <= {RSS_TARGET_MB:g} MB", rss_mb <= RSS_TARGET_MB, f"{rss_mb:.1f} MB"),
    ]
    print()
    for name, ok, figure in checks:
        print(f"{'PASS' if ok else 'FAIL'}  {name}: {figure}")
    return 0 if all(ok for _, ok, _ in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
