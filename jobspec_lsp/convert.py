"""Conversions: canonical <-> V1 jobspec, PSI/J job descriptions -> jobspec and
back, and a jobspec from a `flux submit`-like command line.

Conversions of a jobspec are text edits on the original, so comments and
layout survive; every change is listed, what cannot be converted is reported
as a positioned blocker (JS7xx), and every result is checked with the same
rules as `jobspec check` before it is returned.
"""

from __future__ import annotations

import json
import math
import re
import shlex
from dataclasses import dataclass, field

from . import analysis, fixes, formats
from .diagnostics import Diagnostic, Severity
from .document import Mapping, Scalar, parse, to_python
from .rules import convert as codes

CANONICAL_VERSION = 999  # what RFC 14's own canonical examples use


@dataclass
class Change:
    message: str
    start: int
    end: int


@dataclass
class Conversion:
    text: str | None
    changes: list[Change] = field(default_factory=list)
    blockers: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.text is not None


def _blocker(code, node_or_span, message, severity=Severity.ERROR) -> Diagnostic:
    if isinstance(node_or_span, tuple):
        start, end = node_or_span
    else:
        start, end = node_or_span.start, node_or_span.end
    return Diagnostic(code, severity, message, start, end)


def _apply(text: str, edits) -> str:
    for e in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        text = text[:e.start] + e.text + text[e.end:]
    return text


def _errors(text, language, version_rules):
    return [d for d in analysis.check(text, language=language, version_rules=version_rules)
            if d.severity == Severity.ERROR]


def _refuse_invalid(doc, language, rules) -> Conversion | None:
    """A conversion starts from a valid jobspec: its errors become JS708 blockers."""
    errors = _errors(doc, language, rules)
    if not errors:
        return None
    return Conversion(None, blockers=[_blocker(codes.NOT_VALID, (e.start, e.end),
                                               f"fix this first: {e.message} ({e.code})")
                                      for e in errors])


# --------------------------------------------------------------------------- canonical -> V1
def to_v1(text: str, language: str = "yaml") -> Conversion:
    doc = parse(text, language)
    refused = _refuse_invalid(doc, language, "canonical")
    if refused is not None:
        return refused
    ctx = analysis.model(doc)
    blockers: list[Diagnostic] = []
    edits: list[fixes.Edit] = []
    changes: list[Change] = []
    root = ctx.root

    if len(ctx.top) > 1:
        blockers.append(_blocker(codes.TOP, ctx.top[1].node.get("type"),
                                 f"V1 has one top-level resource; this jobspec has {len(ctx.top)}"))
    for v in ctx.vertices:
        t = v.node.get("type")
        if v.type not in ("node", "slot", "core", "gpu"):
            blockers.append(_blocker(codes.TYPE, t, f"V1 has no {v.type!r} resources"))
        count = v.node.get("count")
        if isinstance(count, Mapping) or (isinstance(count, Scalar) and isinstance(count.value, str)):
            fixed = _fixed_count(count)
            if fixed is None:
                blockers.append(_blocker(codes.RANGE, count, f"V1 counts are fixed; "
                                         f"{_one_line(count)} leaves the choice to the scheduler"))
            else:
                edits.append(fixes.Edit(count.start, count.end, str(fixed)))
                changes.append(Change(f"count {_src(text, count)} written as the integer {fixed}",
                                      count.start, count.end))
        for key, value in v.node.pairs:
            if key.value == "id":
                blockers.append(_blocker(codes.KEY, key, "V1 cannot say which resources (id)"))
            elif key.value == "exclusive" and v.type != "node":
                if v.type == "slot" and value.value is True:
                    edits.append(_remove_line(doc, key, value))
                    changes.append(Change("removed exclusive: true from the slot (slots are "
                                          "exclusive anyway)", key.start, value.end))
                else:
                    blockers.append(_blocker(codes.KEY, key, f"V1 cannot carry exclusive on a "
                                             f"{v.type}"))
    blockers.extend(_graph_blockers(ctx))
    if len(ctx.tasks) > 1:
        blockers.append(_blocker(codes.TASKS, ctx.tasks[1].pairs[0][0] if isinstance(
            ctx.tasks[1], Mapping) and ctx.tasks[1].pairs else ctx.tasks[1],
            f"V1 runs one task set; this jobspec has {len(ctx.tasks)}"))
    for task in ctx.tasks[:1]:
        if not isinstance(task, Mapping):
            continue
        c = task.get("count")
        if isinstance(c, Mapping) and "per_resource" in c:
            blockers.append(_blocker(codes.PER_RESOURCE, c.key_node("per_resource"),
                                     "V1 task counts are per_slot or total"))
        for key, _ in task.pairs:
            if key.value in ("distribution", "attributes"):
                blockers.append(_blocker(codes.KEY, key, f"V1 tasks cannot carry {key.value}"))
    if blockers:
        return Conversion(None, changes, sorted(blockers, key=Diagnostic.sort_key))

    version = root.get("version")
    if not (isinstance(version, Scalar) and version.value == 1):
        edits.append(fixes.Edit(version.start, version.end, "1"))
        changes.append(Change(f"version {_src(text, version)} -> 1", version.start, version.end))
    attrs = root.get("attributes")
    system = attrs.get("system") if isinstance(attrs, Mapping) else None
    if system is None:
        edits.extend(fixes.add_system_edits(doc))
        changes.append(Change("added attributes.system with duration: 0 (unlimited, the "
                              "instance's limit applies)", attrs.start, attrs.start))
    elif isinstance(system, Mapping) and "duration" not in system:
        edits.extend(fixes.add_duration_edits(doc))
        changes.append(Change("added duration: 0 (unlimited, the instance's limit applies)",
                              system.start, system.start))
    out = _apply(text, edits)
    return _verified(out, language, "v1", changes)


