"""The jobspec Flux builds from a command line: `flux submit`'s (what ``jobspec new``
writes) and `flux batch`'s (what ``jobspec new --from-batch`` writes, and the server's
"Show the jobspec"), option by option as flux-core's ``Jobspec.apply_options`` applies
them, without the environment and resource limits copied from the submitter.

Pure apart from the files an option names (``--add-file``, ``--resources-json``,
``--conf FILE``): they are read only when the caller allows it (the CLI does; the
language server never reads a file the client did not open).
"""

from __future__ import annotations

import argparse
import json
import math
import os

from jobspec_lsp.fluxcli import attrs, environ, values
from jobspec_lsp.fluxcli.argv import Given
from jobspec_lsp.fluxcli.argv import brief as _brief
from jobspec_lsp.fluxcli.values import Refused
from jobspec_lsp.notations import formats

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

TASK_LABEL = "task"  # the slot label flux-core's tools write
SCRIPT_MODE = 0o100700  # a regular file, rwx for its owner: what flux batch writes


def build_v1(
    command: list[Any],
    nodes: int | None = None,
    tasks: int | None = None,
    cores: int = 1,
    gpus: int = 0,
    exclusive: bool = False,
    duration: float = 0,
    label: str = TASK_LABEL,
) -> dict[str, Any]:
    """The V1 jobspec flux-core's ``JobspecV1.from_command`` builds."""
    children = [{"type": "core", "count": cores}]
    if gpus:
        children.append({"type": "gpu", "count": gpus})
    if nodes is not None:
        tasks = tasks if tasks is not None else nodes
        slots = math.ceil(tasks / nodes)
        count = {"total": tasks} if tasks % nodes else {"per_slot": 1}
        top = {"type": "node", "count": nodes}
        if exclusive:
            top["exclusive"] = True
        top["with"] = [{"type": "slot", "count": slots, "label": label, "with": children}]
    else:
        count = {"per_slot": 1}
        top = {
            "type": "slot",
            "count": tasks if tasks is not None else 1,
            "label": label,
            "with": children,
        }
    return {
        "version": 1,
        "resources": [top],
        "tasks": [{"command": list(command), "slot": label, "count": count}],
        "attributes": {"system": {"duration": duration}},
    }


def submit_jobspec(
    a: argparse.Namespace, read_files: bool | None = True, tool: str = "submit"
) -> tuple[dict[str, Any], list[str]]:
    """The jobspec `flux submit --dry-run` builds for options read as
    :func:`.submit.read` reads them (without the environment and limits copied from
    the submitter), and notes on what was made of them; :class:`Refused` for what
    flux submit refuses. In flux-core's order: the resources and the options its
    ``from_command`` takes, then those ``apply_options`` applies, then the resources a
    CLI plugin gives whole (``--resources-shape``, ``--resources-json``). ``tool``: the
    command (`flux run` takes task ranks for --input, `flux submit` refuses them)."""
    command = list(a.command)
    if command[:1] == ["--"]:
        command = command[1:]
    if not command:
        raise Refused(
            "give the command to run after the options: jobspec new [OPTIONS] -- COMMAND [ARGS...]"
        )
    notes: list[str] = []
    whole = bool(a.shape) or bool(getattr(a, "resources_json", None))
    if whole:  # Flux's shape plugin sets one node before anything reads -N
        _ignored_beside_whole(a, notes)
        a = argparse.Namespace(**{**vars(a), "nodes": 1})
    js = _task_jobspec(a, command, [] if whole else notes)
    _from_command_options(js, a)
    _applied_options(js, a, notes, read_files)
    if whole:
        resources = _whole_resources(a, read_files)
        if resources is not None:
            js["resources"] = resources
    if tool == "submit" and a.input and values.flux_idset(a.input) is not None:
        raise Refused(
            f'--input {a.input}: flux submit refuses task ranks for standard input ("per-task '
            'input not supported for submit"); `flux run` takes them, a file name is read'
        )
    if getattr(a, "job_cc", None) is not None:  # --cc: each copy's id, after all else
        system = js["attributes"].get("system")
        environment = system.setdefault("environment", {}) if isinstance(system, dict) else None
        if not isinstance(environment, dict):
            raise Refused("--cc: --setattr made attributes.system.environment no mapping")
        environment["FLUX_JOB_CC"] = a.job_cc
    return js, notes


