"""RFC 46 resource shapes: expand a shape string to an RFC 14 resources list,
and collapse a resources list back to the shortest shape that expands to it.

    >>> expand("slot=4/node")
    [{'type': 'slot', 'count': 4, 'label': 'default', 'with': [{'type': 'node', 'count': 1}]}]
    >>> collapse(expand("slot=3-30/node{-x}"))
    'slot=3-30/node{-x}'

A shape is read as flux-core's own shape parser reads it (``flux.shape.parser``, behind
``flux submit --resources-shape``): its modal lexer (a type is any run of characters
but ``= { } [ ] / ;``, quotes and white space; counts, keys and values each have their
own rules, ``x`` as a key is ``exclusive``, ``'...'`` and ``"..."`` hold any text, no
escapes), then its grammar, so a shape Flux takes is taken here with the same result
and one Flux refuses is refused. Two things are this tool's choice: the label of a lone
unlabelled slot (``default``, as RFC 46's examples; flux-core's tools pass ``task``),
and counts: ranges become RFC 14 range mappings, as the RFC's examples show, and ranges
and idsets are checked as RFC 45 and RFC 22 read them, unless ``as_flux``: then they stay
the strings flux-core writes, checked no further than its lexer. The real-Flux tier
holds this reader to Flux's on generated shapes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from jobspec_lsp.notations import formats
from jobspec_lsp.notations.shapelex import BLANK, CONSTANTS, VALUE_NUMBER, ShapeError, Tok, tokens

__all__ = ["DEFAULT_LABEL", "VERTEX_ORDER", "ShapeError", "collapse", "expand", "shape_of"]

DEFAULT_LABEL = "default"
# the order keys take in an expanded vertex (the formatter's canonical order)
VERTEX_ORDER = ("type", "count", "unit", "label", "exclusive", "id")


# --------------------------------------------------------------------------- the parser
_WHAT = {
    "end": "the end", "type": "a type", "slot": "'slot'", "quoted": "a quoted string",
    "int": "a number", "idset": "an idset", "op": "an operator", "key": "a key",
    "word": "a word", "number": "a number", "array": "a list", "true": "true",
    "false": "false", "null": "null",
}  # fmt: skip


class _Parser:
    """Flux's grammar over the words, by recursive descent:

    list : '[' vertex (';' vertex)* ']' | vertex
    vertex : (TYPE | QUOTED) count? dict? ('/' list)? | slot '/' list
    slot : SLOT count? ('{' key (',' items)? '}')?
    count : '[' value ']' | value      (INT, INT '-' INT [':' INT [OP]],
                                        INT '+' [':' INT [OP]], IDSET)
    dict : '{' items? '}' ;  items : item (',' item)*
    item : key [':' value] | '+' key | '-' key
    """

    def __init__(self, text: str, toks: list[Tok], label: str, as_flux: bool) -> None:
        self.text = text
        self.toks = toks
        self.k = 0
        self.label = label
        self.as_flux = as_flux

    def peek(self) -> Tok:
        return self.toks[self.k]

    def take(self, *kinds: str) -> Tok:
        tok = self.toks[self.k]
        if tok.kind not in kinds:
            raise self.unexpected(tok, kinds)
        self.k += 1
        return tok

    def unexpected(self, tok: Tok, kinds: tuple[str, ...]) -> ShapeError:
        names = list(dict.fromkeys(_WHAT.get(k, repr(k)) for k in kinds))
        want = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
        if tok.kind == "end":
            return ShapeError(
                f"expected {want} at column {tok.start + 1}, the end", tok.start, tok.end, kinds
            )
        shown = self.text[tok.start : tok.end]
        return ShapeError(
            f"expected {want} but found {shown!r} at column {tok.start + 1}",
            tok.start,
            tok.end,
            kinds,
        )

    def deeper(self, depth: int) -> int:
        if depth >= formats.MAX_NESTING:
            tok = self.peek()
            raise ShapeError(
                f"the shape nests more than {formats.MAX_NESTING} levels: jobspec-lsp reads "
                "no deeper (no machine has such a resource graph)",
                tok.start,
                tok.end,
            )
        return depth + 1

    def resources(self) -> list[dict[str, Any]]:
        out = self.vertices(0)
        self.take("end")
        return out

    def vertices(self, depth: int) -> list[dict[str, Any]]:
        if self.peek().kind != "[":
            return [self.vertex(depth)]
        self.take("[")
        out = [self.vertex(depth)]
        while self.peek().kind == ";":
            self.take(";")
            out.append(self.vertex(depth))
        self.take(";", "]")
        return out

    def vertex(self, depth: int) -> dict[str, Any]:
        depth = self.deeper(depth)
        tok = self.take("type", "quoted", "slot")
        out: dict[str, Any] = {"type": tok.value, "count": 1}
        if self.peek().kind in ("[", "int", "idset"):
            out["count"] = self.count()
        if tok.kind == "slot":
            self.slot_label(tok, out)
            if self.peek().kind != "/":
                at = self.peek()
                raise ShapeError(
                    "a slot must contain resources: add '/' and what it holds, e.g. "
                    f"slot/core (column {at.start + 1})",
                    at.start,
                    at.end,
                    ["/"],
                )
            self.take("/")
            out["with"] = self.vertices(depth)
            return out
        if self.peek().kind == "{":
            out.update(self.braces(depth))
        if self.peek().kind == "/":
            self.take("/")
            out["with"] = self.vertices(depth)
        return out

    def slot_label(self, tok: Tok, out: dict[str, Any]) -> None:
        """A slot's braces: its label first, alone, then items; without braces, the
        default label, which only the first slot of a shape may take."""
        if self.peek().kind != "{":
            if self.peek().kind == "/":
                if tok.nth > 1:
                    raise ShapeError(
                        "this shape has more than one slot, so each after the first needs "
                        "a label: write slot{name}",
                        tok.start,
                        tok.end,
                    )
                out["label"] = self.label
            return
        self.take("{")
        first = self.peek()
        if first.kind not in ("key", "quoted") or self.toks[self.k + 1].kind == ":":
            end = self.toks[self.k + 2].end if first.kind in ("key", "quoted") else first.end
            raise ShapeError(
                "a slot's label must come first in its braces, on its own "
                f"(slot{{name,...}}), not {self.text[first.start : end]!r}",
                first.start,
                end,
            )
        out["label"] = self.take("key", "quoted").value
        if self.peek().kind == ",":
            self.take(",")
            out.update(self.items(0))
        self.take(",", "}")

    def count(self) -> Any:
        if self.peek().kind == "[":
            self.take("[")
            value = self.count_value()
            self.take("]")
            return value
        return self.count_value()

    def count_value(self) -> Any:
        first = self.take("int", "idset")
        if first.kind == "idset":
            if not self.as_flux:
                try:
                    formats.parse_idset(first.value)
                except formats.FormatError as err:
                    raise ShapeError(
                        f"the idset {first.value!r} is not one RFC 22 allows: {err.message}",
                        first.start,
                        first.end,
                    ) from None
            return first.value
        nxt = self.peek().kind
        if nxt not in ("-", "+"):
            return first.value
        self.take(nxt)
        text = f"{first.value}-{self.take('int').value}" if nxt == "-" else f"{first.value}+"
        if self.peek().kind == ":":
            self.take(":")
            text += f":{self.take('int').value}"
            if self.peek().kind == "op":
                text += self.take("op").value
        if self.as_flux:
            return text
        try:
            return formats.parse_range(text)
        except formats.FormatError as err:
            end = self.toks[self.k - 1].end
            raise ShapeError(
                f"the range {text!r} is not one RFC 45 allows: {err.message}", first.start, end
            ) from None

    def braces(self, depth: int) -> dict[str, Any]:
        self.take("{")
        if self.peek().kind == "}":
            self.take("}")
            return {}
        out = self.items(depth)
        self.take(",", "}")
        return out

    def items(self, depth: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        while True:
            sign = self.peek().kind
            if sign in ("+", "-"):
                self.take(sign)
                out[self.take("key", "quoted").value] = sign == "+"
            else:
                key = self.take("key", "quoted", "+", "-").value
                out[key] = True
                if self.peek().kind == ":":
                    self.take(":")
                    out[key] = self.value(depth)
            if self.peek().kind != ",":
                return out
            self.take(",")

    def value(self, depth: int) -> Any:
        if self.peek().kind == "{":
            return self.braces(self.deeper(depth))
        kinds = ("true", "false", "null", "array", "number", "word", "quoted", "{")
        return self.take(*kinds).value


def expand(text: str, label: str = DEFAULT_LABEL, as_flux: bool = False) -> list[dict[str, Any]]:
    """Shape string -> RFC 14 resources list (plain data), as Flux's shape parser reads
    it; ``label`` names a slot written without one; ranges are RFC 14 mappings, or, with
    ``as_flux``, the RFC 45 strings flux-core writes (see the module's words)."""
    if not text.strip(BLANK):
        raise ShapeError("the shape is empty; expected a resource type such as 'node'", 0, 0)
    toks = tokens(text)
    return [_ordered(v) for v in _Parser(text, toks, label, as_flux).resources()]


def _ordered(vertex: dict[str, Any]) -> dict[str, Any]:
    """``vertex`` with its keys in the canonical order (type, count, unit, label,
    exclusive, id, the others as given, with last): the same mapping."""
    out = {k: vertex[k] for k in VERTEX_ORDER if k in vertex}
    out.update((k, v) for k, v in vertex.items() if k not in out and k != "with")
    if "with" in vertex:
        kids = vertex["with"]
        out["with"] = [_ordered(c) for c in kids] if isinstance(kids, list) else kids
    return out


# --------------------------------------------------------------------------- collapse
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]*\Z")
_WORD = re.compile(r"[A-Za-z0-9_.+\-][A-Za-z0-9_.+\-]*\Z")
_IDSET_COUNT = re.compile(r"[1-9][0-9]*(?:-[1-9][0-9]*)?(?:,[1-9][0-9]*(?:-[1-9][0-9]*)?)+\Z")


