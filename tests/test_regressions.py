"""The project's own test for each case of ../shared/regressions (named by its id in
the docstring), in the project's terms: the unit where the defect was, or the CLI as a
user meets it. tests/flux/test_flux_regressions.py replays the corpus itself."""

from __future__ import annotations

import stat

import pytest
from helpers import run_cli

from jobspec_lsp.diagnostics import Severity
from jobspec_lsp.features import fixes, hover
from jobspec_lsp.fluxcli import model
from jobspec_lsp.job import directives
from jobspec_lsp.notations import constraint, formats
from jobspec_lsp.rules import analysis
from jobspec_lsp.script import batch

SH = "#!/bin/sh\n"


def script(*directive_lines: str, body: str = "hostname\n") -> str:
    return SH + "".join(f"#flux: {d}\n" for d in directive_lines) + body


def found(text: str, code: str | None = None):
    return [
        (d.code, text[d.start : d.end], d.severity)
        for d in batch.check_script(text)
        if code is None or d.code == code
    ]


# --------------------------------------------------------------- numbers from text
def test_a_4400_digit_version_string_is_a_finding_not_a_traceback():
    """check-version-4400-digit-string: int() refused the string (Python's digit limit)."""
    big = "9" * 4400
    text = f'version: "{big}"\nresources: []\ntasks: []\nattributes: {{}}\n'
    diags = analysis.check(text)
    (d,) = [d for d in diags if d.code == "JS103"]
    assert text[d.start : d.end] == f'"{big}"'
    assert len(d.message) < 400 and "4,402 characters" in d.message
    for target in ("flux-core", "fluxion", "flux-core-any"):
        analysis.check(text, target=target)  # no exception on any target


@pytest.mark.parametrize(
    "text,value",
    [("12", 12), (" 7", 7), ("1_000", 1000), ("٣", 3), ("²", None), ("9" * 5000, None), ("", None)],
)
def test_python_int_reads_as_flux_type_int_reads(text, value):
    """batch-signal-superscript-digit, batch-signal-5000-digits: str.isdigit() is true
    for '²', which int() refuses; 5,000 digits pass isdigit() and exceed int()'s limit."""
    assert formats.python_int(text) == value


def test_ascii_int_takes_ascii_digits_only():
    assert formats.ascii_int("12") == 12
    assert formats.ascii_int("²") is None and formats.ascii_int("٣") is None
    assert formats.ascii_int("9" * 5000) is None


@pytest.mark.parametrize(
    "value,why",
    [
        ("²", "not a signal name or number"),
        ("9" * 5000, "not a signal name or number"),
        ("sigterm", "signal names are in capitals: SIGTERM"),
        ("SIGTERM@1x", "not a Flux Standard Duration"),
    ],
)
def test_signal_values_flux_refuses(value, why):
    """batch-signal-superscript-digit, batch-signal-5000-digits, script-lowercase-signal."""
    text = script("-n1", f"--signal={value}")
    (d,) = [d for d in batch.check_script(text) if d.code == "JS572"]
    assert why in d.message and d.severity == Severity.ERROR
    assert text[d.start : d.end] == value


@pytest.mark.parametrize("value", ["TERM", "SIGTERM", "15", "SIGUSR1@2m", "@30", "10@60"])
def test_signal_values_flux_takes(value):
    assert found(script("-n1", f"--signal={value}"), "JS572") == []


@pytest.mark.parametrize("n", ["9" * 400, str(2**63)])
def test_a_count_beyond_64_bits(n):
    """batch-nslots-400-digits-check/new: Flux refuses ('int too large to convert to
    float'); new --from-batch raised OverflowError."""
    text = script("-N1", f"-n {n}")
    ((code, token, severity),) = found(text, "JS572")
    assert token == n and severity == Severity.ERROR
    with pytest.raises(batch.BatchError):
        batch.jobspec(text, "job.sh", "/tmp")


