"""A site profile: the site's own Flux configuration, read as a Flux system instance reads
its conf.d, and the resources (RFC 20 R) it points at.

A profile is a directory of ``*.toml`` files, merged in name order the way Flux merges
conf.d (a table may be split across files; a later file's value wins), with the keys
flux-core 0.88 accepts in ``[resource]``, ``[queues.NAME]``, ``[policy]`` (limits, jobspec
defaults, access) and ``[ingest]`` — an unknown key is refused as Flux refuses it, naming
the file and line. ``[resource] path`` is the R file; a relative path is resolved against
the profile's directory, so a profile can be copied and committed (Flux itself resolves it
against the broker's working directory).

The R is held as node classes — ranks with the same cores, GPUs and properties — as idsets,
never expanded per node, so a 10,000-node site is a handful of classes.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    import tomllib
except ImportError:  # pragma: no cover - Python 3.10: tomli, as the rest of the package reads
    import tomli as tomllib  # type: ignore[no-redef,unused-ignore]

from jobspec_lsp.site import hostlists, notation
from jobspec_lsp.text import files as safe


class ProfileError(ValueError):
    """A broken profile: the file (and line, where one is known) and what is wrong."""

    def __init__(self, path: Path | str, message: str, line: int | None = None):
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {message}")
        self.path = str(path)
        self.line = line
        self.message = message


# the keys flux-core 0.88 takes in each table (its config is strict: anything else is refused)
_POLICY = {"jobspec", "limits", "access", "scheduler"}
_LIMITS = {"duration", "job-size"}
_SIZE = {"min", "max"}
_COUNTS = {"nnodes", "ncores", "ngpus"}
_DEFAULTS = {"duration", "queue"}
_QUEUE = {"requires", "policy", "parent"}
_RESOURCE = {
    "path", "config", "noverify", "verify", "exclude", "scheduling", "norestrict",
    "rediscover", "journal-max", "history",
}  # fmt: skip
_BAD_PROPERTY = re.compile(r"[ \t!&'\"`|()]")


@dataclass(frozen=True)
class Limits:
    duration: float | None = None  # seconds; 0 = unlimited; None = not set here
    min: dict[str, int] = field(default_factory=dict)  # nnodes/ncores/ngpus
    max: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Queue:
    name: str
    requires: tuple[str, ...] = ()
    limits: Limits = Limits()
    default_duration: float | None = None
    parent: str | None = None


@dataclass(frozen=True)
class NodeClass:
    """Ranks alike: the same cores, GPUs and properties."""

    ranks: str  # an RFC 22 idset
    count: int
    cores: int
    gpus: int
    properties: tuple[str, ...]
    hosts: str  # the hostlist of these ranks ("" when R names none)


@dataclass(frozen=True)
class Site:
    directory: str
    config: dict[str, Any]  # the merged configuration, as `flux config get` prints it
    queues: dict[str, Queue]
    limits: Limits  # [policy.limits]
    default_queue: str | None
    default_duration: float | None
    classes: tuple[NodeClass, ...]
    r_path: str | None
    cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def nodes(self) -> int:
        return sum(c.count for c in self.classes)

    def rank_of_host(self) -> dict[str, int]:
        """Each host's rank (built on first use: only a host constraint needs it)."""
        got = self.cache.get("hosts")
        if got is None:
            got = {}
            for c in self.classes:
                if not c.hosts:
                    continue
                ranks = (r for a, b in notation.idset(c.ranks) for r in range(a, b + 1))
                got.update(zip(hostlists.expand(c.hosts), ranks, strict=False))
            self.cache["hosts"] = got
        return got

    def effective(self, name: str | None) -> Queue:
        """A queue as Flux applies it: the site's limits and defaults, then its parent's,
        then its own, key by key (``None``: the site without queues)."""
        chain: list[Queue] = []
        q = self.queues.get(name) if name is not None else None
        while q is not None and len(chain) < 8:
            chain.insert(0, q)
            q = self.queues.get(q.parent) if q.parent else None
        duration, default = self.limits.duration, self.default_duration
        low, high = dict(self.limits.min), dict(self.limits.max)
        requires: tuple[str, ...] = ()
        for q in chain:
            duration = q.limits.duration if q.limits.duration is not None else duration
            default = q.default_duration if q.default_duration is not None else default
            low.update(q.limits.min)
            high.update(q.limits.max)
            requires = q.requires or requires
        return Queue(name or "", requires, Limits(duration, low, high), default, None)

    def properties(self) -> set[str]:
        return {p for c in self.classes for p in c.properties}


