"""The request model: what a batch job asks for, whichever scheduler's directives said it.

A scheduler's reader (:mod:`.slurm`, :mod:`.lsf`, :mod:`.pbs`) turns each directive line
into :class:`Item` objects (one option, its words' source range) and sets, through
:meth:`Request.set`, the fields of one :class:`Request`: a node count, a task count, cores
and GPUs per task or per node, a time limit in seconds, a name, output paths already as
Flux templates, and so on. :func:`shape` then chooses the Flux allocation that keeps what
each node gets, and :func:`words` writes each field as `flux batch` options. Nothing here
knows a scheduler's syntax, and nothing knows LSP.
"""

from __future__ import annotations

from jobspec_lsp.job import directives
from jobspec_lsp.record import Frozen, Record, replaced
from jobspec_lsp.text.edits import Change as Edit

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Edit", "Finding", "Item", "Line", "NotCarried", "Request", "Shape", "shape"]

# the fields that together give the job's size and shape: written as one line
SHAPE = (
    "nodes",
    "nodes_max",
    "tasks",
    "tasks_per_node",
    "cores_per_task",
    "cores_per_node",
    "gpus_per_task",
    "gpus_per_node",
    "gpus_total",
    "cpus_per_gpu",
    "tasks_per_gpu",
    "exclusive",
)


class NotCarried(Exception):
    """An option Flux cannot express (``error``: one the scheduler itself refuses)."""

    def __init__(self, message: str, error: bool = False, instead: str = ""):
        super().__init__(message)
        self.message = message
        self.error = error
        self.instead = instead  # what a comment says in the option's place, if not the option


class Finding(Frozen):
    """Something the conversion says about a place in the original text."""

    __slots__ = ("kind", "start", "end", "message", "replace")
    kind: str  # directive | kept | bad | note | late | variable | command | launch | refused
    start: int
    end: int
    message: str
    replace: str | None  # a variable's Flux equivalent, for a fix

    def __init__(
        self, kind: str, start: int, end: int, message: str, replace: str | None = None
    ) -> None:
        put = object.__setattr__
        put(self, "kind", kind)
        put(self, "start", start)
        put(self, "end", end)
        put(self, "message", message)
        put(self, "replace", replace)


class Item(Record):
    """One option of a directive line, as its scheduler reads it."""

    __slots__ = (
        "name", "value", "start", "end", "value_start", "value_end", "reader", "fields",
        "notes", "lost", "problem", "error", "whole", "ignored", "warnings", "instead",
    )  # fmt: skip
    name: str  # as written: --nodes, -n, -l select
    value: str | None
    start: int  # the option's words (name and value)
    end: int
    value_start: int
    value_end: int
    reader: str  # the reader's key in its scheduler's table
    fields: list[str]  # what it set in the request
    notes: list[str]  # carried, with a difference
    lost: list[str]  # parts of it Flux cannot carry
    problem: str  # why it is kept as it is (not carried)
    error: bool  # the scheduler itself refuses it
    whole: bool  # the option as such is not carried (not just its value)
    ignored: str  # nothing to carry (why)
    warnings: list[str]  # carried, with a difference the job may meet (an array's index)
    instead: str  # not carried, and not kept as written either: a comment says this instead

    def __init__(
        self,
        name: str,
        value: str | None,
        start: int,
        end: int,
        value_start: int,
        value_end: int,
        reader: str = "",
        fields: list[str] | None = None,
        notes: list[str] | None = None,
        lost: list[str] | None = None,
        problem: str = "",
        error: bool = False,
        whole: bool = False,
        ignored: str = "",
    ) -> None:
        self.name = name
        self.value = value
        self.start = start
        self.end = end
        self.value_start = value_start
        self.value_end = value_end
        self.reader = reader
        self.fields = [] if fields is None else fields
        self.notes = [] if notes is None else notes
        self.lost = [] if lost is None else lost
        self.problem = problem
        self.error = error
        self.whole = whole
        self.ignored = ignored
        self.warnings = []
        self.instead = ""

    @property
    def kept(self) -> bool:
        return bool(self.problem)


