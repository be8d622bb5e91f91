"""Slurm batch scripts to Flux: `#SBATCH` directives rewritten as RFC 36 `#flux:`
directives, and what a script's body still expects from Slurm.

``SLURM`` declares every `sbatch` option once: its names, whether it takes a
value, and how it is carried to `flux batch` (or why it cannot be, and what happens
instead).  :func:`convert` rewrites a script's directive block and leaves every
other byte as it was; :func:`diagnostics` gives the same findings as positioned
diagnostics (JS590-JS596) for `jobspec check` and the editor, with the conversion
as the fix of each `#SBATCH` line.  ``docs/migration.md`` is the table of
:func:`table_markdown`.

How `sbatch` reads a script, which this follows: directives are the lines that
start with ``#SBATCH`` before the first line that is neither blank nor a comment;
``#SBATCH`` lines after that are ignored by `sbatch`.
"""

from __future__ import annotations

import bisect
import difflib
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from jobspec_lsp.diagnostics import SCRIPT_KINDS, SLURM_KINDS, Diagnostic, Family, Severity
from jobspec_lsp.fluxcli import model as _model
from jobspec_lsp.fluxcli import values
from jobspec_lsp.fluxcli.model import Option
from jobspec_lsp.notations import formats
from jobspec_lsp.notations.formats import ascii_int
from jobspec_lsp.script import batch, directives

E, W, I, H = Severity.ERROR, Severity.WARNING, Severity.INFORMATION, Severity.HINT

_S = "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --time=01:30:00\n\nsrun ./sim\n"
_F = "#!/bin/bash\n#flux: --nodes=2\n#flux: --time-limit=90m\n\nflux run ./sim\n"

family = Family(kinds=SLURM_KINDS + SCRIPT_KINDS, good=_F)
SLURM_DIRECTIVE = family.hint(
    """JS590 slurm-directive: A Slurm `#SBATCH` directive, which `flux batch` ignores.

    Flux reads only `#flux:` directives: an `#SBATCH` line is a comment to it, so the job runs
    without what the line asks. The fix rewrites every `#SBATCH` directive of the script as
    `#flux:` (`jobspec convert --from sbatch` does the same in a terminal).""",
    bad=_S.replace("srun", "flux run"),
    fix="edits",
)
NOT_CARRIED = family.warning(
    """JS591 slurm-option-not-carried: An `sbatch` option Flux cannot express: it stays an
    `#SBATCH` line, ignored by Flux.

    Memory requests, mail, QOS, requeue and a few more have no `flux batch` option. The
    conversion keeps them as `#SBATCH` text, so nothing is lost, and says what the job gets
    instead.""",
    bad=_F.replace("#flux: --nodes=2\n", "#flux: --nodes=2\n#SBATCH --mem=4G\n"),
)
NOT_SBATCH = family.error(
    """JS592 slurm-bad-option: An `#SBATCH` word `sbatch` itself refuses: an unknown option or a
    value it cannot read.

    `sbatch` refuses the whole script for it, and the conversion cannot guess what was meant,
    so the line is left as it is. A close option name is suggested.""",
    bad=_S.replace("--nodes=2", "--node=2").replace("srun", "flux run"),
)
CARRIED_DIFFERENTLY = family.info(
    """JS593 slurm-option-carried-differently: An `sbatch` option Flux carries with a difference
    worth knowing.

    Some options convert with a change in meaning: a node count alone gives whole nodes in
    Flux, a node range uses its minimum, a Slurm job id in a dependency is not a Flux job id,
    an array becomes a note. The message says which.""",
    bad=_S.replace("--nodes=2", "--nodes=2-4").replace("srun", "flux run"),
)
AFTER_COMMANDS = family.warning(
    """JS594 slurm-directive-after-commands: An `#SBATCH` line after the script's first command:
    `sbatch` ignores it too.

    `sbatch` stops reading directives at the first line that is not a comment, so this line
    never applied under Slurm either; the conversion leaves it alone.""",
    bad=_F.replace("flux run ./sim\n", "flux run ./sim\n#SBATCH --nodes=4\n"),
)
SLURM_VARIABLE = family.warning(
    """JS595 slurm-variable: The script uses a `SLURM_*` variable, which Flux does not set.

    Under Flux the variable is empty (or stale from an enclosing Slurm job). The message gives
    the Flux equivalent; where there is one the fix writes it.""",
    bad=_F.replace("flux run ./sim", 'echo "job $SLURM_JOB_ID"\nflux run ./sim'),
    good=_F.replace("flux run ./sim", 'echo "job $(flux getattr jobid)"\nflux run ./sim'),
    fix="slurm-variable",
)
SLURM_COMMAND = family.warning(
    """JS596 slurm-command: The script runs a Slurm command (`srun`, `sbatch`, `squeue`, ...).

    There is no `srun` in a Flux job; its Flux counterpart takes mostly the same options (-n,
    -N, -c) but not all (--ntasks-per-node is --tasks-per-node). The message names the Flux
    command.""",
    bad=_S.replace("#SBATCH --nodes=2", "#flux: --nodes=2").replace(
        "#SBATCH --time=01:30:00", "#flux: --time-limit=90m"
    ),
)


# --------------------------------------------------------------------------- the table
@dataclass(frozen=True)
class SlurmOption:
    long: str
    short: str | None
    value: bool  # takes a value
    flux: str  # what it becomes, in words (docs/migration.md); "" when not carried
    note: str = ""  # not carried: what the job gets instead; carried: the caveat
    how: str = ""  # the converter's name (see _CONVERTERS); "" not carried, "-" no effect
    optional_value: bool = False


_FLUX_OPTION = re.compile(r"(?<![\w-])--([a-z][a-z-]*)")


def _o(long, short, value, flux, how="", note="", optional_value=False):
    for name in _FLUX_OPTION.findall(flux):
        _flux_option(name)  # the Flux side names only options flux batch has
    return SlurmOption(long, short, value, flux, note, how, optional_value)


def _flux_option(long: str) -> Option:
    """`flux batch --long`, from the option table (Flux's own parser): a mapping that
    names an option Flux does not have fails here, when the module is imported."""
    got = _model.command("batch").by_long.get(long)
    if got is None:
        raise LookupError(f"the Slurm mapping names --{long}, which flux batch does not have")
    return got


