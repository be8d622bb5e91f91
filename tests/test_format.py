"""`jobspec fmt`: one fixture per style rule, the guarantees (meaning, comments,
idempotence) on the RFC corpus and on generated jobspecs, options, and the CLI."""

import json
import math
import os
import random
import re
import stat

import fuzzgen
import pytest
from helpers import CORPUS, REPO, RFC_DATA, rfc_files, run_cli
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import jobspec_lsp.fmt.format as fmt
from jobspec_lsp.fmt import layout
from jobspec_lsp.fmt.format import FormatError, FormatOptions, format_text, load_options
from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.jobspec.tree import to_python

DATA = REPO / "tests" / "data" / "format"
FIXTURES = sorted(DATA.glob("*.in.*"))
# every folder of RFC use cases with YAML in it: the project's own (spec_14, spec_25), and
# the RFC repository's (spec_20, spec_26 too) when ../shared is beside the checkout
SPECS = sorted({p.parent.name for p in CORPUS.glob("spec_*/*.yaml")} | {"spec_14", "spec_25"})


def read(path) -> str:
    return path.read_bytes().decode("utf-8")  # no newline translation


def comments(text, lang="yaml"):
    return sorted(layout.comment_texts(text))


def guarantees(text, lang="yaml", options=None, tidy=True):
    """Format ``text`` and check every promise docs/formatting.md makes, including
    that it was laid out in the house style, not left to a fallback layout."""
    result = fmt.format_result(text, lang, options)
    wanted = "as-written" if options is not None and not options.sort_keys else "canonical"
    assert (result.layout, result.why) == (wanted, ""), text
    out = result.text
    before, after = parse(text, lang), parse(out, lang)
    assert after.root is not None
    assert fmt._same(to_python(after.root), to_python(before.root))  # what Flux reads
    assert format_text(out, lang, options) == out  # idempotent
    if lang == "yaml":
        assert comments(out) == comments(text)  # every comment kept
    assert out.endswith("\n")
    if tidy:  # unless a block scalar's content ends in blank lines or trailing spaces
        assert not out.endswith("\n\n")
        assert all(line == line.rstrip() for line in out.split("\n"))
    return out


# ---------------------------------------------------------------- style fixtures
def test_every_fixture_has_its_expected_output():
    assert len(FIXTURES) >= 12
    for path in FIXTURES:
        assert path.with_name(path.name.replace(".in.", ".out.")).exists(), path


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name.split(".")[0])
def test_style_fixture(path):
    lang = "json" if path.suffix == ".json" else "yaml"
    expected = read(path.with_name(path.name.replace(".in.", ".out.")))
    assert format_text(read(path), lang) == expected
    assert format_text(expected, lang) == expected
    guarantees(read(path), lang)


# ---------------------------------------------------------------- the corpus
def corpus_yaml():
    return [
        p
        for spec in SPECS
        for p in (
            rfc_files(spec)
            if (RFC_DATA / spec).is_dir()
            else sorted((CORPUS / spec).glob("*.yaml"))
        )
    ]


def test_the_corpus_is_there():
    assert {"spec_14", "spec_25"} <= set(SPECS)
    assert len(corpus_yaml()) >= 25


@pytest.mark.parametrize(
    "path",
    corpus_yaml() + sorted((REPO / "examples").glob("*.y*ml")),
    ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.name}",
)
def test_guarantees_on_every_corpus_file(path):
    guarantees(read(path))


def with_comments(text):
    """The same jobspec with a comment above every line and one at the end of it."""
    out = []
    for i, line in enumerate(text.splitlines()):
        if line.strip():
            indent = len(line) - len(line.lstrip())
            out.append(" " * indent + f"# lead{i}")
            out.append(f"{line}  # eol{i}")
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def squash(line):
    return re.sub(r"\s+", "", re.sub(r"\s+# (eol|lead)\d+$", "", line)).lstrip("-")


