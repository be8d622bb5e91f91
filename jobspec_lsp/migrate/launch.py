"""Launch lines — `srun`, `jsrun`, `lrun`, `mpirun`/`mpiexec`, `aprun` — as `flux run` with
the same task count and layout.

Each launcher's options are declared once (``LAUNCHERS``): how many values it takes and
what it becomes. A launcher given no task count starts what the scheduler's allocation
holds, so its `flux run` gets the allocation's layout (:attr:`Shape.run`) — without it
`flux run` would start one task. A line with an option we do not know, or one Flux has no
form for, is left as it is, with a warning at that word.

References: srun(1) https://slurm.schedmd.com/srun.html; jsrun (IBM Job Step Manager)
https://www.ibm.com/docs/en/spectrum-lsf/10.1.0?topic=jsrun; LLNL lrun
https://hpc.llnl.gov/documentation/user-guides/using-lc-s-sierra-systems; mpirun of Open MPI
https://docs.open-mpi.org/en/v5.0.x/man-openmpi/man1/mpirun.1.html and MPICH's Hydra mpiexec
https://www.mpich.org/static/docs/latest/www1/mpiexec.html; Cray aprun(1)
https://pubs.cray.com/ (aprun -n width, -N per node, -d depth).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from types import ModuleType

from jobspec_lsp.fluxcli import shell
from jobspec_lsp.fluxcli.argv import Word
from jobspec_lsp.migrate import slurm
from jobspec_lsp.migrate.body import Text
from jobspec_lsp.migrate.model import Edit, Finding, Shape, fsd, q
from jobspec_lsp.notations.formats import ascii_int
from jobspec_lsp.record import Record


class Run(Record):
    """What a launch line asks, as `flux run` options (None: not asked). ``rs``...:
    jsrun's resource sets."""

    __slots__ = (
        "nodes", "tasks", "per_node", "cores", "gpus", "rs", "rs_tasks", "rs_cores", "rs_gpus",
        "rs_per_host", "extra", "notes",
    )  # fmt: skip
    nodes: int | None
    tasks: int | None
    per_node: int | None
    cores: int | None
    gpus: int | None
    rs: int | None
    rs_tasks: int | None
    rs_cores: int | None
    rs_gpus: int | None
    rs_per_host: int | None
    extra: list[str]  # other flux run options
    notes: list[str]

    def __init__(self) -> None:
        self.nodes = self.tasks = self.per_node = self.cores = self.gpus = None
        self.rs = self.rs_tasks = self.rs_cores = self.rs_gpus = self.rs_per_host = None
        self.extra = []
        self.notes = []


class Refuse(Exception):
    pass


def _n(v: str, what: str) -> int:
    n = ascii_int(v.partition("-")[0])
    if n is None or n < 1:
        raise Refuse(f"{what} {v!r} is not a count")
    return n


def _set(attr: str) -> Callable[[Run, str], None]:
    def f(run: Run, v: str) -> None:
        setattr(run, attr, _n(v, attr.replace("_", " ")))

    return f


def _extra(fmt: str) -> Callable[[Run, str], None]:
    def f(run: Run, v: str) -> None:
        run.extra.append(fmt.format(q(v)))

    return f


def _drop(why: str) -> Callable[[Run, str], None]:
    def f(run: Run, v: str) -> None:
        run.notes.append(why)

    return f


def _refuse(why: str) -> Callable[[Run, str], None]:
    def f(run: Run, v: str) -> None:
        raise Refuse(why)

    return f


def _time(run: Run, v: str) -> None:
    try:
        secs = slurm.seconds(v)
    except ValueError:
        raise Refuse(f"{v!r} is not a time") from None
    if secs:
        run.extra.append(f"-t {fsd(secs)}")


def _export(run: Run, v: str) -> None:
    parts = [p for p in v.split(",") if p]
    if parts == ["ALL"]:
        return
    if "NONE" in parts or "ALL" not in parts:
        run.extra.append("--env=-*")
    for p in parts:
        if p not in ("ALL", "NONE"):
            run.extra.append(f"--env={q(p)}")


def _gres(run: Run, v: str) -> None:
    if v.startswith("gpu"):
        run.notes.append("--gres on a step: its tasks share the allocation's gpus")
        return
    if v != "none":
        raise Refuse(f"--gres={v}: Flux counts cores and gpus only")