def collapse(resources: Any, label: str = DEFAULT_LABEL) -> str:
    """Resources list -> the shortest shape that expands back to exactly it."""
    if not isinstance(resources, list) or not resources:
        raise ShapeError("resources must be a non-empty list of vertices", path="resources")
    slots = sum(1 for v in _dict_walk(resources) if isinstance(v, dict) and v.get("type") == "slot")
    shape = _collapse_list(resources, "resources", slots == 1, label)
    back: Any
    try:
        back = expand(shape, label)
    except ShapeError as err:
        back = err
    if back != resources:
        raise ShapeError(
            f"resources: no shape reads back as these resources ({shape!r} "
            + ("does not parse)" if isinstance(back, ShapeError) else "means other ones)"),
            path="resources",
        )
    return shape


def _dict_walk(vertices: list[Any]) -> Iterator[Any]:
    for v in vertices:
        yield v
        if isinstance(v, dict) and isinstance(v.get("with"), list):
            yield from _dict_walk(v["with"])


def _collapse_list(vertices: list[Any], path: str, sole_slot: bool, label: str) -> str:
    parts = [_collapse_vertex(v, f"{path}[{i}]", sole_slot, label) for i, v in enumerate(vertices)]
    return parts[0] if len(parts) == 1 else "[" + ";".join(parts) + "]"


