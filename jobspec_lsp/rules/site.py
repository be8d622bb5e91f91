"""JS65x: will the job run on *this* site? The checks of :mod:`jobspec_lsp.site.checks`
(a queue that does not exist, a duration or size over the queue's limits, resources no
set of the queue's nodes has) as rules, each at the token that causes it: a jobspec's
value, or the option of a batch script's directives that set it.

Run only when a site profile is given (``--site DIR``, ``site = "DIR"`` in the project
configuration, the server's ``site`` setting).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from jobspec_lsp.diagnostics import (
    JOBSPEC_KINDS,
    RULES,
    SCRIPT_KINDS,
    Diagnostic,
    Family,
    matches,
)
from jobspec_lsp.fluxcli import argv, submit
from jobspec_lsp.jobspec import examples
from jobspec_lsp.jobspec.tree import Mapping, Node, Sequence, to_python
from jobspec_lsp.site import checks
from jobspec_lsp.site.profile import Site

EXAMPLE_SITE = "examples/site"  # the profile the examples are checked against


def _js(system: str, resources: str = examples.ONE_CORE_SLOT) -> str:
    return examples.jobspec(version=1, resources=resources, system=examples.nested(system, 4))


def _gpus(n: int) -> str:
    return (
        "  - type: node\n    count: 1\n    with:\n      - type: slot\n        count: 1\n"
        "        label: task\n        with:\n          - type: core\n            count: 1\n"
        f"          - type: gpu\n            count: {n}\n"
    )


family = Family(kinds=JOBSPEC_KINDS + SCRIPT_KINDS)
UNKNOWN_QUEUE = family.error(
    """JS650 site-unknown-queue: The job names a queue the site does not have.

    Flux refuses the job at submission ("Invalid queue 'X' specified"), without saying
    which queues there are. Queue names are case-sensitive. The message lists the site's
    queues and the closest name.""",
    bad=_js("duration: 600\nqueue: Debug"),
    good=_js("duration: 600\nqueue: debug"),
    site=EXAMPLE_SITE,
)
NO_QUEUE = family.error(
    """JS651 site-no-queue: The job names no queue, and the site has no default one.

    A site with queues may leave out a default queue: every job that does not name one is
    then refused ("no queue specified"). Name one of the site's queues.""",
    bad=_js("duration: 600"),
    good=_js("duration: 600\nqueue: debug"),
    site="tests/data/sites/hetero",
)
UNKNOWN_HOST = family.error(
    """JS652 site-unknown-host: A host constraint names a host the site does not have.

    Flux refuses the job at submission ("host constraint contains invalid hosts"). The
    message lists the site's hosts.""",
    bad=_js("duration: 600\nqueue: debug\nconstraints: {hostlist: [node99]}"),
    good=_js("duration: 600\nqueue: debug\nconstraints: {hostlist: [node1]}"),
    site=EXAMPLE_SITE,
)
UNSATISFIABLE = family.error(
    """JS653 site-unsatisfiable: No set of the queue's nodes can hold what the job asks.

    More nodes than the queue has, more cores or GPUs per node than its nodes have, a
    property no node has (or none in the queue: a queue takes only the nodes with its
    `requires` properties), a rank or host not in the queue, or a nesting fluxion cannot
    place on the site's nodes (a node inside a node, a slot inside a slot; a slot holding a
    node, or a node holding slots, is placed as written). Flux's feasibility check says
    only "Unsatisfiable request"; a site without it accepts the job, which then never
    starts. The message says what the job asks and what the queue's nodes have.""",
    bad=_js("duration: 600\nqueue: gpu", resources=_gpus(8)),
    good=_js("duration: 600\nqueue: gpu", resources=_gpus(4)),
    site=EXAMPLE_SITE,
)
DURATION = family.error(
    """JS654 site-duration-limit: The job's duration is over its queue's limit.

    Flux's job-manager refuses it ("requested duration exceeds policy limit"). A job
    without a duration takes the queue's default, else counts as unlimited: where that
    default is over the limit, every job sent there without one is refused
    (flux-core#6341).""",
    bad=_js("duration: 7200\nqueue: debug"),
    good=_js("duration: 3600\nqueue: debug"),
    site=EXAMPLE_SITE,
)
SIZE = family.error(
    """JS655 site-size-limit: The job's size is over (or under) its queue's limits.

    `policy.limits.job-size` bounds the nodes, cores and GPUs of a job, counted as Flux
    counts them: nodes multiplied down the resources (0 for a job that names none),
    cores and GPUs as slots times each slot's (a whole-node job counts 1 core per node).
    Flux refuses the job at submission.""",
    bad=_js(
        "duration: 600\nqueue: debug", resources=_gpus(1).replace("count: 1\n", "count: 3\n", 1)
    ),
    good=_js(
        "duration: 600\nqueue: debug",
        resources=_gpus(0).replace("          - type: gpu\n            count: 0\n", ""),
    ),
    site=EXAMPLE_SITE,
)

