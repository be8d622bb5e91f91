"""The number readers: user text becomes a Python int or float here, as Flux's Python
commands read it, or None (never an exception)."""

from __future__ import annotations


def python_int(text: str) -> int | None:
    """``int(text)`` as Flux's Python commands read an option (Unicode digits,
    ``_`` separators, surrounding white space), or None where int() refuses: not a
    number, or more digits than Python converts (its 4,300-digit limit, which
    flux-core's own tools hit too). The one place user text becomes a Python int."""
    if len(text) > 4300 + 64:  # beyond the limit whatever the separators: refuse early
        return None
    try:
        return int(text)
    except ValueError:
        return None


def ascii_int(text: str) -> int | None:
    """A run of ASCII digits 0-9 (nothing else: no sign, no '²', no '_') as an int, or
    None; ``str.isdigit()`` is true for characters int() refuses and for others it
    reads differently, so text is never tested with it."""
    if not text or not text.isascii() or not text.isdigit():
        return None
    return python_int(text)


def python_float(text: str) -> float | None:
    """``float(text)`` or None where it refuses (never an exception)."""
    try:
        return float(text)
    except (ValueError, OverflowError):
        return None