@pytest.mark.parametrize(
    "path", corpus_yaml(), ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.name}"
)
def test_comments_stay_next_to_their_lines_on_the_commented_corpus(path):
    text = with_comments(read(path))
    out = guarantees(text)
    src, dst = text.splitlines(), out.splitlines()
    where = {}
    for n, line in enumerate(dst):
        m = re.search(r"# (lead|eol)(\d+)$", line)
        if m:
            where[m.group(1) + m.group(2)] = n
    for n, line in enumerate(src):
        m = re.search(r"# (lead|eol)(\d+)$", line)
        if not m:
            continue
        at = where[m.group(1) + m.group(2)]
        if m.group(1) == "eol":  # still at the end of the same content
            assert squash(dst[at]) == squash(line), (line, dst[at])
        else:  # still above the same entry
            target = src[n + 1]
            below = next(x for x in dst[at + 1 :] if not x.lstrip().startswith("# lead"))
            if target.lstrip().startswith("-"):
                assert below.lstrip().startswith("-"), (target, below)
            else:
                assert squash(below) == squash(target), (target, below)


@pytest.mark.parametrize(
    "path", corpus_yaml()[::4], ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.name}"
)
def test_crlf_files_format_like_lf_files_and_keep_crlf(path):
    text = with_comments(read(path))
    assert format_text(text.replace("\n", "\r\n")) == format_text(text).replace("\n", "\r\n")


def test_json_corpus_and_examples():
    for p in sorted(CORPUS.glob("spec_*/*.json")) + sorted((REPO / "examples").glob("*.json")):
        guarantees(read(p), "json")


# ---------------------------------------------------------------- generated jobspecs
SCALARS = [
    "yes",
    "no",
    "on",
    "0755",
    "1_000",
    "1:30",
    "3600.",
    "2024-01-31",
    "'quoted'",
    '"dq"',
    "plain",
    "12",
    "-3",
    "null",
    "~",
    "true",
    "1e3",
    "0x1F",
    ".inf",
    "'it''s'",
    '"a # b"',
    "a b c",
    "/bin/sh",
    "'#x'",
    "!!str 12",
    "-x",
    "--flag",
    "<<x",
]
KEYS = [
    "type",
    "count",
    "label",
    "with",
    "unit",
    "exclusive",
    "id",
    "zeta",
    "alpha",
    "x_y",
    "yes",
    "'quoted key'",
    "0755",
]


def _comment(r, p=0.3):
    if r.random() < p:
        return r.choice([" ", "   ", "\t"]) + " # " + r.choice(["c", "a # b", "é", "'q", "[x]"])
    return ""


def _flow(r, depth=0):
    if r.random() < 0.5 or depth > 1:
        items = [r.choice(SCALARS) for _ in range(r.randint(0, 30 if r.random() < 0.2 else 4))]
        return "[" + ", ".join(items) + "]"
    keys = r.sample(["type", "count", "min", "zeta", "alpha"], r.randint(0, 4))
    return (
        "{"
        + ", ".join(
            f"{k}: {r.choice(SCALARS) if r.random() < 0.7 else _flow(r, depth + 1)}" for k in keys
        )
        + "}"
    )


def _leading(r, indent, lines):
    if r.random() < 0.2:
        lines.append("")
        if r.random() < 0.3:
            lines.append("")
    if r.random() < 0.25:
        lines.append(" " * max(0, indent + r.choice([0, 0, 0, -2, 2])) + f"# lead {len(lines)}")


def _block_map(r, indent, depth, lines, dash=None):
    for i, key in enumerate(r.sample(KEYS, r.randint(1, 4))):
        if i or dash is None:
            _leading(r, indent, lines)
        pre = dash if (i == 0 and dash is not None) else " " * indent
        kind = r.random()
        if depth < 4 and kind < 0.25:
            lines.append(f"{pre}{key}:{_comment(r)}")
            _block_seq(r, indent + r.choice([0, 2, 4]), depth + 1, lines)
        elif depth < 4 and kind < 0.4:
            lines.append(f"{pre}{key}:{_comment(r)}")
            _block_map(r, indent + r.choice([2, 4]), depth + 1, lines)
        elif kind < 0.55:
            lines.append(f"{pre}{key}: {_flow(r)}{_comment(r)}")
        elif kind < 0.6:
            lines.append(f"{pre}{key}: {r.choice(['|', '>', '|-', '|+'])}{_comment(r, 0.2)}")
            for _ in range(r.randint(1, 3)):
                lines.append(" " * (indent + 2) + r.choice(["text", "# not a comment", "  more"]))
                if r.random() < 0.3:
                    lines.append("")
        elif kind < 0.65:
            lines.append(f"{pre}{key}: [")
            for _ in range(r.randint(1, 3)):
                lines.append(" " * (indent + 2) + r.choice(SCALARS) + "," + _comment(r, 0.5))
                if r.random() < 0.2:
                    lines.append(" " * (indent + 2) + "# inside the flow")
            lines.append(" " * indent + "]")
        else:
            lines.append(f"{pre}{key}: {r.choice(SCALARS)}{_comment(r)}")
    if r.random() < 0.15:
        lines.append(" " * indent + f"# closing {len(lines)}")


