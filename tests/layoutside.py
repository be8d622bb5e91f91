"""Running the launch-layout scripts (tests/layout_cases.py) and reading what their steps
got: the probe each step runs, the Flux instance shaped like the source cluster, and the
measures taken from the probe's reports.

The probe writes one JSON line per task into ``out/STEP.RANK`` (in the job's working
directory): under Flux its task rank (FLUX_TASK_RANK), the step's size, the node it runs on
(the broker rank, ``flux getattr rank``) and, from the first task on each node, the step's R
(``flux job info $FLUX_JOB_ID R``: the cores and GPUs the step holds on each node); under
Slurm SLURM_PROCID, the step's size, SLURM_NODEID and, from the first task on each node, the
CPUs of the step (``scontrol show step``: with ``SLURM_EXACT=1`` those the step asked).
After each step the script appends ``LABEL EXIT-STATUS`` to ``steps.txt``.

Flux's job shell cannot bind tasks to the 8 cores a node is given here (this machine has
fewer), so cores and GPUs per task are read from R: on each node, its cores (GPUs) over its
tasks, the least over the nodes (a node holding a spare core for a task that Flux spreads
unevenly has more, never less).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from pathlib import Path

from helpers import jobspec_exe
from layout_cases import HOSTS, NODE_CORES, NODE_GPUS, NODES, Layout, Script

PROBE = r"""#!/bin/sh
# probe STEP: what one task of a launch line got (tests/layoutside.py)
mkdir -p out
if [ -n "${FLUX_TASK_RANK:-}" ]; then
    node=$(flux getattr rank)
    R=null
    if [ "$FLUX_TASK_LOCAL_ID" = 0 ]; then R=$(flux job info "$FLUX_JOB_ID" R); fi
    printf '{"rank": %s, "size": %s, "node": %s, "R": %s, "container": "%s"}\n' \
        "$FLUX_TASK_RANK" "$FLUX_JOB_SIZE" "$node" "$R" "${APPTAINER_CONTAINER:-}" \
        > "out/$1.$FLUX_TASK_RANK"
elif [ -n "${SLURM_PROCID:-}" ]; then
    cpus=null
    if [ "$SLURM_LOCALID" = 0 ]; then
        cpus=$(scontrol show step "$SLURM_JOB_ID.$SLURM_STEP_ID" | grep -o 'TRES=cpu=[0-9]*' \
            | head -n 1 | cut -d= -f3)
    fi
    printf '{"rank": %s, "size": %s, "node": %s, "cpus": %s}\n' \
        "$SLURM_PROCID" "$SLURM_STEP_NUM_TASKS" "$SLURM_NODEID" "${cpus:-null}" \
        > "out/$1.$SLURM_PROCID"
