"""RFC 22 idsets (``"1-3,5"``, ``"[0-7]"``) read with grammars/idset.lark: the runs in
order, with the rules a grammar cannot state (ascending, no repeat, no leading zero)
checked on the tokens, so those errors are positioned as precisely as syntax errors."""

from __future__ import annotations

from jobspec_lsp.notations import syntax
from jobspec_lsp.notations.formaterror import semantic
from jobspec_lsp.notations.tokens import children, int_of

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from jobspec_lsp.notations.grammars import Node


def parse_idset(s: str) -> list[tuple[int, int]]:
    """RFC 22 idset -> inclusive (lo, hi) runs, in order. "" is the empty set."""
    return idset_runs(syntax.parse("idset", s), s)


def idset_runs(tree: Node, s: str) -> list[tuple[int, int]]:
    """The runs of a parsed idset, each ascending and above the one before it."""
    runs: list[tuple[int, int]] = []
    prev_hi = -1
    for item in tree.find_data("idset_item"):
        toks = children(item)
        lo = int_of(toks[0])
        hi = int_of(toks[1]) if len(toks) > 1 else lo
        start, end = toks[0].start_pos, toks[-1].end_pos
        if len(toks) > 1 and hi == lo:
            raise semantic(
                f"range {lo}-{hi} has the same number at both ends; write {lo}", start, end
            )
        if hi < lo:
            raise semantic(f"range {lo}-{hi} is descending; write {hi}-{lo}", start, end)
        if lo <= prev_hi:
            raise semantic(
                f"{s[start:end]} is not above {prev_hi}, the id before it; an idset "
                "lists ids in ascending order, each once",
                start,
                end,
            )
        runs.append((lo, hi))
        prev_hi = hi
    return runs
