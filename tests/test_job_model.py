"""The job model below script/ and migrate/ (issues 35, 36): one Step and one Allocation,
read from a Flux script's `flux run` lines and from other launchers' lines alike."""

from __future__ import annotations

import pytest

from jobspec_lsp.job.steps import Allocation, Step, need
from jobspec_lsp.migrate import launchers
from jobspec_lsp.script import steps as script_steps

FOUR_BY_EIGHT = Allocation(4, 32, 8, "4 nodes x 8 slots of 1 core")


@pytest.mark.parametrize(
    "step,want",
    [
        (Step(tasks=16), ("", 16, 0)),
        (Step(tasks=8, cores=4), ("", 32, 0)),
        (Step(nodes=2, tasks=16), (" on each node", 8, 0)),  # ceil(16 / 2) a node
        (Step(nodes=4, tasks=6, gpus=1), (" on each node", 2, 2)),  # 2, 2, 1, 1: the most
        (Step(nodes=2, per_node=8), (" on each node", 1, 0)),  # one slot a node, shared
    ],
)
def test_a_step_needs_what_flux_lays_out(step, want):
    got = need(step, FOUR_BY_EIGHT)
    assert got is not None and (got.where, got.cores, got.gpus) == want


def test_a_step_known_only_at_run_time_or_beyond_the_nodes_is_not_judged():
    assert need(Step(tasks="${NTASKS}"), FOUR_BY_EIGHT) is None
    assert need(Step(nodes=5, tasks=5), FOUR_BY_EIGHT) is None  # JS587's, not this one's
    assert need(Step(nodes=2), Allocation(2, None, None, "")) is None  # whole nodes


def test_the_flux_script_checks_and_the_migration_share_the_model():
    """A launcher's Run is the model's Step, and JS588 judges a flux run line by it."""
    assert issubclass(launchers.Run, Step)
    run = launchers.Run()
    assert (run.nodes, run.tasks, run.cores) == (None, None, None) and run.extra == []
    text = "#!/bin/sh\n#flux: -N2 -n8\nflux run -N2 -n16 ./a\n"
    (found,) = [d for d in script_steps.command_line_checks(text) if d.code == "JS588"]
    assert "8 cores on each node" in found.message and "allocate 4" in found.message
