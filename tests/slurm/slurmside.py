"""What real Slurm and real Flux each read from a batch script, as comparable dicts.

``slurm_reading(script)`` submits the script held (``sbatch --hold -p pbatch``) to the test
cluster of ../shared/slurm/setup.sh, where nothing runs, reads ``scontrol show job -o`` back
(one line per heterogeneous component), cancels the job and returns one normalized dict per
component. ``flux_reading(jobspec)`` normalizes the jobspec that ``flux batch --dry-run``
prints. ``run_under_slurm(script)`` really runs a script on the ``debug`` partition (this
machine) and returns its output.

Choices made, and why (all checked against slurm-wlm 22.05.8 and flux-core 0.88)
--------------------------------------------------------------------------------------
- Submission: ``sbatch --hold --parsable -p pbatch [extra args] COPY`` where COPY is the
  script copied under a fresh temporary directory with its own file name (so the default
  job name is still the script's name); sbatch runs with that temporary ``submit`` directory
  as its working directory, and *no* ``--chdir``, so a script's own ``-D``/``--chdir`` is
  kept; ``workdir`` is then given relative to the submit directory ("." for itself).
  Options on the sbatch command line override the script's (``-p pbatch`` beats
  ``#SBATCH -p``; in a het job they apply to every component). ``SBATCH_*`` variables are
  removed from sbatch's environment: in 22.05 they override the script's directives
  ("Environment variables will override any options set in a batch script").
- Always ``--hold``: a job on pbatch *without* it is started by slurmctld on the fake
  nodes (they are "idle") and fails there.
- ``scancel`` always runs (``finally``), also on a parse error; sbatch's refusal (exit != 0)
  raises :class:`SbatchRefused` carrying sbatch's message.
- time_given: without ``--time`` Slurm shows the partition's DefaultTime, else its MaxTime
  (pbatch: 1-00:00:00), exactly as if ``-t 24:00:00`` had been asked. An environment
  sentinel (``SBATCH_TIMELIMIT``) cannot tell them apart: it overrides the script. So when a
  component's TimeLimit equals pbatch's default, the script is submitted a second time to a
  partition whose default differs (``gpu``: 4 h, found from ``scontrol show partition``):
  a limit that the script asked stays the same there, the partition default moves. Then
  ``time_given`` is False and ``time_seconds`` None. If that second submission is refused,
  ``time_given`` is None (unknown). ``TimeLimit=UNLIMITED`` (``-t 0``, ``-t infinite``)
  gives ``time_seconds`` 0, like Flux's ``duration`` 0.
- Dependencies on job ids that do not exist: 22.05 *accepts* them (no "Job dependency
  problem"), shows ``afterok:379904(unfulfilled)`` right after submission, and within ~10 s
  the scheduler drops them (``Dependency=(null)``): reading them is a race. So each job id
  named in a ``-d``/``--dependency`` directive (or in ``extra_args``) is first replaced,
  in the submitted copy, by the id of a held dummy job (``--wrap=true``, cancelled after);
  a held job never completes, so the dependency stays ``(unfulfilled)``; the dummy ids are
  mapped back to the script's ids in the reading (``raw["Dependency"]`` keeps the stand-in
  ids). ``singleton`` needs nothing (it stays). Slurm spreads ``afterok:A:B?afterany:C``
  into ``afterok:A?afterok:B?afterany:C`` (each id takes the separator that follows).
  ``expand:ID`` is refused here ("Requested operation not supported on this system").
- stdout/stderr: Slurm expands ``%j``/``%A`` (the job id), ``%x`` (job name), ``%u`` (user)
  at submission, shows ``%a`` of an array as 4294967294 (NO_VAL: the task is not known yet)
  and leaves ``%J %N %n %t %s %%`` as written (``%%`` is *not* collapsed). The reading puts
  ``{id}`` for the component's job id, ``{het_id}`` for the het leader's id in a later
  component, ``{task}`` for 4294967294 in an array (a digit run equal to the id, not
  inside a longer number). When the id's digits also occur literally (in the script, the
  job name, the user, the working directory: on a fresh cluster ids are small, and 024
  writes to ``.../12_06_2020_22_26_12/...``), a second submission tells them apart: only
  the occurrences that change with the job id are ids (:func:`mark_ids`). The path is made
  relative to the working directory when it is under it, after ``os.path.normpath``
  (``-D ./`` shows as ``WorkDir=/x/./``, outputs as ``/x/.//./logs/...``). Without ``-e``,
  StdErr = StdOut.
- Nodes: ``NumNodes=2-2`` (``-N2``), ``1-3`` (``-N1-3``), ``1`` (no ``-N``: Slurm's computed
  minimum, no maximum): nodes_min 2/1/1, nodes_max 2/3/None; ``nodes_given`` is whether a
  maximum shows. A quirk of 22.05: ``-n`` with ``-c`` > 1 and no ``-N`` shows ``NumNodes=2``
  on the pending job (``-n1 -c2`` too) while ``TRES=...,node=1``: ``tres_nodes`` keeps the
  latter. NumTasks is always a number while the job is pending (``-N2`` alone: 2, one per
  node; nothing: 1); it turns to ``N/A`` once the job is cancelled, so read before scancel.
- GPUs: TresPerNode/TresPerTask/TresPerJob/TresPerSocket are comma lists of
  ``gres:NAME[:TYPE]:COUNT`` (``gres:gpu:2``, ``gres:gpu:v100:2``; ``--gpus=gpu:3`` reads
  as type "gpu": ``gres:gpu:gpu:3``); older prints without ``gres:`` are accepted. When
  both ``--gres=gpu:N`` and ``--gpus-per-node=N`` are given, TresPerNode names gpu twice
  (``gres:gpu:1,gres:gpu:1``): the last one is kept (like Slurm's gres_job_state_validate).
  A gres type that the cluster lacks (``gpu:v100`` where nodes have untyped gpus) is
  accepted for a held job and shown as written.
- ``--exclusive`` shows as ``OverSubscribe=NO`` (``exclusive`` True); ``--exclusive=user``
  as ``USER``, ``=mcs`` as ``MCS``; default ``OK``; ``--oversubscribe`` ``YES``.
- ``#SBATCH`` lines after the first command line are ignored by sbatch (058: ``job=$1`` on
  line 2 hides its gres, -N, --exclusive and -t; 053: a line ``--mem=32G`` under a bare
  ``#SBATCH`` ends the directives, so its ``--partition`` and ``--gres`` are not read).
- Arrays: ``ArrayTaskId`` is normalized by Slurm: ``[51-68]%6`` -> ``51-68%6``,
  ``10-999:50%20`` -> ``10-960:50%20``, ``1-70:1`` -> ``1-70``, ``1-10:2`` -> ``1,3,5,7,9``
  (``array``: without the ``%N``, which is ``array_throttle``, from ArrayTaskThrottle). The
  job stays one pending record (``ArrayJobId`` = ``JobId``). ``MaxArraySize`` is 1001.
- Held jobs over partition limits are accepted (``-N 32`` on 16 nodes, ``-t 100-0`` over
  24 h, 512 GPUs), so the reading shows what was asked, not what fits.
- ``--begin``: a future time shows as EligibleTime (``begin``: epoch seconds, local time);
  ``now`` or a past time shows ``Unknown`` (``begin`` None).
- ``--mail-type=ALL`` reads back as ``INVALID_DEPEND,BEGIN,END,FAIL,REQUEUE,STAGE_OUT``;
  ``--mail-type`` without ``--mail-user`` shows MailUser = the submitting user; ``%u`` in
  ``--mail-user`` is not expanded. ``--qos`` never shows (``QOS=(null)``: no slurmdbd).
- Free-text values may hold spaces and ``=`` (``JobName=my job x=1 UserId=...``):
  :func:`parse_show_line` cuts JobName, Command, WorkDir, Comment and the std paths at the
  key scontrol prints next.
- Het jobs: later components inherit the first one's options (time, account, name,
  output) unless they set their own; ``%j`` in a component's output is its own job id.
- Costs: a reading takes 10-30 ms (two submissions when the time is ambiguous); the whole
  corpus of 58 scripts reads in under 2 s. But a held array counts all its tasks against
  MaxJobCount (10000 here) and a cancelled job stays for MinJobAge (300 s): about ten
  readings of ``--array=0-1000`` within five minutes make sbatch stall ("Slurm temporarily unable to
  accept job, sleeping and retrying"; slurmctld.log: "MaxJobCount limit ... reached").
  Hence 020's smaller override, and sbatch's 60 s timeout here turns a stall into an error.

Flux side (flux-core 0.88 ``flux batch --dry-run``): ``-N2 -n5`` becomes node(2) -> slot(3)
(slots per node rounded up: 6 slots); ``-N3`` alone sets ``exclusive: true`` on the node;
no ``-N``: the top resource is the slot; ``duration`` is 0 for none (``-t 0`` too) and a
float; the default job name is the script argument *as given* (a path stays a path; Slurm
takes the file's name); the default output is ``flux-{{id}}.out`` with no ``stderr`` entry
(stderr goes to the same file); ``--begin-time`` is a dependency
``{"scheme": "begin-time", "value": "<epoch as string>"}``; ``--dependency=afterok:1,afterany:2``
is *one* dependency whose value is ``1,afterany:2`` (several need the option repeated);
``--requires=a100`` gives ``constraints: {"properties": ["a100"]}``; ``--gpus-per-task`` and
``--tasks-per-node`` are not ``flux batch`` options (``-g`` is gpus per slot).

Scripts of tests/data/migration/slurm that this cluster refuses, and what makes Slurm read
the rest (``ADJUSTMENTS``; ``masked`` names the reading's fields the change affects)
--------------------------------------------------------------------------------------
==== ===================================================== =================================
004  ``--clusters=cm2_tiny``: "Problem talking to database"  strip the directive (any -M needs
     (-M needs slurmdbd; none here)                           slurmdbd; no value works)
009  "Invalid feature specification" (-C gpu)                ``--constraint=``
010  same (-C gpu)                                            ``--constraint=``
017  same (-C GPU_MEM:32GB)                                   ``--constraint=``
019  same (--constraint=volta32gb)                            ``--constraint=``
020  "Invalid job array specification" (0-1727%100 >         ``--array=0-99%100``
     MaxArraySize 1001)
022  "unrecognized option '--module=gpu,nccl-2.15'" (exit     strip ``--module=...``, and
     255; a NERSC SPANK option), then -C gpu                  ``--constraint=``
029  "Invalid feature specification" (-C gpu)                ``--constraint=``
031  "Invalid generic resource (gres) specification"          ``--gres=gpu:4`` (``--gres=`` is
     (--gres=dcu:4: no dcu in GresTypes)                      refused: "Invalid ... TRES")
033  as 022 (--module=gpu,nccl-2.18), then -C gpu             as 022
034  "Invalid feature specification" (fs_beegfs)              ``--constraint=``
036  "Invalid GRES specification (with and without type      ``--gpus-per-node=v100:1``
     identification)": --gpus-per-node=1 + --gres=gpu:v100:1
038  "Invalid time-min specification (exceeds job's time or   ``--time-min=1`` (``=0`` is
     other limits)": --time-min=7-12:00:00 > pbatch 24 h      refused too)
041  "Invalid node name specified" (--exclude=stc01...)       ``--exclude=``
043  "Invalid feature specification" (-C gpu)                ``--constraint=``
046  "Invalid license specification" (-L scratch,cfs), then   ``--licenses= --constraint=``
     -C gpu
047  same (-L SCRATCH, -C gpu)                                ``--licenses= --constraint=``
048  "Invalid feature specification" (-C gpu)                ``--constraint=``
054  "This does not look like a batch script" (no ``#!``),    prepend ``#!/bin/bash`` and strip
     then "unrecognized option '--mem-4G'" (a typo)           ``--mem-4G``
055  "Invalid node name specified": ``-w, --nodelist=node02``  ``--nodelist=``
     (getopt: -w takes "," and --nodelist=node02 follows)
==== ===================================================== =================================
Accounts, QOS names, partitions, mail and ``--get-user-env`` never cause a refusal here (no
slurmdbd, so no account/QOS enforcement; ``-p`` is overridden).
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PARTITION = "pbatch"
RUN_PARTITION = "debug"
NO_VAL = "4294967294"  # what %a of a pending array shows as
MIGRATION = Path(__file__).resolve().parents[1] / "data" / "migration"
SLURM_SCRIPTS = MIGRATION / "slurm"
RUN_SCRIPTS = MIGRATION / "run"


class SbatchRefused(RuntimeError):
    """sbatch would not take the script: ``returncode`` and ``message`` (its stderr)."""

    def __init__(self, script: str, args: Sequence[str], returncode: int, message: str):
        self.script = script
        self.args_used = list(args)
        self.returncode = returncode
        self.message = message.strip()
        super().__init__(f"sbatch refused {script} (exit {returncode}): {self.message}")


@dataclass(frozen=True)
class Adjustment:
    """What makes this cluster's Slurm read a script it refuses as written. ``refusal`` is a
    piece of sbatch's message for the script as written (tests hold it to that)."""

    refusal: str
    args: tuple[str, ...] = ()  # sbatch command-line options (they override the script's)
    strip: tuple[str, ...] = ()  # exact #SBATCH option tokens removed from the copy
    shebang: bool = False  # prepend "#!/bin/bash" (sbatch wants #! on line 1)
    masked: frozenset[str] = frozenset()  # reading fields the change affects

    def apply(self, text: str) -> str:
        out = []
        for line in text.splitlines(keepends=True):
            if line.startswith("#SBATCH"):
                for token in self.strip:
                    line = re.sub(r"(?<=\s)" + re.escape(token) + r"(?=\s|$)", "", line)
                if line.strip() == "#SBATCH":
                    line = "# (stripped)\n"
            out.append(line)
        text = "".join(out)
        return "#!/bin/bash\n" + text if self.shebang else text


