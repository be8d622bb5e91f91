"""PSI/J job descriptions <-> jobspec V1."""

from __future__ import annotations

import difflib
import json
import math
import os
import re
import shlex
from typing import cast

from jobspec_lsp.convert.common import (
    PSIJ_DEFAULT_DURATION,
    Change,
    Conversion,
    _diag,
    _errors,
    _refuse,
    _verified,
    dump,
)
from jobspec_lsp.diagnostics import Diagnostic, Severity
from jobspec_lsp.fluxcli import build
from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.jobspec.tree import Document, Mapping, to_python
from jobspec_lsp.rules import convert as codes
from jobspec_lsp.rules.base import head

# =========================================================================== PSI/J -> V1
PSIJ_SPEC_KEYS = (
    "name",
    "executable",
    "arguments",
    "directory",
    "inherit_environment",
    "environment",
    "stdin_path",
    "stdout_path",
    "stderr_path",
    "resources",
    "attributes",
    "pre_launch",
    "post_launch",
    "launcher",
    "stage_in",
    "stage_out",
    "cleanup",
    "cleanup_flags",
)
PSIJ_RESOURCE_KEYS = (
    "node_count",
    "process_count",
    "processes_per_node",
    "cpu_cores_per_process",
    "gpu_cores_per_process",
    "exclusive_node_use",
    "memory",
    "__version",
)
PSIJ_ATTRIBUTE_KEYS = (
    "duration",
    "queue_name",
    "account",
    "project_name",
    "reservation_id",
    "custom_attributes",
)
_PSIJ_NOT_CARRIED = {
    "stage_in": "file staging has no jobspec V1 field",
    "stage_out": "file staging has no jobspec V1 field",
    "cleanup": "cleanup lists have no jobspec V1 field",
    "cleanup_flags": "cleanup flags have no jobspec V1 field",
}


def load_psij(text: str, language: str | None = None):
    """Read a PSI/J job description (JSON, or the same fields in YAML).
    Returns (data, document); data is None when the text does not parse."""
    if language is None:
        language = "json" if text.lstrip()[:1] == "{" else "yaml"
    doc = parse(text, language)
    return (to_python(doc.root) if doc.root is not None else None), doc


def from_psij_text(
    text: str, language: str | None = "json", environ=None, cwd: str | None = None
) -> Conversion:
    """:func:`from_psij` on JSON or YAML text; ranges point into ``text``."""
    data, doc = load_psij(text, language)
    if data is None:
        return Conversion(None, blockers=list(doc.problems))
    fatal = [p for p in doc.problems if p.severity == Severity.ERROR]
    if fatal:
        return Conversion(None, blockers=fatal)
    return from_psij(data, doc, environ, cwd)


class _Psij:
    """Positions of PSI/J fields in the source (when there is one)."""

    def __init__(self, doc: Document | None):
        self.doc = doc
        self.blockers: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        self.changes: list[Change] = []

    def where(self, *path) -> tuple[int, int]:
        """The key of the deepest field of ``path`` present (the document's first
        character when none is, or (0, 0) without a source)."""
        if self.doc is None or self.doc.root is None:
            return (0, 0)
        node = self.doc.root
        if isinstance(node, Mapping) and node.flow or not isinstance(node, Mapping):
            span = (node.start, min(node.start + 1, len(self.doc.text)))  # the opening brace
        else:
            span = head(node)  # the first key
        for p in path:
            if not (isinstance(node, Mapping) and node.key_node(p) is not None):
                break
            key = node.key_node(p)
            span, node = (key.start, key.end), node.get(p)
        return span

    def error(self, code, message, *path):
        self.blockers.append(Diagnostic(code, Severity.ERROR, message, *self.where(*path)))

    def unknown_fields(self, obj: dict, known, what: str, *path, note: str = "") -> bool:
        """An error at each key of ``obj`` that is not one of ``known`` (``what``
        names the record); True when there was none."""
        unknown = [k for k in obj if k not in known]
        for k in unknown:
            message = f"{k!r} is not a {what} field{note}{_near(k, known)}"
            self.error(codes.PSIJ_FIELD, message, *path, k)
        return not unknown

    def lost(self, message, *path):
        self.warnings.append(
            Diagnostic(codes.PSIJ_LOST, Severity.WARNING, message, *self.where(*path))
        )

    def note(self, message, *path):
        self.changes.append(Change(message, *self.where(*path)))


