"""Slurm's `#SBATCH` directives read into the request model, as `sbatch` reads them.

``OPTIONS`` declares every `sbatch` option once: its names, whether it takes a value, the
reader that puts it into the :class:`~jobspec_lsp.migrate.model.Request` (or why Flux
cannot carry it), and its Flux form in words for docs/migration.md. Semantics follow
Slurm's own sbatch(1) manual (https://slurm.schedmd.com/sbatch.html) and what real Slurm
22.05 reports for a script (`scontrol show job`), which the real-Slurm test tier compares.

`sbatch` reads directives from the lines starting ``#SBATCH`` before the first line that
is neither blank nor a comment; later ones are ignored. A line holding only ``hetjob`` (or
``packjob``) separates the components of a heterogeneous job.
"""

from __future__ import annotations

import json
import re

from jobspec_lsp import data_text
from jobspec_lsp.job import directives
from jobspec_lsp.migrate import reading
from jobspec_lsp.migrate.model import Item, Line, Request
from jobspec_lsp.migrate.reading import Option
from jobspec_lsp.migrate.slurmvalues import READERS, count, seconds  # noqa: F401 - its readers

NAME = "slurm"
SHELL = "#!/bin/bash"  # for a script without a #! line (flux batch needs one)
COMMAND = "sbatch"
SENTINEL = re.compile(r"#SBATCH(?=[ \t]|$)")
REFERENCE = "https://slurm.schedmd.com/sbatch.html"
LATE = "a directive after the script's first command: sbatch ignores it, and it is not converted"


def _o(names, value, reader, flux, note="", optional_value=False):
    return Option(names, value, reader, flux, note, optional_value, REFERENCE)


