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

import shlex

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
    text = "#!/bin/bash\n#SBATCH -n 4\nsrun --het-group=0 --ntasks=$SLURM_NTASKS ./a\n"
    out = convert.convert(text).text
    assert "srun --het-group=0 --ntasks=$SLURM_NTASKS ./a" in out


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


# Classes of launch lines the corpus (converged-computing/jobspec-database, issue 35) held
# unconverted, non-idempotent or unsaid; one test a class (benchmarks/bench_corpus.py counts
# them).


def _said(text: str) -> list[str]:
    return [f.message for f in convert.convert(text).findings if f.kind == "launch"]


def _converted(text: str) -> list[str]:
    return [f.message for f in convert.convert(text).findings if f.kind == "command"]


@pytest.mark.parametrize(
    ("line", "want"),
    [
        ('srun --ntasks="${SLURM_JOB_NUM_NODES}" mkdir -p /t', "flux run -N2 -n2 mkdir -p /t"),
        ('srun -n "$SLURM_NTASKS" ./a', "flux run -N2 -n8 ./a"),
        ('srun "--ntasks=$SLURM_NTASKS" ./a', "flux run -N2 -n8 ./a"),
    ],
)
def test_a_quoted_figure_is_its_value(line, want):
    """NVIDIA's MLPerf scripts: `--ntasks="${SLURM_JOB_NUM_NODES}"` (was "'\"2\"' is not
    a count")."""
    assert _run_lines(f"#!/bin/bash\n#SBATCH -N 2 --ntasks-per-node=4\n{line}\n") == [want]


def test_a_value_attached_to_its_letter_is_read_as_the_launcher_reads_it():
    """A count's attached value is a number (`-npersocket` is not -n "persocket"); other
    letters take any (`-EOMP_NUM_THREADS=1`, `-bnone`)."""
    text = (
        "#!/bin/bash\n#BSUB -nnodes 2\nmpirun -np 8 -npersocket 2 ./a\n"
        "jsrun -n2 -a4 -c4 -g1 -r1 -EOMP_NUM_THREADS=1 -bnone ./b\n"
    )
    assert _run_lines(text) == [
        "flux run -n8 ./a",
        "flux run -N2 --cores=8 --tasks-per-node=4 --gpus-per-node=1 --env=OMP_NUM_THREADS=1 ./b",
    ]


def test_zero_gpus_is_none_asked():
    text = "#!/bin/bash\n#BSUB -nnodes 1\njsrun -n 1 -a 1 -c 42 -g 0 -r 1 python3 ws.py\n"
    assert _run_lines(text) == ["flux run -N1 -n1 -c42 python3 ws.py"]


@pytest.mark.parametrize(
    "launcher", ["/opt/slurm/bin/srun", "$MPI_ROOT/bin/mpirun", "${MPI_DIR}/bin/mpiexec"]
)
def test_a_launcher_named_by_its_path_is_converted(launcher):
    text = f"#!/bin/bash\n#SBATCH -n 8\n{launcher} -n 4 ./a\n"
    assert _run_lines(text) == ["flux run -n4 ./a"]
    conv = convert.convert(text)
    (f,) = [f for f in conv.findings if f.kind == "command"]
    assert text[f.start : f.end] == launcher.rsplit("/", 1)[1]  # said at the tool's word


def test_taccs_ibrun_is_a_launcher():
    text = "#!/bin/bash\n#SBATCH -N 2 -n 8\nibrun ./a\nibrun -n 4 -o 0 ./b &\n"
    assert _run_lines(text) == ["flux run -N2 -n8 ./a", "flux run -n4 ./b &"]


