"""`jobspec new`'s command line: `flux submit`'s options, from Flux's own parser (the
option table), read as Flux reads them, and turned into what :func:`.build.submit_jobspec`
builds. Every option of `flux submit` is known: those that only steer the submission
(``--wait``, ``-v``, ``--quiet``, ...) are accepted and said to leave the jobspec as it
is; those whose effect on the jobspec this tool does not build yet are refused by name,
never mistaken for unknown options."""

from __future__ import annotations

import argparse
import difflib
import textwrap
from collections.abc import Callable

from jobspec_lsp.fluxcli import argv, model, values
from jobspec_lsp.notations.formats import FormatError, parse_idset, python_int

# options of `flux submit` that steer the submission, not the jobspec
SUBMISSION_ONLY = frozenset(
    {
        "wait", "wait-event", "watch", "verbose", "quiet", "dry-run", "progress", "jps",
        "log", "log-stderr", "urgency", "flags", "debug-emulate", "help", "list-plugins",
    }
)  # fmt: skip
# options whose effect comes from the submitting process (its environment, its limits):
# a jobspec file cannot know them, as with the environment flux submit copies
FROM_THE_SUBMITTER = frozenset({"env-remove", "env-file", "rlimit"})
# options this tool does not carry into a jobspec yet (refused by name)
NOT_BUILT: frozenset[str] = frozenset()
# the options whose text flux submit formats with {cc} for each copy (its Xcmd)
_COPIED = frozenset(
    {
        "queue", "bank", "ntasks", "nodes", "cores-per-task", "gpus-per-task", "cores",
        "tasks-per-node", "tasks-per-core", "gpus-per-node", "time-limit", "env", "setopt",
        "setattr", "job-name", "input", "output", "error", "dependency", "taskmap",
        "requires", "cwd", "begin-time", "signal",
    }
)  # fmt: skip


def _copy_formatter(cc: int) -> Callable[[str], str]:
    """``str.format(cc=...)`` as flux submit formats a copy's words: ``{{...}}`` (a
    mustache template for the job shell) kept, any other brace a refusal."""

    def fmt(text: str) -> str:
        kept = text.replace("{{", "\x00").replace("}}", "\x01")
        try:
            out = kept.format(cc=cc)
        except (KeyError, IndexError, ValueError) as err:
            raise NewUsageError(
                f"{text!r}: with --cc/--bcc flux submit formats each word, and this one "
                f"holds a replacement it does not know ({err})"
            ) from None
        return out.replace("\x00", "{{").replace("\x01", "}}")

    return fmt


# `jobspec new`'s own options, beside flux submit's
_FORMAT = model.Option(
    "format", None, "yaml|json", "yaml (default) or json, for flux job submit", dest="format"
)


_FLUX_VERSION = model.Option(
    "flux-version",
    None,
    "VERSION",
    "read the options as this Flux version's flux submit reads them (default: "
    "[tool.jobspec] flux-version, else the newest in the option table)",
    dest="flux_version",
)


class NewUsageError(ValueError):
    pass


def command() -> model.Command:
    """`flux submit`'s options and ``--format``."""
    submit = model.command("submit")
    options = (*submit.options, _FORMAT, _FLUX_VERSION)
    return model.Command(
        "submit",
        submit.version,
        options,
        {**submit.by_long, "format": _FORMAT, "flux-version": _FLUX_VERSION},
        dict(submit.by_short),
        submit.raw,
    )


def read(words: list[str]) -> tuple[argparse.Namespace, list[str]]:
    """(the namespace :func:`.build.submit_jobspec` takes, notes) of `jobspec new WORDS`;
    :class:`NewUsageError` for what flux submit, or this tool, refuses. The words are
    read with the option table of ``--flux-version`` when they give one, else of the
    version chosen by the caller (``model.using``)."""
    first = argv.read(command(), [argv.Word(w, 0, len(w)) for w in words])
    chosen = [g.value for g in first.given if g.option.long == "flux-version"]
    if not chosen or model.resolve(chosen[-1] or "") == model.selected_version():
        return _read(words)
    why = model.version_problem(chosen[-1] or "")
    if why:
        raise NewUsageError(f"--flux-version: {why}")
    with model.using(chosen[-1]):
        return _read(words)


