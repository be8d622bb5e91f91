"""RFC 45 ranges (``"2-8:2:*"``) read with grammars/range.lark into the RFC 14 count
dictionary they stand for, with the rules a grammar cannot state (max not below min, an
operand its operator takes) checked on the tokens."""

from __future__ import annotations

from jobspec_lsp.notations import syntax
from jobspec_lsp.notations.formaterror import semantic
from jobspec_lsp.notations.tokens import children, int_of

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

    from jobspec_lsp.notations.grammars import Node


def parse_range(s: str) -> dict[str, Any]:
    """RFC 45 range -> the RFC 14 count dictionary it stands for, normalised:
    a bounded range always has operator and operand, an unbounded one only
    when they are not the default "+" and 1."""
    return range_dict(syntax.parse("range", s), s)


def range_dict(tree: Node, s: str) -> dict[str, Any]:
    """The count dictionary of a parsed range, its values checked."""
    body = next(t for t in tree.iter_subtrees_topdown() if t.data in ("bounded", "unbounded"))
    bounded = body.data == "bounded"
    ints = children(body)
    out = {"min": int_of(ints[0])}
    if bounded:
        out["max"] = int_of(ints[1])
    step = next(body.find_data("range_step"), None)
    operand_tok, operator, operand = None, "+", 1
    if step is not None:
        operand_tok = children(step)[0]
        operand = int_of(operand_tok)
        ops = [children(t)[0] for t in step.find_data("range_op")]
        operator = str(ops[0]) if ops else "+"
    if bounded and out["max"] < out["min"]:
        raise semantic(
            f"max {out['max']} is below min {out['min']}", ints[1].start_pos, ints[1].end_pos
        )
    if operand_tok is not None:
        where = operand_tok.start_pos, operand_tok.end_pos
        if operand < 1:
            raise semantic("the operand must be at least 1", *where)
        if operator in "*^" and operand < 2:
            raise semantic(
                f"with operator {operator!r} the operand must be at least 2 (it is {operand})",
                *where,
            )
        if operator == "^" and out["min"] < 2:
            raise semantic(
                f"with operator '^' min must be at least 2 (it is {out['min']})",
                ints[0].start_pos,
                ints[0].end_pos,
            )
    if bounded or (operator, operand) != ("+", 1):
        out["operator"] = operator  # type: ignore[assignment]  # the one string entry
        out["operand"] = operand
    return out
