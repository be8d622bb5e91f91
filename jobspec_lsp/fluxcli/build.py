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
import base64
import json
import math
import os
import stat

from jobspec_lsp.fluxcli import values
from jobspec_lsp.fluxcli.argv import Given
from jobspec_lsp.fluxcli.argv import brief as _brief
from jobspec_lsp.fluxcli.values import Refused
from jobspec_lsp.notations import formats

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

TASK_LABEL = "task"  # the slot label flux-core's tools write
SCRIPT_MODE = 0o100700  # a regular file, rwx for its owner: what flux batch writes


def _may_read(allowed: bool | None, option: str, path: str) -> bool:
    """Whether to read the file an option names: ``allowed`` True reads it, None leaves
    it out (a check that needs the rest of the jobspec, never the file), False refuses
    (a view that must not read what the editor did not open, and says so)."""
    if allowed:
        return True
    if allowed is None:
        return False
    raise Refused(
        f"--{option} {_brief(path)}: the file is read when the job is submitted; this "
        "view does not read files the editor has not opened (jobspec new --from-batch "
        "reads it)",
        ours=True,
    )


def add_file(system: dict[str, Any], arg: str, cwd: str, read_files: bool | None) -> None:
    """``--add-file [NAME[:PERMS]=]PATH`` or ``NAME=TEXT`` (a text holding a line break,
    ``\\n`` read as one) into ``system["files"]``, as flux-core's jobspec_add_file does:
    a text is the file's content (utf-8, mode PERMS or 0600); a path is read (utf-8, or
    base64 when it is not utf-8), taking its size and mode from the file."""
    name, _, data = arg.replace("\\n", "\n").partition("=")
    perms = None
    if not data:
        if "\n" in name:
            raise Refused("--add-file: file name missing")
        data = name
        name = os.path.basename(data)
    else:
        base, _, permstr = name.partition(":")
        try:
            perms = int(permstr, base=8)
            name = base
        except ValueError:
            pass  # as Flux: the ':' is part of the name
    files = system.setdefault("files", {})
    mode = (0o600 if perms is None else perms) | stat.S_IFREG
    if "\n" in data:
        files[name] = {"mode": mode, "data": data, "encoding": "utf-8"}
        return
    if not _may_read(read_files, "add-file", data):
        return
    path = os.path.join(cwd, data)
    try:
        st = os.stat(path)
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as err:
        raise Refused(f"--add-file={_brief(arg)}: {err.strerror}: {_brief(data)}") from None
    ref: dict[str, Any] = {"mode": st.st_mode, "size": st.st_size}
    try:
        ref["data"], ref["encoding"] = raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        ref["data"], ref["encoding"] = base64.b64encode(raw).decode("ascii"), "base64"
    files[name] = ref


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
    a: argparse.Namespace, read_files: bool | None = True
) -> tuple[dict[str, Any], list[str]]:
    """The jobspec `flux submit --dry-run` builds for options read as
    :func:`.submit.read` reads them (without the environment and limits copied from
    the submitter), and notes on what was made of them; :class:`Refused` for what
    flux submit refuses."""
    command = list(a.command)
    if command[:1] == ["--"]:
        command = command[1:]
    if not command:
        raise Refused(
            "give the command to run after the options: jobspec new [OPTIONS] -- COMMAND [ARGS...]"
        )
    notes: list[str] = []
    for flag, v, least in (
        ("-N", a.nodes, 1),
        ("-n", a.ntasks, 1),
        ("-c", a.cores_per_task, 1),
        ("-g", a.gpus_per_task, 0),
    ):
        if v is not None and v < least:
            raise Refused(f"{flag} must be at least {least}, not {v}")
    per_resource = [
        getattr(a, k, None) is not None
        for k in ("cores", "tasks_per_node", "tasks_per_core", "gpus_per_node")
    ]
    if a.shape and any(per_resource) and (a.ntasks or a.cores_per_task or a.gpus_per_task):
        raise Refused(
            "--cores, --tasks-per-node, --tasks-per-core and --gpus-per-node do not go "
            "with -n, -c or -g (flux submit refuses them together)"
        )
    if a.shape:
        js = _shape_jobspec(a, command, notes)
        kind = "node" if getattr(a, "tasks_per_node", None) else None
        kind = kind or ("core" if getattr(a, "tasks_per_core", None) else None)
        if kind:  # flux submit keeps the per-resource task count beside the shape
            count = a.tasks_per_node if kind == "node" else a.tasks_per_core
            js["attributes"]["system"].setdefault("shell", {}).setdefault("options", {})[
                "per-resource"
            ] = {"type": kind, "count": count}
    elif any(per_resource):
        js = _per_resource_jobspec(a, command)
    else:
        nodes, tasks, exclusive = a.nodes, a.ntasks, a.exclusive
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
                f"-N {nodes} is more nodes than the {tasks} tasks of -n "
                "(flux submit refuses it too)"
            )
        if nodes is not None and tasks % nodes:
            notes.append(
                f"{tasks} tasks do not divide evenly over {nodes} nodes: "
                f"{math.ceil(tasks / nodes)} slots per node, task count total: "
                f"{tasks} (as flux submit does)"
            )
        js = build_v1(command, nodes, tasks, a.cores_per_task or 1, a.gpus_per_task or 0, exclusive)
    system = js["attributes"]["system"]
    if a.env:
        system["environment"] = _environment(a.env)
    if a.cwd is not None:
        if not a.cwd.startswith("/"):
            raise Refused(
                f"--cwd {a.cwd!r}: give an absolute path (flux submit resolves "
                "it where you submit; a jobspec file cannot)"
            )
        system["cwd"] = a.cwd
    if a.dependency:
        system["dependencies"] = [values.parse_dependency(d) for d in a.dependency]
    if a.requires:  # flux submit joins several with a space, so precedence runs across them
        system["constraints"] = values.parse_requires(" ".join(a.requires))
    if a.time_limit is not None:
        system["duration"] = values.parse_time_limit(a.time_limit)
    if a.job_name is not None:
        system["job"] = {"name": a.job_name}
    io_opts: dict[str, Any] = system.get("shell", {}).get("options", {})
    if a.input is not None:
        try:
            formats.parse_idset(a.input)
        except formats.FormatError:
            io_opts.setdefault("input", {})["stdin"] = {"type": "file", "path": a.input}
        else:
            notes.append(
                f"--input {a.input}: task ranks for stdin are for the attached "
                "`flux run`; the jobspec holds no input (as flux submit writes it)"
            )
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
    if getattr(a, "signal", None) is not None:
        io_opts["signal"] = values.signal_option(a.signal)
    if getattr(a, "taskmap", None) is not None:
        io_opts["taskmap"] = values._taskmap(a.taskmap)
    for item in getattr(a, "setopt", []) or []:
        _setopt(io_opts, item)
    if io_opts:
        system["shell"] = {"options": io_opts}
    if a.queue is not None:
        system["queue"] = a.queue
    if a.bank is not None:
        system["bank"] = a.bank
    for item in a.setattr:
        setattr_item(js, item)
    for item in getattr(a, "add_file", []) or []:
        add_file(system, item, os.getcwd(), read_files)
    return js, notes


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


