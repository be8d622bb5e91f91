"""Conversions the command line and the language server share (pure functions).

- :func:`to_v1` — canonical (RFC 14) jobspec -> jobspec V1 (RFC 25)
- :func:`to_canonical` — V1 -> the explicit canonical form (``version: 999``)
- :func:`from_psij` / :func:`from_psij_text` — a PSI/J ``JobSpec`` -> V1
- :func:`to_psij` — V1 -> a PSI/J ``JobSpec`` (psij-python's JSON serialization)
- :func:`from_command_line` — ``flux submit``-like options -> V1

Every function returns a :class:`Conversion`: the new text (``None`` when the
conversion is impossible), every change made (each with the range of the input
it concerns), the blockers (JS7xx diagnostics on the exact input token that
stops it) and warnings (what could not be carried).  A result is returned only
after it checks clean with the rules of its version, so a conversion never
hands back a jobspec that ``jobspec check`` would reject.

Conversions between jobspec forms are text edits on the original, so comments
and layout survive (the result is also compared, value by value, with the
conversion done on the loaded data; should an edit ever disagree, the document
is rewritten from the data instead, and that is listed as a change).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shlex
from dataclasses import dataclass, field
from typing import cast

from jobspec_lsp import analysis, edits, formats
from jobspec_lsp.diagnostics import Diagnostic, Severity
from jobspec_lsp.document import Document, Mapping, Node, Scalar, Sequence, parse, to_python
from jobspec_lsp.fluxcli import build
from jobspec_lsp.rules import convert as codes
from jobspec_lsp.rules import v1 as v1_rules
from jobspec_lsp.rules.base import head

# The version written for the explicit canonical form: RFC 14 uses 999 for every
# example that needs canonical jobspec; any version other than 1 selects the
# canonical rules (here and in flux-core's validators).  See docs/convert.md.
CANONICAL_VERSION = 999
PSIJ_DEFAULT_DURATION = 600  # PSI/J's JobAttributes default: 10 minutes
V1_TYPES = v1_rules.V1_TYPES


@dataclass
class Change:
    """One change a conversion made; ``start``/``end`` are code-point offsets of
    the input it concerns (0, 0 when there is no input text)."""

    message: str
    start: int
    end: int


@dataclass
class Conversion:
    text: str | None
    changes: list[Change] = field(default_factory=list)
    blockers: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.text is not None


class UsageError(ValueError):
    """Options that cannot be turned into a jobspec (``jobspec new`` exits 2)."""


# --------------------------------------------------------------------------- helpers
def _span(where) -> tuple[int, int]:
    if isinstance(where, tuple):
        return where
    return head(where)


def _diag(code: str, where, message: str, severity: Severity = Severity.ERROR) -> Diagnostic:
    start, end = _span(where)
    return Diagnostic(code, severity, message, start, end)


def _errors(source, language: str, rules: str, target: str = "rfc") -> list[Diagnostic]:
    return [
        d
        for d in analysis.check(source, language=language, version_rules=rules, target=target)
        if d.severity == Severity.ERROR
    ]


def _refuse(errors) -> Conversion:
    return Conversion(
        None,
        blockers=[
            Diagnostic(
                codes.NOT_VALID,
                Severity.ERROR,
                f"fix this first: {e.message} ({e.code})",
                e.start,
                e.end,
            )
            for e in errors
        ],
    )


def _same(a, b) -> bool:
    """Equal data with equal types (1, 1.0 and true differ)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


def _plain(data):
    """A deep copy with no shared objects (aliases become independent copies)."""
    return json.loads(json.dumps(data, default=str))


def _line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def _line_end(text: str, offset: int) -> int:
    """Offset just after the newline ending the line of ``offset`` (or the end)."""
    nl = text.find("\n", offset)
    return len(text) if nl < 0 else nl + 1


def _column(text: str, offset: int) -> int:
    return offset - _line_start(text, offset)


def _content_end(node: Node) -> int:
    """Where a node's own text ends (a block collection's end mark lies further on,
    at the next line's indentation)."""
    while True:
        if isinstance(node, Mapping) and not node.flow and node.pairs:
            node = node.pairs[-1][1]
        elif isinstance(node, Sequence) and not node.flow and node.items:
            node = node.items[-1]
        else:
            return node.end


_PLAIN_WORD = re.compile(r"[A-Za-z_/][A-Za-z0-9_./+@-]*\Z")


def _yaml_str(s: str) -> str:
    """A string as a YAML scalar safe in block and flow context."""
    if _PLAIN_WORD.match(s):
        doc = parse(f"x: {s}\n")
        root = doc.root
        x = root.get("x") if isinstance(root, Mapping) else None
        if not doc.problems and isinstance(x, Scalar) and x.value == s:
            return s
    return json.dumps(s, ensure_ascii=False)


def _scalar(value, language: str) -> str:
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False) if language == "json" else _yaml_str(value)
    return json.dumps(value)


