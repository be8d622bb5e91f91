"""Batch scripts over LSP: a shell script with `#flux:` directives gets
diagnostics, option completion with docs, hover in words and a quick-fix.
Data: tests/data/batch/."""

from lsp_support import apply_edits, data, open_doc, pos, rng
from lsprotocol import types as T

SCRIPT = data("batch", "sim.sh")


async def test_a_shell_script_gets_diagnostics_hover_completion_and_a_fix(client):
    uri = await open_doc(client, "sim.sh", SCRIPT, language="shellscript")
    (d,) = client.diagnostics[uri]
    assert d.code == "JS570" and d.range == rng(SCRIPT, "--jobname")
    assert "did you mean --job-name?" in d.message

    hover = await client.text_document_hover_async(
        T.HoverParams(T.TextDocumentIdentifier(uri), pos(SCRIPT, "-N2", 1))
    )
    assert "2 nodes" in hover.contents.value and "--nodes" in hover.contents.value
    hover = await client.text_document_hover_async(
        T.HoverParams(T.TextDocumentIdentifier(uri), pos(SCRIPT, "1h"))
    )
    assert "1 hour" in hover.contents.value or "1h" in hover.contents.value

    got = await client.text_document_completion_async(
        T.CompletionParams(T.TextDocumentIdentifier(uri), pos(SCRIPT, "-t 1h", 2))
    )
    items = got.items if isinstance(got, T.CompletionList) else got
    labels = {i.label for i in items}
    assert "--time-limit" in labels and "--job-name" not in labels  # "-t" is typed
    item = next(i for i in items if i.label == "--time-limit")
    assert "Flux Standard Duration" in str(item.documentation)

    actions = await client.text_document_code_action_async(
        T.CodeActionParams(
            T.TextDocumentIdentifier(uri), d.range, T.CodeActionContext(diagnostics=[d])
        )
    )
    (fix,) = [a for a in actions if a.kind == T.CodeActionKind.QuickFix]
    fixed = apply_edits(SCRIPT, fix.edit.document_changes[0].edits)
    assert "#flux: --job-name=sim" in fixed


async def test_a_script_without_directives_is_left_alone(client):
    text = "#!/bin/sh\necho hello\n"
    uri = await open_doc(client, "plain.sh", text, language="shellscript", wait=False)
    hover = await client.text_document_hover_async(
        T.HoverParams(T.TextDocumentIdentifier(uri), pos(text, "echo"))
    )
    assert hover is None and not client.diagnostics.get(uri)
