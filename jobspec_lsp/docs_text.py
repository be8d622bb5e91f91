"""The words hover and completion show: one source for every key's documentation.

``KEYS[kind][key]`` documents ``key`` inside a mapping of that kind (see
``context.kind_of``).  ``VALUES`` documents the values offered for a key.
Texts are the project's own; each cites the RFC it summarises.
"""

from __future__ import annotations

KEYS: dict[str, dict[str, str]] = {
    "root": {
        "version": "Jobspec version (RFC 14). `1` means jobspec V1 (RFC 25), the simplified form "
        "flux-core's job-ingest requires by default; other numbers are canonical jobspec.",
        "resources": "The resources the job asks for (RFC 14): a list of resource vertices, each "
        "with `type` and `count`, nested with `with`. Slots (`type: slot`) group "
        "the resources one task set runs on.",
        "tasks": "What to run (RFC 14): a list of tasks, each with a `command`, the `slot` it "
        "runs in and a task `count`.",
        "attributes": "Everything else about the job (RFC 14): `system` attributes Flux acts on "
        "(duration, environment, cwd, queue, dependencies, constraints, ...) and free "
        "`user` attributes.",
    },
    "vertex": {
        "type": "The kind of resource: `node`, `slot`, `core`, `gpu`, `socket`, `memory`, ... "
        "(RFC 14). `slot` is reserved: it groups resources into a task slot. V1 allows "
        "only node, slot, core and gpu.",
        "count": "How many of this resource (RFC 14): a positive integer; an idset string of "
        'acceptable counts (`"4,9,16"`); a range string (`"2-8"`, `"4+"`); or '
        "a range mapping `{min, max, operator, operand}`. V1 takes integers only.",
        "unit": "The unit of the count, e.g. `GB` for memory (RFC 14).",
        "label": "A name for this vertex, unique in the jobspec (RFC 14). Mandatory on slots: "
        "tasks refer to their slot by label.",
        "exclusive": "`true` to have this resource allocated to the job alone (RFC 14). Defaults "
        "to false outside slots and true for slots and what they contain.",
        "id": "A set of acceptable resource identifiers, as a string (RFC 14). Not allowed in V1.",
        "with": "The resources this one contains (RFC 14): a list of vertices, e.g. the cores "
        "of a slot.",
    },
    "count": {
        "min": "The smallest acceptable count, a positive integer (RFC 14). Alone it means "
        "'at least min'.",
        "max": "The largest acceptable count, at least min (RFC 14). Defaults to unbounded.",
        "operator": "How to step from min to max (RFC 14): `+` adds, `*` multiplies, `^` raises "
        "to a power (then min must be 2 or more).",
        "operand": "The step for the operator (RFC 14); at least 2 with `*` and `^`.",
    },
    "task": {
        "command": "The program and its arguments, a list of strings (RFC 14): "
        "`[app, --input, data.h5]`.",
        "slot": "The label of the slot this task runs in (RFC 14).",
        "count": "How many copies run (RFC 14): exactly one of `per_slot`, `per_resource` or "
        "`total`.",
        "distribution": "A hint for the launcher's task placement, a string (RFC 14).",
        "attributes": "Free-form task attributes (RFC 14), e.g. a per-task `environment`.",
    },
    "task.count": {
        "per_slot": "Tasks to run in each allocated slot, a positive integer (RFC 14).",
        "per_resource": "Tasks per resource of a type inside the slot (RFC 14): "
        "`{type: core, count: 1}`. Not in V1.",
        "total": "Tasks in total across all slots, a positive integer (RFC 14); slots may be "
        "oversubscribed or left partly empty.",
    },
    "task.count.per_resource": {
        "type": "A resource type that occurs inside the task's slot (RFC 14).",
        "count": "Tasks per resource of that type, a positive integer (RFC 14).",
    },
    "attributes": {
        "system": "Attributes Flux acts on (RFC 14): duration, environment, cwd, queue, bank, "
        "project, dependencies, constraints, job, shell, files, preemptible-after. "
        "Required in V1 (with duration).",
        "user": "Free-form attributes for your own tools (RFC 14); Flux does not interpret them.",
    },
    "system": {
        "duration": "The time limit in seconds, a number >= 0 (RFC 14); `0` means unlimited "
        "(the instance's default applies). Required in V1. Not a duration string: "
        "`3600`, not `1h`.",
        "preemptible-after": "Seconds of run time after which the job may be preempted (RFC 14).",
        "environment": "Environment variables for the tasks (RFC 14): names mapped to string "
        "values, or null to unset one.",
        "cwd": "The absolute working directory of the tasks (RFC 14).",
        "queue": "The queue to submit to (RFC 14).",
        "bank": "The accounting bank to charge (RFC 14).",
        "project": "The accounting project (RFC 14).",
        "dependencies": "Jobs this one waits for (RFC 26): a list of `{scheme, value}`, e.g. "
        '`{scheme: afterok, value: "1234"}`.',
        "constraints": "Which resources may be used (RFC 31): `{properties: [ssd]}`, "
        '`{hostlist: ["node[1-4]"]}`, combined with and/or/not.',
        "job": "Job metadata (RFC 14): string values; `name` is the job's name.",
        "shell": "Job shell settings (RFC 14); `options` holds shell options.",
        "files": "Files to make available to the job (RFC 37 archive); `script` holds a batch "
        "script.",
    },
    "dependency": {
        "scheme": "The kind of dependency (RFC 26): afterstart, afterany, afterok, afternotok, "
        "afterexcept, begin-time, singleton (string and fluid in RFC 14 examples).",
        "value": "What the scheme applies to, a string: a job ID for the after* schemes, "
        "seconds since the epoch for begin-time (RFC 26).",
        "type": "For string and fluid dependencies: `in`, `out` or `inout` (RFC 14 example 2.8).",
        "scope": "For string and fluid dependencies: `user` or `global`.",
    },
    "constraint": {
        "properties": "Required properties of the resources (RFC 31); `^name` excludes those "
        "with the property.",
        "hostlist": "Allowed hosts, RFC 29 hostlists such as `node[1-16]` (RFC 31).",
        "ranks": "Allowed broker ranks, RFC 22 idsets such as `0-3` (RFC 31).",
        "not": "The negation of one constraint (RFC 31).",
        "or": "Any of the listed constraints (RFC 31); `or: []` matches everything.",
        "and": "All of the listed constraints (RFC 31); `and: []` matches everything.",
    },
    "file": {
        "path": "The file's relative path (list form only; RFC 37).",
        "mode": "The file mode, an integer st_mode: 33188 is a regular 0644 file, 33261 a 0755 "
        "one (RFC 37).",
        "mtime": "Modification time, seconds since the epoch (RFC 37).",
        "ctime": "Change time, seconds since the epoch (RFC 37).",
        "size": "The decoded content length in bytes (RFC 37).",
        "encoding": "How `data` is encoded: `utf-8`, `base64` or `blobvec` (RFC 37).",
        "data": "The content: encoded text, a JSON value, or a symlink target (RFC 37).",
    },
    "shell": {
        "options": "Options for the job shell and its plugins, a mapping (RFC 14).",
    },
    "job": {
        "name": "The job's name (RFC 14); by default the command's first word.",
    },
}

