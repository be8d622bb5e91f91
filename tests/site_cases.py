"""Generated jobs for a site profile — `flux submit` command lines and jobspecs, some of
them with resources nested as Flux's tools never write them — and this project's verdict
on each, for the comparison with a real Flux instance configured from the same profile
(tests/flux/test_flux_site_proof.py).

The generator draws from what the profile holds (its queues, properties, hosts, node
sizes, limits) and from just past it (a miscased queue, one core more than a node has, a
minute over a limit), so that every check has cases on both sides of its line.
"""

from __future__ import annotations

import copy
import json
import random
import re

from jobspec_lsp import convert
from jobspec_lsp.cli.newsite import site_findings
from jobspec_lsp.diagnostics import Severity
from jobspec_lsp.rules import analysis
from jobspec_lsp.site import hostlists, notation, profile

# Flux's refusal (its message) -> the code that names its cause
CAUSES = (
    (re.compile(r"Invalid queue|is not a valid queue"), "JS650"),
    (re.compile(r"no queue specified"), "JS651"),
    (re.compile(r"host constraint contains invalid hosts"), "JS652"),
    (re.compile(r"Unsatisfiable request"), "JS653"),
    (re.compile(r"requested duration"), "JS654"),
    (re.compile(r"requested n(nodes|cores|gpus)"), "JS655"),
)


def expected_code(message: str) -> str | None:
    for pattern, code in CAUSES:
        if pattern.search(message):
            return code
    return None


def _site_words(site: profile.Site):
    props = sorted(site.properties())
    hosts = [h for c in site.classes for h in hostlists.expand(c.hosts)]
    queues = list(site.queues)
    cores = sorted({c.cores for c in site.classes})
    gpus = sorted({c.gpus for c in site.classes} - {0})
    return props, hosts, queues, cores, gpus


