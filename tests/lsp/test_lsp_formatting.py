"""Document and range formatting over LSP. Data: tests/data/formatting/."""

from lsp_support import apply_edits, data, open_doc
from lsprotocol import types as T

MESSY = data("formatting", "messy.jobspec.yaml")


def edits_of(action):
    return action.edit.document_changes[0].edits


async def test_formatting_and_range_formatting(client):
    uri = await open_doc(client, "fmt.jobspec.yaml", MESSY)
    edits = await client.text_document_formatting_async(
        T.DocumentFormattingParams(
            T.TextDocumentIdentifier(uri), T.FormattingOptions(tab_size=2, insert_spaces=True)
        )
    )
    out = apply_edits(MESSY, edits)
    assert (
        out
        == """version: 1
resources:
  - type: slot
    count: 1
    label: task
    with:
      - {type: core, count: 1}  # one core
tasks:
  - command: [app]
    slot: task
    count: {per_slot: 1}
attributes:
  system:
    duration: 0
"""
    )
    assert all(e.range.start.line >= 2 for e in edits)  # minimal: line 0-1 untouched
    part = await client.text_document_range_formatting_async(
        T.DocumentRangeFormattingParams(
            T.TextDocumentIdentifier(uri),
            T.Range(T.Position(11, 0), T.Position(14, 0)),
            T.FormattingOptions(tab_size=2, insert_spaces=True),
        )
    )
    assert apply_edits(MESSY, part).endswith("attributes:\n  system:\n    duration: 0\n")
    assert apply_edits(MESSY, part).startswith("version: 1\nresources:\n- type: slot")


async def test_formatting_a_broken_document_returns_no_edits_and_says_why(client):
    uri = await open_doc(client, "broken-fmt.jobspec.yaml", "version: 1\nresources: [\n")
    edits = await client.text_document_formatting_async(
        T.DocumentFormattingParams(
            T.TextDocumentIdentifier(uri), T.FormattingOptions(tab_size=2, insert_spaces=True)
        )
    )
    assert not edits
    shown = [m.message for m in client.messages if m.type == T.MessageType.Warning]
    assert any(m.startswith("jobspec: not formatted: cannot format:") for m in shown), shown


async def test_the_sort_keys_setting_is_used_by_formatting():
    """jobspec.format.sortKeys false: keys keep their order (the project's sort-keys
    would apply when the editor says nothing)."""
    from lsp_support import CONFIG, capabilities

    text = "attributes: {system: {duration: 0}}\nversion: 1\n" + MESSY.split("version: 1\n", 1)[1]
    text = text.replace("attributes:\n    system:\n        duration: 0\n", "")
    for sort, first in ((False, "attributes"), (True, "version")):
        client = await CONFIG.start()
        try:
            await client.initialize_session(
                T.InitializeParams(
                    capabilities=capabilities(configuration=False),
                    initialization_options={"jobspec": {"format": {"sortKeys": sort}}},
                )
            )
            uri = await open_doc(client, f"sort-{sort}.jobspec.yaml", text)
            edits = await client.text_document_formatting_async(
                T.DocumentFormattingParams(
                    T.TextDocumentIdentifier(uri),
                    T.FormattingOptions(tab_size=2, insert_spaces=True),
                )
            )
            assert apply_edits(text, edits).startswith(first + ":"), sort
        finally:
            await client.shutdown_session()
