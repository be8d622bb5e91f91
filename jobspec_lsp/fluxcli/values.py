"""The values of Flux's command-line options, read and checked as Flux reads them.

Every reader here takes the text of one option's value and either returns what Flux
makes of it (a duration in seconds, an RFC 26 dependency, an RFC 31 constraint, a
begin time stamp, a job shell option) or raises :class:`Refused` with the reason Flux
refuses it, in words a user can act on. :func:`value_problem` is the check form
(the reason, or None) that diagnostics, ``jobspec new`` and the builders share.

Begin times are read with parsedatetime, the library flux-core itself vendors for
``--begin-time`` (``flux.utils.parsedatetime``, version 2.6), so a free-form time
such as ``8pm tomorrow`` gets the time stamp Flux computes.

Pure: no LSP; files are looked at only for ``--conf`` names, as Flux looks.
"""

from __future__ import annotations

import fnmatch
import functools
import json
import math
import os
import re
import threading
import time
from types import ModuleType

from jobspec_lsp.fluxcli.argv import Given
from jobspec_lsp.fluxcli.argv import brief as _brief
from jobspec_lsp.fluxcli.model import Option
from jobspec_lsp.notations import formats

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any


class Refused(ValueError):
    """A value (or command line) Flux refuses. ``at`` is the option given at fault,
    when one is; ``ours`` marks what this tool cannot read though Flux may."""

    def __init__(self, message: str, at: Given | None = None, ours: bool = False):
        super().__init__(message)
        self.at = at
        self.ours = ours


_COUNT_MAX = 2**63 - 1  # a jobspec count is a 64-bit integer to Flux's JSON reader


def count(value: str, least: int) -> int | None:
    """``value`` as Flux's ``type=int`` reads it, when at least ``least`` and small
    enough for a jobspec; None otherwise."""
    n = formats.python_int(value)
    return n if n is not None and least <= n <= _COUNT_MAX else None


def count_problem(opt: Option, value: str, least: int) -> str | None:
    n = formats.python_int(value)
    shown = _brief(value)
    if n is None:
        return f"--{opt.long} takes a whole number, not {shown}"
    if n < least:
        return f"--{opt.long} takes a whole number of at least {least}, not {shown}"
    if n > _COUNT_MAX:
        return f"--{opt.long} {shown} is too large: Flux refuses counts beyond 64 bits"
    return None


def read_values(given: list[Given]) -> set[int]:
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
    if opt.choices is not None and value not in opt.choices:
        taken = ", ".join(repr(c) for c in opt.choices)
        return f"--{name}: invalid choice {value!r} (choose from {taken})"
    if name in ("nodes", "cores-per-slot"):
        return count_problem(opt, value, 1)
    if name == "nslots":  # flux batch takes 0 as not given (then -N decides)
        return count_problem(opt, value, 0)
    if name == "gpus-per-slot":
        return count_problem(opt, value, 0)
    if opt.integer:
        return count_problem(opt, value, 0)
    if name == "rlimit":
        return rlimit_problem(value)
    if name == "begin-time":
        return begin_time_problem(value)
    if name == "urgency":
        if value in ("hold", "expedite", "default"):  # flux-core's names for 0, 31, 16
            return None
        n = count(value, 0)
        return (
            None
            if n is not None and n <= 31
            else f"--urgency takes 0 to 31 (or hold, default, expedite), not {value!r}"
        )
    if name == "time-limit":
        try:
            parse_time_limit(value)
        except Refused:
            return f"-t takes minutes or a Flux Standard Duration (30s, 1.5h, 2d), not {value!r}"
        return None
    if name == "requires":
        try:
            parse_requires(value)
        except Refused as err:
            return Limit(err) if "too deeply" in str(err) else str(err)
        return None
    if name in ("setattr", "setopt"):  # any key, empty parts too, is a place in the jobspec
        if value.startswith("^") and "=" not in value:
            return f"--{name} {_brief(value)}: ^KEY reads the value from a file: ^KEY=FILE"
        return None
    if name in ("dependency", "signal"):
        try:
            (parse_dependency if name == "dependency" else signal_option)(value)
        except Refused as err:
            return str(err)
        return None
    if name in ("env", "env-remove"):
        return env_problem(value, remove=name == "env-remove")
    if name in ("cc", "bcc") and value:  # an empty one is not given
        runs = flux_idset(value)
        if runs is None:
            return f"--{name} takes an idset (0-3,7), not {_brief(value)}"
        return None if runs else f"--{name} takes a non-empty idset (Flux then submits nothing)"
    if name == "cwd" and not value:
        return "--cwd needs a directory"
    if name in ("queue", "bank") and not value:  # an empty --job-name: Flux takes it
        return f"--{name} needs a non-empty value"
    if name == "resources-shape":
        from jobspec_lsp.notations import shape  # deferred: shape loads lark

        try:
            shape.expand(value, as_flux=True)
        except shape.ShapeError as err:
            why = f"--resources-shape: {err.message}"
            return Limit(why) if "levels" in err.message else why
        return None
    return None