def _key(name: str, language: str) -> str:
    return json.dumps(name) if language == "json" else name


def _yaml_dump(js) -> str:
    """PyYAML's safe dump, with a text of several lines (a script in `files`) as a
    literal block, which PyYAML keeps only where it reads back the same."""
    import yaml

    class Dumper(yaml.SafeDumper):
        pass

    def text(dumper, value: str):
        style = "|" if "\n" in value.rstrip("\n") else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    Dumper.add_representer(str, text)
    return yaml.dump(
        js,
        Dumper=Dumper,
        sort_keys=False,
        default_flow_style=None,
        allow_unicode=True,
        width=1 << 16,
    )


def dump(js: dict, fmt: str = "yaml") -> str:
    """A jobspec (plain data) as YAML or JSON text in the formatter's style;
    :class:`UsageError` for one nested too deeply to write (a --setattr value of
    hundreds of levels: the writers recurse)."""
    from jobspec_lsp.format import FormatError, format_text

    try:
        if fmt == "json":
            text = json.dumps(js, indent=2, ensure_ascii=False) + "\n"
        else:
            text = _yaml_dump(js)
    except RecursionError:
        raise UsageError("the jobspec nests too deeply to be written") from None
    try:
        return format_text(text, fmt)
    except FormatError:  # a document beyond the formatter's own limits: as written
        return text


def _verified(
    text: str, language: str, rules: str, changes, warnings=(), where=(0, 0), target: str = "rfc"
) -> Conversion:
    """``text`` when it checks clean under ``rules`` (and ``target``); otherwise
    blockers (a conversion never returns a jobspec `jobspec check` would reject)."""
    left = _errors(text, language, rules, target)
    if left:
        lines = parse(text, language).lines
        return Conversion(
            None,
            list(changes),
            [
                _diag(
                    codes.NOT_VALID,
                    where,
                    f"the result would have {e.code} at line "
                    f"{lines.position(e.start).line + 1}: {e.message}",
                )
                for e in left
            ],
            list(warnings),
        )
    return Conversion(text, list(changes), [], list(warnings))


# =========================================================================== canonical -> V1
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


# =========================================================================== PSI/J -> V1
PSIJ_SPEC_KEYS = (
    "name",
    "executable",
    "arguments",
    "directory",
    "inherit_environment",
    "environment",
    "stdin_path",
    "stdout_path",
    "stderr_path",
    "resources",
    "attributes",
    "pre_launch",
    "post_launch",
    "launcher",
    "stage_in",
    "stage_out",
    "cleanup",
    "cleanup_flags",
)
PSIJ_RESOURCE_KEYS = (
    "node_count",
    "process_count",
    "processes_per_node",
    "cpu_cores_per_process",
    "gpu_cores_per_process",
    "exclusive_node_use",
    "memory",
    "__version",
)
PSIJ_ATTRIBUTE_KEYS = (
    "duration",
    "queue_name",
    "account",
    "project_name",
    "reservation_id",
    "custom_attributes",
)
_PSIJ_NOT_CARRIED = {
    "stage_in": "file staging has no jobspec V1 field",
    "stage_out": "file staging has no jobspec V1 field",
    "cleanup": "cleanup lists have no jobspec V1 field",
    "cleanup_flags": "cleanup flags have no jobspec V1 field",
}


def load_psij(text: str, language: str | None = None):
    """Read a PSI/J job description (JSON, or the same fields in YAML).
    Returns (data, document); data is None when the text does not parse."""
    if language is None:
        language = "json" if text.lstrip()[:1] == "{" else "yaml"
    doc = parse(text, language)
    return (to_python(doc.root) if doc.root is not None else None), doc


def from_psij_text(
    text: str, language: str | None = "json", environ=None, cwd: str | None = None
) -> Conversion:
    """:func:`from_psij` on JSON or YAML text; ranges point into ``text``."""
    data, doc = load_psij(text, language)
    if data is None:
        return Conversion(None, blockers=list(doc.problems))
    fatal = [p for p in doc.problems if p.severity == Severity.ERROR]
    if fatal:
        return Conversion(None, blockers=fatal)
    return from_psij(data, doc, environ, cwd)


class _Psij:
    """Positions of PSI/J fields in the source (when there is one)."""

    def __init__(self, doc: Document | None):
        self.doc = doc
        self.blockers: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        self.changes: list[Change] = []

    def where(self, *path) -> tuple[int, int]:
        """The key of the deepest field of ``path`` present (the document's first
        character when none is, or (0, 0) without a source)."""
        if self.doc is None or self.doc.root is None:
            return (0, 0)
        node = self.doc.root
        if isinstance(node, Mapping) and node.flow or not isinstance(node, Mapping):
            span = (node.start, min(node.start + 1, len(self.doc.text)))  # the opening brace
        else:
            span = head(node)  # the first key
        for p in path:
            if not (isinstance(node, Mapping) and node.key_node(p) is not None):
                break
            key = node.key_node(p)
            span, node = (key.start, key.end), node.get(p)
        return span

    def error(self, code, message, *path):
        self.blockers.append(Diagnostic(code, Severity.ERROR, message, *self.where(*path)))

    def lost(self, message, *path):
        self.warnings.append(
            Diagnostic(codes.PSIJ_LOST, Severity.WARNING, message, *self.where(*path))
        )

    def note(self, message, *path):
        self.changes.append(Change(message, *self.where(*path)))


