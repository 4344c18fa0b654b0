"""The events a hosted table's own life adds to the engine's (a seat claimed, left, handed
to a bot or taken back, the autopilot, the deal of a waiting table, a rematch): their types
alone, which the contract reads without the web layer that words them (:mod:`.notices`)."""

from __future__ import annotations

from typing import Literal, TypedDict, get_args, get_type_hints


class SeatClaimed(TypedDict):
    type: Literal["seat_claimed"]
    seat: int
    name: str | None


class TableStarted(TypedDict):
    type: Literal["table_started"]
    seed_sha256: str
    bots: list[int]
    """The seats nobody claimed, given to bots of the table's level."""


class SeatLeft(TypedDict):
    type: Literal["seat_left"]
    seat: int
    bot: str
    """The level of the bot that plays the seat from now on."""


class SeatToBot(TypedDict):
    type: Literal["seat_to_bot"]
    seat: int
    bot: str


class SeatReturned(TypedDict):
    type: Literal["seat_returned"]
    seat: int
    """Its player took it back from the bot that played it."""


class Autopilot(TypedDict):
    type: Literal["autopilot"]
    seat: int


class RematchOpened(TypedDict):
    type: Literal["rematch"]
    table: str
    """The rematch's table."""


TableEvent = (SeatClaimed | TableStarted | SeatLeft | SeatToBot | SeatReturned | Autopilot
              | RematchOpened)
"""Any event of a table's life (the contract's ``Event`` union holds them beside the
engine's)."""

TABLE_EVENTS: dict[str, type] = {
    get_args(get_type_hints(kind)["type"])[0]: kind for kind in get_args(TableEvent)
}
