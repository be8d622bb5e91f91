"""The migration engine (jobspec_lsp.migrate): Slurm, LSF and PBS scripts read into one
request model and written as Flux batch scripts. Held here on the real scripts of
tests/data/migration (each with its source in SOURCES.md) and on the cases the issue names;
`flux batch --dry-run` of every converted script is in the real-Flux tier."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from migration_cases import CASES, LSF, PBS

from jobspec_lsp.job import directives
from jobspec_lsp.migrate import convert, lsf, pbs, slurm
from jobspec_lsp.migrate.model import Request, shape

DATA = Path(__file__).parent / "data" / "migration"
SCRIPTS = sorted(p for p in DATA.glob("*/*.sh"))


def test_the_corpus_holds_at_least_40_scripts_per_scheduler():
    for name in ("slurm", "lsf", "pbs"):
        assert len(list((DATA / name).glob("*.sh"))) >= 40, name


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_converting_a_converted_script_changes_nothing(path):
    text = path.read_text(errors="surrogateescape")
    once = convert.convert(text)
    if once.refused:
        assert not once.changed and once.text == text
        return
    if path.parent.name in ("slurm", "lsf"):
        assert once.scheduler == path.parent.name
    again = convert.convert(once.text)
    assert again.text == once.text
    # what it writes, Flux's own directive reader reads without complaint
    read = directives.read(once.text)
    assert not [p for p in read.problems if p.code in ("JS560", "JS561", "JS562", "JS564")]


def test_gpus_per_node_that_tasks_cannot_share_make_one_slot_per_node():
    """The issue's example: --gres=gpu:2 with 4 tasks on each of 2 nodes."""
    text = "#!/bin/bash\n#SBATCH -N 2 --ntasks-per-node=4 --gres=gpu:2 -o o\nsrun ./a\n"
    out = convert.convert(text).text
    assert out == "#!/bin/bash\n#flux: -N 2 -n 2 -c 4 -g 2 --output=o\nflux run -N2 -n8 ./a\n"


@pytest.mark.parametrize(
    "fields,words,run",
    [
        ({"nodes": 2}, ["-N 2", "-n 2", "-x"], ["-N2", "-n2"]),  # whole nodes
        ({"tasks": 8}, ["-n 8"], ["-n8"]),
        ({"tasks_per_node": 4}, ["-N 1", "-n 4"], ["-N1", "-n4"]),
        ({"tasks": 8, "tasks_per_node": 4}, ["-N 2", "-n 8"], ["-N2", "-n8"]),
        ({"nodes": 2, "tasks": 25}, ["-N 2", "-n 2", "-c 13"], ["-N2", "-n25"]),
        ({"nodes": 2, "tasks": 4, "gpus_per_node": 4}, ["-N 2", "-n 4", "-g 2"], None),
        ({"tasks": 4, "exclusive": True}, ["-N 1", "-n 4", "-x"], None),
        (
            {"tasks": 4, "cores_per_task": 2, "cpus_per_gpu": 3, "gpus_per_task": 1},
            ["-n 4", "-c 3", "-g 1"],
            None,
        ),
    ],
)
def test_shape(fields, words, run):
    sh = shape(Request(**fields))
    assert sh.words == words
    if run is not None:
        assert sh.run == run


def test_slurm_limits_are_rounded_up_to_whole_minutes():
    out = convert.convert("#!/bin/sh\n#SBATCH -n 1 -t 45:30\nhostname\n").text
    assert "-t 46m" in out


def test_slurm_output_patterns_become_flux_templates():
    out = convert.convert("#!/bin/sh\n#SBATCH -n 1 -o logs/%x-%A_%a.out\nhostname\n")
    assert "--output='logs/{{name}}-{{id}}_%a.out'" in out.text
    assert any("%a has no Flux template" in f.message for f in out.findings)


def test_a_heterogeneous_job_is_refused_with_a_reason():
    text = "#!/bin/sh\n#SBATCH -n 2\n#SBATCH hetjob\n#SBATCH -n 4\nsrun ./a\n"
    conv = convert.convert(text)
    assert conv.refused and "heterogeneous" in conv.refused
    assert conv.text == text


def test_directives_after_the_first_command_only_get_the_defaults():
    text = "#!/bin/sh\nmodule load x\n#SBATCH -N 4\nsrun ./a\n"
    out = convert.convert(text).text
    assert out == (
        "#!/bin/sh\n#flux: -n 1 --output='slurm-{{id}}.out'\nmodule load x\n#SBATCH -N 4\n"
        "flux run -n1 ./a\n"
    )


