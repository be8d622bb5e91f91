"""Start-up (issue 26): `jobspec check` of a script loads what it needs and nothing
more. What a fresh process imports is checked here, not how long it takes (the
benchmark, benchmarks/bench_sizes.py, measures that against `flux batch --dry-run`):
each module below cost one to six milliseconds of every start, and one stray
top-level import brings it back."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import pickle
import shutil
import subprocess
import sys
import textwrap

import pytest

from jobspec_lsp.record import Frozen, FrozenError, Record

cli_main = importlib.import_module("jobspec_lsp.cli.main")  # the module (the package names main)
cli_startup = importlib.import_module("jobspec_lsp.cli.startup")

# what a script's check never needs: the YAML reader, the dataclass machinery and what
# it loads, typing, importlib.resources (tempfile, zipfile, lzma), shutil (argparse's
# terminal width), lark, the language server, the MCP server and its SDK (`jobspec mcp`)
HEAVY = (
    "yaml", "dataclasses", "inspect", "ast", "typing", "importlib.resources", "tempfile",
    "zipfile", "shutil", "lark", "pygls", "lsprotocol", "datetime", "copy", "mcp",
    "mcp_types", "pydantic", "anyio", "jobspec_lsp.mcp",
)  # fmt: skip

_PROBE = textwrap.dedent(
    """
    import json, sys
    from jobspec_lsp.cli import run
    sys.argv = ["jobspec", "check", "-q", sys.argv[1]]
    try:
        code = run()
    except SystemExit as exc:
        code = exc.code
    with open(OUT, "w") as f:
        json.dump({"code": code, "modules": sorted(sys.modules)}, f)
    """
)


def _loaded(tmp_path, script: str, name: str = "job.sh") -> tuple[int, set[str]]:
    path = tmp_path / name
    path.write_text(script)
    out = tmp_path / "modules.json"
    probe = _PROBE.replace("OUT", repr(str(out)))
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    subprocess.run(
        [sys.executable, "-c", probe, str(path)], env=env, capture_output=True, timeout=60
    )
    got = json.loads(out.read_text())
    return got["code"], set(got["modules"])


@pytest.mark.parametrize(
    "script, code",
    [
        ("#!/bin/sh\n#flux: -N2\n#flux: --job-name=sim\nflux run -n4 ./sim\n", 0),
        ("#!/bin/sh\n#flux: -N 0\n#flux: --queue\nflux run --tasks-per-node=x ./sim\n", 1),
    ],
    ids=["clean", "errors"],
)
def test_a_script_check_loads_none_of_the_heavy_modules(tmp_path, script, code):
    got, modules = _loaded(tmp_path, script)
    assert got == code
    assert "jobspec_lsp.script.batch" in modules  # it did check the script
    assert sorted(m for m in HEAVY if m in modules) == []


def test_a_slurm_script_check_loads_its_converter_but_no_yaml(tmp_path):
    got, modules = _loaded(tmp_path, "#!/bin/bash\n#SBATCH -N 2\n#SBATCH -t 1:00:00\nsrun ./a\n")
    assert got == 0 and "jobspec_lsp.migrate.convert" in modules
    assert sorted(m for m in ("yaml", "lark", "pygls", "lsprotocol") if m in modules) == []


def test_a_jobspec_check_loads_yaml_and_its_rules_only(tmp_path):
    text = (
        "version: 1\nresources:\n  - type: slot\n    count: 2\n    label: task\n"
        "    with:\n      - type: core\n        count: 1\ntasks:\n  - command: [app]\n"
        "    slot: task\n    count:\n      per_slot: 1\nattributes:\n  system:\n"
        "    duration: 0\n"
    )
    got, modules = _loaded(tmp_path, text, "job.yaml")
    assert got == 0 and "yaml" in modules and "jobspec_lsp.rules.structure" in modules
    assert sorted(m for m in HEAVY if m in modules and m not in ("yaml", "datetime")) == []


def test_a_jobspec_check_still_reads_yaml(tmp_path):
    path = tmp_path / "job.yaml"
    path.write_text("version: 9\nresources: []\ntasks: []\n")
    code = cli_main.main(["check", "-q", str(path)])
    assert code == 1  # the YAML reader, loaded where it is needed, found the errors


@pytest.mark.parametrize("columns", ["57", "200", "", "x", "-3"])
def test_help_width_is_what_argparse_measures(monkeypatch, columns):
    monkeypatch.setenv("COLUMNS", columns)
    assert cli_main._columns() == shutil.get_terminal_size().columns


@pytest.mark.parametrize("columns", ["50", "120"])
def test_help_is_argparse_own(monkeypatch, capsys, columns):
    monkeypatch.setenv("COLUMNS", columns)
    assert cli_main.main(["check", "--help"]) == 0
    ours = capsys.readouterr().out
    monkeypatch.setattr(cli_main, "_Help", argparse.HelpFormatter)
    assert cli_main.main(["check", "--help"]) == 0
    assert ours == capsys.readouterr().out and len(ours.splitlines()) > 10


# ------------------------------------------------------------------ record.py
class _Point(Frozen):
    __slots__ = ("x", "y", "note")
    _uncompared = _unshown = ("note",)

    def __init__(self, x, y, note=None):
        object.__setattr__(self, "x", x)
        object.__setattr__(self, "y", y)
        object.__setattr__(self, "note", note)


class _Box(Record):
    __slots__ = ("items",)

    def __init__(self, items):
        self.items = items


class _Point3(_Point):
    __slots__ = ("z",)

    def __init__(self, x, y, z):
        super().__init__(x, y)
        object.__setattr__(self, "z", z)


def test_frozen_values_compare_hash_and_show_their_fields():
    a, b = _Point(1, 2, "a"), _Point(1, 2, "b")
    assert a == b and hash(a) == hash(b)  # the uncompared field left out of both
    assert a != _Point(1, 3) and {a, b} == {a}
    assert repr(a) == "_Point(x=1, y=2)"
    assert a != (1, 2) and (a == object()) is False
    assert _Point3(1, 2, 3) != _Point(1, 2)  # another class: never equal
    assert _Point3._fields == ("x", "y", "note", "z")
    with pytest.raises(FrozenError):
        a.x = 5
    with pytest.raises(AttributeError):  # FrozenError is one, as dataclasses' is
        del a.y
    with pytest.raises(AttributeError):  # slots: no field of another name
        object.__setattr__(a, "w", 1)


def test_records_are_mutable_and_unhashable():
    box = _Box([1])
    box.items.append(2)
    box.items = [3]
    assert box == _Box([3]) and box != _Box([4])
    with pytest.raises(TypeError):
        hash(box)


def test_values_survive_copy_and_pickle():
    import copy

    p = _Point3(1, 2, 3)
    for got in (copy.copy(p), copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert got == p and got.z == 3 and type(got) is _Point3
    box = _Box([1, [2]])
    deep = copy.deepcopy(box)
    assert deep == box and deep.items is not box.items


def test_the_collector_gets_its_pace_back_after_the_first_file():
    """`jobspec` starts with young collections made rare (run()); once the first file
    is checked, the collector runs at its usual pace again, for every file after it
    and for a single file's own work."""
    import gc

    before = gc.get_threshold()
    try:
        gc.set_threshold(cli_startup.START_UP_THRESHOLD, *before[1:])
        seen = []
        for item in cli_startup.started_after_one(iter(["a", "b", "c"])):
            seen.append((item, gc.get_threshold()[0]))
        assert seen == [
            ("a", cli_startup.START_UP_THRESHOLD),
            ("b", cli_startup.USUAL[0]),
            ("c", cli_startup.USUAL[0]),
        ]
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
