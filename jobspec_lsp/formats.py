"""The small string formats jobspec uses, parsed with the lark grammars in grammars/.

- RFC 22 idset (`"1-3,5"`), RFC 45 range (`"2-8:2:*"`), both as count strings
- RFC 29 hostlist (`"node[01-16],login1"`), in constraints
- RFC 23 Flux Standard Duration (`"1.5h"`), what users type for a duration

Every parse function returns plain data or raises :class:`FormatError`, which
carries the character offsets (into the parsed string) of the offending token
and a message that says what was expected there in words.
"""

from __future__ import annotations

import functools
import importlib.resources
import re
from pathlib import Path

# lark is imported on first use: most jobspecs never need these parsers, and the
# CLI (a pre-commit hook) should start quickly.


class FormatError(ValueError):
    """``semantic`` is true when the text has the right syntax but a wrong value
    (descending run, leading zero, max below min)."""

    def __init__(self, message: str, start: int, end: int | None = None, expected=(),
                 semantic: bool = False):
        super().__init__(message)
        self.message = message
        self.start = start
        self.end = start if end is None else end
        self.expected = list(expected)
        self.semantic = semantic

    @property
    def short(self) -> str:
        """The message without its column, for a diagnostic whose range already shows it."""
        msg = re.sub(r" at column \d+, the end", " at the end", self.message)
        return re.sub(r" at column \d+", "", msg)


def grammar_dir():
    """Where the .lark files are: inside the installed package, or the checkout's grammars/."""
    packaged = importlib.resources.files("jobspec_lsp") / "grammars"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "grammars"


@functools.cache
def grammar_text(name: str) -> str:
    return (grammar_dir() / f"{name}.lark").read_text(encoding="utf-8")


@functools.cache
def parser(name: str):
    from lark import Lark

    return Lark(grammar_text(name), parser="lalr", lexer="contextual", start="start",
                propagate_positions=name == "shape", maybe_placeholders=False)


# Terminal names -> words, for "expected ..." messages.
_WORDS = {
    "LSQB": "'['", "RSQB": "']'", "COMMA": "','", "MINUS": "'-'", "PLUS": "'+'", "COLON": "':'",
    "ID_INT": "a number", "RANGE_INT": "a number", "HOST_INT": "a number",
    "HOST_PART": "a host name", "OP_PLUS": "'+'", "OP_TIMES": "'*'", "OP_POWER": "'^'",
    "FSD_NUMBER": "a number", "FSD_UNIT": "a unit (ms, s, m, h or d)", "FSD_INF": "'inf'",
    "$END": "the end", "<END-OF-FILE>": "the end",
    "LBRACE": "'{'", "RBRACE": "'}'", "SEMICOLON": "';'", "SLASH": "'/'", "EQUAL": "'='",
    "SHAPE_NAME": "a name", "SHAPE_COUNT": "a count", "SHAPE_STRING": "a quoted string",
    "SHAPE_WORD": "a value",
}


def _words(names) -> list[str]:
    out = sorted({_WORDS.get(n, n.lower()) for n in names})
    # "the end" reads best last
    if "the end" in out:
        out.remove("the end")
        out.append("the end")
    return out


def _join(words: list[str]) -> str:
    if not words:
        return "something else"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _found(s: str, pos: int) -> str:
    if pos >= len(s):
        return "the end"
    return repr(s[pos])


def _parse(name: str, s: str):
    from lark.exceptions import (UnexpectedCharacters, UnexpectedEOF, UnexpectedInput,
                                 UnexpectedToken)

    try:
        return parser(name).parse(s)
    except UnexpectedCharacters as err:
        pos = err.pos_in_stream
        words = _words(err.allowed or ())
        if words == ["the end"]:
            raise FormatError(f"unexpected {_found(s, pos)} at column {pos + 1}", pos, pos + 1,
                              words) from None
        raise FormatError(f"expected {_join(words)} but found {_found(s, pos)} at column {pos + 1}",
                          pos, pos + 1, words) from None
    except UnexpectedToken as err:
        tok = err.token
        words = _words(err.expected or ())
        if tok.type == "$END":
            pos = len(s)
            raise FormatError(f"expected {_join(words)} at column {pos + 1}, the end"
                              if s else f"expected {_join(words)}", pos, pos, words) from None
        pos = tok.start_pos
        end = tok.end_pos if tok.end_pos is not None else pos + len(tok)
        if words == ["the end"]:
            raise FormatError(f"unexpected {str(tok)!r} at column {pos + 1}", pos,
                              max(end, pos + 1), words) from None
        raise FormatError(f"expected {_join(words)} but found {str(tok)!r} at column {pos + 1}",
                          pos, max(end, pos + 1), words) from None
    except UnexpectedEOF as err:
        pos = len(s)
        words = _words(err.expected or ())
        raise FormatError(f"expected {_join(words)} at the end", pos, pos, words) from None
    except UnexpectedInput as err:  # pragma: no cover - other lark input errors
        pos = getattr(err, "pos_in_stream", 0) or 0
        raise FormatError(f"unexpected input at column {pos + 1}", pos, pos + 1) from None


def _semantic(message, start, end=None):
    return FormatError(message, start, end, semantic=True)


def _tokens(tree, kind=None):
    from lark import Token

    for tok in tree.scan_values(lambda v: isinstance(v, Token)):
        if kind is None or tok.type == kind:
            yield tok


def _int(tok) -> int:
    text = str(tok)
    if len(text) > 1 and text[0] == "0":
        raise _semantic(f"leading zero in {text!r}", tok.start_pos, tok.end_pos)
    if len(text) > 18:
        raise _semantic(f"{text} is too large", tok.start_pos, tok.end_pos)
    return int(text)


