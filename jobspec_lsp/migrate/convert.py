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

import bisect
import functools
import re
from types import ModuleType

from jobspec_lsp.migrate import body, fit, launch, lsf, pbs, slurm
from jobspec_lsp.migrate.model import (
    SHAPE,
    Edit,
    Finding,
    Item,
    Line,
    Request,
    Shape,
    words,
)
from jobspec_lsp.migrate.plan import (
    FLUX_OPTION,
    Job,
    contradiction,
    given_fields,
    plan_shape,
    refusal,
)
from jobspec_lsp.migrate.reading import Block
from jobspec_lsp.record import Record
from jobspec_lsp.text.edits import apply as apply_edits

SCHEDULERS: dict[str, ModuleType] = {"slurm": slurm, "lsf": lsf, "pbs": pbs}
ALIASES = {"sbatch": "slurm", "bsub": "lsf", "qsub": "pbs", "torque": "pbs"}


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


@functools.lru_cache(maxsize=64)
def convert(text: str, source: str = "auto") -> Conversion:
    """``text`` converted from ``source`` (slurm, lsf, pbs, or auto: detected): the directive
    block read into one request, the Flux shape planned, each directive line written, then
    the script's head, its body's variables and its launch lines."""
    name = detect(text) if source == "auto" else ALIASES.get(source, source)
    if not name:
        return _no_scheduler(text)
    job = Job(text, SCHEDULERS[name])
    refused = refusal(job)
    if refused:
        return Conversion(name, text, [], job.findings, request=job.req, refused=refused)
    plan_shape(job)
    job.launches = launch.convert(text, job.mod, job.sh, job.blk.first_command)
    _fit_steps(job)
    for line in job.blk.lines:
        _write_line(job, line)
    _write_head(job)
    _write_body(job)
    edits = _line_ends(text, _merge(job.edits))
    out = apply_edits(text, edits)
    assert out is not None  # _merge leaves no overlap
    return Conversion(name, out, edits, job.findings, job.replaced, job.moved, job.req, job.sh)


def _fit_steps(job: Job) -> None:
    """The allocation grown where a converted step needs more cores or GPUs than the
    directives give (:mod:`.fit`), said at the directives that sized it."""
    if job.flux_sized or job.shape_conflict:
        return  # the script's own #flux: size is the user's
    text = job.text
    assigns = job.launches.assigns
    if assigns is None:
        return  # no launch line
    steps = [fit.written_step(opts, assigns.before(a)) for a, _b, opts in job.launches.runs]
    words, largest = fit.grown(job.sh.words, steps)
    if largest is None:
        return
    a, b, opts = next(r for r, s in zip(job.launches.runs, steps, strict=True) if s is largest)
    line = text.count("\n", 0, a) + 1
    src = job.shape_sources[0] if job.shape_sources else None
    at = (src.start, src.end) if src is not None else (0, 0)
    said = (
        f"sized for its largest step (line {line}: flux run {' '.join(opts)}): "
        f"{' '.join(words)}, where the directives give {' '.join(job.sh.words)}; "
        f"{job.mod.COMMAND} runs that step only where the site gives more than the job asks "
        "(whole nodes), and in an allocation of the directives' size Flux would refuse it "
        "as unsatisfiable"
    )
    job.findings.append(Finding("approx", *at, said))
    job.shape_words = list(words)
    job.sh.words = words


def _no_scheduler(text: str) -> Conversion:
    """A script of no scheduler (nothing to do), or of several (refused: say which)."""
    several = found(text)
    if len(several) > 1:
        why = (
            f"the script holds directives of {' and '.join(several)}: say which to "
            f"convert (--from {several[0]})"
        )
        return Conversion("", text, [], [Finding("refused", 0, 0, why)], refused=why)
    return Conversion("", text, [], [])


def _write_line(job: Job, line: Line) -> None:
    """One directive line, written as the `#flux:` options of what it asked (the shape on
    the first line that gave any of it), what Flux refuses kept as written, what it cannot
    carry kept as a comment; the line's own trailing comment stays."""
    flux, lost, kept = _line_items(job, line)
    flux = _line_size_and_defaults(job, line, flux)
    if not line.items and not line.bad:
        return
    as_written = [w for _, w in sorted(kept) if w[:1] != "#"]
    if as_written and not flux and len(as_written) == len(line.items) + len(line.bad):
        return  # nothing converts: the line stays as it is
    text = job.text
    trailing = text[line.words_end : line.end]
    if trailing.startswith("#"):  # a comment glued to the last word: a blank for Flux
        trailing = " " + trailing
    parts = []
    if flux:
        parts.append(f"{job.sentinel} " + " ".join(flux) + trailing)
    if as_written:
        parts.append(f"{line.sentinel} " + " ".join(as_written) + ("" if flux else trailing))
    if lost:
        parts.append(f"# not carried: {line.sentinel} " + " ".join(lost))
    parts.extend(w for _, w in kept if w[:1] == "#")  # said instead of an option
    if not parts and trailing.strip():
        parts.append(trailing.strip())  # the line's own comment stays
    new = "\n".join(parts)
    if not parts and any(f in SHAPE for it in line.items for f in it.fields):
        job.moved.add(line.start)
    if new:
        job.edits.append(Edit(line.start, line.end, new))
    else:
        job.edits.append(Edit(line.start, _after_newline(text, line.end), ""))
    job.replaced[line.start] = new


