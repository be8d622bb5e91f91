"""Reading a document again after an edit: only the block entry the edit touched.

A keystroke in a 1 MB jobspec changes one line; reading the whole text again costs
about 250 ns per character. ``reparse(previous, text)`` finds what changed (the
common beginning and end of the two texts), the smallest entry of a block mapping or
block list whose lines hold the change, and reads only that entry's lines, alone,
with libyaml: a block entry read alone keeps its indentation, so it is read exactly
as inside the document. The entry's new nodes replace the old ones; nodes after it
move by the edit's length, recorded once in the tree's ``Shifts`` and applied to a node
when its offsets are read (``consume``: the caller gives the previous document up;
otherwise its tree is copied first, and it never changes). The result is the document
:func:`parse` would build, node for node and problem for problem: a hypothesis test
holds the two equal over random edits.

Whenever that cannot be shown from the entry alone, the whole text is read: the
entry does not read alone as one or more entries of the same kind at the same
column (the edit changed the structure), the entry has an error, an anchor, an
alias or a merge key (one part of the document may stand for another) or a key that
is not a plain value (its pair is dropped), a key repeats a sibling's, an end inside
the entry's lines (a document marker, a closing collection) may now mean something
else, or the previous document had a problem whose words hold line numbers. Small
documents are read whole: finding the change costs about as much.
"""

from __future__ import annotations

import re
from bisect import bisect_right

import yaml

from jobspec_lsp.diagnostics import Diagnostic
from jobspec_lsp.jobspec.document import LONE_SURROGATE, MAX_CHARS, parse
from jobspec_lsp.jobspec.tree import Document, Mapping, Node, Scalar, Sequence, Shifts, iter_nodes
from jobspec_lsp.jobspec.yamlevents import Abort, TreeReader
from jobspec_lsp.text.pauses import no_gc_pauses
from jobspec_lsp.text.positions import LineIndex

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

MIN_CHARS = 20_000  # below this, reading the whole text costs about what finding the edit does
# parser findings about one scalar whose words hold no position: they move with it
_LOCAL = frozenset({"JS905", "JS906", "JS910"})
# characters libyaml reads as line breaks where LSP (and LineIndex) do not; a byte order mark
_OTHER_BREAKS = ("\x85", "\u2028", "\u2029", "\ufeff")
_CHUNK = 4096
MAX_PENDING = 64  # edits a tree's nodes may owe (then all are caught up, a pass over the tree)
_LONE_CR = re.compile(r"\r(?!\n)")
_EXPLICIT_KEY = re.compile(r"(?:^|[\s\[{,])\?(?:[ \t\r\n]|\Z)", re.M)
_DIRECTIVE = re.compile(r"^%", re.M)
_MARKER = re.compile(r"^(?:---|\.\.\.)(?=[ \t\r\n]|\Z)|^%", re.M)


def reparse(
    previous: Document | None,
    text: str,
    language: str = "yaml",
    min_chars: int = MIN_CHARS,
    consume: bool = False,
) -> Document:
    """``parse(text, language)``, reading again only what changed since ``previous``
    (a document :func:`parse` or this function built) where that can be done.

    ``previous`` is never changed, unless ``consume``: then the caller gives it up (no one
    reads it any more) and its nodes after the edit are moved in place instead of copied,
    about five times faster (the language server, which knows its readers)."""
    if (
        previous is None
        or language != "yaml"
        or len(text) < min_chars
        or len(text) > MAX_CHARS
        or not _can_splice(previous)
    ):
        return parse(text, language)
    if text == previous.text:
        return previous
    with no_gc_pauses():  # copies or moves of many nodes: no collector scans meanwhile
        got = _splice(previous, text, consume)
    return got if got is not None else parse(text, language)


def how(doc: Document) -> str:
    """How ``doc`` was read: "entry" (one entry again) or "whole"."""
    return "entry" if doc.derived.get("spliced") else "whole"


def good_base(doc: Document) -> bool:
    """Whether an edit of ``doc`` can be read again entry by entry (keep it as the base
    of the next :func:`reparse`)."""
    return _can_splice(doc)


def _can_splice(doc: Document) -> bool:
    ok = doc.derived.get("spliceable")
    if ok is None:
        ok = (
            doc.language == "yaml"
            and isinstance(doc.root, (Mapping, Sequence))
            and not doc.root.flow
            and not doc.entangled
            and all(d.code in _LOCAL for d in doc.problems)
            and not any(c in doc.text for c in _OTHER_BREAKS)
            and _DIRECTIVE.search(doc.text) is None  # %TAG handles a piece would not have
            and LONE_SURROGATE.search(doc.text) is None
        )
        doc.derived["spliceable"] = ok
    return bool(ok)


