"""A finished table's match record (:mod:`thirtyone.record`): anyone may download it and
check it with ``thirtyone verify RECORD.json``, with the engine alone.

The record replays the table's log from the derived seed; a finished table never changes, so
each process keeps the records it built (the replay of a long match is not repeated).

When a match ends its record is written to the archive (:mod:`thirtyone.web.archive`) by the
commit that ended it (:func:`archive_match`, called by :mod:`.ledger`); the record endpoint
reads the archive first, so a record outlives its table in the table store. A match the
archive missed (it did not answer when the match ended) is written when its record is next
read, while the table is still in the store.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict

import marshmallow as ma
from flask import Response, current_app
from flask.views import MethodView

from thirtyone import record as records
from thirtyone.errors import N_
from thirtyone.web import compute, metrics
from thirtyone.web.archive import ArchiveUnavailable, archive
from thirtyone.web.problems import Problem
from thirtyone.web.store import StoreError
from thirtyone.web.tables import ledger
from thirtyone.web.tables.blueprint import blp
from thirtyone.web.tables.ledger import load_table, store, table_state
from thirtyone.web.tables.life import contributions, match_moves
from thirtyone.web.tables.problems import match_not_over
from thirtyone.web.tables.table import of

_log = logging.getLogger(__name__)

_built: OrderedDict[str, str] = OrderedDict()
_lock = threading.Lock()
_KEPT = 256


class RecordSchema(ma.Schema):
    format = ma.fields.String(required=True, metadata={"enum": [records.FORMAT]})
    format_version = ma.fields.Integer(required=True,
                                       metadata={"enum": [records.FORMAT_VERSION]})
    table = ma.fields.String(required=True, allow_none=True)
    variant = ma.fields.String(required=True)
    players = ma.fields.Integer(required=True)
    options = ma.fields.Dict(required=True)
    seats = ma.fields.List(ma.fields.Dict(), required=True, metadata={
        "description": "Per seat: `seat`, `name`, `bot` (the level that played it last)."})
    seed = ma.fields.Dict(required=True, metadata={
        "description": "`server` (the server's secret seed), `sha256` (its SHA-256, "
        "published first), `contributions` (one per seat, null for none) and `deal` (the "
        "deal's seed derived from them, as `thirtyone.record.derive_seed` documents)."})
    moves = ma.fields.List(ma.fields.Dict(), required=True, metadata={
        "description": "Every move in order, each with its `seat`; `next_round` deals."})
    rounds = ma.fields.List(ma.fields.Dict(), required=True,
                            metadata={"description": "Every round's result, in order."})
    winners = ma.fields.List(ma.fields.Integer(), required=True)
    is_over = ma.fields.Boolean(required=True)


def no_record() -> Problem:
    return Problem(404, "no_record",
                   N_("This table keeps no whole match record (its store lost part of the "
                      "match)."))


def build(table: str) -> str:
    """The record of a finished table, as JSON text: the archive's, else made from the table
    store (and archived)."""
    with _lock:
        if table in _built:
            return _built[table]
    try:
        built = archive().get(table)
    except ArchiveUnavailable as error:
        _log.error("the archive did not answer: %s", error)
        built = None
    if built is None:
        built = _archive(table, time.time())
    _keep(table, built)
    return built


def _keep(table: str, built: str) -> None:
    with _lock:
        _built[table] = built
        if len(_built) > _KEPT:
            _built.popitem(last=False)


def _archive(table: str, finished_at: float) -> str:
    """Make the record of a finished table from the table store, and write it to the archive
    (a failed write is logged and counted: the record is still served, and archived when it
    is next read)."""
    start = time.perf_counter()
    built, key_hashes = _make(table)
    try:
        written = archive().put(table, built, key_hashes, finished_at, time.time())
    except ArchiveUnavailable as error:
        _log.error("table %s: the archive did not take its record: %s", table, error)
        metrics.ARCHIVE_WRITES.labels("failed").inc()
        return built
    metrics.ARCHIVE_WRITES.labels("written" if written else "present").inc()
    if written:
        metrics.ARCHIVE_SECONDS.observe(time.perf_counter() - start)
        metrics.ARCHIVE_LAG.observe(max(0.0, time.time() - finished_at))
    if archive().shared:
        # Archived for every instance: the table store keeps what a late reader needs.
        try:
            store().compact(table, int(current_app.config["THIRTYONE_FINISHED_TTL"]))
        except StoreError as error:
            _log.error("table %s: archived, but not compacted: %r", table, error)
    return built


def archive_match(table: str, finished_at: float) -> None:
    """The match at ``table`` just ended (at ``finished_at``): archive its record. A failure
    is logged, never raised: the move that ended the match is committed already."""
    with _lock:
        if table in _built:
            return  # archived by this process (or read from the archive) already
    try:
        _keep(table, _archive(table, finished_at))
    except (StoreError, Problem) as error:
        _log.error("table %s: its record could not be made for the archive: %r", table, error)
        metrics.ARCHIVE_WRITES.labels("failed").inc()


ledger.on_match_over(archive_match)


def _make(table: str) -> tuple[str, list[str | None]]:
    """The record of a finished table from the table store, and its seats' key hashes."""
    record = load_table(table)
    if not table_state(record).is_over:
        raise match_not_over()
    meta = of(record)
    if meta.server_seed is None or meta.variant is None or meta.players is None:
        raise no_record()
    kept = store().archive(table)
    if [version.version for version in kept] != list(range(1, record.version + 1)) or any(
            version.reset for version in kept):
        # A timeline the store lost, or an archive older than the table: a record of part
        # of a match could not be checked.
        raise no_record()
    moves = match_moves([version.moves for version in kept])
    # Making the record replays the whole match (about 1 s for 45,000 versions): in the
    # compute pool, not in the worker's event loop.
    built = records.dumps(compute.run(
        records.make_record,
        variant=meta.variant, players=meta.players, options=meta.options,
        names=[seat.name for seat in meta.seats],
        bots=[stored.bot for stored in record.seats], server_seed=meta.server_seed,
        contributions=contributions(record), moves=moves, table=table))
    return built, [stored.key_hash for stored in record.seats]


@blp.route("/<table>/record")
class TableRecordDocument(MethodView):
    @blp.doc(operationId="getTableRecord")
    @blp.response(200, RecordSchema)
    @blp.alt_response(404, response="NOT_FOUND",
                      description="No such table, or it expired before its match ended.")
    @blp.alt_response(409, response="CONFLICT", description="The match is not over yet.")
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE",
                      description="The table store is not answering, or the server is busy.")
    def get(self, table: str) -> Response:
        """The match record of a finished table: variant, options, seats and names, the
        server's seed with its SHA-256 and every contribution, every move and every round's
        result. `thirtyone verify RECORD.json` replays it with the engine and checks it.
        A finished match's record is archived for good: it is served after its table
        expired."""
        response = Response(build(table), mimetype="application/json")
        response.headers["Content-Disposition"] = (
            f'attachment; filename="thirtyone-{table}.json"')
        return response
