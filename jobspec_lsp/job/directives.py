"""RFC 36 submission directives: the ``#flux:`` lines of a batch script.

:func:`read` finds the sentinel, applies the block rule, quotes triple-quoted
literals and gathers multi-line ones as flux-core does, and splits each directive
into words as the ``shlex`` lexer flux-core sets up splits it (POSIX quoting,
punctuation characters as words of their own, ASCII white space only); every word
keeps the source range it came from. What it reads is what flux-core's ``flux batch``
reads (tested against ``flux.job.directives`` in the real-Flux tier, and against
``shlex`` itself by a property test): a '#' outside quotes ends a directive even
inside a word, the sentinel includes any leading white space, and the block ends at
the first non-blank line that does not start with the sentinel's prefix (its
trailing white space removed).

Errors are JS56x diagnostics at the character responsible.  Pure: no LSP, no
files; :mod:`jobspec_lsp.script.batch` checks the options the words make.
"""

from __future__ import annotations

import functools
import re
import shlex

from jobspec_lsp.diagnostics import SCRIPT_KINDS, Diagnostic, Family, Severity

E = Severity.ERROR

SENTINEL = re.compile(r"([^\w\n]*)(flux|FLUX):")  # RFC 36: ^([^\w]*)(flux|FLUX):

_SCRIPT = "#!/bin/sh\n#flux: -N2\n#flux: --job-name=sim\n\nflux run -N2 ./sim\n"

family = Family(kinds=SCRIPT_KINDS, good=_SCRIPT)
QUOTE = family.error(
    """JS560 directive-unclosed-quote: A quote in a directive is never closed.

    RFC 36 directives are split into words with POSIX shell quoting; an unclosed quote makes
    `flux batch` refuse the script before anything is submitted.""",
    bad=_SCRIPT.replace("--job-name=sim", "--job-name='sim"),
)
TRIPLE = family.error(
    """JS561 directive-unclosed-triple-quote: A triple-quoted literal (\"\"\" or ''') is never
    closed.

    A multi-line literal runs from a triple quote at the end of a directive to the directive
    that ends with the same triple quote; every line between must carry the sentinel.""",
    bad=_SCRIPT.replace("--job-name=sim", '--setattr=user.conf="""\n#flux: [x]'),
    good=_SCRIPT.replace("--job-name=sim", '--setattr=user.conf="""\n#flux: [x]\n#flux: """'),
)
LOOKALIKE = family.error(
    """JS565 directive-sentinel-case: A line that looks like a directive but whose sentinel Flux
    does not read.

    Flux reads `flux:` and `FLUX:` only; `#Flux:` (or any other mix of cases) is an ordinary
    comment to it, so the options on that line are silently not used.""",
    bad=_SCRIPT.replace("#flux: --job-name", "#Flux: --job-name"),
    fix="replacement",
)
SENTINEL_CHANGED = family.error(
    """JS562 directive-sentinel-changed: A directive uses another sentinel than the first one.

    RFC 36: all directives of a file use the same sentinel (prefix and tag, leading white
    space included). `## flux:` to disable a directive changes the sentinel: put the '#' after
    it instead (`#flux: # -N2`). The fix writes the script's sentinel: disabling the
    directive (`#flux: #`) where the changed one is the script's with more '#' before it
    (`##flux:`, `# #flux:`, as `##SBATCH` is a directive commented out to Slurm), else as a
    directive.""",
    bad=_SCRIPT.replace("#flux: --job-name", "##flux: --job-name"),
    good=_SCRIPT.replace("#flux: --job-name=sim", "#flux: # --job-name=sim"),
    fix="sentinel",
)
ORPHAN = family.error(
    """JS563 directive-after-block: A directive after the directive block has ended.

    RFC 36: processing stops at the first non-blank line without the sentinel's prefix; a
    directive after it is an error (`flux batch` refuses the script), never silently ignored.
    The fix moves it up into the block; the other makes it a comment flux batch does not
    read, as sbatch ignores a late `#SBATCH` (both unsafe). Where most directives are of
    another sentinel than the first line's (a renamed `@(#SBATCH ...)@` or `# #SBATCH` line
    above the others), the fix rewrites that first line, as JS562's does.""",
    bad=_SCRIPT + "#flux: -t 1h\n",
    good=_SCRIPT.replace("#flux: --job-name=sim", "#flux: --job-name=sim\n#flux: -t 1h"),
    fix="sentinel",
)
ESCAPE = family.error(
    """JS564 directive-trailing-backslash: A directive ends in a backslash that escapes nothing.

    A directive ends at the end of its line; a backslash there has no character to escape
    (lines are not continued). Split the options over two directives.""",
    bad=_SCRIPT.replace("--job-name=sim", "--job-name=sim \\"),
)


