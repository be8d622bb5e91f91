"""The jobspec vocabulary: every key of every jobspec mapping, declared once.

For each kind of mapping (see ``context.kind_of``) its keys, in the order the
formatter writes them, each with its documentation (one line, then the rest),
whether it is required, and whether jobspec V1 (RFC 25) allows it (and on which
resource types). The rules' key checks, completion, hover, the formatter's key
order and the exported JSON Schemas all read it; ``tests/test_vocabulary.py``
checks that they agree.
"""

from __future__ import annotations

from functools import cache

from jobspec_lsp.record import Frozen

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any


class Key(Frozen):
    __slots__ = ("name", "doc", "required", "v1", "v1_types", "flux_core_writes")
    name: str
    doc: str
    required: bool
    v1: bool  # allowed in jobspec V1 (RFC 25)
    v1_types: tuple[str, ...] | None  # in a V1 vertex: only on these types
    # a system attribute RFC 25 does not list but flux-core's own V1 tools write
    flux_core_writes: bool

    def __init__(
        self,
        name: str,
        doc: str,
        required: bool = False,
        v1: bool = True,
        v1_types: tuple[str, ...] | None = None,
        flux_core_writes: bool = False,
    ) -> None:
        put = object.__setattr__
        put(self, "name", name)
        put(self, "doc", doc)
        put(self, "required", required)
        put(self, "v1", v1)
        put(self, "v1_types", v1_types)
        put(self, "flux_core_writes", flux_core_writes)

    @property
    def summary(self) -> str:
        """The first sentence of the documentation."""
        head, dot, _ = self.doc.partition(". ")
        return head + ("." if dot else "")


def _k(name: str, doc: str, **flags: Any) -> Key:
    return Key(name, doc, **flags)


