"""PBS's `#PBS` directives — PBS Pro / OpenPBS and Torque — read into the request model,
as `qsub` reads them.

Semantics from the PBS Professional Reference Guide, qsub and the resources chapter
(https://help.altair.com/2022.1.0/PBS%20Professional/PBSReferenceGuide2022.1.pdf), and
Torque's qsub and resource documentation
(https://docs.adaptivecomputing.com/torque/6-1-2/adminGuide/torque.htm#topics/torque/
2-jobs/requestingRes.htm): `-l select=N:ncpus=C:mpiprocs=M:ompthreads=T:ngpus=G` asks N
chunks (one per node with `place=scatter`, the usual site default), each with C cores and M
MPI ranks; Torque's `-l nodes=N:ppn=P:gpus=G` asks N nodes with P processors each;
`walltime` is `[[hours:]minutes:]seconds` (Torque also `days:hours:minutes:seconds`);
`-j oe` joins the error stream into the output. qsub reads directives up to the first line
that is neither blank nor a comment.
"""

from __future__ import annotations

import re

from jobspec_lsp.job import directives
from jobspec_lsp.migrate import reading
from jobspec_lsp.migrate.model import Item, Line, NotCarried, Request
from jobspec_lsp.migrate.reading import Option
from jobspec_lsp.migrate.slurmvalues import ARRAY_INDEX, count, output_template
from jobspec_lsp.notations.formats import ascii_int

NAME = "pbs"
SHELL = "#!/bin/bash"  # for a script without a #! line (flux batch needs one)
LATE = "a directive after the script's first command: qsub ignores it, and it is not converted"
COMMAND = "qsub"
SENTINEL = re.compile(r"#PBS(?=[ \t]|$)")
SENTINEL_ANYWHERE = re.compile(r"^#PBS(?=[ \t\r]|$)", re.M)
REFERENCE = "https://help.altair.com/2022.1.0/PBS%20Professional/PBSReferenceGuide2022.1.pdf"
TORQUE = (
    "https://docs.adaptivecomputing.com/torque/6-1-2/adminGuide/torque.htm"
    "#topics/torque/2-jobs/requestingRes.htm"
)


def _o(names, value, reader, flux, note="", ref=REFERENCE):
    return Option(names, value, reader, flux, note, False, ref)


OPTIONS: tuple[Option, ...] = (
    _o(
        ("-l",),
        True,
        "resources",
        "select=N:ncpus=C:mpiprocs=M:ngpus=G / nodes=N:ppn=P:gpus=G → -N, -n, -c, -g; "
        "walltime → -t; place=excl → -x",
        "mem, vmem, pmem and site resources are not carried (kept as a comment); chunks of "
        "several kinds (a+b) and Torque's nodes by name refuse the job (JS589)",
    ),
    _o(("-N",), True, "name", "--job-name"),
    _o(("-q",), True, "queue", "-q (a queue@server destination: the queue)"),
    _o(("-A",), True, "account", "--bank"),
    _o(("-P",), True, "account", "--bank (the PBS project)"),
    _o(("-o",), True, "output", "--output (a host: prefix is dropped)"),
    _o(("-e",), True, "error", "--error (a host: prefix is dropped)"),
    _o(
        ("-j",),
        True,
        "join",
        "oe: no --error (Flux writes both streams to --output)",
        "-j n with no -e: Flux still joins the streams",
    ),
    _o(
        ("-W",),
        True,
        "attributes",
        "depend=TYPE:ID → --dependency; group_list, umask, sandbox not carried",
        "an id with its server (5678.pbsserver) Flux cannot name: kept as written",
    ),
    _o(("-J",), True, "array", "", "Flux has no job arrays"),
    _o(("-t",), True, "array", "", "Flux has no job arrays (Torque's -t)", ref=TORQUE),
    _o(("-a",), True, "begin", "--begin-time ([[[[CC]YY]MM]DD]hhmm[.SS])"),
    _o(("-h",), False, "hold", "--urgency=0 (held)"),
    _o(("-V",), False, "-", "", "Flux copies the submitting environment by default"),
    _o(("-v",), True, "env", "--env=VAR=VALUE (a bare VAR keeps the submitter's value)"),
    _o(("-d",), True, "cwd", "--cwd (Torque)", ref=TORQUE),
    _o(("-w",), True, "cwd", "--cwd (Torque)", ref=TORQUE),
    _o(("-m",), True, "", "", "flux-core sends no mail"),
    _o(("-M",), True, "", "", "flux-core sends no mail"),
    _o(("-r",), True, "", "", "Flux does not rerun a job"),
    _o(("-S",), True, "-", "", "Flux runs the script with its #! line"),
    _o(("-k",), True, "", "", "Flux writes output where --output says, as the job runs"),
    _o(("-p",), True, "", "", "Flux orders by urgency (--urgency 0-31)"),
    _o(("-c",), True, "", "", "Flux does not checkpoint a batch job"),
    _o(("-C",), True, "-", "", "nothing to carry"),
    _o(("-u",), True, "", "", "Flux runs jobs as the submitting user"),
    _o(("-I",), False, "", "", "an interactive job: use flux alloc"),
    _o(("-X",), False, "", "", "X forwarding has no Flux form"),
    _o(("-z",), False, "-", "", "flux batch --quiet"),
    _o(("-x",), False, "-", "", "nothing to carry"),
)
TABLE = reading.table(OPTIONS)