# --------------------------------------------------------------- values Flux refuses
@pytest.mark.parametrize(
    "value,why", [("25:00", "Invalid datetime"), ("2030-13-45", "Invalid datetime")]
)
def test_begin_times_flux_refuses(value, why):
    """batch-begin-time-hour-25-*, batch-begin-time-month-13-*: a ValueError traceback in
    new, nothing in check; Flux says 'Invalid datetime'."""
    text = script(f"-n1 --begin-time={value}")
    ((code, token, _),) = found(text, "JS572")
    assert token == value
    with pytest.raises(batch.BatchError, match=why):
        batch.jobspec(text, "job.sh", "/tmp")


def test_setattr_and_setopt_into_a_value_that_is_not_a_mapping():
    """batch-setattr-into-int-*, batch-setopt-into-string-*: check passed, new ended in
    a traceback; Flux refuses ('int' object does not support item assignment)."""
    for option, value in (("--setattr", "system.duration.x=1"), ("--setopt", "mpi.x=1")):
        text = script(f"-n1 {option}={value}")
        ((code, token, severity),) = found(text, "JS572")
        assert token == value and severity == Severity.ERROR
        with pytest.raises(batch.BatchError):
            batch.jobspec(text, "job.sh", "/tmp")


def test_a_setattr_value_ingest_refuses_is_found_at_the_option():
    """batch-setattr-system-duration-string: duration '1h' passed check; job-ingest
    refuses 'attributes.system.duration must be a number'."""
    text = script("-N1", "--setattr=system.duration=1h")
    ((code, token, _),) = found(text, "JS572")
    assert token == "system.duration=1h"
    assert found(script("-N1", "--setattr=system.duration=3600"), "JS572") == []
    assert found(script("-N1", "--setattr=user.anything=1h"), "JS572") == []


@pytest.mark.parametrize(
    "dep", ["afterok:$PREV_JOB", "afterok:notanid", "afterany:f0", "begin-time:-5"]
)
def test_dependencies_flux_refuses(dep):
    """batch-dependency-shell-variable: directives are not shell-expanded; Flux refuses
    '$PREV_JOB' (and the other ids) as job ids."""
    text = script("-N1", f"--dependency={dep}")
    ((code, token, _),) = found(text, "JS572")
    assert token == dep


@pytest.mark.parametrize(
    "jobid", ["123", "ƒ2", "f2", "fuzzy", "0x1f", "0000.0000.0000.0001", "job.0000.0000.0000.0001"]
)
def test_job_ids_flux_takes(jobid):
    assert formats.jobid_problem(jobid) is None
    assert found(script("-N1", f"--dependency=afterok:{jobid}"), "JS572") == []


@pytest.mark.parametrize(
    "rule,why",
    [("stack=1e400", "whole number or unlimited"), ("nofle=1024", "did you mean nofile?")],
)
def test_rlimits_flux_refuses(rule, why):
    """script-rlimit-value, script-rlimit-name."""
    ((code, token, _),) = found(script("-n1", f"--rlimit={rule}"), "JS572")
    assert token == rule
    assert why in next(d.message for d in batch.check_script(script("-n1", f"--rlimit={rule}")))


def test_rlimits_flux_takes():
    assert found(script("-n1", "--rlimit=-*,core=unlimited,stack"), "JS572") == []


def test_conf_read_as_flux_reads_it(tmp_path, monkeypatch):
    """script-conf-unknown-name, batch-conf-deep-json-new: a word without '=' or a .toml
    or .json suffix is a named configuration (5,000 nested JSON objects included); new
    ended in a RecursionError."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_DIRS", str(tmp_path / "none"))
    deep = '{"a":' * 5000 + "1" + "}" * 5000
    for value in ("a", deep):
        text = script("-n1", f"--conf={value}")
        ((code, token, _),) = found(text, "JS572")
        with pytest.raises(batch.BatchError):
            batch.jobspec(text, "job.sh", str(tmp_path))
    (tmp_path / "flux" / "config").mkdir(parents=True)
    (tmp_path / "flux" / "config" / "a.toml").write_text("[resource]\nnoverify = true\n")
    assert found(script("-n1", "--conf=a", "--conf=tbon.fanout=2"), "JS572") == []
    js = batch.jobspec(script("-n1", "--conf=a", "--conf=tbon.fanout=2"), "j.sh", str(tmp_path))
    assert js["attributes"]["system"]["files"]["conf.json"]["data"] == {
        "resource": {"noverify": True},
        "tbon": {"fanout": 2},
    }


# --------------------------------------------------------------- reading as Flux reads
def test_no_abbreviations():
    """script-abbreviated-option: Flux's parsers have allow_abbrev=False."""
    ((code, token, _),) = found(script("-n1", "--job-n=x"), "JS570")
    assert token == "--job-n"


