"""RFC 36 submission directives: the ``#flux:`` lines of a batch script.

:func:`read` finds the sentinel, applies the block rule, joins multi-line
triple-quoted literals and splits each directive into shell words with
``grammars/directive.lark``; every word keeps the source range it came from.
What it reads is what flux-core's ``flux batch`` reads (tested against
``flux.job.directives`` in the real-Flux tier): a '#' outside quotes ends a
directive even inside a word, the sentinel includes any leading white space,
and the block ends at the first non-blank line without the sentinel's prefix.

Errors are JS56x diagnostics at the character responsible.  Pure: no LSP, no
files; :mod:`jobspec_lsp.batch` checks the options the words make.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from . import formats
from .diagnostics import Diagnostic, Severity, define

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFORMATION

SENTINEL = re.compile(r"([^\w\n]*)(flux|FLUX):")  # RFC 36: ^([^\w]*)(flux|FLUX):

_SCRIPT = "#!/bin/sh\n#flux: -N2\n#flux: --job-name=sim\n\nflux run -N2 ./sim\n"

QUOTE = define(
    "JS560",
    "directive-unclosed-quote",
    E,
    "A quote in a directive is never closed.",
    why="RFC 36 directives are split into words with POSIX shell quoting; an unclosed quote "
    "makes `flux batch` refuse the script before anything is submitted.",
    bad=_SCRIPT.replace("--job-name=sim", "--job-name='sim"),
    good=_SCRIPT,
    script=True,
)
TRIPLE = define(
    "JS561",
    "directive-unclosed-triple-quote",
    E,
    "A triple-quoted literal (\"\"\" or ''') is never closed.",
    why="A multi-line literal runs from a triple quote at the end of a directive to the "
    "directive that ends with the same triple quote; every line between must carry the "
    "sentinel.",
    bad=_SCRIPT.replace("--job-name=sim", '--setattr=user.conf="""\n#flux: [x]'),
    good=_SCRIPT.replace("--job-name=sim", '--setattr=user.conf="""\n#flux: [x]\n#flux: """'),
    script=True,
)
SENTINEL_CHANGED = define(
    "JS562",
    "directive-sentinel-changed",
    E,
    "A directive uses another sentinel than the first one.",
    why="RFC 36: all directives of a file use the same sentinel (prefix and tag, leading "
    "white space included). `## flux:` to disable a directive changes the sentinel: put "
    "the '#' after it instead (`#flux: # -N2`).",
    bad=_SCRIPT.replace("#flux: --job-name", "##flux: --job-name"),
    good=_SCRIPT.replace("#flux: --job-name=sim", "#flux: # --job-name=sim"),
    script=True,
)
ORPHAN = define(
    "JS563",
    "directive-after-block",
    E,
    "A directive after the directive block has ended.",
    why="RFC 36: processing stops at the first non-blank line without the sentinel's prefix; "
    "a directive after it is an error (`flux batch` refuses the script), never silently "
    "ignored. Move it up into the block.",
    bad=_SCRIPT + "#flux: -t 1h\n",
    good=_SCRIPT.replace("#flux: --job-name=sim", "#flux: --job-name=sim\n#flux: -t 1h"),
    script=True,
)
ESCAPE = define(
    "JS564",
    "directive-trailing-backslash",
    E,
    "A directive ends in a backslash that escapes nothing.",
    why="A directive ends at the end of its line; a backslash there has no character to "
    "escape (lines are not continued). Split the options over two directives.",
    bad=_SCRIPT.replace("--job-name=sim", "--job-name=sim \\"),
    good=_SCRIPT,
    script=True,
)


@dataclass(frozen=True)
class Word:
    """One shell word of a directive: its value and where its text is."""

    value: str
    start: int
    end: int


@dataclass
class Directive:
    line: int  # 0-based line of its sentinel
    start: int  # offset of the text after the sentinel
    end: int  # end of its last line
    words: list[Word] = field(default_factory=list)


@dataclass
class Script:
    text: str
    sentinel: str | None = None
    sentinel_span: tuple[int, int] = (0, 0)  # the first sentinel
    directives: list[Directive] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)

    @property
    def words(self) -> list[Word]:
        return [w for d in self.directives for w in d.words]


def has_sentinel(text: str) -> bool:
    """Whether ``text`` holds an RFC 36 directive (a line starting with a sentinel)."""
    return any(SENTINEL.match(line) for line in text.splitlines())


