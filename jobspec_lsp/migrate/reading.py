"""Directive lines of a batch script, for any scheduler: where the block ends, the words
of each line with their source ranges, and an option table's getopt-style reading."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from jobspec_lsp.job import directives
from jobspec_lsp.migrate.model import Item, Line
from jobspec_lsp.record import Frozen, Record
from jobspec_lsp.text import suggest


class Option(Frozen):
    """One option of a scheduler's submission command."""

    __slots__ = ("names", "value", "reader", "flux", "note", "optional_value", "ref")
    names: tuple[str, ...]  # as written, with their dashes: ("--nodes", "-N")
    value: bool  # takes a value
    reader: str  # key of its reader; "" not carried; "-" nothing to carry
    flux: str  # what it becomes, in words (the docs' table)
    note: str  # not carried: what the job gets instead; carried: the caveat
    optional_value: bool
    ref: str  # the scheduler reference this follows

    def __init__(
        self,
        names: tuple[str, ...],
        value: bool,
        reader: str,
        flux: str,
        note: str = "",
        optional_value: bool = False,
        ref: str = "",
    ) -> None:
        put = object.__setattr__
        put(self, "names", names)
        put(self, "value", value)
        put(self, "reader", reader)
        put(self, "flux", flux)
        put(self, "note", note)
        put(self, "optional_value", optional_value)
        put(self, "ref", ref)


