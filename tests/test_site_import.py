"""`jobspec site import`'s core, without Flux: a fake `run` answers `flux config get` and
`flux resource R` as a running instance does (the texts below are what Flux 0.88 printed
for tests/data/sites/hetero), and what capture() writes is read back as a profile."""

from __future__ import annotations

import json
import math
import os
import subprocess
from pathlib import Path

import pytest
import tomllib
from hypothesis import given, settings
from hypothesis import strategies as st

from jobspec_lsp.site import importer, profile
from jobspec_lsp.site.importer import CaptureError

SITES = Path(__file__).resolve().parent / "data" / "sites"

# `flux config get` and `flux resource R` inside an instance started from sites/hetero
HETERO_CONFIG = (
    '{"ingest":{"validator":{"plugins":["jobspec","feasibility"]}},"queues":{"debug":'
    '{"requires":["debug"],"policy":{"limits":{"duration":"1h","job-size":{"max":{"nnodes":2}}}}},'
    '"batch":{"requires":["batch"],"policy":{"limits":{"duration":"8h","job-size":{"min":'
    '{"nnodes":1}}}}},"gpu":{"requires":["gpu"],"policy":{"limits":{"job-size":{"max":'
    '{"ngpus":8}}},"jobspec":{"defaults":{"system":{"duration":"30m"}}}}}},"policy":{"limits":'
    '{"duration":"1d","job-size":{"max":{"nnodes":8,"ncores":256}}}},"resource":'
    '{"path":"R.json","noverify":true}}'
)
HETERO_R = (
    '{"version": 1, "execution": {"R_lite": [{"rank": "0-11", "children": {"core": "0-31"}}, '
    '{"rank": "12-15", "children": {"core": "0-63", "gpu": "0-3"}}], "starttime": 0.0, '
    '"expiration": 0.0, "nodelist": ["node[0-11],gpu[0-3]"], "properties": {"a100": "12-15", '
    '"batch": "4-11", "debug": "0-3", "gpu": "12-15"}}}'
)


class FakeFlux:
    """A `run` answering flux commands from a table; it records what it was asked."""

    def __init__(self, config: str | dict = HETERO_CONFIG, r: str = HETERO_R, fail=None):
        self.answers = {
            ("config", "get"): (0, config if isinstance(config, str) else json.dumps(config), ""),
            ("resource", "R"): (0, r + "\n", ""),
        }
        if fail:
            self.answers[fail[0]] = (fail[1], "", fail[2])
        self.calls: list[list[str]] = []

    def __call__(self, argv, **kwargs):
        assert kwargs.get("check") is False and kwargs.get("capture_output") is True
        self.calls.append(list(argv))
        rc, out, err = self.answers[tuple(argv[1:])]
        return subprocess.CompletedProcess(argv, rc, out, err)


def _capture(directory: Path, fake: FakeFlux | None = None, **kw) -> list[Path]:
    return importer.capture(directory, run=fake or FakeFlux(), **kw)


# ------------------------------------------------------------------------ what is written


def test_capture_writes_site_toml_and_r_json(tmp_path):
    out = tmp_path / "new" / "profile"  # made, parents too
    fake = FakeFlux()
    written = _capture(out, fake)
    assert written == [out / "site.toml", out / "R.json"]
    assert fake.calls == [["flux", "config", "get"], ["flux", "resource", "R"]]
    assert sorted(p.name for p in out.iterdir()) == ["R.json", "site.toml"]  # no temp left
    assert json.loads((out / "R.json").read_text()) == json.loads(HETERO_R)
    tables = tomllib.loads((out / "site.toml").read_text())
    want = json.loads(HETERO_CONFIG)
    want["resource"]["path"] = "R.json"
    assert tables == want


def test_the_captured_profile_loads_as_the_original(tmp_path):
    got = profile.load(_capture(tmp_path / "p")[0].parent)
    original = profile.load(SITES / "hetero")
    assert got.config == original.config  # the hetero profile's own path is R.json too
    assert got.config["resource"]["path"] == "R.json"
    assert got.r_path == str(tmp_path / "p" / "R.json")
    assert got.queues == original.queues
    assert got.limits == original.limits
    assert (got.default_queue, got.default_duration) == (
        original.default_queue,
        original.default_duration,
    )
    assert got.classes == original.classes


def test_config_is_the_captured_one_but_for_resource_path(tmp_path):
    config = json.loads(HETERO_CONFIG)
    config["resource"] = {"path": "/etc/flux/system/R", "noverify": True, "exclude": "3"}
    config["policy"]["jobspec"] = {"defaults": {"system": {"duration": "1h", "queue": "batch"}}}
    config["queues"]["empty"] = {}
    site = profile.load(_capture(tmp_path, FakeFlux(config))[0].parent)
    config["resource"]["path"] = "R.json"
    assert site.config == config
    assert site.default_queue == "batch" and "empty" in site.queues


