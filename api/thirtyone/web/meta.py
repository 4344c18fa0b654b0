"""Service health."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask.views import MethodView

import thirtyone
from thirtyone.web.api import Blueprint

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