# PSI/J launchers: how many processes each starts (None: as many as process_count)
PSIJ_LAUNCHERS = {"single": 1, "multiple": None, "mpirun": None, "srun": None, "aprun": None,
                  "jsrun": None}  # fmt: skip


def psij_wrapper(pre: str | None, post: str | None, single: bool = False) -> str:
    """The bash text each task runs to carry what PSI/J's launcher scripts do around the
    program (psij-python's launchers/scripts: bash, ``set -e`` but around the program):
    the pre-launch script sourced first (so what it exports reaches the program; a
    failing command in it fails the task), the program, then the post-launch script;
    the task exits with the program's status unless the post-launch script fails.
    ``single``: only task rank 0 runs anything (the single launcher's one process; the
    other tasks, there because Flux's job shell needs one on every node, end at once)."""
    parts = []
    if single:
        parts.append('[ "$FLUX_TASK_RANK" = 0 ] || exit 0')
    if pre:
        parts += ["set -e", f"source {shlex.quote(pre)}", "set +e"]
    parts.append('"$@"')
    if post:
        parts += ["rc=$?", "set -e", f"source {shlex.quote(post)}", "exit $rc"]
    return "; ".join(parts)


def from_psij(
    data: dict, doc: Document | None = None, environ=None, cwd: str | None = None
) -> Conversion:
    """A PSI/J ``JobSpec`` (psij-python's JSON serialization, or the same fields
    as plain data) -> a V1 jobspec built the way flux-core's tools build one.

    Resources follow PSI/J's ResourceSpecV1: process_count = node_count x
    processes_per_node, the missing one inferred, each defaulting to 1; numbers
    that disagree are an error naming them (JS712).  What V1 cannot carry is a
    warning (JS711), never dropped silently.  ``doc``: the parsed source, for
    ranges (see :func:`from_psij_text`).  ``environ``: the environment
    ``inherit_environment`` (true by default) copies into the jobspec, as `flux submit`
    copies the submitter's; None leaves it out with a warning.  ``cwd``: the directory
    the job is submitted from, which a relative ``directory`` is relative to (as PSI/J's
    executors take it); None makes a relative directory an error."""
    p = _Psij(doc)
    if not isinstance(data, dict):
        p.error(codes.PSIJ_FIELD, "a PSI/J job description is a mapping of JobSpec fields")
        return Conversion(None, blockers=p.blockers)
    p.unknown_fields(data, PSIJ_SPEC_KEYS, "PSI/J JobSpec", note=" (psij-python refuses it too)")
    exe = data.get("executable")
    if not isinstance(exe, str) or not exe:
        p.error(codes.PSIJ_FIELD, "the job needs an executable (a non-empty string)", "executable")
    args = _psij_strings(p, data.get("arguments"), "arguments")
    res = _psij_mapping(p, data.get("resources"), "resources")
    attrs = _psij_mapping(p, data.get("attributes"), "attributes")
    shape = _psij_resources(p, res)
    system: dict = {"duration": _psij_attributes(p, attrs)}

    directory = _psij_string(p, data, "directory")
    if directory is not None:
        if directory.startswith("/"):
            system["cwd"] = directory
        elif cwd is not None:
            system["cwd"] = os.path.normpath(os.path.join(cwd, directory))
            p.note(
                f"directory {directory!r} is relative to where the job is submitted from "
                f"(as PSI/J's executors take it): {system['cwd']} (Flux would take it from "
                "the directory its broker runs in)",
                "directory",
            )
        else:
            p.error(
                codes.PSIJ_FIELD,
                f"directory {directory!r} is relative; a Flux job's "
                "working directory is an absolute path",
                "directory",
            )
    env = data.get("environment")
    if env is not None:
        if not isinstance(env, dict) or not all(
            isinstance(k, str) and isinstance(v, (str, int)) and not isinstance(v, bool)
            for k, v in env.items()
        ):
            p.error(codes.PSIJ_FIELD, "environment must map names to string values", "environment")
        elif env:
            system["environment"] = {k: str(v) for k, v in env.items()}
    inherit = data.get("inherit_environment", True)
    if not isinstance(inherit, bool):
        p.error(
            codes.PSIJ_FIELD, "inherit_environment must be true or false", "inherit_environment"
        )
    elif inherit and environ is not None:
        own = system.get("environment", {})
        system["environment"] = {**{k: str(v) for k, v in environ.items()}, **own}
        p.note(
            f"inherit_environment is true (PSI/J's default): the {len(environ)} variables of "
            "the converting environment are copied into the jobspec, as flux submit copies "
            "the submitter's (set it to false for only the JobSpec's environment)",
            "inherit_environment" if "inherit_environment" in data else "executable",
        )
    elif inherit:
        p.lost(
            "inherit_environment is true (PSI/J's default), but Flux starts tasks with "
            "exactly the jobspec's environment and nothing inherited; list every variable "
            "the job needs under environment (flux submit copies the submitting "
            "environment there)",
            "inherit_environment",
        )
    name = _psij_string(p, data, "name")
    if name is not None:
        system["job"] = {"name": name}
    io_opts: dict = {}
    for key, (group, stream) in (
        ("stdin_path", ("input", "stdin")),
        ("stdout_path", ("output", "stdout")),
        ("stderr_path", ("output", "stderr")),
    ):
        path = _psij_string(p, data, key)
        if path is not None:
            io_opts.setdefault(group, {})[stream] = {"type": "file", "path": path}
            if "{{" in path:
                p.lost(
                    f"{key} {path!r} holds '{{{{': Flux expands {{{{...}}}} in output and "
                    "input paths as a template, so the file will have another name",
                    key,
                )
    if "input" not in io_opts:  # PSI/J reads an unset stdin from /dev/null
        io_opts["input"] = {"stdin": {"type": "file", "path": "/dev/null"}}
        p.note(
            "stdin_path not given: PSI/J gives the program /dev/null, so the tasks read "
            "/dev/null (Flux would hold their input open, and a program reading it would wait)",
            "executable",
        )
    out = io_opts.get("output", {})
    for have, other in (("stdout", "stderr"), ("stderr", "stdout")):
        if have in out and other not in out:  # PSI/J discards an unset stream
            out[other] = {"type": "file", "path": "/dev/null"}
            p.note(
                f"{other}_path not given: PSI/J discards it, so it goes to /dev/null "
                f"(Flux would put it in the {have} file)",
                f"{have}_path",
            )
    if directory is not None and "{{" in directory:
        p.lost("directory holds '{{', which Flux may read as a template", "directory")
    system["shell"] = {"options": {k: io_opts[k] for k in ("input", "output") if k in io_opts}}
    pre = _psij_string(p, data, "pre_launch")
    post = _psij_string(p, data, "post_launch")
    launcher = _psij_string(p, data, "launcher")
    single = False
    if launcher is not None:
        if launcher not in PSIJ_LAUNCHERS:
            p.error(
                codes.PSIJ_FIELD,
                f"launcher {launcher!r} is not a PSI/J launcher{_near(launcher, PSIJ_LAUNCHERS)}",
                "launcher",
            )
        elif PSIJ_LAUNCHERS[launcher] == 1:
            single = True
        elif launcher != "multiple":
            p.note(
                f"launcher {launcher!r}: Flux's job shell starts the processes itself "
                "(an MPI program finds its peers through Flux's PMI)",
                "launcher",
            )
    for key, why in _PSIJ_NOT_CARRIED.items():
        if data.get(key) not in (None, [], {}, ""):
            p.lost(f"{key} is not carried: {why}", key)
    if isinstance(attrs, dict):
        queue = _psij_string(p, attrs, "queue_name", "attributes")
        if queue is not None:
            system["queue"] = queue
        account = _psij_string(p, attrs, "account", "attributes")
        project = _psij_string(p, attrs, "project_name", "attributes")
        if account is not None and project is not None and account != project:
            p.error(
                codes.PSIJ_FIELD,
                f"account {account!r} and the deprecated project_name {project!r} disagree",
                "attributes",
                "project_name",
            )
        elif account is not None or project is not None:
            system["bank"] = account if account is not None else project
            if account is None:
                p.note(
                    "project_name (PSI/J's deprecated name for account) becomes the bank",
                    "attributes",
                    "project_name",
                )
    if p.blockers or shape is None:
        return Conversion(
            None,
            [],
            sorted(p.blockers, key=Diagnostic.sort_key),
            sorted(p.warnings, key=Diagnostic.sort_key),
        )
    nodes, tasks, cores, gpus, exclusive = shape
    one_slot = single and tasks == 1  # the one process is the one task: {total: 1} says so
    single = single and not one_slot
    command = [exe, *args]
    if pre or post or single:
        command = ["/bin/bash", "-c", psij_wrapper(pre, post, single), "psij-launch", *command]
    if pre or post:
        p.note(
            "pre_launch/post_launch: sourced by bash around the program, as PSI/J's launcher "
            "does (exports of the pre-launch script reach the program); PSI/J runs them "
            "once per job, so with several processes they run once per process",
            "pre_launch" if pre else "post_launch",
        )
    if single:  # PSI/J's single launcher: one process, on the job's resources
        p.note(
            f"launcher 'single': one process (task rank 0), with the {tasks} slots reserved; "
            "the other slots' tasks end at once (Flux's job shell needs a task on every node)",
            "launcher",
        )
    js = build.build_v1(
        command, nodes=nodes, tasks=tasks, cores=cores, gpus=gpus, exclusive=exclusive
    )
    if one_slot:
        js["tasks"][0]["count"] = {"total": 1}
    js["attributes"]["system"].update(system)
    text = dump(js)
    return _verified(
        text, "yaml", "v1", p.changes, sorted(p.warnings, key=Diagnostic.sort_key), where=p.where()
    )


