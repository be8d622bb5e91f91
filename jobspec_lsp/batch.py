"""Batch scripts: the options of RFC 36 directives checked as `flux batch` takes
them, and the jobspec `flux batch` builds for a script.

``OPTIONS`` declares every `flux batch` option once (long and short names, whether
it takes a value, whether it may repeat, what it does); the checks, completion,
hover and docs read it.  :func:`check_script` gives the JS56x–JS58x diagnostics of a
script; :func:`jobspec` the jobspec `flux batch --dry-run` prints for it, apart
from what `flux batch` copies from the submitting environment (the environment
variables and the resource limits), which a file cannot know.
"""

from __future__ import annotations

import difflib
import functools
import json
import math
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass

from . import convert, directives, formats, sbatch
from .diagnostics import Diagnostic, Severity, define

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFORMATION


@dataclass(frozen=True)
class Option:
    long: str  # without the dashes
    short: str | None
    value: str | None  # its metavar; None for a flag
    doc: str
    repeat: bool = False
    optional_value: bool = False  # --dump[=FILE]


OPTIONS: tuple[Option, ...] = (
    Option(
        "nodes",
        "N",
        "N",
        "spread the slots over N nodes (without -n: one slot per node, the nodes exclusive)",
    ),
    Option(
        "nslots", "n", "N", "how many resource slots the instance gets (each -c cores, -g gpus)"
    ),
    Option("cores-per-slot", "c", "N", "cores in each slot (default 1)"),
    Option("gpus-per-slot", "g", "N", "gpus in each slot"),
    Option("exclusive", "x", None, "with -N: whole nodes, not only the slots' cores"),
    Option(
        "time-limit",
        "t",
        "MIN|FSD",
        "time limit: minutes when a bare number, else a Flux Standard Duration (30s, 1.5h, 2d)",
    ),
    Option("queue", "q", "NAME", "the queue to submit to"),
    Option("bank", "B", "BANK", "the bank to charge"),
    Option("urgency", None, "N", "urgency 0-31 (0 holds the job, 31 expedites it; default 16)"),
    Option("job-name", None, "NAME", "the job's name (default: the script's file name)"),
    Option(
        "setopt",
        "o",
        "OPT[=VAL]",
        "a job shell option (VAL is JSON, else a string; 1 when absent)",
        repeat=True,
    ),
    Option(
        "setattr",
        "S",
        "ATTR[=VAL]",
        "a jobspec attribute (system. unless user. or system.; VAL is JSON, else a string)",
        repeat=True,
    ),
    Option("add-file", None, "[NAME=]PATH", "a file put in the job's {{tmpdir}}", repeat=True),
    Option("dependency", None, "URI", "an RFC 26 dependency (afterok:JOBID, ...)", repeat=True),
    Option(
        "requires",
        None,
        "CONSTRAINT",
        "RFC 35 constraints (property names, host:, rank:, and/or/not)",
        repeat=True,
    ),
    Option("begin-time", None, "+FSD|TIME", "do not start before this time"),
    Option(
        "env",
        None,
        "RULE",
        "environment rule: PATTERN to copy, VAR=VALUE to set, -PATTERN "
        "to remove, ^FILE to read rules",
        repeat=True,
    ),
    Option(
        "env-remove",
        None,
        "PATTERN",
        "remove environment variables (glob, or /regex/)",
        repeat=True,
    ),
    Option("env-file", None, "FILE", "read environment rules from FILE", repeat=True),
    Option("rlimit", None, "RULE", "which resource limits to copy (-* for none)", repeat=True),
    Option("unbuffered", "u", None, "no buffering of output"),
    Option("cwd", None, "DIRECTORY", "the job's working directory"),
    Option("flags", None, "FLAGS", "submission flags: debug, waitable, novalidate"),
    Option(
        "signal",
        None,
        "[SIG][@TIME]",
        "a signal before the time limit (default SIGUSR1 60s before)",
    ),
    Option(
        "output",
        None,
        "FILE",
        "where the instance's standard output goes (default flux-{{id}}.out)",
    ),
    Option("error", None, "FILE", "where standard error goes (default: with the output)"),
    Option(
        "conf",
        None,
        "CONF",
        "configuration of the child instance (KEY=VALUE, TOML or JSON, or a file)",
        repeat=True,
    ),
    Option("broker-opts", None, "OPTS", "options for the instance's brokers", repeat=True),
    Option("dump", None, "FILE", "archive the KVS on exit", optional_value=True),
    Option("wrap", None, None, "wrap the arguments in a /bin/sh script"),
    Option("dry-run", None, None, "print the jobspec instead of submitting"),
    Option("quiet", None, None, "do not print the job id"),
    Option("resources-shape", None, "SHAPE", "an RFC 46 shape as the whole resource request"),
)
BY_LONG = {o.long: o for o in OPTIONS}
BY_SHORT = {o.short: o for o in OPTIONS if o.short}

