"""JS6xx — RFC 25 jobspec V1, applied when `version: 1` (or `--version-rules v1`)."""

from __future__ import annotations

from jobspec_lsp.diagnostics import Family
from jobspec_lsp.jobspec import vocabulary
from jobspec_lsp.jobspec.tree import Mapping, Node, Scalar
from jobspec_lsp.notations.formats import ascii_int
from jobspec_lsp.record import Frozen
from jobspec_lsp.rules.attributes import SYSTEM_KEYS
from jobspec_lsp.rules.base import Context, Vertex, anchor_for_missing, describe, is_str

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

_V1 = """version: 1
resources:
  - type: node
    count: 2
    with:
      - type: slot
        count: 4
        label: task
        with:
          - type: core
            count: 2
tasks:
  - command: [app]
    slot: task
    count:
      per_slot: 1
attributes:
  system:
    duration: 3600
"""


def _v1(old: str, new: str) -> str:
    assert old in _V1
    return _V1.replace(old, new, 1)


family = Family(rfc="RFC 25", applies="v1", good=_V1)
TOP_COUNT = family.error(
    """JS601 v1-one-top-resource: V1 resources hold more than one top-level vertex.

    RFC 25: the resources list has exactly one element, a node or a slot.""",
    bad=_V1.replace(
        "tasks:",
        "  - type: node\n    count: 1\n    with:\n      - type: slot\n"
        "        count: 1\n        label: other\n        with:\n          - type: core\n"
        "            count: 1\ntasks:",
    ),
)
TOP_TYPE = family.error(
    """JS602 v1-top-type: The top V1 resource is neither node nor slot.

    RFC 25: V1 resources start at a node or a slot.""",
    bad=_v1(
        "  - type: node\n    count: 2\n    with:\n      - type: slot\n        count: 4\n"
        "        label: task\n        with:\n          - type: core\n            count: 2\n",
        "  - type: core\n    count: 2\n",
    ),
    good=_v1(
        "  - type: node\n    count: 2\n    with:\n      - type: slot\n        count: 4\n"
        "        label: task\n        with:\n          - type: core\n            count: 2\n",
        "  - type: slot\n    count: 1\n    label: task\n    with:\n      - type: core\n"
        "        count: 2\n",
    ),
)
RESOURCE_TYPE = family.error(
    """JS603 v1-resource-type: A resource type V1 does not allow.

    V1 knows only node, slot, core and gpu; sockets, memory and the like need canonical
    jobspec.""",
    bad=_v1("type: core", "type: socket"),
)
GRAPH = family.error(
    """JS604 v1-graph: The V1 resource graph is not one of slot>core, node>slot>core,
    slot>(core,gpu), node>slot>(core,gpu).

    RFC 25 allows exactly these four shapes. flux-core's job-ingest does not check the shape
    (see docs/compatibility.md; `--target flux-core` makes this a warning), but other V1
    readers such as flux-core's C `flux_jobspec1_check` refuse the rest.""",
    bad=_v1(
        "      - type: slot\n        count: 4\n        label: task\n        with:\n"
        "          - type: core\n            count: 2\n",
        "      - type: core\n        count: 2\n",
    ),
)
COUNT_INT = family.error(
    """JS605 v1-count-integer: A V1 count is not a plain integer.

    V1 counts are fixed integers: no idset or range strings, no range dictionaries.""",
    bad=_v1("count: 2\n    with", 'count: "2"\n    with'),
    fix="replacement",
    safety="repair",
)
ONE_TASK = family.error(
    """JS606 v1-one-task: V1 tasks hold other than exactly one task.

    RFC 25: the tasks list has exactly one task.""",
    bad=_V1.replace(
        "attributes:",
        "  - command: [other]\n    slot: task\n    count:\n      per_slot: 1\nattributes:",
    ),
)
TASK_COUNT = family.error(
    """JS607 v1-task-count: A V1 task count uses per_resource.

    RFC 25 task counts are per_slot or total only.""",
    bad=_v1("      per_slot: 1", "      per_resource: {type: core, count: 1}"),
)
SYSTEM_REQUIRED = family.error(
    """JS608 v1-system-required: V1 `attributes` has no `system` section.

    RFC 25 requires attributes.system (with duration).""",
    bad=_v1("  system:\n    duration: 3600\n", "  user: {}\n"),
    fix="add-system",
    safety="repair",
)
DURATION_REQUIRED = family.error(
    """JS609 v1-duration-required: V1 `attributes.system` has no `duration`.

    RFC 25 makes duration mandatory (0 means unlimited).""",
    bad=_v1("    duration: 3600\n", "    cwd: /tmp\n"),
    fix="add-duration",
    safety="repair",
)
VERTEX_KEY = family.error(
    """JS610 v1-vertex-key: A V1 resource vertex has a key RFC 25 does not allow.

    V1 vertices hold only type, count, unit, with and label (and exclusive on a node).""",
    bad=_v1(
        "type: core\n            count: 2",
        'type: core\n            count: 2\n            id: "0-1"',
    ),
    fix="remove-key",
)
EXCLUSIVE_PLACE = family.error(
    """JS611 v1-exclusive-not-node: `exclusive` on a V1 vertex that is not a node.

    RFC 25 allows exclusive only on node vertices (the RFC's own JSON schema has this
    backwards). Slots are exclusive anyway.""",
    bad=_v1("label: task", "label: task\n        exclusive: true"),
    fix="remove-key",
)
TASK_KEY = family.warning(
    """JS612 v1-task-key: A V1 task has a key other than command, slot and count.

    RFC 25 tasks list only command, slot and count; other keys may be refused or ignored.""",
    bad=_v1("    slot: task\n", "    slot: task\n    distribution: block\n"),
    fix="remove-key",
)
SYSTEM_KEY = family.info(
    """JS613 v1-system-key: A system attribute outside RFC 25's list.

    RFC 25 lists duration, environment, cwd, queue, dependencies and constraints; flux-core's
    own tools also write job, shell, files, bank and project, which are not flagged. Other RFC
    14 system attributes may not be honoured by a V1-only Flux: information only.""",
    bad=_v1("    duration: 3600\n", "    duration: 3600\n    preemptible-after: 60\n"),
)
NODE_EXCLUSIVE = family.info(
    """JS804 flux-core-v1-node-exclusive: `exclusive` on a V1 node, which flux-core's C V1
    checker (not its ingest) refuses.

    RFC 25 allows exclusive on a node; `flux submit -x` writes it and flux-core's job-ingest
    accepts it (tested against real Flux). Only the C library's `flux_jobspec1_check`, which
    some tools call, refuses it.""",
    bad=_v1("    count: 2\n    with:", "    count: 2\n    exclusive: true\n    with:"),
    rfc="RFC 14",
)
VERSION = family.error(
    """JS614 v1-version: V1 rules apply, but `version` is not 1.

    RFC 25 fixes `version: 1`. Reported when V1 rules are forced (`--version-rules v1`) and
    the file says another version: either it is canonical jobspec (check it with the default
    rules), or its version is wrong.""",
    bad=_v1("version: 1", "version: 2"),
)

