"""What the table operations take and answer, as the contract shows them."""

from __future__ import annotations

import re
import unicodedata
from typing import Any, ClassVar

import marshmallow as ma

from thirtyone.bots import BOTS
from thirtyone.errors import N_
from thirtyone.record import MAX_CONTRIBUTION
from thirtyone.web.contract import COMPONENT
from thirtyone.web.games import MoveSchema
from thirtyone.web.tables.cursors import PATTERN as CURSOR_PATTERN
from thirtyone.web.tables.cursors import Cursor
from thirtyone.web.tables.lobby import PER_ADDRESS
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
              "human seat; the name its player chose, whether it is claimed and its player "
              "connected now (an open stream or a request in the last 30 s), and when its "
              "move is due on a clocked table."}

NAME_LENGTH = 32
"""The longest display name, in characters."""

# A name is any text of any script; control characters, invisible formatting characters
# (zero widths, direction overrides, soft hyphen...) and lone surrogates are left out of it.
_HIDDEN = re.compile("[\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u180e\\u200b-\\u200f"
                     "\\u202a-\\u202e\\u2060-\\u206f\\ufeff\\ufff9-\\ufffb\\ud800-\\udfff]")


def display_name(text: str | None) -> str | None:
    """A display name as kept: NFC, without hidden characters, spaces trimmed and runs of
    spaces made one; None when nothing is left (the seat is then shown by its number).

    >>> display_name("  Анна \\u200b  Мария "), display_name("\\u202e "), display_name(None)
    ('Анна Мария', None, None)
    """
    if text is None:
        return None
    name = " ".join(_HIDDEN.sub("", unicodedata.normalize("NFC", text)).split())
    return name or None


def _a_cursor(text: str) -> None:
    if Cursor.parse(text) is None:
        raise ma.ValidationError(Message(
            N_("Not a cursor this API sent: EPOCH.VERSION.DIGEST, or a version."),
            "bad_cursor"))


def cursor_field(**kwargs: Any) -> ma.fields.String:
    """A version a client was sent, as its answer or event named it (see :mod:`.cursors`):
    a string to the contract, checked here, read as a :class:`Cursor` by
    :class:`CursorSchema`."""
    metadata = {**kwargs.pop("metadata", {}), "pattern": CURSOR_PATTERN}
    return ma.fields.String(validate=_a_cursor, metadata=metadata, **kwargs)


