"""The exported JSON Schemas load in check-jsonschema with default options, accept
every RFC example, reject broken jobspecs, and use patterns JavaScript accepts."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import CORPUS, corpus_files, run_cli


@pytest.fixture(scope="module")
def schemas(tmp_path_factory):
    d = tmp_path_factory.mktemp("schemas")
    out = {}
    for kind in ("canonical", "v1"):
        proc = run_cli("schema", f"--{kind}")
        assert proc.returncode == 0
        json.loads(proc.stdout)
        path = d / f"{kind}.json"
        path.write_bytes(proc.stdout)
        out[kind] = path
    return out


def check_jsonschema(schema, *files):
    exe = Path(sys.executable).parent / "check-jsonschema"
    assert exe.exists(), "check-jsonschema is missing: install the test extras"
    return subprocess.run([str(exe), "--schemafile", str(schema), *map(str, files)],
                          capture_output=True, text=True)


def test_every_rfc14_example_validates_as_canonical(schemas):
    proc = check_jsonschema(schemas["canonical"], *corpus_files("spec_14"))
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_every_rfc25_example_validates_as_v1(schemas):
    files = corpus_files("spec_25") + [CORPUS / "spec_14" / "example1.yaml"]
    proc = check_jsonschema(schemas["v1"], *files)
    assert proc.returncode == 0, proc.stdout + proc.stderr


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


@pytest.mark.parametrize("kind,change", [
    ("canonical", ("count: 2", "count: 0")),
    ("canonical", ("attributes:", "comment: x\nattributes:")),
    ("canonical", ("count: {per_slot: 1}", "count: {per_slot: 1, total: 2}")),
    ("canonical", ("count: 2", 'count: "2-"')),
    ("v1", ("system: {duration: 0}", "system: {cwd: /tmp}")),
    ("v1", ("    count: 1\n        label", "    count: 1\n        exclusive: true\n        label")),
    ("v1", ("{type: core, count: 1}", "{type: gpu, count: 1}")),
    ("v1", ("count: 2", 'count: "2"')),
])
def test_broken_jobspecs_are_rejected(schemas, tmp_path, kind, change):
    text = BASE.replace(*change)
    assert text != BASE
    f = tmp_path / "x.yaml"
    f.write_text(text)
    assert check_jsonschema(schemas[kind], f).returncode == 1
    f.write_text(BASE)
    assert check_jsonschema(schemas[kind], f).returncode == 0


def test_count_strings_that_are_idset_and_range_at_once_validate(schemas, tmp_path):
    # the RFC's own schema rejects these (its oneOf matches two branches)
    for count in ('"4"', '"1-5"', '"[1-3]"', '"4,9,16"', '"2+"', '"2-64:2:*"'):
        f = tmp_path / "c.yaml"
        f.write_text(BASE.replace("version: 1", "version: 999").replace("count: 2", f"count: {count}"))
        assert check_jsonschema(schemas["canonical"], f).returncode == 0, count


def test_no_file_refs_and_patterns_valid_in_javascript(schemas):
    node = shutil.which("node")
    assert node, "node is missing"
    for path in schemas.values():
        text = path.read_text()
        assert "file:" not in text
        patterns = []

        def walk(x):
            if isinstance(x, dict):
                if isinstance(x.get("pattern"), str):
                    patterns.append(x["pattern"])
                for v in x.values():
                    walk(v)
            elif isinstance(x, list):
                for v in x:
                    walk(v)
        walk(json.loads(text))
        assert patterns
        proc = subprocess.run([node, "-e", "for (const p of JSON.parse(process.argv[1])) new RegExp(p, 'u')",
                               json.dumps(patterns)], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