def _near(word: str, candidates) -> str:

    close = difflib.get_close_matches(word, candidates, n=1, cutoff=0.7)
    return f"; did you mean {close[0]!r}?" if close else ""


def _psij_string(p: _Psij, data: dict, key: str, *parent):
    v = data.get(key)
    if v is None:
        return None
    if not isinstance(v, str):
        p.error(codes.PSIJ_FIELD, f"{key} must be a string, not {type(v).__name__}", *parent, key)
        return None
    return v


def _psij_strings(p: _Psij, v, key: str) -> list[str]:
    if v is None:
        return []
    if not isinstance(v, list) or not all(
        isinstance(a, (str, int)) and not isinstance(a, bool) for a in v
    ):
        p.error(codes.PSIJ_FIELD, f"{key} must be a list of strings", key)
        return []
    return [str(a) for a in v]


def _psij_mapping(p: _Psij, v, key: str):
    if v is None:
        return {}
    if not isinstance(v, dict):
        p.error(codes.PSIJ_FIELD, f"{key} must be a mapping", key)
        return None
    return v


def _psij_resources(p: _Psij, res):
    """ResourceSpecV1 -> (nodes or None, tasks, cores, gpus, exclusive), or None."""
    if res is None:
        return None
    ok = p.unknown_fields(res, PSIJ_RESOURCE_KEYS, "ResourceSpecV1", "resources")
    version = res.get("__version", 1)
    if version != 1:
        p.error(
            codes.PSIJ_FIELD,
            f"ResourceSpec version {version!r} is not supported (only 1)",
            "resources",
            "__version",
        )
        ok = False
    counts: dict[str, int] = {}
    for k in (
        "node_count",
        "process_count",
        "processes_per_node",
        "cpu_cores_per_process",
        "gpu_cores_per_process",
    ):
        v = res.get(k)
        if v is None:
            continue
        least = 0 if k == "gpu_cores_per_process" else 1
        if type(v) is not int or v < least:
            p.error(
                codes.PSIJ_FIELD,
                f"{k} must be an integer of at least {least}, not {v!r}",
                "resources",
                k,
            )
            ok = False
        else:
            counts[k] = v
    exclusive = res.get("exclusive_node_use", False)
    if not isinstance(exclusive, bool):
        p.error(
            codes.PSIJ_FIELD,
            "exclusive_node_use must be true or false",
            "resources",
            "exclusive_node_use",
        )
        ok = False
    memory = res.get("memory")
    if memory is not None:
        p.lost(
            f"memory ({memory} bytes) is not carried: V1 jobspec cannot request memory "
            "(canonical jobspec can, as a memory vertex)",
            "resources",
            "memory",
        )
    if not ok:
        return None
    n, pc, ppn = (
        counts.get("node_count"),
        counts.get("process_count"),
        counts.get("processes_per_node"),
    )
    where = ("resources", "process_count") if pc is not None else ("resources",)
    problem = None
    if n is not None and pc is not None and ppn is not None:
        if n * ppn != pc:
            problem = f"is not node_count {n} x processes_per_node {ppn} (= {n * ppn})"
    elif pc is not None and ppn is not None:
        if pc % ppn:
            problem = f"is not a multiple of processes_per_node {ppn}, so no node count fits"
        else:
            n = pc // ppn
            p.note(
                f"node_count {n} inferred: process_count {pc} / processes_per_node {ppn}",
                "resources",
                "processes_per_node",
            )
    elif pc is not None and n is not None:
        if pc % n:
            problem = (
                f"is not a multiple of node_count {n}, so the processes cannot be spread evenly"
            )
        else:
            ppn = pc // n
    elif n is not None:
        pc = n * (ppn or 1)
    elif ppn is not None:
        n, pc = 1, ppn
        p.note(
            "node_count 1 assumed: processes_per_node is given without a node count",
            "resources",
            "processes_per_node",
        )
    else:
        pc = pc or 1  # process_count alone (or nothing): the scheduler picks the nodes
    if problem is not None:
        p.error(codes.PSIJ_COUNTS, f"process_count {pc} {problem}", *where)
        return None
    cores = counts.get("cpu_cores_per_process")
    if cores is None:
        cores = 1
        p.note("cpu_cores_per_process not given: 1 core per process", "resources")
    gpus = counts.get("gpu_cores_per_process", 0)
    if exclusive and n is None and pc == 1:
        n = 1
        p.note(
            "exclusive_node_use with one process: node_count 1 (a process runs on one "
            "node), so the node can be marked exclusive",
            "resources",
            "exclusive_node_use",
        )
    elif exclusive and n is None:
        p.lost(
            "exclusive_node_use is not carried: jobspec V1 marks nodes exclusive on a node "
            "vertex, and without node_count or processes_per_node there is none, so the job "
            "gets only its processes' cores, beside other jobs; give node_count to have "
            "whole nodes",
            "resources",
            "exclusive_node_use",
        )
        exclusive = False
    return n, pc, cores, gpus, exclusive