def _shape_jobspec(a: argparse.Namespace, command: list[str], notes: list[str]) -> dict[str, Any]:
    """``--resources-shape`` as flux submit takes it: the shape is the whole resource
    request (-N, -n, -c, -g, -x are ignored, with a note), one task per slot, and the
    task names the slot "task" whatever the shape labels it."""
    from jobspec_lsp.notations import shape  # deferred: shape loads lark

    for flag, v in (
        ("-N", a.nodes),
        ("-n", a.ntasks),
        ("-c", a.cores_per_task),
        ("-g", a.gpus_per_task),
        ("-x", a.exclusive or None),
    ):
        if v is not None:
            notes.append(
                f"{flag} ignored: with --resources-shape the shape is the "
                "whole request (as flux submit does)"
            )
    try:
        resources = shape.expand(a.shape, label=TASK_LABEL)
    except shape.ShapeError as err:
        raise Refused(
            f"--resources-shape {a.shape!r}: {err.message} (at column {err.start + 1})"
        ) from None
    return {
        "version": 1,
        "resources": resources,
        "tasks": [{"command": command, "slot": TASK_LABEL, "count": {"per_slot": 1}}],
        "attributes": {"system": {"duration": 0}},
    }


def _environment(items: list[str]) -> dict[str, Any]:
    env: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise Refused(
                f"--env {item!r}: give NAME=VALUE (jobspec new copies nothing "
                "from your environment)"
            )
        env[name] = value
    return env


