"""A site profile in the editor (the `jobspec.site` setting): JS65x at the token, the
site's queues (with their limits), properties and hosts completed, the queue's limits on
hover, and the profile reloaded when its files change — through a real LSP client."""

import asyncio
import shutil
from pathlib import Path

import pytest
import site_hostile as hostile
from lsp_support import CONFIG, capabilities, open_doc, pos, rng
from lsprotocol import types as T
from site_hostile import MAKERS

SITE = Path(__file__).resolve().parents[2] / "examples" / "site"
SCRIPT = "#!/bin/sh\n#flux: -N1 -n1 -g 8 -q gpu -t 2h\nflux run app\n"


async def _codes(client, uri, want, tries=500):
    for _ in range(tries):
        got = {d.code for d in client.diagnostics.get(uri, [])}
        if got == want:
            break
        await asyncio.sleep(0.01)
    return {d.code for d in client.diagnostics.get(uri, [])}


async def _client_with(site):
    """A real LSP client of a server whose `jobspec.site` setting is ``site``."""
    client = await CONFIG.start()
    await client.initialize_session(
        T.InitializeParams(
            capabilities=capabilities(), initialization_options={"jobspec": {"site": str(site)}}
        )
    )
    return client


async def test_a_site_profile_in_the_editor(tmp_path):
    site = tmp_path / "site"
    shutil.copytree(SITE, site)
    client = await _client_with(site)
    try:
        uri = await open_doc(client, "site-job.sh", SCRIPT, language="shellscript")
        assert await _codes(client, uri, {"JS653"}) == {"JS653"}
        (d,) = client.diagnostics[uri]
        assert d.range == rng(SCRIPT, "8")
        assert d.message.startswith("asks 8 GPUs per node; nodes in queue `gpu` have 4")

        got = await client.text_document_completion_async(
            T.CompletionParams(T.TextDocumentIdentifier(uri), pos(SCRIPT, "gpu", 0))
        )
        items = {i.label: i.detail for i in (got.items if hasattr(got, "items") else got)}
        assert set(items) == {"debug", "batch", "gpu"}
        assert items["debug"] == "4 nodes, ≤ 1h, default 10m, nnodes ≤ 2"

        hover = await client.text_document_hover_async(
            T.HoverParams(T.TextDocumentIdentifier(uri), pos(SCRIPT, "gpu", 1))
        )
        assert "**queue `gpu`**" in hover.contents.value and "4 GPUs" in hover.contents.value

        # the site shortens the gpu queue's limit: the open script is checked again
        toml = site / "site.toml"
        toml.write_text(
            toml.read_text().replace(
                "policy.limits.job-size.max.ngpus = 8",
                'policy.limits.job-size.max.ngpus = 8\npolicy.limits.duration = "1h"',
            )
        )
        assert await _codes(client, uri, {"JS653", "JS654"}) == {"JS653", "JS654"}
    finally:
        await client.shutdown_session()


async def test_a_broken_profile_is_said_once_and_the_rest_works(tmp_path):
    site = tmp_path / "site"
    shutil.copytree(SITE, site)
    (site / "zz.toml").write_text("[queues.gpu]\nrequire = ['x']\n")
    client = await _client_with(site)
    try:
        first = await open_doc(client, "broken-site-a.sh", SCRIPT, language="shellscript")
        second = await open_doc(client, "broken-site-b.sh", SCRIPT, language="shellscript")
        for uri in (first, second):  # checked without the site: no JS65x, no crash
            assert not [d for d in client.diagnostics[uri] if d.code.startswith("JS65")]
        said = [m.message for m in client.messages if "site profile" in m.message]
        assert len(said) == 1 and "zz.toml:2" in said[0] and "'require'" in said[0]
        # put right: the profile is read again and its checks come back
        (site / "zz.toml").unlink()
        assert await _codes(client, first, {"JS653"}) == {"JS653"}
    finally:
        await client.shutdown_session()


JOB = (
    "version: 1\nresources:\n  - type: slot\n    count: 1\n    label: task\n"
    "    with:\n      - type: core\n        count: 0\n"
    "tasks:\n  - command: [app]\n    slot: task\n    count:\n      per_slot: 1\n"
    "attributes:\n  system:\n    duration: 60\n"
)


@pytest.mark.parametrize("name", sorted(MAKERS))
async def test_a_hostile_profile_leaves_the_editor_working(tmp_path, name):
    """A profile a fuzzer damaged (a FIFO, a directory, a dangling symlink, nesting past the
    limits, huge or binary files): one notification naming the file, the document's
    other findings kept, and every request answered (a FIFO once froze the server)."""
    site, culprit = hostile.make(tmp_path, name)
    client = await _client_with(site)
    try:
        uri = await open_doc(client, f"hostile-{name}.jobspec.yaml", JOB)
        assert {d.code for d in client.diagnostics[uri]} == {"JS202"}
        hover = await asyncio.wait_for(
            client.text_document_hover_async(
                T.HoverParams(T.TextDocumentIdentifier(uri), pos(JOB, "per_slot"))
            ),
            20,
        )
        assert hover is not None
        said = [m.message for m in client.messages if "site profile" in m.message]
        assert len(said) == 1 and culprit in said[0], said
    finally:
        await client.shutdown_session()
