"""Where is the cursor in the jobspec?  Paths, nodes at offsets, and the
context for completion — also while the document is mid-edit and does not parse.

Paths are tuples of mapping keys and sequence indices from the root, e.g.
``("resources", 0, "with", 1, "count")``.  :func:`kind_of` names what a path
points at ("vertex", "task.count", "system", ...), the vocabulary shared by
completion, hover and the docs.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass, field
from typing import Any

from jobspec_lsp.jobspec import jsonwindow, yamlwindow
from jobspec_lsp.jobspec.document import MAX_CHARS, parse
from jobspec_lsp.jobspec.tree import Document, Mapping, Node, Scalar, Sequence
from jobspec_lsp.text.brackets import open_brackets

MARKER = "jslsp_cursor_marker"


# --------------------------------------------------------------------------- paths
# What a mapping is, by its path: the path written as words, an index as "#" (a key
# that is empty, "#" or holds "/" is none of the names below: it matches a wildcard only).
_NAMED = {
    "": "root",
    "tasks/#": "task",
    "tasks/#/count": "task.count",
    "tasks/#/count/per_resource": "task.count.per_resource",
    "tasks/#/attributes": "task.attributes",
    "attributes": "attributes",
    "attributes/system": "system",
    "attributes/user": "user",
    "attributes/system/dependencies/#": "dependency",
    "attributes/system/shell": "shell",
    "attributes/system/shell/options": "shell.options",
    "attributes/system/environment": "environment",
    "attributes/system/job": "job",
}
_PATTERNS = [
    (re.compile(r"resources/#(?:/with/#)*"), "vertex"),
    (re.compile(r"resources/#(?:/with/#)*/count"), "count"),
    (re.compile(r"attributes/system/constraints(?:/[^/]*/#)*"), "constraint"),
    (re.compile(r"attributes/system/files/[^/]*"), "file"),
]


def kind_of(path: tuple[Any, ...]) -> str | None:
    """What a mapping at ``path`` is, in the docs' vocabulary."""
    words = []
    for p in path:
        if isinstance(p, int) and not isinstance(p, bool):
            words.append("#")
        elif not isinstance(p, str) or p in ("", "#") or "/" in p:
            words.append("\0")  # no name above: matches nothing but a wildcard
        else:
            words.append(p)
    return _kind_of_words("/".join(words))


@functools.lru_cache(maxsize=1024)
def _kind_of_words(text: str) -> str | None:
    kind = _NAMED.get(text)
    if kind is None:
        kind = next((k for pattern, k in _PATTERNS if pattern.fullmatch(text)), None)
    return kind


def node_at(doc: Document, offset: int) -> Any:
    """The innermost node whose source contains ``offset``, as
    (path, node, role) with role "key" (the node is a mapping key; path
    includes that key), "value" or "item"; or (None, None, None)."""
    root = doc.root
    if root is None:
        return None, None, None
    path: tuple[Any, ...] = ()
    node = root
    role = "value"
    depth = 0
    while depth < 300:
        depth += 1
        if isinstance(node, Mapping):
            nxt = None
            for k, v in node.pairs:
                if k.start <= offset <= k.end and k.end > k.start:
                    return path + (k.value,), k, "key"
                if v.start <= offset <= v.end and (v.end > v.start or offset == v.start):
                    nxt = (k.value, v)
                    break
            if nxt is None:
                return path, node, role
            path, node, role = path + (nxt[0],), nxt[1], "value"
        elif isinstance(node, Sequence):
            nxt = None
            for i, item in enumerate(node.items):
                if item.start <= offset <= item.end:
                    nxt = (i, item)
                    break
            if nxt is None:
                return path, node, role
            path, node, role = path + (nxt[0],), nxt[1], "item"
        else:
            return path, node, role
    return path, node, role


def node_at_path(root: Node | None, path: tuple[Any, ...]) -> Node | None:
    node = root
    for step in path:
        if isinstance(node, Mapping) and not isinstance(step, int):
            node = node.get(step)
        elif isinstance(node, Sequence) and isinstance(step, int) and step < len(node.items):
            node = node.items[step]
        else:
            return None
    return node


