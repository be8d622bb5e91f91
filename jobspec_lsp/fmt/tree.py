"""The syntax tree `jobspec fmt` lays out: libyaml's events read into nodes.

Every node keeps its source span, its properties (anchor and tag as written) and its
flow/block style; nothing is resolved, so aliases, merge keys and duplicate keys stay
what they are.  The tree also records where every token ends (a comment after it
belongs to it), every scalar's content span (where a '#' is text, not a comment) and
every block scalar's header line, for :mod:`jobspec_lsp.fmt.comments` and
:mod:`jobspec_lsp.fmt.printer`.
"""

from __future__ import annotations

import re
from bisect import bisect_right

import yaml
from yaml import events

_Loader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

HASH = re.compile(r"(?:^|(?<=[ \t]))#", re.M)  # where a comment may start
BLOCK_HEADER = re.compile(r"[|>]([1-9+-]{0,2})")  # a block scalar's indicators


def block_content(text: str, body: int, nl: int, end: int, parent_col: int) -> tuple[int, int]:
    """(content indentation, end of content) of a block scalar whose header line
    ends at ``nl`` and whose token ends at ``end``; ``parent_col`` is the column of
    its key or dash.  Lines after the last one with text are content only when they
    keep line breaks (``|+``) or hold more spaces than the indentation (then the
    spaces are text)."""
    header = BLOCK_HEADER.search(text, body, nl)
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
            m = HASH.search(text, ls, i)
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
        """Read the text's events into the tree; :class:`Unformattable` when they
        do not parse."""
        loader = _Loader(self.text)
        try:
            self._events(loader)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            at = mark.index if mark is not None else 0
            raise Unformattable(f"does not parse ({getattr(exc, 'problem', exc)})", at) from None
        finally:
            loader.dispose()
        self.scalars.sort()
        self.headers.sort()

    def _events(self, loader) -> None:
        """Each event, in order, to the step that reads it."""
        stack: list[_Open] = []
        docs = 0
        while loader.check_event():
            ev = loader.get_event()
            cls = type(ev)
            if cls is events.ScalarEvent or cls is events.AliasEvent:
                self._leaf(stack, ev, cls is events.ScalarEvent)
            elif cls is events.MappingStartEvent or cls is events.SequenceStartEvent:
                self._open(stack, ev, "map" if cls is events.MappingStartEvent else "seq")
            elif cls is events.MappingEndEvent or cls is events.SequenceEndEvent:
                self._close(stack.pop(), ev)
            elif cls is events.DocumentStartEvent:
                docs += 1
                self._document(ev, docs)
            elif cls is events.StreamEndEvent:
                break

    def _leaf(self, stack: list[_Open], ev, scalar: bool) -> None:
        """A scalar or an alias: a node, placed, with its token and content span."""
        start, end = ev.start_mark.index, ev.end_mark.index
        node = Node("scalar" if scalar else "alias", start, end, start)
        if scalar:
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
        if scalar and end > start:
            if node.style not in ("|", ">"):
                self.tokens[end] = start
            col = owner.col if owner is not None else -1
            self._scalar_span(node, col)

    def _open(self, stack: list[_Open], ev, kind: str) -> None:
        """A mapping or a sequence starts: placed, and open until its end event."""
        text = self.text
        start = ev.start_mark.index
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

    def _close(self, top: _Open, ev) -> None:
        """A mapping or a sequence ends: its end, and whether it holds a reference."""
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

    def _document(self, ev, docs: int) -> None:
        """A document starts: only one is laid out; an explicit `---` is kept."""
        if docs > 1:
            raise Unformattable("several documents", ev.start_mark.index)
        if ev.explicit:
            self.doc_start = (ev.start_mark.index, ev.end_mark.index)
            self.tokens[ev.end_mark.index] = ev.start_mark.index

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
