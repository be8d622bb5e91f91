"""Will this job run *here*? A jobspec (as Flux reads it: the dict job-ingest receives)
against a site profile, with the checks the site's Flux makes, in its order, and the
reasons it does not give:

1. the queue and its defaults (job-ingest's frobnicator: an unknown queue, no queue where
   the site names no default one, a host the instance does not have);
2. feasibility (the ``feasibility`` validator: Fluxion answers only "Unsatisfiable
   request"; here, which count, constraint or nesting no set of nodes in the queue
   satisfies: a slot may hold nodes, nodes slots, both, as Fluxion places them);
3. the job-manager's limits (duration and job size, counted as flux-core counts them:
   nodes multiplied down the tree, 0 for a job without nodes; cores and GPUs as slots
   times each slot's, slots times nodes; a job without a slot or a core cannot be
   counted, and is refused; a missing duration takes the queue's default, else is
   unlimited).

Each finding names the part of the jobspec that causes it (a path into the dict), so the
document's reader can put it on the token: a YAML value, a directive's option.

Standard library only: Flux's job-ingest runs these checks too (the validator plugin,
:mod:`.ingest`), under a Python that has none of this package's dependencies.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass, field
from typing import Any

from jobspec_lsp.site import hostlists, notation, selection
from jobspec_lsp.site.profile import NodeClass, Queue, Site

Path = tuple[Any, ...]

# which check of Flux's refuses a job (or that none does)
QUEUE = "queue"  # job-ingest, before anything else (errno 1; 22 when the site has no queues)
FEASIBILITY = "feasibility"  # the feasibility validator ("Unsatisfiable request", errno 19)
LIMIT = "limit"  # the job-manager's policy limits (errno 22)
NEVER = "never"  # accepted, and never runs (a site without the feasibility validator)


@dataclass(frozen=True)
class Finding:
    rule: str  # unknown-queue, no-queue, unknown-host, unsatisfiable, duration, size
    message: str
    path: Path  # where in the jobspec the cause is (as near as the jobspec has it)
    cause: str  # queue, duration, nodes, slots, cores, gpus, constraints, resources
    stage: str  # QUEUE, FEASIBILITY, LIMIT or NEVER
    word: str = ""  # the property, hostlist or idset of a constraint that causes it


@dataclass
class Shape:
    """The resources as flux-core's job-size check counts them (its jj.c: nodes are the
    counts down to the last node read, multiplied; a slot's, core's or GPU's count is
    the last one read; slots are then multiplied by the nodes), and as Fluxion places
    them (:func:`selection.placement`)."""

    nodes: int = 0  # nodes in all (0: the job names none)
    node_path: Path = ("resources",)
    slots: int = 0  # slots in all
    per_node: int = 0  # the slot's own count (with nodes: slots on each node)
    slot_path: Path = ("resources",)
    cores: int = 0  # per slot
    core_path: Path = ("resources",)
    gpus: int = 0
    gpu_path: Path = ("resources",)
    zero: list[tuple[str, Path]] = field(default_factory=list)  # counts under 1
    place: selection.Placement = field(default_factory=selection.Placement)


def shape(resources: Any, gpus: bool = True) -> Shape | None:
    """The counts of ``resources`` (None when they cannot be read: the jobspec rules
    say why) on a site whose R has nodes, cores and (``gpus``) GPUs."""
    out = Shape()
    if not isinstance(resources, list) or not resources:
        return None
    for k, top in enumerate(resources):
        if not isinstance(top, dict) or not _walk(top, ("resources", k), 1, out):
            return None
    if out.nodes:
        out.per_node, out.slots = out.slots, out.slots * out.nodes
    out.place = selection.placement(resources, gpus)
    return out


def _walk(v: dict[str, Any], path: Path, above: int, out: Shape) -> bool:
    kind, n = v.get("type"), selection.count(v.get("count"))
    if not isinstance(kind, str) or n is None:
        return False
    here = (*path, "count")
    if n < 1:
        out.zero.append((kind, here))
    above *= n
    if kind == "node":
        out.nodes, out.node_path = above, here
    elif kind == "slot":
        out.slots, out.slot_path = n, here
    elif kind == "core":
        out.cores, out.core_path = n, here
    elif kind == "gpu":
        out.gpus, out.gpu_path = n, here
    kids = v.get("with") or []
    if not isinstance(kids, list):
        return False
    for k, child in enumerate(kids):
        if not isinstance(child, dict) or not _walk(child, (*path, "with", k), above, out):
            return False
    return True


# --------------------------------------------------------------------------- wording
duration_text = notation.duration_text


_where = selection.where


def _classes_text(classes: list[tuple[NodeClass, int]]) -> str:
    parts = []
    for c, n in classes[:3]:
        name = c.hosts if n == c.count and c.hosts else f"{n} of {c.hosts or 'ranks ' + c.ranks}"
        gpus = f", {c.gpus} GPUs" if c.gpus else ""
        parts.append(f"`{name}`: {c.cores} cores{gpus}")
    more = f" and {len(classes) - 3} more" if len(classes) > 3 else ""
    return (
        "node type " + "; ".join(parts) + more
        if len(classes) == 1
        else ("node types " + "; ".join(parts) + more)
    )


# --------------------------------------------------------------------------- checks
def check(site: Site, jobspec: Any, *, feasibility: bool | None = None) -> list[Finding]:
    """What stops ``jobspec`` from running on ``site``. ``feasibility``: whether the
    site's ingest runs the feasibility validator (None: as its profile says)."""
    if not isinstance(jobspec, dict):
        return []
    attrs = jobspec.get("attributes")
    system = attrs.get("system") if isinstance(attrs, dict) else None
    system = system if isinstance(system, dict) else {}
    out: list[Finding] = []
    if _unknown_host(site, system, out):
        return out
    queue = _queue(site, system, out)
    if queue is None:
        return out
    if feasibility is None:
        feasibility = validates_feasibility(site)
    shp = shape(jobspec.get("resources"), any(c.gpus for c in site.classes))
    _feasible(site, queue, system, shp, FEASIBILITY if feasibility else NEVER, out)
    _duration(queue, system, out)
    if shp is not None and counts_size(site):
        _size(queue, shp, out)
    return out