_UINT = 2**32


def flux_idset(text: str) -> list[tuple[int, int]] | None:
    """``text`` as flux-core's ``IDset(text)`` (libidset's decoder) reads it: the runs
    of the set, or None when Flux refuses it. Brackets around the whole, empty elements
    skipped (``1,,2``), runs ascending, no leading zero, ids as C's unsigned int keeps
    them (``4294967296`` is 0), none from 2**31 on."""
    if len(text) >= 2 and text[0] == "[" and text[-1] == "]":
        text = text[1:-1]
    if "[" in text or "]" in text:
        return None
    runs: list[tuple[int, int]] = []
    last = -1  # the decoder's "largest id so far": the last run's end, as written
    for element in (e for e in text.split(",") if e):
        m = _ID_RUN.fullmatch(element)
        if m is None or any(d and (len(d) > 1 and d[0] == "0") for d in m.groups()):
            return None
        lo_full = int(m.group(1))
        hi_full = int(m.group(2)) if m.group(2) else lo_full
        if max(lo_full, hi_full) >= 2**64 or (m.group(2) and hi_full <= lo_full % _UINT):
            return None
        lo, hi = lo_full % _UINT, hi_full % _UINT
        if lo <= last or max(lo, hi) >= 2**31:
            return None
        last = hi
        runs.append((lo, hi) if lo <= hi else (hi, lo))
    merged: list[tuple[int, int]] = []
    for lo, hi in sorted(runs):  # a run written backwards may overlap the next
        if merged and lo <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
        else:
            merged.append((lo, hi))
    return merged


_ID_RUN = re.compile(r"([0-9]+)(?:-([0-9]+))?")


def env_problem(value: str, remove: bool = False) -> str | None:
    """Why Flux refuses the ``--env`` rule ``value`` (``--env-remove`` pattern with
    ``remove``) whatever the submitter's environment holds: a ``/regex/`` pattern that
    does not compile, or a VALUE whose ``$`` is not a variable (``$1``, a trailing
    ``$``). A variable the environment may lack is not judged: only the submitting
    process knows, and ``^FILE`` rules are read when the job is submitted."""
    import string  # deferred: start-up; only for an --env value

    if remove or value.startswith("-"):
        pattern = value if remove else value[1:]
        return _regex_problem(pattern, "--env-remove" if remove else "--env")
    if value.startswith("^"):
        return None
    var, eq, rest = value.partition("=")
    if not eq:
        return _regex_problem(var, "--env")
    if "{{" in rest:  # a template the job shell expands
        return None

    class _Any(dict[str, str]):
        def __missing__(self, key: str) -> str:
            return ""

    try:
        string.Template(rest).substitute(_Any())
    except ValueError:
        return (
            f"--env {_brief(value)}: Flux cannot substitute the value (a '$' must start "
            "a variable name, $NAME or ${NAME}; write $$ for a dollar sign)"
        )
    return None


