"""Rate limits and quotas per client address, with Flask-Limiter.

Each limit is a Flask-Limiter limit string (``"20 per minute"``, ``"5/second;100/hour"``) and
its own setting, from the environment:

- ``THIRTYONE_LIMIT_TABLES``: opening tables (``POST /v1/tables``), 20 per minute;
- ``THIRTYONE_OPEN_TABLES``: the tables one client may open within a table's lifetime
  (``THIRTYONE_TABLE_TTL``, a day), 200: a table lives that long after its last move, so this
  caps the tables a client keeps open (and the store's size) unless it keeps playing them;
- ``THIRTYONE_LIMIT_MOVES``: moves at tables (``POST /v1/tables/{table}/moves``), 300 per
  minute (sealed games keep nothing on the server and cost a fixed slice: not limited);
- ``THIRTYONE_LIMIT_ADVICE``: hints (``POST /v1/games/advice``, ``GET
  /v1/tables/{table}/advice``) and reviews (``POST /v1/review``), 30 per minute;
- ``THIRTYONE_LIMIT_STREAMS``: event streams and long polls opened
  (``GET /v1/tables/{table}/events`` and ``.../updates``), 120 per minute;
- ``THIRTYONE_LIMIT_SEATS``: claiming a seat, replacing an invitation, starting, leaving a
  table, taking a seat back and asking for a rematch, 30 per minute;
- ``THIRTYONE_LIMIT_KEYS``: rotating a seat's key, 6 per minute (each rotation is a commit
  pushed to every seat);
- ``THIRTYONE_LIMIT_READS``: reading a table, the lobby and a match record, 600 per minute;
- ``THIRTYONE_ADVICE_CPU``: the CPU seconds the hints and reviews of one client may take, 20
  per minute (a third of a core; 30 hints a minute at 400 worlds would take two cores):
  a request is refused (429 ``rate_limited``) once its client spent them, and each hint is
  charged what it took (:class:`CPUBudget`).

The client is the connection's address; behind ``THIRTYONE_TRUSTED_PROXIES`` proxies (a
number, 0 by default) it is the address they put in ``X-Forwarded-For``, through werkzeug's
ProxyFix (never trusted otherwise: any client could name any address there).

The counts live in the table store's Redis, Redis Cluster or Sentinel's primary when
``THIRTYONE_STORE`` is one (so instances share them; one round trip per limit a request
meets, see :class:`WindowedRedisStorage`), else in each worker's memory (each worker then
counts on its own), and in memory while Redis does not answer. Past a limit the answer is
429 ``rate_limited`` (problem+json) with ``Retry-After``; every limited answer carries
``RateLimit-Limit``, ``RateLimit-Remaining`` and ``RateLimit-Reset`` (seconds), as the IETF
draft names them.
An app made for tests (``TESTING``) counts nothing unless it sets ``RATELIMIT_ENABLED``.

Only the operations of :data:`LIMITED` pay for the limiter: Flask-Limiter's own hooks, which
would run on every request (a fifth of a score's work), are taken off the app, since every
limit here is a decorated view's (checked in its wrapper) and none is an application-wide
default; the ``RateLimit-*`` headers are written for the limited endpoints alone. A blueprint
limits another operation by adding its ``(endpoint, method)`` to :data:`LIMITED` under a
setting (with its default in :data:`DEFAULTS`) before :func:`init_app` runs.
"""

from __future__ import annotations

import logging
import math
import os
import time
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from apispec import BasePlugin
from flask import Flask, Response, current_app, g, has_app_context, request
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from limits import RateLimitItem, parse
from limits.storage import RedisClusterStorage, RedisSentinelStorage, RedisStorage
from werkzeug.middleware.proxy_fix import ProxyFix

from thirtyone.errors import N_
from thirtyone.web import compute
from thirtyone.web.problems import Problem
from thirtyone.web.security import wrap

T = TypeVar("T")

_log = logging.getLogger(__name__)

# The operations each limit applies to: (endpoint, methods).
LIMITED: dict[str, tuple[tuple[str, str], ...]] = {
    "THIRTYONE_LIMIT_TABLES": (("tables.Tables", "POST"),),
    "THIRTYONE_LIMIT_MOVES": (("tables.TableMoves", "POST"),),
    "THIRTYONE_LIMIT_ADVICE": (("advice.GameAdvice", "POST"), ("table-advice.TableAdvice", "GET"),
                               ("review.GameReview", "POST")),
    "THIRTYONE_LIMIT_STREAMS": (("tables.TableEvents", "GET"), ("tables.TableUpdates", "GET")),
    "THIRTYONE_LIMIT_SEATS": (("tables.SeatClaim", "POST"), ("tables.SeatInvitation", "POST"),
                              ("tables.TableStart", "POST"), ("tables.TableLeave", "POST"),
                              ("tables.SeatReturn", "POST"), ("tables.Rematch", "POST")),
    "THIRTYONE_LIMIT_KEYS": (("tables.SeatKey", "POST"),),
    "THIRTYONE_LIMIT_READS": (("tables.Table", "GET"), ("tables.Lobby", "GET"),
                              ("tables.TableRecordDocument", "GET")),
}

