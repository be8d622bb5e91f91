"""Canonical (RFC 14) jobspec <-> jobspec V1 (RFC 25), as edits of the original text, so that comments and layout survive."""

from __future__ import annotations

import json
import re
from typing import cast

from jobspec_lsp.convert.common import (
    CANONICAL_VERSION,
    V1_TYPES,
    Change,
    Conversion,
    _column,
    _content_end,
    _diag,
    _errors,
    _key,
    _line_end,
    _line_start,
    _plain,
    _refuse,
    _same,
    _scalar,
    _span,
    _verified,
    _yaml_str,
    dump,
)
from jobspec_lsp.diagnostics import Diagnostic
from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.jobspec.tree import Document, Mapping, Node, Scalar, Sequence, to_python
from jobspec_lsp.notations import formats
from jobspec_lsp.rules import analysis
from jobspec_lsp.rules import convert as codes
from jobspec_lsp.rules import v1 as v1_rules
from jobspec_lsp.rules.base import head
from jobspec_lsp.text import edits


def to_v1(text: str, language: str = "yaml") -> Conversion:
    """Canonical jobspec -> jobspec V1, by minimal edits of ``text``.

    Blocked (``text`` None) when no V1 jobspec means the same: each blocker is
    a JS70x diagnostic on the token responsible.  An input with errors is
    refused (JS708, each error listed).  Offsets are those of ``jobspec check``
    (after a byte order mark, which is kept)."""
    bom, text = _split_bom(text)
    return _with_bom(bom, _to_v1(text, language))


def _split_bom(text: str) -> tuple[str, str]:
    return ("\ufeff", text[1:]) if text.startswith("\ufeff") else ("", text)


def _with_bom(bom: str, conv: Conversion) -> Conversion:
    if bom and conv.text is not None:
        conv.text = bom + conv.text
    return conv


def _newline(text: str) -> str:
    nl = text.find("\n")
    return "\r\n" if nl > 0 and text[nl - 1] == "\r" else "\n"


def _to_v1(text: str, language: str) -> Conversion:
    doc = parse(text, language)
    errors = _errors(doc, language, "canonical")
    bare = None
    if errors:
        bare = _bare_request(doc, errors)
        if bare is None:
            return _refuse(errors)
    ctx = analysis.model(doc)
    plan = _V1Plan(doc, ctx, bare)
    plan.run()
    if plan.blockers:
        return Conversion(None, [], sorted(plan.blockers, key=Diagnostic.sort_key))
    out = edits.apply(text, plan.edits)
    changes = sorted(plan.changes, key=lambda c: (c.start, c.end))
    if out is not None and bare is not None:
        out = _wrap_bare(out, language, bare[1])
    if bare is not None:
        seq = bare[0]
        changes.append(
            Change(
                f"put the bare {' and '.join(_bare_types(seq))} request into one task slot "
                f"labelled {bare[1]!r} (count 1), which V1 requires and which the task names",
                *head(seq),
            )
        )
        changes.sort(key=lambda c: (c.start, c.end))
    want = _v1_data(to_python(doc.root), bare[1] if bare else None)
    return _checked_v1(text, out, language, want, changes)


def _checked_v1(text, out, language, want, changes) -> Conversion:
    reason = None
    if out is None:
        reason = "two edits overlapped"
    else:
        after = parse(out, language)
        if after.root is None or not _same(to_python(after.root), want):
            reason = "the edited text would not read as the converted data"
        elif _errors(after, language, "v1"):
            reason = "the edited text would not pass the V1 rules"
    if reason is not None:  # never expected; correctness over layout
        out = dump(want, language)
        changes = changes + [
            Change(
                f"rewrote the whole document from its data ({reason}); "
                "comments and layout are not kept",
                0,
                len(text),
            )
        ]
    root = parse(text, language).root
    return _verified(out, language, "v1", changes, where=_span(root))


