"""The Slurm conversion on values and directive texts that real sbatch 22.05 reads otherwise
than a plain reading suggests: each script is submitted held (what Slurm understood, from
``scontrol show job``) and converted by `jobspec convert` (what real ``flux batch --dry-run``
builds from it); the two must agree, and where sbatch refuses the script the conversion
exits 1 and writes nothing Flux refuses.

Regression cases: convert-hash-ends-directive, convert-cluster-option-accepted."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from helpers import run_cli
from slurmside import SbatchRefused, flux_reading, slurm_reading


class Both:
    """One script as Slurm read it and as Flux reads its conversion."""

    def __init__(self, slurm: dict | None, refused: str, rc: int, out: str, err: str, flux):
        self.slurm = slurm  # None: sbatch refused the script (``refused`` says why)
        self.refused = refused
        self.rc = rc  # jobspec convert's exit status
        self.out = out  # the converted script
        self.err = err
        self.flux = flux  # flux_reading of the converted script, or flux batch's refusal


def both(tmp_path: Path, flux_exe: str, *lines: str) -> Both:
    src = tmp_path / "job.sh"
    src.write_text("#!/bin/bash\n" + "".join(f"{ln}\n" for ln in lines) + "hostname\n")
    try:
        (slurm,) = slurm_reading(src)
        refused = ""
    except SbatchRefused as err:
        slurm, refused = None, err.message
    out = tmp_path / "out" / "job.sh"
    out.parent.mkdir(exist_ok=True)
    proc = run_cli("convert", "-q", src, "-o", out, cwd=tmp_path)
    flux: dict | str = ""
    if out.exists():
        dry = subprocess.run(
            [flux_exe, "batch", "--dry-run", str(out)], capture_output=True, text=True, cwd=tmp_path
        )
        flux = flux_reading(json.loads(dry.stdout)) if dry.returncode == 0 else dry.stderr
    text = out.read_text() if out.exists() else ""
    return Both(slurm, refused, proc.returncode, text, proc.stderr.decode(), flux)


@pytest.mark.parametrize(
    "line",
    [
        "#SBATCH --job-name=1536#SBATCH -o out_%j.log",
        "#SBATCH --job-name=a#b -o x.log",
        '#SBATCH --job-name="a#b" -o x.log',
        "#SBATCH --job-name=a\\#b -o x.log",
        "#SBATCH --job-name=ab -n 2 # -n 3",
        "#SBATCH -J x -n2#-n3",
    ],
)
def test_the_words_of_a_directive_are_the_ones_sbatch_reads(slurm, flux_exe, tmp_path, line):
    """convert-hash-ends-directive: a '#' ends a directive inside a word too."""
    got = both(tmp_path, flux_exe, line)
    assert got.slurm is not None, got.refused
    assert isinstance(got.flux, dict), got.flux
    assert got.flux["name"] == got.slurm["name"]
    assert got.flux["slots"] == got.slurm["tasks"]
    assert got.flux["stdout"] == got.slurm["stdout"]


# ------------------------------------------------------------------- option names
_NOT_DIRECTIVES = {"--help", "--usage", "--version"}


def _sbatch_takes(name: str) -> bool:
    """Whether sbatch's getopt_long knows ``name`` (the value given is --version: an option
    that takes one consumes it; sbatch then finds no script on stdin, and --test-only keeps
    --wrap from submitting a job)."""
    proc = subprocess.run(
        ["sbatch", "--test-only", name, "--version"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
    )
    return "unrecognized option" not in proc.stderr and "is ambiguous" not in proc.stderr


def test_the_option_table_names_every_option_sbatch_takes(slurm):
    """convert-cluster-option-accepted: sbatch 22.05 takes --cluster (for --clusters); the
    table called it unknown (JS592). Every long option sbatch(1) names that sbatch takes is
    in the table, and every name in the table is one sbatch takes."""
    import gzip
    import re

    from jobspec_lsp.migrate import slurm as table

    page = Path("/usr/share/man/man1/sbatch.1.gz")
    if not page.exists():
        pytest.skip("no sbatch(1) manual page here")
    roff = gzip.decompress(page.read_bytes()).decode(errors="replace").replace("\\-", "-")
    named = set(re.findall(r"--[a-z][a-z0-9-]*[a-z0-9]", roff)) | {"--cluster"}
    ours = {n for n in table.TABLE if n.startswith("--")}
    prefixed = {
        n for n in named if len({o for o in table.OPTIONS for t in o.names if t.startswith(n)}) == 1
    }
    read = ours | prefixed  # as it is, or getopt_long's unambiguous prefix
    missing = sorted(n for n in named - read - _NOT_DIRECTIVES if _sbatch_takes(n))
    assert not missing
    assert not sorted(n for n in ours if not _sbatch_takes(n))


def test_the_cluster_alias_is_read_as_sbatch_reads_it(slurm, flux_exe, tmp_path):
    """convert-cluster-option-accepted: not an error; kept, with what Flux does instead."""
    got = both(tmp_path, flux_exe, "#SBATCH -n 1", "#SBATCH --cluster=c5")
    assert "no such cluster" in got.refused or "can't be reached" in got.refused  # c5: none here
    assert got.rc == 0 and "JS592" not in got.err and "JS591" in got.err
    assert isinstance(got.flux, dict), got.flux


# ---------------------------------------------------------- values, read as sbatch does
@pytest.mark.parametrize(
    "lines",
    [
        ("#SBATCH -n 1 --signal=0@60",),
        ("#SBATCH -n 1 --signal=SEGV",),
        ("#SBATCH -n 1 --signal=USR1@65536",),
        ("#SBATCH -n 1 --begin=now+1h",),
        ("#SBATCH -n 1 --dependency=afterok:abc",),
    ],
)
def test_what_sbatch_refuses_the_conversion_refuses(slurm, flux_exe, tmp_path, lines):
    """convert-invalid-signal-refused: exit 1 (JS592), the line left as it is, and nothing
    written that flux batch refuses."""
    got = both(tmp_path, flux_exe, *lines)
    assert got.slurm is None and got.refused
    assert got.rc == 1 and "JS592" in got.err
    assert isinstance(got.flux, dict), got.flux


@pytest.mark.parametrize(
    "lines,fields",
    [
        # convert-huge-time-flux-accepts: sbatch shows UNLIMITED; Flux: no limit either
        (("#SBATCH -n 1 -t 9999999999999999999999999",), ()),
        (("#SBATCH -n 1 -t 35791393",), ("time",)),  # 68 years: scontrol still shows it
        # convert-empty-nodelist-flux-accepts
        (("#SBATCH -n 1", "#SBATCH --nodelist="), ("nodelist",)),
        (("#SBATCH -n 1", "#SBATCH --exclude=", "#SBATCH --constraint="), ("nodelist",)),
        (("#SBATCH -n 1 --gpus=", "#SBATCH --account="), ("gpus",)),
        # convert-dependency-foreign-job-id-slurm-array: Slurm takes it, Flux cannot name it
        (("#SBATCH -n 1", "#SBATCH --dependency=afterok:123_4"), ()),
        # convert-nodes-above-tasks: "can't run 1 processes on 3 nodes, setting nnodes to 1"
        (("#SBATCH --nodes=3", "#SBATCH -n 1 -c 4", "#SBATCH --gpus-per-node=2"), ("nodes",)),
        (("#SBATCH -N 3-5 -n 2",), ("nodes",)),
        # convert-gpus-per-task-uneven-keeps-gpus
        (("#SBATCH --gpus-per-task=1", "#SBATCH -n6", "#SBATCH --nodes=4"), ("nodes", "gpus")),
        (("#SBATCH --gpus-per-task=1", "#SBATCH -n8", "#SBATCH --nodes=4"), ("nodes", "gpus")),
    ],
)
def test_what_sbatch_takes_flux_builds(slurm, flux_exe, tmp_path, lines, fields):
    got = both(tmp_path, flux_exe, *lines)
    assert got.slurm is not None, got.refused
    assert got.rc == 0 and "JS592" not in got.err
    s, f = got.slurm, got.flux
    assert isinstance(f, dict), f
    assert f["slots"] * (f["cores_per_slot"] or 1) >= s["tasks"] * (s["cpus_per_task"] or 1)
    if "time" in fields:
        assert f["duration"] == s["time_seconds"]
    else:
        assert f["duration"] == 0  # no limit written
    if "nodes" in fields:
        assert f["nodes"] == s["nodes_min"]
    if "nodelist" in fields:
        assert s["nodelist"] is None and f["constraints"] is None
    if "gpus" in fields:
        slurm_gpus = (s["gpus_per_task"] or 0) * s["tasks"] + (s["gpus_per_node"] or 0) * (
            s["nodes_min"] or 1
        )
        flux_gpus = (f["gpus_per_slot"] or 0) * f["slots"]
        assert flux_gpus >= slurm_gpus  # every task its GPUs (more where tasks are uneven)
        assert (flux_gpus == slurm_gpus) == (
            "more GPUs" not in got.err and "8 in all" not in got.err
        )
    assert not f["deps"]


def test_begin_now_plus_is_the_time_slurm_gives(slurm, flux_exe, tmp_path):
    """convert-begin-now-plus: sbatch(1)'s own `--begin=now+1hour` is Flux's +1h."""
    got = both(tmp_path, flux_exe, "#SBATCH -n 1 --begin=now+1hour")
    assert got.slurm is not None and isinstance(got.flux, dict)
    assert got.slurm["begin"] is not None and got.flux["begin"] is not None
    assert abs(got.flux["begin"] - got.slurm["begin"]) < 120  # both an hour from now
