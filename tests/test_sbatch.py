"""Slurm scripts to Flux (`jobspec convert`, JS590-JS599): the conversion of each option,
what is kept byte for byte, every diagnostic's exact range, the fixes, and the command
line. The engine is jobspec_lsp.migrate; LSF and PBS are in test_migrate.py."""

from __future__ import annotations

import pytest
from helpers import run_cli
from hypothesis import given as hgiven
from hypothesis import settings
from hypothesis import strategies as st
from sbatch_cases import CASES

from jobspec_lsp.features import fixes
from jobspec_lsp.job import directives
from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.migrate import slurm
from jobspec_lsp.migrate.model import fsd
from jobspec_lsp.script import batch, sbatch


def script(block: str, body: str = "flux run hostname\n") -> str:
    return "#!/bin/bash\n" + block + "\n\n" + body


_DEFAULT = " --output='slurm-{{id}}.out'"


def converted(text: str) -> str:
    """The conversion, without sbatch's default output file (written when the block has
    no -o: test_sbatch's default output tests hold that), so each test says its point."""
    return sbatch.convert_script(text).text.replace(_DEFAULT, "")


def codes(text: str) -> list[tuple[str, str]]:
    """(code, the text it covers) for each Slurm diagnostic of a script."""
    return [(d.code, text[d.start : d.end]) for d in sbatch.diagnostics(text)]


@pytest.mark.parametrize("slurm,flux,_resources", CASES)
def test_each_option_converts(slurm, flux, _resources):
    assert converted(script(slurm)) == script(flux)


@pytest.mark.parametrize("slurm,flux,_resources", CASES)
def test_a_converted_script_passes_the_directive_checks(slurm, flux, _resources):
    out = converted(script(slurm))
    loud = [(d.code, d.message) for d in batch.check_script(out) if d.severity <= 2]
    assert loud == []
    assert not sbatch.has_directives(out)


def test_everything_but_the_directives_is_kept_byte_for_byte():
    body = "# a comment\r\nset -e\t \r\n\n  srun ./a  # tabs\t and trailing \nlast-no-newline"
    text = "#!/bin/bash\r\n#SBATCH -N 2\r\n#SBATCH --mem=1G\r\n" + body
    out = converted(text)
    want = body.replace("srun ./a", "flux run -N2 -n2 ./a")
    assert out == "#!/bin/bash\r\n#flux: -N 2 -n 2 -x\r\n#SBATCH --mem=1G\r\n" + want


def test_sbatch_s_default_output_file_is_written_when_no_output_is_given():
    text = script("#SBATCH -N 2\n#SBATCH -t 5")
    conv = sbatch.convert_script(text)
    assert conv.text == script("#flux: -N 2 -n 2 -x" + _DEFAULT + "\n#flux: -t 5m")
    (note,) = [d for d in sbatch.diagnostics(text) if "default is slurm-%j.out" in d.message]
    assert (note.code, note.start) == ("JS593", text.index("#SBATCH"))
    for block in ("#SBATCH -N 2 -o out.txt", "#SBATCH -N 2 --output=o", "#SBATCH -N 2 --out=o"):
        assert "slurm-{{id}}" not in sbatch.convert_script(script(block)).text
    array = sbatch.convert_script(script("#SBATCH -n 1 --array=1-4")).text
    assert "--output='slurm-{{id}}_%a.out'" in array


def test_a_script_without_sbatch_directives_is_unchanged():
    text = "#!/bin/sh\n#flux: -N1\nhostname\n"
    conv = sbatch.convert_script(text)
    assert conv.text == text and not conv.changed
    assert sbatch.diagnostics(text) == ()


def test_what_cannot_be_carried_stays_as_sbatch_with_a_warning_at_it():
    text = script("#SBATCH -N 2 --mem=4G --mail-type=END -q high")
    out = converted(text)
    assert out == script("#flux: -N 2 -n 2 -x\n#SBATCH --mem=4G --mail-type=END -q high")
    found = [(c, t) for c, t in codes(text) if c == "JS591"]
    assert found == [
        ("JS591", "--mem=4G"),
        ("JS591", "--mail-type=END"),
        ("JS591", "-q high"),
    ]
    qos = next(d for d in sbatch.diagnostics(text) if text[d.start : d.end] == "-q high")
    assert "QOS" in qos.message and "Flux's -q is the queue" in qos.message


