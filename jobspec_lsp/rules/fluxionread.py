"""How fluxion's jobspec reader reads a value, for ``rules/fluxion.py``.

fluxion (flux-sched's ``resource/libjobspec``) reads the jobspec with yaml-cpp and
converts each scalar with ``as<T>()``, which reads the scalar's text with a C++ stream
(base prefixes allowed: ``0x10`` is 16, ``010`` is 8; trailing white space allowed,
leading refused); its constraints read idsets with flux-core's ``idset_decode`` and
hostlists with ``hostlist_append``. This module says, for a scalar's text, what each of
those readers makes of it, as measured against ``flux-jobspec-validate`` (fluxion 0.54
over flux-core 0.88; ``tests/flux/test_fluxion_drift.py`` holds it there): the value,
or None (with, for the notations, the reason) when the reader refuses it.
"""

from __future__ import annotations

import math
import re

from jobspec_lsp.jobspec.tree import Node, Scalar

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    pass

UINT_MAX = 2**32 - 1
INT_RANGE = (-(2**31), 2**31 - 1)
ULONG_MAX = 2**64 - 1
_WS = " \t\n\v\f\r"  # C's isspace
_DIGITS = 64  # more digits than this: too large for any reader here (read without int())
# an integer as a C++ stream reads it with no base set: 0x hex, 0 octal, else decimal
_INT = re.compile(r"([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)[ \t\n\v\f\r]*\Z")
_FLOAT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[ \t\n\v\f\r]*\Z")
# yaml-cpp's own words for infinity and NaN (the stream reads neither)
_SPECIAL = {
    **dict.fromkeys((".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"), math.inf),
    **dict.fromkeys(("-.inf", "-.Inf", "-.INF"), -math.inf),
    **dict.fromkeys((".nan", ".NaN", ".NAN"), math.nan),
}


# ------------------------------------------------------------------- scalars as text
def shown(s: str, limit: int = 40) -> str:
    """``s`` quoted for a message, cut short when long."""
    return repr(s if len(s) <= limit else s[: limit - 3] + "...")


def text(node: Node | None) -> str | None:
    """The text yaml-cpp holds for a scalar of the JSON jobspec fluxion receives (the
    value written as JSON, a string unquoted); None for null or a collection (neither
    is a scalar to yaml-cpp)."""
    if not isinstance(node, Scalar) or node.value is None:
        return None
    v = node.value
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        try:
            return str(v)
        except ValueError:  # more digits than Python writes: as many as any reader needs
            return "-" * (v < 0) + "9" * 400
    if isinstance(v, float):
        if math.isfinite(v):
            return repr(v)
        return "NaN" if math.isnan(v) else "-Infinity" if v < 0 else "Infinity"
    return str(v)


def as_string(node: Node | None) -> str | None:
    """``as<std::string>()``: a scalar's text, ``null`` for null; None (yaml-cpp's "bad
    conversion") for a mapping or a list."""
    if isinstance(node, Scalar) and node.value is None:
        return "null"
    return text(node)


# ---------------------------------------------------------------- C++ stream numbers
def _integer(s: str) -> int | None:
    m = _INT.match(s)
    if m is None:
        return None
    digits = m.group(2)
    if len(digits) > _DIGITS:  # beyond every reader's range (and Python's int() limit)
        value = 2**128
    elif digits[:2] in ("0x", "0X"):
        value = int(digits[2:], 16)
    elif len(digits) > 1 and digits[0] == "0":
        value = int(digits[1:], 8)
    else:
        value = int(digits)
    return -value if m.group(1) == "-" else value


def as_unsigned(s: str | None) -> int | None:
    """``as<unsigned>()``: 0 to 4294967295, no sign ``-`` (yaml-cpp refuses it first)."""
    if s is None or s.startswith("-"):
        return None
    value = _integer(s)
    return value if value is not None and value <= UINT_MAX else None


def as_int(s: str | None) -> int | None:
    """``as<int>()``: a 32-bit signed integer."""
    value = None if s is None else _integer(s)
    return value if value is not None and INT_RANGE[0] <= value <= INT_RANGE[1] else None


def as_char(s: str | None) -> str | None:
    """``as<char>()``: one character, then only white space."""
    if not s or s[1:].strip(_WS):
        return None
    return s[0]


def as_double(s: str | None) -> float | None:
    """``as<double>()``: a decimal number (no hex, no ``inf``: yaml-cpp's ``.inf`` and
    ``.nan`` only); a number too large for a double is refused, a tiny one is 0."""
    if s is None:
        return None
    if s in _SPECIAL:
        return _SPECIAL[s]
    if _FLOAT.match(s) is None:
        return None
    value = float(s)
    return value if math.isfinite(value) else None


