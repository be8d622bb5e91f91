"""The house holds (issue 36): the order of rooms written once, in docs/architecture.md's
table, and every import of the package (deferred ones included, type-checking ones not)
pointing down it; no circle between files; rooms of readable size; imports inside functions
few, each at a declared boundary; a room or module the docs do not describe fails.

The figures come from scripts/house.py, which reads the source with ast (nothing is
imported), the same way `python scripts/house.py` reports them."""

from __future__ import annotations

import ast
import importlib.util
import re
import sys

from helpers import REPO

_SPEC = importlib.util.spec_from_file_location("house", REPO / "scripts" / "house.py")
house = importlib.util.module_from_spec(_SPEC)  # type: ignore[arg-type]
sys.modules["house"] = house
_SPEC.loader.exec_module(house)  # type: ignore[union-attr]

DOC = (REPO / "docs" / "architecture.md").read_text()
MODS = house.load()
FUNCTION_IMPORTS = 15  # imports inside functions, in the whole package
TABLE_MARK = "declared table"  # a module or function longer than the rule says so


def room_order() -> list[str]:
    """The rooms, bottom to top, from the table under "## The order of rooms"."""
    section = DOC.split("## The order of rooms", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\|\s*(\d+)\s*\|\s*`([\w.]+?)/?`\s*\|", section, re.M)
    assert rows, "docs/architecture.md has no table of rooms"
    assert [int(n) for n, _ in rows] == list(range(1, len(rows) + 1))
    return [name for _, name in rows]


ORDER = room_order()


def _rooms_of_package() -> set[str]:
    return {house.room(m) for m in MODS if m != "jobspec_lsp"}


def test_every_room_is_in_the_table_and_every_row_is_a_room():
    assert set(ORDER) == _rooms_of_package()
    assert len(ORDER) == len(set(ORDER))


def test_every_import_points_down_the_house():
    up = []
    for name, mod in MODS.items():
        for target, line, deferred, typing_only in mod.imports():
            if typing_only or target.startswith("<"):
                continue
            while target and target not in MODS:
                target = target.rpartition(".")[0]
            a, b = house.room(name), house.room(target)
            if target == name or "jobspec_lsp" in (a, b) or a == b:
                continue  # the package's floor (version, data files), or the same room
            if ORDER.index(b) > ORDER.index(a):
                up.append(f"{name}:{line} imports {target}{' (deferred)' if deferred else ''}")
    assert not up, up


def test_no_circle_between_files_or_rooms():
    edges = house.graph(MODS)
    assert house.cycles(edges) == []
    assert house.cycles(house.room_edges(edges)) == []


def test_modules_and_functions_are_of_readable_size():
    long_modules = [
        f"{m.name} ({m.lines})"
        for m in MODS.values()
        if m.lines > house.MODULE_LINES and TABLE_MARK not in m.first_line.lower()
    ]
    assert not long_modules, long_modules
    long_functions = []
    for m in MODS.values():
        for qual, _first, n in m.functions():
            if n <= house.FUNCTION_LINES:
                continue
            node = _function(m.tree, qual)
            doc = (ast.get_docstring(node) or "").lower() if node else ""
            if TABLE_MARK not in doc:
                long_functions.append(f"{m.name}:{qual} ({n})")
    assert not long_functions, long_functions


def _function(tree: ast.AST, qual: str):
    node = tree
    for part in qual.split("."):
        node = next(
            (
                c
                for c in ast.iter_child_nodes(node)
                if isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                and c.name == part
            ),
            None,
        )
        if node is None:
            return None
    return node


def test_imports_inside_functions_are_few_and_each_says_why():
    sites = house.measure(MODS)["function_level_import_sites"]
    assert len(sites) <= FUNCTION_IMPORTS, sites
    for site in sites:
        module, line = site.split(" ")[0].split(":")
        mod = MODS[module]
        text = mod.text.split("\n")[int(line) - 1]
        assert "# deferred:" in text or "# Python 3.10" in text, site


def test_every_room_and_module_is_described():
    """The room list names each module of each room, and each room has its paragraph; the
    room's __init__ says what it holds and which rooms it may import."""
    block = DOC.split("## The rooms", 1)[1].split("```", 2)[1]
    listing: dict[str, str] = {}
    current = None
    for line in block.split("\n"):
        m = re.match(r"^  ([\w.]+?)(/|\.py)?\s{2,}(.*)$", line)
        if m and not line.startswith("   "):
            current = m.group(1)
            listing[current] = m.group(3)
        elif current and line.startswith("    "):
            listing[current] += " " + line.strip()
    missing = []
    for name in MODS:
        parts = name.split(".")
        if len(parts) == 3 and parts[2] != "__init__":
            words = set(re.findall(r"[\w]+", listing.get(parts[1], "")))
            if parts[2] not in words:
                missing.append(name)
    assert not missing, f"modules the room list of docs/architecture.md does not name: {missing}"
    for room in _rooms_of_package():
        if (REPO / "jobspec_lsp" / room).is_dir():
            assert room in listing, room
            assert f"**`{room}/`**" in DOC, f"no paragraph for {room}/"


def test_each_room_says_what_it_may_import_and_does_not_import_more():
    for room in _rooms_of_package():
        init = REPO / "jobspec_lsp" / room / "__init__.py"
        if not init.is_file():
            continue
        doc = ast.get_docstring(ast.parse(init.read_text())) or ""
        said = re.search(r"May import:([^.]*)\.", doc.replace("\n", " "))
        assert said, f"{init}: its docstring says what it holds and 'May import: ...'"
        may = set(re.findall(r"\w+", said.group(1))) - {"and", "nothing", "the", "floor"}
        below = set(ORDER[: ORDER.index(room)])
        assert may <= below, f"{room} says it may import rooms above it: {may - below}"
        used = {
            house.room(t)
            for m, targets in house.graph(MODS).items()
            if house.room(m) == room
            for t in targets
        } - {room, "jobspec_lsp"}
        assert used <= may, f"{room} imports rooms its docstring does not name: {used - may}"
