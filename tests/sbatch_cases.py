"""Slurm scripts and what `jobspec convert` makes of them: shared by the
in-process tests (test_sbatch.py) and the real-Flux tier (flux/test_flux_sbatch.py).

Each case: the `#SBATCH` block, the `#flux:` block it becomes (exactly), and the
resources the Slurm options ask for, as (nodes or None, slots in all, cores per
slot, gpus per slot, whole nodes) -- what `flux batch --dry-run` must build.
"""

CASES = [
    # a node count alone: whole nodes, as sites that allocate by node give them (issue 35)
    ("#SBATCH -N 2", "#flux: -N 2 -n 2 -x", (2, 2, 1, 0, True)),
    ("#SBATCH --nodes=3", "#flux: -N 3 -n 3 -x", (3, 3, 1, 0, True)),
    ("#SBATCH --ntasks=8", "#flux: -n 8", (None, 8, 1, 0, False)),
    ("#SBATCH -n 8", "#flux: -n 8", (None, 8, 1, 0, False)),
    ("#SBATCH -n8", "#flux: -n 8", (None, 8, 1, 0, False)),
    ("#SBATCH -N 2 --ntasks-per-node=4", "#flux: -N 2 -n 8", (2, 8, 1, 0, False)),
    ("#SBATCH --ntasks-per-node=4", "#flux: -N 1 -n 4", (1, 4, 1, 0, False)),
    (
        "#SBATCH --nodes=2\n#SBATCH --ntasks=4\n#SBATCH --ntasks-per-node=2",
        "#flux: -N 2 -n 4",
        (2, 4, 1, 0, False),
    ),
    ("#SBATCH -n 4 -c 2", "#flux: -n 4 -c 2", (None, 4, 2, 0, False)),
    ("#SBATCH --ntasks=4 --cpus-per-task=8", "#flux: -n 4 -c 8", (None, 4, 8, 0, False)),
    ("#SBATCH -N 2 -n 4 --gpus-per-task=1", "#flux: -N 2 -n 4 -g 1", (2, 4, 1, 1, False)),
    ("#SBATCH -N 2 --gres=gpu:4", "#flux: -N 2 -n 2 -g 4", (2, 2, 1, 4, False)),
    (
        "#SBATCH -N 2 --ntasks-per-node=2 --gpus-per-node=4",
        "#flux: -N 2 -n 4 -g 2",
        (2, 4, 1, 2, False),
    ),
    ("#SBATCH -n 4 -G 8", "#flux: -n 4 -g 2", (None, 4, 1, 2, False)),
    ("#SBATCH -N 1 --exclusive -n 4", "#flux: -N 1 -n 4 -x", (1, 4, 1, 0, True)),
    ("#SBATCH -N 2 -n 6 -c 2 --exclusive", "#flux: -N 2 -n 6 -c 2 -x", (2, 6, 2, 0, True)),
    ("#SBATCH -N 2-4 -n 4", "#flux: -N 2 -n 4", (2, 4, 1, 0, False)),
    ("#SBATCH --job-name=sim", "#flux: -n 1 --job-name=sim", (None, 1, 1, 0, False)),
    ("#SBATCH -J sim -t 30", "#flux: -n 1 --job-name=sim -t 30m", (None, 1, 1, 0, False)),
    ("#SBATCH -n 1 -t 1:30:00", "#flux: -n 1 -t 90m", (None, 1, 1, 0, False)),
    ("#SBATCH -n 1 --time=2-00:00:00", "#flux: -n 1 -t 2d", (None, 1, 1, 0, False)),
    ("#SBATCH -n 1 -t 45:30", "#flux: -n 1 -t 46m", (None, 1, 1, 0, False)),
    ("#SBATCH -n 1 --time=1-6", "#flux: -n 1 -t 30h", (None, 1, 1, 0, False)),
    ("#SBATCH -n 1 --time=1-0:30", "#flux: -n 1 -t 1470m", (None, 1, 1, 0, False)),
    ("#SBATCH -n 1 -t UNLIMITED", "#flux: -n 1", (None, 1, 1, 0, False)),
    ("#SBATCH -n 1 -p pdebug -A lab", "#flux: -n 1 -q pdebug --bank=lab", (None, 1, 1, 0, False)),
    (
        "#SBATCH -n 1 --partition=batch --account=lab",
        "#flux: -n 1 -q batch --bank=lab",
        (None, 1, 1, 0, False),
    ),
    (
        "#SBATCH -n 1 -o out-%j.txt -e err-%x-%j.txt",
        "#flux: -n 1 --output='out-{{id}}.txt' --error='err-{{name}}-{{id}}.txt'",
        (None, 1, 1, 0, False),
    ),
    ("#SBATCH -n 1 --output=100%%.log", "#flux: -n 1 --output=100%.log", (None, 1, 1, 0, False)),
    ("#SBATCH -n 1 -D /tmp", "#flux: -n 1 --cwd=/tmp", (None, 1, 1, 0, False)),
    (
        "#SBATCH -n 1 --chdir=/tmp --hold",
        "#flux: -n 1 --cwd=/tmp --urgency=0",
        (None, 1, 1, 0, False),
    ),
    (
        "#SBATCH -n 1 --dependency=afterok:123:456",
        "#flux: -n 1 --dependency=afterok:123 --dependency=afterok:456",
        (None, 1, 1, 0, False),
    ),
    (
        "#SBATCH -n 1 -d afterany:7,afternotok:8,singleton",
        "#flux: -n 1 --dependency=afterany:7 --dependency=afternotok:8 --dependency=singleton",
        (None, 1, 1, 0, False),
    ),
    ("#SBATCH -n 1 --begin=now+2hours", "#flux: -n 1 --begin-time=+2h", (None, 1, 1, 0, False)),
    ("#SBATCH -n 1 --begin=now+90", "#flux: -n 1 --begin-time=+90s", (None, 1, 1, 0, False)),
    (
        "#SBATCH -n 1 --begin=2030-01-20T12:34:00",
        "#flux: -n 1 --begin-time='2030-01-20 12:34:00'",
        (None, 1, 1, 0, False),
    ),
    (
        "#SBATCH -n 1 --begin=2030-01-20",
        "#flux: -n 1 --begin-time='2030-01-20 00:00'",
        (None, 1, 1, 0, False),
    ),
    (
        "#SBATCH -n 1 --begin=012030",
        "#flux: -n 1 --begin-time='2030-01-20 00:00'",
        (None, 1, 1, 0, False),
    ),
    ("#SBATCH -n 1 --begin=teatime", "#flux: -n 1 --begin-time=16:00", (None, 1, 1, 0, False)),
    ("#SBATCH -n 1 --begin=midnight", "#flux: -n 1 --begin-time=tomorrow", (None, 1, 1, 0, False)),
    ("#SBATCH -n 1 --begin=tomorrow", "#flux: -n 1 --begin-time=tomorrow", (None, 1, 1, 0, False)),
    ("#SBATCH -n 1 --export=ALL,FOO=bar", "#flux: -n 1 --env=FOO=bar", (None, 1, 1, 0, False)),
    ("#SBATCH -n 1 --export=NONE", "#flux: -n 1 --env='-*'", (None, 1, 1, 0, False)),
    (
        "#SBATCH -n 1 --export=HOME,FOO=bar",
        "#flux: -n 1 --env='-*' --env=HOME --env=FOO=bar",
        (None, 1, 1, 0, False),
    ),
    ("#SBATCH -n 1\n#SBATCH --export=ALL", "#flux: -n 1", (None, 1, 1, 0, False)),
    ("#SBATCH -n 1 -C haswell", "#flux: -n 1 --requires=haswell", (None, 1, 1, 0, False)),
    (
        "#SBATCH -n 1 --constraint='haswell&(ib|opa)'",
        "#flux: -n 1 --requires='haswell and (ib or opa)'",
        (None, 1, 1, 0, False),
    ),
    (
        "#SBATCH -n 1 -w node[1-2]",
        "#flux: -n 1 --requires='host:node[1-2]'",
        (None, 1, 1, 0, False),
    ),
    ("#SBATCH -n 1 -x node3", "#flux: -n 1 --requires=-host:node3", (None, 1, 1, 0, False)),
    ("#SBATCH -n 1 --signal=USR1@120", "#flux: -n 1 --signal=SIGUSR1@120s", (None, 1, 1, 0, False)),
    ("#SBATCH -N 2   # two nodes", "#flux: -N 2 -n 2 -x   # two nodes", (2, 2, 1, 0, True)),
]


def resources(js: dict) -> tuple:
    """The resources of a jobspec as the cases give them: (nodes or None, slots in all,
    cores per slot, gpus per slot, whole nodes)."""
    top = js["resources"][0]
    nodes, exclusive = None, False
    if top["type"] == "node":
        nodes, exclusive = top["count"], bool(top.get("exclusive"))
        slot = top["with"][0]
    else:
        slot = top
    counts = {r["type"]: r["count"] for r in slot["with"]}
    total = slot["count"] * (nodes or 1)
    return (nodes, total, counts.get("core", 0), counts.get("gpu", 0), exclusive)
