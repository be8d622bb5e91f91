"""The proof of the Slurm conversion: for every Slurm script of tests/data/migration, what
real Slurm 22.05 reads from the original (``scontrol show job`` of the held job) equals what
real Flux builds from the script `jobspec convert` writes (``flux batch --dry-run``), field
by field: nodes, tasks, cores and GPUs per task and per node, exclusivity, time, name,
output, error, dependencies. A heterogeneous job is refused by the conversion (said, and
nothing written) and counted apart. ``test_report`` prints the agreement per field.

And for scripts that can run here: the original run under Slurm (partition ``debug``) and
the converted one under Flux see the same ranks, task count and nodes.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from helpers import run_cli
from slurmside import (
    RUN_SCRIPTS,
    SLURM_SCRIPTS,
    adjustment_for,
    flux_dry_run,
    flux_reading,
    run_under_slurm,
    slurm_reading,
)

CORPUS = sorted(SLURM_SCRIPTS.glob("*.sh"))
FIELDS = (
    "nodes",
    "tasks",
    "cores_per_task",
    "gpus_per_task",
    "gpus_per_node",
    "exclusive",
    "time",
    "name",
    "output",
    "error",
    "dependencies",
)
_RESULTS: dict[str, dict[str, tuple]] = {}


def _convert(path: Path, tmp_path: Path) -> tuple[Path, str]:
    out = tmp_path / path.name  # the same file name: the default job name is the same
    proc = run_cli("convert", path, "-o", out, cwd=tmp_path)
    return out, proc.stderr.decode()


def compared(slurm: dict, flux: dict, shape_tasks: int) -> dict[str, tuple]:
    """field -> (Slurm's value, Flux's value) for each field both say something about."""
    out: dict[str, tuple] = {}
    slots = flux["slots"]
    per_slot = max(1, shape_tasks // slots) if shape_tasks > slots else 1
    # nodes: what Slurm counts (TRES: the pending job's NumNodes has a quirk with -c)
    slurm_nodes = slurm["nodes_min"] if slurm["nodes_given"] else slurm["tres_nodes"]
    if flux["nodes"] is not None or slurm["nodes_given"]:
        out["nodes"] = (slurm_nodes, flux["nodes"])
    out["tasks"] = (slurm["tasks"], shape_tasks)
    cores = flux["cores_per_slot"] or 1
    if slurm["cpus_per_gpu"]:
        # cpus given per gpu: a pending job shows NumCPUs=1 (Slurm counts them when it
        # allocates), so the job's cpus are CpusPerTres x its gpus, as Slurm will give them
        nodes = slurm_nodes or 1
        gpus = (
            slurm["gpus_total"]
            or (slurm["gpus_per_node"] or 0) * nodes
            or (slurm["gpus_per_task"] or 0) * (slurm["tasks"] or 1)
        )
        out["cores_per_task"] = (slurm["cpus_per_gpu"] * gpus, cores * slots)
    else:
        out["cores_per_task"] = (slurm["cpus_per_task"] or 1, cores // per_slot)
    gps = flux["gpus_per_slot"] or 0
    if slurm["gpus_per_task"] is not None:
        out["gpus_per_task"] = (slurm["gpus_per_task"], gps // per_slot)
    if slurm["gpus_per_node"] is not None:
        out["gpus_per_node"] = (slurm["gpus_per_node"], gps * (flux["slots_per_node"] or 1))
    if slurm["gpus_total"] is not None:
        out["gpus_per_node"] = (slurm["gpus_total"], gps * slots)
    out["exclusive"] = (slurm["exclusive"], flux["exclusive"])
    if slurm["time_given"]:
        out["time"] = (slurm["time_seconds"] or 0, flux["duration"])
    name = flux["name"]
    out["name"] = (slurm["name"], name)

    def path(p):
        return None if p is None else p.replace("{{name}}", name or "")

    def index(p):  # an array's %a: Flux has no arrays, the pattern stays as written
        return p.replace("{task}", "%a") if p and slurm["array"] else p

    out["output"] = (index(slurm["stdout"]), path(flux["stdout"]))
    out["error"] = (index(slurm["stderr"]), path(flux["stderr"]))
    out["dependencies"] = (
        sorted(slurm["dependencies"]),
        sorted((s, v) for s, v in flux["deps"]),
    )
    return out


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_slurm_and_flux_read_the_same_job(slurm, flux_exe, tmp_path, path):
    from jobspec_lsp.migrate import convert

    readings = slurm_reading(path, adjustment=adjustment_for(path))
    text = path.read_text(errors="surrogateescape")
    conv = convert.convert(text)
    if len(readings) > 1:  # a heterogeneous job: refused, with the reason
        assert conv.refused and "heterogeneous" in conv.refused
        _RESULTS[path.name] = {"refused": (len(readings), "refused")}
        return
    out, _err = _convert(path, tmp_path)
    js = flux_dry_run(flux_exe, out.name, cwd=tmp_path)
    flux = flux_reading(js, str(tmp_path))
    assert conv.shape is not None
    got = compared(readings[0], flux, conv.shape.tasks)
    adjust = adjustment_for(path)
    masked = adjust.masked if adjust else frozenset()
    if masked & {"gpus_per_node", "gres"}:
        got.pop("gpus_per_node", None)
        got.pop("gpus_per_task", None)
    sized = [f.message for f in conv.findings if "sized for its largest step" in f.message]
    if sized:  # the conversion grew each slot for a step the directives cannot hold
        for field in ("cores_per_task", "gpus_per_task", "gpus_per_node"):
            if field in got and got[field][0] != got[field][1]:
                slurm_value, flux_value = got.pop(field)
                assert flux_value > slurm_value, (field, slurm_value, flux_value)
                got[f"{field}, sized for a step"] = (slurm_value, flux_value)
        (said,) = sized
        grown = said.split("): ", 1)[1].split(", where", 1)[0]
        if flux["cores_per_slot"] and flux["cores_per_slot"] > 1:
            assert f"-c {flux['cores_per_slot']}" in grown, (grown, flux)
    _RESULTS[path.name] = got
    differ = {k: v for k, v in got.items() if v[0] != v[1] and not k.endswith("for a step")}
    assert not differ, differ


def test_report(slurm):
    """The agreement per field over the scripts compared above (printed with -s)."""
    if not _RESULTS:
        pytest.skip("run with the comparison tests")
    lines = []
    for field in FIELDS:
        said = [r[field] for r in _RESULTS.values() if field in r]
        agree = sum(1 for a, b in said if a == b)
        lines.append(f"{field}: {agree} of {len(said)} agree")
    refused = sum(1 for r in _RESULTS.values() if "refused" in r)
    lines.append(f"heterogeneous, refused with a reason: {refused}")
    sized = sum(1 for r in _RESULTS.values() if any(k.endswith("for a step") for k in r))
    lines.append(f"allocations sized for a step the directives cannot hold (JS599): {sized}")
    print("\n" + "\n".join(lines))
    assert all(re.match(r"\w+: (\d+) of \1 agree", x) for x in lines[: len(FIELDS)]), lines


# --------------------------------------------------------------------------- run both
RUNNABLE = sorted(RUN_SCRIPTS.glob("*.sh"))


def _seen(output: str) -> list[str]:
    """The facts a probe prints (``key=value`` lines), in order of their text."""
    return sorted(line for line in output.splitlines() if re.match(r"\w+=", line))


@pytest.mark.parametrize("path", RUNNABLE, ids=lambda p: p.name)
def test_what_the_job_sees_under_slurm_and_under_flux(slurm, flux, tmp_path, path):
    """The original run under Slurm on this machine, the converted one under Flux: the
    same ranks and task count on the same number of nodes."""
    under_slurm = run_under_slurm(path, timeout=120)
    out, _ = _convert(path, tmp_path)
    # submitted as a user does, from a shell in the script's directory (the shell keeps
    # $PWD, which flux batch expands in the conversion's --env=SLURM_SUBMIT_DIR=$PWD)
    sub = subprocess.run(
        [
            "sh",
            "-c",
            'cd "$1" && exec "$2" batch --output="$1/flux.out" "$3"',
            "sh",
            str(tmp_path),
            flux.exe,
            out.name,
        ],
        capture_output=True,
        text=True,
        env=flux.env,
        timeout=120,
    )
    assert sub.returncode == 0, sub.stderr
    done = flux.run("job", "wait-event", "-t", "120", sub.stdout.strip(), "clean")
    assert done.returncode == 0, done.stderr
    under_flux = (tmp_path / "flux.out").read_text()
    assert _seen(under_flux) == _seen(under_slurm), (under_slurm, under_flux)
    assert _seen(under_slurm)  # the probe printed what it sees
