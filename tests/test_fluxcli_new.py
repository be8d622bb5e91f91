"""`jobspec new` against `flux submit --dry-run`, class by class, in process: the values
Flux takes that this tool once refused (per-task input aside, which flux submit refuses
and flux run takes), each read as flux-core reads it. The real-Flux tier generates
command lines of every class (tests/flux/test_flux_new_campaign.py)."""

from __future__ import annotations

import json

import pytest
import yaml
from helpers import run_cli

from jobspec_lsp import convert
from jobspec_lsp.fluxcli import attrs, environ, submit, values
from jobspec_lsp.fluxcli.values import Refused, flux_idset
from jobspec_lsp.script import batch

ENV = {"HOME": "/home/u", "FOO": "foo", "FOOBAR": "fb", "LANG": "C"}


def new(*words: str) -> dict:
    conv = convert.from_command_line([*words, "--", "app"])
    assert conv.ok, [d.message for d in conv.blockers]
    return json.loads(json.dumps(yaml.safe_load(conv.text)))


def system(*words: str) -> dict:
    return new(*words)["attributes"]["system"]


# ---------------------------------------------------------------- per-task input
@pytest.mark.parametrize("value", ["0", "0-1", "[0]", "1,,2", "[]", ",", "4294967296"])
def test_task_ranks_for_input_are_refused_as_flux_submit_refuses_them(value):
    with pytest.raises(convert.UsageError, match="per-task input not supported for submit"):
        convert.from_command_line(["--input", value, "--", "app"])


@pytest.mark.parametrize("value", ["00", "1-0", "0,0", " 0", "4294967295", "in.txt", "[0"])
def test_input_that_is_no_idset_to_flux_is_a_file(value):
    stdin = system("--input", value)["shell"]["options"]["input"]["stdin"]
    assert stdin == {"type": "file", "path": value}


def test_empty_input_is_none():
    assert "shell" not in system("--input=")


@pytest.mark.parametrize(
    "text,runs",
    [
        ("", []), ("0", [(0, 0)]), ("[0-2,5]", [(0, 2), (5, 5)]), ("1,,2", [(1, 2)]),
        ("[]", []), (",", []), ("4294967296", [(0, 0)]), ("1-4294967296", [(0, 1)]),
        ("1-3,4", [(1, 4)]), ("0-0", None), ("1-0", None), ("3,1", None), ("0,0", None),
        ("00", None), (" 0", None), ("+1", None), ("[0", None), ("0]", None),
        ("4294967295", None), ("2147483648", None), ("18446744073709551616", None),
    ],
)  # fmt: skip
def test_idsets_read_as_flux_cores_decoder_reads_them(text, runs):
    assert flux_idset(text) == runs


def test_batch_reads_task_ranks_as_a_file_name(tmp_path):
    js = batch.jobspec("#!/bin/sh\n#flux: -n1 --input=0\ntrue\n", "s.sh", str(tmp_path))
    assert js["attributes"]["system"]["shell"]["options"]["input"]["stdin"]["path"] == "0"


# ---------------------------------------------------------------- environment rules
def test_env_rules_apply_in_order_to_an_empty_environment():
    got = environ.apply(
        ["A=1", "B=$A-${FOO}", "-A", "FOO*", "C=$$", "X={{rank}}", "-/^FOOB/"], source=ENV
    )
    assert got.environment == {"B": "1-foo", "FOO": "foo", "C": "$"}
    assert got.expand == {"X": "{{rank}}"}
    said = " ".join(got.notes)
    assert "$FOO taken from your environment" in said and "FOO, FOOBAR copied" in said


@pytest.mark.parametrize("rule", ["-*", "-FOO", "-/^F/", "-"])
def test_a_removal_changes_nothing_here_and_says_so(rule):
    got = environ.apply([rule], source=ENV)
    assert got.environment == {} and "removes nothing here" in got.notes[0]


@pytest.mark.parametrize(
    "rule,words",
    [
        ("Z=$1", "cannot substitute"),
        ("Z=a$", "cannot substitute"),
        ("Z=$NOPE", "variable not found"),
        ("-/(/", "not a regular expression"),
        ("/(/", "not a regular expression"),
        ("^missing.env", "No such file"),
    ],
)
def test_env_rules_flux_refuses(rule, words, tmp_path):
    with pytest.raises(Refused, match=words):
        environ.apply([rule], source=ENV, cwd=str(tmp_path))