# --------------------------------------------------------------------------- completion context
@dataclass
class Cursor:
    """What the user is typing at the cursor."""

    path: tuple[Any, ...]  # the mapping (for keys) or the mapping holding the key (for values)
    on: str  # "key", "value" (of ``key``), "item" (a sequence item), "empty"
    key: str | None = None  # the key whose value is typed, for on == "value"
    prefix: str = ""  # the partial word before the cursor
    start: int = 0  # offsets of the word to replace
    end: int = 0
    present: set[Any] = field(default_factory=set)  # keys already in the mapping
    doc: Document | None = None  # the (repaired) document, for labels and types
    block: bool = True  # block context (not inside [] or {})
    indent: int = 0  # column where a new key at the cursor starts
    json: bool = False  # a JSON document: insert JSON text
    # a big document is read around the cursor only (``doc`` holds that part): at a
    # task's slot, the slot labels of the whole text; at a per_resource type, the types in
    # the task's slot, as the whole text has them (yamlwindow, jsonwindow); elsewhere both
    # empty. None: ``doc`` is the whole document, read them from it
    labels: tuple[str, ...] | None = None
    types: tuple[str, ...] | None = None


_WORD = re.compile(r"[A-Za-z0-9_\-.+*^/]*\Z")


def _word_start(before: str) -> int:
    """Where the word ending ``before`` starts: looked for in its last 200 characters
    first (searched whole, a one-line JSON document of a megabyte took 10 ms)."""
    tail = max(0, len(before) - 200)
    m = _WORD.search(before, tail)
    if m is None or (tail and m.start() == tail):
        m = _WORD.search(before)
    assert m is not None  # the pattern matches the empty string
    return m.start()


def cursor_context(text: str, offset: int, language: str = "yaml") -> Cursor | None:
    """Completion context at ``offset``; None when nothing sensible can be said."""
    if not text.strip():
        return Cursor((), "empty", start=offset, end=offset)
    line = _cursor_line(text, offset)
    if line is None:
        return None  # in a comment
    start, end, head, prefix, word_start, word_end = line
    if language == "json":
        return _json_context(text, start, end, head, prefix, word_start, word_end)
    repl, block = _repaired_line(head)
    repaired = text[:start] + repl + text[end:]
    if block and len(repaired) > WINDOW_FROM:
        got = _windowed(repaired, start, language, head, prefix, word_start, word_end)
        if got is not None:
            return got
    doc = _read_repaired(repaired, start, language, block)
    if doc.root is None:
        return None
    indent = len(head) - len(head.lstrip(" -")) if block else 0
    if block and head.lstrip().startswith("-"):
        indent = len(head)
    return _at_marker(
        doc, Cursor((), "", None, prefix, word_start, word_end, set(), doc, block, indent)
    )


def _cursor_line(text: str, offset: int) -> tuple[int, int, str, str, int, int] | None:
    """The cursor's line and word: (where the line starts, where it ends, the line before
    the word, the word before the cursor, where the word starts, where it ends); None
    when the cursor is in a comment."""
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset)
    if line_end == -1:
        line_end = len(text)
    before = text[line_start:offset]
    if "#" in before and _in_comment(before):
        return None
    at = _word_start(before)
    rest = text[offset:line_end]
    wm = re.match(r"[A-Za-z0-9_\-.+*^/]*", rest)
    word_end = offset + (wm.end() if wm else 0)
    return line_start, line_end, before[:at], before[at:], line_start + at, word_end