def _line_of(text: str, key: str) -> int | None:
    m = re.search(rf"^\s*\[?[\w.\"-]*\b{re.escape(key)}\b", text, re.M)
    return text.count("\n", 0, m.start()) + 1 if m else None


def _merge(into: dict[str, Any], add: dict[str, Any]) -> None:
    """As Flux merges conf.d files: tables table by table, a later file's value winning
    (`flux config get -c DIR` shows the same)."""
    for k, v in add.items():
        if k in into and isinstance(into[k], dict) and isinstance(v, dict):
            _merge(into[k], v)
        else:
            into[k] = v


def read_config(directory: Path) -> tuple[dict[str, Any], dict[str, list[tuple[Path, str]]]]:
    """The merged TOML of a conf.d directory, and for each top-level table the file (and
    its text) that gave it, for messages."""
    if not directory.is_dir():
        raise ProfileError(directory, "not a directory (a site profile is a conf.d directory)")
    merged: dict[str, Any] = {}
    origin: dict[str, list[tuple[Path, str]]] = {}
    files = sorted(directory.glob("*.toml"))
    if not files:
        raise ProfileError(directory, "no *.toml files")
    for path in files:
        text = _read_text(path, "a TOML file of the profile")
        deep = safe.too_deep(text, comment="#")
        if deep is not None:
            raise ProfileError(path, f"TOML nested deeper than {safe.MAX_DEPTH} levels", deep)
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as err:
            m = re.search(r"\(at line (\d+)", str(err))
            raise ProfileError(path, f"TOML: {err}", int(m.group(1)) if m else None) from None
        except RecursionError:
            raise ProfileError(path, "TOML nested too deeply to read") from None
        for k in data:
            origin.setdefault(k, []).append((path, text))
        _merge(merged, data)
    return merged, origin


def _read_text(path: Path, what: str) -> str:
    """The UTF-8 text of one of the profile's files, read with a document's limits: a
    regular file (a FIFO there would block every reader), at most 64 MiB."""
    try:
        return safe.read_regular(path).decode("utf-8")
    except safe.Unreadable as err:
        raise ProfileError(path, f"cannot read {what}: {err}") from None
    except UnicodeDecodeError:
        raise ProfileError(path, "not UTF-8 text") from None


def _where(origin, table: str, key: str) -> tuple[Path | str, int | None]:
    """The file (and line) of ``key`` under the top-level ``table``: the last file giving
    the table that holds the key (a later file's value wins), else the first."""
    files = origin.get(table) or [("?", "")]
    for path, text in reversed(files):
        line = _line_of(text, key) if text else None
        if line:
            return path, line
    return files[0][0], None