def _verified(out, language, rules, changes) -> Conversion:
    left = _errors(out, language, rules)
    if left:  # a conversion that would not check clean is never returned
        doc = parse(out, language)
        return Conversion(None, changes, [_blocker(codes.NOT_VALID, (0, 0),
                          f"the converted jobspec would still have {e.code} at line "
                          f"{doc.lines.position(e.start).line + 1}: {e.message}") for e in left])
    return Conversion(out, changes)


def _fixed_count(count):
    if isinstance(count, Scalar):
        try:
            kind, parsed = formats.parse_count_string(count.value)
        except formats.FormatError:
            return None
        if kind == "idset" and len(parsed) == 1 and parsed[0][0] == parsed[0][1]:
            return parsed[0][0]
        if kind == "range" and parsed.get("max") == parsed["min"]:
            return parsed["min"]
        return None
    d = to_python(count)
    if isinstance(d, dict) and d.get("max") == d.get("min") and isinstance(d.get("min"), int):
        return d["min"]
    return None


def _src(text, node) -> str:
    return text[node.start:node.end]


def _one_line(node) -> str:
    return json.dumps(to_python(node), separators=(", ", ": "))


def _remove_line(doc, key, value) -> fixes.Edit:
    line = doc.lines.position(key.start).line
    start = doc.lines.line_start(line)
    end_line = doc.lines.position(value.end).line
    end = doc.lines.line_start(end_line) + len(doc.lines.line_text(end_line)) + 1
    return fixes.Edit(start, min(end, len(doc.text)), "")


def _graph_blockers(ctx) -> list[Diagnostic]:
    if not ctx.top:
        return []
    top = ctx.top[0]
    slot = top
    if top.type == "node":
        kids = top.children
        if len(kids) != 1 or kids[0].type != "slot":
            where = kids[1] if len(kids) > 1 else (kids[0] if kids else top)
            return [_blocker(codes.GRAPH, where.node.get("type") or where.node,
                             "in V1 a node holds exactly one slot")]
        slot = kids[0]
    elif top.type != "slot":
        return [_blocker(codes.GRAPH, top.node.get("type") or top.node,
                         f"a V1 jobspec starts with a node or a slot, not a {top.type}")]
    types = sorted(k.type or "" for k in slot.children)
    if types not in (["core"], ["core", "gpu"]) or any(k.children for k in slot.children):
        bad = next((k for k in slot.children if k.type not in ("core", "gpu") or k.children),
                   slot.children[-1] if slot.children else slot)
        return [_blocker(codes.GRAPH, bad.node.get("type") or bad.node,
                         f"a V1 slot holds one core (and optionally one gpu), not "
                         f"{', '.join(t or '?' for t in types) or 'nothing'}")]
    return []


