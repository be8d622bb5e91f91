"""JS7xx — what stops or limits a conversion.

These are reported by ``jobspec convert`` (and the language server's
conversion actions), never by ``jobspec check``: JS70x by canonical -> V1,
JS71x by the PSI/J conversions.  Each rule's examples name the converter that
reports it (``convert=``, a function of :mod:`jobspec_lsp.convert`), so the
test suite runs them through it.
"""

from __future__ import annotations

from typing import Any

from jobspec_lsp.diagnostics import Family
from jobspec_lsp.jobspec import examples


def _js(resources: str, tasks: str | None = None, version: int = 999, system: str = "") -> str:
    tasks = tasks or "  - command: [app]\n    slot: task\n    count:\n      per_slot: 1\n"
    return examples.jobspec(
        version=version, resources=resources, tasks=tasks, system="    duration: 3600\n" + system
    )


_SLOT = (
    "  - type: slot\n    count: 2\n    label: task\n    with:\n      - type: core\n"
    "        count: 4\n"
)
_GOOD = _js(_SLOT)
_NODES = (
    "  - type: node\n    count: 2\n    with:\n      - type: slot\n        count: 3\n"
    "        label: task\n        with:\n          - type: core\n            count: 1\n"
)
# how a conversion rule's examples are checked (define's example options)
_TO_V1: dict[str, Any] = {"convert": "to_v1"}
_FROM_PSIJ: dict[str, Any] = {"convert": "from_psij_text", "language": "json"}
_TO_PSIJ: dict[str, Any] = {"convert": "to_psij"}

