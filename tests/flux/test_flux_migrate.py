"""Every Slurm, LSF and PBS script of tests/data/migration, converted by the migration
engine, is accepted by real `flux batch --dry-run`, with the node count and task slots the
engine said it would write."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from migration_cases import CASES
from sbatch_cases import resources

from jobspec_lsp.migrate import convert

DATA = Path(__file__).resolve().parent.parent / "data" / "migration"
SCRIPTS = sorted(p for d in ("slurm", "lsf", "pbs") for p in (DATA / d).glob("*.sh"))


@pytest.mark.flux
@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_flux_accepts_the_converted_script(flux_exe, tmp_path, path):
    conv = convert.convert(path.read_text(errors="surrogateescape"))
    if conv.refused:  # the refusals this corpus holds: said, and nothing written
        assert "heterogeneous" in conv.refused or "directives of lsf and pbs" in conv.refused
        assert conv.text == path.read_text(errors="surrogateescape")
        return
    job = tmp_path / "job.sh"
    job.write_text(conv.text, errors="surrogateescape")
    dry = subprocess.run(
        [flux_exe, "batch", "--dry-run", str(job)], capture_output=True, text=True, cwd=tmp_path
    )
    assert dry.returncode == 0, dry.stderr
    res = json.loads(dry.stdout)["resources"][0]
    sh = conv.shape
    assert sh is not None
    if sh.nodes:
        assert (res["type"], res["count"]) == ("node", sh.nodes)


@pytest.mark.flux
@pytest.mark.parametrize("scheduler,block,_flux,want,_ref", CASES)
def test_each_lsf_and_pbs_case_builds_the_resources_its_reference_asks(
    flux_exe, tmp_path, scheduler, block, _flux, want, _ref
):
    conv = convert.convert("#!/bin/bash\n" + block + "\nhostname\n")
    job = tmp_path / "job.sh"
    job.write_text(conv.text)
    dry = subprocess.run(
        [flux_exe, "batch", "--dry-run", str(job)], capture_output=True, text=True, cwd=tmp_path
    )
    assert dry.returncode == 0, dry.stderr
    assert resources(json.loads(dry.stdout)) == want


@pytest.mark.flux
def test_the_flux_facts_the_conversion_stands_on(flux_exe, tmp_path):
    """docs/migration.md: flux batch has no --cc (arrays stay a note), and Flux stops
    reading directives at a line that does not start with '#' (an indented comment among
    them would orphan the rest: the conversion un-indents it, and Flux accepts the result)."""

    def dry(text: str, *args: str) -> subprocess.CompletedProcess:
        job = tmp_path / "job.sh"
        job.write_text(text)
        return subprocess.run(
            [flux_exe, "batch", "--dry-run", *args, str(job)],
            capture_output=True,
            text=True,
            cwd=tmp_path,
        )

    no_cc = dry("#!/bin/sh\n#flux: -n1\nhostname\n", "--cc=1-2")
    assert no_cc.returncode != 0 and "--cc" in no_cc.stderr
    orphan = dry("#!/bin/sh\n#flux: -n1\n  # memory\n#flux: -t 5m\nhostname\n")
    assert orphan.returncode != 0 and "orphan" in orphan.stderr
    pbs = "#!/bin/sh\n#PBS -l nodes=1\n  # memory\n#PBS -l walltime=5:00\nhostname\n"
    converted = convert.convert(pbs).text
    assert "\n# memory\n" in converted
    ok = dry(converted)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["attributes"]["system"]["duration"] == 300


def _dry(flux_exe: str, tmp_path: Path, text: str) -> subprocess.CompletedProcess:
    job = tmp_path / "job.sh"
    job.write_bytes(text.encode())
    return subprocess.run(
        [flux_exe, "batch", "--dry-run", str(job)], capture_output=True, text=True, cwd=tmp_path
    )


@pytest.mark.flux
@pytest.mark.parametrize("eol", ["\n", "\r\n"])
def test_the_lines_the_conversion_inserts_reach_flux(flux_exe, tmp_path, eol):
    """convert-crlf-env-reaches-flux, convert-insert-at-eof-without-newline: a CRLF script's
    inserted --env line, and a size inserted after a last line without a newline, are read
    by flux batch."""
    text = eol.join(["#!/bin/bash", "#SBATCH -n 2", "cd $SLURM_SUBMIT_DIR", ""])
    dry = _dry(flux_exe, tmp_path, convert.convert(text).text)
    assert dry.returncode == 0, dry.stderr
    assert "SUBMIT_DIR" in json.loads(dry.stdout)["attributes"]["system"]["environment"]
    bare = convert.convert("#!/bin/bash", "slurm").text
    dry = _dry(flux_exe, tmp_path, bare)
    assert dry.returncode == 0, dry.stderr


_VALUES = [
    "#SBATCH -t9999999999999999999999999",  # convert-huge-time-flux-accepts
    "#SBATCH -n 1 --signal=0@60",  # convert-invalid-signal-refused
    "#SBATCH -n 1 --signal=B:usr1@",
    "#SBATCH -N 1\n#SBATCH --nodelist=",  # convert-empty-nodelist-flux-accepts
    "#SBATCH -n 1\n#SBATCH --dependency=afterok:123_4",  # ...-foreign-job-id-slurm-array
    "#PBS -l select=1:ncpus=8\n#PBS -W depend=afterok:5678.pbsserver",  # ...-id-pbs
    "#BSUB -n 1 -W 99999999999999:0",
    "#BSUB -n 1 -w 'done(1234[5])'",
    "#SBATCH --nodes=3\n#SBATCH -n 1 -c 4",  # convert-nodes-above-tasks
    "#SBATCH -n 1 --begin=now+1hour",  # convert-begin-now-plus
    "#BSUB -nnodes 2\n#BSUB -G guests\n#BSUB -J sweep[1-8]",  # ...-llnl-bank-and-array-name
]


@pytest.mark.flux
@pytest.mark.parametrize("block", _VALUES)
def test_a_converted_script_holds_nothing_flux_refuses(flux_exe, tmp_path, block):
    """Whatever the conversion writes (a line sbatch refuses is left as it is, and says
    so), flux batch takes the script."""
    conv = convert.convert("#!/bin/bash\n" + block + "\nhostname\n")
    assert not conv.refused
    dry = _dry(flux_exe, tmp_path, conv.text)
    assert dry.returncode == 0, dry.stderr


@pytest.mark.flux
def test_gpus_of_tasks_uneven_over_the_nodes_reach_flux(flux_exe, tmp_path):
    """convert-gpus-per-task-uneven-keeps-gpus: each node's slot holds its tasks' GPUs."""
    text = "#!/bin/bash\n#SBATCH --gpus-per-task=1\n#SBATCH -n6\n#SBATCH --nodes=4\nsrun ./a\n"
    dry = _dry(flux_exe, tmp_path, convert.convert(text).text)
    assert dry.returncode == 0, dry.stderr
    (node,) = json.loads(dry.stdout)["resources"]
    (slot,) = node["with"]
    assert node["count"] == 4 and slot["count"] == 1
    assert {r["type"]: r["count"] for r in slot["with"]} == {"core": 2, "gpu": 2}


@pytest.mark.flux
@pytest.mark.parametrize(
    "block,name",
    [
        ("#PBS -l select=1:ncpus=2\n#PBS -v X=${UNSET_IN_SUBMITTER},Y=plain", "X"),
        ("#SBATCH -n 1\n#SBATCH --export=X=$UNSET_IN_SUBMITTER", "X"),
        ('#BSUB -n 1\n#BSUB -env "X=${UNSET_IN_SUBMITTER}"', "X"),
    ],
)
def test_a_directive_environment_value_reaches_the_job_as_written(flux_exe, tmp_path, block, name):
    """qsub -v, sbatch --export and bsub -env take VAR=VALUE literally; Flux's --env expands
    `$NAME` and refused the 9 corpus scripts whose value held one the submitter lacks."""
    conv = convert.convert("#!/bin/bash\n" + block + "\nhostname\n")
    dry = _dry(flux_exe, tmp_path, conv.text)
    assert dry.returncode == 0, dry.stderr
    env = json.loads(dry.stdout)["attributes"]["system"]["environment"]
    assert env[name].endswith("UNSET_IN_SUBMITTER}") or env[name] == "$UNSET_IN_SUBMITTER"


@pytest.mark.flux
def test_flux_starts_no_container_so_a_pyxis_step_runs_apptainer(flux_exe, tmp_path):
    """migrate/pyxis.py's warning ("Flux starts none"): real Flux has no container option
    of its own (`flux submit --container-image` is refused, no option of `flux run --help`
    names one), and the converted Pyxis step, Apptainer run in each task, is a script real
    Flux accepts."""
    refused = subprocess.run(
        [flux_exe, "submit", "--dry-run", "--container-image=u:1", "hostname"],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert refused.returncode != 0 and "unrecognized arguments" in refused.stderr
    helped = subprocess.run([flux_exe, "run", "--help"], capture_output=True, text=True)
    assert "--" in helped.stdout and "container" not in helped.stdout.lower()
    script = "#!/bin/bash\n#SBATCH -N 2 --ntasks-per-node=2\nsrun --container-image=u:1 ./a\n"
    converted = convert.convert(script).text
    assert "flux run -N2 -n4 apptainer exec docker://u:1 ./a" in converted
    ok = _dry(flux_exe, tmp_path, converted)
    assert ok.returncode == 0, ok.stderr
