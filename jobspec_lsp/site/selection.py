"""What a job selects of a site's R. Its RFC 31 constraints: the ranks a constraint selects
(as runs of ranks, never node by node), and, where a property, host or rank that every
match must have leaves a job no node, why in words. Its resources: what Fluxion must find
for them in the graph it builds from R (so many nodes, each with so many cores and GPUs;
so many slots on any nodes), or why it finds nothing, whatever the nesting: a slot holding
nodes, nodes holding slots, both. Standard library only (see :mod:`.checks`)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from jobspec_lsp.site import notation
from jobspec_lsp.site.profile import Queue, Site

Path = tuple[Any, ...]


def named(text: str, index: dict[str, int]):
    """The hosts of a hostlist, at most one more than the site has: past that, one of
    them is not the site's (and the job is refused for it), however many it names."""
    return itertools.islice(notation.hosts(text), len(index) + 1)


def where(q: Queue) -> str:
    return f"queue `{q.name}`" if q.name else "this site"


def every_rank(site: Site) -> notation.Runs:
    runs: notation.Runs = []
    for c in site.classes:
        runs = notation.union(runs, notation.idset(c.ranks))
    return runs


def with_property(site: Site, prop: str) -> notation.Runs:
    runs: notation.Runs = []
    for c in site.classes:
        if prop in c.properties:
            runs = notation.union(runs, notation.idset(c.ranks))
    return runs


class Unknown(Exception):
    """A constraint these checks do not read (the jobspec rules judge its form)."""


Term = tuple[str, str, Path, bool]  # kind, text, path, whether every match must have it


def select(site: Site, c: Any, path: Path, terms: list[Term], sure: bool = True) -> notation.Runs:
    """The ranks ``c`` selects; ``terms`` collects each property, host and rank named
    (``sure``: whether a node must match it to match ``c``: not under `or` or `not`)."""
    if not isinstance(c, dict):
        raise Unknown
    every = every_rank(site)
    runs = every
    for op, arg in c.items():
        here = (*path, op)
        if not isinstance(arg, list):
            raise Unknown
        if op == "properties":
            for k, p in enumerate(arg):
                if not isinstance(p, str):
                    raise Unknown
                terms.append(("property", p, (*here, k), sure))
                want = with_property(site, p.lstrip("^"))
                runs = notation.intersect(
                    runs, notation.minus(every, want) if p.startswith("^") else want
                )
        elif op == "hostlist":
            runs = notation.intersect(runs, _hosts(site, arg, here, terms, sure))
        elif op == "ranks":
            picked: notation.Runs = []
            for k, r in enumerate(arg):
                try:
                    got = notation.idset(r) if isinstance(r, str) else None
                except ValueError:
                    got = None
                if got is None:
                    raise Unknown
                terms.append(("ranks", r, (*here, k), sure))
                picked = notation.union(picked, got)
            runs = notation.intersect(runs, picked)
        elif op in ("and", "or"):
            parts = [
                select(site, x, (*here, k), terms, sure and op == "and") for k, x in enumerate(arg)
            ]
            if op == "and":
                for p in parts:
                    runs = notation.intersect(runs, p)
            else:
                either: notation.Runs = []
                for p in parts:
                    either = notation.union(either, p)
                runs = notation.intersect(runs, either)
        elif op == "not":
            for k, x in enumerate(arg):
                runs = notation.minus(runs, select(site, x, (*here, k), terms, False))
        else:
            raise Unknown
    return runs


def _hosts(site: Site, arg: list[Any], here: Path, terms: list[Term], sure: bool) -> notation.Runs:
    ids: list[int] = []
    index = site.rank_of_host()
    for k, h in enumerate(arg):
        try:
            notation.hostlist_size(h) if isinstance(h, str) else None
        except ValueError:
            raise Unknown from None  # what Flux refuses: the jobspec rules say it
        if not isinstance(h, str):
            raise Unknown
        terms.append(("hosts", h, (*here, k), sure))
        ids.extend(index[n] for n in named(h, index) if n in index)
    return notation.of_ids(ids)


def term_reason(
    site: Site, q: Queue, queue_runs: notation.Runs, terms: list[Term]
) -> tuple[str, Path, str, str] | None:
    """Why one property, host or rank every match must have leaves the job no node."""
    every = every_rank(site)
    for kind, text, path, sure in terms:
        if not sure:
            continue
        if kind == "property" and not text.startswith("^"):
            have = with_property(site, text)
            if not have:
                props = ", ".join(f"`{p}`" for p in sorted(site.properties())) or "none"
                return (
                    f"no node on this site has the property `{text}` (properties: {props})",
                    path,
                    "constraints",
                    text,
                )
            if not notation.intersect(have, queue_runs):
                req = ", ".join(f"`{p}`" for p in q.requires)
                return (
                    f"the nodes with `{text}` are not in {where(q)}, which takes only nodes "
                    f"with {req}",
                    path,
                    "constraints",
                    text,
                )
        elif kind == "ranks":
            got = notation.idset(text)
            beyond = notation.minus(got, every)
            if beyond:
                return (
                    f"rank {beyond[0][0]} is not on this site (ranks "
                    f"{notation.format_idset(every)})",
                    path,
                    "constraints",
                    text,
                )
            if not notation.intersect(got, queue_runs):
                return (
                    f"ranks {text} are not in {where(q)} (its ranks: "
                    f"{notation.format_idset(queue_runs) or 'none'})",
                    path,
                    "constraints",
                    text,
                )
        elif kind == "hosts":
            index = site.rank_of_host()
            ids = notation.of_ids([index[n] for n in named(text, index) if n in index])
            if not notation.intersect(ids, queue_runs):
                return (f"hosts {text} are not in {where(q)}", path, "constraints", text)
    return None


