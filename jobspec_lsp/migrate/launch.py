"""Launch lines — `srun`, `jsrun`, `lrun`, `mpirun`/`mpiexec`, `aprun` — as `flux run` with
the same task count and layout.

Each launcher's options are declared once (``LAUNCHERS``): how many values it takes and
what it becomes. A launcher given no task count starts what the scheduler's allocation
holds, so its `flux run` gets the allocation's layout (:attr:`Shape.run`) — without it
`flux run` would start one task. A line with an option we do not know, or one Flux has no
form for, is left as it is, with a warning at that word.

Each launcher's own documentation, which the layouts follow, is cited in :mod:`.launchers`.
"""

from __future__ import annotations

import re
from types import ModuleType

from jobspec_lsp.fluxcli import shell
from jobspec_lsp.fluxcli.argv import Word
from jobspec_lsp.migrate import fit, launchwords, pyxis
from jobspec_lsp.migrate.body import Text
from jobspec_lsp.migrate.launchers import (
    LAUNCHERS,
    Count,
    Refuse,
    Run,
    arith,
    ceil_div,
    mul,
    opt,
)
from jobspec_lsp.migrate.model import Edit, Finding, Shape
from jobspec_lsp.notations import formats
from jobspec_lsp.record import Record

# a launcher's word, named by its path too (`/opt/slurm/bin/srun`, `$MPI_ROOT/bin/mpirun`)
_START = re.compile(
    r"(?<![\w./${}~-])(?:[\w.${}~-]*/)*"
    r"(srun|jsrun|lrun|mpirun|mpiexec(?:\.hydra)?|aprun|ibrun)(?=[ \t]|$|\"(?=[\s;]|$))"
)
_VALUE = r"(?:\"[^\"]*\"|'[^']*'|[^\s\"']+)"
# words that run the command after them: assignments, exec/nohup/..., `time` and GNU
# time's options, stdbuf, timeout, nice, and a variable holding such a wrapper
_PREFIX_WORDS = re.compile(
    r"(?:(?:\w+=\S*|env|exec|nohup|command|then|do|else|!|\$\{?\w+\}?"
    rf"|(?:/usr/bin/)?time(?:\s+(?:-[pva]|--\w+(?:={_VALUE})?|-[fo]\s*{_VALUE}))*"
    rf"|stdbuf(?:\s+-[ioe]\s*{_VALUE}|\s+--\w+={_VALUE})*"
    rf"|timeout(?:\s+-{_VALUE})*\s+{_VALUE}|nice(?:\s+-n\s*{_VALUE}|\s+-\d+)?)\s+)*$"
)
# a launcher asked what it is, not to start a step
_QUERIES = {"--version", "-version", "-V", "--help", "-help", "--usage"}
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


_COUNT_START = set("0123456789$\"'`")


# a count option left last in a held launcher, as flux run's
_DANGLING = {"tasks": "-n", "nodes": "-N", "cores": "-c"}


def _templated(words: list[Word]) -> list[Word]:
    """The words with a template's placeholder written with spaces (`{{ n }}`, which the
    template fills before the shell splits anything) made one word again."""
    out: list[Word] = []
    for w in words:
        last = out[-1] if out else None
        if last is not None and last.value.startswith("{{") and not last.value.endswith("}}"):
            out[-1] = Word(f"{last.value} {w.value}", last.start, w.end)
        else:
            out.append(w)
    return out


def _read(tool: str, words: list[Word], sh: Shape, held: bool = False) -> tuple[Run, int]:
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
        spec = table.get(v) or table.get(name)
        if v in table:
            name, eq, val = v, "", ""
        elif spec is None and len(v) > 2 and v[:2] in table and v[1] != "-":
            # a value attached to its letter (`-n4`, `-bnone`, `-EX=1`); a count's is a
            # number, so `-npersocket` is an option of its own, not -n with "persocket"
            if not getattr(table[v[:2]][1], "count", False) or v[2] in _COUNT_START:
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
            flag = _DANGLING.get(getattr(do, "attr", ""))
            if held and flag:  # `launcher="mpirun -np"`, run as `$launcher 4 ./a`
                run.dangling = flag
                return run, len(words)
            raise Refuse(f"{name} needs a value")
        do(run, " ".join(w.value for w in words[i + 1 : i + 1 + count]))
        i += 1 + count
    return run, i