# PSI/J launchers: how many processes each starts (None: as many as process_count)
PSIJ_LAUNCHERS = {"single": 1, "multiple": None, "mpirun": None, "srun": None, "aprun": None,
                  "jsrun": None}  # fmt: skip


def psij_wrapper(pre: str | None, post: str | None, single: bool = False) -> str:
    """The bash text each task runs to carry what PSI/J's launcher scripts do around the
    program (psij-python's launchers/scripts: bash, ``set -e`` but around the program):
    the pre-launch script sourced first (so what it exports reaches the program; a
    failing command in it fails the task), the program, then the post-launch script;
    the task exits with the program's status unless the post-launch script fails.
    ``single``: only task rank 0 runs anything (the single launcher's one process; the
    other tasks, there because Flux's job shell needs one on every node, end at once)."""
    parts = []
    if single:
        parts.append('[ "$FLUX_TASK_RANK" = 0 ] || exit 0')
    if pre:
        parts += ["set -e", f"source {shlex.quote(pre)}", "set +e"]
    parts.append('"$@"')
    if post:
        parts += ["rc=$?", "set -e", f"source {shlex.quote(post)}", "exit $rc"]
    return "; ".join(parts)


def from_psij(
    data: dict, doc: Document | None = None, environ=None, cwd: str | None = None
) -> Conversion:
    """A PSI/J ``JobSpec`` (psij-python's JSON serialization, or the same fields
    as plain data) -> a V1 jobspec built the way flux-core's tools build one.

    Resources follow PSI/J's ResourceSpecV1: process_count = node_count x
    processes_per_node, the missing one inferred, each defaulting to 1; numbers
    that disagree are an error naming them (JS712).  What V1 cannot carry is a
    warning (JS711), never dropped silently.  ``doc``: the parsed source, for
    ranges (see :func:`from_psij_text`).  ``environ``: the environment
    ``inherit_environment`` (true by default) copies into the jobspec, as `flux submit`
    copies the submitter's; None leaves it out with a warning.  ``cwd``: the directory
    the job is submitted from, which a relative ``directory`` is relative to (as PSI/J's
    executors take it); None makes a relative directory an error."""
    p = _Psij(doc)
    if not isinstance(data, dict):
        p.error(codes.PSIJ_FIELD, "a PSI/J job description is a mapping of JobSpec fields")
        return Conversion(None, blockers=p.blockers)
    for k in data:
        if k not in PSIJ_SPEC_KEYS:
            p.error(
                codes.PSIJ_FIELD,
                f"{k!r} is not a PSI/J JobSpec field (psij-python refuses "
                f"it too){_near(k, PSIJ_SPEC_KEYS)}",
                k,
            )
    exe = data.get("executable")
    if not isinstance(exe, str) or not exe:
        p.error(codes.PSIJ_FIELD, "the job needs an executable (a non-empty string)", "executable")
    args = _psij_strings(p, data.get("arguments"), "arguments")
    res = _psij_mapping(p, data.get("resources"), "resources")
    attrs = _psij_mapping(p, data.get("attributes"), "attributes")
    shape = _psij_resources(p, res)
    system: dict = {"duration": _psij_attributes(p, attrs)}

    directory = _psij_string(p, data, "directory")
    if directory is not None:
        if directory.startswith("/"):
            system["cwd"] = directory
        elif cwd is not None:
            system["cwd"] = os.path.normpath(os.path.join(cwd, directory))
            p.note(
                f"directory {directory!r} is relative to where the job is submitted from "
                f"(as PSI/J's executors take it): {system['cwd']} (Flux would take it from "
                "the directory its broker runs in)",
                "directory",
            )
        else:
            p.error(
                codes.PSIJ_FIELD,
                f"directory {directory!r} is relative; a Flux job's "
                "working directory is an absolute path",
                "directory",
            )
    env = data.get("environment")
    if env is not None:
        if not isinstance(env, dict) or not all(
            isinstance(k, str) and isinstance(v, (str, int)) and not isinstance(v, bool)
            for k, v in env.items()
        ):
            p.error(codes.PSIJ_FIELD, "environment must map names to string values", "environment")
        elif env:
            system["environment"] = {k: str(v) for k, v in env.items()}
    inherit = data.get("inherit_environment", True)
    if not isinstance(inherit, bool):
        p.error(
            codes.PSIJ_FIELD, "inherit_environment must be true or false", "inherit_environment"
        )
    elif inherit and environ is not None:
        own = system.get("environment", {})
        system["environment"] = {**{k: str(v) for k, v in environ.items()}, **own}
        p.note(
            f"inherit_environment is true (PSI/J's default): the {len(environ)} variables of "
            "the converting environment are copied into the jobspec, as flux submit copies "
            "the submitter's (set it to false for only the JobSpec's environment)",
            "inherit_environment" if "inherit_environment" in data else "executable",
        )
    elif inherit:
        p.lost(
            "inherit_environment is true (PSI/J's default), but Flux starts tasks with "
            "exactly the jobspec's environment and nothing inherited; list every variable "
            "the job needs under environment (flux submit copies the submitting "
            "environment there)",
            "inherit_environment",
        )
    name = _psij_string(p, data, "name")
    if name is not None:
        system["job"] = {"name": name}
    io_opts: dict = {}
    for key, (group, stream) in (
        ("stdin_path", ("input", "stdin")),
        ("stdout_path", ("output", "stdout")),
        ("stderr_path", ("output", "stderr")),
    ):
        path = _psij_string(p, data, key)
        if path is not None:
            io_opts.setdefault(group, {})[stream] = {"type": "file", "path": path}
            if "{{" in path:
                p.lost(
                    f"{key} {path!r} holds '{{{{': Flux expands {{{{...}}}} in output and "
                    "input paths as a template, so the file will have another name",
                    key,
                )
    if "input" not in io_opts:  # PSI/J reads an unset stdin from /dev/null
        io_opts["input"] = {"stdin": {"type": "file", "path": "/dev/null"}}
        p.note(
            "stdin_path not given: PSI/J gives the program /dev/null, so the tasks read "
            "/dev/null (Flux would hold their input open, and a program reading it would wait)",
            "executable",
        )
    out = io_opts.get("output", {})
    for have, other in (("stdout", "stderr"), ("stderr", "stdout")):
        if have in out and other not in out:  # PSI/J discards an unset stream
            out[other] = {"type": "file", "path": "/dev/null"}
            p.note(
                f"{other}_path not given: PSI/J discards it, so it goes to /dev/null "
                f"(Flux would put it in the {have} file)",
                f"{have}_path",
            )
    if directory is not None and "{{" in directory:
        p.lost("directory holds '{{', which Flux may read as a template", "directory")
    system["shell"] = {"options": {k: io_opts[k] for k in ("input", "output") if k in io_opts}}
    pre = _psij_string(p, data, "pre_launch")
    post = _psij_string(p, data, "post_launch")
    launcher = _psij_string(p, data, "launcher")
    single = False
    if launcher is not None:
        if launcher not in PSIJ_LAUNCHERS:
            p.error(
                codes.PSIJ_FIELD,
                f"launcher {launcher!r} is not a PSI/J launcher{_near(launcher, PSIJ_LAUNCHERS)}",
                "launcher",
            )
        elif PSIJ_LAUNCHERS[launcher] == 1:
            single = True
        elif launcher != "multiple":
            p.note(
                f"launcher {launcher!r}: Flux's job shell starts the processes itself "
                "(an MPI program finds its peers through Flux's PMI)",
                "launcher",
            )
    for key, why in _PSIJ_NOT_CARRIED.items():
        if data.get(key) not in (None, [], {}, ""):
            p.lost(f"{key} is not carried: {why}", key)
    if isinstance(attrs, dict):
        queue = _psij_string(p, attrs, "queue_name", "attributes")
        if queue is not None:
            system["queue"] = queue
        account = _psij_string(p, attrs, "account", "attributes")
        project = _psij_string(p, attrs, "project_name", "attributes")
        if account is not None and project is not None and account != project:
            p.error(
                codes.PSIJ_FIELD,
                f"account {account!r} and the deprecated project_name {project!r} disagree",
                "attributes",
                "project_name",
            )
        elif account is not None or project is not None:
            system["bank"] = account if account is not None else project
            if account is None:
                p.note(
                    "project_name (PSI/J's deprecated name for account) becomes the bank",
                    "attributes",
                    "project_name",
                )
    if p.blockers or shape is None:
        return Conversion(
            None,
            [],
            sorted(p.blockers, key=Diagnostic.sort_key),
            sorted(p.warnings, key=Diagnostic.sort_key),
        )
    nodes, tasks, cores, gpus, exclusive = shape
    one_slot = single and tasks == 1  # the one process is the one task: {total: 1} says so
    single = single and not one_slot
    command = [exe, *args]
    if pre or post or single:
        command = ["/bin/bash", "-c", psij_wrapper(pre, post, single), "psij-launch", *command]
    if pre or post:
        p.note(
            "pre_launch/post_launch: sourced by bash around the program, as PSI/J's launcher "
            "does (exports of the pre-launch script reach the program); PSI/J runs them "
            "once per job, so with several processes they run once per process",
            "pre_launch" if pre else "post_launch",
        )
    if single:  # PSI/J's single launcher: one process, on the job's resources
        p.note(
            f"launcher 'single': one process (task rank 0), with the {tasks} slots reserved; "
            "the other slots' tasks end at once (Flux's job shell needs a task on every node)",
            "launcher",
        )
    js = build.build_v1(
        command, nodes=nodes, tasks=tasks, cores=cores, gpus=gpus, exclusive=exclusive
    )
    if one_slot:
        js["tasks"][0]["count"] = {"total": 1}
    js["attributes"]["system"].update(system)
    text = dump(js)
    return _verified(
        text, "yaml", "v1", p.changes, sorted(p.warnings, key=Diagnostic.sort_key), where=p.where()
    )


