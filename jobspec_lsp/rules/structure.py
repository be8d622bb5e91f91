"""JS1xx — the shape of the document: top-level keys and resource vertices."""

from __future__ import annotations

from jobspec_lsp.diagnostics import Family
from jobspec_lsp.jobspec import examples, vocabulary
from jobspec_lsp.jobspec.tree import Mapping, Scalar, Sequence
from jobspec_lsp.notations.formats import ascii_int
from jobspec_lsp.rules.base import (
    Context,
    Memo,
    Vertex,
    anchor_for_missing,
    check_keys,
    describe,
    is_bool,
    is_int,
    is_str,
    shown,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

_MIN = examples.jobspec(version=1)

family = Family(rfc="RFC 14", good=_MIN)
NOT_MAPPING = family.error(
    """JS100 root-not-mapping: The document is not a mapping of jobspec keys.

    A jobspec is one mapping with the keys version, resources, tasks and attributes.""",
    bad="- version: 1\n",
)
MISSING_TOP = family.error(
    """JS101 missing-top-level-key: A required top-level key is missing.

    RFC 14 requires version, resources, tasks and attributes; Flux rejects a jobspec without
    any of them.""",
    bad=_MIN.replace("version: 1\n", ""),
)
UNKNOWN_TOP = family.error(
    """JS102 unknown-top-level-key: A top-level key other than version, resources, tasks,
    attributes.

    The top level of a jobspec holds exactly four keys. Anything else is a typo or belongs
    under attributes.user.""",
    bad=_MIN + "comment: hello\n",
    fix="suggestion",
)
BAD_VERSION = family.error(
    """JS103 bad-version: `version` is not an integer of at least 1.

    The version selects the rules the jobspec follows (1 for RFC 25 jobspec V1).""",
    bad=_MIN.replace("version: 1", 'version: "1"'),
    fix="replacement",
    safety="repair",
)
BAD_RESOURCES = family.error(
    """JS104 bad-resources: `resources` is not a non-empty list of resource vertices.

    RFC 14: resources is a strict list with at least one vertex. (A shape string such as
    `slot=4/node` is command-line syntax; the data carries its expansion when it parses.)""",
    bad=_MIN.replace(_MIN[_MIN.index("resources:") : _MIN.index("tasks:")], "resources: []\n"),
    fix="expand-shape",
    safety="repair",
)
BAD_TASKS = family.error(
    """JS105 bad-tasks: `tasks` is not a non-empty list of tasks.

    RFC 14: tasks is a strict list with at least one task.""",
    bad=_MIN.replace(_MIN[_MIN.index("tasks:") : _MIN.index("attributes:")], "tasks: []\n"),
)
BAD_ATTRIBUTES = family.error(
    """JS106 bad-attributes: `attributes` is not a mapping.

    RFC 14 requires attributes to be a dictionary. flux-core rejects `attributes: null`
    (fluxion would accept it); write `attributes: {system: {duration: 0}}` or similar.""",
    bad=_MIN[: _MIN.index("attributes:")] + "attributes:\n",
)
VERTEX_NOT_MAPPING = family.error(
    """JS110 vertex-not-mapping: A resource vertex is not a mapping.

    Each entry of resources (and of with) describes one resource with type and count.""",
    bad=_MIN.replace("      - type: core\n        count: 1\n", "      - core\n"),
)
VERTEX_MISSING = family.error(
    """JS111 vertex-missing-key: A resource vertex lacks `type` or `count`.

    Every resource vertex must say what it is and how many are wanted.""",
    bad=_MIN.replace("        count: 1\n", ""),
)
VERTEX_UNKNOWN = family.error(
    """JS112 vertex-unknown-key: A resource vertex has a key RFC 14 does not define.

    A vertex may hold only type, count, unit, exclusive, with, label and id; other keys are
    typos (`lable`) or unsupported and make Flux reject the jobspec.""",
    bad=_MIN.replace("label: task", "lable: task\n    label: task"),
    fix="suggestion",
)
VERTEX_FIELD_TYPE = family.error(
    """JS113 vertex-field-type: A vertex field has the wrong type.

    type, unit, label and id are strings; exclusive is a boolean.""",
    bad=_MIN.replace("label: task", 'label: task\n    exclusive: "true"'),
    fix="replacement",
    safety="repair",
)
BAD_WITH = family.error(
    """JS114 bad-with: `with` is not a non-empty list of vertices.

    `with` lists the resources contained in this one; an empty or scalar `with` is meaningless
    and rejected.""",
    bad=_MIN.replace("    with:\n      - type: core\n        count: 1\n", "    with: []\n"),
)

TOP_KEYS = vocabulary.keys("root")
VERTEX_KEYS = vocabulary.keys("vertex")


def check(ctx: Context) -> None:
    """The top level: a mapping of the four keys, each of its form; the resource
    vertices walked (``ctx.vertices``, ``ctx.top``) and the tasks found (``ctx.tasks``)
    for the other families."""
    root = ctx.doc.root
    if root is None:
        return
    if not isinstance(root, Mapping):
        return _not_a_mapping(ctx, root)
    ctx.root = root
    _check_top_keys(ctx, root)
    _check_version(ctx, root)
    _check_resources(ctx, root)
    _check_tasks(ctx, root)
    pair = root.pair("attributes")
    if pair is not None and not isinstance(pair[1], Mapping):
        ctx.report(
            BAD_ATTRIBUTES,
            pair,
            f"attributes must be a mapping (with system and/or user), not {describe(pair[1])}",
        )


def _not_a_mapping(ctx: Context, root: Any) -> None:
    """JS100, on the root's first line."""
    line = ctx.doc.lines.position(root.start).line
    eol = ctx.doc.lines.line_start(line) + len(ctx.doc.lines.line_text(line))
    ctx.report(
        NOT_MAPPING,
        (root.start, max(min(eol, root.end), root.start + 1)),
        f"a jobspec is a mapping with the keys version, resources, "
        f"tasks and attributes, not {describe(root)}",
    )


def _check_top_keys(ctx: Context, root: Mapping) -> None:
    missing = check_keys(
        ctx,
        root,
        TOP_KEYS,
        UNKNOWN_TOP,
        "the jobspec (allowed: " + ", ".join(TOP_KEYS) + ")",
        required=vocabulary.required("root"),
    )
    if missing:
        ctx.report(
            MISSING_TOP,
            anchor_for_missing(root),
            f"missing required top-level key{'s' if len(missing) > 1 else ''}: "
            + ", ".join(missing),
            data={"missing": missing},
        )


def _check_version(ctx: Context, root: Mapping) -> None:
    pair = root.pair("version")
    if pair is None:
        return
    key, value = pair
    if not is_int(value) or value.value < 1:
        ctx.report(
            BAD_VERSION,
            pair,
            f"version must be an integer of at least 1, not {shown(ctx, value)}",
            data=_int_fix(value),
        )


def _check_resources(ctx: Context, root: Mapping) -> None:
    """``resources``: a non-empty list, walked vertex by vertex; a shape string is told
    apart (with its expansion as the fix when it is one)."""
    pair = root.pair("resources")
    if pair is None:
        return
    key, value = pair
    if isinstance(value, Sequence) and value.items:
        _walk_vertices(ctx, value, None)
    elif isinstance(value, Sequence):
        ctx.report(BAD_RESOURCES, pair, "resources is empty; request at least one resource")
    elif isinstance(value, Scalar) and isinstance(value.value, str):
        data = _shape_data(value.value)
        msg = (
            "resources is a shape string, which only command-line tools accept; "
            "a jobspec needs the list of vertices"
        )
        if data is None:
            msg += " (and this string is not a valid shape either)"
        ctx.report(BAD_RESOURCES, pair, msg, data=data)
    else:
        ctx.report(
            BAD_RESOURCES,
            pair,
            f"resources must be a list of resource vertices, not {describe(value)}",
        )


def _check_tasks(ctx: Context, root: Mapping) -> None:
    pair = root.pair("tasks")
    if pair is None:
        return
    key, value = pair
    if isinstance(value, Sequence) and value.items:
        ctx.tasks = value.items
    elif isinstance(value, Sequence):
        ctx.report(BAD_TASKS, pair, "tasks is empty; define at least one task")
    else:
        ctx.report(BAD_TASKS, pair, f"tasks must be a list of tasks, not {describe(value)}")


def _int_fix(node: Any) -> Any:

    if isinstance(node, Scalar) and isinstance(node.value, str):
        n = ascii_int(node.value.strip())
        if n is not None and n >= 1:
            return {"replacement": str(n)}
    return None


def _shape_data(text: str) -> Any:
    """The expansion of a shape string, for a quick-fix; None when it is no valid shape."""
    from jobspec_lsp.notations import shape  # deferred: shape loads typing; only for a shape string

    try:
        resources = shape.expand(text)
    except shape.ShapeError:
        return None
    return {"shape": text, "resources": resources}


def _walk_vertices(ctx: Context, seq: Sequence, parent: Vertex | None) -> None:
    if parent is None:  # the top level: each vertex's subtree checked alone, remembered
        memo = Memo(ctx, "structure")
        for i, item in enumerate(seq.items):
            got = memo.get(item, i)
            if got is not None:
                found, vertices = got
                ctx.diagnostics.extend(found)
                ctx.top.append(vertices[0])
                ctx.vertices.extend(vertices)
                continue
            d, v = len(ctx.diagnostics), len(ctx.vertices)
            _walk_items(ctx, seq, parent, i, i + 1)
            if len(ctx.vertices) > v:
                memo.put(item, ctx.diagnostics[d:], i, ctx.vertices[v:])
        memo.done()
        return
    _walk_items(ctx, seq, parent, 0, len(seq.items))


def _walk_items(ctx: Context, seq: Sequence, parent: Vertex | None, lo: int, hi: int) -> None:
    out = ctx.top if parent is None else parent.children
    for i in range(lo, hi):
        item = seq.items[i]
        if not isinstance(item, Mapping):
            ctx.report(
                VERTEX_NOT_MAPPING,
                item,
                f"a resource vertex must be a mapping with type and count, not {describe(item)}",
            )
            continue
        v = Vertex(item, parent, i)
        out.append(v)
        ctx.vertices.append(v)
        _check_vertex_keys(ctx, item)
        _read_vertex_fields(ctx, v, item)
        _walk_with(ctx, v, item)


def _check_vertex_keys(ctx: Context, item: Mapping) -> None:
    missing = check_keys(
        ctx,
        item,
        VERTEX_KEYS,
        VERTEX_UNKNOWN,
        "a resource vertex",
        required=vocabulary.required("vertex"),
    )
    if missing:
        ctx.report(
            VERTEX_MISSING,
            anchor_for_missing(item),
            "resource vertex is missing " + " and ".join(missing),
            data={"missing": missing},
        )


def _read_vertex_fields(ctx: Context, v: Vertex, item: Mapping) -> None:
    """The vertex's ``type`` and ``label`` (kept on ``v``) and its other typed fields,
    each checked for its type."""
    for key, value in item.pairs:
        k = key.value
        if k in ("type", "unit", "label", "id"):
            if not is_str(value):
                ctx.report(
                    VERTEX_FIELD_TYPE,
                    (key, value),
                    f"{k} must be a string, not {describe(value)}",
                )
            elif k == "type":
                if value.value:
                    v.type = value.value
                else:
                    ctx.report(VERTEX_FIELD_TYPE, (key, value), "type must not be empty")
            elif k == "label":
                v.label = value.value
        elif k == "exclusive" and not is_bool(value):
            data = None
            if isinstance(value, Scalar) and str(value.value).lower() in ("true", "false"):
                data = {"replacement": str(value.value).lower()}
            ctx.report(
                VERTEX_FIELD_TYPE,
                (key, value),
                f"exclusive must be true or false, not {describe(value)}",
                data=data,
            )


def _walk_with(ctx: Context, v: Vertex, item: Mapping) -> None:
    """The vertex's ``with``: a non-empty list, walked as ``v``'s children."""
    pair = item.pair("with")
    if pair is None:
        return
    key, value = pair
    if isinstance(value, Sequence) and value.items:
        _walk_vertices(ctx, value, v)
    elif isinstance(value, Mapping):
        ctx.report(
            BAD_WITH,
            pair,
            "with must be a list of vertices; put this vertex in a list (start it with '- ')",
        )
    else:
        what = "empty" if isinstance(value, Sequence) else describe(value)
        ctx.report(BAD_WITH, pair, f"with must be a non-empty list of vertices, not {what}")
