"""The harness itself, held against real Slurm (slurm_reading, run_under_slurm) and real
Flux (flux_reading of what ``flux batch --dry-run`` prints)."""

from __future__ import annotations

import os
import pwd
import re
import subprocess
import textwrap
import time
from pathlib import Path

import pytest
from slurmside import (
    ADJUSTMENTS,
    RUN_SCRIPTS,
    SLURM_SCRIPTS,
    SbatchRefused,
    adjustment_for,
    flux_dry_run,
    flux_reading,
    mark_ids,
    parse_dependency,
    parse_gres,
    parse_show_line,
    parse_time,
    run_under_slurm,
    slurm_reading,
)

CORPUS = sorted(SLURM_SCRIPTS.glob("*.sh"))


def script(tmp_path: Path, body: str, name: str = "job.sh", directive: str = "#SBATCH") -> Path:
    path = tmp_path / name
    lines = textwrap.dedent(body).strip().splitlines()
    text = "#!/bin/bash\n" + "".join(
        (f"{directive} {line[2:]}" if line.startswith("# ") else line) + "\n" for line in lines
    )
    path.write_text(text)
    return path


def pick(reading: dict, *keys: str) -> dict:
    return {k: reading[k] for k in keys}


def job_state(jobid: str) -> str:
    proc = subprocess.run(["scontrol", "show", "job", "-o", jobid], capture_output=True, text=True)
    m = re.search(r"JobState=(\S+)", proc.stdout)
    return m.group(1) if m else "GONE"


# --- pure parsing ------------------------------------------------------------------------


def test_parse_time_forms():
    assert parse_time("01:30:00") == 5400
    assert parse_time("2-10:00:00") == 2 * 86400 + 36000
    assert parse_time("05:00") == 300
    assert parse_time("UNLIMITED") == 0
    assert parse_time("N/A") is None


def test_parse_gres_forms():
    assert parse_gres("gres:gpu:2") == [("gpu", None, 2)]
    assert parse_gres("gres:gpu:pascal:1,gres:gpu:1") == [("gpu", "pascal", 1), ("gpu", None, 1)]
    assert parse_gres("gpu:2") == [("gpu", None, 2)]
    assert parse_gres("gres/gpu") == [("gpu", None, 1)]
    assert parse_gres("(null)") == []


def test_parse_dependency_forms():
    assert parse_dependency("afterok:1(unfulfilled)?afterany:2+5(unfulfilled)") == (
        "afterok:1?afterany:2+5",
        [("afterok", "1"), ("afterany", "2+5")],
        True,
    )
    assert parse_dependency("singleton(unfulfilled)") == ("singleton", [("singleton", None)], False)
    assert parse_dependency("(null)") == (None, [], False)


def test_mark_ids_alone_and_against_a_second_rendering():
    pairs = [("12", None, "{id}"), ("4294967294", None, "{task}")]
    assert mark_ids("o_12_4294967294.out", pairs) == "o_{id}_{task}.out"
    assert mark_ids("o_123_12.out", pairs) == "o_123_{id}.out"  # not inside a longer number
    # "12_06/x_12": the literal 12 stays 12 when the job id moves to 13
    assert mark_ids("r/12_06/x_12", [("12", "13", "{id}")], "r/12_06/x_13") == "r/12_06/x_{id}"
    het = [("8", "11", "{id}"), ("7", "10", "{het_id}")]
    assert mark_ids("7/8-7.out", het, "7/11-10.out") == "7/{id}-{het_id}.out"


def test_show_line_keeps_spaced_values():
    line = (
        "JobId=7 JobName=my job x=1 UserId=root(0) NumNodes=2-3 Command=/a b/c.sh "
        "WorkDir=/w Comment=a b=c  StdErr=/w/e 1 StdIn=/dev/null StdOut=/w/o 1 Power= "
        "TresPerNode=gres:gpu:2"
    )
    f = parse_show_line(line)
    assert f["JobName"] == "my job x=1"
    assert f["Command"] == "/a b/c.sh"
    assert f["Comment"] == "a b=c"
    assert (f["StdErr"], f["StdOut"]) == ("/w/e 1", "/w/o 1")
    assert (f["NumNodes"], f["TresPerNode"], f["Power"]) == ("2-3", "gres:gpu:2", "")
    assert "x" not in f and "b" not in f


