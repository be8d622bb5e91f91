"""RFC 29 hostlists expanded to names and compressed back, for the hosts of a site's node
classes (formats.parse_hostlist reads the notation; this only lists and groups names)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from jobspec_lsp.site import notation

_NAME = re.compile(r"(.*?)(\d+)(\D*)\Z")


def expand(hostlist: str) -> list[str]:
    """Every host a hostlist names, in order."""
    return notation.hostlist(hostlist)


def compress(names: Iterable[str]) -> str:
    """Names as a hostlist: consecutive numbers of one prefix and suffix as ranges, in
    the order the names come."""
    terms: list[tuple[str, str, int, list[list[int]]]] = []  # prefix, suffix, width, runs
    for name in names:
        m = _NAME.match(name)
        if m is None:
            terms.append((name, "", -1, []))
            continue
        prefix, digits, suffix = m.groups()
        width = len(digits) if digits.startswith("0") and len(digits) > 1 else 0
        n = int(digits)
        last = terms[-1] if terms else None
        if last and last[:3] == (prefix, suffix, width) and last[3]:
            runs = last[3]
            if runs[-1][1] + 1 == n:
                runs[-1][1] = n
            else:
                runs.append([n, n])
            continue
        terms.append((prefix, suffix, width, [[n, n]]))
    parts = []
    for prefix, suffix, width, runs in terms:
        if width < 0:
            parts.append(prefix)
            continue
        ids = [f"{a:0{width}d}" + (f"-{b:0{width}d}" if b != a else "") for a, b in runs]
        if len(runs) == 1 and runs[0][0] == runs[0][1]:
            parts.append(f"{prefix}{ids[0]}{suffix}")
        else:
            parts.append(f"{prefix}[{','.join(ids)}]{suffix}")
    return ",".join(parts)
