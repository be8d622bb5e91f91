"""What every rule family shares: the check context and small helpers."""

from __future__ import annotations

import math
from collections.abc import Iterable

from jobspec_lsp.diagnostics import RULES, Diagnostic, Severity
from jobspec_lsp.jobspec.tree import Document, Mapping, Node, Scalar, Sequence, type_name
from jobspec_lsp.record import Record
from jobspec_lsp.text.suggest import closest

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any


class Vertex(Record):
    """One resource vertex of the jobspec, with its place in the tree."""

    __slots__ = ("node", "parent", "index", "type", "label", "children")
    _unshown = ("parent", "children")  # they lead back here
    node: Mapping
    parent: Vertex | None
    index: int  # position in its list
    type: str | None  # when it is a string
    label: str | None
    children: list[Vertex]

    def __init__(
        self,
        node: Mapping,
        parent: Vertex | None,
        index: int,
        type: str | None = None,
        label: str | None = None,
        children: list[Vertex] | None = None,
    ) -> None:
        self.node = node
        self.parent = parent
        self.index = index
        self.type = type
        self.label = label
        self.children = [] if children is None else children

    def ancestors(self) -> Any:
        v = self.parent
        while v is not None:
            yield v
            v = v.parent

    def descendants(self) -> Any:
        stack = list(reversed(self.children))
        while stack:
            v = stack.pop()
            yield v
            stack.extend(reversed(v.children))


class Memo:
    """What a rule family found for each part of a tree an edit left alone (issue 26).

    An edit of a big document gives a tree whose untouched parts are the same node
    objects as before (:mod:`jobspec_lsp.jobspec.incremental`), only later in the text.
    A family that checks such a part (a top-level resource vertex, a task) alone asks
    ``get(node)``: what it found last time, moved to where the node is now, or None; and
    says ``put(node, found)`` after checking it. Parts not asked about this time are
    forgotten. A node whose findings depend on more than itself is asked about with a
    ``key`` that holds the rest (the labels a task can refer to)."""

    __slots__ = ("_old", "_new", "_home", "_name")

    def __init__(self, ctx: Context, family: str) -> None:
        root = ctx.doc.root
        shifts = getattr(root, "_shifts", None)
        self._home = shifts.memo if shifts is not None else None
        self._name = (family, ctx.v1, ctx.select, ctx.ignore)
        self._old = self._home.get(self._name, {}) if self._home is not None else {}
        self._new: dict[int, Any] = {}

    def get(self, node: Any, key: Any = None) -> tuple[list[Diagnostic], Any] | None:
        if self._home is None:
            return None
        hit = self._old.get(id(node))
        if hit is None or hit[0] is not node or (hit[1] is not key and hit[1] != key):
            return None
        self._new[id(node)] = hit
        _, _, found, then, extra = hit
        if not found:
            return found, extra  # (most parts: nothing found, no offset read)
        delta = node.start - then
        if delta:
            found = [
                Diagnostic(d.code, d.severity, d.message, d.start + delta, d.end + delta, d.data)
                for d in found
            ]
        return found, extra

    def put(self, node: Any, found: list[Diagnostic], key: Any = None, extra: Any = None) -> None:
        if self._home is not None and not any(_holds_offsets(d) for d in found):
            self._new[id(node)] = (node, key, found, node.start if found else 0, extra)

    def same(self, key: Any) -> Any:
        """``key``, or the equal one given last time (so that each ``get`` compares it
        by identity, not item by item)."""
        if self._home is None:
            return key
        old = self._old.get(-1)
        if old is not None and old[0] == key:
            key = old[0]
        self._new[-1] = (key,)
        return key

    def done(self) -> None:
        """Keep what was asked about or found this time, forget the rest."""
        if self._home is not None:
            self._home[self._name] = self._new


def _holds_offsets(d: Diagnostic) -> bool:
    """Findings whose data point elsewhere (related places) are not remembered: the
    places would not move with them."""
    return bool(d.data) and "related" in d.data  # type: ignore[operator]


