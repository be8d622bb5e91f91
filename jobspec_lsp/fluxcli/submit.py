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
from typing import Any

from jobspec_lsp.fluxcli import argv, model, values
from jobspec_lsp.notations.formats import python_int

# options of `flux submit` that steer the submission, not the jobspec
SUBMISSION_ONLY = frozenset(
    {
        "wait", "wait-event", "watch", "verbose", "quiet", "dry-run", "progress", "jps",
        "log", "log-stderr", "urgency", "flags", "debug-emulate", "help", "list-plugins",
    }
)  # fmt: skip
# options that act on what flux submit copies from the submitting process (its
# environment, its limits): the environment rules are applied to the environment
# jobspec new starts from (none), the limits only checked (see _from_the_submitter)
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
    notes: list[str] = []
    reading = argv.read(cmd, _words(_empty_lists(cmd, words, notes)))
    for p in reading.problems:
        if p.kind == "unknown":
            raise NewUsageError(_unknown(cmd, p.name))
        raise NewUsageError(p.message)
    ns = argparse.Namespace(
        nodes=None, ntasks=None, cores_per_task=None, gpus_per_task=None, exclusive=False,
        shape=None, resources_json=None, time_limit=None, queue=None, bank=None, cwd=None,
        env=[], job_name=None, input=None, output=None, error=None, setattr=[], setopt=[],
        dependency=[], requires=[], format="yaml", flux_version=None, label_io=False,
        unbuffered=False, signal=None, taskmap=None, cores=None, tasks_per_node=None,
        tasks_per_core=None, gpus_per_node=None, add_file=[],
    )  # fmt: skip
    raw: dict[str, tuple[str, str]] = {}
    fmt = _copies(reading, ns, notes)
    for g in reading.given:
        _given(g, ns, notes, raw, fmt)
    _counts(ns, raw, notes)
    rest = [w.value for w in reading.rest]
    if fmt is not None:
        rest = [fmt(w) for w in rest]
        if ns.shape or ns.resources_json:  # flux-core 0.88: its shape plugin sets -N 1,
            # then never sees the shape or the file
            notes.append(
                "with --cc/--bcc, flux-core 0.88 does not apply --resources-shape or "
                "--resources-json: the job gets one whole node instead, as flux submit "
                "builds it"
            )
            ns.shape, ns.resources_json, ns.nodes = None, None, 1
    ns.command = rest
    return ns, notes


def _words(words: list[str]) -> list[argv.Word]:
    """``words`` as :func:`.argv.read` takes them, each at its offset in the line."""
    out, at = [], 0
    for w in words:
        out.append(argv.Word(w, at, at + len(w)))
        at += len(w) + 1
    return out


# the options for which the empty list Flux's parser makes of ``--opt=--`` (it drops the
# '--') reads as an empty value does: not given, or refused the same way
_EMPTY_LIST_AS_EMPTY = frozenset(
    {"nodes", "ntasks", "cores-per-task", "gpus-per-task", "cores", "tasks-per-node",
     "tasks-per-core", "gpus-per-node", "cc", "bcc", "signal", "input", "resources-shape",
     "resources-json"}
)  # fmt: skip


# the options whose value Flux writes into the jobspec as it is, an empty list too
_EMPTY_LIST_WRITTEN = frozenset({"queue", "bank", "job-name"})
_EMPTY_LIST = "\x00[]"  # stands for it among the words (no word of a command line holds NUL)


def _empty_lists(cmd: model.Command, words: list[str], notes: list[str]) -> list[str]:
    """``words`` with ``--opt=--`` (Flux's parser drops the '--' and makes the value an
    empty list) written ``--opt=`` where Flux then reads an empty value, and marked
    where Flux writes the empty list into the jobspec; the others stay refused."""
    first = argv.read(cmd, _words(words))
    starts = {w.start: k for k, w in enumerate(_words(words))}
    out = list(words)
    for p in first.problems:
        o, k = p.option, starts.get(p.start)
        if p.kind != "bad-value" or o is None or k is None:
            continue
        if o.long in _EMPTY_LIST_AS_EMPTY or o.long in SUBMISSION_ONLY:
            out[k] = f"--{o.long}="
            notes.append(f"{words[k]}: Flux's parser drops the '--': an empty value")
        elif o.long in _EMPTY_LIST_WRITTEN:
            out[k] = f"--{o.long}={_EMPTY_LIST}"
            notes.append(f"{words[k]}: Flux's parser drops the '--': the value is an empty list")
    return out