def changed(old: str, new: str) -> tuple[int, int, int]:
    """``(p, old_end, new_end)``: ``old[p:old_end]`` became ``new[p:new_end]``, the rest
    is the same (compared a chunk at a time, in C)."""
    n = min(len(old), len(new))
    p = 0
    while p < n and old[p : p + _CHUNK] == new[p : p + _CHUNK]:
        p += _CHUNK
    p = min(p, n)
    while p < n and old[p] == new[p]:
        p += 1
    # the common end, not overlapping the common beginning
    limit = n - p
    lo, ln = len(old), len(new)
    s = 0
    while s + _CHUNK <= limit and old[lo - s - _CHUNK : lo - s] == new[ln - s - _CHUNK : ln - s]:
        s += _CHUNK
    while s < limit and old[lo - s - 1] == new[ln - s - 1]:
        s += 1
    return p, lo - s, ln - s


class _Level:
    """One block collection on the way down to the edit: the entry that holds it and
    the lines of that entry, [start, end) in the previous text."""

    __slots__ = ("node", "index", "start", "end", "depth", "column")

    def __init__(self, node: Any, index: int, start: int, end: int, depth: int, column: int):
        self.node, self.index, self.start, self.end = node, index, start, end
        self.depth, self.column = depth, column


def _splice(old: Document, text: str, consume: bool) -> Document | None:
    p, oe, ne = changed(old.text, text)
    root: Any = old.root
    if not consume:
        root = _copy(root, Shifts())  # the previous document keeps its own tree
    elif root._shifts is None:
        _adopt(root, Shifts())  # the first edit of a tree read whole
    levels: list[_Level] = []
    node: Any = root
    start, end, depth = 0, len(old.text), 0
    while isinstance(node, (Mapping, Sequence)) and not node.flow:
        level = _entry(old, node, start, end, p, oe, depth)
        if level is None:
            break
        levels.append(level)
        node = node.pairs[level.index][1] if isinstance(node, Mapping) else node.items[level.index]
        start, end, depth = level.start, level.end, depth + 1
    for at in range(len(levels) - 1, -1, -1):
        got = _again(old, text, levels, at, p, oe, ne, consume)
        if got is not None:
            return got
    return None


def _entry(
    doc: Document, coll: Any, lo: int, hi: int, p: int, oe: int, depth: int
) -> _Level | None:
    """The entry of ``coll`` whose lines hold the change [p, oe), or None."""
    lines, text = doc.lines, doc.text
    is_map = isinstance(coll, Mapping)
    entries: list[Any] = coll.pairs if is_map else coll.items
    if not entries:
        return None

    def start_of(j: int) -> int:  # a few offsets read, not every entry's (each may catch up)
        e = entries[j]
        return int(e[0].start if is_map else e.start)

    n = len(entries)
    first = lines.line_start(lines.position(coll.start).line)
    column = coll.start - first
    key = (lambda e: e[0].start) if is_map else (lambda e: e.start)
    i = bisect_right(entries, p, key=key) - 1
    if i + 1 < n and _line_of(lines, start_of(i + 1)) <= p:
        i += 1
    if i < 0:
        i = 0
    rs = _line_of(lines, start_of(i))
    re = _line_of(lines, start_of(i + 1)) if i + 1 < n else hi
    if not (rs >= lo and rs + column <= p and oe <= re and (p < re or re == len(text))):
        # (an edit before the entry's first token moves where the entry before it ends:
        # libyaml ends a block collection at the next token)
        return None
    for at in (rs, re if i + 1 < n else None):
        if at is None:
            continue
        if text[at : at + column].strip(" ") or not _opens(text, at + column, is_map):
            return None
    if is_map and start_of(i) != rs + column:
        return None
    return _Level(coll, i, rs, re, depth, column)


def _line_of(lines: LineIndex, offset: int) -> int:
    return lines.line_start(lines.position(offset).line)


def _opens(text: str, at: int, is_map: bool) -> bool:
    """Whether an entry begins at ``at``: a key (not ``?``), or ``-`` and a space."""
    ch = text[at : at + 1]
    if is_map:
        return ch not in ("", " ", "-", "?", "#", "\n", "\r")
    return ch == "-" and text[at + 1 : at + 2] in (" ", "\n", "\r", "")


