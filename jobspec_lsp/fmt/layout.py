"""The YAML layout of `jobspec fmt`: a printer over libyaml's events.

The text is read once into a syntax tree (every node with its source span,
properties and flow/block style; nothing resolved, so aliases, merge keys and
duplicate keys stay what they are), every comment and blank line is given to
the entry it belongs to, and the tree is printed in the project's style.
Scalars are never re-spelt: each is copied from the source (a flow scalar
written over several lines keeps its lines, re-indented; a block scalar keeps
its header and its content, shifted with its key).

This module only lays out.  :func:`jobspec_lsp.fmt.format.format_text` checks every
result (the data Flux reads and every comment) and falls back to a more
conservative layout when a check fails; see docs/formatting.md for the style.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

import yaml
from yaml import events

from jobspec_lsp.jobspec import vocabulary
from jobspec_lsp.jobspec.context import kind_of

_Loader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

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
_HASH = re.compile(r"(?:^|(?<=[ \t]))#", re.M)
_BLOCK_HEADER = re.compile(r"[|>]([1-9+-]{0,2})")


def block_content(text: str, body: int, nl: int, end: int, parent_col: int) -> tuple[int, int]:
    """(content indentation, end of content) of a block scalar whose header line
    ends at ``nl`` and whose token ends at ``end``; ``parent_col`` is the column of
    its key or dash.  Lines after the last one with text are content only when they
    keep line breaks (``|+``) or hold more spaces than the indentation (then the
    spaces are text)."""
    header = _BLOCK_HEADER.search(text, body, nl)
    indicators = header.group(1) if header else ""
    digit = next((int(ch) for ch in indicators if ch.isdigit()), None)
    lines = text[nl + 1 : end].split("\n")
    if digit is not None:
        ci = max(parent_col, 0) + digit
    else:
        first = next((ln for ln in lines if ln.strip(" ")), None)
        ci = len(first) - len(first.lstrip(" ")) if first is not None else 0
    if "+" in indicators:
        return ci, end
    pos = nl + 1
    stop = nl + 1
    for ln in lines:
        after = pos + len(ln) + 1
        if ln.strip(" ") or len(ln) > ci:
            stop = min(after, end)
        pos = after
    return ci, stop


class Unformattable(Exception):
    """A construct this printer does not lay out (the caller falls back)."""

    def __init__(self, message: str, start: int = 0, end: int = 0, unreadable: bool = False):
        super().__init__(message)
        self.message = message
        self.start = start
        self.end = end
        self.unreadable = unreadable  # Flux cannot read it either: no layout will do


# --------------------------------------------------------------------------- tree
class Node:
    __slots__ = (
        "kind",
        "start",
        "end",
        "body",
        "flow",
        "style",
        "entries",
        "refs",
        "value",
        "props",
        "props_end",
    )

    def __init__(self, kind: str, start: int, end: int, body: int):
        self.kind = kind  # "scalar", "alias", "map", "seq"
        self.start = start  # the node's text, its properties included
        self.end = end
        self.body = body  # where the text after its properties starts
        self.props = ""  # its anchor and tag as written, one space apart
        self.props_end = start
        self.flow = False
        self.style: str | None = None  # a scalar's: None (plain), "'", '"', "|", ">"
        self.entries: list[Entry] = []
        self.refs = False  # an anchor or an alias in it (or under it)
        self.value = ""  # a scalar's value, for keys


class Entry:
    """A mapping pair (``key`` set) or a sequence item, where it sits in the text."""

    __slots__ = ("key", "value", "start", "col", "parent", "in_flow", "leading", "closing")

    def __init__(self, key, start: int, col: int, parent, in_flow: bool):
        self.key: Node | None = key
        self.value: Node | None = None
        self.start = start  # the key's offset, or the item's dash
        self.col = col
        self.parent: Entry | None = parent
        self.in_flow = in_flow
        self.leading: list[str | None] = []  # comment lines (None: a blank line) above it
        self.closing: list[str | None] = []  # comment lines after all of it


class _Open:
    __slots__ = ("node", "owner", "expect_key", "pair")

    def __init__(self, node: Node, owner: Entry | None):
        self.node = node
        self.owner = owner
        self.expect_key = True
        self.pair: Entry | None = None


class Tree:
    """The syntax tree of one YAML document, with its comments placed."""

    def __init__(self, text: str):
        self.text = text
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.root: Node | None = None
        self.entries: list[Entry] = []  # in text order
        self.tokens: dict[int, int] = {}  # end offset of every token -> its start
        self.flows: list[tuple[int, int, Entry | None]] = []
        self.scalars: list[tuple[int, int]] = []  # content spans
        self.headers: list[tuple[int, int]] = []  # block scalar header lines
        self.doc_start: tuple[int, int] | None = None  # an explicit `---`
        self.aliases = False
        self.content_end: dict[int, int] = {}  # block scalar start -> end of its content
        self._read()

    # ------------------------------------------------------------ positions
    def line_of(self, offset: int) -> int:
        return bisect_right(self.line_starts, offset) - 1

    def col_of(self, offset: int) -> int:
        return offset - self.line_starts[self.line_of(offset)]

    def _props(self, node: Node, limit: int) -> None:
        """Read ``node``'s anchor and tag (which may stand on their own line, a
        comment after them) and where its own text starts."""
        text = self.text
        i = node.start
        props = []
        n = len(text)
        while i < n and text[i] in "&!" and i < max(limit, node.start + 1):
            j = i
            while j < n and text[j] not in " \t\r\n,[]{}":
                j += 1
            props.append(text[i:j])
            node.props_end = j
            i = j
            while True:  # white space, line breaks and comments up to the next token
                while i < n and text[i] in " \t\r\n":
                    i += 1
                if i < n and text[i] == "#" and text[i - 1] in " \t\r\n":
                    while i < n and text[i] != "\n":
                        i += 1
                    continue
                break
        node.props = " ".join(props)
        node.body = i if props else node.start

    def _dash(self, start: int) -> int:
        """The offset of the '-' that opens the block sequence item at ``start``."""
        text = self.text
        i = start
        while True:
            while i > 0 and text[i - 1] in " \t\n\r":
                i -= 1
            if i > 0 and text[i - 1] == "-":
                return i - 1
            ls = text.rfind("\n", 0, i) + 1
            m = _HASH.search(text, ls, i)
            if m is None:
                return start
            before = text[ls : m.start()].rstrip()
            if before.endswith("-"):
                return ls + len(before) - 1
            if before:
                return start
            i = ls  # a comment line: look above it

    # ------------------------------------------------------------ reading
    def _read(self) -> None:
        text = self.text
        loader = _Loader(text)
        stack: list[_Open] = []
        docs = 0
        try:
            while loader.check_event():
                ev = loader.get_event()
                cls = type(ev)
                if cls is events.ScalarEvent or cls is events.AliasEvent:
                    start, end = ev.start_mark.index, ev.end_mark.index
                    node = Node(
                        "scalar" if cls is events.ScalarEvent else "alias", start, end, start
                    )
                    if cls is events.ScalarEvent:
                        if ev.anchor or ev.tag:
                            self._props(node, end)
                        node.style = ev.style or None
                        node.value = ev.value
                        node.refs = ev.anchor is not None
                    else:
                        node.refs = True
                        self.aliases = True
                        self.tokens[end] = start
                    owner = self._place(stack, node)
                    if cls is events.ScalarEvent and end > start:
                        if node.style not in ("|", ">"):
                            self.tokens[end] = start
                        col = owner.col if owner is not None else -1
                        self._scalar_span(node, col)
                elif cls is events.MappingStartEvent or cls is events.SequenceStartEvent:
                    start = ev.start_mark.index
                    kind = "map" if cls is events.MappingStartEvent else "seq"
                    node = Node(kind, start, start, start)
                    node.flow = bool(ev.flow_style)
                    node.refs = ev.anchor is not None
                    if ev.anchor is not None or ev.tag is not None:
                        self._props(node, len(text))
                        if not node.flow:
                            self.tokens[node.props_end] = start  # `key: &anchor` ends its line
                    if node.flow:
                        node.body = (
                            ev.end_mark.index - 1
                            if text[ev.end_mark.index - 1 : ev.end_mark.index] in "[{"
                            else node.body
                        )
                        self.tokens[ev.end_mark.index] = start
                    owner = self._place(stack, node)
                    stack.append(_Open(node, owner))
                elif cls is events.MappingEndEvent or cls is events.SequenceEndEvent:
                    top = stack.pop()
                    node = top.node
                    if node.flow:
                        node.end = ev.end_mark.index
                        self.tokens[node.end] = node.start
                        self.flows.append((node.start, node.end, top.owner))
                    else:
                        last = node.entries[-1] if node.entries else None
                        node.end = last.value.end if last and last.value else node.start
                    if any(e.value is not None and e.value.refs for e in node.entries) or any(
                        e.key is not None and e.key.refs for e in node.entries
                    ):
                        node.refs = True
                elif cls is events.DocumentStartEvent:
                    docs += 1
                    if docs > 1:
                        raise Unformattable("several documents", ev.start_mark.index)
                    if ev.explicit:
                        self.doc_start = (ev.start_mark.index, ev.end_mark.index)
                        self.tokens[ev.end_mark.index] = ev.start_mark.index
                elif cls is events.StreamEndEvent:
                    break
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            at = mark.index if mark is not None else 0
            raise Unformattable(f"does not parse ({getattr(exc, 'problem', exc)})", at) from None
        finally:
            loader.dispose()
        self.scalars.sort()
        self.headers.sort()

    def _scalar_span(self, node: Node, parent_col: int) -> None:
        """Record a scalar's content span (where a '#' is text, not a comment)."""
        text, start, end = self.text, node.body, node.end
        if node.style not in ("|", ">"):
            self.scalars.append((start, end))
            return
        nl = text.find("\n", start, end)
        if nl == -1:
            self.headers.append((start, end))
            return
        self.headers.append((start, nl))
        ci, stop = block_content(text, start, nl, end, parent_col)
        node.value = str(ci)  # the content's indentation, for the printer
        self.scalars.append((nl + 1, stop))
        self.content_end[node.start] = stop

    def _place(self, stack: list[_Open], node: Node) -> Entry | None:
        """Attach ``node`` where it belongs: root, key, value or item."""
        if not stack:
            self.root = node
            return None
        top = stack[-1]
        parent = top.node
        if parent.kind == "map":
            if top.expect_key:
                if node.kind not in ("scalar", "alias"):
                    raise Unformattable(
                        "a mapping key must be a plain value, not a list, mapping or alias "
                        "(Flux's reader cannot use it)",
                        node.start,
                        node.start + 1,
                        unreadable=True,
                    )
                e = Entry(node, node.start, self.col_of(node.start), top.owner, parent.flow)
                parent.entries.append(e)
                self.entries.append(e)
                top.pair = e
                top.expect_key = False
                return e
            assert top.pair is not None
            top.pair.value = node
            top.expect_key = True
            return top.pair
        at = node.start if parent.flow else self._dash(node.start)
        e = Entry(None, at, self.col_of(at), top.owner, parent.flow)
        e.value = node
        if not parent.flow and at != node.start:
            self.tokens.setdefault(at + 1, at)  # a comment after a lone dash
        parent.entries.append(e)
        self.entries.append(e)
        return e


