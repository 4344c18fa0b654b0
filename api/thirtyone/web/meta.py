"""Service health: ``/healthz`` says the process is alive (for a supervisor that restarts it),
``/readyz`` that it can serve (for a load balancer): its table store answers and it is not
stopping."""

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
from thirtyone.web.store import StoreUnavailable

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


class ReadySchema(ma.Schema):
    status = ma.fields.String(required=True, metadata={"description": "Always `ready`."})


@blp.route("/readyz")
class Ready(MethodView):
    @blp.doc(operationId="ready")
    @blp.response(200, ReadySchema)
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE",
                      description="The table store does not answer, or the instance is "
                      "stopping.")
    def get(self) -> dict[str, Any]:
        """The instance can serve: its table store answers and it is not stopping."""
        if draining.stopping():
            raise Problem(503, "stopping", N_("This instance is stopping."),
                          title=N_("Service unavailable"), headers={"Retry-After": "1"})
        try:
            current_app.extensions["thirtyone.tables"].ping()
        except StoreUnavailable:
            raise Problem(503, "store_unavailable",
                          N_("The table store is not answering, so nothing was changed; try "
                             "again in a few seconds."),
                          title=N_("Service unavailable"), headers={"Retry-After": "5"}) from None
        return {"status": "ready"}