@pytest.mark.parametrize(
    "prefix",
    ["time -p ", '/usr/bin/time -f "%e s" ', "stdbuf -oL -eL ", "timeout 10m ", "$T ", "env A=1 "],
)
def test_a_launcher_run_through_time_stdbuf_or_timeout_is_converted_in_place(prefix):
    text = f"#!/bin/bash\n#SBATCH -n 4\n{prefix}srun -n 2 ./a\n"
    assert _run_lines(text) == [f"{prefix}flux run -n2 ./a"]


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("nsys profile -o r mpirun -np 4 ./c", "run through nsys"),  # tasks its children
        ("nsys profile mpiexec -n 4 -ppn 2 ./c", "run through nsys"),  # Hydra's: children
        ("valgrind --trace-children=yes mpirun -np 4 ./c", "run through valgrind"),
        ("strace -f -o t mpirun -np 4 ./c", "run through strace"),
        ("scan mpirun -np 4 ./a", "run through scan"),
        ("spindle srun ./a", "run through spindle"),  # reads srun's own options
        ("ddt --connect srun -n 4 ./a", "run through ddt"),
    ],
)
def test_a_launcher_run_through_a_tool_that_would_see_otherwise_is_left_with_its_reason(line, why):
    text = f"#!/bin/bash\n#SBATCH -n 8\n{line}\n"
    assert line in convert.convert(text).text
    (said,) = _said(text)
    assert why in said


@pytest.mark.parametrize(
    ("line", "want"),
    [
        ("nsys profile -o r srun -n 2 ./c", "nsys profile -o r flux run -n2 ./c"),
        ("valgrind --leak-check=full srun ./c", "valgrind --leak-check=full flux run -n8 ./c"),
        ("perf stat jsrun -n 2 -a 1 ./c", "perf stat flux run -n2 ./c"),
        # valgrind follows no child unless told: it saw mpirun's process alone
        ("valgrind --tool=massif mpirun -n 2 ./c", "valgrind --tool=massif flux run -n2 ./c"),
        ("strace -o t mpirun -n 2 ./c", "strace -o t flux run -n2 ./c"),
        # PALS's mpiexec (its --depth, --cpu-bind): palsd starts the ranks, as slurmstepd
        # does srun's (corpus: ALCF Polaris scripts, `nsys profile mpiexec ... --depth=`)
        ("nsys profile mpiexec -n 2 --ppn 1 --depth=4 --cpu-bind depth ./c",
         "nsys profile flux run -N2 -n2 -c4 ./c"),
    ],
)  # fmt: skip
def test_a_launcher_run_through_a_tool_that_sees_it_alone_converts_in_place(line, want):
    """srun's tasks are not its children (slurmstepd starts them), nor flux run's; a tool
    that follows no child sees mpirun's process alone: the tool sees the launcher's own
    process before and after, and the note says so."""
    text = f"#!/bin/bash\n#SBATCH -n 8\n{line}\n"
    assert _run_lines(text) == [want]
    (said,) = _converted(text)
    assert "sees flux run's own process" in said


@pytest.mark.parametrize("dep", ["-d afterok:12", "--dependency=afterany:$J", "-dafterok:1"])
def test_a_steps_dependency_is_dropped_as_srun_ignores_it_in_a_batch_job(dep):
    """srun(1) applies --dependency to allocations only; real Slurm 22.05 runs
    `srun -d afterok:999999 hostname` in a batch job at once (tests/slurm holds it)."""
    text = f"#!/bin/bash\n#SBATCH -n 4\nsrun {dep} -n 2 ./a\n"
    assert _run_lines(text) == ["flux run -n2 ./a"]
    (said,) = _converted(text)
    assert "srun applies a dependency to allocations only" in said


def test_a_launcher_asked_its_version_starts_no_step():
    text = "#!/bin/bash\n#SBATCH -n 8\nmpirun --version\nsrun --help\n"
    conv = convert.convert(text)
    assert "mpirun --version\nsrun --help\n" in conv.text
    assert not [f for f in conv.findings if f.kind in ("command", "launch")]


