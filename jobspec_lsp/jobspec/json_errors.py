"""What is wrong with a JSON text Python's reader refuses, said the way a person
would, on the character to change.

``json.JSONDecodeError`` gives a message about what the reader expected and the
offset where it stopped, which is often past the mistake: a trailing comma is
reported at the ``}`` after it ("Expecting property name enclosed in double
quotes"), a missing comma at the start of the next item (often the next line), an
unclosed ``{`` at the end of the file. ``describe`` turns the common mistakes into
a message and the range of the character(s) at fault; anything else keeps the
reader's message at its offset.
"""

from __future__ import annotations

import json
import re

from jobspec_lsp.text.brackets import open_brackets
from jobspec_lsp.text.suggest import closest

_WS = " \t\r\n"
_WORD = re.compile(r"[A-Za-z0-9_$.+\-]+")
_U_ESCAPE = re.compile(r"u[0-9A-Fa-f]{0,3}")
_PYTHON = {"True": "true", "False": "false", "None": "null"}
_CLOSER = {"{": "}", "[": "]"}
_CONTROL = {
    "\n": ("a line break", "\\n"),
    "\t": ("a tab", "\\t"),
    "\r": ("a carriage return", "\\r"),
}


def describe(text: str, exc: json.JSONDecodeError) -> tuple[str, int, int]:
    """(message, start, end) for ``exc`` raised while reading ``text``; offsets
    index ``text``, and the range covers at least one character where there is one."""
    msg, pos = exc.msg, min(exc.pos, len(text))
    got = _describe(text, msg, pos)
    if got is None:
        got = msg, pos, pos + 1
    message, start, end = got
    return f"invalid JSON: {message}", start, max(min(end, len(text)), start)


class _Stop:
    """Where the reader stopped: the offset, the character there, and just past the last
    token before it (``before``) with that token's last character (``last``)."""

    __slots__ = ("text", "pos", "ch", "before", "last")

    def __init__(self, text: str, pos: int) -> None:
        self.text, self.pos = text, pos
        self.ch = text[pos : pos + 1]
        self.before = len(text[:pos].rstrip(_WS))
        self.last = text[self.before - 1 : self.before]


def _describe(text: str, msg: str, pos: int) -> tuple[str, int, int] | None:
    """The reader's complaint ``msg`` at ``pos`` said as the mistake a person made, on
    the character(s) at fault; None when it is none of those known."""
    if text.startswith(("//", "/*", "#"), pos):
        end = text.find("*/", pos + 2) + 2 if text.startswith("/*", pos) else _line_end(text, pos)
        return "JSON has no comments; remove it", pos, end if end > pos + 1 else len(text)
    if pos >= len(text) and msg != "Extra data":
        return _unfinished(text, pos)
    at = _Stop(text, pos)
    if msg.startswith("Expecting property name") or msg == "Expecting value":
        return _no_value(at, msg.startswith("Expecting property name"))
    if msg == "Expecting ',' delimiter":
        return _no_comma(at)
    if msg == "Expecting ':' delimiter":
        if at.ch == "=":
            return "JSON writes ':' between a property name and its value, not '='", pos, pos + 1
        return "a ':' is missing after this property name", at.before - 1, at.before
    if msg == "Extra data":
        if at.ch in ("}", "]"):
            return f"an extra '{at.ch}': nothing is open for it to close", pos, pos + 1
        message = "text after the end of the JSON value (a jobspec is one JSON object)"
        return message, pos, _line_end(text, pos)
    return _in_string(at, msg)


def _no_value(at: _Stop, key: bool) -> tuple[str, int, int] | None:
    """Where a value (or, ``key``, a property name) was expected: a trailing or doubled
    comma, single quotes, a value missing after ':', a bare word."""
    ch, last, pos, before = at.ch, at.last, at.pos, at.before
    if ch in ("}", "]") and last == ",":
        where = "object" if ch == "}" else "array"
        message = f"trailing comma: JSON allows no comma after the last item of an {where}; "
        return message + "remove it", before - 1, before
    if ch == "'":
        what = "a property name" if key else "a string"
        return f"{what} takes double quotes, not single quotes", pos, _quoted_end(at.text, pos)
    if ch == ",":
        if last == ",":
            return "two commas in a row; remove one", pos, pos + 1
        if last in ("{", "["):
            return "a comma before the first item; remove it", pos, pos + 1
    if ch in (",", "}", "]") and last == ":":
        return "a value is missing after ':'", before - 1, before
    m = _WORD.match(at.text, pos)
    return _bare_word(m.group(), key, pos, m.end()) if m else None


