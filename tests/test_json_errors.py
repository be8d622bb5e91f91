"""JSON the reader refuses: a message about the mistake, on the character(s) at
fault, not Python's "Expecting ..." where the reader stopped."""

import json

import pytest
from helpers import run_cli

from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.rules.analysis import check

# (text, the exact text the range covers, words the message holds)
CASES = [
    ('{"version": 1, }', (13, 14), "trailing comma", "object"),
    ("[1, 2, ]", (5, 6), "trailing comma", "array"),
    ('{\n  "version": 1,\n  "tasks": [],\n}\n', (31, 32), "trailing comma", "object"),
    ('{"a": [1, 2,\n  ]}', (11, 12), "trailing comma", "array"),
    ('{"a": 1\n "b": 2}', (6, 7), "comma is missing", "after this item"),
    ("[1 2]", (1, 2), "comma is missing", "after this item"),
    ("{'a': 1}", (1, 4), "property name takes double quotes", "not single"),
    ("{\"a\": 'x'}", (6, 9), "string takes double quotes", "not single"),
    ('{\n  // the job\n  "a": 1}', (4, 14), "no comments", "remove"),
    ('{"a": 1} /* c */', (9, 16), "no comments", "remove"),
    ('{"a": 1,,}', (8, 9), "two commas", "remove one"),
    ("{a: 1}", (1, 2), 'takes double quotes: "a"', "property name"),
    ('{"a" 1}', (3, 4), "':' is missing", "property name"),
    ('{"a": [1, 2}', (11, 12), "'}' does not close the '['", "']' expected"),
    ('{\n"a": [1, {"b": 2}', (7, 8), "'[' is never closed", "text ends"),
    ('{"a": True}', (6, 10), "Python's", "true"),
    ('{"a": tru}', (6, 9), "not a JSON value", "did you mean true?"),
    ('{"a": 01}', (6, 8), "leading zeros", "number"),
    ('{"a": "x\n"}', (8, 9), "line break inside a string", "\\n"),
    ('{"a": "C:\\path"}', (9, 11), "\\p is not a JSON escape", "\\\\"),
    ('{"a": "x', (6, 8), "never closed", '"'),
    ('{"a": 1}}', (8, 9), "an extra '}'", "nothing is open"),
]


@pytest.mark.parametrize("text,span,words", [(c[0], c[1], c[2:]) for c in CASES])
def test_json_mistakes_are_named_where_they_are(text, span, words):
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)  # the reader does refuse each of these
    doc = parse(text, "json")
    (d,) = doc.problems
    assert d.code == "JS901" and doc.root is None
    assert (d.start, d.end) == span, (text[d.start : d.end], d.message)
    assert d.message.startswith("invalid JSON: ")
    for w in words:
        assert w in d.message, d.message
    assert "Expecting" not in d.message


def test_trailing_comma_position_and_message_exactly():
    text = '{\n  "version": 1,\n  "attributes": {"system": {"duration": 0},},\n}\n'
    (d,) = check(parse(text, "json"))
    # the comma after the inner object, on line 3 (the reader stops at the '}' after it)
    assert (d.start, d.end) == (60, 61) and text[d.start] == ","
    assert doc_position(text, d.start) == (2, 42)
    assert d.message == (
        "invalid JSON: trailing comma: JSON allows no comma after the last item of an "
        "object; remove it"
    )


def doc_position(text, offset):
    line = text.count("\n", 0, offset)
    return line, offset - (text.rfind("\n", 0, offset) + 1)


def test_short_unicode_escape_and_empty_file():
    doc = parse('{"a": "\\u12"}', "json")  # the reader points at the u, after the backslash
    (d,) = doc.problems
    assert (d.start, d.end) == (7, 11) and "four hexadecimal digits" in d.message
    # an empty .json file
    (d,) = parse("  \n", "json").problems
    assert "empty" in d.message and (d.start, d.end) == (0, 0)


def test_cli_reports_the_trailing_comma_on_its_column(tmp_path):
    f = tmp_path / "run.jobspec.json"
    f.write_text('{"version": 1, }\n')
    proc = run_cli("check", f)
    assert proc.returncode == 1
    assert proc.stdout.decode().splitlines()[0] == (
        f"{f}:1:14: error[JS901] invalid JSON: trailing comma: JSON allows no comma after "
        "the last item of an object; remove it"
    )
    arr = tmp_path / "arr.json"
    arr.write_text('{"version": 1,\n "tasks": [1, 2, ]}\n')
    proc = run_cli("check", "--format", "json", arr)
    (diag,) = json.loads(proc.stdout)["files"][0]["diagnostics"]
    assert diag["code"] == "JS901" and "trailing comma" in diag["message"]
    assert diag["range"] == {
        "start": {"line": 1, "character": 15},
        "end": {"line": 1, "character": 16},
    }
