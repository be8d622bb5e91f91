"""Steps in Pyxis containers (srun --container-image, ...: NVIDIA's MLPerf scripts and their
copies, 159 scripts of the jobspec-database corpus) converted to `flux run` whose tasks run
the program through Apptainer (jobspec_lsp/migrate/pyxis.py, issue 35). The real-Flux tier
runs such steps (tests/layout_cases.py, the `pyxis` form) through a stand-in of apptainer
that reads its options as the command does."""

from __future__ import annotations

import shlex

import pytest

from jobspec_lsp.migrate import convert, pyxis
from jobspec_lsp.script import batch

_HEAD = "#!/bin/bash\n#SBATCH -N 2 --ntasks-per-node=4\n"
_GPU = "#!/bin/bash\n#SBATCH -N 2 --ntasks-per-node=8 --gres=gpu:8\n"


def _runs(text: str) -> list[str]:
    return [ln.strip() for ln in convert.convert(text).text.splitlines() if "flux run" in ln]


def _kinds(text: str, kind: str) -> list[str]:
    return [f.message for f in convert.convert(text).findings if f.kind == kind]


@pytest.mark.parametrize(
    ("line", "want"),
    [
        # enroot's REGISTRY#IMAGE as Apptainer's docker:// URI
        ("srun --container-image=nvcr.io#nvidia/pytorch:23.01-py3 ./a",
         "flux run -N2 -n8 apptainer exec docker://nvcr.io/nvidia/pytorch:23.01-py3 ./a"),
        ("srun --container-image ubuntu:22.04 ./a",
         "flux run -N2 -n8 apptainer exec docker://ubuntu:22.04 ./a"),
        ("srun --container-image=docker://me@nvcr.io#nvidia/x:1 ./a",
         "flux run -N2 -n8 apptainer exec docker://nvcr.io/nvidia/x:1 ./a"),
        # a file: as it is
        ("srun --container-image=/scratch/img.sqsh ./a",
         "flux run -N2 -n8 apptainer exec /scratch/img.sqsh ./a"),
        ("srun --container-image=./x.sif ./a", "flux run -N2 -n8 apptainer exec ./x.sif ./a"),
        # mounts (Pyxis's flags joined by +: Apptainer's ro/rw kept), working directory
        ("srun -n 2 --container-image=u:1 --container-mounts=/d:/data:ro+rprivate,/x "
         "--container-workdir=/w ./a",
         "flux run -N2 -n2 apptainer exec --bind /d:/data:ro,/x --pwd /w docker://u:1 ./a"),
        # the yes/no options
        ("srun --container-image=u:1 --container-writable --container-remap-root "
         "--no-container-mount-home --no-container-entrypoint ./a",
         "flux run -N2 -n8 apptainer exec --writable-tmpfs --fakeroot --no-home docker://u:1 ./a"),
        ("srun --container-image=u:1 --container-entrypoint --container-mount-home x",
         "flux run -N2 -n8 apptainer run docker://u:1 x"),
        ("srun --container-image=u:1 --container-env=A,B ./a",
         'flux run -N2 -n8 apptainer exec --env "A=${A}" --env "B=${B}" docker://u:1 ./a'),
        # the launcher's own options go on reading around the container's
        ("srun --container-image=u:1 -N 1 --ntasks-per-node=2 ./a",
         "flux run -N1 -n2 apptainer exec docker://u:1 ./a"),
    ],
)  # fmt: skip
def test_a_pyxis_step_runs_its_program_through_apptainer(line, want):
    text = _HEAD + line + "\n"
    assert _runs(text) == [want]
    (warned,) = _kinds(text, "approx")
    assert "Pyxis's container" in warned and "one container a task" in warned
    assert convert.convert(convert.convert(text).text).text == convert.convert(text).text
    # what each task runs is words apptainer reads: options, then the image, then the program
    words = shlex.split(want)
    assert words[words.index("apptainer") + 1] in ("exec", "run")