def test_jsrun_resource_sets_of_a_hosts_all_take_it_whole():
    text = (
        "#!/bin/bash\n#BSUB -nnodes 4\n"
        "jsrun -b none -c ALL_CPUS -g ALL_GPUS -r 1 -n 4 ./stencil\n"
        "jsrun -n ALL_HOSTS -a 4 -g 4 -c 40 ./x\n"
    )
    assert _run_lines(text) == ["flux run -N4 -n4 -x ./stencil", "flux run -N4 -n16 -c10 -g1 ./x"]


@pytest.mark.parametrize(
    ("line", "want"),
    [
        ("srun -p gpu -A proj --comment x -n 2 ./a", "flux run -N2 -n2 ./a"),  # the job's own
        ("srun --jobid $SLURM_JOB_ID -n 2 ./a", "flux run -N2 -n2 ./a"),
        ("srun --tasks-per-node=2 -N 2 ./a", "flux run -N2 -n4 ./a"),
        ("srun -N1 -n1 -r 1 ./a", "flux run -N1 -n1 --requires=rank:1 ./a"),
        ("srun -N2 -n2 --relative=2 ./a", "flux run -N2 -n2 --requires=rank:2-3 ./a"),
        ("srun -n 1 -x node1 --open-mode=append ./a",
         "flux run -N1 -n1 --requires=-host:node1 -o output.mode=append ./a"),
        ("mpirun --host $h1,$h2 -np 2 ./a", "flux run -n2 --requires=host:$h1,$h2 ./a"),
        ("mpirun -H a:4,b:4 -np 8 ./a", "flux run -n8 --requires=host:a,b ./a"),
        ("mpiexec -genvlist A,B -envall -n 2 ./a", "flux run -n2 --env=A --env=B ./a"),
        ("mpirun -wdir /w -bootstrap slurm -report-bindings -np 2 ./a",
         "flux run -n2 --cwd=/w ./a"),
        ("mpirun --pernode -np 4 ./a", "flux run -N4 -n4 ./a"),
        ("aprun -B ./a", "flux run -N4 -n8 ./a"),
        # aprun's long forms (corpus: a PBS Cray script's `aprun --bypass-app-transfer
        # --pes-per-node 1 --cpu-binding none -- shifter ...`)
        ("aprun --pes 8 --pes-per-node 2 --cpus-per-pe 2 --cpu-binding none -- ./a",
         "flux run -N4 -n8 -c2 ./a"),
        ("aprun -n 8 -N 2 --cc depth -r 1 -m 8000 ./a", "flux run -N4 -n8 ./a"),
        ("jsrun -n2 -a1 --chdir /w -D CUDA_VISIBLE_DEVICES --print_placement=1 ./a",
         "flux run -n2 --cwd=/w --env-remove=CUDA_VISIBLE_DEVICES ./a"),
    ],
)  # fmt: skip
def test_options_the_corpus_uses_are_read(line, want):
    assert _run_lines(f"#!/bin/bash\n#SBATCH -N 4 -n 8\n{line}\n", "slurm") == [want]


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("srun --container-image=nvcr.io/x --container-save=/s/x.sqsh ./a", "--container-save"),
        ("srun --container-name=c ./a", "no earlier step gives this container its image"),
        ("srun --jobid 1234 ./a", "a step of another job"),
        ("mpirun -configfile app.conf", "(MPMD)"),
        ("jsrun --erf_input x.erf ./a", "explicit resource file"),
    ],
)
def test_what_flux_run_has_no_form_for_is_left_with_its_reason(line, why):
    text = f"#!/bin/bash\n#SBATCH -N 2 -n 8\n{line}\n"
    assert line in convert.convert(text).text
    (said,) = _said(text)
    assert why in said