def _unknown(cmd: model.Command, name: str) -> str:
    names = [f"--{n}" for n in cmd.by_long] + [f"-{s}" for s in cmd.by_short]
    hint = ""
    prefix = [n for n in names if n.startswith(name)] if name.startswith("--") else []
    if len(prefix) == 1:
        hint = f"; Flux takes no abbreviation: write {prefix[0]}"
    else:
        close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]}?" if close else ""
    return f"flux submit has no option {argv.brief(name)}{hint}"


# the options flux submit reads as whole numbers, converting only a value that is not
# empty (its int() runs after the options are read: the last one given is the one read)
_INTS = frozenset(
    {"nodes", "ntasks", "cores-per-task", "gpus-per-task", "cores", "tasks-per-node",
     "tasks-per-core", "gpus-per-node"}
)  # fmt: skip


def _given(
    g: argv.Given,
    ns: argparse.Namespace,
    notes: list[str],
    raw: dict[str, tuple[str, str]],
    fmt: Callable[[str], str] | None,
) -> None:
    """One option given, into ``ns`` as flux submit reads it."""
    o = g.option
    name = o.long
    if o.choices is not None and g.value is not None and g.value not in o.choices:
        taken = ", ".join(repr(c) for c in o.choices)  # a site plugin's option
        raise NewUsageError(f"--{name}: invalid choice {g.value!r} (choose from {taken})")
    if name in SUBMISSION_ONLY:
        notes.append(f"--{name} steers the submission; the jobspec is the same without it")
        return
    if name in NOT_BUILT:
        raise NewUsageError(
            f"--{name}: flux submit takes it, but jobspec new does not build its effect on "
            "the jobspec yet"
        )
    if name in ("cc", "bcc", "flux-version"):
        return  # read by _copies, and by read
    value: Any = g.value
    if value == _EMPTY_LIST:
        value = []
    elif fmt is not None and name in _COPIED and value is not None:
        value = fmt(value)
    if name in FROM_THE_SUBMITTER:
        _from_the_submitter(name, value or "", ns, notes)
    elif name == "begin-time":  # flux submit adds it to the dependencies, in order
        why = values.begin_time_problem(value or "")
        if why:
            raise NewUsageError(why)
        try:
            ns.dependency.append(f"begin-time:{values.begin_timestamp(value or '')}")
        except values.Refused as err:
            raise NewUsageError(str(err)) from None
        notes.append(f"--begin-time {value}: the time stamp is computed now")
    elif name in _INTS:
        raw[name] = (name, value or "")  # read once all are given: the last one wins
    elif o.value is None:
        setattr(ns, _dest(name), True)
    elif o.repeat and isinstance(getattr(ns, _dest(name), None), list):
        getattr(ns, _dest(name)).append(value)
    else:
        setattr(ns, _dest(name), value)


def _dest(name: str) -> str:
    return {"resources-shape": "shape"}.get(name, name.replace("-", "_"))


def _from_the_submitter(name: str, value: str, ns: argparse.Namespace, notes: list[str]) -> None:
    """``--env-remove`` and ``--env-file`` are environment rules in the order given
    (``-PATTERN``, ``^FILE``); ``--rlimit`` is checked, then noted: the limits are the
    submitting process's."""
    if name == "env-remove":
        ns.env.append("-" + value)
    elif name == "env-file":
        ns.env.append("^" + value)
    else:
        why = values.rlimit_problem(value)
        if why:
            raise NewUsageError(why)
        notes.append(
            f"--{name} acts on the resource limits flux submit copies from the submitting "
            "process, which a jobspec file does not hold"
        )


def _counts(ns: argparse.Namespace, raw: dict[str, tuple[str, str]], notes: list[str]) -> None:
    """The whole-number options, as flux submit converts them once all are read: an
    empty value is not converted (-n and -c then read as not given; -g as none beside
    the per-resource options), and -N is not read at all beside a shape or a JSON
    resources file (Flux's shape plugin sets one node first)."""
    per_resource = any(k in raw for k in ("cores", "tasks-per-node", "tasks-per-core",
                                          "gpus-per-node"))  # fmt: skip
    if "nodes" in raw and (ns.shape or ns.resources_json) and python_int(raw["nodes"][1]) is None:
        notes.append("-N ignored: with the resources given whole, flux submit sets one node")
        del raw["nodes"]  # never read; a number is noted with the others (see build)
    for name, (_, value) in raw.items():
        if value == "" and name in ("ntasks", "cores-per-task"):
            notes.append(f"--{name} '': flux submit takes it as not given")
            setattr(ns, _dest(name), 0)
            continue
        if value == "" and name == "gpus-per-task" and per_resource:
            continue
        n = python_int(value)
        if n is None:  # as flux submit says it
            raise NewUsageError(f"--{name}: invalid int value {value!r}")
        if n == 0 and name in ("ntasks", "cores-per-task", "gpus-per-task"):
            # flux submit reads 0 as "not given": one task, one core, no gpu
            notes.append(f"--{name} 0: flux submit takes it as not given")
        setattr(ns, _dest(name), None if n == 0 and name == "gpus-per-task" else n)


