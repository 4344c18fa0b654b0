"""What every answer carries for the browser's safety, and the request body limit.

Two WSGI layers around the whole app (the API, ``/docs`` and the rules site that whitenoise
serves):

- :class:`SecurityHeaders` adds ``X-Content-Type-Options``, ``X-Frame-Options``,
  ``Referrer-Policy`` and a ``Content-Security-Policy`` chosen by path from :data:`POLICIES`,
  the one place where the policies are written. A page's inline scripts and styles are allowed
  by their hashes only, those of the rules site read from its files at start (``/docs`` and
  ``/play`` have none: their scripts are files).
- :class:`BodyLimit` holds a chunked body (one without ``Content-Length``) to the same limit
  as any other: werkzeug would read the first ``MAX_CONTENT_LENGTH`` bytes of it and drop the
  rest, so an oversized chunked body was cut short and accepted instead of refused with a 413.

>>> policy_for("/v1/games")
"default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
>>> policy_for("/play/app.js")
"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

Environ = dict[str, Any]
StartResponse = Callable[..., Any]
WSGIApp = Callable[[Environ, StartResponse], Iterable[bytes]]


def wrap(app: Flask, layer: Callable[[WSGIApp], WSGIApp]) -> None:
    """Put the WSGI ``layer`` around the app's WSGI callable, as Flask documents a
    middleware (``app.wsgi_app = Layer(app.wsgi_app)``): the one place that replaces the
    method, which Flask's types do not foresee."""
    app.wsgi_app = layer(app.wsgi_app)  # type: ignore[method-assign,assignment]  # Flask's way

_CLOSED = {"frame-ancestors": "'none'", "base-uri": "'none'", "form-action": "'none'"}

POLICIES: tuple[tuple[str, dict[str, str]], ...] = (
    # The API answers JSON only: nothing in it may run, load or be framed.
    ("/v1/", {"default-src": "'none'"}),
    ("/openapi.json", {"default-src": "'none'"}),
    ("/healthz", {"default-src": "'none'"}),
    # Swagger UI: its own files (its start-up script is one), the styles it sets on elements
    # as it draws, its icons as data: URLs, and the contract fetched from this origin.
    ("/docs", {"default-src": "'none'", "script-src": "'self'",
               "style-src": "'self' 'unsafe-inline'", "img-src": "'self' data:",
               "connect-src": "'self'"}),
    # The browser client: ES modules and CSS from files, inline SVG cards, fetch and
    # EventSource to this origin's /v1.
    ("/play", {"default-src": "'none'", "script-src": "'self'", "style-src": "'self'",
               "img-src": "'self' data:", "connect-src": "'self'"}),
    # The rules site (MkDocs Material): its files, its few inline scripts and styles by hash,
    # the search index fetched and run in a worker from this origin.
    ("/", {"default-src": "'none'", "script-src": "'self' {site_scripts}",
           "style-src": "'self' {site_styles}", "img-src": "'self' data:",
           "font-src": "'self'", "connect-src": "'self'", "worker-src": "'self'",
           "manifest-src": "'self'"}),
)
"""Content security policies by path prefix, the first match applying; ``{...}`` fields are
filled with the hashes of inline code allowed."""

HEADERS: tuple[tuple[str, str], ...] = (
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "no-referrer"),
)
"""Headers sent with every answer besides the policy."""

_INLINE = {
    "script": re.compile(rb"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S | re.I),
    "style": re.compile(rb"<style[^>]*>(.*?)</style>", re.S | re.I),
}


def inline_hashes(html: bytes, tag: str) -> set[str]:
    """The CSP hash sources of the inline ``<script>`` or ``<style>`` elements of a page.

    >>> sorted(inline_hashes(b"<script>1</script><script src=a.js></script>", "script"))
    ["'sha256-a4ayc/80/OGda4BO/1o/V0etpOqiLx1JwB5S3beHW0s='"]
    """
    return {
        "'sha256-" + base64.b64encode(hashlib.sha256(body).digest()).decode() + "'"
        for body in _INLINE[tag].findall(html)
    }


def site_hashes(site_dir: str | Path | None) -> dict[str, str]:
    """The hashes of every inline script and style of the rules site's pages, read once."""
    scripts: set[str] = set()
    styles: set[str] = set()
    if site_dir and Path(site_dir).is_dir():
        for page in Path(site_dir).rglob("*.html"):
            html = page.read_bytes()
            scripts |= inline_hashes(html, "script")
            styles |= inline_hashes(html, "style")
    return {"site_scripts": " ".join(sorted(scripts)), "site_styles": " ".join(sorted(styles))}


def policy_for(path: str, fields: dict[str, str] | None = None) -> str:
    """The policy of the answer at ``path``, with ``fields`` (hash lists) filled in."""
    values = {"site_scripts": "", "site_styles": "", **(fields or {})}
    directives = next(policy for prefix, policy in POLICIES if path.startswith(prefix))
    return "; ".join(
        f"{name} {' '.join(value.format(**values).split())}"
        for name, value in {**directives, **_CLOSED}.items()
    )


class SecurityHeaders:
    """Adds :data:`HEADERS` and the path's policy to every answer of ``app``."""

    def __init__(self, app: WSGIApp, site_dir: str | Path | None = None) -> None:
        self.app = app
        self.fields = site_hashes(site_dir)
        # Each path's policy, once made.
        self.policies: dict[str, str] = {}

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        path = environ.get("PATH_INFO") or "/"
        policy = self.policies.get(path)
        if policy is None:
            policy = policy_for(path, self.fields)
            if len(self.policies) < 1024:
                self.policies[path] = policy

        def secured(status: str, headers: list[tuple[str, str]], *args: Any) -> Any:
            return start_response(status, _with(headers, policy), *args)

        return self.app(environ, secured)


def _with(headers: list[tuple[str, str]], policy: str) -> list[tuple[str, str]]:
    names = {name.lower() for name, _ in headers}
    added = [(name, value) for name, value in HEADERS if name.lower() not in names]
    if "content-security-policy" not in names:
        added.append(("Content-Security-Policy", policy))
    return [*headers, *added]


class BodyLimit:
    """Reads a chunked request body up to ``limit`` bytes before the app sees it.

    Within the limit the body is handed on with its ``Content-Length``; over it, the app is
    told a length one byte over the limit and refuses the request (a 413 problem) before it
    reads anything.
    """

    def __init__(self, app: WSGIApp, limit: Callable[[], int | None]) -> None:
        self.app = app
        self.limit = limit

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        limit = self.limit()
        if limit is not None and not environ.get("CONTENT_LENGTH") and (
            "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        ):
            body = b"".join(_read(environ["wsgi.input"], limit + 1))
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("HTTP_TRANSFER_ENCODING", None)
        return self.app(environ, start_response)


def _read(stream: Any, most: int, chunk: int = 64 * 1024) -> Iterator[bytes]:
    """Up to ``most`` bytes of ``stream``, read a chunk at a time."""
    while most > 0:
        data = stream.read(min(chunk, most))
        if not data:
            return
        most -= len(data)
        yield data
