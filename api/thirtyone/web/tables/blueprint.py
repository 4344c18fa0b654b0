"""The tables' blueprint, with the problems its operations raise mapped to answers."""

from __future__ import annotations

from thirtyone.web.api import Blueprint
from thirtyone.web.store import StaleVersion, StoreUnavailable, TableLost, TableNotFound
from thirtyone.web.tables import problems

blp = Blueprint(
    "tables", __name__, url_prefix="/v1/tables",
    description="Hosted tables: the server keeps the match, each seat proves itself with its "
    "key, bots fill seats, and every move is pushed to the other seats.",
)
blp.register_error_handler(TableNotFound, problems.table_not_found)
blp.register_error_handler(StoreUnavailable, problems.store_unavailable)
blp.register_error_handler(StaleVersion, problems.stale)
blp.register_error_handler(TableLost, problems.table_lost)
