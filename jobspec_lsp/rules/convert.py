"""JS7xx — what stops a conversion (reported by ``jobspec convert`` and the
server's conversion actions, never by ``jobspec check``)."""

from __future__ import annotations

from ..diagnostics import Severity, define

E, W = Severity.ERROR, Severity.WARNING


def _js(resources: str, tasks: str = None) -> str:
    tasks = tasks or "  - command: [app]\n    slot: task\n    count:\n      per_slot: 1\n"
    return (f"version: 999\nresources:\n{resources}tasks:\n{tasks}attributes:\n  system:\n"
            "    duration: 0\n")


_SLOT = ("  - type: slot\n    count: 2\n    label: task\n    with:\n      - type: core\n"
         "        count: 4\n")
_GOOD = _js(_SLOT)

RANGE = define(
    "JS701", "v1-blocked-count", E, "A count V1 cannot express: a range or a set of counts.",
    why="V1 counts are fixed integers. A range (`2-8`, `{min: 2}`) or an idset of acceptable "
        "counts asks the scheduler to choose, which V1 cannot say.",
    bad=_js("  - type: slot\n    count: {min: 2}\n    label: task\n    with:\n      - type: core\n"
            "        count: 4\n"), good=_GOOD, applies="convert")
TYPE = define(
    "JS702", "v1-blocked-type", E, "A resource type V1 does not have (socket, memory, ...).",
    why="V1 knows node, slot, core and gpu only; dropping the vertex would change the request.",
    bad=_js("  - type: slot\n    count: 2\n    label: task\n    with:\n      - type: memory\n"
            "        count: 4\n        unit: GB\n"), good=_GOOD, applies="convert")
GRAPH = define(
    "JS703", "v1-blocked-graph", E, "A resource graph that is not node>slot>core(,gpu) or slot>core(,gpu).",
    why="RFC 25 allows four graphs; a slot of whole nodes (slot>node), several slots, or cores "
        "outside a slot have no V1 equivalent.",
    bad=_js("  - type: slot\n    count: 2\n    label: task\n    with:\n      - type: node\n"
            "        count: 1\n"), good=_GOOD, applies="convert")
TASKS = define(
    "JS704", "v1-blocked-tasks", E, "More than one task.",
    why="A V1 jobspec runs exactly one task set.",
    bad=_js(_SLOT, "  - command: [a]\n    slot: task\n    count:\n      per_slot: 1\n"
            "  - command: [b]\n    slot: task\n    count:\n      per_slot: 1\n"),
    good=_GOOD, applies="convert")
PER_RESOURCE = define(
    "JS705", "v1-blocked-per-resource", E, "A per_resource task count.",
    why="V1 task counts are per_slot or total; tasks per resource have no V1 spelling.",
    bad=_js(_SLOT, "  - command: [a]\n    slot: task\n    count:\n"
            "      per_resource: {type: core, count: 1}\n"), good=_GOOD, applies="convert")
TOP = define(
    "JS706", "v1-blocked-top", E, "More than one top-level resource.",
    why="V1 resources hold exactly one node or slot at the top.",
    bad=_js("  - type: slot\n    count: 2\n    label: task\n    with:\n      - type: core\n"
            "        count: 4\n  - type: node\n    count: 1\n"), good=_GOOD, applies="convert")
KEY = define(
    "JS707", "v1-blocked-key", E, "A key V1 cannot carry whose removal would change the request.",
    why="`id` (which resources), `exclusive: false` on a slot, or task `distribution` and "
        "`attributes` mean something V1 cannot say.",
    bad=_js("  - type: slot\n    count: 2\n    label: task\n    with:\n      - type: core\n"
            "        count: 4\n        id: \"0-3\"\n"), good=_GOOD, applies="convert")
NOT_VALID = define(
    "JS708", "convert-invalid-input", E, "The input has errors; fix them before converting.",
    why="A conversion starts from a valid jobspec: errors (see `jobspec check`) are reported "
        "instead of being carried into the result.",
    bad=_js("  - type: slot\n    count: 0\n    label: task\n    with:\n      - type: core\n"
            "        count: 4\n"), good=_GOOD, applies="convert")
PSIJ_LOST = define(
    "JS711", "psij-not-carried", W, "A PSI/J field that jobspec V1 cannot carry.",
    why="memory, reservation_id, custom_attributes and inherit_environment: false have no V1 "
        "equivalent; they are reported instead of being dropped silently.",
    bad='{"executable": "/bin/app", "resources": {"memory": 1024}}',
    good='{"executable": "/bin/app"}', applies="psij", language="json")
PSIJ_COUNTS = define(
    "JS712", "psij-inconsistent-counts", E, "PSI/J node_count, processes_per_node and process_count disagree.",
    why="process_count must be node_count times processes_per_node; which one is wrong cannot "
        "be guessed.",
    bad='{"executable": "/bin/app", "resources": {"node_count": 2, "process_count": 5}}',
    good='{"executable": "/bin/app", "resources": {"node_count": 2, "process_count": 6}}',
    applies="psij", language="json")
PSIJ_FIELD = define(
    "JS713", "psij-field", E, "A PSI/J field is missing or has the wrong type.",
    why="A job needs an executable; counts are positive integers; durations are 'N s' strings "
        "or seconds; strings are strings.",
    bad='{"arguments": ["x"]}', good='{"executable": "/bin/app", "arguments": ["x"]}',
    applies="psij", language="json")
