"""openapi.yaml is a valid OpenAPI document that names every operation and its errors."""

from __future__ import annotations

from pathlib import Path

import yaml
from openapi_spec_validator import validate

ROOT = Path(__file__).resolve().parents[2]


def contract() -> dict:
    with (ROOT / "openapi.yaml").open(encoding="utf-8") as file:
        return yaml.safe_load(file)


def test_the_contract_is_valid_openapi():
    validate(contract())


def test_every_operation_is_named_and_documents_its_client_errors():
    spec = contract()
    names = []
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":
                continue
            names.append(operation["operationId"])
            statuses = set(operation["responses"])
            takes_input = "requestBody" in operation or "{" in path
            assert not takes_input or any(s.startswith("4") for s in statuses), (method, path)
            if "requestBody" in operation:
                assert {"400", "413", "415", "422"} <= statuses, (method, path)
    assert len(names) == len(set(names))


def test_moves_and_events_are_tagged_unions_of_the_engine_types():
    from thirtyone import EVENTS, MOVE_TYPES
    from thirtyone.web.tables.events import TABLE_EVENTS
    from thirtyone.web.tables.notices import MESSAGES

    schemas = contract()["components"]["schemas"]
    # A table's own events are in the union too, each with the sentence it is told in.
    assert set(TABLE_EVENTS) == set(MESSAGES)
    events = {**EVENTS, **TABLE_EVENTS}
    for union, tags in (("Move", MOVE_TYPES), ("PlayedMove", MOVE_TYPES), ("Event", events)):
        assert schemas[union]["discriminator"]["propertyName"] == "type"
        assert set(schemas[union]["discriminator"]["mapping"]) == set(tags), union
        # Event is open: a last member, OtherEvent, for a type added after this contract
        members = schemas[union]["anyOf" if union == "Event" else "oneOf"]
        assert len(members) == len(tags) + (union == "Event")
    view = schemas["View"]
    assert all(prop for prop in view["properties"].values())
    assert set(view["required"]) == set(view["properties"])
