"""The allocation sized for its largest step (issue 35, jobspec_lsp/migrate/fit.py): where a
converted `flux run` needs more cores or GPUs than the directives give, the slots grow, a
warning at the directives says which step asked it, and `jobspec check` of the converted
script finds no step beyond its allocation. The real-Flux tier runs such steps
(tests/layout_cases.py: the `slurm-2-n4` allocation)."""

from __future__ import annotations

import pytest

from jobspec_lsp.job.steps import Step
from jobspec_lsp.migrate import convert, fit
from jobspec_lsp.script import batch


def _conv(directives: str, body: str) -> convert.Conversion:
    return convert.convert(f"#!/bin/bash\n{directives}\n{body}\n", "slurm")


def _flux_line(conv: convert.Conversion) -> str:
    return next(ln for ln in conv.text.splitlines() if ln.startswith("#flux: -"))


def _sized(conv: convert.Conversion) -> list[str]:
    return [f.message for f in conv.findings if "sized for its largest step" in f.message]


@pytest.mark.parametrize(
    ("directives", "body", "want"),
    [
        # Cori KNL's habit (corpus: BouchardLab/distributed-UoI_VAR): 16 CPUs, 64 started
        ("#SBATCH -N 1\n#SBATCH -n 16", "srun -n 16 -c 4 ./a", "#flux: -N 1 -n 16 -c 4"),
        ("#SBATCH -N 2 -n 4", "srun -n 4 -c 2 ./a", "#flux: -N 2 -n 4 -c 2"),
        # per node: 2 tasks of 3 cores on each of 2 nodes, 2 slots a node
        ("#SBATCH -N 2 -n 4", "srun -N 2 -n 4 -c 3 ./a", "#flux: -N 2 -n 4 -c 3"),
        ("#SBATCH -N 2 -n 4", "srun -n 2 --gpus-per-task=1 ./a", "#flux: -N 2 -n 4 -g 1"),
        # GPUs asked, one task: a step of 4 tasks sharing them needs 4 cores
        ("#SBATCH --gres=gpu:2", "srun -n 4 ./a", "#flux: -N 1 -n 1 -c 4 -g 2"),
        # the largest of several steps, each fitting once grown
        ("#SBATCH -n 2", "srun -n 2 -c 2 ./a\nsrun -n 2 -c 6 ./b", "#flux: -n 2 -c 6"),
        # a count the script assigns, resolved for the fit and kept as a word
        ("#SBATCH -N 2 -n 4", "C=4\nsrun -c ${C} ./a", "#flux: -N 2 -n 4 -c 4"),
    ],
)
def test_an_allocation_too_small_for_a_step_is_sized_for_it(directives, body, want):
    conv = _conv(directives, body)
    assert _flux_line(conv).startswith(want), conv.text
    (said,) = _sized(conv)
    assert "where the directives give" in said and "line " in said
    # the converted script's steps fit its allocation: no JS587/JS588
    codes = [d.code for d in batch.check_script(conv.text)]
    assert "JS588" not in codes and "JS587" not in codes


@pytest.mark.parametrize(
    ("directives", "body"),
    [
        ("#SBATCH -N 2 -n 4", "srun -n 4 ./a"),  # fits
        ("#SBATCH -N 2 --exclusive", "srun -n 64 -c 4 ./a"),  # whole nodes: the site's
        ("#SBATCH -N 2 -n 4", "srun -n $N -c 8 ./a"),  # a count the shell gives
        ("#SBATCH -N 2 -n 4", "for C in 2 8; do srun -c $C ./a; done"),  # not one number
        ("#SBATCH -N 2 -n 4\n#flux: -N 2 -n 4", "srun -n 4 -c 4 ./a"),  # the user's #flux:
    ],
)
def test_an_allocation_is_left_as_the_directives_give_it(directives, body):
    conv = _conv(directives, body)
    assert not _sized(conv), conv.text


def test_a_step_read_back_from_the_options_written():
    step = fit.written_step(["-N2", "-n ${N}", "-c4", "-g1", "--tasks-per-node=2", "-u"])
    assert (step.nodes, step.tasks, step.cores, step.gpus, step.per_node) == (2, "${N}", 4, 1, 2)
    assert fit.written_step(["-n $N"], {"N": 8}).tasks == 8
    shared = fit.written_step(["-N2", "--cores=16", "--tasks-per-node=4", "--gpus-per-node=2"])
    assert (shared.nodes, shared.per_node, shared.cores, shared.gpus) == (2, 4, 8, 2)


def test_assigned_counts_are_those_given_one_number():
    text = "A=4\nexport B=2\nC=1\nC=2\nD=$X\nE='8'\nF=2\nfor F in 1 8; do :; done\n"
    text += "G=1\n((G++))\nH=3\nread H\n"
    end = fit.Assignments(text).before(len(text))
    got = {k: end.get(k) for k in "ABCDEFGH"}
    assert got == dict(A=4, B=2, C=None, D=None, E=8, F=None, G=None, H=None)
    assert fit.Assignments(text).before(3).get("A") == 4  # only before the step
    assert fit.Assignments(text).before(3).get("B") is None


def test_grown_keeps_nodes_and_slots():
    words, largest = fit.grown(["-N 2", "-n 4"], [Step(tasks=4, cores=2)])
    assert words == ["-N 2", "-n 4", "-c 2"] and largest is not None
    assert fit.grown(["-N 2", "-n 4", "-x"], [Step(tasks=64, cores=8)]) == (
        ["-N 2", "-n 4", "-x"],
        None,
    )


def test_sizing_twice_is_sizing_once():
    conv = _conv("#SBATCH -N 1\n#SBATCH -n 16", "srun -n 16 -c 4 ./a")
    again = convert.convert(conv.text, "slurm")
    assert again.text == conv.text


def test_a_name_assigned_again_is_known_until_its_value_changes():
    text = "N=4\nsrun -n $N ./a\nN=4\nsrun -n $N ./b\nN=8\nsrun -n $N ./c\n"
    table = fit.Assignments(text)
    at = [text.index(f"./{p}") for p in "abc"]
    assert [table.before(a).get("N") for a in at] == [4, 4, None]  # 4 then 8: not one
    assert table.before(0).get("N") is None and table.before(at[0]).get("M") is None