_NO_FEATURES = Adjustment(
    "Invalid feature specification", ("--constraint=",), masked=frozenset({"features"})
)
_LICENSES = Adjustment(
    "Invalid license specification",
    ("--licenses=", "--constraint="),
    masked=frozenset({"licenses", "features"}),
)
_GPUS = frozenset({"gpus_per_node", "gpu_type", "gres"})
ADJUSTMENTS: dict[str, Adjustment] = {
    "004": Adjustment("'cm2_tiny' can't be reached now", strip=("--clusters=cm2_tiny",)),
    "009": _NO_FEATURES,
    "010": _NO_FEATURES,
    "017": _NO_FEATURES,
    "019": _NO_FEATURES,
    "020": Adjustment(
        "Invalid job array specification",
        ("--array=0-99%100",),  # not 0-1000: see MaxJobCount in the docstring
        masked=frozenset({"array", "array_throttle"}),
    ),
    "022": Adjustment(
        "unrecognized option '--module=gpu,nccl-2.15'",
        ("--constraint=",),
        ("--module=gpu,nccl-2.15",),
        masked=frozenset({"features"}),
    ),
    "029": _NO_FEATURES,
    "031": Adjustment(
        "Invalid generic resource (gres) specification", ("--gres=gpu:4",), masked=_GPUS
    ),
    "033": Adjustment(
        "unrecognized option '--module=gpu,nccl-2.18'",
        ("--constraint=",),
        ("--module=gpu,nccl-2.18",),
        masked=frozenset({"features"}),
    ),
    "034": _NO_FEATURES,
    "036": Adjustment(
        "Invalid GRES specification (with and without type identification)",
        ("--gpus-per-node=v100:1",),
        masked=_GPUS,
    ),
    "038": Adjustment(
        "Invalid time-min specification (exceeds job's time or other limits)",
        ("--time-min=1",),
        masked=frozenset({"time_min_seconds"}),
    ),
    "041": Adjustment(
        "Invalid node name specified", ("--exclude=",), masked=frozenset({"exclude"})
    ),
    "043": _NO_FEATURES,
    "046": _LICENSES,
    "047": _LICENSES,
    "048": _NO_FEATURES,
    "054": Adjustment(
        "This does not look like a batch script",
        strip=("--mem-4G",),
        shebang=True,
        masked=frozenset({"mem_per_node"}),
    ),
    "055": Adjustment(
        "Invalid node name specified", ("--nodelist=",), masked=frozenset({"nodelist"})
    ),
}