def _again(
    old: Document,
    text: str,
    levels: list[_Level],
    at: int,
    p: int,
    oe: int,
    ne: int,
    consume: bool,
) -> Document | None:
    """The document with the entry of ``levels[at]`` read again, or None (then nothing
    of ``old`` has moved: every check comes before the first move)."""
    level = levels[at]
    delta = ne - oe
    piece = _piece(text, level.start, level.end + delta)
    if piece is None:
        return None
    read = _read_alone(piece, level)
    if read is None:
        return None
    reader, sub = read
    fresh: list[Any] = sub.pairs if isinstance(sub, Mapping) else sub.items
    if not fresh or not _fits(levels, at, fresh):
        return None
    # every check is made: from here the nodes move
    node, removed = _entry_again(level, fresh, delta)
    made = _ancestors_again(levels, at, node, delta)
    where = (level.start, len(piece), _next_token(text, level.end + delta))
    _move(level.node._shifts, oe, delta, made, fresh, isinstance(sub, Mapping), where)
    problems = [d for d in old.problems if d.start < level.start]
    problems += [_shift(d, level.start) for d in reader.problems]
    problems += [_shift(d, delta) for d in old.problems if d.start >= level.end]
    problems.sort(key=Diagnostic.sort_key)
    doc = Document(
        text,
        old.lines.edited(text, p, oe, ne),
        made[-1],
        problems,
        "yaml",
        old.node_count - removed + reader.count - 1,
    )
    doc.derived["spliceable"] = True
    doc.derived["spliced"] = True
    return doc


def _piece(text: str, rs: int, new_re: int) -> str | None:
    """The entry's lines in the new text, ``text[rs:new_re]``, when they can be read
    alone: they end at a line's end, and hold no character, marker or explicit key that
    means something else in the whole text."""
    if new_re <= rs or (new_re < len(text) and text[new_re - 1] not in "\n\r"):
        return None  # the entry's lines end inside a line now (a line break was taken out)
    piece = text[rs:new_re]
    if any(c in piece for c in _OTHER_BREAKS) or LONE_SURROGATE.search(piece):
        return None
    if _MARKER.search(piece) or _LONE_CR.search(piece) or _EXPLICIT_KEY.search(piece):
        # a document marker or directive means what it means in the whole text; a lone
        # \r is a line break to libyaml, not to the marker search; an explicit key (`?`)
        # places its empty value by what follows
        return None
    return piece


def _read_alone(piece: str, level: _Level) -> tuple[TreeReader, Any] | None:
    """The entry's lines read alone (its nodes: on no Shifts yet), and the collection
    they make, when it is one more entry of the same kind at the same column, read as
    it would be in the whole text (no error, anchor, alias, merge key or dropped pair)."""
    reader = TreeReader(piece, LineIndex(piece), "yaml")
    reader.depth_base = level.depth
    try:
        sub = reader.build()
    except (yaml.YAMLError, Abort, RecursionError):
        return None
    if (
        reader.entangled
        or any(d.code not in _LOCAL for d in reader.problems)
        or type(sub) is not type(level.node)
        or sub.flow
        or sub.start != level.column
        or _opening(sub, piece) != sub.start
    ):
        # (the entry's first token stays where it was, on the first line: the entry
        # before it ends there, as libyaml ends a block collection at the next token)
        return None
    return reader, sub


def _fits(levels: list[_Level], at: int, fresh: list[Any]) -> bool:
    """Whether the entries read alone take the old entry's place as the whole reading
    would: every old offset at or after the edit's end moves by the edit's length and the
    ancestors get new ends (an end inside the entry's lines, such as a root closed by
    `...` there, may mean something else now), and no key repeats a sibling's (the whole
    reading says where)."""
    level = levels[at]
    if any(lv.node.end < level.end for lv in levels[: at + 1]):
        return False
    coll = level.node
    if isinstance(coll, Mapping):
        names = [k.value for k, _ in fresh]
        index = dict(coll.index)
        for k, _ in coll.pairs[level.index : level.index + 1]:
            index.pop(k.value, None)
        if len(set(names)) < len(names) or any(n in index for n in names):
            return False
    return True


def _entry_again(level: _Level, fresh: list[Any], delta: int) -> tuple[Any, int]:
    """``level.node`` with its entry replaced by ``fresh`` (where the collection starts
    stays: its first token is where it was), and how many nodes the old entry held."""
    coll, i = level.node, level.index
    if isinstance(coll, Mapping):
        pairs = coll.pairs[:i] + fresh + coll.pairs[i + 1 :]
        index = {k.value: j for j, (k, _) in enumerate(pairs)}
        removed = sum(_count(k) + _count(v) for k, v in coll.pairs[i : i + 1])
        return Mapping(coll.start, coll.end + delta, pairs, index, False), removed
    items = coll.items[:i] + fresh + coll.items[i + 1 :]
    return Sequence(coll.start, coll.end + delta, items, False), _count(coll.items[i])


