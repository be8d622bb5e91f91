"""Slot-label navigation, rename, document symbols and folding (pure helpers)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from jobspec_lsp.jobspec.context import node_at
from jobspec_lsp.jobspec.tree import Document, Mapping, Node, Scalar, Sequence
from jobspec_lsp.rules import analysis
from jobspec_lsp.rules.base import Vertex


@dataclass
class Symbol:
    name: str
    detail: str
    kind: str  # "array", "struct", "field", "function", "key"
    start: int
    end: int
    sel_start: int
    sel_end: int
    children: list = field(default_factory=list)


def _label_targets(doc: Document):
    """(label nodes by name for slot vertices, [task slot value nodes])."""
    ctx = analysis.model(doc)
    labels: dict = {}
    for v in ctx.vertices:
        lab = v.node.get("label")
        if v.type == "slot" and isinstance(lab, Scalar) and isinstance(lab.value, str):
            labels.setdefault(lab.value, lab)
    uses = []
    for t in ctx.tasks:
        if isinstance(t, Mapping):
            s = t.get("slot")
            if isinstance(s, Scalar) and isinstance(s.value, str):
                uses.append(s)
    return labels, uses, ctx


def label_at(doc: Document, offset: int) -> Scalar | None:
    """The slot label or task slot value under the cursor."""
    if doc.root is None:
        return None
    path, node, role = node_at(doc, offset)
    if not isinstance(node, Scalar) or role == "key" or not path:
        return None
    if path[-1] == "label" and path[0] == "resources":
        return node
    if path[0] == "tasks" and len(path) == 3 and path[2] == "slot":
        return node
    return None


def definition(doc: Document, offset: int) -> Scalar | None:
    node = label_at(doc, offset)
    if node is None:
        return None
    labels, _, _ = _label_targets(doc)
    return labels.get(node.value)


def references(doc: Document, offset: int, include_declaration: bool = True) -> list[Scalar]:
    node = label_at(doc, offset)
    if node is None:
        return []
    labels, uses, _ = _label_targets(doc)
    out = []
    decl = labels.get(node.value)
    if include_declaration and decl is not None:
        out.append(decl)
    out.extend(u for u in uses if u.value == node.value)
    return out


class RenameError(ValueError):
    pass


_LABEL = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]*\Z")


def prepare_rename(doc: Document, offset: int) -> Scalar | None:
    node = label_at(doc, offset)
    if node is None:
        return None
    labels, _, _ = _label_targets(doc)
    return node if node.value in labels else None


def rename(doc: Document, offset: int, new_name: str) -> list[tuple[int, int, str]]:
    node = prepare_rename(doc, offset)
    if node is None:
        raise RenameError("only a slot label (or a task's slot) can be renamed here")
    if not _LABEL.match(new_name):
        raise RenameError(f"{new_name!r} is not a plain label (letters, digits, _ . -)")
    ctx = analysis.model(doc)
    if any(v.label == new_name for v in ctx.vertices):
        raise RenameError(f"the label {new_name!r} is already used")
    edits = []
    for n in references(doc, offset, True):
        src = doc.text[n.start : n.end]
        quote = src[0] if src[:1] in ("'", '"') else ""
        edits.append((n.start, n.end, f"{quote}{new_name}{quote}"))
    return edits


def document_symbols(doc: Document) -> list[Symbol]:
    root = doc.root
    if not isinstance(root, Mapping):
        return []
    ctx = analysis.model(doc)
    out = []
    for key, value in root.pairs:
        sym = Symbol(str(key.value), "", "key", key.start, value.end, key.start, key.end)
        if key.value == "resources":
            sym.kind = "array"
            sym.children = [_vertex_symbol(v) for v in ctx.top]
        elif key.value == "tasks" and isinstance(value, Sequence):
            sym.kind = "array"
            for i, t in enumerate(value.items):
                if isinstance(t, Mapping):
                    cmd = t.get("command")
                    name = (
                        " ".join(str(c.value) for c in cmd.items if isinstance(c, Scalar))
                        if isinstance(cmd, Sequence)
                        else f"task {i}"
                    )
                    slot = t.get("slot")
                    detail = f"slot {slot.value}" if isinstance(slot, Scalar) else ""
                    sel = t.pairs[0][0] if t.pairs else t
                    sym.children.append(
                        Symbol(
                            name or f"task {i}",
                            detail,
                            "function",
                            t.start,
                            t.end,
                            sel.start,
                            sel.end,
                        )
                    )
        elif key.value == "attributes" and isinstance(value, Mapping):
            sym.kind = "struct"
            for k, v in value.pairs:
                child = Symbol(str(k.value), "", "struct", k.start, v.end, k.start, k.end)
                if isinstance(v, Mapping):
                    child.children = [
                        Symbol(str(k2.value), "", "field", k2.start, v2.end, k2.start, k2.end)
                        for k2, v2 in v.pairs
                    ]
                sym.children.append(child)
        else:
            sym.kind = "field"
        out.append(sym)
    return out


def _vertex_symbol(v) -> Symbol:
    node = v.node
    count = node.get("count")
    ctext = str(count.value) if isinstance(count, Scalar) else "range" if count is not None else "?"
    name = f"{v.type or '?'} ×{ctext}"
    detail = f"label {v.label}" if v.label else ""
    sel = node.key_node("type") or (node.pairs[0][0] if node.pairs else node)
    return Symbol(
        name,
        detail,
        "struct",
        node.start,
        node.end,
        sel.start,
        sel.end,
        [_vertex_symbol(c) for c in v.children],
    )


def folding_ranges(doc: Document) -> list[tuple[int, int]]:
    """(start line, end line) of every block collection spanning several lines."""
    if doc.root is None:
        return []
    out = []
    lines, text = doc.lines, doc.text
    stack: list[Node] = [doc.root]
    while stack:
        n = stack.pop()
        if isinstance(n, Mapping):
            children = [(k.start, v) for k, v in n.pairs]  # a pair folds from its key
        elif isinstance(n, Sequence):
            children = [(item.start, item) for item in n.items]
        else:
            continue
        for start, child in children:
            if isinstance(child, (Mapping, Sequence)):
                a = lines.position(start).line
                # a block collection ends where the next token starts (often the next
                # sibling's "- "): the fold ends on its own last character instead
                end = child.end
                while end > child.start and text[end - 1] in " \t\r\n-":
                    end -= 1
                b = lines.position(max(end - 1, child.start)).line
                if b > a:
                    out.append((a, b))
                stack.append(child)
    return sorted(set(out))


def inlay_hints(doc: Document, start: int, end: int) -> list[tuple[int, str]]:
    """(offset, label) hints: after a resource count whose vertex is repeated by its
    parents, the total it amounts to (e.g. cores under 4 nodes x 2 slots: "= 16 in all")."""
    if doc.root is None:
        return []
    ctx = analysis.model(doc)
    out: list[tuple[int, str]] = []
    for v in ctx.vertices:
        count = v.node.get("count")
        if not (isinstance(count, Scalar) and type(count.value) is int) or v.parent is None:
            continue
        if not (start <= count.end <= end):
            continue
        total: int | None = count.value
        p: Vertex | None = v.parent
        while p is not None and total is not None:
            c = p.node.get("count")
            if not (isinstance(c, Scalar) and type(c.value) is int):
                total = None
                break
            total *= c.value
            p = p.parent
        if total is not None and total != count.value:
            unit = v.node.get("unit")
            unit_text = (
                f" {unit.value}" if isinstance(unit, Scalar) and isinstance(unit.value, str) else ""
            )
            out.append((count.end, f"= {total}{unit_text} in all"))
    return out