def _task_jobspec(a: argparse.Namespace, command: list[str], notes: list[str]) -> dict[str, Any]:
    """The resources and tasks of -N/-n/-c/-g/-x (``JobspecV1.from_command``), or of
    the per-resource options (``JobspecV1.per_resource``)."""
    for flag, v, least in (  # -n 0 and -c 0 are not given, as Flux reads them
        ("-N", a.nodes, 1),
        ("-n", a.ntasks or None, 1),
        ("-c", a.cores_per_task or None, 1),
        ("-g", a.gpus_per_task, 0),
    ):
        if v is not None and v < least:
            raise Refused(f"{flag} must be at least {least}, not {v}")
    per_resource = ("cores", "tasks_per_node", "tasks_per_core", "gpus_per_node")
    if any(getattr(a, k, None) is not None for k in per_resource):
        return _per_resource_jobspec(a, command)
    nodes, tasks, exclusive = a.nodes, a.ntasks or None, a.exclusive
    if exclusive and nodes is None:
        raise Refused("-x/--exclusive needs -N/--nodes (flux submit refuses it too)")
    if nodes is not None and tasks is None:
        tasks, exclusive = nodes, True
        notes.append(
            f"-N {nodes} without -n: {nodes} tasks, one per node, and the "
            "nodes allocated exclusively (as flux submit does)"
        )
    if nodes is not None and nodes > tasks:
        raise Refused(
            f"-N {nodes} is more nodes than the {tasks} tasks of -n (flux submit refuses it too)"
        )
    if nodes is not None and tasks % nodes:
        notes.append(
            f"{tasks} tasks do not divide evenly over {nodes} nodes: "
            f"{math.ceil(tasks / nodes)} slots per node, task count total: "
            f"{tasks} (as flux submit does)"
        )
    return build_v1(command, nodes, tasks, a.cores_per_task or 1, a.gpus_per_task or 0, exclusive)


def _from_command_options(js: dict[str, Any], a: argparse.Namespace) -> None:
    """What ``from_command`` writes besides the resources: the working directory, the
    name, standard input and output, the queue and the bank."""
    system = js["attributes"]["system"]
    if a.cwd is not None:
        if not a.cwd.startswith("/"):
            raise Refused(
                f"--cwd {a.cwd!r}: give an absolute path (flux submit resolves "
                "it where you submit; a jobspec file cannot)"
            )
        system["cwd"] = a.cwd
    if a.job_name is not None:
        system["job"] = {"name": a.job_name}
    io_opts: dict[str, Any] = system.get("shell", {}).get("options", {})
    if a.input is not None and values.flux_idset(a.input) is None:
        io_opts.setdefault("input", {})["stdin"] = {"type": "file", "path": a.input}
    label = getattr(a, "label_io", False)
    for stream, where in (("stdout", a.output), ("stderr", a.error)):
        if where is not None and where not in ("none", "kvs"):
            io_opts.setdefault("output", {})[stream] = {"type": "file", "path": where}
            if label:
                io_opts["output"][stream]["label"] = True
    if getattr(a, "unbuffered", False):
        out = io_opts.setdefault("output", {})
        out.setdefault("stdout", {})["buffer"] = {"type": "none"}
        out.setdefault("stderr", {})["buffer"] = {"type": "none"}
        out["batch-timeout"] = 0.05
        io_opts.setdefault("input", {})["batch-timeout"] = 0.0
    if io_opts:
        system["shell"] = {"options": io_opts}
    if a.queue is not None:
        system["queue"] = a.queue
    if a.bank is not None:
        system["bank"] = a.bank


def _applied_options(
    js: dict[str, Any], a: argparse.Namespace, notes: list[str], read_files: bool | None
) -> None:
    """What ``Jobspec.apply_options`` applies, in its order: the environment, the
    signal, the task map, dependencies, constraints, shell options, the time limit,
    attributes, files. A later one may overwrite what an earlier one wrote."""
    system = js["attributes"]["system"]
    options: dict[str, Any] = {}
    if a.env:
        rules = environ.apply(a.env, read_files=read_files)
        system["environment"] = rules.environment
        notes.extend(rules.notes)
        if rules.expand:
            options["env-expand"] = rules.expand
    if getattr(a, "signal", None):  # an empty one is none, as Flux reads it
        options["signal"] = values.signal_option(a.signal)
    if getattr(a, "taskmap", None) is not None:
        options["taskmap"] = values._taskmap(a.taskmap)
    if options:
        system.setdefault("shell", {}).setdefault("options", {}).update(options)
    if a.dependency:
        system["dependencies"] = [values.parse_dependency(d) for d in a.dependency]
    if a.requires:  # flux submit joins several with a space, so precedence runs across them
        system["constraints"] = values.parse_requires(" ".join(a.requires))
    cwd = os.getcwd()
    for item in getattr(a, "setopt", []) or []:
        shell = system.setdefault("shell", {}).setdefault("options", {})
        attrs.setopt_item(shell, item, cwd, read_files)
    if a.time_limit is not None:
        system["duration"] = values.parse_time_limit(a.time_limit)
    for item in a.setattr:
        attrs.setattr_item(js, item, cwd, read_files)
    for item in getattr(a, "add_file", []) or []:
        system = js["attributes"].get("system")
        if not isinstance(system, dict):
            raise Refused(f"--add-file {item!r}: --setattr made attributes.system no mapping")
        attrs.add_file(system, item, cwd, read_files)


