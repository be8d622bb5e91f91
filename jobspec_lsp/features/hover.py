"""Hover texts: what the key or value under the cursor means, concretely."""

from __future__ import annotations

from dataclasses import dataclass

from jobspec_lsp.diagnostics import RULES
from jobspec_lsp.jobspec import docs_text
from jobspec_lsp.jobspec.context import kind_of, node_at
from jobspec_lsp.jobspec.tree import Document, Mapping, Scalar, to_python
from jobspec_lsp.notations import formats, shape
from jobspec_lsp.rules import analysis
from jobspec_lsp.site import profile


@dataclass(frozen=True)
class Hover:
    markdown: str
    start: int
    end: int


def hover(doc: Document, offset: int) -> Hover | None:
    """What the key or the value under the cursor means: the key's documentation, or
    what the model makes of the value (a count in words, a vertex's slots and tasks, a
    duration), else the value's documentation."""
    path, node, role = node_at(doc, offset)
    if node is None or not path and role != "key":
        return None
    ctx = analysis.model(doc)
    if role == "key":
        return _key_hover(ctx, path, node)
    key = path[-1] if path else None
    if isinstance(node, Mapping) and key == "count" and kind_of(path[:-1]) == "vertex":
        vertex = _vertex_for(ctx, path[:-1])
        return Hover(
            explain_count(to_python(node), vertex.type if vertex else None), node.start, node.end
        )
    if not isinstance(node, Scalar):
        return None
    return _modelled(ctx, path, node) or _documented(path, node)


def _key_hover(ctx, path, node) -> Hover | None:
    """A key: its documentation (on a vertex's ``type`` or ``with``, the vertex's slots)."""
    parent = path[:-1]
    kind = kind_of(parent)
    text = docs_text.key_doc(kind, path[-1])
    if text is None:
        return None
    parts = [f"**{path[-1]}**", text]
    vertex = _vertex_for(ctx, parent) if kind == "vertex" else None
    if vertex is not None and path[-1] in ("type", "with"):
        parts.append(_vertex_summary(ctx, vertex))
    return Hover("\n\n".join(parts), node.start, node.end)


def _modelled(ctx, path, node: Scalar) -> Hover | None:
    """What the resource model makes of a scalar: a count in words, a vertex's or a
    task's slot, a time limit (None: nothing more than its documentation)."""
    key, parent = path[-1], path[:-1]
    kind = kind_of(parent)
    if kind == "vertex" and key == "count":
        vertex = _vertex_for(ctx, parent)
        return Hover(
            explain_count(node.value, vertex.type if vertex else None), node.start, node.end
        )
    if kind == "count":
        vertex = _vertex_for(ctx, parent[:-1])
        d = _vertex_count(vertex)
        if isinstance(d, dict):
            return Hover(explain_count(d, vertex.type), node.start, node.end)
    if kind == "vertex" and key in ("type", "label"):
        vertex = _vertex_for(ctx, parent)
        if vertex is not None:
            return Hover(_vertex_summary(ctx, vertex), node.start, node.end)
    if kind == "task" and key == "slot":
        for v in ctx.vertices:
            if v.type == "slot" and v.label == node.value:
                return Hover(
                    f"Runs in slot **{v.label}**.\n\n" + _vertex_summary(ctx, v),
                    node.start,
                    node.end,
                )
    if kind == "system" and key == "duration" and type(node.value) in (int, float):
        return Hover(f"Time limit: {human_duration(node.value)}.", node.start, node.end)
    return None


def _documented(path, node: Scalar) -> Hover | None:
    """A scalar's documentation: its value's (with its key's), else its key's."""
    key = path[-1]
    kind = kind_of(path[:-1])
    doc_text = docs_text.key_doc(kind, key)
    value_doc = next(
        (
            d
            for v, d in docs_text.VALUES.get((kind or "", key or ""), [])
            if v.strip("'\"") == str(node.value) and d
        ),
        None,
    )
    if value_doc:
        return Hover(
            f"`{node.value}`: {value_doc}" + (f"\n\n**{key}**: {doc_text}" if doc_text else ""),
            node.start,
            node.end,
        )
    if doc_text:
        return Hover(f"**{key}**\n\n{doc_text}", node.start, node.end)
    return None


