"""RFC 31 constraints read against a site's R: the ranks a constraint selects (as runs of
ranks, never node by node), and, where a property, host or rank that every match must
have leaves a job no node, why in words. Standard library only (see :mod:`.checks`)."""

from __future__ import annotations

import itertools
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
            runs = notation.intersect(runs, notation.of_ids(ids))
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
