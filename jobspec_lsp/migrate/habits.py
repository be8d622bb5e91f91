"""A `#flux:` directive block that holds another scheduler's options: a Slurm (or LSF,
PBS) script whose sentinel was renamed (`#SBATCH` → `#flux:`), the commonest broken Flux
script (issue 39).

:func:`plan` reads each one-line directive twice: as `flux batch` reads it (the words it
refuses: an unknown option, a value it cannot read, the words it drops) and as each
scheduler reads it (its getopt, :mod:`.reading`). An option of the scheduler's that holds
a word Flux refuses is a *habit*; the scheduler whose reading finds the most (the most
options Flux does not have at all first) is the script's. In a script that evidently is
that scheduler's (it holds options only the scheduler has), the options Flux reads with
another meaning (``OTHER_MEANING``: Slurm's -o is --output, Flux's --setopt) are habits
too. :func:`edits` writes a chosen set of habits as the conversion writes them
(:func:`.convert.block_words`): each option's Flux words in place, the job's shape (with
the block's own Flux -N/-n/-c/-g/-x read as the scheduler's) on the first line that gives
any of it, what Flux cannot carry as a `# not carried: ... (why)` comment line.
"""

from __future__ import annotations

import functools

from jobspec_lsp.fluxcli import argv, model, values
from jobspec_lsp.fluxcli.argv import Given, Word
from jobspec_lsp.job import directives
from jobspec_lsp.job.directives import ORPHAN, SENTINEL_CHANGED, Directive
from jobspec_lsp.job.steps import DEFAULT_SIZE
from jobspec_lsp.migrate import convert, reading, slurm
from jobspec_lsp.migrate.model import SHAPE, Edit, Item
from jobspec_lsp.record import Record
from jobspec_lsp.text.edits import line_before

OWNER = {"slurm": "Slurm", "lsf": "LSF", "pbs": "PBS"}
ORDER = ("slurm", "lsf", "pbs")  # a tie goes to the first

# Flux's own shape options as the scheduler writes them: the block's -N/-n/-c/-g/-x read
# as the scheduler's when the job's shape is written again (declared for Slurm only: the
# others' shape options do not map one to one)
AS_SCHEDULER = {
    "slurm": {
        "nodes": "--nodes={}",
        "nslots": "--ntasks={}",
        "cores-per-slot": "--cpus-per-task={}",
        "gpus-per-slot": "--gpus-per-task={}",
        "exclusive": "--exclusive",
    }
}

# declared table: the options Flux reads whose name the scheduler gives another meaning
# (what each is to the scheduler, and to Flux); read as the scheduler's only in a script
# that evidently is the scheduler's, where the conversion writes them otherwise
OTHER_MEANING = {
    "slurm": {
        "-o": ("--output", "--setopt, a shell option"),
        "-q": ("--qos", "--queue"),
        "-x": ("--exclude", "--exclusive"),
        "-B": ("--extra-node-info", "--bank"),
        "-S": ("--core-spec", "--setattr"),
        "--output": ("--output with its file name patterns", "a file name as written"),
        "--error": ("--error with its file name patterns", "a file name as written"),
    },
    "lsf": {
        "-o": ("-o with its file name patterns", "--setopt, a shell option"),
        "-B": ("-B, mail when the job starts", "--bank"),
    },
    "pbs": {"-o": ("-o, the output file", "--setopt, a shell option")},
}


class Habit(Record):
    """One option of the scheduler's in a `#flux:` directive."""

    __slots__ = (
        "name", "start", "end", "directive", "refused", "foreign", "shape", "status", "why",
        "flux", "safe", "broken", "fields",
    )  # fmt: skip
    name: str  # as written
    start: int  # its words in the script
    end: int
    directive: int  # the index of its directive in Plan.directives
    refused: bool  # Flux refuses a word of it (else Flux reads it with another meaning)
    foreign: bool  # its name is not an option of flux batch
    shape: bool  # it gives the job's size or shape
    status: str  # carried | lost (partly carried) | not-carried | nothing (nothing to carry)
    why: str  # not carried: why; partly: what is lost
    flux: list[str]  # its Flux words, alone (a shape option: the job's shape)
    safe: bool  # its fix keeps the scheduler's meaning, unambiguously
    broken: bool  # the scheduler refuses it too: the conversion keeps it as written
    fields: list[str]  # what it sets in the request (the model's fields)

    def __init__(self, name: str, start: int, end: int, directive: int, **kw: object) -> None:
        self.name, self.start, self.end, self.directive = name, start, end, directive
        self.refused = self.foreign = self.shape = self.safe = self.broken = False
        self.status, self.why, self.flux, self.fields = "carried", "", [], []
        for k, v in kw.items():
            setattr(self, k, v)