# --------------------------------------------------------------------------- V1 -> canonical
def to_canonical(text: str, language: str = "yaml") -> Conversion:
    doc = parse(text, language)
    refused = _refuse_invalid(doc, language, "v1")
    if refused is not None:
        return refused
    version = doc.root.get("version")
    edits = [fixes.Edit(version.start, version.end, str(CANONICAL_VERSION))]
    changes = [Change(f"version 1 -> {CANONICAL_VERSION} (canonical jobspec; every V1 jobspec "
                      "is already valid canonical jobspec)", version.start, version.end)]
    return _verified(_apply(text, edits), language, "canonical", changes)


# --------------------------------------------------------------------------- PSI/J
PSIJ_DEFAULT_DURATION = 600  # PSI/J's default: 10 minutes


def from_psij_text(text: str, language: str = "json") -> Conversion:
    doc = parse(text, language)
    if doc.root is None:
        return Conversion(None, blockers=list(doc.problems))
    return from_psij(to_python(doc.root), doc)


def from_psij(data: dict, doc=None) -> Conversion:
    """A PSI/J JobSpec (psij-python's JSON serialization, or the same fields in
    YAML) -> a V1 jobspec built the way flux's own tools build one."""
    problems: list[Diagnostic] = []
    warnings: list[Diagnostic] = []

    def where(*path):
        """The span of the deepest key of ``path`` found in the source."""
        node, span = (doc.root if doc is not None else None), (0, 0)
        for p in path:
            if not (isinstance(node, Mapping) and node.key_node(p) is not None):
                break
            key = node.key_node(p)
            span, node = (key.start, key.end), node.get(p)
        return span

    def err(code, msg, *path):
        problems.append(_blocker(code, where(*path), msg))

    def warn(msg, *path):
        warnings.append(_blocker(codes.PSIJ_LOST, where(*path), msg, Severity.WARNING))

    if not isinstance(data, dict):
        return Conversion(None, blockers=[_blocker(codes.PSIJ_FIELD, (0, 0),
                                                   "a PSI/J job spec is a mapping")])
    exe = data.get("executable")
    if not isinstance(exe, str) or not exe:
        err(codes.PSIJ_FIELD, "the job needs an executable (a string)", "executable")
    args = data.get("arguments") or []
    if not isinstance(args, list) or not all(isinstance(a, (str, int, float)) for a in args):
        err(codes.PSIJ_FIELD, "arguments must be a list of strings", "arguments")
        args = []
    res = data.get("resources") or {}
    if not isinstance(res, dict):
        err(codes.PSIJ_FIELD, "resources must be a mapping", "resources")
        res = {}
    counts = {}
    for k in ("node_count", "process_count", "processes_per_node", "cpu_cores_per_process",
              "gpu_cores_per_process"):
        v = res.get(k)
        if v is None:
            continue
        if type(v) is not int or v < (0 if k == "gpu_cores_per_process" else 1):
            err(codes.PSIJ_FIELD, f"{k} must be a positive integer, not {v!r}", "resources", k)
        else:
            counts[k] = v
    nodes, procs, ppn = (counts.get("node_count"), counts.get("process_count"),
                         counts.get("processes_per_node"))
    # ResourceSpecV1: process_count = node_count x processes_per_node; infer the missing one
    if nodes is None and procs is not None and ppn is not None:
        if procs % ppn:
            err(codes.PSIJ_COUNTS, f"process_count {procs} is not a multiple of "
                f"processes_per_node {ppn}", "resources", "process_count")
        nodes = procs // ppn or 1
    if procs is None:
        procs = (nodes or 1) * (ppn or 1)
    if nodes is not None and ppn is not None and nodes * ppn != procs:
        err(codes.PSIJ_COUNTS, f"process_count {procs} != node_count {nodes} x processes_per_node "
            f"{ppn}", "resources", "process_count")
    if nodes is not None and ppn is None and "process_count" in counts and procs % nodes:
        err(codes.PSIJ_COUNTS, f"process_count {procs} is not a multiple of node_count {nodes}",
            "resources", "process_count")
    cores = counts.get("cpu_cores_per_process", 1)
    gpus = counts.get("gpu_cores_per_process", 0)
    exclusive = res.get("exclusive_node_use")
    if exclusive is not None and not isinstance(exclusive, bool):
        err(codes.PSIJ_FIELD, "exclusive_node_use must be true or false", "resources",
            "exclusive_node_use")
    if res.get("memory") is not None:
        warn("V1 jobspec cannot request memory; memory is not carried", "resources", "memory")
    attrs = data.get("attributes") or {}
    duration = PSIJ_DEFAULT_DURATION
    raw = attrs.get("duration") if isinstance(attrs, dict) else None
    if raw is not None:
        secs = _psij_seconds(raw)
        if secs is None:
            err(codes.PSIJ_FIELD, f"duration {raw!r} is not 'N s' or seconds", "attributes",
                "duration")
        else:
            duration = secs
    for k in ("reservation_id", "custom_attributes"):
        if isinstance(attrs, dict) and attrs.get(k):
            warn(f"V1 jobspec has no place for {k}; it is not carried", "attributes", k)
    if data.get("inherit_environment") is False:
        warn("inherit_environment: false cannot be expressed (Flux passes the environment the "
             "jobspec lists); it is not carried", "inherit_environment")
    if problems:
        return Conversion(None, blockers=problems, warnings=warnings)

    js = build_v1(command=[exe, *map(str, args)], nodes=nodes, tasks=procs, cores=cores,
                  gpus=gpus, exclusive=bool(exclusive), duration=duration)
    system = js["attributes"]["system"]
    if data.get("directory"):
        system["cwd"] = str(data["directory"])
    if isinstance(data.get("environment"), dict) and data["environment"]:
        system["environment"] = {str(k): str(v) for k, v in data["environment"].items()}
    if data.get("name"):
        system["job"] = {"name": str(data["name"])}
    if isinstance(attrs, dict):
        if attrs.get("queue_name"):
            system["queue"] = str(attrs["queue_name"])
        account = attrs.get("account") or attrs.get("project_name")
        if account:
            system["bank"] = str(account)
    io_opts = {}
    if data.get("stdin_path"):
        io_opts.setdefault("input", {})["stdin"] = {"type": "file", "path": str(data["stdin_path"])}
    for k, stream in (("stdout_path", "stdout"), ("stderr_path", "stderr")):
        if data.get(k):
            io_opts.setdefault("output", {})[stream] = {"type": "file", "path": str(data[k])}
    if io_opts:
        system["shell"] = {"options": io_opts}
    text = dump(js)
    conv = _verified(text, "yaml", "v1", [])
    conv.warnings = warnings
    return conv