def _copies(
    reading: argv.Reading, ns: argparse.Namespace, notes: list[str]
) -> Callable[[str], str] | None:
    """``--cc``/``--bcc IDSET``: flux submit submits a copy of the job per id, each
    with ``{cc}`` in its command and options replaced by the id (and, with --cc,
    FLUX_JOB_CC=id in its environment). `jobspec new` writes the first copy, as
    `flux submit --dry-run` prints it; returns the formatter, or None."""

    given = {g.option.long: g.value for g in reading.given if g.option.long in ("cc", "bcc")}
    for name in [n for n, v in given.items() if not v]:  # an empty one is not given
        notes.append(f"--{name} '': flux submit takes it as not given")
        del given[name]
    if not given:
        return None
    if len(given) == 2:
        raise NewUsageError("give --cc or --bcc, not both (flux submit refuses them together)")
    ((name, value),) = given.items()
    runs = values.flux_idset(value or "")
    if runs is None:
        raise NewUsageError(f"--{name} {value!r}: not an idset Flux reads (0-3,7)")
    if not runs:
        raise NewUsageError(f"--{name} {value!r}: the idset is empty (flux submit submits nothing)")
    first = runs[0][0]
    copies = sum(hi - lo + 1 for lo, hi in runs)
    notes.append(
        f"--{name} {value}: flux submit submits {copies} cop{'ies' if copies != 1 else 'y'}; "
        f"this is the first ({{cc}} = {first}), as flux submit --dry-run prints it"
    )
    if name == "cc":
        ns.job_cc = str(first)  # set once the jobspec is built, whatever the --env rules
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
        elif o.long == "rlimit":
            what += " [from the submitting process: not in a jobspec file]"
        elif o.long in FROM_THE_SUBMITTER or o.long == "env":
            what += " [applied in order to an empty environment, not to a copy of yours]"
        elif o.long in NOT_BUILT:
            what += " [not built by jobspec new yet]"
        lines.append(f"  {names}")
        lines.extend(textwrap.wrap(what, 84, initial_indent="      ", subsequent_indent="      "))
    lines += ["", epilog]
    return "\n".join(lines)


# `jobspec new`'s own options that only it reads, beside those in command()
_FROM_BATCH = model.Option("from-batch", None, "SCRIPT", "the jobspec of a batch script")
_SITE = model.Option("site", None, "DIR", "a site profile to check the jobspec against")


def own_options_first(words: list[str]) -> list[str]:
    """``words`` of `jobspec new` with its own ``--from-batch SCRIPT`` (read among
    flux batch's options) or ``-h``/``--help`` (among flux submit's) moved to the front
    wherever they stand among the options, as an argparse user expects; a word from the
    command on (the first that is not an option, or ``--``) is never moved."""
    for table, names in ((_with_own("batch"), ("from-batch",)), (_with_own("submit"), _HELP)):
        wanted = _first_given(table, words, names)
        if wanted is not None:
            k, n = wanted
            if names == _HELP and words[k].partition("=")[0] not in ("-h", "--help"):
                return words  # -h grouped with flags (-xh): flux submit's reading says
            return words[k : k + n] + words[:k] + words[k + n :]
    return words


_HELP = ("help", "h")


def _with_own(name: str) -> model.Command:
    """flux ``name``'s options with `jobspec new`'s own."""
    base = model.command(name)
    own = {"format": _FORMAT, "flux-version": _FLUX_VERSION, "from-batch": _FROM_BATCH,
           "site": _SITE}  # fmt: skip
    options = (*base.options, *own.values())
    shorts = {**base.by_short, "h": _SHORT_HELP} if "h" not in base.by_short else base.by_short
    return model.Command(name, base.version, options, {**base.by_long, **own},
                         dict(shorts), base.raw)  # fmt: skip


_SHORT_HELP = model.Option("h", "h", None, "jobspec new -h: the options")


def _first_given(
    table: model.Command, words: list[str], names: tuple[str, ...]
) -> tuple[int, int] | None:
    """(index, number of words) of the first option named ``names`` that ``words``
    give before the command, read as argparse reads them with ``table``."""
    starts, at = {}, 0
    for k, w in enumerate(words):
        starts[at] = k
        at += len(w) + 1
    reading = argv.read(table, [argv.Word(w, s, s + len(w)) for s, w in zip(starts, words)])
    for g in reading.given:
        if g.option.long in names:
            k = starts[g.name.start]
            value_apart = g.value is not None and g.value_start > g.name.end
            return k, 2 if value_apart else 1
    return None
