"""What completion in a big block-YAML jobspec needs from beyond the cursor's window
(issue 26): the slot labels of the whole document, and the resource types in a task's
slot, read from the lines of ``resources`` and of the task, not from a tree of the text.

The window (:func:`jobspec_lsp.jobspec.context._windowed`) reads the lines around the
cursor; a task's ``slot`` value offers every slot label, and a ``per_resource`` type the
types in that task's slot, which are elsewhere. Here the resource vertices are followed
line by line, by indentation, as the structure rules walk them: a vertex is an item of
``resources`` or of a vertex's ``with``; its ``type`` and ``label`` are plain or quoted
words on its own key lines. Whatever these lines cannot show the same as a reading of the
text would (flow collections, anchors, aliases, tags, tabs, block scalars, a value YAML
reads as other than a string, an item of another list) gives None, and the caller reads
the text whole.

Pure: no LSP, no files.
"""

from __future__ import annotations

import functools
import re

from jobspec_lsp.jobspec.yamlvalues import plain_is_string

_RESOURCES = re.compile(r"^resources[ \t]*:[ \t]*(?:#[^\r\n]*)?\r?$", re.M)
_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(?=[ \t]|$)[ \t]*(.*)$")
_PLAIN = re.compile(r"(?:[A-Za-z0-9_.+]|-(?=[0-9.]))[A-Za-z0-9_.+-]*")  # YAML resolves it
_QUOTED = re.compile(r"'([^'\n]*)'|\"([^\"\\\n]*)\"")
_CLOSED = re.compile(r"'(?:[^'\n]|'')*'|\"(?:[^\"\\\n]|\\.)*\"")  # a quoted scalar on one line
_OPAQUE = ("&", "*", "!", "|", ">", "{", "[", "%", "@", "`", "?")  # what these lines cannot follow


def _open(value: str) -> bool:
    """Whether a value goes on over the lines below its own: a quote or a flow
    collection not closed on it."""
    if value[:1] in ("'", '"'):
        return not _CLOSED.match(value)
    if value[:1] in ("{", "["):
        bare = _CLOSED.sub("", value)
        return bare.count("{") + bare.count("[") != bare.count("}") + bare.count("]")
    return False


class _Unsure(Exception):
    """These lines do not show what a reading of the text would."""


def _word(value: str) -> str | None:
    """The string a ``type:`` or ``label:`` value is (None: no string), or _Unsure."""
    body = re.sub(r"[ \t]+#.*$", "", value).rstrip(" \t")
    if not body or body.startswith("#"):
        raise _Unsure  # its value may be on the lines below
    m = _QUOTED.fullmatch(body)
    if m:
        return m.group(1) if m.group(1) is not None else m.group(2)
    if _PLAIN.fullmatch(body):
        return body if plain_is_string(body) else None  # yes, 1e3, null: not strings
    raise _Unsure


class _Vertex:
    __slots__ = ("col", "type", "label", "children", "open", "keys")

    def __init__(self, col: int) -> None:
        self.col = col  # the column of its keys
        self.type: str | None = None
        self.label: str | None = None
        self.children: list[_Vertex] = []
        self.open = ""  # the key whose block the lines below it are in ("": a scalar's)
        self.keys: set[str] = set()


def _vertices(text: str) -> list[_Vertex]:
    """The vertices of the top-level block ``resources``, in document order."""
    found = list(_RESOURCES.finditer(text))
    if len(found) != 1:
        raise _Unsure
    start = found[0].end() + 1
    nxt = _TOP_LEVEL.search(text, start)
    return _block_vertices(text[start : nxt.start() if nxt else len(text)])


_TOP_LEVEL = re.compile(r"^[^ \t\r\n#-]|^-[^ \t\r\n]", re.M)  # a line of the next top-level key


@functools.lru_cache(maxsize=4)
def _block_vertices(block: str) -> list[_Vertex]:
    """The vertices of the lines of ``resources`` (remembered: completion asks again at
    each keystroke in the tasks, and the resources have not changed)."""
    out: list[_Vertex] = []
    stack: list[_Vertex] = []
    top: list[int] = []  # the indentation of the items of resources
    pos = 0
    n = len(block)
    while pos < n:
        nl = block.find("\n", pos)
        end = n if nl < 0 else nl
        line = block[pos:end].rstrip("\r")
        pos = end + 1
        body = line.lstrip(" ")
        if not body or body.startswith("#"):
            continue
        ind = len(line) - len(body)
        if "\t" in line[: ind + 1] or body.startswith(("---", "...")):
            raise _Unsure
        while stack and stack[-1].col > ind:
            stack.pop()
        if body.startswith("- ") or body == "-":
            rest = body[1:].lstrip(" ")
            if not rest or rest.startswith(("-", *_OPAQUE)):
                raise _Unsure
            parent = stack[-1] if stack else None
            if parent is not None and parent.open != "with":
                raise _Unsure  # an item of some other list
            if parent is None and top and top[0] != ind:
                raise _Unsure  # not an item of resources
            top = top or [ind]
            v = _Vertex(ind + len(body) - len(rest))
            (parent.children if parent is not None else out).append(v)
            stack.append(v)
            _key_line(v, rest)
            continue
        if stack and stack[-1].col == ind:
            _key_line(stack[-1], body)
        elif not stack:
            raise _Unsure  # a key of resources itself: not a list
        elif not stack[-1].open:
            raise _Unsure  # a scalar's value going on over the lines below its key
    return _depth_first(out)