def test_shell_words_in_option_values_stay_shell_words():
    """`-x PATH=/x:$PATH` and `--host $node` were written single-quoted ('...$PATH'):
    the shell then expands nothing."""
    text = (
        "#!/bin/bash\n#SBATCH -n 8\nmpirun -x LD_LIBRARY_PATH=/x:$LD_LIBRARY_PATH -np 8 ./a\n"
        'srun -n 1 -w "$node" -o "$out/log" ./b\n'
    )
    assert _run_lines(text) == [
        "flux run -n8 --env=LD_LIBRARY_PATH=/x:$LD_LIBRARY_PATH ./a",
        'flux run -n1 --requires=host:"$node" --output="$out/log" ./b',
    ]


def test_the_bodys_renames_reach_a_converted_line_so_a_second_conversion_is_none():
    """`-wdir $SLURM_SUBMIT_DIR` in a converted line: the body's rename ($SUBMIT_DIR) was
    dropped under the launch line's edit, and a second conversion made it."""
    text = "#!/bin/bash\n#SBATCH -n 4\nmpiexec -wdir $SLURM_SUBMIT_DIR -n 2 ./a > o.$SLURM_JOB_ID\n"
    once = convert.convert(text).text
    assert "flux run -n2 --cwd=$SUBMIT_DIR ./a > o.$(flux getattr jobid)" in once
    assert convert.convert(once, "slurm").text == once


def test_srun_multi_prog_is_flux_multi_prog():
    """flux multi-prog (in the Flux 0.88 tested against) reads srun's --multi-prog file."""
    text = '#!/bin/bash\n#SBATCH -n 4\nsrun -n 4 --multi-prog my.conf\nCMD="srun --multi-prog"\n'
    out = convert.convert(text).text
    assert "flux run -n4 flux multi-prog my.conf\n" in out
    assert 'CMD="flux run -n4 flux multi-prog"' in out


@pytest.mark.parametrize(
    ("line", "want"),
    [
        (
            "FOO=1 singularity run -B /x:/y x.sif mpirun -n 8 ./b 1",
            "FOO=1 flux run -n8 singularity run -B /x:/y x.sif ./b 1",
        ),
        ("apptainer exec img.sif srun ./c", "flux run -n8 apptainer exec img.sif ./c"),
    ],
)
def test_a_launcher_inside_a_container_becomes_flux_run_starting_the_containers(line, want):
    """`singularity run IMG mpirun -n 8 ./b`: flux run is not in the image; it starts one
    container a task (as `srun singularity exec` does)."""
    text = f"#!/bin/bash\n#SBATCH -n 8\n{line}\n"
    once = convert.convert(text).text
    assert want in once
    assert convert.convert(once, "slurm").text == once


def test_a_held_launcher_whose_count_is_given_where_it_runs_keeps_the_option_last():
    """NOAA's global-workflow: `export launcher="mpirun -np"`, run as `$launcher 4 ./a`."""
    text = '#!/bin/bash\n#BSUB -n 8\nexport launcher="mpirun -np"\n$launcher 4 ./a\n'
    once = convert.convert(text).text
    assert 'export launcher="flux run -n"\n' in once
    assert convert.convert(once, "lsf").text == once


@pytest.mark.parametrize(
    ("head", "line", "want"),
    [
        ("#SBATCH -N 4 --exclusive", "srun -n 2 ./a", "flux run -N2 -n2 ./a"),
        ("#SBATCH -N 2 --ntasks-per-node=4 -c 2", "srun -n 2 -c 4 ./a", "flux run -N2 -n2 -c4 ./a"),
        ("#SBATCH -N 4 --ntasks-per-node=2", "srun -n 8 ./a", "flux run -N4 -n8 ./a"),
        ("#SBATCH -N 1 -n 2", "srun -n 1 ./a", "flux run -n1 ./a"),
        ("#SBATCH -n 8", "srun -n 4 ./a", "flux run -n4 ./a"),
    ],
)
def test_srun_given_tasks_alone_spreads_them_over_the_jobs_nodes(head, line, want):
    """srun reads the job's SLURM_JOB_NUM_NODES as -N, lowered to the task count
    (docs/migration.md's srun table; tests/flux/test_flux_layouts.py runs it)."""
    assert _run_lines(f"#!/bin/bash\n{head}\n{line}\n") == [want]


