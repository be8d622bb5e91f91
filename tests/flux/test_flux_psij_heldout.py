"""The PSI/J tier's held-out set: 48 JobSpecs the converter was not tuned on, written by
psij-python, converted by `jobspec convert --from psij`, run in a real Flux instance of two
brokers (two nodes of this machine's cores), and every effect PSI/J defines for them
checked.

What a JobSpec should do is taken from PSI/J itself, never from the converter's output:
psij-python 0.9.11's JobSpec documentation and the launcher scripts its executors run
(launchers/scripts/*.sh): the job runs in ``directory`` (a relative one is relative to
where the job is submitted from, as its local executor and sbatch --chdir take it); a
relative stream path is relative to that directory; an unset stream is /dev/null (stdin
too: a program reading its input gets end of file); ``pre_launch`` and ``post_launch`` are
sourced by bash, in the job's directory, once per job (pre before the processes start,
its exports reaching them; post after every process has ended); the job's exit status
is the program's; ``inherit_environment`` adds the submitting environment, the JobSpec's
``environment`` over it; the duration is the time limit.

Each effect is counted; the figures (how many of how many happen) are printed at the end
of the run. The effects PSI/J defines that a jobspec cannot have are listed in
``CANNOT`` with the reason, and must stay missed (so a change that reaches one shows)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import Flux
from helpers import jobspec_exe
from psij_env import ask

QUEUES = '[queues.batch]\n[queues.debug]\n[policy.jobspec.defaults.system]\nqueue = "batch"\n'
MARK = "PSIJ_SUBMITTER_MARK"  # set in the submitting (converting) environment only

# Each task's record: what it was started with (rank, node-local id, directory, arguments,
# environment; when the case's program reads its input, what it read: "<open>" when the
# input did not end within 3 s), written to {rec}/rec.<rank>.<pid>.json; "out-<rank>" on
# stdout, "err-<rank>" on stderr; --sleep outlives any limit here, --exit=N exits N.
PROBE = """#!{python}
import json, os, select, sys, time
args = sys.argv[1:]
rank = os.environ.get("FLUX_TASK_RANK", "?")
data = None
if os.path.exists("{work}/reads-input"):  # this program reads its input
    ready, _, _ = select.select([0], [], [], 3.0)
    data = os.read(0, 65536).decode() if ready else "<open>"
rec = {{"rank": rank, "local": os.environ.get("FLUX_TASK_LOCAL_ID"), "cwd": os.getcwd(),
       "args": args, "env": dict(os.environ), "stdin": data}}
with open("{rec}/rec.%s.%d.json" % (rank, os.getpid()), "w") as f:
    json.dump(rec, f)
print("out-" + rank, flush=True)
print("err-" + rank, file=sys.stderr, flush=True)
if "--sleep" in args:
    time.sleep(60)
for a in args:
    if a.startswith("--exit="):
        sys.exit(int(a[7:]))
