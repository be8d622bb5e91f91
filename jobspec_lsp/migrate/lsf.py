"""LSF's `#BSUB` directives read into the request model, as `bsub` reads them, with the
forms of LLNL's CSM systems (Sierra, Lassen): `-nnodes` and `-alloc_flags`.

Semantics from IBM Spectrum LSF's bsub reference
(https://www.ibm.com/docs/en/spectrum-lsf/10.1.0?topic=bsub-options) and LLNL's Sierra/Lassen
guide (https://hpc.llnl.gov/documentation/user-guides/using-lc-s-sierra-systems): `-n` is
the number of tasks (slots); `-R "span[ptile=K]"` puts K on each host; `-W [hour:]minute`;
`-nnodes N` asks N whole nodes, where `jsrun`/`lrun` lay out the tasks; `-o`/`-e` accept
`%J` (the job id) and `%I` (an array index); a job name `name[1-10]` makes an array.
bsub reads `#BSUB` lines up to the first line that is neither blank nor a comment.
"""

from __future__ import annotations

import re

from jobspec_lsp.job import directives
from jobspec_lsp.migrate import reading
from jobspec_lsp.migrate.model import Item, Line, NotCarried, Request
from jobspec_lsp.migrate.reading import Option
from jobspec_lsp.migrate.slurmvalues import count, output_template
from jobspec_lsp.notations.formats import ascii_int

NAME = "lsf"
SHELL = "#!/bin/sh"  # bsub runs a script without a #! line with the Bourne shell
LATE = (
    "a #BSUB line after the first command: bsub reads it, but Flux reads directives only "
    "at the top; move it up with the others and convert again"
)
COMMAND = "bsub"
SENTINEL = re.compile(r"#BSUB(?=[ \t]|$)")
SENTINEL_ANYWHERE = re.compile(r"^#BSUB(?=[ \t\r]|$)", re.M)
REFERENCE = "https://www.ibm.com/docs/en/spectrum-lsf/10.1.0?topic=bsub-options"
LLNL = "https://hpc.llnl.gov/banks-jobs/running-jobs/lsf-user-manual"


def _page(name: str) -> str:
    """IBM's page for one bsub option: bsub.OPTION.1.html, a capital letter as __x."""
    key = "".join(f"__{c.lower()}" if c.isupper() else c for c in name.lstrip("-"))
    return f"https://www.ibm.com/docs/en/SSWRJV_10.1.0/lsf_command_ref/bsub.{key}.1.html"


def _o(names, value, reader, flux, note="", ref=""):
    return Option(names, value, reader, flux, note, False, ref or _page(names[0]))


