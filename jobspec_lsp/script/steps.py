"""The body's Flux command lines (`flux run|submit|alloc|batch|bulksubmit`) of a script:
each read with its command's option table, its values checked as Flux checks them (JS584-
JS586), and each step held against what the script's directives allocate (JS587, JS588),
through the job model of :mod:`jobspec_lsp.job.steps`."""

from __future__ import annotations

import functools
import math

from jobspec_lsp.diagnostics import SCRIPT_KINDS, Diagnostic, Family, Severity
from jobspec_lsp.fluxcli import argv, model, shell, values
from jobspec_lsp.fluxcli import model as _model
from jobspec_lsp.fluxcli.argv import Given
from jobspec_lsp.fluxcli.values import Limit, value_problem
from jobspec_lsp.job import directives, shellread
from jobspec_lsp.job.steps import Allocation, Step, need
from jobspec_lsp.notations import formats
from jobspec_lsp.script.reading import parse_script, value_range
from jobspec_lsp.text import suggest

E, W = Severity.ERROR, Severity.WARNING

_L = "#!/bin/sh\n#flux: -N2\n\nflux run -N2 -n8 ./sim\n"
family = Family(kinds=SCRIPT_KINDS, good=_L)

LINE_OPTION = family.error(
    """JS584 command-line-bad-option: A `flux run|submit|alloc|batch|bulksubmit` line in the
    script gives an option that command refuses.

    The line is read with the command's own option table, as its argparse parser reads it: an
    unknown option, an abbreviation (Flux's parsers take none), an option without its value or
    a flag given one make the command fail when the script reaches it, long after submission.""",
    bad=_L.replace("-n8", "--ntask=8"),
    good=_L,
    fix="replacement",
)
LINE_VALUE = family.error(
    """JS585 command-line-bad-value: A `flux run|submit|...` line in the script gives an option a
    value Flux refuses.

    Counts are whole numbers, -t minutes or a Flux Standard Duration, dependencies name real
    job ids, and so on, as for directives. A value holding a shell expansion (`-n $NTASKS`) is
    known only when the script runs: it is not judged.""",
    bad=_L.replace("-n8", "-n eight"),
    good=_L,
)
MINI = family.error(
    """JS586 flux-mini-removed: `flux mini run|submit|...`: the `mini` form was removed from
    Flux.

    flux-core once spelled its submission commands `flux mini run`, `flux mini submit`, ...;
    they are `flux run`, `flux submit`, ... now, and `flux mini` no longer exists. The fix
    removes `mini`.""",
    bad=_L.replace("flux run", "flux mini run"),
    good=_L,
    fix="replacement",
)
LINE_TOO_BIG = family.error(
    """JS587 command-line-beyond-allocation: A `flux run` or `flux submit` line asks for more
    nodes than the batch job has.

    Inside a batch job, `flux run` and `flux submit` get the job's own resources: a job asking
    for more nodes than the directives allocate can never start. Flux refuses it as
    unsatisfiable when the script reaches it, and that step fails.""",
    bad=_L.replace("-N2 -n8", "-N4 -n8"),
    good=_L,
)
LINE_TOO_MANY_CORES = family.warning(
    """JS588 command-line-beyond-allocated-cores: A `flux run` or `flux submit` line asks for
    more cores or GPUs than the batch job allocates.

    A batch job's instance holds exactly the cores and GPUs its directives ask for (`-n` slots
    of `-c` cores and `-g` GPUs), not whole nodes, unless `-x` or `-N` alone makes them
    exclusive. A `flux run -n 128` inside `#flux: -n 64` needs 128 cores where the instance
    has 64: Flux refuses it at once as unsatisfiable (seen in a real instance: `alloc denied
    due to type="unsatisfiable"`); tasks never share a core unless asked to. A warning, not an
    error: a site whose scheduler gives whole nodes may hold enough.""",
    bad=_L.replace("#flux: -N2\n", "#flux: -N2 -n8\n").replace("-N2 -n8 ./sim", "-n16 ./sim"),
    good=_L.replace("#flux: -N2\n", "#flux: -N2 -n8\n").replace("-N2 -n8 ./sim", "-n8 ./sim"),
)


# counts flux run/submit/bulksubmit read with int() after parsing (no type= in the table)
_LINE_INTS = {
    "nodes": 1, "ntasks": 1, "cores-per-task": 1, "gpus-per-task": 0, "cores": 1,
    "tasks-per-node": 1, "tasks-per-core": 1, "gpus-per-node": 0,
}  # fmt: skip