class Context:
    """State of one check run: the document, the options, the findings."""

    def __init__(self, doc: Document, v1: bool, select: Any = None, ignore: Any = None) -> None:
        self.doc = doc
        self.v1 = v1
        self.select = tuple(select) if select else None
        self.ignore = tuple(ignore) if ignore else ()
        self.diagnostics: list[Diagnostic] = []
        # Filled by the structure family, read by the others.
        self.root: Mapping | None = None
        self.vertices: list[Vertex] = []  # every resource vertex, depth first
        self.top: list[Vertex] = []  # top-level vertices
        self.tasks: list[Mapping] = []  # task mappings

    def enabled(self, code: str) -> bool:
        if self.select is not None and not code.startswith(self.select):
            return False
        return not (self.ignore and code.startswith(self.ignore))

    def unknown(
        self,
        code: str,
        where: Any,
        said: str,
        name: Any,
        known: Any,
        tail: str = "",
        cutoff: float = 0.6,
    ) -> None:
        """``name`` is none of ``known``: ``said`` reported at ``where`` with the nearest
        known name as its "did you mean" and its suggestion fix, then ``tail``."""
        guess = suggest(name, known, cutoff=cutoff)
        message = f"{said}{did_you_mean(guess)}{tail}"
        self.report(code, where, message, data={"suggestion": guess} if guess else None)

    def report(
        self,
        code: str,
        where: Any,
        message: str,
        data: Any = None,
        severity: Severity | None = None,
    ) -> None:
        """Report ``code`` at ``where``: a node, a (key, value) pair or (start, end) offsets."""
        if not self.enabled(code):
            return
        start, end = self.span(where)
        self.diagnostics.append(
            Diagnostic(code, severity or RULES[code].severity, message, start, end, data)
        )

    @staticmethod
    def span(where: Any) -> tuple[int, int]:
        """Offsets of the offending token.

        A node is reported whole unless it is a block collection spanning lines,
        which is reported at its head (first key, or first item).  A (key, value)
        pair is reported at the value when it is a scalar or a flow collection,
        otherwise at the key (``count:`` with nothing, or a block mapping).
        """
        if isinstance(where, Node):
            return head(where)
        if isinstance(where, tuple) and len(where) == 2:
            a, b = where
            if isinstance(a, int):
                return a, b
            if isinstance(b, Scalar) and b.end > b.start:
                return b.start, b.end
            if isinstance(b, (Mapping, Sequence)) and b.flow:
                return b.start, b.end
            return a.start, a.end
        raise TypeError(f"cannot place a diagnostic at {where!r}")

    def source(self, node: Node) -> str:
        return self.doc.text[node.start : node.end]

    def not_a_string(self, code: str, where: Any, node: Any, what: str) -> None:
        """Report that ``what`` (its value ``node``) must be a string, with the fix that
        quotes it where it has text."""
        message = f"{what} must be a string, not {describe(node)}"
        self.report(code, where, message, data=self.quoting(node))

    def quoting(self, node: Any) -> dict[str, str] | None:
        """The fix's data that writes a plain scalar as a string (its text quoted), for a
        scalar that has text; None for anything else."""
        if isinstance(node, Scalar) and node.end > node.start:
            return {"replacement": f'"{self.source(node)}"'}
        return None


def uses_v1(doc: Document, version_rules: str = "auto") -> bool:
    """Whether V1 (RFC 25) rules apply: forced, or ``version: 1`` under auto (the
    ``v1`` of a :class:`Context`)."""
    if version_rules == "v1":
        return True
    if version_rules == "canonical":
        return False
    root = doc.root
    if isinstance(root, Mapping):
        version = root.get("version")
        return isinstance(version, Scalar) and type(version.value) is int and version.value == 1
    return False


# --------------------------------------------------------------------------- helpers
def head(node: Node) -> tuple[int, int]:
    """The range that stands for ``node``: itself, or the head of a block collection."""
    depth = 0
    while depth < 50:
        if isinstance(node, Mapping) and not node.flow and node.pairs:
            node = node.pairs[0][0]
        elif isinstance(node, Sequence) and not node.flow and node.items:
            first = node.items[0]
            if isinstance(first, Scalar):
                return first.start, first.end
            node = first
        else:
            break
        depth += 1
    return node.start, node.end


def anchor_for_missing(mapping: Mapping, owner_key: Node | None = None) -> Any:
    """Where to report a key missing from ``mapping``: the key that holds the
    mapping when there is one, else the mapping's first key, else the mapping."""
    if owner_key is not None:
        return owner_key
    if mapping.pairs:
        return mapping.pairs[0][0]
    return mapping