_S = "#!/bin/sh\n#flux: -N2\n#flux: --job-name=sim\n\nflux run -N2 ./sim\n"

UNKNOWN = define(
    "JS570",
    "directive-unknown-option",
    E,
    "A directive holds an option `flux batch` does not have.",
    why="`flux batch` refuses the whole script for an option it does not know. A close "
    "match is offered as a fix.",
    bad=_S.replace("--job-name=sim", "--jobname=sim"),
    good=_S,
    script=True,
)
NEEDS_VALUE = define(
    "JS571",
    "directive-option-needs-value",
    E,
    "An option that takes a value has none.",
    why="The value is the next word (`-N 2`), after `=` (`--nodes=2`) or, for a short "
    "option, attached (`-N2`); at the end of the directives there is none.",
    bad=_S.replace("-N2", "-N"),
    good=_S,
    script=True,
)
BAD_VALUE = define(
    "JS572",
    "directive-bad-value",
    E,
    "An option's value is not one `flux batch` accepts.",
    why="Counts are positive integers, -t minutes or a Flux Standard Duration, --urgency "
    "0 to 31, --requires an RFC 35 query, --dependency an RFC 26 URI, --setattr/--setopt "
    "a key (and a value): `flux batch` refuses anything else.",
    bad=_S.replace("-N2", "-N two"),
    good=_S,
    script=True,
)
REPEATED = define(
    "JS573",
    "directive-option-repeated",
    W,
    "An option that does not add up is given twice; the last one wins.",
    why="Options such as -N, -t or --job-name take one value: a second one silently "
    "replaces the first, which is rarely what was meant.",
    bad=_S.replace("--job-name=sim", "--job-name=sim -N4"),
    good=_S,
    script=True,
)
NOT_OPTION = define(
    "JS574",
    "directive-not-an-option",
    E,
    "A directive word that is not an option.",
    why="RFC 36 reserves directives that start with '-' for options; `flux batch` reads "
    "other words as the script and its arguments, which a directive cannot give.",
    bad=_S.replace("--job-name=sim", "--job-name sim extra"),
    good=_S,
    script=True,
)
NO_SLOTS = define(
    "JS580",
    "batch-no-slot-count",
    W,
    "Neither -N nor -n: `flux batch` needs one of them.",
    why='`flux batch` refuses a script without a node or slot count ("Number of slots to '
    'allocate must be specified") unless its command line gives one.',
    bad=_S.replace("#flux: -N2\n", ""),
    good=_S,
    script=True,
)
EXCLUSIVE = define(
    "JS581",
    "batch-exclusive-without-nodes",
    E,
    "-x/--exclusive without -N/--nodes.",
    why="Exclusive allocation is of whole nodes, so `flux batch` needs a node count with it.",
    bad=_S.replace("-N2", "-n2 -x"),
    good=_S.replace("-N2", "-N2 -x"),
    script=True,
)
TOO_MANY_NODES = define(
    "JS582",
    "batch-more-nodes-than-slots",
    E,
    "More nodes (-N) than slots (-n).",
    why="Each node needs at least one slot; `flux batch` refuses -N greater than -n.",
    bad=_S.replace("-N2", "-N4 -n2"),
    good=_S.replace("-N2", "-N2 -n4"),
    script=True,
)


@dataclass
class Given:
    """One option as a directive gives it."""

    option: Option
    name: directives.Word  # the word holding the option's name
    value: str | None
    value_start: int
    value_end: int