# --------------------------------------------------------------------------- comments
class Comments:
    """Every comment and blank line of the text, given to what it belongs to."""

    def __init__(self, tree: Tree):
        self.tree = tree
        text = tree.text
        self.eol: dict[int, list[str]] = {}  # token end -> comments after it on its line
        self.header: list[str | None] = []  # heads the document
        self.trailer: list[str | None] = []  # after everything
        self.positions: list[int] = []
        spans = tree.scalars
        starts = [s for s, _ in spans]
        hstarts = [s for s, _ in tree.headers]
        token_ends = sorted(tree.tokens)
        lines = tree.line_starts
        nlines = len(lines)
        self.preamble_end = tree.doc_start[0] if tree.doc_start else 0
        groups: list[tuple[int, int, list]] = []  # (start, end, lines)
        cur: list | None = None
        cur_start = 0
        for line in range(nlines):
            ls = lines[line]
            if ls >= len(text):
                break
            le = lines[line + 1] - 1 if line + 1 < nlines else len(text)
            if ls < self.preamble_end:
                continue
            p = ls
            k = bisect_right(starts, p) - 1
            inside = k >= 0 and spans[k][0] <= p < spans[k][1]
            if inside:
                p = spans[k][1]
                if p >= le:
                    cur = None
                    continue  # a line of a scalar
            hash_at = None
            for m in _HASH.finditer(text, p, le):
                h = m.start()
                if not _inside(spans, starts, h) and not _inside(tree.headers, hstarts, h):
                    hash_at = h
                    break
            if hash_at is not None:
                self.positions.append(hash_at)
            before = text[p : hash_at if hash_at is not None else le]
            if not inside and not before.strip():
                if cur is None:
                    cur = []
                    cur_start = ls
                    groups.append((cur_start, le, cur))
                else:
                    groups[-1] = (cur_start, le, cur)
                assert hash_at is not None or not text[ls:le].strip()
                cur.append(None if hash_at is None else (hash_at - ls, text[hash_at:le].rstrip()))
                continue
            cur = None
            if hash_at is None:
                continue
            note = text[hash_at:le].rstrip()
            i = bisect_right(token_ends, hash_at) - 1  # the last token ending before it
            if i >= 0 and token_ends[i] > ls:
                self.eol.setdefault(token_ends[i], []).append(note)
            else:
                groups.append((ls, le, [(hash_at - ls, note)]))
        self._place_groups(groups)

    def _place_groups(self, groups) -> None:
        tree = self.tree
        entries = tree.entries
        starts = [e.start for e in entries]
        flows = sorted(tree.flows, key=lambda f: (f[0], f[1]))
        fstarts = [f[0] for f in flows]
        reach: list[int] = []
        for f in flows:
            reach.append(max(f[1], reach[-1] if reach else -1))
        for gstart, gend, glines in groups:
            if not any(g is not None for g in glines):
                if gstart <= (entries[0].start if entries else 0):
                    continue  # blank lines before the first entry
            i = bisect_left(starts, gend)
            nxt = entries[i] if i < len(entries) else None
            j = bisect_left(starts, gstart) - 1
            prev = entries[j] if j >= 0 else None
            flow = _innermost(flows, fstarts, reach, gstart)
            if flow is not None:
                fstart, fend, owner = flow
                if nxt is not None and nxt.start < fend:
                    nxt.leading.extend(_texts(glines))
                elif prev is not None and prev.start > fstart:
                    while prev.parent is not owner and prev.parent is not None:
                        prev = prev.parent  # the entry of this flow that holds it
                    prev.closing.extend(_texts(glines))
                elif owner is not None:
                    owner.closing.extend(_texts(glines))
                else:
                    self.trailer.extend(_texts(glines))
                continue
            if prev is None:
                if nxt is None:
                    self.trailer.extend(_texts(glines))
                    continue
                cut = max((k + 1 for k, g in enumerate(glines) if g is None), default=0)
                head = _texts(glines[:cut])
                while head and head[0] is None:
                    head.pop(0)
                while head and head[-1] is None:
                    head.pop()
                self.header.extend(head)
                nxt.leading.extend(_texts(glines[cut:]))
                continue
            limit = nxt.col if nxt is not None else 0
            k = 0
            for idx, g in enumerate(glines):
                if g is None:
                    continue
                if g[0] > limit:
                    k = idx + 1
                else:
                    break
            target: Entry | None = None
            for g in glines[:k]:
                if g is None:  # a blank line among closing comments stays with them
                    if target is not None:
                        target.closing.append(None)
                    continue
                target = _closing(prev, g[0])
                if target is None:
                    self.trailer.append(g[1])
                else:
                    target.closing.append(g[1])
            rest = glines[k:]
            if rest:
                if nxt is not None:
                    nxt.leading.extend(_texts(rest))
                else:
                    self.trailer.extend(_texts(rest))