# N may be any number Python writes for a float (psij-python writes the seconds of a
# timedelta with str(): "3600.0", "1e-05")
_PSIJ_SECONDS = re.compile(
    r"\s*((?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)\s*([smh])\s*\Z"
)
_PSIJ_CLOCK = re.compile(r"\s*([0-9]+):([0-9]+)(?::([0-9]+))?\s*\Z")


def psij_duration(raw) -> float | int | None:
    """Seconds from a PSI/J duration: "N s" (psij-python writes "3600.0 s", "2e-05 s"), "N m",
    "N h", "hh:mm:ss", "hh:mm", or a bare integer string (minutes, as
    psij-python reads it).  None when it is none of these."""
    if not isinstance(raw, str):
        return None
    m = _PSIJ_SECONDS.match(raw)
    if m:
        seconds = float(m.group(1)) * {"s": 1, "m": 60, "h": 3600}[m.group(2)]
    elif clock := _PSIJ_CLOCK.match(raw):
        h, mi, s = clock.groups()
        seconds = int(h) * 3600 + int(mi) * 60 + int(s or 0)
    elif raw.strip().isdigit():
        seconds = int(raw) * 60
    else:
        return None
    if not math.isfinite(seconds):
        return None
    return int(seconds) if float(seconds).is_integer() else seconds