def _near(word: str, candidates) -> str:
    import difflib

    close = difflib.get_close_matches(word, candidates, n=1, cutoff=0.7)
    return f"; did you mean {close[0]!r}?" if close else ""


def _psij_string(p: _Psij, data: dict, key: str, *parent):
    v = data.get(key)
    if v is None:
        return None
    if not isinstance(v, str):
        p.error(codes.PSIJ_FIELD, f"{key} must be a string, not {type(v).__name__}", *parent, key)
        return None
    return v


def _psij_strings(p: _Psij, v, key: str) -> list[str]:
    if v is None:
        return []
    if not isinstance(v, list) or not all(
        isinstance(a, (str, int)) and not isinstance(a, bool) for a in v
    ):
        p.error(codes.PSIJ_FIELD, f"{key} must be a list of strings", key)
        return []
    return [str(a) for a in v]


def _psij_mapping(p: _Psij, v, key: str):
    if v is None:
        return {}
    if not isinstance(v, dict):
        p.error(codes.PSIJ_FIELD, f"{key} must be a mapping", key)
        return None
    return v


def _psij_resources(p: _Psij, res):
    """ResourceSpecV1 -> (nodes or None, tasks, cores, gpus, exclusive), or None."""
    if res is None:
        return None
    ok = True
    for k in res:
        if k not in PSIJ_RESOURCE_KEYS:
            p.error(
                codes.PSIJ_FIELD,
                f"{k!r} is not a ResourceSpecV1 field{_near(k, PSIJ_RESOURCE_KEYS)}",
                "resources",
                k,
            )
            ok = False
    version = res.get("__version", 1)
    if version != 1:
        p.error(
            codes.PSIJ_FIELD,
            f"ResourceSpec version {version!r} is not supported (only 1)",
            "resources",
            "__version",
        )
        ok = False
    counts: dict[str, int] = {}
    for k in (
        "node_count",
        "process_count",
        "processes_per_node",
        "cpu_cores_per_process",
        "gpu_cores_per_process",
    ):
        v = res.get(k)
        if v is None:
            continue
        least = 0 if k == "gpu_cores_per_process" else 1
        if type(v) is not int or v < least:
            p.error(
                codes.PSIJ_FIELD,
                f"{k} must be an integer of at least {least}, not {v!r}",
                "resources",
                k,
            )
            ok = False
        else:
            counts[k] = v
    exclusive = res.get("exclusive_node_use", False)
    if not isinstance(exclusive, bool):
        p.error(
            codes.PSIJ_FIELD,
            "exclusive_node_use must be true or false",
            "resources",
            "exclusive_node_use",
        )
        ok = False
    memory = res.get("memory")
    if memory is not None:
        p.lost(
            f"memory ({memory} bytes) is not carried: V1 jobspec cannot request memory "
            "(canonical jobspec can, as a memory vertex)",
            "resources",
            "memory",
        )
    if not ok:
        return None
    n, pc, ppn = (
        counts.get("node_count"),
        counts.get("process_count"),
        counts.get("processes_per_node"),
    )
    where = ("resources", "process_count") if pc is not None else ("resources",)
    if n is not None and pc is not None and ppn is not None:
        if n * ppn != pc:
            p.error(
                codes.PSIJ_COUNTS,
                f"process_count {pc} is not node_count {n} x "
                f"processes_per_node {ppn} (= {n * ppn})",
                *where,
            )
            return None
    elif pc is not None and ppn is not None:
        if pc % ppn:
            p.error(
                codes.PSIJ_COUNTS,
                f"process_count {pc} is not a multiple of "
                f"processes_per_node {ppn}, so no node count fits",
                *where,
            )
            return None
        n = pc // ppn
        p.note(
            f"node_count {n} inferred: process_count {pc} / processes_per_node {ppn}",
            "resources",
            "processes_per_node",
        )
    elif pc is not None and n is not None:
        if pc % n:
            p.error(
                codes.PSIJ_COUNTS,
                f"process_count {pc} is not a multiple of node_count "
                f"{n}, so the processes cannot be spread evenly",
                *where,
            )
            return None
        ppn = pc // n
    elif n is not None:
        pc = n * (ppn or 1)
    elif ppn is not None:
        n, pc = 1, ppn
        p.note(
            "node_count 1 assumed: processes_per_node is given without a node count",
            "resources",
            "processes_per_node",
        )
    else:
        pc = pc or 1  # process_count alone (or nothing): the scheduler picks the nodes
    cores = counts.get("cpu_cores_per_process")
    if cores is None:
        cores = 1
        p.note("cpu_cores_per_process not given: 1 core per process", "resources")
    gpus = counts.get("gpu_cores_per_process", 0)
    if exclusive and n is None and pc == 1:
        n = 1
        p.note(
            "exclusive_node_use with one process: node_count 1 (a process runs on one "
            "node), so the node can be marked exclusive",
            "resources",
            "exclusive_node_use",
        )
    elif exclusive and n is None:
        p.lost(
            "exclusive_node_use is not carried: jobspec V1 marks nodes exclusive on a node "
            "vertex, and without node_count or processes_per_node there is none, so the job "
            "gets only its processes' cores, beside other jobs; give node_count to have "
            "whole nodes",
            "resources",
            "exclusive_node_use",
        )
        exclusive = False
    return n, pc, cores, gpus, exclusive