DEFAULTS = {
    "THIRTYONE_LIMIT_TABLES": "20 per minute",
    "THIRTYONE_OPEN_TABLES": "200",
    "THIRTYONE_LIMIT_MOVES": "300 per minute",
    "THIRTYONE_LIMIT_ADVICE": "30 per minute",
    "THIRTYONE_LIMIT_STREAMS": "120 per minute",
    "THIRTYONE_LIMIT_SEATS": "30 per minute",
    "THIRTYONE_LIMIT_KEYS": "6 per minute",
    "THIRTYONE_LIMIT_READS": "600 per minute",
    "THIRTYONE_ADVICE_CPU": "20 per minute",
    "THIRTYONE_TRUSTED_PROXIES": "0",
}


_PROBLEM = {"schema": {"$ref": "#/components/schemas/Problem"}}
_LIMIT_HEADERS = {
    "Retry-After": "Seconds until the limit lets this client in again.",
    "RateLimit-Limit": "Requests allowed in the window.",
    "RateLimit-Remaining": "Requests left in the window.",
    "RateLimit-Reset": "Seconds until the window starts again.",
}


class RateLimitResponses(BasePlugin):
    """An apispec plugin: the operations of :data:`LIMITED` document their 429 (so that a
    generated client knows the answer and its headers), from that one list."""

    def operation_helper(self, path: str | None = None,
                         operations: dict[str, Any] | None = None, **kwargs: Any) -> None:
        rule = kwargs.get("rule")
        if rule is None or operations is None:
            return
        limited = {operation for listed in LIMITED.values() for operation in listed}
        for method, operation in operations.items():
            if (rule.endpoint, method.upper()) in limited:
                operation.setdefault("responses", {})["429"] = {
                    "description": "`rate_limited`: this client made more such requests than "
                    "its limit allows (or `too_many_streams`: it holds too many open); try "
                    "again after `Retry-After` seconds.",
                    "headers": {name: {"description": text, "schema": {"type": "integer"}}
                                for name, text in _LIMIT_HEADERS.items()},
                    "content": {"application/problem+json": _PROBLEM},
                }


def default_config() -> dict[str, Any]:
    """The limits, from the environment where it names them."""
    return {name: os.environ.get(name) or value for name, value in DEFAULTS.items()}


def _windows() -> dict[str, tuple[int, float]]:
    """The windows this request counted in: key -> (count, when the window ends)."""
    if not has_app_context():
        return {}
    windows: dict[str, tuple[int, float]] = g.setdefault("thirtyone_limit_windows", {})
    return windows


class WindowedRedisStorage(RedisStorage):
    """limits' Redis storage (registered for the ``thirtyone+`` schemes of
    :func:`storage_uri`, limits' documented way to add a storage) whose hit also answers the
    window it counted in: one round trip per limit a request meets.

    With limits' own storage, a limited request paid three: the hit (an ``INCRBY`` script),
    then a ``GET`` and a ``TTL`` for the ``RateLimit-*`` headers (Flask-Limiter reads the
    window's stats after the view). Here the hit answers the count and the time to live
    together, and the request keeps them (in ``flask.g``, so for this request only): the stats
    of a window this request counted in are what its own hit saw. Any other read (a window
    this request did not count in: the CPU budget's check) asks Redis as before.

    The hit is three plain commands in one pipeline, not a script: ``INCRBY``, ``EXPIRE ...
    NX`` (the window starts at its first hit, as limits' script has it) and ``TTL``. Redis
    runs a client's pipelined commands one after the other, and a script call costs Redis
    7.0 more than the three (measured alone: 20-24 µs of Redis CPU per hit with the script,
    14 µs pipelined, a bare ``PING`` 12 µs).
    """

    # limits' registry reads the schemes off the class as it is made.
    STORAGE_SCHEME = ["thirtyone+redis", "thirtyone+rediss", "thirtyone+unix"]  # noqa: RUF012

    def __init__(self, uri: str, **options: Any) -> None:
        super().__init__(uri.removeprefix("thirtyone+"), **options)

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        counter = self.prefixed_key(key)
        with self.storage.pipeline(transaction=False) as pipe:
            pipe.incrby(counter, amount)
            pipe.expire(counter, expiry, nx=True)
            pipe.ttl(counter)
            count, _, ttl = pipe.execute()
        _windows()[key] = (int(count), time.time() + max(int(ttl), 0))
        return int(count)

    def get(self, key: str) -> int:
        counted = _windows().get(key)
        return super().get(key) if counted is None else counted[0]

    def get_expiry(self, key: str) -> float:
        counted = _windows().get(key)
        return super().get_expiry(key) if counted is None else counted[1]


