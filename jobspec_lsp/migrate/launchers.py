"""The launchers' options, declared once: `srun`, `jsrun`, `lrun`, `mpirun`/`mpiexec` (Open
MPI, MPICH/Cray PALS, Intel MPI) and `aprun`, each option with how many values it takes and
what it makes of a step (:class:`Run`): a count, a `flux run` option, a note, a refusal.
A count the shell gives at run time (`${NTOTRANKS}`) is kept as its word (:data:`Count`).
:mod:`.launch` reads launch lines with these tables and writes their `flux run`.

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

from jobspec_lsp.migrate import slurm
from jobspec_lsp.migrate.model import fsd, q
from jobspec_lsp.notations.formats import ascii_int
from jobspec_lsp.record import Record

Count = int | str  # a number, or the shell word that gives it when the step runs


def is_dynamic(v: str) -> bool:
    return "$" in v or "`" in v


def arith(x: Count) -> str:
    """``x`` inside a shell's arithmetic expansion."""
    return str(x) if isinstance(x, int) else x.strip('"')


def mul(a: Count, b: Count) -> Count:
    if isinstance(a, int) and isinstance(b, int):
        return a * b
    if a == 1 or b == 1:
        return b if a == 1 else a
    return f"$(( {arith(a)} * {arith(b)} ))"


def ceil_div(a: Count, b: Count) -> Count:
    if isinstance(a, int) and isinstance(b, int):
        return -(-a // b)
    if b == 1:
        return a
    return f"$(( ({arith(a)} + {arith(b)} - 1) / {arith(b)} ))"


def opt(flag: str, x: Count) -> str:
    """A `flux run` count option: `-n4`, or `-n ${N}` for a shell word."""
    return f"{flag}{x}" if isinstance(x, int) else f"{flag} {x}"


class Run(Record):
    """What a launch line asks, as `flux run` options (None: not asked). ``rs``...:
    jsrun's resource sets."""

    __slots__ = (
        "nodes", "tasks", "per_node", "cores", "gpus", "rs", "rs_tasks", "rs_cores", "rs_gpus",
        "rs_per_host", "extra", "notes",
    )  # fmt: skip
    # a count, or a shell word that gives it at run time (`${NTOTRANKS}`, `$((N * 4))`)
    nodes: Count | None
    tasks: Count | None
    per_node: Count | None
    cores: Count | None
    gpus: Count | None
    rs: Count | None
    rs_tasks: Count | None
    rs_cores: Count | None
    rs_gpus: Count | None
    rs_per_host: Count | None
    extra: list[str]  # other flux run options
    notes: list[str]

    def __init__(self) -> None:
        self.nodes = self.tasks = self.per_node = self.cores = self.gpus = None
        self.rs = self.rs_tasks = self.rs_cores = self.rs_gpus = self.rs_per_host = None
        self.extra = []
        self.notes = []


class Refuse(Exception):
    pass


def _n(v: str, what: str) -> Count:
    if is_dynamic(v):
        return v  # given by the shell when the step runs: carried as that word
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
    "-G": (1, _drop("its tasks share the allocation's gpus")),
    "--exact": (0, _drop("a Flux step gets only the cores it asks for")),
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
    # Open MPI 5: -N n processes per node; MPICH/Cray PALS: --depth cores per rank,
    # --cpu-bind; Intel MPI: -perhost, -rr (one per node)
    "-N": (1, _set("per_node")),
    "--depth": (1, _set("cores")),
    "-depth": (1, _set("cores")),
    "-d": (1, _set("cores")),
    "--cpu-bind": (1, _drop(_BIND)),
    "-cpu-bind": (1, _drop(_BIND)),
    "-perhost": (1, _set("per_node")),
    "-rr": (0, lambda run, v: setattr(run, "per_node", 1)),
    "--line-buffer": (0, _extra("-u")),
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