# N may be any number Python writes for a float (psij-python writes the seconds of a
# timedelta with str(): "3600.0", "1e-05")
_PSIJ_SECONDS = re.compile(
    r"\s*((?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)\s*([smh])\s*\Z"
)
_PSIJ_CLOCK = re.compile(r"\s*([0-9]+):([0-9]+)(?::([0-9]+))?\s*\Z")


def psij_duration(raw) -> float | int | None:
    """Seconds from a PSI/J duration: "N s" (psij-python writes "3600.0 s", "2e-05 s"), "N m",
    "N h", "hh:mm:ss", "hh:mm", or a bare integer string (minutes, as
    psij-python reads it).  None when it is none of these."""
    if not isinstance(raw, str):
        return None
    m = _PSIJ_SECONDS.match(raw)
    if m:
        seconds = float(m.group(1)) * {"s": 1, "m": 60, "h": 3600}[m.group(2)]
    elif clock := _PSIJ_CLOCK.match(raw):
        h, mi, s = clock.groups()
        seconds = int(h) * 3600 + int(mi) * 60 + int(s or 0)
    elif raw.strip().isdigit():
        seconds = int(raw) * 60
    else:
        return None
    if not math.isfinite(seconds):
        return None
    return int(seconds) if float(seconds).is_integer() else seconds