OPTIONS: tuple[Option, ...] = (
    _o(("-n",), True, "tasks", "-n (one slot per task)", "MIN,MAX: the minimum"),
    _o(("-nnodes",), True, "nnodes", "-N with -x (whole nodes, as CSM allocates)"),
    _o(
        ("-R",),
        True,
        "resources",
        "span[ptile=K] → K tasks per node; span[hosts=1] → -N 1; affinity[core(C)] → -c C",
        "rusage[], select[], order[] and same[] are not carried: kept as a comment",
    ),
    _o(("-W",), True, "time", "-t ([hour:]minute)"),
    _o(("-q",), True, "queue", "-q"),
    _o(("-P",), True, "account", "--bank (the LSF project)"),
    _o(
        ("-G",),
        True,
        "group",
        "--bank (LLNL's LSF systems give the bank with -G)",
        "elsewhere -G is a fairshare user group, which Flux has not: its bank is the nearest",
        ref=LLNL,
    ),
    _o(
        ("-J",),
        True,
        "name",
        "--job-name",
        "NAME[1-N] is a job array, which Flux has not: NAME is the name, the array is kept "
        "as a comment",
    ),
    _o(
        ("-o",),
        True,
        "output",
        "--output (%J → {{id}})",
        "LSF appends to an existing file (-oo overwrites); Flux writes it afresh",
    ),
    _o(("-oo",), True, "output", "--output (Flux writes the file afresh)"),
    _o(("-e",), True, "error", "--error (%J → {{id}})", "LSF appends; Flux writes afresh"),
    _o(("-eo",), True, "error", "--error (Flux writes the file afresh)"),
    _o(("-x",), False, "exclusive", "-x", "without a node count (-nnodes, ptile): 1 node"),
    _o(
        ("-w",),
        True,
        "dependency",
        "--dependency: done → afterok, exit → afternotok, "
        "ended → afterany, started → after (&& only)",
    ),
    _o(("-b",), True, "begin", "--begin-time ([[YYYY:][MM:]DD:]hh:mm)"),
    _o(("-cwd",), True, "cwd", "--cwd"),
    _o(("-H",), False, "hold", "--urgency=0 (held)"),
    _o(
        ("-gpu",),
        True,
        "gpu",
        "num=N: N gpus per node (-g)",
        "mode=, mps= and the rest: kept as a comment",
    ),
    _o(("-env",), True, "env", "--env rules (all, none, VAR=VALUE)"),
    _o(
        ("-alloc_flags",),
        True,
        "",
        "",
        "CSM allocation flags (smt, gpumps, nvme, ...) have no Flux form",
    ),
    _o(("-core_isolation",), True, "", "", "Flux does not isolate system cores"),
    _o(("-csm",), True, "-", "", "nothing to carry"),
    _o(("-stage",), True, "", "", "Flux does not stage data"),
    _o(("-step_cgroup",), True, "-", "", "nothing to carry"),
    _o(("-B",), False, "", "", "flux-core sends no mail"),
    _o(("-N",), False, "", "", "flux-core sends no mail"),
    _o(("-u",), True, "", "", "flux-core sends no mail"),
    _o(("-Ne",), False, "", "", "flux-core sends no mail"),
    _o(
        ("-notify",),
        True,
        "",
        "",
        "flux-core sends no notifications: watch the job with `flux job wait-event`",
    ),
    _o(("-M",), True, "", "", "memory is not requested in Flux"),
    _o(("-We",), True, "-", "", "an estimate: Flux schedules by the limit (-t)"),
    _o(("-r",), False, "", "", "Flux does not rerun a job"),
    _o(("-rn",), False, "-", "", "Flux never reruns a job"),
    _o(("-i",), True, "", "", "`flux batch` has no input option: redirect inside the script"),
    _o(("-L",), True, "-", "", "Flux runs the script with its #! line"),
    _o(("-app",), True, "", "", "Flux has no application profiles"),
    _o(("-U",), True, "", "", "Flux has no reservations"),
    _o(("-m",), True, "hosts", "--requires=host:LIST"),
    _o(("-sla",), True, "", "", "Flux has no service classes"),
    _o(("-outdir",), True, "", "", "give the directory in --output"),
    _o(("-I",), False, "", "", "an interactive job: use flux alloc"),
    _o(("-Is",), False, "", "", "an interactive job: use flux alloc"),
    _o(("-K",), False, "", "", "`flux batch` returns at once: wait with flux job attach"),
    _o(("-S",), True, "", "", "Flux sets limits with --rlimit"),
    _o(("-a",), True, "", "", "LSF esub applications have no Flux form"),
    _o(("-Ep",), True, "", "", "Flux has no post-execution command"),
    _o(("-E",), True, "", "", "Flux has no pre-execution command"),
)
TABLE = reading.table(OPTIONS)


# --------------------------------------------------------------------------- readers
def _tasks(item: Item, req: Request) -> None:
    low, comma, _ = (item.value or "").partition(",")
    if comma:
        item.notes.append(f"a task range: Flux gets exactly {low.strip()}, the minimum")
    req.set(item, "tasks", count(low, "-n"))


def _nnodes(item: Item, req: Request) -> None:
    req.set(item, "nodes", count(item.value or "", "-nnodes"))
    req.set(item, "exclusive", True)


_SECTION = re.compile(r"(\w+)\s*\[([^\]]*)\]")


def _resources(item: Item, req: Request) -> None:
    v = item.value or ""
    seen = False
    for m in _SECTION.finditer(v):
        kind, body = m.group(1), m.group(2)
        if kind == "span":
            for part in body.split(":"):
                key, _, val = part.partition("=")
                key = key.strip()
                if key == "ptile":
                    if val.strip() == "'!'" or val.strip() == "!":
                        raise NotCarried("ptile=!: the host's core count is not known here")
                    req.set(item, "tasks_per_node", count(val, "ptile"))
                elif key == "hosts":
                    req.set(item, "nodes", count(val, "span[hosts]"))
                elif key == "block":
                    item.notes.append("span[block]: Flux places tasks in its own blocks")
            seen = True
        elif kind == "affinity":
            c = re.search(r"core\((\d+)", body)
            if c:
                req.set(item, "cores_per_task", count(c.group(1), "affinity[core]"))
                seen = True
            else:
                item.lost.append(f"affinity[{body}]: binding is Flux's")
        elif kind == "rusage":
            item.lost.append(f"rusage[{body}]: Flux does not request memory or licences")
        else:
            item.lost.append(f"{kind}[{body}]: not carried (Flux places by cores and gpus)")
    if not seen:
        raise NotCarried("; ".join(item.lost) or f"{v!r}: no section Flux can carry")


