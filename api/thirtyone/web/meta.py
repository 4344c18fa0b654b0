"""Service health, for those who route traffic and restart processes.

- ``/healthz``: the process is alive (for a supervisor that restarts it); it reads nothing.
- ``/readyz``: the instance serves (for a load balancer): 503 only while it stops. The
  stateless API (variants, scores, sealed games, reviews) needs no store, so a table store
  that does not answer does not take the instance out of rotation; the answer reports the
  table store's state apart (``tables``: ``ok``, ``degraded`` when some primaries of a
  cluster do not answer, ``unavailable``), every primary of a cluster checked.
- ``/readyz/tables``: the instance serves tables: 503 while it stops or when no part of its
  table store answers, for an operator who routes ``/v1/tables`` on its own.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask import current_app
from flask.views import MethodView

import thirtyone
from thirtyone.errors import N_
from thirtyone.web import draining
from thirtyone.web.api import Blueprint
from thirtyone.web.problems import Problem

blp = Blueprint("meta", __name__, description="The service itself.")


class HealthSchema(ma.Schema):
    status = ma.fields.String(required=True, metadata={"description": "Always `ok`."})
    version = ma.fields.String(required=True, metadata={"description": "The engine's version."})


@blp.route("/healthz")
class Health(MethodView):
    @blp.doc(operationId="health")
    @blp.response(200, HealthSchema)
    def get(self) -> dict[str, Any]:
        """The service is up."""
        return {"status": "ok", "version": thirtyone.__version__}


class TablesStateSchema(ma.Schema):
    status = ma.fields.String(required=True, metadata={
        "enum": ["ok", "degraded", "unavailable"],
        "description": "`ok`: every part of the table store answers; `degraded`: some "
        "primaries of a cluster do not (their tables wait for a failover); `unavailable`: "
        "none does."})
    nodes = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Boolean(), required=True,
                           metadata={"description": "Whether each part answered (every "
                                     "primary of a Redis Cluster)."})


class ReadySchema(ma.Schema):
    status = ma.fields.String(required=True, metadata={"description": "Always `ready`."})
    tables = ma.fields.Nested(TablesStateSchema, required=True)


def _stopping() -> None:
    if draining.stopping():
        raise Problem(503, "stopping", N_("This instance is stopping."),
                      title=N_("Service unavailable"), headers={"Retry-After": "1"})


def _tables() -> dict[str, Any]:
    nodes = current_app.extensions["thirtyone.tables"].check()
    answering = sum(nodes.values())
    status = ("ok" if answering == len(nodes) else "degraded" if answering else "unavailable")
    return {"status": status, "nodes": nodes}


@blp.route("/readyz")
class Ready(MethodView):
    @blp.doc(operationId="ready")
    @blp.response(200, ReadySchema)
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE",
                      description="The instance is stopping.")
    def get(self) -> dict[str, Any]:
        """The instance serves (503 only while it stops), with its table store's state: a
        store that does not answer leaves the stateless API ready."""
        _stopping()
        return {"status": "ready", "tables": _tables()}


@blp.route("/readyz/tables")
class TablesReady(MethodView):
    @blp.doc(operationId="readyTables")
    @blp.response(200, ReadySchema)
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE",
                      description="The table store does not answer, or the instance is "
                      "stopping.")
    def get(self) -> dict[str, Any]:
        """The instance serves tables: its table store answers (some part of it) and it is
        not stopping."""
        _stopping()
        tables = _tables()
        if tables["status"] == "unavailable":
            raise Problem(503, "store_unavailable",
                          N_("The table store is not answering, so nothing was changed; try "
                             "again in a few seconds."),
                          title=N_("Service unavailable"), headers={"Retry-After": "5"})
        return {"status": "ready", "tables": tables}