def test_a_line_with_nothing_to_carry_is_left_alone():
    text = script("#SBATCH -n 1\n#SBATCH --mem=4G   # memory")
    assert converted(text) == script("#flux: -n 1\n#SBATCH --mem=4G   # memory")


def test_a_line_with_nothing_to_write_goes():
    text = script("#SBATCH -n 1\n#SBATCH --parsable --export=ALL")
    assert converted(text) == script("#flux: -n 1")
    notes = [d.message for d in sbatch.diagnostics(text) if d.code == "JS593"]
    assert len([m for m in notes if "default is slurm-%j.out" not in m]) == 2


def test_unknown_option_is_an_error_with_did_you_mean_and_stays():
    text = script("#SBATCH --ntask=4 -Z")
    diags = [d for d in sbatch.diagnostics(text) if d.code == "JS592"]
    assert [(text[d.start : d.end], d.message) for d in diags] == [
        ("--ntask", "sbatch has no option --ntask; did you mean --ntasks?"),
        ("-Z", "sbatch has no option -Z"),
    ]
    # nothing converted on that line, so it is left as it was, and the size is added
    assert converted(text) == script("#flux: -n 1\n#SBATCH --ntask=4 -Z")


@pytest.mark.parametrize(
    "block,at,words",
    [
        ("#SBATCH -N two", "two", "not a whole number"),
        ("#SBATCH -n 0", "0", "at least 1"),
        ("#SBATCH -n 1 -t 1h", "1h", "not a Slurm time"),
        ("#SBATCH -n 1 --signal=USR1@soon", "USR1@soon", "Invalid --signal specification"),
        ("#SBATCH -n 1 --begin=now+1fortnight", "now+1fortnight", "Invalid --begin"),
        ("#SBATCH -n 1 --job-name", "--job-name", "needs a value"),
        ("#SBATCH -n 1 --hold=yes", "--hold=yes", "takes no value"),
        ("#SBATCH -n 1 --job-name='sim", "'", "quote is not closed"),
        ("#SBATCH -n 1 extra", "extra", "not an option"),
    ],
)
def test_values_sbatch_refuses_are_errors_at_the_value(block, at, words):
    text = script(block)
    errors = [d for d in sbatch.diagnostics(text) if d.code == "JS592"]
    assert len(errors) == 1
    d = errors[0]
    start = text.index(at, text.index("#SBATCH"))
    assert (d.start, d.end) == (start, start + len(at))
    assert words in d.message


@pytest.mark.parametrize(
    "block,at,words",
    [
        ("#SBATCH -n 1 --gres=nvme:1", "nvme:1", "'nvme'"),
        ("#SBATCH -n 1 -d afterok:1?afterok:2", "afterok:1?afterok:2", "waits for all"),
        ("#SBATCH -n 1 -d aftercorr:1", "aftercorr:1", "no Flux scheme"),
        ("#SBATCH -n 1 -d after:1+10", "after:1+10", "no delay"),
        ("#SBATCH -n 1 -C '[a*2&b*2]'", "'[a*2&b*2]'", "matching sets"),
        ("#SBATCH -n 1 -w ./hosts/file", "./hosts/file", "a file of host names"),
        ("#SBATCH -n 1 --begin=10:00AM", "10:00AM", "Flux reads +FSD"),
        ("#SBATCH -N 1 --exclusive=user", "user", "whole nodes only"),
        ("#SBATCH -n 1 --array=0-9", "--array=0-9", "no job arrays"),
    ],
)
def test_what_flux_cannot_express_is_a_warning_at_it_and_kept(block, at, words):
    text = script(block)
    warns = [d for d in sbatch.diagnostics(text) if d.code == "JS591"]
    assert len(warns) == 1, [d.message for d in warns]
    d = warns[0]
    start = text.index(at, text.index("#SBATCH"))
    assert (d.start, d.end) == (start, start + len(at))
    assert words in warns[0].message
    assert "#SBATCH" in converted(text)  # kept, not dropped