def test_only_the_profile_tables_are_kept_and_the_cluster_files_are_dropped(tmp_path):
    config = {
        "resource": {
            "path": "/var/flux/R",
            "config": [{"hosts": "cn[1-4]", "cores": "0-7"}],
            "scheduling": "/var/flux/jgf.json",
            "noverify": True,
            "verify": {},  # an empty table means something to Flux: it must survive
            "norestrict": False,
        },
        "bootstrap": {"curve_cert": "/etc/flux/system/curve.cert"},
        "exec": {"imp": "/usr/libexec/flux/flux-imp"},
        "tbon": {"tcp_user_timeout": "2m"},
        "ingest": {"frobnicator": {"disable": True}},
    }
    tables = tomllib.loads(_capture(tmp_path, FakeFlux(config))[0].read_text())
    assert tables == {
        "resource": {"path": "R.json", "noverify": True, "verify": {}, "norestrict": False},
        "ingest": {"frobnicator": {"disable": True}},
    }


def test_an_instance_without_config_still_gives_a_profile(tmp_path):
    # `flux start` as shipped: `flux config get` prints {}; R has no properties
    r = json.loads(HETERO_R)
    del r["execution"]["properties"]
    _capture(tmp_path, FakeFlux("{}", json.dumps(r)))
    site = profile.load(tmp_path)
    assert site.config == {"resource": {"path": "R.json"}}
    assert site.nodes == 16 and site.queues == {}


def test_the_header_says_which_instance_and_when(tmp_path, monkeypatch):
    monkeypatch.setenv("FLUX_URI", "local:///tmp/flux-abc/local-0")
    text = _capture(tmp_path / "a")[0].read_text()
    head = text.split("\n\n")[0]
    assert head.startswith("# ") and all(line.startswith("#") for line in head.splitlines())
    assert 'FLUX_URI="local:///tmp/flux-abc/local-0"' in head
    assert " UTC" in head and "flux config get" in head and "flux resource R" in head
    monkeypatch.delenv("FLUX_URI")
    head = _capture(tmp_path / "b")[0].read_text().split("\n\n")[0]
    assert "FLUX_URI was not set" in head


def test_a_uri_with_a_newline_cannot_break_the_header(tmp_path, monkeypatch):
    monkeypatch.setenv("FLUX_URI", 'ssh://host/x\n[evil]\nkey = "1"')
    text = _capture(tmp_path)[0].read_text()
    assert "evil" not in tomllib.loads(text)


def test_keys_that_need_quotes_are_quoted(tmp_path):
    config = {
        "queues": {
            "a.b": {"requires": ["x"]},  # a dot: quoted, else it would be two tables
            "with space": {},
            "ünï": {"policy": {"limits": {"duration": "1h"}}},
            "": {},
            'say "hi"\\': {},
            "plain-name_1": {},
        }
    }
    path = _capture(tmp_path, FakeFlux(config))[0]
    text = path.read_text()
    assert '[queues."a.b"]' in text and "[queues.plain-name_1]" in text
    assert '[queues."say \\"hi\\"\\\\"]' in text
    assert tomllib.loads(text)["queues"] == config["queues"]


# ------------------------------------------------------------------------ what is refused


@pytest.mark.parametrize("existing", ["site.toml", "R.json"])
def test_an_existing_file_is_not_overwritten(tmp_path, existing):
    (tmp_path / existing).write_text("mine\n")
    fake = FakeFlux()
    with pytest.raises(CaptureError, match=f"{existing} already exists.*force"):
        _capture(tmp_path, fake)
    assert fake.calls == []  # refused before asking Flux
    assert (tmp_path / existing).read_text() == "mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [existing]


def test_force_overwrites(tmp_path):
    (tmp_path / "site.toml").write_text("mine\n")
    (tmp_path / "R.json").write_text("{}\n")
    _capture(tmp_path, force=True)
    assert profile.load(tmp_path).nodes == 16
    assert sorted(p.name for p in tmp_path.iterdir()) == ["R.json", "site.toml"]


def test_other_toml_files_would_be_merged_so_they_are_refused(tmp_path):
    (tmp_path / "queues.toml").write_text("[queues.old]\n")
    for force in (False, True):
        with pytest.raises(CaptureError, match="queues.toml.*merge"):
            _capture(tmp_path, force=force)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["queues.toml"]


def test_a_file_where_the_directory_should_be(tmp_path):
    (tmp_path / "f").write_text("")
    with pytest.raises(CaptureError, match="not a directory"):
        _capture(tmp_path / "f")


