"""The table stores by URL scheme: the one registry (``THIRTYONE_STORE`` names one).

A new store is a :class:`~thirtyone.web.store.TableStore` subclass and one more entry in
:data:`SCHEMES`.
"""

from __future__ import annotations

from collections.abc import Callable

from thirtyone.web.store import TableStore
from thirtyone.web.store.redis import RedisStore
from thirtyone.web.store.sqlite import SQLiteStore


def _sqlite(url: str, ttl: int, replicas: int) -> TableStore:
    return SQLiteStore(url.removeprefix("sqlite:///"), ttl)


SCHEMES: dict[str, Callable[[str, int, int], TableStore]] = {
    "sqlite:///": _sqlite,
    "redis://": RedisStore,
    "rediss://": RedisStore,
    "unix://": RedisStore,
    "redis+cluster://": RedisStore,
    "redis+sentinel://": RedisStore,
}
"""How each URL prefix opens its store, from the URL, the tables' time to live and the
replicas a Redis commit waits for."""


def open_store(url: str, ttl: int, replicas: int = 0) -> TableStore:
    """The store that ``url`` names (see :mod:`thirtyone.web.store`); with Redis, a commit
    waits for ``replicas`` replicas to have it."""
    for prefix, make in SCHEMES.items():
        if url.startswith(prefix):
            return make(url, ttl, replicas)
    raise ValueError("THIRTYONE_STORE must be sqlite:///PATH, redis://HOST:PORT/DB, "
                     "redis+cluster://HOST:PORT[,HOST:PORT] or "
                     f"redis+sentinel://HOST:PORT[,HOST:PORT]/SERVICE/DB, not {url!r}")