def test_hidden_options_are_options():
    """script-hidden-flux-options: --input and -l/--label-io are real (hidden from --help)."""
    assert found(script("-n1", "--input=in.txt --label-io")) == []


def test_option_table_is_flux_s():
    names = {n for o in model.command("batch").options for n in (o.long, *o.aliases)}
    assert {"input", "label-io", "broker-opt", "require", "dry", "resources-json"} <= names
    assert all(o.doc for o in model.command("batch").options), (
        "every option has the project's words"
    )


def test_a_stray_word_drops_the_rest_of_its_directive():
    """script-stray-word-flux-drops: Flux takes `foo` and what follows as the script's
    arguments and drops them: a warning, not an error; -N2 after it is not used."""
    text = script("-n1 foo -N2")
    ((code, token, severity),) = found(text, "JS574")
    assert token == "foo -N2" and severity == Severity.WARNING
    assert batch.jobspec(text, "j.sh", "/")["resources"][0]["type"] == "slot"
    # a directive that does not start with an option: Flux refuses the script
    assert [(c, s) for c, _, s in found(script("-n1", "foo"))] == [("JS574", Severity.ERROR)]


def test_words_split_on_ascii_white_space_only():
    """script-no-break-space-in-value: a no-break space is part of the word."""
    (w,) = directives.read(script("--job-name=my\u00a0job")).words
    assert w.value == "--job-name=my\u00a0job"


def test_punctuation_splits_words_as_flux_s_shlex_does():
    """script-shape-bracket-list: flux-core splits directives with shlex's punctuation
    characters, so ';' ends a word: the shape loses its closing bracket."""
    words = [w.value for w in directives.read(script("--resources-shape=slot/[core;gpu]")).words]
    assert words == ["--resources-shape=slot/[core", ";", "gpu]"]
    assert found(script("-n1 --resources-shape='slot/[core;gpu]'"), "JS572") == []


@pytest.mark.parametrize("sentinel", ["#Flux:", "#fLuX:"])
def test_a_look_alike_sentinel(sentinel):
    """script-mixed-case-sentinel: `#Flux:` got the YAML error JS100."""
    text = f"{SH}{sentinel} -n2 -t 5m\nhostname\n"
    ((code, token, severity),) = found(text, "JS565")
    assert token == sentinel[1:] and severity == Severity.ERROR


def test_a_script_without_shebang():
    """script-without-shebang: flux batch refuses it."""
    text = "\n#flux: -n1\nhostname\n"
    ((code, token, severity),) = found(text, "JS583")
    assert severity == Severity.ERROR


def test_an_empty_value_on_a_crlf_line_stays_on_its_line():
    """script-crlf-empty-value-range: the range covered the '\\r'."""
    text = "#!/bin/sh\r\n#flux: -n1 --resources-shape=\r\nhostname\r\n"
    (d,) = [d for d in batch.check_script(text) if d.code == "JS572"]
    assert "\r" not in text[d.start : d.end]
    assert text[d.start : d.end] == "--resources-shape="


def test_a_40_kb_grouped_flag_word_gives_short_findings():
    """batch-grouped-flags-40KB, script-grouped-flags-8KB-output: every finding quoted the
    whole word, once per letter (65 MB of pulled diagnostics)."""
    for text in (script("-N1 -" + "x" * 40_000), script("-N1 -" + "xu" * 4000 + "Z")):
        diags = batch.check_script(text)
        assert len(diags) <= 2
        assert all(len(d.message) <= 400 for d in diags)


