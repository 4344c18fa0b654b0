"""Idempotent writes: a request sent again with the same ``Idempotency-Key`` header gets the
answer it got the first time (same status, version and body) instead of being applied twice.

A client that lost an answer (a timeout, a 503 that says the move may have been applied)
sends the request again with the same key. The key of a move is kept with the log entry it
made (:class:`~thirtyone.web.store.RequestRecord`, for the table's life); the same key with
another body is a 422. The answer is rebuilt from the store: the state of that version (from
the nearest snapshot) and its entry's events.

Opening a table has no table yet to keep the key at: the table's id and its seats' keys are
derived from the idempotency key with the server's secret, so a retry finds the same table and
answers the same keys, and the store still never holds a seat's key. Whoever knows an
idempotency key can read that answer: use a random one (a UUID).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from flask import current_app, request

from thirtyone.errors import N_
from thirtyone.game import GameState
from thirtyone.web.jsonio import dumps
from thirtyone.web.problems import Problem
from thirtyone.web.sealing import Sealer
from thirtyone.web.store import RequestRecord, TableNotFound, TableRecord
from thirtyone.web.tables.ledger import load_table, state_at, store

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"
"""Set (``true``) on an answer repeated for a retry rather than made by this request."""
_KEY = re.compile(r"[A-Za-z0-9_.:-]{16,128}\Z")


def request_key() -> str | None:
    """The request's idempotency key, if it names one; a 422 problem if it is malformed."""
    key = request.headers.get(HEADER)
    if key is None:
        return None
    if not _KEY.match(key):
        raise Problem(
            422, "bad_idempotency_key",
            N_("An Idempotency-Key is 16 to 128 letters, digits or the signs _ . : -"),
            title=N_("Invalid request"),
            errors=[{"field": HEADER, "code": "bad_idempotency_key",
                     "detail": N_("Use a random key, such as a UUID."), "params": {}}],
        )
    return key


def body_digest(body: dict[str, Any], seat: int | None = None) -> str:
    """What a retry must repeat: the request's body (and the seat that sends it)."""
    return hashlib.sha256(dumps({"body": body, "seat": seat})).hexdigest()


def reused() -> Problem:
    return Problem(
        422, "idempotency_key_reused",
        N_("This Idempotency-Key was used for another request: use a new key for a new "
           "request."),
        title=N_("Invalid request"),
        errors=[{"field": HEADER, "code": "idempotency_key_reused",
                 "detail": N_("The key was sent before with another body."), "params": {}}],
    )


def expired(version: int) -> Problem:
    return Problem(
        409, "idempotent_answer_expired",
        N_("This request was applied at version {version}, too long ago to answer it again: "
           "read the table."),
        title=N_("Already applied"), version=version,
    )


def _derived(key: str, purpose: str) -> str:
    sealer: Sealer = current_app.extensions["thirtyone.sealer"]
    return sealer.seat_key(f"idempotency/{purpose}/{key}", 0)


def table_id(key: str) -> str:
    """The id of the table that the creation with idempotency key ``key`` opens."""
    return _derived(key, "table")


def seat_key(key: str, seat: int) -> str:
    """The key of ``seat`` at the table that the creation with key ``key`` opens."""
    return _derived(key, f"seat/{seat}")


def invitation(key: str, seat: int) -> str:
    """The invitation of ``seat`` at the table that the creation with key ``key`` opens."""
    return _derived(key, f"invitation/{seat}")


def opened(key: str, body: dict[str, Any]) -> TableRecord | None:
    """The table that an earlier creation with key ``key`` opened, if any (422 if that
    creation had another body)."""
    try:
        record = load_table(table_id(key))
    except TableNotFound:
        return None
    if record.request is None or record.request.get("body") != body_digest(body):
        raise reused()
    # The first attempt may have been answered 503 commit_unconfirmed: its retry is answered
    # only as durably.
    store().confirm(record.table)
    return record


def committed(record: TableRecord, key: str, body: dict[str, Any],
              seat: int | None) -> RequestRecord | None:
    """What an earlier request with key ``key`` committed at the table, if any (422 if it had
    another body or seat)."""
    stored = store().request(record.table, key)
    if stored is not None and stored.body != body_digest(body, seat):
        raise reused()
    if stored is not None:
        # The first attempt may have been answered 503 commit_unconfirmed: its retry is
        # answered only once the commit is as durable as that attempt needed (the same WAIT).
        store().confirm(record.table)
    return stored


def original(record: TableRecord, version: int) -> tuple[GameState, list[dict[str, Any]]]:
    """The state at ``version`` and the events of the entry that made it: what the request
    that made it was answered."""
    state, events, _ = original_entry(record, version)
    return state, events


def original_entry(record: TableRecord,
                   version: int) -> tuple[GameState, list[dict[str, Any]], str]:
    """:func:`original`, with the digest of ``version`` (its answer's cursor names it)."""
    found = state_at(record, version)
    if found is None:
        raise expired(version)
    digest = record.digest if not found[1] else found[1][0].prev
    if version == 0:
        return found[0], [], digest
    log = store().entries(record.table, version - 1)
    if not log or log[0].version != version:
        raise expired(version)
    return found[0], log[0].events, log[0].digest
