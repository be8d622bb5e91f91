"""The Flux command-line package's value readers and jobspec builders, in process:
free-form begin times, ``--add-file``, and the rule that the server's view of a
script never reads a file the editor did not open."""

from __future__ import annotations

import datetime as dt

import pytest

from jobspec_lsp.fluxcli import attrs, values
from jobspec_lsp.script import batch


def _local(y, mo, d, h=0, mi=0, s=0) -> float:
    return dt.datetime(y, mo, d, h, mi, s).astimezone().timestamp()


NOW = _local(2026, 11, 26, 5, 30)


@pytest.mark.parametrize(
    "text, when",
    [
        ("8pm tomorrow", _local(2026, 11, 27, 20)),
        ("tomorrow 3pm", _local(2026, 11, 27, 15)),
        ("noon", _local(2026, 11, 26, 12)),
        ("2030-01-20 12:34", _local(2030, 1, 20, 12, 34)),
        ("2030-01-20", _local(2030, 1, 20, 5, 30)),  # a bare date keeps the time of day
        ("+1h", NOW + 3600),
        ("-90s", NOW - 90),
        ("now", NOW),
    ],
)
def test_begin_time_stamps(text, when):
    assert values.begin_timestamp(text, now=NOW) == pytest.approx(when)


@pytest.mark.parametrize("text", ["bogus", "25:00", "12:61", "2030-02-30", "+1x"])
def test_begin_times_flux_refuses(text):
    with pytest.raises(values.Refused) as err:
        values.begin_timestamp(text, now=NOW)
    assert not err.value.ours
    assert values.begin_time_problem(text)


def test_free_form_begin_time_is_taken_and_a_bad_one_is_positioned():
    ok = "#!/bin/sh\n#flux: -N1\n#flux: --begin-time='8pm tomorrow'\nhostname\n"
    assert [d for d in batch.check_script(ok) if d.severity.name == "ERROR"] == []
    bad = "#!/bin/sh\n#flux: -N1\n#flux: --begin-time=bogus\nhostname\n"
    (d,) = [d for d in batch.check_script(bad) if d.severity.name == "ERROR"]
    assert bad[d.start : d.end] == "bogus" and "Invalid datetime" in d.message


def test_a_begin_time_too_long_to_read_is_a_limit_not_a_refusal():
    why = values.begin_time_problem("tomorrow " * 50)
    assert isinstance(why, values.Limit)


def test_add_file_forms(tmp_path):
    (tmp_path / "data.txt").write_text("abc")
    (tmp_path / "raw.bin").write_bytes(b"\xff\x00")
    system: dict = {}
    for arg in ("data.txt", "copy:700=data.txt", "inline:640=a\\nb", "raw.bin"):
        attrs.add_file(system, arg, str(tmp_path), read_files=True)
    files = system["files"]
    assert files["data.txt"]["data"] == "abc" and files["data.txt"]["size"] == 3
    # a path keeps the file's own mode, whatever PERMS says (as Flux does)
    assert files["copy"]["mode"] == files["data.txt"]["mode"]
    assert files["inline"] == {"mode": 0o100640, "data": "a\nb", "encoding": "utf-8"}
    assert files["raw.bin"] == {
        "mode": files["raw.bin"]["mode"], "size": 2, "data": "/wA=", "encoding": "base64",
    }  # fmt: skip
    with pytest.raises(values.Refused, match="file name missing"):
        attrs.add_file(system, "a\\nb", str(tmp_path), read_files=True)


def test_the_server_view_reads_no_file(tmp_path):
    (tmp_path / "secret.txt").write_text("do not read")
    script = "#!/bin/sh\n#flux: -N1\n#flux: --add-file=secret.txt\nhostname\n"
    path = str(tmp_path / "job.sh")
    with pytest.raises(batch.BatchError) as err:
        batch.shown_jobspec(script, path)  # the server's call: read_files defaults to False
    assert err.value.ours and "does not read files" in str(err.value)
    shown = batch.shown_jobspec(script, path, read_files=True)
    assert "do not read" in shown
    inline = "#!/bin/sh\n#flux: -N1\n#flux: --add-file='n=a\\nb'\nhostname\n"
    assert "encoding: utf-8" in batch.shown_jobspec(inline, path)
    for option in ("--resources-json=r.json", "--conf=site.toml"):
        (tmp_path / option.split("=")[1]).write_text("{}")
        text = f"#!/bin/sh\n#flux: -N1\n#flux: {option}\nhostname\n"
        with pytest.raises(batch.BatchError) as err:
            batch.shown_jobspec(text, path)
        assert err.value.ours


@pytest.mark.parametrize(
    "rule, refused",
    [("A=1", False), ("A=$1", True), ("A=x$", True), ("A=$$", False), ("-/[/", True),
     ("-FOO*", False), ("/[a/", True), ("^rules.txt", False), ("A={{tmpdir}}", False)],
)  # fmt: skip
def test_env_rules(rule, refused):
    assert bool(values.env_problem(rule)) is refused


def test_cc_idsets_on_a_submit_line_are_checked_at_their_word():
    body = "#!/bin/sh\n#flux: -N1\nflux submit --cc=1-x ./a\nflux submit --cc=0-3 ./a\n"
    (d,) = batch.command_line_checks(body)
    assert body[d.start : d.end] == "1-x" and "idset" in d.message


def test_checking_a_script_never_opens_a_file_an_option_names(tmp_path, monkeypatch):
    """The server checks a script on every edit: --add-file, --resources-json and
    --conf FILE are left out of the jobspec its checks build, never opened (a FIFO would
    hang the server; found in review)."""
    import builtins
    import os

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "site.toml").write_text("a = 1\n")
    opened = []
    real_open = builtins.open

    def spy(path, *args, **kwargs):
        opened.append(str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", spy)
    for option in (
        f"--add-file={fifo}",
        f"--resources-json={fifo}",
        f"--conf={tmp_path}/site.toml",
    ):
        text = f"#!/bin/sh\n#flux: -n1 --setattr=user.x=1 {option}\nhostname\n"
        batch.check_script(text)
        with pytest.raises(batch.BatchError):
            batch.shown_jobspec(text, str(tmp_path / "job.sh"))
    assert not [p for p in opened if str(tmp_path) in p], opened