def counts_size(site: Site) -> bool:
    """Whether the site's job-manager counts each job's size: it does when the site has
    queues or size limits (flux-core's limit-job-size), and refuses a job it cannot count."""
    policy = site.config.get("policy")
    limits = policy.get("limits") if isinstance(policy, dict) else None
    size = limits.get("job-size") if isinstance(limits, dict) else None
    return bool(site.config.get("queues")) or (
        isinstance(size, dict)
        and any(isinstance(size.get(k), dict) and size[k] for k in ("min", "max"))
    )


def validates_feasibility(site: Site) -> bool:
    """Whether the site's job-ingest runs the feasibility validator."""
    ingest = site.config.get("ingest")
    validator = ingest.get("validator") if isinstance(ingest, dict) else None
    if not isinstance(validator, dict):
        return False
    plugins = validator.get("plugins", [])
    return not validator.get("disable") and isinstance(plugins, list) and ("feasibility" in plugins)


def _queue(site: Site, system: dict[str, Any], out: list[Finding]) -> Queue | None:
    name = system.get("queue")
    path: Path = ("attributes", "system", "queue")
    if name is not None and not isinstance(name, str):
        return None  # the jobspec rules say it
    if not site.queues:
        if name is not None:
            out.append(
                Finding(
                    "unknown-queue",
                    f"this site has no queues: remove the queue `{name}` (Flux refuses "
                    f"the job: '{name}' is not a valid queue)",
                    path,
                    "queue",
                    QUEUE,
                )
            )
            return None
        return site.effective(None)
    if name is None:
        name = site.default_queue
        if name is None:
            names = ", ".join(f"`{q}`" for q in site.queues)
            out.append(
                Finding(
                    "no-queue",
                    f"this site has no default queue: name one of {names} (Flux refuses "
                    "the job: 'no queue specified')",
                    ("attributes", "system"),
                    "queue",
                    QUEUE,
                )
            )
            return None
    elif name not in site.queues:
        close = difflib.get_close_matches(name, list(site.queues), n=1, cutoff=0.5)
        folded = [q for q in site.queues if q.lower() == name.lower()]
        hint = f"; did you mean `{(folded or close)[0]}`?" if folded or close else ""
        case = " (queue names are case-sensitive)" if folded else ""
        names = ", ".join(f"`{q}`" for q in site.queues)
        out.append(
            Finding(
                "unknown-queue",
                f"no queue `{name}` on this site (queues: {names}){hint}{case}",
                path,
                "queue",
                QUEUE,
            )
        )
        return None
    return site.effective(name)