fi
"""


def write_R(flux_exe: str, where: Path) -> Path:
    """An R of NODES nodes of NODE_CORES cores and NODE_GPUS GPUs, written with ``flux R
    encode`` (as flux-core's own tests give brokers resources this machine lacks)."""
    last = NODES - 1
    proc = subprocess.run(
        [
            flux_exe,
            "R",
            "encode",
            f"--ranks=0-{last}",
            f"--cores=0-{NODE_CORES - 1}",
            f"--gpu=0-{NODE_GPUS - 1}",
            f"--hosts={HOSTS}",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    path = where / "R.json"
    path.write_text(proc.stdout)
    return path


def resource_toml(r_path: Path) -> str:
    """The instance's resource configuration: that R, not verified against this machine."""
    return f'[resource]\npath = "{r_path}"\nnoverify = true\n'


# the source cluster's launchers, as a Flux cluster has them: not at all. A launch line the
# conversion left as it is fails at once (under Flux here it would otherwise reach this
# machine's real Slurm, whose srun asks Slurm for a new job and waits).
LAUNCHERS = ("srun", "jsrun", "lrun", "mpirun", "mpiexec", "mpiexec.hydra", "aprun")
ABSENT = """#!/bin/sh
echo "$(basename "$0"): not on this Flux cluster (the line was not converted)" >&2
exit 127
"""


# Apptainer is not on this machine (nor any container image: no registry is reached).
# Converted Pyxis steps run through this stand-in, which reads `apptainer exec|run`'s
# options as the command does (those the conversion writes; any other is an error), sets
# APPTAINER_CONTAINER to the image as Apptainer does inside a container, and runs the
# program on the host: it holds the layout and the words, not the container.
APPTAINER = r"""#!/bin/sh
fail() { echo "apptainer (stand-in): $*" >&2; exit 255; }
case "$1" in exec|run) ;; *) fail "$1: not exec or run" ;; esac
shift
while [ $# -gt 0 ]; do
    case "$1" in
        --bind|-B|--pwd|--env)
            [ $# -ge 2 ] || fail "$1 needs a value"
            case "$1" in
                --pwd) cd "$2" || fail "--pwd $2: no such directory" ;;
                --env) export "$2" ;;
            esac
            shift 2 ;;
        --nv|--no-home|--writable-tmpfs|--fakeroot) shift ;;
        -*) fail "$1: not an option of apptainer exec the conversion writes" ;;
        *) break ;;
    esac
done
[ $# -ge 2 ] || fail "no image, or no program after it"
case "$1" in
    docker://*/*:*|/*|./*) ;;
    *) fail "$1: neither a docker:// registry image nor a file" ;;
esac
APPTAINER_CONTAINER=$1
export APPTAINER_CONTAINER
shift
exec "$@"
"""


def absent_launchers(where: Path) -> Path:
    """A directory of stand-ins for the launchers (and for Apptainer), to put first on
    the PATH."""
    d = where / "absent-launchers"
    d.mkdir(exist_ok=True)
    for name, text in [*((n, ABSENT) for n in LAUNCHERS), ("apptainer", APPTAINER)]:
        (d / name).write_text(text)
        (d / name).chmod(0o755)
    return d


# --- preparing the scripts


def prepare(scripts: list[Script], top: Path) -> dict[str, Path]:
    """Each script in a directory of its own, the probe beside it, converted by
    ``jobspec convert`` (orig.sh → flux.sh; its findings in convert.err)."""
    dirs = {}
    for s in scripts:
        d = top / s.name
        d.mkdir(parents=True)
        (d / "orig.sh").write_text(s.text)
        (d / "probe").write_text(PROBE)
        (d / "probe").chmod(0o755)
        dirs[s.name] = d

    def convert(d: Path) -> None:
        proc = subprocess.run(
            [jobspec_exe(), "convert", "orig.sh", "-o", "flux.sh"],
            cwd=d,
            capture_output=True,
            text=True,
            timeout=120,
        )
        (d / "convert.err").write_text(f"exit {proc.returncode}\n{proc.stderr}")

    with ThreadPoolExecutor(2) as pool:
        list(pool.map(convert, dirs.values()))
    return dirs


# --- what the steps got


class Ran:
    """What one step's probes reported."""

    def __init__(self, reports: list[dict], status: int | None):
        self.reports = reports
        self.status = status  # the launch line's exit status (None: never reached)

    @property
    def started(self) -> bool:
        return bool(self.reports)


def _idset(s: str) -> set[int]:
    out: set[int] = set()
    for part in filter(None, s.split(",")):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out


def read_steps(d: Path) -> dict[str, Ran]:
    """Each step's reports (by label) and exit status, from a run's directory."""
    statuses = {}
    if (d / "steps.txt").exists():
        for line in (d / "steps.txt").read_text().splitlines():
            label, _, rc = line.partition(" ")
            statuses[label] = int(rc) if rc.strip().isdigit() else None
    reports: dict[str, list[dict]] = {}
    if (d / "out").is_dir():
        for f in sorted((d / "out").iterdir()):
            label = f.name.partition(".")[0]
            text = f.read_text().strip()
            try:
                reports.setdefault(label, []).append(json.loads(text))
            except json.JSONDecodeError:
                reports.setdefault(label, []).append({"unreadable": text})
    labels = set(statuses) | set(reports)
    return {k: Ran(reports.get(k, []), statuses.get(k)) for k in sorted(labels)}


def flux_layout(step: Ran) -> Layout | str:
    """The layout a step had under Flux (or why it cannot be read)."""
    tasks = Counter(r.get("node") for r in step.reports)
    if None in tasks:
        return f"unreadable reports: {step.reports}"
    sizes = {r.get("size") for r in step.reports}
    if sizes != {len(step.reports)}:
        return f"{len(step.reports)} reports for a step of size {sizes}"
    cores: dict[int, int] = {}
    gpus: dict[int, int] = {}
    for r in step.reports:
        if r.get("R"):
            for entry in r["R"]["execution"]["R_lite"]:
                for rank in _idset(entry["rank"]):
                    cores[rank] = len(_idset(entry["children"].get("core", "")))
                    gpus[rank] = len(_idset(entry["children"].get("gpu", "")))
    if set(tasks) - set(cores):
        return f"no R for nodes {sorted(set(tasks) - set(cores))}"
    return Layout(
        tuple(sorted(tasks.values(), reverse=True)),
        min(Fraction(cores[n], t) for n, t in tasks.items()),
        min(Fraction(gpus[n], t) for n, t in tasks.items()),
    )


def slurm_layout(step: Ran) -> tuple[int, ...] | str:
    """(tasks, cores per task) of a one-node step under Slurm (run with SLURM_EXACT=1)."""
    nodes = {r.get("node") for r in step.reports}
    cpus = [r["cpus"] for r in step.reports if r.get("cpus") is not None]
    if len(nodes) != 1 or len(cpus) != 1:
        return f"not one node's reports: {step.reports}"
    return len(step.reports), Fraction(cpus[0], len(step.reports))


# --- running under Flux


def converted_line(d: Path, label: str) -> str:
    """The converted script's line(s) for a step (a held launcher: its variable too)."""
    text = (d / "flux.sh").read_text() if (d / "flux.sh").exists() else ""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if f"./probe {label}" in line:
            if line.startswith(("CMD=",)) or line.startswith("${LAUNCH}"):
                prev = lines[i - 1] if line.startswith("${LAUNCH}") else ""
                return (prev + " ; " if prev else "") + line
            return line
    return "(no such line)"


def conversion_notes(d: Path, label: str) -> list[str]:
    """What ``jobspec convert`` said about a step's line(s) (and a held launcher's)."""
    lines = (d / "orig.sh").read_text().splitlines()
    at = {i + 1 for i, line in enumerate(lines) if f"./probe {label}" in line}
    at |= {n - 1 for n in at if lines[n - 1].startswith("${LAUNCH}")}
    said = (d / "convert.err").read_text().splitlines() if (d / "convert.err").exists() else []
    return [x.split(": ", 1)[-1] for x in said if any(x.startswith(f"orig.sh:{n}:") for n in at)]


JOB_LIMIT = "120s"  # each batch job's time limit (given on the command line): a step
# left waiting ends its job, not the tier (a script here runs in a few seconds)


def run_flux(exe: str, env: dict, dirs: dict[str, Path], timeout: float = 480) -> dict[str, dict]:
    """Submit every converted script with ``flux batch`` (all at once: Flux runs them as its
    nodes allow), wait for each to be clean (``flux job wait-event -t``), and read what each
    step got. A job over its time limit, or not clean by the deadline (then cancelled), is
    said so."""
    jobs: dict[str, str] = {}
    out: dict[str, dict] = {}
    top = next(iter(dirs.values())).parent
    env = dict(env, PATH=f"{absent_launchers(top)}:{env.get('PATH', '')}")
    for name, d in dirs.items():
        if not (d / "flux.sh").exists():
            out[name] = {"error": "not converted: " + (d / "convert.err").read_text()}
            continue
        sub = subprocess.run(
            [exe, "batch", f"--time-limit={JOB_LIMIT}", "flux.sh"],
            cwd=d,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        if sub.returncode != 0:
            out[name] = {"error": f"flux batch refused it: {sub.stderr.strip()}"}
            continue
        jobs[name] = sub.stdout.strip()
    deadline = time.monotonic() + timeout
    for name, jobid in jobs.items():
        left = max(1.0, deadline - time.monotonic())
        wait = subprocess.run(
            [exe, "job", "wait-event", "-t", f"{left:.0f}", jobid, "clean"],
            env=env,
            capture_output=True,
            text=True,
            timeout=left + 30,
        )
        result: dict = {"jobid": jobid}
        if wait.returncode != 0:
            subprocess.run([exe, "cancel", jobid], env=env, capture_output=True, timeout=60)
            result["error"] = f"not clean within the deadline (left waiting): {wait.stderr.strip()}"
        else:
            log = subprocess.run(
                [exe, "job", "eventlog", jobid], env=env, capture_output=True, text=True, timeout=60
            )
            if 'type="timeout"' in log.stdout:
                result["error"] = f"over its {JOB_LIMIT} limit: a step was left waiting"
        out[name] = result
    for name, result in out.items():
        d = dirs[name]
        result["log"] = "".join(
            f.read_text(errors="replace")
            for f in sorted(d.iterdir())
            if f.is_file()
            and f.name not in ("orig.sh", "flux.sh", "probe", "steps.txt", "convert.err")
        )
        result["steps"] = read_steps(d)
    return out


def _flux_class():
    """The Flux class of tests/flux/conftest.py (loaded by path: both tiers use it)."""
    path = Path(__file__).resolve().parent / "flux" / "conftest.py"
    spec = importlib.util.spec_from_file_location("jobspec_flux_tier_for_layouts", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Flux


class Instance:
    """A ``flux start --test-size=NODES`` instance whose R is the source cluster's (the
    Flux class of tests/flux/conftest.py, given the resource configuration)."""

    def __init__(self, exe: str):
        self.tmp = Path(tempfile.mkdtemp(prefix="jobspec-layouts-"))
        r_path = write_R(exe, self.tmp)
        self.flux = _flux_class()(exe, {"resource.toml": resource_toml(r_path)}, size=NODES)

    def close(self) -> None:
        self.flux.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


def slurm_version() -> tuple[int, int]:
    proc = subprocess.run(["sbatch", "--version"], capture_output=True, text=True, timeout=30)
    m = re.search(r"(\d+)\.(\d+)", proc.stdout)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


# --- running under Slurm (partition debug: this machine, one node)


def run_slurm(dirs: dict[str, Path], partition: str = "debug", timeout: float = 180) -> dict:
    """Run each original script (orig.sh) under real Slurm with ``sbatch --wait``, all
    submitted at once (Slurm queues them on its one node), with ``SLURM_EXACT=1`` so that
    each step holds only the CPUs it asked (what the probe reads as its cores per task).
    Returns, per script, its steps as the probe saw them (or an error)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SBATCH_", "SLURM_"))}

    def one(d: Path) -> dict:
        cmd = [
            "sbatch", "--wait", "--parsable", "-p", partition, "--output=slurm.out",
            "--export=ALL,SLURM_EXACT=1", "orig.sh",
        ]  # fmt: skip
        proc = subprocess.Popen(
            cmd, cwd=d, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        jobid = (proc.stdout.readline() if proc.stdout else "").strip().split(";")[0]
        try:
            _, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            if jobid:
                subprocess.run(["scancel", jobid], capture_output=True, timeout=60)
            proc.kill()
            proc.communicate()
            return {"error": f"job {jobid} not done within {timeout} s", "steps": read_steps(d)}
        result: dict = {"steps": read_steps(d)}
        out = d / "slurm.out"
        if not jobid or (proc.returncode != 0 and not out.exists()):
            result["error"] = f"sbatch refused it: {stderr.strip()}"
        result["log"] = out.read_text(errors="replace") if out.exists() else ""
        return result

    with ThreadPoolExecutor(max(1, len(dirs))) as pool:
        return dict(zip(dirs, pool.map(one, dirs.values())))
