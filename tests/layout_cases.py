"""Launch lines and the layout each launcher's own documentation gives them: the one place
the expected layouts live (issue 35, "proven by running").

``RULES`` holds, per launcher, a line as written in a batch script, the allocation it runs
in (``ALLOCS``: a source cluster of 4 nodes of 8 cores and 2 GPUs, as the real-Flux tier
configures it), the layout its documentation defines (tasks on each node, cores and GPUs
per task) and the documented rule that gives it. ``scripts()`` writes the test scripts from
them: every rule as written and in one other form (wrapped in `time` or `env`, after a
variable assignment, its counts given by shell variables, held in a variable and run as
`${CMD}`, the launcher and its options held in a variable, its options alone in a
variable: `srun $OPTS ./a`), every other srun rule in a Pyxis container too
(`srun --container-image=...`, run through Apptainer once converted), spread over
SCRIPT_COUNT scripts of one or two steps, each step's program the probe
(tests/layoutside.py).

tests/flux/test_flux_layouts.py runs the converted scripts under a 4-broker Flux instance
shaped like that cluster and holds each step to its rule; tests/slurm/test_slurm_layouts.py
runs the one-node Slurm scripts under real Slurm too; docs/migration.md's launcher tables are
``markdown()`` (tests/test_layout_doc.py).
"""

from __future__ import annotations

import re
import textwrap
from fractions import Fraction
from typing import NamedTuple

NODES, NODE_CORES, NODE_GPUS = 4, 8, 2  # the source cluster the Flux instance is shaped as
HOSTS = "node[0-3]"


class Doc(NamedTuple):
    """A launcher and where its layout rules are written."""

    title: str
    refs: tuple[tuple[str, str], ...]  # (what, url)


DOCS: dict[str, Doc] = {
    "srun": Doc(
        "srun (Slurm)",
        (
            ("srun(1)", "https://slurm.schedmd.com/srun.html"),
            ("sbatch(1), OUTPUT ENVIRONMENT VARIABLES", "https://slurm.schedmd.com/sbatch.html"),
        ),
    ),
    "jsrun": Doc(
        "jsrun (IBM Job Step Manager, LSF CSM)",
        (
            ("jsrun", "https://www.ibm.com/docs/en/spectrum-lsf/10.1.0?topic=jsrun"),
            (
                "OLCF Summit user guide, jsrun",
                "https://docs.olcf.ornl.gov/systems/summit_user_guide.html#job-launcher-jsrun",
            ),
        ),
    ),
    "lrun": Doc(
        "lrun (LLNL's jsrun wrapper, LSF CSM)",
        (
            (
                "LLNL, Simple Job Step Launch on CORAL systems",
                "https://hpc.llnl.gov/banks-jobs/running-jobs/slurm-srun-versus-ibm-csm-jsrun",
            ),
        ),
    ),
    "pals": Doc(
        "mpiexec (HPE Cray PALS)",
        (
            ("mpiexec(1) of PALS", "https://cpe.ext.hpe.com/docs/latest/pals/man/mpiexec.1.html"),
            ("ALCF Polaris, Running Jobs", "https://docs.alcf.anl.gov/polaris/running-jobs/"),
        ),
    ),
    "hydra": Doc(
        "mpiexec (MPICH Hydra)",
        (
            ("mpiexec (MPICH)", "https://www.mpich.org/static/docs/latest/www1/mpiexec.html"),
            (
                "Using the Hydra Process Manager",
                "https://github.com/pmodels/mpich/blob/main/doc/wiki/how_to/"
                "Using_the_Hydra_Process_Manager.md",
            ),
        ),
    ),
    "ompi": Doc(
        "mpirun (Open MPI 5)",
        (("mpirun(1)", "https://docs.open-mpi.org/en/v5.0.x/man-openmpi/man1/mpirun.1.html"),),
    ),
    "impi": Doc(
        "mpirun (Intel MPI)",
        (
            (
                "Global Hydra Options",
                "https://www.intel.com/content/www/us/en/docs/mpi-library/"
                "developer-reference-linux/2021-15/global-hydra-options.html",
            ),
            (
                "Hydra Environment Variables (I_MPI_JOB_RESPECT_PROCESS_PLACEMENT)",
                "https://www.intel.com/content/www/us/en/docs/mpi-library/"
                "developer-reference-linux/2021-15/hydra-environment-variables.html",
            ),
        ),
    ),
    "aprun": Doc(
        "aprun (Cray ALPS)",
        (
            (
                "aprun(1)",
                "https://www.nersc.gov/users/computational-systems/hopper/running-jobs/aprun/"
                "aprun-man-page/",
            ),
        ),
    ),
}


