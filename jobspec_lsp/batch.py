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

from . import convert, directives, formats, sbatch
from .diagnostics import Diagnostic, Severity, define
from .fluxcli import model as _model
from .fluxcli.argv import Given, Problem, Word
from .fluxcli.argv import brief as _brief
from .fluxcli.model import Option

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFORMATION

BATCH = _model.command("batch")
FLUX_VERSION = BATCH.version
MODEL = _model.versions()[FLUX_VERSION]
OPTIONS: tuple[Option, ...] = BATCH.options
BY_LONG = BATCH.by_long
BY_SHORT = BATCH.by_short

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
    why="Each value is read as Flux reads it: counts are whole numbers (as Python's int() "
    "reads them, at most 64 bits), -t minutes or a Flux Standard Duration, --urgency 0 to "
    "31 or hold/default/expedite, --signal a capitalised signal name or a number, "
    "--rlimit known limit names with whole numbers or unlimited, --begin-time a real date "
    "and time, --requires an RFC 35 query, --dependency an RFC 26 URI whose job id is "
    "one (a directive is not read by the shell: `$PREV_JOB` stays those characters), "
    "--conf KEY=VALUE, a .toml/.json file or a named configuration that exists, and "
    "--setattr/--setopt into the jobspec Flux builds, where ingest checks the result "
    "(`system.duration=1h` is refused). `flux batch` refuses anything else.",
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
    W,
    "A directive word that is not an option: Flux drops it and the rest of the directive.",
    why="`flux batch` reads each directive as a command line: the first word that is not "
    "an option starts the script and its arguments, which the real command line then "
    "replaces. That word and every word after it in the directive are silently dropped, "
    "options included (`-n1 foo -N2` never asks for 2 nodes). A directive whose first word "
    "is not an option is refused outright (an error).",
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


def parse_words(words: list[Word], out: list[Diagnostic]) -> list[Given]:
    """The options the words of one directive give, in order, read as `flux batch`'s
    argparse parser reads them (:mod:`.fluxcli.argv`); problems appended to ``out``.

    A directive whose first word is not an option is refused by Flux (an unknown
    directive); otherwise the first word that is not an option starts the script's
    arguments, and it and every word after it in the directive are dropped (JS574
    warns)."""
    from .fluxcli import argv

    if words and not words[0].value.startswith("-"):
        first, last = words[0], words[-1]
        out.append(
            Diagnostic(
                NOT_OPTION,
                E,
                f"a directive starts with an option: flux batch refuses the script at "
                f"{_brief(first.value)} (an unknown directive)",
                first.start,
                last.end,
            )
        )
        return []
    reading = argv.read(BATCH, words)
    for p in reading.problems:
        out.append(_diagnostic(p))
    if reading.rest:
        _dropped(reading.rest, out)
    return reading.given


def _diagnostic(p: Problem) -> Diagnostic:
    if p.kind == "unknown":
        return _unknown(p.name, p.start, p.end)
    code = NEEDS_VALUE if p.kind == "needs-value" else BAD_VALUE
    return Diagnostic(code, E, p.message, p.start, p.end)


def _dropped(rest: list[Word], out: list[Diagnostic]) -> None:
    """The words from the first non-option word on: Flux takes them as the script and
    its arguments, and the command line replaces them; nothing of them is used."""
    first, last = rest[0], rest[-1]
    n = len(rest) - 1
    more = f" and the {n} word{'s' if n > 1 else ''} after it" if n else ""
    out.append(
        Diagnostic(
            NOT_OPTION,
            W,
            f"{_brief(first.value)} is not an option: flux batch drops it{more} "
            "(directives give options only; the script is what follows them)",
            first.start,
            last.end,
        )
    )


def parse_script(script: directives.Script, out: list[Diagnostic]) -> list[Given]:
    """The options of every directive of ``script``, each directive read on its own
    as `flux batch` reads it."""
    memo = getattr(script, "_parsed", None)
    if memo is None:  # a script is read once per text (directives.read is cached)
        found: list[Diagnostic] = []
        given: list[Given] = []
        for d in script.directives:
            given.extend(parse_words(d.words, found))
        memo = (tuple(given), tuple(found))
        script._parsed = memo
    out.extend(memo[1])
    return list(memo[0])


def _long(name: str) -> Option | None:
    return BY_LONG.get(name)  # no abbreviations: Flux's parsers have allow_abbrev=False


def _unknown(name: str, start: int, end: int) -> Diagnostic:
    names = [f"--{n}" for n in BY_LONG] + ["-" + o.short for o in OPTIONS if o.short]
    shown = name if len(name) <= 40 else None
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6) if shown else []
    prefix = [n for n in names if n.startswith(name)] if name.startswith("--") else []
    hint = ""
    if len(prefix) == 1:
        close = prefix
        hint = f"; Flux takes no abbreviation: write {prefix[0]}"
    elif close:
        hint = f"; did you mean {close[0]}?"
    data = {"replacement": close[0]} if close else None
    what = shown or _brief(name)
    return Diagnostic(UNKNOWN, E, f"flux batch has no option {what}{hint}", start, end, data=data)


# --------------------------------------------------------------------------- values
_COUNT_MAX = 2**63 - 1  # a jobspec count is a 64-bit integer to Flux's JSON reader


def _int(value: str, least: int) -> int | None:
    """``value`` as Flux's ``type=int`` reads it, when at least ``least`` and small
    enough for a jobspec; None otherwise."""
    n = formats.python_int(value)
    return n if n is not None and least <= n <= _COUNT_MAX else None


