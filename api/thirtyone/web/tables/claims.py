"""Taking, keeping and giving up a seat: claim it with an invitation, replace an invitation,
rotate a key, start a waiting table, leave a match.

Every change is a commit of the table's seats and meta (a new version, pushed to every
seat); a commit that finds the table moved on is tried again on the new version, so two
players claiming their seats at once both get them.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Response, jsonify
from flask.views import MethodView

from thirtyone.web.store import SeatRecord, StaleVersion, TableRecord
from thirtyone.web.tables.answers import table_answer
from thirtyone.web.tables.autoplay import play_due
from thirtyone.web.tables.blueprint import blp
from thirtyone.web.tables.clocks import enforce
from thirtyone.web.tables.ledger import load_table, table_state
from thirtyone.web.tables.life import changed, commit_change, commit_life, start, waiting_for
from thirtyone.web.tables.presence import touch
from thirtyone.web.tables.problems import (
    bad_invitation,
    busy_table,
    creator_only,
    invitation_required,
    key_required,
    match_over,
    name_taken,
    no_such_seat,
    not_your_seat,
    one_seat_each,
    seat_reserved,
    seat_taken,
    table_started,
    table_waiting,
)
from thirtyone.web.tables.schemas import (
    ClaimedTableSchema,
    ClaimSeatSchema,
    InvitationSchema,
    SeatKeySchema,
    TableUpdateSchema,
)
from thirtyone.web.tables.seats import (
    address_digest,
    bearer_key,
    check_name,
    key_hash,
    new_key,
    seat_of,
)
from thirtyone.web.tables.table import Phase, of

T = TypeVar("T")

ATTEMPTS = 8

_ERRORS = {
    403: "FORBIDDEN", 404: "NOT_FOUND", 409: "CONFLICT", 503: "SERVICE_UNAVAILABLE",
}


def retried(table: str, change: Callable[[TableRecord], T]) -> T:
    """``change`` applied to the table as last committed, again on the newer version when
    another commit came first."""
    for _ in range(ATTEMPTS):
        try:
            return change(load_table(table))
        except StaleVersion:
            continue
    raise busy_table()


def _seat_key(record: TableRecord) -> int:
    key = bearer_key()
    if key is None:
        raise key_required()
    seat = seat_of(record, key)
    assert seat is not None  # a key was shown
    touch(record, seat)
    return seat


def _in_range(record: TableRecord, seat: int) -> None:
    if not 0 <= seat < len(record.seats):
        raise no_such_seat(seat)


def _documented(*statuses: int) -> Callable[[Any], Any]:
    def decorate(function: Any) -> Any:
        for status in statuses:
            function = blp.alt_response(status, response=_ERRORS[status])(function)
        return function
    return decorate


@blp.route("/<table>/seats/<int:seat>")
class SeatClaim(MethodView):
    @blp.doc(operationId="claimSeat")
    @blp.arguments(ClaimSeatSchema(), example={"invitation": "<the seat's invitation>",
                                               "name": "Bruno", "entropy": "dice 3 6 1"})
    @blp.response(201, ClaimedTableSchema)
    @_documented(403, 404, 409, 503)
    def post(self, body: dict[str, Any], table: str, seat: int) -> tuple[Response, int]:
        """Claim a seat of a waiting table with its invitation (a free seat of a public
        table needs none), with your name and, if you like, your contribution to the deal's
        seed. The answer holds the seat's key, which nobody else has seen. The last seat
        claimed deals the cards."""
        key = new_key()
        check_name(body["name"])
        shown = bearer_key()
        address = address_digest(table)

        def claim(record: TableRecord) -> tuple[TableRecord, Any, list[Any]]:
            _in_range(record, seat)
            meta = of(record)
            if meta.phase != Phase.WAITING:
                raise table_started()
            stored = record.seats[seat]
            if stored.bot is not None or stored.key_hash is not None:
                raise seat_taken(seat)
            if meta.seat(seat).reserved:
                raise seat_reserved(seat)
            if meta.public:
                # One seat per client: by key (a seat's key shown), and by address.
                if shown is not None and any(
                        stored.key_hash == key_hash(shown) for stored in record.seats):
                    raise one_seat_each()
                if address is not None and any(kept.address == address
                                               for kept in meta.seats):
                    raise one_seat_each()
            if body["name"] is not None and meta.named(body["name"], besides=seat):
                raise name_taken(body["name"])
            if body["invitation"] is not None:
                expected = meta.seat(seat).invitation or ""
                if not hmac.compare_digest(expected, key_hash(body["invitation"])):
                    raise bad_invitation()
            elif not meta.public:
                raise invitation_required()
            after = changed(record, seats={seat: SeatRecord(None, key_hash(key))},
                            seat_changes={seat: {"name": body["name"], "invitation": None,
                                                 "entropy": body["entropy"],
                                                 "address": address if meta.public else None}})
            events: list[Any] = [{"type": "seat_claimed", "seat": seat, "name": body["name"]}]
            if not waiting_for(after):
                committed, state, events = start(record, after, events)
                return committed, state, events
            committed = commit_life(record, after, [], table_state(record), events)
            return committed, table_state(committed), events

        record, state, events = retried(table, claim)
        touch(record, seat)
        answer = table_answer(record, record.version, state, seat, events)
        answer["key"] = key
        return jsonify(answer), 201


@blp.route("/<table>/seats/<int:seat>/invitation")
class SeatInvitation(MethodView):
    @blp.doc(operationId="replaceInvitation", security=[{"seatKey": []}])
    @blp.response(201, InvitationSchema)
    @_documented(403, 404, 409, 503)
    def post(self, table: str, seat: int) -> tuple[Response, int]:
        """The creator revokes an unclaimed seat's invitation: a new one replaces it."""
        invitation = new_key()

        def replace(record: TableRecord) -> None:
            creator = _seat_key(record)
            meta = of(record)
            if creator != meta.creator:
                raise creator_only()
            _in_range(record, seat)
            if meta.phase != Phase.WAITING:
                raise table_started()
            stored = record.seats[seat]
            if stored.bot is not None or stored.key_hash is not None:
                raise seat_taken(seat)
            if meta.seat(seat).reserved:
                # A rematch's seat is its previous player's: nobody else may revoke it.
                raise seat_reserved(seat)
            after = changed(record, seat_changes={
                seat: {"invitation": key_hash(invitation), "reserved": None}})
            commit_change(record, after, [])

        retried(table, replace)
        return jsonify({"seat": seat, "invitation": invitation}), 201


