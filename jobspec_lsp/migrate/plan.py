"""A scheduler's directive block read into one request, with the script's own `#flux:`
lines, and the Flux shape planned for it (:class:`Job`): what :mod:`.convert` writes from.
A directive that contradicts the script's `#flux:` lines is found here (left as it is)."""

from __future__ import annotations

from types import ModuleType

from jobspec_lsp.fluxcli import argv, model, values
from jobspec_lsp.job import directives
from jobspec_lsp.migrate.launch import Launches
from jobspec_lsp.migrate.model import (
    FLUX_TIME_MAX,
    SHAPE,
    Edit,
    Finding,
    Item,
    Line,
    NotCarried,
    Request,
    Shape,
    fsd,
    shape,
    words,
)
from jobspec_lsp.migrate.reading import Block
from jobspec_lsp.notations import formats
from jobspec_lsp.record import Record

# the Flux option each non-shape field is given by (to read a script's own #flux: lines)
FLUX_OPTION = {
    "time": "time-limit",
    "queue": "queue",
    "account": "bank",
    "name": "job-name",
    "output": "output",
    "error": "error",
    "dependencies": "dependency",
    "begin": "begin-time",
    "requires": "requires",
    "cwd": "cwd",
    "env": "env",
    "hold": "urgency",
    "urgency": "urgency",
    "signal": "signal",
}


_SHAPE_OPTIONS = {
    "-N": "nodes",
    "-n": "nslots",
    "-c": "cores-per-slot",
    "-g": "gpus-per-slot",
    "-x": "exclusive",
}


def _flux_given(text: str) -> tuple[str | None, dict[str, list[str]]]:
    """The script's own Flux directives: their sentinel and each option's values."""
    script = directives.read(text)
    if script.sentinel is None:
        return None, {}
    given: dict[str, list[str]] = {}
    batch = model.command("batch")
    for d in script.directives:
        if not d.words or not d.words[0].value.startswith("-"):
            continue  # refused by flux batch (JS574): gives nothing
        for g in argv.read(batch, d.words).given:  # as flux batch's argparse reads it
            given.setdefault(g.option.long, []).append(g.value or "")
    return script.sentinel, given


def _read(mod: ModuleType, blk: Block, req: Request) -> list[Finding]:
    out: list[Finding] = []
    for a, b, msg in blk.problems:
        said = msg if mod.COMMAND in msg else f"{mod.COMMAND} cannot read this line: {msg}"
        out.append(Finding("bad", a, b, said))
    for a, b, msg in blk.notes:
        out.append(Finding("kept", a, b, msg.replace("the scheduler", mod.COMMAND)))
    for line in blk.lines:
        for it in line.items:
            if it.reader == "het":
                continue
            opt = mod.TABLE.get(it.name)
            if opt is None:
                continue
            if opt.reader == "-":
                it.ignored = opt.note
                continue
            if not opt.reader:
                it.problem = opt.note
                it.whole = True
                continue
            before = {f: getattr(req, f) for f in Request.__slots__[:-2]}
            sources = dict(req.sources)
            try:
                mod.READERS[opt.reader](it, req)
                _flux_takes(it, req, before)
            except NotCarried as nc:
                it.problem = nc.message
                it.error = nc.error
                it.instead = nc.instead
                for f in it.fields:  # what it set before it failed is not the job's
                    setattr(req, f, before[f])
                    if f in sources:
                        req.sources[f] = sources[f]
                    else:
                        req.sources.pop(f, None)
                it.fields.clear()
                if opt.reader == "array":  # not carried, but the job is one of an array
                    req.array = it.value
    return out


def _flux_takes(it: Item, req: Request, before: dict[str, object]) -> None:
    """:class:`NotCarried` when `flux batch` refuses a value ``it`` gave (one its scheduler
    takes: an empty host list, another scheduler's job id): written, it would make Flux
    refuse the whole script. Checked with Flux's own readers (:mod:`.fluxcli.values`)."""
    batch = model.command("batch")
    for f in it.fields:
        long, v = FLUX_OPTION.get(f), getattr(req, f)
        if long is None or v is None or f == "hold" or req.sources.get(f) is not it:
            continue
        if f == "time":
            if v > FLUX_TIME_MAX:
                raise NotCarried(f"a limit of {v} seconds: Flux's longest is 999999999 days")
            v = fsd(v)
        if isinstance(v, list):
            old = before[f]
            given = v[len(old) :] if isinstance(old, list) and v[: len(old)] == old else v
        else:
            given = [str(v)]
        for value in given:
            why = values.value_problem(batch.by_long[long], value)
            if why and not isinstance(why, values.Limit):
                raise NotCarried(f"flux batch refuses it: {why}")


def _shape_words(sh: Shape) -> dict[str, str]:
    """{'-N': '2', '-n': '8', '-x': ''} of a shape's words."""
    out = {}
    for w in sh.words:
        opt, _, val = w.partition(" ")
        out[opt] = val
    return out


def _agrees(given: dict[str, list[str]], opt: str, value: str) -> bool | None:
    """Whether the script's #flux: lines give ``opt`` with ``value`` (None: not given)."""
    long = _SHAPE_OPTIONS[opt]
    if long not in given:
        return None
    if opt == "-x":
        return True
    got = formats.ascii_int(given[long][-1])
    return got == int(value)


