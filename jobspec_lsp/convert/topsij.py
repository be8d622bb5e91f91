"""Jobspec V1 -> PSI/J: a checked V1 jobspec written as psij-python's JSON serialization
of a ``JobSpec``.

:func:`to_psij` reads the allocation (refused where PSI/J's ResourceSpecV1 would ask for
another one), then the program, the attributes and the standard streams; what a JobSpec
has no field for is a warning, never dropped silently."""

from __future__ import annotations

import json
from typing import cast

from jobspec_lsp.convert.common import Conversion, _diag, _errors, _refuse
from jobspec_lsp.convert.psij import psij_unwrap
from jobspec_lsp.diagnostics import Diagnostic, Severity
from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.jobspec.tree import Mapping, to_python
from jobspec_lsp.rules import convert as codes


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
    warnings: list[Diagnostic] = []

    def dropped(where, message):
        warnings.append(_diag(codes.PSIJ_DROPPED, where, message, Severity.WARNING))

    resources, nodes, total_slots = _resources(root, js, dropped)
    task_node = root.get("tasks").items[0]
    task = js["tasks"][0]
    blockers, single = _one_process_per_slot(
        task_node.get("count"), task["count"], nodes, total_slots
    )
    if blockers:
        return Conversion(None, [], blockers, [])
    system = js["attributes"]["system"]
    sys_node = root.get("attributes").get("system")
    out = _program(system, list(task["command"]), single, total_slots)
    attrs = _attributes(system, sys_node, dropped)
    out.update(_paths(system))
    out["resources"] = resources
    if attrs:
        out["attributes"] = attrs
    _psij_leftovers(root, sys_node, dropped)
    result = json.dumps(out, indent=2, ensure_ascii=False) + "\n"
    return Conversion(result, [], [], sorted(warnings, key=Diagnostic.sort_key))


def _resources(root: Mapping, js: dict, dropped) -> tuple[dict, int | None, int]:
    """(the ResourceSpecV1 of the V1 allocation, its node count or None, its slots in
    all); a unit on a vertex dropped."""
    top_node = root.get("resources").items[0]
    top = js["resources"][0]
    node, slot_node = (top, top["with"][0]) if top["type"] == "node" else (None, top)
    slot_vertex = top_node.get("with").items[0] if node else top_node
    per = {c["type"]: c["count"] for c in slot_node["with"]}
    for vnode in dict.fromkeys([top_node, slot_vertex, *slot_vertex.get("with").items]):
        if "unit" in vnode:
            dropped(vnode.key_node("unit"), "a unit on a V1 vertex has no PSI/J form")
    slots = slot_node["count"]
    nodes = node["count"] if node else None
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
    return resources, nodes, slots * (nodes or 1)


def _one_process_per_slot(
    count_node: Mapping, count: dict, nodes: int | None, total_slots: int
) -> tuple[list[Diagnostic], bool]:
    """(blockers where the tasks are not one process per slot, whether one task runs on
    all the slots: PSI/J's single launcher)."""
    blockers: list[Diagnostic] = []
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
    return blockers, single


def _program(system: dict, command: list, single: bool, total_slots: int) -> dict:
    """The JobSpec's name, launch scripts, executable and arguments, launcher, directory
    and environment (the wrapper PSI/J -> V1 writes read back into its fields)."""
    out: dict = {}
    job = system.get("job") or {}
    if isinstance(job, dict) and isinstance(job.get("name"), str):
        out["name"] = job["name"]
    launch = psij_unwrap(command)
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
    return out


def _attributes(system: dict, sys_node: Mapping, dropped) -> dict:
    """The JobAttributes: duration, queue_name, account."""
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
    return attrs


def _paths(system: dict) -> dict:
    """stdin_path, stdout_path, stderr_path: the files of the shell's input and output
    options (/dev/null left out: PSI/J reads an unset stdin from it, discards unset
    output)."""
    opts = (
        ((system.get("shell") or {}).get("options") or {})
        if isinstance(system.get("shell"), dict)
        else {}
    )
    out: dict = {}
    for (group, stream), key in (
        (("input", "stdin"), "stdin_path"),
        (("output", "stdout"), "stdout_path"),
        (("output", "stderr"), "stderr_path"),
    ):
        v = (opts.get(group) or {}).get(stream) if isinstance(opts.get(group), dict) else None
        if isinstance(v, dict) and v.get("type") == "file" and isinstance(v.get("path"), str):
            if v["path"] == "/dev/null":
                continue
            out[key] = v["path"]
    return out


# --------------------------------------------------------------------------- what is left
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
