"""Text edits as (start, end, new_text) offsets into the old text: applying them,
and the smallest line-based edits that turn one text into another.  The server
turns these into LSP ``TextEdit``s; conversions, fixes and the formatter's
editor path all go through here."""

from __future__ import annotations

from collections.abc import Iterable

from jobspec_lsp.text import suggest

Edit = tuple[int, int, str]


class Change(tuple[int, int, str]):
    """An :data:`Edit` with names: replace ``text[start:end]`` by ``text``. (A tuple
    subclass, as typing.NamedTuple makes, without loading typing at start-up.)"""

    __slots__ = ()

    def __new__(cls, start: int, end: int, text: str) -> Change:
        return tuple.__new__(cls, (start, end, text))

    @property
    def start(self) -> int:
        return self[0]

    @property
    def end(self) -> int:
        return self[1]

    @property
    def text(self) -> str:
        return self[2]

    def __repr__(self) -> str:
        return f"Change(start={self[0]!r}, end={self[1]!r}, text={self[2]!r})"

    def __getnewargs__(self) -> tuple[int, int, str]:  # copy and pickle
        return (self[0], self[1], self[2])


def apply(text: str, edits: Iterable[Edit]) -> str | None:
    """``text`` with every edit made; None when two edits overlap (an insertion
    at the end of another edit's range does not overlap it)."""
    ordered = sorted(edits)
    out: list[str] = []
    at = 0
    for start, end, new in ordered:
        if start < at:
            return None
        out.append(text[at:start])
        out.append(new)
        at = end
    out.append(text[at:])
    return "".join(out)


def minimal(old: str, new: str) -> list[Edit]:
    """Line-based replacements that turn ``old`` into ``new`` (offsets into ``old``);
    unchanged lines are never touched, so an editor keeps its marks on them."""
    a = old.splitlines(keepends=True)
    b = new.splitlines(keepends=True)
    starts = [0]
    for line in a:
        starts.append(starts[-1] + len(line))
    out: list[Edit] = []
    for tag, i1, i2, j1, j2 in suggest.line_matcher(a, b).get_opcodes():
        if tag != "equal":
            out.append((starts[i1], starts[i2], "".join(b[j1:j2])))
    return out


def line_before(text: str, at: int, line: str) -> Edit:
    """``line`` inserted as a line of its own before the line holding offset ``at``,
    ended as that line is (CRLF stays CRLF)."""
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    crlf = text[end - 1 : end] == "\r" if end > 0 else "\r\n" in text
    return (start, start, line + ("\r\n" if crlf else "\n"))
