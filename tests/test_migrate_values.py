"""The migration engine on the values and texts schedulers read differently from what a
plain reading suggests, each class held to what real sbatch 22.05 and real Flux 0.88 were
seen to do (the real-tool tiers, tests/slurm/test_slurm_migrate_values.py and
tests/flux/test_flux_migrate.py, hold the same claims against the tools themselves).

Regression cases: convert-crlf-env-directive-in-line, convert-crlf-env-reaches-flux,
convert-insert-at-eof-without-newline, convert-hash-ends-directive,
convert-cluster-option-accepted, convert-huge-time-flux-accepts, convert-invalid-signal-refused,
convert-empty-nodelist-flux-accepts, convert-dependency-foreign-job-id-slurm-array,
convert-dependency-foreign-job-id-pbs, convert-begin-now-plus, convert-multichunk-not-shrunk,
convert-nodes-above-tasks, convert-gpus-per-task-uneven-keeps-gpus,
convert-lsf-llnl-bank-and-array-name."""

from __future__ import annotations

import pytest

from jobspec_lsp.job import directives
from jobspec_lsp.migrate import convert, reading


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


# ------------------------------------------------ nothing Flux refuses is written
def flux_refusals(text: str) -> list[str]:
    """What `flux batch` refuses in the #flux: lines of ``text`` (its own readers)."""
    from jobspec_lsp.fluxcli import argv, model, values

    batch = model.command("batch")
    out = []
    for d in directives.read(text).directives:
        for g in argv.read(batch, d.words).given:
            why = values.value_problem(g.option, g.value or "")
            if why and not isinstance(why, values.Limit):
                out.append(why)
    return out


def slurm(*lines: str) -> convert.Conversion:
    return convert.convert(
        "#!/bin/bash\n" + "".join(f"#SBATCH {ln}\n" for ln in lines) + "srun ./a\n"
    )


def kinds(conv: convert.Conversion) -> list[str]:
    return [f.kind for f in conv.findings if f.kind in ("bad", "kept", "refused", "approx")]


@pytest.mark.parametrize(
    "line,kind",
    [
        ("--signal=0@60", "bad"),  # sbatch: Invalid --signal specification
        ("-t 9999999999999999999999999", "kept"),  # sbatch: UNLIMITED; was a float's -t
        ("--nodelist=", None),  # sbatch: no node list; was --requires=host:
        ("--exclude=", None),
        ("--constraint=", None),
        ("--dependency=afterok:123_4", "kept"),  # an array task: Flux cannot name it
        ("--dependency=afterok:abc", "bad"),  # sbatch: Job dependency problem
        ("--partition=", "bad"),  # sbatch: invalid partition specified
        ("--gres=", "bad"),  # slurmctld: Invalid TRES specification
        ("--account=", None),
        ("--chdir=", None),
    ],
)
def test_a_value_flux_refuses_is_never_written(line, kind):
    """convert-huge-time-flux-accepts, convert-invalid-signal-refused,
    convert-empty-nodelist-flux-accepts, convert-dependency-foreign-job-id-slurm-array."""
    conv = slurm("-n 1 -C a", line)
    assert not flux_refusals(conv.text)
    assert kinds(conv) == ([kind] if kind else [])
    assert "--requires=a" in conv.text  # what an earlier option gave stays


def test_what_flux_refuses_is_kept_as_written_whatever_the_scheduler():
    """The last line of defence: a value its scheduler takes and Flux's readers refuse."""
    lsf = convert.convert("#!/bin/sh\n#BSUB -n 1 -W 99999999999999:0\nhostname\n")
    assert not flux_refusals(lsf.text) and "#BSUB -W 99999999999999:0" in lsf.text
    assert any("999999999 days" in f.message for f in lsf.findings)


@pytest.mark.parametrize(
    "value,flux",
    [
        # what real sbatch 22.05 takes (--test-only), and the Flux form of it
        ("USR1", "SIGUSR1@60s"),
        ("usr1@0", "SIGUSR1@0s"),
        ("SigUsr1@65535", "SIGUSR1@65535s"),
        ("B:USR1@30", "SIGUSR1@30s"),
        ("RB:TERM", "SIGTERM@60s"),
        (":KILL", "SIGKILL@60s"),
        ("XCPU", "SIGXCPU@60s"),
        ("10", "10@60s"),
        ("010@060", "10@60s"),
        ("+10@+5", "10@5s"),
        ("65535", "65535@60s"),
        ("USR1@", "SIGUSR1@0s"),
        # what it refuses: Invalid --signal specification
        ("0@60", None),
        ("00", None),
        ("65536", None),
        ("USR1@65536", None),
        ("USR1@-1", None),
        ("USR1@5x", None),
        ("USR1@0x10", None),
        ("SEGV", None),
        ("FOO", None),
        ("R:B:USR1", None),
        ("x:USR1", None),
        ("@60", None),
    ],
)
def test_signal_is_read_as_sbatch_reads_it(value, flux):
    conv = slurm("-n 1", f"--signal={value}")
    if flux is None:
        assert kinds(conv) == ["bad"]
        assert f"--signal={value}" in conv.text  # left as it is
    else:
        assert f"--signal={flux}" in conv.text and "bad" not in kinds(conv)
    assert not flux_refusals(conv.text)


