"""Which flow brackets are still open at a point of a text: the one scanner that
YAML's and JSON's error messages and completion's line repair share."""

from __future__ import annotations


def open_brackets(
    text: str, end: int | None = None, *, quotes: str = "'\"", comments: bool = False
) -> list[int]:
    """Offsets of the ``[`` and ``{`` of ``text[:end]`` never closed, outermost first.

    Brackets inside a quoted string (``quotes``: the characters that open one) do not
    count; a backslash escapes the next character in a double-quoted string (YAML and
    JSON alike; a single-quoted YAML string escapes its quote by doubling it, which
    closes and reopens it here, to the same effect). With ``comments``, a ``#`` at the
    start of a line or after a blank starts a comment that runs to the line's end."""
    stack: list[int] = []
    quote = None
    i, n = 0, len(text) if end is None else min(end, len(text))
    while i < n:
        ch = text[i]
        if quote:
            if ch == "\\" and quote == '"':
                i += 1
            elif ch == quote:
                quote = None
        elif ch in quotes:
            quote = ch
        elif comments and ch == "#" and (i == 0 or text[i - 1] in " \t\n"):
            nl = text.find("\n", i, n)
            i = n if nl == -1 else nl
            continue
        elif ch in "[{":
            stack.append(i)
        elif ch in "]}" and stack:
            stack.pop()
        i += 1
    return stack