# --- slurm_reading against real Slurm -----------------------------------------------------


def test_small_script_read_back_exactly(slurm, tmp_path):
    path = script(
        tmp_path,
        """
        # -N2 --ntasks-per-node=4 --gres=gpu:2 -t 90 -J x -o out.%j
        hostname
        """,
    )
    (r,) = slurm_reading(path)
    assert pick(
        r,
        "name",
        "nodes_min",
        "nodes_max",
        "nodes_given",
        "tasks",
        "tasks_per_node",
        "cpus_per_task",
        "gpus_per_node",
        "gpus_per_task",
        "gpus_total",
        "gpu_type",
        "exclusive",
        "time_seconds",
        "time_given",
        "stdout",
        "stderr",
        "workdir",
        "partition",
        "dependency",
        "het_offset",
        "array",
    ) == {
        "name": "x",
        "nodes_min": 2,
        "nodes_max": 2,
        "nodes_given": True,
        "tasks": 8,
        "tasks_per_node": 4,
        "cpus_per_task": 1,
        "gpus_per_node": 2,
        "gpus_per_task": None,
        "gpus_total": None,
        "gpu_type": None,
        "exclusive": False,
        "time_seconds": 5400,
        "time_given": True,
        "stdout": "out.{id}",
        "stderr": "out.{id}",
        "workdir": ".",
        "partition": "pbatch",
        "dependency": None,
        "het_offset": None,
        "array": None,
    }


def test_what_slurm_fills_in_when_nothing_is_asked(slurm, tmp_path):
    (r,) = slurm_reading(script(tmp_path, "# -n3\nhostname", name="plain.sh"))
    assert pick(
        r, "name", "tasks", "nodes_given", "time_seconds", "time_given", "stdout", "stderr"
    ) == {
        "name": "plain.sh",
        "tasks": 3,
        "nodes_given": False,
        "time_seconds": None,
        "time_given": False,
        "stdout": "slurm-{id}.out",
        "stderr": "slurm-{id}.out",
    }
    assert r["raw"]["TimeLimit"] == "1-00:00:00"  # pbatch's MaxTime stands in for "none"


@pytest.mark.parametrize(
    "asked, seconds", [("-t 24:00:00", 86400), ("-t 1-0", 86400), ("-t 0", 0), ("-t 5", 300)]
)
def test_a_time_equal_to_the_partition_limit_is_still_given(slurm, tmp_path, asked, seconds):
    (r,) = slurm_reading(script(tmp_path, f"# {asked}\ntrue"))
    assert (r["time_seconds"], r["time_given"]) == (seconds, True)


def test_node_and_task_counts_slurm_derives(slurm, tmp_path):
    (r,) = slurm_reading(script(tmp_path, "# -N2\ntrue"))
    assert pick(r, "nodes_min", "nodes_max", "tasks", "tres_nodes") == {
        "nodes_min": 2,
        "nodes_max": 2,
        "tasks": 2,  # one task per node
        "tres_nodes": 2,
    }
    (r,) = slurm_reading(script(tmp_path, "# -N1-3 -n4\ntrue"))
    assert (r["nodes_min"], r["nodes_max"], r["tasks"]) == (1, 3, 4)
    # 22.05: -n with -c > 1 and no -N shows NumNodes=2 on a pending job; TRES says 1 node
    (r,) = slurm_reading(script(tmp_path, "# -n2 -c2\ntrue"))
    assert (r["nodes_min"], r["nodes_max"], r["tres_nodes"]) == (2, None, 1)


