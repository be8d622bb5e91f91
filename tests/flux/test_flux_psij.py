"""PSI/J JobSpecs, written by psij-python itself, converted by `jobspec convert --from
psij`, submitted to a real Flux instance and run: each job must do what its JobSpec
says -- the tasks it starts, their working directory and environment, where stdout
and stderr go, the job's name, queue and bank, the pre-launch script's exports, the
enforced time limit. JobSpecs that ask for more than the one-node instance has are
accepted at ingest and fail only as unsatisfiable.

The instance is one broker on this machine (2 cores, no gpu); it is configured with two
queues (batch, the default, and debug), as a
site would, so that a queue is something a job can be given."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import Flux
from helpers import run_cli
from psij_env import ask

QUEUES = '[queues.batch]\n[queues.debug]\n[policy.jobspec.defaults.system]\nqueue = "batch"\n'
PROBE = """#!/bin/sh
if [ "$1" = sleep ]; then sleep 60; fi
echo "task=${FLUX_TASK_RANK} pwd=$(pwd) var=${PSIJ_VAR-unset} pre=${PRE_VAR-unset} home=${HOME-unset} args=$*"
echo "err-${FLUX_TASK_RANK}" >&2
"""
PRE = "export PRE_VAR=from-pre\n"


def _cases() -> list[dict]:
    """(name, spec) pairs: a spec is psij keyword arguments, {W} the work folder."""
    out = []
    for n, res in enumerate(
        [
            {},
            {"process_count": 2},
            {"process_count": 1},
            {"node_count": 1},
            {"processes_per_node": 2},
            {"node_count": 1, "processes_per_node": 2},
            {"node_count": 1, "process_count": 2},
            {"cpu_cores_per_process": 2},
            {"node_count": 1, "exclusive_node_use": True},
            {"node_count": 1, "processes_per_node": 2, "exclusive_node_use": True},
        ]
    ):
        out.append({"id": f"res{n}", "resources": res})
    for n, extra in enumerate(
        [
            {"environment": {"PSIJ_VAR": "x1"}},
            {"environment": {"PSIJ_VAR": "with space"}},
            {"environment": {"PSIJ_VAR": "x3"}, "inherit_environment": True},
            {"inherit_environment": True},
            {"arguments": ["a", "b c"]},
            {"arguments": ["--flag", "1"]},
            {"name": "psij-named"},
            {"name": "another name"},
            {"attributes": {"queue_name": "debug"}},
            {"attributes": {"queue_name": "batch"}},
            {"attributes": {"account": "lab"}},
            {"attributes": {"queue_name": "debug", "account": "physics"}},
            {"attributes": {"duration": 300}},
            {"attributes": {"duration": 3600}},
            {"stdout_path": "{W}/only-out.txt", "stderr_path": None},
            {"stderr_path": "{W}/only-err.txt", "stdout_path": None},
            {"pre_launch": "{W}/pre.sh"},
            {"pre_launch": "{W}/pre.sh", "resources": {"process_count": 2}},
            {"pre_launch": "{W}/pre.sh", "post_launch": "{W}/post.sh"},
            {"launcher": "single", "resources": {"process_count": 2}},
            {"launcher": "single"},
            {"launcher": "multiple", "resources": {"process_count": 2}},
            {"launcher": "mpirun", "resources": {"process_count": 2}},
            {
                "environment": {"PSIJ_VAR": "all"},
                "name": "all",
                "resources": {"process_count": 2},
                "attributes": {"queue_name": "debug", "account": "lab", "duration": 120},
            },
            {"directory": "{W}/sub"},
            {"resources": {"process_count": 2}, "environment": {"PSIJ_VAR": "two"}},
            {"attributes": {"duration": 3}, "arguments": ["sleep"]},  # the limit is enforced
        ]
    ):
        out.append({"id": f"opt{n}", **extra})
    for n, res in enumerate(  # more than the instance has: accepted, then unsatisfiable
        [
            {"node_count": 2},
            {"process_count": 3},  # the instance has the 2 cores of this machine
            {"process_count": 2, "cpu_cores_per_process": 2},
            {"gpu_cores_per_process": 1},
        ]
    ):
        out.append({"id": f"big{n}", "resources": res, "unsatisfiable": True})
    return out


CASES = _cases()


@pytest.fixture(scope="module")
def instance(flux_exe):
    got = Flux(flux_exe, {"queues.toml": QUEUES})
    got.run("queue", "start", "--all")
    try:
        yield got
    finally:
        got.close()


def _spec(case: dict, work: Path) -> dict:
    spec = {
        "executable": str(work / "probe.sh"),
        "directory": str(work),
        "stdout_path": str(work / "out.txt"),
        "stderr_path": str(work / "err.txt"),
        "inherit_environment": False,
    }
    for k, v in case.items():
        if k in ("id", "unsatisfiable"):
            continue
        spec[k] = v
    text = json.dumps(spec).replace("{W}", str(work))
    return {k: v for k, v in json.loads(text).items() if v is not None}


def test_there_are_at_least_40_jobspecs():
    assert len(CASES) >= 40


@pytest.fixture(scope="module")
def serialized(tmp_path_factory):
    """Every case's JobSpec, written by psij-python's JSONSerializer."""
    root = tmp_path_factory.mktemp("psij")
    works = {}
    specs = []
    for case in CASES:
        work = root / case["id"]
        (work / "sub").mkdir(parents=True)
        (work / "probe.sh").write_text(PROBE)
        (work / "probe.sh").chmod(0o755)
        (work / "pre.sh").write_text(PRE)
        (work / "post.sh").write_text("echo post-ran >> " + str(work / "post.log") + "\n")
        works[case["id"]] = work
        specs.append(_spec(case, work))
    texts = ask({"serialize": specs})
    return {c["id"]: (works[c["id"]], s, t) for c, s, t in zip(CASES, specs, texts)}


@pytest.mark.flux
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_a_converted_psij_job_does_what_its_jobspec_says(instance, serialized, case):
    work, spec, text = serialized[case["id"]]
    (work / "spec.json").write_text(text)
    conv = run_cli(
        "convert",
        "--from",
        "psij",
        work / "spec.json",
        "--format",
        "json",
        "-o",
        work / "job.json",
        cwd=work,
    )
    assert conv.returncode == 0, conv.stderr.decode()
    sub = instance.run("job", "submit", work / "job.json")
    assert sub.returncode == 0, sub.stderr  # ingest accepts every one
    jobid = sub.stdout.strip()
    done = instance.run("job", "wait-event", "-t", "120", jobid, "clean")
    assert done.returncode == 0, done.stderr
    events = instance.run("job", "eventlog", jobid).stdout
    if case.get("unsatisfiable"):
        assert "unsatisfiable" in events, events
        return
    res = spec.get("resources", {})
    if spec.get("attributes", {}).get("duration") == 3:
        assert 'type="timeout"' in events, events
        return
    assert "exception" not in events, events
    # the tasks and what each saw
    out_path = Path(spec.get("stdout_path", work / "out.txt"))
    lines = out_path.read_text().splitlines() if "stdout_path" in spec else []
    tasks = 1 if spec.get("launcher") == "single" else _processes(res)
    if "stdout_path" in spec:
        assert len(lines) == tasks, lines
        assert sorted(ln.split()[0] for ln in lines) == [f"task={i}" for i in range(tasks)]
        for ln in lines:
            assert f"pwd={spec['directory']}" in ln
            want_var = spec.get("environment", {}).get("PSIJ_VAR", "unset")
            assert f"var={want_var}" in ln
            assert ("pre=from-pre" in ln) == ("pre_launch" in spec)
            assert ("home=unset" in ln) != bool(spec.get("inherit_environment"))
            if spec.get("arguments"):
                assert ln.endswith("args=" + " ".join(spec["arguments"]))
        assert not any(ln.startswith("err-") for ln in lines)  # stderr kept apart
    if "stderr_path" in spec:
        errs = Path(spec["stderr_path"]).read_text().splitlines()
        assert sorted(errs) == [f"err-{i}" for i in range(tasks)]
    if "post_launch" in spec:
        assert (work / "post.log").read_text().count("post-ran") == tasks
    # the job as Flux lists it
    shown = instance.run("jobs", "-no", "{name}|{queue}|{bank}", jobid).stdout.strip()
    name, queue, bank = (shown.split("|") + ["", ""])[:3]
    assert name == spec.get("name", spec["executable"])  # psij-python's default name
    attrs = spec.get("attributes", {})
    assert queue == attrs.get("queue_name", "batch")
    if "account" in attrs:
        assert bank == attrs["account"]
    limit = instance.run("jobs", "-no", "{duration}", jobid).stdout.strip()
    assert float(limit) == attrs.get("duration", 600)


def _processes(res: dict) -> int:
    if "process_count" in res:
        return res["process_count"]
    return res.get("node_count", 1) * res.get("processes_per_node", 1)
