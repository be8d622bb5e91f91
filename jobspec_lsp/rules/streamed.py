"""What a document too large for a tree still gets checked (JS912, issue 26): its
resources and tasks, read alone.

:func:`jobspec_lsp.jobspec.document.parse` reads such a document's YAML events one at a
time (its syntax, its top-level keys) and notes where each top-level value is; the
sections it found small enough (``doc.derived["streamed"]["read"]``: ``resources``, and
``tasks`` with it) are read here into a tree of their own. The text they are read from is
the document with every other top-level value blanked out: the same length, its line
breaks kept, so every offset and every line number is the original's. The structure,
counts and label/task families check that tree, and only what they find inside the
sections read is reported (the streaming pass said what it found of the top level).

Pure: no LSP, no files.
"""

from __future__ import annotations

import re

from jobspec_lsp.diagnostics import Diagnostic
from jobspec_lsp.jobspec.document import parse, streamed_words
from jobspec_lsp.jobspec.tree import Document
from jobspec_lsp.rules import base, counts, structure, tasks
from jobspec_lsp.text.pauses import no_gc_pauses

_NOT_A_BREAK = re.compile(r"[^\n\r]")


def blanked(
    text: str, spans: dict[str, tuple[int, int]], keep: tuple[str, ...], flow: bool = False
) -> str:
    """``text`` with each top-level value of ``spans`` (name -> (start, end)) but those
    named in ``keep`` blanked out: the same length, the same line breaks. In a block
    top level a blanked value is nothing (null); in a ``flow`` (JSON) one it is ``0``, in
    the place of its first character (never a line break). What follows the last value
    kept is left out (nothing after it needs its offsets); a flow top level is closed
    there."""
    kept = [spans[name] for name in keep if name in spans]
    cut = max((end for _, end in kept), default=len(text))
    parts: list[str] = []
    at = 0
    for name, (start, end) in sorted(spans.items(), key=lambda item: item[1]):
        if name in keep or end <= start or start < at or start >= cut:
            continue
        parts.append(text[at:start])
        blank = _NOT_A_BREAK.sub(" ", text[start:end])
        parts.append("0" + blank[1:] if flow else blank)
        at = end
    parts.append(text[at:cut])
    if cut < len(text):
        parts.append("\n}\n" if flow else "\n")
    return "".join(parts)


def check(
    doc: Document, version_rules: str = "auto", select: object = None, ignore: object = None
) -> list[Diagnostic] | None:
    """The structure, count and label findings inside the sections of ``doc`` (a streamed
    document: its ``derived["streamed"]``) read alone (with its ``version``); None when
    they do not read apart from the rest (an alias to an anchor outside them)."""
    streamed = doc.derived.get("streamed")
    if not streamed or not streamed["read"]:
        return []
    spans, read = streamed["spans"], streamed["read"]
    text = blanked(doc.text, spans, (*read, "version"), streamed["flow"])
    with no_gc_pauses():
        part = parse(text, doc.language, max_chars=len(text))
        if part.root is None:
            return None
        ctx = base.Context(part, base.uses_v1(part, version_rules), select, ignore)
        structure.check(ctx)
        if ctx.root is not None:
            counts.check(ctx)
            tasks.check(ctx)
    inside = [spans[name] for name in read]
    return [d for d in ctx.diagnostics if any(s <= d.start < e for s, e in inside)]


def unread(js912: Diagnostic, doc: Document) -> Diagnostic:
    """``doc``'s JS912 saying that its sections were not read after all."""
    streamed = doc.derived["streamed"]
    words = streamed_words(
        streamed["spans"],
        (),
        streamed["limit"],
        f"{' and '.join(streamed['read'])} do not read apart from the rest of the document "
        "(an alias in them to an anchor outside them, say): not checked",
    )
    message = f"{len(doc.text):,} characters: {words}"
    return Diagnostic(js912.code, js912.severity, message, js912.start, js912.end, js912.data)
