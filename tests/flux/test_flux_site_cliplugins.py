"""A site's CLI plugins read as real Flux loads them: the options cliplugins reads from the
plugin files are the ones `flux CMD --help` lists under "Options provided by plugins" with
the same files on its plugin path (names, whether each takes a value, its metavar), a
command line of them is one `flux CMD --dry-run` takes, and what cliplugins says Flux
fails on, Flux fails on (those commands, and only those)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from cliplugin_cases import BROKEN, EVERY, GOOD, write

from jobspec_lsp.site import cliplugins

pytestmark = pytest.mark.flux

SECTION = "Options provided by plugins"
# the builtin shape plugin's, in the option table already
BUILTIN = {"--resources-shape", "--resources-json"}


def _flux(flux_exe: str, plugins: Path, *args: str, stdin: str | None = None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLUX_CLI_PLUGINPATH")}
    env["FLUX_CLI_PLUGINPATH_OVERRIDE"] = str(plugins)  # these only: not the install's dirs
    return subprocess.run(
        [flux_exe, *args], input=stdin, env=env, capture_output=True, text=True, timeout=60
    )


def _help_options(text: str) -> dict[str, str | None]:
    """--help's plugin options: name -> metavar (None: takes no value)."""
    out: dict[str, str | None] = {}
    for line in text[text.index(SECTION) :].splitlines()[1:]:
        head = re.split(r"\s{2,}", line.strip())[0]
        if not head.startswith("--"):
            continue  # a help text's next line
        for written in head.split(", "):
            name, eq, metavar = written.partition("=")
            out[name] = metavar.strip("[]") if eq else None
    return {n: m for n, m in out.items() if n not in BUILTIN}


def _ours(options: tuple[cliplugins.PluginOption, ...], cmd: str) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for o in options:
        if cmd in o.commands and not o.hidden:
            for name in (o.name, *o.aliases):
                out[name] = o.metavar if o.takes_value else None
    return out


def _value(o: cliplugins.PluginOption) -> str:
    if o.choices:
        return str(o.choices[-1])
    return "-7" if o.integer else "v1"


def _words(options: tuple[cliplugins.PluginOption, ...], cmd: str) -> list[str]:
    """A command line giving each of ``cmd``'s plugin options once (a value each takes)."""
    out = []
    for o in options:
        if cmd in o.commands:
            out.append(f"{o.name}={_value(o)}" if o.takes_value else o.name)
    return out


def _dry_run(flux_exe: str, plugins: Path, cmd: str, words: list[str], tmp_path: Path):
    if cmd == "bulksubmit":
        return _flux(flux_exe, plugins, cmd, "--dry-run", *words, "echo", "{}", ":::", "a")
    if cmd == "batch":
        script = tmp_path / "job.sh"
        script.write_text("#!/bin/sh\n" + "".join(f"#flux: {w}\n" for w in words) + "hostname\n")
        return _flux(flux_exe, plugins, cmd, "--dry-run", "-N1", str(script))
    return _flux(flux_exe, plugins, cmd, "--dry-run", "-N1", *words, "hostname")


@pytest.mark.parametrize("case", sorted(GOOD))
def test_the_options_read_are_the_ones_flux_shows(flux_exe, tmp_path, case):
    profile = write(tmp_path / "site", GOOD[case])
    plugins = profile / "cli" / "plugins"
    options = cliplugins.read_plugins(profile)
    for cmd in EVERY:
        shown = _flux(flux_exe, plugins, cmd, "--help")
        assert shown.returncode == 0, shown.stderr
        theirs = _help_options(shown.stdout)
        assert list(theirs.items()) == list(_ours(options, cmd).items()), cmd


@pytest.mark.parametrize("case", sorted(GOOD))
def test_a_command_line_of_them_is_taken(flux_exe, tmp_path, case):
    profile = write(tmp_path / "site", GOOD[case])
    plugins = profile / "cli" / "plugins"
    options = cliplugins.read_plugins(profile)
    for cmd in EVERY:
        words = _words(options, cmd)
        got = _dry_run(flux_exe, plugins, cmd, words, tmp_path)
        assert got.returncode == 0, (cmd, words, got.stderr)


def test_an_option_of_other_commands_is_refused(flux_exe, tmp_path):
    profile = write(tmp_path / "site", GOOD["per-command"])
    plugins = profile / "cli" / "plugins"
    options = {o.name: o for o in cliplugins.read_plugins(profile)}
    for name, o in options.items():
        for cmd in sorted(set(EVERY) - set(o.commands)):
            word = f"{name}=x" if o.takes_value else name
            got = _dry_run(flux_exe, plugins, cmd, [word], tmp_path)
            assert got.returncode != 0 and f"unrecognized arguments: {word}" in got.stderr, (
                cmd,
                got.stderr,
            )


def test_a_bad_value_flux_refuses_is_told_by_what_was_read(flux_exe, tmp_path):
    profile = write(tmp_path / "site", GOOD["forms"])
    plugins = profile / "cli" / "plugins"
    options = {o.name: o for o in cliplugins.read_plugins(profile)}
    assert options["--ex-color"].choices == ("red", "blue") and options["--ex-level"].integer
    for word in ("--ex-color=green", "--ex-level=x", "--ex-fast=1"):
        got = _dry_run(flux_exe, plugins, "run", [word], tmp_path)
        assert got.returncode == 2, (word, got.stderr)


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_what_flux_fails_on_is_an_error(flux_exe, tmp_path, case):
    files, fails = BROKEN[case]
    profile = write(tmp_path / "site", files)
    plugins = profile / "cli" / "plugins"
    errors = [p for p in cliplugins.scan(profile).problems if p.severity == "error"]
    assert len(errors) == 1
    for cmd in EVERY:
        got = _flux(flux_exe, plugins, cmd, "--help")
        assert (got.returncode != 0) == (cmd in fails), (cmd, got.stderr)
        if cmd in fails:
            assert "ERROR" in got.stderr


@pytest.mark.parametrize("value", ["TPX", "CPX", "XX", "tpx"])
def test_the_example_sites_plugin_option_judged_as_flux_judges_it(flux_exe, tmp_path, value):
    """examples/site/cli/plugins: a value `flux run` takes is taken by `jobspec new
    --site` and in a script's directives; one it refuses is refused by both."""
    from helpers import run_cli

    site = Path(__file__).resolve().parents[2] / "examples" / "site"
    words = ["-N1", "-q", "gpu", f"--site-gpumode={value}"]
    got = _dry_run(flux_exe, site / "cli" / "plugins", "run", words, tmp_path)
    flux_takes = got.returncode == 0
    ours = run_cli("new", "--site", site, *words, "true")
    assert (ours.returncode == 0) == flux_takes, (ours.stderr, got.stderr)
    script = tmp_path / "job.sh"
    script.write_text(f"#!/bin/sh\n#flux: {' '.join(words)}\nflux run true\n")
    checked = run_cli("check", "--site", site, script)
    assert (checked.returncode == 0) == flux_takes, checked.stdout