"""
PRE = "export PRE_VAR=from-pre\n"
# bash, as PSI/J's launcher sources it: an array, [[ ]], ${#...}, source
PRE_BASH = (
    'arr=(one "two words" three)\n'
    'source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"\n'
    '[[ -n "$LIB_VAR" ]] && export PRE_VAR=from-pre PRE_BASH="${#arr[@]}"\n'
)
POST = 'echo "post $(ls {rec} | wc -l)" >> {work}/post.log\n'

W = "{W}"


def _cases() -> list[dict]:
    """Each case: "id", the psij keyword arguments (paths under {W}, the case's folder,
    which is also where it is converted and submitted from; durations in seconds; None
    leaves out a field the others have), and "reads_input" when the program reads its
    standard input. Every case has the probe in {W}, {W}/bin dir and {W}/bin (as
    psij-probe), pre.sh in {W}, {W}/sub and {W}/my scripts, post.sh and in.txt."""
    return [
        # resources, on two nodes of 2 cores (the broker's own machine, twice)
        {"id": "res-none", "reads_input": True},
        {"id": "res-pc4", "resources": {"process_count": 4}},
        {"id": "res-n2", "resources": {"node_count": 2}},
        {"id": "res-n2-ppn2", "resources": {"node_count": 2, "processes_per_node": 2}},
        {"id": "res-pc4-ppn2", "resources": {"process_count": 4, "processes_per_node": 2}},
        {
            "id": "res-n2-pc2-c2",
            "resources": {"node_count": 2, "process_count": 2, "cpu_cores_per_process": 2},
        },
        {"id": "res-ppn2", "resources": {"processes_per_node": 2, "cpu_cores_per_process": 1}},
        {"id": "res-n2-excl", "resources": {"node_count": 2, "exclusive_node_use": True}},
        {"id": "res-pc1-excl", "resources": {"process_count": 1, "exclusive_node_use": True}},
        {"id": "res-c2-g0", "resources": {"cpu_cores_per_process": 2, "gpu_cores_per_process": 0}},
        {"id": "res-mem", "resources": {"process_count": 2, "memory": 1 << 20}},
        {
            "id": "res-all3-excl",
            "resources": {
                "node_count": 1,
                "process_count": 2,
                "processes_per_node": 2,
                "exclusive_node_use": True,
            },
        },
        # environment
        {
            "id": "env-values",
            "environment": {
                "A": "plain",
                "B": "two words",
                "C": 'it\'s "quoted"',
                "D": "$HOME and `x`",
                "E": "",
                "EQ": "a=b=c",
                "NL": "line1\nline2",
            },
        },
        {"id": "env-int", "environment": {"N": 42, "Z": 0}},
        {"id": "env-inherit-over", "inherit_environment": True, "environment": {MARK: "spec"}},
        {"id": "env-inherit", "inherit_environment": True},
        {"id": "env-inherit-home", "inherit_environment": True, "environment": {"HOME": "/x/y"}},
        {
            "id": "env-path",
            "executable": "psij-probe",
            "environment": {"PATH": "{W}/bin"},
        },
        # attributes
        {"id": "dur-frac", "attributes": {"duration": 90.5}},
        {"id": "dur-min", "attributes": {"duration": 150}},
        {"id": "dur-day", "attributes": {"duration": 86401}},
        {"id": "dur-short", "attributes": {"duration": 2.5}, "arguments": ["--sleep"]},
        {"id": "dur-tiny", "attributes": {"duration": 0.00002}, "arguments": ["--sleep"]},
        {"id": "attr-queue-acct", "attributes": {"queue_name": "debug", "account": "physics"}},
        {"id": "attr-project", "attributes": {"project_name": "legacy"}},
        {"id": "attr-resv", "attributes": {"reservation_id": "resv-1", "queue_name": "batch"}},
        {
            "id": "attr-custom",
            "attributes": {"custom_attributes": {"flux.x": "y", "slurm.constraint": "haswell"}},
        },
        # directory
        {"id": "dir-relative", "directory": "sub"},
        {"id": "dir-space", "directory": "{W}/dir with space"},
        {"id": "dir-none", "directory": None},
        # streams
        {"id": "io-stdin", "stdin_path": "{W}/in.txt", "reads_input": True},
        {
            "id": "io-stdin-rel",
            "stdin_path": "in.txt",
            "directory": "{W}/sub",
            "reads_input": True,
        },
        {
            "id": "io-rel",
            "directory": "{W}/sub",
            "stdout_path": "rel-out.txt",
            "stderr_path": "rel-err.txt",
        },
        {"id": "io-same", "stdout_path": "{W}/both.txt", "stderr_path": "{W}/both.txt"},
        {"id": "io-none", "stdout_path": None, "stderr_path": None},
        {
            "id": "io-space",
            "stdout_path": "{W}/out file.txt",
            "stderr_path": "{W}/err file.txt",
            "resources": {"process_count": 2},
        },
        # pre- and post-launch
        {"id": "pre-rel", "pre_launch": "pre.sh"},
        {"id": "pre-bash", "pre_launch": "{W}/pre-bash.sh"},
        {
            "id": "pre-space",
            "pre_launch": "{W}/my scripts/pre.sh",
            "arguments": ["x y", "--exit=0"],
        },
        {"id": "post-one", "post_launch": "{W}/post.sh"},
        {
            "id": "prepost-exit",
            "pre_launch": "{W}/pre.sh",
            "post_launch": "{W}/post.sh",
            "arguments": ["--exit=3"],
            "reads_input": True,
        },
        {
            "id": "prepost-pc2",
            "pre_launch": "{W}/pre.sh",
            "post_launch": "{W}/post.sh",
            "resources": {"process_count": 2},
        },
        # launchers
        {"id": "launch-single-n2", "launcher": "single", "resources": {"node_count": 2}},
        {"id": "launch-srun-n2", "launcher": "srun", "resources": {"node_count": 2}},
        {
            "id": "launch-jsrun",
            "launcher": "jsrun",
            "resources": {"process_count": 3},
            "reads_input": True,
        },
        # executables and arguments
        {
            "id": "args-quotes",
            "arguments": ["two words", "it's", '"dq"', "$HOME", "*", "", "a\\b", "new\nline"],
            "name": "jöb ☃",
        },
        {"id": "exe-space", "executable": "{W}/bin dir/probe", "arguments": ["--exit=5"]},
        {"id": "exe-relative", "executable": "./probe", "directory": "{W}"},
    ]


CASES = _cases()
# What PSI/J defines that a converted job cannot do: Flux's job shell starts every process
# itself, so what runs around the program runs with each process (the conversion says so)
CANNOT = {
    ("prepost-pc2", "post_launch"): "post_launch runs once per process, not once per job",
}


def test_there_are_48_held_out_jobspecs():
    assert len(CASES) == 48
    assert len({c["id"] for c in CASES}) == 48


def _spec(case: dict, work: Path) -> dict:
    spec = {
        "executable": str(work / "probe"),
        "directory": str(work),
        "stdout_path": str(work / "out.txt"),
        "stderr_path": str(work / "err.txt"),
        "inherit_environment": False,
    }
    for k, v in case.items():
        if k in ("id", "reads_input"):
            continue
        spec[k] = v
    text = json.dumps(spec).replace(W, str(work))
    return {k: v for k, v in json.loads(text).items() if v is not None}


@pytest.fixture(scope="module")
def instance(flux_exe):
    got = Flux(flux_exe, {"queues.toml": QUEUES}, size=2)
    got.run("queue", "start", "--all")
    try:
        yield got
    finally:
        got.close()


@pytest.fixture(scope="module")
def serialized(tmp_path_factory):
    """Every case's folder (probe, scripts, input) and JobSpec, written by psij-python's
    JSONSerializer."""
    root = tmp_path_factory.mktemp("psij-held-out")
    python = os.path.realpath(sys.executable)  # itself, not a wrapper script needing PATH
    works, specs = {}, []
    for case in CASES:
        work = root / case["id"]
        rec = work / "rec"
        for d in ("sub", "rec", "dir with space", "my scripts", "bin", "bin dir"):
            (work / d).mkdir(parents=True, exist_ok=True)
        probe = PROBE.format(python=python, rec=rec, work=work)
        if case.get("reads_input"):
            (work / "reads-input").touch()
        for path in (
            work / "probe",
            work / "bin dir" / "probe",
            work / "bin" / "psij-probe",
        ):
            path.write_text(probe)
            path.chmod(0o755)
        for d in (work, work / "sub", work / "my scripts"):
            (d / "pre.sh").write_text(PRE)
        (work / "lib.sh").write_text("LIB_VAR=1\n")
        (work / "pre-bash.sh").write_text(PRE_BASH)
        (work / "post.sh").write_text(POST.format(rec=rec, work=work))
        (work / "in.txt").write_text("input at the top\nsecond line\n")
        (work / "sub" / "in.txt").write_text("input in sub\n")
        works[case["id"]] = work
        specs.append(_spec(case, work))
    texts = ask({"serialize": specs})
    return {c["id"]: (works[c["id"]], s, t) for c, s, t in zip(CASES, specs, texts)}


def processes(spec: dict) -> int:
    if spec.get("launcher") == "single":
        return 1
    res = spec.get("resources", {})
    if "process_count" in res:
        return res["process_count"]
    return res.get("node_count", 1) * res.get("processes_per_node", 1)


def node_count(spec: dict) -> int | None:
    """The node count PSI/J's ResourceSpecV1 gives, when the JobSpec names one (node_count,
    or processes_per_node: process_count / it, else 1)."""
    res = spec.get("resources", {})
    if "node_count" in res:
        return res["node_count"]
    if "processes_per_node" in res:
        return res.get("process_count", res["processes_per_node"]) // res["processes_per_node"]
    return None


def _ids(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def allocation(instance, jobid: str) -> dict[int, int]:
    """The job's R: cores per node (broker rank)."""
    r = json.loads(instance.run("job", "info", jobid, "R").stdout or "{}")
    got: dict[int, int] = {}
    for entry in r.get("execution", {}).get("R_lite", []):
        for rank in _ids(entry["rank"]):
            got[rank] = len(_ids(entry["children"].get("core", ""))) if entry["children"] else 0
    return got