def _psij_attributes(p: _Psij, attrs) -> float | int:
    if not isinstance(attrs, dict):
        return PSIJ_DEFAULT_DURATION
    for k in attrs:
        if k not in PSIJ_ATTRIBUTE_KEYS:
            p.error(
                codes.PSIJ_FIELD,
                f"{k!r} is not a JobAttributes field{_near(k, PSIJ_ATTRIBUTE_KEYS)}",
                "attributes",
                k,
            )
    for k in ("reservation_id", "custom_attributes"):
        if attrs.get(k) not in (None, {}, ""):
            why = (
                "Flux jobspec has no reservation field"
                if k == "reservation_id"
                else "they are meant for a particular PSI/J executor"
            )
            p.lost(f"{k} is not carried: {why}", "attributes", k)
    raw = attrs.get("duration")
    if raw is None:
        p.note(
            f"no duration: PSI/J's default of 10 minutes ({PSIJ_DEFAULT_DURATION} s)", "attributes"
        )
        return PSIJ_DEFAULT_DURATION
    seconds = psij_duration(raw)
    if seconds is None:
        shown = json.dumps(raw) if isinstance(raw, str) else repr(raw)
        p.error(
            codes.PSIJ_FIELD,
            f"duration {shown} is not a PSI/J duration; write "
            '"3600 s", "1:00:00" or "60" (minutes)',
            "attributes",
            "duration",
        )
        return PSIJ_DEFAULT_DURATION
    return seconds


