"""Character offsets <-> (line, character) positions.

The one place where offsets into a document's text become positions.  The
parser records code-point offsets; a :class:`LineIndex` turns them into
0-based ``(line, character)`` pairs, with the character counted either in
code points (terminals, JSON output) or in UTF-16 code units (what LSP
clients expect by default).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate, repeat
from operator import add

from jobspec_lsp.record import Frozen

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any


class Position(Frozen):
    __slots__ = ("line", "character")
    line: int
    character: int

    def __init__(self, line: int, character: int) -> None:
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "character", character)


class Range(Frozen):
    __slots__ = ("start", "end")
    start: Position
    end: Position

    def __init__(self, start: Position, end: Position) -> None:
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "end", end)

    def to_json(self) -> dict[str, Any]:
        return {
            "start": {"line": self.start.line, "character": self.start.character},
            "end": {"line": self.end.line, "character": self.end.character},
        }


class LineIndex:
    """Maps code-point offsets in ``text`` to line/character positions. Lines end at
    ``\n``, ``\r\n`` or a lone ``\r``, as LSP counts them (and as YAML reads them);
    U+2028 and the like are ordinary characters here."""

    __slots__ = ("text", "_starts")

    def __init__(self, text: str, starts: list[int] | None = None):
        self.text = text
        if starts is None:
            if "\r" in text:
                starts = [0]
                starts.extend(m.end() for m in _BREAK.finditer(text))
            else:  # the lines' lengths summed, in C (a third faster than find in a loop)
                lengths = map(add, map(len, text.split("\n")), repeat(1))
                starts = list(accumulate(lengths, initial=0))
                starts.pop()
        self._starts = starts

    def edited(self, text: str, start: int, old_end: int, new_end: int) -> LineIndex:
        """The index of ``text``: this index's text with ``[start, old_end)`` replaced by
        ``text[start:new_end]``. Only the edited lines are looked at again; the lines
        after move by the edit's length (in C)."""
        old = self._starts
        if (
            "\r" in text[max(start - 1, 0) : new_end + 1]
            or "\r" in self.text[max(start - 1, 0) : old_end + 1]
        ):
            return LineIndex(text)  # a \r\n pair may be joined or split at the edges
        first = bisect_right(old, start)  # lines starting at or before start are kept
        after = bisect_right(old, old_end)  # lines starting after old_end move
        starts = old[:first]
        find = text.find
        i = find("\n", start, new_end)
        while i != -1:
            starts.append(i + 1)
            i = find("\n", i + 1, new_end)
        delta = new_end - old_end
        starts.extend(map(add, old[after:], repeat(delta)) if delta else old[after:])
        return LineIndex(text, starts)

    @property
    def line_count(self) -> int:
        return len(self._starts)

    def line_start(self, line: int) -> int:
        return self._starts[line]

    def line_text(self, line: int) -> str:
        start = self._starts[line]
        end = self._starts[line + 1] - 1 if line + 1 < len(self._starts) else len(self.text)
        return self.text[start:end].rstrip("\r")

    def position(self, offset: int, utf16: bool = False, encoding: str | None = None) -> Position:
        """``encoding``: "utf-32" (code points, the default), "utf-16" or "utf-8" —
        the units LSP clients negotiate for the character column."""
        enc = encoding or ("utf-16" if utf16 else "utf-32")
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self._starts, offset) - 1
        start = self._starts[line]
        char = offset - start
        if enc != "utf-32" and char:
            prefix = self.text[start:offset]
            if not prefix.isascii():
                char = _units(prefix, enc)
        return Position(line, char)

    def range(
        self, start: int, end: int, utf16: bool = False, encoding: str | None = None
    ) -> Range:
        return Range(self.position(start, utf16, encoding), self.position(end, utf16, encoding))

    def offset(
        self, line: int, character: int, utf16: bool = False, encoding: str | None = None
    ) -> int:
        """Inverse of :meth:`position`; clamps to the line and the text."""
        enc = encoding or ("utf-16" if utf16 else "utf-32")
        if line < 0:
            return 0
        if line >= len(self._starts):
            return len(self.text)
        start = self._starts[line]
        line_end = self._starts[line + 1] - 1 if line + 1 < len(self._starts) else len(self.text)
        if enc == "utf-32" or self.text[start:line_end].isascii():
            return min(start + max(character, 0), line_end)
        units = 0
        i = start
        text = self.text
        while i < line_end and units < character:
            units += _char_units(text[i], enc)
            i += 1
        return i


_BREAK = re.compile(r"\r\n|\r|\n")


def _char_units(ch: str, encoding: str) -> int:
    cp = ord(ch)
    if encoding == "utf-16":
        return 2 if cp > 0xFFFF else 1
    return 1 if cp < 0x80 else 2 if cp < 0x800 else 3 if cp < 0x10000 else 4


def _units(text: str, encoding: str) -> int:
    if encoding == "utf-16":
        return len(text.encode("utf-16-le", "surrogatepass")) // 2
    return len(text.encode("utf-8", "surrogatepass"))