from jobspec_lsp.fluxcli.argv import Word  # noqa: E402 - one word of a directive: value and range
from jobspec_lsp.record import Record  # noqa: E402
from jobspec_lsp.text.sniff import LOOKALIKE as _LOOKALIKE_LINE  # noqa: E402
from jobspec_lsp.text.sniff import has_sentinel  # noqa: E402, F401 - the readers' name for it


class Directive(Record):
    __slots__ = ("line", "start", "end", "words")
    line: int  # 0-based line of its sentinel
    start: int  # offset of the text after the sentinel
    end: int  # end of its last line
    words: list[Word]

    def __init__(self, line: int, start: int, end: int, words: list[Word] | None = None):
        self.line = line
        self.start = start
        self.end = end
        self.words = [] if words is None else words


class Script(Record):
    __slots__ = ("text", "sentinel", "sentinel_span", "directives", "problems", "_parsed")
    _uncompared = _unshown = ("_parsed",)
    text: str
    sentinel: str | None
    sentinel_span: tuple[int, int]  # the first sentinel
    directives: list[Directive]
    problems: list[Diagnostic]
    # what batch.parse_script made of the directives (a script is read once per text)
    _parsed: dict | None  # version -> read

    def __init__(
        self,
        text: str,
        sentinel: str | None = None,
        sentinel_span: tuple[int, int] = (0, 0),
        directives: list[Directive] | None = None,
        problems: list[Diagnostic] | None = None,
        _parsed: dict | None = None,
    ) -> None:
        self.text = text
        self.sentinel = sentinel
        self.sentinel_span = sentinel_span
        self.directives = [] if directives is None else directives
        self.problems = [] if problems is None else problems
        self._parsed = _parsed

    @property
    def words(self) -> list[Word]:
        return [w for d in self.directives for w in d.words]


@functools.lru_cache(maxsize=16)
def read(text: str) -> Script:
    """The directives of a script, as `flux batch` reads them (cached by text: a check
    reads them several times; callers do not change what it returns) (flux-core's
    ``flux.job.directives``: each line after the sentinel has its paired triple quotes
    quoted, an open triple quote gathers the following directives into one literal,
    and the text is split by ``shlex`` in POSIX mode with punctuation characters and
    white-space splitting)."""
    script = Script(text)
    lines = _Lines(text)
    _lookalikes(script)
    block = _Block(script)
    i = 0
    while (span := lines.get(i)) is not None and block.line(i, *span):
        i += 1
    if block.multi is not None:
        _unclosed(script, block.multi)
    return script