def parse_words(words: list[directives.Word], out: list[Diagnostic]) -> list[Given]:
    """The options the words give, in order; problems appended to ``out``."""
    given: list[Given] = []
    i = 0
    while i < len(words):
        w = words[i]
        v = w.value
        i += 1
        if v.startswith("--"):
            name, eq, val = v[2:].partition("=")
            opt = _long(name)
            if opt is None:
                out.append(_unknown(w, "--" + name, w.start, w.start + len(name) + 2))
                continue
            if opt.value is None:
                if eq:
                    out.append(
                        Diagnostic(BAD_VALUE, E, f"--{opt.long} takes no value", w.start, w.end)
                    )
                given.append(Given(opt, w, None, w.end, w.end))
                continue
            if eq:
                vs = w.start + len(name) + 3
                given.append(Given(opt, w, val, min(vs, w.end), w.end))
                continue
            if opt.optional_value:
                given.append(Given(opt, w, None, w.end, w.end))
                continue
            i = _next_value(words, i, opt, w, f"--{opt.long}", given, out)
            continue
        if v.startswith("-") and len(v) > 1:
            k = 1
            while k < len(v):
                ch = v[k]
                opt = BY_SHORT.get(ch)
                if opt is None:
                    at = w.start + k - (1 if k == 1 else 0)  # `-Z`, or the `Z` of `-xZ`
                    out.append(_unknown(w, "-" + ch, at, w.start + k + 1))
                    break
                if opt.value is None:
                    given.append(Given(opt, w, None, w.end, w.end))
                    k += 1
                    continue
                rest = v[k + 1 :]
                if rest:
                    given.append(Given(opt, w, rest, min(w.start + k + 1, w.end), w.end))
                else:
                    i = _next_value(words, i, opt, w, f"-{ch}", given, out)
                break
            continue
        out.append(
            Diagnostic(
                NOT_OPTION,
                E,
                f"{v!r} is not an option: directives give "
                "options only (the script is what follows them)",
                w.start,
                w.end,
            )
        )
    return given


def _next_value(words, i: int, opt: Option, w, shown: str, given, out) -> int:
    """``opt`` (written ``shown`` in the word ``w``) takes the next word as its value,
    unless there is none or it is an option; the index of the word after."""
    if i < len(words) and not _looks_like_option(words[i].value):
        nxt = words[i]
        given.append(Given(opt, w, nxt.value, nxt.start, nxt.end))
        return i + 1
    out.append(Diagnostic(NEEDS_VALUE, E, f"{shown} needs a value ({opt.value})", w.start, w.end))
    return i


def _looks_like_option(word: str) -> bool:
    """What argparse will not take as an option's value: a word starting with '-'
    that is not a negative number."""
    return word.startswith("-") and not word[1:2].isdigit()


def _long(name: str) -> Option | None:
    if name in BY_LONG:
        return BY_LONG[name]
    hits = [o for o in OPTIONS if o.long.startswith(name)] if name else []
    return hits[0] if len(hits) == 1 else None  # argparse takes a unique prefix


def _unknown(w: directives.Word, name: str, start: int, end: int) -> Diagnostic:
    names = ["--" + o.long for o in OPTIONS] + ["-" + o.short for o in OPTIONS if o.short]
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]}?" if close else ""
    data = {"replacement": close[0]} if close else None
    return Diagnostic(UNKNOWN, E, f"flux batch has no option {name}{hint}", start, end, data=data)


# --------------------------------------------------------------------------- values
def _int(value: str, least: int) -> int | None:
    try:
        n = int(value)
    except ValueError:
        return None
    return n if n >= least else None