def _texts(glines) -> list[str | None]:
    return [None if g is None else g[1] for g in glines]


def _closing(prev: Entry, col: int) -> Entry | None:
    """The deepest block entry around ``prev`` whose column is at or left of ``col``."""
    e: Entry | None = prev
    while e is not None:
        if not e.in_flow and e.col <= col:
            return e
        e = e.parent
    return None


def _inside(spans, starts, offset: int) -> bool:
    i = bisect_right(starts, offset) - 1
    return i >= 0 and spans[i][0] <= offset < spans[i][1]


def _innermost(flows, fstarts, reach, offset: int):
    """The innermost flow collection around ``offset`` (``reach``: the furthest end
    of the flows up to each index), or None."""
    i = bisect_left(fstarts, offset) - 1
    while i >= 0 and reach[i] > offset:
        if flows[i][1] > offset:
            return flows[i]
        i -= 1
    return None


# --------------------------------------------------------------------------- printing
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
        m = _BLOCK_HEADER.search(text, v.body, nl)
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
        hm = _HASH.search(text, v.body, nl)
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


def layout(text: str | Tree, width: int = 80, sort_keys: bool = True) -> str:
    """``text`` printed in the house style; :class:`Unformattable` when it cannot be."""
    tree = text if isinstance(text, Tree) else Tree(text)
    comments = Comments(tree)
    return Printer(tree, comments, width, sort_keys).render()


def comment_texts(text: str | Tree) -> list[str]:
    """Every comment of the text as written (trailing white space dropped), found
    from the syntax: a '#' after white space, outside every scalar's text."""
    tree = text if isinstance(text, Tree) else Tree(text)
    src = tree.text
    spans = tree.scalars
    starts = [a for a, _ in spans]
    out = []
    line_end = -1
    for m in _HASH.finditer(src):
        pos = m.start()
        if pos < line_end or _inside(spans, starts, pos):
            continue  # inside a comment, or text of a scalar (a header's '#' is a comment)
        eol = src.find("\n", pos)
        line_end = len(src) if eol == -1 else eol
        out.append(src[pos:line_end].rstrip())
    return out
