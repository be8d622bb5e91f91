"""Batch scripts of other schedulers — Slurm (`#SBATCH`), LSF (`#BSUB`), PBS (`#PBS`) — as
positioned findings for `jobspec check` and the editor (JS590-JS599): each directive line
with its Flux form (a hint whose fix is the whole conversion), what Flux cannot carry, what
it carries with a difference, the scheduler's variables and commands in the body. The
conversion itself is :mod:`jobspec_lsp.migrate`; ``docs/migration.md`` holds its tables.
"""

from __future__ import annotations

import functools

from jobspec_lsp import boundary
from jobspec_lsp.diagnostics import SCRIPT_KINDS, SLURM_KINDS, Diagnostic, Family, Severity
from jobspec_lsp.job.shellread import shell_literals, written_heredocs
from jobspec_lsp.text.sniff import has_directives

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from jobspec_lsp.migrate import convert as migrate

__all__ = ["diagnostics", "convert_script", "has_directives", "shell_literals", "written_heredocs"]

E, W, I, H = Severity.ERROR, Severity.WARNING, Severity.INFORMATION, Severity.HINT

_S = "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --time=01:30:00\n\nsrun ./sim\n"
_F = "#!/bin/bash\n#flux: --nodes=2\n#flux: --time-limit=90m\n\nflux run ./sim\n"

family = Family(kinds=SLURM_KINDS + SCRIPT_KINDS, good=_F)
SLURM_DIRECTIVE = family.hint(
    """JS590 slurm-directive: A Slurm `#SBATCH` directive, which `flux batch` ignores.

    Flux reads only `#flux:` directives: an `#SBATCH` line is a comment to it, so the job runs
    without what the line asks. The fix converts the whole script: every `#SBATCH` directive
    as `#flux:`, launch lines (`srun`) as `flux run`, `SLURM_*` variables as Flux's (`jobspec
    convert` does the same in a terminal).""",
    bad=_S.replace("srun", "flux run"),
    fix="conversion",
)
NOT_CARRIED = family.warning(
    """JS591 slurm-option-not-carried: An `sbatch` option Flux cannot express: it stays an
    `#SBATCH` line, ignored by Flux.

    Memory requests, mail, QOS, requeue and a few more have no `flux batch` option. The
    conversion keeps them as `#SBATCH` text, so nothing is lost, and says what the job gets
    instead.""",
    bad=_F.replace("#flux: --nodes=2\n", "#flux: --nodes=2\n#SBATCH --mem=4G\n"),
)
NOT_SBATCH = family.error(
    """JS592 slurm-bad-option: An `#SBATCH` word `sbatch` itself refuses: an unknown option or a
    value it cannot read.

    `sbatch` refuses the whole script for it, and the conversion cannot guess what was meant,
    so the line is left as it is. A close option name is suggested.""",
    bad=_S.replace("--nodes=2", "--node=2").replace("srun", "flux run"),
)
CARRIED_DIFFERENTLY = family.info(
    """JS593 slurm-option-carried-differently: A scheduler option (or launch line) Flux carries
    with a difference worth knowing.

    Some options convert with a change in how they are written or read: a limit rounded up
    to whole minutes as Slurm rounds it, the first of several partitions, a Slurm job id in
    a dependency (not a Flux job id), an output pattern Flux has no template for, a launch
    line and the `flux run` it becomes. The message says which.""",
    bad=_S.replace("--time=01:30:00", "--time=01:29:30 -o sim.out").replace("srun", "flux run"),
)
AFTER_COMMANDS = family.warning(
    """JS594 slurm-directive-after-commands: An `#SBATCH` line after the script's first command:
    `sbatch` ignores it too.

    `sbatch` stops reading directives at the first line that is not a comment, so this line
    never applied under Slurm either; the conversion leaves it alone.""",
    bad=_F.replace("flux run ./sim\n", "flux run ./sim\n#SBATCH --nodes=4\n"),
)
SLURM_VARIABLE = family.warning(
    """JS595 slurm-variable: The script uses a `SLURM_*` variable, which Flux does not set.

    Under Flux the variable is empty (or stale from an enclosing Slurm job). The message gives
    the Flux equivalent; where there is one the fix writes it.""",
    bad=_F.replace("flux run ./sim", 'echo "job $SLURM_JOB_ID"\nflux run ./sim'),
    good=_F.replace("flux run ./sim", 'echo "job $(flux getattr jobid)"\nflux run ./sim'),
    fix="slurm-variable",
)
SLURM_COMMAND = family.warning(
    """JS596 slurm-command: The script runs a Slurm command (`srun`, `sbatch`, `squeue`, ...).

    There is no `srun` in a Flux job; its Flux counterpart takes mostly the same options (-n,
    -N, -c) but not all (--ntasks-per-node is --tasks-per-node). The message names the Flux
    command.""",
    bad=_S.replace("#SBATCH --nodes=2", "#flux: --nodes=2").replace(
        "#SBATCH --time=01:30:00", "#flux: --time-limit=90m"
    ),
)


