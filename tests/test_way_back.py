"""Nothing a user wrote is rewritten without a way back, and `check` and `convert` read a
file the same way (issue 34): a whole-script conversion is `convert`'s (with its .orig),
never a `--fix`; the .orig keeps the original's mode; `-o FILE` over FILE keeps one too;
`--in-place --diff` is refused; a script that is not UTF-8 (or not text) is said so by
both commands; a scheduler's variable is one the scheduler sets.

Regression cases: unsafe-fix-whole-script-keeps-original,
check-no-foreign-variable-false-positive."""

from __future__ import annotations

import os
import stat

import pytest
from helpers import run_cli

from jobspec_lsp.migrate import body, lsf, pbs, slurm
from jobspec_lsp.script import sbatch

SLURM = (
    "#!/bin/bash\n#SBATCH -N 2\n#SBATCH -n 8\n#SBATCH -t 01:30:00\n\n"
    'echo "on $SLURM_JOB_NUM_NODES nodes: $SLURM_JOB_NODELIST"\ncd $SLURM_SUBMIT_DIR\n'
    "srun -n 8 ./a.out\n"
)


@pytest.mark.parametrize("flags", [["--fix"], ["--fix", "--unsafe-fixes"], ["--unsafe-fixes"]])
def test_fix_never_rewrites_a_slurm_script(tmp_path, flags):
    script = tmp_path / "job.sh"
    script.write_text(SLURM)
    got = run_cli("check", *flags, script)
    assert got.returncode == 0, got.stderr.decode()
    assert script.read_text() == SLURM and not (tmp_path / "job.sh.orig").exists()


def test_the_conversion_is_an_action_not_a_fix():
    from jobspec_lsp import kinds
    from jobspec_lsp.features import fixes

    doc = kinds.detect("job.sh", SLURM).read(SLURM)
    offered = [f for d in sbatch.diagnostics(SLURM) for f in fixes.fixes_for(doc, d)]
    assert offered and all(f.title.startswith("Convert this") for f in offered)
    assert not any(f.preferred or f.safe for f in offered)
    variables = [d for d in sbatch.diagnostics(SLURM) if d.code == "JS595"]
    assert len(variables) == 3 and not any(d.data for d in variables)


@pytest.mark.parametrize("mode", [0o750, 0o600, 0o444])
def test_in_place_keeps_the_originals_mode(tmp_path, mode):
    script = tmp_path / "job.sh"
    script.write_text(SLURM)
    script.chmod(mode | stat.S_IWUSR)  # writable to be rewritten
    got = run_cli("convert", "--in-place", script)
    assert got.returncode == 0, got.stderr.decode()
    orig = tmp_path / "job.sh.orig"
    assert orig.read_text() == SLURM
    assert stat.S_IMODE(os.stat(orig).st_mode) == mode | stat.S_IWUSR
    assert "#flux:" in script.read_text()


def test_output_over_the_input_keeps_the_original(tmp_path):
    script = tmp_path / "job.sh"
    script.write_text(SLURM)
    got = run_cli("convert", script, "-o", script)
    assert got.returncode == 0, got.stderr.decode()
    assert (tmp_path / "job.sh.orig").read_text() == SLURM
    assert "#flux: -N 2 -n 8" in script.read_text()
    script.write_text(SLURM.replace("-n 8", "-n 4"))
    again = run_cli("convert", script, "-o", str(script))  # .orig there: refused, nothing lost
    assert again.returncode == 2 and "exists" in again.stderr.decode()
    assert "-n 4" in script.read_text() and (tmp_path / "job.sh.orig").read_text() == SLURM


def test_in_place_with_diff_is_refused(tmp_path):
    script = tmp_path / "job.sh"
    script.write_text(SLURM)
    got = run_cli("convert", "--in-place", "--diff", script)
    assert got.returncode == 2 and "choose one" in got.stderr.decode()
    assert script.read_text() == SLURM


