"""The server's navigation: definition, references, rename, linked editing,
symbols, folding and inlay hints, registered on :data:`jobspec_lsp.lsp.server.server`."""

from __future__ import annotations

from lsprotocol import types as T
from pygls.exceptions import JsonRpcInvalidParams

from jobspec_lsp.features import navigation
from jobspec_lsp.lsp.server import JobspecServer, guard, server

_SYMBOLS = {
    "array": T.SymbolKind.Array,
    "struct": T.SymbolKind.Struct,
    "field": T.SymbolKind.Field,
    "function": T.SymbolKind.Function,
    "key": T.SymbolKind.Key,
}


# ---------------------------------------------------------------------- navigation
@server.feature(T.TEXT_DOCUMENT_DEFINITION)
@guard(None)
def on_definition(ls: JobspecServer, params: T.DefinitionParams):
    at = ls.position(params)
    node = navigation.definition(*at) if at else None
    if at is None or node is None:
        return None
    return T.Location(params.text_document.uri, ls.lsp_range(at[0], node.start, node.end))


@server.feature(T.TEXT_DOCUMENT_LINKED_EDITING_RANGE)
@guard(None)
def on_linked_editing_range(ls: JobspecServer, params: T.LinkedEditingRangeParams):
    """A slot label and every `tasks[].slot` naming it, edited together."""
    at = ls.position(params)
    nodes = navigation.references(*at, True) if at else []
    if at is None or len(nodes) < 2 or any(getattr(n, "style", None) in ("|", ">") for n in nodes):
        return None
    ranges = []
    for n in nodes:
        quoted = getattr(n, "style", None) in ("'", '"')
        start, end = (n.start + 1, n.end - 1) if quoted else (n.start, n.end)
        ranges.append(ls.lsp_range(at[0], start, end))
    return T.LinkedEditingRanges(ranges=ranges, word_pattern=r"[A-Za-z0-9_][A-Za-z0-9_.\-]*")


@server.feature(T.TEXT_DOCUMENT_REFERENCES)
@guard([])
def on_references(ls: JobspecServer, params: T.ReferenceParams):
    at = ls.position(params)
    if at is None:
        return []
    nodes = navigation.references(*at, params.context.include_declaration)
    return [
        T.Location(params.text_document.uri, ls.lsp_range(at[0], n.start, n.end)) for n in nodes
    ]


@server.feature(T.TEXT_DOCUMENT_PREPARE_RENAME)
@guard(None)
def on_prepare_rename(ls: JobspecServer, params: T.PrepareRenameParams):
    at = ls.position(params)
    node = navigation.prepare_rename(*at) if at else None
    if at is None or node is None:
        return None
    src = at[0].text[node.start : node.end]
    q = 1 if src[:1] in ("'", '"') else 0
    return T.PrepareRenamePlaceholder(
        range=ls.lsp_range(at[0], node.start + q, node.end - q), placeholder=str(node.value)
    )


@server.feature(T.TEXT_DOCUMENT_RENAME, T.RenameOptions(prepare_provider=True))
def on_rename(ls: JobspecServer, params: T.RenameParams):
    uri = params.text_document.uri
    a = ls.analyse(uri)
    if a is None or not a.kind.offers("navigation"):
        return None
    try:
        edits = navigation.rename(a.doc, ls.offset(a.doc, params.position), params.new_name)
    except navigation.RenameError as err:
        raise JsonRpcInvalidParams(str(err)) from None
    return T.WorkspaceEdit(
        document_changes=[
            T.TextDocumentEdit(
                T.OptionalVersionedTextDocumentIdentifier(uri=uri, version=a.version),
                [T.TextEdit(ls.lsp_range(a.doc, s, e), t) for s, e, t in edits],
            )
        ]
    )


@server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
@guard([])
async def on_document_symbol(ls: JobspecServer, params: T.DocumentSymbolParams):
    a = await ls.snapshot(params.text_document.uri)
    if a is None or not a.kind.offers("symbols"):
        return []
    doc = a.doc

    def conv(s):
        return T.DocumentSymbol(
            name=s.name,
            detail=s.detail or None,
            kind=_SYMBOLS[s.kind],
            range=ls.lsp_range(doc, s.start, s.end),
            selection_range=ls.lsp_range(doc, s.sel_start, s.sel_end),
            children=[conv(c) for c in s.children] or None,
        )

    return [conv(s) for s in await ls.run(doc, navigation.document_symbols, doc)]


@server.feature(T.TEXT_DOCUMENT_FOLDING_RANGE)
@guard([])
async def on_folding_range(ls: JobspecServer, params: T.FoldingRangeParams):
    a = await ls.snapshot(params.text_document.uri)
    if a is None or not a.kind.offers("folding"):
        return []
    ranges = await ls.run(a.doc, navigation.folding_ranges, a.doc)
    return [T.FoldingRange(start_line=lo, end_line=hi) for lo, hi in ranges]


@server.feature(T.TEXT_DOCUMENT_INLAY_HINT)
@guard([])
async def on_inlay_hint(ls: JobspecServer, params: T.InlayHintParams):
    a = await ls.snapshot(params.text_document.uri)
    if a is None or not a.kind.offers("inlay-hints"):
        return []
    doc = a.doc
    lo, hi = ls.offset(doc, params.range.start), ls.offset(doc, params.range.end)
    hints = []
    for off, label in await ls.run(doc, navigation.inlay_hints, doc, lo, hi):
        p = ls.lsp_range(doc, off, off).start
        hints.append(T.InlayHint(position=p, label=label, padding_left=True))
    return hints