def _taskmap(run: Run, v: str) -> None:
    kind = v.partition(":")[0].partition(",")[0]
    if kind in ("block", "cyclic"):
        run.extra.append(f"--taskmap={kind}")
    else:
        run.notes.append(f"distribution {v!r}: Flux's default block task map is used")


def _env_pair(run: Run, v: str) -> None:
    run.extra.append(f"--env={q(v)}")


def _ppr(run: Run, v: str) -> None:
    m = re.fullmatch(r"ppr:(\d+):node(?::.*)?", v)
    if m:
        run.per_node = int(m.group(1))
    else:
        run.notes.append(f"--map-by {v}: placement is Flux's")


def _host(run: Run, v: str) -> None:
    run.extra.append(f"--requires={q('host:' + v)}")


# option -> (values it takes, what it does)
Table = dict[str, tuple[int, Callable[[Run, str], None]]]
_BIND = "binding is Flux's (flux run -o cpu-affinity=..., -o gpu-affinity=...)"
_MPI = "Flux's job shell provides PMI to MPI: no --mpi needed"
_MEM = "memory is not requested in Flux"

SRUN: Table = {
    "-n": (1, _set("tasks")),
    "--ntasks": (1, _set("tasks")),
    "-N": (1, _set("nodes")),
    "--nodes": (1, _set("nodes")),
    "-c": (1, _set("cores")),
    "--cpus-per-task": (1, _set("cores")),
    "--ntasks-per-node": (1, _set("per_node")),
    "--gpus-per-task": (1, _set("gpus")),
    "--gres": (1, _gres),
    "--mpi": (1, _drop(_MPI)),
    "--cpu-bind": (1, _drop(_BIND)),
    "--cpu_bind": (1, _drop(_BIND)),
    "--gpu-bind": (1, _drop(_BIND)),
    "--hint": (1, _drop(_BIND)),
    "--export": (1, _export),
    "-l": (0, _extra("--label-io")),
    "--label": (0, _extra("--label-io")),
    "-u": (0, _extra("-u")),
    "--unbuffered": (0, _extra("-u")),
    "-o": (1, _extra("--output={}")),
    "--output": (1, _extra("--output={}")),
    "-e": (1, _extra("--error={}")),
    "--error": (1, _extra("--error={}")),
    "-i": (1, _extra("--input={}")),
    "--input": (1, _extra("--input={}")),
    "-t": (1, _time),
    "--time": (1, _time),
    "-J": (1, _extra("--job-name={}")),
    "--job-name": (1, _extra("--job-name={}")),
    "-D": (1, _extra("--cwd={}")),
    "--chdir": (1, _extra("--cwd={}")),
    "-m": (1, _taskmap),
    "--distribution": (1, _taskmap),
    "-w": (1, _host),
    "--nodelist": (1, _host),
    "--exclusive": (0, _drop("a Flux job's tasks have their cores to themselves")),
    "--overlap": (0, _drop("Flux jobs in an instance share nothing they were not given")),
    "--mem": (1, _drop(_MEM)),
    "--mem-per-cpu": (1, _drop(_MEM)),
    "--mem-per-gpu": (1, _drop(_MEM)),
    "-K": (0, _drop("a Flux job's failing task ends the job (flux run's default)")),
    "--kill-on-bad-exit": (0, _drop("a Flux job's failing task ends the job")),
    "-W": (1, _drop("Flux has no step wait time")),
    "--wait": (1, _drop("Flux has no step wait time")),
    "-v": (0, _drop("nothing to carry")),
    "-Q": (0, _drop("nothing to carry")),
    "--quiet": (0, _drop("nothing to carry")),
    "--pty": (0, _extra("-o pty.interactive")),
    "--multi-prog": (0, _refuse("--multi-prog: each task its own program has no flux run form")),
    "--het-group": (1, _refuse("--het-group: Flux has no heterogeneous steps")),
    "--cpus-per-gpu": (1, _drop("give each task its cores with -c")),
    "--threads-per-core": (1, _drop("Flux allocates cores")),
    "--gpus-per-node": (1, _drop("its tasks share the allocation's gpus")),
    "--gpus": (1, _drop("its tasks share the allocation's gpus")),
}
JSRUN: Table = {
    "-n": (1, _set("rs")),
    "--nrs": (1, _set("rs")),
    "-a": (1, _set("rs_tasks")),
    "--tasks_per_rs": (1, _set("rs_tasks")),
    "-c": (1, _set("rs_cores")),
    "--cpu_per_rs": (1, _set("rs_cores")),
    "-g": (1, _set("rs_gpus")),
    "--gpu_per_rs": (1, _set("rs_gpus")),
    "-r": (1, _set("rs_per_host")),
    "--rs_per_host": (1, _set("rs_per_host")),
    "-p": (1, _set("tasks")),
    "--np": (1, _set("tasks")),
    "-b": (1, _drop(_BIND)),
    "--bind": (1, _drop(_BIND)),
    "-d": (1, _taskmap),
    "--launch_distribution": (1, _taskmap),
    "-l": (1, _drop("Flux places tasks by its own latency rules")),
    "--latency_priority": (1, _drop("Flux places tasks by its own latency rules")),
    "-M": (1, _drop("Spectrum MPI options have no meaning to Flux's MPI")),
    "--smpiargs": (1, _drop("Spectrum MPI options have no meaning to Flux's MPI")),
    "-E": (1, _env_pair),
    "--env": (1, _env_pair),
    "-e": (1, _drop("Flux labels output with --label-io")),
    "--stdio_mode": (1, _drop("Flux labels output with --label-io")),
    "-k": (1, _extra("--error={}")),
    "--stdio_stderr": (1, _extra("--error={}")),
    "-o": (1, _extra("--output={}")),
    "--stdio_stdout": (1, _extra("--output={}")),
    "-X": (1, _drop("nothing to carry")),
}
LRUN: Table = {
    "-N": (1, _set("nodes")),
    "-T": (1, _set("per_node")),
    "-n": (1, _set("tasks")),
    "-c": (1, _set("cores")),
    "-g": (1, _set("gpus")),
    "-1": (0, _drop("one task per node: see -N")),
    "-M": (1, _drop("Spectrum MPI options have no meaning to Flux's MPI")),
    "--smpiargs": (1, _drop("Spectrum MPI options have no meaning to Flux's MPI")),
    "-v": (0, _drop("nothing to carry")),
}
MPIRUN: Table = {
    "-n": (1, _set("tasks")),
    "-np": (1, _set("tasks")),
    "--np": (1, _set("tasks")),
    "-c": (1, _set("tasks")),
    "-ppn": (1, _set("per_node")),
    "--ppn": (1, _set("per_node")),
    "-npernode": (1, _set("per_node")),
    "--npernode": (1, _set("per_node")),
    "--map-by": (1, _ppr),
    "-map-by": (1, _ppr),
    "--bind-to": (1, _drop(_BIND)),
    "-bind-to": (1, _drop(_BIND)),
    "-x": (1, _env_pair),
    "-genv": (2, lambda run, v: run.extra.append(f"--env={q(v.replace(' ', '=', 1))}")),
    "-env": (2, lambda run, v: run.extra.append(f"--env={q(v.replace(' ', '=', 1))}")),
    "-hostfile": (1, _drop("the hosts are the allocation's")),
    "--hostfile": (1, _drop("the hosts are the allocation's")),
    "-machinefile": (1, _drop("the hosts are the allocation's")),
    "-f": (1, _drop("the hosts are the allocation's")),
    "--oversubscribe": (0, _drop("each Flux task has its own cores")),
    "--report-bindings": (0, _drop("nothing to carry")),
    "--display-map": (0, _drop("nothing to carry")),
    "--mca": (2, _drop("Open MPI's MCA parameters: set them as OMPI_MCA_* with --env")),
    "-mca": (2, _drop("Open MPI's MCA parameters: set them as OMPI_MCA_* with --env")),
    "--allow-run-as-root": (0, _drop("nothing to carry")),
    "-l": (0, _extra("--label-io")),
    "-prepend-rank": (0, _extra("--label-io")),
}
APRUN: Table = {
    "-n": (1, _set("tasks")),
    "-N": (1, _set("per_node")),
    "-d": (1, _set("cores")),
    "-cc": (1, _drop(_BIND)),
    "-j": (1, _drop("Flux allocates cores")),
    "-S": (1, _drop("per NUMA node counts: placement is Flux's")),
    "-ss": (0, _drop("memory placement is Flux's")),
    "-b": (0, _drop("nothing to carry")),
    "-q": (0, _drop("nothing to carry")),
    "-e": (1, _env_pair),
}
LAUNCHERS: dict[str, Table] = {
    "srun": SRUN,
    "jsrun": JSRUN,
    "lrun": LRUN,
    "mpirun": MPIRUN,
    "mpiexec": MPIRUN,
    "mpiexec.hydra": MPIRUN,
    "aprun": APRUN,
}
_START = re.compile(r"(?<![\w./$-])(srun|jsrun|lrun|mpirun|mpiexec(?:\.hydra)?|aprun)(?=[ \t]|$)")
_PREFIX_WORDS = re.compile(r"(?:(?:\w+=\S*|exec|time|nohup|command|then|do|else|!)\s+)*$")
_COMMAND_STARTS = ("$(", "`", "(", "|", ";", "&", "{")


