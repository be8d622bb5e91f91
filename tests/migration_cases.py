"""LSF and PBS directives and the `#flux:` lines the conversion writes for them, one case per
mapped option, each with the reference whose reading it follows. Shared by the in-process
tests (test_migrate.py) and the real-Flux tier (flux/test_flux_migrate.py), which submits
each converted script with `flux batch --dry-run` and checks the resources.

A case: (scheduler, directive lines, the `#flux:` lines written (exactly), the resources
Flux must build as (nodes or None, slots in all, cores per slot, gpus per slot, whole
nodes), the reference).
"""

_BSUB = "https://www.ibm.com/docs/en/SSWRJV_10.1.0/lsf_command_ref/bsub.{}.1.html"
_CSM = "https://www.ibm.com/docs/en/SSWRJV_10.1.0/lsf_command_ref/bsub.nnodes.1.html"
_SPAN = "https://www.ibm.com/docs/SSWRJV_10.1.0/lsf_admin/span_string.html"
_PBS = "https://github.com/openpbs/openpbs/blob/master/doc/man1/pbs_resources.7B"
_QSUB = "https://github.com/openpbs/openpbs/blob/master/doc/man1/qsub.1B"
_TORQUE = (
    "https://docs.adaptivecomputing.com/torque/6-1-2/adminGuide/torque.htm"
    "#topics/torque/2-jobs/requestingRes.htm"
)

LSF = [
    # -n: the number of tasks (slots)
    ("lsf", "#BSUB -n 8", "#flux: -n 8", (None, 8, 1, 0, False), _BSUB.format("n")),
    ("lsf", "#BSUB -n 4,8", "#flux: -n 4", (None, 4, 1, 0, False), _BSUB.format("n")),
    # -R span[ptile=K]: K tasks on each host
    (
        "lsf",
        '#BSUB -n 32\n#BSUB -R "span[ptile=16]"',
        "#flux: -N 2 -n 32",
        (2, 32, 1, 0, False),
        _SPAN,
    ),
    ("lsf", '#BSUB -n 6 -R "span[hosts=1]"', "#flux: -N 1 -n 6", (1, 6, 1, 0, False), _SPAN),
    (
        "lsf",
        '#BSUB -n 4 -R "affinity[core(3)]"',
        "#flux: -n 4 -c 3",
        (None, 4, 3, 0, False),
        _BSUB.format("__r"),
    ),
    # -nnodes (CSM): whole nodes
    ("lsf", "#BSUB -nnodes 2", "#flux: -N 2 -n 2 -x", (2, 2, 1, 0, True), _CSM),
    # -x: exclusive
    (
        "lsf",
        '#BSUB -n 8 -x -R "span[ptile=4]"',
        "#flux: -N 2 -n 8 -x",
        (2, 8, 1, 0, True),
        _BSUB.format("x"),
    ),
    # -gpu num=N: gpus per host
    (
        "lsf",
        '#BSUB -n 2 -R "span[ptile=2]" -gpu "num=4:mode=shared"',
        '#flux: -N 1 -n 2 -g 2\n# not carried: #BSUB -gpu "num=4:mode=shared"',
        (1, 2, 1, 2, False),
        _BSUB.format("gpu"),
    ),
    # -W [hour:]minute
    (
        "lsf",
        "#BSUB -n 1\n#BSUB -W 90",
        "#flux: -n 1\n#flux: -t 90m",
        (None, 1, 1, 0, False),
        _BSUB.format("__w"),
    ),
    (
        "lsf",
        "#BSUB -n 1\n#BSUB -W 1:30",
        "#flux: -n 1\n#flux: -t 90m",
        (None, 1, 1, 0, False),
        _BSUB.format("__w"),
    ),
    # -q, -P, -J, -o, -e, -cwd, -H
    (
        "lsf",
        "#BSUB -n 1 -q pbatch",
        "#flux: -n 1 -q pbatch",
        (None, 1, 1, 0, False),
        _BSUB.format("__q"),
    ),
    (
        "lsf",
        "#BSUB -n 4 -gpu num=1/task",
        "#flux: -n 4 -g 1",
        (None, 4, 1, 1, False),
        _BSUB.format("gpu"),
    ),
    (
        "lsf",
        '#BSUB -n 1 -q "pbatch pdebug"',
        "#flux: -n 1 -q pbatch",
        (None, 1, 1, 0, False),
        _BSUB.format("__q"),
    ),
    (
        "lsf",
        "#BSUB -n 1 -P lab42",
        "#flux: -n 1 --bank=lab42",
        (None, 1, 1, 0, False),
        _BSUB.format("__p"),
    ),
    (
        "lsf",
        "#BSUB -n 1 -J sim",
        "#flux: -n 1 --job-name=sim",
        (None, 1, 1, 0, False),
        _BSUB.format("__j"),
    ),
    # -J NAME[1-N]: an array, kept as a comment, and still the job's name
    (
        "lsf",
        "#BSUB -n 1 -J sweep[1-8]",
        "#flux: -n 1 --job-name=sweep\n# not carried: #BSUB -J sweep[1-8]",
        (None, 1, 1, 0, False),
        _BSUB.format("__j"),
    ),
    # -G: the bank on LLNL's LSF systems (a fairshare group elsewhere)
    (
        "lsf",
        "#BSUB -n 1 -G guests",
        "#flux: -n 1 --bank=guests",
        (None, 1, 1, 0, False),
        "https://hpc.llnl.gov/banks-jobs/running-jobs/lsf-user-manual",
    ),
    (
        "lsf",
        "#BSUB -n 1 -o out.%J",
        "#flux: -n 1 --output='out.{{id}}'",
        (None, 1, 1, 0, False),
        _BSUB.format("o"),
    ),
    (
        "lsf",
        "#BSUB -n 1 -e err.%J",
        "#flux: -n 1 --error='err.{{id}}'",
        (None, 1, 1, 0, False),
        _BSUB.format("e"),
    ),
    (
        "lsf",
        "#BSUB -n 1 -oo out.txt",
        "#flux: -n 1 --output=out.txt",
        (None, 1, 1, 0, False),
        _BSUB.format("oo"),
    ),
    (
        "lsf",
        "#BSUB -n 1 -eo err.txt",
        "#flux: -n 1 --error=err.txt",
        (None, 1, 1, 0, False),
        _BSUB.format("eo"),
    ),
    (
        "lsf",
        "#BSUB -n 1 -cwd /tmp",
        "#flux: -n 1 --cwd=/tmp",
        (None, 1, 1, 0, False),
        _BSUB.format("cwd"),
    ),
    (
        "lsf",
        "#BSUB -n 1 -H",
        "#flux: -n 1 --urgency=0",
        (None, 1, 1, 0, False),
        _BSUB.format("__h"),
    ),
    # -w: dependency conditions
    (
        "lsf",
        '#BSUB -n 1 -w "done(12) && ended(13)"',
        "#flux: -n 1 --dependency=afterok:12 --dependency=afterany:13",
        (None, 1, 1, 0, False),
        _BSUB.format("w"),
    ),
    # -b: begin time
    (
        "lsf",
        "#BSUB -n 1 -b 2030:01:02:03:04",
        "#flux: -n 1 --begin-time='2030-01-02 03:04'",
        (None, 1, 1, 0, False),
        _BSUB.format("b"),
    ),
    # -env
    (
        "lsf",
        '#BSUB -n 1 -env "none, A=1"',
        "#flux: -n 1 --env='-*' --env=A=1",
        (None, 1, 1, 0, False),
        _BSUB.format("env"),
    ),
    # -m: hosts
    (
        "lsf",
        '#BSUB -n 1 -m "h1 h2"',
        "#flux: -n 1 --requires=host:h1,h2",
        (None, 1, 1, 0, False),
        _BSUB.format("m"),
    ),
]