def diagnostic_hover(code: str) -> str:
    rule = RULES.get(code)
    return f"**{code}** {rule.summary}\n\n{rule.why}" if rule else code


# --------------------------------------------------------------------------- helpers
def _vertex_for(ctx, path):
    target = _node(ctx.root, path)
    for v in ctx.vertices:
        if v.node is target:
            return v
    return None


def _node(root, path):
    node = root
    for step in path:
        if isinstance(node, Mapping):
            node = node.get(step)
        elif hasattr(node, "items") and isinstance(step, int) and step < len(node.items):
            node = node.items[step]
        else:
            return None
    return node


def _vertex_count(v):
    if v is None:
        return None
    c = v.node.get("count")
    return to_python(c) if c is not None else None


def _plural(word: str | None, n) -> str:
    word = word or "resource"
    return (
        word if n == 1 else (word + "es" if word.endswith(("s", "x", "ch", "sh")) else word + "s")
    )


def explain_count(value, rtype: str | None) -> str:
    """A count in words: "between 3 and 30 nodes, in steps of 1"."""
    t = rtype
    if isinstance(value, bool) or value is None:
        return "Not a valid count."
    if isinstance(value, int):
        return f"Exactly {value} {_plural(t, value)}."
    if isinstance(value, str):
        try:
            kind, parsed = formats.parse_count_string(value)
        except formats.FormatError as err:
            return f"Not a valid count: {err.message}."
        if kind == "idset":
            counts = [str(lo) if lo == hi else f"{lo} to {hi}" for lo, hi in parsed]
            choice = counts[0] if len(counts) == 1 else ", ".join(counts[:-1]) + " or " + counts[-1]
            return f"{choice} {_plural(t, 2)} (an RFC 22 idset of acceptable counts)."
        value = parsed
    if isinstance(value, dict):
        lo, hi = value.get("min"), value.get("max")
        op, operand = value.get("operator"), value.get("operand")
        if not isinstance(lo, int):
            return "A range count needs an integer min."
        if hi is None and op is None:
            return f"At least {lo} {_plural(t, lo)}: as many as are available."
        seq = _series(lo, hi, op or "+", operand or 1)
        top = f"up to {hi}" if hi is not None else "with no upper bound"
        how = {
            "+": f"in steps of {operand}",
            "*": f"multiplying by {operand}",
            "^": f"raising to the power {operand}",
        }.get(op or "+", "")
        return (
            f"Between {lo} and {hi} {_plural(t, 2)}, {how}"
            if hi is not None
            else f"From {lo} {_plural(t, 2)} {top}, {how}"
        ) + (f": {seq}." if seq else ".")
    return "Not a valid count."


_BEYOND = 2**64  # no count of resources comes near it; the series stops there


def _series(lo, hi, op, operand, limit=6) -> str:
    """The first terms of a range count. Each term is computed only while it stays
    below 2**64: ``2 ^ 100`` would otherwise grow to numbers of millions of digits."""
    out: list[str] = []
    x = lo
    if not isinstance(operand, int) or isinstance(operand, bool) or x >= _BEYOND:
        return str(x) if isinstance(x, int) and x < _BEYOND else ""
    while len(out) < limit and (hi is None or x <= hi):
        out.append(x)
        if op == "^" and x > 1 and operand * x.bit_length() > 2 * _BEYOND.bit_length():
            nxt = _BEYOND  # too large to compute, and beyond any count anyway
        else:
            nxt = x + operand if op == "+" else x * operand if op == "*" else x**operand
        if nxt <= x:
            break
        if nxt >= _BEYOND:
            x = nxt
            break
        x = nxt
    if not out:
        return ""
    more = hi is None or x <= hi  # stopped at the limit, or past 64 bits, before max
    return ", ".join(map(str, out)) + (", …" if more else "")


def _multiplicity(v) -> int | None:
    n = 1
    while v is not None:
        c = v.node.get("count")
        if not (isinstance(c, Scalar) and type(c.value) is int):
            return None
        n *= c.value
        v = v.parent
    return n


