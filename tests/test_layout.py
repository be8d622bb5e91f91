"""The layout docs/architecture.md promises: a pure core, thin edges."""

import ast
from pathlib import Path

import jobspec_lsp

PACKAGE = Path(jobspec_lsp.__file__).parent


def imported_modules(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def core_modules():
    edges = ("lsp", "cli", "__main__.py")  # `python -m jobspec_lsp` is the command
    return [p for p in PACKAGE.rglob("*.py") if p.relative_to(PACKAGE).parts[0] not in edges]


def test_only_the_lsp_package_imports_the_lsp_libraries():
    core = core_modules()
    assert len(core) > 20  # the walk found the core
    offenders = {
        str(p.relative_to(PACKAGE)): sorted(imported_modules(p) & {"pygls", "lsprotocol"})
        for p in core
    }
    assert {k: v for k, v in offenders.items() if v} == {}
    assert "pygls" in imported_modules(PACKAGE / "lsp" / "server.py")  # the walk sees imports


def test_the_core_never_imports_its_edges():
    for p in core_modules():
        tree = ast.parse(p.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level > 0:
                names = [node.module or ""] + [a.name for a in node.names]
                assert not any(n.split(".")[0] in ("lsp", "cli") for n in names), (p, names)