@pytest.mark.parametrize(
    ("head", "line", "want"),
    [  # tests/layout_cases.py's rules, run by tests/flux/test_flux_layouts.py
        ("#SBATCH -N 4\n#SBATCH --ntasks-per-node=2\n#SBATCH -c 4\n#SBATCH --gpus-per-task=1",
         "srun -N 4 -n 4 ./a", "flux run -N4 -n4 -c4 -g1 ./a"),  # srun: the job's GPUs
        ("#PBS -l select=4:ncpus=8:mpiprocs=2:ngpus=2", "aprun -n 8 -N 2 -d 4 ./a",
         "flux run -N4 -n8 -c4 -g1 ./a"),  # the node's 2 GPUs, 2 tasks on it
        ("#BSUB -nnodes 4", "jsrun -n 2 -r 1 -a 4 -c 8 -g 2 ./a",
         "flux run -N2 --cores=16 --tasks-per-node=4 --gpus-per-node=2 ./a"),  # shared
        ("#PBS -l nodes=4:ppn=8", "mpirun -np 8 --map-by ppr:2:node:PE=4 ./a",
         "flux run -N4 -n8 -c4 ./a"),
    ],
)  # fmt: skip
def test_gpus_and_cores_a_launcher_gives_its_tasks(head, line, want):
    """GPUs a launcher does not divide are its node's, shared by the tasks on it: per task
    where they divide, else Flux's per-resource form (each node's cores and GPUs)."""
    assert _run_lines(f"#!/bin/bash\n{head}\n{line}\n") == [want]


def test_a_launcher_held_alone_in_a_variable_is_converted():
    text = '#!/bin/bash\n#SBATCH -N 1 -n 2\nLAUNCH="srun" ; ${LAUNCH} ./a\n'
    assert 'LAUNCH="flux run -N1 -n2" ; ${LAUNCH} ./a' in convert.convert(text).text


_DIVIDED = "flux run -N2 -n $(( 2 * ${A} )) -c $(( 8 / ${A} )) -g $(( ${G} / ${A} )) ./x"


@pytest.mark.parametrize(
    ("assign", "want"),
    [
        # 2 GPUs for 4 tasks, as the script assigns them: the node's GPUs one slot they share
        ("G=2\nA=4\n", "flux run -N2 --cores=16 --tasks-per-node=${A} --gpus-per-node=${G} ./x"),
        ("G=4\nA=4\n", _DIVIDED),  # they divide: each task its share
        ("", _DIVIDED),  # the shell's numbers, not the script's: as they divide when run
    ],
)
def test_jsrun_gpus_given_by_words_are_shared_where_the_scripts_numbers_do_not_divide(assign, want):
    text = f"#!/bin/bash\n#BSUB -nnodes 4\n{assign}jsrun -n 2 -r 1 -a ${{A}} -c 8 -g ${{G}} ./x\n"
    assert _run_lines(text) == [want]


@pytest.mark.parametrize(
    ("head", "line", "want"),
    [
        # --gres: no GPUs per task (SLURM_GPUS_PER_TASK unset): a step's tasks share them
        ("#SBATCH --gres=gpu:2", "srun -n 4 ./a",
         "flux run -N1 --cores=4 --tasks-per-node=4 --gpus-per-node=2 ./a"),
        ("#SBATCH --gres=gpu:2", "srun -n 2 ./a", "flux run -n2 -g1 ./a"),  # their share
        # --gpus-per-task: srun's tasks take it
        ("#SBATCH -n 2 --gpus-per-task=1", "srun -n 4 ./a", "flux run -n4 -g1 ./a"),
    ],
)  # fmt: skip
def test_srun_takes_the_jobs_gpus_per_task_only_from_gpus_per_task(head, line, want):
    assert _run_lines(f"#!/bin/bash\n{head}\n{line}\n") == [want]


