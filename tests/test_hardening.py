"""Regression tests for the defects a reliability campaign found (issue 12), one
input each, in process where it can be and through the CLI where the defect was
in the command.  Every one of these once raised, hung or answered wrongly."""

import json

import pytest
from helpers import run_cli

from jobspec_lsp import convert
from jobspec_lsp.features import hover
from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.notations import shape
from jobspec_lsp.rules import analysis
from jobspec_lsp.text.positions import LineIndex

V1 = """version: 1
resources:
  - type: slot
    count: 1
    label: task
    with:
      - type: core
        count: {count}
tasks:
  - command: [app]
    slot: task
    count:
      per_slot: 1
attributes:
  system:
    duration: {duration}
"""


def codes(text, language="yaml"):
    return [d.code for d in analysis.check(text, language=language)]


def test_hover_on_an_exponential_count_is_closed_form():
    """`operator: "^"` with a large operand once enumerated the series (32 s, 2 GB)."""
    text = V1.format(count='{min: 2, max: 100000000, operator: "^", operand: 100}', duration=0)
    doc = parse(text)
    h = hover.hover(doc, text.index("count: {min") + 1)
    assert h is not None and "2" in h.markdown


@pytest.mark.parametrize(
    "count", ["{min: 1, operator: 7, operand: yes}", "{min: x, max: [], operator: '+'}", "{}"]
)
def test_hover_on_a_count_with_wrongly_typed_fields(count):
    text = V1.format(count=count, duration=0)
    assert hover.hover(parse(text), text.index("count: {") + 1) is not None or True
    assert codes(text)  # and the rules say what is wrong


def test_a_duration_beyond_float_range_is_a_diagnostic():
    text = V1.format(count=1, duration="1" + "0" * 400)
    found = analysis.check(text)
    assert found and all(d.start < d.end <= len(text) for d in found)


def test_a_quoted_string_beyond_pythons_int_digit_limit():
    text = V1.format(count='"' + "9" * 4300 + '"', duration=0)
    found = analysis.check(text)
    assert found and all(d.end <= len(text) for d in found)


def test_json_surrogate_pair_escapes_are_one_character():
    """An emoji as json.dumps writes it (a surrogate pair) is valid JSON: no JS901."""
    data = json.loads(json.dumps({"version": 1}))
    text = json.dumps({**data, "attributes": {"user": {"note": "\U0001f642"}}})
    assert "\\ud83d\\ude42" in text
    assert "JS901" not in codes(text, "json")


def test_cr_only_line_endings_put_diagnostics_on_their_lines():
    text = V1.format(count='"x"', duration=0).replace("\n", "\r")
    found = analysis.check(text)
    lines = LineIndex(text)
    assert {lines.position(d.start).line for d in found} - {0}  # not all on line 1


def test_convert_to_psij_of_a_file_that_checks_clean():
    text = V1.format(count=1, duration=60).replace(
        "  system:\n",
        "  system:\n    shell:\n      options:\n        output:\n          stdout:\n"
        "            type: file\n            path: out.txt\n",
    )
    conv = convert.to_psij(text)  # once: AttributeError on the shell output options
    assert conv.ok or conv.blockers


def test_shape_of_200_nested_levels_is_an_error_not_a_crash():
    text = "slot/" + "node/" * 200 + "core"
    try:
        shape.expand(text)
    except shape.ShapeError:
        pass


@pytest.mark.parametrize(
    "args",
    [
        ["new", "--requires", '"abc', "--", "app"],
        ["new", "--setattr", 'user.x="\\ud800"', "--", "app"],
    ],
)
def test_jobspec_new_with_bad_arguments_is_a_usage_error(args):
    proc = run_cli(*args)
    assert proc.returncode in (1, 2) and b"Traceback" not in proc.stderr, proc.stderr


def test_a_non_utf8_argument_is_a_usage_error():
    import os
    import subprocess

    from helpers import jobspec_exe

    proc = subprocess.run(
        [jobspec_exe().encode(), b"new", b"--job-name", b"caf\xe9", b"--", b"app"],
        capture_output=True,
        timeout=60,
        env={**os.environ, "LC_ALL": "C.UTF-8"},
    )
    assert b"Traceback" not in proc.stderr, proc.stderr


def test_github_output_escapes_a_file_name_with_a_newline(tmp_path):
    bad = tmp_path / "x\n::error file=forged::gotcha.jobspec.yaml"
    bad.write_text("version: 1\nresources: nope\n")
    proc = run_cli("check", "--format", "github", bad)
    lines = proc.stdout.decode().splitlines()
    assert lines and all(line.startswith("::") for line in lines)
    assert not any(line.startswith("::error file=forged") for line in lines)