def _options(tool: str, run: Run, sh: Shape, known: fit.Known | None = None) -> list[str]:
    """The `flux run` options for what ``run`` asks, the allocation filling the gaps
    (``known``: the numbers the script assigns its variables, for what the words decide)."""
    if run.dangling:  # its count given where it runs: nothing of the allocation's
        return [*run.extra, run.dangling]
    if tool == "jsrun":
        _jsrun(run, sh, known if known is not None else {})
    out: list[str] = []
    given_size = run.tasks or run.nodes or run.per_node
    if not given_size and run.relative is not None:
        raise Refuse("-r (a node of the job to start at) without a node or task count")
    if not given_size:  # the allocation's tasks, each with the cores and GPUs it asks
        base = [o for o in sh.run if not (run.cores and o.startswith("-c"))]
        base = [o for o in base if not (run.gpus and o.startswith("-g"))]
        if run.cores:
            base.append(opt("-c", run.cores))
        if run.gpus:
            base.append(opt("-g", run.gpus))
        return base + run.extra
    nodes, tasks = _layout(tool, run, sh)
    if run.share_word and nodes:  # GPUs its tasks share, counts from the shell's words
        per = mul(run.rs_tasks or 1, run.rs_per_host or 1)
        rs, rs_cores = run.rs, run.rs_cores
        all_cores = mul(rs, rs_cores) if rs and rs_cores else mul(tasks, run.cores or 1)
        return [
            opt("-N", nodes), f"--cores={all_cores}", f"--tasks-per-node={per}",
            f"--gpus-per-node={run.share_word}", *run.extra,
        ]  # fmt: skip
    if nodes:
        out.append(opt("-N", nodes))
    out.append(opt("-n", tasks))
    if run.whole:  # a resource set of a host's every core and GPU: the nodes whole
        out.append("-x")
    if run.relative is not None:
        run.extra.append(_ranks(run.relative, nodes, sh))
    cores = run.cores or (sh.cores_per_task if tool in ("srun",) else None)
    # srun: the job's --gpus-per-task (SLURM_GPUS_PER_TASK); else a step's tasks share the
    # job's GPUs on their nodes, as other launchers' do
    gpus = run.gpus or (sh.asked_gpus_per_task if tool == "srun" else None)
    if not gpus and tool != "lrun":
        shared = _shared(run, sh, nodes, tasks, cores)
        if isinstance(shared, list):
            return shared + run.extra
        gpus = shared
    if cores and (not isinstance(cores, int) or cores > 1):
        out.append(opt("-c", cores))
    if gpus:
        out.append(opt("-g", gpus))
    return out + run.extra


def _shared(run: Run, sh: Shape, nodes, tasks, cores) -> Count | list[str] | None:
    """The GPUs of each task where a launcher does not divide its node's among the tasks
    on it (aprun, mpiexec, jsrun's shared sets): their share where it divides, else Flux's
    per-resource options (each node's cores and GPUs one slot its tasks share)."""
    if run.per_node is not None and not (isinstance(nodes, int) and isinstance(tasks, int)):
        node_gpus = run.share or _node_gpus(sh)  # counts known when the step runs
        if not node_gpus:
            return None
        run.notes.append(
            f"each node's {node_gpus} GPUs shared by its tasks: {node_gpus} / (tasks a node) "
            "each, computed when the step runs"
        )
        return f"$(( {node_gpus} / {arith(run.per_node)} ))"
    if nodes is None and sh.nodes == 1:
        nodes = 1  # a job of one node: every step runs on it
    if not (isinstance(nodes, int) and isinstance(tasks, int) and nodes and tasks % nodes == 0):
        return None
    per, node_gpus = tasks // nodes, run.share or _node_gpus(sh)
    if not node_gpus:
        return None
    if node_gpus % per == 0:
        return node_gpus // per
    c = cores or 1
    return _per_node(nodes, per, c, node_gpus) if isinstance(c, int) else None


def _node_gpus(sh: Shape) -> int:
    """The GPUs of each of the job's nodes, where its slots spread them evenly (else 0)."""
    got = dict(w.partition(" ")[::2] for w in sh.words)
    n, slots, g = (formats.ascii_int(got.get(k, "")) for k in ("-N", "-n", "-g"))
    return slots * g // n if n and slots and g and slots * g % n == 0 else 0