class _Block:
    """The directive block being read: its sentinel, the line that ended it, the triple
    quote left open."""

    __slots__ = ("script", "sentinel", "prefix", "ended_at", "multi")

    def __init__(self, script: Script) -> None:
        self.script = script
        self.sentinel: str | None = None
        self.prefix: str | None = None
        self.ended_at: int | None = None  # the line that ended the block
        self.multi: _Multi | None = None

    def line(self, i: int, start: int, end: int) -> bool:
        """Read line ``i``; False once past the block (the rest is searched at once)."""
        script = self.script
        line = script.text[start:end]
        m = SENTINEL.match(line)
        if self.sentinel is None:
            if not m:
                return True
            self.sentinel, self.prefix = m.group(0), m.group(1)
            script.sentinel = self.sentinel
            script.sentinel_span = (start, start + m.end())
        if self.ended_at is not None:
            self._orphans(start)
            return False
        if not m:
            self._other(i, line)
        elif m.group(0) != self.sentinel:
            why = (
                f"sentinel changed from {self.sentinel!r} to {m.group(0)!r}: all directives "
                f"use the same one (to disable a directive, put '#' after the sentinel: "
                f"{self.sentinel} # ...)"
            )
            data = {"sentinel": self.sentinel}
            script.problems.append(
                Diagnostic(SENTINEL_CHANGED, E, why, start, start + m.end(), data)
            )
        else:
            self._directive(i, start + m.end(), end)
        return True

    def _orphans(self, start: int) -> None:
        """Past the block: only directives matter now, found by one search (JS562)."""
        assert self.ended_at is not None
        why = (
            f"a directive after the directive block: it ended at line {self.ended_at + 1}, "
            f"the first line without {self.prefix!r}; flux batch refuses the script (move "
            "this up into the block)"
        )
        data = {"sentinel": self.sentinel}  # its fix, where the first line is the odd one
        for o in _ANY_SENTINEL.finditer(self.script.text, start):
            self.script.problems.append(Diagnostic(ORPHAN, E, why, o.start(), o.end(), data))

    def _other(self, i: int, line: str) -> None:
        """A line without the sentinel: it closes an open triple quote, and ends the block
        unless it is blank or a comment of the sentinel's own prefix."""
        if self.multi is not None:
            _unclosed(self.script, self.multi)
            self.multi = None
        assert self.prefix is not None
        if line.strip() and not line.startswith(self.prefix.rstrip()):
            self.ended_at = i

    def _directive(self, i: int, body: int, end: int) -> None:
        """A directive's text: its words, or a part of a triple-quoted literal."""
        script = self.script
        value = _triplequote(script, script.text[body:end], list(range(body, end)))
        if value is None:  # refused; reported
            return
        vtext, vwhere = value
        multi = self.multi
        if vtext.endswith(('"""', "'''")):
            if multi is None:
                multi = self.multi = _Multi(vtext[-3:], i, body, vwhere[-3] if vwhere else body)
                multi.indent = vtext[: len(vtext) - len(vtext.lstrip())]
                multi.add(vtext[:-3], vwhere[:-3])
            elif vtext[-3:] != multi.quote:
                multi.add(vtext, vwhere)
            else:
                multi.add(vtext[:-3], vwhere[:-3])
                _finish(script, multi, vwhere[-3] if vwhere else body, end)
                self.multi = None
        elif multi is not None:
            multi.add(vtext, vwhere)
        elif vtext:
            d = Directive(i, body, end)
            d.words = _words(script, vtext, vwhere, body)
            script.directives.append(d)


def _lookalikes(script: Script) -> None:
    """JS565 for each line whose sentinel is `flux:` in a case Flux does not read."""
    text = script.text
    for m in _LOOKALIKE_LINE.finditer(text):
        tag = m.group(0)[-5:-1]
        if tag in ("flux", "FLUX"):
            continue
        script.problems.append(
            Diagnostic(
                LOOKALIKE,
                E,
                f"{tag + ':'!r} is not a directive sentinel: Flux reads only 'flux:' or "
                "'FLUX:', so it ignores this line (write "
                f"{m.group(0)[:-5] + 'flux:'!r})",
                m.end() - 5,
                m.end(),
                data={"replacement": "flux:", "title": "Make it a directive: flux:"},
            )
        )
        if len(script.problems) > 1000:
            break