@functools.lru_cache(maxsize=4096)
def value_problem(opt: Option, value: str) -> str | None:
    """Why ``value`` is not one `flux batch` takes for ``opt`` (None: it is).  Cached:
    the same values are checked again on every edit of a script."""
    name = opt.long
    if name in ("nodes", "nslots", "cores-per-slot"):
        return (
            None
            if _int(value, 1) is not None
            else f"--{name} takes a whole number of at least 1, not {value!r}"
        )
    if name == "gpus-per-slot":
        return (
            None if _int(value, 0) is not None else f"--{name} takes a whole number, not {value!r}"
        )
    if name == "urgency":
        if value in ("hold", "expedite", "default"):  # flux-core's names for 0, 31, 16
            return None
        n = _int(value, 0)
        return (
            None
            if n is not None and n <= 31
            else f"--urgency takes 0 to 31 (or hold, default, expedite), not {value!r}"
        )
    if name == "time-limit":
        try:
            convert.parse_time_limit(value)
        except convert.UsageError:
            return f"-t takes minutes or a Flux Standard Duration (30s, 1.5h, 2d), not {value!r}"
        return None
    if name == "requires":
        try:
            convert.parse_requires(value)
        except convert.UsageError as err:
            return str(err)
        return None
    if name == "dependency":
        try:
            convert.parse_dependency(value)
        except convert.UsageError as err:
            return str(err)
        return None
    if name in ("setattr", "setopt"):
        key = value.partition("=")[0]
        if not key or any(not part for part in key.lstrip(".^").split(".")):
            return f"--{name} takes KEY[=VALUE] with a key, not {value!r}"
        return None
    if name == "begin-time" and _ISO_T.fullmatch(value):
        return (
            f"flux-core 0.88 misreads the 'T' form (the job would begin at another time): "
            f"write {value.replace('T', ' ')!r}"
        )
    if name == "signal":
        try:
            signal_option(value)
        except BatchError as err:
            return str(err)
        return None
    if name == "begin-time" and value.startswith("+"):
        try:
            formats.parse_fsd(value[1:])
        except formats.FormatError:
            return f"--begin-time +FSD takes a Flux Standard Duration after '+', not {value!r}"
        return None
    if name == "cwd" and not value:
        return "--cwd needs a directory"
    if name in ("queue", "bank", "job-name") and not value:
        return f"--{name} needs a non-empty value"
    if name == "resources-shape":
        from . import shape

        try:
            shape.expand(value)
        except shape.ShapeError as err:
            return f"--resources-shape: {err.message}"
        return None
    return None


_ISO_T = re.compile(r"\d{4}-\d\d-\d\dT\d\d?:\d\d(?::\d\d(?:\.\d+)?)?")
_DATE_TIME = re.compile(r"(\d{4})-(\d\d)-(\d\d)(?: (\d\d?):(\d\d)(?::(\d\d))?)?")
_TIME = re.compile(r"(\d\d?):(\d\d)(?::(\d\d))?")


def signal_option(value: str) -> dict:
    """``--signal=[SIG][@TIME]`` as the job shell option flux-core writes."""
    import signal as signals

    sig, _, when = value.partition("@")
    signum = int(signals.SIGUSR1)
    if sig:
        if sig.isdigit():
            signum = int(sig)
        else:
            name = sig.upper() if sig.upper().startswith("SIG") else "SIG" + sig.upper()
            try:
                signum = int(signals.Signals[name])
            except KeyError:
                raise BatchError(f"--signal: {sig!r} is not a signal name or number") from None
        if signum <= 0:
            raise BatchError("--signal: the signal must be above 0")
    timeleft: float = 60
    if when:
        try:
            timeleft = formats.parse_fsd(when)
        except formats.FormatError:
            raise BatchError(f"--signal: {when!r} is not a Flux Standard Duration") from None
    return {"signum": signum, "timeleft": timeleft}


def begin_timestamp(value: str, now: float | None = None) -> float:
    """``--begin-time`` as the time stamp flux-core 0.88 computes, for the forms it reads
    predictably (+FSD; today, midnight, noon, tomorrow; HH:MM[:SS] today; YYYY-MM-DD
    [HH:MM[:SS]], a bare date keeping the current time of day as flux-core does)."""
    import datetime as dt

    now = time.time() if now is None else now
    if value.startswith("+"):
        return now + formats.parse_fsd(value[1:])
    current = dt.datetime.fromtimestamp(now)
    today = current.replace(hour=0, minute=0, second=0, microsecond=0)
    named = {
        "today": today,
        "midnight": today,
        "noon": today.replace(hour=12),
        "tomorrow": today + dt.timedelta(days=1),
    }
    if value.lower() in named:
        return named[value.lower()].timestamp()
    m = _TIME.fullmatch(value)
    if m:
        h, mi, se = int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
        return today.replace(hour=h, minute=mi, second=se).timestamp()
    m = _DATE_TIME.fullmatch(value)
    if m:
        y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if m.group(4) is None:
            return current.replace(year=y, month=mo, day=d, microsecond=0).timestamp()
        h, mi, se = int(m.group(4)), int(m.group(5)), int(m.group(6) or 0)
        return dt.datetime(y, mo, d, h, mi, se).timestamp()
    raise BatchError(
        f"--begin-time {value!r}: flux batch reads it with its own date parser; this "
        "tool computes +FSD, today, midnight, noon, tomorrow, HH:MM and YYYY-MM-DD [HH:MM]"
    )


