"""The server's edits: formatting and code actions (fixes, fix-all, conversions),
registered on :data:`jobspec_lsp.lsp.server.server`."""

from __future__ import annotations

import dataclasses

from lsprotocol import types as T
from pygls.uris import to_fs_path

from jobspec_lsp import convert
from jobspec_lsp.features import fixes
from jobspec_lsp.features.fixes import apply_fixes
from jobspec_lsp.fmt import format as formatter
from jobspec_lsp.lsp.server import Analysis, JobspecServer, guard, server
from jobspec_lsp.rules import base
from jobspec_lsp.script import sbatch
from jobspec_lsp.text.edits import minimal as minimal_edits


# ---------------------------------------------------------------------- formatting
def _format_edits(ls: JobspecServer, uri: str):
    a = ls.analyse(uri)
    if a is None or not a.kind.offers("format"):  # a batch script is not ours to lay out
        return []
    if a.doc.root is None:
        first = a.doc.problems[0].message if a.doc.problems else "the file holds no jobspec"
        ls.window_show_message(
            T.ShowMessageParams(
                T.MessageType.Warning, f"jobspec: not formatted: cannot format: {first}"
            )
        )
        return []
    text = a.doc.text
    path = to_fs_path(uri)
    options = formatter.load_options(path) if path else formatter.FormatOptions()
    if ls.settings.sort_keys is not None:  # the editor's setting wins over the project's
        options = dataclasses.replace(options, sort_keys=ls.settings.sort_keys)
    try:
        result = formatter.format_result(text, ls.language(uri), options)
    except formatter.FormatError as err:  # said, never silent: the file stays as it is
        ls.window_show_message(
            T.ShowMessageParams(T.MessageType.Warning, f"jobspec: not formatted: {err.message}")
        )
        return []
    if result.why:
        ls.window_log_message(
            T.LogMessageParams(
                T.MessageType.Warning,
                f"jobspec: formatted with the {result.layout!r} layout ({result.why})",
            )
        )
    new = result.text
    if new == text:
        return []
    return [T.TextEdit(ls.lsp_range(a.doc, s, e), t) for s, e, t in minimal_edits(text, new)]


@server.feature(T.TEXT_DOCUMENT_FORMATTING)
@guard([])
def on_formatting(ls: JobspecServer, params: T.DocumentFormattingParams):
    return _format_edits(ls, params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_RANGE_FORMATTING)
@guard([])
def on_range_formatting(ls: JobspecServer, params: T.DocumentRangeFormattingParams):
    """The whole-document formatting edits that fall inside the range (the style,
    key order in particular, is a property of whole mappings)."""
    edits = _format_edits(ls, params.text_document.uri)
    lo, hi = params.range.start, params.range.end
    return [
        e
        for e in edits
        if (e.range.start.line, e.range.start.character) >= (lo.line, lo.character)
        and (e.range.end.line, e.range.end.character) <= (hi.line, hi.character)
    ]


# ---------------------------------------------------------------------- code actions
FIX_ALL = "source.fixAll.jobspec"


def _kinds(only) -> list[str]:
    return [getattr(k, "value", k) for k in only or ()]


def _wants(only, kind: str) -> bool:
    """Whether a code action of ``kind`` answers a request limited to ``only`` (LSP:
    a kind matches its own prefixes, `source.fixAll` takes `source.fixAll.jobspec`)."""
    kinds = _kinds(only)
    return not kinds or any(kind == k or kind.startswith(k + ".") for k in kinds)


def _fix_all_action(ls: JobspecServer, uri: str, a: Analysis):
    """`source.fixAll.jobspec`: every safe fix at once, as `jobspec check --fix` applies
    them (None when there is none)."""

    kind, options = a.kind, ls.options(uri)

    def analyse(text):
        doc = kind.read(text)
        return doc, kind.check(doc, options)

    new, applied = apply_fixes(analyse, a.doc.text)
    if not applied:
        return None
    edits = [
        T.TextEdit(ls.lsp_range(a.doc, s_, e_), t) for s_, e_, t in minimal_edits(a.doc.text, new)
    ]
    n = len(applied)
    return T.CodeAction(
        title=f"Fix all safe jobspec problems ({n} fix{'es' if n != 1 else ''})",
        kind=FIX_ALL,
        edit=_document_edit(uri, a.version, edits),
    )


