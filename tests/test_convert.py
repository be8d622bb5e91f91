"""Conversions: every output passes `jobspec check` with the matching rules (asserted)."""

import json

import pytest
import yaml

from helpers import REPO, corpus_files, run_cli

from jobspec_lsp import convert
from jobspec_lsp.analysis import check
from jobspec_lsp.diagnostics import Severity
from jobspec_lsp.document import parse, to_python

DATA = REPO / "tests" / "data" / "convert"


def clean(text, rules, language="yaml"):
    errors = [d for d in check(text, language=language, version_rules=rules)
              if d.severity == Severity.ERROR]
    assert errors == [], errors
    return to_python(parse(text, language).root)


# expected blockers of every RFC 14 example (V1 cannot say these)
RFC14_TO_V1 = {
    "example1.yaml": [], "use_case_2.3.yaml": [],
    "example2.yaml": ["JS703"], "use_case_1.1.yaml": ["JS703"], "use_case_1.2.yaml": ["JS701", "JS703"],
    "use_case_1.3.yaml": ["JS701", "JS701", "JS702", "JS703"], "use_case_1.4.yaml": ["JS702", "JS703"],
    "use_case_1.5.yaml": ["JS702", "JS702", "JS702", "JS702", "JS703", "JS704", "JS706"],
    "use_case_1.6.yaml": ["JS701", "JS702", "JS703", "JS705"],
    "use_case_1.7.yaml": ["JS701", "JS702", "JS703", "JS705"],
    "use_case_1.8.yaml": ["JS701", "JS703"], "use_case_2.1.yaml": ["JS703"],
    "use_case_2.2.yaml": ["JS703"], "use_case_2.4.yaml": ["JS702", "JS702", "JS703", "JS704"],
    "use_case_2.5.yaml": ["JS701", "JS702", "JS703"], "use_case_2.6.yaml": ["JS701", "JS702", "JS703"],
    "use_case_2.7.yaml": ["JS703", "JS704"], "use_case_2.8.yaml": ["JS703"],
    "use_case_2.9.yaml": ["JS703"],
}


@pytest.mark.parametrize("path", corpus_files("spec_14"), ids=lambda p: p.name)
def test_rfc14_example_to_v1(path):
    text = path.read_text()
    conv = convert.to_v1(text)
    assert sorted(b.code for b in conv.blockers) == RFC14_TO_V1[path.name]
    for b in conv.blockers:
        assert b.end > b.start and "\n" not in b.message
    if conv.ok:
        after = clean(conv.text, "v1")
        before = to_python(parse(text).root)
        assert after["resources"] == before["resources"] and after["tasks"] == before["tasks"]
        assert after["version"] == 1


@pytest.mark.parametrize("path", corpus_files("spec_25"), ids=lambda p: p.name)
def test_v1_canonical_v1_round_trip(path):
    text = path.read_text()
    canon = convert.to_canonical(text)
    assert canon.ok and [c.message.split(" (")[0] for c in canon.changes] == ["version 1 -> 999"]
    assert clean(canon.text, "canonical")["version"] == 999
    back = convert.to_v1(canon.text)
    assert back.ok and back.text == text


def test_to_v1_fixes_what_it_can_and_keeps_comments():
    text = """# keep me
version: 999  # canonical
resources:
  - type: node
    count: "2"   # a string
    with:
      - type: slot
        count: {min: 4, max: 4, operator: "+", operand: 1}
        label: task
        exclusive: true
        with:
          - type: core
            count: 1
tasks:
  - command: [app]
    slot: task
    count: {per_slot: 1}
attributes:
  user: {note: x}
"""
    conv = convert.to_v1(text)
    assert conv.ok, conv.blockers
    out = conv.text
    clean(out, "v1")
    assert "# keep me" in out and "# canonical" in out and "# a string" in out
    assert "count: 2   # a string" in out and "exclusive" not in out
    assert "  system:\n    duration: 0\n  user: {note: x}" in out
    messages = " / ".join(c.message for c in conv.changes)
    assert "version 999 -> 1" in messages and "integer 2" in messages and "integer 4" in messages
    assert "duration: 0" in messages and "exclusive" in messages


def test_invalid_input_is_refused_with_its_errors():
    conv = convert.to_v1("version: 999\nresources: []\ntasks: []\nattributes: {}\n")
    assert not conv.ok and {b.code for b in conv.blockers} == {"JS708"}


