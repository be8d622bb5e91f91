"""Option values read as Flux reads them, held to flux-core itself: ``--begin-time``
against ``flux.util.parse_datetime`` (free-form times included), ``--add-file``
against what ``flux submit --dry-run`` and ``flux batch --dry-run`` attach."""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from helpers import run_cli

from jobspec_lsp.fluxcli import values

# a fixed "now" (local time), so both sides compute from the same moment
NOW = 1_795_000_000.0

BEGIN_TIMES = [
    "now", "+1h", "+30s", "-5m", "+1.5d", "noon", "midnight", "today", "tomorrow",
    "8pm tomorrow", "tomorrow 3pm", "3pm", "15:30", "15:30:10", "9am", "next friday",
    "in 2 hours", "2030-01-20", "2030-01-20 12:34", "2030-01-20 12:34:56",
    "1/2/2030", "Jan 5 2031 10:00", "tomorrow bogus", "2030-01-20T12:34",
    # refused by Flux
    "bogus", "25:00", "12:61", "2030-02-30", "2030-13-01", "", "+", "+1x", "-bogus",
]  # fmt: skip

FLUX_SIDE = """
import json, sys
from datetime import datetime
from flux.util import parse_datetime
now = datetime.fromtimestamp(float(sys.argv[1])).astimezone()
out = []
for s in json.load(sys.stdin):
    try:
        out.append(parse_datetime(s, now=now).timestamp())
    except Exception as err:
        out.append(None)
print(json.dumps(out))
"""


def test_begin_times_are_flux_parse_datetime(flux):
    got = flux.run("python", "-c", FLUX_SIDE, str(NOW), input=json.dumps(BEGIN_TIMES))
    assert got.returncode == 0, got.stderr
    theirs = json.loads(got.stdout)
    wrong = []
    for text, stamp in zip(BEGIN_TIMES, theirs):
        try:
            ours: float | None = values.begin_timestamp(text, now=NOW)
        except values.Refused:
            ours = None
        if (stamp is None) != (ours is None) or (
            stamp is not None and abs(stamp - ours) > 1e-6  # type: ignore[operator]
        ):
            wrong.append(f"{text!r}: flux {stamp}, jobspec {ours}")
    assert not wrong, "\n".join(wrong)
    refused = [t for t, s in zip(BEGIN_TIMES, theirs) if s is None]
    assert "bogus" in refused and "8pm tomorrow" not in refused  # the list tests both


ADD_FILES = [
    "notes.txt",
    "renamed=notes.txt",
    "blob.bin",
    "setup.sh:755=notes.txt",
    "odd:name=notes.txt",
    "inline=first line\\nsecond line",
    "inline:640=a\\nb",
    "sub/deep.txt",
]


@pytest.fixture
def files_dir(tmp_path):
    (tmp_path / "notes.txt").write_text("hello\nworld\n")
    (tmp_path / "blob.bin").write_bytes(bytes(range(256)))
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "deep.txt").write_text("x")
    os.chmod(tmp_path / "notes.txt", 0o640)
    return tmp_path


def _flux_files(flux, cwd, *args):
    proc = subprocess.run(
        [flux.exe, *args], cwd=cwd, env=flux.env, capture_output=True, text=True, timeout=120
    )
    if proc.returncode:
        return None, proc.stderr
    return json.loads(proc.stdout)["attributes"]["system"].get("files"), ""


@pytest.mark.parametrize("arg", ADD_FILES + ["missing.txt", "gone=missing.txt"])
def test_add_file_is_flux_submits(flux, files_dir, arg):
    theirs, err = _flux_files(flux, files_dir, "submit", "--dry-run", f"--add-file={arg}", "true")
    ours = run_cli("new", "--format", "json", f"--add-file={arg}", "--", "true", cwd=files_dir)
    if theirs is None:
        assert ours.returncode != 0, f"flux refuses ({err.strip()}), jobspec new writes one"
        assert b"No such file" in ours.stderr
        return
    assert ours.returncode == 0, ours.stderr.decode()
    assert json.loads(ours.stdout)["attributes"]["system"]["files"] == theirs


def test_add_file_in_a_directive_is_flux_batchs(flux, files_dir):
    lines = "".join(f"#flux: --add-file='{a}'\n" for a in ADD_FILES)
    script = files_dir / "job.sh"
    script.write_text(f"#!/bin/sh\n#flux: -N1\n{lines}\nhostname\n")
    theirs, err = _flux_files(flux, files_dir, "batch", "--dry-run", "job.sh")
    assert theirs is not None, err
    ours = run_cli("new", "--from-batch", "job.sh", "--format", "json", cwd=files_dir)
    assert ours.returncode == 0, ours.stderr.decode()
    assert json.loads(ours.stdout)["attributes"]["system"]["files"] == theirs


ENV_RULES = [
    "A=1", "A=$1", "A=x$", "A=$$", "A=${HOME}/b", "A={{tmpdir}}/x", "-/[/", "-FOO*",
    "-/^SLURM_.*/", "/[a/", "HOME", "A=a b",
]  # fmt: skip


