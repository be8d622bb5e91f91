"""The allocation sized so that every step the script runs can start (issue 35).

A batch script's directives and its launch lines need not agree: `#SBATCH -N 1 -n 16` with
`srun -n 16 -c 4` asks 16 CPUs and starts 64 — it runs where the site gives whole nodes
(Cori's KNL nodes), and Flux refuses the converted step as unsatisfiable. Where a converted
`flux run` needs more cores or GPUs than the directives' allocation holds (in all, or on
each node for a step with a node count: :func:`jobspec_lsp.job.steps.need`), the
allocation's slots grow to hold it — the same nodes and slots, more cores or GPUs in each —
and a warning at the directives says so, and which step asked it. Steps whose counts the
shell gives when they run are not judged; whole nodes (``-x``) hold any step that fits
their node count."""

from __future__ import annotations

import bisect
import re
import shlex

from jobspec_lsp.fluxcli.argv import Word
from jobspec_lsp.job.steps import Allocation, Step, need
from jobspec_lsp.migrate import body
from jobspec_lsp.migrate.model import Finding
from jobspec_lsp.record import Record

__all__ = [
    "Assignments", "Held", "Known", "divides", "grown", "held_options", "resolved",
    "written_step",
]  # fmt: skip

# the count options a `flux run` this conversion writes may hold: `-n4`, `-n ${N}`
_COUNT = re.compile(r"(-N|-n|-c|-g|--tasks-per-node=|--cores=|--gpus-per-node=)\s?(\S.*)")
_FIELD = {
    "-N": "nodes",
    "-n": "tasks",
    "-c": "cores",
    "-g": "gpus",
    "--tasks-per-node=": "per_node",
    # Flux's per-resource form (tasks sharing their node's GPUs): with --tasks-per-node a
    # step's need is each node's (jobspec_lsp.job.steps.need), so its cores are counted
    # on each node below and its GPUs are the node's
    "--cores=": "cores",
    "--gpus-per-node=": "gpus",
}


def _count(value: str) -> int | str:
    return int(value) if value.isdigit() else value


_WORD = re.compile(r"\$(?:\{(\w+)\}|(\w+))")


_ASSIGN = re.compile(
    r"""^[ \t]*(?:export[ \t]+)?([A-Za-z_]\w*)=("[^"\n]*"|'[^'\n]*'|\S*)[ \t]*(?:#.*)?$""",
    re.M,
)
_EXPANDS = re.compile(r"[$`\\]")  # what makes a double-quoted value the shell's to give
_GLOB = re.compile(r"[*?\[]")


def _value(written: str) -> str | None:
    """An assignment's value as the shell gives it where that is fixed: quotes read; None
    where the shell computes it (`$X`, a command, an escape)."""
    if written[:1] == "'":
        return written[1:-1]
    inner = written[1:-1] if written[:1] == '"' else written
    if _EXPANDS.search(inner) or (written[:1] != '"' and ("'" in inner or '"' in inner)):
        return None
    return inner


class Assignments:
    """Each variable's assignments in a script (``NRANKS=8``, ``export N=2``), read once:
    the counts a step's shell words resolve to (:meth:`before` a step)."""

    def __init__(self, text: str) -> None:
        by_name: dict[str, list[tuple[int, str | None]]] = {}
        self.dashed: set[str] = set()  # names given a value that starts with an option
        for m in _ASSIGN.finditer(text):
            by_name.setdefault(m.group(1), []).append((m.start(), _value(m.group(2))))
            if m.group(2).lstrip("\"'").startswith("-"):
                self.dashed.add(m.group(1))
        # each name: where it is assigned, its first value, how many assignments give it
        # before another value comes (a query is a bisection, however long the script)
        self.by_name: dict[str, tuple[list[int], str | None, int]] = {}
        for name in body.changed(text).intersection(by_name):
            del by_name[name]  # a loop's, read or incremented: not one number
        for name, got in by_name.items():
            first = got[0][1]
            same = next((i for i, (_, v) in enumerate(got) if v != first), len(got))
            self.by_name[name] = ([p for p, _ in got], first, same)

    def before(self, at: int) -> Known:
        return Known(self, at)


