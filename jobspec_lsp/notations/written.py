"""The count notations written back: runs as an RFC 22 idset, a count dictionary as the
shortest RFC 45 range (the reverse of the readers; no grammar needed)."""

from __future__ import annotations

from collections.abc import Iterable

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any


def format_idset(runs: Iterable[tuple[int, int]]) -> str:
    """Inclusive (lo, hi) runs (or plain ids) -> "1-3,5"."""
    parts = []
    for run in runs:
        lo, hi = (run, run) if isinstance(run, int) else run
        parts.append(str(lo) if lo == hi else f"{lo}-{hi}")
    return ",".join(parts)


def format_range(d: dict[str, Any]) -> str:
    """The shortest RFC 45 string for a count dictionary: "3-30", "2+", "1-5:2",
    "2-64:2:*"."""
    lo, hi = d["min"], d.get("max")
    op, operand = d.get("operator", "+"), d.get("operand", 1)
    text = f"{lo}-{hi}" if hi is not None else f"{lo}+"
    if op == "+" and operand == 1:
        return text
    if op == "+":
        return f"{text}:{operand}"
    return f"{text}:{operand}:{op}"