# --------------------------------------------------------------------------- resources
# The graph Fluxion builds from an R of nodes, cores and GPUs: one cluster, its nodes,
# their cores and GPUs. A request's types must go down it (a level may be skipped: a
# slot of cores with no node); a slot is no level, and holds what it holds exclusively.
# As measured against Fluxion 0.54 (tests/flux/test_flux_site_proof.py): one resource at
# the top; no slot directly in a slot, no type twice side by side, no slot beside other
# types; of slots side by side, Fluxion places the last (none before it may count more),
# the others only add their cores and GPUs to its node's and to the totals, which all of
# R must hold.
LEVEL = {"cluster": 0, "node": 1, "core": 2, "gpu": 2}
# types Fluxion knows without a graph that has them (any other it refuses by name)
ABSENT = ("rack", "socket", "ssd", "storage_node", "xor_slot")
KNOWN = 'Value of "type" must be a resource type known to fluxion'
CAUSE = {"node": "nodes", "slot": "slots", "core": "cores", "gpu": "gpus"}


@dataclass
class Group:
    """``count`` nodes (or, with no node over them, slots) that each hold ``cores`` cores
    and ``gpus`` GPUs (``slots`` slots of them, on a node)."""

    count: int
    path: Path
    cores: int = 0
    gpus: int = 0
    slots: int = 0
    mixed: bool = False  # slots of more than one kind
    core_path: Path = ("resources",)
    gpu_path: Path = ("resources",)
    slot_path: Path = ("resources",)


@dataclass
class Placement:
    """What Fluxion must find in R for the resources: so many nodes, or slots with no
    node over them, each holding so much; or why it finds nothing (``problem``: the
    words, where, the cause, and Flux's own message when it is not 'Unsatisfiable
    request')."""

    nodes: Group | None = None
    slots: Group | None = None
    problem: tuple[str, Path, str, str] | None = None
    judged: bool = True  # a form these checks place (not, e.g., cores with no slot or node)
    # nodes, cores and GPUs in all, every slot's (Fluxion's first test, against all of R)
    total: Group = field(default_factory=lambda: Group(0, ("resources",)))