class Alloc(NamedTuple):
    """A batch job's directives (the allocation a launch line runs in)."""

    scheduler: str  # slurm | lsf | pbs
    directives: tuple[str, ...]
    one_node: bool = False  # fits real Slurm's debug partition (1 node, 2 cores)


ALLOCS: dict[str, Alloc] = {
    "slurm-whole4": Alloc("slurm", ("#SBATCH -N 4", "#SBATCH --exclusive")),
    "slurm-4x2-c4-g1": Alloc(
        "slurm",
        (
            "#SBATCH -N 4",
            "#SBATCH --ntasks-per-node=2",
            "#SBATCH -c 4",
            "#SBATCH --gpus-per-task=1",
        ),
    ),
    "slurm-2x4-c2": Alloc("slurm", ("#SBATCH -N 2", "#SBATCH --ntasks-per-node=4", "#SBATCH -c 2")),
    # one CPU a task: steps that ask more run where the site gives whole nodes (issue 35:
    # the conversion sizes the allocation for its largest step)
    "slurm-2-n4": Alloc("slurm", ("#SBATCH -N 2", "#SBATCH -n 4")),
    "slurm-1-gres2": Alloc("slurm", ("#SBATCH -N 1", "#SBATCH --gres=gpu:2")),
    "slurm-1-n2": Alloc("slurm", ("#SBATCH -N 1", "#SBATCH -n 2"), one_node=True),
    "slurm-1-c2": Alloc("slurm", ("#SBATCH -N 1", "#SBATCH -n 1", "#SBATCH -c 2"), one_node=True),
    "slurm-1-tpn2": Alloc("slurm", ("#SBATCH -N 1", "#SBATCH --ntasks-per-node=2"), one_node=True),
    "lsf-csm4": Alloc("lsf", ("#BSUB -nnodes 4",)),
    "lsf-ptile2": Alloc("lsf", ("#BSUB -n 8", '#BSUB -R "span[ptile=2]"')),
    "pbs-select4-gpu": Alloc("pbs", ("#PBS -l select=4:ncpus=8:mpiprocs=2:ngpus=2",)),
    "pbs-torque4": Alloc("pbs", ("#PBS -l nodes=4:ppn=8",)),
    "pbs-select2": Alloc("pbs", ("#PBS -l select=2:ncpus=8:mpiprocs=8",)),
}


class Layout(NamedTuple):
    """Where a step's tasks go: the tasks on each node it uses (most first), and what each
    task has: cores, and GPUs (a fraction where tasks share a node's GPUs)."""

    per_node: tuple[int, ...]
    cores: Fraction
    gpus: Fraction

    @property
    def tasks(self) -> int:
        return sum(self.per_node)

    @property
    def nodes(self) -> int:
        return len(self.per_node)

    def __str__(self) -> str:
        return (
            f"{self.tasks} tasks on {self.nodes} nodes ({','.join(map(str, self.per_node))}), "
            f"{self.cores} cores and {self.gpus} GPUs per task"
        )


def L(per_node: tuple[int, ...], cores: int = 1, gpus: Fraction | int = 0) -> Layout:
    return Layout(tuple(per_node), Fraction(cores), Fraction(gpus))


