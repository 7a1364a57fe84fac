"""The client's modules import one another without a circle.

The CLI is split by concern (``cli_output``, ``cli_connection``, ``cli_args``,
``batch_cli``; ``cli`` only parses and dispatches), and the command modules
(``commands.*``) import those, never ``cli``. A circle,
even through an import inside a function, would undo that: this test reads the sources
with :mod:`ast` (no import runs) and lists any circle it finds.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLIENT = ROOT / "client"
PACKAGE = "numgrid.client"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(CLIENT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGE, *parts])


def client_modules() -> dict[str, Path]:
    paths = sorted(CLIENT.rglob("*.py"))
    return {module_name(path): path for path in paths}


def imported(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The client modules that ``name`` imports, at the top or inside functions."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = alias.name
                while target and target not in modules:  # import a.b.c: the module a.b.c
                    target = target.rpartition(".")[0]
                if target:
                    found.add(target)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            for alias in node.names:  # from pkg import module, or from module import name
                submodule = f"{source}.{alias.name}"
                if submodule in modules:
                    found.add(submodule)
                elif source in modules:
                    found.add(source)
    found.discard(name)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = client_modules()
    return {name: imported(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle through each group of modules that import one another (Tarjan's
    strongly connected components, then a path round each)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [circle(graph, group) for group in groups]


def circle(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """A path from the group's first module back to itself, inside the group."""
    start = min(group)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt in sorted(graph[node] & group):
            if nxt == start:
                return [*paths[node], start]
            if nxt not in paths:
                paths[nxt] = [*paths[node], nxt]
                queue.append(nxt)
    raise AssertionError(f"no circle in {group}")  # pragma: no cover


def test_the_graph_sees_the_cli_modules():
    graph = import_graph()
    assert f"{PACKAGE}.cli" in graph and f"{PACKAGE}.commands.play" in graph
    assert f"{PACKAGE}.commands.solve" in graph[f"{PACKAGE}.cli"]
    assert f"{PACKAGE}.batch_cli" in graph[f"{PACKAGE}.commands.solve"]


def short(name: str) -> str:
    return name.removeprefix(f"{PACKAGE}.")


def test_no_client_module_imports_in_a_circle():
    graph = import_graph()
    found = cycles(graph)
    listed = "\n".join(" -> ".join(map(short, cycle)) for cycle in found)
    tangled = sorted({short(a) for a in graph for b in graph[a] if a in reachable(graph, b)})
    assert not found, (
        f"import circles between the client's modules:\n{listed}\n"
        f"(every module in a circle: {', '.join(tangled)})"
    )


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        for nxt in graph[todo.pop()] - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen


def test_the_cycle_finder_finds_one():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
