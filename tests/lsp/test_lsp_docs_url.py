"""The docs-url setting in the server (issue 37): a diagnostic's codeDescription is the
rule's page under the editor's jobspec.docsUrl, else the project's docs-url, else the
project's site; a change of the editor's setting is seen at once."""

import asyncio

from lsp_support import CONFIG, capabilities, open_doc, wait_published
from lsprotocol import types as T

from jobspec_lsp.diagnostics import DOCS_URL

BROKEN = "version: 1\nresources:\n  - type: slot\n    count: 0\n    label: task\n"


def _links(client, uri) -> dict[str, str]:
    return {d.code: d.code_description.href for d in client.diagnostics[uri]}


async def _link_becomes(client, uri, code, want, tries=300) -> str:
    for _ in range(tries):
        if _links(client, uri).get(code) == want:
            break
        await asyncio.sleep(0.01)
    return _links(client, uri).get(code)


async def test_the_editors_setting_replaces_the_base():
    client = await CONFIG.start()
    try:
        await client.initialize_session(
            T.InitializeParams(
                capabilities=capabilities(),
                initialization_options={"jobspec": {"docsUrl": "https://docs.example.org/js"}},
            )
        )
        uri = await open_doc(client, "docs-url.jobspec.yaml", BROKEN)
        assert _links(client, uri)["JS202"] == "https://docs.example.org/js/rules/js202/"
        settings = {"jobspec": {"docsUrl": ""}}  # unset: the project's site
        client.workspace_did_change_configuration(T.DidChangeConfigurationParams(settings))
        want = f"{DOCS_URL}rules/js202/"
        assert await _link_becomes(client, uri, "JS202", want) == want
    finally:
        await client.shutdown_session()


async def test_the_projects_docs_url_when_the_editor_sets_none(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.jobspec]\ndocs-url = "https://hpc.example.edu/jobspec-docs/"\n'
    )
    path = tmp_path / "job.jobspec.yaml"
    path.write_text(BROKEN)
    client = await CONFIG.start()
    try:
        await client.initialize_session(T.InitializeParams(capabilities=capabilities()))
        uri = path.as_uri()
        client.text_document_did_open(
            T.DidOpenTextDocumentParams(
                T.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=BROKEN)
            )
        )
        await wait_published(client, uri, 1)
        links = _links(client, uri)
        assert links["JS202"] == "https://hpc.example.edu/jobspec-docs/rules/js202/"
        settings = {"jobspec": {"docsUrl": "file:///srv/docs"}}  # the editor's wins
        client.workspace_did_change_configuration(T.DidChangeConfigurationParams(settings))
        want = "file:///srv/docs/rules/js202/"
        assert await _link_becomes(client, uri, "JS202", want) == want
    finally:
        await client.shutdown_session()