# --------------------------------------------------------------------------- checks
def check_script(text: str, select=None, ignore=None) -> list[Diagnostic]:
    """Every problem of a script's directives, in text order, and the Slurm left in it
    (`#SBATCH` directives, `SLURM_*` variables, `srun`: see :mod:`.sbatch`); only the
    codes ``select``/``ignore`` enable, and none a `# jobspec: ignore` comment hides."""
    from . import suppress
    from .diagnostics import matches

    out = _flux_checks(text)
    out.extend(sbatch.diagnostics(text))
    if select or ignore:
        out = [
            d
            for d in out
            if (not select or matches(d.code, select)) and not (ignore and matches(d.code, ignore))
        ]
    out.sort(key=Diagnostic.sort_key)
    return suppress.apply(text, out, select, ignore)


def _flux_checks(text: str) -> list[Diagnostic]:
    script = directives.read(text)
    out = list(script.problems)
    if script.sentinel is None:
        return out
    given = parse_words(script.words, out)
    seen: dict[str, Given] = {}
    for g in given:
        if g.value is not None:
            why = value_problem(g.option, g.value)
            if why:
                out.append(
                    Diagnostic(
                        BAD_VALUE,
                        E,
                        why,
                        g.value_start,
                        min(max(g.value_end, g.value_start + 1), len(text)),
                    )
                )
        if not g.option.repeat and g.option.long in seen:
            first = seen[g.option.long]
            out.append(
                Diagnostic(
                    REPEATED,
                    W,
                    f"--{g.option.long} given again; this value replaces the one at "
                    f"{first.name.value!r}",
                    g.name.start,
                    g.name.end,
                )
            )
        seen[g.option.long] = g
    if "resources-shape" not in seen:
        nodes, slots = seen.get("nodes"), seen.get("nslots")
        if nodes is None and slots is None:
            a, b = script.sentinel_span
            out.append(
                Diagnostic(
                    NO_SLOTS,
                    W,
                    "no -N or -n in the directives: flux batch "
                    "refuses the script unless its command line gives one",
                    a,
                    b,
                )
            )
        if "exclusive" in seen and nodes is None:
            x = seen["exclusive"].name
            out.append(
                Diagnostic(
                    EXCLUSIVE,
                    E,
                    "-x/--exclusive needs -N/--nodes: it allocates whole nodes",
                    x.start,
                    x.end,
                )
            )
        if nodes and slots and nodes.value and slots.value:
            n, s = _int(nodes.value, 1), _int(slots.value, 1)
            if n and s and n > s:
                out.append(
                    Diagnostic(
                        TOO_MANY_NODES,
                        E,
                        f"-N {n} is more nodes than the {s} slots of -n: each node needs a slot",
                        nodes.value_start,
                        nodes.value_end,
                    )
                )
    out.sort(key=Diagnostic.sort_key)
    return out


# --------------------------------------------------------------------------- jobspec
class BatchError(ValueError):
    pass


SCRIPT_MODE = 0o100700  # a regular file, rwx for its owner: what flux batch writes