class Rule(NamedTuple):
    """A launch line (without its program), where it runs, what its launcher's
    documentation says it does."""

    key: str
    doc: str  # a DOCS key
    line: str
    alloc: str  # an ALLOCS key
    layout: Layout
    why: str
    setup: str = ""  # a line the script runs first (Intel MPI's placement switch)
    slurm_since: str = ""  # real Slurm gives it from this release on (22.05 differs)
    # a layout Flux has no form for: what the conversion gives instead, said at the line
    # (Flux spreads -n tasks over -N nodes evenly; a 4-then-2 placement has no flux run form)
    flux: Layout | None = None


_IMPI = "export I_MPI_JOB_RESPECT_PROCESS_PLACEMENT=0"
_IMPI_WHY = (
    "; inside a scheduler's job -ppn counts once I_MPI_JOB_RESPECT_PROCESS_PLACEMENT is "
    "disabled (set by the script)"
)

RULES: tuple[Rule, ...] = (
    # --- srun: the step's options, and what the batch job's environment gives it
    # (SLURM_JOB_NUM_NODES, SLURM_NTASKS, SLURM_NTASKS_PER_NODE, SLURM_CPUS_PER_TASK,
    # SLURM_GPUS_PER_TASK: srun(1) INPUT ENVIRONMENT VARIABLES, "Same as -N / -n /
    # --ntasks-per-node / -c / --gpus-per-task")
    Rule("srun-N2-tpn3", "srun", "srun -N 2 --ntasks-per-node=3", "slurm-whole4", L((3, 3)),
         "--ntasks-per-node: \"Request that ntasks be invoked on each node\" (of -N 2)"),
    Rule("srun-n8-tpn2", "srun", "srun -n 8 --ntasks-per-node=2", "slurm-whole4", L((2, 2, 2, 2)),
         "with -n, \"the --ntasks option will take precedence and the --ntasks-per-node "
         "will be treated as a maximum count of tasks per node\""),
    Rule("srun-n4-tpn1-c2", "srun", "srun -n 4 --ntasks-per-node=1 -c 2", "slurm-whole4",
         L((1, 1, 1, 1), 2), "at most 1 task a node; -c: cpus per task"),
    Rule("srun-N3-n5", "srun", "srun -N 3 -n 5", "slurm-whole4", L((2, 2, 1)),
         "block distribution, \"consecutive tasks share a node\", over the 3 nodes (Slurm "
         "deals the task counts round-robin: 2, 2, 1)"),
    Rule("srun-N2-tpn2-c4-g1", "srun", "srun -N 2 --ntasks-per-node=2 -c 4 --gpus-per-task=1",
         "slurm-whole4", L((2, 2), 4, 1), "2 tasks on each of 2 nodes, 4 cpus and 1 GPU each"),
    Rule("srun-tpn2", "srun", "srun --ntasks-per-node=2", "slurm-whole4", L((2, 2, 2, 2)),
         "-N from the job (SLURM_JOB_NUM_NODES: \"Same as -N\"), 2 tasks on each of its 4 nodes"),
    Rule("srun-bare-whole", "srun", "srun", "slurm-whole4", L((1, 1, 1, 1)),
         "-N from the job (4); -n: \"The default is one task per node\""),
    Rule("srun-n2-whole", "srun", "srun -n 2", "slurm-whole4", L((1, 1)),
         "-N from the job (4), and \"the number of nodes used ... will be reduced to match "
         "that of the number of tasks\""),
    Rule("srun-bare-gpu", "srun", "srun", "slurm-4x2-c4-g1", L((2, 2, 2, 2), 4, 1),
         "the job's -N, -n, --ntasks-per-node, -c and --gpus-per-task"),
    Rule("srun-N4-n4-gpu", "srun", "srun -N 4 -n 4", "slurm-4x2-c4-g1", L((1, 1, 1, 1), 4, 1),
         "-c 4 and --gpus-per-task=1 from the job (SLURM_CPUS_PER_TASK, SLURM_GPUS_PER_TASK)"),
    Rule("srun-n4-gpu", "srun", "srun -n 4", "slurm-4x2-c4-g1", L((1, 1, 1, 1), 4, 1),
         "-N 4, -c 4 and --gpus-per-task=1 from the job; 4 tasks over its 4 nodes"),
    Rule("srun-bare-2x4", "srun", "srun", "slurm-2x4-c2", L((4, 4), 2),
         "the job's 2 nodes, 4 tasks each, -c 2"),
    Rule("srun-N2-n4-c4", "srun", "srun -N 2 -n 4 -c 4", "slurm-2x4-c2", L((2, 2), 4),
         "2 tasks on each of 2 nodes, 4 cpus each"),
    Rule("srun-n2-c4-2x4", "srun", "srun -n 2 -c 4", "slurm-2x4-c2", L((1, 1), 4),
         "-N 2 from the job: the 2 tasks on its 2 nodes"),
    Rule("srun-n4-c2-of-n4", "srun", "srun -n 4 -c 2", "slurm-2-n4", L((2, 2), 2),
         "-N 2 from the job, 2 cpus each: more than the job's 4 CPUs (whole nodes)"),
    Rule("srun-n2-g1-of-n4", "srun", "srun -n 2 --gpus-per-task=1", "slurm-2-n4",
         L((1, 1), 1, 1), "-N 2 from the job: a task and its GPU on each node"),
    Rule("srun-n4-of-gres2", "srun", "srun -n 4", "slurm-1-gres2", L((4,), 1, Fraction(1, 2)),
         "a step of the job's GPUs: its 4 tasks share the node's 2 (--gres, no --gpus-per-task)"),
    Rule("srun-bare-n2", "srun", "srun", "slurm-1-n2", L((2,)), "the job's 2 tasks"),
    Rule("srun-n1-of-n2", "srun", "srun -n 1", "slurm-1-n2", L((1,)), "-n 1 on the job's node"),
    Rule("srun-n2-tpn2", "srun", "srun -n 2 --ntasks-per-node=2", "slurm-1-n2", L((2,)),
         "2 tasks, at most 2 a node"),
    Rule("srun-n2-dep", "srun", "srun -n 2 -d afterok:999999", "slurm-1-n2", L((2,)),
         "-d: a dependency applies to job allocations, not to a batch job's steps"),
    Rule("srun-bare-c2", "srun", "srun", "slurm-1-c2", L((1,), 2),
         "-c 2 from the job (SLURM_CPUS_PER_TASK: Slurm 22.05 and 23.02 did not read it)",
         slurm_since="23.11"),
    Rule("srun-c2", "srun", "srun -c 2", "slurm-1-c2", L((1,), 2), "-c: cpus per task"),
    Rule("srun-n2-c1", "srun", "srun -n 2 -c 1", "slurm-1-c2", L((2,)),
         "the options given win over the job's"),
    Rule("srun-bare-tpn2", "srun", "srun", "slurm-1-tpn2", L((2,)),
         "the job's --ntasks-per-node=2 on its node"),
    Rule("srun-n1-of-tpn2", "srun", "srun -n 1", "slurm-1-tpn2", L((1,)),
         "-n 1, the job's 2 a node a maximum"),
    # --- jsrun: resource sets (-n) of -a tasks, -c cores and -g GPUs, -r on each host;
    # without -r, as many as fit on a host before the next (packed)
    Rule("jsrun-n4-r1-a2", "jsrun", "jsrun -n 4 -r 1 -a 2 -c 8 -g 2", "lsf-csm4",
         L((2, 2, 2, 2), 4, 1), "1 set a host of 2 tasks, 8 cores, 2 GPUs"),
    Rule("jsrun-long-n8-r2", "jsrun",
         "jsrun --nrs 8 --rs_per_host 2 --tasks_per_rs 1 --cpu_per_rs 4 --gpu_per_rs 1",
         "lsf-csm4", L((2, 2, 2, 2), 4, 1), "2 sets a host, 1 task, 4 cores, 1 GPU each"),
    Rule("jsrun-n2-r1-a4-g2", "jsrun", "jsrun -n 2 -r 1 -a 4 -c 8 -g 2", "lsf-csm4",
         L((4, 4), 2, Fraction(1, 2)), "a set's 4 tasks share its 8 cores and 2 GPUs"),
    Rule("jsrun-packed", "jsrun", "jsrun -n 4 -a 1 -c 2 -g 1", "lsf-csm4", L((2, 2), 2, 1),
         "no -r: resource sets fill a host (as many as its 2 GPUs hold) before the next"),
    Rule("jsrun-n4-r1-c8", "jsrun", "jsrun -n 4 -r 1 -a 1 -c 8 -g 2", "lsf-csm4",
         L((1, 1, 1, 1), 8, 2), "a whole host each"),
    Rule("jsrun-n6-r2-c1", "jsrun", "jsrun -n 6 -r 2 -a 1 -c 1", "lsf-csm4", L((2, 2, 2)),
         "2 sets on each of 3 hosts"),
    # --- lrun: -T tasks on each node or -p tasks in all, over -N nodes, or without -N over
    # every node of the allocation
    Rule("lrun-T4", "lrun", "lrun -T4", "lsf-csm4", L((4, 4, 4, 4)),
         "no -N: 4 tasks on each node of the allocation"),
    Rule("lrun-N2-T4", "lrun", "lrun -N2 -T4", "lsf-csm4", L((4, 4)), "4 tasks on each of 2 nodes"),
    Rule("lrun-p8", "lrun", "lrun -p8", "lsf-csm4", L((2, 2, 2, 2)),
         "no -N: 8 tasks over every node of the allocation"),
    Rule("lrun-N3-p6", "lrun", "lrun -N3 -p6", "lsf-csm4", L((2, 2, 2)), "6 tasks over 3 nodes"),
    # --- aprun: -n PEs, -N per node (filled in order), -d cores per PE; PEs see the GPUs
    # of the node (aprun does not divide them)
    Rule("aprun-n8-N2-d4-gpu", "aprun", "aprun -n 8 -N 2 -d 4", "pbs-select4-gpu",
         L((2, 2, 2, 2), 4, 1), "2 PEs a node, 4 cpus each; the node's 2 GPUs shared"),
    Rule("aprun-n32-N8", "aprun", "aprun -n 32 -N 8", "pbs-torque4", L((8, 8, 8, 8)),
         "8 PEs on each node"),
    Rule("aprun-n6-N4", "aprun", "aprun -n 6 -N 4", "pbs-torque4", L((4, 2)),
         "-N: \"the number of PEs to place per node\": the first node 4, the next the other 2", flux=L((3, 3))),
    Rule("aprun-n4-N1-d8", "aprun", "aprun -n 4 -N 1 -d 8", "pbs-torque4", L((1, 1, 1, 1), 8),
         "1 PE a node, 8 cpus (depth) each"),
    Rule("aprun-n16-d2", "aprun", "aprun -n 16 -d 2", "pbs-torque4", L((4, 4, 4, 4), 2),
         "no -N: as many PEs a node as its cpus hold at depth 2 (4)"),
    # --- PALS mpiexec: -n ranks, --ppn per node (filled in order), --depth cpus per rank
    Rule("pals-n8-ppn2-depth4-gpu", "pals", "mpiexec -n 8 --ppn 2 --depth=4 --cpu-bind depth",
         "pbs-select4-gpu", L((2, 2, 2, 2), 4, 1),
         "2 ranks a node, depth 4; the node's 2 GPUs shared (mpiexec does not divide them)"),
    Rule("pals-n16-ppn4-d2", "pals", "mpiexec -n 16 --ppn 4 -d 2 --cpu-bind depth", "pbs-torque4",
         L((4, 4, 4, 4), 2), "4 ranks a node, 2 cpus each"),
    Rule("pals-n4-ppn1-depth8", "pals", "mpiexec -n 4 --ppn 1 --depth 8", "pbs-torque4",
         L((1, 1, 1, 1), 8), "1 rank a node, 8 cpus"),
    Rule("pals-n6-ppn4", "pals", "mpiexec -n 6 --ppn 4", "pbs-torque4", L((4, 2)),
         "--ppn: ranks per node, placed in node order: the first node 4, the next 2", flux=L((3, 3))),
    Rule("pals-n2-ppn1", "pals", "mpiexec -n 2 --ppn 1", "pbs-select2", L((1, 1)),
         "1 rank on each of 2 nodes"),
    # --- MPICH Hydra mpiexec: -n processes, -ppn consecutive processes on each host
    Rule("hydra-n8-ppn2", "hydra", "mpiexec -n 8 -ppn 2", "slurm-whole4", L((2, 2, 2, 2)),
         "-ppn: processes per node"),
    Rule("hydra-np4-ppn1", "hydra", "mpiexec -np 4 -ppn 1", "slurm-whole4", L((1, 1, 1, 1)),
         "1 process on each host"),
    Rule("hydra-n16-ppn8", "hydra", "mpiexec -n 16 -ppn 8", "pbs-select2", L((8, 8)),
         "8 on each of the 2 hosts"),
    Rule("hydra-n6-ppn4", "hydra", "mpiexec -n 6 -ppn 4", "pbs-torque4", L((4, 2)),
         "4 consecutive processes on the first host, 2 on the next", flux=L((3, 3))),
    # --- Open MPI mpirun: -np, --map-by ppr:N:node (N a node; :PE=n cores each), -N and
    # --npernode without -np: N on every allocated node
    Rule("ompi-np8-npernode2", "ompi", "mpirun -np 8 -npernode 2", "lsf-ptile2", L((2, 2, 2, 2)),
         "-npernode 2 (deprecated for --map-by ppr:2:node)"),
    Rule("ompi-np8-ppr2", "ompi", "mpirun -np 8 --map-by ppr:2:node", "lsf-ptile2",
         L((2, 2, 2, 2)), "ppr:2:node: 2 processes per node"),
    Rule("ompi-ppr2-pe4", "ompi", "mpirun -np 8 --map-by ppr:2:node:PE=4", "pbs-torque4",
         L((2, 2, 2, 2), 4),
         "ppr:2:node, and PE=4: \"bind 4 processing elements\" (cores) to each process"),
    Rule("ompi-N2", "ompi", "mpirun -N 2", "lsf-ptile2", L((2, 2, 2, 2)),
         "-N: \"Launch num processes per node on all allocated nodes\" (4)"),
    Rule("ompi-npernode1", "ompi", "mpirun --npernode 1", "pbs-torque4", L((1, 1, 1, 1)),
         "1 process on every allocated node"),
    Rule("ompi-np6-ppr4", "ompi", "mpirun -np 6 --map-by ppr:4:node", "pbs-torque4", L((4, 2)),
         "4 processes a node, in node order: 4 then 2", flux=L((3, 3))),
    # --- Intel MPI mpirun: -n, -ppn/-perhost consecutive processes on each host, -rr one
    Rule("impi-n8-ppn2", "impi", "mpirun -n 8 -ppn 2", "slurm-whole4", L((2, 2, 2, 2)),
         "-ppn: \"place the specified number of consecutive MPI processes on every host\""
         + _IMPI_WHY, setup=_IMPI),
    Rule("impi-n8-perhost2", "impi", "mpirun -n 8 -perhost 2", "pbs-torque4", L((2, 2, 2, 2)),
         "-perhost is -ppn" + _IMPI_WHY, setup=_IMPI),
    Rule("impi-n4-rr", "impi", "mpirun -n 4 -rr", "slurm-whole4", L((1, 1, 1, 1)),
         "-rr: consecutive processes on different hosts, \"equivalent to -perhost 1\""
         + _IMPI_WHY, setup=_IMPI),
    Rule("impi-n16-ppn4", "impi", "mpirun -n 16 -ppn 4", "pbs-torque4", L((4, 4, 4, 4)),
         "4 on each host" + _IMPI_WHY, setup=_IMPI),
    Rule("impi-n6-ppn4", "impi", "mpirun -n 6 -ppn 4", "pbs-torque4", L((4, 2)),
         "4 consecutive processes on the first host, 2 on the next" + _IMPI_WHY, setup=_IMPI, flux=L((3, 3))),
)  # fmt: skip