def _psij_attributes(p: _Psij, attrs) -> float | int:
    if not isinstance(attrs, dict):
        return PSIJ_DEFAULT_DURATION
    p.unknown_fields(attrs, PSIJ_ATTRIBUTE_KEYS, "JobAttributes", "attributes")
    for k in ("reservation_id", "custom_attributes"):
        if attrs.get(k) not in (None, {}, ""):
            why = (
                "Flux jobspec has no reservation field"
                if k == "reservation_id"
                else "they are meant for a particular PSI/J executor"
            )
            p.lost(f"{k} is not carried: {why}", "attributes", k)
    raw = attrs.get("duration")
    if raw is None:
        p.note(
            f"no duration: PSI/J's default of 10 minutes ({PSIJ_DEFAULT_DURATION} s)", "attributes"
        )
        return PSIJ_DEFAULT_DURATION
    seconds = psij_duration(raw)
    if seconds is None:
        shown = json.dumps(raw) if isinstance(raw, str) else repr(raw)
        p.error(
            codes.PSIJ_FIELD,
            f"duration {shown} is not a PSI/J duration; write "
            '"3600 s", "1:00:00" or "60" (minutes)',
            "attributes",
            "duration",
        )
        return PSIJ_DEFAULT_DURATION
    return seconds


# =========================================================================== V1 -> PSI/J
def to_psij(text: str, language: str = "yaml") -> Conversion:
    """A V1 jobspec -> a PSI/J JobSpec (psij-python's JSON serialization).

    Blocked (JS714) where PSI/J's ResourceSpecV1 asks for a different
    allocation; what a JobSpec has no field for is a warning (JS715)."""
    doc = parse(text, language)  # (offsets after a byte order mark, as `jobspec check`'s)
    errors = _errors(doc, language, "v1")
    if errors:
        return _refuse(errors)
    root = cast(Mapping, doc.root)  # a V1 jobspec: checked above
    js = to_python(root)
    blockers: list[Diagnostic] = []
    warnings: list[Diagnostic] = []

    def dropped(where, message):
        warnings.append(_diag(codes.PSIJ_DROPPED, where, message, Severity.WARNING))

    top_node = root.get("resources").items[0]
    top = js["resources"][0]
    node, slot_node = (top, top["with"][0]) if top["type"] == "node" else (None, top)
    slot_vertex = top_node.get("with").items[0] if node else top_node
    per = {c["type"]: c["count"] for c in slot_node["with"]}
    for vnode in dict.fromkeys([top_node, slot_vertex, *slot_vertex.get("with").items]):
        if "unit" in vnode:
            dropped(vnode.key_node("unit"), "a unit on a V1 vertex has no PSI/J form")
    task_node = root.get("tasks").items[0]
    count_node = task_node.get("count")
    task = js["tasks"][0]
    slots = slot_node["count"]
    nodes = node["count"] if node else None
    total_slots = slots * (nodes or 1)
    count = task["count"]
    if "per_slot" in count and count["per_slot"] != 1:
        blockers.append(
            _diag(
                codes.PSIJ_BLOCKED,
                count_node.key_node("per_slot"),
                f"{count['per_slot']} tasks share each slot; PSI/J gives every "
                "process its own cores (cpu_cores_per_process)",
            )
        )
    single = "total" in count and count["total"] == 1 and total_slots > 1
    if "total" in count and count["total"] != total_slots and not single:
        where = "the scheduler" if nodes is None else f"{nodes} nodes"
        blockers.append(
            _diag(
                codes.PSIJ_BLOCKED,
                count_node.key_node("total"),
                f"{count['total']} tasks in {total_slots} slots over {where}; "
                "PSI/J needs one process per slot (process_count = node_count x "
                "processes_per_node)",
            )
        )
    if blockers:
        return Conversion(None, [], blockers, [])
    resources: dict = {}
    if nodes is not None:
        resources["node_count"] = nodes
        resources["processes_per_node"] = slots
    else:
        resources["process_count"] = slots
    resources["cpu_cores_per_process"] = per["core"]
    if per.get("gpu"):
        resources["gpu_cores_per_process"] = per["gpu"]
    resources["exclusive_node_use"] = bool(node and node.get("exclusive"))
    resources["__version"] = 1
    out: dict = {}
    system = js["attributes"]["system"]
    sys_node = root.get("attributes").get("system")
    job = system.get("job") or {}
    if isinstance(job, dict) and isinstance(job.get("name"), str):
        out["name"] = job["name"]
    command = list(task["command"])
    launch = _psij_unwrap(command)
    if launch is not None:  # the launcher wrapper of from_psij (pre/post-launch, single)
        pre, post, gated, command = launch
        single = single or (gated and total_slots > 1)
        if pre:
            out["pre_launch"] = pre
        if post:
            out["post_launch"] = post
    out["executable"] = command[0]
    if command[1:]:
        out["arguments"] = command[1:]
    if single:
        out["launcher"] = "single"  # one process on all the slots
    if isinstance(system.get("cwd"), str):
        out["directory"] = system["cwd"]
    out["inherit_environment"] = False  # a jobspec's environment is the whole environment
    if system.get("environment"):
        out["environment"] = system["environment"]
    attrs: dict = {}
    duration = system.get("duration")
    if duration:
        # whole seconds as "N s": psij-python 0.9.11 reads its own "600.0 s" as 0 seconds
        whole = float(duration).is_integer()
        attrs["duration"] = f"{int(duration)} s" if whole else f"{float(duration)} s"
    else:
        dropped(
            sys_node.get("duration"),
            "duration 0 (no limit) has no PSI/J form: without a duration PSI/J applies "
            "its 10-minute default; set one in the PSI/J job",
        )
    if isinstance(system.get("queue"), str):
        attrs["queue_name"] = system["queue"]
    if isinstance(system.get("bank"), str):
        attrs["account"] = system["bank"]
    opts = (
        ((system.get("shell") or {}).get("options") or {})
        if isinstance(system.get("shell"), dict)
        else {}
    )
    for (group, stream), key in (
        (("input", "stdin"), "stdin_path"),
        (("output", "stdout"), "stdout_path"),
        (("output", "stderr"), "stderr_path"),
    ):
        v = (opts.get(group) or {}).get(stream) if isinstance(opts.get(group), dict) else None
        if isinstance(v, dict) and v.get("type") == "file" and isinstance(v.get("path"), str):
            if v["path"] == "/dev/null":
                continue  # PSI/J reads an unset stdin from /dev/null, discards unset output
            out[key] = v["path"]
    out["resources"] = resources
    if attrs:
        out["attributes"] = attrs
    _psij_leftovers(root, sys_node, dropped)
    result = json.dumps(out, indent=2, ensure_ascii=False) + "\n"
    return Conversion(result, [], [], sorted(warnings, key=Diagnostic.sort_key))