def suggest(word: str, candidates: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The candidate nearest ``word`` (see :func:`jobspec_lsp.text.suggest.closest`)."""
    if not isinstance(word, str):
        return None
    return closest(word, candidates, cutoff)


class Suggester:
    """Near spellings among many candidates (a document's slot labels, say), in
    near-linear time: ``suggest`` compares a word with every candidate, which is
    quadratic when hundreds of tasks name hundreds of labels. Above ``SMALL``
    candidates, only the few sharing the most character trigrams with the word (the
    rarest trigrams pick who is considered; common ones only rank them; ties go to the
    closest length) are compared. Answers are remembered per word."""

    SMALL = 40
    POOL = 12

    def __init__(self, candidates: Iterable[str]) -> None:
        self.candidates = list(dict.fromkeys(c for c in candidates if isinstance(c, str)))
        self.memo: dict[Any, str | None] = {}
        self.index: dict[str, list[int]] = {}
        if len(self.candidates) > self.SMALL:
            for i, c in enumerate(self.candidates):
                for g in _trigrams(c):
                    self.index.setdefault(g, []).append(i)

    def best(self, word: str, cutoff: float = 0.6) -> str | None:
        if not isinstance(word, str):
            return None
        key = (word, cutoff)
        if key not in self.memo:
            self.memo[key] = suggest(word, self._pool(word), cutoff)
        return self.memo[key]

    def _pool(self, word: str) -> list[str]:
        if len(self.candidates) <= self.SMALL:
            return self.candidates
        shared: dict[int, int] = {}
        grams = sorted(_trigrams(word), key=lambda g: len(self.index.get(g, ())))
        for g in grams:
            admit = len(shared) < 4 * self.POOL  # enough considered: the rest only rank
            for i in self.index.get(g, ()):
                if i in shared:
                    shared[i] += 1
                elif admit:
                    shared[i] = 1
        n = len(word)
        best = sorted(shared, key=lambda i: (-shared[i], abs(len(self.candidates[i]) - n)))
        return [self.candidates[i] for i in best[: self.POOL]]


def _trigrams(s: str) -> set[str]:
    padded = f"  {s} "
    return {padded[i : i + 3] for i in range(len(padded) - 2)}


def did_you_mean(s: str | None) -> str:
    return f"; did you mean {s!r}?" if s else ""


def is_str(node: Any) -> bool:
    return isinstance(node, Scalar) and isinstance(node.value, str)


def is_int(node: Any) -> bool:
    return isinstance(node, Scalar) and type(node.value) is int


def is_number(node: Any) -> bool:
    return isinstance(node, Scalar) and type(node.value) in (int, float)


def is_bool(node: Any) -> bool:
    return isinstance(node, Scalar) and type(node.value) is bool


def is_null(node: Any) -> bool:
    return isinstance(node, Scalar) and node.value is None


def finite(node: Any) -> bool:
    return is_number(node) and math.isfinite(node.value)


def key_text(ctx: Context, key: Node) -> str:
    return ctx.source(key) if isinstance(key, Scalar) else "?"


def describe(node: Any) -> str:
    return type_name(node)


def check_keys(
    ctx: Context,
    mapping: Mapping,
    allowed: Any,
    code: str,
    where: str,
    severity: Severity | None = None,
    required: Any = (),
    elsewhere: dict[str, str] | None = None,
) -> list[str]:
    """Report every key of ``mapping`` not in ``allowed`` (with a suggestion), and
    return the ``required`` keys that are missing. A missing required key that an
    unknown key is a near spelling of is that key's mistake: one diagnostic, the
    unknown key's, says so (with the rename as its fix), and the key is not returned.
    ``elsewhere`` maps keys that belong in another place to where (they get that
    hint instead of a near spelling)."""
    missing = [k for k in required if k not in mapping]
    for key, _ in mapping.pairs:
        kv = key.value
        if kv in allowed:
            continue
        name = kv if isinstance(kv, str) else ctx.source(key)
        place = (elsewhere or {}).get(kv) if isinstance(kv, str) else None
        if place is not None:
            sev, parent = severity, place.split()[0]
            if parent in missing:  # what the missing key would hold: one mistake
                missing.remove(parent)
                sev = Severity.ERROR
            ctx.report(
                code,
                key,
                f"unknown key {name!r} in {where}: it belongs under {place}",
                data={"key": name, "belongs": place},
                severity=sev,
            )
            continue
        guess = suggest(kv, missing) or suggest(kv, allowed)
        note, sev = "", severity
        if guess in missing:  # the missing key's error, said here
            missing.remove(guess)
            note, sev = f" ({guess} is required and missing)", Severity.ERROR
        ctx.report(
            code,
            key,
            f"unknown key {name!r} in {where}{did_you_mean(guess)}{note}",
            data={"key": name, "suggestion": guess} if guess else {"key": name},
            severity=sev,
        )
    return missing


def sequence_items(node: Any) -> list[Any]:
    return node.items if isinstance(node, Sequence) else []


def range_in_string(node: Scalar, start: int, end: int, doc: Document) -> tuple[int, int]:
    """Map character offsets inside a scalar's value to document offsets, when the
    source spells the value verbatim (plain, or quoted without escapes)."""
    src = doc.text[node.start : node.end]
    value = node.value
    if not isinstance(value, str):
        return node.start, node.end
    if node.style is None and src == value:
        base = node.start
    elif node.style in ("'", '"') and src[1:-1] == value:
        base = node.start + 1
    else:
        return node.start, node.end
    if start >= end:  # an "expected more" error at the end: point at the last character
        start = min(start, len(value) - 1) if value else 0
        end = start + 1 if value else start
    start, end = min(start, len(value)), min(end, len(value))
    return base + start, base + end


def shown(ctx: Context, node: Any) -> str:
    """``text (kind)`` for a non-empty scalar, else the kind: "0 (an integer)"."""
    if isinstance(node, Scalar) and node.end > node.start:
        return f"{ctx.source(node)} ({describe(node)})"
    return describe(node)
