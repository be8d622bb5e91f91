"""``--begin-time`` read as Flux reads it (``flux.util.parse_datetime``): ``now``,
``+FSD`` and ``-FSD`` from now, anything else by parsedatetime, the library flux-core
itself vendors (``flux.utils.parsedatetime``, version 2.6), so a free-form time such as
``8pm tomorrow`` gets the time stamp Flux computes.

Reached from :mod:`jobspec_lsp.fluxcli.values` (its declared table of readers) the first
time a begin time is given: a script's check without one loads neither datetime nor
parsedatetime."""

from __future__ import annotations

import datetime as dt
import functools
import re
import threading
import time

from jobspec_lsp.fluxcli.argv import brief as _brief
from jobspec_lsp.fluxcli.values import Limit, Refused
from jobspec_lsp.notations import formats

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

# the ISO form with a 'T', which parsedatetime 2.6 reads as something else
_ISO_T = re.compile(r"\d{4}-\d\d-\d\dT\d\d?:\d\d(?::\d\d(?:\.\d+)?)?", re.ASCII)
# past this length a begin time is not handed to the date parser (its cost grows with
# the text); Flux would read it, so this is a limit of the tool, not a refusal
_BEGIN_TIME_MAX = 200


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


def begin_timestamp(value: str, now: float | None = None) -> float:
    """``--begin-time`` as the time stamp Flux computes (``flux.util.parse_datetime``):
    ``now``, ``+FSD`` and ``-FSD`` from now, anything else read by parsedatetime with
    the day starting at midnight (``8pm tomorrow``, ``noon``, ``2030-01-20 12:34``, a
    bare date keeping the current time of day). :class:`Refused` with "Invalid
    datetime" when Flux refuses the text."""
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
    Imported on first use: few begin times are free-form, and the library takes some
    60 ms to load."""
    import parsedatetime  # deferred: 60 ms to load, only for a free-form --begin-time

    cal = parsedatetime.Calendar()
    cal.ptc.StartHour = 0
    return cal