# how a step is written: {line} the launcher and its options, {prog} the probe and its step
FORMS = ("plain", "time", "env", "assign", "vars", "held", "held_opts", "opts_var")
# the image of the `pyxis` form (enroot's REGISTRY#IMAGE), and as Apptainer names it
PYXIS_IMAGE = "nvcr.io#nvidia/pytorch:23.01-py3"
APPTAINER_IMAGE = "docker://nvcr.io/nvidia/pytorch:23.01-py3"


def _vars(line: str) -> tuple[list[str], str]:
    """The line with each count given by a shell variable assigned before it."""
    words = line.split()
    sets, out = [], [words[0]]
    for i, w in enumerate(words[1:], 1):
        m = re.fullmatch(r"(-[\w-]+)=(\d+)", w)
        if m:
            name = "A_" + re.sub(r"\W", "_", m.group(1).lstrip("-"))
            sets.append(f"{name}={m.group(2)}")
            out.append(f"{m.group(1)}=${{{name}}}")
        elif w.isdigit() and words[i - 1].startswith("-"):
            name = "A_" + re.sub(r"\W", "_", words[i - 1].lstrip("-"))
            sets.append(f"{name}={w}")
            out.append(f"${{{name}}}")
        else:
            out.append(w)
    return sets, " ".join(out)