PBS = [
    # select chunks: one chunk per node with place=scatter
    (
        "pbs",
        "#PBS -l select=2:ncpus=8:mpiprocs=8 -l place=scatter",
        "#flux: -N 2 -n 16",
        (2, 16, 1, 0, False),
        _PBS,
    ),
    (
        "pbs",
        "#PBS -l select=2:ncpus=36:mpiprocs=4:ngpus=4 -l place=scatter",
        "#flux: -N 2 -n 8 -c 9 -g 1",
        (2, 8, 9, 1, False),
        _PBS,
    ),
    # ncpus not a multiple of mpiprocs: one slot per node with all its cores
    (
        "pbs",
        "#PBS -l select=2:ncpus=10:mpiprocs=3 -l place=scatter",
        "#flux: -N 2 -n 2 -c 10",
        (2, 2, 10, 0, False),
        _PBS,
    ),
    # place=free (the default): chunks anywhere, so no node count
    ("pbs", "#PBS -l select=3:ncpus=4", "#flux: -n 3 -c 4", (None, 3, 4, 0, False), _PBS),
    ("pbs", "#PBS -l select=1:ncpus=4:mpiprocs=4", "#flux: -N 1 -n 4", (1, 4, 1, 0, False), _PBS),
    (
        "pbs",
        "#PBS -l select=2:ncpus=4 -l place=pack",
        "#flux: -N 1 -n 2 -c 4",
        (1, 2, 4, 0, False),
        _PBS,
    ),
    (
        "pbs",
        "#PBS -l select=2:ncpus=4 -l place=scatter:excl",
        "#flux: -N 2 -n 2 -c 4 -x",
        (2, 2, 4, 0, True),
        _PBS,
    ),
    # Torque nodes=N:ppn=P:gpus=G
    ("pbs", "#PBS -l nodes=2:ppn=8", "#flux: -N 2 -n 16", (2, 16, 1, 0, False), _TORQUE),
    # gpus per node that its tasks cannot share evenly: one slot per node
    (
        "pbs",
        "#PBS -l nodes=1:ppn=4:gpus=2",
        "#flux: -N 1 -n 1 -c 4 -g 2",
        (1, 1, 4, 2, False),
        _TORQUE,
    ),
    # walltime: [[hours:]minutes:]seconds; Torque also days:hours:minutes:seconds
    (
        "pbs",
        "#PBS -l nodes=1\n#PBS -l walltime=01:30:00",
        "#flux: -N 1 -n 1 -x\n#flux: -t 90m",
        (1, 1, 1, 0, True),
        _PBS,
    ),
    (
        "pbs",
        "#PBS -l nodes=1\n#PBS -l walltime=10:00",
        "#flux: -N 1 -n 1 -x\n#flux: -t 10m",
        (1, 1, 1, 0, True),
        _PBS,
    ),
    (
        "pbs",
        "#PBS -l nodes=1,walltime=1:00:00:00",
        "#flux: -N 1 -n 1 -x -t 1d",
        (1, 1, 1, 0, True),
        _TORQUE,
    ),
    # -N, -q, -A, -o, -e, -j oe, -W depend, -h, -v, -a, -d
    (
        "pbs",
        "#PBS -l nodes=1\n#PBS -N sim",
        "#flux: -N 1 -n 1 -x\n#flux: --job-name=sim",
        (1, 1, 1, 0, True),
        _QSUB,
    ),
    (
        "pbs",
        "#PBS -l nodes=1\n#PBS -q debug@server",
        "#flux: -N 1 -n 1 -x\n#flux: -q debug",
        (1, 1, 1, 0, True),
        _QSUB,
    ),
    (
        "pbs",
        "#PBS -l nodes=1\n#PBS -A lab42",
        "#flux: -N 1 -n 1 -x\n#flux: --bank=lab42",
        (1, 1, 1, 0, True),
        _QSUB,
    ),
    (
        "pbs",
        "#PBS -l nodes=1\n#PBS -P proj7",
        "#flux: -N 1 -n 1 -x\n#flux: --bank=proj7",
        (1, 1, 1, 0, True),
        _QSUB,
    ),
    (
        "pbs",
        "#PBS -l nodes=1\n#PBS -o host:out.txt -e err.txt",
        "#flux: -N 1 -n 1 -x\n#flux: --output=out.txt --error=err.txt",
        (1, 1, 1, 0, True),
        _QSUB,
    ),
    (
        "pbs",
        "#PBS -l nodes=1\n#PBS -j oe -o out.txt",
        "#flux: -N 1 -n 1 -x\n#flux: --output=out.txt",
        (1, 1, 1, 0, True),
        _QSUB,
    ),
    (
        "pbs",
        "#PBS -l nodes=1\n#PBS -W depend=afterok:12:13",
        "#flux: -N 1 -n 1 -x\n#flux: --dependency=afterok:12 --dependency=afterok:13",
        (1, 1, 1, 0, True),
        _QSUB,
    ),
    (
        "pbs",
        "#PBS -l nodes=1\n#PBS -h",
        "#flux: -N 1 -n 1 -x\n#flux: --urgency=0",
        (1, 1, 1, 0, True),
        _QSUB,
    ),
    (
        "pbs",
        "#PBS -l nodes=1\n#PBS -v A=1,B",
        "#flux: -N 1 -n 1 -x\n#flux: --env=A=1 --env=B",
        (1, 1, 1, 0, True),
        _QSUB,
    ),
    (
        "pbs",
        "#PBS -l nodes=1\n#PBS -a 203001020304",
        "#flux: -N 1 -n 1 -x\n#flux: --begin-time='2030-01-02 03:04'",
        (1, 1, 1, 0, True),
        _QSUB,
    ),
    (
        "pbs",
        "#PBS -l nodes=1\n#PBS -d /tmp",
        "#flux: -N 1 -n 1 -x\n#flux: --cwd=/tmp",
        (1, 1, 1, 0, True),
        _TORQUE,
    ),
    (
        "pbs",
        "#PBS -l nodes=1\n#PBS -w /tmp",
        "#flux: -N 1 -n 1 -x\n#flux: --cwd=/tmp",
        (1, 1, 1, 0, True),
        _TORQUE,
    ),
    # Cray: mppwidth (tasks), mppnppn (tasks per node), mppdepth (cores per task)
    (
        "pbs",
        "#PBS -l mppwidth=48,mppnppn=24,mppdepth=2",
        "#flux: -N 2 -n 48 -c 2",
        (2, 48, 2, 0, False),
        _QSUB,
    ),
]

CASES = LSF + PBS
