"""A site profile's CLI plugins (cli/plugins/*.py) read without running them, and their
options in force for a block with model.extra_options. The real-Flux tier holds what is
read to `flux run|submit|batch|alloc|bulksubmit --help` with the same plugins."""

from __future__ import annotations

from pathlib import Path

import pytest
from cliplugin_cases import BROKEN, EVERY, GOOD, write

from jobspec_lsp.fluxcli import argv, model
from jobspec_lsp.script.batch import check_script
from jobspec_lsp.site import cliplugins


def _read(tmp_path: Path, case: str) -> dict[str, cliplugins.PluginOption]:
    return {o.name: o for o in cliplugins.read_plugins(write(tmp_path, GOOD[case]))}


def test_every_form_of_add_option(tmp_path):
    got = _read(tmp_path, "forms")
    assert list(got) == [
        "--ex-tag", "--ex-fast", "--ex-slow", "--ex-level", "--ex-color", "--ex-note",
        "--ex-dump", "--ex-verbosity", "--ex-secret", "--ex-mode", "--ex-turbo", "--ex-by-name",
    ]  # fmt: skip
    assert all(o.commands == EVERY and o.plugin == "Forms" for o in got.values())
    tag = got["--ex-tag"]
    assert (tag.takes_value, tag.metavar, tag.dest, tag.action) == (True, "TAG", "ex_tag", "store")
    assert tag.help == "a tag" and tag.line == 10
    assert [got[n].takes_value for n in ("--ex-fast", "--ex-slow", "--ex-verbosity")] == [False] * 3
    level = got["--ex-level"]
    assert level.integer and level.type == "int" and level.default == 3
    assert level.metavar == "EX_LEVEL" and level.help == "level (default 3)"  # as --help shows it
    assert got["--ex-color"].choices == ("red", "blue")
    assert got["--ex-color"].metavar == "{red,blue}"
    assert got["--ex-note"].repeat and got["--ex-verbosity"].repeat
    assert got["--ex-dump"].optional_value and got["--ex-dump"].metavar == "WHAT"
    assert got["--ex-secret"].hidden and got["--ex-secret"].help is None
    assert got["--ex-mode"].dest == "the_mode" and got["--ex-mode"].metavar == "THE_MODE"
    assert got["--ex-turbo"].aliases == ("--no-ex-turbo",) and not got["--ex-turbo"].takes_value


def test_the_prefix_as_the_plugin_sets_it(tmp_path):
    got = _read(tmp_path, "prefixes")
    # in class-name order, as Flux makes them (dir() of the module)
    assert list(got) == ["--bare-opt", "--lab-queue-hint", "--site-gpumode"]
    assert [o.plugin for o in got.values()] == ["Bare", "Later", "Site"]


def test_options_for_some_commands_only(tmp_path):
    got = {n: o.commands for n, o in _read(tmp_path, "per-command").items()}
    assert got == {
        "--pc-account": EVERY,
        "--pc-project": EVERY,
        "--pc-instance-mode": ("batch", "alloc"),
        "--pc-submit-only": ("submit",),  # prog is "flux submit" in __init__
        "--pc-attach-mode": ("run",),
        "--pc-not-bulk": ("run", "submit", "batch", "alloc"),
    }


def test_inherited_init_and_helper_methods_and_classes_that_are_not_plugins(tmp_path):
    found = cliplugins.scan(write(tmp_path, GOOD["inheritance"]))
    # _Base is a plugin class, but Flux skips the module's names starting with _
    assert [p.name for p in found.plugins] == ["Child"]
    assert [o.name for o in found.options] == ["--inh-shared", "--inh-own"]
    assert found.options[1].integer and not found.problems


def test_a_later_plugin_with_the_same_dest_is_left_out(tmp_path):
    found = cliplugins.scan(write(tmp_path, GOOD["conflict"]))
    assert [o.name for o in found.options] == ["--ex-shared", "--ex-alpha"]
    assert found.options[0].help == "from Alpha"
    (problem,) = found.problems
    assert problem.severity == "warning" and problem.line == 15
    assert "leaves out the plugin Beta (every command)" in problem.message
    checker = next(p for p in found.plugins if p.name == "Checker")
    assert checker.hooks == ("validate",)  # job-ingest calls it; no option


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_what_flux_fails_on_is_an_error_naming_file_and_line(tmp_path, case):
    files, fails = BROKEN[case]
    root = write(tmp_path, files)
    with pytest.raises(cliplugins.PluginError) as err:
        cliplugins.read_plugins(root)
    assert err.value.path.startswith(str(root / "cli" / "plugins"))
    assert err.value.line is not None and f"{err.value.path}:{err.value.line}: " in str(err.value)
    assert ("every command" if fails == EVERY else f"flux {', '.join(fails)}") in str(err.value)
    assert "Traceback" not in str(err.value)


def test_a_broken_file_leaves_the_others_read(tmp_path):
    found = cliplugins.scan(write(tmp_path, BROKEN["syntax"][0]))
    assert [o.name for o in found.options] == ["--ex-fine"]
    (problem,) = found.problems
    assert (Path(problem.path).name, problem.line) == ("bad.py", 7)
    assert problem.message.startswith("Python cannot import it")
    assert str(problem) == f"{problem.path}:7: {problem.message}"


