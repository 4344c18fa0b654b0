"""What the table operations take and answer, as the contract shows them."""

from __future__ import annotations

from typing import Any

import marshmallow as ma

from thirtyone.bots import BOTS
from thirtyone.errors import N_
from thirtyone.web.contract import COMPONENT
from thirtyone.web.games import MoveSchema
from thirtyone.web.validation import (
    Message,
    RulesSchema,
    Schema,
    between,
    one_of,
    players_field,
)

BOT_LEVELS: tuple[str, ...] = tuple(BOTS)
# A long poll answers within this many seconds: below the proxies' timeouts (deploy/).
MAX_WAIT_SECONDS = 60
DEFAULT_WAIT_SECONDS = 25
HINTS = ("off", "on")

_SEATS_DOC = {"description": "The seats, in order: `bot` is the level of a bot seat, null for a "
              "human seat."}


class NewTableSchema(RulesSchema):
    players = players_field()
    bots = ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.String(validate=one_of(BOT_LEVELS), metadata={COMPONENT: "BotLevel"}),
        load_default=dict,
        metadata={"description": "Bot seats: a bot level by seat number, e.g. "
                  "`{\"1\": \"greedy\"}`. The other seats are for humans."},
    )

    hints = ma.fields.String(
        validate=one_of(HINTS),
        metadata={"description": "Whether the seats may ask for hints "
                  "(`GET /v1/tables/{table}/advice`): `on` or `off`. By default `off` at a "
                  "table of two or more human seats (a hint there would help one friend "
                  "against another), `on` at a table of one human and bots."},
    )

    @ma.pre_load
    def refuse_seed(self, data: Any, **kwargs: Any) -> Any:
        if isinstance(data, dict) and "seed" in data:
            raise ma.ValidationError(
                Message(N_("The server draws a table's seed and publishes its SHA-256; it "
                           "cannot be chosen."), "seed_not_allowed"),
                field_name="seed",
            )
        return data

    @ma.validates_schema
    def bots_sit_at_seats(self, data: dict[str, Any], **kwargs: Any) -> None:
        errors = {
            f"bots.{seat}": [Message(N_("Not a seat of this table (seats count from 0)."),
                                     "bad_seat")]
            for seat in data["bots"]
            if not (seat.isascii() and seat.isdigit() and int(seat) < data["players"])
        }
        if errors:
            raise ma.ValidationError(errors)


class TableMoveRequestSchema(Schema):
    move = ma.fields.Nested(
        MoveSchema, required=True,
        metadata={COMPONENT: "Move",
                  "description": "A move, as for `POST /v1/games/moves`; it is played for "
                  "the seat whose key is shown. The legal ones are in `legal_moves`."},
    )
    version = ma.fields.Integer(
        required=True, strict=True, validate=between(0, 2**53),
        metadata={"description": "The table's version the move was chosen at (from the last "
                  "answer or event); another version is refused with `stale_version`."},
    )


class EventsQuerySchema(Schema):
    class Meta:
        # ``lang`` and a browser's cache busters share the query string.
        unknown = ma.EXCLUDE

    key = ma.fields.String(
        load_default=None,
        metadata={"description": "The seat's key, for clients that cannot set headers "
                  "(a browser's EventSource); kept out of the access log."},
    )
    after = ma.fields.Integer(
        load_default=None, validate=between(0, 2**53),
        metadata={"description": "Send the versions after this one (as `Last-Event-ID` "
                  "does); without either, the stream starts with the current version."},
    )
    wait = ma.fields.Integer(
        load_default=None, validate=between(0, MAX_WAIT_SECONDS),
        metadata={"deprecated": True,
                  "description": "Deprecated: the long poll is `GET .../updates`, where a "
                  "request with `wait` is redirected (307) with its query."},
    )


class UpdatesQuerySchema(Schema):
    class Meta:
        unknown = ma.EXCLUDE

    key = ma.fields.String(
        load_default=None,
        metadata={"description": "The seat's key, for clients that cannot set headers; kept "
                  "out of the access log."},
    )
    after = ma.fields.Integer(
        load_default=None, validate=between(0, 2**53),
        metadata={"description": "Answer once the table is past this version, with every "
                  "event after it; without it, once the table is past its current version."},
    )
    wait = ma.fields.Integer(
        load_default=DEFAULT_WAIT_SECONDS, validate=between(0, MAX_WAIT_SECONDS),
        metadata={"description": "Answer after this many seconds if nothing happened (then "
                  "`events` is empty); 0 answers at once."},
    )


