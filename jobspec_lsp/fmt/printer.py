"""Printing the syntax tree in the house style (docs/formatting.md).

Keys of the mappings the RFCs define go in their canonical order (``ORDER``), others
keep the order written; block collections are indented by two, flow collections that
fit the line stay on one line; scalars are copied from the source, never re-spelt (a
flow scalar written over several lines keeps its lines, re-indented; a block scalar
keeps its header and its content, shifted with its key); every comment goes where
:mod:`jobspec_lsp.fmt.comments` placed it.
"""

from __future__ import annotations

from bisect import bisect_left

from jobspec_lsp.fmt.comments import Comments
from jobspec_lsp.fmt.tree import BLOCK_HEADER, HASH, Entry, Node, Tree, Unformattable
from jobspec_lsp.jobspec import vocabulary
from jobspec_lsp.jobspec.context import kind_of

# canonical key order of the mappings the RFCs define; others keep the order written
ORDER = {
    kind: vocabulary.keys(kind)
    for kind in (
        "root",
        "vertex",
        "task",
        "count",
        "task.count",
        "task.count.per_resource",
        "attributes",
        "dependency",
    )
}

_RANK = {kind: {k: i for i, k in enumerate(keys)} for kind, keys in ORDER.items()}


def _joined(s: str, style: str | None) -> str | None:
    """A flow scalar written over several lines, on one line with the same value;
    None when that cannot be done safely (a blank line in it, which stands for a
    line break, or a double-quoted escape that could meet the line end)."""
    parts = s.split("\n")
    if any(not p.strip(" \t") for p in parts[1:-1]) or (style == '"' and "\\" in s):
        return None
    if style is None and any(p.lstrip(" \t").startswith("#") for p in parts[1:]):
        return None
    out = [parts[0].rstrip(" \t")] + [p.strip(" \t") for p in parts[1:-1]]
    out.append(parts[-1].lstrip(" \t"))
    if not out[-1]:  # a quoted scalar whose closing quote started the last line
        return None
    return " ".join(out)


class _Line:
    __slots__ = ("text", "notes", "before", "protected", "keep_end", "no_note")

    def __init__(self, text: str, protected: bool = False):
        self.text = text
        self.notes: list[str] = []  # comments at its end
        self.before: list[str] = []  # comment lines above it
        self.protected = protected
        self.keep_end = False
        # inside a scalar, or a block scalar header that has its comment: a comment
        # cannot follow it, so one meant for it goes above it instead
        self.no_note = False


