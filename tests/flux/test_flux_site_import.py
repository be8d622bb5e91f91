"""`jobspec site import`'s core against a real Flux instance: a copy of the hetero profile is
started as a site (one broker, cwd = the profile, hostlist = R's nodes), capture() runs
inside it, and the captured profile reads as the original one does."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from jobspec_lsp.site import profile

REPO = Path(__file__).resolve().parents[2]
HETERO = REPO / "tests" / "data" / "sites" / "hetero"

# run by the broker as its initial program: capture, and note what the instance itself says
INSIDE = """
import json, os, subprocess, sys
from jobspec_lsp.site import importer
flux, out, notes = sys.argv[1:4]
importer.capture(out, flux=flux)
live = subprocess.run([flux, "config", "get"], capture_output=True, text=True, check=True)
with open(notes, "w") as f:
    json.dump({"uri": os.environ.get("FLUX_URI"), "config": json.loads(live.stdout)}, f)
"""


def _flux(flux_exe: str, *args: str, stdin: str | None = None, cwd=None) -> str:
    got = subprocess.run(
        [flux_exe, *args], input=stdin, capture_output=True, text=True, timeout=60, cwd=cwd
    )
    assert got.returncode == 0, got.stderr
    return got.stdout


@pytest.mark.flux
def test_a_profile_captured_from_a_running_site_reads_as_the_original(flux_exe, tmp_path):
    site = tmp_path / "hetero"
    shutil.copytree(HETERO, site)
    out, notes = tmp_path / "captured", tmp_path / "notes.json"
    hosts = _flux(flux_exe, "R", "decode", "--nodelist", stdin=(site / "R.json").read_text())
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
    )
    env.pop("FLUX_URI", None)  # the broker sets its own for the program it runs
    started = subprocess.run(
        [
            flux_exe,
            "broker",
            f"--setattr=hostlist={hosts.strip()}",
            f"--config-path={site}",
            sys.executable,
            "-c",
            INSIDE,
            flux_exe,
            str(out),
            str(notes),
        ],
        cwd=site,  # a relative [resource] path is resolved against the broker's cwd
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert started.returncode == 0, started.stderr[-3000:]
    seen = json.loads(notes.read_text())

    assert sorted(p.name for p in out.iterdir()) == ["R.json", "site.toml"]
    assert f'FLUX_URI="{seen["uri"]}"' in (out / "site.toml").read_text().splitlines()[0]

    captured, original = profile.load(out), profile.load(site)
    assert captured.queues == original.queues
    assert captured.limits == original.limits
    assert captured.default_queue == original.default_queue
    assert captured.default_duration == original.default_duration
    assert captured.classes == original.classes
    assert captured.r_path == str(out / "R.json")

    # Flux reads the captured conf.d as the instance's own config, but for resource.path
    offline = json.loads(_flux(flux_exe, "config", "get", "-c", str(out)))
    assert offline["resource"].pop("path") == "R.json"
    live = seen["config"]
    live["resource"].pop("path")
    assert offline == live
    assert captured.config == json.loads(_flux(flux_exe, "config", "get", "-c", str(out)))