def _ancestors_again(levels: list[_Level], at: int, node: Any, delta: int) -> list[Any]:
    """``node`` and each collection above ``levels[at]`` made again around it, up to the
    new root (the last)."""
    made = [node]
    for up in range(at - 1, -1, -1):
        node = _replace(levels[up], node, delta)
        made.append(node)
    return made


def _move(
    shifts: Shifts,
    oe: int,
    delta: int,
    made: list[Any],
    fresh: list[Any],
    pairs: bool,
    piece: tuple[int, int, int],
) -> None:
    """The edit (``delta`` characters at ``oe``) written once on the tree's ``shifts``:
    every node after it moves, applied when one is read. The collections ``made`` again
    go on the shifts, the new entries (``fresh``: ``pairs`` of a mapping, or items) at
    their place in the new text (``piece``: where their text starts, its length, where
    the next token after it starts); too many edits owed, every node is caught up."""
    if delta:
        shifts.edits.append((oe, delta))
    v = len(shifts.edits)
    for n in made:
        n._shifts, n._v = shifts, v
    rs, size, tail = piece
    for entry in fresh:
        for n in entry if pairs else (entry,):
            _place(n, rs, size, tail, shifts, v)
    if len(shifts.edits) > MAX_PENDING:
        _adopt(made[-1], Shifts())  # every node caught up, on a new, empty list


def _opening(sub: Any, piece: str) -> int:
    """Where the piece's first entry begins: its first key, or its first ``-``. A
    collection that starts elsewhere (a tag or an anchor written before its first entry)
    is the piece's own, not the document's: it is not read alone."""
    if isinstance(sub, Mapping):
        return int(sub.pairs[0][0].start) if sub.pairs else -1
    return sub.start if piece[sub.start : sub.start + 1] == "-" else -1


def _replace(level: _Level, child: Any, delta: int) -> Any:
    """``level.node`` with its entry ``level.index`` holding ``child``, ``delta``
    characters longer (its later entries move with the tree's :class:`Shifts`)."""
    coll, i = level.node, level.index
    if isinstance(coll, Mapping):
        k, _ = coll.pairs[i]
        pairs = coll.pairs[:i] + [(k, child)] + coll.pairs[i + 1 :]
        return Mapping(coll.start, coll.end + delta, pairs, coll.index, False)
    items = coll.items[:i] + [child] + coll.items[i + 1 :]
    return Sequence(coll.start, coll.end + delta, items, False)


def _next_token(text: str, at: int) -> int:
    """Where the first token at or after ``at`` (a line start) begins: blank lines and
    comments skipped; the end of the text when there is none."""
    n = len(text)
    i = at
    while i < n:
        ch = text[i]
        if ch in " \t\r\n":
            i += 1
        elif ch == "#":
            nl = text.find("\n", i)
            i = n if nl < 0 else nl + 1
        else:
            return i
    return n


def _place(node: Any, base: int, end_of_piece: int, tail: int, shifts: Shifts, v: int) -> None:
    """Move a freshly read node (not shared with any document) from the piece's offsets
    to the text's, on the tree's ``shifts``. A block collection the piece's end closed is
    closed in the text by the next token after it (libyaml's end mark)."""
    for n in iter_nodes(node):
        closed = type(n) is not Scalar and not n.flow and n._e == end_of_piece
        n._s, n._e = n._s + base, tail if closed else n._e + base
        n._shifts, n._v = shifts, v


def _adopt(node: Any, shifts: Shifts, v: int = 0) -> None:
    """``node`` and everything under it on ``shifts`` (``v`` of its edits applied), their
    offsets caught up first."""
    for n in iter_nodes(node):
        s, e = n.start, n.end  # caught up with the list they were on
        n._s, n._e, n._shifts, n._v = s, e, shifts, v


def _copy(node: Any, shifts: Shifts) -> Any:
    """A copy of ``node`` and everything under it, on ``shifts``."""
    cls = type(node)
    if cls is Scalar:
        out: Any = Scalar(node.start, node.end, node.value, node.style, node.tag)
    elif cls is Mapping:
        pairs = [(_copy(k, shifts), _copy(v, shifts)) for k, v in node.pairs]
        out = Mapping(node.start, node.end, pairs, node.index, node.flow)
    else:
        out = Sequence(node.start, node.end, [_copy(i, shifts) for i in node.items], node.flow)
    out._shifts = shifts
    return out


def _count(node: Node) -> int:
    return sum(1 for _ in iter_nodes(node))


def _shift(d: Diagnostic, delta: int) -> Diagnostic:
    if delta == 0:
        return d
    return Diagnostic(d.code, d.severity, d.message, d.start + delta, d.end + delta, d.data)
