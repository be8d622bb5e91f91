"""The route for people who stay on a generic YAML server: yaml-language-server
(npm) with the schema `jobspec schema --v1` exports, driven over stdio."""

import asyncio
import json

from helpers import REPO, run_cli, yamlls_diagnostics

GOOD = (REPO / "examples" / "v1-node-slot-core.jobspec.yaml").read_text()
BAD = GOOD.replace("count: 4", "count: 0").replace("duration: 3600", "cwd2: x")


def diagnostics_for(schema_uri, text, expect_errors):
    settings = {"yaml": {"validate": True, "schemas": {schema_uri: ["*.jobspec.yaml"]}}}
    return asyncio.run(yamlls_diagnostics(settings, "file:///tmp/yamlls-test/x.jobspec.yaml",
                                          text, expect_errors))


def test_exported_v1_schema_works_in_yaml_language_server(tmp_path):
    schema = tmp_path / "jobspec-v1.schema.json"
    proc = run_cli("schema", "--v1")
    schema.write_bytes(proc.stdout)
    good = diagnostics_for(schema.as_uri(), GOOD, expect_errors=False)
    bad = diagnostics_for(schema.as_uri(), BAD, expect_errors=True)
    assert good == [], json.dumps(good)[:500]
    messages = " | ".join(d["message"] for d in bad)
    assert len(bad) >= 2, messages
    zero_line = BAD[:BAD.index("count: 0")].count("\n")
    assert any(d["range"]["start"]["line"] == zero_line and "minimum" in d["message"]
               for d in bad), messages
    assert any("duration" in d["message"] for d in bad), messages


def test_yaml_language_server_hover_shows_the_vocabulary(tmp_path):
    """`jobspec schema` documents every key: yaml-language-server's hover shows it."""
    import sys

    from helpers import yamlls_command

    sys.path.insert(0, str(REPO / "benchmarks"))
    from bench_lsp import Client

    from jobspec_lsp.jobspec import vocabulary

    schema = tmp_path / "jobspec-v1.schema.json"
    schema.write_bytes(run_cli("schema", "--v1").stdout)
    uri = "file:///tmp/yamlls-test/hover.jobspec.yaml"

    async def hover(line: int, character: int):
        settings = {"yaml": {"validate": True, "hover": True,
                             "schemas": {schema.as_uri(): ["*.jobspec.yaml"]}}}
        client = Client("yaml-language-server", yamlls_command(), settings)
        await client.start()
        try:
            client.notify("textDocument/didOpen", {"textDocument": {
                "uri": uri, "languageId": "yaml", "version": 1, "text": GOOD}})
            await client.drain()
            await client.wait_publish(uri, 0, None, 30)
            for _ in range(50):  # the schema loads in the background
                got = await client.request("textDocument/hover", {
                    "textDocument": {"uri": uri},
                    "position": {"line": line, "character": character}})
                contents = (got.get("result") or {}).get("contents")
                if contents:
                    return contents
                await asyncio.sleep(0.2)
            return None
        finally:
            await client.stop()

    line = GOOD[: GOOD.index("duration:")].count("\n")
    col = GOOD.split("\n")[line].index("duration")
    contents = asyncio.run(hover(line, col + 1))
    text = json.dumps(contents)
    doc = vocabulary.key("system", "duration").doc
    assert doc[:40] in text, text  # the vocabulary's words, through the exported schema
