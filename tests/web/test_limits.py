"""Rate limits and quotas per client address (Flask-Limiter, in memory here; the hostile
suite runs them on real servers with Redis)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from typing import Any

import redis

from thirtyone.web import create_app
from thirtyone.web.limits import LIMITED, storage_uri

from .test_problems import assert_problem

TABLE = {"variant": "scat", "players": 2, "bots": {"1": "greedy"}}


def limited_app(tmp_path, **config: Any):
    return create_app({
        "TESTING": True, "THIRTYONE_SECRET_KEY": "limits", "SITE_DIR": None,
        "THIRTYONE_STORE": f"sqlite:///{tmp_path}/t.sqlite3", "RATELIMIT_ENABLED": True,
        **config,
    })


def test_each_limit_answers_429_with_retry_after_and_ratelimit_headers(tmp_path):
    app = limited_app(tmp_path, THIRTYONE_LIMIT_TABLES="2 per minute",
                      THIRTYONE_LIMIT_STREAMS="1 per minute", THIRTYONE_LIMIT_MOVES="1/minute",
                      THIRTYONE_LIMIT_ADVICE="1 per hour")
    client = app.test_client()
    first = client.post("/v1/tables", json=TABLE)
    assert first.status_code == 201
    assert (first.headers["RateLimit-Limit"], first.headers["RateLimit-Remaining"]) == ("2", "1")
    assert 0 < int(first.headers["RateLimit-Reset"]) <= 61
    assert client.post("/v1/tables", json=TABLE).status_code == 201
    refused = client.post("/v1/tables?lang=ru", json=TABLE)
    assert_problem(refused, 429, "rate_limited")
    assert refused.headers["RateLimit-Remaining"] == "0"
    assert 0 < int(refused.headers["Retry-After"]) <= 61
    assert refused.json["detail"] != "Too many requests of this kind from your address: try " \
        "again after the seconds that Retry-After gives."
    table = first.json["table"]
    key = first.json["seats"][0]["key"]
    assert client.get(f"/v1/tables/{table}/updates?wait=0").status_code == 200
    assert_problem(client.get(f"/v1/tables/{table}/updates?wait=0"), 429, "rate_limited")
    mine = client.get(f"/v1/tables/{table}", headers={"Authorization": f"Bearer {key}"}).json
    move = {"version": mine["version"], "move": mine["legal_moves"][0]}
    headers = {"Authorization": f"Bearer {key}"}
    assert client.post(f"/v1/tables/{table}/moves", json=move, headers=headers).status_code == 200
    assert_problem(client.post(f"/v1/tables/{table}/moves", json=move, headers=headers),
                   429, "rate_limited")
    # Reads and the other operations are not limited, and carry no headers.
    healthz = client.get("/healthz")
    assert healthz.status_code == 200 and "RateLimit-Limit" not in healthz.headers
    assert client.get(f"/v1/tables/{table}").status_code == 200


def test_open_tables_per_client_are_capped_and_each_address_counts_alone(tmp_path):
    app = limited_app(tmp_path, THIRTYONE_OPEN_TABLES="2")
    client = app.test_client()
    assert [client.post("/v1/tables", json=TABLE).status_code for _ in range(3)] == [
        201, 201, 429]
    other = client.post("/v1/tables", json=TABLE, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 201
    # X-Forwarded-For is not trusted without THIRTYONE_TRUSTED_PROXIES.
    spoofed = client.post("/v1/tables", json=TABLE, headers={"X-Forwarded-For": "10.1.1.1"})
    assert spoofed.status_code == 429


def test_behind_trusted_proxies_the_forwarded_address_is_the_client(tmp_path):
    app = limited_app(tmp_path, THIRTYONE_OPEN_TABLES="1", THIRTYONE_TRUSTED_PROXIES="1")
    client = app.test_client()

    def open_from(address: str) -> int:
        return client.post("/v1/tables", json=TABLE,
                           headers={"X-Forwarded-For": address}).status_code

    assert [open_from("10.1.1.1"), open_from("10.1.1.1"), open_from("10.2.2.2")] == [
        201, 429, 201]


def test_the_counts_live_in_the_table_stores_redis_when_there_is_one():
    assert storage_uri("redis://127.0.0.1:6390/0") == "thirtyone+redis://127.0.0.1:6390/0"
    assert storage_uri("sqlite:///x.sqlite3") == "memory://"


def _limiter_round_trips(monkeypatch, address: str,
                         action: Callable[[], None]) -> list[list[str]]:
    """What this process sent Redis about the limiter's counts of ``address`` while
    ``action`` ran: the commands of each write (a round trip: a pipeline's commands go out
    in one write, its answers come back together)."""
    sent: list[list[str]] = []
    send = redis.connection.AbstractConnection.send_packed_command

    def recorded(connection: Any, command: Any, check_health: bool = True) -> None:
        packed = b"".join(command) if isinstance(command, list | tuple) else command
        if b"LIMITS:" in packed and f"/{address}/".encode() in packed:
            sent.append([name.decode().upper() for name in
                         re.findall(rb"\*\d+\r\n\$\d+\r\n([A-Za-z]+)\r\n", packed)])
        send(connection, command, check_health)

    with monkeypatch.context() as patched:
        patched.setattr(redis.connection.AbstractConnection, "send_packed_command", recorded)
        action()
    return sent


def test_a_limited_request_costs_one_redis_round_trip_per_limit(tmp_path, redis_url,
                                                                 monkeypatch):
    """On Redis, a limit's hit answers the window it counted in, so the RateLimit headers
    cost nothing more: a move, a read and a refusal send the limiter one round trip each (its
    count, the window's start and its time to live, pipelined), the opening of a table (two
    limits) two. It was three per limit: the hit, then a GET and a TTL for the headers."""
    app = limited_app(tmp_path, THIRTYONE_STORE=redis_url, THIRTYONE_LIMIT_MOVES="2/minute",
                      THIRTYONE_LIMIT_TABLES="5/minute", THIRTYONE_LIMIT_READS="50/minute")
    client = app.test_client()
    address = client.environ_base["REMOTE_ADDR"] = f"198.51.100.{uuid.uuid4().int % 250 + 1}"
    created = client.post("/v1/tables", json=TABLE)
    table, key = created.json["table"], created.json["seats"][0]["key"]
    headers = {"Authorization": f"Bearer {key}"}
    answers = {}

    def play() -> None:
        answers["read"] = mine = client.get(f"/v1/tables/{table}", headers=headers)
        move = {"version": mine.json["version"], "move": mine.json["legal_moves"][0]}
        answers["move"] = moved = client.post(f"/v1/tables/{table}/moves", json=move,
                                              headers=headers)
        move = {"version": moved.json["version"], "move": moved.json["legal_moves"][0]}
        answers["second"] = client.post(f"/v1/tables/{table}/moves", json=move,
                                        headers=headers)
        answers["refused"] = client.post(f"/v1/tables/{table}/moves", json=move,
                                         headers=headers)
        answers["opened"] = client.post("/v1/tables", json=TABLE)

    assert _limiter_round_trips(monkeypatch, address, play) == [
        ["INCRBY", "EXPIRE", "TTL"]] * 6
    assert [answers[name].status_code for name in answers] == [200, 200, 200, 429, 201]
    limits = {name: (answer.headers["RateLimit-Limit"], answer.headers["RateLimit-Remaining"])
              for name, answer in answers.items()}
    assert limits == {"read": ("50", "49"), "move": ("2", "1"), "second": ("2", "0"),
                      "refused": ("2", "0"), "opened": ("5", "3")}
    for answer in answers.values():
        assert 0 < int(answer.headers["RateLimit-Reset"]) <= 61
    assert 0 < int(answers["refused"].headers["Retry-After"]) <= 61
    # Each count expires with its window.
    counts = [name for name in redis.Redis.from_url(redis_url).scan_iter("LIMITS:*")
              if f"/{address}/".encode() in name]
    assert counts and all(redis.Redis.from_url(redis_url).ttl(name) > 0 for name in counts)


def test_with_redis_down_the_limits_count_on_in_memory(tmp_path):
    client = limited_app(tmp_path, THIRTYONE_STORE="redis://127.0.0.1:1/0",  # nothing there
                         THIRTYONE_LIMIT_READS="2 per minute").test_client()
    answers = [client.get("/v1/tables/abc") for _ in range(3)]
    assert [answer.status_code for answer in answers] == [503, 503, 429]
    assert [answer.headers["RateLimit-Remaining"] for answer in answers] == ["1", "0", "0"]


def test_the_contract_lists_the_429_of_every_limited_operation_and_only_those(tmp_path):
    app = limited_app(tmp_path)
    spec = app.extensions["thirtyone.api"].spec.to_dict()
    limited = {operation for listed in LIMITED.values() for operation in listed}
    # One path may have two endpoints (GET /v1/tables lists, POST opens): by path and method.
    endpoints = {(re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule), method): rule.endpoint
                 for rule in app.url_map.iter_rules() for method in rule.methods or ()}
    seen = set()
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method in ("get", "post"):
                named = (endpoints[path, method.upper()], method.upper())
                assert ("429" in operation["responses"]) == (named in limited), named
                seen.add(named)
                if "requestBody" in operation:
                    assert "408" in operation["responses"], named
    assert limited <= seen
    headers = spec["paths"]["/v1/tables/{table}/moves"]["post"]["responses"]["429"]["headers"]
    assert {"Retry-After", "RateLimit-Remaining"} <= set(headers)


def test_only_the_limited_operations_run_the_limiter(tmp_path, monkeypatch):
    from flask_limiter import Limiter

    checked: list[str | None] = []
    check = Limiter._check_request_limit

    def counted(self: Limiter, *args: Any, **kwargs: Any) -> None:
        from flask import request

        checked.append(request.endpoint)
        check(self, *args, **kwargs)

    monkeypatch.setattr(Limiter, "_check_request_limit", counted)
    client = limited_app(tmp_path).test_client()
    assert client.post("/v1/hands/score", json={"hand": ["AS", "KS", "QS"]}).status_code == 200
    assert client.get("/v1/variants").status_code == 200
    assert checked == []
    opened = client.post("/v1/tables", json=TABLE)
    assert opened.status_code == 201 and "RateLimit-Limit" in opened.headers
    assert checked == ["tables.Tables"]


def test_hints_stop_once_the_client_spent_its_cpu_budget(tmp_path, monkeypatch):
    from thirtyone.web import limits

    # Every hint is charged 0.6 s of CPU here, against a budget of 1 s per hour.
    monkeypatch.setattr(limits, "timed", lambda function, *args: (function(*args), 0.6))
    app = limited_app(tmp_path, THIRTYONE_ADVICE_CPU="1 per hour")
    client = app.test_client()
    game = client.post("/v1/games", json={"variant": "scat", "players": 2, "seed": 3,
                                          "dealer": 0, "sealed": False}).json
    hint = {"state": game["state"], "seat": game["to_move"], "samples": 5}
    assert client.post("/v1/games/advice", json=hint).status_code == 200
    assert client.post("/v1/games/advice", json=hint).status_code == 200
    refused = client.post("/v1/games/advice?lang=it", json=hint)
    assert_problem(refused, 429, "rate_limited")
    assert 0 < int(refused.headers["Retry-After"]) <= 3601
    # Another client has its own budget.
    other = client.post("/v1/games/advice", json=hint,
                        environ_base={"REMOTE_ADDR": "192.0.2.9"})
    assert other.status_code == 200


def test_every_table_command_and_read_is_limited(tmp_path):
    app = limited_app(tmp_path, THIRTYONE_LIMIT_KEYS="2 per minute",
                      THIRTYONE_LIMIT_SEATS="1 per minute", THIRTYONE_LIMIT_READS="3 per minute")
    client = app.test_client()
    created = client.post("/v1/tables", json={"variant": "scat", "players": 3})
    invitations = {seat["seat"]: seat["invitation"] for seat in created.json["seats"]}
    table, key = created.json["table"], created.json["seats"][0]["key"]
    headers = {"Authorization": f"Bearer {key}"}
    rotations = []
    for _ in range(4):
        rotated = client.post(f"/v1/tables/{table}/seats/0/key", headers=headers)
        rotations.append(rotated.status_code)
        if rotated.status_code == 201:
            headers = {"Authorization": f"Bearer {rotated.json['key']}"}
    assert rotations == [201, 201, 429, 429]
    assert client.post(f"/v1/tables/{table}/seats/1", json={
        "name": "Bo", "invitation": invitations[1]}).status_code == 201
    assert_problem(client.post(f"/v1/tables/{table}/seats/2", json={
        "name": "Cy", "invitation": invitations[2]}), 429, "rate_limited")
    # Taking a seat back is a seat command: the same limit.
    returns = [client.post(f"/v1/tables/{table}/seats/0/return", headers=headers)
               for _ in range(2)]
    assert_problem(returns[-1], 429, "rate_limited")
    for path in (f"/v1/tables/{table}", "/v1/tables"):
        assert [client.get(path).status_code for _ in range(3)] == [200, 200, 200]
        assert_problem(client.get(path), 429, "rate_limited")


def test_a_limiter_that_fails_after_a_move_leaves_its_answer_standing(tmp_path, monkeypatch):
    """The counts' storage failing once the move was applied: the move's answer (200, the new
    version), never a 500 that would say nothing changed."""
    from thirtyone.web import limits

    app = limited_app(tmp_path)
    client = app.test_client()
    created = client.post("/v1/tables", json=TABLE)
    table, key = created.json["table"], created.json["seats"][0]["key"]
    headers = {"Authorization": f"Bearer {key}"}
    mine = client.get(f"/v1/tables/{table}", headers=headers).json

    def frozen(limiter: Any) -> dict[str, str]:
        raise ConnectionError("the limiter's Redis does not answer")

    monkeypatch.setattr(limits, "_headers", frozen)
    moved = client.post(f"/v1/tables/{table}/moves", headers=headers,
                        json={"version": mine["version"], "move": mine["legal_moves"][0]})
    assert moved.status_code == 200 and moved.json["version"] > mine["version"]
