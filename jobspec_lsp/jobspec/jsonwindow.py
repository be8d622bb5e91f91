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

from jobspec_lsp.jobspec.problems import MAX_DEPTH

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
    pos = _blanks(text, 0)
    if pos >= at or text[pos] not in "{[":
        return None
    return _Walk(text, at, resume, insert, as_key, pos).run()


class _Walk:
    """The walk over the text's tokens, from its start to its end (the marker placed on
    the way): a frame for each container open at the cursor, the values beside them
    left out (``cuts``), the top-level entries (``top``).

    ``state`` is what the next token may be: a "key", a "value", a "comma" (or the
    container's end), the "colon" after a key, or ("alone") the end of an entry whose key
    is no string. Each step says whether the walk goes on; when it does not, ``result`` is what
    :func:`window` returns."""

    def __init__(self, text: str, at: int, resume: int, insert: str, as_key: bool, pos: int):
        self.text, self.at, self.resume, self.insert, self.as_key = text, at, resume, insert, as_key
        self.n = len(text)
        self.top: dict[str, Any] = {}
        self.cuts: list[tuple[int, int, str]] = []  # (start, end, stand-in) in ``text``, in order
        # each open container: [an object?, its last key, where its left-out tail starts]
        self.stack: list[list[Any]] = [[text[pos] == "{", None, None]]
        self.state = "key" if text[pos] == "{" else "value"
        self.close_ok = True  # the container may close here (it is empty so far)
        self.pos = pos + 1
        self.before, self.limit = True, at  # walking up to the cursor; then after it
        self.result: Window | None = None

    def run(self) -> Window | None:
        """What :func:`window` returns."""
        go = True
        while go:
            self.pos = _blanks(self.text, self.pos, self.limit)
            if self.before and self.pos >= self.at:
                go = self._marker()
            elif self.pos >= self.n:
                return None  # the text ends inside a container
            else:
                go = self._step(self.text[self.pos])
        return self.result

    def _stop(self, result: Window | None) -> bool:
        """The walk ends with ``result``."""
        self.result = result
        return False

    def _marker(self) -> bool:
        """The marker goes here: only where the caller's repair puts it."""
        obj = self.stack[-1][0]
        if self.state == "comma":
            # right after a value: YAML reads the marker as more of that value (a
            # plain scalar) or refuses the text; either way it is no node
            return self._stop(Window(None))
        if self.state != ("key" if obj and self.as_key else "value"):
            return self._stop(None)
        if len(self.stack) == 1 and obj and self.state == "value":
            self.top[self.stack[-1][1]] = _OPEN
        comma = self.insert.endswith(",")
        self.state, self.close_ok = ("key" if obj else "value") if comma else "comma", comma
        self.before, self.pos, self.limit = False, self.resume, self.n
        return True

    def _step(self, ch: str) -> bool:
        """The token that starts with ``ch``."""
        frame = self.stack[-1]
        obj = frame[0]
        if self.state == "colon" or self.state == "alone":
            return self._after_key(ch, frame)
        if (self.state == "comma" or self.close_ok) and ch == ("}" if obj else "]"):
            return self._close(frame)
        if ch == ":" and (self.state == "key" or (self.state == "value" and not obj)):
            return self._stop(Window(None))  # a colon where an entry starts: YAML refuses the text
        if self.state == "comma":
            if ch != ",":
                return self._stop(None)
            self.state, self.close_ok, self.pos = ("key" if obj else "value"), False, self.pos + 1
            return True
        if ch == '"':
            return self._string(frame)
        return self._value(ch, frame)

    def _after_key(self, ch: str, frame: list[Any]) -> bool:
        """After a key: its colon; or the entry ends there (a key with no value, which
        YAML reads with an empty one: what a value left after the cursor is when the
        repair puts the marker before it)."""
        if ch == ":" and self.state == "colon":
            self.state, self.pos = "value", self.pos + 1
            return True
        if ch != "," and ch != ("}" if frame[0] else "]"):
            return self._stop(None)
        if self.state == "colon" and len(self.stack) == 1:
            self.top[frame[1]] = None
        self.state = "comma"
        return True

    def _close(self, frame: list[Any]) -> bool:
        """The container ``frame`` closes (its items after the cursor's left out)."""
        if frame[2] is not None:  # the items after the cursor's: left out
            while self.cuts and self.cuts[-1][0] >= frame[2]:
                self.cuts.pop()
            self.cuts.append((frame[2], self.pos, ""))
        self.stack.pop()
        self.pos += 1
        if not self.stack:
            # the top level closes: nothing may follow (before the cursor: no cursor)
            if self.before or _blanks(self.text, self.pos) != self.n:
                return self._stop(None)
            return self._stop(Window(self._stitched(), self.top))
        outer = self.stack[-1]
        if not self.before and not outer[0] and outer[2] is None:
            outer[2] = self.pos
        self.state, self.close_ok = "comma", False
        return True

    def _string(self, frame: list[Any]) -> bool:
        """A string: a key, or a value."""
        try:
            value, end = _scan(self.text, self.pos + 1)
        except ValueError as exc:
            # unterminated, or broken after the cursor: the cursor is in the string
            if self.before and (getattr(exc, "pos", 0) >= self.at or "Unterminated" in str(exc)):
                return self._stop(Window(None))
            return self._stop(None)
        if self.before and end > self.at:
            return self._stop(Window(None))  # the marker lands inside a string
        if self.state == "key":
            frame[1], self.state, self.pos = value, "colon", end
            return True
        return self._taken(frame, value, end)

    def _value(self, ch: str, frame: list[Any]) -> bool:
        """A value that is no string (or a key that is none), skipped whole by the
        decoder, or entered when it holds the cursor."""
        value: Any = None
        try:
            value, end = _DECODER.raw_decode(self.text, self.pos)
        except json.JSONDecodeError as exc:
            if self.before and ch in "{[" and exc.pos >= self.at:
                end = self.n  # open at the cursor: read into it
            else:
                return self._stop(None)
        except (ValueError, RecursionError):
            return self._stop(None)
        if self.before and end > self.at:
            return self._enter(ch, frame)
        if ch in "{[":
            if not _shallow(self.text, self.pos, end, len(self.stack)):
                return self._stop(None)
            if end - self.pos > 2:
                self.cuts.append((self.pos, end, "{}" if ch == "{" else "[]"))
        if self.state == "key":  # a key that is no string: taken alone or not at all
            self.state, self.close_ok, self.pos = "alone", False, end
            return True
        return self._taken(frame, value, end)

    def _enter(self, ch: str, frame: list[Any]) -> bool:
        """The value holds the cursor: a container, walked into."""
        if ch not in "{[" or self.state == "key":
            return self._stop(None)
        if len(self.stack) == 1 and frame[0]:
            self.top[frame[1]] = _OPEN
        self.stack.append([ch == "{", None, None])
        self.state, self.close_ok = ("key" if ch == "{" else "value"), True
        self.pos += 1
        return True

    def _taken(self, frame: list[Any], value: Any, end: int) -> bool:
        """A value read whole (kept when it is a top-level entry's)."""
        if len(self.stack) == 1 and frame[0]:
            self.top[frame[1]] = value
        self.state, self.close_ok, self.pos = "comma", False, end
        return True

    def _stitched(self) -> str:
        """The text with the marker in ``[at, resume)`` and each cut's stand-in in its place."""
        text, at, resume, insert = self.text, self.at, self.resume, self.insert
        parts, last, placed = [], 0, False
        for start, end, stand_in in self.cuts:
            if not placed and start >= at:
                parts += [text[last:at], insert]
                last, placed = resume, True
            parts += [text[last:start], stand_in]
            last = end
        if not placed:
            parts += [text[last:at], insert]
            last = resume
        parts.append(text[last:])
        return "".join(parts)


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