def test_lsf_csm_nodes_and_jsrun_resource_sets():
    """LSF -nnodes (LLNL CSM: whole nodes) and jsrun -n4 -a1 -c10 -g1 -r2: 4 tasks of 10
    cores and 1 gpu, 2 per node."""
    text = "#!/bin/bash\n#BSUB -nnodes 2\n#BSUB -W 30\njsrun -n4 -a1 -c10 -g1 -r2 ./a\n"
    out = convert.convert(text).text
    assert out == (
        "#!/bin/bash\n#flux: -N 2 -n 2 -x\n#flux: -t 30m\nflux run -N2 -n4 -c10 -g1 ./a\n"
    )


def test_lsf_ptile_and_walltime():
    text = '#!/bin/bash\n#BSUB -n 32\n#BSUB -R "span[ptile=16]"\n#BSUB -W 1:30\nmpirun ./a\n'
    out = convert.convert(text).text
    assert "#flux: -N 2 -n 32" in out and "-t 90m" in out
    assert "flux run -N2 -n32 ./a" in out


def test_pbs_select_chunks_and_walltime():
    text = (
        "#!/bin/bash\n#PBS -l select=2:ncpus=36:mpiprocs=4:ngpus=4\n"
        "#PBS -l walltime=01:00:00\n#PBS -N sim\ncd $PBS_O_WORKDIR\nmpiexec ./a\n"
    )
    out = convert.convert(text).text
    assert "#flux: -N 2 -n 8 -c 9 -g 1" in out
    assert "#flux: -t 1h" in out and "#flux: --job-name=sim" in out
    assert "#flux: --env=PBS_O_WORKDIR=$PWD" in out
    assert "flux run -N2 -n8 -c9 -g1 ./a" in out


def test_torque_nodes_ppn():
    text = "#!/bin/bash\n#PBS -l nodes=2:ppn=8,walltime=2:00:00\nmpirun -np 16 ./a\n"
    out = convert.convert(text).text
    assert "#flux: -N 2 -n 16 -t 2h" in out
    assert "flux run -n16 ./a" in out


def test_memory_in_a_chunk_is_said_and_kept_as_a_comment():
    text = "#!/bin/bash\n#PBS -l select=1:ncpus=2:mem=12GB\nhostname\n"
    conv = convert.convert(text)
    assert "# not carried: #PBS -l select=1:ncpus=2:mem=12GB" in conv.text
    assert any(f.kind == "kept" and "mem" in f.message for f in conv.findings)


def test_scripts_of_two_schedulers_are_not_guessed():
    text = "#!/bin/csh\n#PBS -l walltime=1:00:00\n#BSUB -W 60\nhostname\n"
    conv = convert.convert(text)
    assert conv.refused and "--from" in conv.refused
    assert convert.convert(text, "pbs").text.startswith("#!/bin/csh\n#flux: -n 1 -t 1h ")


def test_each_scheduler_table_names_its_reference():
    for mod in (slurm, lsf, pbs):
        for o in mod.OPTIONS:
            assert o.ref.startswith("https://"), o.names
            assert o.reader == "-" or o.reader == "" or o.reader in mod.READERS, o.names
            assert o.flux or o.note, o.names


# ------------------------------------------------------------------ LSF and PBS, option by option
@pytest.mark.parametrize("scheduler,block,flux,_resources,ref", CASES)
def test_each_lsf_and_pbs_option_converts(scheduler, block, flux, _resources, ref):
    """Each case follows the reference it names (the scheduler's own manual)."""
    assert ref.startswith("https://")
    text = "#!/bin/bash\n" + block + "\nhostname\n"
    conv = convert.convert(text)
    assert conv.scheduler == scheduler
    written = [ln for ln in conv.text.splitlines() if ln.startswith(("#flux:", "# not carried"))]
    got = "\n".join(written)
    for default in _PBS_DEFAULTS:  # qsub's own output files: test_pbs_default_output_files
        got = got.replace(default, "")
    assert got == flux


_PBS_DEFAULTS = (" --output='{{name}}.o{{id}}'", " --error='{{name}}.e{{id}}'")


def test_pbs_default_output_files():
    """qsub writes NAME.oJOBID and NAME.eJOBID (one file with -j oe) where no -o/-e says."""
    out = convert.convert("#!/bin/bash\n#PBS -l nodes=1\nhostname\n").text
    assert "#flux: -N 1 -n 1 -x" + "".join(_PBS_DEFAULTS) + "\n" in out
    joined = convert.convert("#!/bin/bash\n#PBS -l nodes=1 -j oe\nhostname\n").text
    assert _PBS_DEFAULTS[0] in joined and "--error" not in joined
    given = convert.convert("#!/bin/bash\n#PBS -l nodes=1 -o o -e e\nhostname\n").text
    assert "{{name}}" not in given