class Printer:
    def __init__(self, tree: Tree, comments: Comments, width: int, sort_keys: bool):
        self.tree = tree
        self.text = tree.text
        self.comments = comments
        self.width = width
        self.sort_keys = sort_keys
        self.out: list[_Line | None] = []  # None: a blank line
        self.comment_ranges = sorted(comments.positions)

    # ------------------------------------------------------------ output
    def line(self, text: str, protected: bool = False) -> _Line:
        ln = _Line(text, protected)
        self.out.append(ln)
        return ln

    def notes(self, end: int, at: _Line | None = None) -> None:
        """The comments that followed the token ending at ``end`` go at the end of
        the line ``at`` (or of the last line written that can take one), or above
        it when it cannot take one."""
        got = self.comments.eol.pop(end, None)
        if not got:
            return
        if at is None:
            for ln in reversed(self.out):
                if ln is not None and not ln.no_note:
                    at = ln
                    break
        if at is None:
            raise Unformattable("a comment with nowhere to go")
        if at.no_note:
            at.before.extend(got)
        else:
            at.notes.extend(got)

    def comment_lines(self, lines, indent: int) -> None:
        for s in lines:
            if s is None:
                self.out.append(None)
            else:
                self.line(" " * indent + s)

    def render(self) -> str:
        tree = self.tree
        text = self.text
        if tree.doc_start is not None:
            pre = text[: tree.doc_start[0]]
            for raw in pre.split("\n")[:-1]:
                self.line(raw.rstrip()) if raw.strip() else self.out.append(None)
            self.line("---")
            self.notes(tree.doc_start[1])
        self.comment_lines(self.comments.header, 0)
        if self.comments.header:
            self.out.append(None)
        root = tree.root
        if root is None or root.kind in ("scalar", "alias"):
            raise Unformattable("a document that is a single value")
        flat = self.flat(root, ()) if root.flow else None
        if flat is not None and len(flat) <= self.width:
            self.line(flat)
            self.notes(root.end)
        else:
            self.block(root, 0, None)
        self.comment_lines(self.comments.trailer, 0)
        if self.comments.eol:
            raise Unformattable("a comment with nothing to follow")
        return self.assemble()

    def assemble(self) -> str:
        result: list[str] = []
        prev: _Line | None = None
        blank = False
        for ln in self.out:
            if ln is None:
                blank = True
                continue
            if blank and result and not (prev is not None and prev.keep_end):
                result.append("")
            blank = False
            s = ln.text if ln.protected else ln.text.rstrip()
            if ln.before:
                ind = " " * (len(ln.text) - len(ln.text.lstrip(" ")))
                result.extend(ind + n for n in ln.before)
            if ln.notes:
                # one comment ends the line; more (a line that joins two source
                # lines' tokens) go above it, at its indentation
                ind = " " * (len(ln.text) - len(ln.text.lstrip(" ")))
                result.extend(ind + n for n in ln.notes[1:])
                s = (s + "  " if s.strip() else s) + ln.notes[0]
            result.append(s)
            prev = ln
        return "\n".join(result) + "\n"

    # ------------------------------------------------------------ nodes
    def ordered(self, node: Node, path: tuple) -> list[Entry]:
        entries = node.entries
        if node.kind != "map" or not self.sort_keys or (self.tree.aliases and node.refs):
            return entries
        order = _RANK.get(kind_of(path) or "")
        if not order:
            return entries
        n = len(order)
        return sorted(
            entries,
            key=lambda e: order.get(e.key.value, n) if e.key and e.key.kind == "scalar" else n,
        )

    def props(self, node: Node) -> str:
        return node.props

    def source(self, v: Node) -> str:
        """A scalar or alias as written, its properties one space before it."""
        s = self.text[v.body : v.end]
        return v.props + " " + s if v.props else s

    def block(self, node: Node, indent: int, first: str | None, path: tuple = ()) -> None:
        """Print a collection as block lines at ``indent``; ``first`` is the prefix of
        its first line when it starts on a line already begun (after ``- ``)."""
        for i, e in enumerate(self.ordered(node, path)):
            if node.kind == "map":
                sub = path + (e.key.value if e.key is not None else "",)
            else:
                sub = path + (i,)
            leading = e.leading
            if i == 0:  # a blank line never opens a block
                while leading and leading[0] is None:
                    leading = leading[1:]
            if i == 0 and first is not None:
                prefix = first
                self.comment_lines(leading, len(first) - len(first.lstrip(" ")))
            else:
                prefix = " " * indent
                self.comment_lines(leading, indent)
            if node.kind == "map":
                self.pair(e, prefix, indent, sub)
            else:
                self.item(e, prefix, indent, sub)
            self.comment_lines(e.closing, indent)
        if node.flow:
            self.notes(node.end)
            self.notes(node.body + 1)

    def key_text(self, key: Node) -> str:
        s = self.source(key)
        if "\n" in s:
            raise Unformattable("a key written over several lines", key.start, key.end)
        return s + " " if key.kind == "alias" else s  # `*a :`, never `*a:`

    def pair(self, e: Entry, prefix: str, indent: int, path: tuple) -> None:
        key = e.key
        assert key is not None
        head = prefix + self.key_text(key) + ":"
        self.value(e.value, head, indent, e, path, key.end, len(prefix))

    def item(self, e: Entry, prefix: str, indent: int, path: tuple) -> None:
        head = prefix + "-"
        v = e.value
        assert v is not None
        if v.kind in ("map", "seq") and not v.props and not self.inline_flow(v, head, path):
            # `- key: value` / `- - item`: the collection starts on the dash's line
            mark = len(self.out)
            self.block(v, indent + 2, head + " ", path)
            first_line = next(
                (
                    ln
                    for ln in self.out[mark:]
                    if ln is not None and ln.text.lstrip().startswith("-")
                ),
                None,
            )
            self.notes(e.start + 1, first_line)
            return
        self.value(v, head, indent, e, path, e.start + 1, len(prefix))

    def inline_flow(self, v: Node, head: str, path: tuple) -> bool:
        if not v.flow:
            return False
        flat = self.flat(v, path)
        if flat is None:
            return False
        return not v.entries or len(head) + 1 + len(flat) <= self.width

    def value(self, v, head: str, indent: int, e: Entry, path: tuple, after: int, col: int):
        """Print the value ``v`` of the entry ``e`` whose line starts with ``head``
        (its key or dash, now at column ``col``)."""
        if v is None or (v.kind == "scalar" and v.end == v.start):
            self.line(head)
            self.notes(after)
            return
        if v.kind in ("scalar", "alias"):
            if v.style in ("|", ">"):
                self.block_scalar(v, head, col, col - e.col)
            else:
                self.flow_scalar(v, head, indent)
            self.notes(after)
            self.notes(v.end)
            return
        props = self.props(v)
        if v.flow and not v.entries:  # `[]`, `{}`: no block form; comments go below
            self.line(
                head + " " + (props + " " if props else "") + ("{}" if v.kind == "map" else "[]")
            )
            self.notes(after)
            self.notes(v.body + 1)
            self.notes(v.end)
            return
        if v.flow:
            flat = self.flat(v, path)
            if flat is not None and (not v.entries or len(head) + 1 + len(flat) <= self.width):
                self.line(head + " " + flat)
                self.notes(after)
                self.notes(v.end)
                return
        self.line(head + (" " + props if props else ""))
        self.notes(after)
        if v.props:
            self.notes(v.props_end)
        if v.flow:
            self.notes(v.body + 1)
        self.block(v, indent + 2, None, path)

    def flow_scalar(self, v: Node, head: str, indent: int) -> None:
        s = self.source(v)
        if "\n" not in s:
            self.line(head + " " + s)
            return
        joined = _joined(s, v.style)
        if joined is not None:
            self.line(head + " " + joined)
            return
        parts = s.split("\n")
        lines = [self.line(head + " " + parts[0], protected=True)]
        pad = " " * (indent + 2)
        for p in parts[1:]:
            p = p.lstrip(" \t")
            lines.append(self.line(pad + p if p else "", protected=True))
        for ln in lines[:-1]:
            ln.no_note = True  # a comment there would be inside the scalar

    def block_scalar(self, v: Node, head: str, col: int, delta: int) -> None:
        """The header as written; the content two columns past its key or dash (now
        at ``col``), or, with an explicit indentation indicator, moved as far as the
        key moved (``delta``), so its indentation means what it meant."""
        text = self.text
        nl = text.find("\n", v.body, v.end)
        if nl == -1:  # an empty block scalar at the end of the text
            self.line(head + " " + self.source(v).rstrip("\n"), protected=True)
            return
        header = (v.props + " " if v.props else "") + text[v.body : nl]
        m = BLOCK_HEADER.search(text, v.body, nl)
        indicators = m.group(1) if m else ""
        keep = "+" in indicators
        stop = self.tree.content_end.get(v.start, v.end)
        if (
            m
            and not indicators.strip("123456789")
            and stop >= len(text)
            and not text.endswith("\n")
        ):
            # the text ends inside the scalar without a line break, so clipping keeps none;
            # the formatted text ends with one, which "-" keeps out of the value
            header = (
                (v.props + " " if v.props else "")
                + text[v.body : m.end()]
                + "-"
                + text[m.end() : nl]
            )
        head_line = self.line(head + " " + header.rstrip())
        hm = HASH.search(text, v.body, nl)
        head_line.no_note = hm is not None  # the header has its own comment
        content = text[nl + 1 : stop].split("\n")
        if content and content[-1] == "" and text[stop - 1 : stop] == "\n":
            content.pop()
        ci = int(v.value or 0)
        if not any(ch.isdigit() for ch in indicators):
            delta = col + 2 - ci  # auto-detected: two past the key
        last = None
        for c in content:
            k = len(c) - len(c.lstrip(" "))
            if not c.strip(" ") and k <= ci:
                last = self.line("", True)  # an empty line of the scalar
            else:
                last = self.line(" " * (k + delta) + c[k:], True)
            last.no_note = True
        if keep and last is not None:
            last.keep_end = True

    def flat(self, v: Node, path: tuple = ()) -> str | None:
        """A flow collection on one line, or None (a comment or a line break inside)."""
        if self.has_comment(v.start, v.end):
            return None
        return self._flat(v, path)

    def _flat(self, v: Node, path: tuple) -> str | None:
        if v.kind in ("scalar", "alias"):
            if v.style in ("|", ">"):
                return None
            s = self.source(v)
            return None if "\n" in s else s
        parts = []
        for i, e in enumerate(self.ordered(v, path)):
            if v.kind == "map":
                assert e.key is not None
                k = self._flat(e.key, path)
                if k is None:
                    return None
                if e.value is None or (e.value.kind == "scalar" and e.value.end == e.value.start):
                    parts.append(k)
                    continue
                val = self._flat(e.value, path + (e.key.value,))
                if val is None:
                    return None
                parts.append(k + ": " + val)
            else:
                assert e.value is not None
                val = self._flat(e.value, path + (i,))
                if val is None:
                    return None
                parts.append(val)
        props = self.props(v)
        inner = ", ".join(parts)
        body = "{" + inner + "}" if v.kind == "map" else "[" + inner + "]"
        return props + " " + body if props else body

    def has_comment(self, start: int, end: int) -> bool:
        r = self.comment_ranges
        i = bisect_left(r, start)
        return i < len(r) and r[i] < end