class Line(Record):
    """A directive line: its sentinel, its options, and the words nobody could read."""

    __slots__ = ("start", "end", "words_end", "sentinel", "items", "bad")
    start: int
    end: int  # before the newline
    words_end: int  # after the last word (a trailing comment follows)
    sentinel: str
    items: list[Item]
    bad: list[tuple[int, int]]

    def __init__(
        self,
        start: int,
        end: int,
        words_end: int,
        sentinel: str,
        items: list[Item] | None = None,
        bad: list[tuple[int, int]] | None = None,
    ) -> None:
        self.start = start
        self.end = end
        self.words_end = words_end
        self.sentinel = sentinel
        self.items = [] if items is None else items
        self.bad = [] if bad is None else bad

    @property
    def body_start(self) -> int:
        return self.start + len(self.sentinel)


class Request(Record):
    """What the job asks. ``None``: not asked (the scheduler's default applies)."""

    __slots__ = (
        "nodes", "nodes_max", "tasks", "tasks_per_node", "cores_per_task", "cores_per_node",
        "gpus_per_task", "gpus_per_node", "gpus_total", "cpus_per_gpu", "tasks_per_gpu",
        "exclusive", "time", "queue", "account", "name", "output", "error", "join",
        "dependencies", "begin", "requires", "cwd", "env", "hold", "signal", "urgency", "array",
        "sources", "extra",
    )  # fmt: skip
    nodes: int | None
    nodes_max: int | None  # a range MIN-MAX
    tasks: int | None
    tasks_per_node: int | None
    cores_per_task: int | None
    cores_per_node: int | None  # cores per node beyond tasks x cores (PBS ncpus)
    gpus_per_task: int | None
    gpus_per_node: int | None
    gpus_total: int | None
    cpus_per_gpu: int | None
    tasks_per_gpu: int | None
    exclusive: bool | None
    time: int | None  # seconds
    queue: str | None
    account: str | None
    name: str | None
    output: str | None  # a Flux template
    error: str | None
    join: bool | None  # the error stream into the output (PBS -j oe)
    dependencies: list[str] | None  # Flux dependency URIs (after:ID, afterok:ID)
    begin: str | None  # a Flux --begin-time value
    requires: list[str] | None  # RFC 35 queries, and-ed
    cwd: str | None
    env: list[str] | None  # Flux --env rules
    hold: bool | None
    signal: str | None  # SIG@TIME
    urgency: int | None
    array: str | None  # never carried: Flux has no arrays
    sources: dict[str, Item]  # field -> its last setter
    extra: dict[str, Any]  # a reader's own notes (PBS chunks)

    def __init__(self, **asked: Any) -> None:
        """A request with the fields ``asked`` (by name), every other one not asked."""
        for name in self._fields:
            setattr(self, name, None)
        self.sources, self.extra = {}, {}
        for name, value in asked.items():
            if name not in self._fields:
                raise TypeError(f"a request has no field {name!r}")
            setattr(self, name, value)

    def set(self, item: Item, name: str, value: Any) -> None:
        setattr(self, name, value)
        self.sources[name] = item
        if name not in item.fields:
            item.fields.append(name)

    def add(self, item: Item, name: str, value: str) -> None:
        """Append to a list field (dependencies, requires, env)."""
        got = getattr(self, name) or []
        self.set(item, name, [*got, value])


class Shape(Record):
    """The Flux allocation for a request, and what a launcher inside it starts by default."""

    __slots__ = (
        "words", "run", "notes", "nodes", "tasks", "cores_per_task", "gpus_per_task",
        "asked_gpus_per_task",
    )  # fmt: skip
    words: list[str]  # `flux batch` options
    run: list[str]  # `flux run` options that start the job's tasks as the scheduler did
    notes: list[tuple[str, str]]  # (field, approximation)
    nodes: int | None
    tasks: int
    cores_per_task: int
    gpus_per_task: int
    asked_gpus_per_task: int  # the job's own --gpus-per-task (srun's default: 0, they share)

    def __init__(
        self,
        words: list[str],
        run: list[str],
        notes: list[tuple[str, str]] | None = None,
        nodes: int | None = None,
        tasks: int = 1,
        cores_per_task: int = 1,
        gpus_per_task: int = 0,
    ) -> None:
        self.words = words
        self.run = run
        self.notes = [] if notes is None else notes
        self.nodes = nodes
        self.tasks = tasks
        self.cores_per_task = cores_per_task
        self.gpus_per_task = gpus_per_task
        self.asked_gpus_per_task = 0