def adjustment_for(script_path: str | os.PathLike[str]) -> Adjustment | None:
    return ADJUSTMENTS.get(Path(script_path).name[:3])


# --- running the Slurm commands -------------------------------------------------------


def _env() -> dict[str, str]:
    """This environment without SBATCH_* (they would override the script's directives)."""
    return {k: v for k, v in os.environ.items() if not k.startswith("SBATCH_")}


def _run(args: Sequence[str], cwd: str | os.PathLike[str] | None = None, timeout: float = 60):
    return subprocess.run(
        list(args), cwd=cwd, env=_env(), capture_output=True, text=True, timeout=timeout
    )


def _sbatch(script: Path, args: Sequence[str], cwd: Path) -> tuple[str, list[str]]:
    """Submit held; the job id (the leader's for a het job) and sbatch's warnings."""
    try:
        proc = _run(["sbatch", "--hold", "--parsable", *args, str(script)], cwd=cwd)
    except subprocess.TimeoutExpired as err:
        raise RuntimeError(
            f"sbatch {script.name} did not answer in {err.timeout} s: is slurmctld at its "
            "MaxJobCount (large arrays linger MinJobAge after scancel)?"
        ) from None
    if proc.returncode != 0:
        raise SbatchRefused(script.name, args, proc.returncode, proc.stderr)
    jobid = proc.stdout.strip().splitlines()[-1].split(";")[0]
    if not jobid.isdigit():
        raise RuntimeError(f"sbatch printed no job id: {proc.stdout!r} {proc.stderr!r}")
    return jobid, [line for line in proc.stderr.splitlines() if line.strip()]


