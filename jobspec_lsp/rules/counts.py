"""JS2xx — resource counts: integers, RFC 22 idsets, RFC 45 ranges, range dictionaries."""

from __future__ import annotations

from jobspec_lsp.diagnostics import Family
from jobspec_lsp.jobspec.tree import Mapping, Scalar
from jobspec_lsp.notations import formats
from jobspec_lsp.rules.base import (
    Context,
    Memo,
    anchor_for_missing,
    check_keys,
    describe,
    is_int,
    range_in_string,
    shown,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any


def _js(count: str, extra: str = "") -> str:
    return f"""version: 999
resources:
  - type: node
    count: {count}{extra}
    with:
      - type: slot
        count: 1
        label: task
        with:
          - type: core
            count: 1
tasks:
  - command: [app]
    slot: task
    count: {{per_slot: 1}}
attributes: {{system: {{duration: 0}}}}
"""


family = Family(rfc="RFC 14", good=_js("{min: 1, max: 8, operator: '*', operand: 2}"))
BAD_TYPE = family.error(
    """JS201 count-type: A count is not an integer, string or range dictionary.

    RFC 14 allows a positive integer, an idset or range string, or a dictionary with min (and
    optionally max, operator, operand). Booleans, floats and lists are refused.""",
    bad=_js("2.5"),
    good=_js("2"),
    fix="replacement",
)
NOT_POSITIVE = family.error(
    """JS202 count-not-positive: A count is zero or negative.

    RFC 14 counts are positive. (flux-core accepts a zero count for some resource types, but
    such a request means nothing; see docs/compatibility.md.)""",
    bad=_js("0"),
    good=_js("1"),
)
BAD_STRING = family.error(
    """JS203 count-string-syntax: A count string is neither an RFC 22 idset nor an RFC 45 range.

    A count string lists acceptable counts (`4,9,16`) or a range (`2-8`, `4+`, `2-64:2:*`).
    The diagnostic points at the first character that breaks both forms.""",
    bad=_js('"2-"'),
    good=_js('"2-8"'),
)
DICT_MISSING_MIN = family.error(
    """JS204 count-missing-min: A count dictionary has no `min`.

    `min` is the one required key of a range count.""",
    bad=_js("{max: 4}"),
    good=_js("{min: 1, max: 4, operator: '+', operand: 1}"),
)
DICT_UNKNOWN = family.error(
    """JS205 count-unknown-key: A count dictionary has a key other than min, max, operator,
    operand.

    Only these four keys define a range; anything else is a typo.""",
    bad=_js("{min: 1, step: 2}"),
    good=_js("{min: 1, max: 9, operator: '+', operand: 2}"),
)
DICT_VALUE = family.error(
    """JS206 count-range-value: min, max or operand of a count is not a positive integer.

    The range dictionary counts whole resources: min, max and operand are positive integers.""",
    bad=_js("{min: 0}"),
    good=_js("{min: 1}"),
)
MAX_BELOW_MIN = family.error(
    """JS207 count-max-below-min: A count range has max smaller than min.

    Such a range admits no count at all; the scheduler can never satisfy it.""",
    bad=_js("{min: 8, max: 4, operator: '+', operand: 1}"),
    good=_js("{min: 4, max: 8, operator: '+', operand: 1}"),
)
BAD_OPERATOR = family.error(
    """JS208 count-operator: A count operator is not `+`, `*` or `^`.

    The operator steps from min towards max: addition, multiplication or exponentiation.""",
    bad=_js("{min: 1, max: 8, operator: '/', operand: 2}"),
)
OPERATOR_OPERAND = family.error(
    """JS209 count-operator-operand: A count range has an operator without an operand, or the
    reverse.

    The operator and operand only mean something together (`* 2`: 1, 2, 4, 8 ...).""",
    bad=_js("{min: 1, max: 8, operator: '*'}"),
)
POWER_MIN = family.error(
    """JS210 count-power-min: A `^` range starts below 2.

    With exponentiation, 1 would stay 1 for ever: RFC 14 requires min >= 2 for `^`.""",
    bad=_js("{min: 1, max: 16, operator: '^', operand: 2}"),
    good=_js("{min: 2, max: 16, operator: '^', operand: 2}"),
)
SMALL_OPERAND = family.error(
    """JS211 count-operand-too-small: A `*` or `^` range has an operand below 2.

    Multiplying or raising by 1 never reaches a new value: RFC 14 requires operand >= 2.""",
    bad=_js("{min: 2, max: 16, operator: '*', operand: 1}"),
    good=_js("{min: 2, max: 16, operator: '*', operand: 2}"),
)
FLUXION_STRING = family.info(
    """JS801 fluxion-count-string: A count string, which fluxion (flux-sched) does not accept.

    RFC 14 allows idset and range strings, and flux-core's own tools accept them, but the
    fluxion scheduler only takes integer and dictionary counts. Use the dictionary form for
    portability.""",
    bad=_js('"2-8"'),
    good=_js("{min: 2, max: 8, operator: '+', operand: 1}"),
)
FLUXION_NO_MAX = family.info(
    """JS802 fluxion-open-range-operator: A count dictionary with operator and operand but no
    max, which fluxion does not accept.

    RFC 14 makes max optional (unbounded) but fluxion rejects an operator/operand pair without
    max. Give max, or drop the operator to request 'at least min'.""",
    bad=_js("{min: 2, operator: '*', operand: 2}"),
    good=_js("{min: 2, max: 64, operator: '*', operand: 2}"),
)

DICT_KEYS = ("min", "max", "operator", "operand")


def check(ctx: Context) -> None:
    memo = Memo(ctx, "counts")  # a count's findings depend on the count alone
    for v in ctx.vertices:
        pair = v.node.pair("count")
        if pair is not None:
            got = memo.get(pair[1])
            if got is not None:
                ctx.diagnostics.extend(got[0])
                continue
            d = len(ctx.diagnostics)
            check_count(ctx, *pair)
            memo.put(pair[1], ctx.diagnostics[d:])
    memo.done()


def check_count(ctx: Context, key: Any, value: Any) -> None:
    if isinstance(value, Mapping):
        return _check_dict(ctx, key, value)
    if not isinstance(value, Scalar) or isinstance(value.value, bool):
        return ctx.report(
            BAD_TYPE,
            (key, value),
            f"count must be a positive integer, an idset or "
            f"range string, or a range mapping, not {describe(value)}",
        )
    n = value.value
    if type(n) is int:
        if n < 1:
            ctx.report(NOT_POSITIVE, value, f"count must be at least 1, not {n}")
        return
    if isinstance(n, float):
        data = {"replacement": str(int(n))} if n.is_integer() and n >= 1 else None
        return ctx.report(
            BAD_TYPE, value, f"count must be a whole number, not {ctx.source(value)}", data=data
        )
    if not isinstance(n, str):
        return ctx.report(
            BAD_TYPE, (key, value), f"count must be a positive integer, not {describe(value)}"
        )
    try:
        kind, parsed = formats.parse_count_string(n)
    except formats.FormatError as err:
        start, end = range_in_string(value, err.start, err.end, ctx.doc)
        return ctx.report(
            BAD_STRING, (start, end), f"count {n!r} is not an idset or range: {err.short}"
        )
    if kind == "idset":
        if parsed and parsed[0][0] == 0:
            start, end = range_in_string(value, _zero_offset(n), _zero_offset(n) + 1, ctx.doc)
            return ctx.report(
                NOT_POSITIVE, (start, end), f"count {n!r} includes 0; counts start at 1"
            )
        if not parsed:
            return ctx.report(BAD_STRING, value, "count is an empty string; give a number")
    else:
        if parsed["min"] < 1:
            start, end = range_in_string(value, _zero_offset(n), _zero_offset(n) + 1, ctx.doc)
            return ctx.report(
                NOT_POSITIVE, (start, end), f"count range {n!r} starts at 0; counts start at 1"
            )
        _check_range_rules(ctx, parsed, value, value, value)
    if ctx.v1:
        return  # V1 refuses every count string (JS605); a portability note adds nothing
    data = None
    if kind == "idset" and len(parsed) == 1 and parsed[0][0] == parsed[0][1]:
        data = {"replacement": str(parsed[0][0])}
    elif kind == "range":
        data = {"range": parsed}
    ctx.report(
        FLUXION_STRING,
        value,
        f"count {n!r} is a string; flux-core accepts it but the "
        "fluxion scheduler takes only integer or mapping counts",
        data=data,
    )


def _zero_offset(s: str) -> int:
    for i, ch in enumerate(s):
        if ch == "0" and (i == 0 or not s[i - 1].isdigit()):
            return i
    return 0


def _check_dict(ctx: Context, key: Any, d: Mapping) -> None:
    check_keys(
        ctx, d, DICT_KEYS, DICT_UNKNOWN, "a count range (allowed: min, max, operator, operand)"
    )
    if "min" not in d:
        ctx.report(DICT_MISSING_MIN, anchor_for_missing(d, key), "count range has no min")
    good = {}
    for k in ("min", "max", "operand"):
        pair = d.pair(k)
        if pair is None:
            continue
        if is_int(pair[1]) and pair[1].value >= 1:
            good[k] = pair[1].value
        else:
            ctx.report(
                DICT_VALUE, pair, f"{k} must be a positive integer, not {shown(ctx, pair[1])}"
            )
    op_pair = d.pair("operator")
    if op_pair is not None:
        op = op_pair[1]
        if isinstance(op, Scalar) and op.value in ("+", "*", "^"):
            good["operator"] = op.value
        else:
            ctx.report(
                BAD_OPERATOR, op_pair, f"operator must be '+', '*' or '^', not {shown(ctx, op)}"
            )
    if ("operator" in d) != ("operand" in d):
        has, lacks = ("operator", "operand") if "operator" in d else ("operand", "operator")
        ctx.report(
            OPERATOR_OPERAND,
            d.key_node(has),
            f"count range has {has} but no {lacks}; give both or neither",
            data={"missing": lacks},
        )
    _check_range_rules(ctx, good, d, d.key_node("max"), d.key_node("operand"), dict_form=d)
    if "operator" in d and "operand" in d and "max" not in d and not ctx.v1:
        ctx.report(
            FLUXION_NO_MAX,
            d.key_node("operator"),
            "fluxion rejects an operator/operand range without max; add max",
        )


def _check_range_rules(
    ctx: Context, r: dict[str, Any], node: Any, max_at: Any, operand_at: Any, dict_form: Any = None
) -> None:
    lo, hi, op, operand = r.get("min"), r.get("max"), r.get("operator"), r.get("operand")
    if lo is not None and hi is not None and hi < lo:
        ctx.report(
            MAX_BELOW_MIN,
            _value_of(dict_form, "max", max_at),
            f"max ({hi}) is smaller than min ({lo}); no count satisfies this range",
        )
    if op == "^" and lo is not None and lo < 2:
        ctx.report(
            POWER_MIN,
            _value_of(dict_form, "min", node),
            f"with operator '^' min must be at least 2 (1 never grows), not {lo}",
        )
    if op in ("*", "^") and operand is not None and operand < 2:
        ctx.report(
            SMALL_OPERAND,
            _value_of(dict_form, "operand", operand_at),
            f"with operator {op!r} operand must be at least 2, not {operand}",
        )


def _value_of(d: Any, key: Any, fallback: Any) -> Any:
    if d is not None and key in d:
        return d.get(key)
    return fallback