# =========================================================================== V1 -> PSI/J
def to_psij(text: str, language: str = "yaml") -> Conversion:
    """A V1 jobspec -> a PSI/J JobSpec (psij-python's JSON serialization).

    Blocked (JS714) where PSI/J's ResourceSpecV1 asks for a different
    allocation; what a JobSpec has no field for is a warning (JS715)."""
    doc = parse(text, language)  # (offsets after a byte order mark, as `jobspec check`'s)
    errors = _errors(doc, language, "v1")
    if errors:
        return _refuse(errors)
    root = cast(Mapping, doc.root)  # a V1 jobspec: checked above
    js = to_python(root)
    blockers: list[Diagnostic] = []
    warnings: list[Diagnostic] = []

    def dropped(where, message):
        warnings.append(_diag(codes.PSIJ_DROPPED, where, message, Severity.WARNING))

    top_node = root.get("resources").items[0]
    top = js["resources"][0]
    node, slot_node = (top, top["with"][0]) if top["type"] == "node" else (None, top)
    slot_vertex = top_node.get("with").items[0] if node else top_node
    per = {c["type"]: c["count"] for c in slot_node["with"]}
    for vnode in dict.fromkeys([top_node, slot_vertex, *slot_vertex.get("with").items]):
        if "unit" in vnode:
            dropped(vnode.key_node("unit"), "a unit on a V1 vertex has no PSI/J form")
    task_node = root.get("tasks").items[0]
    count_node = task_node.get("count")
    task = js["tasks"][0]
    slots = slot_node["count"]
    nodes = node["count"] if node else None
    total_slots = slots * (nodes or 1)
    count = task["count"]
    if "per_slot" in count and count["per_slot"] != 1:
        blockers.append(
            _diag(
                codes.PSIJ_BLOCKED,
                count_node.key_node("per_slot"),
                f"{count['per_slot']} tasks share each slot; PSI/J gives every "
                "process its own cores (cpu_cores_per_process)",
            )
        )
    single = "total" in count and count["total"] == 1 and total_slots > 1
    if "total" in count and count["total"] != total_slots and not single:
        where = "the scheduler" if nodes is None else f"{nodes} nodes"
        blockers.append(
            _diag(
                codes.PSIJ_BLOCKED,
                count_node.key_node("total"),
                f"{count['total']} tasks in {total_slots} slots over {where}; "
                "PSI/J needs one process per slot (process_count = node_count x "
                "processes_per_node)",
            )
        )
    if blockers:
        return Conversion(None, [], blockers, [])
    resources: dict = {}
    if nodes is not None:
        resources["node_count"] = nodes
        resources["processes_per_node"] = slots
    else:
        resources["process_count"] = slots
    resources["cpu_cores_per_process"] = per["core"]
    if per.get("gpu"):
        resources["gpu_cores_per_process"] = per["gpu"]
    resources["exclusive_node_use"] = bool(node and node.get("exclusive"))
    resources["__version"] = 1
    out: dict = {}
    system = js["attributes"]["system"]
    sys_node = root.get("attributes").get("system")
    job = system.get("job") or {}
    if isinstance(job, dict) and isinstance(job.get("name"), str):
        out["name"] = job["name"]
    command = list(task["command"])
    launch = _psij_unwrap(command)
    if launch is not None:  # the launcher wrapper of from_psij (pre/post-launch, single)
        pre, post, gated, command = launch
        single = single or (gated and total_slots > 1)
        if pre:
            out["pre_launch"] = pre
        if post:
            out["post_launch"] = post
    out["executable"] = command[0]
    if command[1:]:
        out["arguments"] = command[1:]
    if single:
        out["launcher"] = "single"  # one process on all the slots
    if isinstance(system.get("cwd"), str):
        out["directory"] = system["cwd"]
    out["inherit_environment"] = False  # a jobspec's environment is the whole environment
    if system.get("environment"):
        out["environment"] = system["environment"]
    attrs: dict = {}
    duration = system.get("duration")
    if duration:
        # whole seconds as "N s": psij-python 0.9.11 reads its own "600.0 s" as 0 seconds
        whole = float(duration).is_integer()
        attrs["duration"] = f"{int(duration)} s" if whole else f"{float(duration)} s"
    else:
        dropped(
            sys_node.get("duration"),
            "duration 0 (no limit) has no PSI/J form: without a duration PSI/J applies "
            "its 10-minute default; set one in the PSI/J job",
        )
    if isinstance(system.get("queue"), str):
        attrs["queue_name"] = system["queue"]
    if isinstance(system.get("bank"), str):
        attrs["account"] = system["bank"]
    opts = (
        ((system.get("shell") or {}).get("options") or {})
        if isinstance(system.get("shell"), dict)
        else {}
    )
    for (group, stream), key in (
        (("input", "stdin"), "stdin_path"),
        (("output", "stdout"), "stdout_path"),
        (("output", "stderr"), "stderr_path"),
    ):
        v = (opts.get(group) or {}).get(stream) if isinstance(opts.get(group), dict) else None
        if isinstance(v, dict) and v.get("type") == "file" and isinstance(v.get("path"), str):
            if v["path"] == "/dev/null":
                continue  # PSI/J reads an unset stdin from /dev/null, discards unset output
            out[key] = v["path"]
    out["resources"] = resources
    if attrs:
        out["attributes"] = attrs
    _psij_leftovers(root, sys_node, dropped)
    result = json.dumps(out, indent=2, ensure_ascii=False) + "\n"
    return Conversion(result, [], [], sorted(warnings, key=Diagnostic.sort_key))