MAPPINGS: dict[str, tuple[Key, ...]] = {
    "root": (
        _k(
            "version",
            "Jobspec version (RFC 14). `1` means jobspec V1 (RFC 25), the simplified form flux-core's job-ingest requires by default; other numbers are canonical jobspec.",
            required=True,
        ),
        _k(
            "resources",
            "The resources the job asks for (RFC 14): a list of resource vertices, each with `type` and `count`, nested with `with`. Slots (`type: slot`) group the resources one task set runs on.",
            required=True,
        ),
        _k(
            "tasks",
            "What to run (RFC 14): a list of tasks, each with a `command`, the `slot` it runs in and a task `count`.",
            required=True,
        ),
        _k(
            "attributes",
            "Everything else about the job (RFC 14): `system` attributes Flux acts on (duration, environment, cwd, queue, dependencies, constraints, ...) and free `user` attributes.",
            required=True,
        ),
    ),
    "vertex": (
        _k(
            "type",
            "The kind of resource: `node`, `slot`, `core`, `gpu`, `socket`, `memory`, ... (RFC 14). `slot` is reserved: it groups resources into a task slot. V1 allows only node, slot, core and gpu.",
            required=True,
        ),
        _k(
            "count",
            'How many of this resource (RFC 14): a positive integer; an idset string of acceptable counts (`"4,9,16"`); a range string (`"2-8"`, `"4+"`); or a range mapping `{min, max, operator, operand}`. V1 takes integers only.',
            required=True,
        ),
        _k(
            "unit",
            "The unit of the count, e.g. `GB` for memory (RFC 14).",
        ),
        _k(
            "label",
            "A name for this vertex, unique in the jobspec (RFC 14). Mandatory on slots: tasks refer to their slot by label.",
            v1_types=("slot",),
        ),
        _k(
            "exclusive",
            "`true` to have this resource allocated to the job alone (RFC 14). Defaults to false outside slots and true for slots and what they contain.",
            v1_types=("node",),
        ),
        _k(
            "id",
            "A set of acceptable resource identifiers, as a string (RFC 14). Not allowed in V1.",
            v1=False,
        ),
        _k(
            "with",
            "The resources this one contains (RFC 14): a list of vertices, e.g. the cores of a slot.",
            v1_types=("node", "slot"),
        ),
    ),
    "count": (
        _k(
            "min",
            "The smallest acceptable count, a positive integer (RFC 14). Alone it means 'at least min'.",
            required=True,
        ),
        _k(
            "max",
            "The largest acceptable count, at least min (RFC 14). Defaults to unbounded.",
        ),
        _k(
            "operator",
            "How to step from min to max (RFC 14): `+` adds, `*` multiplies, `^` raises to a power (then min must be 2 or more).",
        ),
        _k(
            "operand",
            "The step for the operator (RFC 14); at least 2 with `*` and `^`.",
        ),
    ),
    "task": (
        _k(
            "command",
            "The program and its arguments, a list of strings (RFC 14): `[app, --input, data.h5]`.",
            required=True,
        ),
        _k(
            "slot",
            "The label of the slot this task runs in (RFC 14).",
            required=True,
        ),
        _k(
            "count",
            "How many copies run (RFC 14): exactly one of `per_slot`, `per_resource` or `total`.",
            required=True,
        ),
        _k(
            "distribution",
            "A hint for the launcher's task placement, a string (RFC 14).",
            v1=False,
        ),
        _k(
            "attributes",
            "Free-form task attributes (RFC 14), e.g. a per-task `environment`.",
            v1=False,
        ),
    ),
    "task.count": (
        _k(
            "per_slot",
            "Tasks to run in each allocated slot, a positive integer (RFC 14).",
        ),
        _k(
            "per_resource",
            "Tasks per resource of a type inside the slot (RFC 14): `{type: core, count: 1}`. Not in V1.",
            v1=False,
        ),
        _k(
            "total",
            "Tasks in total across all slots, a positive integer (RFC 14); slots may be oversubscribed or left partly empty.",
        ),
    ),
    "task.count.per_resource": (
        _k(
            "type",
            "A resource type that occurs inside the task's slot (RFC 14).",
            required=True,
        ),
        _k(
            "count",
            "Tasks per resource of that type, a positive integer (RFC 14).",
            required=True,
        ),
    ),
    "attributes": (
        _k(
            "system",
            "Attributes Flux acts on (RFC 14): duration, environment, cwd, queue, bank, project, dependencies, constraints, job, shell, files, preemptible-after. Required in V1 (with duration).",
        ),
        _k(
            "user",
            "Free-form attributes for your own tools (RFC 14); Flux does not interpret them.",
        ),
    ),
    "system": (
        _k(
            "duration",
            "The time limit in seconds, a number >= 0 (RFC 14); `0` means unlimited (the instance's default applies). Required in V1. Not a duration string: `3600`, not `1h`.",
        ),
        _k(
            "preemptible-after",
            "Seconds of run time after which the job may be preempted (RFC 14).",
            v1=False,
        ),
        _k(
            "environment",
            "Environment variables for the tasks (RFC 14): names mapped to string values, or null to unset one.",
        ),
        _k(
            "cwd",
            "The absolute working directory of the tasks (RFC 14).",
        ),
        _k(
            "queue",
            "The queue to submit to (RFC 14).",
        ),
        _k(
            "bank",
            "The accounting bank to charge (RFC 14).",
            v1=False,
            flux_core_writes=True,
        ),
        _k(
            "project",
            "The accounting project (RFC 14).",
            v1=False,
            flux_core_writes=True,
        ),
        _k(
            "dependencies",
            'Jobs this one waits for (RFC 26): a list of `{scheme, value}`, e.g. `{scheme: afterok, value: "1234"}`.',
        ),
        _k(
            "constraints",
            'Which resources may be used (RFC 31): `{properties: [ssd]}`, `{hostlist: ["node[1-4]"]}`, combined with and/or/not.',
        ),
        _k(
            "job",
            "Job metadata (RFC 14): string values; `name` is the job's name.",
            v1=False,
            flux_core_writes=True,
        ),
        _k(
            "shell",
            "Job shell settings (RFC 14); `options` holds shell options.",
            v1=False,
            flux_core_writes=True,
        ),
        _k(
            "files",
            "Files to make available to the job (RFC 37 archive); `script` holds a batch script.",
            v1=False,
            flux_core_writes=True,
        ),
    ),
    "dependency": (
        _k(
            "scheme",
            "The kind of dependency (RFC 26): afterstart, afterany, afterok, afternotok, afterexcept, begin-time, singleton (string and fluid in RFC 14 examples).",
            required=True,
        ),
        _k(
            "value",
            "What the scheme applies to, a string: a job ID for the after* schemes, seconds since the epoch for begin-time (RFC 26).",
            required=True,
        ),
        _k(
            "type",
            "For string and fluid dependencies: `in`, `out` or `inout` (RFC 14 example 2.8).",
        ),
        _k(
            "scope",
            "For string and fluid dependencies: `user` or `global`.",
        ),
    ),
    "constraint": (
        _k(
            "properties",
            "Required properties of the resources (RFC 31); `^name` excludes those with the property.",
        ),
        _k(
            "hostlist",
            "Allowed hosts, RFC 29 hostlists such as `node[1-16]` (RFC 31).",
        ),
        _k(
            "ranks",
            "Allowed broker ranks, RFC 22 idsets such as `0-3` (RFC 31).",
        ),
        _k(
            "not",
            "The negation of one constraint (RFC 31).",
        ),
        _k(
            "or",
            "Any of the listed constraints (RFC 31); `or: []` matches everything.",
        ),
        _k(
            "and",
            "All of the listed constraints (RFC 31); `and: []` matches everything.",
        ),
    ),
    "file": (
        _k(
            "path",
            "The file's relative path (list form only; RFC 37).",
        ),
        _k(
            "mode",
            "The file mode, an integer st_mode: 33188 is a regular 0644 file, 33261 a 0755 one (RFC 37).",
        ),
        _k(
            "mtime",
            "Modification time, seconds since the epoch (RFC 37).",
        ),
        _k(
            "ctime",
            "Change time, seconds since the epoch (RFC 37).",
        ),
        _k(
            "size",
            "The decoded content length in bytes (RFC 37).",
        ),
        _k(
            "encoding",
            "How `data` is encoded: `utf-8`, `base64` or `blobvec` (RFC 37).",
        ),
        _k(
            "data",
            "The content: encoded text, a JSON value, or a symlink target (RFC 37).",
        ),
    ),
    "shell": (
        _k(
            "options",
            "Options for the job shell and its plugins, a mapping (RFC 14).",
        ),
    ),
    "job": (
        _k(
            "name",
            "The job's name (RFC 14); by default the command's first word.",
        ),
    ),
}


@cache
def keys(kind: str) -> tuple[str, ...]:
    """The keys of a kind of mapping, in canonical order."""
    return tuple(k.name for k in MAPPINGS.get(kind, ()))


@cache  # asked once per vertex and task: the table does not change
def required(kind: str) -> tuple[str, ...]:
    return tuple(k.name for k in MAPPINGS.get(kind, ()) if k.required)


def v1_keys(kind: str, vertex_type: str | None = None) -> tuple[str, ...]:
    """The keys jobspec V1 allows in a kind of mapping (in a vertex of ``vertex_type``)."""
    return tuple(
        k.name
        for k in MAPPINGS.get(kind, ())
        if k.v1 and (k.v1_types is None or vertex_type is None or vertex_type in k.v1_types)
    )


def key(kind: str | None, name: object) -> Key | None:
    for k in MAPPINGS.get(kind or "", ()):
        if k.name == name:
            return k
    return None