family = Family(applies="convert", good=_GOOD)
RANGE = family.error(
    """JS701 v1-blocked-count: A count V1 cannot express: a range or a set of counts.

    V1 counts are fixed integers. A range (`2-8`, `{min: 2}`) or an idset of acceptable counts
    (`"4,9,16"`) leaves the choice to the scheduler, which V1 cannot say. A string or range
    that allows exactly one count (`"4"`, `{min: 4, max: 4}`) is converted.""",
    bad=_js(
        "  - type: slot\n    count: {min: 2}\n    label: task\n    with:\n      - type: core\n"
        "        count: 4\n"
    ),
    **_TO_V1,
)
TYPE = family.error(
    """JS702 v1-blocked-type: A resource type V1 does not have (socket, memory, cluster, ...).

    V1 knows node, slot, core and gpu only. Dropping the vertex would change the request, so
    the conversion stops instead.""",
    bad=_js(
        "  - type: slot\n    count: 2\n    label: task\n    with:\n      - type: memory\n"
        "        count: 4\n        unit: GB\n"
    ),
    **_TO_V1,
)
GRAPH = family.error(
    """JS703 v1-blocked-graph: A resource graph that is not node>slot>core(,gpu) or
    slot>core(,gpu).

    RFC 25 allows four graphs. A slot of whole nodes (slot>node), several slots, a slot
    without a core, or cores beside a slot have no V1 equivalent. (Cores or gpus with no slot
    at all are put into one, which V1 requires.)""",
    bad=_js(
        "  - type: slot\n    count: 2\n    label: task\n    with:\n      - type: node\n"
        "        count: 1\n"
    ),
    **_TO_V1,
)
TASKS = family.error(
    """JS704 v1-blocked-tasks: More than one task.

    A V1 jobspec runs exactly one task set; which one to keep cannot be guessed.""",
    bad=_js(
        _SLOT,
        "  - command: [a]\n    slot: task\n    count:\n      per_slot: 1\n"
        "  - command: [b]\n    slot: task\n    count:\n      per_slot: 1\n",
    ),
    **_TO_V1,
)
PER_RESOURCE = family.error(
    """JS705 v1-blocked-per-resource: A per_resource task count.

    V1 task counts are per_slot or total; a number of tasks per resource has no V1 spelling
    (flux-core writes it as the shell option `per-resource` instead, which changes who places
    the tasks).""",
    bad=_js(
        _SLOT,
        "  - command: [a]\n    slot: task\n    count:\n"
        "      per_resource: {type: core, count: 1}\n",
    ),
    **_TO_V1,
)
TOP = family.error(
    """JS706 v1-blocked-top: More than one top-level resource.

    V1 resources hold exactly one node or slot at the top.""",
    bad=_js(
        "  - type: slot\n    count: 2\n    label: task\n    with:\n      - type: core\n"
        "        count: 4\n  - type: node\n    count: 1\n"
    ),
    **_TO_V1,
)
KEY = family.error(
    """JS707 v1-blocked-key: A key V1 cannot carry whose removal would change the request.

    `id` (which resources), `exclusive: false` inside a slot (shared cores), and the task keys
    `distribution` and `attributes` mean something V1 cannot say. (`exclusive: true` inside a
    slot is the default and is simply removed.)""",
    bad=_js(
        "  - type: slot\n    count: 2\n    label: task\n    with:\n      - type: core\n"
        '        count: 4\n        id: "0-3"\n'
    ),
    **_TO_V1,
)
NOT_VALID = family.error(
    """JS708 convert-invalid-input: The input has errors; fix them before converting.

    A conversion starts from a valid jobspec: each error `jobspec check` reports is listed
    (with its own code in the message) instead of being carried into the result.""",
    bad=_js(
        "  - type: slot\n    count: 0\n    label: task\n    with:\n      - type: core\n"
        "        count: 4\n"
    ),
    **_TO_V1,
)
PSIJ_LOST = family.warning(
    """JS711 psij-not-carried: `--from psij`: a PSI/J field that jobspec V1 cannot carry.

    memory, reservation_id, custom_attributes, pre/post-launch scripts, the launcher,
    exclusive_node_use without a node count, and inherit_environment: true (PSI/J's default:
    Flux starts tasks with exactly the jobspec's environment, nothing inherited) have no V1
    equivalent. Each is reported instead of being dropped silently.""",
    bad='{"executable": "/bin/app", "inherit_environment": false, "resources": {"memory": 1024}}',
    good='{"executable": "/bin/app", "inherit_environment": false}',
    applies="psij",
    **_FROM_PSIJ,
)
PSIJ_COUNTS = family.error(
    """JS712 psij-inconsistent-counts: PSI/J node_count, processes_per_node and process_count
    disagree.

    PSI/J's ResourceSpecV1 requires process_count = node_count x processes_per_node; which
    number is wrong cannot be guessed.""",
    bad='{"executable": "/bin/app", "inherit_environment": false, '
    '"resources": {"node_count": 2, "process_count": 5}}',
    good='{"executable": "/bin/app", "inherit_environment": false, '
    '"resources": {"node_count": 2, "process_count": 6}}',
    applies="psij",
    **_FROM_PSIJ,
)
PSIJ_FIELD = family.error(
    """JS713 psij-field: A PSI/J field is missing, unknown or has the wrong type.

    A job needs an executable; counts are positive integers; a duration is PSI/J's "N s",
    "hh:mm:ss", "hh:mm" or minutes; paths and names are strings. A key PSI/J does not define
    is refused (psij-python refuses it too), so a typo such as `node_cont` cannot silently
    change the request.""",
    bad='{"arguments": ["x"]}',
    good='{"executable": "/bin/app", "arguments": ["x"], "inherit_environment": false}',
    applies="psij",
    **_FROM_PSIJ,
)
PSIJ_BLOCKED = family.error(
    """JS714 psij-blocked: `--to psij`: a V1 request PSI/J's ResourceSpecV1 cannot express.

    PSI/J runs process_count = node_count x processes_per_node processes with the same cores
    and gpus each. Several tasks sharing one slot (`per_slot` above 1), or a `total` that does
    not fill the slots exactly (`flux submit -N2 -n5` writes 3 slots per node for 5 tasks),
    asks for a different allocation.""",
    bad=_js(_NODES, "  - command: [app]\n    slot: task\n    count:\n      total: 5\n", 1),
    good=_js(_NODES, None, 1),
    applies="psij",
    **_TO_PSIJ,
)
PSIJ_DROPPED = family.warning(
    """JS715 psij-cannot-carry: `--to psij`: a jobspec attribute a PSI/J JobSpec has no field
    for.

    PSI/J carries the command, directory, environment, name, duration, queue, account and the
    stdio paths. Dependencies, constraints, user attributes, other system attributes and shell
    options, and an unlimited duration (PSI/J applies its 10-minute default) are reported
    instead of being dropped silently.""",
    bad=_js(_NODES, None, 1, "    constraints: {properties: [ssd]}\n"),
    good=_js(_NODES, None, 1),
    applies="psij",
    **_TO_PSIJ,
)