def _scancel(jobids: Iterable[str]) -> None:
    ids = [j for j in jobids if j]
    if ids:
        _run(["scancel", *ids])


def show_job(jobid: str) -> list[dict[str, str]]:
    """``scontrol show job -o ID`` parsed: one dict per line (het component)."""
    proc = _run(["scontrol", "show", "job", "-o", jobid])
    if proc.returncode != 0:
        raise RuntimeError(f"scontrol show job {jobid}: {proc.stderr.strip()}")
    return [parse_show_line(line) for line in proc.stdout.splitlines() if line.strip()]


# Fields whose values may hold spaces (and "=") and the keys scontrol prints after them.
_SPACED = {
    "JobName": "HetJobIdSet|UserId",
    "Command": "WorkDir",
    "WorkDir": "AdminComment|Comment|StdErr|StdIn|StdOut",
    "AdminComment": "Comment|StdErr|StdIn|StdOut",
    "Comment": "StdErr|StdIn|StdOut",
    "StdErr": "StdIn|StdOut",
    "StdIn": "StdOut",
    "StdOut": "Power",
}


def parse_show_line(line: str) -> dict[str, str]:
    """One ``scontrol show job -o`` line as {key: value}. Values are split at `` Key=``;
    the free-text fields (JobName, Command, WorkDir, comments, paths) are cut at the key
    that scontrol prints next, so a job name like ``my job x=1`` stays whole."""
    line = line.rstrip("\n")
    fields: dict[str, str] = {}
    for key, after in _SPACED.items():
        m = re.search(rf"(?:^| ){re.escape(key)}=(.*?) +(?={after})(?:{after})=", line)
        if m:
            fields[key] = m.group(1)
            line = line[: m.start(1)] + line[m.end(1) :]  # keep "Key=" so order stays
    for m in re.finditer(r"(?:^| )([A-Za-z][\w/:.]*)=(\S*(?: (?![A-Za-z][\w/:.]*=)\S+)*)", line):
        fields.setdefault(m.group(1), m.group(2))
    return fields


@functools.cache
def partitions() -> dict[str, dict[str, int | None]]:
    """{name: {"default_time": s|None, "max_time": s|None}} from scontrol (None: none)."""
    proc = _run(["scontrol", "show", "partition", "-o"])
    out: dict[str, dict[str, int | None]] = {}
    for line in proc.stdout.splitlines():
        f = parse_show_line(line)
        if "PartitionName" in f:
            out[f["PartitionName"]] = {
                "default_time": parse_time(f.get("DefaultTime", "NONE")),
                "max_time": parse_time(f.get("MaxTime", "UNLIMITED")),
            }
    return out


def default_time(partition: str) -> int | None:
    p = partitions().get(partition, {})
    return p.get("default_time") if p.get("default_time") is not None else p.get("max_time")


# --- values --------------------------------------------------------------------------


def parse_time(text: str) -> int | None:
    """Seconds of a Slurm time as scontrol prints it (``D-HH:MM:SS``, ``HH:MM:SS``,
    ``MM:SS``); ``UNLIMITED``/``INFINITE`` -> 0 (no limit, as Flux's duration 0); ``NONE``,
    ``N/A``, ``Unknown`` -> None."""
    text = text.strip()
    if text.upper() in ("UNLIMITED", "INFINITE"):
        return 0
    if text.upper() in ("NONE", "N/A", "UNKNOWN", "(NULL)", ""):
        return None
    days = 0
    if "-" in text:
        d, text = text.split("-", 1)
        days = int(d)
    parts = [int(p) for p in text.split(":")]
    while len(parts) < 3:
        parts.insert(0, 0)
    h, m, s = parts
    return ((days * 24 + h) * 60 + m) * 60 + s


def _null(value: str | None) -> str | None:
    return None if value in (None, "", "(null)", "N/A", "None") else value


def _int(value: str | None) -> int | None:
    value = _null(value)
    return int(value) if value is not None and value.isdigit() else None


def _tres(text: str | None) -> dict[str, str]:
    """``cpu=8,mem=500G,node=2,billing=8`` -> {"cpu": "8", ...}."""
    return dict(item.split("=", 1) for item in (_null(text) or "").split(",") if "=" in item)


def parse_gres(text: str | None) -> list[tuple[str, str | None, int]]:
    """``gres:gpu:2,gres:gpu:v100:1`` -> [("gpu", None, 2), ("gpu", "v100", 1)]."""
    out: list[tuple[str, str | None, int]] = []
    for item in (_null(text) or "").split(","):
        item = item.strip()
        if not item:
            continue
        item = re.sub(r"^gres[:/]", "", item)
        parts = item.split(":")
        count = 1
        if len(parts) > 1 and re.fullmatch(r"\d+", parts[-1]):
            count = int(parts.pop())
        name = parts[0]
        gtype = ":".join(parts[1:]) or None
        out.append((name, gtype, count))
    return out


def _gres_counts(text: str | None) -> dict[tuple[str, str | None], int]:
    counts: dict[tuple[str, str | None], int] = {}
    for name, gtype, count in parse_gres(text):
        counts[(name, gtype)] = count  # a repeated name: the last one (Slurm's reading)
    return counts


