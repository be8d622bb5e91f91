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
import os
import shutil
from pathlib import Path

import pytest
from conftest import Flux
from helpers import REPO, run_cli
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


def effects(instance, work: Path, spec: dict, jobid: str) -> dict[str, bool]:
    """What the JobSpec asks for, each as happened or not, for a finished job: the
    effects that apply to this spec (tasks, directory, environment, inherited
    environment, arguments, pre/post-launch, stdout, stderr, name, queue, bank, time
    limit). A job that failed (an exception) meets none of them."""
    events = instance.run("job", "eventlog", jobid).stdout
    attrs = spec.get("attributes", {})
    if attrs.get("duration") == 3:  # the short limit: the job must be killed by it
        return {"time limit": 'type="timeout"' in events}
    tasks = 1 if spec.get("launcher") == "single" else _processes(spec.get("resources", {}))
    out_file = Path(spec["stdout_path"]) if "stdout_path" in spec else None
    lines = out_file.read_text().splitlines() if out_file and out_file.exists() else []
    ok = "exception" not in events
    got: dict[str, bool] = {}
    if out_file is not None:
        got["tasks"] = ok and sorted(ln.split()[0] for ln in lines if ln.startswith("task=")) == [
            f"task={i}" for i in range(tasks)
        ]
        got["stdout"] = (
            ok and len(lines) == tasks and not any(ln.startswith("err-") for ln in lines)
        )
        seen = [ln for ln in lines if ln.startswith("task=")] or [""]
        got["directory"] = ok and all(f"pwd={spec['directory']}" in ln for ln in seen)
        if "environment" in spec:
            want = spec["environment"]["PSIJ_VAR"]
            got["environment"] = ok and all(f"var={want} " in ln for ln in seen)
        inherit = bool(spec.get("inherit_environment"))
        got["inherit_environment"] = ok and all(("home=unset" in ln) != inherit for ln in seen)
        if spec.get("arguments"):
            got["arguments"] = ok and all(
                ln.endswith("args=" + " ".join(spec["arguments"])) for ln in seen
            )
        if "pre_launch" in spec:
            got["pre_launch"] = ok and all("pre=from-pre" in ln for ln in seen)
    if "stderr_path" in spec:
        err_file = Path(spec["stderr_path"])
        errs = err_file.read_text().splitlines() if err_file.exists() else []
        got["stderr"] = ok and sorted(errs) == [f"err-{i}" for i in range(tasks)]
    if "post_launch" in spec:
        log = work / "post.log"
        got["post_launch"] = ok and log.exists() and log.read_text().count("post-ran") == tasks
    shown = instance.run("jobs", "-no", "{name}|{queue}|{bank}|{duration}", jobid).stdout
    name, queue, bank, limit = (shown.strip().split("|") + ["", "", "", ""])[:4]
    got["name"] = name == spec.get("name", spec["executable"])  # psij-python's default name
    if "queue_name" in attrs:
        got["queue"] = queue == attrs["queue_name"]
    if "account" in attrs:
        got["bank"] = bank == attrs["account"]
    try:
        got["time limit"] = float(limit) == attrs.get("duration", 600)
    except ValueError:
        got["time limit"] = False
    return got


RESULTS: dict[str, dict[str, dict[str, bool]]] = {"jobspec": {}, "psij": {}}


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
    if case.get("unsatisfiable"):
        events = instance.run("job", "eventlog", jobid).stdout
        assert "unsatisfiable" in events, events
        return
    got = effects(instance, work, spec, jobid)
    RESULTS["jobspec"][case["id"]] = got
    missed = [k for k, v in got.items() if not v]
    assert not missed, (
        missed,
        (work / "out.txt").read_text() if (work / "out.txt").exists() else "",
    )


def _processes(res: dict) -> int:
    if "process_count" in res:
        return res["process_count"]
    return res.get("node_count", 1) * res.get("processes_per_node", 1)


@pytest.mark.flux
def test_psij_pythons_own_flux_executor_on_the_same_jobspecs(instance, serialized, tmp_path):
    """The same JobSpecs through psij-python's FluxJobExecutor (its own Flux path), the
    effects counted the same way; the table in docs/convert.md is this test's."""
    fitting = [c for c in CASES if not c.get("unsatisfiable")]
    requests = []
    for case in fitting:
        work, spec, _text = serialized[case["id"]]
        alt = tmp_path / case["id"]
        shutil.copytree(work, alt)
        for f in ("out.txt", "err.txt", "post.log", "only-out.txt", "only-err.txt"):
            (alt / f).unlink(missing_ok=True)
        request = json.loads(json.dumps(spec).replace(str(work), str(alt)))
        # psij-python's executor refuses a JobSpec without both counts ("task count must
        # be a integer >= 1"): they are written out for it, as its users must
        res = request.setdefault("resources", {})
        res.setdefault("process_count", _processes(res))
        res.setdefault("cpu_cores_per_process", 1)
        requests.append(request)
    bare = ask({"run": [{**requests[0], "resources": {}}]}, env=instance.env, flux_exe=instance.exe)
    assert "task count" in bare[0].get("error", ""), bare  # still so in this version
    answers = ask({"run": requests}, env=instance.env, flux_exe=instance.exe)
    for case, spec, answer in zip(fitting, requests, answers):
        alt = tmp_path / case["id"]
        if "error" in answer:
            RESULTS["psij"][case["id"]] = {k: False for k in RESULTS["jobspec"].get(case["id"], {})}
            continue
        RESULTS["psij"][case["id"]] = effects(instance, alt, spec, answer["id"])
    table = comparison_table()
    doc = (REPO / "docs" / "convert.md").read_text()
    if os.environ.get("JOBSPEC_WRITE_DOCS") == "1":
        head, _, rest = doc.partition(TABLE_START)
        _, _, tail = rest.partition(TABLE_END)
        (REPO / "docs" / "convert.md").write_text(head + TABLE_START + table + TABLE_END + tail)
    else:
        assert TABLE_START + table + TABLE_END in doc, (
            "docs/convert.md is stale: run this test with JOBSPEC_WRITE_DOCS=1\n" + table
        )


TABLE_START = "<!-- psij-comparison: written by tests/flux/test_flux_psij.py -->\n"
TABLE_END = "<!-- end of psij-comparison -->\n"


def comparison_table() -> str:
    ours, theirs = RESULTS["jobspec"], RESULTS["psij"]
    assert len(ours) >= 37, "run the whole tier: the table counts every JobSpec"
    fields = sorted({k for r in ours.values() for k in r})
    rows = ["| effect | this tool | psij-python's executor (counts written out) |", "|---|---|---|"]
    total = [0, 0, 0]
    for f in fields:
        n = sum(1 for r in ours.values() if f in r)
        a = sum(1 for r in ours.values() if r.get(f))
        b = sum(1 for cid, r in ours.items() if f in r and theirs.get(cid, {}).get(f))
        rows.append(f"| {f} | {a} of {n} | {b} of {n} |")
        total = [total[0] + n, total[1] + a, total[2] + b]
    rows.append(f"| **all** | **{total[1]} of {total[0]}** | **{total[2]} of {total[0]}** |")
    submitted = sum(1 for cid in ours if any(theirs.get(cid, {}).values()))
    return "\n".join(rows) + (
        f"\n\n{len(ours)} JobSpecs that fit the instance; psij-python's executor ran "
        f"{submitted} of them with at least one effect, once process_count and "
        "cpu_cores_per_process were written out for it (as written, it refuses every "
        "JobSpec that leaves either to its default).\n"
    )