# --------------------------------------------------------------------------- values
def walltime(value: str) -> int:
    """`[[[days:]hours:]minutes:]seconds` in seconds (fractions of a second dropped)."""
    parts = value.strip().split(":")
    nums = [ascii_int(p.partition(".")[0] or "0") for p in parts]
    if not parts or len(parts) > 4 or any(n is None for n in nums):
        raise NotCarried(f"{value!r} is not [[hours:]minutes:]seconds", error=True)
    scale = (1, 60, 3600, 86400)
    return sum((n or 0) * scale[i] for i, n in enumerate(reversed(nums)))


def _chunk(spec: str) -> tuple[int, dict[str, str]]:
    """`N:key=value:...` (N optional) as (N, keys)."""
    parts = spec.split(":")
    n = 1
    if parts and "=" not in parts[0]:
        n = count(parts[0], "select")
        parts = parts[1:]
    keys = {}
    for p in parts:
        k, _, v = p.partition("=")
        keys[k.strip()] = v.strip()
    return n, keys


def refuse(item: Item, req: Request, why: str) -> None:
    """The job has no Flux form as a whole (its size has no single Flux shape): said, and
    nothing is converted, as for a heterogeneous Slurm job."""
    req.extra["refused"] = (item, why)
    raise NotCarried(why)


def _chunks(item: Item, req: Request, value: str, what: str) -> tuple[int, dict[str, str]]:
    """``a+b+...``: one kind of chunk (identical ones add up: ``2:ncpus=8+1:ncpus=8`` is
    3 of them), or the job refused: Flux gives every node of a batch job one shape."""
    chunks = [_chunk(c) for c in value.split("+")]
    kinds = {tuple(sorted(keys.items())) for _, keys in chunks}
    if len(kinds) > 1:
        refuse(
            item,
            req,
            f"{what}={value}: {len(kinds)} kinds of chunk, which no single Flux shape holds "
            "(Flux gives every node of a batch job the same one); convert each kind as its "
            "own job, or ask the largest kind for every node",
        )
    return sum(n for n, _ in chunks), chunks[0][1]