class Plan(Record):
    """The habits of a script's `#flux:` block, read as one scheduler's."""

    __slots__ = (
        "text", "scheduler", "directives", "habits", "broken", "evident", "own", "shape",
        "shape_safe", "sized",
    )  # fmt: skip
    text: str
    scheduler: str
    directives: list[Directive]  # the one-line directives read
    habits: list[Habit]
    broken: list[Habit]  # words Flux and the scheduler both refuse (habits when evident)
    evident: bool  # the block holds options Flux does not have
    own: bool  # ... and that no other scheduler has either: then the script is this one's
    shape: list[str]  # the job's shape as the fix writes it ([]: no shape habit, or no fix)
    shape_safe: bool
    sized: bool  # the block gives a size: Flux's -N/-n read cleanly, or a shape habit

    def __init__(self, text: str, scheduler: str, found: list[Directive]) -> None:
        self.text, self.scheduler, self.directives = text, scheduler, found
        self.habits, self.broken, self.shape, self.shape_safe = [], [], [], False
        self.evident = self.own = self.sized = False

    @property
    def scheduler_command(self) -> str:
        return convert.SCHEDULERS[self.scheduler].COMMAND

    def at(self, start: int, end: int) -> Habit | None:
        """The habit whose words hold ``start``..``end``."""
        return next((h for h in self.habits if h.start <= start and end <= h.end), None)


class _Read(Record):
    """One directive as Flux reads it: its words, which of them Flux refuses, and the
    options it reads cleanly."""

    __slots__ = ("directive", "refused", "clean")
    directive: directives.Directive
    refused: list[bool]  # per word
    clean: list[Given]

    def __init__(self, directive, refused, clean) -> None:
        self.directive, self.refused, self.clean = directive, refused, clean

    @property
    def source(self) -> tuple[int, int]:
        words = self.directive.words
        return words[0].start, words[-1].end


def _flux_read(d: directives.Directive) -> _Read:
    """The words of ``d`` that `flux batch` refuses (an unknown option, a value it cannot
    read, the words it drops) and the options it reads without a problem."""
    words = d.words
    lead = next((k for k, w in enumerate(words) if w.value.startswith("-")), len(words))
    if lead:  # Flux refuses the directive for its first words: the options after them
        got = _flux_read(directives.Directive(d.line, d.start, d.end, words[lead:]))
        return _Read(d, [True] * lead + got.refused, got.clean)
    reading = argv.read(model.command("batch"), words)
    spans = [(p.start, p.end) for p in reading.problems]
    spans += [(w.start, w.end) for w in reading.rest]
    read = values.read_values(reading.given)
    bad: list[Given] = []
    for k, g in enumerate(reading.given):
        if g.value is not None and k in read:
            why = values.value_problem(g.option, g.value)
            if why and not isinstance(why, values.Limit):
                bad.append(g)
                spans += [(g.name.start, g.name.end), (g.value_start, g.value_end)]
    refused = [any(a < w.end and w.start < b for a, b in spans) for w in words]
    clean = [g for g in reading.given if g not in bad and not _touches(g, words, refused)]
    return _Read(d, refused, clean)


def _touches(g: Given, words: list[Word], refused: list[bool]) -> bool:
    a, b = g.name.start, max(g.name.end, g.value_end)
    return any(r and w.start < b and a < w.end for w, r in zip(words, refused))


@functools.lru_cache(maxsize=16)
def plan(text: str) -> Plan | None:
    """The habits of ``text``'s `#flux:` block (None: it holds none)."""
    script = directives.read(text)
    if script.sentinel is None:
        return None
    reads = [
        _flux_read(d)
        for d in script.directives
        if d.words and "\n" not in text[d.words[0].start : d.words[-1].end]
    ]
    _block_refusals(reads)
    if not any(any(r.refused) for r in reads):
        return None
    best = _best(text, reads)
    if best is None:
        return None
    _settle(best, reads)
    return best