class CursorSchema(Schema):
    """A schema whose :data:`CURSORS` fields are loaded as :class:`Cursor`."""

    CURSORS: ClassVar[tuple[str, ...]] = ()

    @ma.post_load
    def read_cursors(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        for name in self.CURSORS:
            if data.get(name) is not None:
                data[name] = Cursor.parse(data[name])
        return data


_CURSOR_DOC = ("`EPOCH.VERSION.DIGEST` as an answer's `cursor` or an event's `id:` names it "
               "(a bare version is still taken, unchecked). A cursor not on the table's "
               "timeline (the store lost versions) ")


def _short_name(text: str) -> None:
    if len(text) > NAME_LENGTH:
        raise ma.ValidationError(Message(
            N_("A name has at most {max} characters."), "bad_name").format(max=NAME_LENGTH))


def _name_field(**kwargs: Any) -> ma.fields.String:
    """A display name: any script; the schema keeps it as :func:`display_name` reads it."""
    return ma.fields.String(validate=_short_name, metadata={
        "description": f"The player's display name: 1 to {NAME_LENGTH} characters of any "
        "script, shown to everyone at the table (control and invisible characters are left "
        "out).", "maxLength": NAME_LENGTH}, **kwargs)


def _whole_text(text: str) -> None:
    """Refuse a lone surrogate, which no UTF-8 text holds (JSON's escapes can write one)."""
    if any("\ud800" <= char <= "\udfff" for char in text):
        raise ma.ValidationError(Message(N_("Not a valid utf-8 string."), "wrong_type"))


def _entropy_field() -> ma.fields.String:
    return ma.fields.String(
        allow_none=True, validate=[ma.validate.Length(
            max=MAX_CONTRIBUTION, error=Message(N_("At most {max} characters."), "too_long")),
            _whole_text],
        metadata={"description": "Your contribution to the deal's seed: any text (dice, "
                  "typing, a random number). The deal's seed is derived from the server's "
                  "secret seed, whose SHA-256 is published first, and every seat's "
                  "contribution (see `thirtyone.record`), so nobody chose the deal alone.",
                  "maxLength": MAX_CONTRIBUTION})


class NewTableSchema(RulesSchema):
    players = players_field()
    bots = ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.String(validate=one_of(BOT_LEVELS), metadata={COMPONENT: "BotLevel"}),
        load_default=dict,
        metadata={"description": "Bot seats: a bot level by seat number, e.g. "
                  "`{\"1\": \"greedy\"}`. The other seats are for humans."},
    )

    seat = ma.fields.Integer(
        allow_none=True, validate=between(0, 14),
        metadata={"description": "Your own seat (a human one); by default the first human "
                  "seat. Its key is the only key in the answer; each other human seat gets "
                  "an invitation to hand to its player."},
    )
    name = _name_field(allow_none=True)
    entropy = _entropy_field()
    public = ma.fields.Boolean(
        metadata={"description": "List the table in the lobby (`GET /v1/tables`) while it "
                  "waits for players: anyone may then claim a free seat. A client has at "
                  f"most {PER_ADDRESS} tables listed at once (409 `too_many_listed_tables` "
                  "beyond)."},
    )
    turn_seconds = ma.fields.Integer(
        allow_none=True, validate=between(2, 86_400),
        metadata={"description": "A clock per turn: past it, a bot of the table's level "
                  "moves for the seat (the autopilot); three missed turns in a row give the "
                  "seat to the bot. None: no clock."},
    )
    level = ma.fields.String(
        allow_none=True, validate=one_of(BOT_LEVELS),
        metadata={COMPONENT: "BotLevel",
                  "description": "The level of the bots that take over a seat (a player "
                  "left, missed turns, never came); by default the bot seats' level, else "
                  "`greedy`."},
    )

    @ma.post_load
    def absent(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        # Filled here rather than by load_default, which the contract would show as a
        # `default` that generated clients then send or require.
        data = {"seat": None, "name": None, "entropy": None, "public": False,
                "turn_seconds": None, "level": None, "hints": None} | data
        return data | {"name": display_name(data["name"])}

    hints = ma.fields.String(
        allow_none=True, validate=one_of(HINTS),
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
        seat = data.get("seat")
        if seat is not None and (seat >= data["players"] or str(seat) in data["bots"]):
            raise ma.ValidationError(
                Message(N_("Your seat must be a human seat of this table."), "bad_seat"),
                field_name="seat")


class ClaimSeatSchema(Schema):
    invitation = ma.fields.String(
        allow_none=True, validate=ma.validate.Length(max=128),
        metadata={"description": "The seat's invitation, from the creator. A free seat of a "
                  "public table needs none."},
    )
    name = _name_field(required=True, allow_none=True)
    entropy = _entropy_field()

    @ma.post_load
    def absent(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        data = {"invitation": None, "entropy": None} | data
        return data | {"name": display_name(data["name"])}


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


class EventsQuerySchema(CursorSchema):
    CURSORS = ("after",)

    class Meta:
        # ``lang`` and a browser's cache busters share the query string.
        unknown = ma.EXCLUDE

    key = ma.fields.String(
        load_default=None,
        metadata={"description": "The seat's key, for clients that cannot set headers "
                  "(a browser's EventSource); kept out of the access log."},
    )
    after = cursor_field(
        load_default=None,
        metadata={"description": "Send the versions after this one (as `Last-Event-ID` "
                  "does); without either, the stream starts with the current version. "
                  + _CURSOR_DOC + "gets `event: table_reset`."},
    )
    wait = ma.fields.Integer(
        load_default=None, validate=between(0, MAX_WAIT_SECONDS),
        metadata={"deprecated": True,
                  "description": "Deprecated: the long poll is `GET .../updates`, where a "
                  "request with `wait` is redirected (307) with its query."},
    )


class UpdatesQuerySchema(CursorSchema):
    CURSORS = ("after",)

    class Meta:
        unknown = ma.EXCLUDE

    key = ma.fields.String(
        load_default=None,
        metadata={"description": "The seat's key, for clients that cannot set headers; kept "
                  "out of the access log."},
    )
    after = cursor_field(
        load_default=None,
        metadata={"description": "Answer once the table is past this version, with every "
                  "event after it; without it, once the table is past its current version. "
                  + _CURSOR_DOC + "is answered 409 `table_reset`, naming the table's "
                  "`epoch` and `cursor`."},
    )
    wait = ma.fields.Integer(
        load_default=DEFAULT_WAIT_SECONDS, validate=between(0, MAX_WAIT_SECONDS),
        metadata={"description": "Answer after this many seconds if nothing happened (then "
                  "`events` is empty); 0 answers at once."},
    )


class ResumeHeadersSchema(CursorSchema):
    CURSORS = ("last_event_id",)

    class Meta:
        unknown = ma.EXCLUDE

    last_event_id = cursor_field(
        data_key="Last-Event-ID",
        metadata={"description": "The last event's `id:` received (an EventSource sends it "
                  "when it reconnects): the stream resumes after it. " + _CURSOR_DOC
                  + "gets `event: table_reset`."},
    )


class SeatSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    bot = ma.fields.String(required=True, allow_none=True, metadata={COMPONENT: "BotLevel"})
    name = ma.fields.String(required=True, allow_none=True)
    claimed = ma.fields.Boolean(required=True)
    connected = ma.fields.Boolean(required=True)
    deadline = ma.fields.String(
        required=True, allow_none=True,
        metadata={"format": "date-time", "description": "When this seat's move is due "
                  "(clocked tables); null when it is not to move."})


class NewSeatSchema(SeatSchema):
    key = ma.fields.String(
        required=True, allow_none=True,
        metadata={"description": "Your own seat's secret key (null for every other seat): "
                  "it is never shown again, and nobody else holds it."},
    )
    invitation = ma.fields.String(
        required=True, allow_none=True,
        metadata={"description": "A single-use invitation for another human seat: hand it "
                  "to that seat's player, who claims the seat with it "
                  "(`POST /v1/tables/{table}/seats/{seat}`) and gets a key only they hold."},
    )


class SeatKeySchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    key = ma.fields.String(
        required=True, metadata={"description": "The seat's new key, shown only here; the "
                                 "old one opens nothing any more."})


class InvitationSchema(ma.Schema):
    seat = ma.fields.Integer(required=True)
    invitation = ma.fields.String(
        required=True, metadata={"description": "The seat's new invitation; the old one is "
                                 "revoked."})


class TableSchema(ma.Schema):
    table = ma.fields.String(required=True, metadata={"description": "The table's id."})
    version = ma.fields.Integer(
        required=True, metadata={"description": "Counts the commits since the deal (0)."}
    )
    epoch = ma.fields.String(
        required=True, metadata={"description": "The table's timeline: a new one begins when "
                                 "the store lost versions (see `cursor`)."})
    cursor = ma.fields.String(
        required=True, metadata={"description": "This version on this epoch, "
                                 "`EPOCH.VERSION.DIGEST` (or `EPOCH.VERSION`): send it back "
                                 "as `after` or `Last-Event-ID`."})
    variant = ma.fields.String(required=True)
    players = ma.fields.Integer(required=True)
    phase = ma.fields.String(
        required=True, metadata={"enum": ["waiting", "playing", "over"], "description":
                                 "`waiting`: seats are being claimed and no card is dealt "
                                 "(`view` is null); then `playing`, then `over`."})
    seats = ma.fields.List(ma.fields.Nested(SeatSchema), required=True, metadata=_SEATS_DOC)
    hints = ma.fields.String(
        required=True, metadata={"enum": list(HINTS),
                                 "description": "Whether the seats may ask for hints."},
    )
    seed_sha256 = ma.fields.String(
        required=True,
        metadata={"description": "SHA-256 (hex) of the server's secret seed as UTF-8 text, "
                  "published when the table opens, before any contribution; the deal's seed "
                  "derives from it and the seats' contributions, and the match record "
                  "(`GET /v1/tables/{table}/record`) reveals all of them once it is over."},
    )
    server_seed = ma.fields.String(
        required=True, allow_none=True,
        metadata={"description": "The server's secret seed, revealed once the match is over "
                  "(null before): its SHA-256 is `seed_sha256`."},
    )
    seat = ma.fields.Integer(
        required=True, allow_none=True,
        metadata={"description": "The seat whose key was shown; null for a spectator."},
    )
    view = ma.fields.Dict(
        required=True, allow_none=True,
        metadata={"description": "The match as this seat sees it; hidden cards are null. "
                  "Null while the table waits for players.", COMPONENT: "View"},
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
    options = ma.fields.Dict(
        required=True, metadata={"description": "The table's options, as it was opened "
                                 "with them (the view's `rules` has them all)."})
    public = ma.fields.Boolean(required=True)
    turn_seconds = ma.fields.Integer(required=True, allow_none=True)
    level = ma.fields.String(
        required=True, allow_none=True,
        metadata={COMPONENT: "BotLevel",
                  "description": "The level of the bots that take over seats."})
    rematch = ma.fields.String(
        required=True, allow_none=True,
        metadata={"description": "The table of the rematch, once a seat asked for one "
                  "(`POST /v1/tables/{table}/rematch` gives each seat its key there)."})
    rematch_of = ma.fields.String(required=True, allow_none=True,
                                  metadata={"description": "The table this one is a "
                                            "rematch of."})


class TableUpdateSchema(TableSchema):
    events = ma.fields.List(
        ma.fields.Dict(metadata={COMPONENT: "Event"}), required=True,
        metadata={"description": "What happened since the version asked about (bots' moves "
                  "included), in order, each with a localized `message`."},
    )


class NewTableResultSchema(TableUpdateSchema):
    seats = ma.fields.List(ma.fields.Nested(NewSeatSchema), required=True, metadata=_SEATS_DOC)


# The table as a seat sees it.


class ClaimedTableSchema(TableUpdateSchema):
    key = ma.fields.String(
        required=True,
        metadata={"description": "The key of the seat just claimed: shown only in this "
                  "answer, held by nobody else. Show it as `Authorization: Bearer <key>`."},
    )


class TableEventMessageSchema(ma.Schema):
    """One Server-Sent Event of a table's stream, its fields as the `text/event-stream` lines
    carry them (`id:`, `data:`, `retry:`); comment lines (`: keep-alive`) carry none."""

    event = ma.fields.String(metadata={
        "description": "Absent for a new version. `table_reset`: `data` is the table as it is "
        "now, replacing what the client showed (its cursor was not on the table's timeline). "
        "`presence`: `data` is the table as it is now, a seat's `connected` changed with no "
        "move. `reconnect`: the instance stops; reconnect after `retry` with `Last-Event-ID` "
        "(`data` is `{\"retry\": <ms>}`, the same wait, for a client that cannot read the "
        "field).",
        "enum": ["table_reset", "presence", "reconnect"]})
    id = ma.fields.String(metadata={"description": "The cursor of the version this event "
                                    "brings, `EPOCH.VERSION.DIGEST` (what `Last-Event-ID` "
                                    "resumes after)."})
    data = ma.fields.Nested(TableUpdateSchema, metadata={
        "description": "The table at that version as this seat sees it, with the events "
        "of that version, as JSON on one line."})
    retry = ma.fields.Integer(metadata={"description": "How many milliseconds a client "
                                        "waits before it reconnects (sent first)."})
