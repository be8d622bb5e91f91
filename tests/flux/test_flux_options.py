"""The option table is Flux's: scripts/flux_options.py asks Flux's own parsers again and
the result must equal the committed jobspec_lsp/fluxcli/flux_options.json (regenerate it
with `flux python scripts/flux_options.py jobspec_lsp/fluxcli/flux_options.json`)."""

from __future__ import annotations

import json
import subprocess
from importlib import resources

import pytest
from helpers import REPO


@pytest.mark.flux
def test_the_committed_option_table_is_what_flux_s_parsers_say(flux_exe):
    proc = subprocess.run(
        [flux_exe, "python", str(REPO / "scripts" / "flux_options.py")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    fresh = json.loads(proc.stdout)
    committed = json.loads(
        resources.files("jobspec_lsp").joinpath("fluxcli/flux_options.json").read_text("utf-8")
    )
    for version, commands in fresh["versions"].items():
        assert version in committed["versions"], f"Flux {version} is not in the table"
        assert committed["versions"][version] == commands, (
            "the option table drifted from Flux's parsers: regenerate it"
        )
