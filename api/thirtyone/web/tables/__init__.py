"""Hosted tables: matches the server keeps, for players who talk to the API directly.

``POST /v1/tables`` deals a match, draws its seed (publishing only its SHA-256 until the match
is over) and gives a secret key to each human seat; bot seats play on the server. A seat shows
its key as ``Authorization: Bearer <key>`` to see its cards and to move; without a key one
sees what a spectator sees. Each committed move makes a new version of the table: a move names
the version it was chosen at, so an old view can never be replayed with another move.
``GET /v1/tables/{table}/events`` pushes every version to the seats as Server-Sent Events (or
answers a long poll).

The package, read in this order:

- :mod:`.routes`: the operations on a table (open, read, move);
- :mod:`.commands`: every change to a table, one class each;
- :mod:`.commit_path`: the one path that commits them (authentication, idempotency, the
  clock's due move, compare-and-set, retries);
- :mod:`.streams`: the event stream and the long poll;
- :mod:`.claims`: claiming a seat with an invitation, keys and invitations replaced,
  starting a waiting table, leaving a match, taking a seat back;
- :mod:`.life`: opening and dealing a table (the seed's commitment and contributions);
- :mod:`.clocks`: turn clocks and the autopilot; :mod:`.presence`: who is connected;
- :mod:`.lobby`: the public tables waiting for players;
- :mod:`.records`: a finished table's match record; :mod:`.rematch`: the next match;
- :mod:`.events`: the events the table's life adds (their types); :mod:`.notices`: every
  event's sentence;
- :mod:`.schemas`: what the operations take and answer, as the contract shows them;
- :mod:`.answers`: the table as one seat sees it;
- :mod:`.seats`: seat keys, and which seat a request speaks for;
- :mod:`.table`: the table's typed metadata and its life (waiting, playing, over,
  rematched);
- :mod:`.scheduler`: bots' and the autopilot's moves, played off the request path;
- :mod:`.playing`: a move played and recorded, and the bots' moves after it;
- :mod:`.ledger`: the table's versions in the store and this process's cache of their states;
- :mod:`.problems`: the problems only tables answer.

The tables live in a :class:`~thirtyone.web.store.TableStore` (``THIRTYONE_STORE``).
"""

from __future__ import annotations

from flask import Flask

from thirtyone.web.tables import claims, ledger, lobby, records, rematch, routes, scheduler, streams
from thirtyone.web.tables.blueprint import blp
from thirtyone.web.tables.ledger import default_config, document, load_table, table_state
from thirtyone.web.tables.problems import key_required, store_unavailable, table_not_found
from thirtyone.web.tables.seats import bearer_key, seat_of


def init_app(app: Flask) -> None:
    """The table store (:func:`.ledger.init_app`) and the worker's scheduler of the moves
    nobody chooses (:mod:`.scheduler`)."""
    ledger.init_app(app)
    scheduler.init_app(app)


# The operations register on ``blp`` where they are declared.
OPERATIONS = (routes, streams, claims, lobby, records, rematch)

__all__ = [
    "OPERATIONS",
    "bearer_key",
    "blp",
    "default_config",
    "document",
    "init_app",
    "key_required",
    "load_table",
    "seat_of",
    "store_unavailable",
    "table_not_found",
    "table_state",
]