def count(v: Any) -> int | None:
    """A vertex's count as these checks read it (a range: its minimum)."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, dict) and isinstance(v.get("min"), int):
        return int(v["min"])
    return None


@dataclass
class _At:
    over: str = ""  # the type of the nearest vertex over it that is not a slot
    in_slot: bool = False  # its parent is a slot
    above: int = 1  # the counts over it, multiplied
    within: int = 1  # the counts between its group (node, or slot with no node) and it
    group: Group | None = None


def placement(resources: list[Any], gpus: bool) -> Placement:
    """Where ``resources`` (whose vertices all have a type and a count) go on a site whose
    R has nodes, cores and (``gpus``) GPUs."""
    out = Placement()
    types = "nodes, cores and GPUs" if gpus else "nodes and cores"
    if len(resources) != 1:
        out.problem = (
            f"asks for {len(resources)} resources side by side at the top; Fluxion places one "
            "(put them in one slot or node)",
            ("resources", 1, "type"),
            "resources",
            "",
        )
        return out
    unknown = _unknown_type(resources[0], ("resources", 0))
    if unknown is not None:
        kind, path = unknown
        why = f"`{kind}` is not a resource type Fluxion knows (this site's R has {types})"
        _problem(out, why, path, kind, KNOWN)
        return out
    _place(resources[0], ("resources", 0), _At(), types, out)
    _tally(resources[0], 1, out.total)
    return out


def _unknown_type(v: dict[str, Any], path: Path) -> tuple[str, Path] | None:
    """The first type Fluxion does not know (it reads the whole request before placing)."""
    if v["type"] not in LEVEL and v["type"] != "slot" and v["type"] not in ABSENT:
        return v["type"], path
    for k, c in enumerate(v.get("with") or []):
        found = _unknown_type(c, (*path, "with", k)) if isinstance(c, dict) else None
        if found is not None:
            return found
    return None


def _problem(out: Placement, why: str, path: Path, kind: str, flux: str = "") -> None:
    if out.problem is None:
        out.problem = (why, (*path, "type"), CAUSE.get(kind, "resources"), flux)


def _place(v: dict[str, Any], path: Path, at: _At, types: str, out: Placement) -> None:
    kind, n = v["type"], count(v["count"]) or 0
    here = (*path, "count")
    level = LEVEL.get(kind)
    if kind == "slot":
        if not [c for c in v.get("with") or [] if isinstance(c, dict)]:
            return _problem(out, "a slot that holds nothing: Fluxion places none", path, kind)
        if at.in_slot:
            return _problem(out, "a slot directly inside a slot: Fluxion places none "
                            "(put a node between them, or make them one)", path, kind)  # fmt: skip
        inner = _At(at.over, True, at.above * n, at.within * n, at.group)
        if at.group is None and not _holds_node(v):
            inner.group, inner.within = Group(at.above * n, here, slot_path=here), 1
            out.slots = inner.group
        elif at.group is not None:
            at.group.slots += at.within * n
            at.group.slot_path = here
        return _children(v, path, inner, types, out)
    if level is None:  # a type Fluxion knows (the others are refused before)
        why = f"asks for `{kind}` resources; this site's R has only {types}"
        return _problem(out, why, path, kind)
    if level <= LEVEL.get(at.over, -1):
        inside = "cores and GPUs" if "GPUs" in types else "cores"
        holds = {"cluster": "nodes", "node": inside}.get(at.over, "nothing")
        why = f"a `{kind}` inside a `{at.over}`: in this site's R a {at.over} holds {holds}"
        return _problem(out, why, path, kind)
    if kind == "cluster":
        if at.in_slot or at.above > 1 or n != 1:
            many = (
                f"asks for {n * at.above} clusters"
                if n * at.above != 1
                else "a `cluster` in a slot"
            )
            return _problem(
                out, f"{many}: this site's R is one cluster, with its nodes in it", path, kind
            )
        return _children(v, path, _At(kind), types, out)
    if kind == "node":
        group = out.nodes = Group(at.above * n, here)
        return _children(v, path, _At(kind, False, at.above * n, 1, group), types, out)
    if at.group is None and at.over == "cluster":
        why = f"a `{kind}` in the cluster itself: Fluxion places one only in a slot or a node"
        return _problem(out, why, path, kind)
    if at.group is None:
        out.judged = False  # cores or GPUs in no slot and no node: Fluxion takes any
    elif kind == "core":
        at.group.cores += at.within * n
        at.group.core_path = here
    else:
        at.group.gpus += at.within * n
        at.group.gpu_path = here
    _children(v, path, _At(kind, False, at.above * n, at.within * n, at.group), types, out)


def _holds_node(v: dict[str, Any]) -> bool:
    return any(
        isinstance(c, dict) and (c.get("type") == "node" or _holds_node(c))
        for c in v.get("with") or []
    )


def _children(v: dict[str, Any], path: Path, at: _At, types: str, out: Placement) -> None:
    kids = [(k, c) for k, c in enumerate(v.get("with") or []) if isinstance(c, dict)]
    kinds = [c["type"] for _, c in kids]
    others = [k for k in kinds if k != "slot"]
    where = (*path, "with", kids[-1][0] if kids else 0)
    if others and len(others) < len(kinds):
        return _problem(out, "a slot beside other resources: Fluxion places none "
                        "(put them in the slot, or in a slot of their own)", where, "slot")  # fmt: skip
    if len(set(others)) < len(others):
        twice = next(k for k in others if others.count(k) > 1)
        why = f"`{twice}` twice side by side: Fluxion places none (give one `{twice}` the sum)"
        return _problem(out, why, where, twice)
    if len({LEVEL.get(k) for k in others}) > 1 and all(k in LEVEL for k in others):
        why = f"`{others[0]}` beside `{others[1]}`: Fluxion places none"
        return _problem(out, why, where, others[1])
    if len(kids) > 1 and not others:
        # slots side by side: Fluxion places the last one; the others only add their cores
        # and GPUs to what its node must have
        if at.group is None and not _holds_node(kids[-1][1]):
            why = "slots side by side with no node over them: Fluxion places none"
            return _problem(out, why, where, "slot")
        last, most = count(kids[-1][1]["count"]) or 0, max(count(c["count"]) or 0 for _, c in kids)
        if most > last:
            why = (
                f"slots side by side, one of {most} before the last of {last}: Fluxion places "
                "none (put the slot with the largest count last)"
            )
            return _problem(out, why, where, "slot")
        if at.group is not None:
            for _, c in kids[:-1]:
                _tally(c, at.within, at.group)
            at.group.mixed = True
        kids = kids[-1:]
    for k, child in kids:
        _place(child, (*path, "with", k), at, types, out)
        if out.problem is not None:
            return


def _tally(v: dict[str, Any], above: int, group: Group) -> None:
    """Add the cores and GPUs (and nodes) of ``v`` to ``group``'s."""
    n = above * (count(v.get("count")) or 0)
    if v.get("type") == "core":
        group.cores += n
    elif v.get("type") == "gpu":
        group.gpus += n
    elif v.get("type") == "node":
        group.count += n
    for c in v.get("with") or []:
        if isinstance(c, dict):
            _tally(c, n, group)
