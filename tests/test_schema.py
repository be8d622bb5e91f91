"""`jobspec schema`: the exported JSON Schemas load in check-jsonschema with its
default options, accept every RFC example, reject broken jobspecs (the faults of
the RFC's own schemas corrected), and use patterns JavaScript reads the same way."""

import argparse
import io
import json
import shutil
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from helpers import RFC_DATA, rfc_files, run_cli

from jobspec_lsp.cli import schema as schema_cli
from jobspec_lsp.jobspec.schema_export import schema_text

KINDS = ("canonical", "v1")


@pytest.fixture(scope="module")
def schemas(tmp_path_factory):
    d = tmp_path_factory.mktemp("schemas")
    out = {}
    for kind in KINDS:
        proc = run_cli("schema", f"--{kind}")
        assert proc.returncode == 0, proc.stderr
        path = d / f"jobspec-{kind}.schema.json"
        path.write_bytes(proc.stdout)
        out[kind] = path
    return out


def check_jsonschema(*args):
    exe = Path(sys.executable).parent / "check-jsonschema"
    assert exe.exists(), (
        "check-jsonschema is missing: install the test extras (pip install '.[test]')"
    )
    return subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True, timeout=120)


def failing_files(schema, files) -> dict[str, list[str]]:
    """Validate ``files`` in one check-jsonschema run: {file name: [path: message, ...]}."""
    proc = check_jsonschema("--schemafile", schema, "--output-format", "json", *files)
    report = json.loads(proc.stdout)
    assert not report.get("parse_errors"), report.get("parse_errors")
    assert proc.returncode == (1 if report.get("errors") else 0), proc.stderr
    out: dict[str, list[str]] = {}
    for e in report.get("errors", []):
        out.setdefault(Path(e["filename"]).name, []).append(f"{e['path']}: {e['message']}")
    return out


def walk_patterns(x, found):
    if isinstance(x, dict):
        if isinstance(x.get("pattern"), str):
            found.append(x["pattern"])
        for v in x.values():
            walk_patterns(v, found)
    elif isinstance(x, list):
        for v in x:
            walk_patterns(v, found)
    return found


# ------------------------------------------------------------------ the command
def test_schema_cli_prints_the_packaged_schemas():
    parser = argparse.ArgumentParser(prog="jobspec")
    schema_cli.register(parser.add_subparsers(dest="command"))
    for argv, kind in (
        (["schema"], "canonical"),
        (["schema", "--canonical"], "canonical"),
        (["schema", "--v1"], "v1"),
    ):
        args = parser.parse_args(argv)
        buf = io.StringIO()
        with redirect_stdout(buf):
            assert args.func(args) == 0
        assert buf.getvalue() == schema_text(kind)
        assert json.loads(buf.getvalue())["$schema"] == "http://json-schema.org/draft-07/schema#"
    with pytest.raises(SystemExit):
        parser.parse_args(["schema", "--canonical", "--v1"])


def test_schema_cli_writes_a_file(tmp_path):
    parser = argparse.ArgumentParser(prog="jobspec")
    schema_cli.register(parser.add_subparsers(dest="command"))
    out = tmp_path / "jobspec-v1.schema.json"
    args = parser.parse_args(["schema", "--v1", "-o", str(out)])
    assert args.func(args) == 0
    assert out.read_text(encoding="utf-8") == schema_text("v1")
    args = parser.parse_args(["schema", "-o", str(tmp_path / "no" / "such" / "dir.json")])
    assert args.func(args) == 2


def test_installed_command_prints_the_same_schemas(schemas):
    for kind in KINDS:
        assert schemas[kind].read_text(encoding="utf-8") == schema_text(kind)


# ------------------------------------------------------------------ the schemas themselves
def test_schemas_are_valid_draft07(schemas):
    proc = check_jsonschema("--check-metaschema", *schemas.values())
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_no_external_refs(schemas):
    for path in schemas.values():
        text = path.read_text()
        assert "file:" not in text
        refs: list[str] = []

        def walk(x, refs=refs):
            if isinstance(x, dict):
                if "$ref" in x:
                    refs.append(x["$ref"])
                for v in x.values():
                    walk(v)
            elif isinstance(x, list):
                for v in x:
                    walk(v)

        walk(json.loads(text))
        assert refs and all(r.startswith("#/definitions/") for r in refs), refs
        # every definition is used, every reference defined
        defs = json.loads(text)["definitions"]
        assert {r.split("/")[-1] for r in refs} == set(defs), path.name