def test_het_job_gives_one_reading_per_component(slurm, tmp_path):
    path = script(
        tmp_path,
        """
        # -J het -t 10 -o het-%j.out
        # -n2 -c1
        # hetjob
        # -N3 --ntasks-per-node=2 --gres=gpu:1
        srun hostname
        """,
    )
    first, second = slurm_reading(path)
    assert (first["het_offset"], second["het_offset"]) == (0, 1)
    assert pick(first, "tasks", "nodes_given", "gpus_per_node") == {
        "tasks": 2,
        "nodes_given": False,
        "gpus_per_node": None,
    }
    assert pick(second, "tasks", "nodes_min", "tasks_per_node", "gpus_per_node") == {
        "tasks": 6,
        "nodes_min": 3,
        "tasks_per_node": 2,
        "gpus_per_node": 1,
    }
    # later components take the first one's name, time and output; %j is their own id
    for r in (first, second):
        assert (r["name"], r["time_seconds"], r["stdout"]) == ("het", 600, "het-{id}.out")
    assert second["het_job_id"] == first["job_id"] != second["job_id"]


def test_typed_gres_exclusive_and_features(slurm, tmp_path):
    path = script(
        tmp_path,
        """
        # -N1 --gres=gpu:pascal:1 --exclusive -C a100&ib -A acct --mail-type=ALL
        true
        """,
    )
    (r,) = slurm_reading(path)
    assert pick(
        r,
        "gpus_per_node",
        "gpu_type",
        "exclusive",
        "oversubscribe",
        "features",
        "account",
        "mail_user",
        "mail_type",
    ) == {
        "gpus_per_node": 1,
        "gpu_type": "pascal",  # a type this cluster lacks: accepted and shown as written
        "exclusive": True,
        "oversubscribe": "NO",
        "features": "a100&ib",
        "account": "acct",
        "mail_user": pwd.getpwuid(os.getuid()).pw_name,  # --mail-type alone: the submitter
        "mail_type": "INVALID_DEPEND,BEGIN,END,FAIL,REQUEUE,STAGE_OUT",
    }
    assert r["raw"]["TresPerNode"] == "gres:gpu:pascal:1"


def test_gpus_per_task_and_per_job(slurm, tmp_path):
    (r,) = slurm_reading(script(tmp_path, "# -n2 --gpus-per-task=1 --cpus-per-gpu=3\ntrue"))
    assert pick(r, "gpus_per_task", "cpus_per_task", "cpus_per_gpu", "gpus_per_node") == {
        "gpus_per_task": 1,
        "cpus_per_task": 3,  # --cpus-per-gpu x --gpus-per-task
        "cpus_per_gpu": 3,
        "gpus_per_node": None,
    }
    (r,) = slurm_reading(script(tmp_path, "# --gpus=v100:3\ntrue"))
    assert (r["gpus_total"], r["gpu_type"], r["raw"]["TresPerJob"]) == (
        3,
        "v100",
        "gres:gpu:v100:3",
    )


def test_untyped_and_typed_gpu_counts_together_are_refused(slurm, tmp_path):
    path = script(tmp_path, "# -n2 --gres=gpu:pascal:1 --gpus-per-task=1\ntrue")
    with pytest.raises(SbatchRefused, match="with and without type identification"):
        slurm_reading(path)


def test_exclusive_user_is_not_node_exclusive(slurm, tmp_path):
    (r,) = slurm_reading(script(tmp_path, "# --exclusive=user\ntrue"))
    assert (r["exclusive"], r["oversubscribe"]) == (False, "USER")


def test_array_placeholders_and_a_relative_workdir(slurm, tmp_path):
    path = script(
        tmp_path,
        """
        # -a 1-10:2%3 -J arr -D sub -o logs/%x_%A_%a.out -e %j.err
        true
        """,
    )
    (r,) = slurm_reading(path)
    assert pick(r, "array", "array_throttle", "workdir", "stdout", "stderr") == {
        "array": "1,3,5,7,9",  # Slurm prints the indices (10-999:50 -> 10-960:50)
        "array_throttle": 3,
        "workdir": "sub",
        "stdout": "logs/arr_{id}_{task}.out",
        "stderr": "{id}.err",
    }
    assert r["array_job_id"] == r["job_id"]


