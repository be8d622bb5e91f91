"""The migration engine on the values and texts schedulers read differently from what a
plain reading suggests, each class held to what real sbatch 22.05 and real Flux 0.88 were
seen to do (the real-tool tiers, tests/slurm/test_slurm_migrate_values.py and
tests/flux/test_flux_migrate.py, hold the same claims against the tools themselves).

Regression cases: convert-crlf-env-directive-in-line, convert-crlf-env-reaches-flux,
convert-insert-at-eof-without-newline, convert-hash-ends-directive,
convert-cluster-option-accepted."""

from __future__ import annotations

import pytest

from jobspec_lsp.migrate import convert, reading
from jobspec_lsp.script import directives


def flux_lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.startswith("#flux:")]


# ----------------------------------------------------------------------- line ends
@pytest.mark.parametrize(
    "body",
    [
        "cd $SLURM_SUBMIT_DIR\r\n",  # the --env line inserted after the directives
        "srun ./a\r\n",
    ],
)
def test_a_crlf_script_gets_crlf_lines_each_on_its_own(body):
    """convert-crlf-env-directive-in-line: a line inserted after the last directive went
    between its text and its CR LF."""
    text = "#!/bin/bash\r\n#SBATCH -N 2\r\n#SBATCH --mem=4G -t 5\r\n" + body
    out = convert.convert(text).text
    assert "\n" not in out.replace("\r\n", "")  # every line ends CR LF, none is glued
    assert out.count("\r\n") == len(out.splitlines())
    read = directives.read(out.replace("\r\n", "\n"))
    assert not read.problems
    if "SUBMIT_DIR" in body:
        assert "#flux: --env=SUBMIT_DIR=$PWD\r\n" in out


def test_a_crlf_script_loses_a_whole_line_with_its_cr():
    text = "#!/bin/bash\r\n#SBATCH -n 2\r\n#SBATCH --no-requeue\r\nhostname\r\n"
    out = convert.convert(text).text
    assert "\r\n\r\n" not in out and "\r\r" not in out


@pytest.mark.parametrize(
    "text",
    [
        "#!/bin/bash",  # nothing but a #! line: the default size goes after it
        "#!/bin/bash\n#SBATCH -N 2",  # the last directive line has no newline
        "#!/bin/bash\n#SBATCH -N 2\ncd $SLURM_SUBMIT_DIR",
    ],
)
def test_a_line_inserted_at_the_end_starts_a_line_of_its_own(text):
    """convert-insert-at-eof-without-newline: `#!/bin/bash#flux: -n 1` broke the #! line."""
    out = convert.convert(text, "slurm").text
    assert out.startswith("#!/bin/bash\n")
    assert all(ln.startswith(("#!", "#flux: ", "cd ")) for ln in out.splitlines())
    assert flux_lines(out)


# ----------------------------------------------------------- sbatch's directive words
@pytest.mark.parametrize(
    "line,words",
    [
        ("--job-name=1536#SBATCH -o out_%j.log", ["--job-name=1536"]),
        ('--job-name="a#b" -o x.log', ["--job-name=a#b", "-o", "x.log"]),
        ("--job-name='a#b' -n 2", ["--job-name=a#b", "-n", "2"]),
        ("--job-name=a\\#b -n 2", ["--job-name=a#b", "-n", "2"]),
        ('--job-name=a"#"b -n 2', ["--job-name=a#b", "-n", "2"]),
        ('--job-name="a\\"b" -n 2', ['--job-name=a"b', "-n", "2"]),  # escaped inside quotes
        ("--job-name=a\\ b", ["--job-name=a", "b"]),  # a blank ends the word all the same
        ("-J x -n2#-n3", ["-J", "x", "-n2"]),
        ("--job-name=ab # -n 2", ["--job-name=ab"]),
        ("\t--job-name=ab\t-n 2", ["--job-name=ab", "-n", "2"]),
    ],
)
def test_sbatch_words_are_split_as_sbatch_splits_them(line, words):
    """What sbatch 22.05 read from each line (JobName, NumTasks, StdOut of the held job)."""
    split = reading.split_sbatch_words(line)
    assert not isinstance(split, str)
    assert [w for w, _, _ in split] == words


def test_an_unclosed_quote_is_refused_as_sbatch_refuses_it():
    assert reading.split_sbatch_words('--job-name="abc -n 2') == "11"


def test_a_hash_inside_a_word_ends_the_directive_and_is_said():
    """convert-hash-ends-directive: `--job-name=1536#SBATCH -o out_%j.log` named the job
    `1536#SBATCH` and applied the -o that Slurm ignores."""
    text = "#!/bin/bash\n#SBATCH --job-name=1536#SBATCH -o out_%j.log\n#SBATCH -n 1\nhostname\n"
    conv = convert.convert(text)
    assert "--job-name=1536 " in conv.text
    assert "1536#SBATCH" not in conv.text and "out_{{id}}" not in conv.text
    (said,) = [f for f in conv.findings if f.kind == "kept"]
    assert text[said.start : said.end] == "#SBATCH -o out_%j.log"
    assert "comment" in said.message
    read = directives.read(conv.text)  # Flux reads the name alone
    assert not read.problems


# ------------------------------------------------------------------ sbatch's names
@pytest.mark.parametrize(
    "option", ["--cluster=c5", "--clusters=c5", "-M c5", "--contiguous", "--gpu-freq=high"]
)
def test_options_sbatch_takes_are_not_called_unknown(option):
    """convert-cluster-option-accepted: sbatch 22.05 takes --cluster as --clusters (the
    real-Slurm tier holds the whole table to what sbatch takes)."""
    conv = convert.convert(f"#!/bin/bash\n#SBATCH -n 1\n#SBATCH {option}\nhostname\n")
    assert [f.kind for f in conv.findings if f.kind in ("bad", "kept")] == ["kept"]


def test_an_ambiguous_prefix_is_refused_as_sbatch_refuses_it():
    conv = convert.convert("#!/bin/bash\n#SBATCH -n 1\n#SBATCH --clus=c5\nhostname\n")
    assert [f.kind for f in conv.findings if f.kind == "bad"] == ["bad"]
