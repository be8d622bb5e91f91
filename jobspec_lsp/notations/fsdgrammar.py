"""A duration read with grammars/fsd.lark: what the regular expression of
:mod:`jobspec_lsp.notations.durations` refuses, or reads as too large, gets its
positioned message here."""

from __future__ import annotations

from jobspec_lsp.notations import syntax
from jobspec_lsp.notations.durations import UNITS
from jobspec_lsp.notations.formaterror import semantic, show


def parse_fsd(s: str) -> float:
    """:func:`jobspec_lsp.notations.durations.parse_fsd` by the grammar: seconds, or
    FormatError where the syntax stops or the value is too large for a double."""
    tree = syntax.parse("fsd", s)
    toks = list(tree.scan_values(lambda v: True))
    if toks[0].type == "FSD_INF":
        return float("inf")
    value = float(str(toks[0]))
    if len(toks) == 1:
        return value
    seconds = value * UNITS[str(toks[1])]
    if seconds == float("inf"):
        start, end = toks[0].start_pos, toks[1].end_pos
        raise semantic(
            f"{show(s[start:end])} is too large for a duration; write 'inf' for no limit",
            start,
            end,
        )
    return seconds