def _per_node(nodes: int, per: int, cores: int, gpus: int) -> list[str]:
    """Tasks sharing their node's GPUs (4 tasks, 2 GPUs): Flux's per-resource form, each
    node's cores and GPUs one slot that its tasks share."""
    return [
        f"-N{nodes}", f"--cores={nodes * per * cores}", f"--tasks-per-node={per}",
        f"--gpus-per-node={gpus}",
    ]  # fmt: skip


def _ranks(first: Count, nodes: Count | None, sh: Shape) -> str:
    """srun -r: the step's nodes from the job's ``first``, as a constraint on the batch
    instance's ranks (one a node, in the job's node order)."""
    count = nodes or (sh.nodes - first if sh.nodes and isinstance(first, int) else 1)
    if count == 1:
        return f"--requires=rank:{first}"
    if isinstance(first, int) and isinstance(count, int):
        return f"--requires=rank:{first}-{first + count - 1}"
    return f"--requires=rank:{first}-$(( {arith(first)} + {arith(count)} - 1 ))"


def _jsrun(run: Run, sh: Shape, known: fit.Known | dict[str, int]) -> None:
    """jsrun's resource sets as tasks, nodes and each task's cores and GPUs; a resource
    set of ALL_CPUS/ALL_GPUS takes its host whole, ALL_HOSTS is one on each node."""
    if run.whole or run.all_hosts:
        run.rs_per_host = run.rs_per_host or 1
    if run.all_hosts:
        run.rs = sh.nodes or 1
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
    if run.rs_cores and (word := _shared_word(run.rs_cores, a)) is not None:
        run.cores = word
    elif isinstance(run.rs_cores, int) and isinstance(a, int) and run.rs_cores:
        run.cores = run.rs_cores // a or 1
        if run.rs_cores % a:
            run.notes.append(
                f"{run.rs_cores} cores per resource set do not divide among its {a} "
                f"tasks: each task gets {run.cores}"
            )
    if run.rs_gpus and (word := _shared_word(run.rs_gpus, a)) is not None:
        if fit.divides(run.rs_gpus, a, known) is False:
            run.notes.append(
                f"{run.rs_gpus} gpus per resource set are shared by its {a} tasks (as the "
                "script assigns them): each node's GPUs are one slot its tasks share"
            )
            run.share_word = str(mul(run.rs_gpus, run.rs_per_host or 1))
        else:
            run.gpus = word
    elif isinstance(run.rs_gpus, int) and isinstance(a, int) and run.rs_gpus:
        if not run.rs_gpus % a:
            run.gpus = run.rs_gpus // a
        else:
            run.notes.append(
                f"{run.rs_gpus} gpus per resource set are shared by its {a} tasks: "
                "each node's GPUs are one slot its tasks share"
            )
            if isinstance(run.rs_per_host, int):
                run.share = run.rs_gpus * run.rs_per_host
    if run.rs_per_host:
        run.nodes = ceil_div(run.rs, run.rs_per_host)
        even = all(isinstance(x, int) for x in (run.rs, run.rs_per_host, a))
        if even and run.rs % run.rs_per_host == 0:  # type: ignore[operator]
            run.per_node = mul(run.rs_per_host, a)


def _shared_word(total: Count, a: Count) -> Count | None:
    """``total`` of a resource set shared by its ``a`` tasks, where the shell gives either
    (the word that divides them when the step runs); None when both are numbers."""
    if isinstance(total, int) and isinstance(a, int):
        return None
    return total if a == 1 else f"$(( {arith(total)} / {arith(a)} ))"


# launchers that, given no node count, spread a step over all the job's nodes: srun (its -N
# is the job's SLURM_JOB_NUM_NODES) and LLNL's lrun ("If -N is not given, all nodes in the
# allocation (from bsub) will be used", hpc.llnl.gov, Simple Job Step Launch on CORAL)
_ALL_NODES = ("srun", "lrun")


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
    if tool in _ALL_NODES and nodes is None and isinstance(sh.nodes, int) and sh.nodes > 1:
        nodes = sh.nodes  # the job's nodes when the line gives none, lowered below
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


