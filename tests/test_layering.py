"""The package layering, read from the source (every import, those inside functions too).

Dependencies point inward: ``engine`` imports nothing of the project, ``vision`` only
``engine``, ``firmware_bridge`` neither ``vision`` nor ``referee``; and no project module
takes part in an import cycle, however deep in a function its import hides.  Imports
under ``if TYPE_CHECKING:`` are left out: they never run, and only the type checker
follows them.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "vision", "firmware_bridge", "referee")

# What each package may import of the project, besides itself.
ALLOWED = {
    "engine": set(),
    "vision": {"engine"},
    "firmware_bridge": {"engine"},
    "referee": {"engine", "vision", "firmware_bridge"},
}

# Cycles known and owed, as pairs of modules: this set only shrinks (when a cycle is gone
# the last test below says to drop its pair).  Empty since vision's split by stage.
KNOWN_CYCLES_TO_REMOVE: set[frozenset[str]] = set()


def _modules() -> dict[str, tuple[Path, bool]]:
    """Every project module by dotted name: (file, is a package's ``__init__``)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


MODULES = _modules()


def _runtime_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """Every node below ``node`` except the bodies of ``if TYPE_CHECKING:``."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and ast.unparse(child.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            for other in child.orelse:
                yield other
                yield from _runtime_nodes(other)
            continue
        yield child
        yield from _runtime_nodes(child)


def _project_module(name: str) -> str | None:
    """The project module that importing ``name`` loads last (a name in a module: that module)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(module: str) -> set[str]:
    """The project modules ``module`` imports, anywhere in its code."""
    path, is_package = MODULES[module]
    here = module.split(".") if is_package else module.split(".")[:-1]
    named: set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            named.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(here[: len(here) - node.level + 1] + [node.module or ""]).strip(".") if node.level else node.module or ""
            for alias in node.names:
                # ``from . import x`` imports the module x; ``from .m import name`` imports m.
                named.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base)
    found = {_project_module(name) for name in named}
    return {m for m in found if m is not None and m != module}


GRAPH = {module: imports_of(module) for module in MODULES}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return groups


def test_the_import_reader_sees_imports_inside_functions_and_relative_imports() -> None:
    assert "vision" in GRAPH["referee.commands"]  # ``from vision import BoardReader`` inside run_watch
    assert "referee.commands" in GRAPH["referee.demo"]  # ``from .commands import ...`` at the top
    assert "referee.web.server" in GRAPH["referee.web"]  # a package's ``__init__``


def test_the_cycle_finder_finds_a_cycle_and_leaves_a_chain() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_each_package_imports_only_the_packages_beneath_it() -> None:
    wrong = [
        f"{module} imports {target}"
        for module, targets in sorted(GRAPH.items())
        for target in sorted(targets)
        if (home := module.split(".")[0]) != (there := target.split(".")[0]) and there not in ALLOWED[home]
    ]
    assert not wrong, "layering broken (engine ← vision, firmware_bridge ← referee):\n" + "\n".join(wrong)


def test_no_import_cycles_among_project_modules() -> None:
    graph = {m: {t for t in targets if frozenset({m, t}) not in KNOWN_CYCLES_TO_REMOVE} for m, targets in GRAPH.items()}
    cycles = _cycles(graph)
    text = "\n".join(
        " ⇄ ".join(group) + ": " + ", ".join(f"{a} → {b}" for a in group for b in sorted(graph[a]) if b in group) for group in cycles
    )
    assert not cycles, "import cycles (move what both modules need into a third):\n" + text


def test_known_cycles_still_exist_so_the_allowance_can_shrink() -> None:
    gone = [sorted(pair) for pair in KNOWN_CYCLES_TO_REMOVE if not all(b in GRAPH[a] for a, b in (sorted(pair), sorted(pair)[::-1]))]
    assert not gone, f"these cycles are gone: remove them from KNOWN_CYCLES_TO_REMOVE: {gone}"


def test_no_two_engine_classes_share_a_name() -> None:
    """One definition per concept: the game's events and the record's actions are told apart by
    name (``engine.game.Move``, ``engine.record.RecordedMove``), so an import never picks the wrong one."""
    where: dict[str, list[str]] = {}
    for module, (path, _) in MODULES.items():
        if module.split(".")[0] == "engine":
            for node in ast.parse(path.read_text()).body:
                if isinstance(node, ast.ClassDef):
                    where.setdefault(node.name, []).append(module)
    shared = {name: modules for name, modules in where.items() if len(modules) > 1}
    assert not shared, f"engine classes defined twice: {shared}"
