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
import shlex
from collections.abc import Callable

from jobspec_lsp.job.steps import Count, Step
from jobspec_lsp.migrate import pyxis, slurm
from jobspec_lsp.migrate.model import fsd, is_dynamic
from jobspec_lsp.notations.formats import ascii_int

# a template's placeholder, filled in before the script runs (tbg's `!TBG_tasks`, `{{n}}`,
# `{nodes*ppn}`, `%NODES%`, `@NODES@`, `<nproc>`, ...): a count it gives is carried as written
_PLACEHOLDER = re.compile(
    r"!TBG_\w+|\{\{[^{}]*\}\}|\{[\w*+/ -]+\}|%\w+%|@@?\w+(?:@@?)?|<\w+>|__\w+__|\w*PLACEHOLDER\w*"
)


def is_placeholder(v: str) -> bool:
    return _PLACEHOLDER.fullmatch(v) is not None


def word(v: str) -> str:
    """A value as one word of a launch line: a word the shell expands stays as the script
    wrote it (quoting it would stop the expansion), any other quoted as the shell reads
    it (a line break inside quotes too: a launch line is the shell's, not a directive)."""
    return v if is_dynamic(v) else shlex.quote(v)


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


class Run(Step, pyxis.HasBox):
    """What a launch line asks: the job model's :class:`~jobspec_lsp.job.steps.Step` (nodes,
    tasks, tasks per node, cores and GPUs of each task, None where not asked) with what a
    launcher adds: ``rs``...: jsrun's resource sets."""

    __slots__ = (
        "rs", "rs_tasks", "rs_cores", "rs_gpus",
        "rs_per_host", "relative", "whole", "all_hosts", "program", "dangling", "share", "extra",
        "notes", "share_word", "container",
    )  # fmt: skip
    # a count, or a shell word that gives it at run time (`${NTOTRANKS}`, `$((N * 4))`)
    rs: Count | None
    rs_tasks: Count | None
    rs_cores: Count | None
    rs_gpus: Count | None
    rs_per_host: Count | None
    relative: Count | None  # srun -r: the step's first node, counted in the job's nodes
    whole: bool  # jsrun ALL_CPUS / ALL_GPUS: each resource set a host's all
    all_hosts: bool  # jsrun -n ALL_HOSTS: a resource set on each of the job's nodes
    program: str  # written before the program's words (srun --multi-prog: flux multi-prog)
    dangling: str  # a held launcher's last option, its value given where it runs: `-n`
    share: int  # jsrun: GPUs a node whose tasks share them (they do not divide)
    share_word: str  # the same, given by the shell's words (the script's numbers: no divide)
    extra: list[str]  # other flux run options
    notes: list[str]
    container: pyxis.Box | None  # srun's Pyxis container: its program run in Apptainer

    def __init__(self) -> None:
        super().__init__()
        self.rs = self.rs_tasks = self.rs_cores = self.rs_gpus = self.rs_per_host = None
        self.relative = None
        self.whole = self.all_hosts = False
        self.program = self.dangling = ""
        self.share = 0
        self.share_word = ""
        self.extra = []
        self.notes = []
        self.container = None


class Refuse(Exception):
    pass


def _n(v: str, what: str, zero: bool = False) -> Count:
    if is_dynamic(v) or is_placeholder(v):
        return v  # given by the shell when the step runs, or a template: carried as written
    n = ascii_int(v.partition("-")[0])
    if n is None or n < (0 if zero else 1):
        raise Refuse(f"{what} {v!r} is not a count")
    return n


def _set(attr: str) -> Callable[[Run, str], None]:
    """A count's reader (GPUs may be 0: none asked)."""

    def f(run: Run, v: str) -> None:
        setattr(run, attr, _n(v, attr.replace("_", " "), zero="gpus" in attr))

    f.count = True  # type: ignore[attr-defined]  # a value attached to its letter: a number
    f.attr = attr  # type: ignore[attr-defined]
    return f


