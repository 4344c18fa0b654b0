"""The contract evolves: generated clients keep working when the server answers a problem code,
a table phase, an event type and a field that their contract did not know.

A middleware makes the real app answer as a later version of `/v1` may: the generated Python
client (openapi-python-client, from the committed openapi.yaml) must read all of it without
an exception (the TypeScript types are checked by `make clients`: src/open-contract.check.ts).
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from tests.web.test_generated_client import client_for, generated, op  # noqa: F401 (fixture)

pytestmark = pytest.mark.slow  # generates and installs a client package

TOMORROW_EVENT = {"type": "comet_passed", "message": "A comet passed.", "tail": 3}


class FromTheFuture:
    """Answers as the wrapped app does, with a new problem code, phase, event type and field."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        said: dict[str, Any] = {}

        def keep(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
            said.update(status=status, headers=headers)

        body = b"".join(self.app(environ, keep))
        headers = said["headers"]
        if "json" in dict(headers).get("Content-Type", ""):
            data = json.loads(body)
            if "code" in data:
                data["code"] = "a_code_of_tomorrow"
            if "phase" in data:
                data["phase"] = "paused"
            if "events" in data:
                data["events"].append(TOMORROW_EVENT)
            data["a_field_of_tomorrow"] = {"any": "thing"}
            body = json.dumps(data).encode()
            headers = [(name, str(len(body)) if name == "Content-Length" else value)
                       for name, value in headers]
        start_response(said["status"], headers)
        return [body]


def test_the_generated_python_client_reads_what_it_does_not_know(generated, app):  # noqa: F811
    models = importlib.import_module("thirtyone_client.models")
    future = FromTheFuture(app)
    opened = op(generated, "open_table").sync(client=client_for(generated, future), body=(
        models.NewTable(variant=models.VariantId.SCAT, players=2,
                        bots=models.NewTableBots.from_dict({"1": "greedy"}))))
    assert isinstance(opened, models.NewTableResult), opened
    assert opened.additional_properties["a_field_of_tomorrow"] == {"any": "thing"}
    key = next(seat.key for seat in opened.seats if seat.bot is None)
    mine = client_for(generated, future, key)
    seen = op(generated, "get_table").sync(opened.table, client=mine)
    assert isinstance(seen, models.Table), seen
    assert seen.phase == "paused"
    update = op(generated, "poll_table").sync(opened.table, client=mine, after=seen.version,
                                               wait=0)
    assert isinstance(update, models.TableUpdate), update
    assert isinstance(update.events[-1], models.OtherEvent)
    assert update.events[-1].type_ == "comet_passed"
    assert update.events[-1].additional_properties["tail"] == 3
    problem = op(generated, "get_variant").sync("no such game", client=client_for(
        generated, future))
    assert isinstance(problem, models.Problem), problem
    assert problem.code == "a_code_of_tomorrow" and problem.status == 404
