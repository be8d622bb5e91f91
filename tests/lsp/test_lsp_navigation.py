"""Definition, references and rename of slot labels over LSP. Data: tests/data/navigation/."""

from lsp_support import apply_edits, data, open_doc, pos, rng
from lsprotocol import types as T

DOC = data("navigation", "labels.jobspec.yaml")


async def test_definition_references_and_rename(client):
    fixed = DOC.replace("wrk", "work")
    uri = await open_doc(client, "n.jobspec.yaml", fixed)
    loc = await client.text_document_definition_async(
        T.DefinitionParams(T.TextDocumentIdentifier(uri), pos(fixed, "work", 1, nth=1))
    )
    assert loc.range == rng(fixed, "work", 0)
    refs = await client.text_document_references_async(
        T.ReferenceParams(
            text_document=T.TextDocumentIdentifier(uri),
            position=pos(fixed, "work"),
            context=T.ReferenceContext(include_declaration=True),
        )
    )
    assert [r.range for r in refs] == [rng(fixed, "work", 0), rng(fixed, "work", 1)]
    prep = await client.text_document_prepare_rename_async(
        T.PrepareRenameParams(T.TextDocumentIdentifier(uri), pos(fixed, "work", 2, nth=1))
    )
    assert prep.range == rng(fixed, "work", 1) and prep.placeholder == "work"
    edit = await client.text_document_rename_async(
        T.RenameParams(T.TextDocumentIdentifier(uri), pos(fixed, "work"), "cpu")
    )
    out = apply_edits(fixed, edit.document_changes[0].edits)
    assert out == fixed.replace("work", "cpu")
    none = await client.text_document_prepare_rename_async(
        T.PrepareRenameParams(T.TextDocumentIdentifier(uri), pos(fixed, "app"))
    )
    assert none is None