OPTIONS: tuple[Option, ...] = (
    _o(
        ("--nodes", "-N"),
        True,
        "nodes",
        "-N; with tasks: one slot per task, or one slot per node where its gpus do not divide among its tasks",
        "a range MIN-MAX: its minimum",
    ),
    _o(
        ("--ntasks", "-n"),
        True,
        "ntasks",
        "-n (one slot per task), and the task count of the launch lines",
    ),
    _o(
        ("--ntasks-per-node", "--tasks-per-node"),
        True,
        "tasks_per_node",
        "-n: nodes × this (-N from --ntasks ÷ this when no node count)",
    ),
    _o(("--cpus-per-task", "-c"), True, "cpus_per_task", "-c/--cores-per-slot"),
    _o(("--gpus-per-task",), True, "gpus_per_task", "-g/--gpus-per-slot"),
    _o(
        ("--gpus", "-G"),
        True,
        "gpus",
        "-g: the total divided by the tasks (or by the nodes)",
        "when neither divides: each node gets the total rounded up",
    ),
    _o(
        ("--gpus-per-node",),
        True,
        "gpus_per_node",
        "-g: per node divided by the tasks per node, or one slot per node holding them all",
        "without a node count: 1 node",
    ),
    _o(
        ("--gres",),
        True,
        "gres",
        "gpu[:TYPE]:N as --gpus-per-node",
        "the gpu TYPE is not carried (Flux counts gpus); other kinds are not expressible",
    ),
    _o(
        ("--exclusive",),
        False,
        "exclusive",
        "-x",
        "without a node count: 1 node (Slurm picks as many as the tasks need)",
        optional_value=True,
    ),
    _o(
        ("--time", "-t"),
        True,
        "time",
        "-t, rounded up to whole minutes as Slurm does",
        "beyond 71582788 minutes (Slurm wraps or drops it): kept as written",
    ),
    _o(("--partition", "-p"), True, "partition", "-q/--queue", "a list: the first partition"),
    _o(("--account", "-A"), True, "account", "-B/--bank"),
    _o(("--job-name", "-J"), True, "job_name", "--job-name"),
    _o(
        ("--output", "-o"),
        True,
        "output",
        "--output (%j, %J, %A → {{id}}; %x → {{name}}; %% → %)",
        "other patterns (%N, %u, %a) stay as written",
    ),
    _o(("--error", "-e"), True, "output", "--error (same patterns)", "as --output"),
    _o(
        ("--dependency", "-d"),
        True,
        "dependency",
        "--dependency, one per job (after, afterok, ...)",
        "an array task's id (123_4) Flux cannot name: said in a comment",
    ),
    _o(
        ("--begin", "-b"),
        True,
        "begin",
        "--begin-time (now+N[seconds|minutes|hours|days|weeks] → +FSD)",
        "a time of day already past: Flux starts at once, Slurm waits a day",
    ),
    _o(("--chdir", "-D"), True, "chdir", "--cwd"),
    _o(
        ("--export",),
        True,
        "export",
        "--env rules (NONE → --env=-*)",
        "NONE: Slurm also loads the login environment, Flux does not",
    ),
    _o(("--constraint", "-C"), True, "constraint", "--requires (& → and, | → or)"),
    _o(("--nodelist", "-w"), True, "nodelist", "--requires=host:LIST"),
    _o(("--exclude", "-x"), True, "exclude", "--requires=-host:LIST"),
    _o(("--hold", "-H"), False, "hold", "--urgency=0 (held)"),
    _o(
        ("--signal",),
        True,
        "signal",
        "--signal=SIG@TIMEs (SIG 1-65535 or one of sbatch's names, TIME 0-65535)",
        "R: and B: are not carried",
    ),
    _o(
        ("--array", "-a"),
        True,
        "array",
        "",
        "Flux has no job arrays: submit one `flux batch` per index (a shell loop, or `flux bulksubmit`), each with its index as an argument",
    ),
    _o(
        ("--mem",),
        True,
        "",
        "",
        "Flux's batch options request cores and gpus, not memory: ask for whole nodes (-N with -x) to get all of a node's memory",
    ),
    _o(
        ("--mem-per-cpu",),
        True,
        "",
        "",
        "memory is not requested in Flux: ask for more cores per slot (-c) or whole nodes (-x)",
    ),
    _o(("--mem-per-gpu",), True, "", "", "memory is not requested in Flux"),
    _o(
        ("--mail-type",),
        True,
        "",
        "",
        "flux-core sends no mail: watch the job with `flux job wait-event` or `flux jobs`",
    ),
    _o(("--mail-user",), True, "", "", "flux-core sends no mail"),
    _o(
        ("--qos", "-q"),
        True,
        "",
        "",
        "Flux has no QOS; queues (-q) and banks (-B) carry policy. Note Slurm's -q is QOS while Flux's -q is the queue",
    ),
    _o(("--requeue",), False, "", "", "Flux does not requeue a job"),
    _o(("--no-requeue",), False, "-", "", "Flux never requeues a job"),
    _o(("--open-mode",), True, "", "", "Flux writes the output file afresh"),
    _o(("--time-min",), True, "", "", "Flux has one time limit (-t)"),
    _o(("--tmp",), True, "", "", "Flux does not request local disk"),
    _o(("--licenses", "-L"), True, "", "", "Flux has no licenses"),
    _o(("--reservation",), True, "", "", "Flux has no reservations"),
    _o(("--wckey",), True, "", "", "Flux has no workload keys"),
    _o(
        ("--comment",),
        True,
        "",
        "",
        "not kept; a user attribute (--setattr=user.comment=...) can hold it",
    ),
    _o(
        ("--nice",),
        False,
        "",
        "",
        "Flux orders by urgency (--urgency 0-31) and its priority plugin",
        optional_value=True,
    ),
    _o(("--priority",), True, "", "", "Flux orders by urgency (--urgency 0-31)"),
    _o(
        ("--distribution", "-m"),
        True,
        "",
        "",
        "task placement is chosen per `flux run` (--taskmap)",
    ),
    _o(("--ntasks-per-core",), True, "", "", "not carried: one task per slot"),
    _o(("--ntasks-per-socket",), True, "", "", "not carried: one task per slot"),
    _o(
        ("--ntasks-per-gpu",),
        True,
        "tasks_per_gpu",
        "-n: the gpus × this; each task its gpu (-g 1) when this is 1",
        "more than 1: the tasks of a node share its gpus (one slot per node)",
    ),
    _o(("--sockets-per-node",), True, "", "", "Flux's batch options do not request sockets"),
    _o(("--cores-per-socket",), True, "", "", "Flux's batch options do not request sockets"),
    _o(("--threads-per-core",), True, "", "", "Flux allocates cores"),
    _o(("--hint",), True, "", "", "Flux allocates cores; binding is chosen per `flux run`"),
    _o(("--mincpus",), True, "", "", "use -c for the cores of each slot"),
    _o(("--cpus-per-gpu",), True, "cpus_per_gpu", "-c: this × the gpus of each task (or node)"),
    _o(("--gpus-per-socket",), True, "", "", "Flux's batch options do not request sockets"),
    _o(("--gpu-bind",), True, "", "", "binding is chosen per `flux run` (-o gpu-affinity)"),
    _o(("--cpu-freq",), True, "", "", "Flux does not set CPU frequencies"),
    _o(("--overcommit", "-O"), False, "", "", "Flux gives each slot its own cores"),
    _o(("--oversubscribe", "-s"), False, "", "", "fluxion does not share cores between jobs"),
    _o(("--spread-job",), False, "", "", "placement is fluxion's"),
    _o(("--switches",), True, "", "", "Flux does not request network switches"),
    _o(
        ("--input", "-i"),
        True,
        "",
        "",
        "`flux batch` has no input option: redirect inside the script",
    ),
    _o(
        ("--kill-on-invalid-dep",),
        True,
        "",
        "",
        "a Flux job whose dependency fails is raised an exception and never runs",
    ),
    _o(
        ("--get-user-env",),
        False,
        "",
        "",
        "Flux copies the submitting environment",
        optional_value=True,
    ),
    _o(
        ("--propagate",),
        True,
        "",
        "",
        "Flux propagates resource limits by default; --rlimit chooses which",
        optional_value=True,
    ),
    _o(("--uid",), True, "", "", "Flux runs jobs as the submitting user"),
    _o(("--gid",), True, "", "", "Flux runs jobs as the submitting user"),
    _o(("--container",), True, "", "", "Flux does not start containers"),
    _o(("--clusters", "--cluster", "-M"), True, "", "", "a Flux instance is one cluster"),
    _o(("--profile",), True, "", "", "Flux has no profiling option"),
    _o(("--deadline",), True, "", "", "Flux has no deadline"),
    _o(
        ("--no-kill", "-k"),
        False,
        "",
        "",
        "a Flux job ends when a node is lost",
        optional_value=True,
    ),
    _o(("--core-spec", "-S"), True, "", "", "Flux has no core specialisation"),
    _o(("--thread-spec",), True, "", "", "Flux has no thread specialisation"),
    _o(("--network",), True, "", "", "Flux does not request networks"),
    _o(
        ("--extra-node-info", "-B"),
        True,
        "",
        "",
        "Flux's batch options do not request sockets or threads. Note Slurm's -B is this while Flux's -B is the bank",
    ),
    _o(("--export-file",), True, "", "", "use --env-file (one rule per line)"),
    _o(
        ("--wait", "-W"),
        False,
        "",
        "",
        "`flux batch` returns at once: wait with `flux job wait-event ID clean` or `flux job attach ID`",
    ),
    _o(("--wait-all-nodes",), True, "", "", "a Flux instance starts when its brokers are up"),
    _o(("--nodefile", "-F"), True, "", "", "give the hosts as --requires=host:LIST"),
    _o(("--acctg-freq",), True, "", "", "Flux has no accounting sampling"),
    _o(("--bb",), True, "", "", "Flux has no burst buffers"),
    _o(("--bbf",), True, "", "", "Flux has no burst buffers"),
    _o(("--delay-boot",), True, "", "", "Flux does not reboot nodes"),
    _o(("--reboot",), False, "", "", "Flux does not reboot nodes"),
    _o(("--test-only",), False, "", "", "`flux batch --dry-run` prints the jobspec instead"),
    _o(("--use-min-nodes",), False, "", "", "a node count is exact in Flux"),
    _o(("--contiguous",), False, "", "", "Flux does not ask for contiguous nodes"),
    _o(("--gpu-freq",), True, "", "", "Flux does not set GPU frequencies"),
    _o(
        ("--batch",),
        True,
        "",
        "",
        "features of the node the script runs on: Flux runs it on the job's first node",
    ),
    _o(
        ("--wrap",),
        True,
        "",
        "",
        "a command given for the script: under Flux the script itself is the job",
    ),
    _o(("--prefer",), True, "", "", "Flux constraints are requirements (--requires)"),
    _o(("--cluster-constraint",), True, "", "", "a Flux instance is one cluster"),
    _o(("--mcs-label",), True, "", "", "Flux has no MCS labels"),
    _o(("--power",), True, "", "", "Flux has no power flags"),
    _o(("--gres-flags",), True, "", "", "Flux has no gres flags"),
    _o(("--mem-bind",), True, "", "", "binding is chosen per `flux run`"),
    _o(("--ignore-pbs",), False, "-", "", "Flux reads no #PBS lines"),
    _o(("--parsable",), False, "-", "", "`flux batch` prints only the job id"),
    _o(("--quiet", "-Q"), False, "-", "", "nothing to carry"),
    _o(("--verbose", "-v"), False, "-", "", "nothing to carry"),
)
TABLE = reading.table(OPTIONS)


