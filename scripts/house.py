"""The package's shape, measured from its own source (issue 36).

    python scripts/house.py [--json FILE] [--list]

Reads every module of ``jobspec_lsp`` with ``ast`` (nothing is imported) and reports:
lines per module and those over 600; functions over 60 lines (and over 100); imports
inside functions (``TYPE_CHECKING`` blocks are not counted: they run for the type checker
only); the import graph between modules, deferred imports included, with its circles
between files and between rooms. ``--list`` names each item, not just the count.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "jobspec_lsp"
MODULE_LINES = 600
FUNCTION_LINES = 60


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def room(module: str) -> str:
    """A module's room: its package under jobspec_lsp, or the top-level module itself."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> list[str]:
    if node.level:
        base = module.split(".")
        base = base if is_package else base[:-1]
        base = base[: len(base) - (node.level - 1)]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    if not target.startswith("jobspec_lsp"):
        return []
    return [target] + [f"{target}.{a.name}" for a in node.names]


class Module:
    def __init__(self, path: Path):
        self.path = path
        self.name = module_name(path)
        self.text = path.read_text(encoding="utf-8")
        self.lines = self.text.count("\n")
        self.tree = ast.parse(self.text)
        self.is_package = path.name == "__init__.py"
        self.first_line = self.text.split("\n", 1)[0]

    def imports(self) -> list[tuple[str, int, bool, bool]]:
        """(target, line, deferred, type-checking only) of each jobspec_lsp import."""
        out: list[tuple[str, int, bool, bool]] = []
        self._walk(self.tree, False, False, out)
        return out

    def _walk(self, node: ast.AST, deferred: bool, typing_only: bool, out: list) -> None:
        for child in ast.iter_child_nodes(node):
            d = deferred or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            t = typing_only or (isinstance(child, ast.If) and _type_checking(child))
            if isinstance(child, ast.Import):
                for a in child.names:
                    if a.name.startswith("jobspec_lsp"):
                        out.append((a.name, child.lineno, deferred, typing_only))
                    elif deferred and not typing_only:
                        out.append(("<external>" + a.name, child.lineno, deferred, False))
            elif isinstance(child, ast.ImportFrom):
                targets = _resolve(self.name, self.is_package, child)
                if not targets and deferred and not typing_only:
                    targets = ["<external>" + (child.module or "")]
                out.extend((t_, child.lineno, deferred, typing_only) for t_ in targets)
            if isinstance(child, ast.If) and _type_checking(child):
                for sub in child.body:
                    self._walk(ast.Module(body=[sub], type_ignores=[]), d, True, out)
                for sub in child.orelse:
                    self._walk(ast.Module(body=[sub], type_ignores=[]), d, typing_only, out)
                continue
            self._walk(child, d, t, out)

    def functions(self) -> list[tuple[str, int, int]]:
        """(qualified name, first line, length) of every function and method."""
        out: list[tuple[str, int, int]] = []

        def visit(node: ast.AST, prefix: str) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                    assert child.end_lineno is not None
                    out.append((prefix + child.name, first, child.end_lineno - first + 1))
                    visit(child, prefix + child.name + ".")
                elif isinstance(child, ast.ClassDef):
                    visit(child, prefix + child.name + ".")
                else:
                    visit(child, prefix)

        visit(self.tree, "")
        return out


def load() -> dict[str, Module]:
    mods = [Module(p) for p in sorted(PACKAGE.rglob("*.py"))]
    return {m.name: m for m in mods}


def graph(mods: dict[str, Module], deferred: bool = True) -> dict[str, set[str]]:
    """Module → modules it imports at run time (a `from pkg import name` of a submodule
    counts as that submodule; type-checking-only imports do not count)."""
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for name, mod in mods.items():
        for target, _line, is_deferred, typing_only in mod.imports():
            if typing_only or (is_deferred and not deferred) or target.startswith("<"):
                continue
            while target and target not in mods:
                target = target.rpartition(".")[0]
            if target and target != name:
                edges[name].add(target)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one member (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    limit = sys.getrecursionlimit()  # a walk as deep as the graph, the caller's limit kept
    sys.setrecursionlimit(max(limit, 4 * len(edges) + 100))
    try:
        for v in sorted(edges):
            if v not in index:
                strong(v)
    finally:
        sys.setrecursionlimit(limit)
    return out


def room_edges(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    rooms: dict[str, set[str]] = {}
    for a, targets in edges.items():
        for b in targets:
            if room(a) != room(b) and room(b) != "jobspec_lsp":
                rooms.setdefault(room(a), set()).add(room(b))
        rooms.setdefault(room(a), set())
    return rooms


def measure(mods: dict[str, Module]) -> dict:
    long_modules = {m.name: m.lines for m in mods.values() if m.lines > MODULE_LINES}
    funcs = [
        (f"{m.name}:{q}", line, n)
        for m in mods.values()
        for q, line, n in m.functions()
        if n > FUNCTION_LINES
    ]
    inner = [
        f"{m.name}:{line} {target.removeprefix('<external>')}"
        for m in mods.values()
        for target, line, deferred, typing_only in m.imports()
        if deferred and not typing_only
    ]
    inner_lines = sorted({i.split(" ")[0] for i in inner})
    edges = graph(mods)
    return {
        "modules": len(mods),
        "lines": sum(m.lines for m in mods.values()),
        "modules_over_600": dict(sorted(long_modules.items(), key=lambda kv: -kv[1])),
        "functions_over_60": len(funcs),
        "functions_over_100": sum(1 for f in funcs if f[2] > 100),
        "long_functions": sorted((f"{n:4d} {name}" for name, _l, n in funcs), reverse=True),
        "function_level_imports": len(inner_lines),
        "function_level_import_sites": inner_lines,
        "file_circles": cycles(edges),
        "file_circles_at_import_time": cycles(graph(mods, deferred=False)),
        "room_circles": cycles(room_edges(edges)),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", type=Path)
    ap.add_argument("--list", action="store_true", help="name each item")
    a = ap.parse_args(argv)
    m = measure(load())
    print(f"{m['modules']} modules, {m['lines']} lines")
    print(f"modules over {MODULE_LINES} lines: {len(m['modules_over_600'])}")
    for name, n in m["modules_over_600"].items():
        print(f"  {n:5d} {name}")
    print(
        f"functions over {FUNCTION_LINES} lines: {m['functions_over_60']}"
        f" ({m['functions_over_100']} over 100)"
    )
    if a.list:
        print("\n".join("  " + f for f in m["long_functions"]))
    print(f"function-level imports (statements): {m['function_level_imports']}")
    if a.list:
        print("\n".join("  " + f for f in m["function_level_import_sites"]))
    print(f"circles between files (deferred imports included): {len(m['file_circles'])}")
    for c in m["file_circles"]:
        print("  " + " ↔ ".join(c))
    print(f"circles between rooms: {len(m['room_circles'])}")
    for c in m["room_circles"]:
        print("  " + " ↔ ".join(c))
    if a.json:
        a.json.write_text(json.dumps(m, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
