"""The job-ingest validator plugin (jobspec_lsp/site/ingest.py) loaded into a real Flux
instance configured from a site profile, as docs/site.md tells a site to install it: by
path in `[ingest.validator] plugins`, and live with `flux module reload job-ingest`. It
runs under Flux's own Python (without this package's dependencies), refuses with the
reason what Flux refuses anyway, and with `strict = true` also a job that would wait
forever on a site without the feasibility validator."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from siteside import run_in_site

from jobspec_lsp.site import ingest

HETERO = Path(__file__).resolve().parent.parent / "data" / "sites" / "hetero"
PLUGIN = str(Path(ingest.__file__).resolve())
JOBS = {
    "gpus": "-q gpu -N1 -n1 -g8",
    "good": "-q debug -N1 -t 5m",
    "nodes": "-q gpu -N5 -n5",
    "limit": "-q debug -N3 -t 5m",
}


def _site(tmp_path: Path, plugins: list[str], extra: str = "") -> Path:
    site = tmp_path / "site"
    shutil.copytree(HETERO, site)
    (site / "ingest.toml").write_text(
        f"[ingest.validator]\nplugins = {json.dumps(plugins)}\n{extra}"
    )
    return site


def _submit_all(flux_exe: str, site: Path, before: str = "") -> dict[str, str]:
    lines = [before] if before else []
    for name, options in JOBS.items():
        lines.append(
            f"echo '@{name}' $({flux_exe} submit --urgency=0 {options} true 2>&1 | tail -1)"
        )
    out = run_in_site(flux_exe, site, ["sh", "-c", "\n".join(lines)], timeout=120)
    return dict(re.findall(r"^@(\w+) (.*)$", out, re.M))


@pytest.mark.flux
def test_the_plugin_gives_the_reason_flux_does_not(flux_exe, tmp_path):
    site = _site(tmp_path, ["jobspec", "feasibility", PLUGIN])
    # a table of the site's own, which Flux takes and the checks do not read
    (site / "zz-other.toml").write_text("[accounting]\nenabled = true\n")
    got = _submit_all(flux_exe, site)
    assert "jobspec-lsp: asks 8 GPUs per node; nodes in queue `gpu` have 4" in got["gpus"]
    assert "jobspec-lsp: asks 5 nodes; queue `gpu` has 4" in got["nodes"]
    assert "jobspec-lsp: asks 3 nodes in all; queue `debug` allows at most 2" in got["limit"]
    assert got["good"].startswith("ƒ"), got["good"]


@pytest.mark.flux
def test_loaded_live_with_module_reload(flux_exe, tmp_path):
    site = _site(tmp_path, ["jobspec", "feasibility"])
    reload = (
        f"{flux_exe} module reload job-ingest "
        f"validator-plugins=jobspec,feasibility,{PLUGIN} || echo reload failed"
    )
    got = _submit_all(flux_exe, site, reload)
    assert "jobspec-lsp: asks 8 GPUs per node" in got["gpus"]
    assert got["good"].startswith("ƒ"), got["good"]


@pytest.mark.flux
def test_strict_refuses_what_would_wait_forever(flux_exe, tmp_path):
    # no feasibility validator: Flux accepts a job bigger than the queue, which never runs
    plain = _submit_all(flux_exe, _site(tmp_path / "a", ["jobspec", PLUGIN]))
    assert plain["nodes"].startswith("ƒ"), plain["nodes"]  # the plugin lets Flux decide
    strict = _submit_all(
        flux_exe,
        _site(
            tmp_path / "b", ["jobspec", PLUGIN], "[ingest.validator.jobspec-lsp]\nstrict = true\n"
        ),
    )
    assert "jobspec-lsp: asks 5 nodes; queue `gpu` has 4" in strict["nodes"]
    assert "never starts" in strict["nodes"]
    assert strict["good"].startswith("ƒ"), strict["good"]