def _setopt(options: dict[str, Any], item: str) -> None:
    """``-o/--setopt KEY[=VAL]`` into the shell options: VAL is JSON when it parses,
    else a string, 1 when absent; a dotted KEY makes the levels it names."""
    key, sep, raw = item.partition("=")
    if key.startswith("^"):
        raise Refused(f"--setopt {item!r}: reading the value from a file is not supported")
    value = values._keyval_value("--setopt", key, sep, raw)
    node = options
    parts = key.split(".")
    for part in parts[:-1]:
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            raise Refused(f"--setopt {item!r}: {part} is not a mapping")
    node[parts[-1]] = value


def setattr_item(js: dict[str, Any], item: str) -> None:
    """``--setattr KEY[=VAL]`` as flux submit applies it: VAL is JSON when it parses
    (else a string, 1 when absent); KEY is under attributes.system unless it
    starts with ``user.`` or ``system.`` (a leading ``.`` starts at attributes)."""
    key, sep, raw = item.partition("=")
    if not key or key.startswith("^"):
        raise Refused(
            f"--setattr {item!r}: expected KEY[=VALUE]"
            + (" (reading the value from a file is not supported)" if key.startswith("^") else "")
        )
    value = values._keyval_value("--setattr", key, sep, raw)
    if key.startswith("."):  # relative to attributes, whatever follows
        parts = key[1:].split(".")
    elif key.startswith("attributes."):
        parts = key.split(".")[1:]
    elif key.startswith(("user.", "system.")):
        parts = key.split(".")
    else:
        parts = ["system", *key.split(".")]
    if not parts or not all(parts):
        raise Refused(f"--setattr {item!r}: the key has an empty part")
    node = js["attributes"]
    for part in parts[:-1]:
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            raise Refused(f"--setattr {item!r}: {part} is not a mapping")
    node[parts[-1]] = value


