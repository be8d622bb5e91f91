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

import getpass
import json
import re

from jobspec_lsp import data_text
from jobspec_lsp.fluxcli import values
from jobspec_lsp.job import directives
from jobspec_lsp.migrate import reading
from jobspec_lsp.migrate.model import Item, Line, NotCarried, Request, fsd, minutes_up
from jobspec_lsp.migrate.reading import Option
from jobspec_lsp.notations import formats
from jobspec_lsp.notations.formats import ascii_int

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
        "an array task's id (123_4) Flux cannot name: kept as written",
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
def count(value: str, what: str) -> int:
    """A count as Slurm (C) reads it: ASCII digits, at least 1, small enough for Flux."""
    n = ascii_int(value.strip())
    if n is None:
        raise NotCarried(f"{what} {value[:40]!r} is not a whole number", error=True)
    if n < 1:
        raise NotCarried(f"{what} must be at least 1, not {n}", error=True)
    if n > 2**31 - 1:
        raise NotCarried(f"{what} {value[:40]!r} is too large", error=True)
    return n


_TIME = re.compile(
    r"(?:(?P<d>\d+)-(?P<dh>\d+)(?::(?P<dm>\d+)(?::(?P<ds>\d+))?)?"
    r"|(?P<a>\d+)(?::(?P<b>\d+)(?::(?P<c>\d+))?)?)",
    re.ASCII,  # Slurm reads ASCII digits only
)


def seconds(value: str) -> int | None:
    """A Slurm time limit in seconds (None: unlimited); ValueError when unreadable."""
    v = value.strip()
    if v.upper() in ("UNLIMITED", "INFINITE", "-1"):
        return None
    m = _TIME.fullmatch(v)
    if not m:
        raise ValueError(v)
    if m.group("d") is not None:
        days, h = _big(m.group("d")), _big(m.group("dh"))
        mins, secs = _big(m.group("dm") or "0"), _big(m.group("ds") or "0")
        return ((days * 24 + h) * 60 + mins) * 60 + secs
    a, b, c = m.group("a"), m.group("b"), m.group("c")
    if c is not None:
        return (_big(a) * 60 + _big(b)) * 60 + _big(c)
    if b is not None:
        return _big(a) * 60 + _big(b)
    return _big(a) * 60


def _big(digits: str) -> int:
    """ASCII digits as a number; past 30 of them, 10**30 (far beyond any limit, and no
    conversion of thousands of digits)."""
    return int(digits) if len(digits.lstrip("0")) <= 30 else 10**30


def _gpu_count(item: Item, value: str, what: str) -> int:
    """The count of ``[TYPE:]N``; a type is noted as not carried."""
    kind, _, n = value.rpartition(":")
    if kind:
        item.notes.append(f"the gpu type {kind!r} is not carried: Flux counts gpus")
    return count(n, what)


# --------------------------------------------------------------------------- readers
def _nodes(item: Item, req: Request) -> None:
    low, dash, high = (item.value or "").partition("-")
    req.set(item, "nodes", count(low, "--nodes"))
    req.set(item, "nodes_max", count(high, "--nodes") if dash else None)


def _ntasks(item: Item, req: Request) -> None:
    req.set(item, "tasks", count(item.value or "", "--ntasks"))


def _tasks_per_node(item: Item, req: Request) -> None:
    req.set(item, "tasks_per_node", count(item.value or "", "--ntasks-per-node"))


def _cpus_per_task(item: Item, req: Request) -> None:
    req.set(item, "cores_per_task", count(item.value or "", "--cpus-per-task"))


def _cpus_per_gpu(item: Item, req: Request) -> None:
    req.set(item, "cpus_per_gpu", count(item.value or "", "--cpus-per-gpu"))


def _tasks_per_gpu(item: Item, req: Request) -> None:
    req.set(item, "tasks_per_gpu", count(item.value or "", "--ntasks-per-gpu"))


def _gpus_per_task(item: Item, req: Request) -> None:
    req.set(item, "gpus_per_task", _gpu_count(item, item.value or "", "--gpus-per-task"))


