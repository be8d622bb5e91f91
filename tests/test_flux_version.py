"""The Flux version whose options are read is chosen like --target: --flux-version,
[tool.jobspec] flux-version, the editor's fluxVersion; the option table keys it."""

from __future__ import annotations

import copy

import pytest
from helpers import run_cli

from jobspec_lsp import config
from jobspec_lsp.fluxcli import model, submit
from jobspec_lsp.lsp.settings import Settings
from jobspec_lsp.script import batch

REAL = model.default_version()
SCRIPT = "#!/bin/sh\n#flux: -N1 --exclusive\nhostname\n"


@pytest.fixture
def two_versions(monkeypatch):
    """The table with a made-up later release whose flux batch, submit and run lost
    --exclusive (so the choice of version shows in what is reported)."""
    table = copy.deepcopy(model.versions())
    later = copy.deepcopy(table[REAL])
    for name in ("batch", "submit", "run"):
        later[name]["options"] = [
            o for o in later[name]["options"] if "--exclusive" not in o["names"]
        ]
    table["0.99.0-1-gabc"] = later
    monkeypatch.setattr(model, "versions", lambda: table)
    return "0.99"


def _errors(text):
    return [d for d in batch.check_script(text) if d.severity.name == "ERROR"]


def test_the_chosen_version_reads_the_directives(two_versions):
    assert model.default_version() == "0.99.0-1-gabc"  # the newest by default
    (d,) = _errors(SCRIPT)
    assert SCRIPT[d.start : d.end] == "--exclusive" and "no option" in d.message
    with model.using(REAL.split("-")[0].rsplit(".", 1)[0]):  # "0.88" names the release
        assert _errors(SCRIPT) == []
        assert model.selected_version() == REAL
    assert len(_errors(SCRIPT)) == 1  # the choice ends with the block


def test_the_chosen_version_reads_new_and_command_lines(two_versions):
    with pytest.raises(submit.NewUsageError, match="no option '--exclusive'"):
        submit.read(["-N1", "--exclusive", "--", "a"])
    ns, _ = submit.read(["--flux-version=0.88", "-N1", "--exclusive", "--", "a"])
    assert ns.exclusive is True
    body = "#!/bin/sh\n#flux: -N2\nflux run -N1 --exclusive hostname\n"
    assert [d.code for d in batch.command_line_checks(body)] == ["JS584"]
    with model.using("0.88"):
        assert batch.command_line_checks(body) == []


def test_an_unknown_version_is_refused_everywhere(tmp_path):
    assert "0.88" in (model.version_problem("0.5") or "")
    assert model.version_problem("0.88") is None
    with pytest.raises(ValueError):
        with model.using("0.5"):
            pass
    (tmp_path / "jobspec.toml").write_text('flux-version = "0.5"\n')
    cfg = config.load(tmp_path / "job.sh")
    assert cfg.flux_version is None
    (p,) = cfg.problems
    assert (p.line, "flux-version") == (1, "flux-version") and "0.5" in p.message
    s = Settings.from_dict({"fluxVersion": "0.5"})
    assert s.flux_version is None and "fluxVersion" in s.problems[0]
    assert Settings.from_dict({"fluxVersion": "0.88"}).flux_version == "0.88"


def test_the_cli_takes_the_version(tmp_path):
    job = tmp_path / "job.sh"
    job.write_text(SCRIPT)
    assert run_cli("check", "--flux-version", "0.88", job).returncode == 0
    bad = run_cli("check", "--flux-version", "0.5", job)
    assert bad.returncode == 2 and b"not in the option table" in bad.stderr
    got = run_cli("new", "--from-batch", job, "--flux-version=0.5")
    assert got.returncode == 2 and b"not in the option table" in got.stderr
    (tmp_path / "jobspec.toml").write_text('flux-version = "0.88"\n')
    assert run_cli("new", "--from-batch", job, cwd=tmp_path).returncode == 0
    assert run_cli("check", job).returncode == 0