def _at_command(text: str, ls: int, at: int) -> bool:
    """Whether ``at`` stands where a command starts: the line's start, or after an
    operator, `$(`, a backquote, and any assignments or prefix words (exec, time, ...)."""
    before = text[ls:at]
    m = _PREFIX_WORDS.search(before)
    rest = before[: m.start() if m else len(before)].rstrip()
    return rest == "" or rest.endswith(_COMMAND_STARTS)


class Launch(Record):
    __slots__ = ("tool", "start", "program", "options", "notes")
    tool: str
    start: int
    program: int  # where the program's word starts (the rest of the line stays)
    options: list[str]  # the flux run options
    notes: list[str]

    def __init__(
        self, tool: str, start: int, program: int, options: list[str], notes: list[str]
    ) -> None:
        self.tool = tool
        self.start = start
        self.program = program
        self.options = options
        self.notes = notes


def _read(tool: str, words: list[Word], sh: Shape) -> tuple[Run, int]:
    """The options of a launcher's words; returns them and the program word's index."""
    table = LAUNCHERS[tool]
    run = Run()
    i = 0
    while i < len(words):
        v = words[i].value
        if not v.startswith("-") or v == "-":
            break
        if v == "--":
            i += 1
            break
        name, eq, val = v.partition("=")
        spec = table.get(name) if v not in table else table[v]
        if v in table:
            name, eq, val = v, "", ""
        if spec is None and not eq and len(v) > 2 and v[:2] in table and v[1] != "-":
            name, val, eq = v[:2], v[2:], "attached"
            spec = table[name]
        if spec is None:
            raise Refuse(f"{tool} option {name!r} is not one the conversion knows")
        count, do = spec
        if count == 0:
            do(run, "")
            i += 1
            continue
        if eq:
            do(run, val)
            i += 1
            continue
        if i + count >= len(words):
            raise Refuse(f"{name} needs a value")
        do(run, " ".join(w.value for w in words[i + 1 : i + 1 + count]))
        i += 1 + count
    return run, i