class _V1Plan:
    """What to edit, and what blocks, to turn one canonical document into V1."""

    def __init__(self, doc: Document, ctx, bare):
        self.doc = doc
        self.text = doc.text
        self.ctx = ctx
        self.bare = bare
        self.edits: list[tuple[int, int, str]] = []
        self.changes: list[Change] = []
        self.blockers: list[Diagnostic] = []

    def block(self, code, where, message):
        self.blockers.append(_diag(code, where, message))

    def edit(self, start, end, new, message, span=None):
        self.edits.append((start, end, new))
        s, e = span if span is not None else (start, end)
        self.changes.append(Change(message, s, e))

    def run(self):
        ctx = self.ctx
        if len(ctx.top) > 1 and not self.bare:
            extra = ctx.top[1]
            self.block(
                codes.TOP,
                extra.node.get("type") or extra.node,
                f"V1 resources hold one top-level node or slot; this jobspec has "
                f"{len(ctx.top)} top-level resources and V1 cannot request them together",
            )
        for v in ctx.vertices:
            self.vertex(v)
        if not self.bare:
            self.graph()
        self.tasks()
        if not self.blockers:
            self.version()
            self.system()

    # ---------------------------------------------------------------- resources
    def in_slot(self, v) -> bool:
        return (
            self.bare is not None
            or v.type == "slot"
            or any(a.type == "slot" for a in v.ancestors())
        )

    def vertex(self, v):
        node = v.node
        if v.type not in V1_TYPES:
            self.block(
                codes.TYPE,
                node.get("type") or node,
                f"V1 has no {v.type!r} resources (only node, slot, core and gpu); "
                "leaving it out would change the request",
            )
        count = node.get("count")
        if isinstance(count, Mapping) or (
            isinstance(count, Scalar) and isinstance(count.value, str)
        ):
            self.count(node, count)
        for key, value in node.pairs:
            if key.value == "id":
                self.block(
                    codes.KEY,
                    key,
                    f"V1 cannot ask for particular resources (id "
                    f"{self.text[value.start : value.end]}); leaving it out would let "
                    "the scheduler choose any",
                )
            elif key.value == "exclusive" and v.type != "node":
                self.exclusive(v, key, value)

    def count(self, vertex: Mapping, count: Node):
        fixed = _fixed_count(to_python(count))
        shown = _one_line(count, self.text)
        if fixed is None:
            self.block(
                codes.RANGE,
                count,
                f"V1 counts are fixed integers; {shown} lets the "
                "scheduler choose among several counts",
            )
            return
        key = vertex.key_node("count")
        if isinstance(count, (Mapping, Sequence)) and not count.flow:
            gap = self.text[key.end : count.start]
            comment = re.search(r"#[^\n]*", gap)
            new = f": {fixed}" + (f"  {comment.group(0)}" if comment else "")
            start, end = key.end, _content_end(count)
        else:
            props = _PROPERTIES.match(self.text, count.start, count.end)
            new, start, end = str(fixed), props.end() if props else count.start, count.end
        self.edit(
            start,
            end,
            new,
            f"count {shown} written as the integer {fixed} (the same single count)",
            span=_span(count),
        )

    def exclusive(self, v, key: Scalar, value: Scalar):
        if not self.in_slot(v):
            self.block(
                codes.KEY,
                key,
                f"V1 allows exclusive only on a node, not on a {v.type} outside a slot",
            )
        elif value.value is True:
            self.remove_pair(
                v.node,
                key,
                f"removed exclusive: true from the {v.type} (RFC 14: "
                "a slot and everything in it are exclusive by default)",
            )
        else:
            what = "the slot" if v.type == "slot" else f"the {v.type}s of the slot"
            self.block(
                codes.KEY,
                key,
                f"exclusive: {self.text[value.start : value.end]} lets other "
                f"jobs share {what}; V1 slots are always exclusive",
            )

    def remove_pair(self, mapping: Mapping, key: Scalar, message: str):
        text = self.text
        pairs = mapping.pairs
        i = next(n for n, (k, _) in enumerate(pairs) if k is key)
        value = pairs[i][1]
        span = (key.start, _content_end(value))
        if mapping.flow:
            if i + 1 < len(pairs):
                start, end = key.start, pairs[i + 1][0].start
            elif i > 0:
                start, end = _content_end(pairs[i - 1][1]), _content_end(value)
            else:
                start, end = key.start, _content_end(value)
        else:
            ls = _line_start(text, key.start)
            if text[ls : key.start].strip() == "":
                start, end = ls, _line_end(text, _content_end(value))
            elif i + 1 < len(pairs):  # `- exclusive: true` opens a list item
                start, end = key.start, pairs[i + 1][0].start
            else:
                start, end = key.start, _content_end(value)
        self.edit(start, end, "", message, span=span)

    def graph(self):
        """Blockers for a graph V1 does not allow: the V1 rules' own check
        (``rules.v1.graph_problem``).  Vertices of other types are already
        blocked (JS702) and are not blamed twice."""
        if not self.ctx.top:
            return
        problem = v1_rules.graph_problem(self.ctx.top[0])
        if problem is None:
            return
        message = problem.message
        if problem.slot_of_nodes:
            message += "; the nearest V1 request, node(exclusive)>slot>core, asks for cores instead"
        self.block(codes.GRAPH, problem.anchor, message)

    # ---------------------------------------------------------------- tasks
    def tasks(self):
        tasks = self.ctx.tasks
        if len(tasks) > 1:
            second = tasks[1]
            self.block(
                codes.TASKS,
                second.pairs[0][0] if second.pairs else second,
                f"V1 runs exactly one task; this jobspec has {len(tasks)}, and which "
                "to keep cannot be guessed",
            )
        for task in tasks:
            count = task.get("count")
            if isinstance(count, Mapping) and "per_resource" in count:
                self.block(
                    codes.PER_RESOURCE,
                    count.key_node("per_resource"),
                    "V1 task counts are per_slot or total; tasks per resource have no V1 form",
                )
            for key, _ in task.pairs:
                if key.value in ("distribution", "attributes"):
                    self.block(
                        codes.KEY,
                        key,
                        f"V1 tasks hold only command, slot and count; "
                        f"leaving out task {key.value} would change how the job runs",
                    )

    # ---------------------------------------------------------------- top level
    def version(self):
        version = cast(Mapping, self.doc.root).get("version")
        if not (isinstance(version, Scalar) and type(version.value) is int and version.value == 1):
            self.edit(
                version.start,
                version.end,
                "1",
                f"version {self.text[version.start : version.end]} changed to 1",
            )

    def system(self):
        root = cast(Mapping, self.doc.root)
        attrs = cast(Mapping, root.get("attributes"))
        system = attrs.get("system")
        why = "duration: 0 means no limit of its own (the instance's limit applies)"
        if system is None:
            value = f"{{{_key('duration', self.doc.language)}: 0}}"
            self.insert_pair(
                attrs,
                "system",
                value,
                ["system:", "  duration: 0"],
                f"added attributes.system with duration: 0, which V1 requires; {why}",
                _span(root.key_node("attributes")),
            )
        elif "duration" not in system:
            self.insert_pair(
                system,
                "duration",
                "0",
                ["duration: 0"],
                f"added duration: 0, which V1 requires; {why}",
                _span(attrs.key_node("system")),
            )

    def insert_pair(self, mapping: Mapping, key: str, flow_value: str, block_lines, message, span):
        text = self.text
        pair = f"{_key(key, self.doc.language)}: {flow_value}"
        if mapping.flow:
            if not mapping.pairs:
                return self.edit(mapping.start, mapping.end, "{" + pair + "}", message, span)
            first = mapping.pairs[0][0]
            if text.count("\n", mapping.start, first.start):
                sep = ",\n" + " " * _column(text, first.start)
            else:
                sep = ", "
            return self.edit(first.start, first.start, pair + sep, message, span)
        first = mapping.pairs[0][0]
        col = _column(text, first.start)
        ls = _line_start(text, first.start)
        nl = _newline(text)
        body = "".join(" " * col + line + nl for line in block_lines)
        self.edits.append((ls, ls, body))
        self.changes.append(Change(message, *span))