@pytest.mark.parametrize(
    "value,flux",
    [
        ("71582788", "-t 71582788m"),  # the longest slurmctld keeps (in seconds, 32 bits)
        ("1-0", "-t 1d"),
        ("100000000", None),  # slurmctld: the job ends after 54 years, not 190
        ("2147483646", None),  # sbatch: UNLIMITED
        ("4294967297", None),  # sbatch: wrapped to 1 minute
        ("9999999999999999999999999", None),  # sbatch: UNLIMITED
    ],
)
def test_a_limit_sbatch_cannot_hold_is_not_written(value, flux):
    conv = slurm("-n 1", f"-t {value}")
    if flux:
        assert flux in conv.text
    else:
        assert f"#SBATCH -t {value}" in conv.text and kinds(conv) == ["kept"]
    assert not flux_refusals(conv.text)


def test_minutes_are_rounded_up_in_whole_numbers():
    from jobspec_lsp.migrate.model import minutes_up

    assert minutes_up(61) == 120 and minutes_up(60) == 60
    assert minutes_up(60 * 10**25 + 1) == 60 * (10**25 + 1)


def test_an_empty_export_is_none_as_sbatch_runs_it():
    """Run under real Slurm: --export= gives the job no variable of the submitter's."""
    conv = slurm("-n 1", "--export=")
    assert "--env='-*'" in conv.text


# -------------------------------------------------- other schedulers' job ids
@pytest.mark.parametrize(
    "dependency,flux,kind",
    [
        ("afterok:123", "afterok:123", None),
        ("afterok:007:12", "afterok:7", None),  # sbatch reads 007 as job 7
        ("afterok:123_4", None, "kept"),  # an array task: sbatch takes it, Flux cannot
        ("afterok:123_*", None, "kept"),
        ("afterany:123_[1-3]", None, "kept"),
        ("afterok:123.server", None, "bad"),  # sbatch: Job dependency problem
        ("afterok:0", None, "bad"),
    ],
)
def test_a_slurm_dependency_names_a_job_flux_can_name_or_is_kept(dependency, flux, kind):
    """convert-dependency-foreign-job-id-slurm-array."""
    conv = slurm("-n 1", f"--dependency={dependency}")
    if flux:
        assert f"--dependency={flux}" in conv.text
    else:
        assert "#flux: --dependency" not in conv.text and "--dependency=" not in flux_lines(
            conv.text
        )
    if kind == "kept":  # not as written: the word is Flux's own option, another job's id
        assert f"--dependency={dependency}" not in conv.text
        assert f"# not carried: sbatch's dependency {dependency.split(':')[0]} on" in conv.text
        assert convert.convert(conv.text, "slurm").text == conv.text  # once is twice
    assert kinds(conv) == ([kind] if kind else [])
    assert not flux_refusals(conv.text)


@pytest.mark.parametrize(
    "depend,flux,kept",
    [
        ("afterok:5678.pbsserver", [], True),
        ("afterok:1234[].pbsserver", [], True),
        ("afterok:5678@host", [], True),
        ("afterok:12:13", ["afterok:12", "afterok:13"], False),
        ("afterok:12,afterany:13", ["afterok:12", "afterany:13"], False),  # depend's commas
    ],
)
def test_a_pbs_job_id_with_its_server_is_kept_as_written(depend, flux, kept):
    """convert-dependency-foreign-job-id-pbs: `afterok:5678.pbsserver` was written as a
    Flux dependency Flux refuses ('not a valid jobid')."""
    conv = convert.convert(f"#!/bin/bash\n#PBS -l nodes=1\n#PBS -W depend={depend}\nhostname\n")
    assert [w for ln in flux_lines(conv.text) for w in ln.split() if "dependency" in w] == [
        f"--dependency={d}" for d in flux
    ]
    assert (f"#PBS -W depend={depend}" in conv.text) == kept
    assert not flux_refusals(conv.text)


def test_other_w_attributes_beside_depend_are_not_carried_but_depend_is():
    conv = convert.convert("#!/bin/bash\n#PBS -l nodes=1\n#PBS -W depend=afterok:12,umask=022\nx\n")
    assert "--dependency=afterok:12" in conv.text
    assert "# not carried: #PBS -W depend=afterok:12,umask=022" in conv.text


