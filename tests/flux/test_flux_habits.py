"""Slurm habits inside Flux scripts (issue 39), held to real Flux: the scripts `jobspec
check --fix --unsafe-fixes` makes of renamed Slurm scripts (`#SBATCH` -> `#flux:`), of a
file of bare options, and of the corpus sample, are accepted by `flux batch --dry-run`,
with the job the conversion writes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from test_batch import _script_fixes  # the fixes as the editor offers them
from test_habits import BRIEF, SCRIPTS, fix, renamed

from jobspec_lsp.migrate import convert
from jobspec_lsp.text.edits import apply

HANDPICKED = {
    "brief": BRIEF,
    "shape": "#!/bin/bash\n#flux: -J x\n#flux: -N 2\n#flux: -c 4\n#flux: --ntasks-per-node=8\nhostname\n",
    "values": (
        "#!/bin/bash\n#flux: --time=2-00:00:00 -p debug -A proj\n#flux: --out=o.%x.%j\n"
        "#flux: -C 'a&b' --exclusive -N 1\n#flux: --mail-type=ALL --mem=0\nhostname\n"
    ),
    "ambiguous": "#!/bin/bash\n#flux: -n 4 --mem=4G\n#flux: -o out.%j\n#flux: -q normal\nhostname\n",
    "sentinels": "#!/bin/bash\n#flux: -n 2\n##flux: -N 9\n# #flux: --mem=1G\n# flux: -c 2\nhostname\n",
    "bare file": "--nodes=2\n--ntasks-per-node=4\n-J sim\n-t 1:00:00\n",
    "dropped words": "#!/bin/sh\n#flux: -N1 --job-name=my job\n#flux: --output\n#flux: out.txt\nhostname\n",
}


def _dry_run(flux_exe: str, tmp_path: Path, text: str) -> subprocess.CompletedProcess:
    job = tmp_path / "job.sh"
    job.write_text(text)
    return subprocess.run(
        [flux_exe, "batch", "--dry-run", str(job)], capture_output=True, text=True, cwd=tmp_path
    )


@pytest.mark.flux
@pytest.mark.parametrize("name", list(HANDPICKED))
def test_flux_accepts_the_fixed_scripts(flux_exe, tmp_path, name):
    text = HANDPICKED[name]
    before = _dry_run(flux_exe, tmp_path, text)
    assert before.returncode != 0  # each was refused
    fixed, _ = fix(text)
    after = _dry_run(flux_exe, tmp_path, fixed)
    assert after.returncode == 0, (fixed, after.stderr)


@pytest.mark.flux
def test_flux_builds_the_conversions_job_for_the_briefs_script(flux_exe, tmp_path):
    fixed, _ = fix(BRIEF)
    got = json.loads(_dry_run(flux_exe, tmp_path, fixed).stdout)
    conv = convert.convert(BRIEF.replace("#flux:", "#SBATCH"), "slurm").text
    want = json.loads(_dry_run(flux_exe, tmp_path, conv).stdout)
    for js in (got, want):
        del js["attributes"]["system"]["files"]
        del js["attributes"]["system"]["environment"]
        js["attributes"]["system"]["shell"]["options"]["output"].pop("stdout")  # a default
    assert got == want


@pytest.mark.flux
@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_flux_accepts_every_renamed_corpus_script_once_fixed(flux_exe, tmp_path, path, request):
    """Before issue 39: 0 of the 40; now all 40 (the template, BEYOND, with one slot
    asked for by JS580's fix: accepted, though not the job the conversion writes)."""
    text = renamed(path.read_text())
    fixed, _ = fix(text)
    dry = _dry_run(flux_exe, tmp_path, fixed)
    assert dry.returncode == 0, (fixed, dry.stderr)


_LATE = "#!/bin/bash\n#flux: -N 2\n#flux: -t 1h\nhostname\n#flux: -q debug\nflux run -n2 hostname\n"


@pytest.mark.flux
def test_flux_reads_the_size_and_late_directive_fixes_as_they_say(flux_exe, tmp_path):
    """JS580's `-n 1` is one slot to real Flux; JS563's two fixes: the late line moved up is
    read (its queue reaches the jobspec), made `# not read: #flux: ...` it is not read and
    no longer an orphan Flux refuses."""
    assert _dry_run(flux_exe, tmp_path, _LATE).returncode != 0  # orphan 'flux:' detected
    up, off = _script_fixes(_LATE, "JS563")
    moved = apply(_LATE, [(e.start, e.end, e.text) for e in up.edits])
    got = _dry_run(flux_exe, tmp_path, moved)
    assert got.returncode == 0, got.stderr
    assert json.loads(got.stdout)["attributes"]["system"]["queue"] == "debug"
    comment = apply(_LATE, [(e.start, e.end, e.text) for e in off.edits])
    got = _dry_run(flux_exe, tmp_path, comment)
    assert got.returncode == 0, got.stderr
    assert "queue" not in json.loads(got.stdout)["attributes"]["system"]
    unsized = "#!/bin/bash\n#flux: --job-name=x\nflux run hostname\n"
    assert _dry_run(flux_exe, tmp_path, unsized).returncode != 0  # no size
    (size,) = _script_fixes(unsized, "JS580")
    fixed = apply(unsized, [(e.start, e.end, e.text) for e in size.edits])
    got = _dry_run(flux_exe, tmp_path, fixed)
    assert got.returncode == 0, got.stderr
    assert json.loads(got.stdout)["resources"][0] == {
        "type": "slot", "count": 1, "with": [{"type": "core", "count": 1}], "label": "task"
    }  # fmt: skip