class WindowedRedisClusterStorage(WindowedRedisStorage, RedisClusterStorage):
    """:class:`WindowedRedisStorage` on a Redis Cluster (limits' cluster storage, which reads
    the store's own ``redis+cluster://HOST:PORT[,HOST:PORT...]``): each count lives on the
    shard of its key, shared by every instance."""

    STORAGE_SCHEME = ["thirtyone+redis+cluster"]  # noqa: RUF012


class WindowedRedisSentinelStorage(WindowedRedisStorage, RedisSentinelStorage):
    """:class:`WindowedRedisStorage` on the primary that Redis Sentinel names (limits'
    sentinel storage), from the store's ``redis+sentinel://HOST:PORT[,...]/SERVICE/DB``.

    Counts are read from the primary too, never from a replica: a replica's copy lags, and a
    client could spend its window again on every instance that read one."""

    STORAGE_SCHEME = ["thirtyone+redis+sentinel"]  # noqa: RUF012

    def __init__(self, uri: str, **options: Any) -> None:
        # limits names the service alone in the path; the store names the service and the db.
        parts = urlsplit(uri)
        service, _, db = parts.path.strip("/").partition("/")
        super().__init__(f"{parts.scheme}://{parts.netloc}/{service}",
                         db=int(db or 0), use_replicas=False, **options)


def storage_uri(store_url: str | None) -> str:
    """Where the counts live: the table store's Redis, Cluster or Sentinel
    (:class:`WindowedRedisStorage` and its kin), else this process's memory.

    >>> storage_uri("redis://127.0.0.1:6379/2"), storage_uri("unix:///run/redis.sock")
    ('thirtyone+redis://127.0.0.1:6379/2', 'thirtyone+unix:///run/redis.sock')
    >>> storage_uri("redis+cluster://10.0.0.1:7000,10.0.0.2:7000")
    'thirtyone+redis+cluster://10.0.0.1:7000,10.0.0.2:7000'
    >>> storage_uri("sqlite:///.data/tables.sqlite3"), storage_uri(None)
    ('memory://', 'memory://')
    """
    if store_url and store_url.startswith(("redis://", "rediss://", "unix://",
                                           "redis+cluster://", "redis+sentinel://")):
        return "thirtyone+" + store_url
    return "memory://"


def init_app(app: Flask) -> None:
    """Limit the operations of :data:`LIMITED` (the blueprints must be registered)."""
    for key, value in default_config().items():
        app.config.setdefault(key, value)
    app.config.setdefault("RATELIMIT_ENABLED", not app.config.get("TESTING"))
    proxies = int(app.config["THIRTYONE_TRUSTED_PROXIES"])
    if proxies > 0:
        wrap(app, lambda inner: ProxyFix(inner, x_for=proxies))
    limiter = Limiter(
        get_remote_address, app=app,
        storage_uri=storage_uri(app.config.get("THIRTYONE_STORE")),
        storage_options={"socket_timeout": 1, "socket_connect_timeout": 1},
        key_prefix="thirtyone-limits", strategy="fixed-window",
        # A store that does not answer must not stop the API: the counts go on in memory.
        swallow_errors=True, in_memory_fallback_enabled=True,
    )
    # Flask-Limiter checks a decorated view's limits in the view's wrapper; its app-wide hooks
    # serve default and application limits (none here) and its own headers (off): they go.
    app.before_request_funcs[None] = [
        hook for hook in app.before_request_funcs.get(None, [])
        if getattr(hook, "__self__", None) is not limiter]
    app.after_request_funcs[None] = [
        hook for hook in app.after_request_funcs.get(None, [])
        if getattr(hook, "args", None) != (limiter,)]
    app.teardown_request_funcs[None] = [
        hook for hook in app.teardown_request_funcs.get(None, [])
        if getattr(hook, "__self__", None) is not limiter]
    limited = app.extensions["thirtyone.limited"] = set()
    for setting, operations in LIMITED.items():
        for endpoint, method in operations:
            limited.add(endpoint)
            # flask-limiter's decorator types its result as a sync or async view: either fits.
            view: Any = app.view_functions[endpoint]
            view = limiter.limit(app.config[setting], methods=[method], scope=setting)(view)
            if setting == "THIRTYONE_LIMIT_TABLES":
                ttl = int(app.config["THIRTYONE_TABLE_TTL"])
                quota = f"{int(app.config['THIRTYONE_OPEN_TABLES'])} per {ttl} seconds"
                view = limiter.limit(quota, methods=[method], scope="THIRTYONE_OPEN_TABLES")(view)
            app.view_functions[endpoint] = view
    app.extensions["thirtyone.limiter"] = limiter
    app.register_error_handler(RateLimitExceeded, _rate_limited)
    app.after_request(_rate_limit_headers)