@blp.route("/<table>/seats/<int:seat>/key")
class SeatKey(MethodView):
    @blp.doc(operationId="rotateSeatKey", security=[{"seatKey": []}])
    @blp.response(201, SeatKeySchema)
    @_documented(403, 404, 503)
    def post(self, table: str, seat: int) -> tuple[Response, int]:
        """Rotate your seat's key: the answer holds a new one and the old one opens nothing
        any more."""
        key = new_key()

        def rotate(record: TableRecord) -> None:
            _in_range(record, seat)
            if _seat_key(record) != seat:
                raise not_your_seat(seat)
            stored = record.seats[seat]
            after = changed(record, seats={seat: SeatRecord(stored.bot, key_hash(key))})
            commit_change(record, after, [])

        retried(table, rotate)
        return jsonify({"seat": seat, "key": key}), 201


@blp.route("/<table>/start")
class TableStart(MethodView):
    @blp.doc(operationId="startTable", security=[{"seatKey": []}])
    @blp.response(200, TableUpdateSchema)
    @_documented(403, 404, 409, 503)
    def post(self, table: str) -> Response:
        """The creator deals a waiting table now: bots of the table's level take the seats
        nobody claimed."""
        seat: int | None = None

        def begin(record: TableRecord) -> tuple[TableRecord, Any, list[Any]]:
            nonlocal seat
            seat = _seat_key(record)
            meta = of(record)
            if seat != meta.creator:
                raise creator_only()
            if meta.phase != Phase.WAITING:
                raise table_started()
            return start(record, record, [])

        record, state, events = retried(table, begin)
        return jsonify(table_answer(record, record.version, state, seat, events))


@blp.route("/<table>/leave")
class TableLeave(MethodView):
    @blp.doc(operationId="leaveTable", security=[{"seatKey": []}])
    @blp.response(200, TableUpdateSchema)
    @_documented(403, 404, 409, 503)
    def post(self, table: str) -> Response:
        """Leave (resign): a bot of the table's level plays your seat for the rest of the
        match. Your key still shows your seat's cards."""
        seat: int | None = None

        def leave(record: TableRecord) -> tuple[TableRecord, Any, list[Any]]:
            nonlocal seat
            record = enforce(record)
            seat = _seat_key(record)
            if of(record).phase == Phase.WAITING:
                raise table_waiting()
            state = table_state(record)
            if state.is_over:
                raise match_over()
            stored = record.seats[seat]
            if stored.bot is not None:
                return record, state, []
            bot = of(record).level
            after = changed(record, seats={seat: SeatRecord(bot, stored.key_hash)})
            moves: list[dict[str, Any]] = []
            events: list[Any] = [{"type": "seat_left", "seat": seat, "bot": bot}]
            played, bot_events = play_due(record, after.seats, state, moves)
            committed = commit_life(record, after, moves, played, events + bot_events)
            return committed, played, events + bot_events

        record, state, events = retried(table, leave)
        return jsonify(table_answer(record, record.version, state, seat, events))
