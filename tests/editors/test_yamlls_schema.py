"""The route for people who stay on a generic YAML server: yaml-language-server
(npm) with the schema `jobspec schema --v1` exports, driven over stdio."""

import asyncio
import json
import shutil
import subprocess
import sys

from helpers import REPO, run_cli

sys.path.insert(0, str(REPO / "benchmarks"))
from bench_lsp import YAMLLS, Client  # noqa: E402

GOOD = (REPO / "examples" / "v1-node-slot-core.jobspec.yaml").read_text()
BAD = GOOD.replace("count: 4", "count: 0").replace("duration: 3600", "cwd2: x")


def yamlls() -> list[str]:
    exe = YAMLLS / "node_modules" / "yaml-language-server" / "bin" / "yaml-language-server"
    if not exe.exists():
        assert shutil.which("npm"), "npm is missing"
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=YAMLLS,
                       check=True)
    return ["node", str(exe), "--stdio"]


async def diagnostics_for(cmd, schema_uri, text):
    proc = await asyncio.create_subprocess_exec(*cmd, stdin=subprocess.PIPE,
                                                stdout=subprocess.PIPE,
                                                stderr=subprocess.DEVNULL)
    client = Client(proc)
    settings = {"yaml": {"validate": True, "schemas": {schema_uri: ["*.jobspec.yaml"]}}}
    await client.start(settings)
    await asyncio.sleep(0.5)
    uri = "file:///tmp/yamlls-test/x.jobspec.yaml"
    ev = client.published[uri] = asyncio.Event()
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": 1, "text": text}})
    await asyncio.wait_for(ev.wait(), 20)
    got = client.last_diagnostics.get(uri, [])
    await client.stop()
    return got


def test_exported_v1_schema_works_in_yaml_language_server(tmp_path):
    schema = tmp_path / "jobspec-v1.schema.json"
    proc = run_cli("schema", "--v1")
    schema.write_bytes(proc.stdout)
    cmd = yamlls()
    good = asyncio.run(diagnostics_for(cmd, schema.as_uri(), GOOD))
    bad = asyncio.run(diagnostics_for(cmd, schema.as_uri(), BAD))
    assert good == [], json.dumps(good)[:500]
    messages = " | ".join(d["message"] for d in bad)
    assert len(bad) >= 2, messages
    zero_line = BAD[:BAD.index("count: 0")].count("\n")
    assert any(d["range"]["start"]["line"] == zero_line and "minimum" in d["message"]
               for d in bad), messages
    assert any("duration" in d["message"] for d in bad), messages