V1_TYPES = ("node", "slot", "core", "gpu")
V1_TASK_KEYS = vocabulary.v1_keys("task")
V1_SYSTEM_KEYS = vocabulary.v1_keys("system")
# Keys flux-core's own V1 tools write although RFC 25 does not list them: not worth a note.
FLUX_CORE_WRITES = tuple(k.name for k in vocabulary.MAPPINGS["system"] if k.flux_core_writes)
SHAPES = "slot>core, node>slot>core, slot>(core,gpu) or node>slot>(core,gpu)"


def check(ctx: Context) -> None:
    if ctx.root is None:
        return
    version = ctx.root.pair("version")
    if version is not None and isinstance(version[1], Scalar) and version[1].value != 1:
        ctx.report(
            VERSION,
            version,
            f"V1 rules are in force, but version is "
            f"{ctx.source(version[1])}; jobspec V1 has version: 1",
        )
    _check_resources(ctx)
    _check_tasks(ctx)
    _check_attributes(ctx)


def _type_node(v: Any) -> Any:
    return v.node.get("type") or anchor_for_missing(v.node)


def _check_resources(ctx: Context) -> None:
    for v in ctx.vertices:
        t = v.node.get("type")
        if v.type is not None and v.type not in V1_TYPES:
            ctx.report(
                RESOURCE_TYPE,
                t,
                f"V1 allows only node, slot, core and gpu resources, not {v.type!r}",
            )
        for key, _value in v.node.pairs:
            k = key.value
            if k == "exclusive":
                if v.type == "node":
                    ctx.report(
                        NODE_EXCLUSIVE,
                        key,
                        "flux-core's C V1 checker "
                        "(flux_jobspec1_check) refuses exclusive on a node; its "
                        "job-ingest and RFC 25 accept it",
                    )
                elif v.type is not None:
                    ctx.report(
                        EXCLUSIVE_PLACE,
                        key,
                        f"V1 allows exclusive only on a node, not on a {v.type}",
                    )
            elif k == "id":  # other unknown keys are JS112's
                ctx.report(VERTEX_KEY, key, f"{k} is not allowed in a V1 resource vertex")
        count = v.node.get("count")
        if isinstance(count, Mapping) or is_str(count):
            data = None
            n = ascii_int(count.value) if is_str(count) else None
            if n is not None and n >= 1:
                data = {"replacement": str(n)}
            ctx.report(
                COUNT_INT, count, f"V1 counts are plain integers, not {describe(count)}", data=data
            )
    if len(ctx.top) > 1:
        ctx.report(
            TOP_COUNT,
            ctx.top[1].node.get("type") or ctx.top[1].node,
            f"V1 resources hold exactly one top-level node or slot, not {len(ctx.top)}",
        )
    if not ctx.top:
        return
    if any(v.type is None or v.type not in V1_TYPES for v in ctx.vertices):
        return  # a vertex without a type, or one V1 does not know: said once, above or as JS111/JS112
    problem = graph_problem(ctx.top[0])
    if problem is not None:
        if problem.top:
            ctx.report(TOP_TYPE, problem.anchor, problem.message)
        else:
            ctx.report(GRAPH, problem.anchor, f"{problem.message}; allowed graphs: {SHAPES}")


