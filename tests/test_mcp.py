"""`jobspec mcp` (issue 38): the tools listed and called through the MCP SDK's own client
over stdio, each result one JSON object held to its declared outputSchema and to the verdict
schema; the settings from the server's folder, its options and the call's arguments; the
loop an agent runs on a broken batch script (real Flux takes its result:
tests/flux/test_flux_mcp.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from helpers import REPO, jobspec_exe, run_cli
from mcp_agent import BROKEN_SCRIPT, agent_loop, session

EXAMPLES = REPO / "examples"
TOOL_NAMES = ["check", "fix", "convert", "new", "explain", "show_jobspec"]
ARGUMENTS = {
    "check": {"text", "filename", "kind", "target", "site"},
    "fix": {"text", "filename", "kind", "target", "site", "unsafe"},
    "convert": {"text", "source", "target", "site"},
    "new": {"argv"},
    "explain": {"code"},
    "show_jobspec": {"text", "filename"},
}
SLURM = (
    "#!/bin/bash\n#SBATCH -N 2\n#SBATCH --ntasks-per-node=4\n#SBATCH -t 01:00:00\n"
    "#SBATCH --mail-user=me@example.org\n#SBATCH -J myjob\nsrun -n 8 ./app $SLURM_JOB_ID\n"
)
HETJOB = "#!/bin/bash\n#SBATCH -N 1 -n 2\n#SBATCH hetjob\n#SBATCH -N 2 -n 4\nsrun ./a\n"
DURATION = (
    "version: 1\nresources:\n  - type: slot\n    count: 1\n    label: task\n    with:\n"
    "      - type: core\n        count: 1\ntasks:\n  - command: [app]\n    slot: task\n"
    '    count: {per_slot: 1}\nattributes:\n  system:\n    duration: "1h"\n'
)


def codes(result: dict) -> list[str]:
    return [f["code"] for f in result["findings"]]


def test_the_tools_are_listed_with_their_arguments_and_results(tmp_path):
    async def work(s):
        return await s.tools()

    tools = session(tmp_path, work)
    assert [t.name for t in tools] == TOOL_NAMES
    for t in tools:
        assert set(t.input_schema["properties"]) == ARGUMENTS[t.name], t.name
        assert t.output_schema["type"] == "object" and "$defs" in t.output_schema
        assert "Call it" in t.description, t.name  # when an agent should call it
        assert t.annotations.read_only_hint is True
    described = {t.name: t.description for t in tools}
    assert "before submitting a script" in described["check"]
    assert "to migrate a Slurm script" in described["convert"]


def test_check_says_the_kind_and_each_finding_as_check_format_json_does(tmp_path):
    broken = (EXAMPLES / "broken-v1.jobspec.yaml").read_text()

    async def work(s):
        return [
            await s.call("check", {"text": broken, "filename": "broken-v1.jobspec.yaml"}),
            await s.call("check", {"text": BROKEN_SCRIPT}),
            await s.call("check", {"text": BROKEN_SCRIPT, "kind": "flux-script"}),
            await s.call("check", {"text": "hello\n"}),
            await s.call("check", {"text": SLURM, "filename": "job.sh"}),
        ]

    yaml_, script, named, other, slurm = session(tmp_path, work)
    assert yaml_["kind"] == "jobspec-yaml" and yaml_["positionEncoding"] == "utf-16"
    # the same findings as `jobspec check --format json` of the file: one schema, one shape
    proc = run_cli("check", "--format", "json", EXAMPLES / "broken-v1.jobspec.yaml")
    (entry,) = json.loads(proc.stdout)["files"]
    assert yaml_["findings"] == entry["diagnostics"]
    js307 = next(f for f in yaml_["findings"] if f["code"] == "JS307")
    assert js307["line"] == js307["range"]["start"]["line"] + 1
    assert js307["url"].endswith("/rules/js307/")
    assert js307["fixes"][0]["safety"] == "unsafe"  # a did-you-mean
    assert script["kind"] == named["kind"] == "flux-script"
    assert codes(script) == ["JS570", "JS913"]
    assert other["kind"] != "flux-script" and "note" not in script
    assert slurm["kind"] == "slurm-script" and "JS590" in codes(slurm)


def test_target_and_site_come_from_the_folder_the_server_options_and_the_call(tmp_path):
    canonical = "version: 999\nresources: []\ntasks: []\n"
    (tmp_path / "jobspec.toml").write_text('target = "flux-core"\n')

    async def work(s):
        return [
            await s.call("check", {"text": canonical, "filename": "a.yaml"}),
            await s.call("check", {"text": canonical, "filename": "a.yaml", "target": "rfc"}),
            await s.call("check", {"text": BROKEN_SCRIPT, "site": str(EXAMPLES / "site")}),
            await s.call("check", {"text": BROKEN_SCRIPT, "site": "no-such-site"}),
        ]

    configured, asked, site, broken_site = session(tmp_path, work)
    assert configured["findings"] != asked["findings"]  # flux-core takes V1 only
    assert "problems" not in site
    assert any("site profile" in p for p in broken_site["problems"])
    (tmp_path / "jobspec.toml").unlink()

    async def served(s):
        return await s.call("check", {"text": canonical, "filename": "a.yaml"})

    assert (
        session(tmp_path, served, ["--target", "flux-core"])["findings"] == (configured["findings"])
    )


def test_fix_applies_the_safe_fixes_and_with_unsafe_the_guesses(tmp_path):
    async def work(s):
        return [
            await s.call("fix", {"text": DURATION, "filename": "job.yaml"}),
            await s.call("fix", {"text": BROKEN_SCRIPT}),
            await s.call("fix", {"text": BROKEN_SCRIPT, "unsafe": True}),
        ]

    duration, safe, unsafe = session(tmp_path, work)
    assert "duration: 3600" in duration["text"] and duration["findings"] == []
    assert [a["code"] for a in duration["applied"]] == ["JS405"]
    assert [a["code"] for a in safe["applied"]] == ["JS913"]  # cosmetic: the comment
    assert "ignore[" not in safe["text"] and "--jobname=sim" in safe["text"]
    assert [f["code"] for f in safe["findings"]] == ["JS570"]  # the guess is left
    assert {a["code"] for a in unsafe["applied"]} == {"JS570", "JS913"}
    assert "--job-name=sim" in unsafe["text"] and unsafe["findings"] == []


def test_convert_carries_approximates_and_refuses(tmp_path):
    async def work(s):
        return [
            await s.call("convert", {"text": SLURM}),
            await s.call("convert", {"text": SLURM, "source": "pbs"}),
            await s.call("convert", {"text": HETJOB}),
        ]

    done, wrong_source, het = session(tmp_path, work)
    assert done["scheduler"] == "slurm"
    assert done["script"].startswith("#!/bin/bash\n#flux: -N 2 -n 8")
    assert "flux run -N2 -n8 ./app $(flux getattr jobid)" in done["script"]
    carried = {c["original"]: c.get("flux") for c in done["carried"]}
    assert carried["#SBATCH -t 01:00:00"] == "#flux: -t 1h"
    assert carried["$SLURM_JOB_ID"] == "$(flux getattr jobid)"
    assert carried["srun -n 8 ./app $SLURM_JOB_ID"].startswith("flux run -N2 -n8")
    assert any("slurm-%j.out" in a["message"] for a in done["approximated"])
    assert [r["original"] for r in done["refused"]] == ["--mail-user=me@example.org"]
    assert codes(done) == ["JS591"]  # the Flux script's own findings: the line kept
    assert wrong_source["note"] == "no #PBS directives: nothing of theirs to convert"
    assert het["script"] is None and "heterogeneous" in het["refusal"]
    assert "JS589" in codes(het)


def test_new_builds_what_flux_submit_builds_or_refuses(tmp_path):
    async def work(s):
        return [
            await s.call("new", {"argv": ["flux", "submit", "-N2", "-n8", "-t", "1h", "app"]}),
            await s.call("new", {"argv": ["-N2", "-n8", "-t", "1h", "app"]}),
            await s.call("new", {"argv": ["flux", "run", "-N", "0", "app"]}),
            await s.call("new", {"argv": ["flux", "batch", "job.sh"]}, error=True),
        ]

    submit, bare, refused, batch = session(tmp_path, work)
    assert submit == bare
    js = submit["jobspec"]
    assert js["version"] == 1 and js["attributes"]["system"]["duration"] == 3600
    assert js["resources"][0]["type"] == "node" and js["resources"][0]["count"] == 2
    assert js["tasks"][0]["command"] == ["app"]
    cli = json.loads(run_cli("new", "--format", "json", "-N2", "-n8", "-t", "1h", "app").stdout)
    assert js == cli  # the jobspec `jobspec new` writes
    assert "-N must be at least 1" in refused["refused"]
    assert "show_jobspec" in batch["error"]


def test_explain_and_show_jobspec(tmp_path):
    async def work(s):
        return [
            await s.call("explain", {"code": "js405"}),
            await s.call("explain", {"code": "JS9999"}, error=True),
            await s.call("show_jobspec", {"text": BROKEN_SCRIPT}),
        ]

    rule, unknown, refused = session(tmp_path, work)
    assert rule["code"] == "JS405" and rule["fix"] == "repair" and rule["severity"] == "error"
    assert rule["bad"] != rule["good"] and rule["url"].endswith("/rules/js405/")
    assert "jobspec-yaml" in rule["kinds"] and "1h" in rule["bad"]
    assert "unknown rule code" in unknown["error"]
    assert "flux batch would refuse it" in refused["refused"]

    async def clean(s):
        text = BROKEN_SCRIPT.replace("--jobname", "--job-name")
        return await s.call("show_jobspec", {"text": text, "filename": "job.sh"})

    js = session(tmp_path, clean)["jobspec"]
    assert js["attributes"]["system"]["duration"] == 5400
    assert js["attributes"]["system"]["queue"] == "pbatch"
    assert js["attributes"]["system"]["job"]["name"] == "sim"


def test_arguments_outside_a_tool_schema_are_an_error_that_says_why(tmp_path):
    async def work(s):
        return [
            await s.call("check", {"text": "x", "bogus": 1}, error=True),
            await s.call("check", {"filename": "x"}, error=True),
            await s.call("check", {"text": 3}, error=True),
            await s.call("check", {"text": "x", "target": "slurm"}, error=True),
            await s.call("new", {"argv": ["-N2", 3]}, error=True),
            await s.call("new", {"argv": ["--format=yaml", "app"]}, error=True),
        ]

    said = [r["error"] for r in session(tmp_path, work)]
    assert "unknown argument 'bogus'" in said[0]
    assert said[1] == "text is required"
    assert "a string" in said[2] and "not one of" in said[3]
    assert "list of strings" in said[4] and "--format" in said[5]


def test_the_agent_loop_ends_clean(tmp_path):
    async def work(s):
        return await agent_loop(s)

    steps = session(tmp_path, work)
    assert codes(steps["first"]) == ["JS570", "JS913"]
    assert [a["code"] for a in steps["fix"]["applied"]] == ["JS913"]  # the safe fix
    assert codes(steps["again"]) == ["JS570"]  # --jobname: its fix is a guess, applied by hand
    assert steps["last"]["findings"] == []
    text = steps["text"]
    assert "--job-name=sim" in text and "ignore[" not in text and "--queue=pbatch" in text
    js = steps["jobspec"]["jobspec"]
    assert js["attributes"]["system"]["duration"] == 5400


def test_check_loads_no_sdk_and_mcp_without_it_says_how_to_install(tmp_path):
    """The SDK is an extra: `jobspec check` (any format) never loads it, and `jobspec mcp`
    without it exits 2 saying what to install."""
    job = tmp_path / "job.sh"
    job.write_text(BROKEN_SCRIPT)
    probe = (
        "import json, sys\nfrom jobspec_lsp.cli import main\n"
        f"main(['check', '-q', '--format', 'json', {str(job)!r}])\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('mcp', 'mcp_types', 'pydantic', 'starlette') or m.startswith('jobspec_lsp.mcp.'))))"
    )
    got = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert json.loads(got.stdout.splitlines()[-1]) == ["jobspec_lsp.mcp.verdict"]
    fake = tmp_path / "fake"
    (fake / "mcp").mkdir(parents=True)
    (fake / "mcp" / "__init__.py").write_text("raise ImportError('no SDK here')\n")
    env = {**os.environ, "PYTHONPATH": str(fake)}
    proc = subprocess.run(
        [jobspec_exe(), "mcp"], env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    assert proc.returncode == 2 and "pip install 'jobspec-lsp[mcp]'" in proc.stderr


def test_docs_agents_examples_are_the_server_and_the_tools(tmp_path):
    """docs/agents.md: its client configuration starts this server, it names every tool, and
    its example call gives its example result, through that configuration's command."""
    doc = (REPO / "docs" / "agents.md").read_text()
    config = json.loads(doc.split("```json\n", 1)[1].split("```", 1)[0])
    (entry,) = config["mcpServers"].values()
    assert [entry["command"], *entry["args"]] == ["jobspec", "mcp"]
    for name in TOOL_NAMES:
        assert f"| `{name}` |" in doc, name
    assert "jobspec schema findings" in doc and run_cli("schema", "findings").returncode == 0

    def block(marker: str) -> dict:
        return json.loads(doc.split(f"<!-- {marker} -->\n```json\n", 1)[1].split("```", 1)[0])

    call = block("check-call")

    async def work(s):
        return await s.call(call["name"], call["arguments"])

    assert session(tmp_path, work) == block("check-result")


@pytest.mark.parametrize("name", TOOL_NAMES)
def test_each_tool_result_has_its_definition(name):
    from jobspec_lsp.mcp import tools, verdict

    tool = tools.BY_NAME[name]
    assert tool.result in verdict.schema()["$defs"]