def _gpus(text: str | None) -> tuple[int | None, str | None]:
    gpu = [(t, c) for (n, t), c in _gres_counts(text).items() if n == "gpu"]
    if not gpu:
        return None, None
    return sum(c for _, c in gpu), next((t for t, _ in gpu if t), None)


def parse_dependency(text: str | None) -> tuple[str | None, list[tuple[str, str | None]], bool]:
    """``afterok:1(unfulfilled)?afterany:2+5(unfulfilled)`` -> ("afterok:1?afterany:2+5",
    [("afterok", "1"), ("afterany", "2+5")], True). The id keeps Slurm's ``_TASK`` or
    ``+MINUTES``; ``singleton`` -> ("singleton", None); the bool: ``?`` (any one of them)."""
    raw = _null(text)
    if raw is None:
        return None, [], False
    raw = re.sub(r"\((?:unfulfilled|failed|fulfilled)\)", "", raw)
    deps: list[tuple[str, str | None]] = []
    for item in re.split(r"[,?]", raw):
        if not item:
            continue
        kind, _, ids = item.partition(":")
        if not ids:
            deps.append((kind, None))
        for jobid in ids.split(":") if ids else ():
            deps.append((kind, jobid))
    return raw, deps, "?" in raw


def _epoch(text: str | None) -> float | None:
    text = _null(text)
    if text is None or text == "Unknown":
        return None
    return time.mktime(time.strptime(text, "%Y-%m-%dT%H:%M:%S"))


def _relative(path: str | None, base: str | None, submit_dir: str | None) -> str | None:
    """``path`` relative to ``base`` when under it (or under the submit directory), after
    normpath; else normalized absolute. None stays None."""
    if path is None:
        return None
    if not os.path.isabs(path):
        return os.path.normpath(path)
    norm = os.path.normpath(path)
    for root in (base, submit_dir):
        if root and (
            norm == os.path.normpath(root) or norm.startswith(os.path.normpath(root) + "/")
        ):
            return os.path.relpath(norm, os.path.normpath(base or root))
    return norm


def _id_pairs(
    f: dict[str, str], second: dict[str, str] | None
) -> list[tuple[str, str | None, str]]:
    """(id as Slurm wrote it, the same id in the second submission or None, placeholder)."""
    second = second or {}
    pairs: list[tuple[str, str | None, str]] = [(f["JobId"], second.get("JobId"), "{id}")]
    het = _null(f.get("HetJobId"))
    if het and het != f["JobId"]:
        pairs.append((het, _null(second.get("HetJobId")), "{het_id}"))
    if "ArrayTaskId" in f:
        pairs.append((NO_VAL, None, "{task}"))
    return pairs


def mark_ids(path: str, pairs: list[tuple[str, str | None, str]], other: str | None = None) -> str:
    """Put placeholders where Slurm wrote ids into an output path. ``pairs``: (id as in
    ``path``, the same id in ``other`` or None, placeholder). ``other``: the path as a second
    submission rendered it; given when the id's digits also occur literally (in the script,
    the name, the user, the working directory); then only the occurrences that changed
    between the two submissions are ids. Without ``other`` every occurrence is."""
    table = {a: (b, ph) for a, b, ph in pairs}
    alts = "|".join(re.escape(a) for a in sorted(table, key=len, reverse=True))
    found = list(re.finditer(rf"(?<!\d)(?:{alts})(?!\d)", path)) if table else []
    changed = [True] * len(found)
    if other is not None and found:
        pattern, pos = "", 0
        for m in found:
            b = table[m.group(0)][0]
            either = re.escape(m.group(0)) + (f"|{re.escape(b)}" if b else "")
            pattern += re.escape(path[pos : m.start()]) + f"({either})"
            pos = m.end()
        aligned = re.fullmatch(pattern + re.escape(path[pos:]), other)
        if aligned:
            changed = [
                table[m.group(0)][0] is None or aligned.group(i + 1) != m.group(0)
                for i, m in enumerate(found)
            ]
    out, pos = [], 0
    for m, is_id in zip(found, changed):
        out += [path[pos : m.start()], table[m.group(0)][1] if is_id else m.group(0)]
        pos = m.end()
    return "".join(out) + path[pos:]


def _output(
    f: dict[str, str], key: str, submit_dir: str | None, second: dict[str, str] | None
) -> str | None:
    path = _relative(_null(f.get(key)), _null(f.get("WorkDir")), submit_dir)
    if path is None:
        return None
    other = None
    if second is not None:
        other = _relative(_null(second.get(key)), _null(second.get("WorkDir")), submit_dir)
    return mark_ids(path, _id_pairs(f, second), other)


def _ids_also_literal(f: dict[str, str], text: str, submit_dir: str | None) -> bool:
    """Whether the job's id digits occur in what an output path is made of besides %j/%A
    (the submitted script, the job name, the user, the working directory)."""
    workdir = _relative(_null(f.get("WorkDir")), submit_dir, None) or ""
    hay = "\n".join([text, f.get("JobName", ""), f.get("UserId", ""), workdir])
    ids = [i for i in (f.get("JobId"), _null(f.get("HetJobId"))) if i]
    return any(re.search(rf"(?<!\d){re.escape(i)}(?!\d)", hay) for i in ids)


