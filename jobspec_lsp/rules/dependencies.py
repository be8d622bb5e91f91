"""JS51x — `attributes.system.dependencies` (RFC 26)."""

from __future__ import annotations

import functools

from jobspec_lsp.diagnostics import Family
from jobspec_lsp.jobspec import examples
from jobspec_lsp.jobspec.tree import Mapping, Sequence
from jobspec_lsp.notations.formats import python_float
from jobspec_lsp.rules.base import (
    Context,
    anchor_for_missing,
    describe,
    is_str,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any


_js = functools.partial(examples.with_system, "dependencies")  # a jobspec with this dependencies


family = Family(rfc="RFC 26", good=_js('- scheme: afterok\n  value: "1234"'))
NOT_LIST = family.error(
    """JS511 dependencies-type: `dependencies` is not a list of mappings.

    RFC 26: a list of objects, each with a scheme and a value.""",
    bad=_js('scheme: afterok\nvalue: "1234"'),
)
FIELDS = family.error(
    """JS512 dependency-fields: A dependency lacks a string `scheme` or `value`.

    Every dependency names its scheme and the value it applies to, both strings (quote job
    IDs: `value: "1234"`).""",
    bad=_js("- scheme: afterok\n  value: 1234"),
    fix="replacement",
)
UNKNOWN_SCHEME = family.warning(
    """JS513 dependency-unknown-scheme: A dependency scheme Flux does not know.

    flux-core understands afterstart, afterany, afterok, afternotok, afterexcept, begin-time
    and singleton (and RFC 14 shows string and fluid); an unknown scheme makes the job fail
    its dependency check.""",
    bad=_js('- scheme: after_ok\n  value: "1234"'),
    fix="suggestion",
)
STRING_FLUID = family.error(
    """JS514 dependency-type-scope: A `string` or `fluid` dependency lacks a valid type or scope.

    These schemes need type (in, out or inout) and scope (user or global).""",
    bad=_js("- scheme: string\n  value: foo"),
    good=_js("- scheme: string\n  value: foo\n  type: in\n  scope: user"),
)
AFTER_DEPRECATED = family.warning(
    """JS515 dependency-after-deprecated: The deprecated `after` scheme.

    flux-core treats `after` as the old name of `afterstart`.""",
    bad=_js('- scheme: after\n  value: "1234"'),
    good=_js('- scheme: afterstart\n  value: "1234"'),
    fix="replacement",
    tags=("deprecated",),
)
BEGIN_TIME = family.error(
    """JS516 dependency-begin-time: A begin-time dependency whose value is not a time in seconds.

    begin-time takes the start time as seconds since the epoch, written as a string.""",
    bad=_js("- scheme: begin-time\n  value: tomorrow"),
    good=_js('- scheme: begin-time\n  value: "1767225600"'),
)

SCHEMES = (
    "afterstart",
    "afterany",
    "afterok",
    "afternotok",
    "afterexcept",
    "begin-time",
    "singleton",
    "string",
    "fluid",
    "after",
)


def check(ctx: Context, key: Any, value: Any) -> None:
    if not isinstance(value, Sequence):
        return ctx.report(
            NOT_LIST,
            (key, value),
            f"dependencies must be a list of {{scheme, value}} mappings, not {describe(value)}",
        )
    for dep in value.items:
        if not isinstance(dep, Mapping):
            ctx.report(
                NOT_LIST,
                dep,
                f"a dependency must be a mapping with scheme and value, not {describe(dep)}",
            )
            continue
        _check_dep(ctx, dep)


def _check_dep(ctx: Context, dep: Mapping) -> None:
    for k in ("scheme", "value"):
        pair = dep.pair(k)
        if pair is None:
            ctx.report(FIELDS, anchor_for_missing(dep), f"dependency is missing {k}")
        elif not is_str(pair[1]):
            ctx.not_a_string(FIELDS, pair, pair[1], f"dependency {k}")
    scheme = dep.get("scheme")
    if not is_str(scheme):
        return
    name = scheme.value
    if name not in SCHEMES:
        ctx.unknown(UNKNOWN_SCHEME, scheme, f"unknown dependency scheme {name!r}", name, SCHEMES)
    elif name == "after":
        ctx.report(
            AFTER_DEPRECATED,
            scheme,
            "the scheme 'after' is deprecated; use 'afterstart'",
            data={"replacement": "afterstart"},
        )
    elif name in ("string", "fluid"):
        needs = {"type": ("in", "out", "inout"), "scope": ("user", "global")}
        missing = [k for k in needs if k not in dep]
        if missing:
            ctx.report(
                STRING_FLUID,
                scheme,
                f"a {name} dependency needs "
                + " and ".join(f"{k} ({', '.join(needs[k])})" for k in missing),
                data={"missing": missing},
            )
        for k, allowed in needs.items():
            pair = dep.pair(k)
            if pair is not None and not (is_str(pair[1]) and pair[1].value in allowed):
                ctx.report(STRING_FLUID, pair, f"{k} must be one of {', '.join(allowed)}")
    elif name == "begin-time":
        value = dep.get("value")
        if is_str(value):
            seconds = python_float(value.value)
            ok = seconds is not None and seconds >= 0
            if not ok:
                ctx.report(
                    BEGIN_TIME,
                    value,
                    f"begin-time needs seconds since the epoch, not {value.value!r}",
                )