def read(text: str) -> Script:
    """The directives of a script, as `flux batch` reads them."""
    script = Script(text)
    lines = _Lines(text)
    sentinel = prefix = None
    ended_at = None  # the line that ended the block
    i = 0
    while (span := lines.get(i)) is not None:
        start, end = span
        line = text[start:end]
        m = SENTINEL.match(line)
        if sentinel is None:
            if m:
                sentinel, prefix = m.group(0), m.group(1)
                script.sentinel = sentinel
                script.sentinel_span = (start, start + m.end())
            else:
                i += 1
                continue
        if ended_at is not None:
            # past the block: only directives matter now, found by one search
            for o in _ANY_SENTINEL.finditer(text, start):
                script.problems.append(
                    Diagnostic(
                        ORPHAN,
                        E,
                        f"a directive after the directive block: it ended at line "
                        f"{ended_at + 1}, the first line without {prefix!r}; flux batch "
                        "refuses the script (move this up into the block)",
                        o.start(),
                        o.end(),
                    )
                )
            break
        if m and m.group(0) != sentinel:
            script.problems.append(
                Diagnostic(
                    SENTINEL_CHANGED,
                    E,
                    f"sentinel changed from {sentinel!r} to {m.group(0)!r}: all directives "
                    f"use the same one (to disable a directive, put '#' after the sentinel: "
                    f"{sentinel} # ...)",
                    start,
                    start + m.end(),
                )
            )
            i += 1
            continue
        if m:
            i = _directive(script, lines, i, len(sentinel))
            continue
        assert prefix is not None
        if line.strip() and not line.startswith(prefix):
            ended_at = i
        i += 1
    return script


_ANY_SENTINEL = re.compile(r"^[^\w\n\r]*(?:flux|FLUX):", re.M)


class _Lines:
    """(start, end) of line ``i``, found only as far as they are asked for (the
    directives are at the top; the rest of a long script is searched at once)."""

    def __init__(self, text: str):
        self.text = text
        self.eager = _lines(text) if "\r" in text else None
        self.spans: list[tuple[int, int]] = []
        self.pos = 0

    def get(self, i: int) -> tuple[int, int] | None:
        if self.eager is not None:
            return self.eager[i] if i < len(self.eager) else None
        text, spans = self.text, self.spans
        while len(spans) <= i:
            if self.pos > len(text) or (self.pos == len(text) and spans):
                return None
            nl = text.find("\n", self.pos)
            end = len(text) if nl < 0 else nl
            spans.append((self.pos, end))
            self.pos = end + 1 if nl >= 0 else len(text) + 1
        return spans[i]


def _lines(text: str) -> list[tuple[int, int]]:
    """(start, end) of every line, its line break excluded (\\n, \\r\\n or \\r)."""
    if "\r" in text:
        out = []
        pos = 0
        for m in re.finditer(r"\r\n|\n|\r", text):
            out.append((pos, m.start()))
            pos = m.end()
        if pos < len(text) or not out:
            out.append((pos, len(text)))
        return out
    out = []
    pos = 0
    for line in text.split("\n"):
        out.append((pos, pos + len(line)))
        pos += len(line) + 1
    if len(out) > 1 and out[-1][0] == len(text):
        out.pop()  # the empty piece after a final line break
    return out


_OPEN_TRIPLE = re.compile(r"(\"\"\"|''')[ \t]*$")


def _directive(script: Script, lines, i: int, width: int) -> int:
    """Read the directive on line ``i`` (and the lines of a multi-line literal it
    opens); return the index of the next line to look at."""
    text = script.text
    start, end = lines.get(i) or (0, 0)
    body_start = start + width
    # the logical text and, for each of its characters, where it is in the source
    pieces: list[tuple[str, int]] = [(text[body_start:end], body_start)]
    last_end = end
    nxt = i + 1
    opener = _open_literal(text[body_start:end])
    if opener is not None:
        quote, at = opener
        content: list[tuple[str, int]] = []
        closed = False
        close_at = 0
        j = i + 1
        while (span := lines.get(j)) is not None:
            ls, le = span
            line = text[ls:le]
            m = SENTINEL.match(line)
            if not m or m.group(0) != script.sentinel:
                break
            inner = line[m.end() :]
            if inner.strip() == quote:
                closed = True
                last_end = le
                close_at = ls + m.end() + inner.index(quote)
                j += 1
                break
            content.append((inner, ls + m.end()))
            j += 1
        if not closed:
            script.problems.append(
                Diagnostic(
                    TRIPLE,
                    E,
                    f"the triple quote {quote} is never closed: end the literal with a "
                    f"directive holding only {quote}",
                    body_start + at,
                    body_start + at + 3,
                )
            )
            script.directives.append(Directive(i, body_start, end))
            return j
        # the text of the literal: its lines, their common indentation stripped
        indent = _common_indent([c for c, _ in content])
        head_text = text[body_start:end].rstrip()
        pieces = [(head_text, body_start)]
        for c, pos in content:
            cut = min(indent, len(c))
            pieces.append((c[cut:] + "\n", pos + cut))
        pieces.append((quote, close_at))
        nxt = j
    logical, where = _join(pieces)
    d = Directive(i, body_start, last_end)
    d.words = _words(script, logical, where, body_start)
    script.directives.append(d)
    return nxt


