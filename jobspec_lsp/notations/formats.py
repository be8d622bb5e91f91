"""The small string formats jobspec uses, parsed with the lark grammars in grammars/.

- RFC 22 idset (``"1-3,5"``) and RFC 45 range (``"2-8:2:*"``), together the
  count strings of RFC 14
- RFC 29 hostlist (``"node[01-16],login1"``), in constraints
- RFC 23 Flux Standard Duration (``"1.5h"``), what users type for a duration

Every parse function returns plain data or raises :class:`FormatError`, which
carries the character offsets (into the parsed string) of the offending token,
a one-line message that says in words what was expected there, and the list of
those words. Nothing else escapes: no lark exception, no ValueError from int().

The grammars say what the syntax is; the rules a context-free grammar cannot
state (ascending ids, no leading zeros, max >= min, ...) are checked here, on
the tokens, so those errors are positioned just as precisely.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from pathlib import Path

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

    # a lark tree or token: the grammars fix their shapes, which lark's types cannot say
    Node = Any

# lark is imported on first use: most jobspecs never need these parsers, and the CLI
# (a pre-commit hook) should start quickly.

# Numbers longer than this (leading zeros aside) are refused as too large. No
# Flux id, count or host index comes near it, and it keeps int() away from
# Python's limit on converting very long digit strings.
MAX_DIGITS = 18


# How deep a parsed string (a shape, a constraint query) may nest: far beyond any real
# one, and well inside Python's recursion limit for the code that walks it.
MAX_NESTING = 100


def too_deep(tree: Node, limit: int = MAX_NESTING) -> Node | None:
    """The first lark subtree nested deeper than ``limit`` levels (None when there is
    none), found without recursion."""
    from lark import Tree  # deferred: lark, only when a grammar is first used

    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return node
        stack.extend((c, depth + 1) for c in node.children if isinstance(c, Tree))
    return None


def leftmost_token(tree: Node) -> Node:
    """The first token under a lark tree (None when it holds none), without recursion."""
    from lark import Tree  # deferred: lark, only when a grammar is first used

    stack = [tree]
    while stack:
        node = stack.pop()
        if not isinstance(node, Tree):
            return node
        stack.extend(reversed(node.children))
    return None


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


class FormatError(ValueError):
    """A string that does not parse, or parses to a value the format forbids.

    ``start``/``end`` are 0-based offsets into the parsed string of the
    offending token (``start == end == len(s)`` when the input ended too soon).
    ``message`` is one line for a user; ``expected`` lists, in words, what
    would have been accepted at ``start`` (empty for a wrong value).
    ``semantic`` is true when the syntax is right but a value is wrong
    (descending run, leading zero, max below min). ``lead`` is a prefix of
    ``message`` that names what the string is not ("not an idset or range: "),
    which :attr:`short` leaves out for callers that say so themselves.
    """

    def __init__(
        self,
        message: str,
        start: int,
        end: int | None = None,
        expected: Iterable[str] = (),
        semantic: bool = False,
        lead: str = "",
    ) -> None:
        super().__init__(lead + message)
        self.detail = message
        self.lead = lead
        self.message = lead + message
        self.start = start
        self.end = start if end is None else end
        self.expected = list(expected)
        self.semantic = semantic

    def __str__(self) -> str:
        return self.message

    @property
    def short(self) -> str:
        """The message without its lead and column, for a diagnostic whose own
        words and range already say both."""
        msg = re.sub(r" at column \d+, the end", " at the end", self.detail)
        return re.sub(r" at column \d+", "", msg)


# --------------------------------------------------------------------------- grammars
def grammar_dir() -> Any:  # a Path, or an importlib Traversable inside a package
    """Where the .lark files are: inside the installed package (the wheel copies
    the checkout's grammars/ to jobspec_lsp/grammars/), or the checkout's grammars/."""

    import importlib.resources  # deferred: start-up; only where a grammar is loaded

    packaged = importlib.resources.files("jobspec_lsp") / "grammars"
    if packaged.is_dir():
        return packaged

    return Path(__file__).resolve().parents[2] / "grammars"  # the checkout's


@functools.cache
def grammar_text(name: str) -> str:
    text: str = (grammar_dir() / f"{name}.lark").read_text(encoding="utf-8")
    return text


def _import_paths() -> list[Any]:
    """Where ``%import idset (...)`` in one grammar finds another."""

    where = grammar_dir()
    if isinstance(where, Path):
        return [str(where)]
    from lark.load_grammar import FromPackageLoader  # deferred: lark; a zipped install

    return [FromPackageLoader("jobspec_lsp", ("grammars",))]


@functools.cache
def parser(name: str) -> Any:  # a lark Lark
    """The LALR parser (contextual lexer) for grammars/<name>.lark, built once."""
    from lark import Lark  # deferred: lark, only when a grammar is first used

    return Lark(
        grammar_text(name),
        parser="lalr",
        lexer="contextual",
        start="start",
        propagate_positions=name == "shape",
        maybe_placeholders=False,
        import_paths=_import_paths(),
        # the analysed grammar kept between processes: a new one loads it instead of
        # building it again (never in a shared directory: lark's cache is a pickle)
        cache=_private_cache(name),
    )


def _private_cache(name: str) -> str | bool:
    """Where lark may keep grammar ``name`` analysed: a file in the user's own cache
    directory (``$XDG_CACHE_HOME`` or ``~/.cache``, ``jobspec-lsp/lark``, mode 0700, owned
    by the user), named by the grammar's text and lark's version; False (no cache) when
    there is no such directory. Lark's cache is a pickle, which runs code when loaded: it
    is never read from a directory anyone else can write to (such as /tmp on a cluster's
    login node)."""
    import hashlib  # deferred: only when a grammar is first used
    import os  # deferred: only when a grammar is first used

    import lark  # deferred: lark, only when a grammar is first used

    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "jobspec-lsp", "lark")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        st = os.stat(folder)
        if st.st_uid != os.getuid() or st.st_mode & 0o077:
            return False
    except (OSError, AttributeError):  # no home, a read-only one, no getuid (Windows)
        return False
    key = hashlib.sha256(f"{lark.__version__}\0{grammar_text(name)}".encode()).hexdigest()
    return os.path.join(folder, f"{name}-{key[:32]}.pickle")


# --------------------------------------------------------------------------- syntax errors
# Terminal names -> words, for "expected ..." messages. Names imported from
# another grammar carry its namespace ("idset__ID_INT") and are looked up
# without it; string terminals not listed here are shown quoted.
_WORDS = {
    "LSQB": "'['",
    "RSQB": "']'",
    "COMMA": "','",
    "MINUS": "'-'",
    "PLUS": "'+'",
    "COLON": "':'",
    "ID_INT": "a number",
    "RANGE_INT": "a number",
    "HOST_INT": "a number",
    "HOST_PART": "a host name",
    "OP_PLUS": "'+'",
    "OP_TIMES": "'*'",
    "OP_POWER": "'^'",
    "FSD_NUMBER": "a number",
    "FSD_UNIT": "a unit (ms, s, m, h or d)",
    "FSD_INF": "'inf'",
    "$END": "the end",
    "<END-OF-FILE>": "the end",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "SEMICOLON": "';'",
    "SLASH": "'/'",
    "EQUAL": "'='",
    "SHAPE_NAME": "a name",
    "SHAPE_COUNT": "a count",
    "SHAPE_STRING": "a quoted string",
    "SHAPE_SQSTRING": "a quoted string",
    "SHAPE_TYPE": "a name",
    "SHAPE_WORD": "a value",
}

# grammars in which '[' and ']' only ever bracket, so unbalanced ones can be named
_BRACKETED = {"idset", "range", "hostlist"}


@functools.cache
def _terminal_patterns(name: str) -> dict[str, Any]:
    return {t.name: t.pattern for t in parser(name).terminals}


def _word(grammar: str, term: str) -> str:
    if term in _WORDS:
        return _WORDS[term]
    base = term.rsplit("__", 1)[-1] if not term.startswith("__") else term
    if base in _WORDS:
        return _WORDS[base]
    pattern = _terminal_patterns(grammar).get(term)
    if pattern is not None and pattern.type == "str":
        return repr(pattern.value)
    return base.lower().replace("_", " ")


def _ordered(words: Iterable[str]) -> list[str]:
    out = sorted(set(words))
    if "the end" in out:  # reads best last
        out.remove("the end")
        out.append("the end")
    return out


def _words(grammar: str, names: Iterable[str]) -> list[str]:
    return _ordered(_word(grammar, n) for n in names)


def _join(words: list[str]) -> str:
    if not words:
        return "something else"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _show(text: str, limit: int = 20) -> str:
    """repr() of a piece of the input, cut short when it is long."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "..."


def _open_brackets(s: str, pos: int) -> list[int]:
    """Offsets of the '[' still open at ``pos``."""
    stack: list[int] = []
    for i, c in enumerate(s[:pos]):
        if c == "[":
            stack.append(i)
        elif c == "]" and stack:
            stack.pop()
    return stack


def _hint(grammar: str, s: str, pos: int, found: str | None) -> str:
    """A few words more for the mistakes people actually make, or ""."""
    if grammar in _BRACKETED:
        opened = _open_brackets(s, pos)
        if found == "]" and not opened:
            return "; there is no '[' for this ']' to close"
        if found is None and opened:
            return f"; the '[' at column {opened[-1] + 1} is not closed"
        if found == "[" and opened:
            return "; brackets do not nest"
        if found == "[" and grammar == "hostlist":
            term = s[:pos].rsplit(",", 1)[-1]
            if "]" in term:
                return "; a host name has at most one [...] group"
        if found == "[" and "[" in s[:pos]:
            return "; only one pair of brackets may wrap the whole string"
    if grammar == "fsd":
        if found == "-" and pos == 0:
            return "; a duration cannot be negative"
        if found is not None and found.isspace():
            return "; no spaces in a duration"
        after_unit = re.search(r"[0-9.](ms|s|m|h|d)$", s[:pos])
        if found is not None and after_unit:
            return (
                "; the units are ms, s, m, h and d"
                if found[:1].isalpha()
                else "; the unit comes last"
            )
        if found is not None and re.fullmatch(r"inf(inity)?", s[:pos], re.IGNORECASE):
            return "; infinity takes no unit"
    return ""


# the grammars of this module; other callers of _parse (shape.lark) keep the
# list lark's parser has at the point it stopped
_OWN = {"idset", "range", "hostlist", "fsd"}


def _follow(grammar: str, s: str, pos: int, err: Any) -> set[str]:
    """The terminals that could come at ``pos``.

    What lark lists can be off: an LALR state shared by two contexts names
    terminals only one of them takes (']' after "1" in a bare idset), a lexer
    error leaves out the end, and on a bad token the parser may already have
    reduced past choices that were open ("[1-3" can go on with ',' too). So
    the text before ``pos`` (which parsed) is fed again and the parser is asked
    there, before any reduction, which terminals would let it go on."""
    names = getattr(err, "expected", None) or getattr(err, "allowed", None) or set()
    try:
        if grammar in _OWN:
            ip = parser(grammar).parse_interactive(s[:pos])
            ip.exhaust_lexer()
        else:
            ip = err.interactive_parser
        accepted: set[str] = ip.accepts()
        return accepted
    except Exception:  # noqa: BLE001 - lark's own list then
        return names


def _compose(s: str, pos: int, found: str | None, words: list[str], hint: str) -> str:
    if found is None:
        where = f" at column {pos + 1}, the end" if s else ", not an empty string"
        return f"expected {_join(words)}{where}{hint}"
    if words == ["the end"]:
        return f"unexpected {_show(found)} at column {pos + 1}{hint}"
    return f"expected {_join(words)} but found {_show(found)} at column {pos + 1}{hint}"


class _SyntaxFailure(Exception):
    """Where a grammar stopped. Turning that into words takes another pass of
    the parser, so parse_count_string, which throws most of these away, asks
    only for the one it keeps."""

    def __init__(self, grammar: str, s: str, err: Any) -> None:
        from lark.exceptions import (  # deferred: lark, only when a grammar is first used
            UnexpectedCharacters,
            UnexpectedToken,
        )

        super().__init__(grammar)
        self.grammar, self.s, self.err = grammar, s, err
        if isinstance(err, UnexpectedToken) and err.token.type != "$END":
            tok = err.token
            self.pos = tok.start_pos
            end = tok.end_pos if tok.end_pos is not None else self.pos + len(tok)
            self.end, self.found = max(end, self.pos + 1), str(tok)
        elif isinstance(err, UnexpectedCharacters):
            self.pos = err.pos_in_stream
            self.end, self.found = self.pos + 1, s[self.pos : self.pos + 1]
        else:  # the end came too soon
            self.pos = self.end = len(s)
            self.found = None

    found: str | None

    @functools.cached_property
    def words(self) -> list[str]:
        return _words(self.grammar, _follow(self.grammar, self.s, self.pos, self.err))

    @functools.cached_property
    def hint(self) -> str:
        return _hint(self.grammar, self.s, self.pos, self.found)

    def error(
        self, words: Iterable[str] | None = None, end: int | None = None, lead: str = ""
    ) -> FormatError:
        words = self.words if words is None else list(words)
        return FormatError(
            _compose(self.s, self.pos, self.found, words, self.hint),
            self.pos,
            self.end if end is None else end,
            words,
            lead=lead,
        )


def _need_str(s: object) -> None:
    if not isinstance(s, str):
        raise FormatError(f"expected a string, not {type(s).__name__}", 0, 0)


def _tree(name: str, s: str) -> Node:
    """grammars/<name>.lark applied to ``s``: a lark Tree, or _SyntaxFailure."""
    _need_str(s)
    from lark.exceptions import UnexpectedInput  # deferred: lark, only when a grammar is first used

    try:
        return parser(name).parse(s)
    except UnexpectedInput as err:
        raise _SyntaxFailure(name, s, err) from None


def _parse(name: str, s: str) -> Node:
    """grammars/<name>.lark applied to ``s``: a lark Tree, or FormatError."""
    try:
        return _tree(name, s)
    except _SyntaxFailure as failure:
        raise failure.error() from None


# --------------------------------------------------------------------------- values
def _semantic(message: str, start: int, end: int | None = None) -> FormatError:
    return FormatError(message, start, end, semantic=True)


def _check_digits(tok: Node, leading_zero_ok: bool = False) -> str:
    """The token's digits, refused with a positioned error when they have a
    leading zero (unless allowed) or are too many."""
    text = str(tok)
    if not leading_zero_ok and len(text) > 1 and text[0] == "0":
        value = text.lstrip("0") or "0"
        fix = f"; write {value}" if len(value) <= MAX_DIGITS else ""
        raise _semantic(f"leading zero in {_show(text)}{fix}", tok.start_pos, tok.end_pos)
    if len(text.lstrip("0")) > MAX_DIGITS:
        raise _semantic(
            f"{_show(text)} is too large (more than {MAX_DIGITS} digits)",
            tok.start_pos,
            tok.end_pos,
        )
    return text


def _int(tok: Node) -> int:
    return int(_check_digits(tok))


def _digits_key(text: str) -> tuple[int, str]:
    """Sort key for a digit string by value, without int()."""
    value = text.lstrip("0")
    return len(value), value


def _children(tree: Node) -> list[Node]:
    from lark import Token  # deferred: lark, only when a grammar is first used

    return [c for c in tree.children if isinstance(c, Token)]


# --------------------------------------------------------------------------- idset
def parse_idset(s: str) -> list[tuple[int, int]]:
    """RFC 22 idset -> inclusive (lo, hi) runs, in order. "" is the empty set."""
    return _idset_runs(_parse("idset", s), s)


def _idset_runs(tree: Node, s: str) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    prev_hi = -1
    for item in tree.find_data("idset_item"):
        toks = _children(item)
        lo = _int(toks[0])
        hi = _int(toks[1]) if len(toks) > 1 else lo
        start, end = toks[0].start_pos, toks[-1].end_pos
        if len(toks) > 1 and hi == lo:
            raise _semantic(
                f"range {lo}-{hi} has the same number at both ends; write {lo}", start, end
            )
        if hi < lo:
            raise _semantic(f"range {lo}-{hi} is descending; write {hi}-{lo}", start, end)
        if lo <= prev_hi:
            raise _semantic(
                f"{s[start:end]} is not above {prev_hi}, the id before it; an idset "
                "lists ids in ascending order, each once",
                start,
                end,
            )
        runs.append((lo, hi))
        prev_hi = hi
    return runs


def format_idset(runs: Iterable[tuple[int, int]]) -> str:
    """Inclusive (lo, hi) runs (or plain ids) -> "1-3,5"."""
    parts = []
    for run in runs:
        lo, hi = (run, run) if isinstance(run, int) else run
        parts.append(str(lo) if lo == hi else f"{lo}-{hi}")
    return ",".join(parts)


# --------------------------------------------------------------------------- range
def parse_range(s: str) -> dict[str, Any]:
    """RFC 45 range -> the RFC 14 count dictionary it stands for, normalised:
    a bounded range always has operator and operand, an unbounded one only
    when they are not the default "+" and 1."""
    return _range_dict(_parse("range", s), s)


def _range_dict(tree: Node, s: str) -> dict[str, Any]:
    body = next(t for t in tree.iter_subtrees_topdown() if t.data in ("bounded", "unbounded"))
    bounded = body.data == "bounded"
    ints = _children(body)
    out = {"min": _int(ints[0])}
    if bounded:
        out["max"] = _int(ints[1])
    step = next(body.find_data("range_step"), None)
    operand_tok, operator, operand = None, "+", 1
    if step is not None:
        operand_tok = _children(step)[0]
        operand = _int(operand_tok)
        ops = [_children(t)[0] for t in step.find_data("range_op")]
        operator = str(ops[0]) if ops else "+"
    if bounded and out["max"] < out["min"]:
        raise _semantic(
            f"max {out['max']} is below min {out['min']}", ints[1].start_pos, ints[1].end_pos
        )
    if operand_tok is not None:
        where = operand_tok.start_pos, operand_tok.end_pos
        if operand < 1:
            raise _semantic("the operand must be at least 1", *where)
        if operator in "*^" and operand < 2:
            raise _semantic(
                f"with operator {operator!r} the operand must be at least 2 (it is {operand})",
                *where,
            )
        if operator == "^" and out["min"] < 2:
            raise _semantic(
                f"with operator '^' min must be at least 2 (it is {out['min']})",
                ints[0].start_pos,
                ints[0].end_pos,
            )
    if bounded or (operator, operand) != ("+", 1):
        out["operator"] = operator  # type: ignore[assignment]  # the one string entry
        out["operand"] = operand
    return out


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


# --------------------------------------------------------------------------- count strings
def parse_count_string(s: str) -> tuple[str, Any]:
    """An RFC 14 count string: ("idset", runs) or ("range", dict).

    An idset is tried first ("3-30" is both, and as an idset it is the same
    set). When neither fits, the error of the form that got further into the
    string is raised, the idset's on a tie. A wrong value (a descending run, a
    leading zero, max below min) means that form's syntax fitted all the way,
    so it counts as getting to the end, past any syntax error. When both forms
    failed on syntax the message starts "not an idset or range: ", and when
    they failed at the same place it lists what either would take there."""
    _need_str(s)
    outcomes: list[tuple[int, Any]] = []  # (how far it got, _SyntaxFailure or FormatError)
    for kind, build in (("idset", _idset_runs), ("range", _range_dict)):
        try:
            return kind, build(_tree(kind, s), s)
        except _SyntaxFailure as failure:
            outcomes.append((failure.pos, failure))
        except FormatError as err:
            outcomes.append((len(s) + 1, err))
    (p1, e1), (p2, e2) = outcomes
    best = e2 if p2 > p1 else e1
    if isinstance(best, FormatError):  # a wrong value
        raise best
    lead = "not an idset or range: "
    if p1 != p2:
        raise best.error(lead=lead)
    if e1.words == e2.words:  # the same words either way: no need to name both
        raise e1.error()
    raise e1.error(_ordered(e1.words + e2.words), max(e1.end, e2.end), lead=lead)


# --------------------------------------------------------------------------- hostlist
def parse_hostlist(s: str) -> list[tuple[str, list[tuple[str, str]] | None, str]]:
    """RFC 29 hostlist -> [(prefix, [(lo, hi), ...] or None, suffix)], one per
    term; lo and hi are the digit strings as written (padding kept). Never
    expanded."""
    from lark import Tree  # deferred: lark, only when a grammar is first used

    tree = _parse("hostlist", s)
    terms: list[tuple[str, list[tuple[str, str]] | None, str]] = []
    for term in tree.find_data("host_term"):
        prefix, suffix = "", ""
        ids: list[tuple[str, str]] | None = None
        for child in term.children:
            if isinstance(child, Tree):
                ids = []
                for hid in child.find_data("host_id"):
                    toks = _children(hid)
                    lo = _check_digits(toks[0], leading_zero_ok=True)
                    hi = _check_digits(toks[-1], leading_zero_ok=True)
                    if _digits_key(hi) < _digits_key(lo):
                        raise _semantic(
                            f"range {lo}-{hi} is descending", toks[0].start_pos, toks[-1].end_pos
                        )
                    ids.append((lo, hi))
            elif ids is None:
                prefix = str(child)
            else:
                suffix = str(child)
        terms.append((prefix, ids, suffix))
    return terms


FLUX_HOSTLIST_RANGE = 1 << 20  # the most hosts flux-core's hostlist takes in one range


def hostlist_range_problem(s: str) -> str | None:
    """Why flux-core refuses a well-formed hostlist (None: it takes it): one bracketed
    range of more than 1,048,576 hosts ("Invalid hostlist"), whatever RFC 29 allows."""
    for prefix, ids, suffix in parse_hostlist(s):
        for lo, hi in ids or []:
            n = int(hi) - int(lo) + 1
            if n > FLUX_HOSTLIST_RANGE:
                return (
                    f"{prefix}[{lo}-{hi}]{suffix} is a range of {n:,} hosts; flux-core takes "
                    f"at most {FLUX_HOSTLIST_RANGE:,} in one range (Invalid hostlist)"
                )
    return None


def hostlist_count(s: str) -> int:
    """How many hosts a hostlist (a string, or what parse_hostlist returned)
    names, repeats included, without expanding it."""
    terms = s if isinstance(s, list) else parse_hostlist(s)
    total = 0
    for _, ids, _ in terms:
        total += 1 if ids is None else sum(int(hi) - int(lo) + 1 for lo, hi in ids)
    return total


# --------------------------------------------------------------------------- FSD
_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
# grammars/fsd.lark as one regular expression (a test holds the two to the same language):
# the common case of a well-formed duration needs no parser; the rest goes to the grammar
# for its positioned message
_FSD_TEXT = re.compile(
    r"(?:(?P<number>(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)(?P<unit>ms|s|m|h|d)?"
    r"|(?P<inf>(?i:inf(?:inity)?)))\Z"
)


def parse_fsd(s: str) -> float:
    """RFC 23 Flux Standard Duration -> seconds (float('inf') for infinity).

    As strtod does, a number too large for a double is infinite; with a unit
    it is refused, as Flux refuses a unit after infinity."""
    m = _FSD_TEXT.match(s) if isinstance(s, str) else None
    if m is not None:  # the grammar's whole language, read without loading lark
        if m.group("inf"):
            return float("inf")
        value = float(m.group("number"))
        unit = m.group("unit")
        if unit is None:
            return value
        if value * _UNITS[unit] != float("inf"):
            return value * _UNITS[unit]
    tree = _parse("fsd", s)
    toks = list(tree.scan_values(lambda v: True))
    if toks[0].type == "FSD_INF":
        return float("inf")
    value = float(str(toks[0]))
    if len(toks) == 1:
        return value
    seconds = value * _UNITS[str(toks[1])]
    if seconds == float("inf"):
        start, end = toks[0].start_pos, toks[1].end_pos
        raise _semantic(
            f"{_show(s[start:end])} is too large for a duration; write 'inf' for no limit",
            start,
            end,
        )
    return seconds


# --------------------------------------------------------------------------- job ids
_F58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_F58_VALUE = {c: i for i, c in enumerate(_F58)}
_DOTHEX = re.compile(r"[0-9a-fA-F]{4}(?:\.[0-9a-fA-F]{4}){3}\Z")
_JOBID_WORDS = re.compile(r"[a-z]+-[a-z]+-[a-z]+--[a-z]+-[a-z]+-[a-z]+\Z")
_JOBID_MAX = 2**64 - 1


def jobid_problem(text: str) -> str | None:
    """Why ``text`` is not a Flux job id (None when it is one): decimal, F58 (``ƒ`` or
    ``f`` then base-58 digits), ``0x`` hex, dotted hex, ``job.`` + dotted hex, or the
    mnemonic words form, each at most 64 bits, as flux-core's job id parser reads them."""
    if not text:
        return "the job id is empty"
    if "$" in text or "`" in text:
        return (
            f"{text!r} is not a job id: a directive is not read by the shell, so a "
            "variable there is never expanded"
        )
    body = text.lstrip(" \t\n")
    if body.startswith("+"):
        body = body[1:]
    if body.isascii() and body.isdigit():
        return (
            None
            if len(body) <= 20 and int(body) <= _JOBID_MAX
            else f"{text!r} is too large for a job id"
        )
    if text.startswith("0x") and re.fullmatch(r"[0-9a-fA-F]+", text[2:]):
        digits = text[2:].lstrip("0")
        return None if len(digits) <= 16 else f"{text!r} is too large for a job id"
    if _DOTHEX.match(text) or (text.startswith("job.") and _DOTHEX.match(text[4:])):
        return None
    if _JOBID_WORDS.match(text):
        return None
    if text[:1] in ("ƒ", "f") and len(text) > 1:
        rest = text[1:]
        if rest.isascii():
            value = 0
            for ch in rest:
                if ch not in _F58_VALUE:
                    return f"{text!r} is not a job id ({ch!r} is not an F58 digit)"
                value = value * 58 + _F58_VALUE[ch]
                if value > _JOBID_MAX:
                    return f"{text!r} is too large for a job id"
            return None if value else f"{text!r} is not a job id (F58 ids start at 1)"
        return None  # the emoji form of F58
    return f"{text!r} is not a job id (decimal, ƒ/f F58, 0x hex, dotted hex or the words form)"
