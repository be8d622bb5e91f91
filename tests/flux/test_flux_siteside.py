"""The Flux side of the site comparison (siteside.py) holds the facts of
research-notes/site/NOTES.md §4: one instance per profile, each request's verdict as real
Flux gives it, with the stage that gave it; its messages are what `flux submit` itself
prints in the same site; and it fails loudly, leaving no process behind."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from siteside import SiteInstanceError, flux_verdicts, run_in_site

pytestmark = pytest.mark.flux

SITES = Path(__file__).resolve().parent.parent / "data" / "sites"
HETERO, TRAP, CPU = SITES / "hetero", SITES / "trap", SITES / "cpu"

OK = (True, None, None, None)


def refused(errno, message, stage):
    return (False, errno, message, stage)


# hetero: debug = node[0-3] (32 cores, limit 1h, max 2 nodes), batch = node[4-11]
# (limit 8h, min 1 node), gpu = gpu[0-3] (64 cores, 4 GPUs each, default 30m, max 8
# GPUs); global limits 1d, 8 nodes, 256 cores; no default queue
HETERO_CASES = [
    # the frobnicator (errno 1)
    ("-q Debug -N1 -t 10m true", refused(1, "Invalid queue 'Debug' specified", "ingest")),
    ("-q nosuch -N1 true", refused(1, "Invalid queue 'nosuch' specified", "ingest")),
    ("-N1 -t 10m true", refused(1, "no queue specified", "ingest")),
    # host constraints are checked against the hostlist attribute, set from R
    ("-q debug -N1 -t 10m --requires=host:node0 true", OK),
    ("-q batch -N2 -t 1h --requires=host:node[4-5] true", OK),
    (
        "-q debug -N1 -t 10m --requires=host:foo9 true",
        refused(
            1,
            "invalid jobspec: host constraint contains invalid hosts: host 'foo9' not found",
            "ingest",
        ),
    ),  # fmt: skip
    # the feasibility validator (Fluxion: errno 19, no reason)
    ("-q gpu -N1 -n1 -g5 true", refused(19, "Unsatisfiable request", "ingest")),
    (
        "-q debug -N1 -t 10m --requires=host:gpu0 true",
        refused(19, "Unsatisfiable request", "ingest"),
    ),
    ("-q debug -N1 -n33 -t 10m true", refused(19, "Unsatisfiable request", "ingest")),
    # infeasible AND over the global nnodes limit: only feasibility speaks (§3)
    ("-q batch -N9 -t 1h true", refused(19, "Unsatisfiable request", "ingest")),
    # a novalidate flag is not passed on: the validators still run
    (
        "--flags=novalidate -q debug -N1 -n33 -t 10m true",
        refused(19, "Unsatisfiable request", "ingest"),
    ),
    # every gpu node is down, feasibility counts them all the same
    ("-q gpu -N2 -n2 -g4 -t 1h true", OK),
    ("-q gpu -N1 -n1 -g1 true", OK),  # the queue's default duration, 30m
    # the limits (job-manager, errno 22)
    (
        "-q debug -N3 -t 10m true",
        refused(22, "requested nnodes (3) exceeds policy limit of 2 for queue debug", "limit"),
    ),
    (
        "-q debug -N1 true",
        refused(
            22,
            "requested duration (unlimited) exceeds policy limit of 1h for queue debug",
            "limit",
        ),
    ),  # fmt: skip
    (
        "-q debug -N1 -t 61m true",
        refused(22, "requested duration (1h) exceeds policy limit of 1h for queue debug", "limit"),
    ),
    (
        "-q debug -N1 -t 90m true",
        refused(
            22, "requested duration (1.5h) exceeds policy limit of 1h for queue debug", "limit"
        ),
    ),
    (
        "-q batch -N1 -t 1000m true",
        refused(22, "requested duration (17h) exceeds policy limit of 8h for queue batch", "limit"),
    ),
    (
        "-q gpu -N1 -t 25h true",
        refused(22, "requested duration (1d) exceeds policy limit of 1d for queue gpu", "limit"),
    ),
    (
        "-q batch -n4 -t 1h true",
        refused(22, "requested nnodes (0) is under policy limit of 1 for queue batch", "limit"),
    ),
    # good jobs
    ("-q debug -N1 -t 10m true", OK),
    ("-q debug -N2 -n4 -c8 -t 1h true", OK),
    ("-q batch -N8 -t 8h true", OK),
    # refused by flux submit's own option handling: nothing is sent
    ("-q debug -N x true", refused(None, "--nodes: invalid int value 'x'", "cli")),
    ("-q debug --bogus true", refused(None, "unrecognized arguments: --bogus", "cli")),
    ("-q debug -N1", refused(None, "job command and arguments are missing", "cli")),
    ("-q debug -t xyz true", refused(None, "invalid Flux standard duration", "cli")),
    ("--flags=bogus true", refused(None, "--flags: Unknown flag bogus", "cli")),
]


def _verdict(v: dict) -> tuple:
    if v["accepted"]:
        assert isinstance(v["jobid"], int) and v["jobid"] > 0, v
        return (True, None, None, v["stage"])
    return (False, v["errno"], v["message"], v["stage"])


def _dry_run(flux_exe: str, words: str) -> dict:
    got = subprocess.run(
        [flux_exe, "submit", "--dry-run", *shlex.split(words)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert got.returncode == 0, got.stderr
    return json.loads(got.stdout)


@pytest.fixture(scope="module")
def hetero_verdicts(flux_exe):
    """One instance for every argv case and the jobspec ones."""
    good = _dry_run(flux_exe, "-q debug -N1 -t 10m true")
    too_many_gpus = _dry_run(flux_exe, "-q gpu -N1 -n1 -g5 true")
    jobspecs = [good, dict(good, version=2), too_many_gpus]
    requests = [{"argv": shlex.split(words)} for words, _ in HETERO_CASES]
    requests += [{"jobspec": js} for js in jobspecs]
    verdicts = flux_verdicts(flux_exe, HETERO, requests)
    return verdicts[: len(HETERO_CASES)], verdicts[len(HETERO_CASES) :]


@pytest.mark.parametrize("i", range(len(HETERO_CASES)), ids=[w for w, _ in HETERO_CASES])
def test_a_command_line_gets_the_verdict_notes_record(hetero_verdicts, i):
    words, want = HETERO_CASES[i]
    assert _verdict(hetero_verdicts[0][i]) == want


def test_a_jobspec_is_submitted_as_is(hetero_verdicts):
    good, version2, too_many_gpus = map(_verdict, hetero_verdicts[1])
    assert good == OK
    assert version2 == (False, 1, "version must be 1", "ingest")  # the frobnicator's Jobspec()
    assert too_many_gpus == (False, 19, "Unsatisfiable request", "ingest")


def test_the_jobids_are_all_different(hetero_verdicts):
    ids = [v["jobid"] for v in hetero_verdicts[0] + hetero_verdicts[1] if v["accepted"]]
    assert len(ids) == len(set(ids)) >= 8


def test_the_messages_are_what_flux_submit_prints(flux_exe, hetero_verdicts):
    """The same command lines through the real `flux submit --urgency=0`, one process
    each, in an instance of the same site: what it prints is `[Errno N] MESSAGE` for
    what ingest or the job-manager refused, the harness's `printed` line for a command
    line it refused itself, a jobid otherwise. The one difference is on purpose: the
    harness drops --flags=novalidate, which lets the instance owner skip the validators."""
    script = "".join(
        f"echo '@@ {i}'; flux submit --urgency=0 {shlex.join(shlex.split(words))} 2>&1; "
        for i, (words, _) in enumerate(HETERO_CASES)
    )
    out = run_in_site(flux_exe, HETERO, ["sh", "-c", script + "echo '@@ end'"], timeout=300)
    printed: dict[int, list[str]] = {}
    current = None
    for line in out.splitlines():
        if line.startswith("@@ "):
            current = None if line == "@@ end" else int(line[3:])
            printed[current] = []
        elif current is not None and "broker.err" not in line:
            printed[current].append(line)
    for i, (words, _) in enumerate(HETERO_CASES):
        if "novalidate" in words:  # real flux submit (the owner's) skips the validators
            assert len(printed[i]) == 1 and printed[i][0].startswith("ƒ"), printed[i]
            continue
        v = hetero_verdicts[0][i]
        lines = printed[i]
        if v["accepted"]:
            assert len(lines) == 1 and lines[0].startswith("ƒ"), (words, lines)
        elif v["stage"] == "cli":
            assert lines[-1] == v["printed"], (words, lines)
        else:
            assert lines == [f"[Errno {v['errno']}] {v['message']}"], (words, lines)


def test_the_default_duration_trap(flux_exe):
    """trap: the site default (2h) is over the debug queue's limit (1h), so a job sent
    to debug without -t (or with -t 0, "unset") is refused; with -t it is not. The
    profile enables the feasibility validator: five nodes of a four-node site do not
    pass."""
    requests = [
        "-q debug -N1 true",
        "-q debug -N1 -t 0 true",
        "-q debug -N1 -t 30m true",
        "-N1 true",
        "-q batch -N1 true",
        "-q batch -N5 true",
    ]
    got = flux_verdicts(flux_exe, TRAP, [{"argv": shlex.split(w)} for w in requests])
    trap = (
        False,
        22,
        "requested duration (2h) exceeds policy limit of 1h for queue debug",
        "limit",
    )
    unsatisfiable = (False, 19, "Unsatisfiable request", "ingest")
    assert list(map(_verdict, got)) == [trap, trap, OK, OK, OK, unsatisfiable]


def test_a_queue_the_site_does_not_have(flux_exe, tmp_path):
    """With no [queues] there is no frobnicator: the job-manager refuses a queue name
    (stage "queue")."""
    (tmp_path / "R.json").write_text((CPU / "R.json").read_text())
    (tmp_path / "site.toml").write_text('[resource]\npath = "R.json"\nnoverify = true\n')
    got = flux_verdicts(
        flux_exe, tmp_path, [{"argv": ["-q", "debug", "-N1", "true"]}, {"argv": ["-N8", "true"]}]
    )
    assert list(map(_verdict, got)) == [(False, 22, "'debug' is not a valid queue", "queue"), OK]


def test_five_hundred_requests_in_one_instance(flux_exe, capsys):
    requests = [{"argv": ["-q", "pdebug", "-N1", "true"]}] * 250
    requests += [{"argv": ["-q", "pdebug", "-N3", "true"]}] * 250
    started = time.monotonic()
    got = flux_verdicts(flux_exe, CPU, requests)
    elapsed = time.monotonic() - started
    assert [_verdict(v) for v in got[:250]] == [OK] * 250
    assert {_verdict(v) for v in got[250:]} == {
        (False, 22, "requested nnodes (3) exceeds policy limit of 2 for queue pdebug", "limit")
    }
    with capsys.disabled():
        print(f"\n500 requests, one site instance: {elapsed:.1f} s")


def _processes_under(directory: Path) -> list[str]:
    """Processes whose cwd or command line is under ``directory``."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if str(directory) in cwd or str(directory) in cmd:
            found.append(f"{pid}: {cmd}")
    return found


