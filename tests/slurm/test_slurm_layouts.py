"""The launch-layout scripts that fit one node (tests/layout_cases.py: allocations marked
``one_node``), run as written under real Slurm (partition ``debug``: this machine) and,
converted, under a 4-broker Flux instance shaped like the source cluster (as in
tests/flux/test_flux_layouts.py): every srun step has the task count and cores per task its
rule gives, under both.

Slurm runs them with ``SLURM_EXACT=1`` (srun --exact: a step holds only the CPUs it asks
for, so the probe reads the step's CPUs over its tasks as its cores per task). A rule that
real Slurm follows only from a later release (``slurm_since``: srun reads the job's
SLURM_CPUS_PER_TASK again from 23.11; 22.05 and 23.02 do not) is held under an older Slurm
to its task count alone, and what that Slurm gave is printed.
"""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from layout_cases import ALLOCS, scripts
from layoutside import (
    Instance,
    converted_line,
    flux_layout,
    prepare,
    run_flux,
    run_slurm,
    slurm_layout,
    slurm_version,
)

ONE_NODE = [
    s for s in scripts() if ALLOCS[s.alloc].one_node and ALLOCS[s.alloc].scheduler == "slurm"
]


@pytest.fixture(scope="module")
def both_runs(slurm, flux_exe, tmp_path_factory):
    """Each one-node script run under Slurm (as written) and under Flux (converted)."""
    top = tmp_path_factory.mktemp("layouts-slurm")
    slurm_dirs = prepare(ONE_NODE, top / "slurm")
    flux_dirs = prepare(ONE_NODE, top / "flux")
    with ThreadPoolExecutor(1) as pool:  # Slurm runs its jobs meanwhile
        under_slurm = pool.submit(run_slurm, slurm_dirs)
        inst = Instance(flux_exe)
        try:
            flux = run_flux(flux_exe, inst.flux.env, flux_dirs)
        finally:
            inst.close()
        return under_slurm.result(), flux, flux_dirs, slurm_version()


def _release(text: str) -> tuple[int, int]:
    major, _, minor = text.partition(".")
    return int(major), int(minor)


@pytest.mark.parametrize("script", ONE_NODE, ids=[s.name for s in ONE_NODE])
def test_slurm_and_flux_runs_agree(both_runs, script):
    slurm_runs, flux_runs, flux_dirs, version = both_runs
    under_slurm, under_flux = slurm_runs[script.name], flux_runs[script.name]
    assert "error" not in under_slurm, under_slurm
    problems = []
    for step in script.steps:
        rule = step.rule
        if step.form == "pyxis":  # no Pyxis (nor enroot) in this Slurm: its plain form is run
            continue
        head = f"{step.label} [{rule.key}, {step.form}] {rule.line!r}"
        documented = (rule.layout.tasks, rule.layout.cores)
        s_step = under_slurm["steps"].get(step.label)
        if s_step is None or not s_step.started:
            problems.append(f"{head}: did not start under Slurm: {under_slurm.get('log')}")
            continue
        s_got = slurm_layout(s_step)
        assert not isinstance(s_got, str), f"{head}: {s_got}"
        older = bool(rule.slurm_since) and version < _release(rule.slurm_since)
        if older:
            print(
                f"{script.name} {head}: Slurm {version[0]}.{version[1]:02d} gave {s_got[1]} cores "
                f"a task; srun(1) from {rule.slurm_since} gives {rule.layout.cores}",
                file=sys.stderr,
            )
        if (s_got[0] if older else s_got) != (documented[0] if older else documented):
            problems.append(f"{head}: Slurm gave (tasks, cores per task) {s_got}, "
                            f"its documentation {documented}")  # fmt: skip
        f_step = under_flux.get("steps", {}).get(step.label)
        said = converted_line(flux_dirs[script.name], step.label)
        if f_step is None or not f_step.started:
            problems.append(f"{head}: did not start under Flux; converted: {said!r}")
            continue
        f_got = flux_layout(f_step)
        f_pair = f_got if isinstance(f_got, str) else (f_got.tasks, f_got.cores)
        if f_pair != documented or (not older and f_pair != s_got):
            problems.append(f"{head}: Flux gave {f_pair}, Slurm {s_got}; converted: {said!r}")
    assert not problems, "\n".join(problems)
