"""A Python with psij-python 0.9.11 for the tests, in a cached virtualenv of its own
(psij-python pins an older `packaging` than the test tools want, so it stays apart),
built aside and renamed into place only when complete (atomic_setup.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from atomic_setup import build_once

VERSION = "0.9.11"
HERE = Path(__file__).resolve().parent


def venv_dir() -> Path:
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return cache / "jobspec-lsp" / f"psij-{VERSION}-b"


def build(venv: Path) -> None:
    """The virtualenv, made in ``venv`` (a temporary folder renamed afterwards: it is
    used only through bin/python, never a console script, so it may move)."""
    exe = str(venv / "bin" / "python")
    subprocess.run(
        [sys.executable, "-m", "venv", str(venv)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    subprocess.run(
        # cffi, PyYAML and ply: what flux-core's Python bindings need, for
        # psij-python's own Flux executor (tests/flux/test_flux_psij.py)
        [
            exe,
            "-m",
            "pip",
            "install",
            "--quiet",
            f"psij-python=={VERSION}",
            "cffi",
            "PyYAML",
            "ply",
        ],
        check=True,
        capture_output=True,
        timeout=600,
    )
    subprocess.run([exe, "-c", "import psij"], check=True, capture_output=True, timeout=120)


def python() -> str:
    try:
        venv = build_once(venv_dir(), build)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as err:
        if os.environ.get("JOBSPEC_REQUIRE_PSIJ") == "1":
            raise
        pytest.skip(f"psij-python {VERSION} could not be installed: {err}")
    return str(venv / "bin" / "python")


def ask(request: dict, env: dict | None = None, flux_exe: str | None = None):
    """psij-python's answer to one request of psijside.py; with ``flux_exe``, flux-core's
    Python bindings on its path (for psij-python's Flux executor) and ``env`` (FLUX_URI)."""
    run_env = dict(env or os.environ)
    if flux_exe:
        where = subprocess.run(
            [
                flux_exe,
                "python",
                "-c",
                "import flux, os; print(os.path.dirname(os.path.dirname(flux.__file__)))",
            ],
            capture_output=True,
            text=True,
            timeout=120,
            env=run_env,
        ).stdout.strip()
        run_env["PYTHONPATH"] = where
    proc = subprocess.run(
        [python(), str(HERE / "psijside.py")],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        timeout=1800,
        env=run_env,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    # psij-python's reader prints the field names it meets: the answer is the last line
    return json.loads(proc.stdout.strip().splitlines()[-1])
