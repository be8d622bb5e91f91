"""Site profiles read as real Flux reads them: the merged configuration of each profile is
what `flux config get -c DIR` prints, and its node classes add up to what `flux R decode`
counts in the same R."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from jobspec_lsp.notations import formats
from jobspec_lsp.site import hostlists, profile

SITES = sorted((Path(__file__).resolve().parent.parent / "data" / "sites").iterdir())


def _flux(flux_exe: str, *args: str, stdin: str | None = None) -> str:
    got = subprocess.run([flux_exe, *args], input=stdin, capture_output=True, text=True, timeout=60)
    assert got.returncode == 0, got.stderr
    return got.stdout


@pytest.mark.flux
@pytest.mark.parametrize("site", SITES, ids=lambda p: p.name)
def test_the_profile_is_read_as_flux_reads_it(flux_exe, site):
    mine = profile.load(site)
    assert mine.config == json.loads(_flux(flux_exe, "config", "get", "-c", str(site)))
    r = Path(mine.r_path or "").read_text()
    cores = int(_flux(flux_exe, "R", "decode", "--count=core", stdin=r))
    gpus = int(_flux(flux_exe, "R", "decode", "--count=gpu", stdin=r))
    nodes = int(_flux(flux_exe, "R", "decode", "--count=node", stdin=r))
    assert sum(c.count * c.cores for c in mine.classes) == cores
    assert sum(c.count * c.gpus for c in mine.classes) == gpus
    assert mine.nodes == nodes
    hosts = _flux(flux_exe, "R", "decode", "--nodelist", stdin=r).strip()
    assert [h for c in mine.classes for h in hostlists.expand(c.hosts)] == hostlists.expand(hosts)
    ranks = [
        r
        for c in mine.classes
        for lo, hi in formats.parse_idset(c.ranks)
        for r in range(lo, hi + 1)
    ]
    assert sorted(ranks) == list(range(nodes))


@pytest.mark.flux
@pytest.mark.parametrize("ranges", ["0-1048575", "1-1048576", "0-1048576", "5-1048581"])
def test_the_hostlist_range_cap_is_fluxs(flux_exe, ranges):
    """formats.hostlist_range_problem refuses exactly the single ranges flux-core's own
    hostlist refuses ("Invalid hostlist": more than 2**20 hosts in one range)."""
    probe = (
        "import sys\nfrom flux.hostlist import Hostlist\n"
        "try:\n    Hostlist(sys.argv[1]); print('ok')\nexcept Exception as e: print('refused', e)\n"
    )
    got = subprocess.run(
        [flux_exe, "python", "-c", probe, f"n[{ranges}]"], capture_output=True, text=True
    )
    assert got.returncode == 0, got.stderr
    flux_refuses = got.stdout.startswith("refused")
    assert (formats.hostlist_range_problem(f"n[{ranges}]") is not None) == flux_refuses
