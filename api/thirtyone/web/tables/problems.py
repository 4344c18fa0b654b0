"""The problems only tables answer: a table not found, a store not answering, a stale
version, a missing key (401) or one that opens no seat (403)."""

from __future__ import annotations

import logging

from flask import Response

from thirtyone.errors import N_
from thirtyone.web.problems import Problem
from thirtyone.web.store import (
    CommitUnconfirmed,
    StaleVersion,
    StoreFull,
    StoreUnavailable,
    TableLost,
    TableNotFound,
)

_log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5


def table_not_found(error: TableNotFound) -> Response:
    return Problem(
        404, "table_not_found", N_("There is no table {table}, or it has expired."),
        table=str(error)[:64],
    ).response()


def table_lost(error: TableLost) -> Response:
    _log.error("table %s: the store has its record without its log or snapshot", error)
    return Problem(
        410, "table_lost",
        N_("The table {table} was lost by the table store; open a new table."),
        title=N_("Table lost"), table=str(error)[:64],
    ).response()


def store_unavailable(error: StoreUnavailable) -> Response:
    _log.error("the table store did not answer: %s", error)
    if isinstance(error, CommitUnconfirmed):
        return Problem(
            503, "commit_unconfirmed",
            N_("The table store did not confirm the move: it may have been applied. Retry "
               "with the same Idempotency-Key, or read the table."),
            title=N_("Service unavailable"),
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        ).response()
    if isinstance(error, StoreFull):
        return Problem(
            503, "store_full",
            N_("The table store is full for now, so nothing was changed; try again in a few "
               "seconds."),
            title=N_("Service unavailable"),
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        ).response()
    return Problem(
        503, "store_unavailable",
        N_("The table store is not answering, so nothing was changed; try again in a few "
           "seconds."),
        title=N_("Service unavailable"), headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
    ).response()


def stale(error: StaleVersion) -> Response:
    return stale_version(error.current).response()


def stale_version(current: int) -> Problem:
    return Problem(
        409, "stale_version",
        N_("The table has moved on to version {current}: read it again and choose anew."),
        title=N_("Stale version"), current=current,
        errors=[{"field": "version", "code": "stale_version",
                 "detail": N_("The table's current version is {current}."),
                 "params": {"current": current}}],
    )


def bad_key() -> Problem:
    return Problem(
        403, "bad_seat_key", N_("This key opens no seat at this table."),
        title=N_("Forbidden"),
    )


def key_required(error: str | None = None) -> Problem:
    """401: the request shows no bearer key (RFC 6750: ``WWW-Authenticate: Bearer``, with
    ``error="invalid_request"`` when an Authorization header of another form was sent)."""
    challenge = 'Bearer realm="thirtyone"'
    if error is not None:
        challenge += f', error="{error}"'
    return Problem(
        401, "seat_key_required",
        N_("Show your seat's key: Authorization: Bearer followed by the key."),
        title=N_("Unauthorized"), headers={"WWW-Authenticate": challenge},
    )


def table_waiting() -> Problem:
    return Problem(
        409, "table_waiting",
        N_("The table is waiting for its players: no card is dealt yet."),
        title=N_("Conflict"),
    )


def table_started() -> Problem:
    return Problem(409, "table_started", N_("The table has started: its seats are taken."),
                   title=N_("Conflict"))


def seat_played_by_bot(seat: int) -> Problem:
    return Problem(
        409, "seat_played_by_bot",
        N_("A bot plays seat {seat} for the rest of the match."),
        title=N_("Conflict"), seat=seat,
    )


def seat_not_handed_over(seat: int) -> Problem:
    return Problem(
        409, "seat_not_handed_over",
        N_("Seat {seat} is played by its player: there is no seat to take back."),
        title=N_("Conflict"), seat=seat,
    )


def no_such_seat(seat: int) -> Problem:
    return Problem(404, "no_such_seat", N_("This table has no seat {seat}."), seat=seat)


def seat_taken(seat: int) -> Problem:
    return Problem(409, "seat_taken", N_("Seat {seat} is taken already."),
                   title=N_("Conflict"), seat=seat)


def bad_invitation() -> Problem:
    return Problem(403, "bad_invitation",
                   N_("This invitation is not (or no longer) the one of this seat."),
                   title=N_("Forbidden"))


def invitation_required() -> Problem:
    return Problem(403, "invitation_required",
                   N_("This table is private: claim a seat with its invitation."),
                   title=N_("Forbidden"))


def seat_reserved(seat: int) -> Problem:
    return Problem(
        403, "seat_reserved",
        N_("Seat {seat} is kept for its player of the last match, who claims it with a "
           "rematch request."), title=N_("Forbidden"), seat=seat)


def one_seat_each() -> Problem:
    return Problem(409, "one_seat_per_player",
                   N_("You hold a seat at this table already: each player takes one seat."),
                   title=N_("Conflict"))


def too_many_listed_tables(limit: int) -> Problem:
    return Problem(
        409, "too_many_listed_tables",
        N_("You have {limit} tables waiting in the lobby already: open this one as private "
           "and share its invitations, or wait until one of yours starts."),
        title=N_("Conflict"), limit=limit,
        errors=[{"field": "public", "code": "too_many_listed_tables",
                 "detail": N_("At most {limit} listed tables per player."),
                 "params": {"limit": limit}}],
    )


def name_taken(name: str) -> Problem:
    return Problem(409, "name_taken",
                   N_("Another player at this table is named {name}: choose another name."),
                   title=N_("Conflict"), name=name)


def name_reserved(name: str) -> Problem:
    return Problem(
        422, "name_reserved",
        N_("“{name}” is how the table names each reader's own seat: choose another name."),
        title=N_("Invalid request"), name=name,
        errors=[{"field": "name", "code": "name_reserved",
                 "detail": N_("Choose another name."), "params": {}}])


def creator_only() -> Problem:
    return Problem(403, "creator_only", N_("Only the table's creator may do this."),
                   title=N_("Forbidden"))


def not_your_seat(seat: int) -> Problem:
    return Problem(403, "not_your_seat", N_("Your key does not open seat {seat}."),
                   title=N_("Forbidden"), seat=seat)


def match_not_over() -> Problem:
    return Problem(409, "match_not_over", N_("The match is not over yet."),
                   title=N_("Conflict"))


def match_over() -> Problem:
    return Problem(409, "match_over", N_("The match is over."), title=N_("Conflict"))


def busy_table() -> Problem:
    return Problem(
        503, "table_busy", N_("The table changed several times meanwhile; try again."),
        title=N_("Service unavailable"), headers={"Retry-After": "1"})


def key_parameter_encoded() -> Problem:
    return Problem(
        400, "key_parameter_encoded",
        N_("Send the seat's key as the query parameter key, spelled so (not percent-encoded), "
           "or as Authorization: Bearer followed by the key."),
        errors=[{"field": "key", "code": "key_parameter_encoded",
                 "detail": N_("The parameter's name must be key, spelled so.")}],
    )
