"""A table's commands: one commit path for all of them, and a new command is a new class."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any, ClassVar

import pytest

from thirtyone.game import GameState
from thirtyone.web.limits import LIMITED
from thirtyone.web.problems import Problem
from thirtyone.web.store import StaleVersion, TableRecord
from thirtyone.web.tables import commands, commit_path, ledger
from thirtyone.web.tables.commit_path import Actor, Change, Command, Stale, execute
from thirtyone.web.tables.life import changed
from thirtyone.web.tables.table import of

from .test_tables import create_table, make_app, store_url  # noqa: F401 - a fixture

TABLES = Path(commands.__file__).parent


def _commits(path: Path) -> list[str]:
    """The calls in ``path`` that commit or create a table's version: ``commit(...)``,
    ``x.commit(...)``, ``x.create(...)`` (as written), and any reference to the helpers the
    commit path replaced."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            function = node.func
            if isinstance(function, ast.Name) and function.id == "commit":
                found.append("commit")
            elif isinstance(function, ast.Attribute) and function.attr in {"commit", "create"}:
                found.append(ast.unparse(function))
        elif isinstance(node, (ast.Name, ast.Attribute)):
            name = node.id if isinstance(node, ast.Name) else node.attr
            if name in {"commit_change", "commit_life", "retried", "enforce"}:
                found.append(name)
    return found


def test_only_the_commit_path_commits_a_table():
    """Every module of the package but the ledger (which writes to the store) and the
    commit path (which calls the ledger once) commits nothing: a route, a command, the
    scheduler or the clock that committed a change itself would skip the path's
    authentication, idempotency, retries or push."""
    found = {path.stem: calls for path in sorted(TABLES.glob("*.py"))
             if (calls := _commits(path))}
    assert found == {
        "commit_path": ["commit"],
        "ledger": ["store().commit", "store().commit"],
        "life": ["store().create"],
    }


def test_every_client_command_is_a_typed_class_of_the_path():
    """Each command is a frozen dataclass of :mod:`.commands` with its own ``verify`` or
    ``apply`` (the commit path declares none), and the routes reach the store only through
    :func:`execute` (and the reads of the ledger)."""
    def command_classes(module: Any) -> list[type]:
        return [kind for kind in vars(module).values()
                if isinstance(kind, type) and issubclass(kind, Command) and kind is not Command]

    assert command_classes(commit_path) == []
    kinds = command_classes(commands)
    assert {kind.__name__ for kind in kinds} == {
        "Claim", "ReplaceInvitation", "RotateKey", "Start", "Leave", "Return", "Move",
        "Rematch", "JoinRematch", "Autopilot", "Advance"}
    for kind in kinds:
        assert dataclasses.is_dataclass(kind) and kind.__dataclass_params__.frozen
        assert kind.apply is not Command.apply, kind
    for route in ("routes", "claims", "rematch"):
        tree = ast.parse((TABLES / f"{route}.py").read_text(encoding="utf-8"))
        imported = {(node.module, alias.name) for node in ast.walk(tree)
                    if isinstance(node, ast.ImportFrom) for alias in node.names}
        reached = {name for module, name in imported if module == "thirtyone.web.tables.ledger"}
        assert reached <= {"load_table", "table_state"}, (route, reached)


def test_every_route_of_a_command_is_rate_limited():
    """A route that executes a command is limited (Flask-Limiter checks the limit in the
    view's wrapper, before the body is read): a new command's route needs its setting in
    :data:`~thirtyone.web.limits.LIMITED`."""
    limited = {operation for operations in LIMITED.values() for operation in operations}
    routes = set()
    for module in ("routes", "claims", "rematch"):
        tree = ast.parse((TABLES / f"{module}.py").read_text(encoding="utf-8"))
        for view in (node for node in tree.body if isinstance(node, ast.ClassDef)):
            for method in (node for node in view.body if isinstance(node, ast.FunctionDef)):
                calls = [node.func for node in ast.walk(method) if isinstance(node, ast.Call)]
                if any((isinstance(call, ast.Name) and call.id == "execute")
                       or (isinstance(call, ast.Attribute) and call.attr == "execute")
                       for call in calls):
                    routes.add((f"tables.{view.name}", method.name.upper()))
    assert len(routes) == 9 and routes <= limited, routes - limited


@dataclasses.dataclass(frozen=True, slots=True)
class Rename(Command):
    """A command these tests add: a seated player renames their seat."""

    name: str
    stale: ClassVar[Stale] = Stale.RETRY

    def verify(self, record: TableRecord, state: GameState, actor: Actor) -> None:
        if not self.name.strip():
            raise Problem(422, "empty_name", "A name is not empty.")

    def apply(self, record: TableRecord, state: GameState, actor: Actor) -> Change:
        seat = actor.seated
        return Change(state, [{"type": "seat_claimed", "seat": seat, "name": self.name}],
                      after=changed(record, seat_changes={seat: {"name": self.name}}))


def test_a_new_command_is_a_new_class(store_url, monkeypatch):  # noqa: F811
    """A class with ``verify`` and ``apply`` gets the path's authentication, checks, commit
    and retry on a version another commit took first, and nothing else is written for it."""
    app = make_app(store_url)
    created = create_table(app.test_client(), players=3, name="Ana")
    table = created["table"]
    key = next(seat["key"] for seat in created["seats"] if seat["key"])
    commit = ledger.commit
    raced: list[int] = []

    def racing(record: TableRecord, *args: Any, **kwargs: Any) -> TableRecord:
        if not raced:  # another request commits first, once
            raced.append(record.version)
            commit(record, record.version, [], ledger.table_state(record), [])
            raise StaleVersion(record.version + 1)
        return commit(record, *args, **kwargs)

    monkeypatch.setattr(commit_path, "commit", racing)
    with app.test_request_context(headers={"Authorization": f"Bearer {key}"}):
        done = execute(Rename(table, "Bea"))
    assert raced == [0] and done.version == 2 and done.seat == 0
    assert done.events == [{"type": "seat_claimed", "seat": 0, "name": "Bea"}]
    with app.app_context():
        record = ledger.load_table(table)
        assert record.version == 2 and of(record).seat(0).name == "Bea"
    with app.test_request_context(), pytest.raises(Problem) as refused:
        execute(Rename(table, "Cy"))
    assert (refused.value.status, refused.value.code) == (401, "seat_key_required")
    with app.test_request_context(headers={"Authorization": f"Bearer {key}"}), \
            pytest.raises(Problem) as empty:
        execute(Rename(table, " "))
    assert empty.value.code == "empty_name"