def _gpus(item: Item, req: Request) -> None:
    req.set(item, "gpus_total", _gpu_count(item, item.value or "", "--gpus"))


def _gpus_per_node(item: Item, req: Request) -> None:
    req.set(item, "gpus_per_node", _gpu_count(item, item.value or "", "--gpus-per-node"))


def _gres(item: Item, req: Request) -> None:
    parts = [p for p in (item.value or "").split(",") if p]
    if not parts:
        raise NotCarried("an empty --gres: Slurm refuses it (Invalid TRES specification)", True)
    gpus = None
    for part in parts:
        name = part.partition(":")[0]
        if name == "gpu":
            gpus = _gpu_count(item, part[len("gpu") :].lstrip(":") or "1", "--gres=gpu")
        elif name != "none":
            raise NotCarried(
                f"the generic resource {name!r}: Flux's batch options request "
                "nodes, cores and gpus only"
            )
    if gpus is not None:
        req.set(item, "gpus_per_node", gpus)


def _exclusive(item: Item, req: Request) -> None:
    if item.value not in (None, ""):
        raise NotCarried(f"--exclusive={item.value}: Flux's -x means whole nodes only")
    req.set(item, "exclusive", True)


# the longest limit Slurm 22.05 keeps: slurmctld counts its seconds in 32 bits, so past it
# the job's end time wraps (-t 100000000 ends after 54 years, not 190; run here), and
# sbatch's own int of minutes overflows further on (-t 2147483646 is UNLIMITED,
# -t 2147483645 refused, -t 4294967297 one minute)
_MINUTES_MAX = (2**32 - 1) // 60


def _time(item: Item, req: Request) -> None:
    try:
        secs = seconds(item.value or "")
    except ValueError:
        raise NotCarried(
            f"{item.value!r} is not a Slurm time (MIN, MIN:SEC, H:MIN:SEC, "
            "D-H, D-H:MIN, D-H:MIN:SEC)",
            error=True,
        ) from None
    if secs is not None and secs > _MINUTES_MAX * 60:
        raise NotCarried(
            f"longer than Slurm can hold ({_MINUTES_MAX} minutes, 136 years): it wraps it "
            "to a shorter limit, takes it as no limit or refuses it; give the limit meant"
        )
    if secs is None:
        item.notes.append("no time limit: Flux applies its queue's or instance's default")
        return
    if secs == 0:
        item.notes.append("a zero time limit is no limit in Slurm: nothing to write")
        return
    whole = minutes_up(secs)
    if whole != secs:
        item.notes.append(f"Slurm rounds a limit up to whole minutes: {fsd(whole)}")
    req.set(item, "time", whole)


def _partition(item: Item, req: Request) -> None:
    first, comma, _ = (item.value or "").partition(",")
    if not first:
        raise NotCarried("no partition: sbatch refuses it (invalid partition specified)", True)
    if comma:
        item.notes.append(f"Flux takes one queue: {first!r}, the first of the partitions")
    req.set(item, "queue", first)


def _account(item: Item, req: Request) -> None:
    req.set(item, "account", item.value)


def _job_name(item: Item, req: Request) -> None:
    req.set(item, "name", item.value)


_PATTERN = re.compile(r"%(%|\d*[A-Za-z])", re.ASCII)
_PATTERNS = {"j": "{{id}}", "J": "{{id}}", "A": "{{id}}", "x": "{{name}}", "u": "\0user"}


def _user() -> str | None:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return None


ARRAY_INDEX = (
    "{} has no Flux template: it is a job array's index, and Flux has no arrays; the path "
    "keeps it as written, so put the index in the path where each index's job must write "
    "a file of its own"
)


