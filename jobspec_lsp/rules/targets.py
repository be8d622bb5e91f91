"""What each real Flux component does with a jobspec: the ``--target`` verdicts.

``rfc`` is the RFC text (the rule families alone). The other targets are the
implementations a user submits to, each described here by what it rejects, as
measured against the real programs (tests/flux holds the tier that checks every
verdict against a real flux-core 0.88 and fluxion 0.54):

- ``flux-core``: flux-core's job-ingest as shipped: its ``jobspec`` validator plugin
  with ``--require-version=1``, then the job manager's checks at submission
  (duration type, dependency schemes).
- ``flux-core-any``: the same ingest configured with
  ``validator-args=--require-version=any``: V1 rules for ``version: 1`` only.
- ``fluxion``: fluxion's own jobspec reader (``flux-jobspec-validate``), what a site
  running the fluxion scheduler refuses once the job reaches it (``rules/fluxion.py``).

What depends on the instance rather than on the file (queue names, the hosts of a
``hostlist`` constraint, job ids a dependency names, limits) is not part of a verdict.

A target changes severities, never what is found: an RFC violation the target
accepts stays reported, as a warning that says so; a rejection the RFC does not
require is an error of the JS0 family naming the implementation.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator

from jobspec_lsp.diagnostics import Diagnostic, Family, Severity
from jobspec_lsp.jobspec import examples
from jobspec_lsp.jobspec.tree import Document, Mapping, Node, Scalar, Sequence, to_python
from jobspec_lsp.notations import formats
from jobspec_lsp.rules import fluxion

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

TARGETS = ("rfc", "flux-core", "flux-core-any", "fluxion")
DEFAULT = "rfc"

NAMES = {
    "flux-core": "flux-core's job-ingest",
    "flux-core-any": "flux-core's job-ingest (--require-version=any)",
    "fluxion": "fluxion's jobspec reader",
}

E = Severity.ERROR

_V1_BODY = examples.jobspec(system="    duration: 3600\n").split("\n", 1)[1]  # no version line

family = Family()
JS001 = family.error(
    """JS001 flux-core-needs-v1: flux-core's job-ingest, as shipped, accepts only jobspec V1
    (version: 1).

    Under `--target flux-core`. A canonical jobspec (any other version) is valid RFC 14, but
    the job-ingest of a flux-core instance as it ships runs its validator with
    `--require-version=1` and refuses it. Either convert the file (`jobspec convert --to v1`,
    when its resources have a V1 form) or submit it to an instance whose ingest is configured
    with `validator-args=--require-version=any` (then check with `--target flux-core-any`).""",
    bad="version: 999\n" + _V1_BODY,
    good="version: 1\n" + _V1_BODY,
    target="flux-core",
)

JS002 = family.error(
    """JS002 flux-core-rejects: flux-core's job-ingest rejects something the RFCs allow or leave
    open.

    Under `--target flux-core` and `--target flux-core-any`. flux-core's ingest checks types
    more strictly than the RFC text in places (a `duration` of `true`, a `version` of `1.0`, a
    dependency scheme it has no plugin for, a `singleton` dependency on a job without a name).
    The message says what it objects to, in flux-core's terms.""",
    bad="version: 1\n"
    + _V1_BODY.replace(
        "duration: 3600",
        "duration: 3600\n    dependencies:\n      - {scheme: singleton, value: ''}",
    ),
    good="version: 1\n"
    + _V1_BODY.replace(
        "duration: 3600",
        "duration: 3600\n    "
        "job: {name: nightly}\n    dependencies:\n"
        "      - {scheme: singleton, value: ''}",
    ),
    target="flux-core",
)

JS003 = family.error(
    """JS003 fluxion-rejects: fluxion's jobspec reader rejects something the RFCs allow.

    Under `--target fluxion`. fluxion (flux-sched) reads the jobspec again when it schedules
    the job, with a reader of its own that supports less than RFC 14: no `per_resource` task
    counts, no idset or range strings as counts, no `requires` in a resource vertex, one
    operator per constraint mapping, a `+` count with an operand of at least 1 and a `^` count
    with an operand of at least 2, no list or mapping as a vertex's `id`, `label` or `unit`, no
    mapping among a task's attributes. A site running fluxion refuses such a job. The message
    says what it objects to; docs/compatibility.md lists what it reads.""",
    bad="version: 999\n"
    + _V1_BODY.replace("count: {per_slot: 1}", "count: {per_resource: {type: core, count: 1}}"),
    good="version: 999\n" + _V1_BODY,
    target="fluxion",
)