def test_rule_files_are_read_in_order_and_left_out_when_asked(tmp_path):
    (tmp_path / "r.env").write_text("A=1\n  -FOO  \nB={{id}}\n\n")
    got = environ.apply(["FOO", "^r.env"], source=ENV, cwd=str(tmp_path))
    assert got.environment == {"A": "1"} and got.expand == {"B": "{{id}}"}
    assert environ.apply(["^r.env"], source=ENV, read_files=None).environment == {}
    with pytest.raises(Refused) as err:
        environ.apply(["^r.env"], source=ENV, read_files=False)
    assert err.value.ours
    (tmp_path / "loop.env").write_text("^loop.env\n")
    with pytest.raises(Refused, match="without end"):
        environ.apply(["^loop.env"], source=ENV, cwd=str(tmp_path))


def test_new_writes_the_rules_environment_and_the_shells_templates(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "r.env").write_text("R=1\n")
    for k, v in ENV.items():
        monkeypatch.setenv(k, v)
    s = system(
        "--env=-*", "--env=A=$HOME", "--env-file=r.env", "--env-remove=A", "--env=X={{rank}}"
    )
    assert s["environment"] == {"R": "1"}
    assert s["shell"]["options"]["env-expand"] == {"X": "{{rank}}"}
    # -o may change a template afterwards, as Flux applies --setopt after the environment
    s = system("--env=X={{rank}}", "-o", "env-expand.X=2")
    assert s["shell"]["options"]["env-expand"] == {"X": 2}


def test_the_copy_id_is_set_after_every_rule():
    s = system("--cc=3", "--env=-*", "--env=FLUX_JOB_CC=9")
    assert s["environment"] == {"FLUX_JOB_CC": "3"}


def test_batch_writes_the_shells_templates(tmp_path):
    js = batch.jobspec("#!/bin/sh\n#flux: -n1 --env=X={{rank}}\ntrue\n", "s.sh", str(tmp_path))
    assert js["attributes"]["system"]["shell"]["options"]["env-expand"] == {"X": "{{rank}}"}


# ---------------------------------------------------------------- attribute and option keys
@pytest.mark.parametrize(
    "item,path,value",
    [
        ("user.=1", ["user", ""], 1),
        ("=1", ["system", ""], 1),
        ("", ["system", ""], 1),
        ("a..b=x", ["system", "a", "", "b"], "x"),
        (".=2", [""], 2),
        ("attributes.=3", [""], 3),
        ("..x=1", ["", "x"], 1),
        (".user.q=[1]", ["user", "q"], [1]),
        ("system.k", ["system", "k"], 1),
    ],
)
def test_setattr_keys_any_dotted_text_as_flux_sets_them(item, path, value):
    js: dict = {"attributes": {"system": {}}}
    attrs.setattr_item(js, item, ".", True)
    node = js["attributes"]
    for part in path:
        node = node[part]
    assert node == value
    assert values.value_problem(submit.command().by_long["setattr"], item) is None


@pytest.mark.parametrize("item,path", [("a..b=1", ["a", "", "b"]), ("=1", [""]), (".x", ["", "x"])])
def test_setopt_keys_any_dotted_text(item, path):
    options: dict = {}
    attrs.setopt_item(options, item, ".", True)
    for part in path:
        options = options[part]
    assert options == 1


def test_values_from_json_files(tmp_path):
    (tmp_path / "v.json").write_text('{"a": [1, 2]}')
    (tmp_path / "bad.json").write_text("{not")
    js: dict = {"attributes": {"system": {}}}
    attrs.setattr_item(js, "^^user.v=v.json", str(tmp_path), True)
    assert js["attributes"]["user"]["v"] == {"a": [1, 2]}
    options: dict = {}
    attrs.setopt_item(options, "^k=v.json", str(tmp_path), True)
    assert options == {"k": {"a": [1, 2]}}
    attrs.setopt_item(options, "^k2=v.json", str(tmp_path), None)  # left out
    assert "k2" not in options
    for item, words in (("^k=bad.json", "not JSON"), ("^k=none.json", "No such file"),
                        ("^k", "^KEY=FILE")):  # fmt: skip
        with pytest.raises(Refused, match=words.replace("^", r"\^")):
            attrs.setopt_item({}, item, str(tmp_path), True)


def test_a_key_through_a_value_that_is_no_mapping_is_refused():
    with pytest.raises(convert.UsageError, match="not a mapping"):
        convert.from_command_line(["-S", "user.k=1", "-S", "user.k.j=2", "--", "a"])


