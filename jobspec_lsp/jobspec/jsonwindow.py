"""Completion in a big JSON document without reading the whole text again (issue 26).

Completion in JSON repairs the cursor's line and reads the repaired text as YAML flow
(``context._json_context``): 134 ms for a 1 MB document indented, 0.5 s on one line.
:func:`window` builds a stand-in for that repaired text: the same characters, except
that each value beside the cursor's containers that is an object or an array is written
``{}`` or ``[]``, and the items of a list after the one holding the cursor are left out.
What reading it finds at the marker is what reading the whole repaired text finds: the
same path (with the same keys and list indices), the same keys beside the cursor, and
the same scalars on the way (a vertex's ``type``, the ``version``), kept as written.

The text is walked as JSON from its start: up to the cursor, each value is skipped by
the standard library's JSON decoder (in C) unless it holds the cursor; after the
cursor, the rest is walked the same way to the end, so that a mistake anywhere still
sends the caller to the whole reading. The walk takes what YAML flow takes beyond JSON
where a repair leaves it (a key with no value), and says where the repaired text has no
cursor to find at all. What a JSON reader accepts and a YAML reader refuses, or reads
otherwise, is looked for first (:func:`_plain`, :func:`_shallow`); any doubt gives
None, and the caller reads the whole text.

The top-level values left out are kept as decoded (:attr:`Window.top`), so that the slot
labels and the resource types of the whole document can still be offered
(:func:`slot_labels`, :func:`types_in_slot`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jobspec_lsp.jobspec.document import MAX_DEPTH

_WS = re.compile(r"[ \t\n\r]*")
# characters a YAML reader refuses or reads as line breaks (JSON takes them in strings)
_ODD = re.compile(
    "[^\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
)
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")  # libyaml refuses these escapes
# in the reversed text, a key a YAML reader does not take as one (it looks 1024
# characters back for a key): the colon on a later line or far after the key; a key of
# 120 characters or more, or with an escaped quote in its last 120 (or a colon in a
# string that looks so: that only costs the whole reading)
_ODD_KEY = re.compile(r':(?:[ \t\r]*[\r\n]|[ \t]{200}|[ \t]*"(?:[^"]{120}|[^"]{0,119}"\\))')
_OPEN = object()  # a top-level entry holding the cursor (not read whole)


def _blanks(text: str, pos: int, limit: int | None = None) -> int:
    """Where the JSON whitespace from ``pos`` ends (at ``limit`` at the latest)."""
    m = _WS.match(text, pos, len(text) if limit is None else limit)
    assert m is not None  # the pattern matches the empty string
    return m.end()


def _yaml_number(text: str) -> Any:
    """A JSON number with a fraction or an exponent, as YAML 1.1 reads it unquoted: a
    float when it has a point and an exponent (if any) with a sign, else a string."""
    if "." in text and not re.search(r"[eE][0-9]", text):
        return float(text)
    return text


# JSON values as the YAML reader gives them (``NaN`` and ``1e5`` are strings there)
_DECODER = json.JSONDecoder(parse_float=_yaml_number, parse_constant=str)
# a JSON string from after its opening quote: (its value, the offset after it)
_scan: Callable[[str, int], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]


@dataclass
class Window:
    """The stand-in for the repaired text, and the top-level entries read whole. No
    text: reading the repaired text finds no cursor (the marker is inside a string or a
    plain scalar, or the text does not parse there), and nothing is offered."""

    text: str | None
    top: dict[str, Any] = field(default_factory=dict)


def _plain(text: str) -> bool:
    """Whether the complete values of ``text`` can be left out unread by the YAML reader:
    no character it refuses, no escape it refuses, no key it would not take as one."""
    if text.isascii():
        if "\x7f" in text:
            return False
    elif _ODD.search(text):
        return False
    if "\\u" in text and _SURROGATE.search(text):
        return False
    return _ODD_KEY.search(text[::-1]) is None


def _shallow(text: str, pos: int, end: int, depth: int) -> bool:
    """Whether the complete JSON object or array ``text[pos:end]``, inside ``depth``
    others, nests less deep than the YAML reader allows. The brackets in its text bound
    how deep it goes; past that bound, each value in it is looked at in turn."""
    if depth + text.count("[", pos, end) + text.count("{", pos, end) < MAX_DEPTH:
        return True
    if depth + 1 >= MAX_DEPTH:
        return False
    i = pos + 1
    while True:
        i = _blanks(text, i)
        ch = text[i]
        if ch in "]}":
            return True
        if ch in ",:":
            i += 1
        elif ch == '"':
            i = _scan(text, i + 1)[1]
        else:
            e = _DECODER.raw_decode(text, i)[1]
            if ch in "{[" and not _shallow(text, i, e, depth + 1):
                return False
            i = e


def window(text: str, at: int, resume: int, insert: str, as_key: bool) -> Window | None:
    """The stand-in for ``text[:at] + insert + text[resume:]`` (``insert`` is the marker,
    as a key ``MARKER: x`` when ``as_key``, maybe with a comma after it), or None when it
    cannot be built: the walk finds what JSON does not allow, or the marker goes where
    this does not follow it (the caller then reads the whole repaired text).

    Beside the cursor's containers, the values left out become ``{}`` or ``[]``; the
    items of a list after the one holding the cursor are left out altogether."""
    if not _plain(text):
        return None
    top: dict[str, Any] = {}
    cuts: list[tuple[int, int, str]] = []  # (start, end, stand-in) in ``text``, in order
    stack: list[list[Any]] = []  # [an object?, its last key, where its left-out tail starts]
    pos = _blanks(text, 0)
    if pos >= at or text[pos] not in "{[":
        return None
    stack.append([text[pos] == "{", None, None])
    state, close_ok, pos = ("key" if text[pos] == "{" else "value"), True, pos + 1
    before, limit, n = True, at, len(text)  # walking up to the cursor; then after it
    while True:
        pos = _blanks(text, pos, limit)
        if before and pos >= at:
            # the marker goes here: only where the caller's repair puts it
            obj = stack[-1][0]
            if state == "comma":
                # right after a value: YAML reads the marker as more of that value (a
                # plain scalar) or refuses the text; either way it is no node
                return Window(None)
            if state != ("key" if obj and as_key else "value"):
                return None
            if len(stack) == 1 and obj and state == "value":
                top[stack[-1][1]] = _OPEN
            comma = insert.endswith(",")
            state, close_ok = ("key" if obj else "value") if comma else "comma", comma
            before, pos, limit = False, resume, n
            continue
        if pos >= n:
            return None  # the text ends inside a container
        ch = text[pos]
        frame = stack[-1]
        obj = frame[0]
        if state == "colon" or state == "alone":
            if ch == ":" and state == "colon":
                state, pos = "value", pos + 1
                continue
            if ch != "," and ch != ("}" if obj else "]"):
                return None
            # a key with no value (YAML reads it with an empty one): what a value left
            # after the cursor is when the repair puts the marker before it
            if state == "colon" and len(stack) == 1:
                top[frame[1]] = None
            state = "comma"
            continue
        if (state == "comma" or close_ok) and ch == ("}" if obj else "]"):
            if frame[2] is not None:  # the items after the cursor's: left out
                while cuts and cuts[-1][0] >= frame[2]:
                    cuts.pop()
                cuts.append((frame[2], pos, ""))
            stack.pop()
            pos += 1
            if not stack:
                # the top level closes: nothing may follow (before the cursor: no cursor)
                if before or _blanks(text, pos) != n:
                    return None
                break
            if not before and not stack[-1][0] and stack[-1][2] is None:
                stack[-1][2] = pos
            state, close_ok = "comma", False
            continue
        if ch == ":" and (state == "key" or (state == "value" and not obj)):
            return Window(None)  # a colon where an entry starts: YAML refuses the text
        if state == "comma":
            if ch != ",":
                return None
            state, close_ok, pos = ("key" if obj else "value"), False, pos + 1
            continue
        if ch == '"':
            try:
                value, end = _scan(text, pos + 1)
            except ValueError as exc:
                # unterminated, or broken after the cursor: the cursor is in the string
                if before and (getattr(exc, "pos", 0) >= at or "Unterminated" in str(exc)):
                    return Window(None)
                return None
            if before and end > at:
                return Window(None)  # the marker lands inside a string
            if state == "key":
                frame[1], state, pos = value, "colon", end
                continue
        else:
            try:
                value, end = _DECODER.raw_decode(text, pos)
            except json.JSONDecodeError as exc:
                if before and ch in "{[" and exc.pos >= at:
                    end = n  # open at the cursor: read into it
                else:
                    return None
            except (ValueError, RecursionError):
                return None
            if before and end > at:
                if ch not in "{[" or state == "key":
                    return None
                if len(stack) == 1 and obj:
                    top[frame[1]] = _OPEN
                stack.append([ch == "{", None, None])
                state, close_ok = ("key" if ch == "{" else "value"), True
                pos += 1
                continue
            if ch in "{[":
                if not _shallow(text, pos, end, len(stack)):
                    return None
                if end - pos > 2:
                    cuts.append((pos, end, "{}" if ch == "{" else "[]"))
            if state == "key":  # a key that is no string: taken alone or not at all
                state, close_ok, pos = "alone", False, end
                continue
        if len(stack) == 1 and obj:
            top[frame[1]] = value
        state, close_ok, pos = "comma", False, end
    parts, last, placed = [], 0, False
    for start, end, stand_in in cuts:
        if not placed and start >= at:
            parts += [text[last:at], insert]
            last, placed = resume, True
        parts += [text[last:start], stand_in]
        last = end
    if not placed:
        parts += [text[last:at], insert]
        last = resume
    parts.append(text[last:])
    return Window("".join(parts), top)


def _vertices(resources: Any) -> list[tuple[Any, Any, Any]]:
    """(type, label, children) of each resource vertex, in the order the resource model
    lists them (each before those it holds), as the structure rules read them."""
    out: list[tuple[Any, Any, Any]] = []
    if not (type(resources) is list and resources):
        return out
    stack = [iter(resources)]
    while stack:
        item = next(stack[-1], _OPEN)
        if item is _OPEN:
            stack.pop()
            continue
        if type(item) is not dict:
            continue
        kind, label = item.get("type"), item.get("label")
        kind = kind if isinstance(kind, str) and kind else None
        label = label if isinstance(label, str) else None
        below = item.get("with")
        children = below if type(below) is list and below else []
        out.append((kind, label, children))
        if children:
            stack.append(iter(children))
    return out


def slot_labels(resources: Any) -> tuple[str, ...]:
    """The labels of the slots among ``resources`` (read whole), each once."""
    got = (label for kind, label, _ in _vertices(resources) if kind == "slot")
    return tuple(dict.fromkeys(label for label in got if label is not None))


def types_in_slot(resources: Any, label: str) -> tuple[str, ...]:
    """The resource types in the first slot labelled ``label``, each once."""
    for kind, got, children in _vertices(resources):
        if kind == "slot" and got == label:
            inside = [t for t, _, _ in _vertices(children)]
            return tuple(dict.fromkeys(t for t in inside if t))
    return ()
