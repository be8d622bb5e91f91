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
    that takes one consumes it; sbatch then finds no script on stdin)."""
    proc = subprocess.run(
        ["sbatch", name, "--version"],
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
