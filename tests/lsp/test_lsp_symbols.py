"""Document symbols, folding ranges and inlay hints over LSP. Data: tests/data/symbols/."""

from lsp_support import data, open_doc
from lsprotocol import types as T

DOC = data("symbols", "job.jobspec.yaml")


async def test_document_symbols_and_folding(client):
    uri = await open_doc(client, "s.jobspec.yaml", DOC)
    syms = await client.text_document_document_symbol_async(
        T.DocumentSymbolParams(T.TextDocumentIdentifier(uri))
    )
    assert [s.name for s in syms] == ["version", "resources", "tasks", "attributes"]
    node = syms[1].children[0]
    assert node.name == "node ×2" and node.children[0].name == "slot ×4"
    assert node.children[0].detail == "label work"
    assert syms[2].children[0].name == "app"
    folds = await client.text_document_folding_range_async(
        T.FoldingRangeParams(T.TextDocumentIdentifier(uri))
    )
    assert (1, 11) in [(f.start_line, f.end_line) for f in folds]


async def test_inlay_hints_show_totals(client):
    fixed = DOC.replace("wrk", "work").replace('"4"', "4")
    uri = await open_doc(client, "i.jobspec.yaml", fixed)
    hints = await client.text_document_inlay_hint_async(
        T.InlayHintParams(
            T.TextDocumentIdentifier(uri), T.Range(T.Position(0, 0), T.Position(30, 0))
        )
    )
    got = [(h.position.line, h.position.character, h.label) for h in hints]
    assert got == [(7, 16, "= 8 in all"), (11, 20, "= 8 in all")]