def minutes(value: str) -> int:
    """LSF's `-W [hour:]minute` in seconds."""
    h, colon, m = value.strip().rpartition(":")
    mins = ascii_int(m)
    hours = ascii_int(h) if colon else 0
    if mins is None or hours is None:
        raise NotCarried(f"{value!r} is not [hour:]minute", error=True)
    return (hours * 60 + mins) * 60


def _time(item: Item, req: Request) -> None:
    secs = minutes(item.value or "")
    if secs:
        req.set(item, "time", secs)


def _queue(item: Item, req: Request) -> None:
    first, *more = (item.value or "").split()
    if more:
        item.notes.append(f"Flux takes one queue: {first!r}, the first of the candidates")
    req.set(item, "queue", first)


def _account(item: Item, req: Request) -> None:
    req.set(item, "account", item.value)


_ARRAY = re.compile(r"(.*?)\[([^\]]+)\](%\d+)?$")


def _group(item: Item, req: Request) -> None:
    item.notes.append(
        "LLNL's LSF systems give the bank with -G: Flux's --bank; elsewhere -G names a "
        "fairshare user group, which Flux has not"
    )
    req.set(item, "account", item.value)


def _name(item: Item, req: Request) -> None:
    v = item.value or ""
    m = _ARRAY.match(v)
    if m:
        req.array = m.group(2)
        array = (
            f"a job array ({m.group(2)}): Flux has no job arrays; submit one `flux batch` per "
            "index, with the index where the script read $LSB_JOBINDEX"
        )
        if not m.group(1):
            raise NotCarried(array)
        item.lost.append(array)
        v = m.group(1)
    req.set(item, "name", v)


_PATTERNS = {"J": "{{id}}"}


def _output(item: Item, req: Request) -> None:
    req.set(item, "output", output_template(item, item.value or "", _PATTERNS, index="I"))


def _error(item: Item, req: Request) -> None:
    req.set(item, "error", output_template(item, item.value or "", _PATTERNS, index="I"))


def _exclusive(item: Item, req: Request) -> None:
    req.set(item, "exclusive", True)


_DEP = re.compile(r"\s*(done|ended|exit|started|post_done|post_err)\s*\(\s*([^)]*?)\s*\)\s*")
_DEP_TYPES = {"done": "afterok", "ended": "afterany", "exit": "afternotok", "started": "after"}


def _dependency(item: Item, req: Request) -> None:
    v = item.value or ""
    for part in v.split("&&"):
        m = _DEP.fullmatch(part)
        if not m or m.group(1) not in _DEP_TYPES:
            raise NotCarried(
                f"{part.strip()!r}: Flux has after, afterok, afternotok and afterany, joined "
                "by && only"
            )
        jid = m.group(2).split(",")[0].strip().strip("\"'")
        if not jid:
            raise NotCarried(f"{part.strip()!r} names no job", error=True)
        n = ascii_int(jid)
        if re.fullmatch(r"\d+\[[\d,-]+\]", jid, re.A):
            raise NotCarried(
                f"{jid} is an element of an LSF job array: Flux has no arrays, and a Flux "
                "dependency names a Flux job; give the Flux job id it waits for"
            )
        if n is None or n < 1:
            raise NotCarried(
                f"{part.strip()!r} names a job by its name: a Flux dependency names a job id"
            )
        req.add(item, "dependencies", f"{_DEP_TYPES[m.group(1)]}:{n}")
        item.notes.append(f"{jid} looks like an LSF job id: a Flux dependency names a Flux job")


def _begin(item: Item, req: Request) -> None:
    parts = (item.value or "").split(":")
    nums = [ascii_int(p) for p in parts]
    if len(parts) < 2 or any(n is None for n in nums):
        raise NotCarried(f"{item.value!r} is not [[[YYYY:]MM:]DD:]hh:mm", error=True)
    hh, mm = nums[-2], nums[-1]
    if len(parts) == 2:
        req.set(item, "begin", f"{hh:02d}:{mm:02d}")
        item.notes.append(
            "Flux reads a time of day as today's, so once it has passed the job starts at "
            "once; LSF waits for the next one"
        )
        return
    if len(parts) == 5:
        y, mo, d = nums[0], nums[1], nums[2]
        req.set(item, "begin", f"{y:04d}-{mo:02d}-{d:02d} {hh:02d}:{mm:02d}")
        return
    raise NotCarried(f"{item.value!r}: give the year too (YYYY:MM:DD:hh:mm) for Flux")


def _cwd(item: Item, req: Request) -> None:
    req.set(item, "cwd", item.value)


def _hold(item: Item, req: Request) -> None:
    req.set(item, "hold", True)