def test_an_lsf_array_element_is_kept_as_written():
    conv = convert.convert('#!/bin/sh\n#BSUB -n 1\n#BSUB -w "done(1234[5])"\nhostname\n')
    assert '#BSUB -w "done(1234[5])"' in conv.text and kinds(conv) == ["kept"]


# ------------------------------------------------------------------- --begin=now+
@pytest.mark.parametrize(
    "value,flux",
    [
        # what real sbatch 22.05 takes (its EligibleTime), and the Flux form of it
        ("now+1hour", "+1h"),
        ("now+1hours", "+1h"),
        ("NOW+1HOUR", "+1h"),
        ("now+30minute", "+30m"),
        ("now+1minutes", "+1m"),
        ("now+1day", "+1d"),
        ("now+2weeks", "+14d"),
        ("now+1week", "+7d"),
        ("now+60", "+1m"),
        ("now+60second", "+1m"),
        ("now+90", "+90s"),
        ("now", ""),  # at once: nothing to write
        ("now+0", ""),
        ("now-1hour", ""),
        # what it refuses: Invalid time specification
        ("now+1h", None),
        ("now+30min", None),
        ("now+1d", None),
        ("now+60s", None),
        ("now+1hourx", None),
        ("now+", None),
        ("now+1.5hours", None),
        ("now+1month", None),
    ],
)
def test_begin_now_plus_is_read_as_sbatch_reads_it(value, flux):
    """convert-begin-now-plus: `--begin=now+1hour` (sbatch(1)'s own example) was kept with
    a warning blaming Flux. (sbatch 22.05 refuses the short units: now+1h.)"""
    conv = slurm("-n 1", f"--begin={value}")
    if flux is None:
        assert kinds(conv) == ["bad"] and f"--begin={value}" in conv.text
    elif flux:
        assert f"--begin-time={flux}" in conv.text and not kinds(conv)
    else:
        assert "begin" not in "".join(flux_lines(conv.text)) and not kinds(conv)
    assert not flux_refusals(conv.text)


# ------------------------------------------------- sizes with no single Flux shape
@pytest.mark.parametrize(
    "resources",
    [
        "select=2:ncpus=32:mpiprocs=32+1:ncpus=8",
        "select=1:ncpus=8:ngpus=1+1:ncpus=8",
        "nodes=node01:ppn=4+node02:ppn=4",
        "nodes=node01:ppn=4",
        "nodes=2:ppn=4+1:ppn=8",
    ],
)
def test_a_size_no_single_flux_shape_holds_refuses_the_job(resources):
    """convert-multichunk-not-shrunk: the job became `#flux: -n 1` with exit 0."""
    text = f"#!/bin/bash\n#PBS -l {resources}\n#PBS -l walltime=48:00:00\nmpiexec ./a\n"
    conv = convert.convert(text)
    assert conv.refused and conv.text == text and not conv.edits
    (said,) = [f for f in conv.findings if f.kind == "refused"]
    assert text[said.start : said.end] == f"-l {resources}"


@pytest.mark.parametrize(
    "resources,words",
    [
        ("select=2:ncpus=8:mpiprocs=8+1:ncpus=8:mpiprocs=8 -l place=scatter", "-N 3 -n 24"),
        ("nodes=2:ppn=4+3:ppn=4", "-N 5 -n 20"),
    ],
)
def test_chunks_of_one_kind_add_up(resources, words):
    conv = convert.convert(f"#!/bin/bash\n#PBS -l {resources}\nmpiexec ./a\n")
    assert not conv.refused and f"#flux: {words} " in conv.text


def test_a_refused_size_is_an_error_and_nothing_is_written(tmp_path):
    from helpers import run_cli

    path = tmp_path / "job.pbs"
    path.write_text("#!/bin/bash\n#PBS -l select=2:ncpus=32:mpiprocs=32+1:ncpus=8\nmpiexec ./a\n")
    proc = run_cli("convert", "-q", path)
    assert proc.returncode == 1 and not proc.stdout
    assert b"JS589" in proc.stderr and b"kinds of chunk" in proc.stderr


