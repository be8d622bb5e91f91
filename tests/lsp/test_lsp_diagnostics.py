"""Diagnostics over LSP: exact ranges, push with versions, bursts, pull, config."""

import asyncio
import json

import pytest
from helpers import run_cli
from lsp_support import open_doc, rng, wait_published
from lsprotocol import types as T

BROKEN = """version: 1
resources:
  - type: node
    count: 2
    with:
      - type: slot
        count: 1
        label: task
        with:
          - type: core
            count: 0
tasks:
  - command: [app]
    slot: tsak
    count:
      per_slot: 1
attributes:
  system:
    duration: 1h
"""


async def test_diagnostics_have_exact_ranges_codes_and_doc_links(client):
    uri = await open_doc(client, "a.jobspec.yaml", BROKEN)
    diags = {d.code: d for d in client.diagnostics[uri]}
    assert set(diags) == {"JS202", "JS307", "JS405"}
    assert diags["JS202"].range == rng(BROKEN, "0")
    assert diags["JS307"].range == rng(BROKEN, "tsak")
    assert diags["JS405"].range == rng(BROKEN, "1h")
    assert diags["JS307"].severity == T.DiagnosticSeverity.Error
    assert diags["JS307"].source == "jobspec"
    assert diags["JS307"].code_description.href.endswith("/rules/js307/")
    assert diags["JS405"].data["replacement"] == "3600"


async def test_utf16_columns(client):
    text = BROKEN.replace("command: [app]", 'command: ["😀é", app]').replace(
        "slot: tsak", "slot: tsak"
    )
    uri = await open_doc(client, "u.jobspec.yaml", text)
    (d,) = [d for d in client.diagnostics[uri] if d.code == "JS307"]
    assert d.range.start.character == 10  # the line has no emoji: unchanged
    text2 = BROKEN.replace("slot: tsak", 'slot: "é😀tsak"')
    uri2 = await open_doc(client, "u2.jobspec.yaml", text2)
    (d,) = [d for d in client.diagnostics[uri2] if d.code == "JS307"]
    assert (d.range.start.character, d.range.end.character) == (10, 19)  # emoji = 2 units


async def test_changes_update_and_fixing_clears(client):
    uri = await open_doc(client, "b.jobspec.yaml", BROKEN)
    fixed = BROKEN.replace("count: 0", "count: 1").replace("tsak", "task").replace("1h", "3600")
    client.text_document_did_change(
        T.DidChangeTextDocumentParams(
            T.VersionedTextDocumentIdentifier(uri=uri, version=2),
            [T.TextDocumentContentChangeWholeDocument(text=fixed)],
        )
    )
    assert await wait_published(client, uri, 2) == []


async def test_incremental_change(client):
    uri = await open_doc(client, "c.jobspec.yaml", BROKEN)
    r = rng(BROKEN, "tsak")
    client.text_document_did_change(
        T.DidChangeTextDocumentParams(
            T.VersionedTextDocumentIdentifier(uri=uri, version=2),
            [T.TextDocumentContentChangePartial(range=r, text="task")],
        )
    )
    diags = await wait_published(client, uri, 2)
    assert sorted(d.code for d in diags) == ["JS202", "JS405"]