def _block_seq(r, indent, depth, lines):
    for _ in range(r.randint(1, 3)):
        _leading(r, indent, lines)
        if r.random() < 0.6:
            _block_map(r, indent + 2, depth + 1, lines, dash=" " * indent + "- ")
        else:
            item = r.choice(SCALARS) if r.random() < 0.7 else _flow(r)
            lines.append(" " * indent + "- " + item + _comment(r))


def generate_jobspec(r: random.Random) -> str:
    lines = []
    if r.random() < 0.3:
        lines += ["# header", ""]
    if r.random() < 0.1:
        lines.append("---")
    keys = ["version: 999" + _comment(r), "resources:" + _comment(r), "attributes:", "tasks:"]
    r.shuffle(keys)
    for key in keys:
        _leading(r, 0, lines)
        lines.append(key)
        if key.startswith("resources"):
            _block_seq(r, r.choice([0, 2]), 1, lines)
        elif key.startswith("tasks"):
            for _ in range(r.randint(1, 2)):
                dash = " " * r.choice([0, 2])
                lines.append(f"{dash}- slot: task{_comment(r)}")
                lines.append(f"{dash}  count: {{per_slot: 1}}")
                _leading(r, len(dash) + 2, lines)
                lines.append(f"{dash}  command: [app, {r.choice(SCALARS)}]{_comment(r)}")
        elif key.startswith("attributes"):
            _block_map(r, r.choice([2, 4]), 1, lines)
    if r.random() < 0.3:
        lines += ["", "", "# end"]
    return "\n".join(lines) + ("\n" if r.random() < 0.9 else "")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.booleans(), st.integers(20, 120))
def test_guarantees_on_generated_jobspecs(r, sort_keys, width):
    text = generate_jobspec(r)
    assume(parse(text).root is not None)
    keeps = re.search(r"[|>][1-9]?\+", text) is not None  # `|+` may end the file in blank lines
    guarantees(text, options=FormatOptions(sort_keys=sort_keys, line_length=width), tidy=not keeps)


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False))
def test_guarantees_on_generated_json(r):
    def finite(x):  # JSON has no infinity or NaN: Python's "Infinity" is not JSON text
        if isinstance(x, float) and not math.isfinite(x):
            return str(x)
        if isinstance(x, dict):
            return {k: finite(v) for k, v in x.items()}
        return [finite(v) for v in x] if isinstance(x, list) else x

    data = json.loads(json.dumps(finite(to_python(parse(generate_jobspec(r)).root)), default=str))
    text = json.dumps(data, indent=r.choice([None, 1, 4]))
    guarantees(text, "json")


# ---------------------------------------------------------------- decisions
def test_key_order_can_be_turned_off():
    text = read(DATA / "order.in.yaml")
    out = guarantees(text, options=FormatOptions(sort_keys=False))
    assert out.startswith("attributes:") and out.rstrip().endswith("version: 999")


def test_line_length_decides_what_stays_flow():
    text = "version: 1\ntasks:\n  - command: [app, --one, --two]\n"
    assert format_text(text) == text
    narrow = format_text(text, options=FormatOptions(line_length=24))
    assert narrow == "version: 1\ntasks:\n  - command:\n      - app\n      - --one\n      - --two\n"


def test_yaml11_scalars_keep_their_text_and_meaning():
    text = (
        "version: 999\nattributes:\n  user:\n    a: yes\n    b: 0755\n    c: 1_000\n"
        "    d: 1:30\n    e: 2024-01-31\n    f: 1e3\n    g: .5\n    h: ~\n    yes: key\n"
    )
    assert format_text(text) == text
    value = to_python(parse(text).root)["attributes"]["user"]
    assert value["a"] is True and value["b"] == 493 and value["d"] == 90 and value[True] == "key"


