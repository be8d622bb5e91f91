"""Inline suppression comments, in YAML jobspec and in batch scripts:

    count: 0  # jobspec: ignore[JS202]          that line, these codes
    count: 0  # jobspec: ignore                 that line, every code
    # jobspec: ignore-file[JS8, JS905]          the whole file, these codes

A suppression that suppresses nothing is itself reported (JS913, with a fix that
removes it), as ruff reports an unused ``noqa``; codes that are not enabled (ignored
by the configuration, or outside ``select``) are never called unused.  JSON has no
comments: suppress there with the configuration's ``per-file-ignores``.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable

from jobspec_lsp.diagnostics import ALL_KINDS, RULES, Diagnostic, Family, Severity, matches
from jobspec_lsp.diagnostics import is_code_or_prefix as known
from jobspec_lsp.jobspec.tree import Mapping, Scalar, Sequence
from jobspec_lsp.record import Record
from jobspec_lsp.text.suggest import closest

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

family = Family()
UNUSED = family.warning(
    """JS913 unused-suppression: A `# jobspec: ignore` comment that suppresses nothing.

    The problem it was written for is gone (or never was on that line), so the comment only
    hides the next one. The fix removes it (or the codes it lists in vain). In a jobspec
    the rules could not run on (a syntax error, a document too large for a tree) only a
    code that names no rule is reported: the others may be waiting for their rule.""",
    bad="version: 1  # jobspec: ignore[JS103]\n",
    good="version: 1\n",
    kinds=ALL_KINDS,
    fix="unused-suppression",
    safety="cosmetic",
    tags=("unnecessary",),
)

_COMMENT = re.compile(r"(?:^|(?<=\s))#\s*jobspec:\s*ignore(-file)?(?:\[([^\]\n]*)\])?")


class _Suppression(Record):
    __slots__ = ("start", "end", "line_start", "file", "codes", "used")
    start: int  # the comment
    end: int
    line_start: int
    file: bool
    codes: tuple[str, ...] | None  # None: every code
    used: set[str]

    def __init__(
        self,
        start: int,
        end: int,
        line_start: int,
        file: bool,
        codes: tuple[str, ...] | None,
        used: set[str],
    ) -> None:
        self.start = start
        self.end = end
        self.line_start = line_start
        self.file = file
        self.codes = codes
        self.used = used


def _find(text: str, doc: Any = None) -> list[_Suppression]:
    """The suppression comments of ``text``: only real comments count, never the same
    words inside a string (a YAML scalar of ``doc``, or a quoted part of the line)."""

    spans = _scalar_spans(doc) if doc is not None and doc.root is not None else None
    starts = [a for a, _ in spans] if spans else []
    out = []
    for m in _COMMENT.finditer(text):
        if spans is not None:
            k = bisect.bisect_right(starts, m.start()) - 1
            if k >= 0 and spans[k][0] <= m.start() < spans[k][1]:
                continue  # inside a string's text
        elif _quoted_at(text, m.start()):
            continue
        codes = None
        if m.group(2) is not None:
            codes = tuple(c.strip().upper() for c in m.group(2).split(",") if c.strip())
        ls = text.rfind("\n", 0, m.start()) + 1
        out.append(_Suppression(m.start(), m.end(), ls, bool(m.group(1)), codes, set()))
    return out


def _scalar_spans(doc: Any) -> list[tuple[int, int]]:
    """(start, end) of every scalar of a parsed document, in text order, found
    without recursion."""

    spans = []
    stack = [doc.root]
    while stack:
        node = stack.pop()
        if isinstance(node, Scalar):
            if node.style is not None:  # quoted and block scalars hold text a '#' may be in
                spans.append((node.start, node.end))
        elif isinstance(node, Mapping):
            for k, v in node.pairs:
                stack.extend((k, v))
        elif isinstance(node, Sequence):
            stack.extend(node.items)
    spans.sort()
    return spans


def _quoted_at(text: str, at: int) -> bool:
    """Whether ``at`` is inside '...' or "..." on its line (a script's line, or a YAML
    document that could not be parsed)."""
    quote = None
    i = text.rfind("\n", 0, at) + 1
    while i < at:
        ch = text[i]
        if quote is None:
            if ch in "'\"":
                quote = ch
            elif ch == "\\":
                i += 1
        elif ch == quote:
            quote = None
        elif ch == "\\" and quote == '"':
            i += 1
        i += 1
    return quote is not None


def apply(
    text: str,
    diags: list[Diagnostic],
    select: Any = None,
    ignore: Any = None,
    doc: Any = None,
    every_rule_ran: bool = True,
) -> list[Diagnostic]:
    """``diags`` without the suppressed ones, plus JS913 for each suppression (or listed
    code) that suppressed nothing; ``select``/``ignore`` say which codes are enabled;
    ``doc``, the parsed document of ``text`` when there is one, tells its strings.
    ``every_rule_ran`` false (no tree to check, or one too large: most rules skipped):
    JS913 only for codes no rule has, since a suppression that found nothing may be one
    for a rule that did not run (and ``--fix`` would remove it)."""
    if "jobspec:" not in text:
        return diags
    found = _find(text, doc)
    if not found:
        return diags

    def enabled(code: str) -> bool:
        return (not select or matches(code, select)) and not (ignore and matches(code, ignore))

    kept = _unsuppressed(text, diags, found)
    if enabled(UNUSED):
        kept += _unused_ones(text, found, enabled, every_rule_ran)
    kept.sort(key=Diagnostic.sort_key)
    return kept


def _unsuppressed(
    text: str, diags: list[Diagnostic], found: list[_Suppression]
) -> list[Diagnostic]:
    """The diagnostics no suppression of ``found`` covers (a file's first, then the
    line's); each suppression notes the codes it suppressed (``used``)."""
    files = [s for s in found if s.file]
    by_line: dict[int, list[_Suppression]] = {}
    for s in found:
        if not s.file:
            by_line.setdefault(s.line_start, []).append(s)
    kept = []
    for d in diags:
        if d.code == UNUSED:
            kept.append(d)
            continue
        hit = _covering(d, files)
        if hit is None:
            hit = _covering(d, by_line.get(text.rfind("\n", 0, d.start) + 1, ()))
        if hit is None:
            kept.append(d)
        else:
            hit.used.add(d.code)
    return kept


def _covering(d: Diagnostic, suppressions: Iterable[_Suppression]) -> _Suppression | None:
    """The first of ``suppressions`` that covers ``d``'s code (every code, or one listed)."""
    for s in suppressions:
        if s.codes is None or matches(d.code, s.codes):
            return s
    return None


def _unused_ones(
    text: str, found: list[_Suppression], enabled: Any, every_rule_ran: bool
) -> list[Diagnostic]:
    """JS913 for each suppression that suppressed nothing, or for the codes it lists in
    vain: codes no rule has, and (when every rule ran) enabled codes not reported."""
    out = []
    for s in found:
        if s.codes is None:
            if not s.used and every_rule_ran:
                out.append(_unused(text, s, "suppresses nothing", s.start, s.end))
            continue
        idle = [
            c
            for c in s.codes
            if not is_code_or_prefix(c)  # a code no rule has suppresses nothing
            or (every_rule_ran and enabled_prefix(c, enabled) and not matches_any(c, s.used))
        ]
        if not idle:
            continue
        if len(idle) == len(s.codes):
            unknown = [c for c in idle if not is_code_or_prefix(c)]
            why = f"suppresses nothing ({_idle_words(unknown)})" if unknown else ""
            out.append(_unused(text, s, why or "suppresses nothing", s.start, s.end))
        else:
            left = [c for c in s.codes if c not in idle]
            out.append(_unused(text, s, _idle_words(idle), s.start, s.end, keep=left))
    return out


def _idle_words(idle: list[str]) -> str:
    """What a suppression's idle codes are, in words: not rule codes (with the
    nearest one), or codes not reported on its line."""

    parts = []
    unknown = [c for c in idle if not is_code_or_prefix(c)]
    for c in unknown:
        close = closest(c, RULES, 0.7)
        parts.append(f"{c} is no rule's code" + (f"; did you mean {close}?" if close else ""))
    known = [c for c in idle if c not in unknown]
    if known:
        parts.append(f"{', '.join(known)} {'is' if len(known) == 1 else 'are'} not reported here")
    return "; ".join(parts)


def is_code_or_prefix(code: str) -> bool:

    return known(code)


def enabled_prefix(code: str, enabled: Any) -> bool:
    """A listed code or prefix counts when some code it covers is enabled."""

    return any(enabled(c) for c in RULES if c.startswith(code))


def matches_any(code: str, used: set[str]) -> bool:
    return any(u.startswith(code) for u in used)


def _unused(text: str, s: _Suppression, words: str, start: int, end: int, keep: Any = None) -> Any:
    comment = text[s.start : s.end]
    if keep:
        kind = "ignore-file" if s.file else "ignore"
        new = f"# jobspec: {kind}[{', '.join(keep)}]"
        edit = (s.start, s.end, new)
        title = f"Remove the codes not reported here ({new})"
    else:
        # the whole comment, with the blanks before it when code precedes it on the line
        a = s.start
        while a > s.line_start and text[a - 1] in " \t":
            a -= 1
        line_end = text.find("\n", s.end)
        line_end = len(text) if line_end < 0 else line_end
        rest = text[s.end : line_end]
        if a == s.line_start and not rest.strip():  # a line of its own: the whole line
            edit = (s.line_start, min(line_end + 1, len(text)), "")
        else:
            edit = (a, s.end, "")
        title = "Remove the unused suppression"
    return Diagnostic(
        UNUSED,
        Severity.WARNING,
        f"{comment!r} {words}",
        start,
        end,
        {"edits": [edit], "title": title},
    )