def test_every_mapped_lsf_and_pbs_option_has_a_case():
    for mod, cases in ((lsf, LSF), (pbs, PBS)):
        said = " ".join(block for _, block, *_ in cases)
        for o in mod.OPTIONS:
            if o.reader in ("", "-", "array", "join") or o.reader not in mod.READERS:
                continue
            assert any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", said) for n in o.names), (
                o.names
            )


def test_a_half_migrated_script_is_completed_without_contradicting_its_flux_lines():
    text = (
        "#!/bin/bash\n#flux: -N 2\n#SBATCH --ntasks-per-node=4 --gres=gpu:2 -o o\n"
        "#SBATCH -t 30\nsrun ./a\n"
    )
    out = convert.convert(text).text
    assert out == (
        "#!/bin/bash\n#flux: -N 2\n#flux: -n 2 -c 4 -g 2 --output=o\n#flux: -t 30m\n"
        "flux run -N2 -n8 ./a\n"
    )
    assert convert.convert(out).text == out
    # what the #flux: lines already say otherwise stays as it is, with a warning there
    contra = "#!/bin/bash\n#flux: -t 10m\n#flux: -n 1\n#SBATCH -t 30 -o o\nhostname\n"
    conv = convert.convert(contra)
    assert "#SBATCH -t 30" in conv.text and "#flux: --output=o" in conv.text
    (f,) = [f for f in conv.findings if f.kind == "kept"]
    assert contra[f.start : f.end] == "-t 30" and "already give --time-limit=10m" in f.message


def test_pbs_start_directory_is_said_when_the_script_does_not_go_anywhere():
    bare = convert.convert("#!/bin/bash\n#PBS -l nodes=1\n./a\n")
    assert any("home directory" in f.message for f in bare.findings)
    goes = convert.convert("#!/bin/bash\n#PBS -l nodes=1\ncd $PBS_O_WORKDIR\n./a\n")
    assert not any("home directory" in f.message for f in goes.findings)


def test_lsf_dependency_on_a_job_name_is_kept_with_a_warning():
    text = '#!/bin/bash\n#BSUB -n 1 -w "done(prep)"\nhostname\n'
    conv = convert.convert(text)
    assert '#BSUB -w "done(prep)"' in conv.text
    (f,) = [f for f in conv.findings if f.kind == "kept"]
    assert "names a job by its name" in f.message


def test_a_script_without_a_shebang_gets_the_shell_its_scheduler_uses():
    assert convert.convert("#BSUB -n 1\nhostname\n").text.startswith("#!/bin/sh\n")
    assert convert.convert("#PBS -l nodes=1\nhostname\n").text.startswith("#!/bin/bash\n")


def test_the_slurm_submit_directory_gets_a_name_flux_keeps():
    """Flux's broker removes every SLURM_* variable from a batch script's environment
    (found by a probe run under real Flux: tests/slurm), so SLURM_SUBMIT_DIR cannot be set
    by --env under its own name; PBS_O_WORKDIR can."""
    out = convert.convert('#!/bin/bash\n#SBATCH -n 1 -o o\ncd "$SLURM_SUBMIT_DIR"\n').text
    assert "#flux: --env=SUBMIT_DIR=$PWD\n" in out and 'cd "$SUBMIT_DIR"' in out
    assert "SLURM_" not in out
    pbs = convert.convert("#!/bin/bash\n#PBS -l nodes=1 -o o -e e\ncd $PBS_O_WORKDIR\n").text
    assert "#flux: --env=PBS_O_WORKDIR=$PWD\n" in pbs and "cd $PBS_O_WORKDIR" in pbs


def test_the_words_that_load_the_conversion_are_the_tables_words():
    """script/sbatch.py checks a script without loading the conversion when it holds
    none of FOREIGN: the three schedulers' sentinels, variable prefixes and commands."""
    from jobspec_lsp.migrate import convert as migrate_convert
    from jobspec_lsp.script import sbatch

    words = {"#SBATCH", "#BSUB", "#PBS"}
    for mod in migrate_convert.SCHEDULERS.values():
        words |= set(mod.VARIABLE_PREFIXES) | set(mod.COMMANDS)
    assert set(sbatch.FOREIGN) == words