def _psij_seconds(raw):
    if isinstance(raw, (int, float)) and not isinstance(raw, bool) and raw >= 0:
        return raw
    if isinstance(raw, str):
        m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*s?\s*", raw)
        if m:
            v = float(m.group(1))
            return int(v) if v.is_integer() else v
    return None


def to_psij(text: str, language: str = "yaml") -> Conversion:
    """A V1 jobspec -> a PSI/J JobSpec dict (as JSON text) where PSI/J can say it."""
    doc = parse(text, language)
    refused = _refuse_invalid(doc, language, "v1")
    if refused is not None:
        return refused
    js = to_python(doc.root)
    top = js["resources"][0]
    node = top if top["type"] == "node" else None
    slot = node["with"][0] if node else top
    per = {c["type"]: c["count"] for c in slot["with"]}
    task = js["tasks"][0]
    nslots = slot["count"] * (node["count"] if node else 1)
    tcount = task["count"]
    procs = tcount.get("total", nslots * tcount.get("per_slot", 1))
    res = {"__version": 1, "process_count": procs, "cpu_cores_per_process": per.get("core", 1)}
    if per.get("gpu"):
        res["gpu_cores_per_process"] = per["gpu"]
    if node:
        res["node_count"] = node["count"]
        if node.get("exclusive"):
            res["exclusive_node_use"] = True
    system = js["attributes"]["system"]
    out = {"executable": task["command"][0], "arguments": task["command"][1:]}
    if system.get("cwd"):
        out["directory"] = system["cwd"]
    if system.get("environment"):
        out["environment"] = system["environment"]
    if (system.get("job") or {}).get("name"):
        out["name"] = system["job"]["name"]
    out["resources"] = res
    attrs = {"duration": f"{float(system['duration'])} s"} if system.get("duration") else {}
    if system.get("queue"):
        attrs["queue_name"] = system["queue"]
    if system.get("bank"):
        attrs["account"] = system["bank"]
    if attrs:
        out["attributes"] = attrs
    opts = (system.get("shell") or {}).get("options") or {}
    for path, key in ((("input", "stdin"), "stdin_path"), (("output", "stdout"), "stdout_path"),
                      (("output", "stderr"), "stderr_path")):
        v = (opts.get(path[0]) or {}).get(path[1])
        if isinstance(v, dict) and v.get("path"):
            out[key] = v["path"]
    return Conversion(json.dumps(out, indent=2) + "\n")