def command_line_checks(text: str) -> list[Diagnostic]:
    """JS584-JS587 for the Flux submission command lines in a script's body (see
    :mod:`.fluxcli.shell`): each read with its command's option table, its values
    checked as Flux checks them (words with a shell expansion left alone), and its node
    count held to what the script's directives allocate."""

    if "flux" not in text:
        return []
    lines = shell.segments(text, shellread.shell_literals(text))
    if not lines:
        return []
    out: list[Diagnostic] = []
    allocated = _allocation(text)
    version = _model.selected_version()
    written = shellread.written_heredocs(text) if allocated is not None else []
    for at, line in lines:  # each line's findings cached by its text: an edit elsewhere is free
        # the job's size is judged only for lines this job runs: not text a here-document
        # writes to a file, not a line sent to another instance (FLUX_URI=... flux run)
        here = allocated
        if here is not None and (
            any(a <= at < b for a, b in written)
            or "FLUX_URI=" in text[text.rfind("\n", 0, at) + 1 : at]
        ):
            here = None
        found = _line_findings(line, here, version, _model.reading_key())
        for code, severity, message, a, b, data in found:
            out.append(Diagnostic(code, severity, message, at + a, at + b, data))
    return out


@functools.lru_cache(maxsize=8192)
def _line_findings(line: str, allocation: Allocation | None, version: str, key=None) -> tuple:
    """:func:`command_line_checks` of one command line (its text from `flux`) read as
    Flux ``version`` reads it (``key``: :func:`.model.reading_key`, for the cache: the
    site's plugin options in force too), as (code, severity, message, start, end, data) with
    offsets into ``line``."""

    out: list[Diagnostic] = []
    for cl in shell.find(line)[:1]:
        if cl.mini:
            a, b = cl.mini
            why = f"`flux mini {cl.tool}` was removed from Flux: write `flux {cl.tool}`"
            data = {"replacement": "", "title": f"Use flux {cl.tool}"}
            out.append(Diagnostic(MINI, E, why, a, b, data=data))
        cmd = model.command(cl.tool, version)
        words = cl.words
        # a dynamic word where an option is read may stand for any options: stop there
        for k in sorted(cl.dynamic):
            if words[k].value.startswith("-") or k == 0 or not _takes_value(cmd, words, k):
                words = words[:k]
                break
        reading = argv.read(cmd, words)
        dynamic = [words[k] for k in cl.dynamic if k < len(words)]
        for p in reading.problems:
            if not any(w.start <= p.start < w.end for w in dynamic):
                out.append(_option_problem(cmd, p))
        dynamic_at = {w.start for w in dynamic}
        for g in reading.given:
            if g.value is None or g.value_start in dynamic_at or "$" in g.value:
                continue
            out.extend(_value_findings(cl.tool, g, allocation))
        if allocation is not None and cl.tool in ("run", "submit", "bulksubmit"):
            out.extend(_beyond_cores(cl.tool, reading, dynamic_at, allocation))
    return tuple((d.code, d.severity, d.message, d.start, d.end, d.data) for d in out)


def _option_problem(cmd, p) -> Diagnostic:
    """JS584 for an option the command refuses, with the option meant where it is clear (an
    abbreviation of one, or a close name)."""
    message, data = p.message, None
    if p.kind == "unknown":
        names = [f"--{n}" for n in cmd.by_long]
        full = [n for n in names if n.startswith(p.name)] if p.name.startswith("--") else []
        if len(full) == 1:
            message += f"; Flux takes no abbreviation: write {full[0]}"
            data = {"replacement": full[0]}
        else:
            close = suggest.closest(p.name, names)
            if close:
                message += f"; did you mean {close}?"
                data = {"replacement": close}
    return Diagnostic(LINE_OPTION, E, message, p.start, p.end, data=data)


def _value_findings(tool: str, g: Given, allocation: Allocation | None) -> list[Diagnostic]:
    """JS585 for a value the command refuses; JS587 for a node count beyond the job's."""
    out: list[Diagnostic] = []
    least = _LINE_INTS.get(g.option.long)
    assert g.value is not None
    why = (
        values.count_problem(g.option, g.value, least)
        if least is not None and not g.option.integer
        else value_problem(g.option, g.value)
    )
    if not why and g.option.long == "input" and tool == "submit":
        if values.flux_idset(g.value) is not None:  # task ranks: flux run's only
            why = "per-task input not supported for submit (task ranks: flux run's)"
    if why:
        a, b = value_range(g)
        severity = W if isinstance(why, Limit) else E
        out.append(Diagnostic(LINE_VALUE, severity, f"flux {tool}: {why}", a, b))
    allocated = allocation.nodes if allocation is not None else None
    if (
        g.option.long == "nodes"
        and allocated is not None
        and tool in ("run", "submit", "bulksubmit")
    ):
        n = formats.python_int(g.value)
        if n is not None and n > allocated:
            a, b = value_range(g)
            why = (
                f"flux {tool} -N {n} inside a batch job of {allocated} "
                f"node{'s' if allocated != 1 else ''}: it can never start "
                "(Flux refuses it as unsatisfiable)"
            )
            out.append(Diagnostic(LINE_TOO_BIG, E, why, a, b))
    return out