def _int_problem(opt: Option, value: str, least: int) -> str | None:
    n = formats.python_int(value)
    shown = _brief(value)
    if n is None:
        return f"--{opt.long} takes a whole number, not {shown}"
    if n < least:
        return f"--{opt.long} takes a whole number of at least {least}, not {shown}"
    if n > _COUNT_MAX:
        return f"--{opt.long} {shown} is too large: Flux refuses counts beyond 64 bits"
    return None


def value_problem(opt: Option, value: str) -> str | None:
    """Why ``value`` is not one `flux batch` takes for ``opt`` (None: it is)."""
    if opt.long == "conf":  # looks at the submitter's files: never cached
        return conf_problem(value)
    return _value_problem(opt, value)


@functools.lru_cache(maxsize=4096)
def _value_problem(opt: Option, value: str) -> str | None:
    """:func:`value_problem` of a value that depends on nothing else. Cached: the same
    values are checked again on every edit of a script."""
    name = opt.long
    if name in ("nodes", "cores-per-slot"):
        return _int_problem(opt, value, 1)
    if name == "nslots":  # flux batch takes 0 as not given (then -N decides)
        return _int_problem(opt, value, 0)
    if name == "gpus-per-slot":
        return _int_problem(opt, value, 0)
    if opt.integer:
        return _int_problem(opt, value, 0)
    if name == "rlimit":
        return rlimit_problem(value)
    if name == "begin-time":
        return begin_time_problem(value)
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
            return Limit(err) if "too deeply" in str(err) else str(err)
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
    if name == "signal":
        try:
            signal_option(value)
        except BatchError as err:
            return str(err)
        return None
    if name == "cwd" and not value:
        return "--cwd needs a directory"
    if name in ("queue", "bank") and not value:  # an empty --job-name: Flux takes it
        return f"--{name} needs a non-empty value"
    if name == "resources-shape":
        from . import shape

        try:
            shape.expand(value)
        except shape.ShapeError as err:
            why = f"--resources-shape: {err.message}"
            return Limit(why) if "levels" in err.message else why
        return None
    return None


class Limit(str):
    """A value this tool does not analyse (beyond its nesting limits) though Flux may
    take it: a warning in checks, and `jobspec new` stops with it."""


def begin_time_problem(value: str) -> str | None:
    """Why flux batch refuses ``--begin-time=value``, or reads it as another time; None
    when it is fine or a form only Flux's date parser knows (``tomorrow 3pm``)."""
    if _ISO_T.fullmatch(value):
        return (
            f"flux-core 0.88 misreads the 'T' form (the job would begin at another time): "
            f"write {value.replace('T', ' ')!r}"
        )
    if value[:1] in ("+", "-"):
        try:
            formats.parse_fsd(value[1:])
        except formats.FormatError:
            return (
                f"--begin-time {value[0]}FSD takes a Flux Standard Duration after "
                f"{value[0]!r}, not {_brief(value)}"
            )
        return None
    try:
        begin_timestamp(value, now=0.0)
    except BatchError as err:
        if "Invalid datetime" in str(err):
            return str(err)
    return None


_ISO_T = re.compile(r"\d{4}-\d\d-\d\dT\d\d?:\d\d(?::\d\d(?:\.\d+)?)?", re.ASCII)
_DATE_TIME = re.compile(r"(\d{4})-(\d\d)-(\d\d)(?: (\d\d?):(\d\d)(?::(\d\d))?)?", re.ASCII)
_TIME = re.compile(r"(\d\d?):(\d\d)(?::(\d\d))?", re.ASCII)


def signal_option(value: str) -> dict:
    """``--signal=[SIG][@TIME]`` as the job shell option flux-core writes: SIG a number
    (as int() reads it) or a signal name in capitals, with or without SIG (SIGTERM,
    TERM); TIME a number of seconds or a Flux Standard Duration."""
    import signal as signals

    sig, _, when = value.partition("@")
    signum = int(signals.SIGUSR1)
    if sig:
        number = formats.python_int(sig)
        if number is not None:
            signum = number
        else:
            named = getattr(signals.Signals, sig, None) or getattr(
                signals.Signals, "SIG" + sig, None
            )
            if named is None:
                hint = ""
                upper = sig.upper()
                if getattr(signals.Signals, upper, None) or getattr(
                    signals.Signals, "SIG" + upper, None
                ):
                    hint = f" (signal names are in capitals: {upper})"
                raise BatchError(f"--signal: {_brief(sig)} is not a signal name or number{hint}")
            signum = int(named)
        if signum <= 0:
            raise BatchError("--signal: the signal must be above 0")
    timeleft: float = 60
    if when:
        seconds = formats.python_float(when)
        if seconds is None:
            try:
                seconds = formats.parse_fsd(when)
            except formats.FormatError:
                raise BatchError(
                    f"--signal: {_brief(when)} is not a Flux Standard Duration"
                ) from None
        timeleft = seconds
    return {"signum": signum, "timeleft": timeleft}