def test_anchors_keep_the_key_order_and_merge_keys_work():
    text = "base: &b {type: core, count: 1}\nversion: 1\nr:\n  - <<: *b\n    label: x\n"
    assert format_text(text) == text
    out = guarantees("tasks: &t []\nversion: 1\nother: *t\n")
    assert out.startswith("tasks: &t []")


def test_refusal_positions_point_into_the_text_as_given():
    for text, at in (("a: 1\r\nb: 2\r\n{x: 1}: 3\r\n", 12), ("\ufeffa: 1\n{x: 1}: 3\n", 6)):
        with pytest.raises(FormatError) as info:
            format_text(text)
        assert text[info.value.start] == "{" and info.value.start == at


def test_crlf_bom_and_missing_final_newline_are_handled():
    text = "\ufeff# c\r\n\r\nresources: []  # r\r\nversion: 1   \r\n"
    out = format_text(text)
    assert out == "\ufeff# c\r\n\r\nversion: 1\r\nresources: []  # r\r\n"
    assert format_text(out) == out
    assert format_text("version: 1") == "version: 1\n"


@pytest.mark.parametrize(
    "text,words,at",
    [
        ("a: [1\n", "cannot format: did not find expected ',' or ']'", 4),
        ("a: 1\n---\nb: 2\n", "single YAML document", 5),
        ("a: !!python/object:os.system x\n", "not supported", 3),
        ("# only a comment\n", "holds no jobspec", 0),
        ("{a: 1}: x\n", "mapping key must be a plain value", 0),
    ],
)
def test_refuses_what_it_cannot_keep(text, words, at):
    with pytest.raises(FormatError) as info:
        format_text(text)
    assert words in info.value.message and info.value.start == at
    assert str(info.value) == info.value.message


def test_a_layout_that_would_read_differently_gives_way_to_the_next(monkeypatch):
    real = fmt._layout.layout
    monkeypatch.setattr(fmt._layout, "layout", lambda t, w, s: real(t, w, s).replace("1", "2"))
    r = fmt.format_result("version: 1   \n\n\nresources: []\n")
    assert (r.text, r.layout) == ("version: 1\n\nresources: []\n", "whitespace")
    assert r.why == "canonical: the data would change; as-written: the data would change"
    monkeypatch.setattr(fmt._layout, "layout", lambda t, w, s: "version: 1\n")
    r = fmt.format_result("version: 1  # kept\n")
    assert (r.text, r.layout) == ("version: 1  # kept\n", "whitespace")
    assert "a comment would be lost" in r.why
    monkeypatch.setattr(fmt, "_tidy_whitespace", lambda t, d: "")
    r = fmt.format_result("version:   1  # kept   \n")
    assert (r.text, r.layout) == ("version:   1  # kept   \n", "unchanged")


def test_duplicate_keys_are_formatted_and_the_last_still_wins():
    text = "version: 2\nresources: []\nversion: 1\n"
    out = guarantees(text)
    # sorted, the two keep their order between them: PyYAML (Flux) still keeps the last
    assert out == "version: 2\nversion: 1\nresources: []\n"


def test_json_keeps_numbers_as_written_and_orders_keys():
    out = format_text('{"resources": [], "version": 1, "x": [1e3, 1.50, -0], "y": {}}', "json")
    assert out == (
        '{\n  "version": 1,\n  "resources": [],\n  "x": [\n    1e3,\n    1.50,\n'
        '    -0\n  ],\n  "y": {}\n}\n'
    )
    with pytest.raises(FormatError):
        format_text('{"a": 1, "a": 2}', "json")


# ---------------------------------------------------------------- configuration
def test_load_options_walks_up_to_the_nearest_jobspec_table(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        "[tool.jobspec.format]\nsort-keys = false\nline-length = 100\n"
    )
    sub = tmp_path / "a" / "b"
    sub.mkdir(parents=True)
    (tmp_path / "a" / "pyproject.toml").write_text("[project]\nname = 'x'\n")  # no [tool.jobspec]
    opts = load_options(sub / "job.jobspec.yaml")
    assert (opts.sort_keys, opts.line_length, opts.warnings) == (False, 100, ())
    assert load_options(sub) == opts
    assert load_options(REPO / "examples" / "x.yaml") == FormatOptions()