def _with(req: Request, **changes: Any) -> Request:
    return replaced(req, **changes)  # type: ignore[return-value]  # a Request's copy


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def shape(req: Request) -> Shape:
    """Flux's allocation for ``req``: slots of one task each where every node's share
    divides evenly; one slot per node holding all of that node's cores and GPUs where it
    does not (4 tasks sharing 2 GPUs on a node); and the `flux run` options that start
    the same tasks inside it. Without a task count the job has one task per node."""
    s = _Sizing(req)
    _count_tasks(s)
    _place_gpus(s)
    _settle_nodes(s)
    per = None
    if s.nodes:
        per = s.tasks // s.nodes if s.tasks % s.nodes == 0 else None
    node_cores = None
    cores_per_node = s.req.cores_per_node
    if per is not None and cores_per_node and cores_per_node > per * s.c:
        if cores_per_node % per == 0:
            s.c = cores_per_node // per
        else:
            node_cores = cores_per_node
    if s.nodes and (per is None or node_cores or (s.gpn and s.gpn % (per or 1))):
        words, run, gpt_run = _node_slots(s, per, node_cores)
    else:
        words, run, gpt_run = _task_slots(s, per)
    if s.req.exclusive:
        words.append("-x")
    out = Shape(words, run, s.notes, s.nodes, s.tasks, s.c, gpt_run)
    out.asked_gpus_per_task = req.gpus_per_task if isinstance(req.gpus_per_task, int) else 0
    return out


class _Sizing(Record):
    """A request being sized: its counts as they are settled, and the notes said."""

    __slots__ = ("req", "notes", "nodes", "per_node", "c", "tasks", "gpn", "gpt")
    req: Request
    notes: list[tuple[str, str]]
    nodes: int | None
    per_node: int | None
    c: int
    tasks: int
    gpn: int | None
    gpt: int | None

    def __init__(self, req: Request) -> None:
        self.req, self.notes = req, []
        self.nodes, self.per_node = req.nodes, req.tasks_per_node
        self.c = req.cores_per_task or 1
        self.tasks = 0
        self.gpn, self.gpt = req.gpus_per_node, req.gpus_per_task


def _count_tasks(s: _Sizing) -> None:
    """The task count: given, from tasks per GPU, from tasks per node, or one a node."""
    req = s.req
    tasks = req.tasks
    if tasks is None and req.tasks_per_gpu:
        all_gpus = req.gpus_total or (req.gpus_per_node or 0) * (s.nodes or 1)
        if all_gpus:
            tasks = all_gpus * req.tasks_per_gpu
            if req.tasks_per_gpu == 1 and not req.gpus_per_task:
                s.req = _with(req, gpus_per_task=1, gpus_per_node=None, gpus_total=None)
                s.gpn, s.gpt = None, 1
    if tasks is None:
        tasks = (s.nodes or 1) * s.per_node if s.per_node else s.nodes or 1
    s.tasks = tasks
    if s.per_node and s.nodes is None:
        s.nodes = _ceil(tasks, s.per_node)


