"""Completion candidates for the cursor context (plain data; the server adapts it)."""

from __future__ import annotations

import json as _json
from dataclasses import dataclass

from jobspec_lsp.jobspec import docs_text, vocabulary
from jobspec_lsp.jobspec.context import Cursor, cursor_context, kind_of, node_at_path
from jobspec_lsp.jobspec.tree import Mapping, Scalar
from jobspec_lsp.rules import analysis
from jobspec_lsp.site import hostlists, profile


@dataclass(frozen=True)
class Candidate:
    label: str
    kind: str  # "key", "value", "snippet"
    detail: str = ""
    documentation: str = ""
    insert_text: str | None = None  # None: the label
    snippet: bool = False


def complete(text: str, offset: int, language: str = "yaml") -> list[Candidate]:
    return complete_at(text, offset, language)[0]


def complete_at(text: str, offset: int, language: str = "yaml"):
    """(candidates, start, end): what to offer and the span of text they replace."""
    cur = cursor_context(text, offset, language)
    if cur is None:
        return [], offset, offset
    return _candidates(cur), cur.start, cur.end


def _candidates(cur: Cursor) -> list[Candidate]:
    if cur.on == "empty":
        return [
            Candidate(
                "jobspec V1",
                "snippet",
                "a whole V1 jobspec",
                "node > slot > core, one task, a duration.",
                docs_text.SNIPPET_V1,
                True,
            )
        ]
    v1 = _is_v1(cur)
    if cur.on == "key":
        out = _keys(cur, v1)
    elif cur.on == "value":
        out = _values(cur, v1)
    else:
        return []
    return [_as_json(c, cur.on) for c in out if c.kind != "snippet"] if cur.json else out


def _as_json(c: Candidate, on: str) -> Candidate:
    """The same candidate written as JSON: quoted keys and string values."""

    if on == "key":
        text = f"{_json.dumps(c.label)}: "
    else:
        try:
            _json.loads(c.label)
            text = c.label if not c.label.startswith("'") else _json.dumps(c.label.strip("'\""))
        except ValueError:
            text = _json.dumps(c.label.strip("'\""))
    return Candidate(c.label.strip("'\""), c.kind, c.detail, c.documentation, text, False)


def _is_v1(cur: Cursor) -> bool:
    root = cur.doc.root if cur.doc else None
    if isinstance(root, Mapping):
        v = root.get("version")
        return isinstance(v, Scalar) and type(v.value) is int and v.value == 1
    return False


def _keys(cur: Cursor, v1: bool) -> list[Candidate]:
    kind = kind_of(cur.path)
    out: list[Candidate] = []
    allowed = vocabulary.v1_keys(kind or "", _vertex_type(cur)) if v1 else None
    for k in vocabulary.MAPPINGS.get(kind or "", ()):
        if k.name in cur.present:
            continue
        if allowed is not None and k.name not in allowed and not k.flux_core_writes:
            continue  # what V1 does not allow (here) is not offered in a V1 jobspec
        out.append(
            Candidate(k.name, "key", _detail(kind, k.name), k.doc, _key_insert(kind, k.name, cur))
        )
    if kind in ("vertex", "task") and not cur.present and cur.block:
        snip = docs_text.SNIPPET_VERTEX if kind == "vertex" else docs_text.SNIPPET_TASK
        indent = " " * cur.indent
        body = snip.replace("\n", "\n" + indent)
        out.append(
            Candidate(
                f"new {'resource vertex' if kind == 'vertex' else 'task'}",
                "snippet",
                "snippet",
                "",
                body,
                True,
            )
        )
    return out


def _vertex_type(cur: Cursor) -> str | None:
    """The type of the resource vertex the cursor is in, when it says."""
    mapping = node_at_path(cur.doc.root, cur.path) if cur.doc is not None else None
    t = mapping.get("type") if isinstance(mapping, Mapping) else None
    return t.value if isinstance(t, Scalar) and isinstance(t.value, str) else None


def _detail(kind, key) -> str:
    return f"{kind} key" if kind else "key"