def test_load_options_warns_and_falls_back(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        "[tool.jobspec.format]\nsort-keys = 'no'\nline-length = 5\nindent = 4\n"
    )
    opts = load_options(tmp_path / "x.yaml")
    assert (opts.sort_keys, opts.line_length) == (True, 80)
    assert [w.split("] ")[1].split(" ")[0] for w in opts.warnings] == [
        "sort-keys",
        "line-length",
        "has",
    ]
    (tmp_path / "pyproject.toml").write_text("[tool.jobspec\n")
    assert "cannot read it" in load_options(tmp_path / "x.yaml").warnings[0]


# ---------------------------------------------------------------- the CLI
MESSY = read(DATA / "indent.in.yaml")
TIDY = read(DATA / "indent.out.yaml")


def test_cli_check_diff_and_write(tmp_path):
    f = tmp_path / "a.jobspec.yaml"
    f.write_text(MESSY)
    f.chmod(0o640)
    proc = run_cli("fmt", "--check", f)
    assert proc.returncode == 1 and proc.stdout.decode() == f"would reformat {f}\n"
    assert "1 file would be reformatted" in proc.stderr.decode()
    proc = run_cli("fmt", "--diff", f)
    assert proc.returncode == 1
    diff = proc.stdout.decode()
    assert diff.startswith(f"--- {f}\n+++ {f}\n@@ ") and "\n-- type: node\n" in diff
    assert "\n+  - type: node\n" in diff
    assert f.read_text() == MESSY  # --check/--diff never write
    proc = run_cli("fmt", f)
    assert proc.returncode == 0 and f"reformatted {f}" in proc.stderr.decode()
    assert f.read_text() == TIDY
    assert stat.S_IMODE(f.stat().st_mode) == 0o640  # mode kept
    assert [p.name for p in tmp_path.iterdir()] == ["a.jobspec.yaml"]  # no temporary file left
    for args in (("--check",), ("--diff",), ()):
        proc = run_cli("fmt", *args, f)
        assert proc.returncode == 0 and proc.stdout == b""
    assert "1 already formatted" in run_cli("fmt", "--check", f).stderr.decode()


def test_cli_unparsable_file_is_untouched_and_others_formatted(tmp_path):
    bad = tmp_path / "bad.jobspec.yaml"
    bad.write_bytes(b"version: 1\nresources: [\n")
    good = tmp_path / "sub" / "jobspec.yaml"
    good.parent.mkdir()
    good.write_text(read(DATA / "order.in.yaml"))
    other = tmp_path / "notes.yaml"  # not a jobspec name: not searched
    other.write_text("b:   1\n")
    proc = run_cli("fmt", tmp_path)
    assert proc.returncode == 2
    assert (
        f"{bad}:2:12: error: cannot format: the document ends too early: did not find "
        f"expected node content (the '[' at line 2, column 12 is never closed)"
        in proc.stderr.decode()
    )
    assert bad.read_bytes() == b"version: 1\nresources: [\n"
    assert good.read_text() == read(DATA / "order.out.yaml")
    assert other.read_text() == "b:   1\n"
    proc = run_cli("fmt", "--check", tmp_path)
    assert proc.returncode == 2 and proc.stdout == b""  # an error outranks "would reformat"


def test_cli_stdin_to_stdout():
    proc = run_cli("fmt", "-", input=MESSY.encode())
    assert proc.returncode == 0 and proc.stdout.decode() == TIDY
    proc = run_cli(
        "fmt", "--stdin-filename", "x.json", "-", input=read(DATA / "json.in.json").encode()
    )
    assert proc.stdout.decode() == read(DATA / "json.out.json")
    proc = run_cli("fmt", "-", input=read(DATA / "json.in.json").encode())  # JSON recognised
    assert proc.stdout.decode() == read(DATA / "json.out.json")
    proc = run_cli("fmt", "-", input=b"a: [\n")
    assert proc.returncode == 2 and proc.stdout == b"a: [\n"  # a pipe gets its input back
    assert proc.stderr.decode().startswith("-:1:4: error: cannot format:")
    proc = run_cli("fmt", "--check", "-", input=MESSY.encode())
    assert proc.returncode == 1 and proc.stdout.decode() == "would reformat -\n"
    proc = run_cli("fmt", "--diff", "-", input=MESSY.encode())
    assert proc.returncode == 1 and proc.stdout.decode().startswith("--- -\n+++ -\n")
    proc = run_cli("fmt", "--check", "-", input=TIDY.encode())
    assert proc.returncode == 0