# commands a launcher is run through: containers it would start inside, tools that read
# the launcher's own processes (under Flux a step's tasks are not the command's children)
_CONTAINERS = {"singularity", "apptainer", "docker", "podman", "shifter", "enroot", "ch-run"}
_TOOLS = {
    "nsys", "ncu", "valgrind", "scan", "scalasca", "ddt", "map", "perf", "hpcrun", "spindle",
    "strace", "ltrace", "gdb", "totalview", "tau_exec", "perf-report", "ssh",
}  # fmt: skip
# tools that run the command they are given and look at its process (and, some of them,
# its children), and launchers whose tasks are not their children (a daemon on each node
# starts them): where the tool saw the launcher's process alone, it sees flux run's alone,
# so the line converts
_PLAIN_TOOLS = {"nsys", "ncu", "valgrind", "perf", "hpcrun", "strace", "ltrace", "tau_exec"}
_REMOTE_LAUNCHERS = {"srun", "jsrun", "lrun", "aprun"}
_SEGMENT = re.compile(r"[;&|(`{]|\$\(|\b(?:then|do|else)\s")


def _wrapper(text: str, ls: int, at: int) -> tuple[str, int]:
    """The command a launcher at ``at`` is run through (`singularity run IMG mpirun`,
    `nsys profile srun`) and where its word starts, or ("", -1)."""
    before = text[ls:at]
    cut = max((m.end() for m in _SEGMENT.finditer(before)), default=0)
    seg = before[cut:]
    if re.sub(r'\\.|[^"]', "", seg).count('"') % 2:
        return "", -1  # inside a string
    first = next((m for m in re.finditer(r"\S+", seg) if "=" not in m.group()), None)
    name = first.group().rsplit("/", 1)[-1] if first else ""
    if name in _CONTAINERS or name in _TOOLS:
        assert first is not None
        return name, ls + cut + first.start()
    return "", -1


def _tool(name: str) -> str:
    return (
        f"run through {name}, which would see flux run's process and not the tasks: write "
        f"{name} after flux run (flux run ... {name} ... ./app)"
    )


def _pals(words: list[Word]) -> bool:
    """An mpiexec of HPE Cray's PALS, by the options only it has (`--depth`, `--cpu-bind`):
    its ranks are started by the PALS daemon of each node, not as mpiexec's children."""
    return any(w.value.partition("=")[0] in ("--depth", "--cpu-bind") for w in words)


def _sees_the_same(text: str, f: Found) -> bool:
    """Whether the tool ``f`` runs through sees under Flux what it saw: the launcher's own
    process, where the launcher's tasks were never its children or the tool does not
    follow children (valgrind without --trace-children=yes, strace/ltrace without -f)."""
    if f.wrapper not in _PLAIN_TOOLS:
        return False
    if f.tool in _REMOTE_LAUNCHERS or _pals(f.words):
        return True
    opts = text[f.wrapper_at : f.at].split()[1:]
    if f.wrapper == "valgrind":
        return "--trace-children=yes" not in opts
    if f.wrapper in ("strace", "ltrace"):
        return not any(re.fullmatch(r"-\w*f\w*", o) for o in opts)
    return False  # nsys, perf, ...: they follow a launcher's local tasks


class Found(Record):
    """A launch line: its tool, where it starts (the path naming the tool, if any), its
    words, which are dynamic, where it ends (negated: held in a variable, `CMD="srun
    ./a"`), the tool's word, and the command it is run through, if any."""

    __slots__ = (
        "tool", "at", "words", "dynamic", "end", "tool_at", "tool_end", "wrapper", "wrapper_at",
    )  # fmt: skip
    tool: str
    at: int
    words: list[Word]
    dynamic: set[int]
    end: int
    tool_at: int
    tool_end: int
    wrapper: str
    wrapper_at: int

    def __init__(
        self, m: re.Match, words: list[Word], dynamic: set[int], end: int, wrapper=("", -1)
    ):
        self.tool, self.at, self.words, self.dynamic = m.group(1), m.start(), words, dynamic
        self.end, self.tool_at, self.tool_end = end, m.start(1), m.end()
        self.wrapper, self.wrapper_at = wrapper


def find(text: str, skip: Text | None = None) -> list[Found]:
    """Each launch line, each launch line held in a variable (``CMD="srun -n 4 ./a"``) and
    each run through another command (`nsys profile srun ./a`)."""
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
            out.append(Found(m, words, dynamic, -close))
            continue
        wrapper = ("", -1)
        if not _at_command(text, ls, at):
            wrapper = _wrapper(text, ls, at)
            if not wrapper[0]:
                continue
        words, dynamic, end = shell.split(text, m.end())
        out.append(Found(m, words, dynamic, end, wrapper))
    return out


