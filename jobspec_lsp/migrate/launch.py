"""Launch lines — `srun`, `jsrun`, `lrun`, `mpirun`/`mpiexec`, `aprun` — as `flux run` with
the same task count and layout.

Each launcher's options are declared once (``LAUNCHERS``): how many values it takes and
what it becomes. A launcher given no task count starts what the scheduler's allocation
holds, so its `flux run` gets the allocation's layout (:attr:`Shape.run`) — without it
`flux run` would start one task. A line with an option we do not know, or one Flux has no
form for, is left as it is, with a warning at that word.

References: srun(1) https://slurm.schedmd.com/srun.html; jsrun (IBM Job Step Manager)
https://www.ibm.com/docs/en/spectrum-lsf/10.1.0?topic=jsrun; LLNL lrun
https://hpc.llnl.gov/documentation/user-guides/using-lc-s-sierra-systems; mpirun of Open MPI
https://docs.open-mpi.org/en/v5.0.x/man-openmpi/man1/mpirun.1.html and MPICH's Hydra mpiexec
https://www.mpich.org/static/docs/latest/www1/mpiexec.html; Cray aprun(1)
https://pubs.cray.com/ (aprun -n width, -N per node, -d depth).
"""

from __future__ import annotations

import re
from types import ModuleType

from jobspec_lsp.fluxcli import shell
from jobspec_lsp.fluxcli.argv import Word
from jobspec_lsp.migrate.body import Text
from jobspec_lsp.migrate.launchers import (
    LAUNCHERS,
    Count,
    Refuse,
    Run,
    arith,
    ceil_div,
    is_dynamic,
    mul,
    opt,
)
from jobspec_lsp.migrate.model import Edit, Finding, Shape
from jobspec_lsp.record import Record

_START = re.compile(r"(?<![\w./$-])(srun|jsrun|lrun|mpirun|mpiexec(?:\.hydra)?|aprun)(?=[ \t]|$)")
_PREFIX_WORDS = re.compile(r"(?:(?:\w+=\S*|exec|time|nohup|command|then|do|else|!)\s+)*$")
_COMMAND_STARTS = ("$(", "`", "(", "|", ";", "&", "{")


def _at_command(text: str, ls: int, at: int) -> bool:
    """Whether ``at`` stands where a command starts: the line's start, or after an
    operator, `$(`, a backquote, and any assignments or prefix words (exec, time, ...)."""
    before = text[ls:at]
    m = _PREFIX_WORDS.search(before)
    rest = before[: m.start() if m else len(before)].rstrip()
    return rest == "" or rest.endswith(_COMMAND_STARTS)


class Launch(Record):
    __slots__ = ("tool", "start", "program", "options", "notes")
    tool: str
    start: int
    program: int  # where the program's word starts (the rest of the line stays)
    options: list[str]  # the flux run options
    notes: list[str]

    def __init__(
        self, tool: str, start: int, program: int, options: list[str], notes: list[str]
    ) -> None:
        self.tool = tool
        self.start = start
        self.program = program
        self.options = options
        self.notes = notes


def _read(tool: str, words: list[Word], sh: Shape) -> tuple[Run, int]:
    """The options of a launcher's words; returns them and the program word's index."""
    table = LAUNCHERS[tool]
    run = Run()
    i = 0
    while i < len(words):
        v = words[i].value
        if not v.startswith("-") or v == "-":
            break
        if v == "--":
            i += 1
            break
        name, eq, val = v.partition("=")
        spec = table.get(name) if v not in table else table[v]
        if v in table:
            name, eq, val = v, "", ""
        if spec is None and not eq and len(v) > 2 and v[:2] in table and v[1] != "-":
            name, val, eq = v[:2], v[2:], "attached"
            spec = table[name]
        if spec is None:
            raise Refuse(f"{tool} option {name!r} is not one the conversion knows")
        count, do = spec
        if count == 0:
            do(run, "")
            i += 1
            continue
        if eq:
            do(run, val)
            i += 1
            continue
        if i + count >= len(words):
            raise Refuse(f"{name} needs a value")
        do(run, " ".join(w.value for w in words[i + 1 : i + 1 + count]))
        i += 1 + count
    return run, i