def test_shared_definitions_are_the_same_in_both(schemas):
    canonical, v1 = (json.loads(schemas[k].read_text())["definitions"] for k in KINDS)
    shared = ("environment", "dependency", "constraint", "file_entry", "system", "command")
    for name in shared:
        assert canonical[name] == v1[name], name


COUNT_STRINGS = [
    "4",
    "1-5",
    "[1-3]",
    "4,9,16",
    "1-3,5",
    "[2,4]",
    "2+",
    "[4+]",
    "1-8:2",
    "2-64:2:*",
    "2-64:2:^",
    "1+:3:+",
    "0",
    "0-3",
    "2-",
    "-2",
    "01",
    "1-08",
    "[1-3",
    "1-3]",
    "2-64:1:*",
    "1-64:2:^",
    "2-64:1:^",
    "1-5:0",
    "a",
    "",
    "1 ,2",
    "[]",
    "1-5:2:/",
    "3-30",
]


def test_patterns_mean_the_same_in_javascript_and_python(schemas):
    import re

    node = shutil.which("node")
    assert node, "node is missing"
    for path in schemas.values():
        patterns = walk_patterns(json.loads(path.read_text()), [])
        assert patterns
        for p in patterns:
            assert "[^][]" not in p  # the RFC's PCRE-only class
        script = (
            "const [ps, ss] = JSON.parse(process.argv[1]);"
            "console.log(JSON.stringify(ps.map((p) => { const r = new RegExp(p, 'u');"
            " return ss.map((s) => r.test(s)); })))"
        )
        proc = subprocess.run(
            [node, "-e", script, json.dumps([patterns, COUNT_STRINGS])],
            capture_output=True,
            text=True,
        )
        assert proc.returncode == 0, proc.stderr
        js = json.loads(proc.stdout)
        py = [[re.search(p, s) is not None for s in COUNT_STRINGS] for p in patterns]
        assert js == py


def test_count_string_pattern():
    import re

    pattern = json.loads(schema_text("canonical"))["definitions"]["count_string"]["pattern"]
    good = {
        "4",
        "1-5",
        "[1-3]",
        "4,9,16",
        "1-3,5",
        "[2,4]",
        "2+",
        "[4+]",
        "1-8:2",
        "2-64:2:*",
        "2-64:2:^",
        "1+:3:+",
        "3-30",
    }
    assert {s for s in COUNT_STRINGS if re.search(pattern, s)} == good


# ------------------------------------------------------------------ the RFC examples
def test_every_rfc14_example_validates_as_canonical(schemas):
    assert failing_files(schemas["canonical"], rfc_files("spec_14")) == {}


def test_every_rfc25_example_validates_as_v1(schemas):
    files = rfc_files("spec_25") + [RFC_DATA / "spec_14" / "example1.yaml"]
    assert failing_files(schemas["v1"], files) == {}


def test_examples_folder_validates(schemas):
    examples = Path(__file__).resolve().parents[1] / "examples"
    if not examples.is_dir():
        pytest.skip("no examples/ folder next to the tests")
    # the broken-on-purpose examples are named so; the others are valid either way
    good = [p for p in sorted(examples.glob("*.jobspec.*")) if "broken" not in p.name]
    assert good
    v1 = [p for p in good if p.name.startswith("v1")]
    assert failing_files(schemas["canonical"], good) == {}
    if v1:
        assert failing_files(schemas["v1"], v1) == {}


# ------------------------------------------------------------------ broken and edge documents
BASE = """version: 1
resources:
  - type: node
    count: 2
    with:
      - type: slot
        count: 1
        label: task
        with:
          - {type: core, count: 1}
tasks:
  - command: [app]
    slot: task
    count: {per_slot: 1}
attributes:
  system: {duration: 0}
"""
CORE = "{type: core, count: 1}"
SLOT_KEYS = "        count: 1\n        label: task"