# --------------------------------------------------------------------------- values

_HET = ("hetjob", "packjob")


def parse(line: Line, words: list[directives.Word], problems: list[tuple[int, int, str]]) -> None:
    if len(words) == 1 and words[0].value in _HET:
        w = words[0]
        line.items.append(Item(w.value, None, w.start, w.end, w.end, w.end, "het"))
        return
    reading.getopt(line, words, problems, TABLE, COMMAND)


def defaults(req: Request) -> list[tuple[str, str, str]]:
    """What sbatch gives a job the script does not say, where Flux's default differs."""
    out = []
    if req.output is None:
        path = "slurm-{{id}}_%a.out" if req.array else "slurm-{{id}}.out"
        out.append(
            (
                "output",
                path,
                f"no --output: sbatch's default is {path.replace('{{id}}', '%j')}, "
                "written here (Flux's own would be flux-{{id}}.out)",
            )
        )
    return out


def start_directory(text: str, req: Request) -> str:
    """The job starts where it was submitted, as under Flux: nothing to say."""
    return ""


def finish(req: Request) -> None:
    """What sbatch settles once every directive is read: a node count above the task count
    is lowered to it ("can't run 1 processes on 3 nodes, setting nnodes to 1"; scontrol
    then shows NumNodes=1), the maximum of a range too."""
    tasks, item = req.tasks, req.sources.get("nodes")
    if not tasks or not req.nodes or item is None:
        return
    if req.nodes > tasks:
        item.notes.append(
            f"sbatch cannot run {tasks} tasks on {req.nodes} nodes and sets the node count "
            f"to {tasks} (with a warning): so does the conversion"
        )
        req.nodes = tasks
    if req.nodes_max and req.nodes_max > tasks:
        req.nodes_max = tasks