def _kinds(vertices) -> str:
    names = [v.type or "?" for v in vertices]
    return ", ".join(names) if names else "nothing"


_PROPERTIES = re.compile(r"(?:[&!][^\s,\[\]{}]*\s+)+")  # an anchor and/or a tag before a value


def _one_line(node: Node, text: str) -> str:
    if isinstance(node, Scalar) or getattr(node, "flow", False):
        props = _PROPERTIES.match(text, node.start, node.end)
        src = text[props.end() if props else node.start : node.end]
        if "\n" not in src:
            return src
    return json.dumps(to_python(node), separators=(", ", ": "))


def _fixed_count(value):
    """The one count a count string or mapping allows, or None."""
    if isinstance(value, str):
        try:
            kind, parsed = formats.parse_count_string(value)
        except formats.FormatError:
            return None
        if kind == "idset":
            return parsed[0][0] if len(parsed) == 1 and parsed[0][0] == parsed[0][1] else None
        return parsed["min"] if parsed.get("max") == parsed["min"] else None
    if isinstance(value, dict):
        lo, hi = value.get("min"), value.get("max")
        return lo if type(lo) is int and lo == hi else None
    return value if type(value) is int else None


# ---------------------------------------------------------------- bare core/gpu requests
def _bare_request(doc: Document, errors):
    """A request with no slot at all, e.g. `resources: [{type: core, count: 4}]`.

    Its only errors are tasks naming a slot that does not exist; V1 needs the
    cores (and gpus) in a slot, which is what one task slot over the whole
    request means.  Returns (the list to wrap, the label) or None."""
    if any(e.code != "JS307" for e in errors) or not isinstance(doc.root, Mapping):
        return None
    ctx = analysis.model(doc)
    if any(v.type == "slot" for v in ctx.vertices) or not ctx.tasks:
        return None
    labels = {
        t.get("slot").value
        for t in ctx.tasks
        if isinstance(t, Mapping) and isinstance(t.get("slot"), Scalar)
    }
    if len(labels) != 1 or not isinstance(next(iter(labels)), str):
        return None
    resources = doc.root.get("resources")
    target = resources
    if len(ctx.top) == 1 and ctx.top[0].type == "node":
        target = ctx.top[0].node.get("with")
        group = ctx.top[0].children
    else:
        group = ctx.top
    if not isinstance(target, Sequence):
        return None
    types = sorted(v.type or "" for v in group)
    if types not in (["core"], ["core", "gpu"]) or any(v.children for v in group):
        return None
    return target, next(iter(labels))


