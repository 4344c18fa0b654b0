"""The package's layers: no import cycle (function-level imports included), the engine never
imports the web layer, and no private name of the web libraries is used.

Every ``import`` statement of every module counts, wherever it stands, so a cycle cannot be
hidden inside a function. Importing ``a.b`` runs the package ``a`` first, which is not counted
as an edge: a package's ``__init__`` importing its own submodules is how Python packages work.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Iterator
from pathlib import Path
from types import FunctionType

PACKAGE = Path(__file__).resolve().parents[1] / "api" / "thirtyone"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in PACKAGE.rglob("*.py")}


def _imported(module: str, tree: ast.AST) -> Iterator[str]:
    """The package's modules that ``module`` imports, by any import statement in it."""
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package.split(".")[: len(package.split(".")) - node.level + 1],
                                 *([base] if base else [])])
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                     for alias in node.names]
        else:
            continue
        yield from (name for name in names if name in MODULES)


def import_graph() -> dict[str, set[str]]:
    return {module: set(_imported(module, ast.parse(path.read_text(encoding="utf-8"))))
            for module, path in MODULES.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm), and
    modules importing themselves."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1 or node in graph[node]:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_of_the_package_is_in_an_import_cycle():
    assert cycles(import_graph()) == []


def test_the_engine_never_imports_the_web_layer():
    """Only the command line, which also starts the server, may."""
    graph = import_graph()
    engine = [module for module in graph
              if not module.startswith("thirtyone.web") and module != "thirtyone.__main__"]
    assert {module: sorted(target for target in graph[module]
                           if target.startswith("thirtyone.web"))
            for module in engine if any(t.startswith("thirtyone.web") for t in graph[module])
            } == {}


def test_a_cycle_is_found_wherever_its_import_stands():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    tree = ast.parse("def f():\n    from thirtyone.game import state\n")
    assert list(_imported("thirtyone.words", tree)) == ["thirtyone.game.state"]


WEB_LIBRARIES = ("flask", "flask_smorest", "webargs", "apispec", "flask_cors", "flask_babel",
                 "werkzeug", "marshmallow", "redis", "psycopg", "psycopg_pool", "flask_limiter",
                 "limits")
PRIVATE = re.compile(r"\b(?:" + "|".join(WEB_LIBRARIES) + r")(?:\.\w+)*\._\w+")


def test_no_private_name_of_a_web_library_is_used():
    """A name starting with ``_`` from flask, flask-smorest, webargs, apispec, flask-cors,
    flask-babel, redis-py, psycopg or Flask-Limiter may change in any release: public
    extension points only."""
    used = []
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in (
                    WEB_LIBRARIES):
                used += [f"{module}: {node.module}.{alias.name}" for alias in node.names
                         if alias.name.startswith("_")
                         or any(part.startswith("_") for part in node.module.split("."))]
        used += [f"{module}: {match}" for match in PRIVATE.findall(path.read_text())]
    assert used == []


def _private_overrides(module: str) -> list[str]:
    """The methods of ``module``'s classes that replace a private one of a library base."""
    found = []
    loaded = importlib.import_module(module)
    for name, value in vars(loaded).items():
        if not isinstance(value, type) or value.__module__ != module:
            continue
        library = [base for base in value.__mro__[1:]
                   if base.__module__.split(".")[0] in WEB_LIBRARIES]
        found += [f"{module}: {name}.{attribute}" for attribute, member in vars(value).items()
                  if isinstance(member, FunctionType | staticmethod | classmethod)
                  and attribute.startswith("_") and not attribute.endswith("__")
                  and any(attribute in vars(base) for base in library)]
    return found


def test_no_private_hook_of_a_web_library_is_overridden_and_no_object_is_patched():
    """A subclass of a library's class overrides its public methods only (webargs'
    ``load_json``, not ``_raw_load_json``); nothing reaches into an object's ``__dict__``."""
    found = []
    for module, path in MODULES.items():
        if module.startswith("thirtyone.web") or module == "thirtyone.__main__":
            found += _private_overrides(module)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{module}: line {node.lineno} uses __dict__" for node in ast.walk(tree)
                  if isinstance(node, ast.Attribute) and node.attr == "__dict__"]
    assert found == []


def _private_attributes(tree: ast.AST) -> list[str]:
    """``x._name`` on anything but ``self`` or ``cls``, in a module that imports one of the
    libraries: their objects (a redis-py connection's ``_sock``) are reached through names the
    regular expression above cannot see."""
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            imported.add(node.module.split(".")[0])
    if not imported & set(WEB_LIBRARIES):
        return []
    return [f"line {node.lineno}: {ast.unparse(node)}" for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr.startswith("_")
            and not node.attr.endswith("__")
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))]


def test_no_private_attribute_of_a_library_object_is_read():
    found = {module: private for module, path in MODULES.items()
             if (private := _private_attributes(ast.parse(path.read_text(encoding="utf-8"))))}
    assert found == {}


def test_a_private_attribute_is_found_on_a_library_object():
    tree = ast.parse("import redis\n\ndef f(pubsub):\n    return pubsub.connection._sock\n")
    assert _private_attributes(tree) == ["line 4: pubsub.connection._sock"]
    assert _private_attributes(ast.parse("def f(other):\n    return other._sock\n")) == []