def _place_gpus(s: _Sizing) -> None:
    """Cores per GPU as cores per task (or per node), and GPUs in all as GPUs per task or
    per node, whichever divides."""
    req, tasks = s.req, s.tasks
    cpg = req.cpus_per_gpu
    if cpg:
        if s.gpt:
            s.c = max(s.c, cpg * s.gpt)
        elif s.gpn and not req.cores_per_node:
            s.req = _with(req, cores_per_node=cpg * s.gpn)
        elif req.gpus_total and req.gpus_total % tasks == 0:
            s.c = max(s.c, cpg * req.gpus_total // tasks)
        else:
            why = "cpus per gpu without gpus per task or node: not carried"
            s.notes.append(("cpus_per_gpu", why))
    total = req.gpus_total
    if total:
        if total % tasks == 0:
            s.gpt = total // tasks
        elif s.nodes and total % s.nodes == 0:
            s.gpn = total // s.nodes
        else:
            s.nodes = s.nodes or 1
            s.gpn = _ceil(total, s.nodes)
            why = (
                f"{total} gpus do not divide among {tasks} tasks or {s.nodes} "
                f"node(s): Flux gives each node {s.gpn}"
            )
            s.notes.append(("gpus_total", why))


def _settle_nodes(s: _Sizing) -> None:
    """A node count alone: whole nodes (-x); whole nodes or GPUs per node without a node
    count: one node; a node range: its minimum."""
    if _only_nodes(s.req, s.nodes, s.per_node, s.gpn, s.gpt) and not s.req.exclusive:
        # a node count alone: the nodes are the job's (-x), as sites that allocate whole
        # nodes give them, so every step the script runs on them can start
        s.req = _with(s.req, exclusive=True)
        why = (
            f"only a node count: the job gets its {s.nodes} nodes whole (-x), as sites "
            "that allocate by node give them; add -n (or -c) where it should share them"
        )
        s.notes.append(("nodes", why))
    req = s.req
    if s.nodes is None and (s.gpn or req.exclusive or req.cores_per_node):
        s.nodes = 1
        what = "whole nodes" if req.exclusive else "gpus per node"
        fld = "exclusive" if req.exclusive else "gpus_per_node" if s.gpn else "cores_per_node"
        why = (
            f"{what} without a node count: the scheduler chooses how many; the "
            "conversion asks for 1 node (add a node count if the job needs more)"
        )
        s.notes.append((fld, why))
    if req.nodes_max and req.nodes and req.nodes_max != req.nodes:
        why = f"a node range {req.nodes}-{req.nodes_max}: Flux gets exactly {s.nodes} nodes, the minimum"
        s.notes.append(("nodes", why))


def _node_slots(s: _Sizing, per: int | None, node_cores: int | None):
    """One slot per node holding its tasks' cores (and the node's GPUs), and the flux run
    options that start the tasks in it: (directive words, run words, GPUs per task run)."""
    n, tasks, c, gpn, gpt = s.nodes, s.tasks, s.c, s.gpn, s.gpt
    assert n is not None
    k = per if per is not None else _ceil(tasks, n)
    cores = node_cores or k * c
    said = {f for f, _ in s.notes}
    if per is not None and not said & {"gpus_per_node", "gpus_total", "cores_per_node"}:
        fld = "gpus_per_node" if gpn and gpn % per else "cores_per_node"
        held = f"{gpn} GPUs" if fld == "gpus_per_node" else f"{node_cores} cores"
        why = (
            f"{per} tasks a node share its {held}: Flux gives each node one slot "
            f"of {cores} cores{f' and {gpn} GPUs' if gpn else ''}, and flux run "
            f"-N{n} -n{tasks} starts the tasks in it (the scheduler counts "
            f"{per} slots of {c} core{'s' if c != 1 else ''})"
        )
        s.notes.append((fld, why))
    if per is None:
        why = (
            f"{tasks} tasks do not divide evenly over {n} nodes: each node gets "
            f"room for {k} (the tasks are started with flux run -N{n} -n{tasks})"
        )
        s.notes.append(("tasks", why))
    gpt_run = 0
    if gpt and not gpn:  # each node's room for k tasks holds their gpus too
        gpn, gpt_run = k * gpt, gpt
        s.notes.append(("gpus_per_task", _uneven_gpus(tasks, n, k, gpt)))
    words = [f"-N {n}", f"-n {n}", f"-c {cores}"] + ([f"-g {gpn}"] if gpn else [])
    run = [f"-N{n}", f"-n{tasks}"] + ([f"-c{c}"] if c > 1 else [])
    run += [f"-g{gpt_run}"] if gpt_run else []
    return words, run, gpt_run


def _task_slots(s: _Sizing, per: int | None):
    """A slot per task: (directive words, run words, GPUs per task)."""
    n, tasks, c = s.nodes, s.tasks, s.c
    g = s.gpt or (s.gpn // per if s.gpn and per else 0)
    words = ([f"-N {n}"] if n else []) + [f"-n {tasks}"]
    words += ([f"-c {c}"] if c > 1 else []) + ([f"-g {g}"] if g else [])
    run = ([f"-N{n}"] if n else []) + [f"-n{tasks}"]
    run += ([f"-c{c}"] if c > 1 else []) + ([f"-g{g}"] if g else [])
    return words, run, g


def _uneven_gpus(tasks: int, n_nodes: int, k: int, gpt: int) -> str:
    return (
        f"{tasks} tasks do not divide evenly over {n_nodes} nodes: each node gets {k * gpt} "
        f"GPUs for its room of {k} tasks ({k * gpt * n_nodes} in all, where the scheduler "
        f"counts {gpt * tasks}), and each task its {gpt} (flux run -g{gpt})"
    )


def _only_nodes(req: Request, n_nodes, per_node, gpn, gpt) -> bool:
    """Whether ``req`` asks nodes and nothing of what they hold."""
    asked = (req.tasks, per_node, req.cores_per_task, req.cores_per_node, gpn, gpt,
             req.gpus_total, req.tasks_per_gpu, req.cpus_per_gpu)  # fmt: skip
    return bool(req.nodes) and bool(n_nodes) and all(not x for x in asked)


def is_dynamic(v: str) -> bool:
    """Whether the shell gives ``v`` (or part of it) when the line runs: `$X`, `$(...)`."""
    return "$" in v or "`" in v


def q(value: str) -> str:
    """``value`` as one word of a `#flux:` directive, quoted so Flux reads it back."""
    try:
        return directives.quote(value)
    except ValueError:
        raise NotCarried(f"{value!r} cannot be written in one directive") from None


def fsd(seconds: int) -> str:
    """Seconds as the shortest exact Flux Standard Duration."""
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds and seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


# the longest limit flux batch reads: its FSD reader makes a timedelta, whose days stop at
# 999999999 (beyond, flux batch fails: "Python int too large to convert to C int")
FLUX_TIME_MAX = 999_999_999 * 86400


def minutes_up(seconds: int) -> int:
    """Seconds rounded up to whole minutes (Slurm and LSF keep limits in minutes)."""
    return -(-seconds // 60) * 60  # in integers: a float rounds a long limit


def words(req: Request, name: str) -> list[str]:
    """The `flux batch` options that carry one non-shape field of ``req``."""
    v = getattr(req, name)
    if v is None:
        return []
    if name == "time":
        return [f"-t {fsd(v)}"]
    if name == "queue":
        return [f"-q {q(v)}"]
    if name == "account":
        return [f"--bank={q(v)}"]
    if name == "name":
        return [f"--job-name={q(v)}"]
    if name in ("output", "error"):
        return [f"--{name}={q(v)}"]
    if name == "dependencies":
        return [f"--dependency={q(d)}" for d in v]
    if name == "begin":
        return [f"--begin-time={q(v)}"]
    if name == "requires":
        return [f"--requires={q(r)}" for r in v]
    if name == "cwd":
        return [f"--cwd={q(v)}"]
    if name == "env":
        return [f"--env={q(_literal_rule(r))}" for r in v]
    if name == "hold":
        return ["--urgency=0"] if v else []
    if name == "join":
        return []
    if name == "urgency":
        return [f"--urgency={v}"]
    if name == "signal":
        return [f"--signal={v}"]
    raise KeyError(name)


def _literal_rule(rule: str) -> str:
    """An environment rule from a directive, as Flux's --env reads it literally.

    sbatch, bsub and qsub take a directive's VAR=VALUE as written; Flux's --env expands `$NAME`
    and refuses a name the submitter lacks, so each `$` of the value is doubled (`$$` is
    Flux's literal dollar)."""
    name, eq, value = rule.partition("=")
    return f"{name}={value.replace('$', '$$')}" if eq else rule
