"""`jobspec fmt`: style fixtures, the meaning/comment/idempotence guarantees, the CLI."""

import json
import os
import stat

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import CORPUS, REPO, run_cli

from jobspec_lsp.document import parse, to_python
from jobspec_lsp.format import FormatError, FormatOptions, _comments, format_text, load_options

DATA = REPO / "tests" / "data" / "format"
FIXTURES = sorted(DATA.glob("*.in.*"))


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_style_fixture(path):
    lang = "json" if path.suffix == ".json" else "yaml"
    expected = path.with_name(path.name.replace(".in.", ".out.")).read_text()
    assert format_text(path.read_text(), lang) == expected
    assert format_text(expected, lang) == expected


def guarantees(text, lang="yaml"):
    out = format_text(text, lang)
    assert to_python(parse(out, lang).root) == to_python(parse(text, lang).root)
    assert format_text(out, lang) == out
    if lang == "yaml":
        assert _comments(out) == _comments(text)
    assert out.endswith("\n") and not out.endswith("\n\n")
    assert all(line == line.rstrip() for line in out.splitlines())
    return out


@pytest.mark.parametrize("path", sorted(CORPUS.glob("spec_*/*.yaml")) +
                         sorted((REPO / "examples").glob("*.y*ml")), ids=lambda p: p.name)
def test_guarantees_on_every_corpus_file(path):
    guarantees(path.read_text())


def test_key_ordering_can_be_turned_off(tmp_path):
    text = (DATA / "order.in.yaml").read_text()
    out = format_text(text, options=FormatOptions(sort_keys=False))
    assert out.startswith("attributes:")
    (tmp_path / "pyproject.toml").write_text("[tool.jobspec.format]\nsort-keys = false\n")
    (tmp_path / "sub").mkdir()
    assert load_options(tmp_path / "sub" / "x.jobspec.yaml").sort_keys is False
    assert load_options(REPO / "examples" / "x.yaml").sort_keys is True


@pytest.mark.parametrize("text,words", [
    ("a: [1\n", "cannot format"),
    ("version: 1\nversion: 2\n", "duplicate key"),
    ("a: 1\n---\nb: 2\n", "single YAML document"),
    ("a: !!python/object:os.system x\n", "not supported"),
])
def test_refuses_what_it_cannot_keep(text, words):
    with pytest.raises(FormatError) as info:
        format_text(text)
    assert words in info.value.message


# hypothesis: generated jobspecs with comments and YAML 1.1 traps
scalars = st.sampled_from(["yes", "no", "on", "0755", "1_000", "1:30", "3600.", "2024-01-31",
                           "'quoted'", '"dq"', "plain", "12", "-3", "null", "~", "true"])
names = st.from_regex(r"[a-z][a-z_]{0,5}", fullmatch=True)
comments = st.one_of(st.just(""), st.from_regex(r"  # [a-z ]{0,10}", fullmatch=True))


@st.composite
def jobspecs(draw):
    lines = ["version: 999", "resources:"]
    for i in range(draw(st.integers(1, 3))):
        lines.append(f"- count: {draw(st.integers(1, 9))}{draw(comments)}")
        lines.append(f"  type: node{draw(comments)}")
        if draw(st.booleans()):
            lines.append(f"  # note {i}")
        for k in draw(st.lists(names, max_size=3, unique=True)):
            lines.append(f"  x{k}: {draw(scalars)}{draw(comments)}")
    if draw(st.booleans()):
        lines.append("")
        lines.append("")
    lines.append("attributes:")
    lines.append("    user:")
    for k in draw(st.lists(names, min_size=1, max_size=4, unique=True)):
        lines.append(f"        {k}: {draw(scalars)}{draw(comments)}")
    return "\n".join(lines) + "\n"


@settings(max_examples=120, deadline=None)
@given(jobspecs())
def test_guarantees_on_generated_jobspecs(text):
    guarantees(text)


def test_json_guarantees():
    for p in sorted((REPO / "examples").glob("*.json")):
        guarantees(p.read_text(), "json")


# ---------------------------------------------------------------- the CLI
def test_cli_check_diff_and_write(tmp_path):
    messy = (DATA / "indent.in.yaml").read_text()
    f = tmp_path / "a.jobspec.yaml"
    f.write_text(messy)
    f.chmod(0o640)
    proc = run_cli("fmt", "--check", f)
    assert proc.returncode == 1 and f"would reformat {f}" in proc.stdout.decode()
    proc = run_cli("fmt", "--diff", f)
    assert proc.returncode == 1
    diff = proc.stdout.decode()
    assert diff.startswith(f"--- {f}\n+++ {f}\n") and "-- type: node\n" in diff
    assert f.read_text() == messy                       # --check/--diff never write
    proc = run_cli("fmt", f)
    assert proc.returncode == 0
    assert f.read_text() == (DATA / "indent.out.yaml").read_text()
    assert stat.S_IMODE(f.stat().st_mode) == 0o640      # mode kept
    assert [p.name for p in tmp_path.iterdir()] == ["a.jobspec.yaml"]  # no temp file left
    assert run_cli("fmt", "--check", f).returncode == 0


def test_cli_unparsable_file_is_untouched_and_others_formatted(tmp_path):
    bad = tmp_path / "bad.jobspec.yaml"
    bad.write_bytes(b"version: 1\nresources: [\n")
    good = tmp_path / "good.jobspec.yaml"
    good.write_text((DATA / "order.in.yaml").read_text())
    proc = run_cli("fmt", tmp_path)
    assert proc.returncode == 2
    assert (f"{bad}:2:12: error: cannot format: the document ends too early: did not find "
            f"expected node content (the '[' at line 2, column 12 is never closed)"
            in proc.stderr.decode())
    assert bad.read_bytes() == b"version: 1\nresources: [\n"
    assert good.read_text() == (DATA / "order.out.yaml").read_text()


def test_cli_stdin_to_stdout():
    proc = run_cli("fmt", "-", input=(DATA / "indent.in.yaml").read_bytes())
    assert proc.returncode == 0
    assert proc.stdout.decode() == (DATA / "indent.out.yaml").read_text()
    proc = run_cli("fmt", "--stdin-filename", "x.json", "-",
                   input=(DATA / "json.in.json").read_bytes())
    assert json.loads(proc.stdout) == json.loads((DATA / "json.out.json").read_text())
    proc = run_cli("fmt", "-", input=b"a: [\n")
    assert proc.returncode == 2 and proc.stdout == b"a: [\n"
    proc = run_cli("fmt", "--check", "-", input=(DATA / "indent.in.yaml").read_bytes())
    assert proc.returncode == 1


def test_cli_missing_file_and_usage():
    assert run_cli("fmt", "/nonexistent/x.jobspec.yaml").returncode == 2
    assert run_cli("fmt").returncode == 2


def test_precommit_hooks_file_lists_both_hooks():
    import yaml
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert {h["id"] for h in hooks} == {"jobspec-fmt", "jobspec-check"}
    import re
    pattern = re.compile(hooks[0]["files"])
    for name in ("jobspec.yaml", "a/b.jobspec.yml", "x.jobspec.json"):
        assert pattern.search(name)
    for name in ("docker-compose.yaml", "jobspec.yaml.bak", "myjobspec.yaml"):
        assert not pattern.search(name)
    assert os.path.exists(REPO / "docs" / "formatting.md")
