"""How gunicorn serves the API: gevent workers, and an access log that shows no seat key.

A sync worker is held by one client for as long as it stays connected, so a few open event
streams, or sockets that send half a request and wait, would starve everyone else (with two
sync workers, two such sockets stop even ``/healthz``). A gevent worker serves each connection
in a greenlet: one worker holds thousands of streams and slow clients.

``thirtyone serve`` applies these settings; gunicorn reads them from this module too:
``gunicorn -c python:thirtyone.web.serving 'thirtyone.web:create_app()'``.

>>> redact("GET /v1/tables/t/events?lang=ru&key=s3cret&after=2 HTTP/1.1")
'GET /v1/tables/t/events?lang=ru&key=[redacted]&after=2 HTTP/1.1'
>>> redact("GET /v1/tables/t/events?%6Bey=s3cret&K%2545Y=s3cret HTTP/1.1")
'GET /v1/tables/t/events?%6Bey=[redacted]&K%2545Y=[redacted] HTTP/1.1'
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote_plus

from gunicorn import glogging

worker_class = "gevent"
worker_connections = 2000
logger_class = "thirtyone.web.serving.AccessLogger"
# Open streams hold a stopping worker this long at most; their clients reconnect elsewhere
# with Last-Event-ID.
graceful_timeout = 5
# gunicorn 27's control socket has one default path per user: instances on one machine
# would share it.
control_socket_disable = True

SETTINGS: dict[str, Any] = {
    "worker_class": worker_class,
    "worker_connections": worker_connections,
    "logger_class": logger_class,
    "graceful_timeout": graceful_timeout,
    "control_socket_disable": control_socket_disable,
}
"""The settings above, for a gunicorn application to apply (``cfg.set``)."""

DEFAULT_STORE = "sqlite:///.data/tables.sqlite3"
"""The table store of ``thirtyone serve`` when ``THIRTYONE_STORE`` is not set."""

_PARAMETER = re.compile(r"(?<=[?&;])([^=&;\s]*)=([^&;\s]*)")
# Percent-encodings of percent-encodings are undone this many times over.
_DECODINGS = 4


def _hide_key(match: re.Match[str]) -> str:
    name = match.group(1)
    for _ in range(_DECODINGS):
        name = unquote_plus(name)
    return f"{match.group(1)}=[redacted]" if name.strip().lower() == "key" else match.group(0)


def redact(text: str) -> str:
    """``text`` (a request line, query string or URL) with the value of every parameter named
    ``key`` hidden, however its name is spelled or percent-encoded."""
    return _PARAMETER.sub(_hide_key, text) if "=" in text else text


class AccessLogger(glogging.Logger):
    """gunicorn's logger, with seat keys taken out of everything an access log line may show:
    a browser's EventSource sends its seat key as ``?key=``, others as a bearer credential."""

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        atoms = super().atoms(resp, req, environ, request_time)
        for name, value in atoms.items():
            if isinstance(value, str):
                atoms[name] = redact(value)
        if "{authorization}i" in atoms:
            atoms["{authorization}i"] = "[redacted]"
        return atoms