def test_nesting_beyond_the_limit_is_a_warning_in_check():
    """batch-requires-3000-parens, batch-shape-200-levels-new: RecursionError in check,
    new and the server; Flux takes them, this tool says it reads no deeper."""
    query = "(" * 3000 + "a" + ")" * 3000
    with pytest.raises(constraint.ConstraintError, match="too deeply"):
        constraint.parse(query)
    for option in (f"--requires='{query}'", "--resources-shape=" + "/".join(["node"] * 200)):
        text = script("-N1", option)
        ((code, _, severity),) = found(text, "JS572")
        assert severity == Severity.WARNING
        with pytest.raises(batch.BatchError) as err:
            batch.jobspec(text, "j.sh", "/")
        assert err.value.ours


# --------------------------------------------------------------- editor and CLI
def test_hover_series_stops_past_64_bits():
    """lsp-hover-power-series (the unit; tests/lsp/test_lsp_hover.py the server)."""
    said = hover.explain_count({"min": 2, "operator": "^", "operand": 100}, "node")
    assert said.endswith("2, ….")
    said = hover.explain_count({"min": 2, "max": 10**30, "operator": "^", "operand": 3}, "node")
    assert "2, 8, 512, 134217728, …" in said


def test_a_suppression_inside_a_string_is_text():
    """suppression-comment-inside-a-string: only a YAML comment suppresses."""
    text = 'version: 1\nx: "1h # jobspec: ignore"\ny: 2  # jobspec: ignore[JS102]\n'
    codes = [(d.code, text[d.start : d.end]) for d in analysis.check(text)]
    assert ("JS102", "x") in codes and ("JS102", "y") not in codes


def test_fmt_does_not_count_a_file_it_could_not_write(tmp_path):
    """fmt-read-only-file-not-counted."""
    f = tmp_path / "a.jobspec.yaml"
    f.write_text("version:   1\n")
    f.chmod(stat.S_IRUSR)
    proc = run_cli("fmt", f)
    err = proc.stderr.decode()
    assert proc.returncode == 2
    assert "0 files reformatted" in err and "1 could not be written" in err
    assert f.read_text() == "version:   1\n"


KINDS = {
    "job.jobspec.yaml": ("version:   1\n", True),
    "job.jobspec.json": ('{"version":1}', True),
    "jobspec.yaml": ("version:   1\n", True),
    "run.sh": ('#!/bin/sh\n#flux: -N1\necho "start:    $(date)"\n', False),
    "slurm.sh": ("#!/bin/bash\n#SBATCH -N 1\necho 'a:    b'\n", False),
    "plain.sh": ('#!/bin/sh\necho "a:    b"\n', False),
    "lookalike.sh": ("#!/bin/sh\n#Flux: -N1\necho x:    y\n", False),
    "job.py": ("#!/usr/bin/env python3\n# flux: -N1\nprint('a:    b')\n", False),
    "noext": ("#!/bin/sh\n#flux: -N1\necho a:    b\n", False),
    "loop.bash": ("for i in 1 2; do\n  echo $i:    x\ndone\n", False),
}


def test_fmt_touches_only_jobspec_files(tmp_path):
    """script-fmt-leaves-shell-scripts-alone: `jobspec fmt DIR` rewrote *.sh batch scripts
    as YAML. Every kind of file the project knows, through fmt DIR and fmt FILE."""
    for name, (text, _) in KINDS.items():
        (tmp_path / name).write_text(text)
    run_cli("fmt", tmp_path)
    for name in KINDS:
        run_cli("fmt", tmp_path / name)
    for name, (text, formatted) in KINDS.items():
        after = (tmp_path / name).read_text()
        assert (after != text) == formatted, name