def output_template(
    item: Item, value: str, table: dict[str, str], escape: str = "%", index: str = ""
) -> str:
    """A scheduler's output path with its patterns as Flux templates; a pattern Flux has
    no template for stays as written, with a note (a warning for ``index``, the letters
    of an array's index: every job of the array would write the path of one)."""
    kept: list[str] = []

    def sub(m: re.Match[str]) -> str:
        p = m.group(1)
        if p == escape:
            return escape
        if p[-1] in table:
            got = table[p[-1]]
            if got == "\0user":  # the user who converts: Flux has no user template
                user = _user()
                if user:
                    item.notes.append(f"%u is written as {user!r}, who ran the conversion")
                    return user
                kept.append("%" + p)
                return m.group(0)
            return got
        kept.append("%" + p)
        return m.group(0)

    path = _PATTERN.sub(sub, value)
    arrays = [k for k in kept if k[-1] in index]
    if arrays:
        kept = [k for k in kept if k not in arrays]
        item.warnings.append(ARRAY_INDEX.format(", ".join(arrays)))
    if kept:
        item.notes.append(
            f"{', '.join(kept)} has no Flux template and stays as written (Flux has "
            "{{id}} for the job id and {{name}} for its name)"
        )
    return path


def _output(item: Item, req: Request) -> None:
    field = "error" if item.name in ("--error", "-e") else "output"
    req.set(item, field, output_template(item, item.value or "", _PATTERNS, index="a"))
    if "%A" in (item.value or ""):
        item.notes.append(
            "%A (an array's job id; a job's own id when it is not an array) is {{id}}"
        )


_DEP_TYPES = {"after", "afterany", "afterok", "afternotok"}


def _dependency(item: Item, req: Request) -> None:
    value = item.value or ""
    if "?" in value:
        raise NotCarried(
            "'?' (any one of them) is not carried: a Flux job waits for all of its dependencies"
        )
    for part in value.split(","):
        if part == "singleton":
            req.add(item, "dependencies", "singleton")
            continue
        kind, _, ids = part.partition(":")
        if kind not in _DEP_TYPES:
            raise NotCarried(
                f"the dependency type {kind!r} has no Flux scheme (Flux has "
                "after, afterany, afterok, afternotok, singleton)"
            )
        for jobid in ids.split(":"):
            jid, plus, _delay = jobid.partition("+")
            if plus:
                raise NotCarried(f"{jobid!r}: Flux has no delay after a dependency")
            if not jid:
                raise NotCarried(f"{part!r} names no job", error=True)
            req.add(item, "dependencies", f"{kind}:{_job_id(jid)}")
            item.notes.append(
                f"{jid} looks like a Slurm job id: a Flux dependency names a Flux job"
            )


_ARRAY_TASK = re.compile(r"\d+_(?:\d+|\*|\[[\d,-]+\])", re.A)


def _job_id(jid: str) -> str:
    """A Slurm job id of a dependency, as Flux can name it: a number (``007`` is 7, as
    Slurm reads it). An array task's id (``123_4``, ``123_*``, ``123_[1-3]``) Slurm takes
    and Flux cannot name: not carried; anything else sbatch itself refuses."""
    n = ascii_int(jid)
    if n is not None and n > 0:
        return str(n)
    if _ARRAY_TASK.fullmatch(jid):
        raise NotCarried(
            f"{jid} is a task of a Slurm job array: Flux has no arrays, and a Flux "
            "dependency names a Flux job; give the Flux job id it waits for"
        )
    raise NotCarried(f"{jid!r} is not a Slurm job id: sbatch refuses it", error=True)


# sbatch 22.05's now[{+|-}COUNT[UNIT]]: a unit whole, singular or plural (now+1hour,
# now+30minutes); sbatch refuses now+1h, now+30min, now+1.5hours
_NOW = re.compile(r"now(?:([+-])(\d+)(?:(second|minute|hour|day|week)s?)?)?", re.I | re.A)
_UNITS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400, "week": 604800}
_CLOCK = {"noon": "12:00", "teatime": "16:00", "fika": "15:00", "elevenses": "11:00"}
_ISO = re.compile(r"(\d{4}-\d\d-\d\d)(?:T(\d\d?:\d\d(?::\d\d)?))?", re.A)
_HHMM = re.compile(r"\d\d?:\d\d(?::\d\d)?", re.A)
_US_DATE = re.compile(r"(\d\d)[/.]?(\d\d)[/.]?(\d\d)", re.A)
PAST = (
    "Flux reads a time of day as today's, so once it has passed the job starts at once; "
    "Slurm waits for the next one"
)