def batch_jobspec(
    text: str, given: list[Given], name: str, cwd: str, read_files: bool | None = True
) -> dict[str, Any]:
    """The jobspec `flux batch --dry-run` builds for a script with ``text`` (named
    ``name``, submitted from ``cwd``) whose directives and extra options read as
    ``given``, without the environment and the resource limits it copies from the
    submitter. Files named by options (``--resources-json``, ``--add-file``, ``--conf``
    files) are read from ``cwd`` only when ``read_files`` (None: left out, False:
    refused, see :func:`_may_read`); :class:`Refused` for what
    `flux batch` refuses."""
    o: dict[str, Any] = {}
    lists: dict[str, list[str]] = {}
    settings: dict[str, list[tuple[str, Given]]] = {}  # --setopt/--setattr, with the option
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
    if not text.startswith("#!"):
        raise Refused("batch does not appear to start with '#!'")
    whole = "resources-shape" in o or "resources-json" in o  # the resources given whole
    if "resources-shape" in o and "resources-json" in o:
        raise Refused("--resources-shape and --resources-json are mutually exclusive")
    if "resources-json" in o and not _may_read(read_files, "resources-json", o["resources-json"]):
        resources = [{"type": "slot", "count": 1, "label": "task",
                      "with": [{"type": "core", "count": 1}]}]  # fmt: skip
        count = {"per_slot": 1}
    elif "resources-json" in o:
        try:
            with open(os.path.join(cwd, o["resources-json"]), encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError, RecursionError) as err:
            raise Refused(f"--resources-json {o['resources-json']}: {err}") from None
        resources = data["resources"] if isinstance(data, dict) and "resources" in data else data
        count = {"per_slot": 1}
    elif "resources-shape" in o:
        from jobspec_lsp.notations import shape  # deferred: shape loads lark

        resources = shape.expand(o["resources-shape"], label="task")
        count = {"per_slot": 1}
    else:
        nodes = int(o["nodes"]) if "nodes" in o else None
        slots = int(o["nslots"]) if "nslots" in o and int(o["nslots"]) else None
        if nodes is None and slots is None:
            raise Refused("Number of slots to allocate must be specified")
        cores = int(o.get("cores-per-slot", 1))
        gpus = int(o.get("gpus-per-slot", 0))
        exclusive = bool(o.get("exclusive"))
        if exclusive and nodes is None:
            raise Refused("-x/--exclusive needs -N/--nodes")
        children: list[dict[str, Any]] = [{"type": "core", "count": cores}]
        if gpus:
            children.append({"type": "gpu", "count": gpus})
        count = {"per_slot": 1}
        if nodes is not None:
            if slots is None:
                slots, exclusive = nodes, True
            if slots % nodes:
                count = {"total": slots}
            if nodes > slots:
                raise Refused("more nodes than slots")
            top: dict[str, Any] = {"type": "node", "count": nodes}
            if exclusive:
                top["exclusive"] = True
            top["with"] = [
                {
                    "type": "slot",
                    "count": math.ceil(slots / nodes),
                    "with": children,
                    "label": "task",
                }
            ]
        else:
            top = {"type": "slot", "count": slots, "with": children, "label": "task"}
        resources = [top]
    command = ["flux", "broker"]
    files: dict[str, Any] = {}
    conf: dict[str, Any] = {}
    for c in lists.get("conf", []):
        conf = _merge_conf(conf, c, cwd, read_files)
    brokers = int(o.get("add-brokers") or 0)
    if brokers > 0:  # more brokers than nodes, as flux batch sets them up
        # with the resources given whole, Flux's shape plugin sets the node count to 1
        nodes_given = "1" if whole else o.get("nodes")
        if nodes_given is None:
            raise Refused("--add-brokers may only be specified with -N/--nodes")
        n_nodes = int(nodes_given)
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
    if "signal" in o:
        shell["signal"] = values.signal_option(o["signal"])
    if brokers > 0:  # the extra brokers on the first node; the rest one per node
        n_nodes = 1 if whole else int(o["nodes"])
        shell["taskmap"] = {
            "scheme": "manual",
            "value": f"[[0,1,{1 + brokers},1],[1,{n_nodes - 1},1,1]]",
        }
        count = {"total": n_nodes + brokers}
    for item, g in settings.get("setopt", []):
        key, eq, raw = item.partition("=")
        val: object = 1
        if eq:
            try:
                val = json.loads(raw)
            except (ValueError, RecursionError):
                val = raw
        _set_tree(shell, key, val, f"attributes.system.shell.options.{key}", g)
    system: dict[str, Any] = {
        "duration": 0,
        "cwd": o.get("cwd", cwd),
        "job": {"name": o.get("job-name", name)},
        "shell": {"options": shell},
    }
    if "time-limit" in o:
        system["duration"] = values.parse_time_limit(o["time-limit"])
    if "queue" in o:
        system["queue"] = o["queue"]
    if "bank" in o:
        system["bank"] = o["bank"]
    if lists.get("dependency"):
        system["dependencies"] = [values.parse_dependency(d) for d in lists["dependency"]]
    if lists.get("requires"):
        system["constraints"] = values.parse_requires(" ".join(lists["requires"]))
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
            setattr_item(js, item)
        except Refused as err:
            raise Refused(str(err), g) from None
        except TypeError as err:
            raise Refused(f"--setattr {_brief(item)}: {err}", g) from None
    for item in lists.get("add-file", []):
        add_file(system, item, cwd, read_files)
    return js


def _set_tree(tree: dict[str, Any], key: str, value: object, shown: str, g: Given | None) -> None:
    """``tree[a][b][c] = value`` for the key ``a.b.c``, levels made on demand, as Flux's
    set_treedict does; :class:`Refused` where a level is not a mapping."""
    parts = key.split(".")
    node = tree
    for part in parts[:-1]:
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            raise Refused(
                f"failed to set {shown} to {_brief(json.dumps(value))}: {part} is already "
                f"{_brief(json.dumps(node))}, not a mapping",
                g,
            )
    node[parts[-1]] = value


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
            _set_tree(out, key, val, key, None)
            return out
        suffix = os.path.splitext(value)[1]
        paths = [os.path.join(cwd, value)] if suffix else []
        for where in [] if suffix else values._named_conf_dirs():
            paths += [os.path.join(where, value + ext) for ext in (".toml", ".json")]
        for path in paths:
            if os.path.exists(path):
                if not _may_read(read_files, "conf", path):
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
