"""Slurm scripts converted by `jobspec convert --from sbatch`, against real Flux:
`flux batch --dry-run` accepts every converted script and builds the resources the
Slurm options asked for; what `jobspec new --from-batch` says of the converted
script is what Flux builds; and a converted script, its `$SLURM_JOB_ID` fixed,
runs in the instance with its output where `-o %j-%x` said."""

from __future__ import annotations

import json
import subprocess

import pytest
from helpers import run_cli
from sbatch_cases import CASES, resources

from jobspec_lsp.script import sbatch


def slurm_script(block: str) -> str:
    return "#!/bin/bash\n" + block + "\n\nsrun hostname\n"


def _begin_times(js: dict) -> list[float]:
    """The begin-time stamps, taken out of the jobspec (+FSD is computed when each tool
    runs, so those are compared apart)."""
    found = []
    for dep in js["attributes"]["system"].get("dependencies", []):
        if dep.get("scheme") == "begin-time":
            found.append(float(dep["value"]))
            dep["value"] = None
    return found


@pytest.mark.flux
@pytest.mark.parametrize("slurm,flux_block,want", CASES)
def test_converted_script_is_accepted_with_the_resources_asked_for(
    flux_exe, tmp_path, slurm, flux_block, want
):
    src = tmp_path / "slurm.sh"
    src.write_text(slurm_script(slurm))
    out = tmp_path / "job.sh"
    proc = run_cli("convert", "--from", "sbatch", src, "-o", out, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    dry = subprocess.run(
        [flux_exe, "batch", "--dry-run", out.name],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert dry.returncode == 0, dry.stderr
    js = json.loads(dry.stdout)
    assert resources(js) == want
    system = js["attributes"]["system"]
    system.pop("environment", None)  # copied from the submitter
    system["shell"]["options"].pop("rlimit", None)
    mine = run_cli("new", "--from-batch", out.name, "--format", "json", cwd=tmp_path)
    assert mine.returncode == 0, mine.stderr
    ours = json.loads(mine.stdout)
    theirs_at, ours_at = _begin_times(js), _begin_times(ours)
    assert ours == js
    if "begin-time=+" in flux_block:  # now + the offset, a few seconds apart
        assert len(ours_at) == len(theirs_at) == 1 and abs(ours_at[0] - theirs_at[0]) < 60
    else:
        assert ours_at == theirs_at


@pytest.mark.flux
def test_a_converted_script_runs_and_its_output_is_where_slurm_said(flux, tmp_path):
    text = (
        "#!/bin/bash\n"
        "#SBATCH --job-name=mig\n"
        "#SBATCH -o mig-%j-%x.out\n"
        "#SBATCH -t 5 --mem=1G\n"
        "\n"
        'echo "id=$SLURM_JOB_ID nodes=${SLURM_NNODES} hosts=$SLURM_JOB_NODELIST"\n'
        "flux run -n1 sh -c 'echo \"rank=$SLURM_PROCID local=$SLURM_LOCALID\"'\n"
    )
    conv = sbatch.convert_script(text)
    assert conv.text.splitlines()[1:4] == [
        "#flux: -n 1 --job-name=mig",
        "#flux: --output='mig-{{id}}-{{name}}.out'",
        "#flux: -t 5m",
    ]
    # the SLURM_* variables are written as Flux's by the conversion itself (the same
    # text the editor's fix of each writes): what a real job sees is what they meant
    out = conv.text
    assert [d for d in sbatch.diagnostics(out) if d.code == "JS595"] == []
    assert "SLURM_" not in out
    path = tmp_path / "job.sh"
    path.write_text(out)
    sub = subprocess.run(
        [flux.exe, "batch", path.name],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=flux.env,
        timeout=120,
    )
    assert sub.returncode == 0, sub.stderr
    jobid = sub.stdout.strip()
    done = flux.run("job", "wait-event", "-t", "120", jobid, "clean")
    assert done.returncode == 0, done.stderr
    written = tmp_path / f"mig-{jobid}-mig.out"
    assert written.exists(), sorted(p.name for p in tmp_path.iterdir())
    hosts = flux.run("hostlist", "instance").stdout.strip()
    assert hosts
    assert written.read_text().splitlines() == [
        f"id={jobid} nodes=1 hosts={hosts}",
        "rank=0 local=0",
    ]