def rlimit_problem(value: str) -> str | None:
    """Why flux batch refuses ``--rlimit=value`` (comma-separated rules: -PATTERN to
    leave limits out, NAME to copy one, NAME=VALUE to set one), or None."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not a POSIX system: nothing to compare with
        return None
    import fnmatch

    names = [n for n in dir(resource) if n.startswith("RLIMIT_")]
    for rule in value.split(","):
        if rule.startswith("-"):
            continue
        name, eq, limit = rule.partition("=")
        if not eq:
            if not fnmatch.filter(names, f"RLIMIT_{name}".upper()):
                return f"--rlimit: no resource limit matches {_brief(name)}"
            continue
        if not hasattr(resource, f"RLIMIT_{name}".upper()):
            known = ", ".join(n[7:].lower() for n in sorted(names))
            close = difflib.get_close_matches(name.lower(), known.split(", "), n=1)
            hint = f"; did you mean {close[0]}?" if close else f" (one of {known})"
            return f"--rlimit: {_brief(name)} is not a resource limit{hint}"
        if limit not in ("unlimited", "infinity", "inf") and formats.python_int(limit) is None:
            return (
                f"--rlimit {_brief(rule)}: the limit must be a whole number or unlimited, "
                f"not {_brief(limit)}"
            )
    return None


def conf_problem(value: str) -> str | None:
    """Why flux batch refuses ``--conf=value``, read as Flux reads it: a text with a
    line break is TOML or JSON; else KEY=VALUE; else a path ending in .toml/.json
    (read when the job is submitted); else a named configuration looked up in the
    submitter's Flux configuration directories."""
    if "\n" in value:
        try:
            json.loads(value)
        except (ValueError, RecursionError):
            try:
                _toml().loads(value)
            except Exception:  # noqa: BLE001 - any TOML error is a refusal
                return "--conf: the multi-line text is neither TOML nor JSON"
        return None
    if "=" in value:
        key = value.partition("=")[0]
        if not key or any(not part for part in key.split(".")):
            return f"--conf {_brief(value)}: the key has an empty part"
        return None
    import os
    import pathlib

    if pathlib.PurePath(value).suffix in (".toml", ".json"):
        return None
    for where in _named_conf_dirs():
        for ext in (".toml", ".json"):
            if os.path.exists(os.path.join(where, value + ext)):
                return None
    return (
        f"--conf: no named configuration {_brief(value)} (Flux looks for NAME.toml or "
        "NAME.json in its configuration directories, flux/config under $XDG_CONFIG_HOME "
        "and $XDG_CONFIG_DIRS; write KEY=VALUE, or a file name ending in .toml or .json)"
    )


def _named_conf_dirs() -> list[str]:
    """Where Flux looks for a named --conf: flux/config under $XDG_CONFIG_HOME (or
    ~/.config) and each of $XDG_CONFIG_DIRS (or /etc/xdg)."""
    import os

    home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    dirs = [home] + (os.environ.get("XDG_CONFIG_DIRS") or "/etc/xdg").split(":")
    return [os.path.join(d, "flux", "config") for d in dirs if d]


def _toml():
    try:
        import tomllib
    except ImportError:  # pragma: no cover - Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    return tomllib