def lines(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each line, the end before its newline (and a CR)."""
    pos = 0
    n = len(text)
    while pos < n:
        nl = text.find("\n", pos)
        end = n if nl < 0 else nl
        yield pos, end - (1 if end > pos and text[end - 1] == "\r" else 0)
        pos = end + 1


def split_words(line: str) -> list[tuple[str, int, int]] | str:
    """A directive line's words as a scheduler splits them: at blanks, with '...' and
    "..." quotes and backslashes; a `#` after a blank starts a comment. (value, start,
    end) each; a str (the offset of the quote) when a quote is not closed."""
    out: list[tuple[str, int, int]] = []
    i, n = 0, len(line)
    while i < n:
        while i < n and line[i] in " \t\r":
            i += 1
        if i >= n or line[i] == "#":
            break
        start = i
        value: list[str] = []
        while i < n and line[i] not in " \t\r":
            ch = line[i]
            if ch in "'\"":
                end = line.find(ch, i + 1)
                if end < 0:
                    return str(i)
                value.append(line[i + 1 : end])
                i = end + 1
            elif ch == "\\" and i + 1 < n:
                value.append(line[i + 1])
                i += 2
            else:
                value.append(ch)
                i += 1
        out.append(("".join(value), start, i))
    return out


def split_sbatch_words(line: str) -> list[tuple[str, int, int]] | str:
    """A `#SBATCH` line's words as sbatch 22.05 splits them (its ``_get_argument``): at
    blanks, with '...' and "..." quotes; a backslash takes the next character as it is,
    inside quotes too, but a blank after it still ends the word; an unquoted, unescaped
    ``#`` starts a comment *anywhere*, inside a word too (``--job-name=a#b`` is ``a``);
    a quote not closed is refused (the offset of the quote, as a str)."""
    out: list[tuple[str, int, int]] = []
    i, n = 0, len(line)
    while i < n:
        while i < n and line[i].isspace():
            i += 1
        start, value = i, []
        quote, escaped, opened = "", False, 0
        while i < n and (quote or not line[i].isspace()):
            ch = line[i]
            i += 1
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
                continue
            elif quote:
                if ch == quote:
                    quote = ""
                    continue
            elif ch in "'\"":
                quote, opened = ch, i - 1
                continue
            elif ch == "#":
                i -= 1
                break
            value.append(ch)
        if quote:
            return str(opened)
        if i > start:
            out.append(("".join(value), start, i))
        if i < n and line[i] == "#":
            break
    return out


class Block(Record):
    __slots__ = ("lines", "late", "first_command", "problems", "notes")
    lines: list[Line]
    late: list[int]  # directives after the first command (the scheduler ignores them)
    first_command: int  # offset of the first command line (len(text) when none)
    problems: list[tuple[int, int, str]]  # (start, end, message): unreadable lines
    notes: list[tuple[int, int, str]]  # (start, end, message): read otherwise than it looks

    def __init__(
        self,
        lines: list[Line],
        late: list[int],
        first_command: int,
        problems: list[tuple[int, int, str]],
        notes: list[tuple[int, int, str]] | None = None,
    ) -> None:
        self.lines = lines
        self.late = late
        self.first_command = first_command
        self.problems = problems
        self.notes = [] if notes is None else notes


def block(
    text: str,
    sentinel: re.Pattern[str],
    parse: Callable[[Line, list[directives.Word], list[tuple[int, int, str]]], None],
    split_line: Callable[[str], list[tuple[str, int, int]] | str] = split_words,
) -> Block:
    """The directive lines before the first command, read with ``parse`` (their words
    split by ``split_line``); the ones after it are only located (the schedulers this
    reads all stop at the first command)."""
    out: list[Line] = []
    problems: list[tuple[int, int, str]] = []
    notes: list[tuple[int, int, str]] = []
    body = len(text)
    for ls, le in lines(text):
        m = sentinel.match(text, ls, le)
        if m:
            line = Line(ls, le, m.end(), m.group(0))
            split = split_line(text[m.end() : le])
            if isinstance(split, str):
                at = m.end() + int(split)
                problems.append((at, min(at + 1, le), "a quote is not closed"))
                blank = len(text[m.end() : le]) - len(text[m.end() : le].lstrip())
                line.bad.append((m.end() + blank, le))
                line.words_end = le
            else:
                words = [directives.Word(v, m.end() + s, m.end() + e) for v, s, e in split]
                if words:
                    line.words_end = words[-1].end
                    _glued_comment(text, words[-1].end, le, notes)
                parse(line, words, problems)
            out.append(line)
            continue
        stripped = text[ls:le].strip()
        if stripped and not stripped.startswith("#"):
            body = ls
            break
    late = []
    for ls, le in lines(text[body:]):
        if sentinel.match(text, body + ls, body + le):
            late.append(body + ls)
    return Block(out, late, body, problems, notes)


def _glued_comment(text: str, at: int, end: int, notes: list[tuple[int, int, str]]) -> None:
    """A comment that starts inside a word (``--job-name=1536#SBATCH -o x``), said: the
    words after the ``#`` look like options, and are not read."""
    rest = text[at:end].rstrip()
    if rest.startswith("#") and len(rest) > 1:
        notes.append(
            (
                at,
                at + len(rest),
                f"{rest!r} is a comment: the scheduler reads a '#' as the start of a "
                "comment even inside a word, so nothing after it is read (nor converted); "
                "put a blank before the '#', or quote it, to say which is meant",
            )
        )


def getopt(
    line: Line,
    words: list[directives.Word],
    problems: list[tuple[int, int, str]],
    table: dict[str, Option],
    command: str,
) -> None:
    """Read ``words`` as ``command`` reads its options: ``--long=VALUE`` or ``--long VALUE``,
    a whole word the table names (LSF's one-dash ``-nnodes``), ``-x VALUE`` or ``-xVALUE``.
    Each option read becomes an :class:`Item` of ``line``; the rest are ``problems``."""
    i = 0
    while i < len(words):
        w = words[i]
        v = w.value
        i += 1
        attached: str | None = None
        if v in table:
            name = v
        elif v.startswith("-") and "=" in v and v.partition("=")[0] in table:
            name, _, attached = v.partition("=")
            if len(name) == 2:  # -N=2: sbatch reads the value '=2'
                attached = v[2:]
        elif v.startswith("--") and _prefix(v.partition("=")[0], table):
            # getopt_long takes an unambiguous prefix of a long option (sbatch --out)
            name = _prefix(v.partition("=")[0], table) or v
            if "=" in v:
                attached = v.partition("=")[2]
        elif v.startswith("--"):
            name = v.partition("=")[0]
            _unknown(command, name, w.start, w.start + len(name), table, problems)
            line.bad.append((w.start, w.end))
            continue
        elif v.startswith("-") and len(v) > 2 and v[:2] in table:
            name, attached = v[:2], v[2:]
        else:
            if v.startswith("-") and len(v) > 1:
                _unknown(command, v, w.start, w.end, table, problems)
            else:
                problems.append((w.start, w.end, f"{v!r} is not an option of {command}"))
            line.bad.append((w.start, w.end))
            continue
        opt = table[name]
        if attached is not None:
            if not opt.value and not opt.optional_value:
                problems.append((w.start, w.end, f"{name} takes no value"))
                line.bad.append((w.start, w.end))
                continue
            vs = w.end - len(attached)
            line.items.append(Item(name, attached, w.start, w.end, vs, w.end, opt.reader))
            continue
        if not opt.value:
            line.items.append(Item(name, None, w.start, w.end, w.end, w.end, opt.reader))
            continue
        if i >= len(words):
            problems.append((w.start, w.end, f"{name} needs a value"))
            line.bad.append((w.start, w.end))
            continue
        nxt = words[i]
        i += 1
        line.items.append(Item(name, nxt.value, w.start, nxt.end, nxt.start, nxt.end, opt.reader))


def _prefix(written: str, table: dict[str, Option]) -> str | None:
    """The long option ``written`` abbreviates, when it names exactly one."""
    if len(written) < 3:
        return None
    hits = {o.names[0] for n, o in table.items() if n.startswith("--") and n.startswith(written)}
    return hits.pop() if len(hits) == 1 else None


# a block of thousands of unknown options (a generated file) is not given a "did you mean"
# past these: each costs a fuzzy match against the whole table
_SUGGESTED = 64


def _unknown(
    command: str, name: str, start: int, end: int, table, problems: list[tuple[int, int, str]]
) -> None:
    """An option ``command`` does not have, added to ``problems`` (with the nearest one)."""
    close = suggest.closest(name, table) if len(problems) < _SUGGESTED else None
    hint = f"; did you mean {close}?" if close else ""
    problems.append((start, end, f"{command} has no option {name}{hint}"))


def table(options: tuple[Option, ...]) -> dict[str, Option]:
    return {name: o for o in options for name in o.names}
