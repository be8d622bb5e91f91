"""Quick-fixes and conversion refactors over LSP. Data: tests/data/code_actions/."""

from lsp_support import apply_edits, data, open_doc, pos, rng, wait_published
from lsprotocol import types as T

DOC = data("code_actions", "broken.jobspec.yaml")
CANONICAL = data("code_actions", "canonical.jobspec.yaml")


async def actions(client, uri, text, needle):
    return await client.text_document_code_action_async(
        T.CodeActionParams(
            T.TextDocumentIdentifier(uri),
            rng(text, needle),
            T.CodeActionContext(
                diagnostics=[
                    d for d in client.diagnostics[uri] if d.range.start == pos(text, needle)
                ]
            ),
        )
    )


def edits_of(action):
    return action.edit.document_changes[0].edits


async def test_quick_fixes_apply_cleanly_and_keep_comments(client):
    uri = await open_doc(client, "q.jobspec.yaml", DOC)
    text = DOC
    for needle, title_part, expect in [
        ("wrk", "'work'", "slot: work"),
        ("1h", "3600", "duration: 3600  # one hour"),
        ("queu", "'queue'", "queue: batch"),
        ('"4"', "4", "count: 4\n"),
        ("yes", "true", "exclusive: true"),
    ]:
        acts = await actions(client, uri, DOC, needle)
        (act,) = [a for a in acts if a.is_preferred]
        assert title_part in act.title
        out = apply_edits(DOC, edits_of(act))
        assert expect in out and "# one hour" in out
        text = apply_edits(text, edits_of(act)) if needle != "yes" else text
    assert "slot: work" in text


async def test_add_missing_duration_and_label(client):
    text = DOC.replace("    duration: 1h  # one hour\n", "").replace("        label: work\n", "")
    uri = await open_doc(client, "q2.jobspec.yaml", text)
    codes = {d.code for d in client.diagnostics[uri]}
    assert {"JS609", "JS301"} <= codes
    d609 = next(d for d in client.diagnostics[uri] if d.code == "JS609")
    acts = await client.text_document_code_action_async(
        T.CodeActionParams(
            T.TextDocumentIdentifier(uri), d609.range, T.CodeActionContext(diagnostics=[d609])
        )
    )
    out = apply_edits(text, edits_of(acts[0]))
    assert "  system:\n    duration: 0\n    queu: batch" in out
    d301 = next(d for d in client.diagnostics[uri] if d.code == "JS301")
    acts = await client.text_document_code_action_async(
        T.CodeActionParams(
            T.TextDocumentIdentifier(uri), d301.range, T.CodeActionContext(diagnostics=[d301])
        )
    )
    out = apply_edits(text, edits_of(acts[0]))
    assert '      - type: slot\n        label: task\n        count: "4"' in out


async def test_remove_key_v1_forbids(client):
    text = DOC.replace("        label: work\n", "        label: work\n        exclusive: true\n")
    uri = await open_doc(client, "q3.jobspec.yaml", text)
    d = next(d for d in client.diagnostics[uri] if d.code == "JS611")
    acts = await client.text_document_code_action_async(
        T.CodeActionParams(
            T.TextDocumentIdentifier(uri), d.range, T.CodeActionContext(diagnostics=[d])
        )
    )
    assert apply_edits(text, edits_of(acts[0])) == DOC


async def test_convert_to_v1_and_back_as_code_actions(client):
    uri = await open_doc(client, "conv.jobspec.yaml", CANONICAL)
    acts = await client.text_document_code_action_async(
        T.CodeActionParams(
            T.TextDocumentIdentifier(uri),
            T.Range(T.Position(0, 0), T.Position(0, 0)),
            T.CodeActionContext(diagnostics=[], only=[T.CodeActionKind.Refactor]),
        )
    )
    (act,) = acts
    assert act.title == "Convert to jobspec V1" and act.disabled is None
    v1 = apply_edits(CANONICAL, edits_of(act))
    assert v1.startswith("# a canonical jobspec that V1 can say\nversion: 1\n")
    assert "count: 4   # four slots" in v1 and "  system:\n    duration: 0\n" in v1
    client.text_document_did_change(
        T.DidChangeTextDocumentParams(
            T.VersionedTextDocumentIdentifier(uri=uri, version=2),
            [T.TextDocumentContentChangeWholeDocument(text=v1)],
        )
    )
    await wait_published(client, uri, 2)
    assert client.diagnostics[uri] == [] or all(d.severity > 2 for d in client.diagnostics[uri])
    acts = await client.text_document_code_action_async(
        T.CodeActionParams(
            T.TextDocumentIdentifier(uri),
            T.Range(T.Position(0, 0), T.Position(0, 0)),
            T.CodeActionContext(diagnostics=[], only=[T.CodeActionKind.RefactorRewrite]),
        )
    )
    assert [a.title for a in acts] == ["Convert to canonical jobspec"]
    assert apply_edits(v1, edits_of(acts[0])).startswith(
        "# a canonical jobspec that V1 can say\nversion: 999\n"
    )


async def test_blocked_conversion_is_offered_disabled_with_the_reason(client):
    text = CANONICAL.replace('count: "4"', "count: {min: 2}")
    uri = await open_doc(client, "conv2.jobspec.yaml", text)
    acts = await client.text_document_code_action_async(
        T.CodeActionParams(
            T.TextDocumentIdentifier(uri),
            T.Range(T.Position(0, 0), T.Position(0, 0)),
            T.CodeActionContext(diagnostics=[], only=[T.CodeActionKind.Refactor]),
        )
    )
    (act,) = [a for a in acts if a.title == "Convert to jobspec V1"]
    assert act.edit is None and "V1 counts are fixed" in act.disabled.reason
    # not asked for refactorings: no disabled action in the way
    plain = await client.text_document_code_action_async(
        T.CodeActionParams(
            T.TextDocumentIdentifier(uri),
            T.Range(T.Position(0, 0), T.Position(0, 0)),
            T.CodeActionContext(diagnostics=[]),
        )
    )
    assert [a.title for a in plain if a.disabled] == []


async def test_the_conversion_is_not_attached_to_a_diagnostics_quick_fixes(client):
    uri = await open_doc(client, "q2.jobspec.yaml", DOC)
    for d in client.diagnostics[uri]:
        acts = await client.text_document_code_action_async(
            T.CodeActionParams(
                T.TextDocumentIdentifier(uri), d.range, T.CodeActionContext(diagnostics=[d])
            )
        )
        assert not [a for a in acts if a.title.startswith("Convert to")], d.code