def test_a_plain_script_is_answered_as_a_script(tmp_path):
    plain = tmp_path / "plain.sh"
    plain.write_text("#!/bin/bash\necho hi\n")
    got = run_cli("convert", plain)
    err = got.stderr.decode()
    assert "--to v1" not in err and "no scheduler directives" in err
    assert got.stdout.decode() == "#!/bin/bash\necho hi\n"


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"#!/bin/bash\n#flux: -n 1\necho caf\xe9\n", "not UTF-8 text (line 3"),
        (b"\x7fELF\x02\x01\x01\x00\x00\x00" + bytes(range(256)) * 4, "not a text file"),
    ],
)
def test_check_and_convert_read_a_script_alike(tmp_path, data, why):
    script = tmp_path / "ls.sh"
    script.write_bytes(data)
    for argv in (("check", script), ("convert", script)):
        got = run_cli(*argv)
        err = got.stderr.decode()
        assert got.returncode == 2 and why in err, (argv, err)
        assert "JS595" not in got.stdout.decode() and "\ufffd" not in got.stdout.decode()


def test_a_nul_in_utf8_text_is_still_a_script(tmp_path):
    script = tmp_path / "nul.sh"  # flux batch takes it
    script.write_bytes(b"#!/bin/bash\n#flux: -n 1\necho a\x00b\n")
    assert run_cli("check", script).returncode == 0


@pytest.mark.parametrize(
    ("text", "flagged"),
    [
        ("echo $LS_COLORS $LS_SUBCWD $LSB_JOBID\n", ["LS_SUBCWD", "LSB_JOBID"]),
        ("export SLURM_CONF=/etc/slurm.conf\necho $SLURM_CONF $SLURM_JOB_ID\n", ["SLURM_JOB_ID"]),
        ("SLURM_NTASKS=4\necho $SLURM_NTASKS\n", []),  # the script's own variable
        ("for SLURM_X in a; do echo $SLURM_X; done; read PBS_Y; echo $PBS_Y\n", []),
        ("echo $PBS_DEFAULT $PBS_O_WORKDIR\n", ["PBS_O_WORKDIR"]),
        ("echo $SLURM_TOTALLY_MADE_UP\n", []),
    ],
)
def test_a_schedulers_variable_is_one_it_sets(text, flagged):
    found = [name for mod in (slurm, lsf, pbs) for name, *_ in body.variables(text, mod)]
    assert sorted(found) == sorted(flagged)


def test_the_slurm_table_holds_every_name_the_conversion_knows():
    assert set(slurm.VARIABLES) <= slurm.SETS
    assert "SLURM_CONF" not in slurm.SETS and "SLURM_CPUS_PER_TASK" in slurm.SETS


@pytest.mark.parametrize(
    ("argv", "usage"),
    [
        (["check", "--bogus", "x.yaml"], "usage: jobspec check"),
        (["fmt", "x.yaml", "--bogus"], "usage: jobspec fmt"),
        (["site", "show", "d", "--nope"], "usage: jobspec site"),
    ],
)
def test_an_unknown_option_shows_the_commands_usage(argv, usage):
    got = run_cli(*argv)
    err = got.stderr.decode()
    assert got.returncode == 2 and err.startswith(usage) and "unrecognized arguments" in err


def test_the_language_servers_help_names_how_it_was_called():
    assert run_cli("lsp", "--help").stdout.decode().startswith("usage: jobspec lsp ")


def test_site_import_says_what_to_do(tmp_path):
    (tmp_path / "site.toml").write_text("")
    got = run_cli("site", "import", tmp_path)
    assert got.returncode == 2 and "(--force overwrites)" in got.stderr.decode()


def test_site_import_outside_an_instance_names_flux_uri(tmp_path):
    from jobspec_lsp.site import importer

    def no_instance(argv, **kw):
        import subprocess

        return subprocess.CompletedProcess(
            argv, 1, "", "flux-config: flux_open: No such file or directory\n"
        )

    env = os.environ.pop("FLUX_URI", None)
    try:
        with pytest.raises(importer.CaptureError, match="FLUX_URI"):
            importer.capture(tmp_path / "p", run=no_instance)
    finally:
        if env is not None:
            os.environ["FLUX_URI"] = env
