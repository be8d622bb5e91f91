"""Launch steps converted with their layout (issue 35): the per-node layout as a node
count, options given by shell words carried as words, launchers held in variables, escaped
variables in here-documents, a half-migrated script's own size, and a line left as it is
left whole. The running proof is the Flux tier's; these hold the text.

Regression cases: convert-per-node-layout-slurm, convert-per-node-layout-pbs,
convert-per-node-layout-aprun, convert-per-node-layout-lsf-npernode,
convert-steps-fit-allocation-frontier, convert-launch-var-twice-slurm,
convert-launch-var-twice-lsf, convert-launch-var-equals-form, convert-launcher-in-variable,
convert-launch-options-given-by-variables, convert-flux-input-srun-keeps-cores,
convert-tasks-folded-into-slot-warned, convert-escaped-variable-in-heredoc."""

from __future__ import annotations

import pytest

from jobspec_lsp.migrate import convert


def _run_lines(text: str, source: str = "auto") -> list[str]:
    out = convert.convert(text, source).text
    return [ln for ln in out.splitlines() if "flux run" in ln]


@pytest.mark.parametrize(
    ("head", "line", "want"),
    [
        ("#SBATCH -N 2 -n 4", "srun -n 2 --ntasks-per-node=1 ./a", "flux run -N2 -n2 ./a"),
        ("#SBATCH -N 2 -n 4", "srun -N 2 -n 2 ./a", "flux run -N2 -n2 ./a"),
        ("#SBATCH -N 2 -n 4", "mpirun -np 2 --ppn 1 ./a", "flux run -N2 -n2 ./a"),
        ("#PBS -l nodes=2:ppn=2", "mpiexec -n 2 --ppn 1 ./a", "flux run -N2 -n2 ./a"),
        ("#PBS -l nodes=2:ppn=2", "aprun -n 2 -N 1 ./a", "flux run -N2 -n2 ./a"),
        ("#PBS -l nodes=2:ppn=2", "mpirun -np 2 -npernode 1 ./a", "flux run -N2 -n2 ./a"),
        ("#PBS -l nodes=2:ppn=2", "mpirun --map-by ppr:1:node -np 2 ./a", "flux run -N2 -n2 ./a"),
        ("#PBS -l nodes=4:ppn=32", "aprun -n 32 -N 8 ./a", "flux run -N4 -n32 ./a"),
        ("#BSUB -n 64", "mpirun -np 32 -npernode 16 ./a", "flux run -N2 -n32 ./a"),
        ("#SBATCH -N 4 -n 8", "mpirun -np 8 -N 2 ./a", "flux run -N4 -n8 ./a"),  # Open MPI 5
        ("#SBATCH -N 3 -n 3", "srun -N 3 -n 1 ./a", "flux run -N1 -n1 ./a"),  # nodes lowered
    ],
)
def test_the_per_node_layout_is_a_node_count(head, line, want):
    assert _run_lines(f"#!/bin/bash\n{head}\n{line}\n") == [want]


def test_shell_words_are_carried_with_arithmetic():
    text = (
        "#!/bin/bash\n#PBS -l select=2:ncpus=64:mpiprocs=4\nNT=8\nPPN=4\nD=16\n"
        "mpiexec -n ${NT} --ppn ${PPN} --depth=${D} --cpu-bind depth ./hello\n"
    )
    assert _run_lines(text) == [
        "flux run -N $(( (${NT} + ${PPN} - 1) / ${PPN} )) -n ${NT} -c ${D} ./hello"
    ]


@pytest.mark.parametrize(
    "line",
    ["srun --ntasks=$SLURM_NTASKS ./a", "srun -n$SLURM_NTASKS ./a", "srun -n ${SLURM_NTASKS} ./a"],
)
def test_a_schedulers_figure_in_any_form_is_its_value(line):
    text = f"#!/bin/bash\n#SBATCH -n 4\n{line}\n"
    (run,) = _run_lines(text)
    assert run == "flux run -n4 ./a"
    again = convert.convert(convert.convert(text).text, "slurm").text
    assert again == convert.convert(text).text


def test_a_launcher_held_in_a_variable_is_converted_inside_it():
    text = (
        "#!/bin/bash\n#PBS -l select=2:ncpus=64:mpiprocs=4\nNR=4\n"
        'COMMAND="mpiexec -n 8 --ppn ${NR} ./app"\necho "${COMMAND}"\n${COMMAND}\n'
        'JSRUN="jsrun -n 2 -a 4 -c 8"\n${JSRUN} ./warpx\n'
    )
    out = convert.convert(text).text
    assert 'COMMAND="flux run -N $(( (8 + ${NR} - 1) / ${NR} )) -n8 ./app"' in out
    assert 'JSRUN="flux run -n8 -c2"' in out and "mpiexec" not in out and "jsrun" not in out


def test_an_escaped_variable_in_a_here_document_stays_escaped():
    text = "#!/bin/bash\n#SBATCH -n 4\ncat > r.sh <<EOF\nmpirun -np \\$SLURM_NTASKS ./a\nEOF\n"
    once = convert.convert(text).text
    assert "flux run -n \\$SLURM_NTASKS ./a" in once
    assert convert.convert(once, "slurm").text == once


def test_a_half_migrated_scripts_own_size_reaches_its_steps():
    text = "#!/bin/bash\n#flux: -N 2 -n 2 -c 8 -g 1\nsrun --cpus-per-task=8 ./app\nsrun ./b\n"
    assert _run_lines(text, "slurm") == [
        "flux run -N2 -n2 -g1 -c8 ./app",
        "flux run -N2 -n2 -c8 -g1 ./b",
    ]


def test_a_line_left_as_it_is_is_left_whole():
    text = "#!/bin/bash\n#SBATCH -n 4\nsrun --multi-prog --ntasks=$SLURM_NTASKS conf\n"
    out = convert.convert(text).text
    assert "srun --multi-prog --ntasks=$SLURM_NTASKS conf" in out


def test_a_node_count_alone_gets_whole_nodes_so_every_step_fits():
    from jobspec_lsp.script import batch

    text = "#!/bin/bash\n#SBATCH -N 8\nsrun -N8 -n64 -c7 --gpus-per-task=1 ./app\n"
    out = convert.convert(text).text
    assert "#flux: -N 8 -n 8 -x" in out and "flux run -N8 -n64 -c7 -g1 ./app" in out
    assert not [d for d in batch.check_script(out) if d.code in ("JS587", "JS588")]


def test_tasks_folded_into_one_slot_a_node_are_warned():
    """8 tasks sharing 2 GPUs on a node: one slot per node, said at the option (JS599)."""
    from jobspec_lsp.script import sbatch

    text = "#!/bin/bash\n#SBATCH -N 1\n#SBATCH -n 8\n#SBATCH --gres=gpu:2\nsrun ./app\n"
    assert "#flux: -N 1 -n 1 -c 8 -g 2" in convert.convert(text).text
    (d,) = [d for d in sbatch.diagnostics(text) if d.code == "JS599"]
    assert (
        text[d.start : d.end] == "--gres=gpu:2" and "8 tasks a node share its 2 GPUs" in d.message
    )