# Values offered for a key of a kind: (value text, documentation).
VALUES: dict[tuple[str, str], list[tuple[str, str]]] = {
    ("vertex", "type"): [
        ("node", "A compute node."),
        ("slot", "A task slot: the resources one set of tasks runs on."),
        ("core", "A CPU core."),
        ("gpu", "A GPU."),
        ("socket", "A processor socket (canonical only)."),
        ("memory", "Memory, with a unit such as GB (canonical only)."),
        ("cluster", "A cluster (canonical only)."),
        ("switch", "A network switch (canonical only)."),
    ],
    ("vertex", "exclusive"): [
        ("true", "Allocate this resource to the job alone."),
        ("false", "Allow sharing."),
    ],
    ("count", "operator"): [
        ('"+"', "Add the operand: 2, 4, 6, ..."),
        ('"*"', "Multiply by the operand: 2, 4, 8, ..."),
        ('"^"', "Raise to the operand's power: 2, 4, 16, ..."),
    ],
    ("dependency", "scheme"): [
        (s, d)
        for s, d in (
            ("afterok", "Start after the job completed successfully."),
            ("afterany", "Start after the job ended, whatever its result."),
            ("afternotok", "Start after the job failed."),
            ("afterstart", "Start after the job started."),
            ("afterexcept", "Start after the job ended with an exception."),
            ("begin-time", "Start no earlier than the given time (epoch seconds)."),
            ("singleton", "Run one job of this name at a time."),
            ("string", "A named in/out dependency (RFC 14 use case 2.8)."),
            ("fluid", "A dependency on a job ID (RFC 14 use case 2.8)."),
        )
    ],
    ("dependency", "type"): [("in", ""), ("out", ""), ("inout", "")],
    ("dependency", "scope"): [("user", ""), ("global", "")],
    ("file", "encoding"): [
        ("utf-8", "Text."),
        ("base64", "Binary, base64 encoded."),
        ("blobvec", "A list of [offset, size, blobref]."),
    ],
}

V1_TYPES = ("node", "slot", "core", "gpu")

SNIPPET_V1 = """version: 1
resources:
  - type: node
    count: ${1:1}
    with:
      - type: slot
        count: ${2:1}
        label: ${3:task}
        with:
          - type: core
            count: ${4:1}
tasks:
  - command: [${5:app}]
    slot: ${3:task}
    count:
      per_slot: 1
attributes:
  system:
    duration: ${6:3600}
"""
SNIPPET_VERTEX = "type: ${1:core}\ncount: ${2:1}"
SNIPPET_TASK = "command: [${1:app}]\nslot: ${2:task}\ncount:\n  per_slot: ${3:1}"


def key_doc(kind: str | None, key) -> str | None:
    if kind is None or not isinstance(key, str):
        return None
    return KEYS.get(kind, {}).get(key)