def _best(text: str, reads: list[_Read]) -> Plan | None:
    """The habits of the scheduler whose reading finds the most: the most options Flux
    does not have first, then the most options (a tie: the first of ``ORDER``)."""
    best: Plan | None = None
    score = (0, 0)
    for name in ORDER:
        got = _habits(text, name, reads)
        mine = (sum(h.foreign for h in got.habits), len(got.habits))
        if mine > score:
            best, score = got, mine
    return best


def _block_refusals(reads: list[_Read]) -> None:
    """The size Flux refuses as a whole (JS581 -x without -N, JS582 more nodes than slots)
    marked refused: a scheduler may give it a meaning (Slurm: one node; as many nodes as
    tasks)."""
    last: dict[str, tuple[_Read, Given]] = {}
    for r in reads:
        for g in r.clean:
            last[g.option.long] = (r, g)
    marked = []
    if "exclusive" in last and "nodes" not in last:
        marked.append(last["exclusive"])
    nodes, slots = last.get("nodes"), last.get("nslots")
    if nodes and slots:
        n, s = values.count(nodes[1].value or "", 1), values.count(slots[1].value or "", 1)
        if n and s and n > s:
            marked.append(nodes)
    for r, g in marked:
        a, b = g.name.start, max(g.name.end, g.value_end)
        for k, w in enumerate(r.directive.words):
            if a <= w.start < b:
                r.refused[k] = True
        r.clean.remove(g)


def _sources(text: str, reads: list[_Read]) -> tuple[str, ...]:
    return tuple(text[slice(*r.source)] for r in reads)


def _habits(text: str, name: str, reads: list[_Read]) -> Plan:
    """The options of scheduler ``name`` that hold a word Flux refuses."""
    out = Plan(text, name, [r.directive for r in reads])
    block = convert.block_words(_sources(text, reads), name)
    if block.refused:
        return out
    for k, (r, line) in enumerate(zip(reads, block.lines)):
        base = r.source[0]
        words = r.directive.words
        spans: list[tuple[int, int, Item | None]]
        spans = [(it.start, it.end, it) for it in line.items if it.reader != "het"]
        spans += [(a, b, None) for a, b in line.bad]
        for start, end, it in spans:
            a, b = base + start, base + end
            if not any(x for w, x in zip(words, r.refused) if a <= w.start and w.end <= b):
                continue
            if it is None or it.error:  # the scheduler refuses it too
                why = next((f.message for f in line.findings if f.kind == "bad"
                            and start <= f.start < end), it.problem if it else "")  # fmt: skip
                what = text[a:b].partition("=")[0].split()[0]
                h = Habit(what, a, b, k, refused=True, broken=True, status="not-carried", why=why)
                out.broken.append(h)
                continue
            written = _written(text[a:b], it.name)
            foreign = model.command("batch").by_name(written) is None
            out.habits.append(Habit(written, a, b, k, refused=True, foreign=foreign))
    return out


def _written(source: str, name: str) -> str:
    """An option's name as written (getopt takes ``--out`` for ``--output``)."""
    return source.partition("=")[0].split()[0] if source.startswith("--") else name


def _settle(p: Plan, reads: list[_Read]) -> None:
    """The plan made whole: in an evident script the options of another meaning added;
    each habit's Flux words, status and safety; the job's shape."""
    p.evident = any(h.foreign for h in p.habits)
    others = [convert.SCHEDULERS[n].TABLE for n in ORDER if n != p.scheduler]
    p.own = any(h.foreign and not any(h.name in t for t in others) for h in p.habits)
    if p.evident:
        p.habits.extend(_other_meaning(p, reads) + p.broken)
        p.habits.sort(key=lambda h: h.start)
    for h in p.habits:
        if not h.broken:
            _alone(p, h)
    shaped = [h for h in p.habits if h.shape]
    if shaped:
        got = _convert(p, reads, frozenset((h.start, h.end) for h in p.habits))
        if got is not None:
            p.shape, notes = got[1], got[2]
            p.shape_safe = not notes and all(h.safe for h in shaped)
    for h in shaped:
        h.flux = list(p.shape)
        h.safe = h.safe and p.shape_safe
    sizes = ("nodes", "nslots", "resources-shape", "resources-json")
    p.sized = bool(shaped) or any(g.option.long in sizes for r in reads for g in r.clean)


