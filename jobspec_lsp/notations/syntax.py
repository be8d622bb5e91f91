"""A grammar's failure in words: where lark stopped in a string, what would have been
accepted there ("expected a number but found ',' at column 3"), and a hint for the
mistakes people make; :func:`parse` and :func:`tree` apply a grammar to a string and
raise these instead of lark's exceptions."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from jobspec_lsp.notations import grammars
from jobspec_lsp.notations.formaterror import FormatError, need_str, show

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

    from jobspec_lsp.notations.grammars import Node

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
    return {t.name: t.pattern for t in grammars.parser(name).terminals}


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


def ordered(words: Iterable[str]) -> list[str]:
    out = sorted(set(words))
    if "the end" in out:  # reads best last
        out.remove("the end")
        out.append("the end")
    return out


def _words(grammar: str, names: Iterable[str]) -> list[str]:
    return ordered(_word(grammar, n) for n in names)


def _join(words: list[str]) -> str:
    if not words:
        return "something else"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


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


# the grammars of the notation readers; other callers of parse (shape.lark) keep the
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
            ip = grammars.parser(grammar).parse_interactive(s[:pos])
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
        return f"unexpected {show(found)} at column {pos + 1}{hint}"
    return f"expected {_join(words)} but found {show(found)} at column {pos + 1}{hint}"


class SyntaxFailure(Exception):
    """Where a grammar stopped. Turning that into words takes another pass of
    the parser, so parse_count_string, which throws most of these away, asks
    only for the one it keeps."""

    def __init__(self, grammar: str, s: str, err: Any) -> None:
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


def tree(name: str, s: str) -> Node:
    """grammars/<name>.lark applied to ``s``: a lark Tree, or SyntaxFailure."""
    need_str(s)
    try:
        return grammars.parser(name).parse(s)
    except UnexpectedInput as err:
        raise SyntaxFailure(name, s, err) from None


def parse(name: str, s: str) -> Node:
    """grammars/<name>.lark applied to ``s``: a lark Tree, or FormatError."""
    try:
        return tree(name, s)
    except SyntaxFailure as failure:
        raise failure.error() from None
