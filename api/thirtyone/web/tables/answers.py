"""The table as one seat (or a spectator) sees it: what every operation and event answers."""

from __future__ import annotations

from typing import Any

from thirtyone.game import GameState, view
from thirtyone.web.games import described_moves, localize_events
from thirtyone.web.store import TableRecord


def table_answer(record: TableRecord, version: int, state: GameState, seat: int | None,
                 events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The table at ``version`` as ``seat`` sees it (None: a spectator), with ``events``
    localized when given."""
    to_move = state.to_move
    # Between rounds (to_move is None) any human seat may deal; a key is always a human's.
    may_move = seat is not None and (to_move is None or to_move == seat)
    seen = view(state, seat)
    answer = {
        "table": record.table,
        "version": version,
        "variant": state.rules.variant,
        "players": state.players,
        "seats": [{"seat": index, "bot": stored.bot} for index, stored in enumerate(record.seats)],
        "hints": "on" if record.hints else "off",
        "seed_sha256": record.seed_sha256,
        "seat": seat,
        "view": seen,
        "to_move": to_move,
        "is_over": state.is_over,
        "legal_moves": described_moves(state, seen) if may_move else [],
    }
    if events is not None:
        answer["events"] = localize_events(events)
    return answer