def step_lines(line: str, form: str, prog: str) -> list[str]:
    """A launch line in one of the FORMS, running ``prog``."""
    if form == "plain":
        return [f"{line} {prog}"]
    if form == "time":
        return [f"time {line} {prog}"]
    if form == "env":
        return [f"env PROBE_FORM=env {line} {prog}"]
    if form == "assign":
        return [f"PROBE_FORM=assign {line} {prog}"]
    if form == "vars":
        sets, written = _vars(line)
        return [*sets, f"{written} {prog}"]
    if form == "held":
        return [f'CMD="{line} {prog}"', "${CMD}"]
    if form == "held_opts":
        return [f'LAUNCH="{line}"', f"${{LAUNCH}} {prog}"]
    if form == "opts_var":  # the options alone in a variable: `srun $OPTS ./a`
        launcher, _, options = line.partition(" ")
        return [f'OPTS="{options}"', f"{launcher} $OPTS {prog}"]
    if form == "pyxis":  # in a Pyxis container (srun only), the working directory mounted
        launcher, _, options = line.partition(" ")
        box = f'--container-image={PYXIS_IMAGE} --container-mounts="$PWD:$PWD" --container-workdir="$PWD"'
        return [" ".join(x for x in (launcher, box, options, prog) if x)]
    raise ValueError(form)


