"""`flux run|submit|alloc|batch|bulksubmit ...` command lines in a shell script, their
words with their source ranges, as the shell splits them.

A reading good enough to check the options such a line gives: quotes and backslashes,
lines continued by a backslash, a comment, and the operators that end a command
(``;``, ``&``, ``|``, ``)``, a line break). A word holding an expansion (``$VAR``,
``${...}``, ``$(...)``, backquotes) is *dynamic*: what it becomes is known only when the
script runs, so it is never judged. Also finds the removed ``flux mini CMD`` form.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence

from jobspec_lsp.fluxcli.argv import Word
from jobspec_lsp.record import Record

TOOLS = ("run", "submit", "alloc", "batch", "bulksubmit")
_START = re.compile(
    r"\bflux[ \t]+(?:(mini)[ \t]+)?(run|submit|alloc|batch|bulksubmit)(?=[ \t\n;&|)]|$)"
)
# what may stand before the command on its line: assignments and prefix commands
_PREFIX = re.compile(r"(?:\s*(?:\w+=\S*|exec|time|nohup|command|then|do|else|\{|!))*\s*$")
_SEPARATOR = re.compile(r"[;&|(`][^;&|(`]*\Z")


class CommandLine(Record):
    __slots__ = ("tool", "start", "tool_end", "words", "dynamic", "mini", "end")
    tool: str  # run, submit, ...
    start: int  # the `flux` word
    tool_end: int  # the end of the subcommand word
    words: list[Word]  # after the subcommand
    dynamic: set[int]  # indexes of words with an expansion
    mini: tuple[int, int] | None  # the removed `mini ` word, with its blank
    end: int  # where the command ends

    def __init__(
        self,
        tool: str,
        start: int,
        tool_end: int,
        words: list[Word] | None = None,
        dynamic: set[int] | None = None,
        mini: tuple[int, int] | None = None,
        end: int = 0,
    ) -> None:
        self.tool = tool
        self.start = start
        self.tool_end = tool_end
        self.words = [] if words is None else words
        self.dynamic = set() if dynamic is None else dynamic
        self.mini = mini
        self.end = end


_LOGICAL_LINE = re.compile(r"(?:\\\n|[^\n])*")


def segments(text: str, skip: Sequence[tuple[int, int]] = ()) -> list[tuple[int, str]]:
    """(offset, text) of each Flux submission command in ``text``: from its `flux` word
    to the end of its line (lines continued by a backslash joined), without splitting
    it, so that a caller may cache what it makes of each by its text."""
    out = []
    for m in _starts(text, skip):
        seg = _LOGICAL_LINE.match(text, m.start())
        out.append((m.start(), seg.group(0) if seg else text[m.start() :]))
    return out


def find(text: str, skip: Sequence[tuple[int, int]] = ()) -> list[CommandLine]:
    """Every Flux submission command line in ``text`` standing where a command stands;
    ``skip``: (start, end) spans to leave out (comments, literal strings)."""
    out = []
    for m in _starts(text, skip):
        at = m.start()
        cl = CommandLine(m.group(2), at, m.end())
        if m.group(1):
            cl.mini = (m.start(1), m.end(2) - len(m.group(2)))
        cl.words, cl.dynamic, cl.end = split(text, m.end())
        out.append(cl)
    return out


def _starts(text: str, skip: Sequence[tuple[int, int]] = ()) -> Iterator[re.Match[str]]:

    starts = [a for a, _ in skip]
    for m in _START.finditer(text):
        at = m.start()
        k = bisect.bisect_right(starts, at) - 1
        if k >= 0 and skip[k][0] <= at < skip[k][1]:
            continue
        line_start = text.rfind("\n", 0, at) + 1  # this line only: no search of the text
        before = text[line_start:at]
        sep = _SEPARATOR.search(before)
        if sep is not None:
            before = before[sep.start() + 1 :]
        if before.startswith("(") or not _PREFIX.fullmatch(before):
            continue
        yield m


_PLAIN = re.compile(r"[^ \t\n;&|)\\'\"$`]+")  # what a word holds as it is written


def split(text: str, pos: int) -> tuple[list[Word], set[int], int]:
    """The words of the command from ``pos`` to its end, which are dynamic, and where
    the command ends."""
    words: list[Word] = []
    dynamic: set[int] = set()
    n = len(text)
    i = pos
    while i < n:
        ch = text[i]
        if ch in " \t":
            i += 1
            continue
        if ch == "\\" and text.startswith("\\\n", i):
            i += 2
            continue
        if ch in ";&|)\n" or ch == "#":
            break
        value, end, is_dynamic = _word(text, i)
        if is_dynamic:
            dynamic.add(len(words))
        words.append(Word(value, i, end))
        i = end
    return words, dynamic, i


def _word(text: str, i: int) -> tuple[str, int, bool]:
    """The word that starts at ``i`` as the shell reads it: its value, where it ends,
    and whether it holds an expansion."""
    n = len(text)
    value: list[str] = []
    is_dynamic = False
    while i < n:
        plain = _PLAIN.match(text, i)  # a run of ordinary characters at once
        if plain is not None:
            value.append(plain.group())
            i = plain.end()
            if i >= n:
                break
        ch = text[i]
        if ch in " \t\n;&|)":
            break
        if ch == "\\":
            if text.startswith("\\\n", i):
                i += 2
                continue
            if i + 1 < n:
                value.append(text[i + 1])
            i += 2
            continue
        if ch == "'":
            end = text.find("'", i + 1)
            end = n if end < 0 else end
            value.append(text[i + 1 : end])
            i = end + 1
            continue
        if ch == '"':
            i, quoted_dynamic = _double_quoted(text, i + 1, value)
            is_dynamic = is_dynamic or quoted_dynamic
            continue
        if ch == "$" or ch == "`":
            is_dynamic = True
            if text.startswith("$(", i):
                j = _substitution_end(text, i)
                value.append(text[i : j + 1])
                i = j + 1
                continue
        value.append(ch)
        i += 1
    return "".join(value), i, is_dynamic


def _double_quoted(text: str, i: int, value: list[str]) -> tuple[int, bool]:
    """The inside of a double-quoted string from ``i`` appended to ``value`` (a
    backslash keeps only ``"``, ``\\``, ``$``, backquote and a line break, which it
    removes): where reading goes on after the closing quote, and whether the string
    holds an expansion."""
    n = len(text)
    is_dynamic = False
    while i < n and text[i] != '"':
        if text[i] == "\\" and i + 1 < n and text[i + 1] in '"\\$`\n':
            if text[i + 1] != "\n":
                value.append(text[i + 1])
            i += 2
            continue
        if text[i] in "$`":
            is_dynamic = True
        value.append(text[i])
        i += 1
    return i + 1, is_dynamic


def _substitution_end(text: str, i: int) -> int:
    """Where the ``$(...)`` at ``i`` closes (the end of the text when it does not)."""
    n = len(text)
    depth, j = 0, i + 1
    while j < n:
        if text[j] == "(":
            depth += 1
        elif text[j] == ")":
            depth -= 1
            if depth == 0:
                break
        j += 1
    return j
