"""JSON text as Flux reads it. The whole text is first held to Python's JSON reader (what
it refuses, said on the character to change: JS901, or JS908 when it nests too deeply);
then libyaml reads it as YAML flow for the positions, and each scalar's value is what
JSON, not YAML, makes of it (``1e3`` a number, ``"\\ud83d\\ude00"`` one character)."""

from __future__ import annotations

import json
import re

from jobspec_lsp.diagnostics import Diagnostic
from jobspec_lsp.jobspec.json_errors import describe
from jobspec_lsp.jobspec.problems import MAX_DEPTH, SYNTAX, TOO_DEEP, E
from jobspec_lsp.notations.formats import python_int

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

# a \u escape of a UTF-16 surrogate (half of a character beyond U+FFFF)
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
# a JSON string, or one of the constants Python's json module reads and JSON has not
_JSON_CONSTANT = re.compile(r'"(?:[^"\\]|\\.)*"|(-?Infinity|NaN)')
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?\Z")


def _problem(code: str, message: str, start: int, end: int) -> Diagnostic:
    return Diagnostic(code, E, message, start, max(end, start))


class _NotJSONConstant(ValueError):
    pass


def _no_constant(name: str) -> Any:
    raise _NotJSONConstant(name)


class _HugeJSONNumber(ValueError):
    def __init__(self, digits: str):
        super().__init__(digits)
        self.digits = digits


def _json_int(digits: str) -> int:
    n = python_int(digits)
    if n is None:
        raise _HugeJSONNumber(digits)
    return n


def refusal(text: str) -> list[Diagnostic] | None:
    """None when Python's JSON reader accepts ``text`` as JSON (no infinity, no NaN, no
    integer beyond what it reads); else what says why it does not (at most one)."""
    try:
        json.loads(text, parse_constant=_no_constant, parse_int=_json_int)
    except _HugeJSONNumber as exc:
        at = text.find(exc.digits)
        message = (
            f"invalid JSON: a number of {len(exc.digits):,} digits is too large to read "
            "(Flux reads integers of up to 64 bits)"
        )
        end = max(at, 0) + len(exc.digits) if at >= 0 else 1
        return [_problem(SYNTAX, message, max(at, 0), end)]
    except _NotJSONConstant:
        return _constant(text)
    except json.JSONDecodeError as exc:
        return [_problem(SYNTAX, *describe(text, exc))]
    except RecursionError:
        message = f"nesting is too deep to read (more than {MAX_DEPTH} levels)"
        return [_problem(TOO_DEEP, message, 0, 1)]
    except ValueError as exc:  # e.g. huge integers beyond Python's digit limit
        return [_problem(SYNTAX, f"invalid JSON: {exc}", 0, 1)]
    return None


def _constant(text: str) -> list[Diagnostic]:
    """Where the text writes a constant Python reads and JSON has not (outside strings)."""
    for m in _JSON_CONSTANT.finditer(text):
        if m.group(1):
            message = (
                f"invalid JSON: {m.group(1)} is not a JSON value "
                "(Python writes it; JSON has no infinity or NaN)"
            )
            return [_problem(SYNTAX, message, m.start(1), m.end(1))]
    return []


def for_libyaml(text: str) -> str:
    """``text`` as libyaml can read it: it refuses the ``\\uD83D\\uDE00`` escapes JSON writes
    for characters beyond U+FFFF, so each is read as a same-length stand-in (the strings
    holding escapes are decoded with JSON's own rules from the original text:
    :func:`string_value`)."""
    if "\\u" in text:
        return SURROGATE_ESCAPE.sub(r"\\u0020", text)
    return text


def plain_value(raw: str) -> Any:
    """A JSON literal's value (the reader has refused numbers int() cannot read)."""
    if raw == "true":
        return True
    if raw == "false":
        return False
    if raw == "null":
        return None
    m = _JSON_NUMBER.match(raw)
    if m:
        if m.group(1) or m.group(2):
            return float(raw)
        return int(raw)
    return raw


def string_value(source: str, raw: str, start: int) -> tuple[str, list[Diagnostic]]:
    """A JSON string's value as JSON decodes it (surrogate pairs joined) from its
    ``source`` text, which starts at ``start``; and a problem for each lone surrogate,
    which is no character, where it is written (kept out of the value: no later step
    meets a lone surrogate). ``raw`` is what libyaml read."""
    if "\\u" not in source:
        return raw, []
    try:
        value = json.loads(source)
    except ValueError:  # pragma: no cover - the reader accepted the whole text
        return raw, []
    if not isinstance(value, str):  # pragma: no cover
        return raw, []
    if not any("\ud800" <= c <= "\udfff" for c in value):
        return value, []  # every surrogate escape was half of a pair: joined
    problems = [
        _problem(
            SYNTAX,
            f"{m.group(0)} is half of a surrogate pair, not a character: Flux cannot read it",
            start + m.start(),
            start + m.end(),
        )
        for m in _lone_surrogates(source)
    ]
    return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in value), problems


def _lone_surrogates(source: str) -> list[re.Match[str]]:
    """The surrogate escapes of ``source`` that are not half of a pair (a high one
    followed at once by a low one)."""
    escapes = list(SURROGATE_ESCAPE.finditer(source))
    lone = []
    i = 0
    while i < len(escapes):
        m = escapes[i]
        high = int(m.group(0)[2:], 16) <= 0xDBFF
        nxt = escapes[i + 1] if i + 1 < len(escapes) else None
        if (
            high
            and nxt is not None
            and nxt.start() == m.end()
            and int(nxt.group(0)[2:], 16) >= 0xDC00
        ):
            i += 2  # a pair: one character
            continue
        lone.append(m)
        i += 1
    return lone
