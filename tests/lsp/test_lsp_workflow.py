"""Workflow features over LSP: fix-all (source.fixAll.jobspec), the project
configuration and inline suppressions as the server applies them, related
information, diagnostic tags, rule links, linked editing of slot labels.
Data: tests/data/workflow/."""

from lsp_support import apply_edits, data, open_doc, pos, rng
from lsprotocol import types as T

from jobspec_lsp.features import fixes
from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.rules.analysis import check

DOC = data("workflow", "broken.jobspec.yaml")


async def test_fix_all_applies_every_safe_fix_as_check_fix_does(client):
    uri = await open_doc(client, "fa.jobspec.yaml", DOC)
    acts = await client.text_document_code_action_async(
        T.CodeActionParams(
            T.TextDocumentIdentifier(uri),
            T.Range(T.Position(0, 0), T.Position(0, 0)),
            T.CodeActionContext(diagnostics=[], only=[T.CodeActionKind.SourceFixAll]),
        )
    )
    (act,) = acts
    assert act.kind == "source.fixAll.jobspec"
    fixed = apply_edits(DOC, act.edit.document_changes[0].edits)
    want, _ = fixes.apply_fixes(lambda t: (parse(t), check(t)), DOC)
    assert fixed == want
    assert "count: 2   # quoted" in fixed and "duration: 3600" in fixed
    assert "slot: tsak" in fixed  # the did-you-mean is not safe


async def test_related_information_and_tags_and_the_rule_link(client):
    text = DOC.replace("    label: task\n", "    label: task\n", 1).replace(
        "      - type: core\n        count: 1\n",
        "      - type: core\n        count: 1\n        label: task\n",
    )
    uri = await open_doc(client, "rel.jobspec.yaml", text)
    dup = next(d for d in client.diagnostics[uri] if d.code == "JS303")
    (info,) = dup.related_information
    assert info.location.uri == uri and info.location.range == rng(text, "task", nth=0)
    assert info.message == "label 'task' is first used here"
    after = next(d for d in client.diagnostics[uri] if d.code == "JS515")
    assert list(after.tags) == [T.DiagnosticTag.Deprecated]
    assert (
        after.code_description.href == "https://flux-framework.github.io/jobspec-lsp/rules/js515/"
    )

    unclosed = "version: 1\nresources: [{type: slot\n"
    uri2 = await open_doc(client, "open.jobspec.yaml", unclosed)
    (syntax,) = [d for d in client.diagnostics[uri2] if d.code == "JS901"]
    (info,) = syntax.related_information
    assert info.location.range == rng(unclosed, "{")
    assert info.message == "the flow mapping starts here"


async def test_linked_editing_of_a_label_and_its_uses(client):
    text = DOC.replace("slot: tsak", "slot: task")
    uri = await open_doc(client, "le.jobspec.yaml", text)
    got = await client.text_document_linked_editing_range_async(
        T.LinkedEditingRangeParams(T.TextDocumentIdentifier(uri), pos(text, "task", 1, nth=0))
    )
    use = pos(text, "slot: task", 6)
    assert [(r.start.line, r.start.character, r.end.character) for r in got.ranges] == [
        (rng(text, "task").start.line, rng(text, "task").start.character, 15),
        (use.line, use.character, use.character + 4),
    ]
    none = await client.text_document_linked_editing_range_async(
        T.LinkedEditingRangeParams(T.TextDocumentIdentifier(uri), pos(text, "core"))
    )
    assert none is None


async def test_the_project_configuration_and_suppressions_apply_in_the_editor(client, tmp_path):
    (tmp_path / "jobspec.toml").write_text('ignore = ["JS405"]\n')
    text = DOC.replace("slot: tsak", "slot: tsak  # jobspec: ignore[JS307]")
    path = tmp_path / "p.jobspec.yaml"
    path.write_text(text)
    uri = path.as_uri()
    client.text_document_did_open(
        T.DidOpenTextDocumentParams(T.TextDocumentItem(uri, "yaml", 1, text))
    )
    from lsp_support import wait_published

    await wait_published(client, uri, 1)
    codes = sorted(d.code for d in client.diagnostics[uri])
    assert "JS405" not in codes and "JS307" not in codes
    assert "JS313" in codes and "JS913" not in codes
    unused = text.replace("command: app --fast", "command: [app]").replace(
        "  # jobspec: ignore[JS307]", "  # jobspec: ignore[JS307, JS313]"
    )
    client.text_document_did_change(
        T.DidChangeTextDocumentParams(
            T.VersionedTextDocumentIdentifier(uri=uri, version=2),
            [T.TextDocumentContentChangeWholeDocument(text=unused)],
        )
    )
    await wait_published(client, uri, 2)
    (d,) = [d for d in client.diagnostics[uri] if d.code == "JS913"]
    assert (
        list(d.tags) == [T.DiagnosticTag.Unnecessary] and "JS313 is not reported here" in d.message
    )