def test_cli_errors_and_usage(tmp_path):
    proc = run_cli("fmt", tmp_path / "missing.jobspec.yaml")
    assert proc.returncode == 2 and "cannot read" in proc.stderr.decode()
    assert run_cli("fmt").returncode == 2
    assert run_cli("fmt", "--bogus", tmp_path).returncode == 2
    proc = run_cli("fmt", tmp_path)
    assert proc.returncode == 0 and "no jobspec files found" in proc.stderr.decode()
    binary = tmp_path / "bin.jobspec.yaml"
    binary.write_bytes(b"version: 1\nname: caf\xe9\n")
    proc = run_cli("fmt", binary)
    assert proc.returncode == 2 and "not UTF-8" in proc.stderr.decode()


def test_cli_writes_through_symlinks_and_reads_pyproject(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        "[tool.jobspec.format]\nsort-keys = false\ncolour = 'blue'\n"
    )
    real = tmp_path / "real.jobspec.yaml"
    real.write_text(read(DATA / "order.in.yaml"))
    link = tmp_path / "link.jobspec.yaml"
    os.symlink(real.name, link)
    proc = run_cli("fmt", link)
    assert proc.returncode == 0, proc.stderr
    assert link.is_symlink() and real.read_text().startswith("attributes:")  # not reordered
    assert "has no option 'colour'" in proc.stderr.decode()


def test_precommit_hooks_file_lists_the_jobspec_hooks():
    import yaml

    hooks = {h["id"]: h for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())}
    # the third, jobspec-check-scripts, is tested with the scripts in tests/test_precommit.py
    assert set(hooks) == {"jobspec-fmt", "jobspec-check", "jobspec-check-scripts"}
    assert hooks["jobspec-fmt"]["entry"] == "jobspec fmt"
    assert hooks["jobspec-check"]["entry"] == "jobspec check"
    for hook in (hooks["jobspec-fmt"], hooks["jobspec-check"]):
        assert hook["language"] == "python"
        pattern = re.compile(hook["files"])
        for name in ("jobspec.yaml", "a/jobspec.yml", "a/b.jobspec.yml", "x.jobspec.json"):
            assert pattern.search(name), name
        for name in ("docker-compose.yaml", "jobspec.yaml.bak", "myjobspec.yaml", "a.yaml"):
            assert not pattern.search(name), name


def test_fmt_writes_like_a_careful_editor(tmp_path):
    """The file keeps its inode: hard links see the new text, owner and extended
    attributes stay; a read-only file is left as it is, with a message."""
    f = tmp_path / "a.jobspec.yaml"
    f.write_text(MESSY)
    twin = tmp_path / "twin.yaml"
    os.link(f, twin)
    try:
        os.setxattr(f, "user.reviewed", b"yes")
        xattrs = True
    except OSError:  # a file system without user xattrs
        xattrs = False
    before = f.stat()
    proc = run_cli("fmt", f)
    assert proc.returncode == 0, proc.stderr
    after = f.stat()
    assert f.read_text() == TIDY and twin.read_text() == TIDY  # the hard link too
    assert (after.st_ino, after.st_uid, after.st_gid) == (
        before.st_ino,
        before.st_uid,
        before.st_gid,
    )
    if xattrs:
        assert os.getxattr(f, "user.reviewed") == b"yes"
    ro = tmp_path / "ro.jobspec.yaml"
    ro.write_text(MESSY)
    ro.chmod(0o444)
    proc = run_cli("fmt", ro)
    assert proc.returncode == 2 and "read-only file" in proc.stderr.decode()
    assert ro.read_text() == MESSY