def _regex_problem(pattern: str, option: str) -> str | None:
    if not pattern.startswith("/"):
        return None  # a shell glob: anything goes
    try:
        re.compile(pattern[1:].rstrip("/"))
    except (re.error, RecursionError, OverflowError) as err:
        return f"{option} {_brief(pattern)}: not a regular expression Flux can read ({err})"
    return None


class Limit(str):
    """A value this tool does not analyse (beyond its nesting limits) though Flux may
    take it: a warning in checks, and `jobspec new` stops with it."""


def begin_time_problem(value: str) -> str | None:
    """Why Flux refuses ``--begin-time=value``, or reads it as another time than the
    one written; None when Flux takes it as meant."""
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
        begin_timestamp(value)
    except Refused as err:
        return Limit(err) if err.ours else str(err)
    return None


# the ISO form with a 'T', which parsedatetime 2.6 reads as something else
_ISO_T = re.compile(r"\d{4}-\d\d-\d\dT\d\d?:\d\d(?::\d\d(?:\.\d+)?)?", re.ASCII)
# past this length a begin time is not handed to the date parser (its cost grows with
# the text); Flux would read it, so this is a limit of the tool, not a refusal
_BEGIN_TIME_MAX = 200


def signal_option(value: str) -> dict[str, Any]:
    """``--signal=[SIG][@TIME]`` as the job shell option flux-core writes: SIG a number
    (as int() reads it) or a signal name in capitals, with or without SIG (SIGTERM,
    TERM); TIME a number of seconds or a Flux Standard Duration."""
    import signal as signals  # deferred: start-up; only for a --signal value

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
                raise Refused(f"--signal: {_brief(sig)} is not a signal name or number{hint}")
            signum = int(named)
        if signum <= 0:
            raise Refused("--signal: the signal must be above 0")
    timeleft: float = 60
    if when:
        seconds = formats.python_float(when)
        if seconds is None:
            try:
                seconds = formats.parse_fsd(when)
            except formats.FormatError:
                raise Refused(f"--signal: {_brief(when)} is not a Flux Standard Duration") from None
        timeleft = seconds
    return {"signum": signum, "timeleft": timeleft}


def rlimit_problem(value: str) -> str | None:
    """Why flux batch refuses ``--rlimit=value`` (comma-separated rules: -PATTERN to
    leave limits out, NAME to copy one, NAME=VALUE to set one), or None."""
    try:
        import resource  # deferred: POSIX only
    except ImportError:  # pragma: no cover - not a POSIX system: nothing to compare with
        return None

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
            import difflib  # deferred: start-up; only for a suggestion

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
    import pathlib  # deferred: start-up; only for a --conf value

    if "\n" in value:
        try:
            json.loads(value)
        except (ValueError, RecursionError):
            try:
                toml_reader().loads(value)
            except Exception:  # noqa: BLE001 - any TOML error is a refusal
                return "--conf: the multi-line text is neither TOML nor JSON"
        return None
    if "=" in value:
        key = value.partition("=")[0]
        if not key or any(not part for part in key.split(".")):
            return f"--conf {_brief(value)}: the key has an empty part"
        return None

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

    home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    dirs = [home] + (os.environ.get("XDG_CONFIG_DIRS") or "/etc/xdg").split(":")
    return [os.path.join(d, "flux", "config") for d in dirs if d]


def toml_reader() -> ModuleType:
    """The TOML reader (tomllib; tomli on Python 3.10), the one the package uses."""
    try:
        import tomllib  # deferred: only where TOML is read
    except ImportError:  # pragma: no cover - Python 3.10
        import tomli as tomllib  # type: ignore[no-redef,unused-ignore]  # Python 3.10
    module: ModuleType = tomllib
    return module