# ------------------------------------------------------------------ flux-core idsets
def _strtoul_check(s: str) -> tuple[int, str] | None:
    """idset_decode's number: ASCII digits, no sign or space, no leading zero, at most
    ULONG_MAX; the value and what follows it."""
    n = len(s) - len(s.lstrip("0123456789"))
    if n == 0 or (s[0] == "0" and n > 1):
        return None
    value = int(s[:n]) if n <= _DIGITS else ULONG_MAX + 1
    return (value, s[n:]) if value <= ULONG_MAX else None


def idset_problem(s: str) -> str | None:
    """Why flux-core's ``idset_decode`` refuses ``s`` (None: it takes it). Its numbers
    are stored in 32 bits (a larger one wraps), ids above 2147483647 are refused, empty
    items between commas are skipped."""
    s = s.split("\0", 1)[0]
    if len(s) >= 2 and s[0] == "[" and s[-1] == "]":
        s = s[1:-1]
    if "[" in s or "]" in s:
        return "mismatched or nested brackets"
    last = None
    for item in (t for t in s.split(",") if t):
        first = _strtoul_check(item)
        if first is None or first[1][:1] not in ("", "-"):
            return f"{shown(item)} is not a number or a range lo-hi (digits only, no leading zero)"
        lo = hi = first[0] & UINT_MAX
        if first[1]:
            second = _strtoul_check(first[1][1:])
            if second is None or second[1] or second[0] <= lo:
                return f"{shown(item)} is not a range lo-hi with lo < hi"
            hi = second[0] & UINT_MAX
        if last is not None and lo <= last:
            return f"{shown(item)} is out of order: ids must ascend, each once"
        if max(lo, hi) > INT_RANGE[1]:
            return f"{shown(item)} holds an id above {INT_RANGE[1]}, the largest an idset takes"
        last = hi
    return None


# ---------------------------------------------------------------- flux-core hostlists
MAX_RANGE = 1 << 20  # the most hosts of one bracketed range
MAX_RANGES = 10240  # the most ranges between one pair of brackets
_SEPARATORS = "\t, "


def _tokens(s: str) -> list[str]:
    """hostlist_decode's tokens: split at tabs, commas and spaces outside brackets."""
    out: list[str] = []
    i, n = 0, len(s)
    while True:
        while i < n and s[i] in _SEPARATORS:
            i += 1
        if i >= n:
            return out
        start, level = i, 0
        while i < n and (level != 0 or s[i] not in _SEPARATORS):
            level += (s[i] == "[") - (s[i] == "]")
            i += 1
        out.append(s[start:i])


def _strtoul(s: str) -> tuple[int, str] | None:
    """C's strtoul, base 10: leading space and a sign skipped, clamped at ULONG_MAX;
    None when no digit is read."""
    body = s.lstrip(_WS)
    sign = body[:1] if body[:1] in "+-" else ""
    body = body[len(sign) :]
    n = len(body) - len(body.lstrip("0123456789"))
    if n == 0:
        return None
    value = min(int(body[:n]) if n <= _DIGITS else ULONG_MAX, ULONG_MAX)
    return ((-value) % 2**64 if sign == "-" else value), body[n:]


def _range_problem(piece: str) -> str | None:
    lo_text, dash, hi_text = piece.partition("-")
    if hi_text.startswith("-"):
        return f"{shown(piece)} holds a negative number"
    lo = _strtoul(lo_text)
    if lo is None or (not hi_text and lo[1]):
        return f"{shown(piece)} is not a number or a range lo-hi"
    hi = _strtoul(hi_text) if hi_text else lo
    if hi is None or hi[1]:
        return f"{shown(piece)} is not a number or a range lo-hi"
    if lo[0] > hi[0]:
        return f"{shown(piece)} is a descending range"
    if (hi[0] - lo[0] + 1) % 2**64 > MAX_RANGE:
        return f"{shown(piece)} is a range of more than {MAX_RANGE:,} hosts"
    return None


def hostlist_problem(s: str) -> str | None:
    """Why flux-core's ``hostlist_append`` refuses ``s`` (None: it takes it). A host
    without brackets is taken as it is; in one with brackets, the first ``[...]`` holds
    numbers and ranges, what follows the ``]`` is a suffix taken as written."""
    for tok in _tokens(s.split("\0", 1)[0]):
        if "[" not in tok:
            if "]" in tok:
                return f"{shown(tok)} has a ']' without its '['"
            continue
        inner, closed, _ = tok.partition("[")[2].partition("]")
        if not closed:
            return f"{shown(tok)} has a '[' without its ']'"
        pieces = inner.split(",")
        if len(pieces) > MAX_RANGES:
            return f"{shown(tok)} has more than {MAX_RANGES:,} ranges in its brackets"
        for piece in pieces:
            why = _range_problem(piece)
            if why:
                return why
    return None