def _ignored_beside_whole(a: argparse.Namespace, notes: list[str]) -> None:
    option = "--resources-shape" if a.shape else "--resources-json"
    for flag, v in (
        ("-N", a.nodes),
        ("-n", a.ntasks),
        ("-c", a.cores_per_task),
        ("-g", a.gpus_per_task),
        ("-x", a.exclusive or None),
    ):
        if v is not None:
            notes.append(
                f"{flag} ignored: with {option} the resources are given whole (as flux submit does)"
            )


def _whole_resources(a: argparse.Namespace, read_files: bool | None) -> Any:
    """The resources ``--resources-shape`` or ``--resources-json`` gives (Flux's shape
    plugin): the shape read as Flux reads it, with the lone slot labelled "task"."""
    if a.shape and getattr(a, "resources_json", None):
        raise Refused(
            "--resources-shape and --resources-json are mutually exclusive (flux submit "
            "refuses them together)"
        )
    if not a.shape:
        return attrs.resources_json(a.resources_json, os.getcwd(), read_files)
    return values.shape_resources(a.shape, TASK_LABEL)


def _per_resource_jobspec(a: argparse.Namespace, command: list[str]) -> dict[str, Any]:
    """`flux submit --cores/--tasks-per-node/--tasks-per-core/--gpus-per-node`: slots
    of cores (per node with -N) and a count of tasks per node or core, as flux-core's
    ``JobspecV1.per_resource`` builds them."""
    nodes, cores = a.nodes, a.cores
    per_node, per_core, gpus = a.tasks_per_node, a.tasks_per_core, a.gpus_per_node
    if per_node is not None and per_core is not None:
        raise Refused("give --tasks-per-node or --tasks-per-core, not both")
    if a.ntasks is not None or a.cores_per_task is not None or a.gpus_per_task:
        raise Refused(
            "--cores, --tasks-per-node, --tasks-per-core and --gpus-per-node do not go "
            "with -n, -c or -g (flux submit refuses them together)"
        )
    for flag, v in (("--tasks-per-node", per_node), ("--tasks-per-core", per_core)):
        if v is not None and v < 1:
            raise Refused(f"{flag} must be at least 1")
    if gpus is not None and not nodes:
        raise Refused("--gpus-per-node needs -N/--nodes")
    if gpus is not None and gpus < 0:
        raise Refused("--gpus-per-node must be at least 0")
    if cores is not None and cores < 1:
        raise Refused("--cores must be at least 1")
    exclusive = bool(a.exclusive) or (bool(nodes) and cores is None)
    if nodes is None and exclusive:
        raise Refused("-x/--exclusive needs -N/--nodes")
    if nodes and cores:
        if cores < nodes:
            raise Refused("--cores cannot be less than -N")
        if cores % nodes:
            raise Refused("--cores must divide evenly over the -N nodes")
        slots, size = 1, cores // nodes
    elif cores:
        slots, size = cores, 1
    elif nodes:
        slots, size = 1, 1
    else:
        raise Refused("--tasks-per-node and --tasks-per-core need -N or --cores")
    children: list[dict[str, Any]] = [{"type": "core", "count": size}]
    if gpus:
        children.append({"type": "gpu", "count": gpus})
    slot = {"type": "slot", "count": slots, "with": children, "label": TASK_LABEL}
    top = slot
    if nodes:
        top = {"type": "node", "count": nodes, "with": [slot]}
        if exclusive:
            top["exclusive"] = True
    system: dict[str, Any] = {"duration": 0}
    kind = "node" if per_node is not None else "core" if per_core is not None else None
    if kind is not None:
        system["shell"] = {
            "options": {"per-resource": {"type": kind, "count": per_node or per_core}}
        }
    return {
        "version": 1,
        "resources": [top],
        "tasks": [{"command": list(command), "slot": TASK_LABEL, "count": {"per_slot": 1}}],
        "attributes": {"system": system},
    }


