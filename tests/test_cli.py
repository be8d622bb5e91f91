"""`jobspec check` as a user runs it: a subprocess, real files, real exit codes."""

import json
import os
import sys

import pytest
from helpers import REPO, rfc_files, rfc_id, run_cli

EXAMPLES = REPO / "examples"


def out(proc):
    return proc.stdout.decode()


def test_valid_examples_pass(tmp_path):
    for name in (
        "v1-node-slot-core.jobspec.yaml",
        "v1-gpus.jobspec.json",
        "canonical-range.jobspec.yaml",
    ):
        proc = run_cli("check", EXAMPLES / name)
        assert proc.returncode == 0, out(proc) + proc.stderr.decode()


def test_text_output_is_compiler_style():
    proc = run_cli("check", EXAMPLES / "broken-v1.jobspec.yaml")
    assert proc.returncode == 1
    lines = out(proc).splitlines()
    path = str(EXAMPLES / "broken-v1.jobspec.yaml")
    assert f"{path}:13:20: error[JS202] count must be at least 1, not 0" in lines
    assert (
        f"{path}:16:11: error[JS307] no slot is labelled 'tsak'; did you mean 'task'? (slots: task)"
        in lines
    )
    assert (
        f"{path}:21:15: error[JS405] duration is in seconds, not a duration string: write 3600 for '1h'"
        in lines
    )
    assert "Found" in proc.stderr.decode()


FINDING_FIELDS = ("code", "severity", "message", "range", "line", "column", "url", "fixes")


def test_json_output_contract():
    proc = run_cli(
        "check",
        "--format",
        "json",
        EXAMPLES / "broken-v1.jobspec.yaml",
        EXAMPLES / "v1-gpus.jobspec.json",
    )
    assert proc.returncode == 1
    data = json.loads(out(proc))
    assert list(data) == ["positionEncoding", "files"]
    assert data["positionEncoding"] == "utf-16"
    assert [f["path"] for f in data["files"]] == [
        str(EXAMPLES / "broken-v1.jobspec.yaml"),
        str(EXAMPLES / "v1-gpus.jobspec.json"),
    ]
    assert data["files"][1]["diagnostics"] == []
    d = next(d for d in data["files"][0]["diagnostics"] if d["code"] == "JS307")
    assert d == {
        "code": "JS307",
        "severity": "error",
        "message": "no slot is labelled 'tsak'; did you mean 'task'? (slots: task)",
        "range": {"start": {"line": 15, "character": 10}, "end": {"line": 15, "character": 14}},
        "line": 16,
        "column": 11,
        "url": "https://flux-framework.github.io/jobspec-lsp/rules/js307/",
        "fixes": [
            {
                "title": "Change to 'task'",
                "safety": "unsafe",
                "edits": [
                    {
                        "range": {
                            "start": {"line": 15, "character": 10},
                            "end": {"line": 15, "character": 14},
                        },
                        "newText": "task",
                    }
                ],
            }
        ],
    }
    for f in data["files"]:
        for d in f["diagnostics"]:
            assert set(d) == set(FINDING_FIELDS)
            assert d["severity"] in ("error", "warning", "information", "hint")


def test_github_output():
    proc = run_cli("check", "--format", "github", EXAMPLES / "broken-v1.jobspec.yaml")
    lines = out(proc).splitlines()
    assert any(
        line.startswith("::error file=")
        and "line=16,col=11,endLine=16,endColumn=15" in line
        and "title=JS307::JS307 " in line
        for line in lines
    )
    assert any(line.startswith("::warning ") and "JS905" in line for line in lines)


def test_directory_recursion_finds_jobspec_names_only(tmp_path):
    (tmp_path / "sub" / "deep").mkdir(parents=True)
    good = (EXAMPLES / "v1-node-slot-core.jobspec.yaml").read_text()
    (tmp_path / "sub" / "deep" / "a.jobspec.yml").write_text(good)
    (tmp_path / "sub" / "jobspec.yaml").write_text("version: 0\n")
    (tmp_path / "sub" / "other.yaml").write_text("not: [a jobspec\n")  # ignored: not a jobspec name
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "x.jobspec.yaml").write_text("junk: [")
    proc = run_cli("check", "--format", "json", tmp_path)
    data = json.loads(out(proc))
    paths = [os.path.relpath(f["path"], tmp_path) for f in data["files"]]
    assert paths == ["sub/deep/a.jobspec.yml", "sub/jobspec.yaml"]
    assert proc.returncode == 1


