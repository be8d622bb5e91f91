"""The positioned tree a jobspec is read into: nodes that know their source offsets,
and the document holding them with its text, line index and the reader's problems.

Kept apart from the reader (:mod:`.document`, which loads libyaml) so that what only
holds or walks a document -- a script's model, the rules that run on scripts, the
command line -- does not load YAML at all (start-up, issue 26).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

from jobspec_lsp.record import Frozen
from jobspec_lsp.text.positions import LineIndex

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any


# --------------------------------------------------------------------------- nodes
class Shifts:
    """The edits a tree's nodes have not all been moved for yet (issue 26).

    An edit of a big document re-reads one entry (:mod:`.incremental`); every node after
    it moves by the edit's length. Moving each one at once cost a pass over the whole
    tree per keystroke (0.1 s at 5 MB). Instead the edit is written here, once, and a
    node applies the edits it has not seen when its offsets are read (few are: the
    rules read a node's offsets only to report it). ``edits`` holds ``(at, delta)``:
    a start at or after ``at``, an end after it, moves by ``delta``, each edit in the
    offsets of the text before it.

    ``memo`` holds what rule families found in parts of the tree that an edit leaves
    alone (the same node objects, version after version; :func:`rules.base.remembered`):
    a tree read whole has no :class:`Shifts`, so nothing is remembered for it."""

    __slots__ = ("edits", "memo")

    def __init__(self) -> None:
        self.edits: list[tuple[int, int]] = []
        self.memo: dict[Any, dict[int, Any]] = {}


_catching_up = threading.Lock()


class Node:
    """A positioned YAML node.  ``start``/``end`` are code-point offsets (read through
    the edits of its tree's :class:`Shifts` it has not applied yet)."""

    __slots__ = ("_s", "_e", "_v", "_shifts")
    kind = "node"

    def __init__(self, start: int, end: int):
        self._s = start
        self._e = end
        self._v = 0  # the edits of _shifts already applied
        self._shifts: Shifts | None = None

    def _catch_up(self) -> None:
        # one thread at a time; _v written last, so a reader that sees it current reads
        # offsets already moved
        with _catching_up:
            edits = self._shifts.edits  # type: ignore[union-attr]  # called only with one
            n = len(edits)  # (an edit appended meanwhile is applied by the next read)
            if self._v >= n:
                return
            s, e = self._s, self._e
            for at, delta in edits[self._v : n]:
                if s >= at:
                    s += delta
                if e > at:
                    e += delta
            self._s, self._e = s, e
            self._v = n

    @property
    def start(self) -> int:
        shifts = self._shifts
        if shifts is not None and self._v != len(shifts.edits):
            self._catch_up()
        return self._s

    @start.setter
    def start(self, value: int) -> None:
        if self._shifts is not None and self._v != len(self._shifts.edits):
            self._catch_up()
        self._s = value

    @property
    def end(self) -> int:
        shifts = self._shifts
        if shifts is not None and self._v != len(shifts.edits):
            self._catch_up()
        return self._e

    @end.setter
    def end(self, value: int) -> None:
        if self._shifts is not None and self._v != len(self._shifts.edits):
            self._catch_up()
        self._e = value


class Scalar(Node):
    __slots__ = ("value", "style", "tag")
    kind = "scalar"

    def __init__(
        self, start: int, end: int, value: Any, style: str | None, tag: str | None
    ) -> None:
        super().__init__(start, end)
        self.value = value
        self.style = style  # None (plain), "'", '"', "|", ">"
        self.tag = tag

    def __repr__(self) -> str:
        return f"Scalar({self.value!r}@{self.start}:{self.end})"


class Mapping(Node):
    __slots__ = ("pairs", "index", "flow")
    kind = "mapping"

    def __init__(
        self, start: int, end: int, pairs: list[tuple[Any, Any]], index: dict[Any, int], flow: bool
    ) -> None:
        super().__init__(start, end)
        self.pairs = pairs  # [(key Node, value Node)], effective (merged) pairs, unique keys
        self.index = index  # {key value: pair position}
        self.flow = flow

    def get(self, key: object, default: Any = None) -> Any:
        i = self.index.get(key)
        return self.pairs[i][1] if i is not None else default

    def key_node(self, key: object) -> Any:
        i = self.index.get(key)
        return self.pairs[i][0] if i is not None else None

    def pair(self, key: object) -> Any:
        i = self.index.get(key)
        return self.pairs[i] if i is not None else None

    def __contains__(self, key: object) -> bool:
        return key in self.index

    def keys(self) -> Any:
        return self.index.keys()

    def __repr__(self) -> str:
        return f"Mapping({len(self.pairs)} keys@{self.start}:{self.end})"


class Sequence(Node):
    __slots__ = ("items", "flow")
    kind = "sequence"

    def __init__(self, start: int, end: int, items: list[Any], flow: bool) -> None:
        super().__init__(start, end)
        self.items = items
        self.flow = flow

    def __repr__(self) -> str:
        return f"Sequence({len(self.items)} items@{self.start}:{self.end})"


def iter_nodes(node: Node) -> Iterator[Any]:
    """``node`` and every node under it (depth first, keys before their values), with an
    explicit stack: no recursion limit whatever the nesting."""
    stack: list[Any] = [node]
    while stack:
        n = stack.pop()
        yield n
        if type(n) is Mapping:
            for k, v in reversed(n.pairs):
                stack.append(v)
                stack.append(k)
        elif type(n) is Sequence:
            stack.extend(reversed(n.items))


def to_python(node: Node | None) -> Any:
    """The plain Python value Flux would load (aliases share objects)."""
    memo: dict[int, object] = {}

    def conv(n: Any) -> Any:
        if isinstance(n, Scalar):
            return n.value
        got = memo.get(id(n))
        if got is not None:
            return got
        if isinstance(n, Mapping):
            out: dict[Any, Any] = {}
            memo[id(n)] = out
            for k, v in n.pairs:
                out[k.value if isinstance(k, Scalar) else repr(k)] = conv(v)
            return out
        out_list: list[Any] = []
        memo[id(n)] = out_list
        out_list.extend(conv(i) for i in n.items)
        return out_list

    return None if node is None else conv(node)


def type_name(node: Node | None) -> str:
    """A user-facing name for what a node holds ("a string", "a list", ...)."""
    if node is None:
        return "nothing"
    if isinstance(node, Mapping):
        return "a mapping"
    if isinstance(node, Sequence):
        return "a list"
    v = node.value  # type: ignore[attr-defined]  # a Scalar: the others returned
    if v is None:
        return "null"
    # bool before int: a YAML boolean is a Python int too
    names = ((bool, "a boolean"), (int, "an integer"), (float, "a number"), (str, "a string"))
    return next((name for t, name in names if isinstance(v, t)), f"a {type(v).__name__}")


# --------------------------------------------------------------------------- document
class Document(Frozen):
    __slots__ = (
        "text", "lines", "root", "problems", "language", "node_count", "entangled", "derived",
        "__weakref__",  # the server's caches may hold a document weakly
    )  # fmt: skip
    _uncompared = _unshown = ("derived",)
    text: str
    lines: LineIndex
    root: Node | None
    problems: list[Any]  # parser diagnostics (JS9xx)
    language: str
    node_count: int
    entangled: bool  # anchors, aliases, merge keys or a dropped pair: read edits whole
    # what is derived from the document once, on first use (the resource model, ...):
    # the document never changes, so neither does any of it
    derived: dict[str, Any]

    def __init__(
        self,
        text: str,
        lines: LineIndex,
        root: Node | None,
        problems: list[Any] | None = None,
        language: str = "yaml",
        node_count: int = 0,
        entangled: bool = False,
    ) -> None:
        put = object.__setattr__
        put(self, "text", text)
        put(self, "lines", lines)
        put(self, "root", root)
        put(self, "problems", [] if problems is None else problems)
        put(self, "language", language)
        put(self, "node_count", node_count)
        put(self, "entangled", entangled)
        put(self, "derived", {})

    @property
    def ok(self) -> bool:
        """True when a tree exists for the rules to check."""
        return self.root is not None

    def source(self, node: Node) -> str:
        return self.text[node.start : node.end]
