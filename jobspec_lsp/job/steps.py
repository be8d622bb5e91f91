"""The job model: what a batch job's directives allocate (:class:`Allocation`) and what each
launch step asks of it (:class:`Step`), below both the Flux script checks and the migration.

`script/steps.py` reads a `flux run|submit` line into a :class:`Step` and holds it to the
:class:`Allocation` of the script's `#flux:` directives (JS587, JS588, through :func:`need`);
`migrate/launchers.py` reads `srun`, `jsrun`, `mpirun`, `aprun`... into a :class:`Step` (its
``Run``, with the launcher's own extras) and writes the `flux run` that asks the same. A count
is a number, or the shell word that gives it when the step runs (:data:`Count`): such a step is
known only at run time, and is not judged."""

from __future__ import annotations

from jobspec_lsp.record import Frozen, Record

Count = int | str  # a number, or the shell word that gives it when the step runs
# the size sbatch, bsub and qsub give a script whose directives name none: one task, as
# `flux batch` words (the conversion and the repairs of a `#flux:` block write it)
DEFAULT_SIZE = "-n 1"


class Allocation(Frozen):
    """What a batch job's directives allocate, where they say it exactly."""

    __slots__ = ("nodes", "cores", "gpus", "why")
    nodes: int | None
    cores: int | None  # slots x cores per slot, when the cores are not whole nodes
    gpus: int | None
    why: str  # the directives, in words

    def __init__(self, nodes: int | None, cores: int | None, gpus: int | None, why: str):
        put = object.__setattr__
        put(self, "nodes", nodes)
        put(self, "cores", cores)
        put(self, "gpus", gpus)
        put(self, "why", why)


class Step(Record):
    """What one launch step asks (None: not asked): its nodes, tasks, tasks on each node,
    cores and GPUs of each task."""

    __slots__ = ("nodes", "tasks", "per_node", "cores", "gpus")
    nodes: Count | None
    tasks: Count | None
    per_node: Count | None
    cores: Count | None
    gpus: Count | None

    def __init__(
        self,
        nodes: Count | None = None,
        tasks: Count | None = None,
        per_node: Count | None = None,
        cores: Count | None = None,
        gpus: Count | None = None,
    ) -> None:
        self.nodes, self.tasks, self.per_node = nodes, tasks, per_node
        self.cores, self.gpus = cores, gpus

    @property
    def known(self) -> bool:
        """Whether every count is a number (none waits for the shell)."""
        counts = (self.nodes, self.tasks, self.per_node, self.cores, self.gpus)
        return all(c is None or isinstance(c, int) for c in counts)


class Need(Frozen):
    """What a step needs of its allocation: in all, or on each of its nodes (``where``)."""

    __slots__ = ("where", "cores", "gpus", "have_cores", "have_gpus")
    where: str  # "" (in all) or " on each node"
    cores: int
    gpus: int
    have_cores: int | None  # what the allocation holds there (None: not said exactly)
    have_gpus: int | None

    def __init__(self, where: str, cores: int, gpus: int, have_cores, have_gpus) -> None:
        put = object.__setattr__
        put(self, "where", where)
        put(self, "cores", cores)
        put(self, "gpus", gpus)
        put(self, "have_cores", have_cores)
        put(self, "have_gpus", have_gpus)


def need(step: Step, allocation: Allocation) -> Need | None:
    """The cores and GPUs ``step`` needs, in all or, with a node count, on each node: Flux
    spreads -n tasks over -N nodes, ceil(n / N) on each; --tasks-per-node asks one slot a
    node whose tasks share it. None when a count is a shell word or unknown, or the step asks
    more nodes than there are (JS587 says so)."""
    if not step.known:
        return None
    c = int(step.cores or 1)
    g = int(step.gpus or 0)
    if step.nodes is None:
        tasks = int(step.tasks or 1)
        return Need("", tasks * c, tasks * g, allocation.cores, allocation.gpus)
    nodes = int(step.nodes)
    if allocation.nodes is None or nodes > allocation.nodes or allocation.cores is None:
        return None
    tasks = int(step.tasks or nodes)
    on_each = 1 if step.per_node else -(-tasks // nodes)
    have_c = allocation.cores // allocation.nodes
    have_g = None if allocation.gpus is None else allocation.gpus // allocation.nodes
    return Need(" on each node", on_each * c, on_each * g, have_c, have_g)