def _psij_unwrap(command: list) -> tuple[str | None, str | None, bool, list] | None:
    """(pre_launch, post_launch, single, the program's command) when ``command`` is the
    wrapper :func:`psij_wrapper` writes, else None."""
    if len(command) < 5 or command[:2] != ["/bin/bash", "-c"] or command[3] != "psij-launch":
        return None
    m = re.fullmatch(
        r'(\[ "\$FLUX_TASK_RANK" = 0 \] \|\| exit 0; )?'
        r"(?:set -e; source (.+?); set \+e; )?"
        r'"\$@"'
        r"(?:; rc=\$\?; set -e; source (.+); exit \$rc)?",
        command[2],
    )
    if m is None:
        return None
    try:
        pre = shlex.split(m.group(2))[0] if m.group(2) else None
        post = shlex.split(m.group(3))[0] if m.group(3) else None
    except (ValueError, IndexError):
        return None
    single = m.group(1) is not None
    if psij_wrapper(pre, post, single) != command[2]:
        return None
    return pre, post, single, command[4:]


def _psij_leftovers(root: Mapping, sys_node: Mapping, dropped) -> None:
    """Warn about each part of the jobspec a PSI/J JobSpec has no field for."""
    attrs = root.get("attributes")
    for key, _ in attrs.pairs:
        if key.value == "user":
            dropped(key, "user attributes have no PSI/J field")
    carried = {"duration", "cwd", "environment", "queue", "bank", "job", "shell"}
    for key, value in sys_node.pairs:
        k = key.value
        if k not in carried:
            dropped(key, f"attributes.system.{k} has no PSI/J field")
        elif k == "job" and isinstance(value, Mapping):
            for jk, _ in value.pairs:
                if jk.value != "name":
                    dropped(jk, f"job.{jk.value} has no PSI/J field")
        elif k == "shell" and isinstance(value, Mapping):
            _shell_leftovers(value, dropped)


def _shell_leftovers(shell: Mapping, dropped) -> None:
    for key, value in shell.pairs:
        if key.value != "options" or not isinstance(value, Mapping):
            dropped(key, f"shell.{key.value} has no PSI/J field")
            continue
        for okey, ovalue in value.pairs:
            if okey.value not in ("input", "output") or not isinstance(ovalue, Mapping):
                dropped(okey, f"the shell option {okey.value} has no PSI/J field")
                continue
            streams = ("stdin",) if okey.value == "input" else ("stdout", "stderr")
            for skey, svalue in ovalue.pairs:
                if skey.value not in streams or not isinstance(svalue, Mapping):
                    dropped(skey, f"the shell option {okey.value}.{skey.value} has no PSI/J field")
                    continue
                for fkey, fvalue in svalue.pairs:
                    if fkey.value == "type" and fvalue.value != "file":
                        dropped(
                            fkey,
                            f"{okey.value}.{skey.value} of type {fvalue.value!r} is "
                            "not a file; PSI/J only has file paths",
                        )
                    elif fkey.value not in ("type", "path"):
                        dropped(
                            fkey,
                            f"the shell option {okey.value}.{skey.value}."
                            f"{fkey.value} has no PSI/J field",
                        )


# =========================================================================== command line
def from_command_line(argv: list[str]) -> Conversion:
    """``jobspec new`` options -> the jobspec ``flux submit`` would build.

    The options are `flux submit`'s, from Flux's own parser, read as Flux reads them
    (:mod:`.fluxcli.submit`). Raises :class:`UsageError` for options that make no
    jobspec; the result is checked with the rules of its version before it is returned."""
    from jobspec_lsp.fluxcli import submit

    try:
        ns, notes = submit.read(list(argv))
    except submit.NewUsageError as err:
        raise UsageError(str(err)) from None
    if ns.format not in ("yaml", "json"):
        raise UsageError(f"--format {ns.format!r}: yaml or json")
    conv = from_options(ns)
    conv.changes.extend(Change(n, 0, 0) for n in notes)
    return conv


def from_options(a: argparse.Namespace) -> Conversion:
    """:func:`from_command_line` for options already read (:func:`.fluxcli.submit.read`):
    the jobspec :mod:`.fluxcli.build` builds, written and checked as flux-core's ingest
    will check it."""
    try:
        js, notes = build.submit_jobspec(a)
    except build.Refused as err:
        raise UsageError(str(err)) from None
    changes = [Change(n, 0, 0) for n in notes]
    text = dump(js, a.format)
    # what flux submit writes, so checked as flux-core's ingest will check it: an RFC
    # rule it does not enforce (a shape's slot label, say) is a note, not a refusal
    conv = _verified(text, a.format, "v1", changes, target="flux-core")
    if conv.ok:
        for d in analysis.check(text, language=a.format, version_rules="v1", target="flux-core"):
            if d.severity == Severity.WARNING:
                conv.changes.append(Change(f"{d.message} [{d.code}]", 0, 0))
    return conv