def _collapse_vertex(v: Any, path: str, sole_slot: bool, label: str) -> str:
    if not isinstance(v, dict):
        raise ShapeError(f"{path} is not a mapping", path=path)
    vtype = v.get("type")
    if not isinstance(vtype, str):
        raise ShapeError(f"{path}: type {vtype!r} cannot be written in a shape", path=path)
    if "count" not in v:
        raise ShapeError(f"{path} ({vtype}) has no count", path=path)
    # a slot is written 'slot' with its label first in its braces; a vertex of type slot
    # without a string label is written quoted, which Flux reads as any other type
    slot = vtype == "slot" and isinstance(v.get("label"), str)
    plain = _NAME.match(vtype) and (slot or vtype.lower() != "slot")
    written = vtype if plain else _quote(vtype, path)
    out = written + _collapse_count(v["count"], f"{path} ({vtype})")
    items = []
    if slot:
        others = [k for k in v if k not in ("type", "count", "label", "with")]
        if not (sole_slot and v["label"] == label and not others):
            items.append(_name(v["label"], path))
    ordered = [k for k in VERTEX_ORDER if k in v] + [k for k in v if k not in VERTEX_ORDER]
    kids = v.get("with")
    kids = kids if isinstance(kids, list) else []
    children = bool(kids)  # else a "with" is written in braces
    for key in ordered:  # the order expand() gives, so collapse(expand(s)) is stable
        value = v[key]
        if key in ("type", "count") or (key == "label" and slot) or (key == "with" and children):
            continue
        if key == "exclusive" and isinstance(value, bool):
            items.append("x" if value else "-x")
        else:
            items.append(_item(key, value, path))
    if items:
        out += "{" + ",".join(items) + "}"
    if children:
        out += "/" + _collapse_list(kids, f"{path}.with", sole_slot, label)
    elif slot:
        raise ShapeError(
            f"{path}: a slot without resources cannot be written as a shape", path=path
        )
    return out