def _duration(q: Queue, system: dict[str, Any], out: list[Finding]) -> None:
    limit = q.limits.duration
    if not limit:
        return
    given = system.get("duration")
    if isinstance(given, bool) or not isinstance(given, int | float) or given < 0:
        given = 0
    path: Path = ("attributes", "system", "duration")
    if given > 0:
        if given > limit:
            out.append(
                Finding(
                    "duration",
                    f"asks {duration_text(given)}; {_where(q)} allows at most "
                    f"{duration_text(limit)} (Flux refuses the job: duration exceeds "
                    "policy limit)",
                    path,
                    "duration",
                    LIMIT,
                )
            )
        return
    default = q.default_duration
    if default and default <= limit:
        return
    if default:
        why = (
            f"no duration given: {_where(q)} gives a default of {duration_text(default)}, "
            f"over its own limit of {duration_text(limit)}, so every job sent there without "
            f"a duration is refused (flux-core#6341); ask for {duration_text(limit)} or less"
        )
    else:
        why = (
            f"no duration given and {_where(q)} has no default: Flux counts the job as "
            f"unlimited, over the limit of {duration_text(limit)}; ask for "
            f"{duration_text(limit)} or less"
        )
    out.append(Finding("duration", why, ("attributes", "system"), "duration", LIMIT))


_SIZE_WORDS = {"nnodes": "nodes", "ncores": "cores", "ngpus": "GPUs"}


def _size(q: Queue, s: Shape, out: list[Finding]) -> None:
    if s.zero:
        return  # Flux refuses the count (feasibility says so first)
    if not s.slots or not s.cores:
        kind, path = ("slot", s.node_path) if not s.slots else ("core", s.slot_path)
        flux = "Unable to determine slot " + ("count" if not s.slots else "size")
        why = f"Flux counts a job's size in slots of cores, and this one has no `{kind}`"
        why += " (put what it asks in a slot)" if kind == "slot" else ""
        out.append(Finding("size", f"{why} (Flux refuses the job: '{flux}')", path, "slots", LIMIT))
        return
    counts = {"nnodes": s.nodes, "ncores": s.slots * s.cores, "ngpus": s.slots * s.gpus}
    paths = {"nnodes": s.node_path, "ncores": s.core_path, "ngpus": s.gpu_path}
    causes = {"nnodes": "nodes", "ncores": "cores", "ngpus": "gpus"}
    for key, n in counts.items():
        high, low = q.limits.max.get(key, -1), q.limits.min.get(key, -1)
        word = _SIZE_WORDS[key]
        if high >= 0 and n > high:
            why = f"asks {n} {word} in all; {_where(q)} allows at most {high}"
        elif low >= 0 and n < low:
            why = f"asks {n} {word} in all; {_where(q)} needs at least {low}"
            if key == "nnodes" and n == 0:
                why += " (a job that names no nodes counts 0: give -N/--nodes)"
            elif key == "ncores" and s.nodes and s.cores == 1 and s.per_node == 1:
                why += " (a whole-node job counts 1 core per node)"
        else:
            continue
        path = paths[key] if key != "nnodes" or s.nodes else s.slot_path
        out.append(
            Finding(
                "size",
                f"{why} (Flux refuses the job: {key} over the policy limit)"
                if high >= 0 and n > high
                else f"{why} (Flux refuses the job: {key} under the policy limit)",
                path,
                causes[key] if key != "nnodes" or s.nodes else "slots",
                LIMIT,
            )
        )


