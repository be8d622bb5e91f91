"""PSI/J -> jobspec V1: a PSI/J ``JobSpec`` read field by field into the V1 jobspec
flux-core's tools would build, every field either carried, noted or refused.

The reading goes in steps a reader can follow in :func:`from_psij`: the program, the
resources (ResourceSpecV1's counts), the attributes, the directory, the environment,
the standard streams, the launcher, then the jobspec built and checked."""

from __future__ import annotations

import difflib
import json
import os

from jobspec_lsp.convert.common import (
    PSIJ_DEFAULT_DURATION,
    Change,
    Conversion,
    _verified,
    dump,
)
from jobspec_lsp.convert.psij import (
    PSIJ_ATTRIBUTE_KEYS,
    PSIJ_LAUNCHERS,
    PSIJ_NOT_CARRIED,
    PSIJ_RESOURCE_KEYS,
    PSIJ_SPEC_KEYS,
    psij_duration,
    psij_wrapper,
)
from jobspec_lsp.diagnostics import Diagnostic, Severity
from jobspec_lsp.fluxcli import build
from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.jobspec.tree import Document, Mapping, to_python
from jobspec_lsp.rules import convert as codes
from jobspec_lsp.rules.base import head


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
    directory = _directory(p, data, cwd, system)
    _environment(p, data, environ, system)
    name = _psij_string(p, data, "name")
    if name is not None:
        system["job"] = {"name": name}
    streams = _streams(p, data)
    if directory is not None and "{{" in directory:
        p.lost("directory holds '{{', which Flux may read as a template", "directory")
    system["shell"] = {"options": streams}
    launch = _launcher(p, data)
    for key, why in PSIJ_NOT_CARRIED.items():
        if data.get(key) not in (None, [], {}, ""):
            p.lost(f"{key} is not carried: {why}", key)
    if isinstance(attrs, dict):
        _queue_and_bank(p, attrs, system)
    if p.blockers or shape is None:
        return Conversion(
            None,
            [],
            sorted(p.blockers, key=Diagnostic.sort_key),
            sorted(p.warnings, key=Diagnostic.sort_key),
        )
    return _built(p, [exe, *args], shape, launch, system)


def _built(p: _Psij, command: list, shape: tuple, launch: tuple, system: dict) -> Conversion:
    """The V1 jobspec flux-core's tools build for the program (wrapped when PSI/J's
    launcher scripts do something around it) on ``shape``, ``system`` its system
    attributes; returned once it checks clean."""
    nodes, tasks, cores, gpus, exclusive = shape
    pre, post, single = launch
    one_slot = single and tasks == 1  # the one process is the one task: {total: 1} says so
    single = single and not one_slot
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


# --------------------------------------------------------------------------- the fields
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


def _directory(p: _Psij, data: dict, cwd: str | None, system: dict) -> str | None:
    """``directory`` as written; an absolute one (or one made absolute from ``cwd``)
    becomes the job's working directory."""
    directory = _psij_string(p, data, "directory")
    if directory is None:
        return None
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
    return directory


def _environment(p: _Psij, data: dict, environ, system: dict) -> None:
    """``environment``, and with ``inherit_environment`` the converting environment
    under it (a Flux job inherits nothing)."""
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


def _streams(p: _Psij, data: dict) -> dict:
    """The shell's ``input`` and ``output`` options for the three ``*_path`` fields,
    an unset one given where PSI/J gives it (/dev/null)."""
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
    return {k: io_opts[k] for k in ("input", "output") if k in io_opts}


def _launcher(p: _Psij, data: dict) -> tuple[str | None, str | None, bool]:
    """(pre_launch, post_launch, whether the launcher starts a single process)."""
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
    return pre, post, single


def _queue_and_bank(p: _Psij, attrs: dict, system: dict) -> None:
    """``queue_name`` -> the queue; ``account`` (or the deprecated ``project_name``)
    -> the bank."""
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


# --------------------------------------------------------------------------- the resources
def _psij_resources(p: _Psij, res):
    """ResourceSpecV1 -> (nodes or None, tasks, cores, gpus, exclusive), or None."""
    if res is None:
        return None
    counts, exclusive, ok = _resource_fields(p, res)
    if not ok:
        return None
    spread = _spread(p, counts)
    if spread is None:
        return None
    n, pc = spread
    cores = counts.get("cpu_cores_per_process")
    if cores is None:
        cores = 1
        p.note("cpu_cores_per_process not given: 1 core per process", "resources")
    gpus = counts.get("gpu_cores_per_process", 0)
    n, exclusive = _exclusive_nodes(p, n, pc, exclusive)
    return n, pc, cores, gpus, exclusive


def _resource_fields(p: _Psij, res: dict) -> tuple[dict[str, int], bool, bool]:
    """(the counts given, exclusive_node_use, whether every field is valid); memory is
    warned about, never carried."""
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
    return counts, exclusive, ok


def _spread(p: _Psij, counts: dict[str, int]) -> tuple[int | None, int] | None:
    """(node count or None, process count) by ResourceSpecV1's rule, process_count =
    node_count x processes_per_node, the missing one inferred; None (and an error
    naming them) when the numbers disagree."""
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
    assert pc is not None
    return n, pc


def _exclusive_nodes(p: _Psij, n: int | None, pc: int, exclusive: bool) -> tuple[int | None, bool]:
    """(node count, exclusive): whole nodes need a node vertex, so exclusive use
    without a node count holds only for one process (on one node)."""
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
    return n, exclusive


# --------------------------------------------------------------------------- the attributes
def _psij_attributes(p: _Psij, attrs) -> float | int:
    """The duration in seconds (PSI/J's default without one); the attributes V1
    cannot carry warned about."""
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