def _other_meaning(p: Plan, reads: list[_Read]) -> list[Habit]:
    """The options Flux reads cleanly whose name the scheduler gives another meaning,
    where the conversion writes them otherwise than Flux reads them."""
    table = OTHER_MEANING.get(p.scheduler, {})
    block = convert.block_words(_sources(p.text, reads), p.scheduler)
    out = []
    for k, (r, line) in enumerate(zip(reads, block.lines)):
        base = r.source[0]
        for it in line.items:
            a, b = base + it.start, base + it.end
            if it.name not in table or it.error or p.at(a, b) is not None:
                continue
            alone = convert.block_words((p.text[a:b],), p.scheduler).lines[0]
            if _flux_reading(" ".join(alone.flux)) != _flux_reading(p.text[a:b]):
                out.append(Habit(it.name, a, b, k))
    return out


def _flux_reading(words: str) -> list[tuple[str, str | None]] | None:
    split = directives._split(words)
    if isinstance(split, str):
        return None
    ws = [Word(v, s, e) for v, s, e in split]
    reading = argv.read(model.command("batch"), ws)
    return [(g.option.long, g.value) for g in reading.given] + [("", w.value) for w in reading.rest]


def _alone(p: Plan, h: Habit) -> None:
    """``h`` converted on its own: its Flux words, status, and whether that is safe (its
    name unambiguous, no approximation, no other scheduler reading it otherwise)."""
    source = p.text[h.start : h.end]
    line = convert.block_words((source,), p.scheduler).lines[0]
    it = next((i for i in line.items if i.start == 0), None)
    if it is None:
        h.status, h.why = "not-carried", "not read"
        return
    h.shape = any(f in SHAPE for f in it.fields)
    h.flux, h.fields = list(line.flux), list(it.fields)
    if it.ignored:
        h.status, h.why = "nothing", it.ignored
    elif it.kept:
        h.status, h.why = "not-carried", it.problem
    elif it.lost:
        h.status, h.why = "lost", "; ".join(it.lost)
    approx = any(f.kind in ("approx", "kept") for f in line.findings) or bool(it.warnings)
    h.safe = (
        h.refused
        and h.status in ("carried", "nothing")
        and not approx
        and (h.foreign or _unambiguous_value(p.scheduler, it))
        and (p.own or not _read_otherwise(p.scheduler, source, line.flux))
    )


def _unambiguous_value(scheduler: str, it: Item) -> bool:
    """Whether an option Flux has too (-t) holds a value only the scheduler's reading
    gives a meaning: Slurm's [D-]HH:MM:SS (MM:SS could be meant as hours and minutes)."""
    value = it.value or ""
    if scheduler == "slurm" and it.name in ("-t", "--time"):
        return value.count(":") == 2 or "-" in value
    return False


def _read_otherwise(scheduler: str, source: str, flux: list[str]) -> bool:
    """Whether another scheduler reads ``source`` cleanly into other Flux words (an option
    name two schedulers give different meanings: then which was meant is a guess)."""
    for other in ORDER:
        if other == scheduler:
            continue
        line = convert.block_words((source,), other).lines[0]
        if line.bad or any(i.error or i.kept for i in line.items):
            continue
        if all(i.ignored for i in line.items):
            continue  # nothing to carry: not a reading that competes
        if line.flux != flux:
            return True
    return False


class _Unit(Record):
    """A span of a directive the fix writes again: a habit, or one of Flux's own shape
    options (as the scheduler writes it) when the job's shape is written again."""

    __slots__ = ("start", "end", "words", "habit")
    start: int
    end: int
    words: str  # as the scheduler reads it
    habit: Habit | None

    def __init__(self, start: int, end: int, words: str, habit: Habit | None) -> None:
        self.start, self.end, self.words, self.habit = start, end, words, habit


