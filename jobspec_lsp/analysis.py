"""The analysis core: text in, a positioned document and diagnostics out.

``check`` is what the CLI, the language server and the pre-commit hooks all
call; it holds no presentation logic.
"""

from __future__ import annotations

from .diagnostics import Diagnostic
from .document import Document, Mapping, Scalar, parse
from .rules import attributes, base, counts, structure, tasks, v1

VERSION_RULES = ("auto", "canonical", "v1")


def uses_v1(doc: Document, version_rules: str = "auto") -> bool:
    """Whether V1 (RFC 25) rules apply: forced, or ``version: 1`` under auto."""
    if version_rules == "v1":
        return True
    if version_rules == "canonical":
        return False
    root = doc.root
    if isinstance(root, Mapping):
        version = root.get("version")
        return isinstance(version, Scalar) and type(version.value) is int and version.value == 1
    return False


def check(source: str | Document, *, language: str = "yaml", version_rules: str = "auto",
          select=None, ignore=None) -> list[Diagnostic]:
    """All diagnostics for ``source`` (text or an already parsed document), sorted."""
    if version_rules not in VERSION_RULES:
        raise ValueError(f"version_rules must be one of {', '.join(VERSION_RULES)}")
    doc = source if isinstance(source, Document) else parse(source, language)
    ctx = base.Context(doc, uses_v1(doc, version_rules), select, ignore)
    out = [d for d in doc.problems if ctx.enabled(d.code)]
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
    out.sort(key=Diagnostic.sort_key)
    return out


def model(doc: Document) -> base.Context:
    """The resource model of a parsed document: ``.vertices`` (with types, labels,
    parents and children), ``.top`` and ``.tasks`` — what hover, completion and
    navigation need, built by the same walk the rules use."""
    ctx = base.Context(doc, uses_v1(doc))
    if doc.root is not None:
        structure.check(ctx)
    return ctx


def slot_labels(ctx: base.Context) -> list[str]:
    out: list[str] = []
    for v in ctx.vertices:
        if v.type == "slot" and v.label is not None and v.label not in out:
            out.append(v.label)
    return out