def begin_timestamp(value: str, now: float | None = None) -> float:
    """``--begin-time`` as the time stamp Flux computes (``flux.util.parse_datetime``):
    ``now``, ``+FSD`` and ``-FSD`` from now, anything else read by parsedatetime with
    the day starting at midnight (``8pm tomorrow``, ``noon``, ``2030-01-20 12:34``, a
    bare date keeping the current time of day). :class:`Refused` with "Invalid
    datetime" when Flux refuses the text."""
    import datetime as dt  # deferred: start-up; only for a --begin-time value

    now = time.time() if now is None else now
    if value == "now":
        return now
    if value[:1] in ("+", "-"):
        try:
            delta = formats.parse_fsd(value[1:])
        except formats.FormatError as err:
            raise Refused(f"--begin-time {_brief(value)}: {err.message}") from None
        return now + delta if value[0] == "+" else now - delta
    if len(value) > _BEGIN_TIME_MAX:
        raise Refused(
            f"--begin-time: a time of {len(value):,} characters is more than this tool "
            f"reads ({_BEGIN_TIME_MAX}); Flux reads it with its date parser",
            ours=True,
        )
    stamp = _parsed_datetime(value, dt.datetime.fromtimestamp(now).astimezone().timetuple())
    if stamp is None:
        raise Refused(
            f"--begin-time {_brief(value)}: Invalid datetime (Flux refuses it: write "
            "now, +DURATION, a time such as 14:30 or 8pm tomorrow, or YYYY-MM-DD HH:MM)"
        )
    return stamp


def _parsed_datetime(value: str, source: time.struct_time) -> float | None:
    """What flux-core's parse_datetime makes of ``value`` at ``source`` (a local
    time), as a time stamp; None where it raises."""
    import datetime as dt  # deferred: start-up; only for a --begin-time value

    cal = _calendar()
    try:
        with _CALENDAR_LOCK:  # a calendar keeps its parse context on itself
            parsed, status = cal.parse(value, sourceTime=source)
    except (ValueError, OverflowError, TypeError, IndexError):
        return None
    if status == 0:
        return None
    try:
        return dt.datetime(*parsed[:6]).astimezone().timestamp()
    except (ValueError, OverflowError):
        return None


_CALENDAR_LOCK = threading.Lock()


@functools.lru_cache(maxsize=1)
def _calendar() -> Any:  # parsedatetime has no types
    """A parsedatetime calendar set as Flux sets its own (days start at hour 0).
    Imported on first use: few command lines hold a date to read."""
    import parsedatetime  # deferred: only for a free-form --begin-time

    cal = parsedatetime.Calendar()
    cal.ptc.StartHour = 0
    return cal


def parse_time_limit(value: str) -> float | int:
    """``flux submit -t``: a bare number is minutes, otherwise a Flux Standard
    Duration; the result in seconds (must be finite)."""
    try:
        seconds = float(value) * 60
    except ValueError:
        try:
            seconds = formats.parse_fsd(value)
        except formats.FormatError as err:
            raise Refused(f"-t {value!r}: {err.message}") from None
    if math.isnan(seconds) or math.isinf(seconds):
        raise Refused(f"-t {value!r}: the time limit must be finite (leave -t out for no limit)")
    if seconds < 0:
        raise Refused(f"-t {value!r}: the time limit must not be negative")
    if seconds >= _TIMEDELTA_LIMIT and value.rstrip().endswith(("ms", "m", "h", "d")):
        # Flux reads m, h, d and ms through Python's timedelta, which holds less than
        # 10^9 days ("days=...; must have magnitude <= 999999999"); seconds are not
        raise Refused(
            f"-t {value!r}: Flux cannot read a duration of 10^9 days or more in this unit; "
            "leave -t out for no limit"
        )
    return int(seconds) if float(seconds).is_integer() else seconds


_TIMEDELTA_LIMIT = 86400 * 1_000_000_000  # seconds in 10^9 days: timedelta's bound