# options after which a line's cores are not -n x -c (per-resource or whole requests)
_OTHER_SHAPES = {"cores", "tasks-per-core", "gpus-per-node", "exclusive",
                 "resources-shape", "resources-json"}  # fmt: skip


def _beyond_cores(tool: str, reading, dynamic_at: set[int], allocation: Allocation):
    """JS588 for a line asking for more cores (or GPUs) than the allocation holds."""
    last: dict[str, Given] = {}
    for g in reading.given:
        last[g.option.long] = g
        if g.option.long in _OTHER_SHAPES:
            return []
        if g.value is not None and (g.value_start in dynamic_at or "$" in g.value):
            return []  # a shell expansion: not judged
    counts = {}
    names = (("ntasks", 1), ("cores-per-task", 1), ("gpus-per-task", 0), ("nodes", 1),
             ("tasks-per-node", 1))  # fmt: skip
    for name, least in names:
        g = last.get(name)
        n = values.count(g.value or "", least) if g is not None else None
        if g is not None and n is None:
            return []  # a bad count: JS585 says so
        counts[name] = n
    step = Step(
        nodes=counts["nodes"],
        tasks=counts["ntasks"],
        per_node=counts["tasks-per-node"],
        cores=counts["cores-per-task"],
        gpus=counts["gpus-per-task"],
    )
    needed = need(step, allocation)
    at = (
        last.get("ntasks")
        or last.get("tasks-per-node")
        or last.get("cores-per-task")
        or last.get("gpus-per-task")
    )
    if at is None or needed is None:
        return []
    a, b = value_range(at)
    out = []
    where = needed.where
    for what, want, have in (
        ("core", needed.cores, needed.have_cores),
        ("GPU", needed.gpus, needed.have_gpus),
    ):
        if have is not None and want > have:
            out.append(
                Diagnostic(
                    LINE_TOO_MANY_CORES,
                    W,
                    f"flux {tool} asks for {want} {what}s{where}; the batch job's directives "
                    f"allocate {have} ({allocation.why}): Flux refuses it as unsatisfiable, "
                    "unless the site's scheduler gives whole nodes",
                    a,
                    b,
                )
            )
    return out


def _takes_value(cmd, words, k: int) -> bool:
    """Whether word ``k`` is read as the value of the option before it."""

    kind = argv.classify(cmd, words[k - 1].value)
    return bool(kind and kind[0] is not None and kind[0].value is not None and kind[2] is None)


def _allocation(text: str) -> Allocation | None:
    """What the script's directives allocate, where they say it: the node count, and
    the cores and GPUs when they are slots of a known size rather than whole nodes."""
    script = directives.read(text)
    if script.sentinel is None:
        return None
    last: dict[str, str | None] = {}
    for g in parse_script(script, []):
        if g.option.long in ("resources-shape", "resources-json"):
            return None
        last[g.option.long] = g.value
    nodes = values.count(last["nodes"] or "", 1) if "nodes" in last else None
    slots = values.count(last["nslots"] or "", 1) if "nslots" in last else None
    per_core = values.count(last.get("cores-per-slot") or "1", 1)
    per_gpu = values.count(last.get("gpus-per-slot") or "0", 0)
    whole = "exclusive" in last or slots is None or "add-brokers" in last
    if whole or slots is None or per_core is None or per_gpu is None:
        return Allocation(nodes, None, None, "") if nodes is not None else None
    if nodes is not None:  # each node gets ceil(slots / nodes) of them, as flux-core lays out
        slots = nodes * math.ceil(slots / nodes)
    laid = f"{nodes} node{'s' if nodes != 1 else ''} x " if nodes is not None else ""
    each = slots // nodes if nodes else slots
    why = f"{laid}{each} slot{'s' if each != 1 else ''} of {per_core} core{'s' if per_core != 1 else ''}"
    if per_gpu:
        why += f" and {per_gpu} GPU{'s' if per_gpu != 1 else ''}"
    return Allocation(nodes, slots * per_core, slots * per_gpu, why)