_HEAD = "#!/bin/bash\n#SBATCH -N 2 -n 8\n"


@pytest.mark.parametrize(
    ("body", "want"),
    [
        # the script gives the options: read as the launcher's, the variable's word dropped
        ('OPTS="--ntasks=4 --cpus-per-task=2"\nsrun $OPTS ./a\n', "flux run -N2 -n4 -c2 ./a"),
        ("OPTS='-n 4'\nsrun ${OPTS} -c 2 ./a\n", "flux run -N2 -n4 -c2 ./a"),
        # LLNL's jsrun habit (a Lassen benchmark of the corpus): two of them
        (
            'A="--tasks_per_rs 1 --nrs 2 --gpu_per_rs 1 --cpu_per_rs 10"\nB="--smpiargs=-gpu"\n'
            "jsrun $A $B ./lat D D\n",
            "flux run -n2 -c10 -g1 ./lat D D",
        ),
        ('E=""\nsrun $E ./a\n', "flux run -N2 -n8 ./a"),  # empty: nothing
        # the program in a variable stays the program
        ("EXE=./a.out\nsrun $EXE in\n", "flux run -N2 -n8 $EXE in"),
        ("srun $EXE in\n", "flux run -N2 -n8 $EXE in"),
        # options the shell gives when the step runs: kept for flux run, with a warning
        ("mpirun $MPIRUN_OPTIONS ./a\n", "flux run -N2 -n8 $MPIRUN_OPTIONS ./a"),
        ('X="--ntasks=$N"\nsrun $X ./a\n', "flux run -N2 -n8 $X ./a"),
        ('for OPTS in "-n 2" "-n 4"; do\nsrun $OPTS ./a\ndone\n', "flux run -N2 -n8 $OPTS ./a"),
        ("srun $SRUN_ARGS -n 4 ./a\n", "flux run -N2 -n4 $SRUN_ARGS ./a"),
    ],
)
def test_a_launchers_options_held_in_a_variable(body, want):
    """`srun $OPTS ./a`: the options a variable holds are read where the script gives them
    (one fixed text: field splitting, as the shell does); where it does not, a variable
    whose name or assigned text says options stays before the program, with a warning at
    its word — it was never written into flux run's options unseen (before: `flux run -N2
    -n2 $OPTS ./a`, the srun options left for flux run to refuse)."""
    text = _HEAD + body
    got = convert.convert(text)
    runs = [ln.strip() for ln in got.text.splitlines() if "flux run" in ln]
    if want is not None:
        assert runs[-1].endswith(want) or runs[-1] == want, runs
    kept = [f for f in got.findings if f.kind == "approx" and "stays before" in f.message]
    dollar = any(v in body for v in ("$MPIRUN_OPTIONS", "$X ", "$OPTS ./a\ndone", "$SRUN_ARGS"))
    assert bool(kept) == dollar, [f.message for f in got.findings]
    for f in kept:  # at its word
        assert text[f.start : f.end].startswith("$")
    assert convert.convert(got.text).text == got.text  # converting twice is once


@pytest.mark.parametrize(
    ("body", "want"),
    [
        ('ARGS="-n 4 ./a.out"\nsrun $ARGS\n', "flux run -N2 -n4 ./a.out"),
        # corpus: LLNL apollo's job scripts (tests/data/migration/corpus/slurm/015-*)
        ('X="  -o /dev/null  -N 2 -n 2 ./bin/app --sql "\nsrun ${X} VIEW &\n',
         "flux run -N2 -n2 --output=/dev/null ./bin/app --sql VIEW &"),
        ("A='-n 2 ./b \"x y\"'\nsrun $A\n", "flux run -N2 -n2 ./b '\"x' 'y\"'"),
    ],
)  # fmt: skip
def test_a_variable_that_holds_the_program_too_is_written_out(body, want):
    """The options and the program one fixed text holds (`srun ${EXEC} VIEW`): the shell
    splits it into words (quotes in it are no quotes), which flux run gets as they were."""
    text = _HEAD + body
    got = convert.convert(text)
    assert [ln for ln in got.text.splitlines() if ln.startswith("flux run")] == [want]
    assert any("written out as the script assigns it" in m for m in _converted(text))
    assert convert.convert(got.text).text == got.text