# --------------------------------------------------------------------------- command line
def build_v1(command, nodes=None, tasks=None, cores=1, gpus=0, exclusive=False, duration=0,
             label="task") -> dict:
    """The V1 jobspec flux's own tools build (flux-core's JobspecV1.from_command)."""
    children = [{"type": "core", "count": cores}]
    if gpus:
        children.append({"type": "gpu", "count": gpus})
    if nodes is not None:
        tasks = tasks if tasks is not None else nodes
        slots = math.ceil(tasks / nodes)
        count = {"total": tasks} if tasks % nodes else {"per_slot": 1}
        slot = {"type": "slot", "count": slots, "label": label, "with": children}
        top = {"type": "node", "count": nodes}
        if exclusive:
            top["exclusive"] = True
        top["with"] = [slot]
    else:
        tasks = tasks if tasks is not None else 1
        count = {"per_slot": 1}
        top = {"type": "slot", "count": tasks, "label": label, "with": children}
    return {"version": 1, "resources": [top],
            "tasks": [{"command": list(command), "slot": label, "count": count}],
            "attributes": {"system": {"duration": duration}}}


def dump(js: dict, fmt: str = "yaml") -> str:
    if fmt == "json":
        return json.dumps(js, indent=2) + "\n"
    import yaml

    from .format import format_text
    return format_text(yaml.safe_dump(js, sort_keys=False, default_flow_style=None,
                                      allow_unicode=True, width=1 << 16))


class UsageError(ValueError):
    pass


def command_line_parser():
    import argparse

    p = argparse.ArgumentParser(prog="jobspec new", add_help=True,
                                description="Build the V1 jobspec `flux submit` would build.")
    p.add_argument("-N", "--nodes", type=int)
    p.add_argument("-n", "--ntasks", type=int)
    p.add_argument("-c", "--cores-per-task", type=int, default=1)
    p.add_argument("-g", "--gpus-per-task", type=int, default=0)
    p.add_argument("-x", "--exclusive", action="store_true")
    p.add_argument("-t", "--time-limit", metavar="DURATION",
                   help="Flux Standard Duration; a bare number means minutes")
    p.add_argument("-q", "--queue")
    p.add_argument("-B", "--bank")
    p.add_argument("--cwd")
    p.add_argument("--env", action="append", default=[], metavar="K=V")
    p.add_argument("--job-name")
    p.add_argument("--output")
    p.add_argument("--error")
    p.add_argument("--input")
    p.add_argument("--setattr", action="append", default=[], metavar="K=V")
    p.add_argument("--dependency", action="append", default=[], metavar="URI")
    p.add_argument("--requires", metavar="CONSTRAINT")
    p.add_argument("--shape", metavar="SHAPE")
    p.add_argument("--format", choices=("yaml", "json"), default="yaml")
    p.add_argument("command", nargs=argparse.REMAINDER)
    return p