def batch_jobspec(
    text: str, given: list[Given], name: str, cwd: str, read_files: bool | None = True
) -> dict[str, Any]:
    """The jobspec `flux batch --dry-run` builds for a script with ``text`` (named
    ``name``, submitted from ``cwd``) whose directives and extra options read as
    ``given``, without the environment and the resource limits it copies from the
    submitter. Files named by options (``--resources-json``, ``--add-file``, ``--conf``
    files) are read from ``cwd`` only when ``read_files`` (None: left out, False:
    refused, see :func:`.attrs.may_read`); :class:`Refused` for what
    `flux batch` refuses."""
    o, lists, settings = _batch_options(given)
    if not text.startswith("#!"):
        raise Refused("batch does not appear to start with '#!'")
    # the resources given whole (an empty value is none, as Flux's shape plugin reads it)
    whole = bool(o.get("resources-shape")) or bool(o.get("resources-json"))
    resources, count = _batch_resources(o, cwd, read_files)
    files: dict[str, Any] = {}
    command, brokers = _broker_command(o, lists, files, whole, cwd, read_files)
    shell = _batch_shell(o, lists, brokers)
    if brokers > 0:  # the extra brokers on the first node; the rest one per node
        n_nodes = 1 if whole else int(o["nodes"])
        shell["taskmap"] = {
            "scheme": "manual",
            "value": f"[[0,1,{1 + brokers},1],[1,{n_nodes - 1},1,1]]",
        }
        count = {"total": n_nodes + brokers}
    for item, g in settings.get("setopt", []):
        try:
            attrs.setopt_item(shell, item, cwd, read_files, g)
        except Refused as err:
            raise Refused(str(err), g, err.ours) from None
    system = _batch_system(o, lists, name, cwd, shell)
    # --wrap in a directive: flux batch puts a /bin/sh line before the script it read
    data = "#!/bin/sh\n" + text if o.get("wrap") else text
    files["script"] = {"mode": SCRIPT_MODE, "data": data, "encoding": "utf-8"}
    system["files"] = files
    js = {
        "resources": resources,
        "tasks": [{"command": command, "slot": "task", "count": count}],
        "attributes": {"system": system},
        "version": 1,
    }
    for item, g in settings.get("setattr", []):
        try:
            attrs.setattr_item(js, item, cwd, read_files, g)
        except Refused as err:  # said at the option that asks it
            raise Refused(str(err), g, err.ours) from None
    for item in lists.get("add-file", []):
        attrs.add_file(system, item, cwd, read_files)
    return js


def _batch_system(
    o: dict[str, Any], lists: dict[str, list[str]], name: str, cwd: str, shell: dict[str, Any]
) -> dict[str, Any]:
    """The system attributes of a batch job but its files: duration, working directory,
    name, the job shell's options, queue and bank, dependencies and constraints."""
    system: dict[str, Any] = {
        "duration": 0,
        "cwd": o.get("cwd", cwd),
        "job": {"name": o.get("job-name", name)},
        "shell": {"options": shell},
    }
    if "time-limit" in o:
        system["duration"] = values.parse_time_limit(o["time-limit"])
    for key in ("queue", "bank"):
        if key in o:
            system[key] = o[key]
    if lists.get("dependency"):
        system["dependencies"] = [values.parse_dependency(d) for d in lists["dependency"]]
    if lists.get("requires"):
        system["constraints"] = values.parse_requires(" ".join(lists["requires"]))
    return system


_Settings = dict[str, list[tuple[str, Given]]]  # --setopt/--setattr, each with its option