def _repaired_line(head: str) -> tuple[str, bool]:
    """The cursor's line repaired so that the text reads with the marker where the word
    is: a key ``MARKER: x`` or a value ``MARKER``, the flow collections open before it
    closed; and whether the cursor is in block context (not inside [] or {})."""
    openers = [head[i] for i in open_brackets(head)]
    if openers:
        last = openers[-1]
        after_open = head[head.rfind(last) + 1 :] if last in head else head
        seg = re.split(r"[,{\[]", after_open)[-1]
        on_value = ":" in seg if last == "{" else True
        closers = "".join("}" if o == "{" else "]" for o in reversed(openers))
        if last == "{" and not on_value:
            return head + MARKER + ": x" + closers, False
        return head + MARKER + closers, False
    stripped = head.lstrip()
    body = re.sub(r"^(-\s+)+", "", stripped)
    on_value = bool(re.search(r":(\s|$)", body)) or body.rstrip().endswith(":")
    if on_value:
        return head + MARKER, True
    return head + MARKER + ": x", True


def _read_repaired(repaired: str, line_start: int, language: str, block: bool) -> Document:
    """The repaired text read; when another line is broken too (block context), the
    top-level sections that do not parse left out, else only the cursor line's ancestors
    (by indentation) kept."""
    doc = parse(repaired, language)
    if doc.root is None and block:
        for narrowed in (
            _without_broken_sections(repaired, line_start),
            _ancestors(repaired, line_start),
        ):
            if narrowed is not None:
                doc = parse(narrowed, language)
                if doc.root is not None:
                    break
    return doc


WINDOW_FROM = 100_000  # characters: a bigger block document is read around the cursor


def _windowed(
    repaired: str, line_start: int, language: str, head: str, prefix: str, start: int, end: int
) -> Cursor | None:
    """The cursor of a big block document, read from the lines that decide it: the
    top-level lines, the cursor line's ancestors, and the keys of the mapping it is in
    (not their nested blocks). Reading a 1 MB document whole for each completion took
    about 300 ms; this reads a few dozen lines (what it costs is walking back to the
    section's start). None when that part does not parse (the caller reads it whole)."""
    lines = _window_lines(repaired, line_start)
    if lines is None:
        return None
    doc = parse("".join(lines), language)
    if doc.root is None:
        return None
    indent = len(head) - len(head.lstrip(" -"))
    if head.lstrip().startswith("-"):
        indent = len(head)
    where = Cursor((), "", None, prefix, start, end, set(), doc, True, indent, False, (), ())
    cur = _at_marker(doc, where)
    if cur is None or cur.on != "value":
        return cur
    # what completion offers there is elsewhere in the text: read from its lines
    kind = kind_of(cur.path)
    if kind == "task" and cur.key == "slot":
        labels = yamlwindow.slot_labels(repaired)
        return None if labels is None else dataclasses.replace(cur, labels=labels)
    if kind == "task.count.per_resource" and cur.key == "type":
        slot = yamlwindow.task_slot(repaired, line_start)
        types = None if slot is None else yamlwindow.types_in_slot(repaired, slot)
        return None if types is None else dataclasses.replace(cur, types=types)
    return cur


def _line_at(text: str, start: int) -> tuple[str, int]:
    """The line starting at ``start`` (without its break) and where the next one starts."""
    end = text.find("\n", start)
    return (text[start:], len(text)) if end < 0 else (text[start:end], end + 1)


def _depth(line: str) -> tuple[int, int] | None:
    """(indentation, content column) of a line; None for a blank or comment line. A list
    item's content column is after its dashes."""
    body = line.lstrip(" ")
    if not body or body.startswith("#"):
        return None
    ind = len(line) - len(body)
    rest = body
    while rest.startswith("- ") or rest == "-":
        rest = rest[2:].lstrip(" ")
    return ind, len(line) - len(rest)