def _collapse_count(count: Any, where: str) -> str:
    if type(count) is int:
        if count < 1:
            raise ShapeError(f"{where}: count {count} is not positive", path=where)
        return "" if count == 1 else f"={count}"
    if isinstance(count, dict):
        try:
            text = formats.format_range(count)
            back = formats.parse_range(text)
        except (KeyError, TypeError, formats.FormatError) as err:
            raise ShapeError(f"{where}: count {count} is not a valid range", path=where) from err
        if back != count:
            raise ShapeError(
                f"{where}: count {count} has no RFC 45 spelling that expands back "
                f"to it (the shape {text!r} means {back})",
                path=where,
            )
        return f"={text}"
    if isinstance(count, str):
        if _IDSET_COUNT.match(count):
            return f"={count}"
        if count == "":
            raise ShapeError(
                f"{where}: the count string {count!r} is an empty idset, which allows no "
                "count at all; a shape cannot write it",
                path=where,
            )
        if re.fullmatch(r"[1-9][0-9]*", count):
            what = "an integer"
        elif re.fullmatch(r"[1-9][0-9]*(?:-[1-9][0-9]*|\+)(?::[1-9][0-9]*[+*^]?)?", count):
            what = "a range mapping"
        else:
            raise ShapeError(f"{where}: count {count!r} is not an idset or range", path=where)
        raise ShapeError(
            f"{where}: the count string {count!r} would expand to {what}, not a string; "
            "a shape cannot keep it a string",
            path=where,
        )
    raise ShapeError(f"{where}: count {count!r} cannot be written in a shape", path=where)


def _quote(text: str, where: str) -> str:
    """``text`` in quotes, which hold anything but the quote itself (no escapes)."""
    for q in "\"'":
        if q not in text:
            return q + text + q
    raise ShapeError(f"{where}: {text!r} holds both quote characters; a shape cannot say it")


def _name(key: Any, where: str = "resources") -> str:
    if not isinstance(key, str):
        raise ShapeError(f"key {key!r} is not a string")
    if _NAME.match(key) and key != "x":
        return key
    return _quote(key, where)


def _item(key: Any, value: Any, where: str) -> str:
    """One brace entry: ``key`` for true, ``-key`` for false, else ``key:value``."""
    if value is True:
        return _name(key, where)
    if value is False:
        return "-" + _name(key, where)
    return f"{_name(key, where)}:{_collapse_value(value, f'{where}.{key}')}"


def _collapse_value(value: Any, where: str) -> str:
    if isinstance(value, dict):
        return "{" + ",".join(_item(k, v, where) for k, v in value.items()) + "}"
    if isinstance(value, list):  # JSON, read back with ' as "
        text = json.dumps(value)
        if "'" in text:
            raise ShapeError(f"{where}: a list holding ' cannot be written in a shape", path=where)
        return text
    if value is None or isinstance(value, (bool, int)):
        return json.dumps(value)
    if isinstance(value, float):
        text = json.dumps(value)
        if not VALUE_NUMBER.match(text + "}") or float(text) != value:
            raise ShapeError(
                f"{where}: the number {value!r} cannot be written in a shape", path=where
            )
        return text
    if isinstance(value, str):
        plain = _WORD.match(value) and not VALUE_NUMBER.match(value + "}")
        if plain and value.lower() not in CONSTANTS:
            return value
        return _quote(value, where)
    raise ShapeError(
        f"{where}: {type(value).__name__} values cannot be written in a shape", path=where
    )


def shape_of(vertex: dict[str, Any], label: str = DEFAULT_LABEL) -> str:
    """The shape of one vertex and everything under it (for hover)."""
    return collapse([vertex], label)