def _unknown_host(site: Site, system: dict[str, Any], out: list[Finding]) -> bool:
    """A host constraint naming a host the instance does not have: Flux refuses the job
    before anything else (when its jobspec is first read)."""
    constraints = system.get("constraints")
    if constraints is None or not site.classes:
        return False
    terms: list[selection.Term] = []
    try:
        selection.select(site, constraints, ("attributes", "system", "constraints"), terms)
    except selection.Unknown:
        return False
    index = site.rank_of_host() if any(t[0] == "hosts" for t in terms) else {}
    for kind, text, path, _ in terms:
        if kind != "hosts":
            continue
        missing = [n for n in selection.named(text, index) if n not in index]
        if missing:
            out.append(
                Finding(
                    "unknown-host",
                    f"host `{missing[0]}` is not on this site (hosts: {_site_hosts(site)}) "
                    "(Flux refuses the job: host constraint contains invalid hosts)",
                    path,
                    "constraints",
                    QUEUE,
                    text,
                )
            )
            return True
    return False


def _feasible(
    site: Site, q: Queue, system: dict[str, Any], s: Shape | None, stage: str, out: list[Finding]
) -> None:
    if not site.classes:
        return  # a profile without R: nothing to place the job on
    queue_runs = selection.every_rank(site)
    for p in q.requires:
        queue_runs = notation.intersect(queue_runs, selection.with_property(site, p))
    runs = queue_runs
    constraints = system.get("constraints")
    cpath: Path = ("attributes", "system", "constraints")
    terms: list[selection.Term] = []
    if constraints is not None:
        try:
            runs = notation.intersect(runs, selection.select(site, constraints, cpath, terms))
        except selection.Unknown:
            return
    reason = selection.term_reason(site, q, queue_runs, terms)
    if s is None:
        return
    for kind, path in s.zero[:1]:
        why = (
            f"asks 0 of `{kind}`: Flux allocates no count under 1 (leave the `{kind}` out instead)"
        )
        if stage == NEVER and counts_size(site):  # the job-manager cannot count it
            why += f" (Flux refuses the job: 'Invalid count 0 for type '{kind}'')"
            out.append(Finding("size", why, path, _cause(kind), LIMIT))
        else:
            out.append(Finding("unsatisfiable", why + _refused(stage), path, _cause(kind), stage))
        return
    if s.place.problem is not None:
        why, path, cause, flux = s.place.problem
        out.append(Finding("unsatisfiable", why + _refused(stage, flux), path, cause, stage))
        return
    if reason is not None:
        why = reason[0] + _refused(stage)
        out.append(Finding("unsatisfiable", why, reason[1], reason[2], stage, reason[3]))
        return
    place = s.place
    if not place.judged or not (place.nodes or place.slots):
        return
    pool = [
        (c, notation.size(notation.intersect(notation.idset(c.ranks), runs))) for c in site.classes
    ]
    pool = [(c, n) for c, n in pool if n]
    narrower = constraints is not None and runs != queue_runs
    where = _where(q) + (" matching the constraints" if narrower else "")
    if not pool:
        why = f"no node of {_where(q)} matches the constraints{_refused(stage)}"
        out.append(Finding("unsatisfiable", why, cpath, "constraints", stage))
        return
    if place.nodes is not None:
        found = _nodes(place.nodes, pool, where)
    else:
        found = _slots(place.slots, pool, where) if place.slots is not None else None
    if found is None:
        found = _in_all(place.total, site)
    if found is not None:
        why, path, cause = found
        out.append(Finding("unsatisfiable", why + _refused(stage), path, cause, stage))


def _cause(kind: str) -> str:
    return selection.CAUSE.get(kind, "resources")


