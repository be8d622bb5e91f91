"""FormatError, the one error a notation reader raises: where in the string (offsets of
the offending token), what was expected there in words, and whether the syntax was right
but a value wrong; with the helpers that word its messages."""

from __future__ import annotations

import re
from collections.abc import Iterable


class FormatError(ValueError):
    """A string that does not parse, or parses to a value the format forbids.

    ``start``/``end`` are 0-based offsets into the parsed string of the
    offending token (``start == end == len(s)`` when the input ended too soon).
    ``message`` is one line for a user; ``expected`` lists, in words, what
    would have been accepted at ``start`` (empty for a wrong value).
    ``semantic`` is true when the syntax is right but a value is wrong
    (descending run, leading zero, max below min). ``lead`` is a prefix of
    ``message`` that names what the string is not ("not an idset or range: "),
    which :attr:`short` leaves out for callers that say so themselves.
    """

    def __init__(
        self,
        message: str,
        start: int,
        end: int | None = None,
        expected: Iterable[str] = (),
        semantic: bool = False,
        lead: str = "",
    ) -> None:
        super().__init__(lead + message)
        self.detail = message
        self.lead = lead
        self.message = lead + message
        self.start = start
        self.end = start if end is None else end
        self.expected = list(expected)
        self.semantic = semantic

    def __str__(self) -> str:
        return self.message

    @property
    def short(self) -> str:
        """The message without its lead and column, for a diagnostic whose own
        words and range already say both."""
        msg = re.sub(r" at column \d+, the end", " at the end", self.detail)
        return re.sub(r" at column \d+", "", msg)


def semantic(message: str, start: int, end: int | None = None) -> FormatError:
    """A wrong value where the syntax is right (a descending run, a leading zero)."""
    return FormatError(message, start, end, semantic=True)


def need_str(s: object) -> None:
    """FormatError unless ``s`` is a string: a reader is given nothing else."""
    if not isinstance(s, str):
        raise FormatError(f"expected a string, not {type(s).__name__}", 0, 0)


def show(text: str, limit: int = 20) -> str:
    """repr() of a piece of the input, cut short when it is long."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "..."