def normalize(
    f: dict[str, str], submit_dir: str | None = None, second: dict[str, str] | None = None
) -> dict[str, Any]:
    """One parsed ``scontrol show job`` line as the comparable reading (see the module
    docstring). ``second``: the same component from a second submission (see mark_ids).
    ``raw`` keeps every field as printed."""
    nodes = _null(f.get("NumNodes")) or ""
    lo, _, hi = nodes.partition("-")
    oversub = (_null(f.get("OverSubscribe")) or "").upper()
    workdir = _null(f.get("WorkDir"))
    per_node = _gpus(f.get("TresPerNode"))
    per_task = _gpus(f.get("TresPerTask"))
    per_job = _gpus(f.get("TresPerJob"))
    per_socket = _gpus(f.get("TresPerSocket"))
    raw_dep, deps, dep_any = parse_dependency(f.get("Dependency"))
    tpn = (_null(f.get("NtasksPerN:B:S:C")) or "0").split(":")[0]
    array = _null(f.get("ArrayTaskId"))
    gres = {
        field: {f"{n}:{t}" if t else n: c for (n, t), c in _gres_counts(f.get(field)).items()}
        for field in ("TresPerNode", "TresPerTask", "TresPerJob", "TresPerSocket")
        if _null(f.get(field))
    }
    stdout = _output(f, "StdOut", submit_dir, second)
    stderr = _output(f, "StdErr", submit_dir, second)
    return {
        "job_id": f.get("JobId"),
        "het_job_id": _null(f.get("HetJobId")),
        "het_offset": _int(f.get("HetJobOffset")),
        "array_job_id": _null(f.get("ArrayJobId")),
        "array": re.sub(r"%\d+$", "", array) if array else None,
        "array_throttle": _int(f.get("ArrayTaskThrottle")),
        "partition": _null(f.get("Partition")),
        "name": f.get("JobName"),
        "nodes_min": int(lo) if lo.isdigit() else None,
        "nodes_max": int(hi) if hi.isdigit() else None,
        "nodes_given": bool(hi),
        "tres_nodes": _int(_tres(f.get("TRES")).get("node")),
        "tasks": _int(f.get("NumTasks")),
        "cpus_per_task": _int(f.get("CPUs/Task")),
        "tasks_per_node": int(tpn) if tpn.isdigit() and int(tpn) else None,
        "gpus_per_node": per_node[0],
        "gpus_per_task": per_task[0],
        "gpus_total": per_job[0],
        "gpus_per_socket": per_socket[0],
        "gpu_type": per_node[1] or per_task[1] or per_job[1] or per_socket[1],
        "gres": gres,
        "cpus_per_gpu": next(
            (c for (n, _), c in _gres_counts(f.get("CpusPerTres")).items() if n == "gpu"), None
        ),
        "exclusive": oversub == "NO",
        "oversubscribe": oversub or None,
        "time_seconds": parse_time(f.get("TimeLimit", "NONE")),
        "time_given": True,
        "time_min_seconds": parse_time(f.get("TimeMin", "N/A")),
        "stdout": stdout,
        "stderr": stderr,
        "stdin": _null(f.get("StdIn")),
        "dependency": raw_dep,
        "dependencies": deps,
        "dependency_any": dep_any,
        "begin": _epoch(f.get("EligibleTime")),
        "features": _null(f.get("Features")),
        "account": _null(f.get("Account")),
        "qos": _null(f.get("QOS")),
        "mail_user": _null(f.get("MailUser")),
        "mail_type": _null(f.get("MailType")),
        "workdir": _relative(workdir, submit_dir, None) if workdir else None,
        "comment": _null(f.get("Comment")),
        "licenses": _null(f.get("Licenses")),
        "nodelist": _null(f.get("ReqNodeList")),
        "exclude": _null(f.get("ExcNodeList")),
        "mem_per_node": None if f.get("MinMemoryNode") in (None, "0") else f["MinMemoryNode"],
        "mem_per_cpu": _null(f.get("MinMemoryCPU")),
        "requeue": f.get("Requeue") == "1",
        "nice": _int(f.get("Nice")),
        "warnings": [],
        "raw": dict(f),
    }


# --- dependencies on jobs that do not exist --------------------------------------------

_DEP_OPTION = re.compile(r"(?<!\S)(--dep[a-z]*[= ]\s*|-d\s*)(\S+)")


def _dependency_ids(values: Iterable[str]) -> list[str]:
    ids: list[str] = []
    for value in values:
        for m in re.finditer(r"(?<=:)\d+", value):
            if m.group(0) not in ids:
                ids.append(m.group(0))
    return ids


def _dep_values_in(text: str) -> list[str]:
    return [
        m.group(2)
        for line in text.splitlines()
        if line.startswith("#SBATCH")
        for m in _DEP_OPTION.finditer(line)
    ]


def _dep_values_in_args(args: Sequence[str]) -> list[str]:
    out = []
    for i, a in enumerate(args):
        if re.match(r"--dep[a-z]*=", a) or (a.startswith("-d") and len(a) > 2):
            out.append(a.split("=", 1)[1] if a.startswith("--") else a[2:])
        elif a in ("-d",) or re.fullmatch(r"--dep[a-z]*", a):
            out.extend(args[i + 1 : i + 2])
    return out


def _rename_ids(value: str, mapping: dict[str, str]) -> str:
    return re.sub(r"(?<=:)\d+", lambda m: mapping.get(m.group(0), m.group(0)), value)


def _rewrite_dependencies(text: str, mapping: dict[str, str]) -> str:
    def line_sub(line: str) -> str:
        if not line.startswith("#SBATCH"):
            return line
        return _DEP_OPTION.sub(lambda m: m.group(1) + _rename_ids(m.group(2), mapping), line)

    return "".join(line_sub(line) for line in text.splitlines(keepends=True))


def _rewrite_args(args: Sequence[str], mapping: dict[str, str]) -> list[str]:
    out = []
    for i, a in enumerate(args):
        prev = args[i - 1] if i else ""
        if (
            re.match(r"--dep[a-z]*=", a)
            or (a.startswith("-d") and len(a) > 2)
            or prev == "-d"
            or re.fullmatch(r"--dep[a-z]*", prev)
        ):
            a = _rename_ids(a, mapping)
        out.append(a)
    return out


