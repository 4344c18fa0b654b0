"""A rematch: after the end, any seat asks for it, and the table's players move to a new
table with the same variant, options, seats, names and bots.

The first seat to ask opens the new table (its seat claimed, a new key) and the old table
announces it (a ``rematch`` event and its ``rematch`` field, pushed to every seat). The other
players' seats there are kept for them: each claims its own by asking for the rematch with
its old key, and gets a new key that nobody else has seen. The new table is dealt once every
kept seat is claimed, or when the one who opened it starts it.
"""

from __future__ import annotations

import hmac
from typing import Any

from flask import Response, jsonify
from flask.views import MethodView

from thirtyone.web.store import SeatRecord, TableRecord
from thirtyone.web.tables.answers import table_answer
from thirtyone.web.tables.blueprint import blp
from thirtyone.web.tables.claims import retried
from thirtyone.web.tables.ledger import table_state
from thirtyone.web.tables.life import (
    TableSpec,
    changed,
    commit_life,
    open_table,
    start,
    waiting_for,
)
from thirtyone.web.tables.presence import touch
from thirtyone.web.tables.problems import key_required, match_not_over, seat_taken
from thirtyone.web.tables.schemas import ClaimedTableSchema
from thirtyone.web.tables.seats import bearer_key, key_hash, new_key, seat_of
from thirtyone.web.tables.table import Phase, of, stored


def _spec(record: TableRecord, seat: int) -> TableSpec:
    meta = of(record)
    players = len(record.seats)
    assert meta.variant is not None
    return TableSpec(
        variant=meta.variant, players=players, options=meta.options or {},
        bots={index: stored.bot for index, stored in enumerate(record.seats)
              if stored.bot is not None and stored.key_hash is None},
        creator=seat,
        names={index: seat.name for index, seat in enumerate(meta.seats) if seat.name},
        turn_seconds=meta.turn_seconds, level=meta.level,
        reserved={index: stored.key_hash for index, stored in enumerate(record.seats)
                  if stored.key_hash is not None and index != seat},
        rematch_of=record.table, hints=record.hints,
    )


@blp.route("/<table>/rematch")
class Rematch(MethodView):
    @blp.doc(operationId="rematch", security=[{"seatKey": []}])
    @blp.response(201, ClaimedTableSchema)
    @blp.alt_response(403, response="FORBIDDEN", description="No key, or it opens no seat.")
    @blp.alt_response(404, response="NOT_FOUND", description="No such table (or expired).")
    @blp.alt_response(409, response="CONFLICT",
                      description="The match is not over, or your seat there is taken.")
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE",
                      description="The table store is not answering.")
    def post(self, table: str) -> tuple[Response, int]:
        """Ask for a rematch once the match is over, with your seat's key: the new table as
        your seat sees it and your key there (the first to ask opens it; the old table's
        stream announces it to the others, who ask in turn)."""
        old_key = bearer_key()

        def rematch(record: TableRecord) -> tuple[TableRecord, Any, list[Any], str, int]:
            if old_key is None:
                raise key_required()
            seat = seat_of(record, old_key)
            assert seat is not None
            touch(record, seat)
            if not table_state(record).is_over:
                raise match_not_over()
            meta = of(record)
            following = meta.rematch
            if following is None:
                opened = open_table(_spec(record, seat))
                announced = stored(record, meta.to(Phase.REMATCHED, table_state(record),
                                                   rematch=opened.record.table))
                commit_life(record, announced, [], table_state(record),
                            [{"type": "rematch", "table": opened.record.table}])
                return (opened.record, opened.state, opened.events, opened.keys[seat], seat)
            return (*_join(str(following), seat, old_key), seat)

        new, state, events, key, seat = retried(table, rematch)
        answer = table_answer(new, new.version, state, seat, events)
        answer["key"] = key
        return jsonify(answer), 201


def _join(table: str, seat: int, old_key: str) -> tuple[TableRecord, Any, list[Any], str]:
    """Claim ``seat`` at the rematch ``table`` for the holder of ``old_key``."""
    key = new_key()

    def claim(record: TableRecord) -> tuple[TableRecord, Any, list[Any], str]:
        meta = of(record)
        reserved = meta.seat(seat).reserved or ""
        if meta.phase != Phase.WAITING or not hmac.compare_digest(reserved, key_hash(old_key)):
            raise seat_taken(seat)
        after = changed(record, seats={seat: SeatRecord(None, key_hash(key))},
                        seat_changes={seat: {"reserved": None}})
        events: list[Any] = [{"type": "seat_claimed", "seat": seat,
                              "name": meta.seat(seat).name}]
        if not waiting_for(after):
            committed, state, events = start(record, after, events)
        else:
            committed = commit_life(record, after, [], table_state(record), events)
            state = table_state(committed)
        touch(committed, seat)
        return committed, state, events, key

    return retried(table, claim)