# ---------------------------------------------------------------- PSI/J
def test_psij_full_fixture():
    conv = convert.from_psij_text((DATA / "full.psij.json").read_text())
    assert conv.ok and conv.warnings == []
    js = clean(conv.text, "v1")
    assert js["resources"] == [{"type": "node", "count": 2, "exclusive": True, "with": [
        {"type": "slot", "count": 4, "label": "task",
         "with": [{"type": "core", "count": 4}, {"type": "gpu", "count": 1}]}]}]
    assert js["tasks"] == [{"command": ["/usr/bin/simulate", "--steps", "100"], "slot": "task",
                            "count": {"per_slot": 1}}]
    system = js["attributes"]["system"]
    assert system["duration"] == 3600 and system["cwd"] == "/scratch/run1"
    assert system["environment"] == {"OMP_NUM_THREADS": "4"}
    assert system["job"] == {"name": "sim-100"} and system["queue"] == "pbatch"
    assert system["bank"] == "physics"
    assert system["shell"]["options"] == {
        "input": {"stdin": {"type": "file", "path": "/scratch/in.txt"}},
        "output": {"stdout": {"type": "file", "path": "/scratch/out.log"},
                   "stderr": {"type": "file", "path": "/scratch/err.log"}}}
    back = json.loads(convert.to_psij(conv.text).text)
    original = json.loads((DATA / "full.psij.json").read_text())
    for k in ("executable", "arguments", "directory", "name", "environment", "stdin_path",
              "stdout_path", "stderr_path"):
        assert back[k] == original[k]
    assert back["resources"]["process_count"] == 8 and back["resources"]["node_count"] == 2
    assert back["attributes"] == original["attributes"]


def test_psij_lossy_fields_are_warned_not_dropped_silently():
    text = (DATA / "lossy.psij.json").read_text()
    conv = convert.from_psij_text(text)
    assert conv.ok
    lost = sorted(text[w.start:w.end] for w in conv.warnings)
    assert lost == ['"custom_attributes"', '"inherit_environment"', '"memory"', '"reservation_id"']
    js = clean(conv.text, "v1")
    assert js["resources"][0] == {"type": "slot", "count": 8, "label": "task",
                                  "with": [{"type": "core", "count": 1}]}
    assert js["attributes"]["system"]["duration"] == 600      # PSI/J's default: 10 minutes
    assert js["attributes"]["system"]["bank"] == "old-acct"    # deprecated project_name


def test_psij_defaults_where_psij_python_fails():
    # psij-python's Flux executor fails without process_count or cpu_cores_per_process
    conv = convert.from_psij_text((DATA / "minimal.psij.yaml").read_text(), "yaml")
    js = clean(conv.text, "v1")
    assert js["resources"] == [{"type": "slot", "count": 1, "label": "task",
                                "with": [{"type": "core", "count": 1}]}]
    assert js["tasks"][0]["command"] == ["hostname"]


@pytest.mark.parametrize("resources,expected", [
    ({"node_count": 3}, ("node", 3, 1, {"per_slot": 1})),
    ({"node_count": 2, "process_count": 6}, ("node", 2, 3, {"per_slot": 1})),
    ({"processes_per_node": 2, "process_count": 6}, ("node", 3, 2, {"per_slot": 1})),
    ({"process_count": 5}, ("slot", 5, None, {"per_slot": 1})),
])
def test_psij_resource_inference(resources, expected):
    conv = convert.from_psij({"executable": "a", "resources": resources})
    js = clean(conv.text, "v1")
    top = js["resources"][0]
    kind, n, slots, count = expected
    assert (top["type"], top["count"]) == (kind, n)
    if slots is not None:
        assert top["with"][0]["count"] == slots
    assert js["tasks"][0]["count"] == count


@pytest.mark.parametrize("data,code", [
    ({"executable": "a", "resources": {"node_count": 2, "processes_per_node": 2, "process_count": 5}}, "JS712"),
    ({"executable": "a", "resources": {"processes_per_node": 2, "process_count": 5}}, "JS712"),
    ({"executable": "a", "resources": {"node_count": 2, "process_count": 5}}, "JS712"),
    ({"arguments": ["x"]}, "JS713"),
    ({"executable": "a", "resources": {"node_count": 0}}, "JS713"),
    ({"executable": "a", "attributes": {"duration": "an hour"}}, "JS713"),
])
def test_psij_errors(data, code):
    conv = convert.from_psij(data)
    assert not conv.ok and code in [b.code for b in conv.blockers]


# ---------------------------------------------------------------- the command line
@pytest.mark.parametrize("argv,top", [
    (["--", "app"], {"type": "slot", "count": 1, "label": "task", "with": [{"type": "core", "count": 1}]}),
    (["-n4", "-c2", "--", "app"], {"type": "slot", "count": 4, "label": "task",
                                   "with": [{"type": "core", "count": 2}]}),
    (["-N2", "--", "app"], {"type": "node", "count": 2, "with": [
        {"type": "slot", "count": 1, "label": "task", "with": [{"type": "core", "count": 1}]}]}),
    (["-N2", "-n8", "-g1", "-x", "--", "app"], {"type": "node", "count": 2, "exclusive": True, "with": [
        {"type": "slot", "count": 4, "label": "task",
         "with": [{"type": "core", "count": 1}, {"type": "gpu", "count": 1}]}]}),
])
def test_new_builds_what_flux_submit_builds(argv, top):
    js = clean(convert.from_command_line(argv).text, "v1")
    assert js["resources"] == [top]
    assert js["tasks"][0]["count"] == {"per_slot": 1}
    assert js["attributes"]["system"]["duration"] == 0


