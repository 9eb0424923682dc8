"""Rooms you can read in one sitting (issue 41): no runtime import circle inside ``src/meeple``,
no class over 400 lines, no function (or method) over 80 lines.

Read from the source with :mod:`ast`, without importing it. An import counts at run time wherever
it stands (module level or inside a function: an import inside a function that only dodges a
circle is still a circle for a reader), unless it stands under ``if TYPE_CHECKING:`` (a type-only
import, gone at run time). ``from package import name`` counts as an arrow to ``package.name``
when that is a module, and to ``package`` either way (running it runs the package's
``__init__``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"

MAX_CLASS = 400
MAX_FUNCTION = 80

# Longer than the limits on purpose, with the reason (issue 41 allows "a short allow-list with
# reasons for generated or table code"). Keep it short: anything else is split.
ALLOWED_LONG: dict[str, str] = {}

# The one circle left (issue 41 stays open until it is gone): Monopoly's rules that settle a debt
# and end a turn. Every rule that charges money calls ``bankruptcy.charge``, whose ``DebtFrame``
# calls back up into the any-time moves (``anytime``: mortgage, trade, sell), ``landing`` and
# ``turns.end_turn``; ``landing`` draws a card and the card moves the player and lands again.
# Untying it takes frames that hold only data, their behaviour looked up by a dispatcher above
# the rules: the hot path's every decision, so a change with its own speed check. No module may
# join it, and a new circle anywhere fails.
_KNOT = "anytime bankruptcy buying cards jail landing mortgage trade turns"
KNOWN_CIRCLES: dict[frozenset[str], str] = {
    frozenset(f"meeple.games.monopoly.rules.{m}" for m in _KNOT.split()): (
        "Monopoly's debt frame and turn's end call back into the rules that charge money"
    ),
}


def modules() -> dict[str, Path]:
    """Every module under src/, by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for path in sorted(SRC.rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _type_only(tree: ast.Module) -> set[int]:
    """The ids of the nodes under ``if TYPE_CHECKING:`` (``typing.TYPE_CHECKING`` too)."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            inside.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return inside


def _targets(name: str, node: ast.Import | ast.ImportFrom, package: bool) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    if node.level:
        base = name.split(".") if package else name.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        prefix = ".".join([*base, *([node.module] if node.module else [])])
    else:
        prefix = node.module or ""
    yield prefix
    yield from (f"{prefix}.{alias.name}" for alias in node.names)


def import_graph() -> dict[str, set[str]]:
    """Each module's runtime imports of other modules of ``src``."""
    mods = modules()
    graph: dict[str, set[str]] = {name: set() for name in mods}
    for name, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_only(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in skip:
                package = path.name == "__init__.py"
                graph[name].update(
                    t for t in _targets(name, node, package) if t in mods and t != name
                )
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, with an
    explicit stack: the graph has hundreds of modules)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, edges = work[-1]
            w = next(edges, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


@dataclass(frozen=True)
class Long:
    what: str  # "class" or "function"
    name: str  # dotted: module.Class.method
    lines: int


def long_definitions() -> list[Long]:
    """Every class over :data:`MAX_CLASS` lines and function over :data:`MAX_FUNCTION`."""
    found: list[Long] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}.{child.name}"
                lines = (child.end_lineno or child.lineno) - child.lineno + 1
                is_class = isinstance(child, ast.ClassDef)
                if lines > (MAX_CLASS if is_class else MAX_FUNCTION):
                    found.append(Long("class" if is_class else "function", name, lines))
                visit(child, name)
            else:
                visit(child, prefix)

    for name, path in modules().items():
        visit(ast.parse(path.read_text(encoding="utf-8")), name)
    return found


def test_the_checks_see_what_they_check() -> None:
    """The reader finds what it must: the engine's modules and their arrows, and a circle and a
    long definition where there is one."""
    graph = import_graph()
    assert "meeple.kernel.protocol" in graph["meeple.games.monopoly.state"]
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []
    tree = ast.parse("import x\nif TYPE_CHECKING:\n    import y\n")
    assert len(_type_only(tree)) > 0 and not any(id(n) in _type_only(tree) for n in tree.body[:1])


def test_no_runtime_import_circle() -> None:
    every = circles(import_graph())
    found = [c for c in every if frozenset(c) not in KNOWN_CIRCLES]
    assert not found, "modules that import each other at run time:\n" + "\n".join(
        " <-> ".join(c) for c in found
    )
    stale = set(KNOWN_CIRCLES) - {frozenset(c) for c in every}
    assert not stale, f"known circles that are gone (take them off KNOWN_CIRCLES): {stale}"


def test_no_class_over_400_lines_no_function_over_80() -> None:
    every = long_definitions()
    found = [x for x in every if x.name not in ALLOWED_LONG]
    assert not found, "\n".join(f"{x.what} {x.name}: {x.lines} lines" for x in found)
    stale = set(ALLOWED_LONG) - {x.name for x in every}
    assert not stale, f"allowed but no longer long (take them off ALLOWED_LONG): {stale}"


DRIVERS = ("meeple.kernel", "meeple.bots", "meeple.sim", "meeple.server", "meeple.rl", "meeple.cli")


def test_drivers_name_no_game_family() -> None:
    """Issue 19's plugin design: the kernel, the bots and the drivers reach a game family only
    through its plugin (``meeple.kernel.family``); none names ``meeple.games`` itself. (Indirect
    arrows are import-linter's part, ``tests/test_families.py``; ``meeple analyze`` studies
    Monopoly boards through ``meeple.analysis``, which may name the family it studies.)"""
    graph = import_graph()
    naming = sorted(
        f"{m} -> {t}"
        for m, targets in graph.items()
        if m.startswith(DRIVERS)
        for t in targets
        if t.startswith("meeple.games")
    )
    assert not naming, "\n".join(naming)
