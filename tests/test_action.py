"""The GitHub Action (action.yml, issue 38), run as a runner runs a composite action: its
inputs given as INPUT_* and substituted for ``${{ inputs.x }}`` (with their defaults), each
``run:`` step's script run by ``bash --noprofile --norc -eo pipefail`` in a scratch
workspace with GITHUB_ACTION_PATH (this checkout), RUNNER_TEMP and a GITHUB_OUTPUT file of
its own, a step's ``if:`` evaluated, a ``uses:`` step recorded with its ``with:`` (the
runner would run that action). The first run installs the package as the action does
(pip, from this checkout); the others use that install."""

from __future__ import annotations

import json
import os
import re
import subprocess

import pytest
import yaml
from helpers import REPO

from jobspec_lsp import __version__

ACTION = yaml.safe_load((REPO / "action.yml").read_text())
BROKEN = "#!/bin/bash\n#flux: -N 2\n#flux: -t 1h\n#flux: --job-name=sim\n#flux: --queu=batch\nflux run -N2 ./sim\n"
CLEAN = "#!/bin/bash\n#flux: -N 2\n#flux: -t 1h\nflux run -N2 ./sim\n"
CANONICAL = "version: 999\nresources:\n  - type: core\n    count: 1\ntasks: []\n"
_EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


class Runner:
    """The contexts of one run of the action: its inputs, the steps' outputs."""

    def __init__(self, inputs: dict[str, str], temp, workspace) -> None:
        declared = ACTION["inputs"]
        unknown = set(inputs) - set(declared)
        assert not unknown, unknown
        self.inputs = {k: inputs.get(k, v.get("default", "")) for k, v in declared.items()}
        self.steps: dict[str, dict] = {}
        self.temp, self.workspace = temp, workspace

    def value(self, path: str) -> str:
        if path.startswith("'") and path.endswith("'"):
            return path[1:-1]
        parts = path.split(".")
        if parts[0] == "inputs":
            return self.inputs[parts[1]]
        if parts[0] == "steps" and parts[2] == "outputs":
            return self.steps.get(parts[1], {}).get(parts[3], "")
        raise AssertionError(f"an expression this runner does not read: {path}")

    def condition(self, text: str) -> bool:
        """An ``if:`` of ``a == 'b' && c != ''`` terms."""
        ok = True
        for term in text.split("&&"):
            lhs, op, rhs = re.fullmatch(r"\s*(\S+)\s*(==|!=)\s*(\S+)\s*", term).groups()
            same = self.value(lhs) == self.value(rhs)
            ok = ok and (same if op == "==" else not same)
        return ok

    def substitute(self, text: str) -> str:
        return _EXPR.sub(lambda m: self.value(m.group(1)), str(text))

    def env(self, step: dict) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "INPUT_"))}
        env.pop("VIRTUAL_ENV", None)
        env.update(
            GITHUB_ACTIONS="true",
            GITHUB_WORKSPACE=str(self.workspace),
            GITHUB_ACTION_PATH=str(REPO),
            RUNNER_TEMP=str(self.temp),
        )
        env.update({f"INPUT_{k.upper()}": v for k, v in self.inputs.items()})
        env.update({k: self.substitute(v) for k, v in (step.get("env") or {}).items()})
        return env


def run_action(workspace, temp, inputs: dict[str, str], install: bool) -> dict:
    """Each step run (or skipped, or, for ``uses:``, recorded): {"log", "status",
    "outputs", "uses", "skipped"}."""
    runner = Runner(inputs, temp, workspace)
    got = {"log": "", "status": 0, "uses": [], "skipped": []}
    for k, step in enumerate(ACTION["runs"]["steps"]):
        if "if" in step and not runner.condition(step["if"]):
            got["skipped"].append(step["name"])
            continue
        if "uses" in step:
            with_ = {k: runner.substitute(v) for k, v in step.get("with", {}).items()}
            got["uses"].append((step["uses"], with_))
            continue
        if k == 0 and not install:
            continue  # installed by an earlier run in the same RUNNER_TEMP
        assert step["shell"] == "bash"
        script = temp / f"step{k}.sh"
        script.write_text(runner.substitute(step["run"]))
        output = temp / f"output{k}"
        output.write_text("")
        env = {**runner.env(step), "GITHUB_OUTPUT": str(output)}
        proc = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=workspace,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        got["log"] += proc.stdout + proc.stderr
        outputs = dict(line.split("=", 1) for line in output.read_text().splitlines() if line)
        runner.steps[step.get("id", f"step{k}")] = outputs
        if proc.returncode != 0:
            got["status"] = proc.returncode
            break
    got["outputs"] = {k: runner.substitute(v["value"]) for k, v in ACTION["outputs"].items()}
    return got


@pytest.fixture(scope="module")
def action(tmp_path_factory):
    """A workspace with a few scripts and jobspecs, and the runner's temporary folder where
    the first run installs the package; ``action(inputs)`` runs the action."""
    workspace = tmp_path_factory.mktemp("workspace")
    temp = tmp_path_factory.mktemp("runner-temp")
    (workspace / "jobs").mkdir()
    (workspace / "jobs" / "broken.sh").write_text(BROKEN)
    (workspace / "jobs" / "clean.sh").write_text(CLEAN)
    (workspace / "jobs" / "job.jobspec.yaml").write_text(CANONICAL)
    (workspace / "README.md").write_text("not checked\n")
    installed = []

    def run(**inputs):
        got = run_action(workspace, temp, inputs, install=not installed)
        installed.append(True)
        return got

    run.workspace, run.temp = workspace, temp
    return run