def _units(p: Plan, reads: list[_Read], chosen: frozenset[tuple[int, int]]):
    """Per directive, the units the fix writes again (None: the shape cannot be)."""
    habits = [h for h in p.habits if (h.start, h.end) in chosen]
    shaped = any(h.shape for h in habits)
    units: list[list[_Unit]] = [[] for _ in reads]
    for h in habits:
        units[h.directive].append(_Unit(h.start, h.end, p.text[h.start : h.end], h))
    if shaped:
        table = AS_SCHEDULER.get(p.scheduler)
        for k, r in enumerate(reads):
            for g in r.clean:
                if g.option.long not in _FLUX_SHAPE:
                    continue
                a, b = g.name.start, max(g.name.end, g.value_end)
                if any(u.start <= a < u.end for u in units[k]):
                    continue  # held by a habit (Slurm's -x node1 holds Flux's -x)
                if table is None or not _own_word(r.directive, g):
                    return None
                units[k].append(_Unit(a, b, table[g.option.long].format(g.value), None))
    for u in units:
        u.sort(key=lambda x: x.start)
    return units


_FLUX_SHAPE = ("nodes", "nslots", "cores-per-slot", "gpus-per-slot", "exclusive")


def _own_word(d: directives.Directive, g: Given) -> bool:
    """Whether ``g``'s words hold nothing else (not one of a group of flags, -xN2)."""
    return g.name.value.startswith("--") or len(g.name.value) == 2 or g.value is not None


def _convert(p: Plan, reads: list[_Read], chosen: frozenset[tuple[int, int]]):
    """(units, shape words, shape notes, converted block) of the chosen habits; None
    where they cannot be written (the block refused, the shape not writable)."""
    units = _units(p, reads, chosen)
    if units is None:
        return None
    block = convert.block_words(tuple(" ".join(u.words for u in us) for us in units), p.scheduler)
    if block.refused or block.shape is None:
        return None
    if any(u.habit is not None and u.habit.shape for us in units for u in us):
        return units, list(block.shape.words), [n for _, n in block.shape.notes], block
    return units, [], [], block


def edits(text: str, chosen: frozenset[tuple[int, int]]) -> list[Edit] | None:
    """The edits that write the chosen habits (their spans) as Flux's, each where it stands
    (so a list Flux adds up, --dependency or --env, keeps the order the scheduler read):
    an option as the conversion writes it, the job's shape on the first that gives any of
    it, what Flux cannot carry as a `# not carried: WORDS (why)` line after its directive
    (a directive left with no word becomes that line). None where they cannot be written."""
    p = plan(text)
    if p is None:
        return None
    reads = [_flux_read(d) for d in p.directives]
    got = _convert(p, reads, chosen)
    if got is None:
        return None
    units, shape = got[0], got[1]
    shaped = [u for us in units for u in us if u.habit is None or u.habit.shape]
    first = min(shaped, key=lambda u: u.start) if shaped else None
    out: list[Edit] = []
    eol = "\r\n" if text.count("\r\n") * 2 > text.count("\n") else "\n"
    m = directives.SENTINEL.match(directives.read(text).sentinel or "#flux:")
    mark = (m.group(1).rstrip() if m else "") or "#"
    later = _overridden([u.habit for us in units for u in us if u.habit is not None])
    for r, us in zip(reads, units):
        if us:
            words = {id(u): _words(u, first, shape, later) for u in us}
            out.extend(_directive_edits(text, r, us, words, mark, eol))
    return out


# the request's fields that add up (the others: the last one given is the job's)
_LISTS = ("dependencies", "requires", "env")


def _overridden(hs: list[Habit]) -> set[int]:
    """The habits whose every field a later one sets again (the conversion writes a field
    once, from its last source: `--begin` twice is one --begin-time)."""
    out, seen = set(), set()
    for h in sorted(hs, key=lambda h: -h.start):
        own = [f for f in h.fields if f not in _LISTS and f not in SHAPE]
        if own and all(f in seen for f in own) and len(own) == len(h.fields):
            out.add(id(h))
        seen.update(own)
    return out


def _words(u: _Unit, first: _Unit | None, shape: list[str], later: set[int]) -> list[str]:
    """The Flux words a unit is written as: the shape at the first that gives any of it;
    nothing for an option a later one sets again."""
    if u.habit is None or u.habit.shape:
        return list(shape) if u is first else []
    return [] if id(u.habit) in later else list(u.habit.flux)