def _read(words: list[str]) -> tuple[argparse.Namespace, list[str]]:

    cmd = command()
    reading = argv.read(cmd, [argv.Word(w, 0, len(w)) for w in words])
    for p in reading.problems:
        if p.kind == "unknown":
            names = [f"--{n}" for n in cmd.by_long] + [f"-{s}" for s in cmd.by_short]
            hint = ""
            prefix = [n for n in names if n.startswith(p.name)] if p.name.startswith("--") else []
            if len(prefix) == 1:
                hint = f"; Flux takes no abbreviation: write {prefix[0]}"
            else:
                close = difflib.get_close_matches(p.name, names, n=1, cutoff=0.6)
                hint = f"; did you mean {close[0]}?" if close else ""
            raise NewUsageError(f"flux submit has no option {argv.brief(p.name)}{hint}")
        raise NewUsageError(p.message)
    ns = argparse.Namespace(
        nodes=None, ntasks=None, cores_per_task=None, gpus_per_task=None, exclusive=False,
        shape=None, time_limit=None, queue=None, bank=None, cwd=None, env=[], job_name=None,
        input=None, output=None, error=None, setattr=[], setopt=[], dependency=[],
        requires=[], format="yaml", flux_version=None, label_io=False, unbuffered=False, signal=None,
        taskmap=None, cores=None, tasks_per_node=None, tasks_per_core=None,
        gpus_per_node=None, add_file=[],
    )  # fmt: skip
    notes: list[str] = []
    raw: dict[str, tuple[str, str]] = {}
    fmt = _copies(reading, ns, notes)
    ints = {"nodes", "ntasks", "cores-per-task", "gpus-per-task", "cores", "tasks-per-node",
            "tasks-per-core", "gpus-per-node"}  # fmt: skip
    for g in reading.given:
        o = g.option
        name = o.long
        if o.choices is not None and g.value is not None and g.value not in o.choices:
            taken = ", ".join(repr(c) for c in o.choices)  # a site plugin's option
            raise NewUsageError(f"--{name}: invalid choice {g.value!r} (choose from {taken})")
        if name in SUBMISSION_ONLY:
            notes.append(f"--{name} steers the submission; the jobspec is the same without it")
            continue
        if name in FROM_THE_SUBMITTER:
            notes.append(
                f"--{name} acts on what flux submit copies from the submitting process "
                "(its environment or limits), which a jobspec file does not hold"
            )
            continue
        if name in NOT_BUILT:
            raise NewUsageError(
                f"--{name}: flux submit takes it, but jobspec new does not build its "
                "effect on the jobspec yet"
            )
        if name in ("cc", "bcc", "flux-version"):
            continue  # read by _copies, and by read
        dest = {"resources-shape": "shape"}.get(name, name.replace("-", "_"))
        value = g.value
        if fmt is not None and name in _COPIED and value is not None:
            value = fmt(value)
        if name == "begin-time":  # flux submit adds it to the dependencies, in order
            why = values.begin_time_problem(value or "")
            if why:
                raise NewUsageError(why)
            try:
                ns.dependency.append(f"begin-time:{values.begin_timestamp(value or '')}")
            except values.Refused as err:
                raise NewUsageError(str(err)) from None
            notes.append(f"--begin-time {value}: the time stamp is computed now")
            continue
        if name in ints:
            raw[dest] = (name, value or "")  # read once all are given: the last one wins
        elif o.value is None:
            setattr(ns, dest, True)
        elif isinstance(getattr(ns, dest, None), list):
            getattr(ns, dest).append(value)
        else:
            setattr(ns, dest, value)
    for dest, (name, value) in raw.items():
        n = python_int(value)
        if n is None:  # as flux submit says it
            raise NewUsageError(f"--{name}: invalid int value {value!r}")
        if n == 0 and dest in ("ntasks", "cores_per_task", "gpus_per_task"):
            # flux submit reads 0 as "not given": one task, one core, no gpu
            notes.append(f"--{name} 0: flux submit takes it as not given")
            continue
        setattr(ns, dest, n)
    rest = [w.value for w in reading.rest]
    if fmt is not None:
        rest = [fmt(w) for w in rest]
        if ns.shape:  # flux-core 0.88: its shape plugin sets -N 1, then never sees the shape
            notes.append(
                "with --cc/--bcc, flux-core 0.88 does not apply --resources-shape: the job "
                "gets one whole node instead, as flux submit builds it"
            )
            ns.shape, ns.nodes = None, 1
    ns.command = rest
    return ns, notes


def _copies(
    reading: argv.Reading, ns: argparse.Namespace, notes: list[str]
) -> Callable[[str], str] | None:
    """``--cc``/``--bcc IDSET``: flux submit submits a copy of the job per id, each
    with ``{cc}`` in its command and options replaced by the id (and, with --cc,
    FLUX_JOB_CC=id in its environment). `jobspec new` writes the first copy, as
    `flux submit --dry-run` prints it; returns the formatter, or None."""

    given = {g.option.long: g.value for g in reading.given if g.option.long in ("cc", "bcc")}
    if not given:
        return None
    if len(given) == 2:
        raise NewUsageError("give --cc or --bcc, not both (flux submit refuses them together)")
    ((name, value),) = given.items()
    try:
        runs = parse_idset(value or "")
    except FormatError as err:
        raise NewUsageError(f"--{name} {value!r}: {err.message}") from None
    if not runs:
        raise NewUsageError(f"--{name} {value!r}: the idset is empty")
    first = runs[0][0]
    copies = sum(hi - lo + 1 for lo, hi in runs)
    notes.append(
        f"--{name} {value}: flux submit submits {copies} cop{'ies' if copies != 1 else 'y'}; "
        f"this is the first ({{cc}} = {first}), as flux submit --dry-run prints it"
    )
    if name == "cc":
        ns.env.append(f"FLUX_JOB_CC={first}")
    return _copy_formatter(first)


def help_text(description: str, epilog: str) -> str:
    """`jobspec new -h`: every option of flux submit, from the option table, in the
    project's words, with what `jobspec new` does with it."""

    lines = [
        "usage: jobspec new [OPTIONS...] [--format yaml|json] [--] COMMAND [ARGS...]",
        "       jobspec new --from-batch SCRIPT [--format yaml|json] [OPTIONS...]",
        "",
        textwrap.fill(description, 88),
        "",
        f"options (flux submit's, Flux {model.default_version()}):",
    ]
    for o in sorted(command().options, key=lambda o: o.long):
        if o.hidden and o.long not in ("input", "label-io", "output", "error"):
            continue
        names = (f"-{o.short}, " if o.short else "") + f"--{o.long}"
        if o.value:
            names += f"={o.value}" if not o.optional_value else f"[={o.value}]"
        what = o.doc
        if o.long in SUBMISSION_ONLY:
            what += " [submission only: the jobspec is the same]"
        elif o.long in FROM_THE_SUBMITTER:
            what += " [from the submitting process: not in a jobspec file]"
        elif o.long in NOT_BUILT:
            what += " [not built by jobspec new yet]"
        lines.append(f"  {names}")
        lines.extend(textwrap.wrap(what, 84, initial_indent="      ", subsequent_indent="      "))
    lines += ["", epilog]
    return "\n".join(lines)