@pytest.mark.parametrize("rule", ENV_RULES)
def test_env_rules_are_refused_as_flux_batch_refuses_them(flux, tmp_path, rule):
    from jobspec_lsp.job import directives
    from jobspec_lsp.script import batch

    script = tmp_path / "job.sh"
    script.write_text(f"#!/bin/sh\n#flux: -N1\n#flux: --env={directives.quote(rule)}\nhostname\n")
    proc = subprocess.run(
        [flux.exe, "batch", "--dry-run", "job.sh"],
        cwd=tmp_path, env=flux.env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    errors = [d for d in batch.check_script(script.read_text()) if d.severity.name == "ERROR"]
    assert (proc.returncode == 0) == (not errors), (proc.stderr[-300:], errors)
    if errors:
        text = script.read_text()
        assert text[errors[0].start : errors[0].end] == directives.quote(rule)  # the word


def test_a_line_beyond_the_allocated_cores_is_refused_inside_the_batch_job(flux, tmp_path):
    """JS588's claim, held to a real instance: a batch job holds the cores its
    directives ask for, so `flux run -n2` inside `#flux: -n1` is refused at once as
    unsatisfiable (this machine has at least one core more than the job asks for)."""
    from jobspec_lsp.script import batch

    text = "#!/bin/sh\n#flux: -n1\nflux run -n2 hostname\necho rc=$?\n"
    (d,) = [d for d in batch.command_line_checks(text) if d.code == "JS588"]
    assert text[d.start : d.end] == "2"
    (tmp_path / "job.sh").write_text(text)
    env = flux.env
    sub = subprocess.run([flux.exe, "batch", "--urgency=default", "job.sh"], cwd=tmp_path,
                         env=env, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert sub.returncode == 0, sub.stderr
    jobid = sub.stdout.strip()
    subprocess.run([flux.exe, "job", "wait-event", "-t", "120", jobid, "clean"], env=env,
                   capture_output=True, timeout=150, check=True)  # fmt: skip
    out = (tmp_path / f"flux-{jobid}.out").read_text()
    assert "unsatisfiable" in out and "rc=1" in out, out


STEPS = [  # inside `#flux: -N 2 -n 2`: 2 nodes, one 1-core slot on each
    ("-N2 -n2", True),
    ("-N2 -n4", False),
    ("-N1 -n1", True),
    ("-N1 -n2", False),
    ("-N2 -n3", False),
    ("-N2 --tasks-per-node=1", True),
    ("-N2 --tasks-per-node=2", True),  # whole nodes, one slot each: its tasks share it
    ("-n2", True),
    ("-n3", False),
    ("-N2 -n2 -c2", False),
]


@pytest.mark.flux
def test_steps_with_a_node_count_are_held_to_each_nodes_share(flux_exe, tmp_path):
    """JS587/JS588 with -N, against a real 2-broker instance: a step fits when each node
    it spreads over has the cores its tasks need there (ceil(n / N) tasks a node).
    Regression case: steps-bigger-than-allocation-with-N."""
    from conftest import Flux

    from jobspec_lsp.script import batch

    lines = "".join(f"flux run {o} true; echo step{k}=$?\n" for k, (o, _) in enumerate(STEPS))
    text = "#!/bin/sh\n#flux: -N 2 -n 2\n" + lines
    flagged = set()
    for d in batch.command_line_checks(text):
        if d.code in ("JS587", "JS588"):
            flagged.add(text.count("\n", 0, d.start) - 2)
    assert flagged == {k for k, (_, fits) in enumerate(STEPS) if not fits}
    (tmp_path / "job.sh").write_text(text)
    flux = Flux(flux_exe, size=2)
    try:
        sub = subprocess.run([flux.exe, "batch", "job.sh"], cwd=tmp_path, env=flux.env,
                             capture_output=True, text=True, timeout=120)  # fmt: skip
        assert sub.returncode == 0, sub.stderr
        jobid = sub.stdout.strip()
        subprocess.run([flux.exe, "job", "wait-event", "-t", "300", jobid, "clean"],
                       env=flux.env, capture_output=True, timeout=330, check=True)  # fmt: skip
        out = (tmp_path / f"flux-{jobid}.out").read_text()
    finally:
        flux.close()
    ran = {k for k in range(len(STEPS)) if f"step{k}=0" in out}
    assert ran == {k for k, (_, fits) in enumerate(STEPS) if fits}, out


LIMITS = ["999999999d", "1000000000d", "1439999998561m", "1440000000000m", "99999999999999m",
          "1e20s", "9999999999999999999999h", "86400000000000001ms", "2000000000000000ms",
          "23999999999h", "24000000000h", "9999999999999999999"]  # fmt: skip


@pytest.mark.flux
def test_huge_time_limits_are_judged_as_flux_reads_them(flux_exe, tmp_path):
    """-t with m, h, d or ms goes through Python's timedelta in Flux (under 10^9 days);
    seconds and bare minutes do not: each verdict held to flux batch's."""
    from jobspec_lsp.script import batch

    for v in LIMITS:
        path = tmp_path / "job.sh"
        path.write_text(f"#!/bin/sh\n#flux: -n1 -t {v}\nhostname\n")
        proc = subprocess.run([flux_exe, "batch", "--dry-run", path.name], cwd=tmp_path,
                              capture_output=True, text=True, timeout=60)  # fmt: skip
        ours = [d for d in batch.check_script(path.read_text()) if d.severity.name == "ERROR"]
        assert (proc.returncode != 0) == bool(ours), (v, proc.stderr[-200:], ours)
