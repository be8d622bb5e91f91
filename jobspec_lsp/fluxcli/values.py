"""The values of Flux's command-line options, read and checked as Flux reads them.

Every reader here takes the text of one option's value and either returns what Flux
makes of it (a duration in seconds, an RFC 26 dependency, an RFC 31 constraint, a
begin time stamp, a job shell option) or raises :class:`Refused` with the reason Flux
refuses it, in words a user can act on. :func:`value_problem` is the check form
(the reason, or None) that diagnostics, ``jobspec new`` and the builders share.

The readers that need more than the standard start (begin times with datetime and
parsedatetime: :mod:`.begintime`; ``--requires`` and ``--resources-shape`` with the
notations' parsers: :mod:`.notated`; ``--signal`` and ``--rlimit`` with the host's
names: :mod:`.processes`) live in modules of their own, named in :data:`READERS` and
loaded the first time one is used; they are still this module's attributes
(``values.begin_timestamp``).

Pure: no LSP; files are looked at only for ``--conf`` names, as Flux looks.
"""

from __future__ import annotations

import functools
import json
import math
import os
import pathlib
import re
from types import ModuleType
from urllib.parse import parse_qs, urlparse

from jobspec_lsp import boundary
from jobspec_lsp.fluxcli.argv import Given
from jobspec_lsp.fluxcli.argv import brief as _brief
from jobspec_lsp.fluxcli.model import Option
from jobspec_lsp.notations import formats

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from jobspec_lsp.fluxcli.begintime import begin_time_problem as begin_time_problem
    from jobspec_lsp.fluxcli.begintime import begin_timestamp as begin_timestamp
    from jobspec_lsp.fluxcli.notated import parse_requires as parse_requires
    from jobspec_lsp.fluxcli.notated import shape_resources as shape_resources
    from jobspec_lsp.fluxcli.processes import rlimit_problem as rlimit_problem
    from jobspec_lsp.fluxcli.processes import signal_option as signal_option

    # the check of one option's value: (option's long name, value) -> why Flux refuses it
    Check = Callable[[str, str], "str | None"]

# the value readers that load more than a script's check needs, each in a module that
# imports what it reads with at its top (datetime and parsedatetime; the notations'
# parsers and lark; signal and resource); loaded the first time one is named, here or
# as an attribute of this module (``values.begin_timestamp``)
READERS = {
    "begin_time_problem": "jobspec_lsp.fluxcli.begintime:begin_time_problem",
    "begin_timestamp": "jobspec_lsp.fluxcli.begintime:begin_timestamp",
    "parse_requires": "jobspec_lsp.fluxcli.notated:parse_requires",
    "requires_problem": "jobspec_lsp.fluxcli.notated:requires_problem",
    "shape_problem": "jobspec_lsp.fluxcli.notated:shape_problem",
    "shape_resources": "jobspec_lsp.fluxcli.notated:shape_resources",
    "signal_option": "jobspec_lsp.fluxcli.processes:signal_option",
    "signal_problem": "jobspec_lsp.fluxcli.processes:signal_problem",
    "rlimit_problem": "jobspec_lsp.fluxcli.processes:rlimit_problem",
}


def __getattr__(name: str) -> Any:
    """A reader of :data:`READERS`, loaded on its first use."""
    return boundary.attribute(READERS, globals(), name)


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


# the options whose value is a count, and the least each takes (any other integer
# option: 0); flux batch takes --nslots 0 as not given (then -N decides)
_COUNTS = {"nodes": 1, "cores-per-slot": 1, "nslots": 0, "gpus-per-slot": 0}


@functools.lru_cache(maxsize=4096)
def _value_problem(opt: Option, value: str) -> str | None:
    """:func:`value_problem` of a value that depends on nothing else: its choices, its
    count, then the check :data:`_CHECKS` holds for the option. Cached: the same values
    are checked again on every edit of a script."""
    name = opt.long
    if opt.choices is not None and value not in opt.choices:
        taken = ", ".join(repr(c) for c in opt.choices)
        return f"--{name}: invalid choice {value!r} (choose from {taken})"
    least = _COUNTS.get(name, 0 if opt.integer else None)
    if least is not None:
        return count_problem(opt, value, least)
    check = _CHECKS.get(name)
    return None if check is None else check(name, value)


def _loaded(reader: str) -> Check:
    """The check of a value by a reader of :data:`READERS` (loaded when first used)."""
    return lambda _name, value: boundary.load(READERS[reader])(value)


def _urgency_problem(name: str, value: str) -> str | None:
    if value in ("hold", "expedite", "default"):  # flux-core's names for 0, 31, 16
        return None
    n = count(value, 0)
    return (
        None
        if n is not None and n <= 31
        else f"--urgency takes 0 to 31 (or hold, default, expedite), not {value!r}"
    )


def _time_limit_problem(name: str, value: str) -> str | None:
    try:
        parse_time_limit(value)
    except Refused:
        return f"-t takes minutes or a Flux Standard Duration (30s, 1.5h, 2d), not {value!r}"
    return None


def _keyval_problem(name: str, value: str) -> str | None:
    """--setattr, --setopt: any key, empty parts too, is a place in the jobspec."""
    if value.startswith("^") and "=" not in value:
        return f"--{name} {_brief(value)}: ^KEY reads the value from a file: ^KEY=FILE"
    return None


def _dependency_problem(name: str, value: str) -> str | None:
    try:
        parse_dependency(value)
    except Refused as err:
        return str(err)
    return None


def _env_rule_problem(name: str, value: str) -> str | None:
    return env_problem(value, remove=name == "env-remove")


def _cc_problem(name: str, value: str) -> str | None:
    if not value:  # an empty one is not given
        return None
    runs = flux_idset(value)
    if runs is None:
        return f"--{name} takes an idset (0-3,7), not {_brief(value)}"
    return None if runs else f"--{name} takes a non-empty idset (Flux then submits nothing)"


def _cwd_problem(name: str, value: str) -> str | None:
    return None if value else "--cwd needs a directory"


def _named_problem(name: str, value: str) -> str | None:
    """--queue, --bank (an empty --job-name: Flux takes it)."""
    return None if value else f"--{name} needs a non-empty value"


# the check of each option's value, after its choices and counts
_CHECKS: dict[str, Check] = {
    "rlimit": _loaded("rlimit_problem"),
    "begin-time": _loaded("begin_time_problem"),
    "urgency": _urgency_problem,
    "time-limit": _time_limit_problem,
    "requires": _loaded("requires_problem"),
    "setattr": _keyval_problem,
    "setopt": _keyval_problem,
    "dependency": _dependency_problem,
    "signal": _loaded("signal_problem"),
    "env": _env_rule_problem,
    "env-remove": _env_rule_problem,
    "cc": _cc_problem,
    "bcc": _cc_problem,
    "cwd": _cwd_problem,
    "queue": _named_problem,
    "bank": _named_problem,
    "resources-shape": _loaded("shape_problem"),
}


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
