"""The package's shape holds: imports at the top of each module (an import inside a
function says why it is deferred), modules of one idea each (those over 600 lines
are the ones docs/architecture.md names), each room with its docstring."""

from __future__ import annotations

import ast

from helpers import REPO

PACKAGE = REPO / "jobspec_lsp"
# over 600 lines: none (tests/test_house.py: a declared table would say so in its first line)
LONG: set[str] = set()


def _modules():
    return sorted(PACKAGE.rglob("*.py"))


def test_an_import_inside_a_function_says_why_it_is_deferred():
    unexplained = []
    for path in _modules():
        lines = path.read_text().split("\n")
        for fn in ast.walk(ast.parse("\n".join(lines))):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    said = " ".join(lines[node.lineno - 1 : node.end_lineno])
                    if "# deferred:" not in said and "# Python 3.10" not in said:
                        unexplained.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert not unexplained, unexplained


def test_long_modules_are_the_ones_named():
    long = {
        p.relative_to(PACKAGE).as_posix() for p in _modules() if p.read_text().count("\n") > 600
    }
    assert long <= LONG, long - LONG
    doc = (REPO / "docs" / "architecture.md").read_text()
    for name in LONG:
        assert f"`{name}`" in doc, name


def test_every_room_has_its_docstring():
    for init in PACKAGE.glob("*/__init__.py"):
        assert ast.get_docstring(ast.parse(init.read_text())), init