def test_explicit_files_are_checked_whatever_their_name(tmp_path):
    f = tmp_path / "whatever.yml"
    f.write_text("version: 1\n")
    proc = run_cli("check", f)
    assert proc.returncode == 1 and "JS101" in out(proc)


def test_stdin_yaml_and_json():
    text = (EXAMPLES / "broken-v1.jobspec.yaml").read_bytes()
    proc = run_cli("check", "-", input=text)
    assert proc.returncode == 1 and out(proc).startswith("-:")
    js = (EXAMPLES / "v1-gpus.jobspec.json").read_bytes()
    proc = run_cli("check", "--format", "json", "-", input=js)
    assert proc.returncode == 0 and json.loads(out(proc))["files"][0]["path"] == "-"
    proc = run_cli("check", "--stdin-filename", "job.json", "-", input=b'{"version": 1e5}')
    assert "job.json:1:13: error[JS103]" in out(proc)


def test_unreadable_and_missing_files_exit_2_but_others_are_checked(tmp_path):
    ok = tmp_path / "ok.jobspec.yaml"
    ok.write_text((EXAMPLES / "v1-node-slot-core.jobspec.yaml").read_text())
    locked = tmp_path / "locked.jobspec.yaml"
    locked.write_text("version: 1\n")
    locked.chmod(0)
    bad = tmp_path / "bad.jobspec.yaml"
    bad.write_text("version: 0\n")
    try:
        proc = run_cli("check", "--format", "json", tmp_path / "missing.yaml", locked, ok, bad)
    finally:
        locked.chmod(0o644)
    err = proc.stderr.decode()
    assert proc.returncode == 2
    assert "cannot read " + str(tmp_path / "missing.yaml") + ": no such file or directory" in err
    if os.geteuid() != 0:  # root reads anything
        assert "cannot read " + str(locked) in err and "Permission denied" in err
    paths = [f["path"] for f in json.loads(out(proc))["files"]]
    assert str(ok) in paths and str(bad) in paths


def test_directory_as_unreadable_file(tmp_path):
    proc = run_cli("check", tmp_path / "nothing-here.jobspec.yaml")
    assert proc.returncode == 2


def test_binary_junk_empty_file_and_deep_nesting(tmp_path):
    junk = tmp_path / "junk.jobspec.yaml"
    junk.write_bytes(os.urandom(4096) + b"\xff\xfe")
    empty = tmp_path / "empty.jobspec.yaml"
    empty.write_bytes(b"")
    deep = tmp_path / "deep.jobspec.yaml"
    deep.write_text("[" * 100000 + "]" * 100000)
    deep_block = tmp_path / "deep-block.jobspec.yaml"
    deep_block.write_text("".join(" " * i + "- \n" for i in range(3000)))
    proc = run_cli("check", "--format", "json", junk, empty, deep, deep_block)
    assert proc.returncode == 1, proc.stderr.decode()
    assert "Traceback" not in proc.stderr.decode()
    files = {
        os.path.basename(f["path"]): [d["code"] for d in f["diagnostics"]]
        for f in json.loads(out(proc))["files"]
    }
    assert files["junk.jobspec.yaml"][0] in ("JS911", "JS901")
    assert files["empty.jobspec.yaml"] == ["JS909"]
    assert files["deep.jobspec.yaml"] == ["JS908"]
    assert files["deep-block.jobspec.yaml"] == ["JS908"]


def test_alias_bomb_is_fast_and_reported(tmp_path):
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 12):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [" + ", ".join([f"*{prev}"] * 10) + "]")
    bomb = tmp_path / "bomb.jobspec.yaml"
    bomb.write_text("\n".join(lines) + "\n")
    proc = run_cli("check", bomb, timeout=20)
    assert proc.returncode == 1 and "JS907" in out(proc)