CODES = {
    "unknown-queue": UNKNOWN_QUEUE,
    "no-queue": NO_QUEUE,
    "unknown-host": UNKNOWN_HOST,
    "unsatisfiable": UNSATISFIABLE,
    "duration": DURATION,
    "size": SIZE,
}


def diagnostics(
    site: Site,
    jobspec: object,
    locate: Callable[[checks.Finding], tuple[int, int]],
    select: Any = None,
    ignore: Any = None,
) -> list[Diagnostic]:
    """The site's findings on ``jobspec`` (a plain dict), each where ``locate`` puts it."""
    out = []
    for f in checks.check(site, jobspec):
        code = CODES[f.rule]
        if (select and not matches(code, select)) or (ignore and matches(code, ignore)):
            continue
        start, end = locate(f)
        out.append(
            Diagnostic(code, RULES[code].severity, f.message, start, end, {"cause": f.cause})
        )
    return out


def jobspec_diagnostics(
    site: Site, root: Node, select: Any = None, ignore: Any = None
) -> list[Diagnostic]:
    """The site's findings on a parsed jobspec (its tree's ``root``), each at the value
    (else the key) its path leads to."""
    return diagnostics(site, to_python(root), lambda f: locate_in(root, f.path), select, ignore)


def locate_in(root: Node | None, path: tuple[Any, ...]) -> tuple[int, int]:
    """The span of ``path`` in a document: the value there, or the key of the deepest
    mapping entry on the way when the rest is missing."""
    node, last = root, None
    for step in path:
        if isinstance(node, Mapping) and step in node:
            last = node.key_node(step)
            node = node.get(step)
        elif isinstance(node, Sequence) and isinstance(step, int) and step < len(node.items):
            node = node.items[step]
        else:
            node = None
            break
    target = node if node is not None and not isinstance(node, Mapping | Sequence) else last
    if target is None:
        target = last or root
    if target is None:
        return 0, 0
    return target.start, target.end


# the options of flux batch/submit/run that set what a finding is about, by its cause
# (--tasks-per-node and --tasks-per-core never change the resources: not here)
OPTIONS = {
    "queue": ("queue",),
    "duration": ("time-limit",),
    "nodes": ("nodes",),
    "slots": ("nslots", "ntasks", "cores"),
    "cores": ("cores-per-slot", "cores-per-task", "cores"),
    "gpus": ("gpus-per-slot", "gpus-per-task", "gpus-per-node"),
    "constraints": ("requires",),
    "resources": ("nodes", "nslots", "ntasks", "resources-shape", "resources-json"),
}
# where a cause no option names comes from instead: cores and GPUs in all are the slots'
FALLBACK = {"cores": "slots", "gpus": "slots", "slots": "nodes"}
_ATTRIBUTE = {"queue": "queue", "duration": "duration", "constraints": "constraints"}
_EDGE = r"A-Za-z0-9_.\-\[\]"  # what continues a property, host or idset word


def locate_option(
    f: checks.Finding, given: list[Any], fallback: tuple[int, int], text: str | None = None
) -> tuple[int, int]:
    """Where a command line or a script's directives say what ``f`` is about: the value
    of the last option that sets it (for a constraint, the word of the last ``--requires``
    that names it), else the options of what it comes from, else ``fallback`` (the
    sentinel, the whole line). ``text``: what the options' offsets are into."""
    if f.cause == "constraints" and f.word:
        pattern = re.compile(rf"(?<![{_EDGE}]){re.escape(f.word)}(?![{_EDGE}])")
        for g in reversed(given):
            if g.option.long != "requires" or g.value_end <= g.value_start:
                continue
            raw = text[g.value_start : g.value_end] if text is not None else g.value or ""
            found = list(pattern.finditer(raw))
            if found:
                return g.value_start + found[-1].start(), g.value_start + found[-1].end()
    cause: str | None = f.cause
    while cause is not None:
        names = OPTIONS.get(cause, ())
        attribute = _ATTRIBUTE.get(cause)
        for g in reversed(given):
            long = g.option.long
            key = (g.value or "").split("=", 1)[0].lstrip(".").removeprefix("system.")
            if long in names or (long == "setattr" and attribute is not None and key == attribute):
                if g.value_end <= g.value_start:
                    return g.name.start, g.name.end
                return g.value_start, g.value_end
        cause = FALLBACK.get(cause)
    return fallback


def command_line_diagnostics(
    words: list[str], jobspec: object, site: Site, select: Any = None, ignore: Any = None
) -> list[Diagnostic]:
    """JS65x of the job a `flux submit|run` command line (its arguments, ``words``)
    builds, at offsets into ``" ".join(words)``: the option that asks it, else the
    whole line."""
    at, spans = 0, []
    for w in words:
        spans.append(argv.Word(w, at, at + len(w)))
        at += len(w) + 1
    reading = argv.read(submit.command(), spans)
    whole = (0, max(at - 1, 0))
    return diagnostics(
        site, jobspec, lambda f: locate_option(f, reading.given, whole), select, ignore
    )