def _per_slot(slot) -> dict:
    """(type, unit) -> how many of it one slot holds; None when a count on the way
    down from the slot is not a plain integer (the scheduler picks it)."""
    per: dict = {}
    for d in slot.descendants():
        if not d.type:
            continue
        n: int | None = 1
        v = d
        while v is not None and v is not slot:
            c = v.node.get("count")
            if not (isinstance(c, Scalar) and type(c.value) is int):
                n = None
                break
            n *= c.value  # type: ignore[operator]
            v = v.parent
        unit = d.node.get("unit")
        key = (
            d.type,
            unit.value if isinstance(unit, Scalar) and isinstance(unit.value, str) else None,
        )
        per[key] = None if n is None or (key in per and per[key] is None) else per.get(key, 0) + n
    return per


def _amount(rtype: str, unit: str | None, n: int | None) -> str:
    if unit is not None:
        return f"{n} {unit} of {rtype}" if n is not None else f"a varying amount of {rtype}"
    return (
        f"{n} {_plural(rtype, n)}" if n is not None else f"a varying number of {_plural(rtype, 2)}"
    )


def _vertex_summary(ctx, v) -> str:
    lines = []
    try:
        lines.append(f"Shape: `{shape.shape_of(to_python(v.node))}`")
    except shape.ShapeError:
        pass
    slots = [s for s in [v, *v.descendants(), *v.ancestors()] if s.type == "slot"]
    for s in slots[:4]:
        n = _multiplicity(s)
        per = _per_slot(s)
        contents = ", ".join(_amount(t, u, c) for (t, u), c in per.items()) or "nothing"
        counted = {t: c for (t, u), c in per.items() if c is not None and u is None}
        tasks = _tasks_for(ctx, s.label, n, counted)
        total = f"{n} {_plural('slot', n)}" if n is not None else "a varying number of slots"
        lines.append(
            f"Slot **{s.label}**: {total}, each with {contents}"
            + (f"; {tasks}" if tasks else "")
            + "."
        )
        if n is not None and per and all(c is not None for c in per.values()):
            lines.append(
                "Overall: "
                + ", ".join(_amount(t, u, c * n) for (t, u), c in per.items())  # type: ignore[operator]
                + "."
            )
    return "\n\n".join(lines)


def _tasks_for(ctx, label, n_slots, per) -> str:
    for task in ctx.tasks:
        if not isinstance(task, Mapping):
            continue
        slot = task.get("slot")
        if not (isinstance(slot, Scalar) and slot.value == label):
            continue
        count = to_python(task.get("count"))
        if not isinstance(count, dict):
            return ""
        if isinstance(count.get("per_slot"), int) and n_slots is not None:
            t = count["per_slot"] * n_slots
            return f"{t} {_plural('task', t)} ({count['per_slot']} per slot)"
        if isinstance(count.get("total"), int):
            return f"{count['total']} {_plural('task', count['total'])} in total"
        pr = count.get("per_resource")
        if (
            isinstance(pr, dict)
            and isinstance(pr.get("count"), int)
            and n_slots is not None
            and pr.get("type") in per
        ):
            t = pr["count"] * per[pr["type"]] * n_slots
            return f"{t} {_plural('task', t)} ({pr['count']} per {pr['type']})"
    return ""


def human_duration(seconds) -> str:
    if seconds == 0:
        return "unlimited (0)"
    parts, rest = [], float(seconds)
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if rest >= size:
            n = int(rest // size)
            parts.append(f"{n}{unit}")
            rest -= n * size
    if rest or not parts:
        parts.append(f"{rest:g}s")
    return f"{' '.join(parts)} ({seconds:g} seconds)"


def site_queue(doc: Document, offset: int, site, found: Hover | None):
    """On ``attributes.system.queue`` (its key or its value): the site's queue, its nodes,
    limits and defaults, after what :func:`hover` says there. None elsewhere."""
    path, node, role = node_at(doc, offset)
    if node is None or not path or path[-1] != "queue" or kind_of(path[:-1]) != "system":
        return None
    system = node_at_value(doc, path)
    name = system.value if isinstance(system, Scalar) else None
    if not isinstance(name, str) or name not in site.queues:
        return None
    md = profile.queue_markdown(site, name)
    if found is not None:
        return f"{found.markdown}\n\n---\n\n{md}", found.start, found.end
    return md, node.start, node.end


def node_at_value(doc: Document, path) -> object:
    node = doc.root
    for step in path:
        if isinstance(node, Mapping) and step in node:
            node = node.get(step)
        else:
            return None
    return node