@pytest.mark.parametrize(
    "command, stderr",
    [
        (("config", "get"), "flux-config: could not connect\nflux-config: Connection refused\n"),
        (("resource", "R"), "Traceback (most recent call last):\n  ...\nOSError: boom\n"),
    ],
)
def test_a_failing_flux_command_names_itself_and_its_stderr(tmp_path, command, stderr):
    fake = FakeFlux(fail=(command, 1, stderr))
    with pytest.raises(CaptureError) as err:
        _capture(tmp_path / "p", fake)
    last = stderr.strip().splitlines()[-1]
    assert err.value.message == f"`flux {' '.join(command)}` failed (exit 1): {last}"
    assert str(err.value) == err.value.message
    assert not (tmp_path / "p").exists()  # nothing written, not even the directory


def test_a_failure_with_no_stderr_says_so(tmp_path):
    with pytest.raises(CaptureError, match=r"failed \(exit 2\): \(no message on stderr\)"):
        _capture(tmp_path, FakeFlux(fail=(("config", "get"), 2, "")))


def test_flux_not_found(tmp_path):
    with pytest.raises(CaptureError, match="/nonexistent/flux: command not found"):
        importer.capture(tmp_path / "p", flux="/nonexistent/flux")  # the real subprocess.run
    assert not (tmp_path / "p").exists()


def test_flux_not_answering(tmp_path):
    def run(argv, **kwargs):
        raise subprocess.TimeoutExpired(argv, kwargs["timeout"])

    with pytest.raises(CaptureError, match="`flux config get` did not answer"):
        importer.capture(tmp_path, run=run)


@pytest.mark.parametrize(
    "config, r, message",
    [
        ("flux-config: nothing", HETERO_R, "`flux config get` printed no JSON"),
        ("[1, 2]", HETERO_R, "not an object"),
        ('{"resource": 3}', HETERO_R, r"\[resource\] is not a table"),
        ('{"queues": {"q": {"x": null}}}', HETERO_R, "cannot be written as TOML"),
        ("{}", '{"version": 1}', "no RFC 20 R"),
    ],
)
def test_what_cannot_be_a_profile_is_refused(tmp_path, config, r, message):
    with pytest.raises(CaptureError, match=message):
        _capture(tmp_path / "p", FakeFlux(config, r))
    assert not (tmp_path / "p").exists()


def test_a_failed_write_leaves_no_temporary_file(tmp_path, monkeypatch):
    def refuse(src, dst):
        raise PermissionError(13, "Permission denied", str(dst))

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(CaptureError, match="R.json: cannot write: Permission denied"):
        _capture(tmp_path)
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------------ the TOML writer


def test_strings_are_escaped_as_toml_wants():
    assert importer.toml_string('a"b\\c') == '"a\\"b\\\\c"'
    assert importer.toml_string("\n\t\r\b\f") == '"\\n\\t\\r\\b\\f"'
    assert importer.toml_string("\x00\x1f\x7f") == '"\\u0000\\u001F\\u007F"'
    assert importer.toml_string("é ☃ 🚀") == '"é ☃ 🚀"'  # UTF-8 as it is
    with pytest.raises(ValueError, match="surrogate"):
        importer.toml_string("\ud800")


def test_values_toml_has_no_form_for_are_refused():
    for bad in ({"a": None}, {"a": [None]}, {"a": object()}, {1: "x"}, {"a": {2: {}}}):
        with pytest.raises(TypeError):
            importer.toml_dumps(bad)
    with pytest.raises(ValueError, match="64 bits"):
        importer.toml_dumps({"a": 2**63})


def test_the_document_layout():
    doc = importer.toml_dumps(
        {"top": 1, "a": {"b": {"c": {"x": True}}, "empty": {}}, "z": {"k": [1, "s", [2.5]]}}
    )
    assert doc == ('top = 1\n\n[a.b.c]\nx = true\n\n[a.empty]\n\n[z]\nk = [1, "s", [2.5]]\n')
    assert importer.toml_dumps({}) == ""


_keys = st.text(max_size=8)
_scalars = (
    st.text(max_size=12)  # any code point but surrogates: quotes, backslashes, newlines too
    | st.sampled_from(['"', "\\", "\n", "'''", '"""', "a.b", "#", "=", "[x]", "\x7f", "\u2028"])
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.booleans()
    | st.floats(allow_nan=False)
)
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_keys, inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=600, deadline=None)
@given(st.dictionaries(_keys, _values, max_size=6))
def test_the_writer_round_trips_through_tomllib(data):
    assert tomllib.loads(importer.toml_dumps(data)) == data


@settings(max_examples=200, deadline=None)
@given(st.floats())
def test_floats_round_trip(x):
    back = tomllib.loads(importer.toml_dumps({"x": x}))["x"]
    assert back == x or (math.isnan(x) and math.isnan(back))