# ------------------------------------------------------------ nodes above tasks
@pytest.mark.parametrize(
    "lines,words",
    [
        (("--nodes=3", "-n 1", "-c 4", "--gpus-per-node=2"), "-N 1 -n 1 -c 4 -g 2"),
        (("-N 3-5 -n 2",), "-N 2 -n 2"),
        (("-N 3 -n 2 --ntasks-per-node=1",), "-N 2 -n 2"),
        (("-N 4 -n 2 -c 3",), "-N 2 -n 2 -c 3"),
        (("-N 3 -n 3",), "-N 3 -n 3"),
    ],
)
def test_nodes_above_the_tasks_are_lowered_as_sbatch_lowers_them(lines, words):
    """convert-nodes-above-tasks: sbatch says "can't run 1 processes on 3 nodes, setting
    nnodes to 1" (scontrol: NumNodes=1); the conversion kept 3 nodes and wrote
    `flux run -N3 -n1`, which Flux refuses."""
    conv = slurm(*lines)
    assert f"#flux: {words} " in conv.text
    n = words.split()[1]
    assert f"flux run -N{n} " in conv.text


# ------------------------------------------------------------ GPUs of uneven tasks
def test_gpus_per_task_of_tasks_that_do_not_divide_over_the_nodes_are_kept():
    """convert-gpus-per-task-uneven-keeps-gpus: `--gpus-per-task=1 -n6 --nodes=4` lost
    its GPUs (`-N 4 -n 4 -c 2`), with no word of it."""
    conv = slurm("--gpus-per-task=1", "-n6", "--nodes=4")
    assert "#flux: -N 4 -n 4 -c 2 -g 2 " in conv.text
    assert "flux run -N4 -n6 -g1 ./a" in conv.text
    (said,) = [f for f in conv.findings if f.kind == "approx" and "GPUs" in f.message]
    assert "8 in all" in said.message and "counts 6" in said.message
    even = slurm("--gpus-per-task=1", "-n8", "--nodes=4")
    assert "#flux: -N 4 -n 8 -g 1 " in even.text


# ------------------------------------------------------- LSF's -G and array names
def test_lsf_bank_and_array_name():
    """convert-lsf-llnl-bank-and-array-name: LLNL's `#BSUB -G bank`, and `-J sweep[1-8]`,
    which still names the job."""
    text = "#!/bin/bash\n#BSUB -nnodes 2\n#BSUB -G guests\n#BSUB -J sweep[1-8]\njsrun ./a\n"
    conv = convert.convert(text)
    assert "#flux: --bank=guests" in conv.text
    assert "#flux: --job-name=sweep\n# not carried: #BSUB -J sweep[1-8]\n" in conv.text
    said = {text[f.start : f.end]: f for f in conv.findings}
    assert "fairshare user group" in said["-G guests"].message
    assert said["-J sweep[1-8]"].kind == "kept" and "job array" in said["-J sweep[1-8]"].message
    assert conv.request is not None and conv.request.array == "1-8"


@pytest.mark.parametrize(
    "text,pattern",
    [
        ("#!/bin/sh\n#SBATCH -n 1 --array=1-4 -o out_%A_%a.log\nx\n", "%a"),
        ("#!/bin/sh\n#BSUB -n 1 -J j[1-4] -o out_%J_%I.log\nx\n", "%I"),
        ("#!/bin/sh\n#PBS -l nodes=1 -J 1-4 -o out.^array_index^\nx\n", "^array_index^"),
    ],
)
def test_an_array_index_in_an_output_path_is_a_warning(text, pattern):
    conv = convert.convert(text)
    (said,) = [f for f in conv.findings if f.kind == "approx" and pattern in f.message]
    assert "array's index" in said.message


@pytest.mark.parametrize(
    "line,kind",
    [
        ("-t " + "9" * 5000, "kept"),  # far beyond what Slurm holds, read without int()'s limit
        ("-t 1-" + "9" * 5000, "kept"),
        ("--signal=" + "9" * 5000, "bad"),  # strtol saturates: above 65535
        ("--signal=USR1@" + "9" * 5000, "bad"),
        ("--begin=now+" + "9" * 5000, "bad"),
    ],
)
def test_thousands_of_digits_are_read_without_a_traceback(line, kind):
    conv = slurm("-n 1", line)
    assert kinds(conv) == [kind]
    assert all(len(f.message) < 6000 for f in conv.findings)


# ----------------------------------------------------------------------- environment
@pytest.mark.parametrize(
    "block,rule",
    [
        ("#PBS -l select=1:ncpus=2\n#PBS -v X=${Y},Z=plain", "--env='X=$${Y}'"),
        ("#SBATCH -n 1\n#SBATCH --export=X=$HOME", "--env='X=$$HOME'"),
        ("#PBS -l select=1:ncpus=2\n#PBS -v KEEP", "--env=KEEP"),
    ],
)
def test_a_directive_environment_value_is_literal_in_flux(block, rule):
    """A directive's VAR=VALUE is taken as written by qsub/sbatch; Flux's --env would expand
    `$Y` (and refuse the job where the submitter has no Y), so `$` is written `$$`."""
    text = convert.convert("#!/bin/bash\n" + block + "\nhostname\n").text
    assert rule in " ".join(flux_lines(text)).split()
