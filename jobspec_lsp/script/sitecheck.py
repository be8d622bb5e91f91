"""A script's job held to a site profile (JS650-JS655 at the option that asks it): the job
its directives ask for, and the jobs a driver script submits with `flux submit|run|alloc`.
Loaded only with a site profile (the boundary `batch._SITE_CHECKS`)."""

from __future__ import annotations

from jobspec_lsp.diagnostics import Diagnostic
from jobspec_lsp.fluxcli import argv, build, shell, submit
from jobspec_lsp.fluxcli import model as _model
from jobspec_lsp.fluxcli.values import Refused
from jobspec_lsp.job import directives, shellread
from jobspec_lsp.rules import site as site_rules
from jobspec_lsp.script.batch import BatchError, built_jobspec
from jobspec_lsp.script.reading import parse_script


def directive_findings(text: str, site, select, ignore) -> list[Diagnostic]:
    """JS65x of the job the directives ask for, each at the option that asks it."""

    script = directives.read(text)
    if script.sentinel is None:
        return []
    given = parse_script(script, [])
    try:  # files an option names are left out: a check never reads them
        js = built_jobspec(text, "script", "/", read_files=None)
    except (BatchError, RecursionError):
        return []
    return site_rules.diagnostics(
        site,
        js,
        lambda f: site_rules.locate_option(f, given, script.sentinel_span, text),
        select,
        ignore,
    )


def submission_findings(text: str, site, select, ignore) -> list[Diagnostic]:
    """JS65x of the jobs a script that is not itself a batch job submits to the site
    (`flux submit|run|alloc` lines of a script without directives: a driver run on a
    login node), each at the option that asks it. Lines with a shell expansion are
    known only when the script runs: not judged. Inside a batch job the allocation is
    the site (JS587, JS588)."""
    if directives.read(text).sentinel is not None or "flux" not in text:
        return []
    out: list[Diagnostic] = []
    # each line's findings kept by its text (offsets from the line's start) and the
    # reading in force: an edit elsewhere in the script is not checked again
    seen = site.cache.setdefault("submissions", {})
    if len(seen) > 4096:
        seen.clear()
    for cl in shell.find(text, shellread.shell_literals(text)):
        if cl.tool not in ("submit", "run", "alloc") or cl.dynamic or not cl.words:
            continue
        key = (
            text[cl.start : cl.end], cl.tool, _model.reading_key(),
            tuple(select or ()), tuple(ignore or ()),
        )  # fmt: skip
        if key not in seen:
            seen[key] = _submission_findings(text, cl, site, select, ignore)
        out += [
            Diagnostic(d.code, d.severity, d.message, d.start + cl.start, d.end + cl.start, d.data)
            for d in seen[key]
        ]
    return out


def _submission_findings(text: str, cl, site, select, ignore) -> list[Diagnostic]:
    """:func:`submission_findings` of one command line, offsets from its start."""

    words = [w.value for w in cl.words]
    try:
        ns, _ = submit.read(words if cl.tool != "alloc" else [*words, "true"])
        js, _ = build.submit_jobspec(ns, tool=cl.tool)
    except (submit.NewUsageError, Refused, RecursionError):
        return []  # the command line's own findings (JS584, JS585) say why
    given = argv.read(submit.command(), cl.words).given
    whole = (cl.start, cl.tool_end)

    def locate(f) -> tuple[int, int]:
        a, b = site_rules.locate_option(f, given, whole, text)
        return a - cl.start, b - cl.start

    return site_rules.diagnostics(site, js, locate, select, ignore)
