"""Hover over LSP. Data: tests/data/hover/."""

from lsp_support import data, open_doc, pos
from lsprotocol import types as T

DOC = data("hover", "job.jobspec.yaml")


async def test_hover_explains_counts_and_vertices(client):
    text = DOC.replace("count: 4", "count: {min: 3, max: 30, operator: '+', operand: 1}")
    text = text.replace("version: 1", "version: 999")
    uri = await open_doc(client, "h.jobspec.yaml", text)
    h = await client.text_document_hover_async(
        T.HoverParams(T.TextDocumentIdentifier(uri), pos(text, "{min: 3", 1))
    )
    assert "smallest acceptable count" in h.contents.value  # the min key's doc
    h = await client.text_document_hover_async(
        T.HoverParams(T.TextDocumentIdentifier(uri), pos(text, "{min: 3"))
    )
    assert h.contents.value.startswith("Between 3 and 30 nodes, in steps of 1")
    uri2 = await open_doc(client, "h2.jobspec.yaml", DOC)
    h = await client.text_document_hover_async(
        T.HoverParams(T.TextDocumentIdentifier(uri2), pos(DOC, "node"))
    )
    assert "`node=4/slot{work}/core=2`" in h.contents.value
    assert "4 slots, each with 2 cores; 4 tasks (1 per slot)" in h.contents.value
    assert "Overall: 8 cores." in h.contents.value
    assert h.range == T.Range(pos(DOC, "node"), pos(DOC, "node", 4))
    h = await client.text_document_hover_async(
        T.HoverParams(T.TextDocumentIdentifier(uri2), pos(DOC, "duration"))
    )
    assert "seconds" in h.contents.value and "RFC 14" in h.contents.value


async def test_hover_on_a_power_series_answers_at_once(client):
    """Regression (lsp-hover-power-series): hover on {min: 2, operator: '^', operand: 100}
    computed 2**100, then (2**100)**100, ...: the server hung for minutes. The answer
    stops where the terms pass 64 bits."""
    text = DOC.replace("count: 4", 'count: {min: 2, operator: "^", operand: 100}')
    uri = await open_doc(client, "p.jobspec.yaml", text)
    h = await client.text_document_hover_async(
        T.HoverParams(T.TextDocumentIdentifier(uri), pos(text, "{min: 2"))
    )
    assert h.contents.value.startswith("From 2 nodes with no upper bound, raising to the power 100")
    assert "2, …" in h.contents.value
