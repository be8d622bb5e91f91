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
    assert "MODE yaml-mode" in proc.stdout  # installed, it is the one used


def test_eglot_attaches_to_a_batch_script_only(tmp_path):
    exe = emacs_with_eglot()
    if exe is None:
        pytest.skip("Emacs with eglot and yaml-mode is not installed (.ci/run installs them "
                    "from Debian's packages where it can)")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    script = tmp_path / "sim.sh"
    script.write_text("#!/bin/sh\n#flux: -N2 -t 5\n#flux: -t 10\n\nflux run ./sim\n")
    plain = tmp_path / "plain.sh"
    plain.write_text("#!/bin/sh\necho hello\nflux jobs\n")
    runs = tmp_path / "runs.sh"  # no directive, but a flux command line: checked
    runs.write_text("#!/bin/sh\nflux run --nodes=2 --tim=5m ./app\n")
    outs = {}
    for f in (script, plain, runs):
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
    got = outs["runs.sh"].stdout
    assert "SCRIPT t" in got and re.search(r"^DIAG 2: jobspec \[JS584\]", got, re.M), got


def emacs_with_eglot_only():
    exe = shutil.which("emacs")
    if exe is None:
        return None
    probe = subprocess.run([exe, "--batch", "--eval", "(progn (package-initialize) (require 'eglot))"],
                           capture_output=True, timeout=60)
    return exe if probe.returncode == 0 else None


def test_eglot_without_yaml_mode(tmp_path):
    """Without yaml-mode (nor yaml-ts-mode, absent from Emacs 28), jobspec files open in
    the .el's own jobspec-yaml-mode and get the server's diagnostics."""
    exe = emacs_with_eglot_only()
    if exe is None:
        pytest.skip("Emacs with eglot is not installed (.ci/run installs it from Debian's "
                    "packages where it can)")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    named = tmp_path / "broken.jobspec.yaml"
    shutil.copy(REPO / "examples" / "broken-v1.jobspec.yaml", named)
    other = tmp_path / "job.yaml"  # not a jobspec name: recognised by its content
    shutil.copy(REPO / "examples" / "broken-v1.jobspec.yaml", other)
    for f in (named, other):
        env = dict(os.environ, JOBSPEC_FILE=str(f), HOME=str(tmp_path), JOBSPEC_REPO=str(REPO),
                   JOBSPEC_NO_YAML_MODE="1",
                   PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"])
        proc = subprocess.run([exe, "--batch", "-l", str(Path(__file__).parent / "emacs_driver.el")],
                              env=env, capture_output=True, text=True, timeout=120)
        assert "MODE jobspec-yaml-mode" in proc.stdout, proc.stdout + proc.stderr
        got = re.findall(r"^DIAG (\d+): jobspec \[(JS\d+)\]", proc.stdout, re.M)
        assert ("16", "JS307") in got and ("21", "JS405") in got, proc.stdout + proc.stderr


def test_fallback_mode_highlights_and_comments():
    exe = emacs_with_eglot_only()
    if exe is None:
        pytest.skip("Emacs with eglot is not installed")
    lisp = f"""(progn
      (setq load-path (seq-remove (lambda (d) (string-match-p "yaml-mode" d)) load-path))
      (setq package-load-list '((yaml-mode nil) all))
      (package-initialize)
      (load "{REPO / "editors" / "emacs" / "jobspec-lsp.el"}")
      (with-temp-buffer
        (insert "version: 1  # a comment\\nresources:\\n  - type: slot\\n    label: 'a: b'\\n")
        (jobspec-yaml-mode)
        (font-lock-ensure)
        (dolist (word '("version" "comment" "resources" "type" "a: b"))
          (goto-char (point-min))
          (search-forward word)
          (princ (format "FACE %s %s\\n" word (get-text-property (match-beginning 0) 'face))))
        (goto-char (point-max))
        (insert "count: 2")
        (comment-region (line-beginning-position) (point))
        (princ (format "COMMENTED %s\\n" (buffer-substring (line-beginning-position) (point))))
        (princ (format "PICKED %s\\n" (jobspec-lsp-yaml-mode)))))"""
    proc = subprocess.run([exe, "--batch", "--eval", lisp], capture_output=True, text=True,
                          timeout=60)
    out = proc.stdout
    assert "PICKED jobspec-yaml-mode" in out, out + proc.stderr
    assert "FACE version font-lock-variable-name-face" in out, out
    assert "FACE resources font-lock-variable-name-face" in out, out
    assert "FACE type font-lock-variable-name-face" in out, out  # after "- "
    assert "FACE comment font-lock-comment-face" in out, out
    assert "FACE a: b font-lock-string-face" in out, out
    assert "COMMENTED # count: 2" in out, out