class _Found(Exception):
    pass


def rejections(doc: Document, target: str) -> list[Diagnostic]:
    """The diagnostics for what ``target`` rejects in ``doc`` (empty for ``rfc``)."""
    if target == "rfc" or doc.root is None:
        return []
    check: _Checker
    if target in ("flux-core", "flux-core-any"):
        check = _FluxCore(doc, require_v1=target == "flux-core")
    elif target == "fluxion":
        check = _Fluxion(doc)
    else:
        raise ValueError(f"target must be one of {', '.join(TARGETS)}")
    check.run()
    return check.out


def is_v1(version: Any) -> bool:
    """Whether flux-core's ingest applies V1 rules to a document with this version
    (it compares with ``==``, so ``true`` and ``1.0`` count as 1)."""
    return isinstance(version, (int, float)) and version == 1


# ----------------------------------------------------------------------- helpers
def _val(node: Node | None) -> Any:
    return to_python(node)


def _is_int(v: Any) -> bool:
    return isinstance(v, int)  # booleans count, as in Python


def _is_seq(node: Node | None) -> bool:
    """A JSON array, or a string (both are Python sequences)."""
    return isinstance(node, Sequence) or (isinstance(node, Scalar) and isinstance(node.value, str))


def _items(node: Node | None) -> list[Node]:
    return list(node.items) if isinstance(node, Sequence) else []


class _Checker:
    code = JS002
    name = ""

    def __init__(self, doc: Document):
        self.doc = doc
        self.out: list[Diagnostic] = []

    def reject(self, where: Node | None, message: str, code: str | None = None) -> None:
        node = where if where is not None else self.doc.root
        start, end = (node.start, node.end) if node is not None else (0, 0)
        if isinstance(node, (Mapping, Sequence)) and not node.flow:
            end = start + 1 if end > start else end  # a block collection: its first character
        self.out.append(
            Diagnostic(code or self.code, E, f"{self.name} rejects this: {message}", start, end)
        )