@pytest.mark.parametrize(
    "block,at,words",
    [
        ("#SBATCH -n 1 -o out-%N.txt", "-o out-%N.txt", "%N has no Flux template"),
        ("#SBATCH -n 1 -t 0:30", "-t 0:30", "rounds a limit up to whole minutes"),
        ("#SBATCH -n 1 -d afterok:99", "-d afterok:99", "Slurm job id"),
        ("#SBATCH -n 1 -p a,b", "-p a,b", "the first of the partitions"),
        ("#SBATCH -N 1 --gpus-per-node=v100:1", "--gpus-per-node=v100:1", "gpu type"),
        ("#SBATCH -n 1 -t 0", "-t 0", "no limit"),
        ("#SBATCH -n 1 --signal=B:USR1", "--signal=B:USR1", "B: is not carried"),
        ("#SBATCH -n 1 --begin=now", "--begin=now", "nothing to write"),
        ("#SBATCH -n 1 --export=NONE", "--export=NONE", "empty environment"),
    ],
)
def test_what_converts_with_a_difference_says_so(block, at, words):
    text = script(block)
    infos = [d for d in sbatch.diagnostics(text) if d.code == "JS593"]
    assert any(words in d.message for d in infos), [d.message for d in infos]
    d = next(d for d in infos if words in d.message)
    start = text.index(at, text.index("#SBATCH"))
    assert (d.start, d.end) == (start, start + len(at))


@pytest.mark.parametrize(
    "block,at,words,want",
    [
        ("#SBATCH -n 4 --exclusive", "--exclusive", "asks for 1 node", "-N 1 -n 4 -x"),
        ("#SBATCH -n 4 --gres=gpu:2", "--gres=gpu:2", "asks for 1 node", "-N 1 -n 1 -c 4 -g 2"),
        ("#SBATCH -n 4 --gres=gpu:3", "--gres=gpu:3", "asks for 1 node", "-N 1 -n 1 -c 4 -g 3"),
        ("#SBATCH -n 3 -G 4", "-G 4", "do not divide", "-N 1 -n 1 -c 3 -g 4"),
        ("#SBATCH -N 2-4 -n 4", "-N 2-4", "the minimum", "-N 2 -n 4"),
        ("#SBATCH -N 2 -n 5", "-n 5", "do not divide evenly", "-N 2 -n 2 -c 3"),
    ],
)
def test_what_is_approximated_is_a_warning_at_the_option(block, at, words, want):
    """What the scheduler leaves to itself (how many nodes), or what Flux's even slots
    cannot hold exactly, is converted to the nearest Flux shape with a warning there."""
    text = script(block)
    warns = [d for d in sbatch.diagnostics(text) if d.code == "JS599"]
    assert len(warns) == 1, [d.message for d in warns]
    start = text.index(at, text.index("#SBATCH"))
    assert (warns[0].start, warns[0].end) == (start, start + len(at))
    assert words in warns[0].message
    assert f"#flux: {want}" in converted(text)


def test_default_size_is_noted_at_the_first_directive():
    text = script("#SBATCH -J a\n#SBATCH -t 5")
    d = next(d for d in sbatch.diagnostics(text) if "sbatch's default is one task" in d.message)
    assert (d.code, text[d.start : d.end], d.start) == ("JS593", "#SBATCH", text.index("#SBATCH"))
    assert converted(text) == script("#flux: -n 1 --job-name=a\n#flux: -t 5m")