def block(text: str) -> reading.Block:
    return reading.block(text, SENTINEL, parse, reading.split_sbatch_words)


# --------------------------------------------------------------------------- the body
SENTINEL_ANYWHERE = re.compile(r"^#SBATCH(?=[ \t\r]|$)", re.M)
VARIABLE_PREFIXES = ("SLURM_",)
VARIABLE = re.compile(r"SLURM_[A-Z0-9_]+")
# the names Slurm sets in a batch script or a step, from its own manual pages
# (scripts/slurm_variables.py; tests/slurm/test_slurm_variables.py holds it to the installed
# Slurm): another SLURM_* name (SLURM_CONF, which Slurm's commands read) is the user's
_SET = json.loads(data_text(__package__, "slurm_variables.json"))
SETS = frozenset(_SET["sbatch"]) | frozenset(_SET["srun"])
_JOBID = ("$(flux getattr jobid)", "the batch job's id: `flux getattr jobid`")
_HOSTS = ("$(flux hostlist instance)", "the hosts: `flux hostlist instance`")
_NNODES = ("{nodes}", "the node count, known from the directives")
# name -> (its Flux form: text, {figure}, =PWD, or None; the words)
VARIABLES: dict[str, tuple[str | None, str]] = {
    "SLURM_JOB_ID": _JOBID,
    "SLURM_JOBID": _JOBID,
    "SLURM_JOB_NUM_NODES": _NNODES,
    "SLURM_NNODES": _NNODES,
    "SLURM_JOB_NODELIST": _HOSTS,
    "SLURM_NODELIST": _HOSTS,
    "SLURM_PROCID": ("$FLUX_TASK_RANK", "a task's rank: FLUX_TASK_RANK (in `flux run` tasks)"),
    "SLURM_LOCALID": (
        "$FLUX_TASK_LOCAL_ID",
        "a task's rank on its node: FLUX_TASK_LOCAL_ID (in `flux run` tasks)",
    ),
    "SLURM_NTASKS": ("{tasks}", "the task count, known from the directives"),
    "SLURM_NPROCS": ("{tasks}", "the task count, known from the directives"),
    "SLURM_CPUS_PER_TASK": ("{cores_per_task}", "the cores per task, known from the directives"),
    "SLURM_SUBMIT_DIR": (
        "=PWD:SUBMIT_DIR",
        "the submission directory: $SUBMIT_DIR, set by `#flux: --env=SUBMIT_DIR=$PWD`, which "
        "flux batch expands when the job is submitted (Flux removes every SLURM_* variable "
        "from a batch script's environment, so the name cannot be kept)",
    ),
    "SLURM_JOB_NAME": (None, "no variable: the name is --job-name or the script's file name"),
    "SLURM_ARRAY_TASK_ID": (None, "Flux has no job arrays: pass the index as an argument"),
    "SLURM_ARRAY_JOB_ID": (None, "Flux has no job arrays"),
}
COMMANDS = {
    "srun": "flux run (the conversion rewrites launch lines it can read)",
    "sbatch": "flux batch",
    "salloc": "flux alloc",
    "squeue": "flux jobs",
    "scancel": "flux cancel",
    "sinfo": "flux resource list",
    "sacct": "flux jobs -a",
    "scontrol": "flux job info, flux resource, flux getattr",
    "sattach": "flux job attach",
}
COMMAND_WORD = re.compile(r"s(?:" + "|".join(c[1:] for c in COMMANDS) + r")(?![\w.-])")