def _key_line(v: _Vertex, body: str) -> None:
    m = _KEY.match(body)
    if m is None:
        raise _Unsure
    key, value = m.group(1), m.group(2)
    if key in v.keys or _open(value):
        raise _Unsure  # a key given twice (the last one counts), a value going on below
    v.keys.add(key)
    if key in ("type", "label"):
        word = _word(value)
        if key == "type":
            v.type = word or None  # an empty type is no type
        else:
            v.label = word
        v.open = ""
    elif value.startswith(_OPAQUE[:5]) or key == "<<":
        raise _Unsure
    else:
        v.open = key if not value or value.startswith("#") else ""


def _depth_first(top: list[_Vertex]) -> list[_Vertex]:
    out: list[_Vertex] = []
    stack = list(reversed(top))
    while stack:
        v = stack.pop()
        out.append(v)
        stack.extend(reversed(v.children))
    return out


def slot_labels(text: str) -> tuple[str, ...] | None:
    """The labels of the slot vertices of ``text``, each once, in document order."""
    try:
        vertices = _vertices(text)
    except _Unsure:
        return None
    labels = (v.label for v in vertices if v.type == "slot" and v.label is not None)
    return tuple(dict.fromkeys(labels))


def types_in_slot(text: str, label: str) -> tuple[str, ...] | None:
    """The types under the first slot labelled ``label``, each once, in document order
    (empty: no such slot)."""
    try:
        vertices = _vertices(text)
    except _Unsure:
        return None
    for v in vertices:
        if v.type == "slot" and v.label == label:
            return tuple(dict.fromkeys(d.type for d in _depth_first(v.children) if d.type))
    return ()


def task_slot(text: str, line_start: int) -> str | None:
    """The ``slot`` of the task whose lines hold the line starting at ``line_start`` (the
    nearest list item enclosing it), when the item's own key lines say it as a plain or
    quoted string; None otherwise (the caller reads the text whole)."""
    found = _item_line(text, line_start)
    if found is None:
        return None
    lines, continued = _key_lines(text, *found)
    keys = [_KEY.match(b) for b in lines]
    slots = [(i, m) for i, m in enumerate(keys) if m is not None and m.group(1) == "slot"]
    if len(slots) != 1 or slots[0][0] in continued:
        return None
    if any(m is not None and _open(m.group(2)) for m in keys):
        return None  # a value over several lines: a line of it may look like a key
    try:
        return _word(slots[0][1].group(2))
    except _Unsure:
        return None


def _item_line(text: str, line_start: int) -> tuple[int, int] | None:
    """Where the list item enclosing the line at ``line_start`` starts (the nearest line
    above it, less indented, that starts with ``- ``) and the column of its ``-``."""
    nl = text.find("\n", line_start)
    first = text[line_start : nl if nl >= 0 else len(text)]
    limit = len(first) - len(first.lstrip(" "))
    pos = line_start
    while pos > 0:
        begin = text.rfind("\n", 0, pos - 1) + 1
        line = text[begin : pos - 1].rstrip("\r")
        pos = begin
        body = line.lstrip(" ")
        ind = len(line) - len(body)
        if not body or body.startswith("#") or ind >= limit:
            continue
        limit = ind  # an ancestor of the line: its item is further up, or it is the item
        if body.startswith("- "):
            return begin, limit
    return None


def _key_lines(text: str, item: int, limit: int) -> tuple[list[str], set[int]]:
    """The item's own key lines (the first one's, after its ``- ``, and each below at the
    same column, until a line at ``limit`` or less indented), and which of them have
    deeper lines below them (their value may go on over those)."""
    nl = text.find("\n", item)
    end = len(text) if nl < 0 else nl
    head = text[item:end].rstrip("\r")[limit + 2 :]
    col = limit + 2 + len(head) - len(head.lstrip(" "))
    lines = [head.lstrip(" ")]
    below = False  # a line below the last key line, deeper than the keys
    continued = set()  # the lines whose value may go on over the lines below
    while end < len(text):
        nl = text.find("\n", end + 1)
        line = text[end + 1 : len(text) if nl < 0 else nl].rstrip("\r")
        end = len(text) if nl < 0 else nl
        body = line.lstrip(" ")
        if not body or body.startswith("#"):
            continue
        ind = len(line) - len(body)
        if ind <= limit:
            break
        if ind == col:
            lines.append(body)
        elif ind > col and not below:
            continued.add(len(lines) - 1)
            below = True
            continue
        below = ind > col
    return lines, continued