def _key_insert(kind, key, cur: Cursor) -> str:
    if not cur.block:
        return f"{key}: "
    nested = {
        ("root", "resources"),
        ("root", "tasks"),
        ("root", "attributes"),
        ("vertex", "with"),
        ("task", "count"),
        ("attributes", "system"),
        ("attributes", "user"),
        ("system", "environment"),
        ("system", "job"),
        ("system", "shell"),
        ("system", "constraints"),
        ("system", "dependencies"),
        ("system", "files"),
        ("task.count", "per_resource"),
    }
    return f"{key}:" if (kind, key) in nested else f"{key}: "


def _values(cur: Cursor, v1: bool) -> list[Candidate]:
    kind = kind_of(cur.path)
    key = cur.key
    if kind == "task" and key == "slot":
        labels = cur.labels if cur.labels is not None else _slot_labels(cur.doc)
        return [Candidate(label, "value", "slot label") for label in labels]
    if kind == "task.count.per_resource" and key == "type":
        task_path = cur.path[:2]
        types = cur.types if cur.types is not None else _types_in_slot(cur.doc, task_path)
        return [Candidate(t, "value", "resource type in the slot") for t in types]
    if kind == "constraint":
        return []
    options = docs_text.VALUES.get((kind or "", key or ""), [])
    if kind == "vertex" and key == "type" and v1:
        options = [o for o in options if o[0] in docs_text.V1_TYPES]
    return [Candidate(v, "value", key or "", d) for v, d in options]


def _slot_labels(doc) -> list[str]:
    return analysis.slot_labels(analysis.model(doc)) if doc else []


def _types_in_slot(doc, task_path) -> list[str]:
    task = node_at_path(doc.root, task_path)
    slot = task.get("slot") if isinstance(task, Mapping) else None
    if not (isinstance(slot, Scalar) and isinstance(slot.value, str)):
        return []
    types: list[str] = []
    for v in analysis.model(doc).vertices:
        if v.type == "slot" and v.label == slot.value:
            for d in v.descendants():
                if d.type and d.type not in types:
                    types.append(d.type)
            break
    return types


def _site_constraint_values(cur: Cursor, site) -> list[Candidate]:
    """A site's properties (each with how many nodes have it) or host names, where an
    item of a constraint's `properties` or `hostlist` is typed."""
    typed = cur.prefix.strip("\"'")
    neg = typed[:1] if typed[:1] == "^" else ""
    out: list[Candidate] = []
    if cur.path[-2] == "properties":
        for p in sorted(site.properties()):
            if p.startswith(typed[len(neg) :]):
                nodes = sum(c.count for c in site.classes if p in c.properties)
                count = site.nodes - nodes if neg else nodes
                what = "nodes without it" if neg else "nodes"
                out.append(Candidate(neg + p, "value", f"{count} {what}", f"property `{p}`"))
    else:
        for c in site.classes:
            for h in hostlists.expand(c.hosts) if c.hosts else []:
                if h.startswith(typed) and len(out) < 200:
                    gpus = f", {c.gpus} GPUs" if c.gpus else ""
                    out.append(Candidate(h, "value", f"{c.cores} cores{gpus}"))
    return [_as_json(c, "value") for c in out] if cur.json else out


def site_queue_values(text: str, offset: int, language: str, site) -> tuple | None:
    """The site's queues, each with its nodes and limits, where the value of
    ``attributes.system.queue`` is typed (None elsewhere)."""
    cur = cursor_context(text, offset, language)
    if cur is None:
        return None
    if (
        len(cur.path) >= 2
        and "constraints" in cur.path
        and cur.path[-2] in ("properties", "hostlist")
        and cur.on in ("item", "key")
    ):
        return _site_constraint_values(cur, site), cur.start, cur.end
    if cur.on != "value" or cur.key != "queue" or kind_of(cur.path) != "system":
        return None
    out = [
        Candidate(q, "value", profile.queue_brief(site, q), profile.queue_markdown(site, q))
        for q in site.queues
        if q.startswith(cur.prefix.strip("\"'"))
    ]
    if cur.json:
        out = [_as_json(c, "value") for c in out]
    return out, cur.start, cur.end
