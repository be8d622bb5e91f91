"""Generated jobs for a site profile — `flux submit` command lines and jobspecs — and this
project's verdict on each, for the comparison with a real Flux instance configured from
the same profile (tests/flux/test_flux_site_proof.py).

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
from jobspec_lsp.cli.convert import site_findings
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
    props, hosts, queues, _, _ = _site_words(site)
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
        system = js["attributes"]["system"]
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
        out.append(copy.deepcopy(js))
    return out


def requests(site: profile.Site, per_kind: tuple[int, int], seed: int = 25) -> list[dict]:
    lines, specs = per_kind
    return [{"argv": a} for a in command_lines(site, lines, seed)] + [
        {"jobspec": j} for j in jobspecs(site, specs, seed)
    ]


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