def _check_keys(value: Any, allowed: set[str], name: str, origin, table: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        path, line = _where(origin, table, name.rsplit(".", 1)[-1])
        raise ProfileError(path, f"[{name}] must be a table", line)
    for k in value:
        if k not in allowed:
            path, line = _where(origin, table, k)
            close = sorted(allowed)
            raise ProfileError(
                path, f"[{name}] has no key {k!r} (Flux takes: {', '.join(close)})", line
            )
    return value


def _duration(value: Any, name: str, origin, table: str) -> float:
    try:
        if not isinstance(value, str):
            raise ValueError(value)
        return notation.fsd(value)
    except ValueError:  # a FormatError is one
        path, line = _where(origin, table, name.rsplit(".", 1)[-1])
        raise ProfileError(
            path, f"{name} = {value!r} is not a Flux Standard Duration", line
        ) from None


def _limits(value: Any, name: str, origin, table: str) -> Limits:
    value = _check_keys(value, _LIMITS, name, origin, table)
    duration = (
        _duration(value["duration"], f"{name}.duration", origin, table)
        if ("duration" in value)
        else None
    )
    size = _check_keys(value.get("job-size", {}), _SIZE, f"{name}.job-size", origin, table)
    bounds: dict[str, dict[str, int]] = {"min": {}, "max": {}}
    for side in ("min", "max"):
        counts = _check_keys(size.get(side, {}), _COUNTS, f"{name}.job-size.{side}", origin, table)
        for k, v in counts.items():
            if not isinstance(v, int) or isinstance(v, bool) or v < -1:
                path, line = _where(origin, table, k)
                raise ProfileError(
                    path, f"{name}.job-size.{side}.{k} = {v!r}: an integer >= -1", line
                )
            bounds[side][k] = v
    return Limits(duration, bounds["min"], bounds["max"])


def _policy(value: Any, name: str, origin, table: str, queue: bool):
    value = _check_keys(value, _POLICY, name, origin, table)
    limits = _limits(value.get("limits", {}), f"{name}.limits", origin, table)
    jobspec = _check_keys(value.get("jobspec", {}), {"defaults"}, f"{name}.jobspec", origin, table)
    defaults = _check_keys(
        jobspec.get("defaults", {}), {"system"}, f"{name}.jobspec.defaults", origin, table
    )
    system = _check_keys(
        defaults.get("system", {}), _DEFAULTS, f"{name}.jobspec.defaults.system", origin, table
    )
    if queue and "queue" in system:
        path, line = _where(origin, table, "queue")
        raise ProfileError(path, f"[{name}] must not set a default queue (Flux refuses it)", line)
    dur = system.get("duration")
    default_duration = (
        _duration(dur, f"{name}.jobspec.defaults.system.duration", origin, table)
        if dur is not None
        else None
    )
    return limits, default_duration, system.get("queue")


def load(directory: str | Path) -> Site:
    """The site profile in ``directory``; ProfileError names the file and line of what is
    wrong."""
    directory = Path(directory)
    config, origin = read_config(directory)
    return from_config(config, origin, directory)


def from_config(
    config: dict[str, Any], origin=None, directory: Path | None = None, r: Any = None
) -> Site:
    """The site of a merged configuration (``origin``: where each table came from, for
    messages; ``r``: the R itself, when it is not read from ``[resource] path``)."""
    origin = origin or {}
    directory = directory or Path(".")
    # other tables (accounting, systemd, a site's own) are Flux's or its modules': Flux
    # starts with any, and nothing here reads them
    limits, default_duration, default_queue = _policy(
        config.get("policy", {}), "policy", origin, "policy", queue=False
    )
    queues: dict[str, Queue] = {}
    for qname, q in _check_keys(
        config.get("queues", {}), set(config.get("queues", {})), "queues", origin, "queues"
    ).items():
        q = _check_keys(q, _QUEUE, f"queues.{qname}", origin, "queues")
        requires = q.get("requires", [])
        if not isinstance(requires, list) or any(
            not isinstance(r, str) or not r or _BAD_PROPERTY.search(r) for r in requires
        ):
            path, line = _where(origin, "queues", "requires")
            raise ProfileError(
                path, f"[queues.{qname}] requires must be an array of property names", line
            )
        qlimits, qdur, _ = _policy(
            q.get("policy", {}), f"queues.{qname}.policy", origin, "queues", queue=True
        )
        queues[qname] = Queue(qname, tuple(requires), qlimits, qdur, q.get("parent"))
    for q in queues.values():
        _check_parent(q, queues, origin)
    if default_queue is not None and default_queue not in queues:
        path, line = _where(origin, "policy", "queue")
        raise ProfileError(path, f"the default queue {default_queue!r} is not in [queues]", line)
    resource = _check_keys(config.get("resource", {}), _RESOURCE, "resource", origin, "resource")
    classes: tuple[NodeClass, ...] = ()
    r_path = None
    if r is not None:
        classes = classes_of(r, "R")
    elif "path" in resource:
        rp = Path(str(resource["path"]))
        rp = rp if rp.is_absolute() else directory / rp
        r_path = str(rp)
        classes = read_r(rp)
    return Site(
        str(directory), config, queues, limits, default_queue, default_duration, classes, r_path
    )


def _check_parent(q: Queue, queues: dict[str, Queue], origin) -> None:
    """A virtual queue's parent: a configured queue, not itself by any way round."""
    if q.parent is None:
        return
    path, line = _where(origin, "queues", "parent")
    if not isinstance(q.parent, str) or q.parent not in queues:
        raise ProfileError(
            path, f"[queues.{q.name}] parent = {q.parent!r} is not a configured queue", line
        )
    seen = {q.name}
    p: Queue | None = queues[q.parent]
    while p is not None:
        if p.name in seen:
            raise ProfileError(path, f"[queues.{q.name}] parent: a cycle of parents", line)
        seen.add(p.name)
        p = queues.get(p.parent) if isinstance(p.parent, str) else None


def _count(idset: str) -> int:
    return sum(hi - lo + 1 for lo, hi in notation.idset(idset)) if idset else 0


def read_r(path: Path) -> tuple[NodeClass, ...]:
    """Node classes of an RFC 20 R file (as `flux R encode` or `flux resource R` write it)."""
    text = _read_text(path, "the R file")
    deep = safe.too_deep(text)
    if deep is not None:
        raise ProfileError(
            path, f"not an RFC 20 R (JSON nested deeper than {safe.MAX_DEPTH} levels)", deep
        )
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProfileError(path, "not an RFC 20 R (not JSON)") from None
    return classes_of(data, path)


def classes_of(data: Any, path: Path | str) -> tuple[NodeClass, ...]:
    """Node classes of an R (the JSON object)."""
    try:
        lite = data["execution"]["R_lite"]
        execution = data["execution"]
        return _classes(lite, execution)
    except (KeyError, TypeError, AttributeError):
        raise ProfileError(path, "not an RFC 20 R (no execution.R_lite)") from None
    except ValueError as err:
        raise ProfileError(path, f"not an RFC 20 R ({err})") from None


def _classes(lite: Any, execution: dict[str, Any]) -> tuple[NodeClass, ...]:
    props: dict[str, list[tuple[int, int]]] = {
        name: notation.idset(ranks) for name, ranks in execution.get("properties", {}).items()
    }
    hosts = _hosts(execution.get("nodelist", []))
    out: dict[tuple[int, int, tuple[str, ...]], list[tuple[int, int]]] = {}
    present: notation.Runs = []  # every rank of R: the nodelist names them in this order
    for entry in lite:
        present = notation.union(present, notation.idset(entry["rank"]))
    for entry in lite:
        children = entry.get("children", {})
        cores = _count(children.get("core", ""))
        gpus = _count(children.get("gpu", ""))
        for lo, hi in notation.idset(entry["rank"]):
            # split the run where properties change: each piece is one class
            cuts = {lo, hi + 1}
            for runs in props.values():
                for a, b in runs:
                    for x in (a, b + 1):
                        if lo < x <= hi:
                            cuts.add(x)
            edges = sorted(cuts)
            for a, b in zip(edges, edges[1:], strict=False):
                have = tuple(
                    sorted(n for n, runs in props.items() if any(x <= a <= y for x, y in runs))
                )
                out.setdefault((cores, gpus, have), []).append((a, b - 1))
    classes = []
    for (cores, gpus, have), unsorted in out.items():
        runs = notation.union([], unsorted)  # R_lite may list its ranks in any order
        ranks = notation.format_idset(runs)
        names = [
            h for lo, hi in runs for h in hosts[_position(present, lo) : _position(present, hi) + 1]
        ]
        classes.append(
            NodeClass(ranks, _count(ranks), cores, gpus, have, _compress(names) if names else "")
        )
    return tuple(sorted(classes, key=lambda c: notation.idset(c.ranks)[0]))


def _position(present: notation.Runs, rank: int) -> int:
    """How many ranks of R come before ``rank``: its host's place in the nodelist."""
    n = 0
    for a, b in present:
        if rank <= b:
            return n + max(rank - a, 0)
        n += b - a + 1
    return n


def _hosts(nodelist: Any) -> list[str]:
    """The host names of R's nodelist, in rank order."""
    if isinstance(nodelist, str):
        nodelist = [nodelist]  # RFC 20 writes a list; a string is read as one entry
    if not isinstance(nodelist, list):
        raise ValueError("nodelist is not a list of hostlists")
    out: list[str] = []
    for entry in nodelist:
        out.extend(hostlists.expand(entry))
    return out


def _compress(names: list[str]) -> str:
    return hostlists.compress(names)


def _fmt_duration(seconds: float | None) -> str:
    return "-" if seconds is None else notation.duration_text(seconds)


def _fmt_size(limits: Limits) -> str:
    parts = [f"{k} ≥ {v}" for k, v in limits.min.items() if v > 0]
    parts += [f"{k} ≤ {v}" for k, v in limits.max.items() if v >= 0]
    return ", ".join(parts) or "-"


def traps(site: Site) -> list[str]:
    """Queues whose default duration is over their own limit: every job sent there
    without -t is refused (flux-core#6341)."""
    out = []
    for name in site.queues:
        q = site.effective(name)  # the site's, a parent's, its own: key by key
        default, limit = q.default_duration, q.limits.duration
        if default and limit and default > limit:
            out.append(
                f"a job sent to queue {q.name} without -t is refused: its default duration "
                f"{_fmt_duration(default)} is over its limit {_fmt_duration(limit)} "
                "(flux-core#6341)"
            )
    return out


def eligible(site: Site, name: str) -> list[NodeClass]:
    """The node classes a queue takes (those with every property it requires)."""
    q = site.effective(name)
    return [c for c in site.classes if set(q.requires) <= set(c.properties)]


def queue_brief(site: Site, name: str) -> str:
    """One line on a queue, as completion shows it: nodes, duration limit and default."""
    q = site.effective(name)
    nodes = sum(c.count for c in eligible(site, name))
    parts = [f"{nodes} nodes"]
    if q.limits.duration:
        parts.append(f"≤ {_fmt_duration(q.limits.duration)}")
    if q.default_duration:
        parts.append(f"default {_fmt_duration(q.default_duration)}")
    size = _fmt_size(q.limits)
    if size != "-":
        parts.append(size)
    return ", ".join(parts) + (" (default queue)" if name == site.default_queue else "")


def queue_markdown(site: Site, name: str) -> str:
    """What hover shows of a queue: its nodes, requirements, limits and defaults."""
    q = site.effective(name)
    lines = [f"**queue `{name}`**" + (" (the default)" if name == site.default_queue else "")]
    if q.requires:
        lines.append("requires " + ", ".join(f"`{p}`" for p in q.requires))
    for c in eligible(site, name):
        gpus = f", {c.gpus} GPUs" if c.gpus else ""
        lines.append(
            f"- `{c.hosts or 'ranks ' + c.ranks}`: {c.count} nodes of {c.cores} cores{gpus}"
        )
    lines.append(
        f"duration: at most {_fmt_duration(q.limits.duration) if q.limits.duration else 'unlimited'}"
        f"; default {_fmt_duration(q.default_duration) if q.default_duration else 'none'}"
    )
    lines.append(f"size: {_fmt_size(q.limits) if _fmt_size(q.limits) != '-' else 'no limits'}")
    lines.extend(f"note: {t}" for t in traps(site) if f"queue {name} " in t)
    return "\n\n".join(lines) + f"\n\n(site profile `{site.directory}`)"


def summary(site: Site) -> str:
    """What `jobspec site show DIR` prints: node types, queues and their limits."""
    lines = [f"site {site.directory}: {site.nodes} nodes in {len(site.classes)} node type(s)"]
    for c in site.classes:
        props = ", ".join(c.properties) or "no properties"
        lines.append(
            f"  {c.hosts or 'ranks ' + c.ranks}: {c.count} x {c.cores} cores, {c.gpus} gpus "
            f"({props})"
        )
    lines.append(
        f"limits: duration {_fmt_duration(site.limits.duration)}, size {_fmt_size(site.limits)}"
        f"; default duration {_fmt_duration(site.default_duration)}"
    )
    if not site.queues:
        lines.append("no queues")
    for q in site.queues.values():
        nodes = sum(c.count for c in eligible(site, q.name))
        mark = " (default)" if q.name == site.default_queue else ""
        mark += f" (parent {q.parent})" if q.parent else ""
        requires = site.effective(q.name).requires
        req = f" requires {', '.join(requires)};" if requires else ""
        lines.append(
            f"queue {q.name}{mark}:{req} {nodes} nodes; duration "
            f"{_fmt_duration(q.limits.duration)}, size {_fmt_size(q.limits)}, default duration "
            f"{_fmt_duration(q.default_duration)}"
        )
    lines.extend(f"note: {t}" for t in traps(site))
    if len(site.queues) > 1 and site.default_queue is None:
        lines.append("note: no default queue: a job without -q is refused ('no queue specified')")
    return "\n".join(lines) + "\n"