def _window_lines(text: str, line_start: int) -> list[str] | None:
    cur, after = _line_at(text, line_start)
    mine = _depth(cur)
    if mine is None or "\t" in text[max(0, line_start - 2000) : line_start + 2000]:
        return None
    level = mine[1] if cur.lstrip(" ").startswith("- ") else mine[0]
    on_value = not cur.rstrip().endswith(MARKER + ": x")  # (a key's block below is its own)
    # the keys of the cursor's mapping after it, up to the end of its block
    below: list[str] = []
    pos, n = after, 0
    while pos < len(text) and n < 2000:
        line, nxt = _line_at(text, pos)
        d = _depth(line)
        if d is not None:
            if not below and d[0] > level and on_value:
                return None  # the cursor's value goes on below it
            if d[0] < level or (d[0] == level and line.lstrip(" ").startswith("- ")):
                break
            if d[0] == level:
                below.append(line + "\n")
        pos, n = nxt, n + 1
    # its keys before it, its ancestors, and every top-level line
    above: list[str] = []
    want, in_block = level, True
    pos = line_start
    while pos > 0:
        begin = text.rfind("\n", 0, pos - 1) + 1
        line = text[begin : pos - 1]
        pos = begin
        d = _depth(line)
        if d is None:
            continue
        ind, content = d
        item = line.lstrip(" ").startswith("- ")
        if ind == 0 and not item:
            above.append(line + "\n")  # top level: a key (its value, when inline)
            in_block = False
            want = 0
            continue
        if in_block and ind == level and not item:
            above.append(line + "\n")  # a key of the cursor's own mapping
        elif in_block and item and content == level:
            above.append(line + "\n")  # the list item the cursor's mapping starts with
            want, in_block = ind, False
        elif ind < want:
            above.append(line + "\n")  # an ancestor
            want = ind
            in_block = False
    return [*reversed(above), cur + "\n", *below]


def _at_marker(doc: Document, where: Cursor) -> Cursor | None:
    """The cursor at the marker of a repaired ``doc``: ``where`` with its path, what it
    is on and the keys already there filled in (a JSON cursor is never on an item)."""
    found = _find_marker(doc.root) if doc.root is not None else None
    if found is None:
        return None
    path, role, mapping = found
    keys = {k.value for k, _ in mapping.pairs} if mapping else set()
    if role == "key":
        return dataclasses.replace(where, path=path, on="key", present=keys - {MARKER})
    if role == "value":
        return dataclasses.replace(where, path=path[:-1], on="value", key=path[-1], present=keys)
    return None if where.json else dataclasses.replace(where, path=path, on="item")


def _json_context(
    text: str,
    line_start: int,
    line_end: int,
    head: str,
    prefix: str,
    word_start: int,
    word_end: int,
) -> Cursor | None:
    """JSON: the line is repaired as a YAML flow entry (JSON is YAML flow syntax, and
    YAML flow collections accept a plain marker and a trailing comma). A document over
    WINDOW_FROM characters is read through a stand-in that leaves out the values not
    holding the cursor (:mod:`.jsonwindow`); what it finds is what the whole text gives."""
    quoted = head.endswith('"')
    if quoted:
        head = head[:-1]
    cut = max(head.rfind(","), head.rfind("{"), head.rfind("["))
    on_value = ":" in head[cut + 1 :]
    at = line_start + len(head)
    resume = word_end + (1 if quoted and text.startswith('"', word_end, line_end) else 0)
    sep = "" if text[resume:line_end].lstrip()[:1] in (",", "}", "]") else ","
    insert = (MARKER if on_value else MARKER + ": x") + sep
    start = word_start - 1 if quoted else word_start
    end = word_end + (1 if quoted and text[word_end : word_end + 1] == '"' else 0)
    where = Cursor((), "", None, prefix, start, end, set(), None, False, 0, json=True)
    # (a text over the reader's limit is read whole: the reader finds no tree in it)
    if WINDOW_FROM < len(text) < MAX_CHARS - len(insert) and MARKER not in text:
        got = jsonwindow.window(text, at, resume, insert, not on_value)
        if got is not None and got.text is None:
            return None  # the repaired text has no marker node (in a string, or broken)
        if got is not None and got.text is not None:
            doc = parse(got.text, "yaml")
            if doc.root is not None:
                return _json_window_cursor(doc, got, where)
    doc = parse(text[:at] + insert + text[resume:], "yaml")
    if doc.root is None:
        return None
    return _at_marker(doc, dataclasses.replace(where, doc=doc))