def begin_timestamp(value: str, now: float | None = None) -> float:
    """``--begin-time`` as the time stamp flux-core 0.88 computes, for the forms it reads
    predictably (+FSD; today, midnight, noon, tomorrow; HH:MM[:SS] today; YYYY-MM-DD
    [HH:MM[:SS]], a bare date keeping the current time of day as flux-core does)."""
    import datetime as dt

    now = time.time() if now is None else now
    if value.startswith("+"):
        return now + formats.parse_fsd(value[1:])
    if value == "now":
        return now
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
    invalid = BatchError(
        f"--begin-time {_brief(value)}: Invalid datetime (flux batch refuses it: "
        "hours 0-23, minutes and seconds 0-59, months 1-12, days in the month)"
    )
    m = _TIME.fullmatch(value)
    if m:
        h, mi, se = int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
        try:
            return today.replace(hour=h, minute=mi, second=se).timestamp()
        except ValueError:
            raise invalid from None
    m = _DATE_TIME.fullmatch(value)
    if m:
        y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
        try:
            if m.group(4) is None:
                return current.replace(year=y, month=mo, day=d, microsecond=0).timestamp()
            h, mi, se = int(m.group(4)), int(m.group(5)), int(m.group(6) or 0)
            return dt.datetime(y, mo, d, h, mi, se).timestamp()
        except (ValueError, OverflowError):
            raise invalid from None
    raise BatchError(
        f"--begin-time {value!r}: Flux reads it with its own date parser; this tool "
        "computes now, +FSD, today, midnight, noon, tomorrow, HH:MM and YYYY-MM-DD [HH:MM]",
        ours=True,
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
    out.extend(command_line_checks(text))
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
    given = parse_script(script, out)
    seen: dict[str, Given] = {}
    last = _last_values(given)
    for k, g in enumerate(given):
        if g.value is not None and k in last:
            why = value_problem(g.option, g.value)
            if why:
                a, b = _value_range(g)
                severity = W if isinstance(why, Limit) else E
                out.append(Diagnostic(BAD_VALUE, severity, why, a, b))
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
    if "resources-shape" not in seen and "resources-json" not in seen:
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
    extra = seen.get("add-brokers")
    whole = "resources-shape" in seen or "resources-json" in seen
    if (
        extra is not None
        and (_int(extra.value or "", 1) or 0) > 0
        and "nodes" not in seen
        and not whole
    ):
        a, b = _value_range(extra)
        out.append(
            Diagnostic(BAD_VALUE, E, "--add-brokers needs -N/--nodes (flux batch refuses it)", a, b)
        )
    if not text.startswith("#!"):
        out.append(
            Diagnostic(
                NO_SHEBANG,
                E,
                "flux batch refuses a script that does not start with '#!' (say which "
                "interpreter runs it: #!/bin/sh, #!/bin/bash, ...)",
                0,
                len(re.match(r"[^\r\n]*", text).group(0)),  # type: ignore[union-attr]
            )
        )
    if not any(d.severity == E for d in out) and (
        "setattr" in seen or "setopt" in seen or "conf" in seen
    ):
        out.extend(_built_problems(text, given))
    out.sort(key=Diagnostic.sort_key)
    return out


def _last_values(given: list[Given]) -> set[int]:
    """The indexes of the values Flux reads: every value of an option that adds up
    (and of an integer option, which argparse converts as it reads it), but only the
    last of an option given more than once whose value Flux reads later (--signal
    twice: the first one is replaced unread, and JS573 says so)."""
    final: dict[str, int] = {}
    for k, g in enumerate(given):
        final[g.option.long] = k
    return {
        k
        for k, g in enumerate(given)
        if g.option.repeat or g.option.integer or final[g.option.long] == k
    }


def _value_range(g: Given) -> tuple[int, int]:
    if g.value_end > g.value_start:
        return g.value_start, g.value_end
    return g.name.start, g.name.end


def _built_problems(text: str, given: list[Given]) -> list[Diagnostic]:
    """What Flux refuses only once the jobspec is built from every option: a
    --setattr/--setopt into a value that is not a mapping, a --conf that cannot be
    merged, and attribute values job-ingest refuses (``system.duration=1h``), each at
    the option that set it."""
    try:
        js = _build(text, "script", "/")
    except BatchError as err:
        if err.at is None:
            return []
        a, b = _value_range(err.at)
        return [Diagnostic(BAD_VALUE, W if err.ours else E, str(err), a, b)]
    except RecursionError:
        return []  # deeper than this tool builds; Flux's own limits are checked above
    sets = [g for g in given if g.option.long == "setattr" and g.value]
    if not sets:
        return []
    # the script's own text is left out: an edit of its body changes nothing checked here,
    # and the findings are cached by the rest
    files = js["attributes"]["system"].get("files", {})
    if "script" in files:
        files["script"] = dict(files["script"], data="")
    out: list[Diagnostic] = []
    for *where, message in _ingest_refusals(json.dumps(js)):
        g = next(
            (
                g
                for g in reversed(sets)
                if _setattr_path(g.value or "")[: len(where)] == where
                or where[: len(_setattr_path(g.value or ""))] == _setattr_path(g.value or "")
            ),
            None,
        )
        if g is not None:
            a, b = _value_range(g)
            out.append(Diagnostic(BAD_VALUE, E, f"{message} (Flux refuses the job)", a, b))
    return out


@functools.lru_cache(maxsize=256)
def _ingest_refusals(dumped: str) -> tuple[tuple[str, ...], ...]:
    """(path..., message) of each error flux-core's ingest gives the built jobspec
    ``dumped`` (JSON), this tool's own reading limits (JS9xx) left out."""
    from . import analysis
    from .document import parse

    doc = parse(dumped, "json")
    out = []
    for d in analysis.check(doc, language="json", target="flux-core"):
        if d.severity != E or d.code.startswith("JS9"):
            continue  # JS9xx: limits of this tool's reading, not Flux's
        out.append((*_path_at(doc.root, d.start), d.message))
    return tuple(out)


def _setattr_path(item: str) -> list[str]:
    """The path under the jobspec of ``--setattr KEY[=VAL]``'s key."""
    key = item.partition("=")[0]
    if key.startswith("."):
        return ["attributes", *key[1:].split(".")]
    if key.startswith("attributes."):
        return key.split(".")
    if key.startswith(("user.", "system.")):
        return ["attributes", *key.split(".")]
    return ["attributes", "system", *key.split(".")]


def _path_at(node, offset: int) -> list[str]:
    """The keys leading to the innermost mapping entry holding ``offset``."""
    from .document import Mapping, Sequence

    path: list[str] = []
    while True:
        if isinstance(node, Mapping):
            for k, v in node.pairs:
                if k.start <= offset < max(v.end, k.end):
                    path.append(str(k.value))
                    node = v
                    break
            else:
                return path
        elif isinstance(node, Sequence):
            for k, v in enumerate(node.items):
                if v.start <= offset < v.end:
                    path.append(str(k))
                    node = v
                    break
            else:
                return path
        else:
            return path


NO_SHEBANG = define(
    "JS583",
    "batch-no-shebang",
    E,
    "A batch script that does not start with '#!'.",
    why="`flux batch` runs the script as a program, so it refuses one whose first line "
    "does not say which interpreter runs it (\"does not appear to start with '#!'\").",
    bad=_S.replace("#!/bin/sh\n", "# my job\n"),
    good=_S,
    script=True,
)


_L = "#!/bin/sh\n#flux: -N2\n\nflux run -N2 -n8 ./sim\n"

LINE_OPTION = define(
    "JS584",
    "command-line-bad-option",
    E,
    "A `flux run|submit|alloc|batch|bulksubmit` line in the script gives an option that "
    "command refuses.",
    why="The line is read with the command's own option table, as its argparse parser "
    "reads it: an unknown option, an abbreviation (Flux's parsers take none), an option "
    "without its value or a flag given one make the command fail when the script "
    "reaches it, long after submission.",
    bad=_L.replace("-n8", "--ntask=8"),
    good=_L,
    script=True,
)
LINE_VALUE = define(
    "JS585",
    "command-line-bad-value",
    E,
    "A `flux run|submit|...` line in the script gives an option a value Flux refuses.",
    why="Counts are whole numbers, -t minutes or a Flux Standard Duration, dependencies "
    "name real job ids, and so on, as for directives. A value holding a shell expansion "
    "(`-n $NTASKS`) is known only when the script runs: it is not judged.",
    bad=_L.replace("-n8", "-n eight"),
    good=_L,
    script=True,
)
MINI = define(
    "JS586",
    "flux-mini-removed",
    E,
    "`flux mini run|submit|...`: the `mini` form was removed from Flux.",
    why="flux-core once spelled its submission commands `flux mini run`, `flux mini "
    "submit`, ...; they are `flux run`, `flux submit`, ... now, and `flux mini` no longer "
    "exists. The fix removes `mini`.",
    bad=_L.replace("flux run", "flux mini run"),
    good=_L,
    script=True,
)
LINE_TOO_BIG = define(
    "JS587",
    "command-line-beyond-allocation",
    E,
    "A `flux run` or `flux submit` line asks for more nodes than the batch job has.",
    why="Inside a batch job, `flux run` and `flux submit` get the job's own resources: "
    "a job asking for more nodes than the directives allocate can never start. Flux "
    "refuses it as unsatisfiable when the script reaches it, and that step fails.",
    bad=_L.replace("-N2 -n8", "-N4 -n8"),
    good=_L,
    script=True,
)
# counts flux run/submit/bulksubmit read with int() after parsing (no type= in the table)
_LINE_INTS = {
    "nodes": 1, "ntasks": 1, "cores-per-task": 1, "gpus-per-task": 0, "cores": 1,
    "tasks-per-node": 1, "tasks-per-core": 1, "gpus-per-node": 0,
}  # fmt: skip


def command_line_checks(text: str) -> list[Diagnostic]:
    """JS584-JS587 for the Flux submission command lines in a script's body (see
    :mod:`.fluxcli.shell`): each read with its command's option table, its values
    checked as Flux checks them (words with a shell expansion left alone), and its node
    count held to what the script's directives allocate."""
    from .fluxcli import shell

    if "flux" not in text:
        return []
    lines = shell.segments(text, sbatch.shell_literals(text))
    if not lines:
        return []
    out: list[Diagnostic] = []
    allocated = _allocated_nodes(text)
    for at, line in lines:  # each line's findings cached by its text: an edit elsewhere is free
        for code, severity, message, a, b, data in _line_findings(line, allocated):
            out.append(Diagnostic(code, severity, message, at + a, at + b, data))
    return out


@functools.lru_cache(maxsize=8192)
def _line_findings(line: str, allocated: int | None) -> tuple:
    """:func:`command_line_checks` of one command line (its text from `flux`), as
    (code, severity, message, start, end, data) with offsets into ``line``."""
    from .fluxcli import argv, model, shell

    out: list[Diagnostic] = []
    for cl in shell.find(line)[:1]:
        if cl.mini:
            a, b = cl.mini
            out.append(
                Diagnostic(
                    MINI,
                    E,
                    f"`flux mini {cl.tool}` was removed from Flux: write `flux {cl.tool}`",
                    a,
                    b,
                    data={"replacement": "", "title": f"Use flux {cl.tool}"},
                )
            )
        cmd = model.command(cl.tool)
        words = cl.words
        # a dynamic word where an option is read may stand for any options: stop there
        for k in sorted(cl.dynamic):
            if words[k].value.startswith("-") or k == 0 or not _takes_value(cmd, words, k):
                words = words[:k]
                break
        reading = argv.read(cmd, words)
        for p in reading.problems:
            if any(words[k].start <= p.start < words[k].end for k in cl.dynamic if k < len(words)):
                continue
            message = p.message
            data = None
            if p.kind == "unknown":
                names = [f"--{n}" for n in cmd.by_long]
                full = [n for n in names if n.startswith(p.name)] if p.name.startswith("--") else []
                if len(full) == 1:
                    message += f"; Flux takes no abbreviation: write {full[0]}"
                    data = {"replacement": full[0]}
                else:
                    close = difflib.get_close_matches(p.name, names, n=1, cutoff=0.6)
                    if close:
                        message += f"; did you mean {close[0]}?"
                        data = {"replacement": close[0]}
            out.append(Diagnostic(LINE_OPTION, E, message, p.start, p.end, data=data))
        dynamic_at = {words[k].start for k in cl.dynamic if k < len(words)}
        for g in reading.given:
            if g.value is None or g.value_start in dynamic_at or "$" in g.value:
                continue
            least = _LINE_INTS.get(g.option.long)
            why = (
                _int_problem(g.option, g.value, least)
                if least is not None and not g.option.integer
                else value_problem(g.option, g.value)
            )
            if why:
                a, b = _value_range(g)
                severity = W if isinstance(why, Limit) else E
                out.append(Diagnostic(LINE_VALUE, severity, f"flux {cl.tool}: {why}", a, b))
            if (
                g.option.long == "nodes"
                and allocated is not None
                and cl.tool in ("run", "submit", "bulksubmit")
            ):
                n = formats.python_int(g.value)
                if n is not None and n > allocated:
                    a, b = _value_range(g)
                    out.append(
                        Diagnostic(
                            LINE_TOO_BIG,
                            E,
                            f"flux {cl.tool} -N {n} inside a batch job of {allocated} "
                            f"node{'s' if allocated != 1 else ''}: it can never start "
                            "(Flux refuses it as unsatisfiable)",
                            a,
                            b,
                        )
                    )
    return tuple((d.code, d.severity, d.message, d.start, d.end, d.data) for d in out)


def _takes_value(cmd, words, k: int) -> bool:
    """Whether word ``k`` is read as the value of the option before it."""
    from .fluxcli import argv

    kind = argv.classify(cmd, words[k - 1].value)
    return bool(kind and kind[0] is not None and kind[0].value is not None and kind[2] is None)


def _allocated_nodes(text: str) -> int | None:
    """The node count the script's directives ask for, when they give one."""
    script = directives.read(text)
    if script.sentinel is None:
        return None
    nodes = None
    for g in parse_script(script, []):
        if g.option.long == "nodes" and g.value is not None:
            nodes = _int(g.value, 1)
        elif g.option.long in ("resources-shape", "resources-json"):
            return None
    return nodes


# --------------------------------------------------------------------------- jobspec
class BatchError(ValueError):
    """A script `flux batch` refuses; ``at`` is the option given at fault, when one is."""

    def __init__(self, message: str, at: Given | None = None, ours: bool = False):
        super().__init__(message)
        self.at = at
        self.ours = ours  # this tool cannot build it, though Flux may


SCRIPT_MODE = 0o100700  # a regular file, rwx for its owner: what flux batch writes


def jobspec(text: str, name: str, cwd: str, extra: Sequence[str] = ()) -> dict:
    """The jobspec `flux batch --dry-run [extra] SCRIPT` prints for a script with
    ``text`` named ``name`` submitted from ``cwd``, without the environment and the
    resource limits (copied from the submitter).  :class:`BatchError` for a
    script `flux batch` refuses."""
    # what flux batch reads: the directives (the Slurm lines and the body's own flux
    # command lines are findings of check, but they do not change this jobspec)
    found = _flux_checks(text)
    problems = [p for p in found if p.severity == E]
    if problems:
        raise BatchError(problems[0].message)
    limits = [p for p in found if p.code == BAD_VALUE]
    if limits:
        raise BatchError(limits[0].message, ours=True)
    return _build(text, name, cwd, extra)


def _build(text: str, name: str, cwd: str, extra: Sequence[str] = ()) -> dict:
    """:func:`jobspec` for a script whose directives have been checked."""
    script = directives.read(text)
    diags: list[Diagnostic] = []
    words = [Word(w, 0, 0) for w in extra]
    given = parse_script(script, diags) + parse_words(words, diags)
    errors = [d for d in diags if d.severity == E]
    if errors:
        raise BatchError(errors[0].message)
    o: dict = {}
    lists: dict[str, list[str]] = {}
    settings: dict[str, list[tuple[str, Given]]] = {}  # --setopt/--setattr, with the option
    last = _last_values(given)
    for k, g in enumerate(given):
        if g.value is not None and k in last:
            why = value_problem(g.option, g.value)
            if why:
                raise BatchError(why, g, ours=isinstance(why, Limit))
        if g.option.long == "begin-time":  # flux-core adds it to the dependencies, in order
            stamp = begin_timestamp(g.value or "")
            lists.setdefault("dependency", []).append(f"begin-time:{stamp}")
        elif g.option.long in ("setopt", "setattr"):
            settings.setdefault(g.option.long, []).append((g.value or "", g))
        elif g.option.repeat:
            lists.setdefault(g.option.long, []).append(g.value or "")
        else:
            o[g.option.long] = g.value if g.option.value is not None else True
    if not text.startswith("#!"):
        raise BatchError("batch does not appear to start with '#!'")
    whole = "resources-shape" in o or "resources-json" in o  # the resources given whole
    if "resources-shape" in o and "resources-json" in o:
        raise BatchError("--resources-shape and --resources-json are mutually exclusive")
    if "resources-json" in o:
        import os

        try:
            with open(os.path.join(cwd, o["resources-json"]), encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError, RecursionError) as err:
            raise BatchError(f"--resources-json {o['resources-json']}: {err}") from None
        resources = data["resources"] if isinstance(data, dict) and "resources" in data else data
        count = {"per_slot": 1}
    elif "resources-shape" in o:
        from . import shape

        resources = shape.expand(o["resources-shape"], label="task")
        count = {"per_slot": 1}
    else:
        nodes = int(o["nodes"]) if "nodes" in o else None
        slots = int(o["nslots"]) if "nslots" in o and int(o["nslots"]) else None
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
        conf = _merge_conf(conf, c, cwd)
    brokers = int(o.get("add-brokers") or 0)
    if brokers > 0:  # more brokers than nodes, as flux batch sets them up
        # with the resources given whole, Flux's shape plugin sets the node count to 1
        nodes_given = "1" if whole else o.get("nodes")
        if nodes_given is None:
            raise BatchError("--add-brokers may only be specified with -N/--nodes")
        n_nodes = int(nodes_given)
        old = (conf.get("resource") or {}).get("exclude", "") if isinstance(conf, dict) else ""
        ids = {i for lo, hi in formats.parse_idset(str(old or "")) for i in range(lo, hi + 1)}
        ids |= set(range(1, brokers + 1))
        conf = _deep_merge(conf, {"resource": {"exclude": _idset_text(ids)}})
    broker_opts = [w for b in lists.get("broker-opts", []) for w in b.split(",")]
    if "dump" in o:  # --dump[=FILE]: the KVS archived when the instance ends
        dump = o["dump"] if isinstance(o["dump"], str) else "flux-{{jobid}}-dump.tgz"
        broker_opts.append("-Scontent.dump=" + dump)
    command.extend(broker_opts)
    if conf:
        command.append("-c{{tmpdir}}/conf.json")
        files["conf.json"] = {"mode": 0o100600, "data": conf}
    command.append("{{tmpdir}}/script")
    shell: dict = {}
    if "input" in o:
        shell["input"] = {"stdin": {"type": "file", "path": o["input"]}}
    # as flux-core's Jobspec: "none" and "kvs" are no file (no redirection at all)
    for stream, where in (
        ("stdout", o.get("output", "flux-{{id}}.out")),
        ("stderr", o.get("error")),
    ):
        if where is not None and where not in ("none", "kvs"):
            out = shell.setdefault("output", {})
            out[stream] = {"type": "file", "path": where}
            if o.get("label-io"):
                out[stream]["label"] = True
    if o.get("unbuffered"):
        out = shell.setdefault("output", {})
        out.setdefault("stdout", {})["buffer"] = {"type": "none"}
        out.setdefault("stderr", {})["buffer"] = {"type": "none"}
        out["batch-timeout"] = 0.05
        shell.setdefault("input", {})["batch-timeout"] = 0.0
    if brokers <= 0:
        shell["per-resource"] = {"type": "node"}
    shell["mpi"] = "none"
    shell["exit-timeout"] = "none"
    if "signal" in o:
        shell["signal"] = signal_option(o["signal"])
    if brokers > 0:  # the extra brokers on the first node; the rest one per node
        n_nodes = 1 if whole else int(o["nodes"])
        shell["taskmap"] = {
            "scheme": "manual",
            "value": f"[[0,1,{1 + brokers},1],[1,{n_nodes - 1},1,1]]",
        }
        count = {"total": n_nodes + brokers}
    for item, g in settings.get("setopt", []):
        key, eq, raw = item.partition("=")
        val: object = 1
        if eq:
            try:
                val = json.loads(raw)
            except (ValueError, RecursionError):
                val = raw
        _set_tree(shell, key, val, f"attributes.system.shell.options.{key}", g)
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
    # --wrap in a directive: flux batch puts a /bin/sh line before the script it read
    data = "#!/bin/sh\n" + text if o.get("wrap") else text
    files["script"] = {"mode": SCRIPT_MODE, "data": data, "encoding": "utf-8"}
    system["files"] = files
    js = {
        "resources": resources,
        "tasks": [{"command": command, "slot": "task", "count": count}],
        "attributes": {"system": system},
        "version": 1,
    }
    for item, g in settings.get("setattr", []):
        try:
            convert._setattr(js, item)
        except convert.UsageError as err:
            raise BatchError(str(err), g) from None
        except TypeError as err:
            raise BatchError(f"--setattr {_brief(item)}: {err}", g) from None
    return js


def _set_tree(tree: dict, key: str, value: object, shown: str, g: Given | None) -> None:
    """``tree[a][b][c] = value`` for the key ``a.b.c``, levels made on demand, as Flux's
    set_treedict does; :class:`BatchError` where a level is not a mapping."""
    parts = key.split(".")
    node = tree
    for part in parts[:-1]:
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            raise BatchError(
                f"failed to set {shown} to {_brief(json.dumps(value))}: {part} is already "
                f"{_brief(json.dumps(node))}, not a mapping",
                g,
            )
    node[parts[-1]] = value


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


def _merge_conf(conf: dict, value: str, cwd: str = ".") -> dict:
    """``--conf=value`` merged into ``conf`` as Flux reads it (see :func:`conf_problem`):
    a multi-line TOML or JSON text, KEY=VALUE (VALUE JSON when it parses), a .toml or
    .json file (from ``cwd``), or a named configuration."""
    import os

    why = conf_problem(value)
    if why:
        raise BatchError(why)
    try:
        if "\n" in value:
            try:
                data = json.loads(value)
            except ValueError:
                data = _toml().loads(value)
            return _deep_merge(conf, data)
        if "=" in value:
            key, _, raw = value.partition("=")
            try:
                val = json.loads(raw)
            except ValueError:
                val = raw
            out = _deep_merge(conf, {})
            _set_tree(out, key, val, key, None)
            return out
        suffix = os.path.splitext(value)[1]
        paths = [os.path.join(cwd, value)] if suffix else []
        for where in [] if suffix else _named_conf_dirs():
            paths += [os.path.join(where, value + ext) for ext in (".toml", ".json")]
        for path in paths:
            if os.path.exists(path):
                with open(path, "rb") as f:
                    raw_bytes = f.read()
                if path.endswith(".json"):
                    return _deep_merge(conf, json.loads(raw_bytes))
                return _deep_merge(conf, _toml().loads(raw_bytes.decode("utf-8")))
        raise BatchError(f"--conf: {value}: no such file")
    except RecursionError:
        raise BatchError("--conf: the configuration nests too deeply to read") from None
    except (OSError, ValueError) as err:
        if isinstance(err, BatchError):
            raise
        raise BatchError(f"--conf {_brief(value)}: {err}") from None


def _idset_text(ids: set[int]) -> str:
    """An RFC 22 idset, runs joined: {1, 2, 3, 5} is "1-3,5"."""
    runs: list[tuple[int, int]] = []
    for i in sorted(ids):
        if runs and runs[-1][1] == i - 1:
            runs[-1] = (runs[-1][0], i)
        else:
            runs.append((i, i))
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def _deep_merge(a: dict, b: dict) -> dict:
    """``b`` merged into a copy of ``a`` (mappings merged key by key, anything else
    replaced), without recursion: a configuration may nest thousands of levels."""
    out = dict(a)
    stack = [(out, b)]
    while stack:
        into, new = stack.pop()
        for k, v in new.items():
            old = into.get(k)
            if isinstance(v, dict) and isinstance(old, dict):
                into[k] = dict(old)
                stack.append((into[k], v))
            else:
                into[k] = v
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
    if o.long == "ntasks" and n is not None:
        return f"{n} task{'s' if n != 1 else ''}"
    if o.long == "cores-per-task" and n is not None:
        return f"{n} core{'s' if n != 1 else ''} per task"
    if o.long == "gpus-per-task" and n is not None:
        return f"{n} gpu{'s' if n != 1 else ''} per task"
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


_TOOLS = {
    "run": "runs a job and waits for it to end",
    "submit": "submits a job and prints its id",
    "alloc": "starts an interactive Flux instance on new resources",
    "batch": "submits a batch script (a Flux instance that runs it)",
    "bulksubmit": "submits one job per input, from a command template",
}


def _command_line_at(text: str, offset: int):
    """(offset of its text, the command line) of the Flux command line under
    ``offset``, or (0, None)."""
    from .fluxcli import shell

    for at, seg in shell.segments(text, sbatch.shell_literals(text)):
        if at <= offset <= at + len(seg):
            found = shell.find(seg)
            if found and offset - at <= found[0].end:
                return at, found[0]
    return 0, None


def _command_line_hover(text: str, offset: int) -> tuple[str, int, int] | None:
    from .fluxcli import argv, model

    at, cl = _command_line_at(text, offset)
    if cl is None:
        return None
    rel = offset - at
    if cl.start <= rel <= cl.tool_end:
        md = f"`flux {cl.tool}` {_TOOLS[cl.tool]}."
        if cl.tool in ("run", "submit"):
            md += " Inside a batch job it gets the job's own resources."
        return md, at + cl.start, at + cl.tool_end
    cmd = model.command(cl.tool)
    for g in argv.read(cmd, cl.words).given:
        lo, hi = g.name.start, max(g.name.end, g.value_end)
        if lo <= rel <= hi:
            md = f"`flux {cl.tool}` " + option_doc(g.option)
            dynamic = {cl.words[i].start for i in cl.dynamic}
            if g.value is not None and (g.value_start in dynamic or "$" in g.value):
                md += f"\n\nHere: {g.value!r}, known only when the script runs; not checked."
            elif g.value is not None:
                meaning = _meaning(g.option, g.value)
                if meaning:
                    md += f"\n\nHere: {meaning}."
            return md, at + lo, at + hi
    return None


def hover_at(text: str, offset: int) -> tuple[str, int, int] | None:
    """(markdown, start, end) for the directive option, or the option or command of a
    `flux run|submit|...` line, under ``offset``."""
    script = directives.read(text)
    if script.sentinel is None:
        return _command_line_hover(text, offset)
    sink: list[Diagnostic] = []
    for g in parse_script(script, sink):
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
    return _command_line_hover(text, offset)


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
        return _command_line_completion(text, offset, queues)
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


def _command_line_completion(text: str, offset: int, queues: Sequence[str]):
    """Options of the command, or values of the option, being typed on a
    `flux run|submit|...` line."""
    from .completion import Candidate
    from .fluxcli import model

    at, cl = _command_line_at(text, offset)
    if cl is None or offset < at + cl.tool_end + 1:
        return [], offset, offset
    body = at + cl.tool_end
    word_start = offset
    while word_start > body and not text[word_start - 1].isspace():
        word_start -= 1
    prefix = text[word_start:offset]
    cmd = model.command(cl.tool)
    # past the command's first non-option word, the words are the job's own
    for w in cl.words:
        if at + w.start >= word_start:
            break
        if not w.value.startswith("-") and not _value_of_previous(cmd, cl.words, w):
            return [], offset, offset
    opt, value_start = _value_being_typed(text, body, word_start, prefix, cmd)
    if opt is not None:
        return _values(opt, text[value_start:offset], queues), value_start, offset
    if prefix and not prefix.startswith("-"):
        return [], offset, offset
    out = []
    for o in cmd.options:
        if o.hidden and o.long not in ("input", "output", "error", "label-io"):
            continue
        label = f"--{o.long}"
        if not label.startswith(prefix) and not (o.short and f"-{o.short}".startswith(prefix)):
            continue
        insert = label + ("=" if o.value and not o.optional_value else "")
        out.append(Candidate(label, "key", o.value or "", option_doc(o), insert))
    return out, word_start, offset


def _value_of_previous(cmd, words, w) -> bool:
    """Whether ``w`` is the value of the option word before it."""
    from .fluxcli import argv

    k = words.index(w)
    if k == 0:
        return False
    kind = argv.classify(cmd, words[k - 1].value)
    return bool(kind and kind[0] is not None and kind[0].value is not None and kind[2] is None)


def _value_being_typed(text: str, body: int, word_start: int, prefix: str, cmd=None):
    """(option, where its value starts) when the cursor is in an option's value:
    ``--opt=VAL``, ``-oVAL`` or the word after ``--opt``/``-o``; (None, 0) otherwise.
    ``cmd``: the command whose options these are (flux batch's by default)."""
    by_long = cmd.by_long if cmd is not None else BY_LONG
    by_short = cmd.by_short if cmd is not None else BY_SHORT
    if prefix.startswith("--") and "=" in prefix:
        o = by_long.get(prefix[2 : prefix.index("=")])
        return (o, word_start + prefix.index("=") + 1) if o and o.value else (None, 0)
    if prefix.startswith("-") and not prefix.startswith("--") and len(prefix) > 2:
        o = by_short.get(prefix[1])
        return (o, word_start + 2) if o and o.value and not o.optional_value else (None, 0)
    if prefix.startswith("-"):
        return None, 0
    before = text[body:word_start].split()
    if not before:
        return None, 0
    last = before[-1]
    if last.startswith("--") and "=" not in last:
        o = by_long.get(last[2:])
    elif len(last) == 2 and last[0] == "-":
        o = by_short.get(last[1])
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