class Step(NamedTuple):
    label: str  # s1, s2, ...: the probe's argument
    rule: Rule
    form: str


class Script(NamedTuple):
    name: str
    alloc: str
    steps: tuple[Step, ...]
    text: str


def _forms_of(i: int, rule: Rule) -> tuple[str, ...]:
    """Each rule as written, and in one other form (in turn; counts given by variables
    only where the line has counts); every other srun rule in a Pyxis container too."""
    others = [f for f in FORMS[1:] if " " in rule.line or f not in ("vars", "opts_var")]
    pyxis = ("pyxis",) if rule.doc == "srun" and i % 2 == 0 else ()
    return ("plain", others[i % len(others)], *pyxis)


SCRIPT_COUNT = 60  # the steps spread over this many scripts (each a `flux batch` job)


def scripts(count: int = SCRIPT_COUNT) -> list[Script]:
    """The test scripts: every rule in its forms, grouped by allocation, spread over about
    ``count`` scripts (a Flux batch job each: its instance's start is what costs time)."""
    by_alloc: dict[str, list[tuple[Rule, str]]] = {}
    for i, rule in enumerate(RULES):
        for form in _forms_of(i, rule):
            by_alloc.setdefault(rule.alloc, []).append((rule, form))
    total = sum(map(len, by_alloc.values()))
    # ``count`` scripts shared among the allocations by their steps (largest remainders)
    share = {a: len(items) * count / total for a, items in by_alloc.items()}
    per = {a: max(1, int(x)) for a, x in share.items()}
    for a in sorted(share, key=lambda a: per[a] - share[a])[: max(0, count - sum(per.values()))]:
        per[a] += 1
    out = []
    for alloc, items in by_alloc.items():
        a = ALLOCS[alloc]
        n = min(len(items), per[alloc])
        for k in range(n):
            chunk = items[k * len(items) // n : (k + 1) * len(items) // n]
            steps = tuple(Step(f"s{j + 1}", r, f) for j, (r, f) in enumerate(chunk))
            name = f"{alloc}-{k + 1:02d}"
            body = [
                "#!/bin/bash",
                *a.directives,
                f"# {name}: launch lines whose layout their launcher's documentation defines",
                "# (tests/layout_cases.py); each step's program is the probe",
            ]
            for s in steps:
                if s.rule.setup and s.rule.setup not in body:
                    body.append(s.rule.setup)
                body += step_lines(s.rule.line, s.form, f"./probe {s.label}")
                body.append(f'echo "{s.label} $?" >> steps.txt')
            out.append(Script(name, alloc, steps, "\n".join(body) + "\n"))
    return out


# --- the tables in docs/migration.md


def _frac(x: Fraction) -> str:
    return str(x) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def markdown() -> str:
    """docs/migration.md's section: per launcher, its lines and their documented layouts."""
    out = [
        "## Launch lines, as their launchers lay them out",
        "",
        "What each launcher's own documentation says a launch line starts: how many tasks, on "
        "how many nodes, how many on each (most first), and the cores and GPUs of each task. "
        '"In a job of" is the allocation the line runs in: a launcher takes what the line '
        "does not say from it (srun reads the job's `SLURM_*` variables as its own options; "
        "`mpirun -N 2` starts 2 on every node of the job). The jobs run on nodes of "
        f"{NODE_CORES} cores and {NODE_GPUS} GPUs; a fraction of a GPU is a node's GPUs shared "
        "by the tasks on it (a launcher that does not divide GPUs leaves each task the job's).",
        "",
        "The real-Flux tier (`tests/flux/test_flux_layouts.py`) holds the conversion to these "
        f"tables: a `flux start --test-size={NODES}` instance given an R of {NODES} such nodes "
        f"runs each line, converted by `jobspec convert`, in {SCRIPT_COUNT} scripts (Slurm, "
        "LSF, PBS) that write it as people do (as it is, after `time` or `env X=1`, after a variable "
        "assignment, with its counts in shell variables, held in a variable and run as "
        "`${CMD}`, its options in a variable, `srun $OPTS`, srun in a Pyxis container), every step's program a probe that reports its task rank, its node (the "
        "broker's rank) and the cores and GPUs the step holds there (its R). Every step must "
        "start and have the layout below; the one-node Slurm lines also run under real Slurm "
        "(`tests/slurm/test_slurm_layouts.py`). The tables are generated from "
        "`tests/layout_cases.py` (`python tests/layout_cases.py`), where the tier takes its "
        "expectations; a test fails when this copy is stale.",
    ]
    out = [textwrap.fill(p, 95, break_on_hyphens=False, break_long_words=False) for p in out]
    for key, doc in DOCS.items():
        refs = ", ".join(f"[{what}]({url})" for what, url in doc.refs)
        out += [
            "",
            f"### {doc.title}",
            "",
            refs,
            "",
            "| line | in a job of | tasks | nodes | tasks per node | cores per task "
            "| GPUs per task | the documented rule |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for r in RULES:
            if r.doc != key:
                continue
            lay = r.layout
            job = " ".join(f"`{d}`" for d in ALLOCS[r.alloc].directives)
            if r.setup:
                job += f" `{r.setup}`"
            why = r.why
            if r.flux is not None:
                why += (
                    f" — no Flux form: Flux spreads the tasks evenly "
                    f"({', '.join(map(str, r.flux.per_node))}), and the conversion says so"
                )
            out.append(
                f"| `{r.line}` | {job} | {lay.tasks} | {lay.nodes} | "
                f"{', '.join(map(str, lay.per_node))} | {_frac(lay.cores)} | {_frac(lay.gpus)} "
                f"| {why} |"
            )
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
