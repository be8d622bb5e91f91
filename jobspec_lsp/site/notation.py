"""The notations a site's own Flux writes (RFC 22 idsets, RFC 23 durations, RFC 29
hostlists), read with the standard library only.

The site checks run inside Flux's job-ingest too (the validator plugin), under the Python
Flux runs its tools with, which has none of this package's dependencies. These readers
take the well-formed text Flux itself writes (an R file, a validated configuration) and
raise ValueError on anything else; the user's own text is read, with positions and
messages, by :mod:`jobspec_lsp.notations.formats`, and a test holds the two to the same
values.
"""

from __future__ import annotations

import re

Runs = list[tuple[int, int]]

_IDSET = re.compile(r"\d+(?:-\d+)?(?:,\d+(?:-\d+)?)*\Z")
_FSD = re.compile(r"([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)(ms|s|m|h|d)?\Z")
_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0, None: 1.0}


def idset(text: str) -> Runs:
    """``"0-3,7"`` -> [(0, 3), (7, 7)]; "" is the empty set; brackets are allowed."""
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    if not text:
        return []
    if not _IDSET.match(text):
        raise ValueError(f"not an idset: {text!r}")
    runs: Runs = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        a, b = int(lo), int(hi or lo)
        if b < a or (runs and a <= runs[-1][1]):
            raise ValueError(f"not an idset (ids ascend, each once): {text!r}")
        runs.append((a, b))
    return runs


def format_idset(runs: Runs) -> str:
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def fsd(text: str) -> float:
    """A Flux Standard Duration in seconds (``inf``/``infinity``: no limit)."""
    if text in ("inf", "infinity", "INF", "INFINITY"):
        return float("inf")
    m = _FSD.match(text)
    if m is None:
        raise ValueError(f"not a Flux Standard Duration: {text!r}")
    return float(m.group(1)) * _UNITS[m.group(2)]


RANGE = 1 << 20  # the most hosts Flux's hostlist takes in one range


def duration_text(seconds: float) -> str:
    """A duration as a person writes it: 7200 -> 2h, 90 -> 1.5m; 0 or infinite: unlimited
    (as Flux's limits read 0)."""
    if seconds == 0 or seconds == float("inf"):
        return "unlimited"
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds / size:.4g}{unit}"
    return f"{seconds:.4g}s"


def hostlist(text: str) -> list[str]:
    """Every host an RFC 29 hostlist names, in order (``node[0-2,5]`` -> four names)."""
    return list(hosts(text))


def hostlist_size(text: str) -> int:
    """How many hosts a hostlist names, without naming them."""
    n = 0
    for _prefix, ranges, _suffix in _parsed(text):
        n += 1 if ranges is None else sum(b - a + 1 for a, b, _ in ranges)
    return n


def hosts(text: str):
    """The hosts of a hostlist, one at a time (a caller may stop early)."""
    for prefix, ranges, suffix in _parsed(text):
        if ranges is None:
            yield prefix
            continue
        for a, b, width in ranges:
            for n in range(a, b + 1):
                yield f"{prefix}{n:0{width}d}{suffix}"


def _parsed(text: str) -> list[tuple[str, list[tuple[int, int, int]] | None, str]]:
    """(prefix, ranges as (lo, hi, width), suffix) of each term; ValueError for what
    Flux refuses (a range over RANGE hosts included)."""
    out: list[tuple[str, list[tuple[int, int, int]] | None, str]] = []
    for term in _terms(text):
        m = re.fullmatch(r"([^\[\]]*)(?:\[([^\[\]]*)\]([^\[\]]*))?", term)
        if m is None or not term:
            raise ValueError(f"not a hostlist: {text!r}")
        prefix, ranges, suffix = m.group(1), m.group(2), m.group(3) or ""
        if ranges is None:
            out.append((prefix, None, suffix))
            continue
        runs = []
        for part in ranges.split(","):
            lo, _, hi = part.partition("-")
            if not lo.isdigit() or (hi and not hi.isdigit()):
                raise ValueError(f"not a hostlist: {text!r}")
            a, b = int(lo), int(hi or lo)
            if b < a or b - a + 1 > RANGE:
                raise ValueError(f"not a hostlist Flux takes: {text!r}")
            runs.append((a, b, len(lo) if lo.startswith("0") and len(lo) > 1 else 0))
        out.append((prefix, runs, suffix))
    return out


def _terms(text: str) -> list[str]:
    terms, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == "," and depth == 0:
            terms.append(text[start:i])
            start = i + 1
    terms.append(text[start:])
    return [t.strip() for t in terms]


# ----------------------------------------------------------------- sets of ranks as runs
def size(runs: Runs) -> int:
    return sum(b - a + 1 for a, b in runs)


def intersect(x: Runs, y: Runs) -> Runs:
    out: Runs = []
    i = j = 0
    while i < len(x) and j < len(y):
        a, b = max(x[i][0], y[j][0]), min(x[i][1], y[j][1])
        if a <= b:
            out.append((a, b))
        if x[i][1] < y[j][1]:
            i += 1
        else:
            j += 1
    return out


def union(x: Runs, y: Runs) -> Runs:
    out: Runs = []
    for a, b in sorted(x + y):
        if out and a <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def minus(x: Runs, y: Runs) -> Runs:
    out: Runs = []
    for a, b in x:
        cur = a
        for c, d in y:
            if d < cur or c > b:
                continue
            if c > cur:
                out.append((cur, c - 1))
            cur = max(cur, d + 1)
        if cur <= b:
            out.append((cur, b))
    return out


def of_ids(ids: list[int]) -> Runs:
    out: Runs = []
    for r in sorted(set(ids)):
        if out and r == out[-1][1] + 1:
            out[-1] = (out[-1][0], r)
        else:
            out.append((r, r))
    return out