def _open_literal(body: str) -> tuple[str, int] | None:
    """A triple quote left open at the end of a directive: (quote, its offset)."""
    m = _OPEN_TRIPLE.search(body)
    if m is None:
        return None
    quote = m.group(1)
    before = body[: m.start()]
    if before.count(quote) % 2 == 1:  # it closes one opened earlier on the line
        return None
    if "#" in _unquoted(before):
        return None  # commented out
    return quote, m.start()


def _unquoted(s: str) -> str:
    return re.sub(r"'''[\s\S]*?'''|\"\"\"[\s\S]*?\"\"\"|'[^']*'|\"(?:[^\"\\\\]|\\\\.)*\"", "", s)


def _common_indent(lines: list[str]) -> int:
    widths = [len(c) - len(c.lstrip(" \t")) for c in lines if c.strip()]
    return min(widths) if widths else 0


def _join(pieces) -> tuple[str, list[int]]:
    text = []
    where: list[int] = []
    for s, pos in pieces:
        text.append(s)
        where.extend(range(pos, pos + len(s)))
    joined = "".join(text)
    if len(where) < len(joined):  # an added line break: it sits at the end of its line
        where.extend([where[-1] if where else 0] * (len(joined) - len(where)))
    return joined, where[: len(joined)]


_PLAIN_WORD = re.compile(r"[^\s#]+")


def _words(script: Script, logical: str, where: list[int], body_start: int) -> list[Word]:
    def at(k: int) -> int:
        return where[k] if k < len(where) else (where[-1] + 1 if where else body_start)

    split = _split(logical)
    if isinstance(split, str):  # the offset of what could not be read
        k = int(split)
        ch = logical[k] if k < len(logical) else ""
        if ch == "\\":
            script.problems.append(
                Diagnostic(
                    ESCAPE,
                    E,
                    "a backslash at the end of a directive escapes nothing: directives are "
                    "not continued on the next line",
                    at(k),
                    at(k) + 1,
                )
            )
        else:
            script.problems.append(
                Diagnostic(
                    QUOTE,
                    E,
                    f"the quote {ch} is never closed (a directive ends at the end of its line)",
                    at(k),
                    at(k) + 1,
                )
            )
        return []
    return [Word(value, at(s), at(e - 1) + 1) for value, s, e in split]


@functools.lru_cache(maxsize=4096)
def _split(logical: str) -> tuple[tuple[str, int, int], ...] | str:
    """The words of one directive's text as (value, start, end) offsets into it, or,
    when it cannot be read, the offset of the character at fault (as a string).
    Cached: a directive is split again on every edit of its script."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedInput

    if not any(ch in logical for ch in "'\"\\"):
        # no quoting at all (most directives): the grammar would give exactly the
        # white-space separated words up to the first '#'; skip building its tree
        cut = logical.find("#")
        plain = logical if cut < 0 else logical[:cut]
        return tuple((m.group(0), m.start(), m.end()) for m in _PLAIN_WORD.finditer(plain))
    try:
        tree = formats.parser("directive").parse(logical)
    except UnexpectedCharacters as err:
        return str(err.pos_in_stream or 0)
    except UnexpectedInput:  # pragma: no cover - the lexer fails first
        return "0"
    out = []
    for word in tree.children:
        if getattr(word, "data", None) != "word":
            continue  # the comment
        parts = word.children
        out.append(("".join(_unquote(p) for p in parts), parts[0].start_pos, parts[-1].end_pos))
    return tuple(out)


def _unquote(tok) -> str:
    s = str(tok)
    kind = tok.type
    if kind in ("TDQ", "TSQ"):
        return s[3:-3]
    if kind == "SQ":
        return s[1:-1]
    if kind == "ESC":
        return s[1:]
    if kind == "DQ":  # inside double quotes a backslash escapes only \\ " $ ` and a newline
        return re.sub(r'\\([\\"$`\n])', lambda m: "" if m.group(1) == "\n" else m.group(1), s[1:-1])
    return s