def test_a_raise_for_one_command_fails_only_that_command(tmp_path):
    found = cliplugins.scan(write(tmp_path, BROKEN["batch-raises"][0]))
    assert found.options[0].commands == ("run", "submit", "alloc", "bulksubmit")
    assert [p.message for p in found.problems] == [
        "raises as Flux makes the plugin: Flux fails (flux batch)"
    ]


@pytest.mark.parametrize(
    "data, why",
    [
        (b"class A(:\n", "Python cannot import it"),
        (b"x = 1\x00\n", "Python cannot import it"),
        (b"\xff\xfe not utf-8 \xff\n", "Python cannot import it"),
        (b"x = " + b"(" * 5000 + b")" * 5000 + b"\n", "Python cannot import it"),
    ],
    ids=["syntax", "nul", "encoding", "nesting"],
)
def test_unreadable_files_are_problems_never_tracebacks(tmp_path, data, why):
    plugins = tmp_path / "cli" / "plugins"
    plugins.mkdir(parents=True)
    (plugins / "broken.py").write_bytes(data)
    (problem,) = cliplugins.scan(tmp_path).problems
    assert why in problem.message and problem.severity == "error"


def test_a_directory_without_plugins_adds_nothing(tmp_path):
    assert cliplugins.read_plugins(tmp_path) == ()
    assert cliplugins.scan(tmp_path / "missing") == cliplugins.Plugins()


def test_site_code_is_never_run(tmp_path):
    marker = tmp_path / "ran"
    write(
        tmp_path / "site",
        {
            "evil.py": f"open({str(marker)!r}, 'w').write('x')\n"
            "from flux.cli.plugin import CLIPlugin\n\n\nclass E(CLIPlugin):\n"
            "    def __init__(self, prog):\n        super().__init__(prog)\n"
            f"        open({str(marker)!r}, 'w')\n"
            '        self.add_option("--safe", help="read, not run")\n'
        },
    )
    assert [o.name for o in cliplugins.read_plugins(tmp_path / "site")] == ["--ex-safe"]
    assert not marker.exists()


def test_what_cannot_be_read_statically_is_a_warning_and_the_option_kept(tmp_path):
    root = write(
        tmp_path,
        {
            "dyn.py": "import os\nfrom flux.cli.plugin import CLIPlugin\n\n\n"
            "class D(CLIPlugin):\n    def __init__(self, prog):\n        super().__init__(prog)\n"
            '        if os.environ.get("SITE_X"):\n'
            '            self.add_option("--x", help="x")\n'
            "        else:\n"
            '            self.add_option("--y", help="y")\n'
            '        self.add_option(os.environ["NAME"], help="unknown name")\n'
        },
    )
    found = cliplugins.scan(root)
    assert [o.name for o in found.options] == ["--ex-x", "--ex-y"]
    assert [(p.line, p.severity) for p in found.problems] == [(8, "warning"), (12, "warning")]
    assert "what both branches do is kept" in found.problems[0].message
    assert cliplugins.read_plugins(root)  # warnings do not refuse the profile


def test_a_base_from_another_module_is_said(tmp_path):
    root = write(
        tmp_path,
        {
            "sub.py": "import json\nfrom mysite.plugins import SiteBase\n\n\nclass P(SiteBase):\n"
            "    def __init__(self, prog):\n        super().__init__(prog)\n"
            '        self.add_option("--x", help="x")\n\n\n'
            "class Encoder(json.JSONEncoder):\n    pass\n\n\n"
            "class Helper(SiteBase):\n    pass\n"
        },
    )
    # P looks like a plugin; a stdlib base, or a class adding nothing, is not said
    (problem,) = cliplugins.scan(root).problems
    assert problem.severity == "warning" and "mysite.plugins.SiteBase" in problem.message
    assert problem.line == 5 and "class P " in problem.message


# --------------------------------------------------------------------------- the model
def _extras(tmp_path: Path, case: str) -> dict[str, tuple[model.Option, ...]]:
    return cliplugins.model_options(cliplugins.read_plugins(write(tmp_path, GOOD[case])))


def test_model_options_as_the_table_holds_options(tmp_path):
    extras = _extras(tmp_path, "forms")
    assert set(extras) == set(EVERY)
    by = {o.long: o for o in extras["batch"]}
    assert by["ex-tag"].value == "TAG" and by["ex-fast"].value is None
    assert by["ex-turbo"].aliases == ("no-ex-turbo",) and by["ex-note"].repeat
    assert by["ex-dump"].optional_value and by["ex-secret"].hidden
    assert not by["ex-level"].integer  # a plugin's int may be negative: not read as a count
    assert by["ex-tag"].doc == "a tag (the site's CLI plugin Forms, forms.py)"


