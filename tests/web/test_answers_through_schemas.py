"""Every operation outside the hosted tables answers what its declared response schema gives.

Each operation of the contract is called with its own example (the request body, path and
query examples the contract shows in Swagger UI's "Try it out"); its 2xx answer must come
back unchanged from a dump through the marshmallow schema the operation declares (no field
the schema lacks, each field as the schema writes it) and load through it (every required
field there, of its type); the hand tables in their JSON form (the binary one has no
schema but its own format). The hosted tables' operations (``/v1/tables/...``) have their
own tests.
"""

from __future__ import annotations

import json
from typing import Any

import marshmallow as ma
import pytest

from thirtyone.web import create_app

SECRET = "test secret, not for production"
ADVICE = "/v1/tables/{table}/advice"


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    folder = tmp_path_factory.mktemp("answers")
    return create_app({"TESTING": True, "THIRTYONE_SECRET_KEY": SECRET, "SITE_DIR": None,
                       "THIRTYONE_STORE": f"sqlite:///{folder}/tables.sqlite3",
                       "THIRTYONE_ARCHIVE": f"sqlite:///{folder}/archive.sqlite3"})


@pytest.fixture(scope="module")
def spec(app) -> dict[str, Any]:
    return app.test_client().get("/openapi.json").json


def schemas_by_name(app) -> dict[str, type[ma.Schema]]:
    """The marshmallow schema of each component the contract names after one."""
    converter = app.extensions["thirtyone.api"].ma_plugin.converter
    return {name: key[0] for key, name in converter.refs.items()}


def operations(spec: dict[str, Any]) -> list[tuple[str, str]]:
    """Every (method, path) of the contract outside the hosted tables (a table seat's advice
    is the advice's, not the tables')."""
    return [(method, path) for path, item in spec["paths"].items()
            for method in item if method in ("get", "post", "put", "patch", "delete")
            and (not path.startswith("/v1/tables") or path == ADVICE)]


def example_request(client, spec: dict[str, Any], method: str,
                    path: str) -> tuple[str, dict[str, Any]]:
    """The URL and keyword arguments of the operation's example request."""
    operation = spec["paths"][path][method]
    url, query = path, {}
    for parameter in operation.get("parameters", []):
        if "$ref" in parameter:
            parameter = spec["components"]["parameters"][parameter["$ref"].rsplit("/", 1)[1]]
        example = parameter.get("example", parameter.get("schema", {}).get("example"))
        if parameter["in"] == "path":
            url = url.replace("{" + parameter["name"] + "}", str(example))
        elif parameter["in"] == "query" and example is not None and parameter.get("required"):
            query[parameter["name"]] = example
    kwargs: dict[str, Any] = {"query_string": query}
    body = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if body is not None:
        kwargs["json"] = body["example"]
    if path == ADVICE:
        # A hosted table, its seat to move asking: the contract's path has no example table.
        created = client.post("/v1/tables", json={"variant": "scat", "players": 2,
                                                  "bots": {"1": "random"}}).json
        seat = created["seats"][0]
        url = path.replace("{table}", created["table"])
        kwargs["headers"] = {"Authorization": f"Bearer {seat['key']}"}
        kwargs["query_string"] = {"samples": 5, "seed": "x"}
    return url, kwargs


def declared(operation: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The operation's success status and its JSON schema in the contract."""
    [(status, response)] = [(status, response)
                            for status, response in operation["responses"].items()
                            if status.startswith("2")]
    return status, response["content"]["application/json"]["schema"]


def test_every_operation_outside_the_tables_is_checked(spec) -> None:
    checked = operations(spec)
    assert len(checked) >= 17
    assert ("post", "/v1/hands/score") in checked and ("get", ADVICE) in checked
    assert all(path == ADVICE or not path.startswith("/v1/tables") for _, path in checked)


def test_each_answer_is_its_schemas_dump(app, spec) -> None:
    client = app.test_client()
    by_name = schemas_by_name(app)
    checked = []
    for method, path in operations(spec):
        operation = spec["paths"][path][method]
        url, kwargs = example_request(client, spec, method, path)
        if "format" in {parameter.get("name") for parameter in operation.get("parameters", [])}:
            kwargs["query_string"] = {**kwargs["query_string"], "format": "json"}
        answer = getattr(client, method)(url, **kwargs)
        status, documented = declared(operation)
        assert str(answer.status_code) == status, (method, path, answer.get_data()[:500])
        body = json.loads(answer.get_data())
        name = documented["$ref"].rsplit("/", 1)[1]
        assert name in by_name, f"{method} {path}: {name} is not a marshmallow schema"
        schema = by_name[name]()
        assert schema.dump(body) == body, (method, path)
        assert schema.validate(body) == {}, (method, path)
        checked.append((path, name))
    assert len(checked) == len(operations(spec))


def test_the_check_sees_a_field_the_schema_lacks(app) -> None:
    """What an answer built by hand could do, and this test would catch."""
    schema = schemas_by_name(app)["Health"]()
    answer = {"status": "ok", "version": "0.1.0"}
    assert schema.dump(answer) == answer and schema.validate(answer) == {}
    extra = {**answer, "uptime": 3}
    assert schema.dump(extra) != extra and schema.validate(extra) != {}
