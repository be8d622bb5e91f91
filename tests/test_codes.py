"""Rule codes: one registry, complete before anyone reads it, and one reader of code
lists that the command line, the project configuration and the editor's settings
share (issue 21). The editor's side is in tests/lsp/test_lsp_settings.py."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import REPO, run_cli

from jobspec_lsp import config
from jobspec_lsp.diagnostics import RULE_MODULES, read_codes, read_doc, unknown_code
from jobspec_lsp.lsp.settings import Settings

PACKAGE = REPO / "jobspec_lsp"


def defined_codes() -> dict[str, str]:
    """Every code a rule declaration (``family.error(\"\"\"JSnnn name: ...\"\"\", ...)``)
    anywhere in the package registers, and the module that declares it: read from the
    source, nothing imported."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            if node.func.attr not in ("error", "warning", "info", "hint"):
                continue
            if getattr(node.func.value, "id", None) != "family":
                continue
            first = node.args[0]
            assert isinstance(first, ast.Constant) and isinstance(first.value, str), (
                f"{path}:{node.lineno}: a rule whose text is not written out"
            )
            code = read_doc(first.value)[0]
            assert code not in out, f"{code} declared twice"
            out[code] = path.relative_to(REPO).as_posix()
    return out


def test_the_registry_holds_every_defined_code_in_a_fresh_interpreter():
    """Importing only the registry and reading it gives every rule of the package,
    whichever module defines it (batch, directives, sbatch, suppress, ...)."""
    want = defined_codes()
    assert len(want) > 130 and {"JS570", "JS572", "JS913", "JS590", "JS560"} <= set(want)
    code = (
        "import json, sys\n"
        "from jobspec_lsp import diagnostics\n"
        "before = sorted(m for m in sys.modules if m.startswith('jobspec_lsp.'))\n"
        "print(json.dumps([before, sorted(diagnostics.RULES)]))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    before, got = json.loads(proc.stdout)
    # nothing else was imported to get there (record: the value objects, importing nothing;
    # text.suggest: the "did you mean" of an unknown code, over boundary)
    assert before == [
        "jobspec_lsp.boundary", "jobspec_lsp.diagnostics", "jobspec_lsp.record",
        "jobspec_lsp.text", "jobspec_lsp.text.suggest",
    ]  # fmt: skip
    assert sorted(want) == got, {c: want[c] for c in set(want) - set(got)}


def test_every_module_that_defines_rules_is_one_the_registry_imports():
    modules = {Path(m).with_suffix("").as_posix() for m in defined_codes().values()}
    listed = {"jobspec_lsp/" + m.replace(".", "/") for m in RULE_MODULES}
    assert modules == listed


# ------------------------------------------------------------------ the reader
@pytest.mark.parametrize(
    "value,codes",
    [
        ("JS570", ("JS570",)),
        (" js57 , JS913,, ", ("JS57", "JS913")),
        ("JS2 JS307\tjs9", ("JS2", "JS307", "JS9")),
        (["js2", "JS307, JS4"], ("JS2", "JS307", "JS4")),
        (["JS2", "js2"], ("JS2",)),
        ([], ()),
        ("", ()),
        ("JS", ("JS",)),
    ],
)
def test_codes_and_prefixes_in_any_spelling(value, codes):
    got = read_codes(value)
    assert got.codes == codes and got.unknown == ()


def test_unknown_codes_are_kept_as_written_with_the_nearest_code():
    got = read_codes(["JS570", "js5700", "FOO1", "JS57x", "JS 201"])
    assert got.codes == ("JS570", "JS")
    assert got.unknown == ("js5700", "FOO1", "JS57x", "201")
    problems = got.problems()
    assert problems[0] == "unknown rule code or prefix 'js5700'; did you mean JS570?"
    assert "'FOO1'" in problems[1] and "did you mean" not in problems[1]
    assert problems[2].endswith("did you mean JS57 (every JS57x)?")


@pytest.mark.parametrize("value", [7, None, ["JS2", 3], {"JS2": True}])
def test_a_value_that_is_no_list_of_codes_is_a_type_error(value):
    with pytest.raises(TypeError):
        read_codes(value)


def test_the_three_edges_read_the_same_list_the_same_way(tmp_path):
    value = ["js57", "JS913", "FOO1"]
    core = read_codes(value)
    (tmp_path / "jobspec.toml").write_text(f"ignore = {json.dumps(value)}\n")
    cfg = config.load(tmp_path / "x.sh")
    assert cfg.ignore == core.codes
    assert [p.message for p in cfg.problems] == [f"jobspec.toml ignore: {unknown_code('FOO1')}"]
    s = Settings.from_dict({"ignore": value})
    assert tuple(s.ignore) == core.codes
    assert s.problems == [f"jobspec.ignore: {unknown_code('FOO1')} -- left out"]


def test_an_editor_select_of_only_unknown_codes_reports_everything_and_says_so():
    s = Settings.from_dict({"select": ["FOO1", "JS9999"]})
    assert s.select is None  # no filter: not an empty one that hides every diagnostic
    assert len(s.problems) == 3 and "every rule is reported" in s.problems[-1]
    s = Settings.from_dict({"select": ["FOO1", "JS9"]})
    assert s.select == ["JS9"] and len(s.problems) == 1


# ------------------------------------------------------------------ the configuration
def test_config_unknown_codes_are_problems_at_their_own_position(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        "[project]\nname = 'x'\n\n[tool.jobspec]\n"
        'select = ["JS1", "JS5700"]\n'
        "ignore = [\n"
        '  "JS570",\n'
        '  "FOO1",\n'
        "]\n"
        "[tool.jobspec.per-file-ignores]\n"
        '"*.sh" = "JS57, js913 JS57x"\n'
    )
    cfg = config.load(tmp_path / "job.sh")
    got = [(p.line, p.column, p.message) for p in cfg.problems]
    assert got == [
        (5, 19, f"[tool.jobspec] select: {unknown_code('JS5700')}"),
        (8, 4, f"[tool.jobspec] ignore: {unknown_code('FOO1')}"),
        (11, 23, f"[tool.jobspec] per-file-ignores '*.sh': {unknown_code('JS57x')}"),
    ]
    assert cfg.select == ("JS1",) and cfg.ignore == ("JS570",)  # the known ones apply
    assert cfg.ignored_for(tmp_path / "job.sh") == ("JS570", "JS57", "JS913")


def test_config_accepts_batch_script_codes(tmp_path):
    """JS57x is defined by the batch module, which nothing here imported."""
    (tmp_path / "jobspec.toml").write_text('ignore = ["JS570"]\nselect = ["JS57", "JS913"]\n')
    cfg = config.load(tmp_path / "job.sh")
    assert cfg.problems == () and cfg.ignore == ("JS570",)


# ------------------------------------------------------------------ the command line
SCRIPT = "#!/bin/sh\n#flux: -N1 --jobname=x\n#flux: --urgency=99\nflux run hostname\n"


def _script(tmp_path) -> Path:
    path = tmp_path / "job.sh"
    path.write_text(SCRIPT)
    return path


def test_cli_rules_explains_a_batch_rule_and_lists_a_family():
    proc = run_cli("rules", "JS572")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode().startswith("JS572 directive-bad-value (error)")
    proc = run_cli("rules", "js57")
    lines = proc.stdout.decode().splitlines()
    assert proc.returncode == 0 and lines and all(ln.startswith("JS57") for ln in lines)
    assert any(ln.startswith("JS570 ") for ln in lines)
    codes = [ln.split()[0] for ln in run_cli("rules").stdout.decode().splitlines()]
    assert sorted(codes) == sorted(defined_codes())


def test_cli_rules_unknown_code_suggests_the_nearest():
    proc = run_cli("rules", "JS5700")
    assert proc.returncode == 2 and proc.stdout == b""
    assert proc.stderr.decode() == (
        "jobspec: error: unknown rule code or prefix 'JS5700'; did you mean JS570?\n"
    )


def test_cli_select_a_batch_family_on_a_script(tmp_path):
    path = _script(tmp_path)
    proc = run_cli("check", "--format", "json", "--select", "JS57", path)
    assert proc.returncode == 1, proc.stderr
    codes = {d["code"] for d in json.loads(proc.stdout)["files"][0]["diagnostics"]}
    assert codes == {"JS570", "JS572"}
    proc = run_cli("check", "--format", "json", "--ignore", "js570,JS572", path)
    codes = {d["code"] for d in json.loads(proc.stdout)["files"][0]["diagnostics"]}
    assert not codes & {"JS570", "JS572"}


def test_cli_unknown_select_is_a_usage_error_with_a_suggestion(tmp_path):
    path = _script(tmp_path)
    proc = run_cli("check", "--select", "JS57,JS5700", "--select", "FOO1", path)
    assert proc.returncode == 2 and proc.stdout == b""
    err = proc.stderr.decode().splitlines()
    assert (
        err[0]
        == "jobspec: error: --select: unknown rule code or prefix 'JS5700'; did you mean JS570?"
    )
    assert err[1].startswith("jobspec: error: --select: unknown rule code or prefix 'FOO1'")
    proc = run_cli("check", "--ignore", "JS57x", path)
    assert proc.returncode == 2
    assert (
        "--ignore: unknown rule code or prefix 'JS57x'; did you mean JS57" in proc.stderr.decode()
    )


def test_cli_config_ignore_of_a_batch_code(tmp_path):
    path = _script(tmp_path)
    (tmp_path / "jobspec.toml").write_text('ignore = ["JS570"]\n')
    proc = run_cli("check", "--format", "json", path, cwd=tmp_path)
    assert proc.returncode == 1 and proc.stderr == b"", proc.stderr  # no configuration error
    codes = {d["code"] for d in json.loads(proc.stdout)["files"][0]["diagnostics"]}
    assert "JS570" not in codes and "JS572" in codes


def test_cli_config_unknown_code_is_an_error_with_its_position(tmp_path):
    path = _script(tmp_path)
    (tmp_path / "jobspec.toml").write_text('target = "rfc"\nignore = ["JS570", "JS5700"]\n')
    proc = run_cli("check", "--format", "json", path, cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.decode() == (
        f"jobspec: error: {tmp_path / 'jobspec.toml'}:2:21: jobspec.toml ignore: "
        "unknown rule code or prefix 'JS5700'; did you mean JS570?\n"
    )
    codes = {d["code"] for d in json.loads(proc.stdout)["files"][0]["diagnostics"]}
    assert "JS570" not in codes and "JS572" in codes  # the known code still applies


def test_each_rule_is_one_declaration_with_its_fix_kinds_and_rfc():
    """What the CLI, the server and the docs know of a rule comes from its declaration:
    a fix names a strategy that exists, kinds are document kinds the detector gives,
    and the script rules are exactly those of the script modules."""
    from jobspec_lsp import kinds
    from jobspec_lsp.diagnostics import ALL_KINDS, RULES
    from jobspec_lsp.features import fixes

    assert set(ALL_KINDS) <= set(kinds.KINDS)
    for code, rule in RULES.items():
        assert rule.fix is None or rule.fix in fixes.STRATEGIES, code
        assert rule.kinds and set(rule.kinds) <= set(ALL_KINDS), code
        assert rule.rfc is None or rule.rfc.startswith("RFC "), code
    where = defined_codes()
    scripts = {c for c, m in where.items() if Path(m).parent.name in ("script", "job")}
    assert scripts == {c for c, r in RULES.items() if r.for_scripts}
    assert RULES["JS913"].tags == ("unnecessary",) and RULES["JS515"].tags == ("deprecated",)
    assert fixes.SAFE == {c for c, r in RULES.items() if r.safe_fix}