def annotations(log: str) -> list[tuple[str, str, str, str]]:
    """(level, file, line, code) of each finding's workflow command."""
    return re.findall(
        r"^::(error|warning|notice) file=([^,]+),line=(\d+),.*?title=(JS\d+)::", log, re.M
    )


def test_the_action_installs_its_own_version_and_annotates_each_finding(action):
    got = action()
    assert f"jobspec {__version__}" in got["log"]  # the action's own version, installed
    found = annotations(got["log"])
    assert ("error", "jobs/broken.sh", "5", "JS570") in found
    assert not [f for f in found if f[1] == "jobs/clean.sh"]
    assert any(f[1] == "jobs/job.jobspec.yaml" for f in found)
    assert got["status"] == 1 and got["outputs"]["status"] == "1"
    assert "::error title=jobspec check::jobspec check exited 1" in got["log"]
    assert got["skipped"] == ["Upload the SARIF log to code scanning"] and got["uses"] == []


def test_clean_paths_pass(action):
    got = action(paths="jobs/clean.sh\njobs/*.yaml", select="JS5")
    assert annotations(got["log"]) == [] and got["status"] == 0
    assert got["outputs"]["status"] == "0"


def test_select_ignore_and_target_are_passed_on(action):
    ignored = action(paths="jobs", ignore="JS570")
    assert not [f for f in annotations(ignored["log"]) if f[3] == "JS570"]
    rfc = annotations(action(paths="jobs/job.jobspec.yaml")["log"])
    core = annotations(action(paths="jobs/job.jobspec.yaml", target="flux-core")["log"])
    assert rfc != core  # flux-core's ingest takes V1 only


def test_site_checks_each_job_against_the_profile(action):
    got = action(paths="jobs/clean.sh", site=str(REPO / "examples" / "site"), select="JS65")
    assert got["status"] == 0
    queue = action.workspace / "jobs" / "queue.sh"
    queue.write_text(CLEAN.replace("-t 1h", "-t 1h\n#flux: --queue=nosuch"))
    try:
        got = action(paths="jobs/queue.sh", site=str(REPO / "examples" / "site"))
    finally:
        queue.unlink()
    assert any(f[3] == "JS650" for f in annotations(got["log"])), got["log"]


def test_sarif_is_written_and_uploaded_only_when_asked(action):
    got = action(paths="jobs", sarif="out/jobspec.sarif")
    log = json.loads((action.workspace / "out" / "jobspec.sarif").read_text())
    assert log["version"] == "2.1.0" and log["runs"][0]["results"]
    assert got["uses"] == [] and got["outputs"]["sarif"] == "out/jobspec.sarif"
    got = action(paths="jobs", sarif="out/jobspec.sarif", **{"upload-sarif": "true"})
    ((uses, with_),) = got["uses"]
    assert uses.startswith("github/codeql-action/upload-sarif@")
    assert with_["sarif_file"] == "out/jobspec.sarif"
    assert got["status"] == 1  # the upload comes before the failure


# ------------------------------------------------------------------ docs/ci.md, run
CI_DOC = (REPO / "docs" / "ci.md").read_text()


def _block(marker: str, lang: str) -> str:
    return CI_DOC.split(f"<!-- {marker} -->\n```{lang}\n", 1)[1].split("```", 1)[0]


def test_docs_ci_workflow_runs_the_action(action):
    """The workflow of docs/ci.md: its step of this action takes only declared inputs, the
    table lists them all, and the action run with them annotates, writes and uploads."""
    workflow = yaml.safe_load(_block("workflow", "yaml"))
    (step,) = [
        s
        for j in workflow["jobs"].values()
        for s in j["steps"]
        if "jobspec-lsp@" in s.get("uses", "")
    ]
    assert re.fullmatch(r"flux-framework/jobspec-lsp@v\d+\.\d+\.\d+", step["uses"])
    table = re.findall(r"^\| `([\w-]+)`(?:, `([\w-]+)`)? \|", CI_DOC, re.M)
    assert sorted(n for row in table for n in row if n) == sorted(ACTION["inputs"])
    got = action(**{k: str(v) for k, v in step["with"].items()})
    assert ("error", "jobs/broken.sh", "5", "JS570") in annotations(got["log"])
    assert [u for u, _ in got["uses"]] == ["github/codeql-action/upload-sarif@v3"]
    assert json.loads((action.workspace / "jobspec.sarif").read_text())["version"] == "2.1.0"


def test_docs_ci_pre_commit_names_the_hooks():
    config = yaml.safe_load(_block("pre-commit", "yaml"))
    (repo,) = config["repos"]
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert [h["id"] for h in repo["hooks"]] == [h["id"] for h in hooks]
    assert re.fullmatch(r"v\d+\.\d+\.\d+", repo["rev"])


def test_docs_ci_commands_run(action, tmp_path):
    """Each command of docs/ci.md's `run` block, in the workspace, with the `jobspec` the
    action installed first on the PATH."""
    action(paths="jobs/clean.sh")  # installed, if no test before did
    bin_dir = action.temp / "jobspec-action-venv" / "bin"
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    for line in _block("run", "sh").strip().splitlines():
        proc = subprocess.run(
            ["bash", "-c", line], cwd=action.workspace, env=env, capture_output=True, text=True
        )
        assert proc.returncode == 0, (line, proc.stderr)
    assert json.loads((action.workspace / "jobspec.sarif").read_text())["runs"][0]["results"]
    findings = json.loads((action.workspace / "findings.json").read_text())
    assert {d["code"][:3] for f in findings["files"] for d in f["diagnostics"]} == {"JS5"}
