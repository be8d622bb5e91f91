"""JS50x — `attributes.system.constraints` (RFC 31)."""

from __future__ import annotations

import functools

from jobspec_lsp.diagnostics import Family
from jobspec_lsp.jobspec import examples, vocabulary
from jobspec_lsp.jobspec.tree import Mapping, Sequence
from jobspec_lsp.notations import formats
from jobspec_lsp.rules.base import Context, describe, is_str, range_in_string

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any


_js = functools.partial(examples.with_system, "constraints")  # a jobspec with this constraints


family = Family(rfc="RFC 31", good=_js("properties: [ssd]"))
NOT_OBJECT = family.error(
    """JS501 constraint-not-object: A constraint is not a mapping of operator to values.

    RFC 31 constraints are JSON objects `{operator: [values]}`, nested for and/or/not.""",
    bad=_js("- properties: [ssd]"),
)
UNKNOWN_OPERATOR = family.error(
    """JS502 constraint-unknown-operator: A constraint operator RFC 31 does not define.

    The operators are properties, hostlist, ranks, not, or and and.""",
    bad=_js("property: [ssd]"),
    fix="suggestion",
)
VALUES_NOT_LIST = family.error(
    """JS503 constraint-values-not-list: A constraint operator's values are not a list.

    Every operator takes a list of values, even a single one: `properties: [ssd]`.""",
    bad=_js("properties: ssd"),
)
PROPERTY_NAME = family.error(
    """JS504 constraint-property-name: A required property is not a non-empty string.

    Properties are names such as `ssd` or `amd-mi50`; a leading `^` asks for resources WITHOUT
    the property, so `^` alone names nothing.""",
    bad=_js('properties: ["^"]'),
    good=_js('properties: ["^slowgpu"]'),
)
BAD_HOSTLIST = family.error(
    """JS505 constraint-hostlist-syntax: A hostlist constraint value is not an RFC 29 hostlist.

    Hostlists are `prefix[ids]suffix` terms separated by commas, e.g. `node[1-4,7]`. The
    diagnostic points at the first bad character.""",
    bad=_js('hostlist: ["node[1-4"]'),
    good=_js('hostlist: ["node[1-4]"]'),
    fix="replacement",
)
BAD_RANKS = family.error(
    """JS506 constraint-ranks-syntax: A ranks constraint value is not an RFC 22 idset.

    Ranks are idset strings such as `0-3,8`.""",
    bad=_js('ranks: ["3-1"]'),
    good=_js('ranks: ["1-3"]'),
    fix="replacement",
)
NOT_ARITY = family.error(
    """JS507 constraint-not-arity: `not` negates more than one constraint.

    RFC 31 `not` takes a single value; combine several with and/or inside it.""",
    bad=_js("not: [{properties: [a]}, {properties: [b]}]"),
    good=_js("not: [{or: [{properties: [a]}, {properties: [b]}]}]"),
)
FLUXION_PROPERTY = family.error(
    """JS803 property-name-characters: A property name holds a character RFC 20 forbids.

    RFC 31 names resource properties as RFC 20 defines them: valid UTF-8 that MUST NOT contain
    ! & ' " ^ ` | ( ) (a leading ^ in a `properties` value is RFC 31's negation, not part of
    the name). flux-core's job-ingest rejects & ' " ` | ( ) ("invalid character in property");
    fluxion rejects all of them. A name with such a character is usually a constraint query
    pasted into the JSON: write the `or`/`not` objects instead.""",
    bad=_js('properties: ["gpu|fast"]'),
    good=_js("or: [{properties: [gpu]}, {properties: [fast]}]"),
    rfc="RFC 20",
)

OPERATORS = vocabulary.keys("constraint")
_FLUXION_BAD = set("!&'\"^`|()")


def check(ctx: Context, key: Any, value: Any) -> None:
    _check_object(ctx, key, value, 0)


def _check_object(ctx: Context, key: Any, obj: Any, depth: int) -> None:
    if not isinstance(obj, Mapping):
        return ctx.report(
            NOT_OBJECT,
            (key, obj) if key is not None else obj,
            f"a constraint must be a mapping such as {{properties: [ssd]}}, not {describe(obj)}",
        )
    for op_key, values in obj.pairs:
        op = op_key.value
        if op not in OPERATORS:
            said = f"unknown constraint operator {ctx.source(op_key)!r}"
            tail = f" (operators: {', '.join(OPERATORS)})"
            ctx.unknown(UNKNOWN_OPERATOR, op_key, said, op, OPERATORS, tail)
            continue
        if not isinstance(values, Sequence):
            ctx.report(
                VALUES_NOT_LIST,
                (op_key, values),
                f"{op} takes a list of values, not {describe(values)}",
            )
            continue
        if op == "properties":
            for item in values.items:
                _check_property(ctx, item)
        elif op == "hostlist":
            for item in values.items:
                _check_formatted(ctx, item, formats.parse_hostlist, BAD_HOSTLIST, "hostlist")
        elif op == "ranks":
            for item in values.items:
                _check_formatted(ctx, item, formats.parse_idset, BAD_RANKS, "rank idset")
        else:
            if op == "not" and len(values.items) > 1:
                ctx.report(
                    NOT_ARITY,
                    values.items[1],
                    f"not takes a single constraint, not {len(values.items)}; wrap them in and/or",
                )
            for item in values.items:
                _check_object(ctx, None, item, depth + 1)


def _check_property(ctx: Context, item: Any) -> None:
    if not is_str(item) or item.value in ("", "^"):
        what = repr(item.value) if is_str(item) else describe(item)
        return ctx.report(PROPERTY_NAME, item, f"a property must be a non-empty name, not {what}")
    name = item.value
    body = name[1:] if name.startswith("^") else name
    for i, ch in enumerate(body):
        if ch in _FLUXION_BAD:
            off = i + (len(name) - len(body))
            start, end = range_in_string(item, off, off + 1, ctx.doc)
            return ctx.report(
                FLUXION_PROPERTY,
                (start, end),
                f"{ch!r} cannot be part of a property name (RFC 20); "
                f"{'for either property use or: [{properties: [a]}, {properties: [b]}]' if ch == '|' else 'property names are plain words such as ssd or amd-mi50'}",
            )


def _check_formatted(ctx: Context, item: Any, parser: Any, code: str, what: str) -> None:
    if not is_str(item):
        return ctx.not_a_string(code, item, item, f"a {what}")
    try:
        parser(item.value)
    except formats.FormatError as err:
        start, end = range_in_string(item, err.start, err.end, ctx.doc)
        ctx.report(code, (start, end), f"{item.value!r} is not a valid {what}: {err.short}")
