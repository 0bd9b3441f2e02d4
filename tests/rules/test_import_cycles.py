"""No module of ``ttr_core`` imports, at run time, a module that imports it back.

Every import statement counts, at module level or inside a function; only those under
``if TYPE_CHECKING:`` are left out, since they never run. The cycles found are reported
as chains of modules, e.g. ``ttr_core.rules.table -> ttr_core.rules.claims ->
ttr_core.rules.table``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import ttr_core

PACKAGE = Path(ttr_core.__file__).parent


def module_names() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    out: dict[str, Path] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    """Whether an ``if`` test is ``TYPE_CHECKING`` or ``typing.TYPE_CHECKING``."""
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _run_time_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements of ``tree`` that can run: all but those under TYPE_CHECKING."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                yield from _run_time_imports(ast.Module(body=[child], type_ignores=[]))
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        yield from _run_time_imports(node)


def _base(name: str, path: Path, node: ast.ImportFrom) -> str:
    """The absolute module a ``from ... import`` statement names."""
    if not node.level:
        return node.module or ""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    if node.level > 1:
        package = package[: -(node.level - 1)]
    return ".".join([*package, *([node.module] if node.module else [])])


def import_graph() -> dict[str, set[str]]:
    """Per module of the package, the package's modules it imports at run time."""
    modules = module_names()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in _run_time_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = _base(name, path, node)
                # ``from package import module`` imports the module; anything else is a
                # name of ``base`` itself.
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                    for alias in node.names
                ]
            found.update(t for t in targets if t in modules and t != name)
        graph[name] = found
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def chain(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """A shortest import chain from the component's first module back to itself."""
    inside = set(component)
    start = component[0]
    paths = {start: [start]}
    queue = [start]
    for v in queue:
        for w in sorted(graph[v] & inside):
            if w == start:
                return [*paths[v], start]
            if w not in paths:
                paths[w] = [*paths[v], w]
                queue.append(w)
    raise AssertionError(f"{component} is not a cycle")


def test_the_graph_sees_function_level_imports_and_skips_type_checking() -> None:
    """The walk counts an import inside a function, and none under TYPE_CHECKING."""
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    import a\nelse:\n    import b\n"
        "def f():\n    import c\n    if TYPE_CHECKING:\n        import d\n"
    )
    names = sorted(
        alias.name
        for node in _run_time_imports(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    )
    assert names == ["b", "c"]


def test_cycles_are_found() -> None:
    """A made-up graph with one loop of three modules and one module outside it."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert cycles(graph) == [["a", "b", "c"]]
    assert chain(graph, ["a", "b", "c"]) == ["a", "b", "c", "a"]


def test_no_run_time_import_cycles() -> None:
    """No module of ttr_core imports, at run time, a module that imports it back."""
    graph = import_graph()
    assert "ttr_core.rules.claims" in graph
    found = [
        f"{', '.join(component)}; e.g. {' -> '.join(chain(graph, component))}"
        for component in cycles(graph)
    ]
    assert not found, "modules that import each other at run time:\n" + "\n".join(found)