def _options(tool: str, run: Run, sh: Shape) -> list[str]:
    """The `flux run` options for what ``run`` asks, the allocation filling the gaps."""
    if tool == "jsrun":
        _jsrun(run, sh)
    out: list[str] = []
    given_size = run.tasks or run.nodes or run.per_node
    if not given_size:  # the allocation's tasks, each with the cores and GPUs it asks
        base = [o for o in sh.run if not (run.cores and o.startswith("-c"))]
        base = [o for o in base if not (run.gpus and o.startswith("-g"))]
        if run.cores:
            base.append(opt("-c", run.cores))
        if run.gpus:
            base.append(opt("-g", run.gpus))
        return base + run.extra
    nodes, tasks = _layout(tool, run, sh)
    if nodes:
        out.append(opt("-N", nodes))
    out.append(opt("-n", tasks))
    cores = run.cores or (sh.cores_per_task if tool in ("srun",) else None)
    if cores and (not isinstance(cores, int) or cores > 1):
        out.append(opt("-c", cores))
    if run.gpus:
        out.append(opt("-g", run.gpus))
    return out + run.extra


def _jsrun(run: Run, sh: Shape) -> None:
    """jsrun's resource sets as tasks, nodes and each task's cores and GPUs."""
    a = run.rs_tasks or 1
    if run.tasks and not run.rs:
        run.rs = ceil_div(run.tasks, a)
    if run.rs is None:
        if not run.rs_per_host:
            raise Refuse(
                "no -n: jsrun then starts as many resource sets as the nodes' cores "
                "hold, which depends on the machine; give -n"
            )
        run.rs = mul(run.rs_per_host, sh.nodes or 1)
        run.notes.append(f"no -n: {run.rs_per_host} resource sets on each of the job's nodes")
    run.tasks = run.tasks or mul(run.rs, a)
    if run.rs_cores and not (isinstance(run.rs_cores, int) and isinstance(a, int)):
        run.cores = run.rs_cores if a == 1 else f"$(( {arith(run.rs_cores)} / {arith(a)} ))"
    elif isinstance(run.rs_cores, int) and isinstance(a, int) and run.rs_cores:
        if run.rs_cores % a == 0:
            run.cores = run.rs_cores // a
        else:
            run.notes.append(
                f"{run.rs_cores} cores per resource set do not divide among its {a} "
                f"tasks: each task gets {max(1, run.rs_cores // a)}"
            )
            run.cores = max(1, run.rs_cores // a)
    if run.rs_gpus and not (isinstance(run.rs_gpus, int) and isinstance(a, int)):
        run.gpus = run.rs_gpus if a == 1 else f"$(( {arith(run.rs_gpus)} / {arith(a)} ))"
    elif isinstance(run.rs_gpus, int) and isinstance(a, int) and run.rs_gpus:
        if run.rs_gpus % a == 0:
            run.gpus = run.rs_gpus // a
        else:
            run.notes.append(
                f"{run.rs_gpus} gpus per resource set are shared by its {a} tasks: "
                "Flux gives gpus per task, so they share the node's"
            )
    if run.rs_per_host:
        run.nodes = ceil_div(run.rs, run.rs_per_host)
        even = all(isinstance(x, int) for x in (run.rs, run.rs_per_host, a))
        if even and run.rs % run.rs_per_host == 0:  # type: ignore[operator]
            run.per_node = mul(run.rs_per_host, a)


def _layout(tool: str, run: Run, sh: Shape) -> tuple[Count | None, Count]:
    """(nodes, tasks) of a step: the per-node layout carried as a node count, since Flux
    spreads ``-n`` tasks over ``-N`` nodes as evenly as they go, in blocks (`-n 2
    --ntasks-per-node=1` → `-N2 -n2`, `aprun -n 32 -N 8` → `-N4 -n32`); a layout Flux
    spreads otherwise is said in a note."""
    nodes, tasks, per = run.nodes, run.tasks, run.per_node
    if tasks is None and per:
        nodes = nodes or sh.nodes or 1
        tasks = mul(nodes, per)
    if tasks is None:
        tasks = (sh.tasks if nodes == sh.nodes else nodes) if nodes is not None else 1
    if per and nodes is None:
        nodes = ceil_div(tasks, per)
    if not all(isinstance(x, int) for x in (nodes or 1, tasks, per or 1)):
        return nodes, tasks  # known when the step runs: Flux spreads them the same way
    assert isinstance(tasks, int) and (nodes is None or isinstance(nodes, int))
    if nodes and nodes > tasks:
        run.notes.append(
            f"{nodes} nodes for {tasks} tasks: as {tool} does, {tasks} node(s) are used"
        )
        nodes = tasks
    if per and nodes and -(-tasks // nodes) != per:
        run.notes.append(
            f"{per} tasks per node: Flux spreads {tasks} tasks over {nodes} nodes, "
            f"{-(-tasks // nodes)} on each but the last"
        )
    return nodes, tasks


# a launch line held in a variable to run later: COMMAND="mpiexec -n 8 ./app" (ALCF's
# examples), JSRUN="jsrun ..." (WarpX's); the variable's text is converted in place
_HELD = re.compile(
    r"(?:^|[\s;&|(])(?:(?:export|local|readonly|declare(?:\s+-\w+)*)\s+)?\w+=\"$", re.M
)


def _held_end(text: str, start: int) -> int | None:
    """Where the double-quoted string holding a launcher that starts at ``start`` ends."""
    i = start
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == '"':
            return i
        if c in "`" or text.startswith("$(", i):
            return None  # a command inside: not read here
        i += 1
    return None


def find(text: str, skip: Text | None = None) -> list[tuple[str, int, list[Word], set[int], int]]:
    """(tool, start, words after it, dynamic word indexes, end) of each launch line, and
    of each launch line held in a variable (``CMD="srun -n 4 ./a"``)."""
    where = skip or Text(text)
    out = []
    for m in _START.finditer(text):
        at = m.start()
        ls = text.rfind("\n", 0, at) + 1
        if where.in_comment(at) or where.in_literal(at):
            continue
        if _HELD.search(text, ls, at):
            close = _held_end(text, m.end())
            if close is None:
                continue
            words, dynamic, _ = shell.split(text[:close], m.end())
            out.append((m.group(1), at, words, dynamic, -close))  # held: its end negated
            continue
        if not _at_command(text, ls, at):
            continue
        words, dynamic, end = shell.split(text, m.end())
        out.append((m.group(1), at, words, dynamic, end))
    return out


_VAR_WORD = re.compile(r"(?<!\\)\$(?:\{(\w+)\}|(\w+))")


def _as_written(text: str, w: Word) -> Word:
    """A word holding a `$` as the script writes it (escapes kept), unless it is quoted
    whole (`"--ntasks=$N"`: its value, the option's name unquoted)."""
    raw = text[w.start : w.end]
    if "$" not in raw or raw.startswith(("'", '"')):
        return w
    return Word(raw, w.start, w.end)


def _resolve(text: str, words: list[Word], dynamic: set[int], mod: ModuleType, sh: Shape):
    """The scheduler's figures in the words (`-n $SLURM_NTASKS`, `--ntasks=$SLURM_NTASKS`,
    `-n$LSB_DJOB_NUMPROC`) read as the figure the directives give, as the conversion
    writes it in the body; other variables stay words."""
    # a word the shell expands is carried as written (`\$N` in a here-document stays so)
    out = [_as_written(text, w) for w in words]
    still = set(dynamic)

    def figure(m: re.Match) -> str:
        how = mod.VARIABLES.get(m.group(1) or m.group(2), (None, ""))[0]
        if how and how.startswith("{"):
            return how.format(tasks=sh.tasks, nodes=sh.nodes or 1, cores_per_task=sh.cores_per_task)
        return m.group(0)

    for i in dynamic:
        value = _VAR_WORD.sub(figure, out[i].value)
        if value != out[i].value:
            out[i] = Word(value, words[i].start, words[i].end)
            if not is_dynamic(value):
                still.discard(i)
    return out, still


def convert(text: str, mod: ModuleType, sh: Shape, body: int):
    """Edits turning each launch line into `flux run`, findings, and the spans of the lines
    left as they are (nothing in them is to be rewritten: converting twice is once)."""
    edits: list[Edit] = []
    findings: list[Finding] = []
    kept: list[tuple[int, int]] = []
    if not any(t in text for t in ("srun", "jsrun", "lrun", "mpirun", "mpiexec", "aprun")):
        return edits, findings, kept
    for tool, at, words, dynamic, end in find(text):
        if at < body:
            continue
        end_tool = at + len(tool)
        held = end < 0  # in a variable: its options, the program given where it is run
        try:
            words, dynamic = _resolve(text, words, dynamic, mod, sh)
            run, k = _read(tool, words, sh)
            if k >= len(words) and not held:
                raise Refuse("no program to run")
            opts = _options(tool, run, sh)
        except Refuse as why:
            kept.append((at, abs(end)))
            findings.append(
                Finding(
                    "launch", at, end_tool, f"{tool}: {why}; left as it is (convert it by hand)"
                )
            )
            continue
        if k >= len(words):  # a held launcher's options alone
            edits.append(Edit(at, -end, "flux run " + " ".join(opts)))
        else:
            edits.append(Edit(at, words[k].start, "flux run " + " ".join(opts) + " "))
        said = f"{tool} → flux run {' '.join(opts)}"
        for note in run.notes:
            said += f"; {note}"
        findings.append(Finding("command", at, end_tool, said))
    return edits, findings, kept