def _map_back(reading: dict[str, Any], back: dict[str, str]) -> None:
    if not back or reading["dependency"] is None:
        return
    reading["dependency"] = _rename_ids(reading["dependency"], back)
    reading["dependencies"] = [
        (k, _rename_ids(":" + j, back)[1:] if j else j) for k, j in reading["dependencies"]
    ]


# --- the reading -----------------------------------------------------------------------


def _read_once(
    copy: Path, args: Sequence[str], submit_dir: Path, partition: str
) -> tuple[list[dict[str, str]], list[str]]:
    jobid = None
    try:
        jobid, warnings = _sbatch(copy, ["-p", partition, *args], submit_dir)
        lines = show_job(jobid)
        if not lines:
            raise RuntimeError(f"scontrol shows nothing for job {jobid}")
        return lines, warnings
    finally:
        if jobid:
            _scancel([jobid])


def slurm_reading(
    script_path: str | os.PathLike[str],
    extra_args: Sequence[str] = (),
    *,
    adjustment: Adjustment | None = None,
    partition: str = PARTITION,
    probe_time: bool = True,
) -> list[dict[str, Any]]:
    """What Slurm reads from ``script_path``: one normalized dict per het component, in
    HetJobOffset order (a single dict for an ordinary job or an array). ``extra_args`` go on
    the sbatch command line after ``-p PARTITION`` (they override the script's). With
    ``adjustment`` (see ADJUSTMENTS) its args follow ``extra_args`` and its edits apply to
    the submitted copy. Raises :class:`SbatchRefused` with sbatch's message."""
    script_path = Path(script_path)
    text = script_path.read_bytes().decode("utf-8", errors="surrogateescape")
    args = list(extra_args)
    if adjustment is not None:
        text = adjustment.apply(text)
        args += adjustment.args
    tmp = Path(tempfile.mkdtemp(prefix="jobspec-slurm-"))
    submit_dir = tmp / "submit"
    submit_dir.mkdir()
    (tmp / "script").mkdir()
    copy = tmp / "script" / script_path.name
    dummies: dict[str, str] = {}
    try:
        for jobid in _dependency_ids(_dep_values_in(text) + _dep_values_in_args(args)):
            dummies[jobid] = _dummy(partition, submit_dir)
        text = _rewrite_dependencies(text, dummies)
        args = _rewrite_args(args, dummies)
        copy.write_bytes(text.encode("utf-8", errors="surrogateescape"))
        lines, warnings = _read_once(copy, args, submit_dir, partition)
        default = default_time(partition)
        ambiguous_time = probe_time and any(
            parse_time(f.get("TimeLimit", "NONE")) == default for f in lines
        )
        probe = _probe_partition(partition) if ambiguous_time else None
        second = None
        if probe is not None:
            try:
                second, _ = _read_once(copy, args, submit_dir, probe)
            except SbatchRefused:
                pass
        probed = second is not None
        if second is None and any(_ids_also_literal(f, text, str(submit_dir)) for f in lines):
            second, _ = _read_once(copy, args, submit_dir, partition)
        offset = lambda f: int(f.get("HetJobOffset", "0"))
        seconds = {offset(f): f for f in second or []}
        readings = []
        back = {v: k for k, v in dummies.items()}
        for f in sorted(lines, key=offset):
            r = normalize(f, str(submit_dir), seconds.get(offset(f)))
            r["warnings"] = warnings
            _map_back(r, back)
            if ambiguous_time and r["time_seconds"] == default:
                if not probed:
                    r["time_given"] = None
                elif parse_time(seconds[offset(f)].get("TimeLimit", "NONE")) != default:
                    r["time_given"], r["time_seconds"] = False, None
            readings.append(r)
        return readings
    finally:
        _scancel(dummies.values())
        shutil.rmtree(tmp, ignore_errors=True)


def _dummy(partition: str, cwd: Path) -> str:
    proc = _run(
        [
            "sbatch",
            "--hold",
            "--parsable",
            "-p",
            partition,
            "-J",
            "jobspec-dependency-dummy",
            "-o",
            "/dev/null",
            "--wrap=true",
        ],
        cwd=cwd,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"dummy job for a dependency: {proc.stderr.strip()}")
    return proc.stdout.strip().split(";")[0]


def _probe_partition(partition: str) -> str | None:
    """A partition whose default time differs from ``partition``'s (None: there is none)."""
    default = default_time(partition)
    return next(
        (n for n in partitions() if n != partition and default_time(n) not in (default, None, 0)),
        None,
    )


# --- Flux's side -------------------------------------------------------------------------