class Job(Record):
    """One conversion under way: the directive block read into a request (with the
    script's own `#flux:` lines), the shape planned for it, and what is written so far."""

    __slots__ = (
        "text", "mod", "blk", "req", "sentinel", "given", "sh", "sized", "flux_sized",
        "shape_words", "shape_conflict", "shape_sources", "first_shape_line", "first_line",
        "shape_done", "emitted", "findings", "edits", "replaced", "moved", "launches",
    )  # fmt: skip
    text: str
    mod: ModuleType
    blk: Block
    req: Request
    sentinel: str
    given: dict[str, list[str]]
    sh: Shape
    sized: bool
    flux_sized: bool
    shape_words: list[str]
    shape_conflict: str
    shape_sources: list[Item]
    first_shape_line: Line | None
    first_line: Line | None
    shape_done: bool
    emitted: set[str]
    findings: list[Finding]
    edits: list[Edit]
    replaced: dict[int, str]
    moved: set[int]
    launches: Launches  # the launch lines converted, once the shape is planned

    def __init__(self, text: str, mod: ModuleType) -> None:
        self.text, self.mod = text, mod
        self.blk = mod.block(text)
        self.req = Request()
        self.findings = _read(mod, self.blk, self.req)
        mod.finish(self.req)
        sentinel, self.given = _flux_given(text)
        self.sentinel = sentinel or "#flux:"
        for at in self.blk.late:
            word = mod.SENTINEL.match(text, at)
            self.findings.append(Finding("late", at, word.end() if word else at + 1, mod.LATE))
        self.edits = []
        self.replaced = {}
        self.moved = set()
        self.emitted = set()
        self.shape_done = False
        self.first_line = next((ln for ln in self.blk.lines if ln.items or ln.bad), None)


def refusal(job: Job) -> str:
    """Why the job has no Flux form (a heterogeneous job; a size no single Flux shape
    holds), said at its directive; "" when it has one."""
    het = [it for line in job.blk.lines for it in line.items if it.reader == "het"]
    if het:
        why = (
            f"a heterogeneous job ({het[0].name}): its components ask different resources, "
            "which one Flux batch job cannot; convert each component as its own script "
            "(or start them inside one allocation with flux run)"
        )
        job.findings.append(Finding("refused", het[0].start, het[0].end, why))
        return why
    if "refused" in job.req.extra:  # a size no single Flux shape holds (PBS a+b chunks)
        it, why = job.req.extra["refused"]
        job.findings = [f for f in job.findings if not it.start <= f.start < it.end]
        job.findings.append(Finding("refused", it.start, it.end, why))
        return why
    return ""


def plan_shape(job: Job) -> None:
    """The Flux shape of the request, the words that write it (only those the script's own
    `#flux:` lines do not give already) and the line they go on."""
    req, given = job.req, job.given
    _flux_size(req, given)
    job.sh = shape(req)
    job.sized = any(f in req.sources for f in SHAPE)
    job.flux_sized = bool(given.keys() & {"nodes", "nslots", "cores-per-slot", "gpus-per-slot"})
    job.shape_words = list(job.sh.words)
    job.shape_conflict = ""
    if job.flux_sized:
        missing = []
        for opt, val in _shape_words(job.sh).items():
            agree = _agrees(given, opt, val)
            if agree is False:
                long = _SHAPE_OPTIONS[opt]
                job.shape_conflict = (
                    f"the script's {job.sentinel} lines already give --{long}="
                    f"{given[long][-1]}; this asks {opt} {val}: left as it is"
                )
            elif agree is None:
                missing.append(f"{opt} {val}".rstrip())
        job.shape_words = missing if job.sized else []
    job.shape_sources = [req.sources[f] for f in SHAPE if f in req.sources]
    job.first_shape_line = None
    if job.shape_sources and not job.shape_conflict:
        first = min(it.start for it in job.shape_sources)
        job.first_shape_line = next(ln for ln in job.blk.lines if ln.start <= first <= ln.end)


# the #flux: size options a script already has -> the request's fields they fill
_FLUX_SIZE = (("nodes", "nodes"), ("nslots", "tasks"), ("cores-per-slot", "cores_per_task"),
              ("gpus-per-slot", "gpus_per_task"))  # fmt: skip


def _flux_size(req: Request, given: dict[str, list[str]]) -> None:
    """A half-migrated script's own #flux: size, where the scheduler's directives give
    none: its launch lines start what it allocates (`srun ./a` inside `#flux: -N 2 -n 2
    -c 8 -g 1` keeps the 8 cores and the GPU of each task)."""
    for option, fld in _FLUX_SIZE:
        if option in given and getattr(req, fld) is None:
            n = formats.ascii_int(given[option][-1])
            if n:
                setattr(req, fld, n)


def given_fields(given: dict[str, list[str]]) -> set[str]:
    return {f for f, opt in FLUX_OPTION.items() if opt in given}


def contradiction(it: Item, req: Request, given: dict[str, list[str]], sentinel: str) -> str:
    """Why ``it`` is not written: the script's #flux: lines already give its field
    differently ("" when they do not, or agree)."""
    for f in it.fields:
        if f in SHAPE or FLUX_OPTION.get(f) not in given:
            continue
        ours = [w.partition("=")[2] or w.partition(" ")[2] for w in words(req, f)]
        theirs = given[FLUX_OPTION[f]]
        if ours and [_unquote(v) for v in ours] != theirs[-len(ours) :]:
            return (
                f"the script's {sentinel} lines already give --{FLUX_OPTION[f]}="
                f"{theirs[-1]}: left as it is"
            )
    return ""


def _unquote(word: str) -> str:
    split = directives._split(word)
    if isinstance(split, str) or len(split) != 1:
        return word
    return split[0][0]