def test_a_site_that_does_not_start_says_why(flux_exe, tmp_path, monkeypatch):
    site = tmp_path / "bad"
    site.mkdir()
    (site / "R.json").write_text((CPU / "R.json").read_text())
    (site / "site.toml").write_text(
        '[resource]\npath = "R.json"\nnoverify = true\n[queues.q]\nrequire = ["x"]\n'
    )
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    with pytest.raises(SiteInstanceError, match="left unpacked: require"):
        flux_verdicts(flux_exe, site, [{"argv": ["-N1", "true"]}], timeout=120)
    assert _processes_under(scratch) == []
    assert list(scratch.iterdir()) == []


def test_a_run_over_its_time_is_stopped(flux_exe, tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with pytest.raises(SiteInstanceError, match="still running after 5 s"):
        run_in_site(flux_exe, CPU, ["sleep", "1000"], timeout=5)
    assert _processes_under(tmp_path) == []
    assert list(tmp_path.iterdir()) == []


def test_no_process_is_left_after_a_run(flux_exe, tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    got = flux_verdicts(flux_exe, HETERO, [{"argv": ["-q", "debug", "-N1", "-t", "1m", "true"]}])
    assert _verdict(got[0]) == OK
    assert _processes_under(tmp_path) == []
    assert list(tmp_path.iterdir()) == []