# ---------------------------------------------------------------- flux-core ingest
class _FluxCore(_Checker):
    code = JS002

    def __init__(self, doc: Document, require_v1: bool):
        super().__init__(doc)
        self.require_v1 = require_v1
        self.name = NAMES["flux-core" if require_v1 else "flux-core-any"]

    def run(self) -> None:
        root = self.doc.root
        if not isinstance(root, Mapping):
            self.reject(root, "the top level must be a mapping")
            return
        for key in ("resources", "tasks", "version", "attributes"):
            if key not in root:
                self.reject(root, f"missing key ({key})")
        for k, _ in root.pairs:
            if not (
                isinstance(k, Scalar) and k.value in ("resources", "tasks", "version", "attributes")
            ):
                self.reject(k, f"extraneous key ({_val(k)})")
        if any(k not in root for k in ("resources", "tasks", "version", "attributes")):
            return
        version = root.get("version")
        v = _val(version)
        v1 = self.require_v1 or is_v1(v)
        if v1 and v != 1:
            if self.require_v1:
                self.out.append(
                    Diagnostic(
                        JS001,
                        E,
                        f"flux-core's job-ingest, as shipped, accepts only jobspec V1: "
                        f"this is version {v!r}; convert it (jobspec convert --to v1) or submit to "
                        "an instance whose ingest has validator-args=--require-version=any",
                        version.start,
                        version.end,
                    )
                )
            else:
                self.reject(version, "version must be 1")
        self.structure(root, v1)

    def structure(self, root: Mapping, v1: bool) -> None:
        resources, tasks = root.get("resources"), root.get("tasks")
        attributes, version = root.get("attributes"), root.get("version")
        if not _is_seq(resources):
            self.reject(resources, "resources must be a sequence")
        if not _is_seq(tasks):
            self.reject(tasks, "tasks must be a sequence")
        if not isinstance(attributes, Mapping):
            self.reject(attributes, "attributes must be a mapping")
        vv = _val(version)
        if not _is_int(vv):
            self.reject(version, "version must be an integer")
        elif vv < 1:
            self.reject(version, "version must be >= 1")
        if isinstance(resources, Scalar) and isinstance(resources.value, str) and resources.value:
            self.reject(resources, "resource must be a mapping")
        for res in self.walk(_items(resources)):
            self.resource(res, v1)
        if isinstance(tasks, Scalar) and isinstance(tasks.value, str) and tasks.value:
            self.reject(tasks, "task must be a mapping")
        for task in _items(tasks):
            self.task(task, v1)
        if isinstance(attributes, Mapping):
            self.attributes(attributes, v1)

    def walk(self, nodes: list[Node]) -> Iterator[Node]:
        for res in nodes:
            yield res
            if isinstance(res, Mapping) and "with" in res:
                children = res.get("with")
                if isinstance(children, Sequence):
                    yield from self.walk(children.items)
                elif isinstance(children, Mapping):
                    for k, _ in children.pairs:  # iterating a mapping gives its keys
                        yield k
                elif isinstance(children, Scalar) and isinstance(children.value, str):
                    if children.value:  # iterating a string gives its characters
                        yield children
                else:  # a number, a boolean or null cannot be iterated
                    self.reject(children, "'with' must be a list of resources")

    def resource(self, res: Node, v1: bool) -> None:
        if not isinstance(res, Mapping):
            self.reject(res, "resource must be a mapping")
            return
        rtype = res.get("type")
        if rtype is None:
            self.reject(res, "type is a required key for resources")
        elif not isinstance(_val(rtype), str):
            self.reject(rtype, "type must be a string")
        count = res.get("count")
        if count is None:
            self.reject(res, "count is a required key for resources")
        elif isinstance(count, Mapping):
            self.complex_range(count, _val(count))
        elif isinstance(count, Scalar) and isinstance(count.value, str):
            self.count_string(count)
        elif not (isinstance(count, Scalar) and _is_int(count.value)):
            self.reject(count, "count must be an int or mapping")
        else:
            if _val(rtype) in ("node", "slot", "core") and count.value < 1:
                self.reject(count, "node, slot, or core count must be > 0")
            elif count.value < 0:
                self.reject(count, "count must be >= 0")
        if v1 and count is not None and not (isinstance(count, Scalar) and _is_int(count.value)):
            self.reject(count, "V1 resource counts must be integers")
        for key in ("id", "unit", "label"):
            if key in res and not isinstance(_val(res.get(key)), str):
                self.reject(res.get(key), f"{key} must be a string")
        if "exclusive" in res and _val(res.get("exclusive")) not in (True, False):
            self.reject(res.get("exclusive"), "exclusive must be a boolean")
        if _val(rtype) == "slot" and "label" not in res:
            self.reject(rtype, "slots must have labels")

    def complex_range(self, node: Mapping, d: dict[str, Any]) -> None:
        def bad(key: Any, message: str) -> None:
            self.reject(node.get(key) if key in node else node, message)

        if "min" not in d:
            bad(None, "min must be in range")
            return
        for k, _ in node.pairs:
            if _val(k) not in ("min", "max", "operand", "operator"):
                self.reject(k, f"extraneous key ({_val(k)})")
                return
        for key in ("min", "max", "operand"):
            if key in d:
                if not _is_int(d[key]):
                    return bad(key, f"{key} must be an int")
                if d[key] < 1:
                    return bad(key, f"{key} must be > 0")
        if "max" in d and d["max"] < d["min"]:
            return bad("max", "max must be >= min")
        if ("operand" in d) != ("operator" in d):
            return bad(
                "operand" if "operand" in d else "operator",
                "operand and operator must both be in range if either is",
            )
        if "operator" in d:
            op = d["operator"]
            if not isinstance(op, str) or len(op) != 1:
                return bad("operator", "operator must be a single character str")
            if op not in ("+", "*", "^"):
                return bad("operator", "operator must be one of ['+', '*', '^']")
            if op in ("*", "^") and d["operand"] < 2:
                return bad("operand", "operand must be > 1 for '*' or '^' operator")
            if op == "^" and d["min"] < 2:
                return bad("min", "min must be > 1 for '^' operator")

    def count_string(self, node: Scalar) -> None:
        s = node.value
        try:
            formats.parse_idset(s)
            return
        except formats.FormatError:
            pass
        parts = s.split(":")
        if len(parts) > 3 or ("-" not in parts[0] and "+" not in parts[0]):
            self.reject(node, "count string must be a valid idset or range")
            return
        d: dict[str, Any] = {}
        try:
            if "-" in parts[0]:
                low, _, high = parts[0].partition("-")
                d["max"] = int(high)
            else:
                low = parts[0].rstrip("+")
            d["min"] = int(low)
            if len(parts) > 1:
                d["operand"], d["operator"] = int(parts[1]), "+"
            if len(parts) > 2:
                d["operator"] = parts[2]
        except ValueError:
            self.reject(node, "count string must be a valid idset or range")
            return
        before = len(self.out)
        self.complex_range(Mapping(node.start, node.end, [], {}, True), d)
        for i in range(before, len(self.out)):  # all at the string
            old = self.out[i]
            self.out[i] = Diagnostic(old.code, old.severity, old.message, node.start, node.end)

    def task(self, task: Node, v1: bool) -> None:
        if not isinstance(task, Mapping):
            self.reject(task, "task must be a mapping")
            return
        missing = [k for k in ("command", "slot", "count") if k not in task]
        for key in missing:
            self.reject(task, f"missing key ({key})")
        if missing:
            return
        count = task.get("count")
        if not isinstance(count, Mapping):
            self.reject(count, "count must be a mapping")
        elif len(count.pairs) != 1:
            self.reject(count, "count must have exactly one key set")
        elif not ({"per_slot", "per_resource", "total"} & set(count.keys())):
            self.reject(count, "count per_slot, per_resource, or total must be set")
        else:
            for key in ("total", "per_slot"):
                if key in count:
                    n = _val(count.get(key))
                    if not _is_int(n):
                        self.reject(count.get(key), f"count {key} must be an int")
                    elif n <= 0:
                        self.reject(count.get(key), f"count {key} must be > 0")
            if v1 and "per_resource" in count:
                self.reject(
                    count.key_node("per_resource"),
                    "count per_slot or total must be set (V1 has no per_resource)",
                )
        if not isinstance(_val(task.get("slot")), str):
            self.reject(task.get("slot"), "slot must be a string")
        if "attributes" in task and not isinstance(task.get("attributes"), Mapping):
            self.reject(task.get("attributes"), "attributes must be a mapping")
        command = task.get("command")
        cv = _val(command)
        if isinstance(cv, (list, str, dict)) and len(cv) == 0:
            self.reject(command, "command array cannot have length of zero")
        elif not isinstance(cv, list) or not all(isinstance(x, str) for x in cv):
            self.reject(command, "command must be a list of strings")

    def attributes(self, attributes: Mapping, v1: bool) -> None:
        for k, _ in attributes.pairs:
            if _val(k) not in ("system", "user"):
                self.reject(k, f"extraneous key ({_val(k)})")
        system = attributes.get("system")
        if v1:
            if system is None:
                self.reject(attributes, "attributes.system is a required key")
            elif not isinstance(system, Mapping):
                self.reject(system, "attributes.system must be a mapping")
            elif "duration" not in system:
                self.reject(
                    attributes.key_node("system"), "attributes.system.duration is a required key"
                )
            elif not isinstance(_val(system.get("duration")), numbers.Number):
                self.reject(system.get("duration"), "attributes.system.duration must be a number")
        if system is None:
            return
        if not isinstance(system, Mapping):
            if not v1:  # V1 said so above
                self.reject(system, "attributes.system must be a mapping")
            return
        self.dependencies(system.get("dependencies"), system)
        if "constraints" in system:
            self.constraint(system.get("constraints"))
        duration = system.get("duration")
        if duration is not None and not (
            isinstance(duration, Scalar)
            and isinstance(duration.value, (int, float))
            and not isinstance(duration.value, bool)
        ):
            self.reject(duration, "the job manager reads a duration only as a number of seconds")
        queue = system.get("queue")
        if queue is not None and not isinstance(_val(queue), str):
            self.reject(queue, "the queue must be a string")

    # dependency schemes flux-core 0.88 has plugins for (others: "not supported")
    SCHEMES = (
        "after",
        "afterany",
        "afterok",
        "afternotok",
        "afterexcept",
        "afterstart",
        "begin-time",
        "singleton",
    )

    def dependencies(self, deps: Node | None, system: Mapping) -> None:
        if deps is None:
            return
        if not _is_seq(deps):
            self.reject(deps, "attributes.system.dependencies must be a list")
            return
        if isinstance(deps, Scalar):
            if deps.value:
                self.reject(deps, "each dependency must be a mapping")
            return
        assert isinstance(deps, Sequence)  # _is_seq, and not a scalar
        for dep in deps.items:
            if not isinstance(dep, Mapping):
                self.reject(dep, "each dependency must be a mapping")
                continue
            missing = [k for k in ("scheme", "value") if k not in dep]
            for key in missing:
                self.reject(dep, f"missing key ({key})")
            if missing:
                continue
            scheme, value = dep.get("scheme"), dep.get("value")
            if not isinstance(_val(scheme), str):
                self.reject(scheme, "dependency scheme must be a string")
            elif not isinstance(_val(value), str):
                self.reject(value, "dependency value must be a string")
            elif _val(scheme) not in self.SCHEMES:
                self.reject(
                    scheme,
                    f'dependency scheme "{_val(scheme)}" not supported (it '
                    f"has {', '.join(self.SCHEMES)})",
                )
            elif _val(scheme) == "singleton":
                job = system.get("job")
                if not (isinstance(job, Mapping) and "name" in job):
                    self.reject(
                        scheme, "singleton jobs require a job name (attributes.system.job.name)"
                    )
            elif _val(scheme) == "begin-time":
                try:
                    float(_val(value))
                except ValueError:
                    self.reject(
                        value,
                        f"invalid begin-time={_val(value)}: give the time as "
                        "seconds since the epoch",
                    )

    BAD_PROPERTY = set("&'\"`|()")

    def constraint(self, node: Node | None) -> None:
        if not isinstance(node, Mapping):
            self.reject(node, "constraints must be a mapping")
            return
        for k, args in node.pairs:
            op = _val(k)
            if not isinstance(op, str):
                self.reject(k, f"constraint operation {op} is not a string")
                continue
            if not _is_seq(args):
                self.reject(args, f"argument to constraint {op} must be a sequence")
                continue
            items: list[Node] = _items(args)
            if isinstance(args, Scalar):  # a string: its characters are the items
                items = [Scalar(args.start, args.end, ch, None, None) for ch in args.value]
            if op in ("and", "or", "not"):
                for sub in items:
                    self.constraint(sub)
            elif op == "properties":
                for name in items:
                    v = _val(name)
                    if not isinstance(v, (str, list, dict)):
                        self.reject(name, "a property name must be a string")
                    elif isinstance(v, str) and set(v) & self.BAD_PROPERTY:
                        ch = next(c for c in v if c in self.BAD_PROPERTY)
                        self.reject(name, f"invalid character {ch!r} in property '{v}'")
            elif op == "hostlist":
                for hosts in items:
                    self.formatted(hosts, formats.parse_hostlist, "hostlist")
                    v = _val(hosts)
                    try:
                        why = formats.hostlist_range_problem(v) if isinstance(v, str) else None
                    except formats.FormatError:
                        why = None  # said above
                    if why:
                        self.reject(hosts, why)
            elif op == "ranks":
                for ranks in items:
                    self.formatted(ranks, formats.parse_idset, "idset")
            else:
                self.reject(k, f"unknown constraint operator '{op}'")

    def formatted(self, node: Node, parse: Any, what: str) -> None:
        v = _val(node)
        if not isinstance(v, str):
            self.reject(node, f"a {what} must be a string")
            return
        try:
            parse(v)
        except formats.FormatError as err:
            self.reject(node, f"invalid {what}: {err.message}")


# ------------------------------------------------------------------------- fluxion
class _Fluxion(_Checker):
    code = JS003
    name = NAMES["fluxion"]

    def run(self) -> None:
        fluxion.Reader(self.reject).run(self.doc.root)
