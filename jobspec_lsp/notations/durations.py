"""RFC 23 Flux Standard Durations (``"1.5h"``), what users type for a duration.

A well-formed duration is read by one regular expression, grammars/fsd.lark as an
expression (a test holds the two to the same language), so the common case loads no
parser; the rest goes to the grammar (:mod:`jobspec_lsp.notations.fsdgrammar`, the
declared entry below) for its positioned message."""

from __future__ import annotations

import re

from jobspec_lsp import boundary
from jobspec_lsp.notations.formaterror import need_str

UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
FSD_TEXT = re.compile(
    r"(?:(?P<number>(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)(?P<unit>ms|s|m|h|d)?"
    r"|(?P<inf>(?i:inf(?:inity)?)))\Z"
)

# what the expression refuses (or reads as too large), read by the grammar (lark)
_BY_GRAMMAR = "jobspec_lsp.notations.fsdgrammar:parse_fsd"


def parse_fsd(s: str) -> float:
    """RFC 23 Flux Standard Duration -> seconds (float('inf') for infinity).

    As strtod does, a number too large for a double is infinite; with a unit
    it is refused, as Flux refuses a unit after infinity."""
    m = FSD_TEXT.match(s) if isinstance(s, str) else None
    if m is not None:  # the grammar's whole language, read without loading lark
        if m.group("inf"):
            return float("inf")
        value = float(m.group("number"))
        unit = m.group("unit")
        if unit is None:
            return value
        if value * UNITS[unit] != float("inf"):
            return value * UNITS[unit]
    need_str(s)
    seconds: float = boundary.load(_BY_GRAMMAR)(s)
    return seconds