def jobspec(text: str, name: str, cwd: str, extra: Sequence[str] = ()) -> dict:
    """The jobspec `flux batch --dry-run [extra] SCRIPT` prints for a script with
    ``text`` named ``name`` submitted from ``cwd``, without the environment and the
    resource limits (copied from the submitter).  :class:`BatchError` for a
    script `flux batch` refuses."""
    script = directives.read(text)
    problems = [p for p in check_script(text) if p.severity == E]
    if problems:
        raise BatchError(problems[0].message)
    diags: list[Diagnostic] = []
    words = [directives.Word(w, 0, 0) for w in extra]
    given = parse_words(script.words + words, diags)
    if diags:
        raise BatchError(diags[0].message)
    o: dict = {}
    lists: dict[str, list[str]] = {}
    for g in given:
        if g.value is not None:
            why = value_problem(g.option, g.value)
            if why:
                raise BatchError(why)
        if g.option.long == "begin-time":  # flux-core adds it to the dependencies, in order
            stamp = begin_timestamp(g.value or "")
            lists.setdefault("dependency", []).append(f"begin-time:{stamp}")
        elif g.option.repeat:
            lists.setdefault(g.option.long, []).append(g.value or "")
        else:
            o[g.option.long] = g.value if g.option.value is not None else True
    if not text.startswith("#!"):
        raise BatchError("batch does not appear to start with '#!'")
    if "resources-shape" in o:
        from . import shape

        resources = shape.expand(o["resources-shape"], label="task")
        count = {"per_slot": 1}
    else:
        nodes = int(o["nodes"]) if "nodes" in o else None
        slots = int(o["nslots"]) if "nslots" in o else None
        if nodes is None and slots is None:
            raise BatchError("Number of slots to allocate must be specified")
        cores = int(o.get("cores-per-slot", 1))
        gpus = int(o.get("gpus-per-slot", 0))
        exclusive = bool(o.get("exclusive"))
        if exclusive and nodes is None:
            raise BatchError("-x/--exclusive needs -N/--nodes")
        children: list[dict] = [{"type": "core", "count": cores}]
        if gpus:
            children.append({"type": "gpu", "count": gpus})
        count = {"per_slot": 1}
        if nodes is not None:
            if slots is None:
                slots, exclusive = nodes, True
            if slots % nodes:
                count = {"total": slots}
            if nodes > slots:
                raise BatchError("more nodes than slots")
            top: dict = {"type": "node", "count": nodes}
            if exclusive:
                top["exclusive"] = True
            top["with"] = [
                {
                    "type": "slot",
                    "count": math.ceil(slots / nodes),
                    "with": children,
                    "label": "task",
                }
            ]
        else:
            top = {"type": "slot", "count": slots, "with": children, "label": "task"}
        resources = [top]
    command = ["flux", "broker"]
    files: dict = {}
    conf: dict = {}
    for c in lists.get("conf", []):
        conf = _merge_conf(conf, c)
    for b in lists.get("broker-opts", []):
        command.extend(b.split())
    if conf:
        command.append("-c{{tmpdir}}/conf.json")
        files["conf.json"] = {"mode": 0o100600, "data": conf}
    command.append("{{tmpdir}}/script")
    shell: dict = {
        "output": {"stdout": {"type": "file", "path": o.get("output", "flux-{{id}}.out")}},
    }
    if "error" in o:
        shell["output"]["stderr"] = {"type": "file", "path": o["error"]}
    if o.get("unbuffered"):
        shell["output"]["stdout"]["buffer"] = {"type": "none"}
        shell["output"].setdefault("stderr", {})["buffer"] = {"type": "none"}
        shell["output"]["batch-timeout"] = 0.05
        shell["input"] = {"batch-timeout": 0.0}
    shell["per-resource"] = {"type": "node"}
    shell["mpi"] = "none"
    shell["exit-timeout"] = "none"
    if "signal" in o:
        shell["signal"] = signal_option(o["signal"])
    for item in lists.get("setopt", []):
        key, eq, raw = item.partition("=")
        val: object = 1
        if eq:
            try:
                val = json.loads(raw)
            except ValueError:
                val = raw
        node = shell
        parts = key.split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = val
    system: dict = {
        "duration": 0,
        "cwd": o.get("cwd", cwd),
        "job": {"name": o.get("job-name", name)},
        "shell": {"options": shell},
    }
    if "time-limit" in o:
        system["duration"] = convert.parse_time_limit(o["time-limit"])
    if "queue" in o:
        system["queue"] = o["queue"]
    if "bank" in o:
        system["bank"] = o["bank"]
    if lists.get("dependency"):
        system["dependencies"] = [convert.parse_dependency(d) for d in lists["dependency"]]
    if lists.get("requires"):
        system["constraints"] = convert.parse_requires(" ".join(lists["requires"]))
    files["script"] = {"mode": SCRIPT_MODE, "data": text, "encoding": "utf-8"}
    system["files"] = files
    js = {
        "resources": resources,
        "tasks": [{"command": command, "slot": "task", "count": count}],
        "attributes": {"system": system},
        "version": 1,
    }
    for item in lists.get("setattr", []):
        convert._setattr(js, item)
    return js