def from_command_line(argv: list[str]) -> Conversion:
    """``jobspec new`` options (see :func:`command_line_parser`) -> a V1 jobspec."""
    p = command_line_parser()
    try:
        a = p.parse_args(argv)
    except SystemExit as exc:
        raise UsageError("invalid options") from exc
    command = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not command:
        raise UsageError("give the command to run after the options (-- app args)")
    for name, v in (("-N", a.nodes), ("-n", a.ntasks), ("-c", a.cores_per_task)):
        if v is not None and v < 1:
            raise UsageError(f"{name} must be at least 1")
    if a.gpus_per_task < 0:
        raise UsageError("-g must be 0 or more")
    if a.nodes is not None and a.ntasks is not None and a.ntasks < a.nodes:
        raise UsageError(f"-n {a.ntasks} is fewer tasks than -N {a.nodes} nodes")
    if a.exclusive and a.nodes is None:
        raise UsageError("--exclusive needs -N (flux allocates whole nodes)")
    duration = 0
    if a.time_limit:
        try:
            duration = formats.parse_fsd(a.time_limit)
        except formats.FormatError as err:
            raise UsageError(f"-t {a.time_limit!r}: {err.message}") from None
        if re.fullmatch(r"[0-9.]+", a.time_limit):
            duration *= 60  # like flux: a bare number is minutes
        duration = int(duration) if float(duration).is_integer() else duration
    if a.shape:
        from . import shape
        try:
            resources = shape.expand(a.shape, label="task")
        except shape.ShapeError as err:
            raise UsageError(f"--shape: {err.message}") from None
        js = {"version": 1, "resources": resources,
              "tasks": [{"command": command, "slot": "task",
                         "count": {"total": a.ntasks} if a.ntasks else {"per_slot": 1}}],
              "attributes": {"system": {"duration": duration}}}
    else:
        js = build_v1(command, a.nodes, a.ntasks, a.cores_per_task, a.gpus_per_task,
                      a.exclusive, duration)
    system = js["attributes"]["system"]
    if a.cwd:
        system["cwd"] = a.cwd
    if a.env:
        env = {}
        for item in a.env:
            k, sep, v = item.partition("=")
            if not sep or not k:
                raise UsageError(f"--env {item!r}: expected NAME=VALUE")
            env[k] = v
        system["environment"] = env
    if a.queue:
        system["queue"] = a.queue
    if a.bank:
        system["bank"] = a.bank
    if a.job_name:
        system["job"] = {"name": a.job_name}
    io_opts = {}
    if a.input:
        io_opts.setdefault("input", {})["stdin"] = {"type": "file", "path": a.input}
    if a.output:
        io_opts.setdefault("output", {})["stdout"] = {"type": "file", "path": a.output}
    if a.error:
        io_opts.setdefault("output", {})["stderr"] = {"type": "file", "path": a.error}
    if io_opts:
        system["shell"] = {"options": io_opts}
    if a.dependency:
        system["dependencies"] = [_dependency(d) for d in a.dependency]
    if a.requires:
        system["constraints"] = parse_requires(a.requires)
    for item in a.setattr:
        _setattr(js, item)
    text = dump(js, a.format)
    return _verified(text, a.format, "v1" if not a.shape else "auto", [])


def _dependency(uri: str) -> dict:
    m = re.fullmatch(r"([A-Za-z][\w-]*):([^?]*)(?:\?(.*))?", uri)
    if not m:
        raise UsageError(f"--dependency {uri!r}: expected scheme:value[?key=val&...]")
    dep = {"scheme": m.group(1), "value": m.group(2)}
    for pair in filter(None, (m.group(3) or "").split("&")):
        k, _, v = pair.partition("=")
        dep[k] = v
    return dep


def parse_requires(expr: str) -> dict:
    """A small constraint language: terms separated by spaces are ANDed; `a|b` is OR;
    `-p` or `^p` excludes property p; `host:LIST` and `rank:IDSET` select hosts and ranks."""
    terms = []
    for word in shlex.split(expr):
        alts = [_term(t) for t in word.split("|")]
        terms.append(alts[0] if len(alts) == 1 else {"or": alts})
    if not terms:
        raise UsageError("--requires is empty")
    return terms[0] if len(terms) == 1 else {"and": terms}


def _term(t: str) -> dict:
    if t.startswith(("host:", "hostlist:")):
        return {"hostlist": [t.split(":", 1)[1]]}
    if t.startswith(("rank:", "ranks:")):
        return {"ranks": [t.split(":", 1)[1]]}
    if t.startswith("-"):
        return {"properties": ["^" + t[1:]]}
    if not t:
        raise UsageError("--requires has an empty term")
    return {"properties": [t]}


def _setattr(js: dict, item: str) -> None:
    key, sep, raw = item.partition("=")
    if not key:
        raise UsageError(f"--setattr {item!r}: expected KEY=VALUE")
    try:
        value = json.loads(raw) if sep else 1
    except ValueError:
        value = raw
    parts = key.split(".")
    if parts[0] not in ("system", "user"):
        parts = ["system", *parts]  # like flux: a bare key is a system attribute
    node = js["attributes"]
    for p in parts[:-1]:
        node = node.setdefault(p, {})
        if not isinstance(node, dict):
            raise UsageError(f"--setattr {item!r}: {p} is not a mapping")
    node[parts[-1]] = value
