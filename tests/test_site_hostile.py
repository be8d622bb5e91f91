"""Nothing in a site profile's directory blocks or kills a command: a FIFO, a directory or
a dangling symlink under a ``*.toml`` or R name, nesting past the readers' limits, a file
too large, bytes that are not UTF-8. Each is one message naming the file, and the checks
that do not need the site go on (the language server's side: tests/lsp/test_lsp_site.py).

Regression cases: site-toml-dangling-symlink, site-toml-is-a-directory,
site-toml-fifo-no-hang, site-deep-toml, site-deep-r-json, check-dir-skips-fifo,
fmt-dir-skips-fifo.
"""

from __future__ import annotations

import shutil
import threading

import pytest
from helpers import run_cli
from site_hostile import MAKERS, PLUGIN_MAKERS, SITE, make

from jobspec_lsp.site import cache, profile
from jobspec_lsp.text import files

JOB = (
    "version: 1\nresources:\n  - type: slot\n    count: 1\n    label: task\n"
    "    with:\n      - type: core\n        count: 0\n"
    "tasks:\n  - command: [app]\n    slot: task\n    count:\n      per_slot: 1\n"
    "attributes:\n  system:\n    duration: 60\n"
)


def _within(fn, seconds=20.0):
    """fn() in a thread; its result, or a failure if it has not returned in ``seconds``
    (a hang, not a slow run: the readers take milliseconds)."""
    got: list = []

    def run():
        try:
            got.append((fn(), None))
        except Exception as err:  # noqa: BLE001 - raised again in the test's thread
            got.append((None, err))

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert got, f"{fn} did not return: blocked"
    if got[0][1] is not None:
        raise got[0][1]
    return got[0][0]


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_a_hostile_profile_is_one_error_naming_its_file(tmp_path, name):
    site, culprit = make(tmp_path, name)
    with pytest.raises(profile.ProfileError) as err:
        _within(lambda: profile.load(site))
    assert culprit in str(err.value)
    got, error = _within(lambda: cache.Sites().get(str(site)))
    assert got is None and culprit in error


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_the_cli_says_it_and_checks_the_rest(tmp_path, name):
    site, culprit = make(tmp_path, name)
    shown = run_cli("site", "show", site, timeout=30)
    out = shown.stdout.decode() + shown.stderr.decode()
    assert shown.returncode == 2 and culprit in out and "Traceback" not in out
    (tmp_path / "job.yaml").write_text(JOB)
    checked = run_cli("check", "--site", site, tmp_path / "job.yaml", timeout=30)
    out = checked.stdout.decode() + checked.stderr.decode()
    assert checked.returncode == 2 and "Traceback" not in out
    assert out.count(culprit) == 1 and "error[JS202]" in out  # the site-free finding stays


@pytest.mark.parametrize("name", sorted(PLUGIN_MAKERS))
def test_a_hostile_plugin_file_is_a_note_and_the_profile_works(tmp_path, name):
    site = tmp_path / "site"
    shutil.copytree(SITE, site)
    culprit = PLUGIN_MAKERS[name](site)
    shown = run_cli("site", "show", site, timeout=30)
    out = shown.stdout.decode() + shown.stderr.decode()
    assert shown.returncode == 0 and culprit in out and "queue" in out


def test_a_regular_file_is_read_and_nothing_else_is(tmp_path):
    import os

    (tmp_path / "f").write_bytes(b"abc")
    assert files.read_regular(tmp_path / "f") == b"abc"
    os.mkfifo(tmp_path / "p")
    for path, why in (
        (tmp_path / "p", "FIFO"),
        (tmp_path, "directory"),
        (tmp_path / "none", "no such file"),
    ):
        with pytest.raises(files.Unreadable, match=why):
            _within(lambda path=path: files.read_regular(path))
    (tmp_path / "big").write_bytes(b"x" * 100)
    with pytest.raises(files.Unreadable, match="larger than 10 bytes"):
        files.read_regular(tmp_path / "big", 10)
    assert files.read_regular(tmp_path / "big", 10, partial=True) == b"x" * 10
    assert not files.is_regular(tmp_path / "p") and files.is_regular(tmp_path / "f")


@pytest.mark.parametrize(
    ("text", "comment", "line"),
    [
        ("[" * 201, "", 1),
        ("[" * 200 + "]" * 200, "", None),
        ('"' + "[" * 300 + '"', "", None),  # inside a string
        ("a = '''\n" + "[" * 300 + "'''\n", "#", None),  # a TOML multi-line literal
        ("# " + "[" * 300 + "\nx = 1\n", "#", None),  # a TOML comment
        ("x = 1\ny = " + "{a = " * 201, "#", 2),
        ('"\\"' + "[" * 300, "", None),  # an escaped quote keeps the string open
    ],
)
def test_nesting_is_measured_outside_strings_and_comments(text, comment, line):
    assert files.too_deep(text, comment=comment) == line


def test_a_directory_walk_reads_regular_files_only(tmp_path):
    import os

    d = tmp_path / "d"
    d.mkdir()
    (d / "a.jobspec.yaml").write_text(JOB)
    os.mkfifo(d / "x.jobspec.yaml")
    os.mkfifo(d / "y.sh")
    (d / "z.jobspec.yaml").symlink_to(d / "nothere")
    for argv in (("check", d), ("fmt", "--check", d)):
        got = run_cli(*argv, timeout=30)  # a FIFO read would block until the timeout
        out = got.stdout.decode() + got.stderr.decode()
        assert "x.jobspec.yaml" not in out and "y.sh" not in out, out
    got = run_cli("check", d, timeout=30)
    assert "a.jobspec.yaml" in got.stdout.decode()


@pytest.mark.parametrize("damage", ["fifo", "directory", "deep", "dangling"])
def test_a_hostile_project_configuration_neither_blocks_nor_kills(tmp_path, damage):
    """The project's jobspec.toml, found by walking up from the file: the same limits."""
    import os

    cfg = tmp_path / "jobspec.toml"
    if damage == "fifo":
        os.mkfifo(cfg)
    elif damage == "directory":
        cfg.mkdir()
    elif damage == "deep":
        cfg.write_text("select = " + "[" * 300 + "]" * 300 + "\n")
    else:
        cfg.symlink_to(tmp_path / "nothere.toml")
    (tmp_path / "job.yaml").write_text(JOB)
    got = run_cli("check", tmp_path / "job.yaml", timeout=30)
    out = got.stdout.decode() + got.stderr.decode()
    assert "Traceback" not in out and "error[JS202]" in out
    if damage == "deep":
        assert got.returncode == 2 and "nested deeper than 200 levels" in out


def test_jobspec_new_with_a_broken_site_says_so_builds_without_it_and_exits_2(tmp_path):
    """`jobspec new --site DIR` with DIR missing was a traceback (None asked for its
    plugins); now as `check --site`: one message, the jobspec built without the site, 2."""
    proc = run_cli("new", "--site", tmp_path / "missing", "-N1", "true", cwd=tmp_path)
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert "Traceback" not in err
    assert err.count("site profile:") == 1 and "not a directory" in err
    assert b"resources" in proc.stdout