def _json_window_cursor(doc: Document, got: jsonwindow.Window, where: Cursor) -> Cursor | None:
    """The cursor read from a JSON window, with the slot labels or the resource types
    of the whole document where completion offers them."""
    cur = _at_marker(doc, dataclasses.replace(where, doc=doc, labels=(), types=()))
    if cur is None or cur.on != "value":
        return cur
    kind = kind_of(cur.path)
    resources = got.top.get("resources")
    if kind == "task" and cur.key == "slot":
        return dataclasses.replace(cur, labels=jsonwindow.slot_labels(resources))
    if kind == "task.count.per_resource" and cur.key == "type":
        task = node_at_path(doc.root, cur.path[:2])
        slot = task.get("slot") if isinstance(task, Mapping) else None
        if isinstance(slot, Scalar) and isinstance(slot.value, str):
            return dataclasses.replace(cur, types=jsonwindow.types_in_slot(resources, slot.value))
    return cur


def _sections(text: str) -> list[tuple[int, int]]:
    """(start, end) of each top-level section: a line at column 0 that is not a
    comment, and the indented or blank lines after it."""
    starts = [m.start() for m in re.finditer(r"^(?=[^\s#])", text, re.M)]
    if not starts or starts[0] != 0:
        starts = [0, *starts]
    return list(zip(starts, [*starts[1:], len(text)]))


def _without_broken_sections(text: str, cursor_line: int) -> str | None:
    """``text`` without the top-level sections, other than the cursor's, that do not
    parse on their own; None when there is none to leave out."""
    kept, dropped = [], False
    for a, b in _sections(text):
        if a <= cursor_line < b or parse(text[a:b]).root is not None:
            kept.append(text[a:b])
        else:
            kept.append("\n" * text.count("\n", a, b))  # keep the lines where they were
            dropped = True
    return "".join(kept) if dropped else None


def _ancestors(text: str, cursor_line: int) -> str | None:
    """Only the cursor line and the lines it is nested in (each earlier line with less
    indentation, a list item's first line counting at its content's indentation)."""
    lines = text[:cursor_line].split("\n")[:-1]
    end = text.find("\n", cursor_line)
    cur = text[cursor_line : len(text) if end < 0 else end]
    want = len(cur) - len(cur.lstrip(" "))
    keep = [cur]
    for line in reversed(lines):
        body = line.lstrip(" ")
        if not body or body.startswith("#"):
            continue
        ind = len(line) - len(body)
        content = ind + (len(body) - len(body.lstrip("- ")) if body.startswith("- ") else 0)
        if ind < want or (
            body.startswith("- ") and content == want and not keep[-1].lstrip(" ").startswith("- ")
        ):
            keep.append(line)
            want = ind
            if ind == 0:
                break
    return "\n".join(reversed(keep)) + "\n"


_QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'")
_COMMENT_OR_QUOTE = re.compile(r"(?<![^ \t])#|[\"']")


def _in_comment(before: str) -> bool:
    """Whether a line's text before the cursor holds a comment: a ``#`` at its start or
    after a blank, outside quotes (a quote runs to the same character; no escapes). With
    the quoted parts written ``_`` (no blank), the first ``#`` that starts a comment, or
    quote left open, says."""
    m = _COMMENT_OR_QUOTE.search(_QUOTED.sub("_", before))
    return m is not None and m.group() == "#"


def _find_marker(root: Any) -> Any:
    """(path, role, mapping) of the marker: as a key ("key"), a value ("value"), or an item."""
    stack: list[tuple[tuple[Any, ...], Node, Node | None]] = [((), root, None)]
    while stack:
        path, node, _ = stack.pop()
        if isinstance(node, Mapping):
            for k, v in node.pairs:
                if isinstance(k, Scalar) and k.value == MARKER:
                    return path, "key", node
                if isinstance(v, Scalar) and v.value == MARKER:
                    return path + (k.value,), "value", node
                stack.append((path + (k.value,), v, node))
        elif isinstance(node, Sequence):
            for i, item in enumerate(node.items):
                if isinstance(item, Scalar) and item.value == MARKER:
                    return path + (i,), "item", None
                stack.append((path + (i,), item, node))
    return None