class _Multi:
    """A multi-line triple-quoted literal being gathered, as flux-core gathers it: the
    first line's indent is removed from each line that starts with it."""

    def __init__(self, quote: str, line: int, body: int, quote_at: int):
        self.quote, self.line, self.body, self.quote_at = quote, line, body, quote_at
        self.indent = ""
        self.lines: list[tuple[str, list[int]]] = []

    def add(self, value: str, where: list[int]) -> None:
        if value.startswith(self.indent):
            cut = len(self.indent)
            value, where = value[cut:], where[cut:]
        self.lines.append((value, where))


def _unclosed(script: Script, multi: _Multi) -> None:
    script.problems.append(
        Diagnostic(
            TRIPLE,
            E,
            f"the triple quote {multi.quote} is never closed: end the literal with a "
            f"directive ending in {multi.quote} (every line between needs the sentinel)",
            multi.quote_at,
            multi.quote_at + 3,
        )
    )


def _finish(script: Script, multi: _Multi, close_at: int, end: int) -> None:
    head, head_where = multi.lines[0]
    rest = multi.lines[1:]
    joined = "\n".join(v for v, _ in rest)
    where: list[int] = []
    for k, (_, w) in enumerate(rest):
        if k:
            where.append(w[0] - 1 if w else close_at)  # the line break before it
        where.extend(w)
    quoted, qwhere = _quote(joined, where, multi.quote_at, close_at + 2)
    logical, lwhere = head + quoted, head_where + qwhere
    if multi.quote in logical:
        k = logical.index(multi.quote)
        at = lwhere[k] if k < len(lwhere) else close_at
        script.problems.append(
            Diagnostic(
                TRIPLE,
                E,
                f"the literal holds another {multi.quote}: flux batch refuses an "
                "improperly ended triple-quoted string",
                at,
                at + 3,
            )
        )
        return
    d = Directive(multi.line, multi.body, end)
    d.words = _words(script, logical, lwhere, multi.body)
    script.directives.append(d)


_SAFE = re.compile(r"[\w@%+=:,./-]+\Z", re.ASCII)


def _quote(s: str, where: list[int], open_at: int, close_at: int) -> tuple[str, list[int]]:
    """``shlex.quote(s)``, what flux-core does to a triple-quoted literal, with the
    source offset of each character it writes."""
    if _SAFE.match(s):
        return s, list(where)
    out, pos = ["'"], [open_at]
    for ch, p in zip(s, where):
        if ch == "'":
            out.append("'\"'\"'")
            pos.extend([p] * 5)
        else:
            out.append(ch)
            pos.append(p)
    out.append("'")
    pos.append(close_at)
    return "".join(out), pos


_PAIRED = re.compile(r"""((?:["']){3})(.*)\1""")
_TRIPLE_THEN = re.compile(r"""((?:["']){3}).""")


def _triplequote(script: Script, value: str, where: list[int]):
    """A directive's text with its paired triple quotes quoted for the shell, as
    flux-core does (the first to the last, greedily); None, reported, for a triple
    quote with text after it that is not paired."""
    if _paired(value.count('"""')) or _paired(value.count("'''")):
        m = _PAIRED.search(value)
        if m:
            inner, iwhere = m.group(2), where[m.start(2) : m.end(2)]
            quoted, qwhere = _quote(inner, iwhere, where[m.start()], where[m.end() - 1])
            value = value[: m.start()] + quoted + value[m.end() :]
            where = where[: m.start()] + qwhere + where[m.end() :]
        return value, where
    m = _TRIPLE_THEN.search(value)
    if m:
        at = where[m.start()]
        script.problems.append(
            Diagnostic(
                TRIPLE,
                E,
                "three quote characters in a row with text after them: flux batch reads "
                "them as a triple quote, which must end the line or be closed on it",
                at,
                at + 3,
            )
        )
        return None
    return value, where


def _paired(n: int) -> bool:
    return n > 0 and n % 2 == 0


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