def _extra(fmt: str) -> Callable[[Run, str], None]:
    def f(run: Run, v: str) -> None:
        run.extra.append(fmt.format(word(v)))

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
            run.extra.append(f"--env={word(p)}")


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
    run.extra.append(f"--env={word(v)}")


def _ppr(run: Run, v: str) -> None:
    m = re.fullmatch(r"ppr:(\d+):node(?::.*)?", v)
    if m:
        run.per_node = int(m.group(1))
        pe = re.search(r":(?:PE|pe)=(\d+)", v)  # PE=N: N cores bound to each process
        if pe:
            run.cores = int(pe.group(1))
    else:
        run.notes.append(f"--map-by {v}: placement is Flux's")


def _host(run: Run, v: str) -> None:
    run.extra.append(f"--requires={word('host:' + v)}")


def _hosts(run: Run, v: str) -> None:
    """MPI's host lists (`--host a:4,b:4`): the hosts, their slot counts left to -n."""
    _host(run, re.sub(r":\d+(?=,|$)", "", v))


def _exclude(run: Run, v: str) -> None:
    run.extra.append(f"--requires={word('-host:' + v)}")


def _jobid(run: Run, v: str) -> None:
    if "SLURM_JOB" not in v and "flux getattr jobid" not in v:
        raise Refuse(f"--jobid={v}: a step of another job has no flux run form")
    run.notes.append("--jobid of the job itself: a flux run step is in its job")


def _relative(run: Run, v: str) -> None:
    run.relative = _n(v, "relative node", zero=True)


def _multi_prog(run: Run, v: str) -> None:
    run.program = "flux multi-prog "
    run.notes.append("each task's program from the file by flux multi-prog (srun's format)")


def _open_mode(run: Run, v: str) -> None:
    if v.startswith("a"):
        run.extra.append("-o output.mode=append")


def _envlist(run: Run, v: str) -> None:
    run.extra.extend(f"--env={word(name)}" for name in v.split(",") if name)


def _env_remove(run: Run, v: str) -> None:
    run.extra.append(f"--env-remove={word(v)}")


def _rs_all(attr: str) -> Callable[[Run, str], None]:
    """jsrun -c ALL_CPUS, -g ALL_GPUS: a resource set holds a host's all; else a count."""
    count = _set(attr)

    def f(run: Run, v: str) -> None:
        if v in ("ALL_CPUS", "ALL_GPUS"):
            run.whole = True
        else:
            count(run, v)

    return f


def _nrs(run: Run, v: str) -> None:
    if v == "ALL_HOSTS":
        run.all_hosts = True
    else:
        run.rs = _n(v, "rs")