async def test_a_burst_publishes_only_current_versions_and_ends_on_the_last(client):
    uri = await open_doc(client, "d.jobspec.yaml", BROKEN)
    client.published.clear()
    text = BROKEN
    for v in range(2, 42):
        text = text.replace(f"per_slot: {v - 1 if v > 2 else 1}", f"per_slot: {v}")
        client.text_document_did_change(
            T.DidChangeTextDocumentParams(
                T.VersionedTextDocumentIdentifier(uri=uri, version=v),
                [T.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
    await wait_published(client, uri, 41)
    await asyncio.sleep(0.3)
    versions = [v for u, v, _ in client.published if u == uri]
    assert versions[-1] == 41
    assert versions == sorted(versions)  # never an older version after a newer one
    assert len(versions) < 40  # most of the burst was never analysed


async def test_other_yaml_gets_nothing_but_jobspec_lookalikes_do(client):
    uri = await open_doc(
        client, "docker-compose.yaml", "services: {a: {image: x}}\nfoo: [\n", wait=False
    )
    await asyncio.sleep(0.3)
    assert uri not in client.diagnostics
    uri2 = await open_doc(client, "job.yaml", BROKEN)
    assert {d.code for d in client.diagnostics[uri2]} == {"JS202", "JS307", "JS405"}


async def test_json_documents(client):
    text = '{"version": 1, "resources": [], "tasks": [], "attributes": {}}'
    uri = await open_doc(client, "x.jobspec.json", text, language="json")
    assert {d.code for d in client.diagnostics[uri]} >= {"JS104", "JS105", "JS608"}


async def test_close_clears_diagnostics(client):
    uri = await open_doc(client, "e.jobspec.yaml", BROKEN)
    client.published.clear()
    client.text_document_did_close(T.DidCloseTextDocumentParams(T.TextDocumentIdentifier(uri)))
    for _ in range(100):
        if client.published:
            break
        await asyncio.sleep(0.01)
    assert client.published[-1][0] == uri and client.published[-1][2] == []


async def test_broken_and_binary_input_never_kill_the_server(client):
    for i, junk in enumerate(
        ["[" * 100000, "a: &a [*a]\n", "\x00\x01\x02", "a:\n\t- b", "key: " + "x" * 2_000_000]
    ):
        uri = await open_doc(client, f"junk{i}.jobspec.yaml", junk)
        assert client.diagnostics[uri]
    uri = await open_doc(client, "after.jobspec.yaml", BROKEN)
    assert len(client.diagnostics[uri]) == 3


async def test_configuration_select_ignore_through_did_change_configuration(client):
    uri = await open_doc(client, "f.jobspec.yaml", BROKEN)
    client.workspace_did_change_configuration(
        T.DidChangeConfigurationParams(
            settings={"jobspec": {"ignore": ["JS3"], "versionRules": "canonical"}}
        )
    )
    for _ in range(200):
        if {d.code for d in client.diagnostics.get(uri, [])} == {"JS202", "JS405"}:
            break
        await asyncio.sleep(0.01)
    assert {d.code for d in client.diagnostics[uri]} == {"JS202", "JS405"}


async def test_pull_diagnostics(pull_client):
    client = pull_client
    uri = await open_doc(client, "g.jobspec.yaml", BROKEN, wait=False)
    report = await client.text_document_diagnostic_async(
        T.DocumentDiagnosticParams(T.TextDocumentIdentifier(uri))
    )
    assert sorted(d.code for d in report.items) == ["JS202", "JS307", "JS405"]
    await asyncio.sleep(0.2)
    assert uri not in client.diagnostics  # a pull client gets no pushed duplicates


async def test_a_huge_document_does_not_freeze_the_others(client):
    huge = (
        BROKEN
        + "    environment:\n"
        + "".join(f'      VARIABLE_{i}: "value number {i}"\n' for i in range(280_000))
    )
    assert len(huge) > 10_000_000
    big = await open_doc(client, "huge.jobspec.yaml", huge, wait=False)
    await asyncio.sleep(0.5)  # the big analysis is under way
    small = await open_doc(client, "small.jobspec.yaml", BROKEN)
    assert len(client.diagnostics[small]) == 3
    assert big not in client.diagnostics  # the small one did not wait for the big one
    await wait_published(client, big, 1, timeout=120)


async def test_initialization_options_and_workspace_configuration():
    """Settings from initializationOptions, then from workspace/configuration."""
    from lsp_support import CONFIG, capabilities

    client = await CONFIG.start()
    try:
        client.set_configuration({"jobspec": {"select": ["JS4"]}})
        await client.initialize_session(
            T.InitializeParams(
                capabilities=capabilities(configuration=True),
                initialization_options={"jobspec": {"ignore": ["JS307"]}},
            )
        )
        uri = await open_doc(client, "cfg.jobspec.yaml", BROKEN, wait=False)
        for _ in range(300):
            if {d.code for d in client.diagnostics.get(uri, [])} == {"JS405"}:
                break
            await asyncio.sleep(0.01)
        assert {d.code for d in client.diagnostics[uri]} == {"JS405"}  # select JS4 from the client
    finally:
        await client.shutdown_session()


async def test_initialization_options_alone():
    from lsp_support import CONFIG, capabilities

    client = await CONFIG.start()
    try:
        await client.initialize_session(
            T.InitializeParams(
                capabilities=capabilities(configuration=False),
                initialization_options={"jobspec": {"ignore": ["JS307"]}},
            )
        )
        uri = await open_doc(client, "cfg2.jobspec.yaml", BROKEN)
        assert {d.code for d in client.diagnostics[uri]} == {"JS202", "JS405"}
    finally:
        await client.shutdown_session()


async def test_edits_to_a_big_document_end_on_its_last_version(client):
    big = BROKEN + "    environment:\n" + "".join(f'      V{i}: "x"\n' for i in range(12_000))
    assert len(big) > 200_000
    uri = await open_doc(client, "big-edits.jobspec.yaml", big, wait=False)
    for v in range(2, 8):
        await asyncio.sleep(0.05)
        big = big.replace(f"per_slot: {v - 1}", f"per_slot: {v}")
        client.text_document_did_change(
            T.DidChangeTextDocumentParams(
                T.VersionedTextDocumentIdentifier(uri=uri, version=v),
                [T.TextDocumentContentChangeWholeDocument(text=big)],
            )
        )
    await wait_published(client, uri, 7, timeout=60)
    versions = [v for u, v, _ in client.published if u == uri]
    assert versions == sorted(versions) and versions[-1] == 7


CANONICAL = """version: 999
resources:
  - type: slot
    count: 1
    label: task
    with:
      - type: core
        count: 1
tasks:
  - command: [app]
    slot: tsak
    count: {per_slot: 1}
attributes:
  system:
    duration: 60
"""


async def test_target_from_settings_and_from_the_project(tmp_path):
    """jobspec.target: the editor's setting first, else [tool.jobspec] target."""
    from lsp_support import CONFIG, capabilities

    client = await CONFIG.start()
    try:
        await client.initialize_session(
            T.InitializeParams(
                capabilities=capabilities(configuration=False),
                initialization_options={"jobspec": {"target": "flux-core"}},
            )
        )
        uri = await open_doc(client, "target.jobspec.yaml", CANONICAL)
        got = {(d.code, d.severity) for d in client.diagnostics[uri]}
        # flux-core's ingest refuses version 999; it accepts the unknown slot (RFC: error)
        assert got == {
            ("JS001", T.DiagnosticSeverity.Error),
            ("JS307", T.DiagnosticSeverity.Warning),
        }
    finally:
        await client.shutdown_session()
    (tmp_path / "pyproject.toml").write_text('[tool.jobspec]\ntarget = "flux-core-any"\n')
    path = tmp_path / "job.jobspec.yaml"
    path.write_text(CANONICAL)
    client = await CONFIG.start()
    try:
        await client.initialize_session(
            T.InitializeParams(capabilities=capabilities(configuration=False))
        )
        uri = path.as_uri()
        client.text_document_did_open(
            T.DidOpenTextDocumentParams(
                T.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=CANONICAL)
            )
        )
        await wait_published(client, uri, 1)
        assert {(d.code, d.severity) for d in client.diagnostics[uri]} == {
            ("JS307", T.DiagnosticSeverity.Warning)
        }
    finally:
        await client.shutdown_session()


async def test_a_wrong_setting_is_said_in_the_log():
    from lsp_support import CONFIG, capabilities

    client = await CONFIG.start()
    try:
        await client.initialize_session(
            T.InitializeParams(
                capabilities=capabilities(configuration=False),
                initialization_options={"jobspec": {"target": "flux", "ignore": ["JS307"]}},
            )
        )
        uri = await open_doc(client, "badsetting.jobspec.yaml", CANONICAL)
        assert "JS307" not in {d.code for d in client.diagnostics[uri]}  # the rest still applies
        messages = [m.message for m in client.log_messages]
        assert any("jobspec.target: expected one of rfc, flux-core" in m for m in messages), (
            messages
        )
    finally:
        await client.shutdown_session()


async def test_incremental_edits_after_a_line_separator_land_where_the_editor_says(client):
    """U+2028 is an ordinary character to LSP: an edit on a later line must change that
    line in the server's copy too (pygls's own line split moved it one line up)."""
    text = (
        '{"version": 1, "attributes": {"user": {"note": "a\u2028b"}, "system": {"duration": 0}},\n'
        ' "resources": [{"type": "slot", "count": 1, "label": "task",\n'
        '   "with": [{"type": "core", "count": 0}]}],\n'
        ' "tasks": [{"command": ["app"], "slot": "task", "count": {"per_slot": 1}}]}\n'
    )
    uri = await open_doc(client, "ls.jobspec.json", text, language="json")
    assert [d.code for d in client.diagnostics[uri]] == ["JS202"]
    line = 2
    col = text.split("\n")[line].index('"count": 0') + len('"count": ')
    client.text_document_did_change(
        T.DidChangeTextDocumentParams(
            T.VersionedTextDocumentIdentifier(uri=uri, version=2),
            [
                T.TextDocumentContentChangePartial(
                    range=T.Range(T.Position(line, col), T.Position(line, col + 1)), text="2"
                )
            ],
        )
    )
    assert await wait_published(client, uri, 2) == []


ASTRAL = [
    'version: 1\nresources: [{type: node, count: 1, with: [{type: slot, count: 1, label: task, with: [{type: core, count: 1}]}]}]\ntasks: [{command: [app], slot: task, count: {per_slot: 1}}]\nattributes: {user: {a: "😀😀"}, system: {duration: -5}}\n',
    'version: 1\nresources:\n  - {type: node, count: 1, with: [{type: slot, count: 0, label: "𝔱𝔞𝔰𝔨", with: [{type: core, count: 1}]}]}\ntasks:\n  - {command: ["🚀"], slot: "𝔱𝔞𝔰𝔨x", count: {per_slot: 1}}\nattributes: {system: {duration: "1h"}}\n',
]


@pytest.mark.parametrize("text", ASTRAL)
async def test_the_cli_json_and_sarif_give_the_servers_positions(client, tmp_path, text):
    """`check --format json` says what the server sends (0-based, UTF-16) and SARIF the
    same columns 1-based, with its columnKind: characters beyond U+FFFF count twice.
    Regression case: check-json-columns-utf16."""
    path = tmp_path / "astral.jobspec.yaml"
    path.write_text(text, encoding="utf-8")
    uri = await open_doc(client, f"astral-{len(text)}.jobspec.yaml", text)
    served = sorted(
        (
            d.code,
            (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character),
        )
        for d in client.diagnostics[uri]
    )
    got = json.loads(run_cli("check", "--format", "json", path).stdout)
    given = sorted(
        (
            d["code"],
            tuple(d["range"][k][f] for k in ("start", "end") for f in ("line", "character")),
        )
        for d in got["files"][0]["diagnostics"]
    )
    assert given == served and served
    sarif = json.loads(run_cli("check", "--format", "sarif", path).stdout)["runs"][0]
    assert sarif["columnKind"] == "utf16CodeUnits"
    regions = sorted(
        (
            r["ruleId"],
            (
                lambda g: (
                    g["startLine"] - 1,
                    g["startColumn"] - 1,
                    g["endLine"] - 1,
                    g["endColumn"] - 1,
                )
            )(r["locations"][0]["physicalLocation"]["region"]),
        )
        for r in sarif["results"]
    )
    assert regions == served