def test_the_warning_is_at_the_first_container_option():
    text = _HEAD + "srun -n 2 --container-image=u:1 ./a\n"
    (f,) = [f for f in convert.convert(text).findings if f.kind == "approx"]
    assert text[f.start : f.end] == "--container-image=u:1"


def test_a_named_container_takes_the_image_an_earlier_step_gave_it():
    """MLPerf's habit: the image pulled on every node once, the later steps naming the
    container only."""
    text = (
        _GPU + 'CONT="nvcr.io#nvidia/pytorch:23.01-py3"\n'
        'srun --ntasks="${SLURM_JOB_NUM_NODES}" --container-image="${CONT}" '
        '--container-name="${_cont_name}" true\n'
        'srun --container-name="${_cont_name}" --container-mounts="${mounts}" ./run.sh\n'
    )
    runs = _runs(text)
    image = "docker://nvcr.io/nvidia/pytorch:23.01-py3"
    assert runs == [
        f"flux run -N2 -n2 -g8 apptainer exec --nv {image} true",
        f'flux run -N2 -n16 -g1 apptainer exec --nv --bind "${{mounts}}" {image} ./run.sh',
    ]
    warned = _kinds(text, "approx")
    assert "started again from its image" in warned[1]
    assert "written as Apptainer names it" in warned[0]  # the variable's # read
    assert not _kinds(text, "launch")


@pytest.mark.parametrize(
    ("assign", "want"),
    [
        ("", '"docker://${CONT}"'),  # the shell gives it: taken for a registry's, said
        ("CONT=nvcr.io/nvidia/x:1\n", '"docker://${CONT}"'),
        ("CONT=/lustre/x.sqsh\n", '"${CONT}"'),
        ("CONT=docker://ubuntu\n", '"${CONT}"'),
    ],
)
def test_an_image_a_variable_gives(assign, want):
    text = _HEAD + assign + 'srun --container-image="${CONT}" ./a\n'
    (run,) = _runs(text)
    assert run == f"flux run -N2 -n8 apptainer exec {want} ./a"
    warned = " ".join(_kinds(text, "approx"))
    assert ("taken for a registry image" in warned) == (assign == "")


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("srun --container-name=c ./a", "no earlier step gives this container its image"),
        ("srun --container-image=u:1 --container-save=/s/x.sqsh ./a", "--container-save"),
        ("srun --container-mounts=/a:/a ./a", "without --container-image"),
    ],
)
def test_what_apptainer_has_no_form_for_is_left_untouched(line, why):
    text = _HEAD + line + "\n"
    got = convert.convert(text)
    assert line in got.text and "flux run" not in got.text
    (said,) = _kinds(text, "launch")
    assert why in said and "left as it is" in said
    assert not _kinds(text, "approx")


def test_gpus_give_the_driver_to_the_container():
    """--nv where the job or the step asks GPUs (enroot's hook gave the tasks the driver)."""
    assert "--nv" in _runs(_GPU + "srun --container-image=u:1 ./a\n")[0]
    assert "--nv" in _runs(_HEAD + "srun -n 2 --gpus-per-task=1 --container-image=u:1 ./a\n")[0]
    assert "--nv" not in _runs(_HEAD + "srun --container-image=u:1 ./a\n")[0]


def test_the_converted_steps_fit_their_allocation():
    text = _GPU + "srun --container-image=u:1 --container-mounts=/d:/d ./a\n"
    codes = {d.code for d in batch.check_script(convert.convert(text).text)}
    assert not codes & {"JS587", "JS588"}


def test_every_pyxis_option_is_declared_once_and_documented():
    names = [name for name, *_ in pyxis.DECLARED]
    assert len(names) == len(set(names)) and set(names) == set(pyxis.OPTIONS)
    table = pyxis.markdown()
    assert all(f"| `{n}` |" in table for n in names)
