"""Settings over LSP: an unknown rule code in `select`/`ignore` is said once per
change of the settings, in one window/showMessage, and the known codes apply."""

import asyncio

from lsp_support import CONFIG, capabilities, open_doc, wait_published
from lsprotocol import types as T

BROKEN = """version: 1
resources:
  - type: slot
    count: 1
    label: task
    with:
      - type: core
        count: 0
tasks:
  - command: [app]
    slot: tsak
    count: {per_slot: 1}
attributes:
  system:
    duration: 1h
"""
ALL = {"JS202", "JS307", "JS405"}


def _warnings(client) -> list[str]:
    return [m.message for m in client.messages if m.type == T.MessageType.Warning]


async def _codes_become(client, uri, want, tries=300):
    for _ in range(tries):
        if {d.code for d in client.diagnostics.get(uri, [])} == want:
            break
        await asyncio.sleep(0.01)
    return {d.code for d in client.diagnostics.get(uri, [])}


async def test_unknown_codes_are_said_once_per_change_and_the_known_ones_apply():
    client = await CONFIG.start()
    try:
        settings = {"jobspec": {"select": ["FOO1", "JS5700"]}}
        client.set_configuration(settings)  # the same again through workspace/configuration
        await client.initialize_session(
            T.InitializeParams(
                capabilities=capabilities(configuration=True),
                initialization_options=settings,
            )
        )
        first = await open_doc(client, "codes-a.jobspec.yaml", BROKEN)
        # a select of unknown codes only hides nothing: every finding is shown
        assert await _codes_become(client, first, ALL) == ALL
        second = await open_doc(client, "codes-b.jobspec.yaml", BROKEN)
        assert {d.code for d in client.diagnostics[second]} == ALL
        client.text_document_did_change(
            T.DidChangeTextDocumentParams(
                T.VersionedTextDocumentIdentifier(uri=second, version=2),
                [T.TextDocumentContentChangeWholeDocument(text=BROKEN + "# edited\n")],
            )
        )
        await wait_published(client, second, 2)
        (message,) = _warnings(client)  # once: not per document, keystroke or resend
        assert "'FOO1'" in message and "did you mean JS570?" in message
        assert "every rule is reported" in message

        settings = {"jobspec": {"ignore": ["JS307", "js5700"]}}
        client.set_configuration(settings)
        client.workspace_did_change_configuration(T.DidChangeConfigurationParams(settings))
        assert await _codes_become(client, first, ALL - {"JS307"}) == ALL - {"JS307"}
        for _ in range(200):
            if len(_warnings(client)) == 2:
                break
            await asyncio.sleep(0.01)
        assert len(_warnings(client)) == 2
        assert "jobspec.ignore: unknown rule code or prefix 'js5700'" in _warnings(client)[1]

        settings = {"jobspec": {"ignore": ["JS307"]}}  # put right: nothing more to say
        client.set_configuration(settings)
        client.workspace_did_change_configuration(T.DidChangeConfigurationParams(settings))
        await asyncio.sleep(0.3)
        assert len(_warnings(client)) == 2
        assert {d.code for d in client.diagnostics[first]} == ALL - {"JS307"}
    finally:
        await client.shutdown_session()
