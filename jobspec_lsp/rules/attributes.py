"""JS4xx — `attributes`: user and system, and the RFC 14 system attributes."""

from __future__ import annotations

import math
from typing import Any

from jobspec_lsp.diagnostics import Severity, define
from jobspec_lsp.jobspec import examples, vocabulary
from jobspec_lsp.jobspec.document import Mapping, Scalar
from jobspec_lsp.notations import formats
from jobspec_lsp.rules import constraints, dependencies, files  # the JS5xx families hang off system
from jobspec_lsp.rules.base import (
    Context,
    check_keys,
    describe,
    did_you_mean,
    is_number,
    is_str,
    suggest,
)

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFORMATION


def _js(system: str) -> str:
    return examples.jobspec(system=examples.nested(system, 4))


ATTR_UNKNOWN = define(
    "JS401",
    "attributes-unknown-key",
    E,
    "`attributes` holds a key other than user and system.",
    rfc="RFC 14",
    why="RFC 14 attributes have two sections: system (read by Flux) and user (free for you).",
    bad=_js("duration: 0").replace("attributes:\n", "attributes:\n  name: test\n"),
    good=_js("duration: 0\njob: {name: test}"),
)
SECTION_TYPE = define(
    "JS402",
    "attributes-section-type",
    E,
    "`attributes.system` or `attributes.user` is not a mapping.",
    rfc="RFC 14",
    why="Both sections are dictionaries; if present they must have values.",
    bad=_js("duration: 0").replace("  system:\n    duration: 0\n", "  system:\n"),
    good=_js("duration: 0"),
)
SYSTEM_UNKNOWN = define(
    "JS403",
    "system-unknown-key",
    W,
    "A system attribute RFC 14 does not list.",
    fix="suggestion",
    rfc="RFC 14",
    why="Unrecognized system attributes only warn (a site may define its own), but most are "
    "typos of a known one — which then silently has no effect.",
    bad=_js("duration: 0\nqueu: batch"),
    good=_js("duration: 0\nqueue: batch"),
)
DURATION_TYPE = define(
    "JS404",
    "duration-value",
    E,
    "`duration` is not a number of seconds >= 0.",
    rfc="RFC 14",
    why="duration is a time limit in seconds (0 means unlimited).",
    bad=_js("duration: -5"),
    good=_js("duration: 5"),
)
DURATION_FSD = define(
    "JS405",
    "duration-fsd-string",
    E,
    '`duration` is a duration string like "1h" instead of seconds.',
    fix="replacement",
    safety="repair",
    rfc="RFC 14",
    why="`flux submit -t 1h` takes Flux Standard Duration strings, but in the jobspec the "
    "duration is a plain number of seconds. The quick-fix writes the number.",
    bad=_js("duration: 1h"),
    good=_js("duration: 3600"),
)
PREEMPTIBLE = define(
    "JS406",
    "preemptible-after-value",
    E,
    "`preemptible-after` is not a number of seconds >= 0.",
    fix="replacement",
    safety="repair",
    rfc="RFC 14",
    why="The time after which the job may be preempted, in seconds.",
    bad=_js("duration: 0\npreemptible-after: 10m"),
    good=_js("duration: 0\npreemptible-after: 600"),
)
ENVIRONMENT = define(
    "JS407",
    "environment-value",
    E,
    "`environment` is not a mapping of names to strings or null.",
    fix="replacement",
    safety="repair",
    rfc="RFC 14",
    why="Each environment variable is set to a string, or unset with null. Numbers are not "
    "converted for you: quote them.",
    bad=_js("duration: 0\nenvironment:\n  OMP_NUM_THREADS: 4"),
    good=_js('duration: 0\nenvironment:\n  OMP_NUM_THREADS: "4"'),
)
CWD = define(
    "JS408",
    "cwd-not-absolute",
    E,
    "`cwd` is not an absolute path.",
    rfc="RFC 14",
    why="The working directory is a string with an absolute path; a relative one has no base "
    "on the node where the job runs.",
    bad=_js("duration: 0\ncwd: work/run1"),
    good=_js("duration: 0\ncwd: /home/user/work/run1"),
)
STRING_ATTR = define(
    "JS409",
    "string-attribute",
    E,
    "`queue`, `bank` or `project` is not a string.",
    fix="replacement",
    safety="repair",
    rfc="RFC 14",
    why="These name a queue, bank or project and must be strings.",
    bad=_js("duration: 0\nqueue: 7"),
    good=_js('duration: 0\nqueue: "7"'),
)
JOB_META = define(
    "JS410",
    "job-metadata",
    E,
    "`job` is not a mapping of strings.",
    fix="replacement",
    safety="repair",
    rfc="RFC 14",
    why="Job metadata (name and other keys) is searched as text; every value must be a string.",
    bad=_js("duration: 0\njob:\n  name: 42"),
    good=_js('duration: 0\njob:\n  name: "42"'),
)
SHELL = define(
    "JS411",
    "shell-attribute",
    E,
    "`shell` or `shell.options` is not a mapping.",
    rfc="RFC 14",
    why="Job shell settings live in a dictionary, options in shell.options.",
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
            guess = suggest(name, SYSTEM_KEYS, cutoff=0.7)
            shown_name = name if isinstance(name, str) else ctx.source(key)
            ctx.report(
                SYSTEM_UNKNOWN,
                key,
                f"unknown system attribute {shown_name!r} (Flux may "
                f"ignore it){did_you_mean(guess)}",
                data={"suggestion": guess} if guess else None,
            )
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
                data = (
                    {"replacement": f'"{ctx.source(value)}"'}
                    if isinstance(value, Scalar) and value.end > value.start
                    else None
                )
                ctx.report(
                    STRING_ATTR,
                    (key, value),
                    f"{name} must be a string, not {describe(value)}",
                    data=data,
                )
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
        data = None
        if isinstance(v, Scalar) and v.end > v.start:
            data = {"replacement": f'"{ctx.source(v)}"'}
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
            data = (
                {"replacement": f'"{ctx.source(v)}"'}
                if isinstance(v, Scalar) and v.end > v.start
                else None
            )
            ctx.report(
                JOB_META,
                (k, v),
                f"job.{ctx.source(k)} must be a string, not {describe(v)}",
                data=data,
            )


def _check_shell(ctx: Context, key: Any, value: Any) -> None:
    if not isinstance(value, Mapping):
        return ctx.report(SHELL, (key, value), f"shell must be a mapping, not {describe(value)}")
    pair = value.pair("options")
    if pair is not None and not isinstance(pair[1], Mapping):
        ctx.report(SHELL, pair, f"shell.options must be a mapping, not {describe(pair[1])}")