def _gpu(item: Item, req: Request) -> None:
    v = item.value or ""
    if v == "-":
        item.notes.append("the cluster's default gpu request: not known here")
        return
    for part in v.split(":"):
        key, _, val = part.partition("=")
        if key.strip() == "num":
            n, _, per = val.partition("/")
            field = "gpus_per_task" if per.strip() == "task" else "gpus_per_node"
            req.set(item, field, count(n, "-gpu num"))
        elif key.strip():
            item.lost.append(f"{part}: not carried (Flux counts gpus)")


def _env(item: Item, req: Request) -> None:
    v = (item.value or "").strip()
    low = v.lower()
    if low == "all":
        item.notes.append("Flux copies the submitting environment by default: nothing to write")
        return
    rules = []
    parts = [p.strip() for p in v.split(",") if p.strip()]
    if parts and parts[0].lower() == "none":
        rules.append("-*")
        parts = parts[1:]
    elif parts and parts[0].lower() == "all":
        parts = parts[1:]
    rules += parts
    for r in rules:
        req.add(item, "env", r)


def _hosts(item: Item, req: Request) -> None:
    names = (item.value or "").split()
    if not names or any("!" in n or "+" in n for n in names):
        raise NotCarried(f"{item.value!r}: host groups and preferences have no Flux form")
    req.add(item, "requires", "host:" + ",".join(names))


READERS = {
    "tasks": _tasks,
    "nnodes": _nnodes,
    "resources": _resources,
    "time": _time,
    "queue": _queue,
    "account": _account,
    "group": _group,
    "name": _name,
    "output": _output,
    "error": _error,
    "exclusive": _exclusive,
    "dependency": _dependency,
    "begin": _begin,
    "cwd": _cwd,
    "hold": _hold,
    "gpu": _gpu,
    "env": _env,
    "hosts": _hosts,
}


def parse(line: Line, words: list[directives.Word], problems: list[tuple[int, int, str]]) -> None:
    reading.getopt(line, words, problems, TABLE, COMMAND)


def defaults(req: Request) -> list[tuple[str, str, str]]:
    """LSF mails a job's output when no -o is given: Flux writes flux-{{id}}.out."""
    return []


def start_directory(text: str, req: Request) -> str:
    """The job starts where it was submitted, as under Flux: nothing to say."""
    return ""


def finish(req: Request) -> None:
    """Nothing to settle once every directive is read."""


def block(text: str) -> reading.Block:
    return reading.block(text, SENTINEL, parse)


# --------------------------------------------------------------------------- the body
VARIABLE_PREFIXES = ("LSB_", "LS_")
# every LSB_* name, and the three LS_* ones LSF sets in a job (LS_COLORS is GNU ls's)
VARIABLE = re.compile(r"LSB_[A-Z0-9_]+|LS_(?:SUBCWD|JOBPID|EXECCWD)(?![A-Z0-9_])")
SETS = None  # every name VARIABLE matches
VARIABLES: dict[str, tuple[str | None, str]] = {
    "LSB_JOBID": ("$(flux getattr jobid)", "the batch job's id: `flux getattr jobid`"),
    "LSB_BATCH_JID": ("$(flux getattr jobid)", "the batch job's id: `flux getattr jobid`"),
    "LSB_DJOB_NUMPROC": ("{tasks}", "the task count, known from the directives"),
    "LSB_MAX_NUM_PROCESSORS": ("{tasks}", "the task count, known from the directives"),
    "LS_SUBCWD": (
        "=PWD",
        "the submission directory: set by `#flux: --env=LS_SUBCWD=$PWD`, which flux batch "
        "expands when the job is submitted",
    ),
    "LSB_SUBCWD": (
        "=PWD",
        "the submission directory: set by `#flux: --env=LSB_SUBCWD=$PWD`",
    ),
    "LSB_JOBNAME": (None, "no variable: the name is --job-name or the script's file name"),
    "LSB_HOSTS": (
        None,
        "each host once per slot: `flux hostlist instance` gives each host once",
    ),
    "LSB_MCPU_HOSTS": (None, "host and slot pairs: `flux resource list` gives the cores per node"),
    "LSB_DJOB_HOSTFILE": (
        None,
        "a file of hosts: write one with `flux hostlist -e -d '\\n' instance > hosts`",
    ),
    "LSB_JOBINDEX": (None, "Flux has no job arrays: pass the index as an argument"),
}
COMMANDS = {
    "bsub": "flux batch",
    "bjobs": "flux jobs",
    "bkill": "flux cancel",
    "bhosts": "flux resource list",
    "bqueues": "flux queue list",
    "bpeek": "flux job attach",
    "bwait": "flux job wait",
}
COMMAND_WORD = re.compile(r"b(?:sub|jobs|kill|hosts|queues|peek|wait)(?![\w.-])")
