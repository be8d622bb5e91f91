"""A Slurm, LSF or PBS batch script converted to a Flux batch script that runs the same job.

:func:`convert` reads the scheduler's directive block into one request
(:mod:`.model`), chooses the Flux allocation that keeps what each node gets, and writes:

- each directive line as the `#flux:` options of what it asked, in place (its trailing
  comment kept); the job's size and shape on the line of the first option that gave it;
- what Flux cannot express as the original directive, a comment to Flux, with a warning;
- launch lines (`srun`, `jsrun`, `lrun`, `mpirun`/`mpiexec`, `aprun`) as `flux run` with the
  same task count and layout (:mod:`.launch`);
- the scheduler's variables in the body as their Flux equivalents, or flagged (:mod:`.body`).

Every other byte stays. A script that already has `#flux:` lines keeps them: what they give
is not written again, and a directive that would contradict them stays as it is, with a
warning — so converting a converted script changes nothing.
"""

from __future__ import annotations

import functools
import re
from types import ModuleType

from jobspec_lsp.fluxcli import argv, model, values
from jobspec_lsp.job import directives
from jobspec_lsp.migrate import body, launch, lsf, pbs, slurm
from jobspec_lsp.migrate.model import (
    FLUX_TIME_MAX,
    SHAPE,
    Edit,
    Finding,
    Item,
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
from jobspec_lsp.text.edits import apply as apply_edits

SCHEDULERS: dict[str, ModuleType] = {"slurm": slurm, "lsf": lsf, "pbs": pbs}
ALIASES = {"sbatch": "slurm", "bsub": "lsf", "qsub": "pbs", "torque": "pbs"}

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


class Conversion(Record):
    __slots__ = (
        "scheduler", "text", "edits", "findings", "lines", "moved", "request", "shape",
        "refused",
    )  # fmt: skip
    scheduler: str  # slurm | lsf | pbs | "" (nothing to convert)
    text: str
    edits: list[Edit]
    findings: list[Finding]
    lines: dict[int, str]  # directive offset -> its new text
    moved: set[int]  # lines whose options went to the size line
    request: Request | None
    shape: Shape | None
    refused: str  # why the script is not converted at all

    def __init__(
        self,
        scheduler: str,
        text: str,
        edits: list[Edit],
        findings: list[Finding],
        lines: dict[int, str] | None = None,
        moved: set[int] | None = None,
        request: Request | None = None,
        shape: Shape | None = None,
        refused: str = "",
    ) -> None:
        self.scheduler = scheduler
        self.text = text
        self.edits = edits
        self.findings = findings
        self.lines = {} if lines is None else lines
        self.moved = set() if moved is None else moved
        self.request = request
        self.shape = shape
        self.refused = refused

    @property
    def changed(self) -> bool:
        return bool(self.edits)


def found(text: str) -> list[str]:
    """The schedulers whose directive lines ``text`` holds."""
    return [n for n, mod in SCHEDULERS.items() if mod.SENTINEL_ANYWHERE.search(text)]


def detect(text: str) -> str:
    """The scheduler whose directives ``text`` holds ("" when none, or several: then
    which to convert is the user's choice, ``--from``)."""
    got = found(text)
    return got[0] if len(got) == 1 else ""


def scheduler(name: str) -> ModuleType:
    return SCHEDULERS[ALIASES.get(name, name)]


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


@functools.lru_cache(maxsize=64)
def convert(text: str, source: str = "auto") -> Conversion:
    """``text`` converted from ``source`` (slurm, lsf, pbs, or auto: detected)."""
    name = detect(text) if source == "auto" else ALIASES.get(source, source)
    if not name:
        several = found(text)
        if len(several) > 1:
            why = (
                f"the script holds directives of {' and '.join(several)}: say which to "
                f"convert (--from {several[0]})"
            )
            return Conversion("", text, [], [Finding("refused", 0, 0, why)], refused=why)
        return Conversion("", text, [], [])
    mod = SCHEDULERS[name]
    blk: Block = mod.block(text)
    req = Request()
    findings = _read(mod, blk, req)
    mod.finish(req)
    sentinel, given = _flux_given(text)
    sentinel = sentinel or "#flux:"
    for at in blk.late:
        word = mod.SENTINEL.match(text, at)
        end = word.end() if word else at + 1
        findings.append(
            Finding(
                "late",
                at,
                end,
                mod.LATE,
            )
        )
    het = [it for line in blk.lines for it in line.items if it.reader == "het"]
    if het:
        why = (
            f"a heterogeneous job ({het[0].name}): its components ask different resources, "
            "which one Flux batch job cannot; convert each component as its own script "
            "(or start them inside one allocation with flux run)"
        )
        findings.append(Finding("refused", het[0].start, het[0].end, why))
        return Conversion(name, text, [], findings, request=req, refused=why)
    if "refused" in req.extra:  # a size no single Flux shape holds (PBS a+b chunks)
        return _size_refused(name, text, req, findings)
    _flux_size(req, given)
    sh = shape(req)
    sized = any(f in req.sources for f in SHAPE)
    flux_sized = bool(given.keys() & {"nodes", "nslots", "cores-per-slot", "gpus-per-slot"})
    shape_words = list(sh.words)
    shape_conflict = ""
    if flux_sized:
        mine = _shape_words(sh)
        missing = []
        for opt, val in mine.items():
            agree = _agrees(given, opt, val)
            if agree is False:
                long = _SHAPE_OPTIONS[opt]
                shape_conflict = (
                    f"the script's {sentinel} lines already give --{long}={given[long][-1]}; "
                    f"this asks {opt} {val}: left as it is"
                )
            elif agree is None:
                missing.append(f"{opt} {val}".rstrip())
        shape_words = missing if sized else []
    edits: list[Edit] = []
    replaced: dict[int, str] = {}
    moved: set[int] = set()
    shape_done = False
    emitted: set[str] = set()
    shape_sources = [req.sources[f] for f in SHAPE if f in req.sources]
    first_shape_line = None
    if shape_sources and not shape_conflict:
        first = min(it.start for it in shape_sources)
        first_shape_line = next(ln for ln in blk.lines if ln.start <= first <= ln.end)
    first_line = next((ln for ln in blk.lines if ln.items or ln.bad), None)
    for line in blk.lines:
        flux: list[str] = []
        lost: list[str] = []
        kept: list[tuple[int, str]] = [(a, text[a:b]) for a, b in line.bad]
        for it in line.items:
            shown = text[it.start : it.end]
            if it.ignored:
                findings.append(Finding("note", it.start, it.end, f"{shown}: {it.ignored}"))
                continue
            if it.kept:
                kind = "bad" if it.error else "kept"
                whole = it.whole or not it.value
                a, b = (it.start, it.end) if whole else (it.value_start, it.value_end)
                findings.append(Finding(kind, a, b, f"{shown}: {it.problem}; kept as written"))
                kept.append((it.start, shown))
                continue
            conflict = _conflict(it, req, given, sentinel) or (
                shape_conflict if any(f in SHAPE for f in it.fields) else ""
            )
            if conflict:
                findings.append(Finding("kept", it.start, it.end, f"{shown}: {conflict}"))
                kept.append((it.start, shown))
                continue
            for note in it.notes:
                findings.append(Finding("note", it.start, it.end, f"{shown}: {note}"))
            for warning in it.warnings:
                findings.append(Finding("approx", it.start, it.end, f"{shown}: {warning}"))
            if it.lost:
                findings.append(
                    Finding(
                        "kept",
                        it.start,
                        it.end,
                        f"{shown}: partly carried: {'; '.join(it.lost)}; the original is "
                        "kept as a comment",
                    )
                )
                lost.append(shown)
            for f in it.fields:
                if f in SHAPE:
                    if line is first_shape_line and not shape_done:
                        flux = shape_words + flux
                        shape_done = True
                elif req.sources.get(f) is it and f not in emitted and f not in _given(given):
                    flux.extend(words(req, f))
                    emitted.add(f)
        if line is first_shape_line and not shape_done:
            flux = shape_words + flux
            shape_done = True
        if line is first_line and not given:  # a first conversion: nothing of Flux's yet
            for fld, value, why in mod.defaults(req):
                if getattr(req, fld) is None and FLUX_OPTION[fld] not in given:
                    setattr(req, fld, value)
                    flux.extend(words(req, fld))
                    findings.append(
                        Finding("note", line.start, line.start + len(line.sentinel), why)
                    )
        if not sized and not flux_sized and not shape_done and line is first_line:
            flux = shape_words + flux  # the scheduler's default size: Flux needs one
            shape_done = True
            findings.append(
                Finding(
                    "note",
                    line.start,
                    line.start + len(line.sentinel),
                    f"no node or task count: {mod.COMMAND}'s default is one task "
                    f"({' '.join(sh.words)}), written here (flux batch needs a size)",
                )
            )
        if not line.items and not line.bad:
            continue
        if kept and not flux and len(kept) == len(line.items) + len(line.bad):
            continue  # nothing converts: the line stays as it is
        trailing = text[line.words_end : line.end]
        if trailing.startswith("#"):  # a comment glued to the last word: a blank for Flux
            trailing = " " + trailing
        parts = []
        if flux:
            parts.append(f"{sentinel} " + " ".join(flux) + trailing)
        if kept:
            ws = " ".join(w for _, w in sorted(kept))
            parts.append(f"{line.sentinel} {ws}" + ("" if flux else trailing))
        if lost:
            parts.append(f"# not carried: {line.sentinel} " + " ".join(lost))
        if not parts and trailing.strip():
            parts.append(trailing.strip())  # the line's own comment stays
        new = "\n".join(parts)
        if not parts and any(f in SHAPE for it in line.items for f in it.fields):
            moved.add(line.start)
        if new:
            edits.append(Edit(line.start, line.end, new))
        else:
            cut = _after_newline(text, line.end)
            edits.append(Edit(line.start, cut, ""))
        replaced[line.start] = new
    if blk.lines:
        edits.extend(_dedent_comments(text, blk))
    if not text.startswith("#!"):
        edits.append(Edit(0, 0, mod.SHELL + "\n"))
        findings.append(
            Finding(
                "note",
                0,
                0,
                f"no #! line: flux batch needs one; {mod.SHELL} is written, the shell "
                f"{mod.COMMAND} runs such a script with",
            )
        )
    if first_line is None and not sized and not flux_sized:
        # only late directives (the scheduler ignores them): its defaults, before the body
        at = blk.first_command
        more: list[str] = []
        if not given:
            for fld, value, _why in mod.defaults(req):
                if getattr(req, fld) is None:
                    setattr(req, fld, value)
                    more.extend(words(req, fld))
        edits.append(Edit(at, at, f"{sentinel} {' '.join(sh.words + more)}\n"))
    started = mod.start_directory(text, req)
    if started and first_line is not None:
        findings.append(
            Finding("note", first_line.start, first_line.start + len(first_line.sentinel), started)
        )
    for fld, note in sh.notes:
        src = req.sources.get(fld) or (shape_sources[0] if shape_sources else None)
        if src is not None:
            findings.append(
                Finding("approx", src.start, src.end, f"{text[src.start : src.end]}: {note}")
            )
    after = blk.first_command
    if blk.lines:
        last = blk.lines[-1].end
        after = _after_newline(text, last)
    body_edits, body_findings = body.convert(
        text, mod, sh, blk.first_command, given, after, sentinel
    )
    launch_edits, launch_findings, kept = launch.convert(text, mod, sh, blk.first_command)
    # a launch line left as it is keeps its words: its variables said, not rewritten
    edits.extend(e for e in body_edits if not any(a <= e.start < b for a, b in kept))
    findings.extend(body_findings)
    edits.extend(launch_edits)
    findings.extend(launch_findings)
    edits = _line_ends(text, _merge(edits))
    out = apply_edits(text, edits)
    assert out is not None  # _merge leaves no overlap
    return Conversion(name, out, edits, findings, replaced, moved, req, sh)


def _size_refused(name: str, text: str, req: Request, findings: list[Finding]) -> Conversion:
    """A job whose size no single Flux shape holds: refused at the option that asks it."""
    it, why = req.extra["refused"]
    findings = [f for f in findings if not it.start <= f.start < it.end]
    findings.append(Finding("refused", it.start, it.end, why))
    return Conversion(name, text, [], findings, request=req, refused=why)


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


_INDENTED_COMMENT = re.compile(r"[ \t]+(?=#)")


def _dedent_comments(text: str, blk: Block) -> list[Edit]:
    """Flux stops reading directives at the first line that does not start with `#` once
    they have started, so an indented comment among the directives (`  # memory`) would
    orphan the `#flux:` lines after it: its indentation goes."""
    out = []
    first, last = blk.lines[0].start, blk.lines[-1].end
    for m in _INDENTED_COMMENT.finditer(text, first, last):
        if m.start() == 0 or text[m.start() - 1] == "\n":
            out.append(Edit(m.start(), m.end(), ""))
    return out


def _given(given: dict[str, list[str]]) -> set[str]:
    return {f for f, opt in FLUX_OPTION.items() if opt in given}


def _conflict(it: Item, req: Request, given: dict[str, list[str]], sentinel: str) -> str:
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


def _after_newline(text: str, end: int) -> int:
    """The start of the line after the one ending at ``end`` (its CR LF or LF passed);
    ``end`` itself at the end of a last line without a newline."""
    if text.startswith("\r\n", end):
        return end + 2
    return end + 1 if text.startswith("\n", end) else end


def _line_ends(text: str, edits: list[Edit]) -> list[Edit]:
    """The lines the conversion writes, ended as the script ends its own: CR LF in a script
    of CR LF lines (a bare LF there would leave a CR glued to the line before: Flux would
    read the directive as part of that line, or not at all); and a line inserted at the end
    of a script whose last line has no newline starts on a line of its own."""
    crlf = text.count("\r\n") * 2 > text.count("\n")
    eol = "\r\n" if crlf else "\n"
    out = []
    for e in edits:
        new = _BARE_LF.sub("\r\n", e.text) if crlf else e.text
        if new and e.start == e.end == len(text) and text and not text.endswith("\n"):
            new = eol + new
        out.append(e if new == e.text else Edit(e.start, e.end, new))
    return out


_BARE_LF = re.compile(r"(?<!\r)\n")


def _merge(edits: list[Edit]) -> list[Edit]:
    """Sorted, and without overlaps (a later edit inside an earlier one is dropped)."""
    out: list[Edit] = []
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        if out and e.start < out[-1].end:
            continue
        out.append(e)
    return out


_ANY = re.compile(r"^#(?:SBATCH|BSUB|PBS)(?=[ \t\r]|$)", re.M)


def has_directives(text: str) -> bool:
    """Whether ``text`` holds a Slurm, LSF or PBS directive line."""
    return ("#SBATCH" in text or "#BSUB" in text or "#PBS" in text) and bool(_ANY.search(text))
