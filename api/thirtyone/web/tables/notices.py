"""What a table's life adds to the engine's events, and every event in the reader's language.

The events of a version are the engine's (moves, deals, results) and these, all public:
``seat_claimed`` (seat, name), ``table_started`` (seed_sha256, the seats given to bots),
``seat_left`` and ``seat_to_bot`` (seat, bot: its level), ``seat_returned`` (seat: its
player took it back from the bot), ``autopilot`` (seat: its time ran
out and a bot moved for it) and ``rematch`` (table: the next table).
"""

from __future__ import annotations

from typing import Any

from thirtyone.errors import N_
from thirtyone.web.games import localize_events
from thirtyone.web.i18n import format_message

MESSAGES: dict[str, str] = {
    "seat_claimed": N_("{name} took seat {seat}."),
    "table_started": N_("Every seat is taken: the cards are dealt."),
    "seat_left": N_("Seat {seat} left the match; a bot plays it from now on."),
    "seat_to_bot": N_("Seat {seat} missed three turns in a row; a bot plays it from now on."),
    "seat_returned": N_("Seat {seat} is back: its player plays it again."),
    "autopilot": N_("Seat {seat} ran out of time; the autopilot moved for it."),
    "rematch": N_("A rematch is open at table {table}."),
}


def localize(events: list[dict[str, Any]], pack: str = "french") -> list[dict[str, Any]]:
    """``events`` with a ``message`` each, in the request's language (the cards named by
    ``pack``)."""
    engine = localize_events([event for event in events if event["type"] not in MESSAGES], pack)
    said = iter(engine)
    return [
        {**event, "message": format_message(MESSAGES[event["type"]], _params(event))}
        if event["type"] in MESSAGES else next(said)
        for event in events
    ]


def _params(event: dict[str, Any]) -> dict[str, Any]:
    # A seat claimed for a rematch by a player who never gave a name.
    if "name" in event and not event["name"]:
        return {**event, "name": f"#{event['seat']}"}
    return event