def _bare_word(word: str, key: bool, start: int, end: int) -> tuple[str, int, int]:
    """A word written without quotes where a property name or a value goes."""
    if key:
        return f'a property name takes double quotes: "{word}"', start, end
    if word in _PYTHON:
        return f"{word} is Python's; JSON writes {_PYTHON[word]}", start, end
    if re.fullmatch(r"[+.\-]?[0-9.]+([eE][+\-]?[0-9]+)?", word):
        message = f"{word} is not a JSON number (no leading '+' or '.', no trailing '.')"
        return message, start, end
    near = closest(word.lower(), ["true", "false", "null"], 0.6)
    if near:
        return f"{word} is not a JSON value; did you mean {near}?", start, end
    return f'{word} is not a JSON value; write "{word}" for a string', start, end


def _no_comma(at: _Stop) -> tuple[str, int, int]:
    """Where a ',' was expected: a wrong closing bracket, a number written otherwise than
    JSON writes it, a ':' in an array, or the comma itself missing."""
    text, ch, pos, before, last = at.text, at.ch, at.pos, at.before, at.last
    if ch in ("}", "]"):
        opener = open_brackets(text, pos, quotes='"')
        if opener:
            o = opener[-1]
            line = text.count("\n", 0, o) + 1
            message = f"'{ch}' does not close the '{text[o]}' of line {line}: "
            return message + f"'{_CLOSER[text[o]]}' expected", pos, pos + 1
    if ch.isdigit() and before == pos and last == "0":
        start = pos - 1
        if text[start - 1 : start] == "-":
            start -= 1
        m = _WORD.match(text, pos)
        return "a JSON number has no leading zeros", start, m.end() if m else pos + 1
    if ch == "." and before == pos and last.isdigit():
        m = re.search(r"-?[0-9]+\Z", text[:pos])
        start = m.start() if m else pos - 1
        return "a JSON number has a digit after its '.'", start, pos + 1
    if ch == ":":
        opener = open_brackets(text, pos, quotes='"')
        if opener and text[opener[-1]] == "[":
            return "a ':' in an array: properties belong in an object { }", pos, pos + 1
    message = "a comma is missing after this item (JSON separates items with commas)"
    return message, before - 1, before


def _in_string(at: _Stop, msg: str) -> tuple[str, int, int] | None:
    """What the reader refuses inside a string: a control character, a missing closing
    quote, an escape JSON has not."""
    text, ch, pos = at.text, at.ch, at.pos
    if msg.startswith("Invalid control character"):
        name, escape = _CONTROL.get(ch, (f"the control character U+{ord(ch):04X}", None))
        if escape is None:
            escape = f"\\u{ord(ch):04x}"
        return f"{name} inside a string: JSON writes it {escape}", pos, pos + 1
    if msg.startswith("Unterminated string"):
        return "this string is never closed: a '\"' is missing", pos, _line_end(text, pos)
    if msg.startswith("Invalid \\escape"):
        esc = text[pos : pos + 2]
        return f"{esc} is not a JSON escape (a backslash is written \\\\)", pos, pos + len(esc)
    if msg.startswith("Invalid \\uXXXX escape"):
        start = pos - 1 if text[pos - 1 : pos] == "\\" else pos  # the reader points at the u
        m = _U_ESCAPE.match(text, start + 1)
        return "\\u takes exactly four hexadecimal digits", start, m.end() if m else start + 2
    return None


def _unfinished(text: str, pos: int) -> tuple[str, int, int]:
    """The text ends before the JSON value does."""
    if not text.strip(_WS):
        return "the file is empty; a jobspec is a JSON object { ... }", 0, 0
    opener = open_brackets(text, pos, quotes='"')
    if opener:
        o = opener[-1]
        return (
            f"this '{text[o]}' is never closed: the text ends before its '{_CLOSER[text[o]]}'",
            o,
            o + 1,
        )
    return "the text ends in the middle of a value", max(pos - 1, 0), pos


def _quoted_end(text: str, pos: int) -> int:
    """Just past the single-quoted string at pos (or the end of its line)."""
    end = text.find("'", pos + 1)
    line_end = _line_end(text, pos)
    return end + 1 if 0 <= end < line_end else line_end


def _line_end(text: str, pos: int) -> int:
    end = text.find("\n", pos)
    end = len(text) if end < 0 else end
    return end - 1 if end > pos and text[end - 1] == "\r" else end