def _directive_edits(
    text: str, r: _Read, us: list[_Unit], words: dict, mark: str, eol: str
) -> list[Edit]:
    """One directive written again: its units replaced by their Flux words, the other words
    as they are, the words not carried as comment lines."""
    comments = [
        f"{mark} not carried: {text[u.start : u.end]} ({u.habit.why})"
        for u in us
        if u.habit is not None and (u.habit.broken or u.habit.status in ("not-carried", "lost"))
    ]
    ws = r.directive.words
    new: list[str] = []
    for w in ws:
        u = next((u for u in us if u.start <= w.start < u.end), None)
        if u is None:
            new.append(text[w.start : w.end])
        elif w.start == min(x.start for x in ws if u.start <= x.start < u.end):
            new.extend(words[id(u)])
    first, last = ws[0].start, ws[-1].end
    line_start = text.rfind("\n", 0, first) + 1
    line_end = r.directive.end
    trailing = text[last:line_end].strip()
    if new:
        out = [Edit(first, last, " ".join(new))]
        if comments:
            out.append(Edit(line_end, line_end, eol + eol.join(comments)))
        return out
    if comments:
        said = eol.join(comments) + (f" {trailing}" if trailing else "")
        return [Edit(line_start, line_end, said)]
    if trailing:
        return [Edit(line_start, line_end, trailing)]
    after = line_end + (2 if text.startswith("\r\n", line_end) else 1)
    return [Edit(line_start, min(after, len(text)), "")]


def owner_of(name: str):
    """(scheduler, its option) for an option name another scheduler has (Slurm's long
    names abbreviated as its getopt takes them), or None."""
    for scheduler in ORDER:
        table = convert.SCHEDULERS[scheduler].TABLE
        if name in table:
            return scheduler, table[name]
    full = reading._prefix(name, slurm.TABLE) if name.startswith("--") else None
    return ("slurm", slurm.TABLE[full]) if full else None


Found = list  # [(title, [(start, end, text)], preferred, unsafe)]: the fixes of a habit


def fixes(text: str, h: Habit) -> Found:
    """The fixes of habit ``h``: the block's habits written as Flux's, all of them
    (preferred; unsafe where one is), the safe ones only where that differs (preferred:
    what `check --fix` applies), and ``h`` alone (with its shape group) where the block
    holds more."""
    p = plan(text)
    if p is None:
        return []
    owner = OWNER[p.scheduler]
    every = _writable(p, p.habits)
    whole = edits(text, _spans(every)) if h in every else None
    if whole is None:
        return []
    n = len(every)
    title = f"Write the block's {owner} options as Flux's ({n}), as `jobspec convert` does"
    unsafe = not all(x.safe for x in every)
    script = directives.read(text)
    a, b = script.sentinel_span
    late = any(x.code in (SENTINEL_CHANGED, ORPHAN) for x in script.problems)  # a size?
    if not p.sized and not late and "#" in text[a:b]:  # the scheduler's default (a guess)
        whole = [Edit(*line_before(text, a, f"{text[a:b]} {DEFAULT_SIZE}")), *whole]
        title += f", with {DEFAULT_SIZE}, {p.scheduler_command}'s default size"
        unsafe = True
    out: Found = [(title, whole, True, unsafe)]
    safe = [x for x in every if x.safe]
    if unsafe and h.safe and safe:
        got = edits(text, _spans(safe))
        if got is not None:
            title = f"Write the {owner} options whose meaning is certain as Flux's ({len(safe)})"
            out.append((title, got, True, False))
    mine = [x for x in every if x is h or (h.shape and x.shape)]
    if len(mine) < len(every):
        got = edits(text, _spans(mine))
        if got is not None:
            said = " ".join(h.flux) or "a comment"
            title = f"Write {text[h.start : h.end]} as Flux's: {said}"
            out.append((title, got, False, not all(x.safe for x in mine)))
    return [(t, [list(e) for e in es], pre, u) for t, es, pre, u in out]


def _spans(hs: list[Habit]) -> frozenset[tuple[int, int]]:
    return frozenset((h.start, h.end) for h in hs)


def _writable(p: Plan, hs: list[Habit]) -> list[Habit]:
    """The habits a fix can write: all, or without the shape ones where the block's shape
    cannot be written as Flux's."""
    if any(h.shape for h in hs) and not p.shape:
        return [h for h in hs if not h.shape]
    return list(hs)
