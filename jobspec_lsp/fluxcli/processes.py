"""The options that set what the job's processes get from the system, read against this
host's own names as Flux reads them: ``--signal`` (a signal by number or name, and when,
as the job shell option flux-core writes) and ``--rlimit`` (resource limits).

Reached from :mod:`jobspec_lsp.fluxcli.values` (its declared table of readers) the first
time such an option is given: a script's check without one loads neither signal nor
resource."""

from __future__ import annotations

import difflib
import fnmatch
import signal as signals

from jobspec_lsp.fluxcli.argv import brief as _brief
from jobspec_lsp.fluxcli.values import Refused
from jobspec_lsp.notations import formats

try:
    import resource
except ImportError:  # pragma: no cover - not a POSIX system: nothing to compare with
    resource = None  # type: ignore[assignment,unused-ignore]

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any


def signal_option(value: str) -> dict[str, Any]:
    """``--signal=[SIG][@TIME]`` as the job shell option flux-core writes: SIG a number
    (as int() reads it) or a signal name in capitals, with or without SIG (SIGTERM,
    TERM); TIME a number of seconds or a Flux Standard Duration."""
    sig, _, when = value.partition("@")
    signum = _signal_number(sig) if sig else int(signals.SIGUSR1)
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


def _signal_number(sig: str) -> int:
    """The number of the signal ``sig`` names (a number, or a name in capitals with or
    without SIG); :class:`Refused` for another name or a number not above 0."""
    number = formats.python_int(sig)
    if number is not None:
        signum = number
    else:
        named = getattr(signals.Signals, sig, None) or getattr(signals.Signals, "SIG" + sig, None)
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
    return signum


def signal_problem(value: str) -> str | None:
    """Why Flux refuses ``--signal=value``, or None."""
    try:
        signal_option(value)
    except Refused as err:
        return str(err)
    return None


def rlimit_problem(value: str) -> str | None:
    """Why flux batch refuses ``--rlimit=value`` (comma-separated rules: -PATTERN to
    leave limits out, NAME to copy one, NAME=VALUE to set one), or None."""
    if resource is None:  # pragma: no cover - not a POSIX system
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
            close = difflib.get_close_matches(name.lower(), known.split(", "), n=1)
            hint = f"; did you mean {close[0]}?" if close else f" (one of {known})"
            return f"--rlimit: {_brief(name)} is not a resource limit{hint}"
        if limit not in ("unlimited", "infinity", "inf") and formats.python_int(limit) is None:
            return (
                f"--rlimit {_brief(rule)}: the limit must be a whole number or unlimited, "
                f"not {_brief(limit)}"
            )
    return None