Pool = list[tuple[NodeClass, int]]
Reason = tuple[str, Path, str]  # the words, where, the cause


def _nodes(g: selection.Group, pool: Pool, where: str) -> Reason | None:
    """Why no ``g.count`` nodes of the pool each hold ``g``'s cores and GPUs."""
    fit = sum(n for cl, n in pool if cl.cores >= g.cores and cl.gpus >= g.gpus)
    if fit >= g.count:
        return None
    have = sum(n for _, n in pool)
    shown = _classes_text(pool)
    if have < g.count:
        return f"asks {g.count} nodes; {where} has {have} ({shown})", g.path, "nodes"
    for need, most, word, cause, path in (
        (g.cores, max(cl.cores for cl, _ in pool), "cores", "cores", g.core_path),
        (g.gpus, max(cl.gpus for cl, _ in pool), "GPUs", "gpus", g.gpu_path),
    ):
        if need <= most:
            continue
        k, each = g.slots, ""
        if k > 1 and need % k == 0 and not g.mixed:
            each = f" ({k} slots of {need // k} {word} on each node)"
            if need // k <= most:
                cause, path = "slots", g.slot_path
        why = f"asks {need} {word} per node{each}; nodes in {where} have {most} ({shown})"
        return why, path, cause
    why = (
        f"asks {g.count} nodes with {g.cores} cores and {g.gpus} GPUs each; {where} "
        f"has {fit} such nodes ({shown})"
    )
    return why, g.path, "nodes"


def _in_all(total: selection.Group, site: Site) -> Reason | None:
    """Why R as a whole has too few nodes, cores or GPUs for every slot's together
    (slots side by side count here, where Fluxion places only the last)."""
    for word, asked, has in (
        ("nodes", total.count, site.nodes),
        ("cores", total.cores, sum(c.count * c.cores for c in site.classes)),
        ("GPUs", total.gpus, sum(c.count * c.gpus for c in site.classes)),
    ):
        if asked > has:
            return f"asks {asked} {word} in all; this site has {has}", ("resources",), "resources"
    return None


def _slots(g: selection.Group, pool: Pool, where: str) -> Reason | None:
    """Why the pool's nodes cannot hold ``g.count`` slots of ``g``'s cores and GPUs."""
    c, g_ = g.cores, g.gpus
    cap = 0
    for cl, n in pool:
        by_cores = cl.cores // c if c else math.inf
        by_gpus = cl.gpus // g_ if g_ else math.inf
        fits = min(by_cores, by_gpus)
        cap += n * (0 if math.isinf(fits) else int(fits))
    if cap >= g.count:
        return None
    shown = _classes_text(pool)
    gpus = f" and {g_} GPUs" if g_ else ""
    if cap:
        why = (
            f"asks {g.count} slots of {c} cores{gpus}; the nodes of {where} hold at most "
            f"{cap} such slots ({shown})"
        )
        return why, g.slot_path, "slots"
    most_c = max(cl.cores for cl, _ in pool)
    most_g = max(cl.gpus for cl, _ in pool)
    if c > most_c:
        why = f"a slot of {c} cores fits on no node: nodes in {where} have {most_c} ({shown})"
        return why, g.core_path, "cores"
    if g_ > most_g:
        why = f"a slot of {g_} GPUs fits on no node: nodes in {where} have {most_g} ({shown})"
        return why, g.gpu_path, "gpus"
    return f"a slot of {c} cores{gpus} fits on no node in {where} ({shown})", g.slot_path, "slots"


def _refused(stage: str, flux: str = "") -> str:
    if stage == NEVER:
        return (
            " (Flux accepts the job and it never starts: this site's job-ingest has no "
            "feasibility validator)"
        )
    return f" (Flux refuses the job: '{flux or 'Unsatisfiable request'}')"


def _site_hosts(site: Site) -> str:
    names = [h for c in site.classes if c.hosts for h in hostlists.expand(c.hosts)]
    return hostlists.compress(names) or "none named"