def command_lines(site: profile.Site, n: int, seed: int) -> list[list[str]]:
    rnd = random.Random(seed)
    props, hosts, queues, cores, gpus = _site_words(site)
    nodes = site.nodes
    out = []

    def pick(good: list, bad: list, p_bad: float = 0.2):
        return rnd.choice(bad if bad and rnd.random() < p_bad else good)

    for _ in range(n):
        argv: list[str] = []
        if queues and rnd.random() < 0.85:
            q = rnd.choice(queues)
            argv += ["-q", pick([q], [q.capitalize(), "nosuch"], 0.15)]
        elif not queues and rnd.random() < 0.05:
            argv += ["-q", "debug"]
        if rnd.random() < 0.5:
            argv += ["-N", str(pick([1, 1, 2], [3, nodes // 2 or 1, nodes, nodes + 1], 0.3))]
        if rnd.random() < 0.6:
            top = max(cores) * nodes
            argv += ["-n", str(pick([1, 2, 4, 8, 16], [33, top // 2 or 1, top, top + 1], 0.25))]
        if rnd.random() < 0.4:
            c = rnd.choice(cores)
            argv += ["-c", str(pick([1, 2, 4, c // 2 or 1], [c, c + 1], 0.3))]
        if rnd.random() < 0.3:
            g = rnd.choice(gpus or [1])
            argv += ["-g", str(pick([1, 2, g], [g + 1, 2 * g], 0.3))]
        if rnd.random() < 0.7:
            argv += ["-t", pick(["5m", "30m", "59m", "1h", "2h", "90"],
                                ["0", "61m", "90m", "8h", "9h", "12h", "1d", "25h", "3d"], 0.35)]  # fmt: skip
        if rnd.random() < 0.25:
            kinds = ["prop", "notprop", "host", "host", "badhost", "rank", "badrank"]
            kind = rnd.choice(kinds if props else kinds[2:])
            if kind == "prop":
                argv += [f"--requires={rnd.choice(props)}"]
            elif kind == "notprop":
                argv += [f"--requires=^{rnd.choice(props)}"]
            elif kind == "host":
                argv += [f"--requires=host:{rnd.choice(hosts)}"]
            elif kind == "badhost":
                argv += ["--requires=host:nosuch9"]
            elif kind == "rank":
                argv += [f"--requires=rank:{rnd.randrange(nodes)}"]
            else:
                argv += [f"--requires=rank:{nodes + 3}"]
        if "-N" in argv and rnd.random() < 0.3:
            argv += ["-x"]
        out.append([*argv, "true"])
    return out


def jobspecs(site: profile.Site, n: int, seed: int) -> list[dict]:
    """Jobspecs built from generated command lines, then changed as people write them by
    hand: constraints in and/or/not form, durations and queues set or removed."""
    rnd = random.Random(seed)
    out: list[dict] = []
    lines = command_lines(site, n * 3, seed + 1)
    for argv in lines:
        if len(out) == n:
            break
        try:
            conv = convert.from_command_line([*argv[:-1], "--format", "json", "true"])
        except convert.UsageError:
            continue
        if not conv.ok:
            continue
        js = json.loads(conv.text or "{}")
        _as_by_hand(rnd, site, js["attributes"]["system"])
        out.append(copy.deepcopy(js))
    return out


def _as_by_hand(rnd: random.Random, site: profile.Site, system: dict) -> None:
    """Constraints in and/or/not form, durations and queues set or removed."""
    props, hosts, queues, _, _ = _site_words(site)
    r = rnd.random()
    if r < 0.2 and props:
        system["constraints"] = {
            "and": [
                {"properties": [rnd.choice(props)]},
                {"not": [{"hostlist": [rnd.choice(hosts)]}]},
            ]
        }
    elif r < 0.35:
        system["constraints"] = {
            "or": [
                {"ranks": [str(rnd.randrange(site.nodes + 2))]},
                {"hostlist": [rnd.choice(hosts)]},
            ]
        }
    elif r < 0.45:
        system["constraints"] = {"hostlist": [hostlists.compress(rnd.sample(hosts, 2))]}
    if rnd.random() < 0.3:
        system["duration"] = rnd.choice([0, 60, 1800, 3600, 3660, 7200, 30000, 90000])
    if rnd.random() < 0.15:
        system.pop("queue", None)
    elif queues and rnd.random() < 0.15:
        system["queue"] = rnd.choice(queues)


# the nestings Flux's tools never write, by hand: levels from the top (a slot's contents
# last), the ones Fluxion places and the ones it refuses
NESTINGS = (
    ("slot", "node"), ("slot", "node"), ("slot", "node"), ("slot", "node"), ("slot", "node"),
    ("slot", "node", "slot"), ("slot", "node", "slot"), ("node", "slot"), ("node", "slot"),
    ("cluster", "slot", "node"), ("cluster", "node", "slot"), ("cluster", "slot"), ("slot",),
    ("node", "slot+slot"), ("slot", "node", "slot+slot"), ("node",),
    ("slot", "slot"), ("node", "node", "slot"), ("slot", "node", "node"), ("slot", "node", "socket"),
    ("node", "slot", "slot"), ("slot", "cluster", "node"), ("node", "socket", "slot"),
)  # fmt: skip


def _leaves(rnd: random.Random, cores: list[int], gpus: list[int]) -> list[dict]:
    c = rnd.choice(cores)
    core = {"type": "core", "count": rnd.choice([1, 2, c // 2 or 1, c, c, c + 1])}
    r = rnd.random()
    if r < 0.04:
        return [{"type": "gpu", "count": 1}]  # no core: Flux cannot count its size
    if r < 0.07:
        return [core, {"type": "core", "count": 1}]  # two cores side by side
    if r < 0.35 and gpus:
        g = rnd.choice(gpus)
        return [core, {"type": "gpu", "count": rnd.choice([1, g, g, g + 1])}]
    return [core]


def nested_jobspecs(site: profile.Site, n: int, seed: int) -> list[dict]:
    """Jobspecs whose resources nest as `flux submit` never writes them (a slot holding
    nodes, nodes holding slots holding..., a cluster around them, two slots in a node),
    with counts from the site's node sizes and just past them, then changed as by hand."""
    rnd = random.Random(seed)
    _, _, queues, cores, gpus = _site_words(site)
    out = []
    for _ in range(n):
        kids, labels, levels = _leaves(rnd, cores, gpus), [], rnd.choice(NESTINGS)
        for i, level in reversed(list(enumerate(levels))):
            if level.startswith("slot"):
                k = rnd.choice([1, 1, 2, 2, 3, 4, site.nodes // 2 or 1, site.nodes + 1])
                slot = {"type": "slot", "count": k, "with": kids}
                kids = [slot] + (
                    [{**slot, "with": _leaves(rnd, cores, gpus)}] if "+" in level else []
                )
                labels += kids
            else:
                under_slot = "slot" in levels[:i]
                k = rnd.choice([1, 1, 1, 2] if under_slot else [1, 2, 3, site.nodes // 2 or 1])
                kids = [{"type": level, "count": 1 if level == "cluster" else k, "with": kids}]
        for k, slot in enumerate(reversed(labels)):
            slot["label"] = "task" if k == 0 else f"s{k}"
        system: dict = {"duration": rnd.choice([60, 600, 1200])}
        if queues:
            system["queue"] = rnd.choice(queues)
        _as_by_hand(rnd, site, system)
        out.append({
            "version": 1,
            "resources": kids,
            "tasks": [{"command": ["true"], "slot": "task", "count": {"per_slot": 1}}],
            "attributes": {"system": system},
        })  # fmt: skip
    return out


def _shape(v: dict) -> str | None:
    """``v`` in RFC 46 shape notation (`flux submit --resources-shape`), if it has one."""
    if v.get("label", "task") != "task":
        return None
    text = v["type"] + (f"={v['count']}" if v["count"] != 1 else "")
    inside = [_shape(c) for c in v.get("with", [])]
    if None in inside:
        return None
    if len(inside) > 1:
        return f"{text}/[{';'.join(map(str, inside))}]"
    return f"{text}/{inside[0]}" if inside else text


def nested_requests(site: profile.Site, n: int, seed: int) -> list[dict]:
    """:func:`nested_jobspecs`, every third one that has a shape notation given as a
    `flux submit --resources-shape` command line instead."""
    out: list[dict] = []
    for k, js in enumerate(nested_jobspecs(site, n, seed)):
        system, shape = js["attributes"]["system"], _shape(js["resources"][0])
        if k % 3 or len(js["resources"]) > 1 or shape is None or "constraints" in system:
            out.append({"jobspec": js})
            continue
        argv = ["-q", system["queue"]] if "queue" in system else []
        argv += ["-t", f"{system['duration']}s", f"--resources-shape={shape}", "true"]
        out.append({"argv": argv})
    return out


def requests(site: profile.Site, per_kind: tuple[int, ...], seed: int = 25) -> list[dict]:
    """``per_kind``: how many command lines, jobspecs and (if given) nested jobspecs."""
    lines, specs, *nested = per_kind
    return (
        [{"argv": a} for a in command_lines(site, lines, seed)]
        + [{"jobspec": j} for j in jobspecs(site, specs, seed)]
        + nested_requests(site, sum(nested), seed)
    )


def our_verdict(site: profile.Site, request: dict) -> tuple[bool, list[str], list[str]]:
    """(refused, the codes of the errors, their messages) of one request."""
    if "argv" in request:
        argv = request["argv"]
        try:
            conv = convert.from_command_line(argv)
        except convert.UsageError as err:
            return True, ["usage"], [str(err)]
        if not conv.ok:
            return True, [d.code for d in conv.blockers], [d.message for d in conv.blockers]
        found = site_findings(argv, conv.text or "", site)
    else:
        found = analysis.check(
            json.dumps(request["jobspec"]), language="json", target="flux-core", site=site
        )
    errors = [d for d in found if d.severity == Severity.ERROR]
    return bool(errors), [d.code for d in errors], [d.message for d in errors]


def ranks_of(site: profile.Site) -> str:
    runs: notation.Runs = []
    for c in site.classes:
        runs = notation.union(runs, notation.idset(c.ranks))
    return notation.format_idset(runs)
