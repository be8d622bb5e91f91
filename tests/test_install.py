"""A non-editable install, in a fresh virtualenv, finds every data file it needs.

Builds the wheel from this checkout, installs it into a new venv (with the
dependencies already present in the test environment, so no network is
needed), and runs the installed `jobspec` from outside the source tree on
inputs that need the grammars.
"""

import json
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest
from helpers import REPO


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(out),
            str(REPO),
        ],
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:  # no hatchling in this environment: build isolated
        proc = subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(out), str(REPO)],
            capture_output=True,
            text=True,
        )
    assert proc.returncode == 0, proc.stderr
    (whl,) = out.glob("jobspec_lsp-*.whl")
    return whl


def test_wheel_ships_the_grammars(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    for g in ("idset", "range", "hostlist", "fsd", "shape"):
        assert f"jobspec_lsp/grammars/{g}.lark" in names
    assert "jobspec_lsp/docs/rules.md" in names  # every rule on one page, offline
    assert "jobspec_lsp/schemas/jobspec-canonical.schema.json" in names
    assert "jobspec_lsp/schemas/jobspec-v1.schema.json" in names


def test_installed_wheel_runs_outside_the_source_tree(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    subprocess.run(
        [str(py), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", str(wheel)],
        check=True,
    )
    assert (env_dir / "bin" / "jobspec").exists() and (env_dir / "bin" / "jobspec-lsp").exists()
    # the dependencies come from the test environment, after the venv's own site-packages
    # (added after the install, or pip would think the package already installed)
    site = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    deps = [sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
    (Path(site) / "test-deps.pth").write_text("\n".join(dict.fromkeys(deps)) + "\n")
    job = tmp_path / "x.jobspec.yaml"
    job.write_text((REPO / "examples" / "broken-canonical.jobspec.yaml").read_text())
    proc = subprocess.run(
        [str(env_dir / "bin" / "jobspec"), "check", "--format", "json", str(job)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert proc.returncode == 1, proc.stderr
    codes = {d["code"] for d in json.loads(proc.stdout)["files"][0]["diagnostics"]}
    assert {"JS203", "JS505"} <= codes  # both need the lark grammars
    proc = subprocess.run(
        [str(env_dir / "bin" / "jobspec"), "shape", "slot=2/core"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert proc.returncode == 0 and "label: default" in proc.stdout, proc.stderr
    where = subprocess.run(
        [str(py), "-c", "import jobspec_lsp, sys; print(jobspec_lsp.__file__)"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    ).stdout
    assert str(env_dir) in where
