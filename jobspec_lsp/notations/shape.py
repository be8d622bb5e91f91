"""RFC 46 resource shapes: expand a shape string to an RFC 14 resources list,
and collapse a resources list back to the shortest shape that expands to it.

    >>> expand("slot=4/node")
    [{'type': 'slot', 'count': 4, 'label': 'default', 'with': [{'type': 'node', 'count': 1}]}]
    >>> collapse(expand("slot=3-30/node{-x}"))
    'slot=3-30/node{-x}'

The grammar is grammars/shape.lark; counts are read by the idset and range
grammars through :mod:`jobspec_lsp.notations.formats`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from lark import Token, Tree

from jobspec_lsp.notations import formats

DEFAULT_LABEL = "default"
# the order keys take in an expanded vertex (the formatter's canonical order)
VERTEX_ORDER = ("type", "count", "unit", "label", "exclusive", "id")


class ShapeError(ValueError):
    """A shape that cannot be read (offsets into the shape string) or a
    resources list that cannot be written as a shape (``path`` names the vertex)."""

    def __init__(
        self,
        message: str,
        start: int = 0,
        end: int | None = None,
        expected: Iterable[str] = (),
        path: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.start = start
        self.end = start if end is None else end
        self.expected = list(expected)
        self.path = path


# (type, type token, count, label, items, children, slash seen), as _vertex reads it
_Vertex = tuple[Any, ...]
# a lark tree or token: the grammar fixes its shape, which lark's types cannot say
Node = Any


# --------------------------------------------------------------------------- expand
def parse_tree(text: str) -> Node:
    try:
        return formats._parse("shape", text)
    except formats.FormatError as err:
        msg = err.message if text else "the shape is empty; expected a resource type such as 'node'"
        raise ShapeError(msg, err.start, err.end, err.expected) from None


def expand(text: str, label: str = DEFAULT_LABEL) -> list[dict[str, Any]]:
    """Shape string -> RFC 14 resources list (plain data)."""
    tree = parse_tree(text)
    deep = formats.too_deep(tree, formats.MAX_NESTING * 2 + 1)  # a level: two tree levels
    if deep is not None:
        tok = formats.leftmost_token(deep)
        raise ShapeError(
            f"the shape nests more than {formats.MAX_NESTING} levels: jobspec-lsp reads no "
            "deeper (no machine has such a resource graph)",
            tok.start_pos,
            tok.end_pos,
        )
    vertices = _list(tree.children[0], text)
    slots = [v for v in _walk(vertices) if v[0] == "slot"]
    unlabeled = [v for v in slots if v[3] is None]
    if unlabeled and len(slots) > 1:
        tok = unlabeled[0][1]
        raise ShapeError(
            f"this shape has {len(slots)} slots, so each needs a label: write slot{{name}}",
            tok.start_pos,
            tok.end_pos,
        )
    return [_build(v, label) for v in vertices]


def _list(node: Node, text: str) -> list[_Vertex]:
    return [_vertex(v, text) for v in node.children if isinstance(v, Tree)]


def _walk(vertices: list[_Vertex]) -> Iterator[_Vertex]:
    for v in vertices:
        yield v
        yield from _walk(v[5])


def _vertex(node: Node, text: str) -> _Vertex:
    """-> (type, type token, count, label, items, children, slash seen)"""
    type_tok: Any = node.children[0].children[0]  # lark types its positions Optional
    vtype = _type_name(type_tok)
    count, items, children, label, has_with = 1, [], [], None, False
    for child in node.children[1:]:
        if child.data == "count":
            count = _count(child)
        elif child.data == "item_dict":
            items = [c for c in child.children if isinstance(c, Tree)]
        else:
            children = _list(child, text)
            has_with = True
    fields: dict[str, Any] = {}
    if items and vtype == "slot":
        first = items[0]
        if first.data != "bare":
            raise ShapeError(
                "a slot's label must come first in its braces, on its own "
                f"(slot{{name,...}}), not {text[first.meta.start_pos : first.meta.end_pos]!r}",
                first.meta.start_pos,
                first.meta.end_pos,
            )
        label = _key(first.children[0])
        items = items[1:]
    for item in items:
        key_tree = item.children[0]
        key = _key(key_tree)
        if key == "x":
            key = "exclusive"
        tok = _first_token(key_tree)
        if (
            key in fields
            or key in ("type", "count", "with")
            or (key == "label" and vtype == "slot")
        ):
            what = "is given twice" if key in fields else "cannot be set in braces"
            raise ShapeError(f"the key {key!r} {what}", tok.start_pos, tok.end_pos)
        if item.data == "pair":
            fields[key] = _value(item.children[1])
        else:
            fields[key] = item.data != "flag_false"
    if vtype == "slot" and not has_with:
        raise ShapeError(
            "a slot must contain resources: add '/' and what it holds, e.g. slot/core",
            type_tok.end_pos,
            type_tok.end_pos + 1,
        )
    return (vtype, type_tok, count, label, fields, children)


def _type_name(tok: Node) -> str:
    text = str(tok)
    if tok.type == "SHAPE_STRING":
        return str(json.loads(text))
    if tok.type == "SHAPE_SQSTRING":
        return text[1:-1]
    return "slot" if text.lower() == "slot" else text  # Flux's lexer: Slot, SLOT are slot


def _count(node: Node) -> Any:
    tok: Any = node.children[0]  # a SHAPE_COUNT token
    text = str(tok)
    base = tok.start_pos
    if re.fullmatch(r"[0-9]+", text):
        if len(text) > 1 and text[0] == "0":
            raise ShapeError(f"leading zero in count {text!r}", base, base + len(text))
        n = int(text)
        if n < 1:
            raise ShapeError("a count must be at least 1", base, base + len(text))
        return n
    parsed: Any  # a range's mapping, or an idset's runs
    kind: str | None
    try:  # a range first: "3-30" is also an idset, but RFC 46 expands it to a range mapping
        kind, parsed = "range", formats.parse_range(text)
    except formats.FormatError:
        kind = None
    try:
        if kind is None:
            kind, parsed = formats.parse_count_string(text)
    except formats.FormatError as err:
        end = max(err.end, err.start + 1) if err.start < len(text) else err.start
        msg = re.sub(r"at column \d+", f"at column {base + err.start + 1}", err.message)
        raise ShapeError(
            f"bad count {text!r}: {msg}", base + err.start, base + end, err.expected
        ) from None
    if kind == "range":
        if parsed["min"] < 1:
            raise ShapeError("a count range must start at 1 or more", base, base + len(text))
        return parsed
    if not parsed or parsed[0][0] < 1:
        raise ShapeError("a count must be at least 1", base, base + len(text))
    return text


def _first_token(tree: Node) -> Node:
    return next(tree.scan_values(lambda v: isinstance(v, Token)))


def _key(tree: Node) -> str:
    tok = tree.children[0]
    return json.loads(str(tok)) if tok.type == "SHAPE_STRING" else str(tok)


_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?\Z")


def _word(text: str) -> Any:
    if text in ("true", "false"):
        return text == "true"
    if text == "null":
        return None
    if _NUMBER.match(text):
        return float(text) if any(c in text for c in ".eE") else int(text)
    return text


def _value(node: Node) -> Any:
    if isinstance(node, Token):  # pragma: no cover - values are wrapped by the grammar
        return _word(str(node))
    if node.data == "word":
        return _word(str(node.children[0]))
    if node.data == "string":
        return json.loads(str(node.children[0]))
    if node.data == "array":
        return [_value(c) for c in node.children]
    # a nested dictionary in the same unquoted syntax
    out = {}
    for item in node.children:
        if not isinstance(item, Tree):
            continue
        key = _key(item.children[0])
        if key in out:
            tok = _first_token(item)
            raise ShapeError(f"the key {key!r} is given twice", tok.start_pos, tok.end_pos)
        out[key] = _value(item.children[1]) if item.data == "pair" else item.data != "flag_false"
    return out


def _build(v: _Vertex, default_label: str) -> dict[str, Any]:
    vtype, _, count, label, fields, children = v
    out: dict[str, Any] = {"type": vtype, "count": count}
    if vtype == "slot":
        fields = dict(fields, label=label if label is not None else default_label)
    for key in VERTEX_ORDER[2:]:
        if key in fields:
            out[key] = fields[key]
    for key, value in fields.items():
        if key not in out:
            out[key] = value
    if children:
        out["with"] = [_build(c, default_label) for c in children]
    return out


# --------------------------------------------------------------------------- collapse
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]*\Z")
_WORD = re.compile(r"[A-Za-z0-9_.+\-][A-Za-z0-9_.+\-]*\Z")


def collapse(resources: Any, label: str = DEFAULT_LABEL) -> str:
    """Resources list -> the shortest shape that expands back to exactly it."""
    if not isinstance(resources, list) or not resources:
        raise ShapeError("resources must be a non-empty list of vertices", path="resources")
    slots = sum(1 for v in _dict_walk(resources) if isinstance(v, dict) and v.get("type") == "slot")
    shape = _collapse_list(resources, "resources", slots == 1, label)
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
    if not isinstance(vtype, str) or not vtype:
        raise ShapeError(f"{path}: type {vtype!r} cannot be written in a shape", path=path)
    if "count" not in v:
        raise ShapeError(f"{path} ({vtype}) has no count", path=path)
    written = vtype if _NAME.match(vtype) else json.dumps(vtype)
    out = written + _collapse_count(v["count"], f"{path} ({vtype})")
    items = []
    if vtype == "slot":
        lab = v.get("label")
        if not isinstance(lab, str):
            raise ShapeError(f"{path}: a slot needs a string label", path=path)
        others = [k for k in v if k not in ("type", "count", "label", "with")]
        if not (sole_slot and lab == label and not others):
            items.append(_name(lab))
    ordered = [k for k in VERTEX_ORDER if k in v] + [k for k in v if k not in VERTEX_ORDER]
    for key in ordered:  # the order expand() gives, so collapse(expand(s)) is stable
        value = v[key]
        if key in ("type", "count", "with") or (key == "label" and vtype == "slot"):
            continue
        if key == "exclusive" and isinstance(value, bool):
            items.append("x" if value else "-x")
        else:
            items.append(_item(key, value, path))
    if items:
        out += "{" + ",".join(items) + "}"
    if "with" in v:
        kids = v["with"]
        if not isinstance(kids, list) or not kids:
            raise ShapeError(f"{path} ({vtype}): with must be a non-empty list", path=path)
        out += "/" + _collapse_list(kids, f"{path}.with", sole_slot, label)
    elif vtype == "slot":
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
        try:
            formats.parse_range(count)
            kind, runs = "range", None
        except formats.FormatError:
            try:
                kind, runs = formats.parse_count_string(count)
            except formats.FormatError as err:
                raise ShapeError(
                    f"{where}: count {count!r} is not an idset or range", path=where
                ) from err
        if kind == "idset" and not runs:
            raise ShapeError(
                f"{where}: the count string {count!r} is an empty idset, which allows no "
                "count at all; a shape cannot write it",
                path=where,
            )
        if kind == "range" or (runs and len(runs) == 1 and runs[0][0] == runs[0][1]):
            raise ShapeError(
                f"{where}: the count string {count!r} would expand to "
                f"{'a range mapping' if kind == 'range' else 'an integer'}, not a "
                "string; a shape cannot keep it a string",
                path=where,
            )
        return f"={count}"
    raise ShapeError(f"{where}: count {count!r} cannot be written in a shape", path=where)


def _name(key: Any) -> str:
    if not isinstance(key, str):
        raise ShapeError(f"key {key!r} is not a string")
    if _NAME.match(key) and key != "x":
        return key
    return json.dumps(key)


def _item(key: Any, value: Any, where: str) -> str:
    """One brace entry: ``key`` for true, ``-key`` for false, else ``key:value``."""
    if value is True:
        return _name(key)
    if value is False:
        return "-" + _name(key)
    return f"{_name(key)}:{_collapse_value(value, f'{where}.{key}')}"


def _collapse_value(value: Any, where: str) -> str:
    if isinstance(value, dict):
        return "{" + ",".join(_item(k, v, where) for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_collapse_value(v, where) for v in value) + "]"
    if value is None or isinstance(value, (bool, int)):
        return json.dumps(value)
    if isinstance(value, float):
        text = json.dumps(value)
        if _word(text) != value or not _WORD.match(text):
            raise ShapeError(
                f"{where}: the number {value!r} cannot be written in a shape", path=where
            )
        return text
    if isinstance(value, str):
        if _WORD.match(value) and _word(value) == value and type(_word(value)) is str:
            return value
        return json.dumps(value)
    raise ShapeError(
        f"{where}: {type(value).__name__} values cannot be written in a shape", path=where
    )


def shape_of(vertex: dict[str, Any], label: str = DEFAULT_LABEL) -> str:
    """The shape of one vertex and everything under it (for hover)."""
    return collapse([vertex], label)
