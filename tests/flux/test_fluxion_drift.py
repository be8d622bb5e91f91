"""Drift: `jobspec check --target fluxion` gives an error exactly when fluxion's own
reader (`flux-jobspec-validate`, beside the `flux` command) refuses the document, on
every jobspec fluxion_cases.py generates: each class of what the reader checks, one
value changed at a time. A fluxion whose reader changes what it takes fails here."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from fluxion_cases import cases
from helpers import REPO

from jobspec_lsp.diagnostics import Severity
from jobspec_lsp.rules.analysis import check


@pytest.fixture(scope="module")
def validate(flux_exe) -> Path:
    exe = Path(shutil.which(flux_exe) or flux_exe)
    found = exe.with_name("flux-jobspec-validate")
    if not found.exists():
        reason = f"fluxion's flux-jobspec-validate is not beside {exe}"
        if os.environ.get("JOBSPEC_REQUIRE_FLUX") == "1":
            pytest.fail(reason + " (JOBSPEC_REQUIRE_FLUX=1: the tier must run)")
        pytest.skip(reason)
    return found


def _fluxion(validate: Path, texts: list[str]) -> list[tuple[bool, str]]:
    """The reader's verdict on each JSON text: (accepted, its message)."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "jobspec.json"
        for text in texts:
            path.write_text(text)
            proc = subprocess.run([str(validate), str(path)], capture_output=True, text=True)
            out.append((proc.returncode == 0, proc.stderr.strip().rsplit(", ", 1)[-1]))
    return out


def test_fluxion_target_agrees_with_fluxion_reader(validate):
    generated = cases()
    real = _fluxion(validate, [text for _, text in generated])
    wrong = []
    for (name, text), (ok, said) in zip(generated, real):
        ours = [
            d
            for d in check(text, language="json", target="fluxion")
            if d.severity == Severity.ERROR
        ]
        if bool(ours) != ok:
            continue
        wrong.append(
            f"{name}: fluxion {'accepts' if ok else 'rejects: ' + said} | jobspec: "
            f"{[d.code + ' ' + d.message for d in ours] or 'clean'}"
        )
    refused = sum(not ok for ok, _ in real)
    assert refused >= 600 and len(generated) - refused >= 400, "the set covers both verdicts"
    assert not wrong, f"{len(wrong)} of {len(generated)} disagree:\n" + "\n".join(wrong)
    # docs/compatibility.md shows what this measured
    doc = (REPO / "docs" / "compatibility.md").read_text()
    figure = re.search(r"on (\d[\d,]*) generated jobspecs", doc)
    assert figure and int(figure.group(1).replace(",", "")) == len(generated), (
        f"docs/compatibility.md should say: on {len(generated):,} generated jobspecs"
    )
