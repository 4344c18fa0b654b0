"""The table stores by URL scheme: the one registry (``THIRTYONE_STORE`` names one).

A new store is a :class:`~thirtyone.web.store.TableStore` subclass and one more entry in
:data:`SCHEMES`.
"""

from __future__ import annotations

from collections.abc import Callable

from thirtyone.web.store import TableStore
from thirtyone.web.store.redis import RedisStore
from thirtyone.web.store.sqlite import SQLiteStore


def _sqlite(url: str, ttl: int) -> TableStore:
    return SQLiteStore(url.removeprefix("sqlite:///"), ttl)


SCHEMES: dict[str, Callable[[str, int], TableStore]] = {
    "sqlite:///": _sqlite,
    "redis://": RedisStore,
    "rediss://": RedisStore,
    "unix://": RedisStore,
}
"""How each URL prefix opens its store, from the URL and the tables' time to live."""


def open_store(url: str, ttl: int) -> TableStore:
    """The store that ``url`` names: ``sqlite:///PATH`` or ``redis://HOST:PORT/DB``."""
    for prefix, make in SCHEMES.items():
        if url.startswith(prefix):
            return make(url, ttl)
    raise ValueError(f"THIRTYONE_STORE must be sqlite:///PATH or redis://HOST:PORT/DB, not {url!r}")