def expected_effects(
    case: dict, spec: dict, work: Path, submit_dir: Path, node_cores: int
) -> dict[str, object]:
    """What PSI/J says the job does (the keys of the answer are the effects checked)."""
    want: dict[str, object] = {}
    attrs = spec.get("attributes", {})
    if case.get("arguments") == ["--sleep"]:  # the time limit is enforced
        return {"timeout": True, "time limit": attrs["duration"]}
    n = processes(spec)
    want["tasks"] = list(range(n))
    res = spec.get("resources", {})
    nodes = node_count(spec)
    if nodes is not None:
        want["nodes"] = nodes
    if res.get("processes_per_node") and spec.get("launcher") != "single":
        want["per node"] = res["processes_per_node"]
    if res.get("exclusive_node_use"):
        want["exclusive"] = node_cores  # every node the job has, whole
    else:
        slots = n if spec.get("launcher") != "single" else processes({**spec, "launcher": None})
        want["cores"] = slots * res.get("cpu_cores_per_process", 1)
    directory = spec.get("directory")
    if directory is not None:
        want["directory"] = str((submit_dir / directory).resolve())
    env = {k: str(v) for k, v in spec.get("environment", {}).items()}
    if env:
        want["environment"] = env
    inherit = spec.get("inherit_environment", True)
    if inherit:
        want["inherit_environment"] = env.get(MARK, "yes")
    else:
        want["inherit_environment"] = None  # neither the mark nor HOME (unless given)
    if spec.get("arguments"):
        want["arguments"] = spec["arguments"]
    where = Path(str(want.get("directory", work)))
    if "stdin_path" in spec:
        want["stdin"] = (where / spec["stdin_path"]).read_text()
    elif case.get("reads_input"):
        want["stdin"] = ""  # /dev/null: end of file at once
    ranks = range(n)
    out_path = spec.get("stdout_path")
    err_path = spec.get("stderr_path")
    outs = [f"out-{i}" for i in ranks]
    errs = [f"err-{i}" for i in ranks]
    if out_path and out_path == err_path:
        want["stdout"] = (str(where / out_path), sorted(outs + errs))
        want["stderr"] = want["stdout"]
    else:
        if out_path:
            want["stdout"] = (str(where / out_path), outs)
        if err_path:
            want["stderr"] = (str(where / err_path), errs)
    if "pre_launch" in spec:
        want["pre_launch"] = "from-pre"
        if spec["pre_launch"].endswith("pre-bash.sh"):
            want["pre_launch"] = ("from-pre", "3")
    if "post_launch" in spec:
        want["post_launch"] = [f"post {n}"]  # once, after every process has ended
    exit_code = next((int(a[7:]) for a in spec.get("arguments", []) if a[:7] == "--exit="), 0)
    want["exit status"] = exit_code
    want["name"] = spec.get("name", spec["executable"])  # psij-python's default name
    if "queue_name" in attrs:
        want["queue"] = attrs["queue_name"]
    account = attrs.get("account", attrs.get("project_name"))
    if account is not None:
        want["bank"] = account
    want["time limit"] = attrs.get("duration", 600)
    return want


