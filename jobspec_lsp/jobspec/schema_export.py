"""The exported JSON Schemas of jobspec, for other tools.

The schemas ship inside the package (``jobspec_lsp/schemas/``). They are the
RFC 14 / RFC 25 reference schemas with their known faults corrected (see
docs/compatibility.md), written so that yaml-language-server and
check-jsonschema load them without extra options: draft-07, no external
``$ref``, patterns in the common subset of JavaScript and Python regexes.
Every property's description comes from the vocabulary, here, on export.
"""

from __future__ import annotations

import importlib.resources
import json
from typing import Any

from jobspec_lsp.jobspec import vocabulary

SCHEMAS = {
    "canonical": "jobspec-canonical.schema.json",
    "v1": "jobspec-v1.schema.json",
}


def schema_text(kind: str = "canonical") -> str:
    """The JSON text of the packaged schema for ``canonical`` (RFC 14) or ``v1`` (RFC 25),
    every property documented from the vocabulary (``description`` for any JSON Schema
    tool, ``markdownDescription`` for yaml-language-server's hover and completion)."""
    raw = (importlib.resources.files("jobspec_lsp") / "schemas" / SCHEMAS[kind]).read_text(
        encoding="utf-8"
    )
    schema = json.loads(raw)
    for name, definition in (schema.get("definitions") or {}).items():
        _document(definition, DEFINITION_KINDS.get(name))
    _document({k: v for k, v in schema.items() if k != "definitions"}, "root")
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


# which mapping of the vocabulary each schema definition, and each property's value, is
DEFINITION_KINDS = {
    "node": "vertex",
    "slot": "vertex",
    "core": "vertex",
    "gpu": "vertex",
    "vertex": "vertex",
    "task": "task",
    "system": "system",
    "dependency": "dependency",
    "constraint": "constraint",
    "file_entry": "file",
    "range_dict": "count",
    "attributes": "attributes",
}
CHILD_KINDS = {
    ("root", "resources"): "vertex",
    ("root", "tasks"): "task",
    ("root", "attributes"): "attributes",
    ("vertex", "with"): "vertex",
    ("vertex", "count"): "count",
    ("task", "count"): "task.count",
    ("task.count", "per_resource"): "task.count.per_resource",
    ("attributes", "system"): "system",
    ("system", "dependencies"): "dependency",
    ("system", "constraints"): "constraint",
    ("system", "files"): "file",
    ("system", "job"): "job",
    ("system", "shell"): "shell",
}


def _document(node: Any, kind: str | None) -> None:
    """Add descriptions to every property under ``node``, a schema of a ``kind``."""
    if isinstance(node, list):
        for item in node:
            _document(item, kind)
        return
    if not isinstance(node, dict):
        return
    for name, prop in (node.get("properties") or {}).items():
        if not isinstance(prop, dict):
            continue
        key = vocabulary.key(kind, name)
        if key is not None:
            prop["description"] = key.summary.replace("`", "")
            prop["markdownDescription"] = key.doc
        else:
            prop.setdefault("description", f"{name}: a key of {kind or 'this mapping'}")
            prop.setdefault("markdownDescription", prop["description"])
        _document(prop, CHILD_KINDS.get((kind or "", name), kind))
    for k, v in node.items():
        if k != "properties":
            _document(v, kind)