# option -> (values it takes, what it does)
Table = dict[str, tuple[int, Callable[[Run, str], None]]]
_BIND = "binding is Flux's (flux run -o cpu-affinity=..., -o gpu-affinity=...)"
_MPI = "Flux's job shell provides PMI to MPI: no --mpi needed"
_MEM = "memory is not requested in Flux"
_IN_JOB = "a step runs in the job's own allocation: its queue, account and QOS are the job's"
_PLACE = "placement is Flux's (its tasks spread over -N nodes in blocks)"
_NOTHING = "nothing to carry"
# srun(1): a dependency applies to job allocations, not to the steps of one; real Slurm
# 22.05 runs `srun -d afterok:999999 hostname` in a batch job at once
_STEP_DEPENDENCY = "srun applies a dependency to allocations only: a batch job's step runs at once"
_MPMD = "each rank set its own program (MPMD) has no flux run form"

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
    "--multi-prog": (0, _multi_prog),
    "--het-group": (1, _refuse("--het-group: Flux has no heterogeneous steps")),
    "--cpus-per-gpu": (1, _drop("give each task its cores with -c")),
    "--threads-per-core": (1, _drop("Flux allocates cores")),
    "--gpus-per-node": (1, _drop("its tasks share the allocation's gpus")),
    "--gpus": (1, _drop("its tasks share the allocation's gpus")),
    "-G": (1, _drop("its tasks share the allocation's gpus")),
    "--exact": (0, _drop("a Flux step gets only the cores it asks for")),
    "--tasks-per-node": (1, _set("per_node")),
    "--jobid": (1, _jobid),
    "-r": (1, _relative),
    "--relative": (1, _relative),
    "-x": (1, _exclude),
    "--exclude": (1, _exclude),
    "-k": (0, _drop("Flux ends a step whose node fails")),
    "--no-kill": (0, _drop("Flux ends a step whose node fails")),
    "-p": (1, _drop(_IN_JOB)),
    "--partition": (1, _drop(_IN_JOB)),
    "-A": (1, _drop(_IN_JOB)),
    "--account": (1, _drop(_IN_JOB)),
    "-q": (1, _drop(_IN_JOB)),
    "--qos": (1, _drop(_IN_JOB)),
    "-C": (1, _drop("a step runs on the job's nodes (a batch instance's nodes have no features)")),
    "--constraint": (1, _drop("a step runs on the job's nodes")),
    "--comment": (1, _drop(_NOTHING)),
    "--accel-bind": (1, _drop(_BIND)),
    "--mem-bind": (1, _drop(_BIND)),
    "--propagate": (1, _drop("Flux propagates resource limits (flux run's default)")),
    "--ntasks-per-socket": (1, _drop(_PLACE)),
    "--ntasks-per-core": (1, _drop(_PLACE)),
    "--sockets-per-node": (1, _drop(_PLACE)),
    "--cores-per-socket": (1, _drop(_PLACE)),
    "--spread-job": (0, _drop(_PLACE)),
    "--open-mode": (1, _open_mode),
    "--oversubscribe": (0, _drop("a Flux step's cores are its own")),
    "-s": (0, _drop("a Flux step's cores are its own")),
    "--overcommit": (0, _refuse("--overcommit: Flux gives each task its own cores")),
    "-O": (0, _refuse("--overcommit: Flux gives each task its own cores")),
    "--cpu-freq": (1, _drop("Flux sets no CPU frequency")),
    "--resv-ports": (0, _drop(_MPI)),
    "--verbose": (0, _drop(_NOTHING)),
    "--mincpus": (1, _drop("give each task its cores with -c")),
    "--whole": (0, _drop("a Flux step gets the cores it asks for")),
    "--network": (1, _drop("Flux has no network option")),
    "-I": (0, _drop(_NOTHING)),
    "--immediate": (0, _drop(_NOTHING)),
    "-X": (0, _drop(_NOTHING)),
    "--disable-status": (0, _drop(_NOTHING)),
    "--gpus-per-socket": (1, _drop("its tasks share the allocation's gpus")),
    "-d": (1, _drop(_STEP_DEPENDENCY)),
    "--dependency": (1, _drop(_STEP_DEPENDENCY)),
    "--ntasks-per-gpu": (1, _drop("give each task its gpus with -g")),
    **pyxis.OPTIONS,  # Pyxis containers: the program run through Apptainer
}
JSRUN: Table = {
    "-n": (1, _nrs),
    "--nrs": (1, _nrs),
    "-a": (1, _set("rs_tasks")),
    "--tasks_per_rs": (1, _set("rs_tasks")),
    "-c": (1, _rs_all("rs_cores")),
    "--cpu_per_rs": (1, _rs_all("rs_cores")),
    "-g": (1, _rs_all("rs_gpus")),
    "--gpu_per_rs": (1, _rs_all("rs_gpus")),
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
    "-P": (1, _drop(_NOTHING)),
    "--print_placement": (1, _drop(_NOTHING)),
    "-h": (1, _extra("--cwd={}")),
    "--chdir": (1, _extra("--cwd={}")),
    "-D": (1, _env_remove),
    "--env_no_propagate": (1, _env_remove),
    "-i": (0, _drop(_NOTHING)),
    "--immediate": (0, _drop(_NOTHING)),
    "--erf_output": (1, _drop(_NOTHING)),
    "-U": (1, _refuse("an explicit resource file (ERF): its layout is not read")),
    "--erf_input": (1, _refuse("an explicit resource file (ERF): its layout is not read")),
}
LRUN: Table = {
    "-N": (1, _set("nodes")),
    "-T": (1, _set("per_node")),
    "-p": (1, _set("tasks")),  # lrun -T<per node> | -p<tasks> [-N<nodes>] (LLNL's usage)
    "-n": (1, _set("tasks")),
    "-c": (1, _set("cores")),
    "-g": (1, _set("gpus")),
    "-1": (0, _drop("one task per node: see -N")),
    "-M": (1, _drop("Spectrum MPI options have no meaning to Flux's MPI")),
    "--smpiargs": (1, _drop("Spectrum MPI options have no meaning to Flux's MPI")),
    "-v": (0, _drop("nothing to carry")),
    "--gpubind": (1, _drop(_BIND)),
    "--nolbind": (0, _drop(_BIND)),
}
MPIRUN: Table = {
    "-n": (1, _set("tasks")),
    "-np": (1, _set("tasks")),
    "--np": (1, _set("tasks")),
    "--n": (1, _set("tasks")),
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
    "-genv": (2, lambda run, v: run.extra.append(f"--env={word(v.replace(' ', '=', 1))}")),
    "-env": (2, lambda run, v: run.extra.append(f"--env={word(v.replace(' ', '=', 1))}")),
    "-hostfile": (1, _drop("the hosts are the allocation's")),
    "--hostfile": (1, _drop("the hosts are the allocation's")),
    "-machinefile": (1, _drop("the hosts are the allocation's")),
    "-f": (1, _drop("the hosts are the allocation's")),
    "--oversubscribe": (0, _drop("each Flux task has its own cores")),
    "--report-bindings": (0, _drop("nothing to carry")),
    "--display-map": (0, _drop("nothing to carry")),
    # Open MPI's reports of its own placement (mpirun(1): -display-devel-map, ...)
    "--display-devel-map": (0, _drop(_NOTHING)),
    "-display-devel-map": (0, _drop(_NOTHING)),
    "-display-allocation": (0, _drop(_NOTHING)),
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
    "--host": (1, _hosts),
    "-host": (1, _hosts),
    "-H": (1, _hosts),
    "--hosts": (1, _hosts),
    "-hosts": (1, _hosts),
    "-report-bindings": (0, _drop(_NOTHING)),
    "--tag-output": (0, _extra("--label-io")),
    "-tag-output": (0, _extra("--label-io")),
    "-bootstrap": (1, _drop(_MPI)),
    "-launcher": (1, _drop(_MPI)),
    "-rmk": (1, _drop(_MPI)),
    "-iface": (1, _drop(_MPI)),
    "-PSM2": (0, _drop(_MPI)),
    "--configfile": (1, _refuse(_MPMD)),
    "-configfile": (1, _refuse(_MPMD)),
    "-genvlist": (1, _envlist),
    "-envlist": (1, _envlist),
    "-genvall": (0, _drop("Flux passes the environment (flux run's default)")),
    "-envall": (0, _drop("Flux passes the environment (flux run's default)")),
    "--envall": (0, _drop("Flux passes the environment (flux run's default)")),
    "--env": (1, _env_pair),
    "--exclusive": (0, _drop("a Flux job's tasks have their cores to themselves")),
    "--no-transfer": (0, _drop(_NOTHING)),
    "-wdir": (1, _extra("--cwd={}")),
    "--wdir": (1, _extra("--cwd={}")),
    "-wd": (1, _extra("--cwd={}")),
    "--mem-bind": (1, _drop(_BIND)),
    "-v": (0, _drop(_NOTHING)),
    "--verbose": (0, _drop(_NOTHING)),
    "-q": (0, _drop(_NOTHING)),
    "--quiet": (0, _drop(_NOTHING)),
    "--bind-to-core": (0, _drop(_BIND)),
    "-bind-to-core": (0, _drop(_BIND)),
    "--bind-to-socket": (0, _drop(_BIND)),
    "-bind-to-socket": (0, _drop(_BIND)),
    "--bind-to-none": (0, _drop(_BIND)),
    "-bynode": (0, _drop(_PLACE)),
    "--bynode": (0, _drop(_PLACE)),
    "-byslot": (0, _drop(_PLACE)),
    "--byslot": (0, _drop(_PLACE)),
    "-npersocket": (1, _drop(_PLACE)),
    "--npersocket": (1, _drop(_PLACE)),
    "--rankfile": (1, _drop(_PLACE)),
    "-rankfile": (1, _drop(_PLACE)),
    "-rf": (1, _drop(_PLACE)),
    "--use-hwthread-cpus": (0, _drop("Flux allocates cores")),
    "--leave-session-attached": (0, _drop(_NOTHING)),
    "--machinefile": (1, _drop("the hosts are the allocation's")),
    "--display-allocation": (0, _drop(_NOTHING)),
    "-print-rank-map": (0, _drop(_NOTHING)),
    "-ordered-output": (0, _drop(_NOTHING)),
    "--cpus-per-proc": (1, _set("cores")),
    "-cpus-per-proc": (1, _set("cores")),
    "--cpus-per-rank": (1, _set("cores")),
    "-cpus-per-rank": (1, _set("cores")),
    "--nooversubscribe": (0, _drop(_NOTHING)),
    "-prot": (0, _drop(_NOTHING)),
    "-gpu": (0, _drop("Spectrum MPI options have no meaning to Flux's MPI")),
    "-mxm": (0, _drop(_MPI)),
    "-am": (1, _drop("Open MPI's MCA parameters: set them as OMPI_MCA_* with --env")),
    "--am": (1, _drop("Open MPI's MCA parameters: set them as OMPI_MCA_* with --env")),
    "-display-map": (0, _drop(_NOTHING)),
    "--pernode": (0, lambda run, v: setattr(run, "per_node", 1)),
    "-pernode": (0, lambda run, v: setattr(run, "per_node", 1)),
    "--rank-by": (1, _drop(_PLACE)),
    "-rank-by": (1, _drop(_PLACE)),
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
    "--cc": (1, _drop(_BIND)),
    "-B": (0, _drop("-B: the batch job's own layout, as a step given no size gets")),
    "-r": (1, _drop("core specialization: Flux allocates cores")),
    "-m": (1, _drop(_MEM)),
    "-a": (1, _drop(_NOTHING)),
    "-T": (0, _drop(_NOTHING)),
    "--bypass-app-transfer": (0, _drop(_NOTHING)),
    "-F": (1, _drop("a Flux job's tasks have their cores to themselves")),
    "-p": (1, _drop(_NOTHING)),
    # the long forms (HPE's aprun; geopm's and SmartSim's readers of aprun spell them so)
    "--pes": (1, _set("tasks")),
    "--pes-per-node": (1, _set("per_node")),
    "--cpus-per-pe": (1, _set("cores")),
    "--cpu-binding": (1, _drop(_BIND)),
    "--memory-per-pe": (1, _drop(_MEM)),
    "--specialized-cpus": (1, _drop("core specialization: Flux allocates cores")),
    "--environment-override": (1, _env_pair),
    "--batch-args": (0, _drop("-B: the batch job's own layout, as a step given no size gets")),
}
# TACC's ibrun: -n tasks, -o an offset in the job's tasks (a flux run step gets its own)
IBRUN: Table = {
    "-n": (1, _set("tasks")),
    "-np": (1, _set("tasks")),
    "-o": (1, _drop("a flux run step gets cores of its own: no offset needed")),
    "--npernode": (1, _set("per_node")),
    "-npernode": (1, _set("per_node")),
}
LAUNCHERS: dict[str, Table] = {
    "srun": SRUN,
    "jsrun": JSRUN,
    "lrun": LRUN,
    "mpirun": MPIRUN,
    "mpiexec": MPIRUN,
    "mpiexec.hydra": MPIRUN,
    "aprun": APRUN,
    "ibrun": IBRUN,
}
