"""The SLURM_* names the conversion treats as Slurm's are the ones the installed Slurm's
manual pages say it sets (sbatch(1), srun(1): OUTPUT ENVIRONMENT VARIABLES), and a batch
job really finds them: the shipped table (jobspec_lsp/migrate/slurm_variables.json,
written by scripts/slurm_variables.py) fails here when Slurm's differs."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import time

from helpers import REPO

from jobspec_lsp.migrate import slurm as slurm_table


def _derive():
    spec = importlib.util.spec_from_file_location(
        "slurm_variables", REPO / "scripts" / "slurm_variables.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.table()


def test_the_shipped_table_is_slurms_own(slurm):
    derived = _derive()
    shipped = json.loads((REPO / "jobspec_lsp" / "migrate" / "slurm_variables.json").read_text())
    assert derived["sbatch"] == shipped["sbatch"] and derived["srun"] == shipped["srun"], (
        "Slurm's manual pages changed: run scripts/slurm_variables.py --write"
    )


def test_a_batch_job_finds_what_the_table_says(slurm, tmp_path):
    """A real job's environment: every SLURM_* name in it (a batch script's and a step's)
    is one the table has; SLURM_CONF is not set by Slurm in a job."""
    out = tmp_path / "env.out"
    script = tmp_path / "env.sh"
    script.write_text("#!/bin/sh\nenv\nsrun -n1 env\n")
    sub = subprocess.run(
        ["sbatch", "-p", "debug", "-n1", "-o", str(out), "--parsable", str(script)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert sub.returncode == 0, sub.stderr
    jobid = sub.stdout.strip().split(";")[0]
    for _ in range(600):  # a bounded wait for the job to end, not a timing
        state = subprocess.run(
            ["squeue", "-h", "-j", jobid], capture_output=True, text=True, timeout=30
        ).stdout.strip()
        if not state and out.exists():
            break
        time.sleep(0.1)
    names = {
        line.split("=", 1)[0]
        for line in out.read_text().splitlines()
        if line.startswith("SLURM_") and "=" in line
    }
    assert names, out.read_text()
    # names Slurm sets in a job without listing them in OUTPUT ENVIRONMENT VARIABLES
    # (internal ones, read by its own tools) are the ones the table may miss: none of them
    # is a variable the conversion gives a Flux form
    unlisted = names - slurm_table.SETS
    assert not (unlisted & set(slurm_table.VARIABLES))
    assert {"SLURM_JOB_ID", "SLURM_NTASKS", "SLURM_SUBMIT_DIR"} <= names & slurm_table.SETS