SLURM: tuple[SlurmOption, ...] = (
    # resources
    _o("nodes", "N", True, "-N/--nodes", "nodes", "a range MIN-MAX uses MIN"),
    _o("ntasks", "n", True, "-n/--nslots (one slot per task)", "ntasks"),
    _o(
        "ntasks-per-node",
        None,
        True,
        "-n (nodes × this; -N 1 when no node count)",
        "tasks_per_node",
        "with --ntasks too, --ntasks decides and this is only checked",
    ),
    _o("cpus-per-task", "c", True, "-c/--cores-per-slot", "cpus_per_task"),
    _o("gpus-per-task", None, True, "-g/--gpus-per-slot", "gpus_per_task"),
    _o("gpus", "G", True, "-g: the total divided by the slots", "gpus"),
    _o("gpus-per-node", None, True, "-g: per node divided by the slots per node", "gpus_per_node"),
    _o(
        "gres",
        None,
        True,
        "gpu[:TYPE]:N: -g, as for Slurm's gpus-per-node; other kinds not carried",
        "gres",
    ),
    _o(
        "exclusive",
        None,
        False,
        "-x/--exclusive (needs a node count)",
        "exclusive",
        optional_value=True,
    ),
    # limits, placement, identity
    _o("time", "t", True, "-t/--time-limit, as a Flux Standard Duration", "time"),
    _o("partition", "p", True, "-q/--queue", "partition"),
    _o("account", "A", True, "-B/--bank", "account"),
    _o("job-name", "J", True, "--job-name", "job_name"),
    _o("output", "o", True, "--output (%j → {{id}}, %x → {{name}}, %% → %)", "output"),
    _o("error", "e", True, "--error (same patterns)", "output"),
    _o("dependency", "d", True, "--dependency, one per job (after, afterok, ...)", "dependency"),
    _o("begin", "b", True, "--begin-time (now+N → +FSD)", "begin"),
    _o("chdir", "D", True, "--cwd", "chdir"),
    _o("export", None, True, "--env rules (NONE → --env=-*)", "export"),
    _o("constraint", "C", True, "--requires (& → and, | → or)", "constraint"),
    _o("nodelist", "w", True, "--requires=host:LIST", "nodelist"),
    _o("exclude", "x", True, "--requires=-host:LIST", "exclude"),
    _o("hold", "H", False, "--urgency=0 (held)", "hold"),
    _o("signal", None, True, "--signal=SIG@TIMEs", "signal"),
    _o(
        "array",
        "a",
        True,
        "",
        note="Flux has no job arrays: submit one `flux batch` per index (a shell loop, "
        "or `flux bulksubmit`), each with its index as an argument",
    ),
    # not carried: what happens instead
    _o(
        "mem",
        None,
        True,
        "",
        note="Flux's batch options request cores and gpus, not memory: "
        "ask for whole nodes (-N with -x) to get all of a node's memory",
    ),
    _o(
        "mem-per-cpu",
        None,
        True,
        "",
        note="memory is not requested in Flux: ask for more "
        "cores per slot (-c) or whole nodes (-x)",
    ),
    _o("mem-per-gpu", None, True, "", note="memory is not requested in Flux"),
    _o(
        "mail-type",
        None,
        True,
        "",
        note="flux-core sends no mail: watch the job with `flux job wait-event` or `flux jobs`",
    ),
    _o("mail-user", None, True, "", note="flux-core sends no mail"),
    _o(
        "qos",
        "q",
        True,
        "",
        note="Flux has no QOS; queues (-q) and banks (-B) carry "
        "policy. Note Slurm's -q is QOS while Flux's -q is the queue",
    ),
    _o("requeue", None, False, "", note="Flux does not requeue a job"),
    _o("no-requeue", None, False, "", how="-", note="Flux never requeues a job"),
    _o("open-mode", None, True, "", note="Flux writes the output file afresh"),
    _o("time-min", None, True, "", note="Flux has one time limit (-t)"),
    _o("tmp", None, True, "", note="Flux does not request local disk"),
    _o("licenses", "L", True, "", note="Flux has no licenses"),
    _o("reservation", None, True, "", note="Flux has no reservations"),
    _o("wckey", None, True, "", note="Flux has no workload keys"),
    _o(
        "comment",
        None,
        True,
        "",
        note="not kept; a user attribute (--setattr=user.comment=...) can hold it",
    ),
    _o(
        "nice",
        None,
        False,
        "",
        optional_value=True,
        note="Flux orders by urgency (--urgency 0-31) and its priority plugin",
    ),
    _o("priority", None, True, "", note="Flux orders by urgency (--urgency 0-31)"),
    _o("distribution", "m", True, "", note="task placement is chosen per `flux run` (--taskmap)"),
    _o("ntasks-per-core", None, True, "", note="not carried: one task per slot"),
    _o("ntasks-per-socket", None, True, "", note="not carried: one task per slot"),
    _o("ntasks-per-gpu", None, True, "", note="not carried: give each slot its gpus with -g"),
    _o("sockets-per-node", None, True, "", note="Flux's batch options do not request sockets"),
    _o("cores-per-socket", None, True, "", note="Flux's batch options do not request sockets"),
    _o("threads-per-core", None, True, "", note="Flux allocates cores"),
    _o("hint", None, True, "", note="Flux allocates cores; binding is chosen per `flux run`"),
    _o("mincpus", None, True, "", note="use -c for the cores of each slot"),
    _o("cpus-per-gpu", None, True, "", note="give each slot its cores (-c) and gpus (-g)"),
    _o("gpus-per-socket", None, True, "", note="Flux's batch options do not request sockets"),
    _o("gpu-bind", None, True, "", note="binding is chosen per `flux run` (-o gpu-affinity)"),
    _o("cpu-freq", None, True, "", note="Flux does not set CPU frequencies"),
    _o("overcommit", "O", False, "", note="Flux gives each slot its own cores"),
    _o("oversubscribe", "s", False, "", note="fluxion does not share cores between jobs"),
    _o("spread-job", None, False, "", note="placement is fluxion's"),
    _o("switches", None, True, "", note="Flux does not request network switches"),
    _o("input", "i", True, "", note="`flux batch` has no input option: redirect inside the script"),
    _o(
        "kill-on-invalid-dep",
        None,
        True,
        "",
        note="a Flux job whose dependency fails is raised an exception and never runs",
    ),
    _o(
        "get-user-env",
        None,
        False,
        "",
        optional_value=True,
        note="Flux copies the submitting environment",
    ),
    _o(
        "propagate",
        None,
        True,
        "",
        optional_value=True,
        note="Flux propagates resource limits by default; --rlimit chooses which",
    ),
    _o("uid", None, True, "", note="Flux runs jobs as the submitting user"),
    _o("gid", None, True, "", note="Flux runs jobs as the submitting user"),
    _o("container", None, True, "", note="Flux does not start containers"),
    _o("clusters", "M", True, "", note="a Flux instance is one cluster"),
    _o("profile", None, True, "", note="Flux has no profiling option"),
    _o("deadline", None, True, "", note="Flux has no deadline"),
    _o("no-kill", "k", False, "", optional_value=True, note="a Flux job ends when a node is lost"),
    _o("core-spec", "S", True, "", note="Flux has no core specialisation"),
    _o("thread-spec", None, True, "", note="Flux has no thread specialisation"),
    _o("network", None, True, "", note="Flux does not request networks"),
    _o(
        "extra-node-info",
        "B",
        True,
        "",
        note="Flux's batch options do not request sockets "
        "or threads. Note Slurm's -B is this while Flux's -B is the bank",
    ),
    _o("export-file", None, True, "", note="use --env-file (one rule per line)"),
    _o(
        "wait",
        "W",
        False,
        "",
        note="`flux batch` returns at once: wait with "
        "`flux job wait-event ID clean` or `flux job attach ID`",
    ),
    _o("wait-all-nodes", None, True, "", note="a Flux instance starts when its brokers are up"),
    _o("nodefile", "F", True, "", note="give the hosts as --requires=host:LIST"),
    _o("acctg-freq", None, True, "", note="Flux has no accounting sampling"),
    _o("bb", None, True, "", note="Flux has no burst buffers"),
    _o("bbf", None, True, "", note="Flux has no burst buffers"),
    _o("delay-boot", None, True, "", note="Flux does not reboot nodes"),
    _o("reboot", None, False, "", note="Flux does not reboot nodes"),
    _o("test-only", None, False, "", note="`flux batch --dry-run` prints the jobspec instead"),
    _o("use-min-nodes", None, False, "", note="a node count is exact in Flux"),
    _o("prefer", None, True, "", note="Flux constraints are requirements (--requires)"),
    _o("cluster-constraint", None, True, "", note="a Flux instance is one cluster"),
    _o("mcs-label", None, True, "", note="Flux has no MCS labels"),
    _o("power", None, True, "", note="Flux has no power flags"),
    _o("gres-flags", None, True, "", note="Flux has no gres flags"),
    _o("mem-bind", None, True, "", note="binding is chosen per `flux run`"),
    _o("ignore-pbs", None, False, "", how="-", note="Flux reads no #PBS lines"),
    _o("parsable", None, False, "", how="-", note="`flux batch` prints only the job id"),
    _o("quiet", "Q", False, "", how="-", note="nothing to carry"),
    _o("verbose", "v", False, "", how="-", note="nothing to carry"),
)
BY_LONG = {o.long: o for o in SLURM}
BY_SHORT = {o.short: o for o in SLURM if o.short}