def _begin(item: Item, req: Request) -> None:
    v = item.value or ""
    m = _NOW.fullmatch(v)
    if m:
        sign, n = m.group(1), _big(m.group(2) or "0")
        if n > 2**31 - 1:  # sbatch's count overflows: no time it means
            raise NotCarried(f"{v[:40]!r}...: too large a count for sbatch", error=True)
        if not n or sign == "-":
            item.notes.append(
                f"{v}: now or already past: the job may start at once, as in Slurm; nothing to write"
            )
            return
        secs = n * _UNITS[(m.group(3) or "second").lower()]
        req.set(item, "begin", f"+{fsd(secs)}")
        return
    if v[:3].lower() == "now":
        raise NotCarried(
            f"sbatch refuses it (Invalid --begin specification): {v!r} is not now[+COUNT"
            "[seconds|minutes|hours|days|weeks]] (a unit written whole: now+1hour)",
            error=True,
        )
    low = v.lower()
    if low in ("midnight", "tomorrow"):
        req.set(item, "begin", "tomorrow")
        return
    if low == "today":
        req.set(item, "begin", "today")
        return
    if low in _CLOCK or _HHMM.fullmatch(v):
        req.set(item, "begin", _CLOCK.get(low, v))
        item.notes.append(PAST)
        return
    m = _ISO.fullmatch(v)
    if m:  # flux-core 0.88 misreads 'T', and gives a bare date the current time of day
        req.set(item, "begin", m.group(1) + " " + (m.group(2) or "00:00"))
        return
    m = _US_DATE.fullmatch(v)
    if m:
        req.set(item, "begin", f"20{m.group(3)}-{m.group(1)}-{m.group(2)} 00:00")
        return
    raise NotCarried(
        f"{v!r}: Flux reads +FSD, a date and time, HH:MM, midnight, noon, today or tomorrow"
    )


def _chdir(item: Item, req: Request) -> None:
    req.set(item, "cwd", item.value)


def _export(item: Item, req: Request) -> None:
    parts = [p for p in (item.value or "").split(",") if p]
    if parts == ["ALL"]:
        item.notes.append("Flux copies the submitting environment by default: nothing to write")
        return
    if parts in ([], ["NONE"], ["NIL"]):  # empty: as NONE (real sbatch 22.05, run)
        req.add(item, "env", "-*")
        item.notes.append(
            "the job starts with an empty environment; Slurm's NONE also loads "
            "the user's login environment, Flux does not"
        )
        return
    everything = "ALL" in parts
    rules = [] if everything else ["-*"]
    for p in parts:
        if p in ("ALL", "NONE", "NIL"):
            if p != "ALL":
                raise NotCarried(f"{p} among variable names")
            continue
        if "=" in p or not everything:
            rules.append(p)
    if not everything:
        item.notes.append("only these variables reach the job (Slurm adds its SLURM_* ones)")
    for r in rules:
        req.add(item, "env", r)


_FEATURE = re.compile(r"\s*(?:([A-Za-z0-9_.:-]+)|([&|()])|(\S))")


