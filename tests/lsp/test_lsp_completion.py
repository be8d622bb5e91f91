"""Completion (including mid-edit and JSON) over LSP. Data: tests/data/completion/."""

from lsp_support import data, open_doc, pos
from lsprotocol import types as T

DOC = data("completion", "job.jobspec.yaml")


async def complete(client, uri, text, needle, delta=0):
    res = await client.text_document_completion_async(
        T.CompletionParams(T.TextDocumentIdentifier(uri), pos(text, needle, delta))
    )
    return res.items if isinstance(res, T.CompletionList) else (res or [])


async def change(client, uri, text, version):
    client.text_document_did_change(
        T.DidChangeTextDocumentParams(
            T.VersionedTextDocumentIdentifier(uri=uri, version=version),
            [T.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def test_value_completion_for_slot_labels_and_v1_types(client):
    uri = await open_doc(client, "c1.jobspec.yaml", DOC)
    mid = DOC.replace("slot: work", "slot: w")
    await change(client, uri, mid, 2)
    items = await complete(client, uri, mid, "slot: w", len("slot: w"))
    assert [i.label for i in items] == ["work"]
    edit = items[0].text_edit
    assert edit.new_text == "work" and edit.range.start == pos(mid, "slot: w", 6)
    mid = DOC.replace("type: core", "type: ")
    await change(client, uri, mid, 3)
    items = await complete(client, uri, mid, "type: \n", len("type: "))
    assert [i.label for i in items] == ["node", "slot", "core", "gpu"]


async def test_key_completion_mid_edit_skips_present_keys(client):
    mid = DOC.replace("      per_slot: 1\n", "      per_\n")
    uri = await open_doc(client, "c2.jobspec.yaml", mid, wait=False)
    items = await complete(client, uri, mid, "per_\n", 4)
    assert [i.label for i in items] == ["per_slot", "total"]  # per_resource: not in V1
    assert items[0].text_edit.new_text == "per_slot: "
    mid2 = DOC.replace("    duration: 3600\n", "    duration: 3600\n    qu\n")
    uri2 = await open_doc(client, "c3.jobspec.yaml", mid2, wait=False)
    labels = [i.label for i in await complete(client, uri2, mid2, "qu\n", 2)]
    assert "queue" in labels and "duration" not in labels


async def test_snippet_in_an_empty_document(client):
    uri = await open_doc(client, "empty.jobspec.yaml", "", wait=False)
    items = await complete(client, uri, "x", "x")
    assert items[0].label == "jobspec V1"
    assert items[0].insert_text_format == T.InsertTextFormat.Snippet
    assert "version: 1" in items[0].text_edit.new_text


async def test_json_completion_quotes_keys_and_values(client):
    head = (
        '{"version": 1, "resources": [{"type": "slot", "label": "work", "count": 1, '
        '"with": [{"type": "core", "count": 1}]}], "tasks": [{"command": ["a"], '
    )
    text = head + '"slot": "w", "count": {"per_slot": 1}}]}'
    uri = await open_doc(client, "c.jobspec.json", text, language="json", wait=False)
    items = await complete(client, uri, text, '"w"', 2)
    assert [i.label for i in items] == ["work"]
    edit = items[0].text_edit
    assert edit.new_text == '"work"'
    assert (edit.range.start, edit.range.end) == (pos(text, '"w"'), pos(text, '"w"', 3))
    text2 = head + '"slot": "work", "count": {"per_}}]}'
    await change(client, uri, text2, 2)
    items = await complete(client, uri, text2, '"per_', 5)
    assert [i.text_edit.new_text for i in items] == ['"per_slot": ', '"total": ']
