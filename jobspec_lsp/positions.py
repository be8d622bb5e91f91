"""Character offsets <-> (line, character) positions.

The one place where offsets into a document's text become positions.  The
parser records code-point offsets; a :class:`LineIndex` turns them into
0-based ``(line, character)`` pairs, with the character counted either in
code points (terminals, JSON output) or in UTF-16 code units (what LSP
clients expect by default).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Position:
    line: int
    character: int


@dataclass(frozen=True, slots=True)
class Range:
    start: Position
    end: Position

    def to_json(self) -> dict:
        return {
            "start": {"line": self.start.line, "character": self.start.character},
            "end": {"line": self.end.line, "character": self.end.character},
        }


class LineIndex:
    """Maps code-point offsets in ``text`` to line/character positions."""

    __slots__ = ("text", "_starts")

    def __init__(self, text: str):
        self.text = text
        starts = [0]
        find = text.find
        i = find("\n")
        while i != -1:
            starts.append(i + 1)
            i = find("\n", i + 1)
        self._starts = starts

    @property
    def line_count(self) -> int:
        return len(self._starts)

    def line_start(self, line: int) -> int:
        return self._starts[line]

    def line_text(self, line: int) -> str:
        start = self._starts[line]
        end = self._starts[line + 1] - 1 if line + 1 < len(self._starts) else len(self.text)
        return self.text[start:end].rstrip("\r")

    def position(self, offset: int, utf16: bool = False) -> Position:
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self._starts, offset) - 1
        start = self._starts[line]
        char = offset - start
        if utf16 and char:
            prefix = self.text[start:offset]
            if not prefix.isascii():
                char = len(prefix.encode("utf-16-le")) // 2
        return Position(line, char)

    def range(self, start: int, end: int, utf16: bool = False) -> Range:
        return Range(self.position(start, utf16), self.position(end, utf16))

    def offset(self, line: int, character: int, utf16: bool = False) -> int:
        """Inverse of :meth:`position`; clamps to the line and the text."""
        if line < 0:
            return 0
        if line >= len(self._starts):
            return len(self.text)
        start = self._starts[line]
        line_end = self._starts[line + 1] - 1 if line + 1 < len(self._starts) else len(self.text)
        if not utf16:
            return min(start + max(character, 0), line_end)
        units = 0
        i = start
        text = self.text
        while i < line_end and units < character:
            units += 2 if ord(text[i]) > 0xFFFF else 1
            i += 1
        return i