def test_extra_options_are_in_force_for_the_block_only(tmp_path):
    extras = _extras(tmp_path, "per-command")
    plain = model.command("batch")
    assert model.command("batch") is plain and "pc-account" not in plain.by_long
    with model.extra_options(extras):
        batch = model.command("batch")
        assert batch.options[: len(plain.options)] == plain.options
        assert [o.long for o in batch.options[len(plain.options) :]] == [
            "pc-account", "pc-project", "pc-instance-mode", "pc-not-bulk"
        ]  # fmt: skip
        assert model.command("batch") is batch  # built once per block
        assert "pc-instance-mode" not in model.command("run").by_long
        assert "pc-attach-mode" in model.command("run").by_long
        assert model.command("bulksubmit").by_long.keys() >= {"pc-account"}
        assert model.reading_key() != (model.selected_version(), ())
        with model.extra_options(None):  # an inner block replaces the outer's
            assert model.command("batch") is plain
        with model.using(model.default_version()):  # the version is chosen apart
            assert "pc-account" in model.command("batch").by_long
    assert model.command("batch") is plain
    assert model.reading_key() == (model.selected_version(), ())


def test_an_extra_option_never_replaces_the_commands_own(tmp_path):
    mine = model.Option("queue", None, "Q", "a plugin's --queue")
    new = model.Option("ex-new", None, None, "new")
    with model.extra_options({"run": (mine, new)}):
        run = model.command("run")
        assert run.by_long["queue"] is not mine and run.by_long["ex-new"] is new
        assert mine not in run.options


def test_the_argv_reader_takes_plugin_options(tmp_path):
    with model.extra_options(_extras(tmp_path, "forms")):
        cmd = model.command("run")
        words = ["--ex-tag", "a", "--ex-fast", "--ex-dump", "--no-ex-turbo", "--ex-fast=1", "app"]
        reading = argv.read(cmd, [argv.Word(w, 0, len(w)) for w in words])
    assert [(g.option.long, g.value) for g in reading.given] == [
        ("ex-tag", "a"), ("ex-fast", None), ("ex-dump", None), ("ex-turbo", None)
    ]  # fmt: skip
    assert [p.kind for p in reading.problems] == ["takes-no-value"]
    assert [w.value for w in reading.rest] == ["app"]


def _unknown(text: str) -> list[str]:
    """The unknown-option messages of a script (directives JS570, command lines JS584),
    without the did-you-mean."""
    return [d.message.split(";")[0] for d in check_script(text) if d.code in ("JS570", "JS584")]


def test_a_directive_of_a_plugin_option_is_no_longer_unknown(tmp_path):
    extras = _extras(tmp_path, "per-command")
    text = "#!/bin/sh\n#flux: --pc-instance-mode=fast -N1\nflux run --pc-attach-mode=x app\n"
    with model.extra_options(extras):
        assert _unknown(text) == []
        # batch's option is still unknown to flux run
        assert _unknown(text.replace("--pc-attach-mode", "--pc-instance-mode")) == [
            "flux run has no option '--pc-instance-mode'"
        ]
    assert _unknown(text.replace("=fast", "=slow").replace("=x", "=y")) == [
        "flux batch has no option --pc-instance-mode",
        "flux run has no option '--pc-attach-mode'",
    ]


def test_the_same_script_read_without_then_with_plugins(tmp_path):
    text = "#!/bin/sh\n#flux: --pc-account=abc\nflux run --pc-account=abc app\n"
    assert len(_unknown(text)) == 2
    with model.extra_options(_extras(tmp_path, "per-command")):
        assert _unknown(text) == []


def test_loops_fstrings_mappings_and_guards(tmp_path):
    root = write(
        tmp_path,
        {
            "edge.py": """
import argparse as ap
import os
from flux.cli.plugin import CLIPlugin

NAMES = ("a", "b", "c", "d")


class R(CLIPlugin):
    def __init__(self, prog, *rest, **kw):
        super(R, self).__init__(prog, prefix=f"r{len(NAMES)}")
        self.again()
        for n in NAMES:
            if n == "c":
                continue
            if n == "d":
                break
            self.add_option("--" + n, help=ap.SUPPRESS if n == "b" else "opt %s" % n, **{"metavar": n.upper()})
        if os.environ.get("X"):
            raise RuntimeError("maybe")  # not known: not an error
        try:
            self.add_option("--in-try", **OPTS)
        except Exception:
            pass
        self.add_option("--must", required=True)

    def again(self, depth=0):
        self.again(depth + 1)


OPTS = {"action": "store_true"}  # bound before Flux makes the plugin
"""
        },
    )
    found = cliplugins.scan(root)
    got = {o.name: (o.metavar, o.hidden, o.action) for o in found.options}
    assert got == {
        "--r4-a": ("A", False, "store"),
        "--r4-b": ("B", True, "store"),
        "--r4-in-try": (None, False, "store_true"),
        "--r4-must": ("R4_MUST", False, "store"),
    }
    assert [(p.severity, p.line) for p in found.problems] == [
        ("warning", 27),  # the recursion, cut at a depth
        ("warning", 18),  # the if not read
        ("warning", 24),  # required
    ]
    assert "required: Flux refuses a command line without it (every command)" in str(
        found.problems[2]
    )