# shlex's classes of characters, as flux-core sets its lexer up (posix=True,
# punctuation_chars=True, whitespace_split=True, escapedquotes of both quotes)
_WHITE = " \t\r\n"
_PUNCT = "();<>|&"
_QUOTES = "'\""


@functools.lru_cache(maxsize=4096)
def _split(logical: str) -> tuple[tuple[str, int, int], ...] | str:
    """The words of one directive's text as (value, start, end) offsets into it, as
    Python's ``shlex`` splits it for flux-core: words end at ASCII white space only
    (a no-break space is part of a word), a run of ``();<>|&`` is a word of its own,
    '#' outside quotes ends the directive (also inside a word), a backslash escapes
    the next character (inside either kind of quote only a backslash or that quote).
    When it cannot be read, the offset of the character at fault (as a string).
    Cached: a directive is split again on every edit of its script."""
    out: list[tuple[str, int, int]] = []
    n = len(logical)
    i = 0
    while i < n:
        ch = logical[i]
        if ch in _WHITE:
            i += 1
            continue
        if ch == "#":  # a comment: the rest of the line
            nl = logical.find("\n", i)
            if nl < 0:
                break
            i = nl + 1
            continue
        start = i
        if ch in _PUNCT:
            while i < n and logical[i] in _PUNCT:
                i += 1
            out.append((logical[start:i], start, i))
            continue
        read = _word(logical, i)
        if isinstance(read, str):
            return read
        word, quoted, i = read
        if word or quoted:
            out.append((word, start, i))
        if i < n and logical[i] == "#":
            nl = logical.find("\n", i)
            if nl < 0:
                break
            i = nl + 1
    return tuple(out)


def _word(logical: str, i: int) -> tuple[str, bool, int] | str:
    """(its value, whether any of it was quoted, the offset after it) of the word starting
    at ``i``, or the offset of the character at fault (as a string)."""
    n = len(logical)
    token: list[str] = []
    quoted = False
    while i < n:
        ch = logical[i]
        if ch in _WHITE or ch == "#" or ch in _PUNCT:
            break
        if ch == "\\":
            if i + 1 >= n:
                return str(i)
            token.append(logical[i + 1])
            i += 2
        elif ch in _QUOTES:
            quoted = True
            after = _quoted(logical, i, token)
            if isinstance(after, str):
                return after
            i = after
        else:
            token.append(ch)
            i += 1
    return "".join(token), quoted, i


def _quoted(logical: str, opened: int, token: list[str]) -> int | str:
    """The text of the quotes opened at ``opened`` appended to ``token``; the offset after
    the closing quote, or ``opened`` (as a string) where they never close. Inside either
    kind of quote a backslash escapes only a backslash or that quote."""
    n = len(logical)
    q = logical[opened]
    i = opened + 1
    while True:
        if i >= n:
            return str(opened)
        c = logical[i]
        if c == q:
            return i + 1
        if c == "\\":
            if i + 1 >= n:
                return str(opened)
            nxt = logical[i + 1]
            if nxt != q and nxt != "\\":
                token.append("\\")
            token.append(nxt)
            i += 2
            continue
        token.append(c)
        i += 1


_RUN_OF_QUOTES = re.compile(r"""["']{3}""")


def quote(value: str) -> str:
    """``value`` written as one directive word that Flux reads back exactly: bare when
    it can be, else in double quotes, else in single quotes (shell quoting such as
    ``'it'"'"'s'`` holds three quote characters in a row, which Flux's directive
    reader takes for a triple quote and refuses). Checked against this module's own
    reading, which is Flux's."""

    candidates = [shlex.quote(value)]  # the usual shell spelling, when Flux reads it
    candidates.append('"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"')
    candidates.append("'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'")
    for c in candidates:
        if _RUN_OF_QUOTES.search(c) or "\n" in c:
            continue
        words = _split(c)
        if not isinstance(words, str) and len(words) == 1 and words[0][0] == value:
            return c
    raise ValueError(f"{value!r} cannot be written in one directive")
