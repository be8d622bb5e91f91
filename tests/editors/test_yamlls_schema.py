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