class Launches(Record):
    """A script's launch lines converted: the edits, the findings, the spans of the lines
    left as they are (nothing in them is to be rewritten: converting twice is once), and
    each `flux run` written (where its launcher's word is, and its options)."""

    __slots__ = ("edits", "findings", "kept", "runs", "assigns", "named")
    edits: list[Edit]
    findings: list[Finding]
    kept: list[tuple[int, int]]
    runs: list[tuple[int, int, list[str]]]
    assigns: fit.Assignments | None  # the script's variables, where it has launch lines
    named: dict[str, str]  # Pyxis's named containers so far: their images

    def __init__(self) -> None:
        self.edits, self.findings, self.kept, self.runs = [], [], [], []
        self.assigns, self.named = None, {}


def _placed(f: Found, text: str, step: str, lead: fit.Held, k: int, notes: list[str]) -> list[Edit]:
    """The edits that write ``step`` (`flux run OPTIONS `) for a launch line: in place of
    the launcher and its options, or before the container it runs in."""
    if k >= len(lead.words):  # a held launcher's options alone
        return [Edit(f.at, -f.end, step.rstrip())]
    cut, given = lead.program(k)  # a program a variable gave, written out
    if given:
        step += given
        notes.append(f"its program {given} written out as the script assigns it")
    if f.wrapper and _sees_the_same(text, f):
        notes.append(
            f"{f.wrapper} sees flux run's own process, as it saw {f.tool}'s, not the tasks "
            f"(to look at the program, write {f.wrapper} after flux run)"
        )
    elif f.wrapper:  # inside a container: flux run starts the containers, one a task
        notes.append(f"{f.wrapper} now runs in each task, flux run before it")
        return [Edit(f.wrapper_at, f.wrapper_at, step), Edit(f.at, cut, "")]
    return [Edit(f.at, cut, step)]


def convert(text: str, mod: ModuleType, sh: Shape, body: int) -> Launches:
    """Each launch line of ``text`` after ``body`` turned into `flux run` (:class:`Launches`)."""
    out = Launches()
    edits, findings, kept = out.edits, out.findings, out.kept
    if not any(t in text for t in ("srun", "jsrun", "lrun", "mpirun", "mpiexec", "aprun", "ibrun")):
        return out
    subs = launchwords.substitutions(text, mod, sh, body)
    assigns = out.assigns = fit.Assignments(text)
    for f in find(text):
        tool, at, words, end = f.tool, f.at, f.words, f.end
        if at < body or (words and words[0].value in _QUERIES):
            continue  # `mpirun --version` starts no step: it stays as it is
        held = end < 0  # in a variable: its options, the program given where it is run
        try:
            if f.wrapper and f.wrapper not in _CONTAINERS and not _sees_the_same(text, f):
                raise Refuse(_tool(f.wrapper))
            words, _dynamic = launchwords.resolve(text, words, f.dynamic, subs)
            words = _templated(words)  # `-np {{ n }}`: one word
            lead = fit.held_options(text, words, assigns.before(at))  # `srun $OPTS ./a`
            run, k = _read(tool, lead.words, sh, held)
            words = lead.words
            if k >= len(words) and not held:
                raise Refuse("no program to run")
            opts = _options(tool, run, sh, assigns.before(at)) + [w.value for w in lead.kept]
            if run.container is not None:  # srun's Pyxis container: Apptainer in each task
                known, rest = assigns.before(at).text, lead.words[:k]
                findings.append(pyxis.contain(run, out.named, known, [*opts, *sh.words], rest))
            run.notes += lead.notes
            findings += lead.findings(tool)
        except (Refuse, pyxis.NoForm) as why:
            kept.append((at, abs(end)))
            said = f"{tool}: {why}; left as it is (convert it by hand)"
            findings.append(Finding("launch", f.tool_at, f.tool_end, said))
            continue
        step = "flux run " + " ".join(opts) + " " + run.program
        edits += _placed(f, text, step, lead, k, run.notes)
        said = f"{tool} → flux run {' '.join(opts)}"
        for note in run.notes:
            said += f"; {note}"
        findings.append(Finding("command", f.tool_at, f.tool_end, said))
        if not run.dangling:  # a held launcher's count given where it runs: not known here
            out.runs.append((f.tool_at, f.tool_end, opts))
    return out