def uri_entry(uri: str, option: str) -> dict[str, Any]:
    """``SCHEME[:VALUE][?KEY=VAL[&KEY=VAL]]`` (``--dependency``, ``--taskmap``) as
    flux-core's URIArg reads it: Python's urlparse after the first ':' (the scheme in
    lower case, tabs and line breaks dropped, a ``#fragment`` left out), the query's
    numbers made numbers, a repeated key a list, a key without a value left out."""
    from urllib.parse import parse_qs, urlparse  # deferred: start-up; only for a URI value

    text = uri if ":" in uri else uri + ":"
    try:
        parts = urlparse(text.replace(":", ":FXX", 1))
    except ValueError as err:
        raise Refused(f"--{option} {_brief(uri)}: {err}") from None
    if not parts.scheme or not parts.path:
        raise Refused(f"--{option} {_brief(uri)}: expected scheme:value[?key=val&...]")
    entry: dict[str, Any] = {"scheme": parts.scheme, "value": parts.path.replace("FXX", "", 1)}
    for key, vals in parse_qs(parts.query).items():
        conv = [_number(v) for v in vals]
        entry[key] = conv[0] if len(conv) == 1 else conv
    return entry


def parse_dependency(uri: str) -> dict[str, Any]:
    """An RFC 26 dependency URI ``scheme:value[?key=val[&key=val]]`` -> its
    JSON object, as flux-core builds it (:func:`uri_entry`); a job id or time stamp
    Flux refuses once the job is submitted is refused here."""
    entry = uri_entry(uri, "dependency")
    scheme, value = entry["scheme"], entry["value"]
    if scheme in ("after", "afterany", "afterok", "afternotok"):
        why = formats.jobid_problem(value)
        if why:
            raise Refused(f"--dependency {uri!r}: {why}; Flux refuses the job")
    elif scheme == "begin-time":
        stamp = formats.python_float(value)
        if stamp is None or not stamp >= 0 or stamp == float("inf"):
            raise Refused(
                f"--dependency {uri!r}: begin-time takes a time stamp (seconds since "
                "1970, at least 0); Flux refuses the job"
            )
    return entry


def _number(s: str) -> int | float | str:
    for kind in (int, float):
        try:
            return kind(s)
        except ValueError:
            continue
    return s


def parse_requires(expr: str) -> dict[str, Any]:
    """A ``--requires`` constraint query (RFC 35) -> its RFC 31 object, as
    :mod:`jobspec_lsp.notations.constraint` compiles it; :class:`Refused` with the column
    when it has none. (A fresh copy each time: the parse is cached by the query.)"""
    import copy  # deferred: start-up; only for a --requires value

    return copy.deepcopy(_parse_requires(expr))


@functools.lru_cache(maxsize=1024)
def _parse_requires(expr: str) -> dict[str, Any]:
    from jobspec_lsp.notations import constraint  # deferred: constraint loads lark

    try:
        return constraint.parse(expr)
    except constraint.ConstraintError as err:
        raise Refused(
            f"--requires {expr!r}: {err.message}"
            + ("" if "column" in err.message else f" (at column {err.start + 1})")
        ) from None


def _taskmap(uri: str) -> dict[str, Any]:
    """``--taskmap SCHEME[:VALUE]`` as the job shell option flux submit writes."""
    return uri_entry(uri, "taskmap")


def _keyval_value(option: str, key: str, sep: str, raw: str) -> object:
    """The value of ``KEY[=VAL]`` as flux-core reads it for --setopt and --setattr:
    JSON when it parses, else the string, 1 when there is no '='."""
    if not sep:
        return 1
    try:
        return json.loads(raw)
    except ValueError:
        return raw
    except RecursionError:  # Flux's json.loads stops there too, and refuses the job
        raise Refused(f"{option} {key!r}: the value nests too deeply to read") from None