class GraphProblem(Frozen):
    """The first way a resource graph is not one of RFC 25's four."""

    __slots__ = ("anchor", "message", "top", "slot_of_nodes")
    anchor: Node  # the token to blame
    message: str
    top: bool  # the top vertex is a V1 type other than node or slot (JS602)
    slot_of_nodes: bool  # slot>node: whole nodes as the task slot

    def __init__(
        self, anchor: Node, message: str, top: bool = False, slot_of_nodes: bool = False
    ) -> None:
        put = object.__setattr__
        put(self, "anchor", anchor)
        put(self, "message", message)
        put(self, "top", top)
        put(self, "slot_of_nodes", slot_of_nodes)


def graph_problem(top: Vertex) -> GraphProblem | None:
    """The one V1 graph check, shared by the V1 rules (JS602/JS604) and the
    canonical-to-V1 conversion (JS703).  Vertices of types V1 does not know are
    passed over (JS603 and JS702 name them); under a top vertex of such a type
    the first slot is still checked."""
    if top.type not in ("node", "slot"):
        if top.type in V1_TYPES:
            return GraphProblem(
                _type_node(top),
                f"a V1 jobspec starts with a node or a slot, not a {top.type} (wrap it in a slot)",
                top=True,
            )
        slot = next((d for d in top.descendants() if d.type == "slot"), None)
        return _slot_problem(slot) if slot is not None else None
    if top.type == "slot":
        return _slot_problem(top)
    kids = _known(top.children)
    slots = [k for k in kids if k.type == "slot"]
    if len(kids) == 1 and slots:
        return _slot_problem(slots[0])
    if not slots:
        anchor = _type_node(kids[0]) if kids else top.node.get("type") or top.node
    else:
        anchor = _type_node(next(k for k in kids if k is not slots[0]))
    return GraphProblem(
        anchor,
        f"in V1 a node holds exactly one slot, not {_kinds(kids)}",
    )