def _line_items(job: Job, line: Line) -> tuple[list[str], list[str], list[tuple[int, str]]]:
    """(Flux words, words not carried, words kept as written or the comments said instead
    of them) of a directive line's items, each item's findings said at it."""
    text, findings = job.text, job.findings
    flux: list[str] = []
    lost: list[str] = []
    kept: list[tuple[int, str]] = [(a, text[a:b]) for a, b in line.bad]
    for it in line.items:
        shown = text[it.start : it.end]
        if it.ignored:
            findings.append(Finding("note", it.start, it.end, f"{shown}: {it.ignored}"))
            continue
        problem = _kept_problem(job, it, shown)
        if problem is not None:
            findings.append(problem)
            kept.append((it.start, f"# not carried: {it.instead}" if it.instead else shown))
            continue
        for note in it.notes:
            findings.append(Finding("note", it.start, it.end, f"{shown}: {note}"))
        for warning in it.warnings:
            findings.append(Finding("approx", it.start, it.end, f"{shown}: {warning}"))
        if it.lost:
            why = (
                f"{shown}: partly carried: {'; '.join(it.lost)}; the original is kept as a comment"
            )
            findings.append(Finding("kept", it.start, it.end, why))
            lost.append(shown)
        flux = _item_words(job, line, it, flux)
    return flux, lost, kept


def _kept_problem(job: Job, it: Item, shown: str) -> Finding | None:
    """The finding of an item left as written (a value the scheduler refuses, a word with
    no Flux form, a conflict with the script's own `#flux:` lines), or None."""
    if it.instead:  # not written as it was: it would read as Flux's own option
        return Finding("kept", it.start, it.end, f"{it.problem}; written as a comment")
    if it.kept:
        kind = "bad" if it.error else "kept"
        whole = it.whole or not it.value
        a, b = (it.start, it.end) if whole else (it.value_start, it.value_end)
        return Finding(kind, a, b, f"{shown}: {it.problem}; kept as written")
    conflict = contradiction(it, job.req, job.given, job.sentinel) or (
        job.shape_conflict if any(f in SHAPE for f in it.fields) else ""
    )
    if conflict:
        return Finding("kept", it.start, it.end, f"{shown}: {conflict}")
    return None


def _item_words(job: Job, line: Line, it: Item, flux: list[str]) -> list[str]:
    """``flux`` with the Flux words an item writes: the job's shape before the line's
    words (on the first line that gives any of it), or the options of each field it was
    the source of, once."""
    for f in it.fields:
        if f in SHAPE:
            if line is job.first_shape_line and not job.shape_done:
                flux = job.shape_words + flux
                job.shape_done = True
        elif (
            job.req.sources.get(f) is it
            and f not in job.emitted
            and f not in given_fields(job.given)
        ):
            flux = flux + words(job.req, f)
            job.emitted.add(f)
    return flux


def _line_size_and_defaults(job: Job, line: Line, flux: list[str]) -> list[str]:
    """``flux`` with the shape where this line is the one to hold it, and, on the first
    directive line of a first conversion, the scheduler's defaults Flux's differ from."""
    req, mod = job.req, job.mod
    flux = _shape_here(job, line, flux)
    at = (line.start, line.start + len(line.sentinel))
    if line is job.first_line and not job.given:  # a first conversion: nothing of Flux's yet
        for fld, value, why in mod.defaults(req):
            if getattr(req, fld) is None and FLUX_OPTION[fld] not in job.given:
                setattr(req, fld, value)
                flux.extend(words(req, fld))
                job.findings.append(Finding("note", *at, why))
    if not job.sized and not job.flux_sized and not job.shape_done and line is job.first_line:
        flux = job.shape_words + flux  # the scheduler's default size: Flux needs one
        job.shape_done = True
        why = (
            f"no node or task count: {mod.COMMAND}'s default is one task "
            f"({' '.join(job.sh.words)}), written here (flux batch needs a size)"
        )
        job.findings.append(Finding("note", *at, why))
    return flux


def _shape_here(job: Job, line: Line, flux: list[str]) -> list[str]:
    """``flux`` with the job's shape before it where ``line`` is the first to give any."""
    if line is job.first_shape_line and not job.shape_done:
        flux = job.shape_words + flux
        job.shape_done = True
    return flux


class LineWords(Record):
    """One line of :func:`block_words`: the scheduler's options it holds (offsets into the
    line as given), the words it could not read, the `flux batch` words it becomes (the
    job's shape on the first line that gives any of it) and what the conversion says of it
    (:class:`Finding` kinds, offsets into the line)."""

    __slots__ = ("items", "bad", "flux", "findings")
    items: list[Item]
    bad: list[tuple[int, int]]
    flux: list[str]
    findings: list[Finding]

    def __init__(self, items, bad, flux, findings) -> None:
        self.items, self.bad, self.flux, self.findings = items, bad, flux, findings