def constraint_query(value: str) -> str:
    """A Slurm feature expression as an RFC 35 query."""
    pieces: list[str] = []
    for m in _FEATURE.finditer(value):
        name, op, other = m.groups()
        if other:
            raise NotCarried(
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
        raise NotCarried(f"as an RFC 35 query ({query!r}): {err}") from None
    return query


def _constraint(item: Item, req: Request) -> None:
    req.add(item, "requires", constraint_query(item.value or ""))


def hosts(item: Item, req: Request, negate: bool) -> None:
    v = item.value or ""
    if "/" in v:
        raise NotCarried("a file of host names: give the hosts as --requires=host:LIST")
    try:
        formats.parse_hostlist(v)
    except formats.FormatError:
        raise NotCarried(f"{v!r} is not a host list Flux reads") from None
    req.add(item, "requires", ("-" if negate else "") + "host:" + v)


def _nodelist(item: Item, req: Request) -> None:
    hosts(item, req, False)


def _exclude(item: Item, req: Request) -> None:
    hosts(item, req, True)


def _hold(item: Item, req: Request) -> None:
    req.set(item, "hold", True)


# the names sbatch 22.05 takes (its sig_name2num): others it refuses, as real sbatch does
_SIGNAL_NAMES = frozenset(
    "HUP INT QUIT ABRT KILL ALRM TERM USR1 USR2 URG CONT STOP TSTP TTIN TTOU XCPU".split()
)
_STRTOL = re.compile(r"\s*([+-]?)(\d+)", re.A)


def _strtol(text: str) -> int | None:
    """A number as C's strtol reads a whole word (None: not one); a huge one stays huge."""
    m = _STRTOL.fullmatch(text)
    return None if m is None else (-1 if m.group(1) == "-" else 1) * _big(m.group(2))


def _signal(item: Item, req: Request) -> None:
    """``[{R|B}:]SIG[@TIME]`` as sbatch reads it (get_signal_opts): R and B before a ':',
    SIG a number from 1 to 65535 or a name of its list (SIG prefix and case optional),
    TIME a number of seconds from 0 to 65535 (60 when not given)."""
    v = item.value or ""
    where, colon, rest = v.partition(":")
    if not colon:
        where, rest = "", v
    sig, at, when = rest.partition("@")
    name = sig.upper().removeprefix("SIG")
    number = _strtol(sig)
    secs = _strtol(when) if when else 0
    if (
        any(c not in "RrBb" for c in where)
        or (number is None and name not in _SIGNAL_NAMES)
        or (number is not None and not 0 < number <= 0xFFFF)
        or secs is None
        or not 0 <= secs <= 0xFFFF
    ):
        raise NotCarried(
            f"sbatch refuses it (Invalid --signal specification): {v[:40]!r} is not "
            "[{R|B}:]SIG[@TIME], SIG a signal name or a number from 1 to 65535, TIME a "
            "number of seconds from 0 to 65535",
            error=True,
        )
    if where:
        item.notes.append(f"{where}: is not carried: Flux signals the job's processes")
    flux_sig = str(number) if number is not None else "SIG" + name
    req.set(item, "signal", f"{flux_sig}@{secs if at else 60}s")


def _array(item: Item, req: Request) -> None:
    req.set(item, "array", item.value)
    item.whole = True
    raise NotCarried(
        f"a job array ({item.value}): Flux has no job arrays; submit one `flux batch` per index "
        f"(e.g. `for i in $(seq ...); do flux batch --env=ARRAY_INDEX=$i job.sh; done`, "
        "or `flux bulksubmit`), with the index where the script read $SLURM_ARRAY_TASK_ID"
    )


READERS = {
    "nodes": _nodes,
    "ntasks": _ntasks,
    "tasks_per_node": _tasks_per_node,
    "cpus_per_task": _cpus_per_task,
    "cpus_per_gpu": _cpus_per_gpu,
    "gpus_per_task": _gpus_per_task,
    "tasks_per_gpu": _tasks_per_gpu,
    "gpus": _gpus,
    "gpus_per_node": _gpus_per_node,
    "gres": _gres,
    "exclusive": _exclusive,
    "time": _time,
    "partition": _partition,
    "account": _account,
    "job_name": _job_name,
    "output": _output,
    "dependency": _dependency,
    "begin": _begin,
    "chdir": _chdir,
    "export": _export,
    "constraint": _constraint,
    "nodelist": _nodelist,
    "exclude": _exclude,
    "hold": _hold,
    "signal": _signal,
    "array": _array,
}


def _unset_when_empty(reader):
    """``reader``, but an empty value (``--nodelist=``) is the option not given, as real
    sbatch 22.05 takes it for these (scontrol shows no node list, no dependency, ...)."""

    def read(item: Item, req: Request) -> None:
        if item.value == "":
            item.notes.append("empty: sbatch takes it as not given; nothing to write")
            return
        reader(item, req)

    return read


_EMPTY_NOT_GIVEN = ("gpus_per_task", "gpus", "gpus_per_node", "account", "dependency",
                    "chdir", "constraint", "nodelist", "exclude", "array")  # fmt: skip
READERS.update({k: _unset_when_empty(READERS[k]) for k in _EMPTY_NOT_GIVEN})

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