LSF_DIRECTIVE = family.hint(
    """JS597 lsf-directive: An LSF `#BSUB` directive, which `flux batch` ignores.

    Flux reads only `#flux:` directives: a `#BSUB` line is a comment to it, so the job runs
    without what the line asks. The fix converts the whole script: every `#BSUB` directive
    (with LLNL's `-nnodes`) as `#flux:`, `jsrun`/`lrun`/`mpirun` lines as `flux run`, `LSB_*`
    variables as Flux's.""",
    bad=_S.replace("#SBATCH --nodes=2", "#BSUB -nnodes 2")
    .replace("#SBATCH --time=01:30:00", "#BSUB -W 90")
    .replace("srun", "flux run"),
    fix="conversion",
)
PBS_DIRECTIVE = family.hint(
    """JS598 pbs-directive: A PBS `#PBS` directive, which `flux batch` ignores.

    Flux reads only `#flux:` directives: a `#PBS` line is a comment to it, so the job runs
    without what the line asks. The fix converts the whole script: every `#PBS` directive
    (`select=` chunks, Torque's `nodes=N:ppn=M`, `walltime`) as `#flux:`, `mpirun`/`aprun`
    lines as `flux run`, `PBS_*` variables as Flux's.""",
    bad=_S.replace("#SBATCH --nodes=2", "#PBS -l nodes=2")
    .replace("#SBATCH --time=01:30:00", "#PBS -l walltime=01:30:00")
    .replace("srun", "flux run"),
    fix="conversion",
)
APPROXIMATED = family.warning(
    """JS599 scheduler-option-approximated: An option the conversion carries only
    approximately: the Flux job differs from what the scheduler would give, and how.

    The scheduler leaves some things to itself (how many nodes `-n 4 --exclusive` takes, or
    GPUs per node without a node count), and Flux's slots are even where a scheduler may
    place tasks unevenly (25 tasks on 2 nodes). The conversion writes the nearest Flux shape
    and says at the option what differs, so you can add what the job needs (a node count,
    most often).""",
    bad=_S.replace("#SBATCH --nodes=2\n", "#SBATCH --ntasks=4 --exclusive\n").replace(
        "srun", "flux run"
    ),
    good=_F.replace("--nodes=2", "--nodes=1 --nslots=4 --exclusive"),
)
NOT_CONVERTIBLE = family.error(
    """JS589 job-not-convertible: A script whose job has no Flux batch form as a whole: a
    heterogeneous Slurm job, or directives of two schedulers.

    A heterogeneous job's components ask different resources, which one Flux batch job
    cannot; directives of two schedulers leave open which one the script is for. Nothing is
    converted; the message says what to do instead.""",
    bad=_S.replace(
        "#SBATCH --time=01:30:00", "#SBATCH --time=01:30:00\n#SBATCH hetjob\n#SBATCH --nodes=1"
    ).replace("srun", "flux run"),
)


_DIRECTIVE = {"slurm": SLURM_DIRECTIVE, "lsf": LSF_DIRECTIVE, "pbs": PBS_DIRECTIVE}
_WORD = {"slurm": "#SBATCH", "lsf": "#BSUB", "pbs": "#PBS"}
_CODE = {
    "kept": (NOT_CARRIED, W),
    "bad": (NOT_SBATCH, E),
    "note": (CARRIED_DIFFERENTLY, I),
    "approx": (APPROXIMATED, W),
    "late": (AFTER_COMMANDS, W),
    "variable": (SLURM_VARIABLE, W),
    "command": (CARRIED_DIFFERENTLY, I),
    "launch": (SLURM_COMMAND, W),
    "refused": (NOT_CONVERTIBLE, E),
}
# every word the three schedulers' tables look for in a script (their directive sentinels,
# variable prefixes and commands; a test holds this to the tables): a script holding none
# of them is checked without loading the conversion
FOREIGN = (
    "#SBATCH", "#BSUB", "#PBS", "LSB_", "LS_", "PBS_", "SLURM_", "bhosts", "bjobs", "bkill",
    "bpeek", "bqueues", "bsub", "bwait", "pbsnodes", "qdel", "qstat", "qsub", "sacct",
    "salloc", "sattach", "sbatch", "scancel", "scontrol", "sinfo", "squeue", "srun",
)  # fmt: skip


# the conversion, loaded only for a script that holds another scheduler's words (the
# declared boundary of this module: a Flux script without them never loads migrate/)
_MIGRATION = "jobspec_lsp.script.foreign"
_CONVERT = "jobspec_lsp.migrate.convert:convert"
_OWNER = {"slurm": "Slurm", "lsf": "LSF", "pbs": "PBS"}


def convert_script(text: str, source: str = "auto") -> migrate.Conversion:
    """The whole script converted (see :mod:`jobspec_lsp.migrate.convert`)."""
    return boundary.load(_CONVERT)(text, source)


@functools.lru_cache(maxsize=64)
def diagnostics(text: str, source: str = "auto") -> tuple[Diagnostic, ...]:
    """JS589-JS599 for a script: each converted directive line (a hint whose fix is the
    whole conversion), what cannot be carried, and the scheduler left in the body."""
    if not any(w in text for w in FOREIGN):  # nothing of theirs: the tables stay unloaded
        return ()
    return boundary.load(_MIGRATION).findings(text, source)


def hover_at(text: str, offset: int) -> tuple[str, int, int] | None:
    """(markdown, start, end) for a Slurm, LSF or PBS directive line under ``offset``: what
    the conversion writes for it, and the option under the cursor with its Flux form and
    the reference it follows."""
    ls = text.rfind("\n", 0, offset) + 1
    if not text.startswith(("#SBATCH", "#BSUB", "#PBS"), ls):
        return None
    return boundary.load(_MIGRATION).hover_at(text, offset)