class BlockWords(Record):
    """:func:`block_words`: each line's reading, the shape planned (None: refused, and
    why), the shape's notes (where Flux's job differs)."""

    __slots__ = ("lines", "shape", "refused")
    lines: list[LineWords]
    shape: Shape | None
    refused: str

    def __init__(self, lines: list[LineWords], shape: Shape | None, refused: str) -> None:
        self.lines, self.shape, self.refused = lines, shape, refused


_SENTINEL_WORD = {"slurm": "#SBATCH", "lsf": "#BSUB", "pbs": "#PBS"}


@functools.lru_cache(maxsize=64)
def block_words(lines: tuple[str, ...], source: str) -> BlockWords:
    """``lines`` (the words of one directive each, as written) read as a directive block of
    ``source``'s (slurm, lsf, pbs), and the `flux batch` words each line becomes, as
    :func:`convert` writes them but without the scheduler's defaults (no default output,
    no default size): what a `#flux:` block that holds another scheduler's options is
    repaired with. Callers do not change what it returns (it is cached)."""
    mod = scheduler(source)
    word = _SENTINEL_WORD[mod.NAME]
    text, starts = mod.SHELL + "\n", []
    for words_of_line in lines:
        starts.append(len(text) + len(word) + 1)
        text += f"{word} {words_of_line}\n"
    job = Job(text, mod)
    refused = refusal(job)
    if not refused:
        plan_shape(job)
    out = []
    found = sorted(job.findings, key=lambda f: f.start)  # each line's found by bisection
    found_at = [f.start for f in found]
    for k, line in enumerate(job.blk.lines):
        flux: list[str] = []
        if not refused:
            flux, _lost, _kept = _line_items(job, line)
            flux = _shape_here(job, line, flux)
        a = bisect.bisect_left(found_at, line.start)
        b = bisect.bisect_right(found_at, line.end)
        out.append(_relative(line, flux, found[a:b], starts[k]))
    return BlockWords(out, None if refused else job.sh, refused)


def _relative(line: Line, flux: list[str], findings: list[Finding], at: int) -> LineWords:
    """A line's reading with its offsets made relative to its words' start ``at``."""
    for it in line.items:
        it.start, it.end = it.start - at, it.end - at
        it.value_start, it.value_end = it.value_start - at, it.value_end - at
    bad = [(a - at, b - at) for a, b in line.bad]
    mine = [Finding(f.kind, f.start - at, f.end - at, f.message) for f in findings]
    return LineWords(line.items, bad, flux, mine)


def _write_head(job: Job) -> None:
    """What the script needs around its directives: the comments between them dedented, a
    `#!` line, a size where only late directives were given, and the notes of the shape."""
    text, mod, req, sh = job.text, job.mod, job.req, job.sh
    if job.blk.lines:
        job.edits.extend(_dedent_comments(text, job.blk))
    if not text.startswith("#!"):
        job.edits.append(Edit(0, 0, mod.SHELL + "\n"))
        why = (
            f"no #! line: flux batch needs one; {mod.SHELL} is written, the shell "
            f"{mod.COMMAND} runs such a script with"
        )
        job.findings.append(Finding("note", 0, 0, why))
    if job.first_line is None and not job.sized and not job.flux_sized:
        # only late directives (the scheduler ignores them): its defaults, before the body
        at = job.blk.first_command
        more: list[str] = []
        if not job.given:
            for fld, value, _why in mod.defaults(req):
                if getattr(req, fld) is None:
                    setattr(req, fld, value)
                    more.extend(words(req, fld))
        job.edits.append(Edit(at, at, f"{job.sentinel} {' '.join(sh.words + more)}\n"))
    started = mod.start_directory(text, req)
    first = job.first_line
    if started and first is not None:
        job.findings.append(
            Finding("note", first.start, first.start + len(first.sentinel), started)
        )
    for fld, note in sh.notes:
        src = req.sources.get(fld) or (job.shape_sources[0] if job.shape_sources else None)
        if src is not None:
            said = f"{text[src.start : src.end]}: {note}"
            job.findings.append(Finding("approx", src.start, src.end, said))


def _write_body(job: Job) -> None:
    """The body: the scheduler's variables (:mod:`.body`) and its launch lines as `flux run`
    (:mod:`.launch`); a launch line left as it is keeps its words, variables included."""
    text, blk = job.text, job.blk
    after = _after_newline(text, blk.lines[-1].end) if blk.lines else blk.first_command
    body_edits, body_findings = body.convert(
        text, job.mod, job.sh, blk.first_command, job.given, after, job.sentinel
    )
    steps = job.launches
    job.edits.extend(e for e in body_edits if not any(a <= e.start < b for a, b in steps.kept))
    job.findings.extend(body_findings)
    job.edits.extend(steps.edits)
    job.findings.extend(steps.findings)


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