# what a `SLURM_*` variable is under Flux: (replacement or None, the words)
VARIABLES: dict[str, tuple[str | None, str]] = {
    "SLURM_JOB_ID": ("$(flux getattr jobid)", "the batch job's id: `flux getattr jobid`"),
    "SLURM_JOBID": ("$(flux getattr jobid)", "the batch job's id: `flux getattr jobid`"),
    "SLURM_JOB_NUM_NODES": (
        "$(flux resource list -no {nnodes})",
        "the node count: `flux resource list -no {nnodes}`",
    ),
    "SLURM_NNODES": (
        "$(flux resource list -no {nnodes})",
        "the node count: `flux resource list -no {nnodes}`",
    ),
    "SLURM_JOB_NODELIST": ("$(flux hostlist instance)", "the hosts: `flux hostlist instance`"),
    "SLURM_NODELIST": ("$(flux hostlist instance)", "the hosts: `flux hostlist instance`"),
    "SLURM_PROCID": ("$FLUX_TASK_RANK", "a task's rank: FLUX_TASK_RANK (in `flux run` tasks)"),
    "SLURM_LOCALID": (
        "$FLUX_TASK_LOCAL_ID",
        "a task's rank on its node: FLUX_TASK_LOCAL_ID (in `flux run` tasks)",
    ),
    "SLURM_NTASKS": (
        None,
        "no variable: the -n of the directives; `flux resource list -no "
        "{ncores}` gives the instance's cores",
    ),
    "SLURM_NPROCS": (None, "no variable: the -n of the directives"),
    "SLURM_CPUS_PER_TASK": (None, "no variable: the -c of the directives"),
    "SLURM_SUBMIT_DIR": (
        None,
        "no variable: Flux starts the script in the directory it was "
        "submitted from (or --cwd), so it is $PWD at the start",
    ),
    "SLURM_JOB_NAME": (None, "no variable: the name is --job-name or the script's file name"),
    "SLURM_ARRAY_TASK_ID": (None, "Flux has no job arrays: pass the index as an argument"),
    "SLURM_ARRAY_JOB_ID": (None, "Flux has no job arrays"),
}
COMMANDS = {
    "srun": "flux run (-n, -N, -c, -g as in srun; --ntasks-per-node is --tasks-per-node)",
    "sbatch": "flux batch",
    "salloc": "flux alloc",
    "squeue": "flux jobs",
    "scancel": "flux cancel",
    "sinfo": "flux resource list",
    "sacct": "flux jobs -a",
    "scontrol": "flux job info, flux resource, flux getattr",
    "sattach": "flux job attach",
}


# --------------------------------------------------------------------------- reading
@dataclass
class _Item:
    """One sbatch option as a directive gives it."""

    option: SlurmOption
    short: bool  # written in its short form
    value: str | None
    start: int  # the option's text (name and value)
    end: int
    value_start: int
    value_end: int


@dataclass
class _Line:
    start: int  # the `#SBATCH`
    end: int  # end of the line (before its newline)
    words_end: int  # end of the last word (a trailing comment follows)
    items: list[_Item] = field(default_factory=list)
    bad: list[tuple[int, int]] = field(default_factory=list)  # words sbatch refuses


_SBATCH = re.compile(r"#SBATCH(?=[ \t]|$)")
_ANY_SBATCH = re.compile(r"^#SBATCH(?=[ \t\r]|$)", re.M)


def has_directives(text: str) -> bool:
    """Whether ``text`` holds a line starting with an `#SBATCH` directive."""
    return "#SBATCH" in text and _ANY_SBATCH.search(text) is not None


def _lines(text: str):
    pos = 0
    n = len(text)
    while pos < n:
        nl = text.find("\n", pos)
        end = n if nl < 0 else nl
        yield pos, end - (1 if end > pos and text[end - 1] == "\r" else 0)
        pos = end + 1


@dataclass
class Reading:
    lines: list[_Line]
    late: list[int]  # `#SBATCH` after the first command
    problems: list[Diagnostic]


def read(text: str) -> Reading:
    """The `#SBATCH` directives of a script, as `sbatch` reads them."""
    out: list[Diagnostic] = []
    lines: list[_Line] = []
    late: list[int] = []
    body = len(text)
    for ls, le in _lines(text):
        line = text[ls:le]
        if _SBATCH.match(line):
            lines.append(_read_line(text, ls, le, out))
            continue
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            body = ls  # the first command: the directives end here
            break
    late = [m.start() for m in _ANY_SBATCH.finditer(text, body)]
    return Reading(lines, late, out)


def _read_line(text: str, ls: int, le: int, out: list[Diagnostic]) -> _Line:
    body_start = ls + len("#SBATCH")
    split = directives._split(text[body_start:le])
    line = _Line(ls, le, body_start)
    if isinstance(split, str):
        at = body_start + int(split)
        out.append(
            Diagnostic(
                NOT_SBATCH,
                E,
                "sbatch cannot read this line: a quote is not closed",
                at,
                min(at + 1, le),
            )
        )
        line.bad.append((body_start, le))
        line.words_end = le
        return line
    words = [directives.Word(v, body_start + s, body_start + e) for v, s, e in split]
    if words:
        line.words_end = words[-1].end
    i = 0
    while i < len(words):
        w = words[i]
        v = w.value
        i += 1
        opt: SlurmOption | None
        if v.startswith("--"):
            name, eq, val = v[2:].partition("=")
            opt = BY_LONG.get(name)
            if opt is None:
                out.append(_unknown("--" + name, w.start, w.start + 2 + len(name), BY_LONG))
                line.bad.append((w.start, w.end))
                continue
            if eq:
                if not opt.value and not opt.optional_value:
                    out.append(
                        Diagnostic(NOT_SBATCH, E, f"--{name} takes no value", w.start, w.end)
                    )
                    line.bad.append((w.start, w.end))
                    continue
                vs = w.start + 3 + len(name)
                line.items.append(_Item(opt, False, val, w.start, w.end, min(vs, w.end), w.end))
                continue
            if not opt.value:
                line.items.append(_Item(opt, False, None, w.start, w.end, w.end, w.end))
                continue
        elif v.startswith("-") and len(v) > 1:
            opt = BY_SHORT.get(v[1])
            if opt is None:
                out.append(_unknown("-" + v[1], w.start, w.start + 2, BY_SHORT))
                line.bad.append((w.start, w.end))
                continue
            if not opt.value:
                if len(v) > 2:
                    out.append(Diagnostic(NOT_SBATCH, E, f"-{v[1]} takes no value", w.start, w.end))
                    line.bad.append((w.start, w.end))
                    continue
                line.items.append(_Item(opt, True, None, w.start, w.end, w.end, w.end))
                continue
            if len(v) > 2:
                line.items.append(_Item(opt, True, v[2:], w.start, w.end, w.start + 2, w.end))
                continue
        else:
            out.append(Diagnostic(NOT_SBATCH, E, f"{v!r} is not an option", w.start, w.end))
            line.bad.append((w.start, w.end))
            continue
        # the value is the next word
        shown = f"-{opt.short}" if not v.startswith("--") else f"--{opt.long}"
        if i >= len(words):
            out.append(Diagnostic(NOT_SBATCH, E, f"{shown} needs a value", w.start, w.end))
            line.bad.append((w.start, w.end))
            continue
        nxt = words[i]
        i += 1
        line.items.append(
            _Item(opt, not v.startswith("--"), nxt.value, w.start, nxt.end, nxt.start, nxt.end)
        )
    return line


