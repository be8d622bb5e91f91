"""`jobspec check --fix`, the project configuration (jobspec.toml, [tool.jobspec]),
inline suppressions, --exit-non-zero-on-warning and SARIF output: in process, and
through the CLI as a user runs it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import REPO, run_cli

from jobspec_lsp import config
from jobspec_lsp.diagnostics import RULES
from jobspec_lsp.features import fixes
from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.rules import suppress
from jobspec_lsp.rules.analysis import check

BROKEN = """# a broken jobspec
version: 1
resources:
  - type: slot
    count: "1"   # quoted
    label: task
    with:
      - {type: core, count: 1}
tasks:
  - command: app --fast
    slot: tsak
    count: {per_slot: 1}
attributes:
  system:
    duration: 1h
    environment: {DEBUG: yes}
"""


def analyse(text: str):
    doc = parse(text)
    return doc, check(doc)


def safe_fixable(text: str) -> list[str]:
    doc, diags = analyse(text)
    return [d.code for d in diags for f in fixes.fixes_for(doc, d) if f.safe]


# ------------------------------------------------------------------ check --fix
def _yaml_examples() -> list[tuple[str, str]]:
    out = [(p.name, p.read_text()) for p in sorted((REPO / "examples").glob("*.yaml"))]
    for code, rule in sorted(RULES.items()):
        opts = rule.example_options
        if not rule.for_scripts and not opts.get("convert") and "language" not in opts:
            out.append((code, rule.bad))
    return out


@pytest.mark.parametrize("name,text", _yaml_examples(), ids=[n for n, _ in _yaml_examples()])
def test_fix_leaves_only_what_has_no_safe_fix_and_a_second_run_changes_nothing(name, text):
    fixed, _applied = fixes.apply_fixes(analyse, text)
    assert safe_fixable(fixed) == []
    again, applied = fixes.apply_fixes(analyse, fixed)
    assert again == fixed and applied == []
    before = [ln.strip() for ln in text.splitlines() if ln.lstrip().startswith("#")]
    after = [ln.strip() for ln in fixed.splitlines() if ln.lstrip().startswith("#")]
    assert after == before  # whole-line comments kept, in order


def test_fix_writes_what_flux_reads_and_keeps_comments():
    fixed, applied = fixes.apply_fixes(analyse, BROKEN)
    assert sorted(c for c, _ in applied) == ["JS313", "JS405", "JS407", "JS605"]
    assert "count: 1   # quoted" in fixed
    assert "command: [app, --fast]" in fixed and "duration: 3600" in fixed
    assert 'environment: {DEBUG: "yes"}' in fixed  # a string there: the string, not true
    assert "slot: tsak" in fixed  # a did-you-mean is not safe
    unsafe, applied = fixes.apply_fixes(analyse, BROKEN, unsafe=True)
    assert "slot: task" in unsafe and "JS307" in [c for c, _ in applied]


def test_js905_prefers_the_string_where_a_string_is_required_and_nothing_on_a_mode():
    text = (
        "version: 1\nresources: [{type: slot, count: 1, label: task, with: [{type: core, "
        "count: 1}]}]\ntasks: [{command: [app, on], slot: task, count: {per_slot: 1}}]\n"
        "attributes:\n  system:\n    duration: 0\n    environment: {A: off}\n"
        "    files: {f: {mode: 0755, data: x, encoding: utf-8, size: 1}}\n  user: {flag: yes}\n"
    )
    doc, diags = analyse(text)
    preferred = {}
    for d in diags:
        if d.code == "JS905":
            got = [f.title for f in fixes.fixes_for(doc, d) if f.preferred]
            preferred[text[d.start : d.end] + "@" + str(d.start)] = got
    by_token = {k.split("@")[0]: v for k, v in preferred.items()}
    assert by_token["on"] == ['Write "on" (keep it a string)']
    assert by_token["off"] == ['Write "off" (keep it a string)']
    assert by_token["0755"] == []  # JS527's full mode is the fix to take there
    assert by_token["yes"] == ["Write true (what Flux reads)"]


def test_cli_fix_in_place_reports_and_is_idempotent(tmp_path):
    path = tmp_path / "job.jobspec.yaml"
    path.write_text(BROKEN)
    first = run_cli("check", "--fix", path)
    assert first.returncode == 1  # the slot label is still wrong
    err = first.stderr.decode()
    assert f"{path}: fixed JS405: Replace '1h' with 3600" in err
    assert "Found 1 error remaining (4 fixed)." in err
    assert b"JS307" in first.stdout
    text = path.read_text()
    second = run_cli("check", "--fix", path)
    assert path.read_text() == text and b"fixed" not in second.stderr
    third = run_cli("check", "--fix", "--unsafe-fixes", path)
    assert third.returncode == 0, third.stdout
    assert "slot: task" in path.read_text()


def test_cli_fix_on_stdin_writes_the_fixed_text_to_stdout():
    proc = run_cli(
        "check", "--fix", "-", "--stdin-filename", "x.jobspec.yaml", input=BROKEN.encode()
    )
    assert "duration: 3600" in proc.stdout.decode()
    assert b"JS307" in proc.stderr


# ------------------------------------------------------------------ configuration
def test_jobspec_toml_wins_over_pyproject_in_one_folder_and_the_nearest_folder_wins(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.jobspec]\nignore = ["JS405"]\n')
    sub = tmp_path / "sub"
    sub.mkdir()
    assert config.load(sub / "a.yaml").ignore == ("JS405",)
    (sub / "pyproject.toml").write_text("[project]\nname = 'x'\n")  # no [tool.jobspec]: passed over
    assert config.load(sub / "a.yaml").ignore == ("JS405",)
    (sub / "jobspec.toml").write_text('ignore = ["JS307"]\n')
    cfg = config.load(sub / "a.yaml")
    assert cfg.ignore == ("JS307",) and cfg.path == sub / "jobspec.toml"
    (tmp_path / "jobspec.toml").write_text('ignore = ["JS8"]\n')
    assert config.load(tmp_path / "a.yaml").ignore == ("JS8",)


def test_unknown_and_bad_keys_are_errors_with_their_position(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.jobspec]\ntarget = "flux-core"\nselct = ["JS2"]\n'
        'ignore = ["XX1"]\n'
    )
    cfg = config.load(tmp_path / "a.yaml")
    assert [str(p).split(": ", 1)[0].rsplit("/", 1)[1] for p in cfg.problems] == [
        "pyproject.toml:6:1",
        "pyproject.toml:7:12",  # the unknown code itself
    ]
    assert "has no key 'selct'; did you mean 'select'?" in str(cfg.problems[0])
    assert cfg.target == "flux-core"  # the good keys still apply
    job = tmp_path / "a.jobspec.yaml"
    job.write_text(BROKEN)
    proc = run_cli("check", job)
    assert proc.returncode == 2
    assert f"{tmp_path / 'pyproject.toml'}:6:1: [tool.jobspec] has no key 'selct'" in (
        proc.stderr.decode()
    )


def test_select_ignore_per_file_ignores_and_target_from_the_configuration(tmp_path):
    (tmp_path / "jobspec.toml").write_text(
        'ignore = ["JS905"]\n[per-file-ignores]\n"legacy/*.yaml" = ["JS405"]\n'
    )
    (tmp_path / "legacy").mkdir()
    for where in (tmp_path / "a.jobspec.yaml", tmp_path / "legacy" / "b.jobspec.yaml"):
        where.write_text(BROKEN)
    out = run_cli("check", "--format", "json", tmp_path).stdout
    codes = {
        Path(f["path"]).name: sorted(d["code"] for d in f["diagnostics"])
        for f in json.loads(out)["files"]
    }
    assert codes["a.jobspec.yaml"] == ["JS307", "JS313", "JS405", "JS407", "JS605"]
    assert codes["b.jobspec.yaml"] == ["JS307", "JS313", "JS407", "JS605"]
    # the command line adds to the configuration's ignore list, and its --select wins
    out = run_cli("check", "--format", "json", "--select", "JS4", tmp_path / "a.jobspec.yaml")
    assert sorted(d["code"] for d in json.loads(out.stdout)["files"][0]["diagnostics"]) == [
        "JS405",
        "JS407",
    ]


def test_exit_non_zero_on_warning_flag_and_key(tmp_path):
    job = tmp_path / "w.jobspec.yaml"
    job.write_text(
        BROKEN.replace("duration: 1h", "duration: 1")
        .replace('count: "1"', "count: 1")
        .replace("app --fast", "[app]")
        .replace("tsak", "task")
        .replace("{DEBUG: yes}", "{DEBUG: '1'}")
        + "    enviroment: {}\n"
    )
    assert run_cli("check", job).returncode == 0  # a warning only
    assert run_cli("check", "--exit-non-zero-on-warning", job).returncode == 1
    (tmp_path / "jobspec.toml").write_text("exit-non-zero-on-warning = true\n")
    assert run_cli("check", job).returncode == 1


# ------------------------------------------------------------------ suppressions
def test_a_line_suppression_hides_its_codes_and_an_unused_one_is_reported():
    text = BROKEN.replace("duration: 1h", "duration: 1h  # jobspec: ignore[JS405, JS202]")
    diags = check(text)
    assert "JS405" not in [d.code for d in diags]
    (unused,) = [d for d in diags if d.code == "JS913"]
    assert text[unused.start : unused.end] == "# jobspec: ignore[JS405, JS202]"
    assert "JS202 is not reported here" in unused.message
    (fix,) = fixes.fixes_for(parse(text), unused)
    assert fix.safe
    (e,) = fix.edits
    assert text[: e.start] + e.text + text[e.end :] == BROKEN.replace(
        "duration: 1h", "duration: 1h  # jobspec: ignore[JS405]"
    )


def test_a_file_suppression_and_a_bare_one():
    text = "# jobspec: ignore-file[JS3]\n" + BROKEN.replace(
        "duration: 1h", "duration: 1h  # jobspec: ignore"
    )
    codes = [d.code for d in check(text)]
    assert not [c for c in codes if c.startswith("JS3")] and "JS405" not in codes
    assert "JS913" not in codes
    lone = BROKEN.replace("label: task", "label: task  # jobspec: ignore")
    (d,) = [d for d in check(lone) if d.code == "JS913"]
    (fix,) = fixes.fixes_for(parse(lone), d)
    (e,) = fix.edits
    assert lone[: e.start] + e.text + lone[e.end :] == BROKEN


def test_suppressing_a_code_the_configuration_ignores_is_not_called_unused():
    text = "version: 1  # jobspec: ignore[JS103]\n"
    assert "JS913" in [d.code for d in check(text)]
    assert "JS913" not in [d.code for d in check(text, ignore=["JS103"])]


def test_suppression_in_a_batch_script():
    from jobspec_lsp.script import batch

    text = "#!/bin/sh\n#flux: -N2 --jobname=x  # jobspec: ignore[JS570]\n"
    assert [d.code for d in batch.check_script(text)] == []
    assert suppress.UNUSED in [
        d.code for d in batch.check_script(text.replace("--jobname", "--job-name"))
    ]


def test_json_has_no_comments_so_no_suppressions():
    text = '{"version": "# jobspec: ignore"}'
    assert "JS913" not in [d.code for d in check(text, language="json")]


# ------------------------------------------------------------------ SARIF
def _sarif_schema() -> dict:
    from atomic_setup import build_once, npm_install_into

    folder = REPO / "tests" / "sarif"
    # installed aside, then renamed into place (atomic_setup.py)
    modules = build_once(
        folder / "node_modules",
        lambda tmp: npm_install_into(
            tmp,
            folder,
            ["install", "--no-audit", "--no-fund", "--loglevel=error", "--ignore-scripts"],
            timeout=300,
        ),
    )
    schema = modules / "@microsoft" / "jest-sarif" / "lib" / "schemas" / "sarif-2.1.0-rtm.5.json"
    return json.loads(schema.read_text(encoding="utf-8"))


def test_sarif_output_is_valid_sarif_2_1_0(tmp_path):
    import jsonschema

    job = tmp_path / "a.jobspec.yaml"
    job.write_text(BROKEN)
    proc = run_cli("check", "--format", "sarif", job)
    assert proc.returncode == 1
    log = json.loads(proc.stdout)
    jsonschema.Draft4Validator(_sarif_schema()).validate(log)
    run = log["runs"][0]
    results = {r["ruleId"]: r for r in run["results"]}
    region = results["JS307"]["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"], region["endColumn"]) == (11, 11, 15)
    assert results["JS307"]["level"] == "error"
    rule = next(r for r in run["tool"]["driver"]["rules"] if r["id"] == "JS307")
    assert rule["helpUri"] == "https://flux-framework.github.io/jobspec-lsp/rules/js307/"


def test_configuration_doc_lists_every_key_and_every_safe_rule():
    doc = (REPO / "docs" / "configuration.md").read_text()
    for key in config.KEYS:
        assert f"| `{key}` |" in doc, key
    listed = doc.split("The rules whose preferred fix is safe:")[1].split(".")[0]
    assert sorted(c.strip() for c in listed.replace("\n", " ").split(",")) == sorted(fixes.SAFE)


def test_json_output_lists_a_file_that_cannot_be_read(tmp_path):
    good = tmp_path / "a.jobspec.yaml"
    good.write_text(BROKEN)
    missing = tmp_path / "gone.jobspec.yaml"
    missing.symlink_to(tmp_path / "nowhere")  # a dangling link: found, then unreadable
    proc = run_cli("check", "--format", "json", good, missing)
    assert proc.returncode == 2
    files = {Path(f["path"]).name: f for f in json.loads(proc.stdout)["files"]}
    assert files["gone.jobspec.yaml"]["diagnostics"] == []
    assert files["gone.jobspec.yaml"]["error"]
    assert files["a.jobspec.yaml"]["diagnostics"]
