"""Site profiles (issue 25, first part): a conf.d directory read as Flux reads it, its R as
node classes, `jobspec site show`, and a broken profile as a message naming file and line.
The real-Flux tier holds the reading to `flux config get` and `flux R decode`."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import run_cli

from jobspec_lsp.site import hostlists, profile

SITES = Path(__file__).parent / "data" / "sites"


def test_node_classes_are_ranks_alike_held_as_idsets():
    site = profile.load(SITES / "hetero")
    got = [(c.ranks, c.count, c.cores, c.gpus, c.properties, c.hosts) for c in site.classes]
    assert got == [
        ("0-3", 4, 32, 0, ("debug",), "node[0-3]"),
        ("4-11", 8, 32, 0, ("batch",), "node[4-11]"),
        ("12-15", 4, 64, 4, ("a100", "gpu"), "gpu[0-3]"),
    ]
    assert site.nodes == 16 and site.properties() == {"debug", "batch", "gpu", "a100"}


def test_queues_limits_and_defaults():
    site = profile.load(SITES / "cpu")
    assert site.default_queue == "pbatch" and site.default_duration == 3600
    assert site.queues["pdebug"].limits.duration == 1800
    assert site.queues["pdebug"].limits.max == {"nnodes": 2}
    assert site.limits.max == {"nnodes": 8}
    gpu = profile.load(SITES / "gpu").queues["gpu"]
    assert gpu.requires == ("ib",) and gpu.limits.max == {"ngpus": 16}


def test_the_default_duration_trap_is_said():
    (trap,) = profile.traps(profile.load(SITES / "trap"))
    assert "queue debug without -t is refused" in trap and "2h" in trap and "1h" in trap
    assert profile.traps(profile.load(SITES / "cpu")) == []


def test_files_merge_as_flux_merges_them(tmp_path):
    (tmp_path / "a.toml").write_text("[policy.limits]\nduration = '1h'\n[queues.q]\n")
    (tmp_path / "b.toml").write_text("[policy.limits]\nduration = '2h'\n[queues]\nq = {}\n")
    site = profile.load(tmp_path)
    assert site.config == {"policy": {"limits": {"duration": "2h"}}, "queues": {"q": {}}}
    assert site.limits.duration == 7200


def test_a_relative_r_path_is_the_profile_s_own(tmp_path):
    copy = tmp_path / "copied"
    copy.mkdir()
    for f in (SITES / "cpu").iterdir():
        (copy / f.name).write_bytes(f.read_bytes())
    assert profile.load(copy).r_path == str(copy / "R.json")
    assert profile.load(copy).nodes == 8


@pytest.mark.parametrize(
    "files,message,line",
    [
        ({"a.toml": "[queues.q]\nrequire = ['x']\n"}, "[queues.q] has no key 'require'", 2),
        ({"a.toml": "[policy.limits]\nduration = '1x'\n"}, "not a Flux Standard Duration", 2),
        ({"a.toml": "[policy.limits.job-size.max]\nnnodes = -2\n"}, "an integer >= -1", 2),
        (
            {"a.toml": "[queues.q.policy.jobspec.defaults.system]\nqueue = 'q'\n"},
            "must not set a default queue",
            2,
        ),
        (
            {"a.toml": "[policy.jobspec.defaults.system]\nqueue = 'nosuch'\n"},
            "the default queue 'nosuch' is not in [queues]",
            2,
        ),
        ({"a.toml": "[queues.q]\nrequires = ['a b']\n"}, "array of property names", 2),
        ({"a.toml": "[queues\n"}, "TOML:", 1),
        ({"a.toml": "[queues]\nq = 1\nq = 2\n"}, "TOML:", 3),
        ({"a.toml": "[resource]\npath = 'missing.json'\n"}, "cannot read the R file", None),
        ({"a.toml": "[resource]\npath = 'R.json'\n", "R.json": "{}"}, "not an RFC 20 R", None),
        ({"a.toml": "[queues.v]\nparent = 'nosuch'\n"}, "parent = 'nosuch' is not a", 2),
        (
            {"a.toml": "[queues.a]\nparent = 'b'\n[queues.b]\nparent = 'a'\n"},
            "a cycle of parents",
            2,
        ),
        ({}, "no *.toml files", None),
    ],
)
def test_a_broken_profile_names_the_file_and_line(tmp_path, files, message, line):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    with pytest.raises(profile.ProfileError) as err:
        profile.load(tmp_path)
    assert message in err.value.message
    assert err.value.line == line


def test_tables_flux_does_not_read_here_are_taken_as_flux_takes_them(tmp_path):
    """Flux starts with any top-level table (accounting, systemd, a site's own)."""
    (tmp_path / "a.toml").write_text("[accounting]\nx = 1\n[systemd]\nenable = true\n")
    assert profile.load(tmp_path).queues == {}


def test_hosts_pair_with_the_ranks_r_has_in_order(tmp_path):
    """RFC 20's nodelist names the ranks R holds, in order: an R of ranks 12-15 (one
    queue's, or `flux R encode -r 12-15`) names them gpu[0-3]; R_lite entries in any
    order."""
    lite = [
        {"rank": "12-15", "children": {"core": "0-3", "gpu": "0"}},
        {"rank": "4-5", "children": {"core": "0-7"}},
    ]
    r = {"version": 1, "execution": {"R_lite": lite, "nodelist": ["n[4-5],gpu[0-3]"]}}
    site = profile.from_config({}, r=r)
    assert [(c.ranks, c.hosts) for c in site.classes] == [("4-5", "n[4-5]"), ("12-15", "gpu[0-3]")]
    assert site.rank_of_host()["gpu0"] == 12 and site.rank_of_host()["n5"] == 5


def test_site_show_on_the_command_line(tmp_path):
    shown = run_cli("site", "show", SITES / "hetero")
    assert shown.returncode == 0, shown.stderr
    out = shown.stdout.decode()
    assert "16 nodes in 3 node type(s)" in out
    assert "gpu[0-3]: 4 x 64 cores, 4 gpus (a100, gpu)" in out
    assert "queue debug: requires debug; 4 nodes; duration 1h, size nnodes ≤ 2" in out
    assert "no default queue" in out
    (tmp_path / "a.toml").write_text("[queues.q]\nrequire = ['x']\n")
    bad = run_cli("site", "show", tmp_path)
    assert bad.returncode == 2  # a configuration error, as `check --site` says it
    assert bad.stderr.decode().startswith(f"jobspec site show: error: {tmp_path / 'a.toml'}:2: ")


@pytest.mark.parametrize(
    "hostlist",
    ["node[0-11],gpu[0-3]", "big[01-16]x", "login", "a[1,3,5-7]", "n[08-11],n[7-9]"],
)
def test_hostlists_expand_and_compress_back(hostlist):
    names = hostlists.expand(hostlist)
    assert hostlists.expand(hostlists.compress(names)) == names


def test_a_problem_in_a_later_file_is_named_there(tmp_path):
    (tmp_path / "a.toml").write_text("[queues.q]\npolicy.limits.duration = '1h'\n")
    (tmp_path / "b.toml").write_text("# more\n[queues.r]\nrequire = ['x']\n")
    with pytest.raises(profile.ProfileError) as err:
        profile.load(tmp_path)
    assert err.value.path.endswith("b.toml") and err.value.line == 3