def shown_jobspec(text: str, path: str, fmt: str = "yaml") -> str:
    """The jobspec of :func:`jobspec` as a document to read ("Show the jobspec"): YAML
    with a first comment saying what it is, or JSON.  :class:`BatchError` when
    `flux batch` would refuse the script."""
    import os

    js = jobspec(text, os.path.basename(path) or "script", os.path.dirname(path) or ".")
    out = convert.dump(js, fmt)
    if fmt == "json":
        return out
    return (
        f"# the jobspec `flux batch --dry-run {os.path.basename(path)}` builds, without the\n"
        "# environment and resource limits it copies from the submitter\n" + out
    )


def _merge_conf(conf: dict, value: str) -> dict:
    """``--conf KEY=VALUE`` (VALUE JSON when it parses) or a JSON object; TOML and
    files are not read here."""
    text = value.strip()
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except ValueError as err:
            raise BatchError(f"--conf: {err}") from None
        return _deep_merge(conf, data)
    key, eq, raw = value.partition("=")
    if not eq:
        raise BatchError(f"--conf {value!r}: only KEY=VALUE and JSON are read here")
    try:
        val = json.loads(raw)
    except ValueError:
        val = raw
    node: dict = {}
    cur = node
    parts = key.split(".")
    for part in parts[:-1]:
        cur = cur.setdefault(part, {})
    cur[parts[-1]] = val
    return _deep_merge(conf, node)


def _deep_merge(a: dict, b: dict) -> dict:
    out = dict(a)
    for k, v in b.items():
        out[k] = (
            _deep_merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
        )
    return out


# --------------------------------------------------------------------------- editor
def _names(o: Option) -> str:
    long = f"--{o.long}" + (f"={o.value}" if o.value else "")
    return f"`-{o.short}`, `{long}`" if o.short else f"`{long}`"


def option_doc(o: Option) -> str:
    """The markdown an editor shows for an option."""
    return f"{_names(o)}: {o.doc}" + (" (may be given more than once)" if o.repeat else "")


def _meaning(o: Option, value: str) -> str:
    """What a value means, in words, where there is something to say."""
    n = _int(value, 0)
    if o.long == "nodes" and n is not None:
        return f"{n} node{'s' if n != 1 else ''}"
    if o.long == "nslots" and n is not None:
        return f"{n} slot{'s' if n != 1 else ''}"
    if o.long == "cores-per-slot" and n is not None:
        return f"{n} core{'s' if n != 1 else ''} per slot"
    if o.long == "gpus-per-slot" and n is not None:
        return f"{n} gpu{'s' if n != 1 else ''} per slot"
    if o.long == "time-limit":
        try:
            seconds = convert.parse_time_limit(value)
        except convert.UsageError:
            return ""
        from .hover import human_duration

        return f"a time limit of {human_duration(seconds)}" if seconds else "no time limit"
    return ""


def hover_at(text: str, offset: int) -> tuple[str, int, int] | None:
    """(markdown, start, end) for the directive option under ``offset``."""
    script = directives.read(text)
    if script.sentinel is None:
        return None
    sink: list[Diagnostic] = []
    for g in parse_words(script.words, sink):
        lo, hi = g.name.start, max(g.name.end, g.value_end)
        if lo <= offset <= hi:
            md = option_doc(g.option)
            if g.value is not None:
                meaning = _meaning(g.option, g.value)
                why = value_problem(g.option, g.value)
                if meaning:
                    md += f"\n\nHere: {meaning}."
                elif why:
                    md += f"\n\n{why}."
            return md, lo, hi
    return None