# ---------------------------------------------------------------- issue 12 regressions
@pytest.mark.parametrize(
    "text,expected",
    [
        # an anchor on a YAML 1.1 trap scalar, and its alias
        ("version: 1\nattributes:\n  user:\n    a: &x yes\n    b: *x\n", None),
        # trailing spaces inside a block scalar (a batch script under files)
        (
            "version: 1\nattributes:\n  system:\n    files:\n      run.sh:\n"
            "        data: |\n          #!/bin/sh   \n          echo hi  \n",
            None,
        ),
        # comments inside a flow collection: it is written block, each with its item
        (
            "version: 1\ntasks:\n  - command: [app,  # the program\n      --flag]  # its flag\n",
            "version: 1\ntasks:\n  - command:\n      - app  # the program\n"
            "      - --flag  # its flag\n",
        ),
        # keep chomping at the end of the file
        ("version: 1\nattributes:\n  user:\n    s: |+\n      x\n\n", None),
        # an explicit indentation indicator under a key that moves: content moves with it
        (
            "version: 1\nattributes:\n    user:\n        s: |2\n           three spaces\n",
            "version: 1\nattributes:\n  user:\n    s: |2\n       three spaces\n",
        ),
    ],
)
def test_constructs_once_refused_are_formatted(text, expected):
    out = guarantees(text, tidy="|+" not in text and "   \n" not in text)
    assert out == (expected or text)


def test_spellings_are_kept():
    text = "---\nversion: 1\nattributes:\n  user:\n    a: +1\n    b: -0\n    c: ~\n    d: 0o17\n"
    assert format_text(text) == text


def test_end_of_line_comments_follow_their_token_with_two_spaces_and_no_gap():
    text = "version: 1\nattributes:\n  user:\n    a: {x: 1,   y: 2}        # flow\n    b: 1   # b\n"
    assert format_text(text) == (
        "version: 1\nattributes:\n  user:\n    a: {x: 1, y: 2}  # flow\n    b: 1  # b\n"
    )


def test_comments_stay_with_their_token_when_keys_move():
    text = (
        "tasks:  # the tasks\n  - count: {per_slot: 1}  # one each\n    slot: task  # the slot\n"
        "    command: [app]  # the program\nversion: 1  # V1\n"
    )
    out = guarantees(text)
    assert out == (
        "version: 1  # V1\ntasks:  # the tasks\n  - command: [app]  # the program\n"
        "    slot: task  # the slot\n    count: {per_slot: 1}  # one each\n"
    )


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fuzzgen.documents)
def test_the_fuzz_documents_are_formatted_in_the_house_style(text):
    """The generator scripts/fuzz.py runs at scale (docs/reliability.md): anchors on
    YAML 1.1 traps, block scalars of every kind, comments inside flows, ..."""
    doc = parse(text)
    assume(doc.root is not None and not any(p.code in ("JS903", "JS906") for p in doc.problems))
    keeps = re.search(r"[|>][1-9]?\+", text) is not None
    guarantees(text, tidy=False)
    out = format_text(text)
    for note in re.findall(r"# c\d+\b", text):  # every unique comment, once
        assert len(re.findall(re.escape(note) + r"\b", out)) == 1, note
    if not keeps:
        assert not out.endswith("\n\n")


def test_found_by_the_fuzz_run():
    """Three layouts scripts/fuzz.py caught losing or moving text (docs/reliability.md)."""
    # a comment after the last item of a flow sequence, below a nested flow mapping
    text = "version: 1\ntasks:\n  - command: [\n      {a: app, b: x},  # c1\n      # c2\n    ]\n"
    out = guarantees(text)
    assert "# c1" in out and "# c2" in out
    # a comment after `- `, whose item is a block scalar: never inside the scalar
    text = "version: 1\nattributes:\n  user:\n    s:\n      - # c3\n        |\n        text\n"
    out = guarantees(text)
    assert "- |  # c3\n" in out
    # a trailing line of spaces in a `>-` scalar is text, not a blank line
    text = "version: 1\nattributes:\n  user:\n    s: >-\n      # not a comment\n       \n"
    out = guarantees(text, tidy=False)
    assert parse(out).root is not None and out.endswith("       \n")


@pytest.mark.parametrize("text", ["a: |\n  text", "a: >2\n   x\n  y", "a: |  # c\n  text"])
def test_a_block_scalar_at_the_end_of_a_text_without_a_line_break_keeps_its_value(text):
    """Clipping keeps no line break when the text ends inside the scalar; the formatted
    text ends with one, so the header gets '-' and the value stays (found by
    hypothesis: the formatter used to leave such a file unformatted)."""
    result = fmt.format_result(text, "yaml", fmt.FormatOptions(sort_keys=False))
    assert result.layout == "as-written", result.why
    assert to_python(parse(result.text).root) == to_python(parse(text).root)