def flux_dry_run(
    flux_exe: str,
    script_path: str | os.PathLike[str],
    extra_args: Sequence[str] = (),
    cwd: str | os.PathLike[str] | None = None,
) -> dict[str, Any]:
    """The jobspec ``flux batch --dry-run`` prints for a script (no instance needed).
    Raises RuntimeError with flux's message when it refuses."""
    import json

    proc = subprocess.run(
        [flux_exe, "batch", "--dry-run", *extra_args, str(script_path)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"flux batch --dry-run refused {script_path}: {proc.stderr.strip()}")
    return json.loads(proc.stdout)


def _flux_path(path: str | None) -> str | None:
    return None if path is None else path.replace("{{id}}", "{id}")


def flux_reading(jobspec: dict[str, Any], submit_dir: str | None = None) -> dict[str, Any]:
    """The fields of a canonical version-1 jobspec (as ``flux batch --dry-run`` prints it)
    that a Slurm reading compares with:

    - resources ``[node(count, exclusive?) -> slot(count) -> core, gpu]`` or
      ``[slot -> core, gpu]``: nodes (None without a node level), slots (total =
      nodes x slots per node), slots_per_node, cores_per_slot, gpus_per_slot (None: no gpu),
      exclusive (the node's ``exclusive``; ``flux batch -N`` without ``-n`` sets it);
    - duration (seconds, 0 = no limit), name, stdout, stderr (``{{id}}`` -> ``{id}``;
      stderr absent = same file as stdout, as Flux does), cwd (relative to ``submit_dir``
      when under it), queue, bank, deps (``[(scheme, value)]`` without begin-time),
      begin (the begin-time dependency's epoch), constraints (raw) and features
      (``constraints.properties`` when that is all there is)."""
    resources = jobspec["resources"]
    if len(resources) != 1:
        raise ValueError(f"not one top-level resource: {resources}")
    top = resources[0]
    nodes = None
    exclusive = False
    slot = top
    if top["type"] == "node":
        nodes = _count(top["count"])
        exclusive = bool(top.get("exclusive", False))
        inner = [r for r in top.get("with", []) if r["type"] == "slot"]
        if len(inner) != 1:
            raise ValueError(f"node without one slot: {top}")
        slot = inner[0]
    if slot["type"] != "slot":
        raise ValueError(f"no slot: {top}")
    per = _count(slot["count"])
    inside = {r["type"]: _count(r["count"]) for r in slot.get("with", [])}
    system = jobspec.get("attributes", {}).get("system", {})
    output = system.get("shell", {}).get("options", {}).get("output", {})
    cwd = system.get("cwd")
    stdout = _flux_path(output.get("stdout", {}).get("path"))
    stderr = _flux_path(output.get("stderr", {}).get("path")) or stdout
    deps = []
    begin = None
    for d in system.get("dependencies", []):
        if d.get("scheme") == "begin-time":
            begin = float(d["value"])
        else:
            deps.append((d.get("scheme"), d.get("value") or None))
    constraints = system.get("constraints")
    features = None
    if isinstance(constraints, dict) and set(constraints) == {"properties"}:
        features = list(constraints["properties"])
    duration = system.get("duration", 0)
    return {
        "nodes": nodes,
        "slots": per * nodes if nodes is not None else per,
        "slots_per_node": per if nodes is not None else None,
        "cores_per_slot": inside.get("core"),
        "gpus_per_slot": inside.get("gpu"),
        "exclusive": exclusive,
        "duration": int(duration) if float(duration).is_integer() else duration,
        "name": system.get("job", {}).get("name"),
        "stdout": _relative(stdout, cwd, submit_dir),
        "stderr": _relative(stderr, cwd, submit_dir),
        "cwd": _relative(cwd, submit_dir, None) if cwd else None,
        "queue": system.get("queue"),
        "bank": system.get("bank"),
        "deps": deps,
        "begin": begin,
        "constraints": constraints,
        "features": features,
    }


def _count(count: Any) -> int:
    if isinstance(count, int):
        return count
    if isinstance(count, dict) and "min" in count:
        return int(count["min"])
    raise ValueError(f"count: {count!r}")


# --- really running a script ------------------------------------------------------------


def run_under_slurm(
    script_path: str | os.PathLike[str],
    timeout: float = 120,
    extra_args: Sequence[str] = (),
    partition: str = RUN_PARTITION,
) -> str:
    """Run the script on ``partition`` (``debug``: this machine) with ``sbatch --wait`` and
    its stdout and stderr in one temporary file; return that file's text. The job is
    cancelled when it does not end within ``timeout`` seconds (then TimeoutError). A job
    that fails still returns its output; ``RuntimeError`` when sbatch refuses or the job
    left no output. The script's own partition and -o/-e are overridden; the rest of its
    directives apply (the debug partition has this machine's cores: 2 here, so a script
    asking more is refused with "Requested node configuration is not available").
    tests/data/migration/run/probe-ranks.sh takes about 2 s (sbatch --wait polls).

    The Flux side of such a run (not written here: it needs the converter) would use the
    Flux tier's ``flux`` fixture (tests/flux/conftest.py, re-exported by this folder's
    conftest): a ``flux start --test-size=1`` instance (``Flux(exe, size=N)`` for N brokers,
    each with this machine's cores) whose URI is in ``instance.env``; ``instance.run("batch",
    "--output=FILE", script)`` prints the job id and ``instance.run("job", "attach", id)``
    waits for it (``flux job wait`` refuses: the job is not submitted waitable). Tried by
    hand with the probe's ``srun`` written as ``flux run -n2``: ``rank=0 size=2``,
    ``rank=1 size=2``, ``nodes=1`` as under Slurm (the probe falls back on FLUX_TASK_RANK /
    FLUX_JOB_SIZE), in about 1.3 s; only ``cpus_per_task`` differs (``unset``: Flux has no
    such variable)."""
    tmp = Path(tempfile.mkdtemp(prefix="jobspec-slurm-run-"))
    out = tmp / "output.txt"
    cmd = [
        "sbatch",
        "--wait",
        "--parsable",
        "-p",
        partition,
        f"--output={out}",
        f"--error={out}",
        *extra_args,
        str(Path(script_path).resolve()),
    ]
    proc = subprocess.Popen(
        cmd, cwd=tmp, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        _scancel(_jobs_writing(out))
        proc.communicate()
        shutil.rmtree(tmp, ignore_errors=True)
        raise TimeoutError(f"{script_path} did not end within {timeout} s") from None
    try:
        if not out.exists():
            raise RuntimeError(f"sbatch (exit {proc.returncode}) left no output: {stderr.strip()}")
        return out.read_text(errors="replace")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _jobs_writing(out: Path) -> list[str]:
    """Ids of this user's jobs whose StdOut is ``out`` (to cancel after a timeout)."""
    proc = _run(["squeue", "-h", "-u", str(os.getuid()), "-o", "%i"])
    jobs = []
    for jobid in proc.stdout.split():
        for f in show_job(jobid):
            if f.get("StdOut") == str(out):
                jobs.append(jobid)
    return jobs
