"""Proven by running (issue 35): converted launch lines lay their tasks out as the original
launcher's documentation says.

One ``flux start --test-size=4`` instance shaped like a source cluster (4 nodes of 8 cores
and 2 GPUs, an R given with ``[resource] noverify``) runs every script of
tests/layout_cases.py as ``jobspec convert`` writes it, all submitted at once with
``flux batch``. Every step's program is the probe (tests/layoutside.py). Each step must
start (no "unsatisfiable", not left waiting, exit 0) and have the layout its rule gives:
the tasks on each node, cores and GPUs per task.
"""

from __future__ import annotations

import re

import pytest
from layout_cases import APPTAINER_IMAGE, scripts
from layoutside import (
    Instance,
    conversion_notes,
    converted_line,
    flux_layout,
    prepare,
    run_flux,
)

SCRIPTS = scripts()
# the job shell cannot bind to the cores R gives (this machine has fewer): said, not a fault
_NOISE = re.compile(r"cpu-affinity|vm: adjusted cores")


@pytest.fixture(scope="module")
def layout_runs(flux_exe, tmp_path_factory):
    """What every step of every script got under Flux, run once for the module."""
    inst = Instance(flux_exe)
    try:
        dirs = prepare(SCRIPTS, tmp_path_factory.mktemp("layouts"))
        results = run_flux(flux_exe, inst.flux.env, dirs)
    finally:
        inst.close()
    return dirs, results


def _problems(script, d, result) -> list[str]:
    out = []
    if "error" in result:
        out.append(result["error"])
    for step in script.steps:
        rule = step.rule
        got = result.get("steps", {}).get(step.label)
        head = f"{step.label} [{rule.key}, {step.form}, job {script.alloc}] {rule.line!r}"
        said = f"converted: {converted_line(d, step.label)!r} ({'; '.join(conversion_notes(d, step.label))})"
        if got is None or not got.started:
            log = [line for line in result.get("log", "").splitlines() if not _NOISE.search(line)]
            why = "refused as unsatisfiable" if any("unsatisfiable" in x for x in log) else ""
            out.append(f"{head}: did not start {why}; {said}; job log: {' | '.join(log[-6:])}")
            continue
        if got.status not in (0, None):
            out.append(f"{head}: exit {got.status}; {said}")
        boxes = {r.get("container") for r in got.reports}
        if boxes != {APPTAINER_IMAGE if step.form == "pyxis" else ""}:  # (the stand-in's)
            out.append(f"{head}: its tasks ran in the containers {boxes}; {said}")
        layout = flux_layout(got)
        if rule.flux is not None:  # no Flux form: the even spread, said at the line
            notes = " ".join(conversion_notes(d, step.label))
            # counts the shell gives ("vars"): unknown when converting, so nothing to say
            known = step.form != "vars"
            if layout != rule.flux or (known and "Flux spreads" not in notes):
                out.append(f"{head}: no Flux form, so {rule.flux} with a note was expected; "
                           f"Flux gave {layout}; {said}")  # fmt: skip
        elif layout != rule.layout:
            out.append(f"{head}: the documentation gives {rule.layout}; Flux gave {layout}; {said}")
    return out


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
def test_converted_steps_start_and_keep_their_layout(layout_runs, script):
    dirs, results = layout_runs
    problems = _problems(script, dirs[script.name], results[script.name])
    assert not problems, "\n".join(problems)