def _psij_unwrap(command: list) -> tuple[str | None, str | None, bool, list] | None:
    """(pre_launch, post_launch, single, the program's command) when ``command`` is the
    wrapper :func:`psij_wrapper` writes, else None."""
    if len(command) < 5 or command[:2] != ["/bin/bash", "-c"] or command[3] != "psij-launch":
        return None
    m = re.fullmatch(
        r'(\[ "\$FLUX_TASK_RANK" = 0 \] \|\| exit 0; )?'
        r"(?:set -e; source (.+?); set \+e; )?"
        r'"\$@"'
        r"(?:; rc=\$\?; set -e; source (.+); exit \$rc)?",
        command[2],
    )
    if m is None:
        return None
    try:
        pre = shlex.split(m.group(2))[0] if m.group(2) else None
        post = shlex.split(m.group(3))[0] if m.group(3) else None
    except (ValueError, IndexError):
        return None
    single = m.group(1) is not None
    if psij_wrapper(pre, post, single) != command[2]:
        return None
    return pre, post, single, command[4:]


def _psij_leftovers(root: Mapping, sys_node: Mapping, dropped) -> None:
    """Warn about each part of the jobspec a PSI/J JobSpec has no field for."""
    attrs = root.get("attributes")
    for key, _ in attrs.pairs:
        if key.value == "user":
            dropped(key, "user attributes have no PSI/J field")
    carried = {"duration", "cwd", "environment", "queue", "bank", "job", "shell"}
    for key, value in sys_node.pairs:
        k = key.value
        if k not in carried:
            dropped(key, f"attributes.system.{k} has no PSI/J field")
        elif k == "job" and isinstance(value, Mapping):
            for jk, _ in value.pairs:
                if jk.value != "name":
                    dropped(jk, f"job.{jk.value} has no PSI/J field")
        elif k == "shell" and isinstance(value, Mapping):
            _shell_leftovers(value, dropped)


def _shell_leftovers(shell: Mapping, dropped) -> None:
    for key, value in shell.pairs:
        if key.value != "options" or not isinstance(value, Mapping):
            dropped(key, f"shell.{key.value} has no PSI/J field")
            continue
        for okey, ovalue in value.pairs:
            if okey.value not in ("input", "output") or not isinstance(ovalue, Mapping):
                dropped(okey, f"the shell option {okey.value} has no PSI/J field")
                continue
            streams = ("stdin",) if okey.value == "input" else ("stdout", "stderr")
            for skey, svalue in ovalue.pairs:
                if skey.value not in streams or not isinstance(svalue, Mapping):
                    dropped(skey, f"the shell option {okey.value}.{skey.value} has no PSI/J field")
                    continue
                for fkey, fvalue in svalue.pairs:
                    if fkey.value == "type" and fvalue.value != "file":
                        dropped(
                            fkey,
                            f"{okey.value}.{skey.value} of type {fvalue.value!r} is "
                            "not a file; PSI/J only has file paths",
                        )
                    elif fkey.value not in ("type", "path"):
                        dropped(
                            fkey,
                            f"the shell option {okey.value}.{skey.value}."
                            f"{fkey.value} has no PSI/J field",
                        )