def test_a_number_in_the_path_equal_to_the_job_id_stays(slurm, tmp_path):
    probe = subprocess.run(
        ["sbatch", "--hold", "--parsable", "-p", "pbatch", "-o", "/dev/null", "--wrap=true"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    subprocess.run(["scancel", probe], check=True)
    literal = "_".join(str(int(probe) + k) for k in range(1, 9))  # the next ids, written out
    (r,) = slurm_reading(script(tmp_path, f"# -t 5 -J n{int(probe) + 1} -o {literal}/%x-%j.out"))
    assert int(r["job_id"]) <= int(probe) + 8  # (else other submissions raced this test)
    assert r["stdout"] == f"{literal}/n{int(probe) + 1}-{{id}}.out"


def test_dependencies_on_jobs_that_do_not_exist_are_read_back(slurm, tmp_path):
    path = script(tmp_path, "# -d afterok:99999991:99999992?afterany:99999993+5\ntrue")
    (r,) = slurm_reading(path)
    # Slurm spreads afterok:A:B into afterok:A?afterok:B (the separator that follows)
    assert r["dependency"] == "afterok:99999991?afterok:99999992?afterany:99999993+5"
    assert r["dependencies"] == [
        ("afterok", "99999991"),
        ("afterok", "99999992"),
        ("afterany", "99999993+5"),
    ]
    assert r["dependency_any"] is True
    dummies = subprocess.run(
        ["squeue", "-h", "-n", "jobspec-dependency-dummy", "-t", "PD,R"],
        capture_output=True,
        text=True,
    )
    assert dummies.stdout.strip() == ""  # the stand-in jobs were cancelled


def test_a_dependency_given_on_the_command_line(slurm, tmp_path):
    path = script(tmp_path, "# -d singleton\ntrue")
    (r,) = slurm_reading(path, ["--dependency=afterok:99999994"])
    assert r["dependencies"] == [("afterok", "99999994")]  # the command line wins


def test_begin_in_the_future_is_read(slurm, tmp_path):
    (r,) = slurm_reading(script(tmp_path, "# --begin=now+2hours\ntrue"))
    assert abs(r["begin"] - (time.time() + 7200)) < 120
    (r,) = slurm_reading(script(tmp_path, "# --begin=now\ntrue"))
    assert r["begin"] is None


def test_directives_after_the_first_command_are_not_read(slurm, tmp_path):
    path = script(tmp_path, "# -n2\necho start\n# -n4 -t 5\ntrue")
    (r,) = slurm_reading(path)
    assert (r["tasks"], r["time_given"]) == (2, False)


def test_command_line_overrides_the_script(slurm, tmp_path):
    path = script(tmp_path, "# -p nowhere -t 10 -J mine\ntrue")
    (r,) = slurm_reading(path, ["-t", "20"])
    assert (r["partition"], r["time_seconds"], r["name"]) == ("pbatch", 1200, "mine")


def test_refusal_carries_sbatch_message(slurm, tmp_path):
    path = script(tmp_path, "# --bogus\ntrue")
    with pytest.raises(SbatchRefused) as err:
        slurm_reading(path)
    assert err.value.returncode == 255
    assert "unrecognized option '--bogus'" in err.value.message


def test_the_job_is_cancelled_after_reading(slurm, tmp_path):
    (r,) = slurm_reading(script(tmp_path, "# -n1\ntrue"))
    assert job_state(r["job_id"]) in ("CANCELLED", "GONE")


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name[:3])
def test_corpus_script_is_read_or_its_refusal_is_known(slurm, path):
    adjustment = adjustment_for(path)
    if adjustment is None:
        readings = slurm_reading(path, probe_time=False)
    else:
        with pytest.raises(SbatchRefused) as err:
            slurm_reading(path, probe_time=False)
        assert adjustment.refusal in err.value.message
        readings = slurm_reading(path, adjustment=adjustment, probe_time=False)
    assert readings and all(r["partition"] == "pbatch" for r in readings)


def test_every_adjustment_names_a_corpus_script():
    assert set(ADJUSTMENTS) <= {p.name[:3] for p in CORPUS}


# --- flux_reading against real `flux batch --dry-run` --------------------------------------


def test_flux_reading_of_a_full_script(flux_exe, tmp_path):
    path = script(
        tmp_path,
        """
        # -N2 -n8 -c4 -g1 -x -t 90m --job-name=x --output=out.{{id}}
        # --error=err.{{id}} -q pbatch -B acct --dependency=afterok:123 --requires=a100
        # --begin-time=+1h
        true
        """,
        directive="#flux:",
    )
    r = flux_reading(flux_dry_run(flux_exe, path, cwd=tmp_path), submit_dir=str(tmp_path))
    begin = r.pop("begin")
    assert abs(begin - (time.time() + 3600)) < 120
    assert r == {
        "nodes": 2,
        "slots": 8,
        "slots_per_node": 4,
        "cores_per_slot": 4,
        "gpus_per_slot": 1,
        "exclusive": True,
        "duration": 5400,
        "name": "x",
        "stdout": "out.{id}",
        "stderr": "err.{id}",
        "cwd": ".",
        "queue": "pbatch",
        "bank": "acct",
        "deps": [("afterok", "123")],
        "constraints": {"properties": ["a100"]},
        "features": ["a100"],
    }


def test_flux_reading_defaults_and_slots_without_nodes(flux_exe, tmp_path):
    script(tmp_path, "# -n3\ntrue", name="plain.sh", directive="#flux:")
    r = flux_reading(flux_dry_run(flux_exe, "plain.sh", cwd=tmp_path), submit_dir=str(tmp_path))
    assert pick(
        r,
        "nodes",
        "slots",
        "slots_per_node",
        "cores_per_slot",
        "gpus_per_slot",
        "exclusive",
        "duration",
        "name",
        "stdout",
        "stderr",
        "cwd",
        "deps",
        "begin",
        "queue",
    ) == {
        "nodes": None,
        "slots": 3,
        "slots_per_node": None,
        "cores_per_slot": 1,
        "gpus_per_slot": None,
        "exclusive": False,
        "duration": 0,
        "name": "plain.sh",
        "stdout": "flux-{id}.out",
        "stderr": "flux-{id}.out",  # no --error: stderr goes with stdout
        "cwd": ".",
        "deps": [],
        "begin": None,
        "queue": None,
    }
    # the default name is the script argument as given (Slurm: the file's name)
    r = flux_reading(flux_dry_run(flux_exe, tmp_path / "plain.sh", cwd=tmp_path))
    assert r["name"] == str(tmp_path / "plain.sh")


@pytest.mark.parametrize(
    "options, expected",
    [
        ("-N3", {"nodes": 3, "slots": 3, "slots_per_node": 1, "exclusive": True}),
        ("-N2 -n4", {"nodes": 2, "slots": 4, "slots_per_node": 2, "exclusive": False}),
        ("-N2 -n5", {"nodes": 2, "slots": 6, "slots_per_node": 3, "exclusive": False}),
    ],
)
def test_flux_reading_node_shapes(flux_exe, tmp_path, options, expected):
    path = script(tmp_path, f"# {options}\ntrue", directive="#flux:")
    r = flux_reading(flux_dry_run(flux_exe, path, cwd=tmp_path))
    assert pick(r, *expected) == expected


def test_flux_reading_of_several_dependencies(flux_exe, tmp_path):
    path = script(
        tmp_path,
        "# -n1 --dependency=afterany:f1234 --dependency=singleton\ntrue",
        directive="#flux:",
    )
    r = flux_reading(flux_dry_run(flux_exe, path, cwd=tmp_path))
    assert r["deps"] == [("afterany", "f1234"), ("singleton", None)]


# --- really running ----------------------------------------------------------------------


def test_probe_runs_on_the_debug_partition(slurm):
    started = time.monotonic()
    out = run_under_slurm(RUN_SCRIPTS / "probe-ranks.sh", timeout=120)
    assert out.splitlines() == ["rank=0 size=2", "rank=1 size=2", "cpus_per_task=1", "nodes=1"]
    assert time.monotonic() - started < 60


def test_a_job_that_overruns_is_cancelled(slurm, tmp_path):
    path = script(tmp_path, "# -J jobspec-overrun -n1\nsleep 300")
    with pytest.raises(TimeoutError):
        run_under_slurm(path, timeout=5)
    left = subprocess.run(
        ["squeue", "-h", "-n", "jobspec-overrun", "-t", "PD,R"], capture_output=True, text=True
    )
    assert left.stdout.strip() == ""
