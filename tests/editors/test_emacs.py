"""Emacs 28 with eglot (Debian's emacs-nox, elpa-eglot, elpa-yaml-mode), set up as
docs/editors.md says, shows the server's diagnostics on their lines."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import REPO


def emacs_with_eglot():
    exe = shutil.which("emacs")
    if exe is None:
        return None
    probe = subprocess.run([exe, "--batch", "--eval",
                            "(progn (package-initialize) (require 'eglot) (require 'yaml-mode))"],
                           capture_output=True, timeout=60)
    return exe if probe.returncode == 0 else None


def test_eglot_shows_the_diagnostics(tmp_path):
    exe = emacs_with_eglot()
    if exe is None:
        pytest.skip("Emacs with eglot and yaml-mode is not installed (.ci/run installs them "
                    "from Debian's packages where it can)")
    job = tmp_path / "broken.jobspec.yaml"
    shutil.copy(REPO / "examples" / "broken-v1.jobspec.yaml", job)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)  # eglot wants a project
    env = dict(os.environ, JOBSPEC_FILE=str(job), HOME=str(tmp_path), JOBSPEC_REPO=str(REPO),
               PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
    proc = subprocess.run([exe, "--batch", "-l", str(Path(__file__).parent / "emacs_driver.el")],
                          env=env, capture_output=True, text=True, timeout=120)
    got = re.findall(r"^DIAG (\d+): jobspec \[(JS\d+)\]", proc.stdout, re.M)
    assert ("16", "JS307") in got and ("13", "JS202") in got and ("21", "JS405") in got, \
        proc.stdout + proc.stderr


def test_eglot_attaches_to_a_batch_script_only(tmp_path):
    exe = emacs_with_eglot()
    if exe is None:
        pytest.skip("Emacs with eglot and yaml-mode is not installed (.ci/run installs them "
                    "from Debian's packages where it can)")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    script = tmp_path / "sim.sh"
    script.write_text("#!/bin/sh\n#flux: -N2 -t 5\n#flux: -t 10\n\nflux run ./sim\n")
    plain = tmp_path / "plain.sh"
    plain.write_text("#!/bin/sh\necho hello\n")
    outs = {}
    for f in (script, plain):
        env = dict(os.environ, JOBSPEC_FILE=str(f), HOME=str(tmp_path), JOBSPEC_REPO=str(REPO),
                   PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
        outs[f.name] = subprocess.run(
            [exe, "--batch", "-l", str(Path(__file__).parent / "emacs_driver.el")],
            env=env, capture_output=True, text=True, timeout=120)
    got = outs["sim.sh"].stdout
    assert "SCRIPT t" in got, got + outs["sim.sh"].stderr
    assert re.search(r"^DIAG 3: jobspec \[JS573\]: --time-limit given again", got, re.M), got
    assert "SHOWN # the jobspec `flux batch --dry-run sim.sh` builds" in got
    assert "SCRIPT nil" in outs["plain.sh"].stdout and "DIAG" not in outs["plain.sh"].stdout