def _bare_types(seq: Sequence) -> list[str]:
    return [i.get("type").value for i in seq.items if isinstance(i, Mapping)]


def _find_bare_list(doc: Document) -> Sequence | None:
    resources = cast(Mapping, doc.root).get("resources")
    if not isinstance(resources, Sequence) or not resources.items:
        return None
    first = resources.items[0]
    if (
        len(resources.items) == 1
        and isinstance(first, Mapping)
        and isinstance(first.get("type"), Scalar)
        and first.get("type").value == "node"
    ):
        inner = first.get("with")
        return inner if isinstance(inner, Sequence) else None
    return resources


def _wrap_bare(text: str, language: str, label: str) -> str | None:
    """Put the bare core/gpu list of ``text`` into a slot (a second pass, after
    the other edits, so no two edits overlap)."""
    doc = parse(text, language)
    seq = _find_bare_list(doc) if doc.root is not None else None
    if seq is None or not seq.items:
        return None
    first, last = seq.items[0], seq.items[-1]
    if seq.flow:
        inner = text[first.start : _content_end(last)]
        k = lambda s: _key(s, language)
        new = (
            f"{{{k('type')}: {_scalar('slot', language)}, {k('count')}: 1, "
            f"{k('label')}: {_scalar(label, language)}, {k('with')}: [{inner}]}}"
        )
        return text[: first.start] + new + text[_content_end(last) :]
    dash, content = _column(text, seq.start), _column(text, first.start)
    step = max(content - dash, 2)
    start = _line_start(text, seq.start)
    end = _line_end(text, _content_end(last))
    region = text[start:end]
    pad = " " * (2 * step)
    moved = "".join(
        pad + line if line.strip() else line for line in region.splitlines(keepends=True)
    )
    nl = _newline(text)
    if not moved.endswith("\n"):
        moved += nl
    at = " " * (dash + step)
    header = (
        " " * dash
        + "- type: slot"
        + nl
        + at
        + "count: 1"
        + nl
        + at
        + f"label: {_yaml_str(label)}"
        + nl
        + at
        + "with:"
        + nl
    )
    return text[:start] + header + moved + text[end:]


def _v1_data(data: dict, bare_label: str | None) -> dict:
    """The conversion done on the loaded data (what the edited text must read as)."""
    js = _plain(data)
    js["version"] = 1
    if bare_label is not None:
        holder = js["resources"]
        if len(holder) == 1 and holder[0].get("type") == "node":
            node = holder[0]
            node["with"] = [{"type": "slot", "count": 1, "label": bare_label, "with": node["with"]}]
        else:
            js["resources"] = [{"type": "slot", "count": 1, "label": bare_label, "with": holder}]

    def walk(vertices, in_slot):
        for v in vertices:
            if isinstance(v.get("count"), (str, dict)):
                v["count"] = _fixed_count(v["count"])
            inside = in_slot or v.get("type") == "slot"
            if inside and v.get("type") != "node" and v.get("exclusive") is True:
                del v["exclusive"]
            walk(v.get("with") or [], inside)

    walk(js["resources"], False)
    system = js["attributes"].setdefault("system", {})
    system.setdefault("duration", 0)
    return js


# =========================================================================== V1 -> canonical
def to_canonical(text: str, language: str = "yaml") -> Conversion:
    """V1 -> the explicit canonical form: the version becomes 999 (see
    CANONICAL_VERSION); nothing else changes, since every V1 jobspec is a valid
    canonical jobspec.  A document already canonical is returned unchanged.
    A ``version: 1`` document that breaks the V1 rules but is valid canonical
    jobspec is converted too (that is what marking it canonical is for)."""
    bom, text = _split_bom(text)
    return _with_bom(bom, _to_canonical(text, language))


def _to_canonical(text: str, language: str) -> Conversion:
    doc = parse(text, language)
    errors = _errors(doc, language, "canonical")
    if errors:
        return _refuse(errors)
    version = cast(Mapping, doc.root).get("version")
    if not (isinstance(version, Scalar) and type(version.value) is int and version.value == 1):
        return _verified(text, language, "canonical", [])
    out = text[: version.start] + str(CANONICAL_VERSION) + text[version.end :]
    change = Change(
        f"version 1 changed to {CANONICAL_VERSION}, which marks canonical jobspec "
        "(every V1 jobspec is valid canonical jobspec; nothing else changes)",
        version.start,
        version.end,
    )
    return _verified(out, language, "canonical", [change], where=_span(version))
