"""The value readers of Slurm's `#SBATCH` options: each reads one option's value as sbatch
reads it into the :class:`~jobspec_lsp.migrate.model.Request` (counts, times, output
patterns, dependencies, begin times, exports, constraints, signals, arrays), or says why
Flux cannot carry it. ``READERS`` names each by the reader :data:`.slurm.OPTIONS` gives."""

import getpass
import re

from jobspec_lsp.fluxcli import values
from jobspec_lsp.migrate.model import Item, NotCarried, Request, fsd, minutes_up
from jobspec_lsp.notations import formats
from jobspec_lsp.notations.formats import ascii_int


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
            req.add(item, "dependencies", f"{kind}:{_job_id(jid, kind)}")
            item.notes.append(
                f"{jid} looks like a Slurm job id: a Flux dependency names a Flux job"
            )


_ARRAY_TASK = re.compile(r"\d+_(?:\d+|\*|\[[\d,-]+\])", re.A)


def _job_id(jid: str, kind: str) -> str:
    """A Slurm job id of a dependency, as Flux can name it: a number (``007`` is 7, as
    Slurm reads it). An array task's id (``123_4``, ``123_*``, ``123_[1-3]``) Slurm takes
    and Flux cannot name: not carried; anything else sbatch itself refuses."""
    n = ascii_int(jid)
    if n is not None and n > 0:
        return str(n)
    if _ARRAY_TASK.fullmatch(jid):
        raise NotCarried(
            f"{jid} is a task of a Slurm job array: Flux has no arrays, and a Flux "
            "dependency names a Flux job; give the Flux job id it waits for",
            instead=(
                f"sbatch's dependency {kind} on {jid}, a task of a Slurm job array (a Flux "
                f"job waits for a Flux job: flux batch --dependency={kind}:ID)"
            ),
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
