"""RFC 35 constraint queries (the ``--requires`` strings of ``flux submit``) compiled
to RFC 31 constraint objects, with positioned errors.

The syntax is grammars/constraint.lark; this module gives it the meaning flux-core's
``--requires`` does. Precedence: ``not`` and ``-`` bind to the item after them;
``&``/``and`` binds tighter than ``|``/``or`` (``a|b&c`` is ``a|(b&c)``, as RFC 35's
examples show); whitespace joins like ``&`` when the next item starts with ``not`` or
``-``, and otherwise, as flux-core's parser does, applies to everything before it
(``a|b c`` is ``(a|b)&c``, ``a|b -c`` is ``a|(b&-c)``); ``not`` takes the items
that follow it side by side when they start with ``not`` or ``-`` (``not a -b`` is
``not (a&-b)``). Further: ``properties`` is the default operator, ``host``/``hosts`` mean
``hostlist`` and ``rank`` means ``ranks``, a property operand is split on ``,``,
and the property terms of one AND are merged into one list
(``a b,c`` -> ``{"properties": ["a", "b", "c"]}``). Hostlists and rank idsets are
parsed, and property names checked against RFC 20, so an error points at the
character responsible.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from jobspec_lsp.notations import formats, grammars

OPERATORS = {
    "properties": "properties",
    "hostlist": "hostlist",
    "host": "hostlist",
    "hosts": "hostlist",
    "ranks": "ranks",
    "rank": "ranks",
}
# RFC 20: property names MUST NOT contain these (a leading ^ in a value is RFC 31's
# negation, not part of the name)
BAD_PROPERTY = set("!&'\"^`|()")


@dataclass
class ConstraintError(ValueError):
    """``start``/``end``: 0-based offsets of the offending text in the query."""

    message: str
    start: int
    end: int

    def __str__(self) -> str:
        return self.message


def parse(query: str) -> dict[str, Any]:
    """The RFC 31 constraint object a query stands for (:class:`ConstraintError`
    when it has none)."""
    if not isinstance(query, str):
        raise ConstraintError("a constraint query is a string", 0, 0)
    if not query.strip():
        raise ConstraintError("the constraint query is empty", 0, len(query))
    try:
        tree = grammars.parser("constraint").parse(query)
    except UnexpectedCharacters as err:
        at = err.pos_in_stream or 0
        raise _unclosed_quote(query, at) or ConstraintError(
            f"unexpected {query[at]!r} at column {at + 1}",
            at,
            at + 1,
        ) from None
    except UnexpectedToken as err:
        raise _unexpected(query, err) from None
    except UnexpectedInput as err:  # pragma: no cover - the two above cover LALR
        pos = getattr(err, "pos_in_stream", 0) or 0
        raise ConstraintError(f"syntax error at column {pos + 1}", pos, pos + 1) from None
    deep = grammars.too_deep(tree, formats.MAX_NESTING * 3)  # a level is a few tree levels
    if deep is not None:
        at = _first_pos(deep)
        raise ConstraintError(
            f"the query nests too deeply to read (more than {formats.MAX_NESTING} levels "
            "of parentheses or operators)",
            at,
            at + 1,
        )
    return _Compiler(query).expr(tree.children[0])


def _first_pos(tree: Any) -> int:
    tok = grammars.leftmost_token(tree)
    return (getattr(tok, "start_pos", 0) or 0) if tok is not None else 0


def _unclosed_quote(query: str, pos: int) -> ConstraintError | None:
    if query[pos] in "'\"":
        return ConstraintError(
            f"the quote {query[pos]} at column {pos + 1} is never closed", pos, pos + 1
        )
    return None


def _unexpected(query: str, err: Any) -> ConstraintError:
    tok = err.token
    if tok.type == "$END":
        opened = _open_paren(query)
        if opened is not None:
            return ConstraintError(
                f"the parenthesis at column {opened + 1} is never closed", opened, opened + 1
            )
        return ConstraintError("the query ends where a term was expected", len(query), len(query))
    start = tok.start_pos
    end = start + len(str(tok))
    if tok.type == "RPAR":
        return ConstraintError(f"')' at column {start + 1} closes nothing", start, end)
    if tok.type == "LPAR" and query[:start].rstrip().endswith("-"):
        return ConstraintError(
            "'-' negates a single term; write not (...) to negate an expression", start, end
        )
    return ConstraintError(
        f"unexpected {str(tok)!r} at column {start + 1}: expected a term, '(' or 'not'", start, end
    )


def _open_paren(query: str) -> int | None:
    stack, quote = [], None
    for i, ch in enumerate(query):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            stack.append(i)
        elif ch == ")" and stack:
            stack.pop()
    return stack[-1] if stack else None


class _Compiler:
    def __init__(self, query: str):
        self.query = query

    def expr(self, t: Any) -> dict[str, Any]:
        kind = t.data
        if kind in ("seq", "group"):
            return self.seq(t.children)
        if kind in ("negation", "negated_term"):
            return {"not": [self.expr(t.children[1])]}
        return self.term(t)

    # binding levels: "or" < "and" (also whitespace, once it waits) < "not" < "-"
    _OR, _AND, _NOT, _NEG = 1, 2, 3, 4

    def seq(self, children: list[Any]) -> dict[str, Any]:
        """Operator precedence over the items and joiners of one sequence, with
        "not" as a prefix operator: it takes what follows up to the next joiner that
        binds looser than it (``not a -b`` is ``not (a & -b)``)."""
        values: list[dict[str, Any]] = []
        ops: list[tuple[str, int]] = []  # (kind, level); kind "or", "and" or "not"

        def reduce() -> None:
            kind, _ = ops.pop()
            if kind == "not":
                values.append({"not": [values.pop()]})
                return
            right, left = values.pop(), values.pop()
            if kind == "or":
                values.append(
                    {
                        "or": (left["or"] if list(left) == ["or"] else [left])
                        + (right["or"] if list(right) == ["or"] else [right])
                    }
                )
            else:
                values.append(_and([left, right]))

        def arrive(kind: str, level: int, right_assoc: bool = False) -> None:
            while ops and (ops[-1][1] > level if right_assoc else ops[-1][1] >= level):
                reduce()
            ops.append((kind, self._AND if kind == "and" else level))

        explicit: str | None = None
        for child in children:
            if _is_token(child):
                explicit = "or" if child.type == "OR" else "and"
                continue
            starts = getattr(child, "data", "")
            if values or ops:
                if explicit == "or":
                    arrive("or", self._OR)
                elif explicit == "and":
                    arrive("and", self._AND)
                elif starts == "negation":  # side by side, before "not"
                    arrive("and", self._NOT, right_assoc=True)
                elif starts == "negated_term":  # side by side, before "-"
                    arrive("and", self._NEG, right_assoc=True)
                else:  # side by side, before a plain item
                    arrive("and", 0)
            explicit = None
            while getattr(child, "data", "") == "negation":
                ops.append(("not", self._NOT))
                child = child.children[1]
            values.append(self.expr(child))
        while ops:
            reduce()
        return values[0]

    def term(self, t: Any) -> dict[str, Any]:
        toks = t.children
        if t.data == "word":
            text, start = str(toks[0]), toks[0].start_pos
            op, colon, value = text.partition(":")
            vstart = start + len(op) + 1
            if not colon:
                op, value, vstart = "properties", text, start
            opstart = start
        elif t.data == "quoted":
            raw = str(toks[0])
            op, value, opstart, vstart = (
                "properties",
                raw[1:-1],
                toks[0].start_pos,
                toks[0].start_pos + 1,
            )
        else:  # OPCOLON then a word or a quoted operand
            opstart = toks[0].start_pos
            op = str(toks[0])[:-1]
            raw = str(toks[1])
            quoted = raw[:1] in "'\"" and len(raw) >= 2 and raw[-1] == raw[0]
            value = raw[1:-1] if quoted else raw
            vstart = toks[1].start_pos + (1 if quoted else 0)
        return self.operation(op, value, opstart, vstart)

    def operation(self, op: str, value: str, opstart: int, vstart: int) -> dict[str, Any]:
        name = OPERATORS.get(op)
        if name is None:
            known = ", ".join(sorted(OPERATORS))
            raise ConstraintError(
                f"unknown operator {op!r} (operators: {known})", opstart, opstart + len(op)
            )
        if value == "":
            raise ConstraintError(f"{op}: needs a value", opstart, vstart)
        if name == "properties":
            names, at = [], vstart
            for part in value.split(","):
                self.property(part, at)
                names.append(part)
                at += len(part) + 1
            return {"properties": names}
        try:
            (formats.parse_hostlist if name == "hostlist" else formats.parse_idset)(value)
        except formats.FormatError as err:
            what = "hostlist" if name == "hostlist" else "rank idset"
            start = vstart + err.start
            end = min(vstart + max(err.end, err.start + 1), vstart + len(value))
            raise ConstraintError(
                f"{value!r} is not a valid {what}: {err.short}", min(start, end), end
            ) from None
        why = formats.hostlist_range_problem(value) if name == "hostlist" else None
        if why:
            raise ConstraintError(why, vstart, vstart + len(value))
        return {name: [value]}

    def property(self, name: str, at: int) -> None:
        body = name[1:] if name.startswith("^") else name
        if not body:
            raise ConstraintError("empty property name", at, at + len(name))
        skip = len(name) - len(body)
        for i, ch in enumerate(body):
            if ch in BAD_PROPERTY:
                raise ConstraintError(
                    f"{ch!r} cannot be part of a property name (RFC 20)",
                    at + skip + i,
                    at + skip + i + 1,
                )


def _is_token(x: object) -> bool:
    return not hasattr(x, "data")


def _and(terms: list[dict[str, Any]]) -> dict[str, Any]:
    """AND of terms: nested ands flattened, the property terms merged into one."""
    flat: list[Any] = []
    for t in terms:
        flat.extend(t["and"] if list(t) == ["and"] else [t])
    merged: list[Any] = []
    props: dict[str, Any] | None = None
    for t in flat:
        if list(t) == ["properties"]:
            if props is None:
                props = {"properties": list(t["properties"])}
                merged.append(props)
            else:
                props["properties"].extend(t["properties"])
        else:
            merged.append(t)
    return merged[0] if len(merged) == 1 else {"and": merged}


def normalize(c: Any) -> Any:
    """A constraint in one canonical grouping: nested and/or flattened, the property
    lists of one AND merged (RFC 31 gives the groupings the same meaning). Used to
    compare with other parsers."""
    if not isinstance(c, dict) or len(c) != 1:
        return c
    ((op, args),) = c.items()
    if op in ("and", "or") and isinstance(args, list):
        parts = [normalize(a) for a in args]
        flat: list[Any] = []
        for p in parts:
            flat.extend(p[op] if isinstance(p, dict) and list(p) == [op] else [p])
        if op == "and":
            return _and(flat)
        return flat[0] if len(flat) == 1 else {"or": flat}
    if op == "not" and isinstance(args, list):
        return {"not": [normalize(a) for a in args]}
    return c