# --------------------------------------------------------------------------- idset
def parse_idset(s: str) -> list[tuple[int, int]]:
    """RFC 22 idset -> inclusive (lo, hi) runs, in order.  "" is the empty set."""
    from lark import Token  # lazily, see the top

    tree = _parse("idset", s)
    runs: list[tuple[int, int]] = []
    prev_hi = -1
    for item in tree.find_data("idset_item"):
        toks = [t for t in item.children if isinstance(t, Token)]
        lo = _int(toks[0])
        hi = _int(toks[1]) if len(toks) > 1 else lo
        start, end = toks[0].start_pos, toks[-1].end_pos
        if len(toks) > 1 and hi <= lo:
            what = "empty" if hi == lo else "descending"
            raise _semantic(f"run {lo}-{hi} is {what}; write {lo} or {lo}-{max(hi, lo + 1)}"
                              if hi == lo else f"run {lo}-{hi} is descending; write {hi}-{lo}",
                              start, end)
        if lo <= prev_hi:
            raise _semantic(f"{s[start:end]} is not above the previous id ({prev_hi}); idsets are "
                              "ascending without repeats", start, end)
        runs.append((lo, hi))
        prev_hi = hi
    return runs


def format_idset(runs) -> str:
    return ",".join(str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in runs)


# --------------------------------------------------------------------------- range
def parse_range(s: str) -> dict:
    """RFC 45 range -> the RFC 14 count dictionary it stands for."""
    from lark import Token  # lazily, see the top

    tree = _parse("range", s)
    body = next(t for t in tree.iter_subtrees_topdown() if t.data in ("bounded", "unbounded"))
    ints = [t for t in body.children if isinstance(t, Token)]
    out = {"min": _int(ints[0])}
    if body.data == "bounded":
        out["max"] = _int(ints[1])
        if out["max"] < out["min"]:
            raise _semantic(f"max {out['max']} is below min {out['min']}", ints[1].start_pos,
                              ints[1].end_pos)
    step = next(body.find_data("range_step"), None)
    operand_tok = None
    if step is not None:
        operand_tok = next(t for t in step.children if isinstance(t, Token))
        out["operand"] = _int(operand_tok)
        op_tree = next(step.find_data("range_op"), None)
        out["operator"] = str(op_tree.children[0]) if op_tree is not None else "+"
    elif body.data == "bounded":
        out["operand"], out["operator"] = 1, "+"
    if "operand" in out:
        op, operand = out["operator"], out["operand"]
        if operand < 1:
            raise _semantic("the operand must be at least 1", operand_tok.start_pos,
                              operand_tok.end_pos)
        if op in "*^" and operand < 2:
            raise _semantic(f"with operator {op!r} the operand must be at least 2",
                              operand_tok.start_pos, operand_tok.end_pos)
        if op == "^" and out["min"] < 2:
            raise _semantic("with operator '^' min must be at least 2", ints[0].start_pos,
                              ints[0].end_pos)
    # canonical key order
    return {k: out[k] for k in ("min", "max", "operator", "operand") if k in out}


def format_range(d: dict) -> str:
    """The shortest RFC 45 string for a count dictionary."""
    lo, hi = d["min"], d.get("max")
    op, operand = d.get("operator", "+"), d.get("operand", 1)
    text = f"{lo}-{hi}" if hi is not None else f"{lo}+"
    if op == "+" and operand == 1:
        return text
    if op == "+":
        return f"{text}:{operand}"
    return f"{text}:{operand}:{op}"


def parse_count_string(s: str):
    """A count string: ("idset", runs) or ("range", dict).

    When neither form fits: if one has the right syntax but a wrong value, its
    error; otherwise the syntax error that got further into the string (the
    idset's on a tie)."""
    try:
        return "idset", parse_idset(s)
    except FormatError as e1:
        try:
            return "range", parse_range(s)
        except FormatError as e2:
            if e1.semantic != e2.semantic:  # the form whose syntax fits explains best
                best = e1 if e1.semantic else e2
            elif e1.semantic:
                best = e1
            else:
                best = e2 if e2.start > e1.start else e1
            raise best from None


# --------------------------------------------------------------------------- hostlist
def parse_hostlist(s: str):
    """RFC 29 hostlist -> [(prefix, [(lo, hi)] or None, suffix)], never expanded."""
    from lark import Token, Tree  # lazily, see the top

    tree = _parse("hostlist", s)
    terms = []
    for term in tree.find_data("host_term"):
        prefix, ids, suffix = "", None, ""
        for child in term.children:
            if isinstance(child, Tree):
                ids = []
                for hid in child.find_data("host_id"):
                    toks = [t for t in hid.children if isinstance(t, Token)]
                    lo = str(toks[0])
                    hi = str(toks[1]) if len(toks) > 1 else lo
                    if int(hi) < int(lo):
                        raise _semantic(f"range {lo}-{hi} is descending", toks[0].start_pos,
                                          toks[-1].end_pos)
                    ids.append((lo, hi))
            elif ids is None:
                prefix = str(child)
            else:
                suffix = str(child)
        terms.append((prefix, ids, suffix))
    return terms


def hostlist_count(s: str) -> int:
    total = 0
    for _, ids, _ in parse_hostlist(s):
        total += 1 if ids is None else sum(int(hi) - int(lo) + 1 for lo, hi in ids)
    return total


# --------------------------------------------------------------------------- FSD
_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}


def parse_fsd(s: str) -> float:
    """RFC 23 Flux Standard Duration -> seconds."""
    tree = _parse("fsd", s)
    toks = list(_tokens(tree))
    if toks[0].type == "FSD_INF":
        return float("inf")
    value = float(str(toks[0]))
    unit = str(toks[1]) if len(toks) > 1 else "s"
    return value * _UNITS[unit]