def _headers(limiter: Limiter) -> dict[str, str]:
    limits = limiter.current_limits
    if not limits:
        return {}
    # The limit the client meets first: a breached one, else the one with least left.
    current = min(limits, key=lambda limit: (not limit.breached, limit.remaining, limit.reset_at))
    reset = max(0, math.ceil(current.reset_at - time.time()))
    return {
        "RateLimit-Limit": str(current.limit.amount),
        "RateLimit-Remaining": str(max(0, current.remaining)),
        "RateLimit-Reset": str(reset),
    }


def _rate_limit_headers(response: Response) -> Response:
    if request.endpoint not in current_app.extensions["thirtyone.limited"]:
        return response
    limiter: Limiter = current_app.extensions["thirtyone.limiter"]
    if limiter.enabled:
        try:
            response.headers.update(_headers(limiter))
        except Exception:  # the counts' storage failed after the view ran
            # The answer stands (a move it acknowledges was applied): it goes without the
            # RateLimit headers rather than as a 500 that would say nothing changed.
            _log.exception("the rate limits' storage failed: the answer goes without headers")
    return response


def _rate_limited(error: RateLimitExceeded) -> Response:
    limiter: Limiter = current_app.extensions["thirtyone.limiter"]
    headers = _headers(limiter)
    seconds = max(1, int(headers.get("RateLimit-Reset", "1")))
    return Problem(
        429, "rate_limited",
        N_("Too many requests of this kind from your address: try again after the seconds "
           "that Retry-After gives."),
        title=N_("Too many requests"),
        headers={**headers, "Retry-After": str(seconds)}, retry_after=seconds,
    ).response()


def timed(function: Callable[..., T], *args: Any) -> tuple[T, float]:
    """``function(*args)`` and the CPU seconds this thread took for it (run it in the compute
    pool, so that the seconds are the job's own)."""
    start = time.thread_time()
    result = function(*args)
    return result, time.thread_time() - start


class CPUBudget:
    """The CPU seconds a client may spend per window on one kind of work (``setting``, a
    limit string such as ``"20 per minute"``), counted in milliseconds in the limiter's
    storage: :meth:`check` refuses a request once the client spent them, :meth:`charge` counts
    what a request took. Off where the limiter is off (tests)."""

    def __init__(self, setting: str) -> None:
        self.scope = setting
        item = parse(current_app.config[setting])
        self.item: RateLimitItem = type(item)(item.amount * 1000, item.multiples, "cpu")
        self.limiter: Limiter = current_app.extensions["thirtyone.limiter"]
        self.client = get_remote_address()

    def check(self) -> None:
        """Raise the 429 problem when the client has no CPU time left in this window."""
        if not self.limiter.enabled:
            return
        try:
            strategy = self.limiter.limiter
            if strategy.test(self.item, "thirtyone-cpu", self.client, self.scope):
                return
            reset, _ = strategy.get_window_stats(self.item, "thirtyone-cpu", self.client,
                                                 self.scope)
        except Exception:  # a storage that fails must not stop the API (swallow_errors)
            _log.exception("the CPU budget's storage failed: the request goes on")
            return
        seconds = max(1, math.ceil(reset - time.time()))
        raise Problem(
            429, "rate_limited",
            N_("Too many requests of this kind from your address: try again after the "
               "seconds that Retry-After gives."),
            title=N_("Too many requests"),
            headers={"Retry-After": str(seconds)}, retry_after=seconds,
        )

    def charge(self, seconds: float) -> None:
        """Count ``seconds`` of CPU against the client's budget."""
        if not self.limiter.enabled:
            return
        try:
            self.limiter.limiter.hit(self.item, "thirtyone-cpu", self.client, self.scope,
                                     cost=max(1, round(seconds * 1000)))
        except Exception:  # as in check
            _log.exception("the CPU budget's storage failed: this request is not counted")


def budgeted(setting: str, function: Callable[..., T], *args: Any) -> T:
    """``function(*args)`` in the compute pool (:func:`thirtyone.web.compute.run`), within
    the client's CPU budget of ``setting``: refused when it is spent, charged what it took."""
    budget = CPUBudget(setting)
    budget.check()
    done: tuple[T, float] = compute.run(timed, function, *args)
    budget.charge(done[1])
    return done[0]