def observed_effects(instance, want: dict, work: Path, jobid: str) -> dict[str, bool]:
    """Each wanted effect, as happened or not, for the finished job."""
    events = instance.run("job", "eventlog", jobid).stdout
    got: dict[str, bool] = {}
    if "timeout" in want:
        got["timeout"] = 'type="timeout"' in events
    records = []
    for f in sorted((work / "rec").glob("rec.*.json")):
        records.append(json.loads(f.read_text()))
    alloc = allocation(instance, jobid)
    ran = bool(records)
    for key, value in want.items():
        if key == "tasks":
            got[key] = sorted(int(r["rank"]) for r in records) == value
        elif key == "nodes":
            got[key] = len(alloc) == value
        elif key == "per node":
            locals_ = [int(r["local"]) for r in records]
            got[key] = ran and max(locals_) + 1 == value and locals_.count(0) == len(alloc)
        elif key == "exclusive":
            got[key] = bool(alloc) and all(c == value for c in alloc.values())
        elif key == "cores":
            got[key] = sum(alloc.values()) == value
        elif key == "directory":
            got[key] = ran and all(r["cwd"] == value for r in records)
        elif key == "environment":
            got[key] = ran and all(
                all(r["env"].get(k) == v for k, v in value.items()) for r in records
            )
        elif key == "inherit_environment":
            if value is None:
                given = want.get("environment", {})
                got[key] = ran and all(
                    MARK not in r["env"] and ("HOME" in given or "HOME" not in r["env"])
                    for r in records
                )
            else:
                got[key] = ran and all(
                    r["env"].get(MARK) == value and "HOME" in r["env"] for r in records
                )
        elif key == "arguments":
            got[key] = ran and all(r["args"] == value for r in records)
        elif key == "stdin":
            got[key] = ran and all(r["stdin"] == value for r in records)
        elif key in ("stdout", "stderr"):
            path, lines = value
            text = Path(path).read_text() if Path(path).exists() else ""
            got[key] = ran and sorted(text.splitlines()) == sorted(lines)
        elif key == "pre_launch":
            if isinstance(value, tuple):
                got[key] = ran and all(
                    (r["env"].get("PRE_VAR"), r["env"].get("PRE_BASH")) == value for r in records
                )
            else:
                got[key] = ran and all(r["env"].get("PRE_VAR") == value for r in records)
        elif key == "post_launch":
            log = work / "post.log"
            got[key] = log.exists() and log.read_text().splitlines() == value
        elif key == "exit status":
            finish = [ln for ln in events.splitlines() if " finish " in ln]
            status = finish[0].split("status=")[1].split()[0] if finish else None
            got[key] = ran and status is not None and int(status) == value << 8
    shown = instance.run("jobs", "-no", "{name}|{queue}|{bank}|{duration}", jobid).stdout
    name, queue, bank, limit = (shown.rstrip("\n").split("|") + ["", "", "", ""])[:4]
    if "name" in want:
        got["name"] = name == want["name"]
    if "queue" in want:
        got["queue"] = queue == want["queue"]
    if "bank" in want:
        got["bank"] = bank == want["bank"]
    try:
        got["time limit"] = float(limit) == want["time limit"]
    except ValueError:
        got["time limit"] = False
    return got


