"""The real-Slurm tier: what Slurm itself reads from a batch script (slurmside.py).

Needs the test cluster of ``../shared/slurm/setup.sh`` (slurmctld answering, partition
``pbatch`` of fake nodes, ``debug`` of this machine). Without it every test here is
skipped with one line of reason, unless ``JOBSPEC_REQUIRE_SLURM=1``, where a missing
Slurm is a failure. Every test in this folder carries the ``slurm`` marker.

``flux_exe`` (and ``flux``, one ``flux start --test-size=1`` instance) are the Flux tier's
own fixtures (tests/flux/conftest.py), loaded under another module name: the same search
for flux (``$JOBSPEC_FLUX``, the PATH, /opt/flux-core), the same skip, or failure under
``JOBSPEC_REQUIRE_FLUX=1``.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SETUP_HINT = "start it with ../shared/slurm/setup.sh"


def _load_flux_tier():
    path = HERE.parent / "flux" / "conftest.py"
    spec = importlib.util.spec_from_file_location("jobspec_flux_tier_conftest", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_flux_tier = _load_flux_tier()
flux_command = _flux_tier.flux_command
Flux = _flux_tier.Flux
flux_exe = _flux_tier.flux_exe  # the fixture itself: defined here, so it serves this folder
flux = _flux_tier.flux


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "slurm: needs a real Slurm (../shared/slurm/setup.sh); skipped without one",
    )


def pytest_collection_modifyitems(config, items):
    for item in items:
        if HERE in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.slurm)


@dataclass(frozen=True)
class Slurm:
    """The cluster as found: sbatch --version and the partitions sinfo lists."""

    version: str
    partitions: tuple[str, ...]


def slurm_problem() -> str | None:
    """Why the Slurm tier cannot run here (None: it can)."""
    for tool in ("sbatch", "scontrol", "scancel", "sinfo"):
        if shutil.which(tool) is None:
            return f"no Slurm ({tool} not found): {SETUP_HINT}"
    try:
        ping = subprocess.run(["scontrol", "ping"], capture_output=True, text=True, timeout=15)
        parts = subprocess.run(
            ["sinfo", "-h", "-o", "%R"], capture_output=True, text=True, timeout=15
        )
    except (OSError, subprocess.TimeoutExpired) as err:
        return f"no Slurm controller ({err}): {SETUP_HINT}"
    if ping.returncode != 0 or " is UP" not in ping.stdout:
        said = (ping.stdout + ping.stderr).strip().splitlines()[:1]
        return f"Slurm controller not answering ({' '.join(said)}): {SETUP_HINT}"
    names = parts.stdout.split()
    missing = [p for p in ("pbatch", "debug") if p not in names]
    if missing:
        return f"Slurm without partition {', '.join(missing)} (not the test cluster): {SETUP_HINT}"
    return None


@pytest.fixture(scope="session")
def slurm() -> Slurm:
    problem = slurm_problem()
    if problem:
        if os.environ.get("JOBSPEC_REQUIRE_SLURM") == "1":
            pytest.fail(problem + " (JOBSPEC_REQUIRE_SLURM=1: the tier must run)")
        pytest.skip(problem)
    version = subprocess.run(["sbatch", "--version"], capture_output=True, text=True).stdout
    names = subprocess.run(["sinfo", "-h", "-o", "%R"], capture_output=True, text=True).stdout
    return Slurm(version.strip(), tuple(names.split()))