def test_check_fix_on_4000_slurm_variables_analyses_a_few_times():
    """slurm-variable-fixes-linear: the document was re-analysed per fix (13 s)."""
    text = "#!/bin/bash\n#flux: -n1\n" + "echo $SLURM_JOB_ID\n" * 4000
    from jobspec_lsp.jobspec.tree import Document
    from jobspec_lsp.text.positions import LineIndex

    calls = []

    def analyse(t):  # as `jobspec check --fix` analyses a script
        calls.append(1)
        return Document(t, LineIndex(t), None, [], "script"), batch.check_script(t)

    new, applied = fixes.apply_fixes(analyse, text, unsafe=True)
    assert len(applied) == 4000 and "SLURM_JOB_ID" not in new
    assert len(calls) <= 3


def test_new_from_batch_builds_one_line_index(monkeypatch, tmp_path, capsys):
    """batch-new-from-batch-4000-unknown-options: a line index of the whole text was built
    per diagnostic (10,000 options took 45 s)."""
    import importlib

    from jobspec_lsp.text import positions

    cli = importlib.import_module("jobspec_lsp.cli.main")

    built = []
    original = positions.LineIndex.__init__

    def counting(self, *a, **kw):
        built.append(1)
        original(self, *a, **kw)

    monkeypatch.setattr(positions.LineIndex, "__init__", counting)
    f = tmp_path / "s.sh"
    f.write_text(SH + "".join(f"#flux: --bogus{i}\n" for i in range(4000)) + "hostname\n")
    assert cli.main(["new", "--from-batch", str(f)]) == 1
    assert capsys.readouterr().err.count("JS570") == 4000
    assert len(built) <= 2


def test_slurm_variables_handed_to_another_shell_are_still_found():
    """The other side of slurm-variable-fixes-respect-shell-quoting: text in quotes that
    another shell runs (sh -c '...', bash <<'EOF') expands there, empty under Flux."""
    from jobspec_lsp.script import sbatch

    text = (
        "#!/bin/bash\n#flux: -n1\n"
        "flux run sh -c 'echo $SLURM_PROCID'\n"
        "bash <<'EOF'\necho $SLURM_JOB_ID\nEOF\n"
        "echo '$SLURM_NNODES'\n"
    )
    names = [text[d.start : d.end] for d in sbatch.diagnostics(text) if d.code == "JS595"]
    assert names == ["$SLURM_PROCID", "$SLURM_JOB_ID"]


def test_a_suppression_of_an_unknown_code_says_so():
    """Beyond the cases: `# jobspec: ignore[JS5700]` silently suppressed nothing."""
    text = "version: 1  # jobspec: ignore[JS5700]\n"
    (d,) = [d for d in analysis.check(text) if d.code == "JS913"]
    assert "JS5700 is no rule's code; did you mean JS570?" in d.message


def test_a_setattr_value_nested_beyond_json_s_limit():
    """Beyond the cases (the recursion class): a 5,000-deep --setattr JSON value ended in
    a RecursionError in check and new; Flux refuses it. A 600-deep one Flux takes: check
    passes, and new says it cannot write it rather than failing."""
    deep = script("-n1", "--setattr=user.x=" + "[" * 5000 + "]" * 5000)
    ((code, _, severity),) = found(deep, "JS572")
    assert severity == Severity.ERROR
    assert found(script("-n1", "--setattr=user.x=" + "[" * 600 + "]" * 600)) == []


@pytest.mark.parametrize(
    "block", ["#SBATCH -n 1\n#SBATCH --begin=now+" + "9" * 5000, "#SBATCH -n ٣", "#SBATCH -t ٣"]
)
def test_slurm_numbers_are_ascii_and_bounded(block):
    """Beyond the cases (the numbers class, Slurm side): `--begin=now+<5,000 digits>` was
    a traceback; a Unicode digit, which Slurm (C) does not read, was taken as a count."""
    from jobspec_lsp.script import sbatch

    text = "#!/bin/bash\n" + block + "\nhostname\n"
    conv = sbatch.convert_script(text)
    assert "#SBATCH" in conv.text  # not carried, and said so
    assert any(d.code in ("JS591", "JS592") for d in sbatch.diagnostics(text))
