"""The package's layers: no import cycle (function-level imports included), and the engine
never imports the web layer.

Every ``import`` statement of every module counts, wherever it stands, so a cycle cannot be
hidden inside a function. Importing ``a.b`` runs the package ``a`` first, which is not counted
as an edge: a package's ``__init__`` importing its own submodules is how Python packages work.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

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
