"""``jobspec new``: `flux submit` options -> the jobspec V1 it submits."""

from __future__ import annotations

import argparse

from jobspec_lsp.convert.common import Change, Conversion, UsageError, _verified, dump
from jobspec_lsp.diagnostics import Severity
from jobspec_lsp.fluxcli import build, submit, values
from jobspec_lsp.rules import analysis


def from_command_line(argv: list[str]) -> Conversion:
    """``jobspec new`` options -> the jobspec ``flux submit`` would build.

    The options are `flux submit`'s, from Flux's own parser, read as Flux reads them
    (:mod:`.fluxcli.submit`). Raises :class:`UsageError` for options that make no
    jobspec; the result is checked with the rules of its version before it is returned."""
    try:
        ns, notes = submit.read(list(argv))
    except submit.NewUsageError as err:
        raise UsageError(str(err)) from None
    if ns.format not in ("yaml", "json"):
        raise UsageError(f"--format {ns.format!r}: yaml or json")
    conv = from_options(ns)
    conv.changes.extend(Change(n, 0, 0) for n in notes)
    return conv


def from_options(a: argparse.Namespace) -> Conversion:
    """:func:`from_command_line` for options already read (:func:`.fluxcli.submit.read`):
    the jobspec :mod:`.fluxcli.build` builds, written and checked as flux-core's ingest
    will check it."""
    try:
        js, notes = build.submit_jobspec(a)
    except values.Refused as err:
        raise UsageError(str(err)) from None
    changes = [Change(n, 0, 0) for n in notes]
    text = dump(js, a.format)
    # what flux submit writes, so checked as flux-core's ingest will check it: an RFC
    # rule it does not enforce (a shape's slot label, say) is a note, not a refusal
    conv = _verified(text, a.format, "v1", changes, target="flux-core")
    if conv.ok:
        for d in analysis.check(text, language=a.format, version_rules="v1", target="flux-core"):
            if d.severity == Severity.WARNING:
                conv.changes.append(Change(f"{d.message} [{d.code}]", 0, 0))
    return conv