# (name, [(old, new) replacements in BASE], how check-jsonschema's report of it starts: path: message)
CANONICAL_BAD = [
    (
        "count-zero",
        [("count: 2", "count: 0")],
        "$.resources[0].count: 0 is less than the minimum of 1",
    ),
    (
        "unknown-top-key",
        [("attributes:", "comment: x\nattributes:")],
        "$: Additional properties are not allowed ('comment'",
    ),
    ("two-task-counts", [("{per_slot: 1}", "{per_slot: 1, total: 2}")], "$.tasks[0].count: "),
    (
        "range-string-no-max",
        [("count: 2", 'count: "2-"')],
        "$.resources[0].count: '2-' does not match",
    ),
    (
        "idset-with-zero",
        [("count: 2", 'count: "0-3"')],
        "$.resources[0].count: '0-3' does not match",
    ),
    ("power-from-one", [("count: 2", 'count: "1-64:2:^"')], "$.resources[0].count: '1-64:2:^'"),
    (
        "operator-without-operand",
        [("count: 2", "count: {min: 1, operator: '+'}")],
        "$.resources[0].count: 'operand' is a dependency of 'operator'",
    ),
    (
        "times-operand-one",
        [("count: 2", "count: {min: 1, max: 8, operator: '*', operand: 1}")],
        "$.resources[0].count.operand: 1 is less than the minimum of 2",
    ),
    (
        "power-min-one",
        [("count: 2", "count: {min: 1, max: 8, operator: '^', operand: 2}")],
        "$.resources[0].count.min: 1 is less than the minimum of 2",
    ),
    (
        "range-dict-no-min",
        [("count: 2", "count: {max: 4}")],
        "$.resources[0].count: 'min' is a required",
    ),
    (
        "no-tasks",
        [("tasks:\n  - command: [app]\n    slot: task\n    count: {per_slot: 1}\n", "tasks: []\n")],
        "$.tasks: [] should be non-empty",
    ),
    (
        "slot-without-label",
        [("        label: task\n", "")],
        "$.resources[0].with[0]: 'label' is a required",
    ),
    (
        "slot-without-with",
        [
            (
                "        label: task\n        with:\n          - " + CORE + "\n",
                "        label: task\n",
            )
        ],
        "$.resources[0].with[0]: 'with' is a required",
    ),
    (
        "empty-with",
        [("        with:\n          - " + CORE, "        with: []")],
        "$.resources[0].with[0].with: []",
    ),
    (
        "string-dependency-without-scope",
        [("{duration: 0}", "{duration: 0, dependencies: [{scheme: string, value: x, type: in}]}")],
        "$.attributes.system.dependencies[0]: 'scope' is a required",
    ),
    ("relative-cwd", [("{duration: 0}", "{duration: 0, cwd: tmp}")], "$.attributes.system.cwd"),
    (
        "environment-number",
        [("{duration: 0}", "{duration: 0, environment: {A: 1}}")],
        "$.attributes.system.environment.A",
    ),
    ("command-string", [("command: [app]", "command: app")], "$.tasks[0].command"),
    ("negative-duration", [("{duration: 0}", "{duration: -1}")], "$.attributes.system.duration"),
]
CANONICAL_GOOD = [
    (
        "count-strings-both-idset-and-range",
        [("count: 2", 'count: "4"'), ("count: 1", 'count: "1-5"')],
    ),
    ("count-range-string", [("count: 2", 'count: "2-64:2:*"')]),
    ("range-dict-min-only", [("count: 2", "count: {min: 2}")]),
    ("range-dict-min-max", [("count: 2", "count: {min: 2, max: 8}")]),
    ("range-dict-open-with-operator", [("count: 2", "count: {min: 2, operator: '^', operand: 2}")]),
    (
        "afterok-dependency-without-type",
        [("{duration: 0}", '{duration: 0, dependencies: [{scheme: afterok, value: "1234"}]}')],
    ),
    ("exclusive-slot", [(SLOT_KEYS, SLOT_KEYS + "\n        exclusive: true")]),
    (
        "other-resource-types",
        [(CORE, "{type: socket, count: 2, with: [{type: memory, count: 4, unit: GB}]}")],
    ),
    ("per-resource", [("{per_slot: 1}", "{per_resource: {type: core, count: 1}}")]),
    ("no-system", [("attributes:\n  system: {duration: 0}", "attributes: {user: {a: 1}}")]),
    ("environment-unset", [("{duration: 0}", "{duration: 0, environment: {A: null, B: x}}")]),
]
V1_BAD = [
    (
        "no-duration",
        [("system: {duration: 0}", "system: {cwd: /tmp}")],
        "$.attributes.system: 'duration' is a required",
    ),
    ("no-system", [("system: {duration: 0}", "user: {}")], "$.attributes: 'system' is a required"),
    (
        "exclusive-slot",
        [(SLOT_KEYS, SLOT_KEYS + "\n        exclusive: true")],
        "$.resources[0].with[0]: Additional properties are not allowed ('exclusive'",
    ),
    ("gpu-without-core", [(CORE, "{type: gpu, count: 1}")], "$.resources[0].with[0].with: "),
    ("two-cores", [(CORE, CORE + "\n          - " + CORE)], "$.resources[0].with[0].with: "),
    ("string-count", [("count: 2", 'count: "2"')], "$.resources[0].count: '2' is not of type"),
    ("version-2", [("version: 1", "version: 2")], "$.version"),
    (
        "two-tasks",
        [
            (
                "attributes:",
                "  - command: [b]\n    slot: task\n    count: {per_slot: 1}\nattributes:",
            )
        ],
        "$.tasks: ",
    ),
    (
        "per-resource",
        [("{per_slot: 1}", "{per_resource: {type: core, count: 1}}")],
        "$.tasks[0].count: Additional properties",
    ),
    (
        "socket",
        [(CORE, "{type: socket, count: 1}")],
        "$.resources[0].with[0].with[0].type: 'socket' is not one of",
    ),
    (
        "node-without-slot",
        [("    with:\n      - type: slot", "    with:\n      - type: core")],
        "$.resources[0].with[0].type: 'slot' was expected",
    ),
]
V1_GOOD = [
    ("exclusive-node", [("    count: 2\n", "    count: 2\n    exclusive: true\n")]),
    ("core-and-gpu", [(CORE, CORE + "\n          - {type: gpu, count: 1}")]),
    ("gpu-and-core", [(CORE, "{type: gpu, count: 1}\n          - " + CORE)]),
    ("total", [("{per_slot: 1}", "{total: 5}")]),
    (
        "slot-at-the-top",
        [
            (
                "  - type: node\n    count: 2\n    with:\n      - type: slot\n        count: 1\n"
                "        label: task\n        with:\n          - " + CORE,
                "  - type: slot\n    count: 1\n    label: task\n    with:\n      - " + CORE,
            )
        ],
    ),
]