def _slot_problem(slot: Vertex) -> GraphProblem | None:
    kids = _known(slot.children)
    nodes = [k for k in kids if k.type == "node"]
    if nodes:
        return GraphProblem(
            _type_node(nodes[0]),
            "in V1 a slot holds cores (and gpus), not whole nodes (slot>node)",
            slot_of_nodes=True,
        )
    types = sorted(k.type or "" for k in kids)
    if types not in (["core"], ["core", "gpu"]):
        if len(kids) == len(slot.children) or "core" in types:
            bad = next((k for k in kids if k.type not in ("core", "gpu")), None)
            if bad is None and kids:  # two cores, two gpus, or a gpu without a core
                bad = kids[-1]
            anchor = _type_node(bad) if bad is not None else slot.node.get("type") or slot.node
            return GraphProblem(
                anchor,
                f"in V1 a slot holds one core (and optionally one gpu), not {_kinds(kids)}",
            )
        return None  # only a gpu beside types V1 does not know: those are named already
    for k in kids:
        held = _known(k.children)
        if held:
            return GraphProblem(
                k.node.key_node("with") or _type_node(k),
                f"in V1 a {k.type} contains nothing, not {_kinds(held)}",
            )
    return None


def _known(vertices: Any) -> list[Vertex]:
    return [v for v in vertices if v.type in V1_TYPES]


def _kinds(vertices: Any) -> str:
    return ", ".join(v.type or "?" for v in vertices) or "nothing"


def _check_tasks(ctx: Context) -> None:
    if ctx.tasks and len(ctx.tasks) > 1:
        ctx.report(ONE_TASK, ctx.tasks[1], f"V1 allows exactly one task, not {len(ctx.tasks)}")
    for task in ctx.tasks[:1]:
        if not isinstance(task, Mapping):
            continue
        for key, _ in task.pairs:
            if key.value not in V1_TASK_KEYS and key.value in ("attributes", "distribution"):
                ctx.report(
                    TASK_KEY,
                    key,
                    f"V1 tasks hold only command, slot and count; {key.value} may be refused",
                )
        count = task.get("count")
        if isinstance(count, Mapping) and "per_resource" in count:
            ctx.report(
                TASK_COUNT,
                count.key_node("per_resource"),
                "V1 task counts are per_slot or total, not per_resource",
            )


def _check_attributes(ctx: Context) -> None:
    root = ctx.root
    assert root is not None  # check() returns early without one
    attrs = root.get("attributes")
    if not isinstance(attrs, Mapping):
        return
    system = attrs.get("system")
    if system is None:
        ctx.report(
            SYSTEM_REQUIRED,
            root.key_node("attributes"),
            "V1 requires attributes.system with at least duration",
            data={"insert": "system", "duration": 0},
        )
        return
    if not isinstance(system, Mapping):
        return
    if "duration" not in system:
        ctx.report(
            DURATION_REQUIRED,
            attrs.key_node("system"),
            "V1 requires attributes.system.duration (seconds; 0 means unlimited)",
            data={"insert": "duration", "duration": 0},
        )
    for key, _ in system.pairs:
        if key.value in SYSTEM_KEYS and key.value not in V1_SYSTEM_KEYS + FLUX_CORE_WRITES:
            ctx.report(
                SYSTEM_KEY,
                key,
                f"RFC 25 does not list the system attribute {key.value!r} (flux-core accepts it)",
            )
