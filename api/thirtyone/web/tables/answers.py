"""The table as one seat (or a spectator) sees it: what every operation and event answers."""

from __future__ import annotations

from typing import Any

from thirtyone.game import GameState, view
from thirtyone.web.games import described_moves
from thirtyone.web.store import TableRecord
from thirtyone.web.tables import clocks, cursors, presence
from thirtyone.web.tables.notices import localize
from thirtyone.web.tables.table import Phase, of
from thirtyone.words import pack_of_deck


def public_seats(record: TableRecord, state: GameState) -> list[dict[str, Any]]:
    """Each seat as anyone may see it: its name, whether a bot plays it (its level), whether
    a player holds it and is connected now, and its deadline."""
    connected = presence.connected(record)
    meta = of(record)
    deadlines = clocks.seat_deadlines(record, state)
    return [{
        "seat": index,
        "bot": stored.bot,
        "name": meta.seat(index).name,
        "claimed": stored.key_hash is not None,
        "connected": connected[index],
        "deadline": clocks.timestamp(deadlines[index]),
    } for index, stored in enumerate(record.seats)]


def table_answer(record: TableRecord, version: int, state: GameState, seat: int | None,
                 events: list[dict[str, Any]] | None = None,
                 digest: str | None = None) -> dict[str, Any]:
    """The table at ``version`` (whose digest is ``digest``, the record's own at its version)
    as ``seat`` sees it (None: a spectator), with ``events`` localized when given."""
    if digest is None and version == record.version:
        digest = record.digest
    meta = of(record)
    waiting = meta.phase == Phase.WAITING
    to_move = None if waiting else state.to_move
    playing = seat is not None and record.seats[seat].bot is None and not waiting
    # Between rounds (to_move is None) any human seat may deal.
    may_move = playing and (to_move is None or to_move == seat)
    seen = None if waiting else view(state, seat)
    answer = {
        "table": record.table,
        "version": version,
        "epoch": record.epoch,
        "cursor": cursors.name(record, version, digest),
        "variant": state.rules.variant,
        "players": state.players,
        # A rematched table shows as over: its match is.
        "phase": str(meta.life(state) if meta.life(state) != Phase.REMATCHED else Phase.OVER),
        "seats": public_seats(record, state),
        "hints": "on" if record.hints else "off",
        "seed_sha256": record.seed_sha256,
        "seat": seat,
        # Revealed with the deal's seed (``view.seed``) once the match is over.
        "server_seed": meta.server_seed if state.is_over and not waiting else None,
        "view": seen,
        "to_move": to_move,
        "is_over": state.is_over,
        "legal_moves": described_moves(state, seen) if may_move and seen else [],
        "options": (meta.options if meta.options is not None
                    else state.rules.to_dict()["options"]),
        "public": meta.public,
        "turn_seconds": meta.turn_seconds,
        "level": meta.level,
        "rematch": meta.rematch,
        "rematch_of": meta.rematch_of,
    }
    if events is not None:
        answer["events"] = localize(events, pack_of_deck(state.rules.deck))
    return answer
