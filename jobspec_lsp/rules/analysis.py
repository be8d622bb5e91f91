"""The analysis core: text in, a positioned document and diagnostics out.

``check`` is what the CLI, the language server and the pre-commit hooks all
call; it holds no presentation logic.
"""

from __future__ import annotations

from jobspec_lsp import boundary
from jobspec_lsp.diagnostics import RULES, VERSION_RULES, Diagnostic, Severity
from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.jobspec.tree import Document
from jobspec_lsp.rules import (
    attributes,
    base,
    counts,
    streamed,
    structure,
    suppress,
    targets,
    tasks,
    v1,
)
from jobspec_lsp.rules.base import uses_v1 as uses_v1  # re-exported: its old home
from jobspec_lsp.text.pauses import no_gc_pauses

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

TARGETS = targets.TARGETS
# an optional feature, at its declared boundary: a site profile's checks (JS65x, with the
# profile's reader and the site's notations) load only when a profile is given
SITE_CHECKS = "jobspec_lsp.rules.site:jobspec_diagnostics"


def check(
    source: str | Document,
    *,
    language: str = "yaml",
    version_rules: str = "auto",
    select: Any = None,
    ignore: Any = None,
    target: str = targets.DEFAULT,
    site: Any = None,
) -> list[Diagnostic]:
    """All diagnostics for ``source`` (text or an already parsed document), sorted.

    ``target`` (see :mod:`targets`) sets what counts as an error: the RFC text, or
    what a real Flux component rejects; ``site``, a site profile
    (:mod:`jobspec_lsp.site.profile`), adds what stops the job running there (JS65x)."""
    if version_rules not in VERSION_RULES:
        raise ValueError(f"version_rules must be one of {', '.join(VERSION_RULES)}")
    if target not in targets.TARGETS:
        raise ValueError(f"target must be one of {', '.join(targets.TARGETS)}")
    doc = source if isinstance(source, Document) else parse(source, language)
    if len(doc.text) < 50_000:
        return _check(doc, version_rules, select, ignore, target, site)
    # the rules' many short-lived objects, promoted by collections while the rules run,
    # made a full collection of a big document's tree every few edits (0.3 s at 3 MB)
    with no_gc_pauses():
        return _check(doc, version_rules, select, ignore, target, site)


def _check(
    doc: Document, version_rules: str, select: Any, ignore: Any, target: str, site: Any
) -> list[Diagnostic]:
    out = _rfc_check(doc, version_rules, select, ignore)
    streamed = doc.root is None and "streamed" in doc.derived
    if target != "rfc" and not streamed:  # streamed: the target's checks are skipped (JS912)
        out = _for_target(doc, out, target, select, ignore)
    if site is not None and doc.root is not None:
        out += boundary.load(SITE_CHECKS)(site, doc.root, select, ignore)
    out.sort(key=Diagnostic.sort_key)
    if doc.language != "json":  # `# jobspec: ignore[...]` comments (JSON has none)
        # without a tree (a syntax error, a document too large) most rules did not run
        out = suppress.apply(
            doc.text, out, select, ignore, doc, every_rule_ran=doc.root is not None
        )
    return out


def _for_target(
    doc: Document, found: list[Diagnostic], target: str, select: Any, ignore: Any
) -> Any:
    """The RFC findings re-weighed for ``target``: an RFC error the target accepts
    becomes a warning saying so; what the target rejects is an error (an RFC error
    on the same token keeps its own words)."""
    ctx = base.Context(doc, False, select, ignore)
    rejected = [r for r in targets.rejections(doc, target) if ctx.enabled(r.code)]
    name = targets.NAMES[target]
    out: list[Diagnostic] = []
    kept_errors: list[Diagnostic] = []
    for d in found:
        if d.severity != Severity.ERROR or d.code.startswith("JS9"):
            out.append(d)  # YAML problems: Flux never reads the file as written
            continue
        if any(_overlap(d, r) for r in rejected):
            out.append(d)
            kept_errors.append(d)
            continue
        out.append(
            Diagnostic(
                d.code,
                Severity.WARNING,
                f"{d.message} ({_rfc_of(d.code)} requires this; {name} accepts it)",
                d.start,
                d.end,
                d.data,
            )
        )
    for r in rejected:
        if not any(_overlap(r, d) for d in kept_errors):
            out.append(r)
    return out


def _rfc_of(code: str) -> str:
    """The RFC a rule enforces (its declaration's ``rfc``), for the words of a
    re-weighed diagnostic."""
    rule = RULES.get(code)
    return rule.rfc if rule is not None and rule.rfc else "RFC 14"


def _overlap(a: Diagnostic, b: Diagnostic) -> bool:
    if a.start == a.end or b.start == b.end:
        return a.start == b.start or (b.start <= a.start < b.end) or (a.start <= b.start < a.end)
    return a.start < b.end and b.start < a.end


def _rfc_check(doc: Document, version_rules: str, select: Any, ignore: Any) -> list[Diagnostic]:
    ctx = base.Context(doc, uses_v1(doc, version_rules), select, ignore)
    out = [d for d in doc.problems if ctx.enabled(d.code)]
    if doc.root is None and "streamed" in doc.derived:
        found = streamed.check(doc, version_rules, select, ignore)
        if found is None:  # the sections JS912 says are read could not be read alone
            out = [streamed.unread(d, doc) if d.code == "JS912" else d for d in out]
        else:
            out += found
    if doc.root is not None:
        structure.check(ctx)
        if ctx.root is not None:
            counts.check(ctx)
            tasks.check(ctx)
            attributes.check(ctx)
            if ctx.v1:
                v1.check(ctx)
        # a subtree reached through several aliases is checked once per reference
        seen = set()
        for d in ctx.diagnostics:
            key = (d.code, d.start, d.end, d.message)
            if key not in seen:
                seen.add(key)
                out.append(d)
    return out


def model(doc: Document) -> base.Context:
    """The resource model of a parsed document: ``.vertices`` (with types, labels,
    parents and children), ``.top`` and ``.tasks`` — what hover, completion and
    navigation need, built by the same walk the rules use."""
    got: base.Context | None = doc.derived.get("model")
    if got is not None:
        return got
    ctx = base.Context(doc, uses_v1(doc))
    if doc.root is not None:
        structure.check(ctx)
    # built once per document, shared by every feature; kept in the document, so it
    # does not point back at it (a cycle only the collector frees, and the server keeps
    # a big document's tree out of its scans)
    ctx.doc = None  # type: ignore[assignment]
    doc.derived["model"] = ctx
    return ctx


def slot_labels(ctx: base.Context) -> list[str]:
    out: list[str] = []
    for v in ctx.vertices:
        if v.type == "slot" and v.label is not None and v.label not in out:
            out.append(v.label)
    return out