# ---------------------------------------------------------------- empty values
def test_empty_values_flux_takes_as_not_given():
    js = new("--cc=", "--bcc=", "-n", "", "-c", "", "--signal=", "--resources-shape=")
    assert js == new()
    assert new("-g", "", "--cores=2") == new("--cores=2")


@pytest.mark.parametrize(
    "words,why",
    [
        (["-g", ""], "invalid int"),
        (["-N", ""], "invalid int"),
        (["-n", "0", "--cores=2"], "do not go with -n"),
        (["--rlimit="], "no resource limit matches"),
        (["--cc=[]"], "the idset is empty"),
        (["--cc=00"], "not an idset"),
    ],
)
def test_empty_or_zero_values_flux_refuses(words, why):
    with pytest.raises(convert.UsageError, match=why):
        convert.from_command_line([*words, "--", "a"])


def test_node_count_beside_whole_resources_is_never_read():
    shape = ["--resources-shape=slot/core"]
    for n in ("0", "x", ""):
        assert new("-N", n, *shape)["resources"] == new(*shape)["resources"]


# ---------------------------------------------------------------- resources given whole
def test_resources_json_as_flux_shape_plugin_reads_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    vertex = {"type": "slot", "count": 2, "label": "task", "with": [{"type": "core", "count": 1}]}
    (tmp_path / "r.json").write_text(json.dumps({"resources": [vertex]}))
    (tmp_path / "l.json").write_text(json.dumps([vertex]))
    (tmp_path / "n.json").write_text('{"x": 1}')
    assert new("--resources-json=r.json")["resources"] == [vertex]
    assert new("--resources-json=l.json", "-N3", "-n5")["resources"] == [vertex]
    with pytest.raises(convert.UsageError, match="without 'resources'"):
        convert.from_command_line(["--resources-json=n.json", "--", "a"])
    assert new("--resources-json=") == new()


def test_shapes_as_flux_reads_them():
    js = new("--resources-shape=slot=2{x}/[core=2;gpu]")
    assert js["resources"][0]["label"] == "exclusive"
    conv = convert.from_command_line(["--resources-shape=slot=2+/core", "--", "a"])
    assert not conv.ok and "not a string" in conv.blockers[0].message  # ingest refuses it


def test_the_batch_builder_reads_shapes_and_files_as_flux_does(tmp_path):
    script = "#!/bin/sh\n#flux: --resources-shape='slot=2{x}/core' --resources-json=\ntrue\n"
    js = batch.jobspec(script, "s.sh", str(tmp_path))
    assert js["resources"][0]["label"] == "exclusive"
    (tmp_path / "n.json").write_text('{"x": 1}')
    with pytest.raises(batch.BatchError, match="without 'resources'"):
        batch.jobspec("#!/bin/sh\n#flux: --resources-json=n.json\n", "s.sh", str(tmp_path))


# ---------------------------------------------------------------- new's own options
@pytest.mark.parametrize(
    "words,first",
    [
        (["--format", "json", "--from-batch", "S"], ["--from-batch", "S"]),
        (["-N2", "--from-batch=S", "--format", "json"], ["--from-batch=S"]),
        (["--site", "d", "--from-batch", "S"], ["--from-batch", "S"]),
        (["-n2", "-h"], ["-h"]),
        (["--format", "json", "--help"], ["--help"]),
    ],
)
def test_own_options_come_first_wherever_they_stand(words, first):
    got = submit.own_options_first(words)
    assert got[: len(first)] == first and sorted(got) == sorted(words)


@pytest.mark.parametrize(
    "words",
    [
        ["-n2", "app", "--from-batch", "S"],
        ["--", "--from-batch", "S"],
        ["-n2", "app", "-h"],
        ["-xh"],
    ],  # fmt: skip
)
def test_a_commands_own_words_are_never_moved(words):
    assert submit.own_options_first(words) == words


def test_cli_from_batch_after_format(tmp_path):
    (tmp_path / "s.sh").write_text("#!/bin/sh\n#flux: -n2\ntrue\n")
    proc = run_cli("new", "--format", "json", "--from-batch", "s.sh", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["resources"][0]["count"] == 2
    proc = run_cli("new", "-n2", "-h", cwd=tmp_path)
    assert proc.returncode == 0 and b"usage: jobspec new" in proc.stdout