def _options(tool: str, run: Run, sh: Shape) -> list[str]:
    """The `flux run` options for what ``run`` asks, the allocation filling the gaps."""
    if tool == "jsrun":
        a = run.rs_tasks or 1
        if run.tasks and not run.rs:
            run.rs = -(-run.tasks // a)
        if run.rs is None:
            if not run.rs_per_host:
                raise Refuse(
                    "no -n: jsrun then starts as many resource sets as the nodes' cores "
                    "hold, which depends on the machine; give -n"
                )
            run.rs = run.rs_per_host * (sh.nodes or 1)
            run.notes.append(f"no -n: {run.rs_per_host} resource sets on each of the job's nodes")
        run.tasks = run.tasks or run.rs * a
        if run.rs_cores:
            if run.rs_cores % a == 0:
                run.cores = run.rs_cores // a
            else:
                run.notes.append(
                    f"{run.rs_cores} cores per resource set do not divide among its {a} "
                    f"tasks: each task gets {max(1, run.rs_cores // a)}"
                )
                run.cores = max(1, run.rs_cores // a)
        if run.rs_gpus:
            if run.rs_gpus % a == 0:
                run.gpus = run.rs_gpus // a
            else:
                run.notes.append(
                    f"{run.rs_gpus} gpus per resource set are shared by its {a} tasks: "
                    "Flux gives gpus per task, so they share the node's"
                )
        if run.rs_per_host:
            run.nodes = -(-run.rs // run.rs_per_host)
            run.per_node = run.rs_per_host * a if run.rs % run.rs_per_host == 0 else None
    out: list[str] = []
    given_size = run.tasks or run.nodes or run.per_node
    if not given_size:
        return list(sh.run) + run.extra
    nodes, tasks = _layout(tool, run, sh)
    if nodes:
        out.append(f"-N{nodes}")
    out.append(f"-n{tasks}")
    cores = run.cores or (sh.cores_per_task if tool in ("srun",) else None)
    if cores and cores > 1:
        out.append(f"-c{cores}")
    if run.gpus:
        out.append(f"-g{run.gpus}")
    return out + run.extra


def _layout(tool: str, run: Run, sh: Shape) -> tuple[int | None, int]:
    """(nodes, tasks) of a step: the per-node layout carried as a node count, since Flux
    spreads ``-n`` tasks over ``-N`` nodes as evenly as they go, in blocks (`-n 2
    --ntasks-per-node=1` → `-N2 -n2`, `aprun -n 32 -N 8` → `-N4 -n32`); a layout Flux
    spreads otherwise is said in a note."""
    nodes, tasks, per = run.nodes, run.tasks, run.per_node
    if tasks is None and per:
        nodes = nodes or sh.nodes or 1
        tasks = nodes * per
    if tasks is None:
        tasks = (sh.tasks if nodes == sh.nodes else nodes) if nodes is not None else 1
    if per and nodes is None:
        nodes = -(-tasks // per)
    if nodes and nodes > tasks:
        run.notes.append(
            f"{nodes} nodes for {tasks} tasks: as {tool} does, {tasks} node(s) are used"
        )
        nodes = tasks
    if per and nodes and -(-tasks // nodes) != per:
        run.notes.append(
            f"{per} tasks per node: Flux spreads {tasks} tasks over {nodes} nodes, "
            f"{-(-tasks // nodes)} on each but the last"
        )
    return nodes, tasks


def find(text: str, skip: Text | None = None) -> list[tuple[str, int, list[Word], set[int], int]]:
    """(tool, start, words after it, dynamic word indexes, end) of each launch line."""
    where = skip or Text(text)
    out = []
    for m in _START.finditer(text):
        at = m.start()
        ls = text.rfind("\n", 0, at) + 1
        if where.in_comment(at) or where.in_literal(at):
            continue
        if not _at_command(text, ls, at):
            continue
        words, dynamic, end = shell.split(text, m.end())
        out.append((m.group(1), at, words, dynamic, end))
    return out


_VAR_WORD = re.compile(r"\$(?:\{(\w+)\}|(\w+))")


def _resolve(words: list[Word], dynamic: set[int], mod: ModuleType, sh: Shape):
    """Words that are one of the scheduler's figures (`-n $SLURM_NTASKS`) read as the
    figure the directives give, as the conversion writes it in the body."""
    out, still = list(words), set(dynamic)
    for i in dynamic:
        m = _VAR_WORD.fullmatch(words[i].value)
        if not m:
            continue
        how = mod.VARIABLES.get(m.group(1) or m.group(2), (None, ""))[0]
        if how and how.startswith("{"):
            value = how.format(
                tasks=sh.tasks, nodes=sh.nodes or 1, cores_per_task=sh.cores_per_task
            )
            out[i] = Word(value, words[i].start, words[i].end)
            still.discard(i)
    return out, still


def convert(text: str, mod: ModuleType, sh: Shape, body: int):
    """Edits turning each launch line into `flux run`, and findings."""
    edits: list[Edit] = []
    findings: list[Finding] = []
    if not any(t in text for t in ("srun", "jsrun", "lrun", "mpirun", "mpiexec", "aprun")):
        return edits, findings
    for tool, at, words, dynamic, _end in find(text):
        if at < body:
            continue
        end_tool = at + len(tool)
        try:
            words, dynamic = _resolve(words, dynamic, mod, sh)
            run, k = _read(tool, words, sh)
            if any(i < k for i in dynamic):
                raise Refuse("an option given by a variable: its value is known only at run time")
            if k >= len(words):
                raise Refuse("no program to run")
            opts = _options(tool, run, sh)
        except Refuse as why:
            findings.append(
                Finding(
                    "launch", at, end_tool, f"{tool}: {why}; left as it is (convert it by hand)"
                )
            )
            continue
        program = words[k].start
        new = "flux run " + " ".join(opts) + " "
        edits.append(Edit(at, program, new))
        said = f"{tool} → flux run {' '.join(opts)}"
        for note in run.notes:
            said += f"; {note}"
        findings.append(Finding("command", at, end_tool, said))
    return edits, findings