@pytest.mark.parametrize(
    ("line", "want"),
    [
        # corpus: PIConGPU's tbg templates, MFC's Python-format templates, Exawind's, ...
        ("mpirun -np !TBG_tasks ./a", "flux run -n !TBG_tasks ./a"),
        # srun's -N from the job (4), as for a shell word's count
        ("srun -n {nodes*tasks_per_node} ./a", "flux run -N4 -n {nodes*tasks_per_node} ./a"),
        ("srun -N %NODES% -n 4 ./a", "flux run -N %NODES% -n4 ./a"),
        ("srun -N @NODES@ --ntasks-per-node=2 ./a", "flux run -N @NODES@ -n $(( @NODES@ * 2 )) ./a"),
        ("mpirun -np @@numproc@@ ./a", "flux run -n @@numproc@@ ./a"),
        ("jsrun --nrs @NNODES -a 2 ./a", "flux run -n $(( @NNODES * 2 )) ./a"),
        # Jinja's with spaces (corpus: LiamBindle/cog's LSF templates): one placeholder
        ("mpirun -np {{ n_cores }} ./a", "flux run -n {{ n_cores }} ./a"),
        ("jsrun -n {{ rs }} -a 1 -c 2 ./a", "flux run -n {{ rs }} -c2 ./a"),
        ("srun -n __total_processes__ ./a", "flux run -N4 -n __total_processes__ ./a"),
        ("srun -N NODES_PLACEHOLDER -n 8 ./a", "flux run -N NODES_PLACEHOLDER -n8 ./a"),
    ],
)  # fmt: skip
def test_a_templates_placeholder_is_carried_as_written(line, want):
    """A count a template fills in before the script runs is a word, as a shell's is: the
    filled script then reads `flux run -n 16`. A word that is neither (`-np full`) is left."""
    text = f"#!/bin/bash\n#SBATCH -N 4 -n 8\n{line}\n"
    assert _run_lines(text, "slurm") == [want]
    assert convert.convert(convert.convert(text).text).text == convert.convert(text).text


def test_a_word_that_is_no_count_nor_placeholder_is_left():
    for line in ("mpirun -np full ./a", "srun -n {{ n ./a", "srun -n ntasks ./a"):
        text = f"#!/bin/bash\n#SBATCH -N 4 -n 8\n{line}\n"
        assert line in convert.convert(text).text
        assert any("is not a count" in m for m in _said(text))


_QUOTES = "'" * 3  # a run of quotes: Flux's directive reader takes it for a triple quote


@pytest.mark.parametrize(
    ("line", "want"),
    [
        ('srun -J "a\nb" ./a', ["--job-name=a\nb", "./a"]),
        ('srun --container-image="u\nv" ./b', ["apptainer", "exec", "docker://u\nv", "./b"]),
        (f'srun -o "{_QUOTES}x" ./a', [f"--output={_QUOTES}x", "./a"]),
    ],
)
def test_a_value_no_directive_holds_is_still_one_shell_word(line, want):
    """A launch line's words are the shell's, not a `#flux:` directive's: a quoted value
    with a line break (or a run of quotes) converts, quoted as the shell reads it back
    (before: a traceback from the directive quoter)."""
    text = f"#!/bin/bash\n#SBATCH -n 2\n{line}\n"
    got = convert.convert(text)
    step = got.text[got.text.index("flux run ") :]
    assert shlex.split(step) == ["flux", "run", "-n2", *want]
    assert convert.convert(got.text).text == got.text