def edited(changes) -> str:
    text = BASE
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


@pytest.mark.parametrize(
    "kind,bad,good", [("canonical", CANONICAL_BAD, CANONICAL_GOOD), ("v1", V1_BAD, V1_GOOD)]
)
def test_broken_jobspecs_are_rejected_and_edge_cases_accepted(schemas, tmp_path, kind, bad, good):
    files = [tmp_path / "base.yaml"]
    files[0].write_text(BASE)
    for name, changes, *_ in bad + good:
        f = tmp_path / f"{name}.yaml"
        f.write_text(edited(changes))
        files.append(f)
    got = failing_files(schemas[kind], files)
    assert set(got) == {f"{name}.yaml" for name, *_ in bad}, json.dumps(got, indent=1)
    for name, _, where in bad:
        assert any(e.startswith(where) for e in got[f"{name}.yaml"]), (name, got[f"{name}.yaml"])


def test_a_jobspec_that_is_v1_is_canonical_too(schemas, tmp_path):
    files = []
    for name, changes in V1_GOOD:
        f = tmp_path / f"{name}.yaml"
        f.write_text(edited(changes))
        files.append(f)
    assert failing_files(schemas["canonical"], files) == {}


def test_json_jobspec(schemas, tmp_path):
    import yaml

    f = tmp_path / "job.jobspec.json"
    f.write_text(json.dumps(yaml.safe_load(BASE)))
    assert failing_files(schemas["v1"], [f]) == {}
    assert failing_files(schemas["canonical"], [f]) == {}


# ------------------------------------------------------------------ yaml-language-server
def test_modeline_route_in_yaml_language_server(tmp_path):
    """The route docs/editors.md gives: `jobspec schema --canonical > jobspec.schema.json` and a
    `# yaml-language-server: $schema=./jobspec.schema.json` modeline (yaml-language-server from
    npm, benchmarks/yamlls; tests/editors/test_yamlls_schema.py covers `yaml.schemas`)."""
    import asyncio

    from helpers import yamlls_diagnostics

    (tmp_path / "jobspec.schema.json").write_bytes(run_cli("schema", "--canonical").stdout)
    modeline = "# yaml-language-server: $schema=./jobspec.schema.json\n"
    good = modeline + BASE.replace("count: 2", 'count: "4"')
    bad = modeline + BASE.replace("count: 2", 'count: "0-3"').replace("[app]", "app")

    def diagnostics(name, text, expect_errors):
        path = tmp_path / name
        path.write_text(text)
        return asyncio.run(
            yamlls_diagnostics({"yaml": {"validate": True}}, path.as_uri(), text, expect_errors)
        )

    assert diagnostics("good.yaml", good, expect_errors=False) == []
    got = diagnostics("bad.yaml", bad, expect_errors=True)
    lines = {(d["range"]["start"]["line"], d["message"]) for d in got}
    count_line = bad[: bad.index('"0-3"')].count("\n")
    command_line = bad[: bad.index("command: app")].count("\n")
    assert (
        count_line,
        'not an RFC 22 idset ("1-4,8") or RFC 45 range ("2-8:2:*", "4+") of positive counts',
    ) in lines, lines
    assert any(line == command_line and "array" in msg.lower() for line, msg in lines), lines
