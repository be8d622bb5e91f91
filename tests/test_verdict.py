"""The verdict contract (issue 38): `jobspec check --format json` and the MCP tools' results
share one JSON Schema, shipped in the package and printed by `jobspec schema findings`;
both outputs are held to it here (the tools' results over stdio: tests/test_mcp.py)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from helpers import REPO, run_cli

from jobspec_lsp.mcp import tools, verdict

EXAMPLES = REPO / "examples"
SCRIPTS = {
    "flux.sh": "#!/bin/sh\n#flux: -N 0\n#flux: --queu=debug\nflux run --tasks-per-node=x ./sim\n",
    "slurm.sh": "#!/bin/bash\n#SBATCH -N 2\n#SBATCH -t 1:00:00\nsrun ./a $SLURM_JOB_ID\n",
    "lsf.sh": "#!/bin/bash\n#BSUB -nnodes 2\n#BSUB -W 90\njsrun -n 4 ./a\n",
    # a character beyond U+FFFF before the finding: UTF-16 columns and code points differ
    "wide.jobspec.yaml": "version: 1\nresources:\n  - type: slot  # 😀\n    count: 0\n"
    '    label: task\n    with: [{type: core, count: 1}]\ntasks:\n  - command: ["😀", 3]\n'
    '    slot: tsak\n    count: {per_slot: 1}\nattributes:\n  system: {duration: "1h"}\n',
}


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    where = tmp_path_factory.mktemp("verdict")
    for name, text in SCRIPTS.items():
        (where / name).write_text(text)
    return where


def test_schema_findings_prints_the_shipped_schema_a_valid_one():
    proc = run_cli("schema", "findings")
    assert proc.returncode == 0
    printed = json.loads(proc.stdout)
    assert printed == verdict.schema()
    shipped = REPO / "jobspec_lsp" / "schemas" / "findings.schema.json"
    assert printed == json.loads(shipped.read_text())
    jsonschema.Draft202012Validator.check_schema(printed)
    for name in ("checkResult", "fixResult", "convertResult", "jobspecResult", "rule", "error"):
        jsonschema.Draft202012Validator.check_schema(verdict.definition(name))
    assert run_cli("schema", "findings", "--v1").returncode == 2


def test_check_format_json_is_held_to_the_schema(files):
    paths = [*sorted(EXAMPLES.glob("*.jobspec.*")), *(files / n for n in SCRIPTS)]
    proc = run_cli("check", "--format", "json", *paths, files / "missing.yaml")
    report = json.loads(proc.stdout)
    jsonschema.validate(report, verdict.schema())
    by_name = {Path(f["path"]).name: f for f in report["files"]}
    assert "error" in by_name["missing.yaml"]
    wide = {d["code"]: d for d in by_name["wide.jobspec.yaml"]["diagnostics"]}
    assert wide["JS307"]["range"]["start"]["character"] == wide["JS307"]["column"] - 1
    three = wide["JS313"]  # after a 😀 on its line: 2 UTF-16 units, 1 character
    assert three["range"]["start"]["character"] == three["column"]
    fixes = [f for d in report["files"] for x in d["diagnostics"] for f in x["fixes"]]
    assert {f["safety"] for f in fixes} == {"safe", "unsafe"}


def test_the_check_tool_finds_what_check_format_json_finds(files):
    served = tools.Served(files)
    for name in SCRIPTS:
        text = (files / name).read_text()
        result, error = tools.call("check", {"text": text, "filename": name}, served)
        assert not error
        jsonschema.validate(result, verdict.definition("checkResult"))
        proc = run_cli("check", "--format", "json", name, cwd=files)
        (entry,) = json.loads(proc.stdout)["files"]
        assert result["findings"] == entry["diagnostics"], name


def test_a_fix_edits_are_where_the_finding_is():
    text = SCRIPTS["wide.jobspec.yaml"]
    result, _ = tools.call("check", {"text": text, "filename": "w.yaml"}, tools.Served(REPO))
    duration = next(f for f in result["findings"] if f["code"] == "JS405")
    (fix,) = [f for f in duration["fixes"] if f["safety"] == "safe"]
    assert fix["edits"] == [{"range": duration["range"], "newText": "3600"}]