def _batch_options(given: list[Given]) -> tuple[dict[str, Any], dict[str, list[str]], _Settings]:
    """(the last value of each option, the values of those given more than once, the
    settings) of flux batch's options ``given``, each value Flux reads checked."""
    o: dict[str, Any] = {}
    lists: dict[str, list[str]] = {}
    settings: _Settings = {}
    last = values.read_values(given)
    for k, g in enumerate(given):
        if g.value is not None and k in last:
            why = values.value_problem(g.option, g.value)
            if why:
                raise Refused(why, g, ours=isinstance(why, values.Limit))
        if g.option.long == "begin-time":  # flux-core adds it to the dependencies, in order
            stamp = values.begin_timestamp(g.value or "")
            lists.setdefault("dependency", []).append(f"begin-time:{stamp}")
        elif g.option.long in ("setopt", "setattr"):
            settings.setdefault(g.option.long, []).append((g.value or "", g))
        elif g.option.repeat:
            lists.setdefault(g.option.long, []).append(g.value or "")
        else:
            o[g.option.long] = g.value if g.option.value is not None else True
    return o, lists, settings


def _broker_command(
    o: dict[str, Any],
    lists: dict[str, list[str]],
    files: dict[str, Any],
    whole: bool,
    cwd: str,
    read_files: bool | None,
) -> tuple[list[str], int]:
    """(the command that starts the instance, how many brokers beyond the nodes):
    ``flux broker``, its options, the configuration (into ``files``), the script."""
    command = ["flux", "broker"]
    conf: dict[str, Any] = {}
    for c in lists.get("conf", []):
        conf = _merge_conf(conf, c, cwd, read_files)
    brokers = int(o.get("add-brokers") or 0)
    if brokers > 0:  # more brokers than nodes, as flux batch sets them up
        # with the resources given whole, Flux's shape plugin sets the node count to 1
        if not whole and o.get("nodes") is None:
            raise Refused("--add-brokers may only be specified with -N/--nodes")
        old = (conf.get("resource") or {}).get("exclude", "") if isinstance(conf, dict) else ""
        ids = {i for lo, hi in formats.parse_idset(str(old or "")) for i in range(lo, hi + 1)}
        ids |= set(range(1, brokers + 1))
        conf = _deep_merge(conf, {"resource": {"exclude": _idset_text(ids)}})
    broker_opts = [w for b in lists.get("broker-opts", []) for w in b.split(",")]
    if "dump" in o:  # --dump[=FILE]: the KVS archived when the instance ends
        dump = o["dump"] if isinstance(o["dump"], str) else "flux-{{jobid}}-dump.tgz"
        broker_opts.append("-Scontent.dump=" + dump)
    command.extend(broker_opts)
    if conf:
        command.append("-c{{tmpdir}}/conf.json")
        files["conf.json"] = {"mode": 0o100600, "data": conf}
    command.append("{{tmpdir}}/script")
    return command, brokers


def _batch_shell(o: dict[str, Any], lists: dict[str, list[str]], brokers: int) -> dict[str, Any]:
    """The job shell's options of a batch job, before --setopt: input and output,
    per-resource, mpi, exit-timeout, signal, the environment's templates."""
    shell: dict[str, Any] = {}
    if "input" in o:
        shell["input"] = {"stdin": {"type": "file", "path": o["input"]}}
    # as flux-core's Jobspec: "none" and "kvs" are no file (no redirection at all)
    for stream, where in (
        ("stdout", o.get("output", "flux-{{id}}.out")),
        ("stderr", o.get("error")),
    ):
        if where is not None and where not in ("none", "kvs"):
            out = shell.setdefault("output", {})
            out[stream] = {"type": "file", "path": where}
            if o.get("label-io"):
                out[stream]["label"] = True
    if o.get("unbuffered"):
        out = shell.setdefault("output", {})
        out.setdefault("stdout", {})["buffer"] = {"type": "none"}
        out.setdefault("stderr", {})["buffer"] = {"type": "none"}
        out["batch-timeout"] = 0.05
        shell.setdefault("input", {})["batch-timeout"] = 0.0
    if brokers <= 0:
        shell["per-resource"] = {"type": "node"}
    shell["mpi"] = "none"
    shell["exit-timeout"] = "none"
    if o.get("signal"):  # an empty one is none, as Flux reads it
        shell["signal"] = values.signal_option(o["signal"])
    expand = environ.expand_only(lists.get("env", []))
    if expand:  # the job shell's templates; the rest of the environment is the submitter's
        shell["env-expand"] = expand
    return shell