TALLY: dict[str, dict] = {}


def convert(work: Path, submit_dir: Path, text: str) -> subprocess.CompletedProcess:
    """`jobspec convert --from psij` in the submitting folder and environment."""
    (work / "spec.json").write_text(text)
    return subprocess.run(
        [jobspec_exe(), "convert", "--from", "psij", str(work / "spec.json"), "--format", "json"]
        + ["-o", str(work / "job.json")],
        cwd=submit_dir,
        env={**os.environ, MARK: "yes"},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.flux
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_a_held_out_psij_job_does_what_psij_says(instance, serialized, case):
    work, spec, text = serialized[case["id"]]
    submit_dir = work  # where the JobSpec is converted and submitted from
    node_cores = max(allocation_of_instance(instance).values())
    want = expected_effects(case, spec, work, submit_dir, node_cores)
    conv = convert(work, submit_dir, text)
    if conv.returncode != 0:
        TALLY[case["id"]] = {"refused": conv.stdout + conv.stderr, "got": {k: False for k in want}}
        pytest.fail(f"conversion refused:\n{conv.stdout}{conv.stderr}")
    sub = instance.run("job", "submit", work / "job.json")
    assert sub.returncode == 0, sub.stderr
    jobid = sub.stdout.strip()
    done = instance.run("job", "wait-event", "-t", "60", jobid, "clean")
    if done.returncode != 0:
        instance.run("job", "cancel", jobid)
        instance.run("job", "wait-event", "-t", "30", jobid, "clean")
    got = observed_effects(instance, want, work, jobid)
    TALLY[case["id"]] = {"got": got}
    missed = sorted(k for k, ok in got.items() if not ok)
    cannot = sorted(k for (cid, k) in CANNOT if cid == case["id"])
    assert missed == cannot, (missed, want, json.loads((work / "job.json").read_text()))


def allocation_of_instance(instance) -> dict[int, int]:
    r = json.loads(instance.run("resource", "R").stdout)
    got: dict[int, int] = {}
    for entry in r["execution"]["R_lite"]:
        for rank in _ids(entry["rank"]):
            got[rank] = len(_ids(entry["children"]["core"]))
    return got


@pytest.mark.flux
def test_held_out_figures(capsys):
    """The figures of the whole set (run after the cases): effects expected, effects that
    happened, conversions refused."""
    if len(TALLY) < len(CASES):
        pytest.skip("the figures count the whole held-out set")
    expected = sum(len(t["got"]) for t in TALLY.values())
    happened = sum(sum(t["got"].values()) for t in TALLY.values())
    refused = sorted(cid for cid, t in TALLY.items() if "refused" in t)
    missed = sorted(
        f"{cid}:{k}" for cid, t in TALLY.items() for k, ok in t["got"].items() if not ok
    )
    with capsys.disabled():
        print(
            f"\nPSI/J held-out set: {happened} of {expected} expected effects happen; "
            f"{len(refused)} of {len(CASES)} conversions refused {refused}; missed: {missed}"
        )
    assert happened == expected - len(CANNOT) and not refused
