"""Flux's RFC 46 shape lexer, as flux-core's ``flux.shape.parser`` lexes a shape: the
words of a shape in the four states its lexer moves through, "top" (types: any run of
characters but ``= { } [ ] / ;``, quotes and white space; ``slot`` in any case is a
slot), "count" (after ``=``: numbers from 1, idsets, ``:+``-style operators), "key" (in
braces; ``x`` is ``exclusive``) and "value" (after a key's ``:``: JSON-like numbers,
``true``/``false``/``null`` in any case, words that keep their blanks after, a ``[...]``
JSON list to the last ``]`` on the line). A quote, in any state, holds everything up to
the same quote character, without escapes. :mod:`.shape` parses the words."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any


class ShapeError(ValueError):
    """A shape that cannot be read (offsets into the shape string) or a
    resources list that cannot be written as a shape (``path`` names the vertex)."""

    def __init__(
        self,
        message: str,
        start: int = 0,
        end: int | None = None,
        expected: Iterable[str] = (),
        path: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.start = start
        self.end = start if end is None else end
        self.expected = list(expected)
        self.path = path


# Flux's lexer has four states, each with its own words; a quote, in any state, holds
# everything up to the same quote character.
BLANK = " \t\r\n\f\v"  # skipped before a word (only these: other white space is a word's)
_TYPE_WORD = re.compile(r"[^\s={}\[\]/;\"']+")
_COUNT_OPERATOR = re.compile(r":[+*^]")
# an idset as a count: two or more ids or runs, each at least 1, no leading zero
_COUNT_IDSET = re.compile(r"[1-9]\d*(?:-[1-9]\d*)?(?=,)(?:,[1-9]\d*(?:-[1-9]\d*)?)*")
_COUNT_INTEGER = re.compile(r"[1-9]\d*")
_KEY_WORD = re.compile(r"[^+\-:,{}][^:,{}]*")
_VALUE_ARRAY = re.compile(r"\[.*\]")  # to the last ']' on the line
VALUE_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d*)?(?:[eE][-+]?\d+)?(?=[},])")
_VALUE_WORD = re.compile(r"[^,{}\[\]]+")
CONSTANTS = {"true": ("true", True), "false": ("false", False), "null": ("null", None)}


class Tok:
    __slots__ = ("kind", "value", "start", "end", "nth")

    def __init__(self, kind: str, value: Any, start: int, end: int, nth: int = 0) -> None:
        self.kind = kind  # "type", "slot", "quoted", "int", "idset", "op", "key", "word",
        # "number", "true", "false", "null", "array", "end", or the punctuation itself
        self.value = value
        self.start = start
        self.end = end
        self.nth = nth  # of a slot: how many slots the text has up to this one


class _Lexer:
    """The words of a shape, in the states Flux's lexer moves through: "top" (types),
    "count" (after '='), "key" (in braces) and "value" (after a key's ':')."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.state = "top"
        self.below = ["top"]  # Flux's lexer starts with one state below its first
        self.slots = 0
        self.out: list[Tok] = []

    def run(self) -> list[Tok]:
        text, at = self.text, 0
        while True:
            while at < len(text) and text[at] in BLANK:
                at += 1
            if at >= len(text):
                break
            if text[at] in "'\"":
                at = self._quoted(at)
            else:
                at = getattr(self, "_" + self.state)(at)
        self.out.append(Tok("end", None, len(text), len(text)))
        return self.out

    def _push(self, state: str) -> None:
        self.below.append(self.state)
        self.state = state

    def _pop(self, at: int) -> None:
        if not self.below:
            raise ShapeError(f"unmatched '}}' at column {at + 1}", at, at + 1)
        self.state = self.below.pop()

    def _emit(self, kind: str, value: Any, start: int, end: int) -> int:
        self.out.append(Tok(kind, value, start, end))
        return end

    def _quoted(self, at: int) -> int:
        quote = self.text[at]
        close = self.text.find(quote, at + 1)
        if close < 0:
            raise ShapeError(
                f"the quote {quote} at column {at + 1} is not closed",
                at,
                len(self.text),
            )
        return self._emit("quoted", self.text[at + 1 : close], at, close + 1)

    def _illegal(self, at: int) -> ShapeError:
        c = self.text[at]
        if self.state == "count":
            return ShapeError(
                f"{c!r} cannot stand in a count (column {at + 1}): a count is a number from "
                "1 without a leading zero, a range (2-4, 2+, 2-64:2:*) or an idset (4,9,16)",
                at,
                at + 1,
            )
        return ShapeError(f"{c!r} cannot stand here (column {at + 1})", at, at + 1)

    def _brace_or_bracket(self, at: int) -> int | None:
        c = self.text[at]
        if c == "{":
            self._emit("{", c, at, at + 1)
            self._push("key")
        elif c == "}":
            self._emit("}", c, at, at + 1)
            self._pop(at)
        elif c in "[]":
            self._emit(c, c, at, at + 1)
        else:
            return None
        return at + 1

    def _top(self, at: int) -> int:
        m = _TYPE_WORD.match(self.text, at)
        if m:
            word = m.group()
            if word.lower() == "slot":  # Slot, SLOT: a slot too
                self.slots += 1
                self.out.append(Tok("slot", "slot", at, m.end(), self.slots))
                return m.end()
            return self._emit("type", word, at, m.end())
        if self.text[at] == "=":
            self._push("count")
            return at + 1
        nxt = self._brace_or_bracket(at)
        if nxt is not None:
            return nxt
        if self.text[at] in "/;":
            return self._emit(self.text[at], self.text[at], at, at + 1)
        raise self._illegal(at)

    def _count(self, at: int) -> int:
        text = self.text
        for kind, pattern in (
            ("op", _COUNT_OPERATOR),
            ("idset", _COUNT_IDSET),
            ("int", _COUNT_INTEGER),
        ):
            m = pattern.match(text, at)
            if m:
                value: Any = m.group()
                if kind == "int":
                    value = _int(value, at, m.end())
                return self._emit(kind, value, at, m.end())
        if text[at] in "{/;":  # the count ends before a brace, a '/' or a ';'
            self._pop(at)
            return at
        nxt = self._brace_or_bracket(at)
        if nxt is not None:
            return nxt
        if text[at] in ",:+-":
            return self._emit(text[at], text[at], at, at + 1)
        raise self._illegal(at)

    def _key(self, at: int) -> int:
        m = _KEY_WORD.match(self.text, at)
        if m:
            word = m.group()
            return self._emit("key", "exclusive" if word == "x" else word, at, m.end())
        c = self.text[at]
        if c == ":":
            self._emit(":", c, at, at + 1)
            self._push("value")
            return at + 1
        nxt = self._brace_or_bracket(at)
        if nxt is not None:
            return nxt
        return self._emit(c, c, at, at + 1)  # ',' '+' '-'

    def _value(self, at: int) -> int:
        text, c = self.text, self.text[at]
        if c == "[":
            m = _VALUE_ARRAY.match(text, at)
            if m:
                self._pop(at)
                return self._emit("array", _array(m.group(), at), at, m.end())
        m = VALUE_NUMBER.match(text, at)
        if m:
            return self._emit("number", _number(m.group(), at), at, m.end())
        m = _VALUE_WORD.match(text, at)
        if m:
            word = m.group()
            kind, value = CONSTANTS.get(word.lower(), ("word", word))
            return self._emit(kind, value, at, m.end())
        if c == ",":
            self._pop(at)
            return self._emit(",", c, at, at + 1)
        if c == "}":  # ends the value and the braces it is in
            self._pop(at)
        nxt = self._brace_or_bracket(at)
        assert nxt is not None  # every other character makes a word
        return nxt


def _int(digits: str, start: int, end: int) -> int:
    try:
        return int(digits)
    except ValueError:  # more digits than Python converts
        raise ShapeError(f"the count at column {start + 1} is too long", start, end) from None


def _number(text: str, start: int) -> int | float:
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:  # pragma: no cover - the pattern admits only numbers
        raise ShapeError(f"{text!r} is no number", start, start + len(text)) from None


def _array(text: str, start: int) -> Any:
    """A ``[...]`` value: JSON, each ' read as " (as Flux reads it)."""
    try:
        return json.loads(text.replace("'", '"'))
    except (ValueError, RecursionError) as err:
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise ShapeError(
            f"the list {shown!r} at column {start + 1} is not JSON (it runs to the last "
            f"']' on the line): {err}",
            start,
            start + len(text),
        ) from None


def tokens(text: str) -> list[Tok]:
    """The words of ``text``, the last one \"end\"; :class:`ShapeError` for what Flux's
    lexer refuses."""
    return _Lexer(text).run()