def test_sbatch_after_the_first_command_is_not_a_directive():
    text = "#!/bin/bash\n#SBATCH -n 2\nmodule load x\n#SBATCH -N 4\n"
    out = converted(text)
    assert out == "#!/bin/bash\n#flux: -n 2\nmodule load x\n#SBATCH -N 4\n"
    late = [d for d in sbatch.diagnostics(text) if d.code == "JS594"]
    assert [(text[d.start : d.end], d.start) for d in late] == [("#SBATCH", text.rindex("#SBATCH"))]


def test_commented_out_and_indented_sbatch_are_not_directives():
    text = "#!/bin/bash\n##SBATCH -N 9\n# SBATCH -N 8\n  #SBATCH -N 7\n#SBATCHX\n#SBATCH -n 1\n"
    out = converted(text)
    assert out == text.replace("#SBATCH -n 1", "#flux: -n 1")


def test_each_converted_line_has_a_hint_whose_fix_is_the_whole_conversion():
    text = script("#SBATCH -N 2\n#SBATCH -t 10", "srun ./a\n")
    hints = [d for d in sbatch.diagnostics(text) if d.code == "JS590"]
    assert [(d.start, text[d.start : d.end]) for d in hints] == [
        (12, "#SBATCH"),
        (25, "#SBATCH"),
    ]
    assert "the conversion writes: #flux: -N 2 -n 2" in hints[0].message
    doc = parse(text)
    for h in hints:
        (fix,) = fixes.fixes_for(doc, h)
        assert fix.title == "Convert this Slurm script to Flux"
        edited = text
        for e in sorted(fix.edits, key=lambda e: e.start, reverse=True):
            edited = edited[: e.start] + e.text + edited[e.end :]
        assert edited == sbatch.convert_script(text).text


def test_slurm_variables_in_the_body_warn_with_the_flux_equivalent_and_a_fix():
    body = (
        'echo "$SLURM_JOB_ID ${SLURM_NNODES}"\n'
        "x=$SLURM_NTASKS\n"
        "# $SLURM_JOB_ID in a comment is fine\n"
        "python -c 'import os; print(os.environ[\"SLURM_PROCID\"])'\n"
        "echo $SLURM_FOO\n"  # no name Slurm sets (its manual pages): the user's own
        "export SLURM_CONF=/etc/slurm.conf; echo $SLURM_CONF\n"  # read by Slurm, set here
    )
    text = script("#flux: -n1", body)
    found = [
        (text[d.start : d.end], (d.data or {}).get("replace"))
        for d in sbatch.diagnostics(text)
        if d.code == "JS595"
    ]
    assert found == [
        ("$SLURM_JOB_ID", "$(flux getattr jobid)"),
        ("${SLURM_NNODES}", "$(flux resource list -no {nnodes})"),
        ("$SLURM_NTASKS", None),
        ("SLURM_PROCID", "FLUX_TASK_RANK"),
    ]
    doc = parse(text)
    first = next(d for d in sbatch.diagnostics(text) if d.code == "JS595")
    (fix,) = fixes.fixes_for(doc, first)
    (e,) = fix.edits
    assert (e.start, e.end, e.text) == (first.start, first.end, "$(flux getattr jobid)")


def test_slurm_commands_in_the_body_warn():
    text = script("#flux: -n1", "srun -n 2 ./a\nsqueue -u me | grep x\n./srun-wrapper\nmy.srun\n")
    assert [(c, t) for c, t in codes(text)] == [("JS596", "srun"), ("JS596", "squeue")]
    assert "flux run" in sbatch.diagnostics(text)[0].message


def test_check_script_includes_the_slurm_findings():
    text = script("#SBATCH -N 2 --mem=1G", "srun ./a\n")
    got = [d.code for d in batch.check_script(text) if "default is slurm" not in d.message]
    assert got == ["JS590", "JS599", "JS591", "JS593"]  # JS599: -N alone, whole nodes


def test_migration_doc_holds_the_generated_tables():
    from helpers import REPO

    from jobspec_lsp.migrate import pyxis, tables

    doc = (REPO / "docs" / "migration.md").read_text()
    for name in ("slurm", "lsf", "pbs"):
        assert tables.markdown(name) in doc, name
    assert tables.PYXIS_HEADING + "\n\n" + pyxis.markdown() in doc


