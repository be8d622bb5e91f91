"""JS4xx — `attributes`: user and system, and the RFC 14 system attributes."""

from __future__ import annotations

import math

from jobspec_lsp.diagnostics import Family
from jobspec_lsp.jobspec import examples, vocabulary
from jobspec_lsp.jobspec.tree import Mapping
from jobspec_lsp.notations import formats
from jobspec_lsp.rules import constraints, dependencies, files  # the JS5xx families hang off system
from jobspec_lsp.rules.base import (
    Context,
    check_keys,
    describe,
    is_number,
    is_str,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any


def _js(system: str) -> str:
    return examples.jobspec(system=examples.nested(system, 4))


family = Family(rfc="RFC 14")
ATTR_UNKNOWN = family.error(
    """JS401 attributes-unknown-key: `attributes` holds a key other than user and system.

    RFC 14 attributes have two sections: system (read by Flux) and user (free for you).""",
    bad=_js("duration: 0").replace("attributes:\n", "attributes:\n  name: test\n"),
    good=_js("duration: 0\njob: {name: test}"),
)
SECTION_TYPE = family.error(
    """JS402 attributes-section-type: `attributes.system` or `attributes.user` is not a mapping.

    Both sections are dictionaries; if present they must have values.""",
    bad=_js("duration: 0").replace("  system:\n    duration: 0\n", "  system:\n"),
    good=_js("duration: 0"),
)
SYSTEM_UNKNOWN = family.warning(
    """JS403 system-unknown-key: A system attribute RFC 14 does not list.

    Unrecognized system attributes only warn (a site may define its own), but most are typos
    of a known one — which then silently has no effect.""",
    bad=_js("duration: 0\nqueu: batch"),
    good=_js("duration: 0\nqueue: batch"),
    fix="suggestion",
)
DURATION_TYPE = family.error(
    """JS404 duration-value: `duration` is not a number of seconds >= 0.

    duration is a time limit in seconds (0 means unlimited).""",
    bad=_js("duration: -5"),
    good=_js("duration: 5"),
)
DURATION_FSD = family.error(
    """JS405 duration-fsd-string: `duration` is a duration string like "1h" instead of seconds.

    `flux submit -t 1h` takes Flux Standard Duration strings, but in the jobspec the duration
    is a plain number of seconds. The quick-fix writes the number.""",
    bad=_js("duration: 1h"),
    good=_js("duration: 3600"),
    fix="replacement",
    safety="repair",
)
PREEMPTIBLE = family.error(
    """JS406 preemptible-after-value: `preemptible-after` is not a number of seconds >= 0.

    The time after which the job may be preempted, in seconds.""",
    bad=_js("duration: 0\npreemptible-after: 10m"),
    good=_js("duration: 0\npreemptible-after: 600"),
    fix="replacement",
    safety="repair",
)
ENVIRONMENT = family.error(
    """JS407 environment-value: `environment` is not a mapping of names to strings or null.

    Each environment variable is set to a string, or unset with null. Numbers are not
    converted for you: quote them.""",
    bad=_js("duration: 0\nenvironment:\n  OMP_NUM_THREADS: 4"),
    good=_js('duration: 0\nenvironment:\n  OMP_NUM_THREADS: "4"'),
    fix="replacement",
    safety="repair",
)
CWD = family.error(
    """JS408 cwd-not-absolute: `cwd` is not an absolute path.

    The working directory is a string with an absolute path; a relative one has no base on the
    node where the job runs.""",
    bad=_js("duration: 0\ncwd: work/run1"),
    good=_js("duration: 0\ncwd: /home/user/work/run1"),
)
STRING_ATTR = family.error(
    """JS409 string-attribute: `queue`, `bank` or `project` is not a string.

    These name a queue, bank or project and must be strings.""",
    bad=_js("duration: 0\nqueue: 7"),
    good=_js('duration: 0\nqueue: "7"'),
    fix="replacement",
    safety="repair",
)
JOB_META = family.error(
    """JS410 job-metadata: `job` is not a mapping of strings.

    Job metadata (name and other keys) is searched as text; every value must be a string.""",
    bad=_js("duration: 0\njob:\n  name: 42"),
    good=_js('duration: 0\njob:\n  name: "42"'),
    fix="replacement",
    safety="repair",
)
SHELL = family.error(
    """JS411 shell-attribute: `shell` or `shell.options` is not a mapping.

    Job shell settings live in a dictionary, options in shell.options.""",
    bad=_js("duration: 0\nshell:\n  options: verbose"),
    good=_js("duration: 0\nshell:\n  options: {verbose: 1}"),
)

ATTRIBUTE_KEYS = vocabulary.keys("attributes")
SYSTEM_KEYS = vocabulary.keys("system")


def check(ctx: Context) -> None:
    attrs = ctx.root.get("attributes") if ctx.root is not None else None
    if not isinstance(attrs, Mapping):
        return
    check_keys(
        ctx,
        attrs,
        ATTRIBUTE_KEYS,
        ATTR_UNKNOWN,
        "attributes (allowed: user, system)",
        elsewhere={k: "attributes.system" for k in SYSTEM_KEYS},
    )
    for name in ATTRIBUTE_KEYS:
        pair = attrs.pair(name)
        if pair is not None and not isinstance(pair[1], Mapping):
            ctx.report(
                SECTION_TYPE, pair, f"attributes.{name} must be a mapping, not {describe(pair[1])}"
            )
    system = attrs.get("system")
    if not isinstance(system, Mapping):
        return
    for key, value in system.pairs:
        name = key.value
        if name not in SYSTEM_KEYS:
            shown_name = name if isinstance(name, str) else ctx.source(key)
            said = f"unknown system attribute {shown_name!r} (Flux may ignore it)"
            ctx.unknown(SYSTEM_UNKNOWN, key, said, name, SYSTEM_KEYS, cutoff=0.7)
        elif name == "duration":
            _check_seconds(ctx, key, value, DURATION_TYPE, DURATION_FSD, "duration")
        elif name == "preemptible-after":
            _check_seconds(ctx, key, value, PREEMPTIBLE, PREEMPTIBLE, "preemptible-after")
        elif name == "environment":
            check_environment(ctx, key, value)
        elif name == "cwd":
            if not (is_str(value) and value.value.startswith("/")):
                what = repr(value.value) if is_str(value) else describe(value)
                ctx.report(CWD, (key, value), f"cwd must be an absolute path, not {what}")
        elif name in ("queue", "bank", "project"):
            if not is_str(value):
                ctx.not_a_string(STRING_ATTR, (key, value), value, name)
        elif name == "job":
            _check_job(ctx, key, value)
        elif name == "shell":
            _check_shell(ctx, key, value)
        elif name == "dependencies":
            dependencies.check(ctx, key, value)
        elif name == "constraints":
            constraints.check(ctx, key, value)
        elif name == "files":
            files.check(ctx, key, value)


def _check_seconds(ctx: Context, key: Any, value: Any, code: str, fsd_code: str, name: str) -> None:
    if is_number(value):
        v = value.value
        if (isinstance(v, float) and math.isnan(v)) or v < 0:
            ctx.report(
                code, value, f"{name} must be a number of seconds >= 0, not {ctx.source(value)}"
            )
        elif isinstance(v, int) and v > 2**63 - 1:  # no float holds it; no job lasts that long
            ctx.report(
                code,
                value,
                f"{name} has {len(str(v))} digits: beyond any limit a job can have and "
                "beyond a 64-bit number; write 0 for no limit of its own",
            )
        return
    if is_str(value):
        try:
            seconds = formats.parse_fsd(value.value)
        except formats.FormatError:
            seconds = None
        if seconds is not None and math.isfinite(seconds):
            text = repr(int(seconds)) if float(seconds).is_integer() else repr(float(seconds))
            return ctx.report(
                fsd_code,
                value,
                f"{name} is in seconds, not a duration string: write {text} for {value.value!r}",
                data={"replacement": text, "seconds": seconds},
            )
    ctx.report(
        code, (key, value), f"{name} must be a number of seconds >= 0, not {describe(value)}"
    )


def check_environment(ctx: Context, key: Any, value: Any) -> None:
    if not isinstance(value, Mapping):
        return ctx.report(
            ENVIRONMENT,
            (key, value),
            f"environment must be a mapping of variable names to values, not {describe(value)}",
        )
    for k, v in value.pairs:
        if not is_str(k):
            ctx.report(
                ENVIRONMENT,
                k,
                f"environment variable names are strings; quote {ctx.source(k)}",
                data={"replacement": f'"{ctx.source(k)}"'},
            )
        if v.kind == "scalar" and (v.value is None or isinstance(v.value, str)):
            continue
        data = ctx.quoting(v)
        ctx.report(
            ENVIRONMENT,
            (k, v),
            f"environment values must be strings (or null to unset), "
            f"not {describe(v)}" + ("; quote it" if data else ""),
            data=data,
        )


def _check_job(ctx: Context, key: Any, value: Any) -> None:
    if not isinstance(value, Mapping):
        return ctx.report(
            JOB_META, (key, value), f"job must be a mapping of strings, not {describe(value)}"
        )
    for k, v in value.pairs:
        if not is_str(v):
            ctx.not_a_string(JOB_META, (k, v), v, f"job.{ctx.source(k)}")


def _check_shell(ctx: Context, key: Any, value: Any) -> None:
    if not isinstance(value, Mapping):
        return ctx.report(SHELL, (key, value), f"shell must be a mapping, not {describe(value)}")
    pair = value.pair("options")
    if pair is not None and not isinstance(pair[1], Mapping):
        ctx.report(SHELL, pair, f"shell.options must be a mapping, not {describe(pair[1])}")