def _batch_resources(
    o: dict[str, Any], cwd: str, read_files: bool | None
) -> tuple[list[Any], dict[str, int]]:
    """The resources and the task count of `flux batch`'s -N/-n/-c/-g/-x, or those
    ``--resources-shape`` or ``--resources-json`` give whole."""
    if o.get("resources-shape") and o.get("resources-json"):
        raise Refused("--resources-shape and --resources-json are mutually exclusive")
    if o.get("resources-json"):
        data = attrs.resources_json(o["resources-json"], cwd, read_files)
        if data is None:  # the file left out
            data = [{"type": "slot", "count": 1, "label": "task",
                     "with": [{"type": "core", "count": 1}]}]  # fmt: skip
        return data, {"per_slot": 1}
    if o.get("resources-shape"):
        return values.shape_resources(o["resources-shape"], "task"), {"per_slot": 1}
    nodes = int(o["nodes"]) if "nodes" in o else None
    slots = int(o["nslots"]) if "nslots" in o and int(o["nslots"]) else None
    if nodes is None and slots is None:
        raise Refused("Number of slots to allocate must be specified")
    exclusive = bool(o.get("exclusive"))
    if exclusive and nodes is None:
        raise Refused("-x/--exclusive needs -N/--nodes")
    children: list[dict[str, Any]] = [{"type": "core", "count": int(o.get("cores-per-slot", 1))}]
    if int(o.get("gpus-per-slot", 0)):
        children.append({"type": "gpu", "count": int(o.get("gpus-per-slot", 0))})
    if nodes is None:
        return [{"type": "slot", "count": slots, "with": children, "label": "task"}], {
            "per_slot": 1
        }
    if slots is None:
        slots, exclusive = nodes, True
    if nodes > slots:
        raise Refused("more nodes than slots")
    top: dict[str, Any] = {"type": "node", "count": nodes}
    if exclusive:
        top["exclusive"] = True
    slot = {"type": "slot", "count": math.ceil(slots / nodes), "with": children, "label": "task"}
    top["with"] = [slot]
    return [top], {"total": slots} if slots % nodes else {"per_slot": 1}


def _merge_conf(
    conf: dict[str, Any], value: str, cwd: str = ".", read_files: bool | None = True
) -> dict[str, Any]:
    """``--conf=value`` merged into ``conf`` as Flux reads it (see :func:`conf_problem`):
    a multi-line TOML or JSON text, KEY=VALUE (VALUE JSON when it parses), a .toml or
    .json file (from ``cwd``), or a named configuration."""
    why = values.conf_problem(value)
    if why:
        raise Refused(why)
    try:
        if "\n" in value:
            try:
                data = json.loads(value)
            except ValueError:
                data = values.toml_reader().loads(value)
            return _deep_merge(conf, data)
        if "=" in value:
            key, _, raw = value.partition("=")
            try:
                val = json.loads(raw)
            except ValueError:
                val = raw
            out = _deep_merge(conf, {})
            attrs.set_tree(out, key, val, key, None)
            return out
        suffix = os.path.splitext(value)[1]
        paths = [os.path.join(cwd, value)] if suffix else []
        for where in [] if suffix else values._named_conf_dirs():
            paths += [os.path.join(where, value + ext) for ext in (".toml", ".json")]
        for path in paths:
            if os.path.exists(path):
                if not attrs.may_read(read_files, "conf", path):
                    return conf
                with open(path, "rb") as f:
                    raw_bytes = f.read()
                if path.endswith(".json"):
                    return _deep_merge(conf, json.loads(raw_bytes))
                return _deep_merge(conf, values.toml_reader().loads(raw_bytes.decode("utf-8")))
        raise Refused(f"--conf: {value}: no such file")
    except RecursionError:
        raise Refused("--conf: the configuration nests too deeply to read") from None
    except (OSError, ValueError) as err:
        if isinstance(err, Refused):
            raise
        raise Refused(f"--conf {_brief(value)}: {err}") from None


def _idset_text(ids: set[int]) -> str:
    """An RFC 22 idset, runs joined: {1, 2, 3, 5} is "1-3,5"."""
    runs: list[tuple[int, int]] = []
    for i in sorted(ids):
        if runs and runs[-1][1] == i - 1:
            runs[-1] = (runs[-1][0], i)
        else:
            runs.append((i, i))
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def _deep_merge(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """``b`` merged into a copy of ``a`` (mappings merged key by key, anything else
    replaced), without recursion: a configuration may nest thousands of levels."""
    out = dict(a)
    stack = [(out, b)]
    while stack:
        into, new = stack.pop()
        for k, v in new.items():
            old = into.get(k)
            if isinstance(v, dict) and isinstance(old, dict):
                into[k] = dict(old)
                stack.append((into[k], v))
            else:
                into[k] = v
    return out