def test_every_table_option_is_carried_or_explained():
    for o in slurm.OPTIONS:
        assert o.reader in ("-", "") or o.reader in slurm.READERS, o.names
        assert o.flux or o.note, o.names  # carried, or what happens instead


def test_slurm_time_forms():
    assert slurm.seconds("5") == 300
    assert slurm.seconds("5:07") == 307
    assert slurm.seconds("2:00:01") == 7201
    assert slurm.seconds("3-0") == 3 * 86400
    assert slurm.seconds("1-2:3") == 86400 + 2 * 3600 + 180
    assert slurm.seconds("1-2:3:4") == 86400 + 2 * 3600 + 184
    assert slurm.seconds("infinite") is None
    with pytest.raises(ValueError):
        slurm.seconds("1h")
    assert [fsd(s) for s in (1, 60, 61, 3600, 5400, 86400, 0)] == [
        "1s",
        "1m",
        "61s",
        "1h",
        "90m",
        "1d",
        "0s",
    ]


# ------------------------------------------------------------------ the command line
def test_cli_writes_the_script_and_lists_the_findings(tmp_path):
    path = tmp_path / "job.sh"
    path.write_text(script("#SBATCH -N 2 --mem=1G", "srun ./a\n"))
    proc = run_cli("convert", "--from", "sbatch", path, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode() == script(
        "#flux: -N 2 -n 2 -x" + _DEFAULT + "\n#SBATCH --mem=1G", "flux run -N2 -n2 ./a\n"
    )
    err = proc.stderr.decode().splitlines()
    assert err == [
        f"{path}:2:1: information[JS593] no --output: sbatch's default is slurm-%j.out, "
        "written here (Flux's own would be flux-{{id}}.out)",
        f"{path}:2:9: warning[JS599] -N 2: only a node count: the job gets its 2 nodes whole "
        "(-x), as sites that allocate by node give them; add -n (or -c) where it should share "
        "them",
        f"{path}:2:14: warning[JS591] --mem=1G: Flux's batch options request cores and gpus, "
        "not memory: ask for whole nodes (-N with -x) to get all of a node's memory; kept as "
        "written",
        f"{path}:4:1: information[JS593] srun → flux run -N2 -n2",
    ]


def test_cli_in_place_keeps_the_mode_and_exits_1_on_an_sbatch_error(tmp_path):
    path = tmp_path / "job.sh"
    path.write_text(script("#SBATCH -N 2\n#SBATCH --nodez=3"))
    path.chmod(0o750)
    proc = run_cli("convert", "--from", "sbatch", path, "-o", path, cwd=tmp_path)
    assert proc.returncode == 1
    assert "error[JS592] sbatch has no option --nodez; did you mean --nodes?" in (
        proc.stderr.decode()
    )
    assert path.read_text() == script("#flux: -N 2 -n 2 -x" + _DEFAULT + "\n#SBATCH --nodez=3")
    assert path.stat().st_mode & 0o777 == 0o750


def test_cli_refuses_to_and_format_with_sbatch(tmp_path):
    path = tmp_path / "job.sh"
    path.write_text(script("#SBATCH -N 2"))
    proc = run_cli("convert", "--from", "sbatch", "--to", "v1", path)
    assert proc.returncode == 2
    assert b"no --to or --format" in proc.stderr


def test_check_reports_an_explicit_slurm_script_but_skips_it_in_a_directory(tmp_path):
    (tmp_path / "slurm.sh").write_text(script("#SBATCH -N 2 --mem=1G"))
    one = run_cli("check", tmp_path / "slurm.sh")
    assert b"JS591" in one.stdout and one.returncode == 0  # warnings only
    folder = run_cli("check", tmp_path)
    assert b"slurm.sh" not in folder.stdout


def test_gpus_per_node_that_tasks_cannot_share_become_one_slot_per_node():
    """Regression (sbatch-gpus-per-node-kept): -N2 --ntasks-per-node=4 --gres=gpu:2 left
    the gpus as #SBATCH; the job got none in Flux."""
    text = script("#SBATCH -N 2\n#SBATCH --ntasks-per-node=4\n#SBATCH -c 2\n#SBATCH --gres=gpu:2")
    conv = sbatch.convert_script(text)
    assert "#SBATCH" not in conv.text
    assert "#flux: -N 2 -n 2 -c 8 -g 2" in conv.text
    assert conv.shape is not None and conv.shape.run == ["-N2", "-n8", "-c2"]


@pytest.mark.parametrize(
    "block",
    [
        "#SBATCH --ntasks=16\n#SBATCH --qos=normal",
        "#SBATCH -N 2\n#SBATCH --ntasks-per-node=4\n#SBATCH --gres=gpu:2",
        '#SBATCH -J "it\'s"\n#SBATCH -n 1',
        "#SBATCH --mem=4G",
    ],
)
def test_converting_a_converted_script_changes_nothing(block):
    """Regression (sbatch-convert-own-output-twice): each conversion added another
    `#flux: --nslots=1`, the existing #flux: lines ignored."""
    once = sbatch.convert_script(script(block)).text
    assert sbatch.convert_script(once).text == once


def test_the_conversion_writes_the_sentinel_the_script_uses():
    """Regression: #flux: written beside #FLUX:, which Flux refuses."""
    text = script("#FLUX: -t 5m\n#SBATCH -N 2")
    out = converted(text)
    assert "#FLUX: -N 2 -n 2" in out and "#flux:" not in out
    assert not [p for p in directives.read(out).problems]


@pytest.mark.parametrize("value", ["it's", 'say "hi"', "a'''b", "back\\slash", "x;y", "#hash"])
def test_a_converted_value_is_read_back_by_flux_reader(value):
    """Regression (sbatch-convert-quote-flux-reads): shell quoting 'it'"'"'s' holds three
    quote characters in a row, which Flux's directive reader refuses."""
    written = directives.quote(value)
    (word,) = directives.read(f"#!/bin/sh\n#flux: --job-name={written}\n").words
    assert word.value == f"--job-name={value}"


def test_slurm_variables_where_the_shell_expands_nothing_are_left_alone():
    """Regression (slurm-variable-fixes-respect-shell-quoting): the fixes rewrote
    \\$SLURM_NNODES, '...' text and a <<'EOF' body, and bash could not parse the result."""
    body = (
        "echo '$SLURM_JOB_ID is printed as is'\n"
        "echo \\$SLURM_NNODES\n"
        "cat <<'EOF'\n$SLURM_JOB_ID\nEOF\n"
        "cat <<EOF\n$SLURM_NNODES\nEOF\n"
        'echo "$SLURM_JOB_ID"\n'
    )
    text = script("#flux: -n1", body)
    found = [text[d.start : d.end] for d in sbatch.diagnostics(text) if d.code == "JS595"]
    assert found == ["$SLURM_NNODES", "$SLURM_JOB_ID"]
    at = [text.index("cat <<EOF\n$SLURM_NNODES") + 10, text.index('echo "$SLURM_JOB_ID"') + 6]
    assert [d.start for d in sbatch.diagnostics(text) if d.code == "JS595"] == at


# ------------------------------------------------------------ converting twice, generated
_VALUES = ["1", "2", "4", "16", "0", "x", "2-4", "gpu:2", "gpu:a100:3", "01:00:00", "it's"]


def _directive(o, value: str) -> str:
    name = o.names[0]
    if not o.value:
        return f"#SBATCH {name}"
    return f"#SBATCH {name}={value}" if "'" not in value else f'#SBATCH {name}="{value}"'


@settings(max_examples=3000, deadline=None)
@hgiven(
    st.lists(
        st.tuples(st.sampled_from(slurm.OPTIONS), st.sampled_from(_VALUES)), min_size=1, max_size=6
    ),
    st.sampled_from(["", "#flux: -N 2\n", "#FLUX: -t 5m\n", "#flux: --nslots=4\n"]),
)
def test_converting_a_conversion_again_changes_nothing(items, head):
    """The class behind sbatch-convert-own-output-twice (516 of 838 generated conversions
    changed when converted again): whatever the block, converting the converted script
    gives it back unchanged, and the directives it writes are read by Flux's reader."""
    text = "#!/bin/bash\n" + head + "\n".join(_directive(o, v) for o, v in items) + "\nsrun ./a\n"
    once = sbatch.convert_script(text).text
    assert sbatch.convert_script(once).text == once
    read = directives.read(once)
    assert not [p for p in read.problems if p.code in ("JS560", "JS561", "JS562", "JS564")]


def test_cli_detects_the_scheduler_and_shows_a_diff(tmp_path):
    path = tmp_path / "job.lsf"
    original = "#BSUB -n 4\n#BSUB -W 10\nmpirun ./a\n"
    path.write_text(original)
    proc = run_cli("convert", path, "--diff", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    diff = proc.stdout.decode()
    assert diff.startswith(f"--- {path}\n+++ {path} (Flux)\n")
    assert "-#BSUB -n 4\n" in diff and "+#flux: -n 4\n" in diff
    assert "+flux run -n4 ./a\n" in diff
    assert path.read_text() == original  # a diff changes nothing


def test_cli_in_place_keeps_the_original_beside_and_refuses_to_overwrite_it(tmp_path):
    path = tmp_path / "job.pbs"
    original = "#!/bin/bash\n#PBS -l nodes=2:ppn=4\n#PBS -o out -j oe\nmpirun ./a\n"
    path.write_text(original)
    proc = run_cli("convert", path, "--in-place", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "job.pbs.orig").read_text() == original
    assert path.read_text().startswith("#!/bin/bash\n#flux: -N 2 -n 8\n#flux: --output=out\n")
    again = run_cli("convert", path, "--in-place", cwd=tmp_path)  # converted: no change
    assert again.returncode == 0 and (tmp_path / "job.pbs.orig").read_text() == original
    path.write_text(original)
    third = run_cli("convert", path, "--in-place", cwd=tmp_path)
    assert third.returncode == 2 and b"job.pbs.orig exists" in third.stderr
    assert path.read_text() == original


def test_cli_names_the_scheduler_or_refuses_to_guess(tmp_path):
    both = tmp_path / "job.csh"
    both.write_text("#!/bin/csh\n#PBS -l walltime=1:00:00\n#BSUB -W 60\nhostname\n")
    proc = run_cli("convert", both, cwd=tmp_path)
    assert proc.returncode == 1 and b"--from" in proc.stderr
    assert proc.stdout == b""
    chosen = run_cli("convert", "--from", "pbs", both, cwd=tmp_path)
    assert chosen.returncode == 0, chosen.stderr
    assert b"#flux: -n 1 -t 1h" in chosen.stdout and b"#BSUB -W 60" in chosen.stdout
    lsf = run_cli("convert", "--from", "lsf", tmp_path / "missing.sh", cwd=tmp_path)
    assert lsf.returncode == 2


def test_check_says_what_a_scheduler_script_is_and_how_to_convert_it(tmp_path):
    path = tmp_path / "job.sh"
    path.write_text("#!/bin/bash\n#PBS -l nodes=1\nhostname\n")
    proc = run_cli("check", path, cwd=tmp_path)
    assert proc.returncode == 0
    assert b"a PBS batch script" in proc.stderr and b"jobspec convert" in proc.stderr
    assert b"JS598" in proc.stdout and b"JS901" not in proc.stdout


def test_tasks_per_node_is_read_as_sbatch_reads_it():
    """sbatch takes --tasks-per-node for --ntasks-per-node (real Slurm 22.05: -N 2
    --tasks-per-node=4 is NumTasks=8), and any unambiguous prefix of a long option."""
    for block in ("#SBATCH -N 2 --tasks-per-node=4", "#SBATCH -N 2 --ntasks-per-n=4"):
        assert converted(script(block)) == script("#flux: -N 2 -n 8")