class ResumeHeadersSchema(Schema):
    class Meta:
        unknown = ma.EXCLUDE

    last_event_id = ma.fields.Integer(
        data_key="Last-Event-ID", validate=between(0, 2**53),
        metadata={"description": "The last version received (an EventSource sends it when "
                  "it reconnects): the stream resumes after it."},
    )


class SeatSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    bot = ma.fields.String(required=True, allow_none=True, metadata={COMPONENT: "BotLevel"})


class NewSeatSchema(SeatSchema):
    key = ma.fields.String(
        required=True, allow_none=True,
        metadata={"description": "The seat's secret key (null for a bot seat): hand it to "
                  "the player of that seat only. It is never shown again."},
    )


class TableSchema(ma.Schema):
    table = ma.fields.String(required=True, metadata={"description": "The table's id."})
    version = ma.fields.Integer(
        required=True, metadata={"description": "Counts the commits since the deal (0)."}
    )
    variant = ma.fields.String(required=True)
    players = ma.fields.Integer(required=True)
    seats = ma.fields.List(ma.fields.Nested(SeatSchema), required=True, metadata=_SEATS_DOC)
    hints = ma.fields.String(
        required=True, metadata={"enum": list(HINTS),
                                 "description": "Whether the seats may ask for hints."},
    )
    seed_sha256 = ma.fields.String(
        required=True,
        metadata={"description": "SHA-256 (hex) of the seed as UTF-8 text, published before "
                  "the first move; `view.seed` reveals the seed once the match is over."},
    )
    seat = ma.fields.Integer(
        required=True, allow_none=True,
        metadata={"description": "The seat whose key was shown; null for a spectator."},
    )
    view = ma.fields.Dict(
        required=True,
        metadata={"description": "The match as this seat sees it; hidden cards are null.",
                  COMPONENT: "View"},
    )
    to_move = ma.fields.Integer(
        required=True, allow_none=True,
        metadata={"description": "The seat to act; null between rounds (any human seat may "
                  "deal the next one) and once the match is over."},
    )
    is_over = ma.fields.Boolean(required=True)
    legal_moves = ma.fields.List(
        ma.fields.Dict(metadata={COMPONENT: "Move"}), required=True,
        metadata={"description": "The moves this seat may make now."},
    )


class TableUpdateSchema(TableSchema):
    events = ma.fields.List(
        ma.fields.Dict(metadata={COMPONENT: "Event"}), required=True,
        metadata={"description": "What happened since the version asked about (bots' moves "
                  "included), in order, each with a localized `message`."},
    )


class NewTableResultSchema(TableUpdateSchema):
    seats = ma.fields.List(ma.fields.Nested(NewSeatSchema), required=True, metadata=_SEATS_DOC)


# The table as a seat sees it.


class TableEventMessageSchema(ma.Schema):
    """One Server-Sent Event of a table's stream, its fields as the `text/event-stream` lines
    carry them (`id:`, `data:`, `retry:`); comment lines (`: keep-alive`) carry none."""

    event = ma.fields.String(metadata={
        "description": "Absent for a new version. `table_reset`: `data` is the table as it is "
        "now, replacing what the client showed (its cursor was not on the table's timeline). "
        "`reconnect`: the instance stops; reconnect after `retry` with `Last-Event-ID`.",
        "enum": ["table_reset", "reconnect"]})
    id = ma.fields.Integer(metadata={"description": "The version this event brings (what "
                                     "`Last-Event-ID` resumes after)."})
    data = ma.fields.Nested(TableUpdateSchema, metadata={
        "description": "The table at that version as this seat sees it, with the events "
        "of that version, as JSON on one line."})
    retry = ma.fields.Integer(metadata={"description": "How many milliseconds a client "
                                        "waits before it reconnects (sent first)."})
