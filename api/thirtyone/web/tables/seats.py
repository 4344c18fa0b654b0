"""Seat keys: made when a table opens, shown by a player as a bearer credential, and stored
only as their SHA-256, so the store never holds a key that opens a seat."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets

from flask import current_app, request

from thirtyone.errors import N_
from thirtyone.web.sealing import Sealer
from thirtyone.web.store import TableRecord
from thirtyone.web.tables.problems import (
    bad_key,
    key_parameter_encoded,
    key_required,
    name_reserved,
)

_YOU = N_("You")


def new_key() -> str:
    return secrets.token_urlsafe(24)


def key_hash(key: str) -> str:
    # A key or invitation sent in JSON may hold a lone surrogate: it opens nothing, but must
    # not break the hash.
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def bearer_key() -> str | None:
    """The seat key of the request's bearer credential, if it shows one; a credential of
    another form is refused (401), never read as no key at all."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, key = header.partition(" ")
    if scheme.lower() != "bearer" or not key.strip():
        raise key_required(error="invalid_request")
    return key.strip()


def query_key(parsed: str | None) -> str | None:
    """The seat key of the ``key`` query parameter (``parsed``, as the query schema read it),
    only when the query string spells that name as such: ``%6Bey=`` decodes to the same name
    but slips past a log's redaction, so it is refused rather than taken."""
    if parsed is None:
        return None
    if not any(pair.startswith(b"key=") for pair in request.query_string.split(b"&")):
        raise key_parameter_encoded()
    return parsed


def check_name(name: str | None) -> None:
    """Refuse a display name that reads as the reader's own seat: "You" in any language of
    the catalogs (the play page names each browser's seat so)."""
    if name is None:
        return
    catalogs = current_app.extensions["thirtyone.catalogs"].values()
    if name.casefold() in {_YOU.casefold(), *(catalog.gettext(_YOU).casefold()
                                              for catalog in catalogs)}:
        raise name_reserved(name)


def address_digest(table: str | None = None) -> str | None:
    """The client's address as a public table keeps it: a keyed digest (the address itself
    is never stored, nor one a guess of all addresses could undo), per ``table`` (one seat per
    client) or, without one, the same at every table (the lobby's bound per address).

    None for a loopback address: every player of a server on one's own machine comes from it,
    and so does every client of a proxy the app was not told to trust
    (``THIRTYONE_TRUSTED_PROXIES``), where a bound by address would let one player in."""
    address = request.remote_addr or ""
    try:
        if ipaddress.ip_address(address).is_loopback:
            return None
    except ValueError:
        pass
    sealer: Sealer = current_app.extensions["thirtyone.sealer"]
    return sealer.seat_key(f"address/{table or ''}/{address}", 0)


def seat_of(record: TableRecord, key: str | None) -> int | None:
    """The seat ``key`` opens at the table; None for no key (a spectator)."""
    if key is None:
        return None
    digest = key_hash(key)
    for index, stored in enumerate(record.seats):
        if stored.key_hash is not None and hmac.compare_digest(stored.key_hash, digest):
            return index
    raise bad_key()