def _unknown(name: str, start: int, end: int, table) -> Diagnostic:
    prefix = "--" if name.startswith("--") else "-"
    close = difflib.get_close_matches(name[len(prefix) :], list(table), n=1, cutoff=0.6)
    hint = f"; did you mean {prefix}{close[0]}?" if close else ""
    return Diagnostic(NOT_SBATCH, E, f"sbatch has no option {name}{hint}", start, end)


# --------------------------------------------------------------------------- converting
@dataclass
class _Context:
    """What the whole directive block says about resources (each option converts
    in place, but some need the others: tasks per node need the node count)."""

    nodes: int | None = None
    ntasks: int | None = None
    per_node: int | None = None
    cpus: int = 1  # --cpus-per-task
    # the node count comes from an #SBATCH line (not the script's own #flux: lines): only
    # then can the slot per node layout, which rewrites that line, be used
    nodes_from_slurm: bool = False
    node_gpus: int | None = None  # --gres=gpu:N or --gpus-per-node=N
    sized: bool = False  # some option gives the size
    sentinel: str = "#flux:"  # the one the script already uses, else Flux's usual

    @property
    def node_slots(self) -> bool:
        """Whether the job is carried as one slot per node holding the node's tasks'
        cores and its gpus: a gpu count per node that its tasks cannot share evenly
        (-N2 --ntasks-per-node=4 --gres=gpu:2) is kept that way, not dropped."""
        s = self.slots_per_node
        return bool(
            self.nodes_from_slurm and self.node_gpus and s and s > 1 and self.node_gpus % s != 0
        )

    @property
    def slots(self) -> int:
        if self.ntasks:
            return self.ntasks
        if self.per_node:
            return (self.nodes or 1) * self.per_node
        return self.nodes or 1

    @property
    def slots_per_node(self) -> int | None:
        if self.per_node and not self.ntasks:
            return self.per_node
        if self.ntasks and self.nodes:
            return self.ntasks // self.nodes if self.ntasks % self.nodes == 0 else None
        if self.nodes and not self.ntasks:
            return 1
        return None


class _NotCarried(Exception):
    def __init__(self, message: str, severity: Severity = W):
        self.message = message
        self.severity = severity


@dataclass
class _Out:
    flux: list[str] = field(default_factory=list)  # option words, already shell-quoted
    notes: list[str] = field(default_factory=list)  # carried differently


def _count(value: str, what: str) -> int:
    """A Slurm count: ASCII digits, as Slurm (C) reads them, small enough for Flux."""

    n = ascii_int(value.strip())
    if n is None:
        raise _NotCarried(f"{what} {value[:40]!r} is not a whole number", E)
    if n < 1:
        raise _NotCarried(f"{what} must be at least 1, not {n}", E)
    if n > 2**63 - 1:
        raise _NotCarried(f"{what} {value[:40]!r} is too large", E)
    return n


def _node_count(value: str) -> tuple[int, bool]:
    low, dash, _high = value.partition("-")
    return _count(low, "--nodes"), bool(dash)


def _opt(item: _Item, long: str, value: str | None = None, long_only: bool = False) -> str:
    """The Flux option ``long`` with ``value``, in its short form where the #SBATCH line
    used a short one and flux batch has one (from the option table)."""
    short = None if long_only else _flux_option(long).short
    if item.short and short:
        return f"-{short}" if value is None else f"-{short} {_q(value)}"
    return f"--{long}" if value is None else f"--{long}={_q(value)}"


def _q(value: str) -> str:
    """``value`` as one word of a `#flux:` directive, quoted so Flux reads it back."""

    try:
        return directives.quote(value)
    except ValueError:
        raise _NotCarried(f"{value!r} cannot be written in one directive") from None


_NODE_SLOTS = "carried by the slot per node (see -N)"


def _c_nodes(item, ctx, out):
    n, ranged = _node_count(item.value)
    out.flux.append(_opt(item, "nodes", str(n)))
    if ctx.node_slots:
        s = ctx.slots_per_node
        out.flux.extend([f"--nslots={n}", f"--cores-per-slot={s * ctx.cpus}"])
        out.notes.append(
            f"each node is one slot of {s * ctx.cpus} cores and {ctx.node_gpus} gpus, as "
            f"its {s} tasks cannot share {ctx.node_gpus} gpus evenly in Flux; start them "
            f"inside with flux run -N{n} -n{n * s}" + (f" -c{ctx.cpus}" if ctx.cpus > 1 else "")
        )
        return
    if ranged:
        out.notes.append(f"a node range: Flux gets exactly {n} nodes, the minimum")
    if not ctx.ntasks and not ctx.per_node:
        out.notes.append(
            "without a task count, -N gives the job whole nodes (exclusive) in Flux, one slot each"
        )


def _c_ntasks(item, ctx, out):
    if ctx.node_slots:
        out.notes.append(_NODE_SLOTS)
        return
    out.flux.append(_opt(item, "nslots", str(_count(item.value, "--ntasks"))))


def _c_tasks_per_node(item, ctx, out):
    k = _count(item.value, "--ntasks-per-node")
    if ctx.node_slots:
        out.notes.append(_NODE_SLOTS)
        return
    if ctx.ntasks:
        if ctx.nodes and ctx.ntasks != ctx.nodes * k:
            raise _NotCarried(
                f"--ntasks={ctx.ntasks} over {ctx.nodes} nodes is not {k} per node: Flux "
                "spreads the -n slots evenly over the -N nodes"
            )
        return  # --ntasks decides; nothing to add
    if ctx.nodes:
        out.flux.append(f"--nslots={ctx.nodes * k}")
    else:
        out.flux.extend(["--nodes=1", f"--nslots={k}"])


def _c_cpus_per_task(item, ctx, out):
    if ctx.node_slots:
        out.notes.append(_NODE_SLOTS)
        return
    out.flux.append(_opt(item, "cores-per-slot", str(_count(item.value, "--cpus-per-task"))))


def _gpus_per_slot(item, n: int) -> str:
    return _opt(item, "gpus-per-slot", str(n), long_only=True)


def _c_gpus_per_task(item, ctx, out):
    out.flux.append(_gpus_per_slot(item, _count(item.value, "--gpus-per-task")))