@server.feature(
    T.TEXT_DOCUMENT_CODE_ACTION,
    T.CodeActionOptions(
        code_action_kinds=[
            T.CodeActionKind.QuickFix,
            T.CodeActionKind.RefactorRewrite,
            T.CodeActionKind.SourceFixAll,
            FIX_ALL,
        ]
    ),
)
@guard([])
def on_code_action(ls: JobspecServer, params: T.CodeActionParams):
    """The quick-fixes of the diagnostics in the range, fix-all, and the rewrites
    (conversions, migration), each as the request's ``only`` asks."""
    uri = params.text_document.uri
    a = ls.analyse(uri)
    if a is None:
        return []
    only = params.context.only
    actions: list = []
    if not _kinds(only) or _wants(only, T.CodeActionKind.QuickFix.value):
        actions += _quick_fixes(ls, uri, a, params)  # not when only source or refactor asked
    if _wants(only, FIX_ALL) and (_kinds(only) or any(d.code in fixes.SAFE for d in a.diagnostics)):
        fix_all = _fix_all_action(ls, uri, a)
        if fix_all is not None:
            actions.append(fix_all)
    # the conversions: when refactorings are asked for, or on a plain request that is
    # not about a diagnostic (not beside every quick-fix); a blocked one only when asked
    asked = any(k.startswith("refactor") for k in _kinds(only))
    plain = not only and not params.context.diagnostics
    convertible = a.kind.offers("convert") and a.doc.root is not None
    if convertible and (asked or plain):
        actions.extend(c for c in _conversion_actions(ls, uri, a) if c.disabled is None or asked)
    if a.kind.offers("migrate") and (asked or plain):
        got = _migration_action(uri, a, ls)
        if got is not None and (got.disabled is None or asked):
            actions.append(got)
    return actions


def _quick_fixes(ls: JobspecServer, uri: str, a: Analysis, params: T.CodeActionParams) -> list:
    """The fixes of each diagnostic in the range (of those the request names, when it
    names some), one code action each."""
    doc = a.doc
    lo = ls.offset(doc, params.range.start)
    hi = ls.offset(doc, params.range.end)
    wanted = {
        (d.code, d.range.start.line, d.range.start.character)
        for d in params.context.diagnostics
        if isinstance(d.code, str)
    }
    actions = []
    for d in a.diagnostics:
        if not (d.start <= hi and lo <= d.end):
            continue
        lsp_diag = ls.to_lsp(doc, d, uri)
        key = (d.code, lsp_diag.range.start.line, lsp_diag.range.start.character)
        if wanted and key not in wanted:
            continue
        for fix in fixes.fixes_for(doc, d):
            edits = [T.TextEdit(ls.lsp_range(doc, e.start, e.end), e.text) for e in fix.edits]
            actions.append(
                T.CodeAction(
                    title=fix.title,
                    kind=T.CodeActionKind.QuickFix,
                    diagnostics=[lsp_diag],
                    is_preferred=fix.preferred,
                    edit=_document_edit(uri, a.version, edits),
                )
            )
    return actions


def _document_edit(uri: str, version, edits: list) -> T.WorkspaceEdit:
    """``edits`` of one document, at its ``version``."""
    return T.WorkspaceEdit(
        document_changes=[
            T.TextDocumentEdit(
                T.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version), edits
            )
        ]
    )


def _migration_action(uri: str, a: Analysis, ls: JobspecServer):
    """ "Convert to Flux" over a Slurm, LSF or PBS script: the whole conversion as one edit
    (the editor shows it as a preview); a job with no Flux form is shown disabled, with
    why."""
    conv = sbatch.convert_script(a.doc.text)
    if conv.refused:
        return T.CodeAction(
            title="Convert to Flux",
            kind=T.CodeActionKind.RefactorRewrite,
            disabled=T.CodeActionDisabled(reason=conv.refused),
        )
    if not conv.changed:
        return None
    edits = [T.TextEdit(ls.lsp_range(a.doc, e.start, e.end), e.text) for e in conv.edits]
    return T.CodeAction(
        title="Convert to Flux",
        kind=T.CodeActionKind.RefactorRewrite,
        edit=_document_edit(uri, a.version, edits),
    )


def _conversion_actions(ls: JobspecServer, uri: str, a: Analysis):
    """ "Convert to jobspec V1" / "Convert to canonical jobspec" over the whole document
    (minimal edits, comments kept); a blocked conversion is shown disabled, with why."""

    lang = a.kind.language
    v1 = base.uses_v1(a.doc)
    if a.conversion is None:  # code actions are asked for on every cursor move: once per version
        a.conversion = (
            convert.to_canonical(a.doc.text, lang) if v1 else convert.to_v1(a.doc.text, lang)
        )
    conv = a.conversion
    title = "Convert to canonical jobspec" if v1 else "Convert to jobspec V1"
    if not conv.ok:
        first = conv.blockers[0] if conv.blockers else None
        pos = a.doc.lines.position(first.start) if first else None
        reason = (
            (
                f"{first.message} (line {pos.line + 1 if pos else '?'}; "
                f"{len(conv.blockers)} blocker"
                f"{'s' if len(conv.blockers) != 1 else ''})"
            )
            if first
            else "not convertible"
        )
        return [
            T.CodeAction(
                title=title,
                kind=T.CodeActionKind.RefactorRewrite,
                disabled=T.CodeActionDisabled(reason=reason),
            )
        ]
    edits = [
        T.TextEdit(ls.lsp_range(a.doc, s_, e_), t)
        for s_, e_, t in minimal_edits(a.doc.text, conv.text or a.doc.text)
    ]
    return [
        T.CodeAction(
            title=title,
            kind=T.CodeActionKind.RefactorRewrite,
            edit=_document_edit(uri, a.version, edits),
        )
    ]
