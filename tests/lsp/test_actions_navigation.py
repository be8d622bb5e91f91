"""Quick-fixes, navigation, rename, symbols and folding over LSP."""

from lsp_support import apply_edits, open_doc, pos, rng, wait_published
from lsprotocol import types as T

DOC = """version: 1
resources:
  - type: node
    count: 2
    exclusive: yes
    with:
      - type: slot
        count: "4"
        label: work
        with:
          - type: core
            count: 1
tasks:
  - command: [app]
    slot: wrk
    count:
      per_slot: 1
attributes:
  system:
    duration: 1h  # one hour
    queu: batch
"""


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


MESSY = """version: 1
resources:
- type: slot
  count: 1
  label: task
  with:
  - {type: core, count: 1}   # one core
tasks:
- command: [ app ]
  slot: task
  count: {per_slot: 1}
attributes:
    system:
        duration: 0
"""


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
      - {type: core, count: 1} # one core
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


async def test_formatting_a_broken_document_returns_no_edits(client):
    uri = await open_doc(client, "broken-fmt.jobspec.yaml", "version: 1\nresources: [\n")
    edits = await client.text_document_formatting_async(
        T.DocumentFormattingParams(
            T.TextDocumentIdentifier(uri), T.FormattingOptions(tab_size=2, insert_spaces=True)
        )
    )
    assert not edits


CANONICAL = """# a canonical jobspec that V1 can say
version: 999
resources:
  - type: slot
    count: "4"   # four slots
    label: task
    with:
      - type: core
        count: 2
tasks:
  - command: [app]
    slot: task
    count: {per_slot: 1}
attributes:
  user: {}
"""


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
            T.CodeActionContext(diagnostics=[]),
        )
    )
    (act,) = [a for a in acts if a.title == "Convert to jobspec V1"]
    assert act.edit is None and "V1 counts are fixed" in act.disabled.reason


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
