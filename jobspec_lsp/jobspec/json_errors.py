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


def _describe(text: str, msg: str, pos: int) -> tuple[str, int, int] | None:
    ch = text[pos : pos + 1]
    before = len(text[:pos].rstrip(_WS))  # just past the last token before pos
    last = text[before - 1 : before]
    if text.startswith(("//", "/*", "#"), pos):
        end = text.find("*/", pos + 2) + 2 if text.startswith("/*", pos) else _line_end(text, pos)
        return "JSON has no comments; remove it", pos, end if end > pos + 1 else len(text)
    if ch == "" and msg != "Extra data":
        return _unfinished(text, pos)

    if msg.startswith("Expecting property name") or msg == "Expecting value":
        key = msg.startswith("Expecting property name")
        if ch in ("}", "]") and last == ",":
            where = "object" if ch == "}" else "array"
            return (
                f"trailing comma: JSON allows no comma after the last item of an {where}; "
                "remove it",
                before - 1,
                before,
            )
        if ch == "'":
            what = "a property name" if key else "a string"
            return f"{what} takes double quotes, not single quotes", pos, _quoted_end(text, pos)
        if ch == ",":
            if last == ",":
                return "two commas in a row; remove one", pos, pos + 1
            if last in ("{", "["):
                return "a comma before the first item; remove it", pos, pos + 1
            if last == ":":
                return "a value is missing after ':'", before - 1, before
        if ch in ("}", "]") and last == ":":
            return "a value is missing after ':'", before - 1, before
        m = _WORD.match(text, pos)
        if m:
            word = m.group()
            if key:
                return f'a property name takes double quotes: "{word}"', pos, m.end()
            if word in _PYTHON:
                return f"{word} is Python's; JSON writes {_PYTHON[word]}", pos, m.end()
            if re.fullmatch(r"[+.\-]?[0-9.]+([eE][+\-]?[0-9]+)?", word):
                return (
                    f"{word} is not a JSON number (no leading '+' or '.', no trailing '.')",
                    pos,
                    m.end(),
                )
            import difflib  # deferred: start-up; only for a suggestion

            near = difflib.get_close_matches(word.lower(), ["true", "false", "null"], 1, 0.6)
            if near:
                return f"{word} is not a JSON value; did you mean {near[0]}?", pos, m.end()
            return f'{word} is not a JSON value; write "{word}" for a string', pos, m.end()
        return None

    if msg == "Expecting ',' delimiter":
        if ch in ("}", "]"):
            opener = open_brackets(text, pos, quotes='"')
            if opener:
                o = opener[-1]
                line = text.count("\n", 0, o) + 1
                return (
                    f"'{ch}' does not close the '{text[o]}' of line {line}: "
                    f"'{_CLOSER[text[o]]}' expected",
                    pos,
                    pos + 1,
                )
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
        return (
            "a comma is missing after this item (JSON separates items with commas)",
            before - 1,
            before,
        )

    if msg == "Expecting ':' delimiter":
        if ch == "=":
            return "JSON writes ':' between a property name and its value, not '='", pos, pos + 1
        return "a ':' is missing after this property name", before - 1, before

    if msg == "Extra data":
        if ch in ("}", "]"):
            return f"an extra '{ch}': nothing is open for it to close", pos, pos + 1
        return (
            "text after the end of the JSON value (a jobspec is one JSON object)",
            pos,
            _line_end(text, pos),
        )

    if msg.startswith("Invalid control character"):
        name, escape = _CONTROL.get(ch, (f"the control character U+{ord(ch):04X}", None))
        if escape is None:
            escape = f"\\u{ord(ch):04x}"
        return f"{name} inside a string: JSON writes it {escape}", pos, pos + 1

    if msg.startswith("Unterminated string"):
        return "this string is never closed: a '\"' is missing", pos, _line_end(text, pos)

    if msg.startswith("Invalid \\escape"):
        esc = text[pos : pos + 2]
        return (
            f"{esc} is not a JSON escape (a backslash is written \\\\)",
            pos,
            pos + len(esc),
        )

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