def _gpu_count(value: str, what: str, out: _Out) -> int:
    """The count of ``[TYPE:]N``; a type is noted as not carried."""
    kind, _, count = value.rpartition(":")
    if kind:
        out.notes.append(f"the gpu type {kind!r} is not carried: Flux counts gpus")
    return _count(count, what)


def _per_node(item, ctx, out, per_node: int, what: str):
    if ctx.node_slots:
        out.flux.append(_gpus_per_slot(item, per_node))
        return
    s = ctx.slots_per_node
    if s is None:
        raise _NotCarried(
            f"{what} is per node, and without a node count that divides the tasks Flux "
            "cannot tell how many slots share a node: give the gpus per task "
            "(--gpus-per-task) or a node count"
        )
    if per_node % s:
        raise _NotCarried(
            f"{per_node} gpus per node do not divide among its {s} slots: Flux gives each "
            "slot the same number of gpus"
        )
    out.flux.append(_gpus_per_slot(item, per_node // s))


def _c_gpus_per_node(item, ctx, out):
    _per_node(item, ctx, out, _gpu_count(item.value, "--gpus-per-node", out), "--gpus-per-node")


def _c_gres(item, ctx, out):
    parts = item.value.split(",")
    for part in parts:
        name = part.partition(":")[0]
        if name != "gpu":
            raise _NotCarried(
                f"the generic resource {name!r}: Flux's batch options request "
                "nodes, cores and gpus only"
            )
    if len(parts) != 1:
        raise _NotCarried("several gpu requests in one --gres")
    n = _gpu_count(parts[0][len("gpu") :].lstrip(":") or "1", "--gres=gpu", out)
    _per_node(item, ctx, out, n, "--gres=gpu")


def _c_gpus(item, ctx, out):
    n = _gpu_count(item.value, "--gpus", out)
    slots = ctx.slots
    if n % slots:
        raise _NotCarried(
            f"{n} gpus do not divide among the job's {slots} slots: Flux gives "
            "each slot the same number of gpus (use --gpus-per-task)"
        )
    out.flux.append(_gpus_per_slot(item, n // slots))


def _c_exclusive(item, ctx, out):
    if item.value not in (None, ""):
        raise _NotCarried(f"--exclusive={item.value}: Flux's -x means whole nodes only")
    if not ctx.nodes:
        raise _NotCarried(
            "Flux allocates whole nodes only for a node count: add --nodes "
            "(#SBATCH --nodes=N) and convert again"
        )
    out.flux.append("--exclusive")


_SLURM_TIME = re.compile(
    r"(?:(?P<d>\d+)-(?P<dh>\d+)(?::(?P<dm>\d+)(?::(?P<ds>\d+))?)?"
    r"|(?P<a>\d+)(?::(?P<b>\d+)(?::(?P<c>\d+))?)?)",
    re.ASCII,  # Slurm reads ASCII digits only: \d alone would take '٣'
)


def slurm_seconds(value: str) -> int | None:
    """A Slurm time limit in seconds (None: unlimited); ValueError when unreadable."""
    v = value.strip()
    if v.upper() in ("UNLIMITED", "INFINITE", "-1"):
        return None
    m = _SLURM_TIME.fullmatch(v)
    if not m:
        raise ValueError(v)
    if m.group("d") is not None:
        days, h = int(m.group("d")), int(m.group("dh"))
        mins, secs = int(m.group("dm") or 0), int(m.group("ds") or 0)
        return ((days * 24 + h) * 60 + mins) * 60 + secs
    a, b, c = m.group("a"), m.group("b"), m.group("c")
    if c is not None:  # hours:minutes:seconds
        return (int(a) * 60 + int(b)) * 60 + int(c)
    if b is not None:  # minutes:seconds
        return int(a) * 60 + int(b)
    return int(a) * 60  # minutes


def fsd(seconds: int) -> str:
    """Seconds as the shortest exact Flux Standard Duration."""
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds and seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def _c_time(item, ctx, out):
    try:
        secs = slurm_seconds(item.value)
    except ValueError:
        raise _NotCarried(
            f"{item.value!r} is not a Slurm time (MIN, MIN:SEC, H:MIN:SEC, "
            "D-H, D-H:MIN, D-H:MIN:SEC)",
            E,
        ) from None
    if secs is None:
        out.notes.append("no time limit: Flux applies its queue's or instance's default")
        return
    if secs == 0:
        out.notes.append("a zero time limit is no limit in Slurm: nothing to write")
        return
    out.flux.append(_opt(item, "time-limit", fsd(secs)))


def _c_partition(item, ctx, out):
    first, comma, _ = item.value.partition(",")
    if comma:
        out.notes.append(f"Flux takes one queue: {first!r}, the first of the partitions")
    out.flux.append(_opt(item, "queue", first))


def _c_account(item, ctx, out):
    out.flux.append(_opt(item, "bank", item.value))


def _c_job_name(item, ctx, out):
    out.flux.append(f"--job-name={_q(item.value)}")


_PATTERN = re.compile(r"%(%|\d*[A-Za-z])", re.ASCII)
_PATTERNS = {"j": "{{id}}", "x": "{{name}}"}


def _c_output(item, ctx, out):
    unknown: list[str] = []

    def sub(m):
        p = m.group(1)
        if p == "%":
            return "%"
        letter = p[-1]
        if letter in _PATTERNS:
            return _PATTERNS[letter]
        if letter == "A":  # the array's job id: without an array, the job's
            return "{{id}}"
        unknown.append("%" + p)
        return m.group(0)

    path = _PATTERN.sub(sub, item.value)
    if unknown:
        raise _NotCarried(
            f"{', '.join(unknown)} has no Flux template (Flux has {{{{id}}}} for %j and "
            "{{name}} for %x)"
        )
    if "{{" in item.value:
        out.notes.append("Flux expands {{...}} in the path as a template")
    out.flux.append(f"--{item.option.long}={_q(path)}")


_DEP_TYPES = {"after", "afterany", "afterok", "afternotok"}


def _c_dependency(item, ctx, out):
    value = item.value
    if "?" in value:
        raise _NotCarried(
            "'?' (any one of them) is not carried: a Flux job waits for all of its dependencies"
        )
    words: list[str] = []
    for part in value.split(","):
        if part == "singleton":
            words.append("--dependency=singleton")
            continue
        kind, _, ids = part.partition(":")
        if kind not in _DEP_TYPES:
            raise _NotCarried(
                f"the dependency type {kind!r} has no Flux scheme (Flux has "
                "after, afterany, afterok, afternotok, singleton)"
            )
        for jobid in ids.split(":"):
            jid, plus, _delay = jobid.partition("+")
            if plus:
                raise _NotCarried(f"{jobid!r}: Flux has no delay after a dependency")
            if not jid:
                raise _NotCarried(f"{part!r} names no job", E)
            words.append(f"--dependency={_q(kind + ':' + jid)}")
            if jid.isdigit():
                out.notes.append(
                    f"{jid} looks like a Slurm job id: a Flux dependency names a "
                    "Flux job (ƒ... or its number)"
                )
    out.flux.extend(words)


_NOW = re.compile(r"now(?:\+(\d+)(seconds|minutes|hours|days|weeks)?)?", re.I | re.A)
_UNITS = {"seconds": 1, "minutes": 60, "hours": 3600, "days": 86400, "weeks": 604800}
_CLOCK = {"noon": "12:00", "teatime": "16:00", "fika": "15:00", "elevenses": "11:00"}
_ISO = re.compile(r"(\d{4}-\d\d-\d\d)(?:T(\d\d?:\d\d(?::\d\d)?))?", re.A)
_HHMM = re.compile(r"\d\d?:\d\d(?::\d\d)?", re.A)
_US_DATE = re.compile(r"(\d\d)[/.]?(\d\d)[/.]?(\d\d)", re.A)
_PAST = (
    "Flux reads a time of day as today's, so once it has passed the job starts at once; "
    "Slurm waits for the next one"
)


def _c_begin(item, ctx, out):
    v = item.value
    m = _NOW.fullmatch(v)
    if m:
        if not m.group(1):
            out.notes.append("now: nothing to write")
            return
        secs = _count(m.group(1), "--begin=now+") * _UNITS[(m.group(2) or "seconds").lower()]
        out.flux.append(f"--begin-time=+{fsd(secs)}")
        return
    low = v.lower()
    if low in ("midnight", "tomorrow"):  # the next midnight, in both
        out.flux.append("--begin-time=tomorrow")
        return
    if low == "today":
        out.flux.append("--begin-time=today")
        return
    if low in _CLOCK or _HHMM.fullmatch(v):
        out.flux.append(f"--begin-time={_CLOCK.get(low, v)}")
        out.notes.append(_PAST)
        return
    m = _ISO.fullmatch(v)
    if m:  # flux-core 0.88 misreads 'T', and gives a bare date the current time of day
        out.flux.append(f"--begin-time={_q(m.group(1) + ' ' + (m.group(2) or '00:00'))}")
        return
    m = _US_DATE.fullmatch(v)
    if m:
        out.flux.append(f"--begin-time='20{m.group(3)}-{m.group(1)}-{m.group(2)} 00:00'")
        return
    raise _NotCarried(
        f"{v!r}: Flux reads +FSD, a date and time, HH:MM, midnight, noon, today or tomorrow"
    )


def _c_chdir(item, ctx, out):
    out.flux.append(f"--cwd={_q(item.value)}")


def _c_export(item, ctx, out):
    parts = [p for p in item.value.split(",") if p]
    if parts == ["ALL"]:
        out.notes.append("Flux copies the submitting environment by default: nothing to write")
        return
    if parts in (["NONE"], ["NIL"]):
        out.flux.append("--env=-*")
        out.notes.append(
            "the job starts with an empty environment; Slurm's NONE also loads "
            "the user's login environment, Flux does not"
        )
        return
    rules: list[str] = []
    everything = "ALL" in parts
    if not everything:
        rules.append("--env=-*")
    for p in parts:
        if p in ("ALL", "NONE", "NIL"):
            if p != "ALL":
                raise _NotCarried(f"{p} among variable names")
            continue
        if "=" in p or not everything:
            rules.append(f"--env={_q(p)}")
    if not everything:
        out.notes.append("only these variables reach the job (Slurm adds its SLURM_* ones)")
    out.flux.extend(rules)


_FEATURE = re.compile(r"\s*(?:([A-Za-z0-9_.:-]+)|([&|()])|(\S))")


def _c_constraint(item, ctx, out):
    pieces: list[str] = []
    for m in _FEATURE.finditer(item.value):
        name, op, other = m.groups()
        if other:
            raise _NotCarried(
                f"{other!r}: Flux constraints have and, or, not and parentheses, but no "
                "matching sets ([...]) or node counts (*N)"
            )
        if name:
            pieces.append(name)
        elif op == "&":
            pieces.append("and")
        elif op == "|":
            pieces.append("or")
        else:
            pieces.append(op)
    query = " ".join(pieces).replace("( ", "(").replace(" )", ")")
    try:
        values.parse_requires(query)
    except values.Refused as err:
        raise _NotCarried(f"as an RFC 35 query ({query!r}): {err}") from None
    out.flux.append(f"--requires={_q(query)}")


def _hosts(item, negate: bool, out):
    v = item.value
    if "/" in v:
        raise _NotCarried("a file of host names: give the hosts as --requires=host:LIST")
    try:
        formats.parse_hostlist(v)
    except formats.FormatError:
        raise _NotCarried(f"{v!r} is not a host list Flux reads") from None
    out.flux.append(f"--requires={_q(('-' if negate else '') + 'host:' + v)}")


def _c_nodelist(item, ctx, out):
    _hosts(item, False, out)


def _c_exclude(item, ctx, out):
    _hosts(item, True, out)


def _c_hold(item, ctx, out):
    out.flux.append("--urgency=0")


_SIGNAL = re.compile(r"(?:([RB]):)?(SIG)?([A-Z0-9]+)(?:@(\d+))?", re.I | re.A)


def _c_signal(item, ctx, out):
    m = _SIGNAL.fullmatch(item.value)
    if not m:
        raise _NotCarried(f"{item.value!r} is not [R:|B:]SIG[@SECONDS]", E)
    where, _, sig, secs = m.groups()
    if where:
        out.notes.append(f"{where}: is not carried: Flux signals the job's processes")
    name = sig if sig.isdigit() else "SIG" + sig.upper()
    out.flux.append(f"--signal={name}@{int(secs or 60)}s")


_CONVERTERS: dict[str, Callable] = {
    "nodes": _c_nodes,
    "ntasks": _c_ntasks,
    "tasks_per_node": _c_tasks_per_node,
    "cpus_per_task": _c_cpus_per_task,
    "gpus_per_task": _c_gpus_per_task,
    "gpus": _c_gpus,
    "gpus_per_node": _c_gpus_per_node,
    "gres": _c_gres,
    "exclusive": _c_exclusive,
    "time": _c_time,
    "partition": _c_partition,
    "account": _c_account,
    "job_name": _c_job_name,
    "output": _c_output,
    "dependency": _c_dependency,
    "begin": _c_begin,
    "chdir": _c_chdir,
    "export": _c_export,
    "constraint": _c_constraint,
    "nodelist": _c_nodelist,
    "exclude": _c_exclude,
    "hold": _c_hold,
    "signal": _c_signal,
}
SIZE = {"nodes", "ntasks", "tasks_per_node"}


@dataclass(frozen=True)
class Edit:
    start: int
    end: int
    text: str


@dataclass
class Conversion:
    text: str
    edits: list[Edit]
    diagnostics: list[Diagnostic]  # in the original text
    lines: dict[int, str]  # offset of each converted `#SBATCH` -> what replaces its line

    @property
    def changed(self) -> bool:
        return bool(self.edits)


def _context(reading: Reading) -> _Context:
    ctx = _Context()
    for line in reading.lines:
        for it in line.items:
            try:
                if it.option.how == "nodes":
                    ctx.nodes = _node_count(it.value or "")[0]
                    ctx.nodes_from_slurm = True
                elif it.option.how == "ntasks":
                    ctx.ntasks = _count(it.value or "", "")
                elif it.option.how == "tasks_per_node":
                    ctx.per_node = _count(it.value or "", "")
                elif it.option.how == "cpus_per_task":
                    ctx.cpus = _count(it.value or "", "")
                elif it.option.how == "gpus_per_node":
                    ctx.node_gpus = _gpu_count(it.value or "", "", _Out())
                elif it.option.how == "gres":
                    parts = (it.value or "").split(",")
                    if len(parts) == 1 and parts[0].partition(":")[0] == "gpu":
                        ctx.node_gpus = _gpu_count(
                            parts[0][len("gpu") :].lstrip(":") or "1", "", _Out()
                        )
            except _NotCarried:
                continue
            if it.option.how in SIZE:
                ctx.sized = True
    return ctx


def _flux_block(text: str, ctx: _Context) -> bool:
    """Read the script's own Flux directives, if any: their sentinel becomes the one
    the conversion writes (Flux refuses a second one), and whether they already give
    the job a size (then no `--nslots=1` is added: converting twice changes nothing)."""

    script = directives.read(text)
    if script.sentinel is None:
        return False
    ctx.sentinel = script.sentinel
    sink: list[Diagnostic] = []
    found = batch.parse_script(script, sink)
    given = {g.option.long for g in found}
    # the sizes they give are the job's too: what the #SBATCH lines left to convert
    # are read against them, so a second conversion sees what the first one saw
    unset = {k for k, v in (("nodes", ctx.nodes), ("nslots", ctx.ntasks)) if v is None}
    if ctx.cpus == 1:
        unset.add("cores-per-slot")
    for g in found:  # in order: the last one given wins, as in Flux
        n = formats.ascii_int(g.value or "")
        if n is None or n < 1 or g.option.long not in unset:
            continue
        if g.option.long == "nodes":
            ctx.nodes = n
        elif g.option.long == "nslots":
            ctx.ntasks = n
        else:
            ctx.cpus = n
    return bool(given & {"nodes", "nslots", "resources-shape"})


@functools.lru_cache(maxsize=64)
def convert_script(text: str) -> Conversion:
    """`#SBATCH` directives rewritten as `#flux:`; every other byte kept."""
    reading = read(text)
    diags = list(reading.problems)
    for at in reading.late:
        diags.append(
            Diagnostic(
                AFTER_COMMANDS,
                W,
                "#SBATCH after the script's first command: sbatch "
                "ignores it, and it is not converted",
                at,
                at + 7,
            )
        )
    ctx = _context(reading)
    flux_sized = _flux_block(text, ctx)
    edits: list[Edit] = []
    replaced: dict[int, str] = {}
    last_end = None
    for line in reading.lines:
        flux: list[str] = []
        kept: list[tuple[int, str]] = [(a, text[a:b]) for a, b in line.bad]
        for it in line.items:
            o = it.option
            out = _Out()
            shown = text[it.start : it.end]
            if o.how == "-":
                diags.append(
                    Diagnostic(
                        CARRIED_DIFFERENTLY, I, f"{shown}: {o.note}; left out", it.start, it.end
                    )
                )
                continue
            if not o.how:
                diags.append(
                    Diagnostic(
                        NOT_CARRIED, W, f"{shown}: {o.note}; kept as #SBATCH", it.start, it.end
                    )
                )
                kept.append((it.start, shown))
                continue
            try:
                _CONVERTERS[o.how](it, ctx, out)
            except _NotCarried as nc:
                code = NOT_SBATCH if nc.severity is E else NOT_CARRIED
                a, b = (it.value_start, it.value_end) if it.value else (it.start, it.end)
                diags.append(
                    Diagnostic(code, nc.severity, f"{shown}: {nc.message}; kept as #SBATCH", a, b)
                )
                kept.append((it.start, shown))
                continue
            for note in out.notes:
                diags.append(
                    Diagnostic(CARRIED_DIFFERENTLY, I, f"{shown}: {note}", it.start, it.end)
                )
            flux.extend(out.flux)
        if kept and not flux and len(kept) == len(line.items) + len(line.bad):
            continue  # nothing converts: the line stays as it is
        if not line.items and not line.bad:
            continue  # a bare #SBATCH
        trailing = text[line.words_end : line.end]
        parts = []
        if flux:
            parts.append(f"{ctx.sentinel} " + " ".join(flux) + trailing)
        if kept:
            words = " ".join(w for _, w in sorted(kept))
            parts.append("#SBATCH " + words + ("" if flux else trailing))
        new = "\n".join(parts)
        if new:
            edits.append(Edit(line.start, line.end, new))
            replaced[line.start] = new
            last_end = line.end
        else:  # nothing to write (--export=ALL, --parsable): the line goes
            cut = line.end + (1 if text[line.end : line.end + 1] == "\n" else 0)
            edits.append(Edit(line.start, cut, ""))
            replaced[line.start] = ""
    if reading.lines and not ctx.sized and not flux_sized:
        first = reading.lines[0]
        diags.append(
            Diagnostic(
                CARRIED_DIFFERENTLY,
                I,
                "no node or task count: sbatch's default is one "
                "task, so `#flux: --nslots=1` is added (flux batch needs a size)",
                first.start,
                first.start + 7,
            )
        )
        at = last_end if last_end is not None else reading.lines[-1].end
        edits.append(Edit(at, at, f"\n{ctx.sentinel} --nslots=1"))
    diags.sort(key=Diagnostic.sort_key)
    edits.sort(key=lambda e: (e.start, e.end))
    out_text = apply(text, edits)
    return Conversion(out_text, edits, diags, replaced)


def apply(text: str, edits: list[Edit]) -> str:
    parts = []
    pos = 0
    for e in edits:
        parts.append(text[pos : e.start])
        parts.append(e.text)
        pos = e.end
    parts.append(text[pos:])
    return "".join(parts)


# --------------------------------------------------------------------------- the body
# found by their literal start (a regex that starts with a literal is searched fast);
# the context before the match is checked in Python
_VAR = re.compile(r"SLURM_[A-Z0-9_]+")
_CMD = re.compile(r"s(?:" + "|".join(c[1:] for c in COMMANDS) + r")(?![\w.-])")
_WORDISH = re.compile(r"[\w.$-]")


# a command that hands the quoted text to another shell, which expands it there:
# `sh -c '...$SLURM_PROCID...'`, `bash <<'EOF'`, `ssh host <<'EOF'`
# a shell as a command word (`sh`, `/bin/bash`, `ssh`), not a name ending in .sh
_SHELL_WORD = r"(?:^|(?<=[\s;&|(]))(?:[^\s;&|()<>]*/)?(?:(?:ba|z|k|da)?sh|ssh)\b(?!\.)"
_INNER_SHELL_C = re.compile(_SHELL_WORD + r"\s+(?:-\w+\s+)*-\w*c\w*\s*$")
_INNER_SHELL_IN = re.compile(_SHELL_WORD + r"[^|;&]*$")
_SHELL_STOP = re.compile(r"[#\\'\"\n]|<<")
_SHELL_STOP_NO_NL = re.compile(r"[#\\'\"]|<<")  # no here-document waiting for its body
_HEREDOC = re.compile(r"<<(-?)[ \t]*(?:'([^'\n]*)'|\"([^\"\n]*)\"|\\?([A-Za-z_][\w]*))")


def shell_literals(text: str) -> list[tuple[int, int]]:
    """See :func:`_shell_reading`: its literal spans."""
    return list(_shell_reading(text)[0])


def written_heredocs(text: str) -> list[tuple[int, int]]:
    """See :func:`_shell_reading`: the here-documents no shell runs."""
    return list(_shell_reading(text)[1])


@functools.lru_cache(maxsize=8)
def _shell_reading(text: str) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """(start, end) of the parts of a shell script where `$` expands nothing: comments,
    '...' strings, a backslash-escaped character, and here-documents whose delimiter is
    quoted (``<<'EOF'``), unless another shell is handed that text to run (``sh -c '...'``,
    ``bash <<'EOF'``): there it expands. One pass over the text, in order; a reading good
    enough to keep the SLURM_* findings and their fixes out of text printed as it is.
    Also the (start, end) of every here-document no shell runs (``cat > job.sh <<EOF``):
    text written somewhere, not run by this script."""
    bodies: list[tuple[int, int]] = []
    spans: list[tuple[int, int]] = []
    heredocs: list[tuple[str, bool, bool, bool]] = []  # (delimiter, literal, strip tabs, run)
    n = len(text)
    i = 0
    dquote = False
    while i < n:
        m = (_SHELL_STOP if heredocs else _SHELL_STOP_NO_NL).search(text, i)
        if m is None:
            break
        i = m.start()
        ch = m.group(0)
        if ch == "\n":
            i += 1
            while heredocs and not dquote:  # the bodies start on the next line
                delim, literal, strip, run = heredocs.pop(0)
                body = i
                while i < n:
                    nl = text.find("\n", i)
                    end = n if nl < 0 else nl
                    line = text[i:end]
                    if (line.lstrip("\t") if strip else line) == delim:
                        break
                    i = end + 1 if nl >= 0 else n
                else:
                    end = nl = n
                if literal:
                    spans.append((body, i))
                if not run:
                    bodies.append((body, i))
                if i < n:
                    i = end + 1 if nl >= 0 and nl < n else n
            continue
        if ch == "\\":
            spans.append((i, min(i + 2, n)))
            i += 2
            continue
        if ch == '"':
            dquote = not dquote
            i += 1
            continue
        if dquote:
            i += 1
            continue
        if ch == "'":
            end = text.find("'", i + 1)
            end = n if end < 0 else end + 1
            if not _INNER_SHELL_C.search(text, text.rfind("\n", 0, i) + 1, i):
                spans.append((i, end))
            i = end
            continue
        if ch == "#":
            if i == 0 or text[i - 1] in " \t\n;&|()":
                end = text.find("\n", i)
                end = n if end < 0 else end
                spans.append((i, end))
                i = end
            else:
                i += 1
            continue
        h = _HEREDOC.match(text, i)
        if h is None:
            i += 2
            continue
        quoted = h.group(2) is not None or h.group(3) is not None or "\\" in h.group(0)
        delim = next(g for g in h.group(2, 3, 4) if g is not None)
        if quoted and _INNER_SHELL_IN.search(text, text.rfind("\n", 0, i) + 1, i):
            quoted = False  # a shell reads the body, and expands it
        run = _INNER_SHELL_IN.search(text, text.rfind("\n", 0, i) + 1, i) is not None
        heredocs.append((delim, quoted, bool(h.group(1)), run))
        i = h.end()
    return tuple(spans), tuple(bodies)


def body_diagnostics(text: str) -> list[Diagnostic]:
    """`SLURM_*` variables and Slurm commands in the script's non-comment lines; a
    variable where the shell expands nothing ('...', \\$, a quoted here-document) is
    left alone: it means the same under Flux."""

    out: list[Diagnostic] = []
    if "SLURM_" not in text and not any(c in text for c in COMMANDS):
        return out
    literal = shell_literals(text)
    starts = [a for a, _ in literal]

    def in_literal(pos: int) -> bool:
        k = bisect.bisect_right(starts, pos) - 1
        return k >= 0 and literal[k][0] <= pos < literal[k][1]

    comment: dict[int, bool] = {}  # line start -> whether the line is a comment

    def in_comment(pos: int) -> bool:
        ls = text.rfind("\n", 0, pos) + 1
        got = comment.get(ls)
        if got is None:
            got = comment[ls] = text[ls:pos].lstrip().startswith("#")
        return got

    for m in _VAR.finditer(text):
        name = m.group(0)
        start, end = m.start(), m.end()
        before = text[start - 1] if start else ""
        if before == "$":
            start -= 1
        elif before == "{" and text[start - 2 : start] == "${" and text[end : end + 1] == "}":
            start, end = start - 2, end + 1
        elif before and (before.isalnum() or before == "_"):
            continue  # MY_SLURM_X: another name
        bare = not text.startswith("$", start)
        if in_comment(start) or (not bare and in_literal(start)):
            continue  # a bare name is code reading the environment, quoted or not
        repl, words = VARIABLES.get(
            name, (None, "Slurm sets it; Flux does not, so it is empty under Flux")
        )
        data = None
        if repl is not None:
            if bare:  # a bare name (os.environ["SLURM_PROCID"]): names only
                data = (
                    {"replace": repl[1:], "title": f"Use {repl[1:]}"}
                    if repl.startswith("$FLUX")
                    else None
                )
            else:
                data = {"replace": repl, "title": f"Use {repl}"}
        out.append(Diagnostic(SLURM_VARIABLE, W, f"{name}: {words}", start, end, data))
    for m in _CMD.finditer(text):
        if m.start() and _WORDISH.match(text, m.start() - 1):
            continue  # ./srun-wrapper, my.srun, $srun
        if in_comment(m.start()):
            continue
        name = m.group(0)
        out.append(
            Diagnostic(
                SLURM_COMMAND,
                W,
                f"{name} is Slurm's; under Flux: {COMMANDS[name]}",
                m.start(),
                m.end(),
            )
        )
    return out


@functools.lru_cache(maxsize=64)
def diagnostics(text: str) -> tuple[Diagnostic, ...]:
    """JS590-JS596 for a script: each converted `#SBATCH` line (a hint whose fix is the
    whole conversion), what cannot be carried, and Slurm left in the body."""
    out: list[Diagnostic] = []
    if "#SBATCH" in text:
        conv = convert_script(text)
        out.extend(conv.diagnostics)
        fix = [(e.start, e.end, e.text) for e in conv.edits]
        for start, new in conv.lines.items():
            shown = new.split("\n")[0] if new else "nothing"
            out.append(
                Diagnostic(
                    SLURM_DIRECTIVE,
                    H,
                    f"a Slurm directive, which flux batch ignores; the conversion writes: {shown}",
                    start,
                    start + 7,
                    {"edits": fix, "title": "Convert every #SBATCH directive to #flux:"},
                )
            )
    out.extend(body_diagnostics(text))
    out.sort(key=Diagnostic.sort_key)
    return tuple(out)


# --------------------------------------------------------------------------- docs
def table_markdown() -> str:
    """The mapping table of docs/migration.md."""
    rows = ["| sbatch | flux batch | notes |", "|---|---|---|"]
    for o in SLURM:
        names = f"`--{o.long}`" + (f", `-{o.short}`" if o.short else "")
        if o.how == "-":
            flux = "nothing to carry"
        elif o.flux:
            flux = o.flux.replace("|", "\\|")
        else:
            flux = "not carried: kept as `#SBATCH` (JS591)"
        rows.append(f"| {names} | {flux} | {o.note.replace('|', chr(92) + '|')} |")
    rows += ["", "| in the script body | under Flux |", "|---|---|"]
    for name, (_repl, words) in VARIABLES.items():
        rows.append(f"| `${name}` | {words.replace('|', chr(92) + '|')} |")
    for name, words in COMMANDS.items():
        rows.append(f"| `{name}` | {words} |")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":  # the table of docs/migration.md
    print(table_markdown(), end="")