def test_select_and_ignore():
    path = EXAMPLES / "broken-v1.jobspec.yaml"
    proc = run_cli("check", "--format", "json", "--select", "JS3,JS202", path)
    codes = {d["code"] for d in json.loads(out(proc))["files"][0]["diagnostics"]}
    assert codes == {"JS307", "JS313", "JS202"}
    proc = run_cli("check", "--format", "json", "--ignore", "JS3", "--ignore", "JS9", path)
    codes = {d["code"] for d in json.loads(out(proc))["files"][0]["diagnostics"]}
    assert not any(c.startswith(("JS3", "JS9")) for c in codes) and "JS202" in codes
    proc = run_cli("check", "--select", "JS905", path)
    assert proc.returncode == 0  # only a warning left


def test_unknown_code_is_a_usage_error():
    proc = run_cli("check", "--select", "XX1", EXAMPLES)
    assert proc.returncode == 2 and "unknown rule code" in proc.stderr.decode()


def test_usage_errors_exit_2():
    assert run_cli().returncode == 2
    assert run_cli("check").returncode == 2
    assert run_cli("check", "--format", "xml", EXAMPLES).returncode == 2


def test_version_rules_option(tmp_path):
    f = tmp_path / "x.jobspec.yaml"
    text = (EXAMPLES / "canonical-range.jobspec.yaml").read_text()
    f.write_text(text)
    assert run_cli("check", f).returncode == 0
    proc = run_cli("check", "--version-rules", "v1", f)
    assert proc.returncode == 1 and "JS603" in out(proc)


def test_readme_quick_start_main_job():
    """The README's first command runs `jobspec check examples/`: exit 1, every example seen."""
    proc = run_cli("check", "examples/", cwd=REPO)
    assert proc.returncode == 1
    text = out(proc)
    assert "examples/broken-v1.jobspec.yaml" in text
    assert "examples/broken-canonical.jobspec.yaml" in text
    assert "v1-node-slot-core" not in text


def test_rules_subcommand():
    proc = run_cli("rules")
    assert proc.returncode == 0 and "JS307" in out(proc)
    proc = run_cli("rules", "js405")
    assert proc.returncode == 0 and "duration: 1h" in out(proc)
    assert run_cli("rules", "JS000").returncode == 2


@pytest.mark.parametrize("path", rfc_files("spec_14"), ids=rfc_id)
def test_rfc14_examples_clean_with_canonical_rules(path):
    proc = run_cli("check", "--version-rules", "canonical", "--format", "json", path)
    diags = json.loads(out(proc))["files"][0]["diagnostics"]
    assert proc.returncode == 0
    loud = [d for d in diags if d["severity"] in ("error", "warning")]
    assert loud == []


@pytest.mark.parametrize("path", rfc_files("spec_25"), ids=rfc_id)
def test_rfc25_examples_clean_with_v1_rules(path):
    proc = run_cli("check", "--version-rules", "v1", "--format", "json", path)
    assert proc.returncode == 0
    assert json.loads(out(proc))["files"][0]["diagnostics"] == []


def test_python_m_entry_point():
    import subprocess

    proc = subprocess.run(
        [sys.executable, "-m", "jobspec_lsp", "check", str(EXAMPLES)], capture_output=True
    )
    assert proc.returncode == 1


def test_a_directory_without_jobspecs_says_so(tmp_path):
    (tmp_path / "notes.yaml").write_text("a: 1\n")
    proc = run_cli("check", tmp_path)
    assert proc.returncode == 0 and "no jobspec files found" in proc.stderr.decode()


def test_a_file_name_cannot_forge_output_lines(tmp_path):
    """A newline in a file name is written escaped, in text and in GitHub annotations
    (where it would otherwise start a workflow command of its own)."""
    evil = tmp_path / "x\n::error file=forged.yaml,line=1::pwned\n.jobspec.yaml"
    evil.write_text("version: 1\nresources: []\ntasks: []\nattributes: {}\n")
    for fmt in ("text", "github"):
        proc = run_cli("check", "--format", fmt, evil)
        lines = proc.stdout.decode().splitlines()
        assert lines and all("JS" in line for line in lines), lines
        assert not any(line.startswith("::error file=forged") for line in lines)
    gh = run_cli("check", "--format", "github", evil).stdout.decode()
    assert "%0A%3A%3Aerror file=forged.yaml%2Cline=1%3A%3Apwned%0A" in gh
