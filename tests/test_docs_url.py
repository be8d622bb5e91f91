"""The docs-url setting (issue 37): a site that hosts its own copy of the documentation
sets it, and the command line's links go there: `check --format json|sarif`,
`jobspec rules CODE`. `--docs-url` wins over the project's `docs-url`; without either,
the project's site (jobspec_lsp.diagnostics.DOCS_URL). The server's side:
tests/lsp/test_lsp_docs_url.py."""

import json

from helpers import run_cli

from jobspec_lsp import config
from jobspec_lsp.diagnostics import DOCS_URL

BROKEN = "version: 1\nresources:\n  - type: slot\n    count: 0\n    label: task\n"
OURS = "https://hpc.example.edu/jobspec-docs"


def _sarif_links(proc) -> dict[str, str]:
    log = json.loads(proc.stdout)
    return {r["id"]: r["helpUri"] for r in log["runs"][0]["tool"]["driver"]["rules"]}


def _json_links(proc) -> dict[str, str]:
    (entry,) = json.loads(proc.stdout)["files"]
    return {d["code"]: d["url"] for d in entry["diagnostics"]}


def test_the_links_are_the_projects_site_by_default(tmp_path):
    job = tmp_path / "a.jobspec.yaml"
    job.write_text(BROKEN)
    links = _json_links(run_cli("check", "--format", "json", job, cwd=tmp_path))
    assert links["JS202"] == f"{DOCS_URL}rules/js202/"
    assert _sarif_links(run_cli("check", "--format", "sarif", job))["JS202"] == links["JS202"]
    shown = run_cli("rules", "JS202", cwd=tmp_path).stdout.decode()
    assert f"Documentation: {DOCS_URL}rules/js202/\n" in shown


def test_the_setting_replaces_the_base_in_json_sarif_and_rules(tmp_path):
    (tmp_path / "jobspec.toml").write_text(f'docs-url = "{OURS}/"\n')
    job = tmp_path / "a.jobspec.yaml"
    job.write_text(BROKEN)
    assert config.load(job).docs_url == f"{OURS}/"
    want = f"{OURS}/rules/js202/"
    proc = run_cli("check", "--format", "json", job)
    assert _json_links(proc)["JS202"] == want, proc.stderr
    sarif = _sarif_links(run_cli("check", "--format", "sarif", job))
    assert sarif["JS202"] == want and sarif["JS911"] == f"{OURS}/rules/js911/"
    assert f"Documentation: {want}\n" in run_cli("rules", "JS202", cwd=tmp_path).stdout.decode()

    flag = ["--docs-url", "file:///srv/docs"]  # the flag wins over the configuration
    assert _json_links(run_cli("check", "--format", "json", *flag, job))["JS202"] == (
        "file:///srv/docs/rules/js202/"
    )
    assert _sarif_links(run_cli("check", "--format", "sarif", *flag, job))["JS202"] == (
        "file:///srv/docs/rules/js202/"
    )
    shown = run_cli("rules", "js202", *flag, cwd=tmp_path).stdout.decode()
    assert "Documentation: file:///srv/docs/rules/js202/\n" in shown


def test_a_docs_url_that_is_no_string_is_a_configuration_error(tmp_path):
    (tmp_path / "jobspec.toml").write_text("docs-url = 3\n")
    job = tmp_path / "a.jobspec.yaml"
    job.write_text(BROKEN)
    proc = run_cli("check", job)
    assert proc.returncode == 2
    assert "jobspec.toml:1:1: jobspec.toml docs-url must be a URL" in proc.stderr.decode()