class Known:
    """The variables a script gives one number before a place (each time the same)."""

    def __init__(self, table: Assignments, at: int) -> None:
        self.table, self.at = table, at

    def get(self, name: str) -> int | None:
        got = self.text(name)
        return int(got) if got is not None and got.isdigit() else None

    def text(self, name: str) -> str | None:
        """The value the script gives ``name`` here, where it is one fixed text."""
        entry = self.table.by_name.get(name)
        if entry is None:
            return None
        places, first, same = entry
        given = bisect.bisect_left(places, self.at)
        return first if 0 < given <= same else None


def text_of(words: list[str]) -> str:
    """Words as the shell reads them back, each quoted as needed."""
    return " ".join(shlex.quote(x) for x in words)


_OPTIONS_NAME = re.compile(r"(?i)opt|flag|arg|param")  # MPIRUN_OPTIONS, SRUN_ARGS, ...


class Held(Record):
    """A launcher's leading words that are variables (``mpirun $MPIRUN_OPTIONS ./a``):
    the words with each one the script gives options expanded (field splitting, as the
    shell does), the variables' words kept for `flux run` (options whose value the script
    does not give), and what was read."""

    __slots__ = ("words", "expanded", "kept", "notes")
    words: list[Word]
    expanded: set[int]  # indices of the words a variable gave
    kept: list[Word]  # as written: `$MPIRUN_OPTIONS`
    notes: list[str]

    def __init__(self, words: list[Word]) -> None:
        self.words, self.expanded, self.kept, self.notes = list(words), set(), [], []

    def program(self, k: int) -> tuple[int, str]:
        """Where the line's own words go on after the launcher and its options (word ``k``
        is the program), and the program's words a variable gave, written out as the shell
        splits them (`EXEC="-n 2 ./app --sql"`, `srun ${EXEC} X` → `flux run -n2 ./app
        --sql X`): the variable is one fixed text without a pattern, so they are its words."""
        w = self.words[k]
        if k not in self.expanded:
            return w.start, ""
        given = [x.value for i, x in enumerate(self.words) if i >= k and x.start == w.start]
        return w.end, text_of(given)

    def findings(self, tool: str) -> list[Finding]:
        """A warning at each variable kept: what it holds is flux run's to read now."""
        why = (
            "{} stays before the program, where flux run reads the options it holds as its "
            f"own (the shell gives them when the step runs): where it holds {tool}'s, write "
            "them as flux run's"
        )
        return [Finding("approx", w.start, w.end, why.format(w.value)) for w in self.kept]


def held_options(text: str, words: list[Word], known: Known) -> Held:
    """The variables a launcher's words start with, read (:class:`Held`): a value the
    script assigns that starts with an option is the launcher's options; a name that says
    it holds options (`*OPTIONS`, `*FLAGS`, `*ARGS`) whose value the script does not give
    is kept as written; any other is the program, and ends the leading words."""
    out = Held([])
    for k, w in enumerate(words):
        m = _WORD.fullmatch(text[w.start : w.end])
        if m is None:
            out.words += words[k:]
            break
        name = m.group(1) or m.group(2)
        value = known.text(name)
        fields = value.split() if value is not None else None
        options = fields is not None and (not fields or fields[0][:1] == "-")
        if options and not any(_GLOB.search(x) for x in fields or ()):
            out.expanded.update(range(len(out.words), len(out.words) + len(fields or ())))
            out.words += [Word(x, w.start, w.end) for x in fields or ()]
            said = "the options of ${} read" if fields else "${} empty"
            out.notes.append(said.format(name) + " as the script assigns it")
        elif (
            options or name in known.table.dashed or (fields is None and _OPTIONS_NAME.search(name))
        ):
            out.kept.append(Word(text[w.start : w.end], w.start, w.end))
        else:
            out.words += words[k:]
            break
    return out


