"""The regression corpus of ../shared/regressions, replayed by its own replay.py against
the installed `jobspec` and real Flux: one test per case, so a case that breaks again
fails CI by name. Cases added to cases.json are picked up without an edit here.

Each case also has a test of the project's own, in its terms, where the defect was
(tests/test_regressions.py names them by case id)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from helpers import SHARED, jobspec_exe

REGRESSIONS = SHARED / "regressions"


def _cases() -> list[str]:
    try:
        return [c["id"] for c in json.loads((REGRESSIONS / "cases.json").read_text())]
    except (OSError, ValueError):
        return []


CASES = _cases()


@pytest.mark.flux
@pytest.mark.parametrize("case", CASES or ["<no corpus>"])
def test_regression_case_passes(case, flux_exe):
    if not CASES:
        reason = f"no regression corpus at {REGRESSIONS} (../shared beside the checkout)"
        if os.environ.get("JOBSPEC_REQUIRE_FLUX") == "1":
            pytest.fail(reason)
        pytest.skip(reason)
    proc = subprocess.run(
        [
            sys.executable,
            str(REGRESSIONS / "replay.py"),
            "--jobspec",
            jobspec_exe(),
            "--flux",
            flux_exe,
            "-k",
            case,
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    lines = proc.stdout.splitlines()
    mine = [i for i, line in enumerate(lines) if line.split(":")[0].split(" ")[-1] == case]
    assert mine, f"replay.py did not run {case}:\n{proc.stdout}\n{proc.stderr}"
    at = mine[0]
    verdict = lines[at]
    detail = "\n".join(lines[at : at + 2])
    assert verdict.startswith("PASS"), detail