def _select(item: Item, req: Request, value: str) -> None:
    n, keys = _chunks(item, req, value, "select")
    ncpus = count(keys["ncpus"], "ncpus") if "ncpus" in keys else None
    procs = count(keys["mpiprocs"], "mpiprocs") if "mpiprocs" in keys else None
    threads = count(keys["ompthreads"], "ompthreads") if "ompthreads" in keys else None
    gpus = keys.get("ngpus") or keys.get("gpus")
    req.extra["select"] = item
    req.set(item, "nodes", n)
    if not keys:  # a count of chunks alone: nodes, whole, as such sites give them (shape)
        req.extra["bare select"] = True
        return
    per = procs or 1
    req.set(item, "tasks_per_node", per)
    if threads and not ncpus:
        req.set(item, "cores_per_task", threads)
    if ncpus and ncpus > per:
        if ncpus % per == 0:
            req.set(item, "cores_per_task", ncpus // per)
        else:
            req.set(item, "cores_per_node", ncpus)
    if gpus:
        req.set(item, "gpus_per_node", count(gpus, "ngpus"))
    for k in keys:
        if k in ("mem", "vmem", "pmem"):
            item.lost.append(f"{k}: memory is not requested in Flux")
        elif k not in ("ncpus", "mpiprocs", "ompthreads", "ngpus", "gpus"):
            item.lost.append(f"{k}={keys[k]}: not carried (Flux counts cores and gpus)")


def _nodes(item: Item, req: Request, value: str) -> None:
    named = [c.split(":")[0] for c in value.split("+") if not c.split(":")[0].isdigit()]
    if named:
        refuse(
            item,
            req,
            f"nodes={value}: nodes by name ({', '.join(named)}), each with its own share, "
            "which no Flux size says; give a count (nodes=N:ppn=P) and the hosts as "
            "--requires=host:LIST, then convert again",
        )
    n, keys = _chunks(item, req, value, "nodes")
    req.set(item, "nodes", n)
    if "ppn" in keys:  # without it, a node count alone: whole nodes, as Torque sites give
        req.set(item, "tasks_per_node", count(keys["ppn"], "ppn"))
    if "gpus" in keys:
        req.set(item, "gpus_per_node", count(keys["gpus"], "gpus"))
    for k in keys:
        if k not in ("ppn", "gpus"):
            req.add(item, "requires", k)  # Torque node properties (nodes=2:ppn=8:ib)


def _resources(item: Item, req: Request) -> None:
    v = item.value or ""
    for part in _split(v):
        key, _, val = part.partition("=")
        key = key.strip()
        if key == "select":
            _select(item, req, val)
        elif key == "nodes":
            _nodes(item, req, val)
        elif key == "walltime":
            secs = walltime(val)
            if secs:
                req.set(item, "time", secs)
        elif key == "place":
            words = set(re.split(r"[:\s]", val))
            req.extra["place"] = (item, words)
            if "excl" in words or "exclhost" in words:
                req.set(item, "exclusive", True)
        elif key == "naccesspolicy" and val in ("singlejob", "singleuser"):
            req.set(item, "exclusive", True)
        elif key in ("ncpus", "ppn"):
            req.set(item, "cores_per_task", count(val, key))
        elif key in ("procs", "mppwidth"):
            req.set(item, "tasks", count(val, key))
        elif key == "mppnppn":
            req.set(item, "tasks_per_node", count(val, key))
        elif key == "mppdepth":
            req.set(item, "cores_per_task", count(val, key))
        elif key in ("ngpus", "gpus"):
            req.set(item, "gpus_per_node", count(val, key))
        elif key in ("mem", "vmem", "pmem", "pvmem", "mem_per_cpu"):
            item.lost.append(f"{key}: memory is not requested in Flux")
        elif key in ("cput", "pcput", "file", "software", "host", "arch"):
            item.lost.append(f"{key}={val}: not carried")
        else:
            item.lost.append(f"{key}={val}: a site resource Flux does not request")
    if not item.fields and item.lost:
        raise NotCarried("; ".join(item.lost))


def _split(value: str) -> list[str]:
    """A resource list's parts: commas separate them."""
    return [p for p in value.split(",") if p.strip()]


def start_directory(text: str, req: Request) -> str:
    """PBS starts a job in the user's home directory, Flux where it was submitted: said
    when the script neither names a directory (-d, -w) nor goes to $PBS_O_WORKDIR."""
    if req.cwd is not None or "PBS_O_WORKDIR" in text:
        return ""
    return (
        "qsub starts the job in your home directory, flux batch where it is submitted: "
        "submit it from your home directory, or add `cd $HOME` where the job needs it"
    )


def finish(req: Request) -> None:
    """Where PBS puts select's chunks: one per host with place=scatter (or vscatter), all on
    one host with place=pack, anywhere with place=free -- the default, which the server
    forces when a job gives none. So without scatter the chunks are not nodes."""
    item = req.extra.get("select")
    if item is None or item.kept:
        return
    _, words = req.extra.get("place", (None, set()))
    if words & {"scatter", "vscatter"} or (req.extra.get("bare select") and "pack" not in words):
        return
    per = req.tasks_per_node or 1
    chunks = req.nodes or 1
    gpus = req.gpus_per_node
    if "pack" in words:
        req.set(item, "nodes", 1)
        req.set(item, "tasks", chunks * per)
        req.set(item, "tasks_per_node", None)
        if gpus:
            req.set(item, "gpus_per_node", gpus * chunks)
        if req.cores_per_node:
            req.set(item, "cores_per_node", req.cores_per_node * chunks)
        return
    if per > 1 or req.cores_per_node:
        item.notes.append(
            "place=free (PBS's default) may put several chunks on one host; Flux gives "
            "each chunk of several ranks its own node"
        )
        return
    req.set(item, "nodes", None)
    req.set(item, "tasks", chunks)
    req.set(item, "tasks_per_node", None)
    if gpus:
        req.set(item, "gpus_per_node", None)
        req.set(item, "gpus_per_task", gpus)


def _name(item: Item, req: Request) -> None:
    req.set(item, "name", item.value)


def _queue(item: Item, req: Request) -> None:
    q, at, _ = (item.value or "").partition("@")
    if at:
        item.notes.append("the @server part has no Flux form")
    if q:
        req.set(item, "queue", q)


def _account(item: Item, req: Request) -> None:
    req.set(item, "account", item.value)


_PATTERNS = {"j": "{{id}}"}  # PBS Pro 2021+: $PBS_JOBID-style patterns are not expanded


def _path(item: Item, field: str) -> str:
    v = item.value or ""
    host, colon, path = v.partition(":")
    if colon and "/" not in host:
        item.notes.append(f"the host {host!r}: Flux writes the file where the job runs")
        v = path
    if "^array_index^" in v:
        item.warnings.append(ARRAY_INDEX.format("^array_index^"))
    return output_template(item, v, _PATTERNS)


def _output(item: Item, req: Request) -> None:
    req.set(item, "output", _path(item, "output"))


def _error(item: Item, req: Request) -> None:
    req.set(item, "error", _path(item, "error"))


def _join(item: Item, req: Request) -> None:
    v = (item.value or "").strip()
    if v in ("oe", "eo"):
        item.notes.append("both streams in one file: Flux's default without --error")
        req.set(item, "join", True)
    elif v != "n":
        raise NotCarried(f"-j {v}: Flux joins the streams (oe) or not (n)", error=True)


_DEP_TYPES = {"after", "afterok", "afternotok", "afterany"}


def _attributes(item: Item, req: Request) -> None:
    """``-W attr=value[,attr=value]``: depend's own list (``depend=afterok:1:2,afterany:3``)
    shares the commas; the attributes besides depend are not carried."""
    for key, val in _attribute_list(item.value or ""):
        if key != "depend":
            item.lost.append(f"-W {key}: not carried")
            continue
        for dep in val.split(","):
            kind, _, ids = dep.partition(":")
            if kind not in _DEP_TYPES:
                raise NotCarried(
                    f"the dependency type {kind!r} has no Flux scheme (Flux has after, "
                    "afterok, afternotok, afterany)"
                )
            for jid in ids.split(":"):
                req.add(item, "dependencies", f"{kind}:{_job_id(jid, dep)}")
                item.notes.append(
                    f"{jid} looks like a PBS job id: a Flux dependency names a Flux job"
                )
    if not item.fields:
        raise NotCarried("; ".join(item.lost) or f"{item.value!r}: nothing Flux carries")


def _attribute_list(value: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for piece in value.split(","):
        key, eq, val = piece.partition("=")
        if not eq and out and out[-1][0] == "depend":
            out[-1] = ("depend", out[-1][1] + "," + piece)
        else:
            out.append((key.strip(), val))
    return out


def _job_id(jid: str, dep: str) -> str:
    """A PBS job id as a Flux dependency can name it: its number alone. One with its
    server (``5678.pbsserver``, ``5678@host``) or an array's (``1234[]``) names a PBS job,
    which Flux refuses as a job id: not carried."""
    if not jid:
        raise NotCarried(f"{dep!r} names no job", error=True)
    n = ascii_int(jid)
    if n is None:
        raise NotCarried(
            f"{jid} is a PBS job id (with its server or array index), which Flux cannot "
            "name: a Flux dependency names a Flux job; give the Flux job id it waits for"
        )
    return str(n)


def _array(item: Item, req: Request) -> None:
    req.set(item, "array", item.value)
    item.whole = True
    raise NotCarried(
        f"a job array ({item.value}): Flux has no job arrays; submit one `flux batch` per index, "
        "with the index where the script read $PBS_ARRAY_INDEX (or $PBS_ARRAYID)"
    )


_DATETIME = re.compile(r"(?:(?:(?:(\d\d)?(\d\d))?(\d\d))?(\d\d))?(\d\d)(\d\d)(?:\.(\d\d))?")


def _begin(item: Item, req: Request) -> None:
    m = _DATETIME.fullmatch(item.value or "")
    if not m:
        raise NotCarried(f"{item.value!r} is not [[[[CC]YY]MM]DD]hhmm[.SS]", error=True)
    cc, yy, mo, dd, hh, mi, _ss = m.groups()
    if mo is None:
        req.set(item, "begin", f"{hh}:{mi}")
        item.notes.append(
            "Flux reads a time of day as today's; PBS waits for the next one when it has passed"
        )
        return
    if yy is None:
        raise NotCarried(f"{item.value!r}: give the year too (YYMMDDhhmm) for Flux")
    year = f"{cc or '20'}{yy}"
    req.set(item, "begin", f"{year}-{mo}-{dd} {hh}:{mi}")


def _hold(item: Item, req: Request) -> None:
    req.set(item, "hold", True)


def _env(item: Item, req: Request) -> None:
    for p in (item.value or "").split(","):
        if p.strip():
            req.add(item, "env", p.strip())


def _cwd(item: Item, req: Request) -> None:
    req.set(item, "cwd", item.value)


READERS = {
    "resources": _resources,
    "name": _name,
    "queue": _queue,
    "account": _account,
    "output": _output,
    "error": _error,
    "join": _join,
    "attributes": _attributes,
    "array": _array,
    "begin": _begin,
    "hold": _hold,
    "env": _env,
    "cwd": _cwd,
}


def parse(line: Line, words: list[directives.Word], problems: list[tuple[int, int, str]]) -> None:
    reading.getopt(line, words, problems, TABLE, COMMAND)


def defaults(req: Request) -> list[tuple[str, str, str]]:
    """qsub's output files, NAME.oID and NAME.eID (one file with -j oe), where Flux's
    default is one flux-{{id}}.out."""
    out = []
    if req.output is None:
        out.append(
            ("output", "{{name}}.o{{id}}", "no -o: qsub's default is NAME.oJOBID, written here")
        )
    if req.error is None and not req.join:
        out.append(
            ("error", "{{name}}.e{{id}}", "no -e: qsub's default is NAME.eJOBID, written here")
        )
    return out


def block(text: str) -> reading.Block:
    return reading.block(text, SENTINEL, parse)


# --------------------------------------------------------------------------- the body
VARIABLE_PREFIXES = ("PBS_",)
VARIABLE = re.compile(r"PBS_[A-Z0-9_]+")
# PBS_* names that PBS's commands read and a user sets (pbs.conf's, qsub's server): not
# the job's; every other PBS_* name is one PBS sets in a job
READ_NOT_SET = frozenset(
    {"PBS_CONF_FILE", "PBS_DEFAULT", "PBS_DPREFIX", "PBS_EXEC", "PBS_HOME", "PBS_SERVER"}
)
VARIABLES: dict[str, tuple[str | None, str]] = {
    "PBS_JOBID": ("$(flux getattr jobid)", "the batch job's id: `flux getattr jobid`"),
    "PBS_O_WORKDIR": (
        "=PWD",
        "the submission directory: set by `#flux: --env=PBS_O_WORKDIR=$PWD`, which "
        "flux batch expands when the job is submitted",
    ),
    "PBS_NUM_NODES": ("{nodes}", "the node count, known from the directives"),
    "PBS_NP": ("{tasks}", "the task count, known from the directives"),
    "PBS_TASKNUM": ("$FLUX_TASK_RANK", "a task's rank: FLUX_TASK_RANK (in `flux run` tasks)"),
    "PBS_JOBNAME": (None, "no variable: the name is --job-name or the script's file name"),
    "PBS_NODEFILE": (
        None,
        "a file of hosts: write one with `flux hostlist -e -d '\\n' instance > hosts`",
    ),
    "PBS_ARRAY_INDEX": (None, "Flux has no job arrays: pass the index as an argument"),
    "PBS_ARRAYID": (None, "Flux has no job arrays: pass the index as an argument"),
    "PBS_QUEUE": (None, "no variable: the queue is the directives' -q"),
}
COMMANDS = {
    "qsub": "flux batch",
    "qstat": "flux jobs",
    "qdel": "flux cancel",
    "pbsnodes": "flux resource list",
}
COMMAND_WORD = re.compile(r"(?:qsub|qstat|qdel|pbsnodes)(?![\w.-])")