def resolved(word: str, known: Known | dict[str, int]) -> int | None:
    """The number a count given by one shell word (``$N``, ``${N}``, ``"$N"``) has where
    the script assigns it one (``known``), else None."""
    m = _WORD.fullmatch(word.strip('"'))
    return known.get(m.group(1) or m.group(2)) if m else None


def divides(total: int | str, among: int | str, known: Known | dict[str, int]) -> bool | None:
    """Whether ``total`` divides among ``among``, words read as the script assigns them;
    None when a word is not one of those."""
    t = total if isinstance(total, int) else resolved(total, known)
    a = among if isinstance(among, int) else resolved(among, known)
    return None if t is None or not a else t % a == 0


def written_step(options: list[str], known: Known | dict[str, int] | None = None) -> Step:
    """What a `flux run` the conversion wrote asks, read back from its options; a count
    that is one shell word the script assigns a number (``known``) is that number."""
    step = Step()
    all_cores = False
    for o in options:
        m = _COUNT.fullmatch(o)
        if m:
            value = m.group(2)
            number = resolved(value, known or {})
            setattr(step, _FIELD[m.group(1)], number if number is not None else _count(value))
            all_cores = all_cores or m.group(1) == "--cores="
    if all_cores and isinstance(step.cores, int) and isinstance(step.nodes, int) and step.nodes:
        step.cores = -(-step.cores // step.nodes)  # the cores of each node
    return step


def _size(words: list[str]) -> dict[str, int | str]:
    """The size a shape's `flux batch` words give (``-N 2``, ``-n 8``, ``-c 2``, ``-g 1``)."""
    out: dict[str, int | str] = {}
    for w in words:
        flag, _, value = w.partition(" ")
        if flag in ("-N", "-n", "-c", "-g") and value:
            out[flag] = _count(value)
    return out


def _allocation(size: dict[str, int | str]) -> Allocation | None:
    counts = [size.get(f, 1) for f in ("-n", "-c")] + [size.get("-g", 0)]
    nodes = size.get("-N")
    if not all(isinstance(c, int) for c in counts) or not isinstance(nodes, (int, type(None))):
        return None
    slots, c, g = (int(x) for x in counts)
    return Allocation(nodes, slots * c, slots * g, "")


def grown(words: list[str], steps: list[Step]) -> tuple[list[str], Step | None]:
    """``words`` (a shape's `flux batch` words) with each slot's cores and GPUs raised so
    that every step in ``steps`` fits, and the step that asked the most; unchanged (and
    None) when they fit, or when the allocation is whole nodes or not known exactly."""
    if "-x" in words:
        return words, None
    size = _size(words)
    alloc = _allocation(size)
    if alloc is None:
        return words, None
    slots, nodes = int(size.get("-n", 1)), size.get("-N")
    c, g = int(size.get("-c", 1)), int(size.get("-g", 0))
    new_c, new_g, largest = c, g, None
    for step in steps:
        n = need(step, alloc)
        if n is None or (n.cores <= (n.have_cores or 0) and n.gpus <= (n.have_gpus or 0)):
            continue
        # slots that share the need: all of them, or each node's (where they divide)
        share = slots if not n.where else slots // nodes if isinstance(nodes, int) else 0
        if not share or (n.where and slots % int(nodes or 1)):
            continue
        want_c, want_g = max(new_c, -(-n.cores // share)), max(new_g, -(-n.gpus // share))
        if (want_c, want_g) != (new_c, new_g):
            new_c, new_g, largest = want_c, want_g, step
    if largest is None:
        return words, None
    out = [w for w in words if w.partition(" ")[0] not in ("-c", "-g")]
    at = next((i + 1 for i, w in enumerate(out) if w.startswith("-n ")), len(out))
    more = ([f"-c {new_c}"] if new_c > 1 else []) + ([f"-g {new_g}"] if new_g else [])
    return out[:at] + more + out[at:], largest