def test_new_uneven_tasks_use_total():
    js = clean(convert.from_command_line(["-N2", "-n5", "--", "app"]).text, "v1")
    assert js["resources"][0]["with"][0]["count"] == 3
    assert js["tasks"][0]["count"] == {"total": 5}


@pytest.mark.parametrize("flag,seconds", [("90", 5400), ("1h", 3600), ("30s", 30), ("1.5m", 90)])
def test_new_durations_like_flux(flag, seconds):
    js = clean(convert.from_command_line(["-t", flag, "--", "app"]).text, "v1")
    assert js["attributes"]["system"]["duration"] == seconds


def test_new_every_option():
    conv = convert.from_command_line([
        "-N1", "-q", "pdebug", "-B", "acct", "--cwd", "/w", "--env", "A=1", "--env", "B=x=y",
        "--job-name", "demo", "--output", "o.log", "--error", "e.log", "--input", "in.txt",
        "--setattr", "user.tag=\"blue\"", "--setattr", "system.foo=3",
        "--dependency", "afterok:ƒ123", "--dependency", "string:x?type=in&scope=user",
        "--requires", "ssd -slow host:n[1-4]|rank:0-1", "--", "app", "arg"])
    js = clean(conv.text, "v1")
    system = js["attributes"]["system"]
    assert system["queue"] == "pdebug" and system["bank"] == "acct" and system["cwd"] == "/w"
    assert system["environment"] == {"A": "1", "B": "x=y"}
    assert system["job"] == {"name": "demo"}
    assert system["shell"]["options"]["output"]["stderr"] == {"type": "file", "path": "e.log"}
    assert system["shell"]["options"]["input"]["stdin"] == {"type": "file", "path": "in.txt"}
    assert system["foo"] == 3 and js["attributes"]["user"] == {"tag": "blue"}
    assert system["dependencies"] == [{"scheme": "afterok", "value": "ƒ123"},
                                      {"scheme": "string", "value": "x", "type": "in",
                                       "scope": "user"}]
    assert system["constraints"] == {"and": [
        {"properties": ["ssd"]}, {"properties": ["^slow"]},
        {"or": [{"hostlist": ["n[1-4]"]}, {"ranks": ["0-1"]}]}]}


def test_new_with_a_shape():
    js = clean(convert.from_command_line(["--shape", "node=2/slot=2/core=4", "--", "a"]).text,
               "canonical")
    assert js["resources"][0]["with"][0]["label"] == "task"


@pytest.mark.parametrize("argv", [[], ["-x", "--", "a"], ["-N3", "-n2", "--", "a"],
                                  ["-t", "soon", "--", "a"], ["--env", "NOEQUALS", "--", "a"],
                                  ["-n0", "--", "a"]])
def test_new_usage_errors(argv):
    with pytest.raises(convert.UsageError):
        convert.from_command_line(argv)


# ---------------------------------------------------------------- the CLI
def test_cli_convert_and_new(tmp_path):
    blocked = corpus_files("spec_14")[3]  # use_case_1.2
    proc = run_cli("convert", "--to", "v1", blocked)
    assert proc.returncode == 1 and "error[JS701]" in proc.stdout.decode()
    ok = [p for p in corpus_files("spec_14") if p.name == "use_case_2.3.yaml"][0]
    proc = run_cli("convert", "--to", "v1", ok)
    assert proc.returncode == 0 and "changed: version 999 -> 1" in proc.stderr.decode()
    clean(proc.stdout.decode(), "v1")
    proc = run_cli("convert", "--from", "psij", DATA / "full.psij.json", "--format", "json")
    assert proc.returncode == 0
    clean(proc.stdout.decode(), "v1", "json")
    proc = run_cli("new", "-N2", "-n4", "--", "app", "--flag")
    assert proc.returncode == 0 and yaml.safe_load(proc.stdout)["tasks"][0]["command"] == ["app", "--flag"]
    out = tmp_path / "j.json"
    proc = run_cli("new", "--format", "json", "-n2", "--", "app")
    out.write_bytes(proc.stdout)
    assert run_cli("check", out).returncode == 0
    assert run_cli("new", "-x", "--", "a").returncode == 2
    assert run_cli("convert", "--to", "v1", tmp_path / "missing.yaml").returncode == 2