def complete_at(text: str, offset: int, queues: Sequence[str] = ()):
    """(candidates, start, end): option names for the word being typed in a
    directive, or values for the option before the cursor where there is a set of them
    (``queues``: the project's queue names; dependency schemes, duration units,
    urgency names, submission flags); nothing elsewhere."""
    from .completion import Candidate

    line_start = text.rfind("\n", 0, offset) + 1
    line = text[line_start:offset]
    m = directives.SENTINEL.match(line)
    script = directives.read(text)
    if m is None or script.sentinel is None or m.group(0) != script.sentinel:
        return [], offset, offset
    word_start = offset
    while word_start > line_start + m.end() and not text[word_start - 1].isspace():
        word_start -= 1
    prefix = text[word_start:offset]
    opt, value_start = _value_being_typed(text, line_start + m.end(), word_start, prefix)
    if opt is not None:
        value = text[value_start:offset]
        return _values(opt, value, queues), value_start, offset
    if prefix and not prefix.startswith("-"):
        return [], offset, offset
    out = []
    for o in OPTIONS:
        label = f"--{o.long}"
        if not label.startswith(prefix) and not (o.short and f"-{o.short}".startswith(prefix)):
            continue
        insert = label + ("=" if o.value and not o.optional_value else "")
        out.append(Candidate(label, "key", o.value or "", option_doc(o), insert))
    return out, word_start, offset


def _value_being_typed(text: str, body: int, word_start: int, prefix: str):
    """(option, where its value starts) when the cursor is in an option's value:
    ``--opt=VAL``, ``-oVAL`` or the word after ``--opt``/``-o``; (None, 0) otherwise."""
    if prefix.startswith("--") and "=" in prefix:
        o = _long(prefix[2 : prefix.index("=")])
        return (o, word_start + prefix.index("=") + 1) if o and o.value else (None, 0)
    if prefix.startswith("-") and not prefix.startswith("--") and len(prefix) > 2:
        o = BY_SHORT.get(prefix[1])
        return (o, word_start + 2) if o and o.value and not o.optional_value else (None, 0)
    if prefix.startswith("-"):
        return None, 0
    before = text[body:word_start].split()
    if not before:
        return None, 0
    last = before[-1]
    if last.startswith("--") and "=" not in last:
        o = _long(last[2:])
    elif len(last) == 2 and last[0] == "-":
        o = BY_SHORT.get(last[1])
    else:
        return None, 0
    if o and o.value and not o.optional_value:
        return o, word_start
    return None, 0


_UNITS = (("s", "seconds"), ("m", "minutes"), ("h", "hours"), ("d", "days"))


def _values(o: Option, value: str, queues: Sequence[str]):
    from .completion import Candidate

    def some(items):
        return [
            Candidate(label, "value", detail, doc)
            for label, detail, doc in items
            if label.startswith(value)
        ]

    name = o.long
    if name == "queue":
        return some((q, "queue", "a queue of this project ([tool.jobspec] queues)") for q in queues)
    if name == "dependency":
        from .targets import _FluxCore

        return [
            Candidate(
                f"{s}:" if s != "singleton" else s,
                "value",
                "RFC 26 scheme",
                _SCHEME_DOCS.get(s, ""),
            )
            for s in _FluxCore.SCHEMES
            if s.startswith(value) and s != "begin-time"
        ]
    if name in ("time-limit", "begin-time"):
        sign = "+" if name == "begin-time" and value.startswith("+") else ""
        digits = value[len(sign) :]
        if digits and digits.replace(".", "", 1).isdigit():
            return [
                Candidate(f"{sign}{digits}{u}", "value", words, f"{digits} {words}")
                for u, words in _UNITS
            ]
        if name == "begin-time":
            return some(
                (w, "time", d)
                for w, d in (
                    ("+1h", "an hour from submission"),
                    ("tomorrow", "the next midnight"),
                    ("today", "today's midnight (already passed: at once)"),
                    ("noon", "today at 12:00"),
                )
            )
        return []
    if name == "urgency":
        return some(
            [
                ("hold", "0", "held until `flux job urgency ID default`"),
                ("default", "16", "the default urgency"),
                ("expedite", "31", "ahead of every other job"),
            ]
        )
    if name == "flags":
        return some(
            [
                ("waitable", "flag", "`flux job wait` can wait for it"),
                ("debug", "flag", "debug events from the job manager"),
                ("novalidate", "flag", "skip the ingest validator (instance owner only)"),
            ]
        )
    return []


_SCHEME_DOCS = {
    "after": "after:JOBID — once that job has started",
    "afterany": "afterany:JOBID — once that job has ended, however",
    "afterok": "afterok:JOBID — once that job has ended successfully",
    "afternotok": "afternotok:JOBID — once that job has failed",
    "singleton": "one job of this name and user at a time",
}
