"""The verdict as JSON, one shape for every reader of it: a finding (its code, severity,
message, range in the positions' unit, line and column, rule page, and each fix as text
edits with its safety), a file's entry in `jobspec check --format json`, and the schema
both are held to (``jobspec_lsp/schemas/findings.schema.json``, `jobspec schema findings`).
The MCP tools' results (:mod:`.tools`) are made of the same findings."""

from __future__ import annotations

import json

from jobspec_lsp import data_text
from jobspec_lsp.diagnostics import Diagnostic, rule_url
from jobspec_lsp.features.fixes import Fix, fixes_for
from jobspec_lsp.jobspec.tree import Document
from jobspec_lsp.text.positions import LineIndex

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing; True to mypy
if TYPE_CHECKING:
    from typing import Any

# LSP's positions: 0-based lines, characters in UTF-16 code units (its default encoding)
POSITION_ENCODING = "utf-16"
SCHEMA = "schemas/findings.schema.json"


def range_json(lines: LineIndex, start: int, end: int) -> dict[str, Any]:
    """The code-point offsets ``start``..``end`` as an LSP range."""
    return lines.range(start, end, encoding=POSITION_ENCODING).to_json()


def fix_json(lines: LineIndex, fix: Fix) -> dict[str, Any]:
    """A fix: its title, its safety (what `check --fix` applies without being asked) and
    its edits, LSP TextEdits against the text it was found in."""
    return {
        "title": fix.title,
        "safety": "safe" if fix.safe else "unsafe",
        "edits": [
            {"range": range_json(lines, e.start, e.end), "newText": e.text} for e in fix.edits
        ],
    }


def finding(doc: Document, d: Diagnostic, docs_url: str | None = None) -> dict[str, Any]:
    """One diagnostic of ``doc`` with its fixes (its rule page under ``docs_url``, the
    docs-url setting, when given)."""
    at = doc.lines.position(d.start)  # code points: the text output's column
    return {
        "code": d.code,
        "severity": d.severity.label,
        "message": d.message,
        "range": range_json(doc.lines, d.start, d.end),
        "line": at.line + 1,
        "column": at.character + 1,
        "url": rule_url(d.code, docs_url),
        "fixes": [fix_json(doc.lines, f) for f in fixes_for(doc, d)],
    }


def findings(doc: Document, diags, docs_url: str | None = None) -> list[dict[str, Any]]:
    return [finding(doc, d, docs_url) for d in diags]


def file_entry(path: str, doc: Document, diags, docs_url: str | None = None) -> dict[str, Any]:
    """A file's entry in `jobspec check --format json`."""
    return {"path": path, "diagnostics": findings(doc, diags, docs_url)}


def report(files: list[dict[str, Any]]) -> dict[str, Any]:
    """`jobspec check --format json`: the files' entries and the positions' unit."""
    return {"positionEncoding": POSITION_ENCODING, "files": files}


def schema_text() -> str:
    """The JSON Schema of the verdict, as shipped."""
    return data_text("jobspec_lsp", SCHEMA)


def schema() -> dict[str, Any]:
    got: dict[str, Any] = json.loads(schema_text())
    return got


def definition(name: str) -> dict[str, Any]:
    """The schema of one result (``checkResult``, ``finding``, ...), standing alone: the
    definition with every definition beside it, so its references resolve (an MCP tool's
    outputSchema)."""
    defs = schema()["$defs"]
    return {"$schema": schema()["$schema"], **defs[name], "$defs": defs}
