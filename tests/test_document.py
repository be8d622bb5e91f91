"""The positioned document model: ranges, Flux-exact values, and hostile input."""

import datetime

import pytest

from jobspec_lsp.jobspec.document import parse, parse_bytes
from jobspec_lsp.jobspec.tree import Mapping, Scalar, Sequence, to_python
from jobspec_lsp.rules.analysis import check
from jobspec_lsp.text.positions import LineIndex


def codes(doc):
    return [d.code for d in doc.problems]


def at(doc, node):
    return doc.text[node.start : node.end]


def test_every_key_value_and_item_knows_its_range():
    text = "version: 1\nresources:\n  - type: node\n    count: {min: 2}\ntasks: [a, 'b']\n"
    doc = parse(text)
    root = doc.root
    assert isinstance(root, Mapping)
    key, value = root.pair("version")
    assert (key.start, key.end, value.start, value.end) == (0, 7, 9, 10)
    res = root.get("resources")
    assert isinstance(res, Sequence)
    vertex = res.items[0]
    assert at(doc, vertex.key_node("type")) == "type"
    assert at(doc, vertex.get("type")) == "node"
    count = vertex.get("count")
    assert at(doc, count) == "{min: 2}"
    assert at(doc, count.get("min")) == "2"
    tasks = root.get("tasks")
    assert [at(doc, i) for i in tasks.items] == ["a", "'b'"]
    assert doc.lines.position(vertex.get("type").start).line == 2
    assert doc.lines.position(vertex.get("type").start).character == 10


@pytest.mark.parametrize(
    "text,value",
    [
        ("yes", True),
        ("No", False),
        ("on", True),
        ("OFF", False),
        ("0755", 493),
        ("1_000", 1000),
        ("3600.", 3600.0),
        ("0x1F", 31),
        ("1:30", 90),
        ("~", None),
        ("1e5", "1e5"),
        ("y", "y"),
        ("'yes'", "yes"),
        ('"0755"', "0755"),
        ("-.inf", float("-inf")),
    ],
)
def test_scalars_resolve_as_yaml_1_1_like_flux(text, value):
    doc = parse(f"v: {text}\n")
    assert doc.root.get("v").value == value
    assert type(doc.root.get("v").value) is type(value)


@pytest.mark.parametrize(
    "text,flux,other",
    [
        ("yes", "the boolean true", 'the string "yes"'),
        ("0755", "the integer 493", "the integer 755"),
        ("1_000", "the integer 1000", 'the string "1_000"'),
        ("1e5", 'the string "1e5"', "the number 100000.0"),
        ("1:30", "the integer 90", 'the string "1:30"'),
    ],
)
def test_yaml11_yaml12_differences_are_warned_with_both_readings(text, flux, other):
    doc = parse(f"x: {text}\n")
    (d,) = doc.problems
    assert d.code == "JS905" and (d.start, d.end) == (3, 3 + len(text))
    assert flux in d.message and other in d.message
    assert d.data["replacement"]


@pytest.mark.parametrize("text", ["true", "3600.", "3600.0", "0x10", "'yes'", "null", "12", "-3"])
def test_unambiguous_scalars_are_not_warned(text):
    assert parse(f"x: {text}\n").problems == []


def test_json_is_first_class_with_json_number_rules():
    text = '{"version": 1, "x": 1e5, "y": [true, null, 2.5]}'
    doc = parse(text, "json")
    assert doc.language == "json" and doc.problems == []
    assert to_python(doc.root) == {"version": 1, "x": 100000.0, "y": [True, None, 2.5]}
    assert at(doc, doc.root.get("x")) == "1e5"


def test_json_with_tabs_and_tight_colons_parses():
    doc = parse('{\n\t"a":1,\n\t"b": [1,\t2]\n}', "json")
    assert doc.problems == [] and to_python(doc.root) == {"a": 1, "b": [1, 2]}


def test_invalid_json_is_a_positioned_syntax_error():
    doc = parse('{"a": 1,}', "json")
    (d,) = doc.problems
    assert d.code == "JS901" and (d.start, d.end) == (7, 8) and doc.root is None  # the comma


def test_duplicate_keys_are_errors_on_the_second_key():
    doc = parse("a: 1\nb: 2\na: 3\n")
    (d,) = doc.problems
    assert d.code == "JS902" and (d.start, d.end) == (10, 11) and "line 1" in d.message
    assert doc.root.get("a").value == 3  # what PyYAML (Flux) keeps


def test_duplicate_keys_in_json():
    doc = parse('{"a": 1, "a": 2}', "json")
    assert codes(doc) == ["JS902"]


def test_more_than_one_document():
    doc = parse("a: 1\n---\nb: 2\n")
    (d,) = doc.problems
    assert d.code == "JS903" and doc.text[d.start : d.end] == "---"
    assert to_python(doc.root) == {"a": 1}


def test_syntax_error_has_position_and_no_tree():
    doc = parse("a: [1, 2\nb: 3\n")
    (d,) = doc.problems
    assert d.code == "JS901" and doc.root is None
    assert doc.lines.position(d.start).line == 1


def test_tab_indentation():
    doc = parse("a:\n\tb: 1\n")
    (d,) = doc.problems
    assert d.code == "JS904" and (d.start, d.end) == (3, 4)


def test_unsafe_tags_are_reported_never_constructed(tmp_path):
    marker = tmp_path / "pwned"
    doc = parse(
        f"a: !!python/object/apply:os.system ['touch {marker}']\n"
        "b: !!python/name:os.system ''\nc: !custom 1\n"
    )
    assert codes(doc) == ["JS906", "JS906", "JS906"]
    assert not marker.exists()


def test_explicit_tag_that_does_not_fit():
    doc = parse("a: !!int abc\n")
    assert codes(doc) == ["JS906"]


def test_dates_and_binary_have_no_json_form():
    doc = parse("a: 2024-01-31\nb: !!binary aGVsbG8=\nc: !!set {x: null}\n")
    assert codes(doc) == ["JS910", "JS910", "JS910"]
    assert doc.problems[0].data == {"replacement": '"2024-01-31"'}
    assert isinstance(doc.root.get("a").value, datetime.date)


def test_merge_keys_follow_pyyaml():
    doc = parse("base: &b {x: 1, y: 2}\nother: &o {y: 9, z: 3}\nm:\n  <<: [*b, *o]\n  x: 5\n")
    assert doc.problems == []
    assert to_python(doc.root)["m"] == {"x": 5, "y": 2, "z": 3}


def test_alias_bomb_is_refused():
    # 10**10 nodes if expanded: refused from the count of references, never built
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 10):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [" + ", ".join([f"*{prev}"] * 10) + "]")
    doc = parse("\n".join(lines) + "\n")
    assert "JS907" in codes(doc) and doc.root is None


def test_recursive_alias_is_refused():
    doc = parse("a: &a [1, *a]\n")
    assert codes(doc) == ["JS907"] and doc.root is None


def test_modest_alias_reuse_is_fine():
    doc = parse("env: &e {A: '1'}\nother: *e\n")
    assert doc.problems == [] and doc.root.get("other") is doc.root.get("env")


@pytest.mark.parametrize(
    "text",
    [
        "[" * 5000 + "]" * 5000,
        "a:\n" + "".join(" " * (2 * i) + "- b:\n" for i in range(1, 400)),
        "{" * 100000,
    ],
)
def test_deep_nesting_never_crashes(text):
    doc = parse(text)
    assert doc.root is None
    assert codes(doc) and codes(doc)[0] in ("JS908", "JS901")


def test_empty_and_comment_only():
    assert codes(parse("")) == ["JS909"]
    assert codes(parse("# only a comment\n\n")) == ["JS909"]


def test_binary_junk_is_reported_not_raised():
    doc = parse_bytes(b"version: 1\n\xff\xfe\x00junk")
    (d,) = doc.problems
    assert d.code == "JS911" and doc.lines.position(d.start).line == 1
    doc = parse_bytes(bytes(range(256)))
    assert doc.root is None and doc.problems


def test_control_characters_are_syntax_errors():
    doc = parse("a: 1\x00\n")
    assert codes(doc) == ["JS901"]


def test_byte_order_mark_keeps_offsets():
    doc = parse("\ufeffa: 1\nb: 2\n")
    assert doc.problems == [] and doc.root.get("a").start == 3 and doc.root.get("b").start == 8


def test_utf16_columns_for_lsp():
    text = 'a: "😀é"\nb: x\n'
    doc = parse(text)
    node = doc.root.get("a")
    lines = doc.lines
    end_cp = lines.position(node.end)
    end_16 = lines.position(node.end, utf16=True)
    assert (end_cp.line, end_cp.character) == (0, 7)
    assert (end_16.line, end_16.character) == (0, 8)  # the emoji is two UTF-16 units
    assert lines.offset(0, 8, utf16=True) == node.end


def test_line_index_round_trip():
    text = "ab\r\ncd\n\nxyz"
    li = LineIndex(text)
    for off in range(len(text) + 1):
        p = li.position(off)
        assert li.offset(p.line, p.character) == off
    assert li.line_text(0) == "ab"


def test_key_of_each_pair_is_scalar():
    doc = parse("? [a, b]\n: 1\nc: 2\n")
    assert codes(doc) == ["JS910"]
    assert list(doc.root.keys()) == ["c"]


def test_parse_never_raises_on_random_bytes():
    import random

    rnd = random.Random(1)
    alphabet = "ab:- \n\t[]{},'\"&*!|>#%@`?0129yes"
    for _ in range(400):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 60)))
        doc = parse(text)
        for d in doc.problems:
            assert 0 <= d.start <= d.end <= len(text)
        if doc.root is not None:
            assert isinstance(doc.root, (Mapping, Sequence, Scalar))


@pytest.mark.parametrize("encoding,col", [("utf-32", 7), ("utf-16", 8), ("utf-8", 11)])
def test_every_lsp_position_encoding(encoding, col):
    text = 'a: "😀é"\nb: x\n'
    doc = parse(text)
    node = doc.root.get("a")
    assert doc.lines.position(node.end, encoding=encoding).character == col
    assert doc.lines.offset(0, col, encoding=encoding) == node.end


def test_positions_count_lsp_line_breaks_only():
    """\\n, \\r\\n and a lone \\r end lines (LSP's breaks); U+2028 does not."""
    from jobspec_lsp.rules.analysis import check

    text = "version: 1\rresources: []\r\ntasks: []\rattributes: {}\r"
    doc = parse(text)
    lines = {d.code: doc.lines.position(d.start).line for d in check(doc)}
    assert lines == {"JS104": 1, "JS105": 2, "JS608": 3}
    assert doc.lines.line_text(1) == "resources: []"
    ls = parse('{"a": "x\u2028y",\n"b": 1}', "json").lines
    assert ls.line_count == 2 and ls.position(len('{"a": "x\u2028y",\n')).line == 1


def test_json_strings_are_decoded_as_json_decodes_them():
    import json as _json

    text = _json.dumps({"version": 1, "attributes": {"user": {"e": "x😀y", "n": "é"}}})
    doc = parse(text, "json")  # \\ud83d\\ude00, as json.dumps writes an emoji
    assert doc.problems == []
    assert to_python(doc.root)["attributes"]["user"] == {"e": "x😀y", "n": "é"}
    lone = '{"a": "x\\udc00y\\ud83d\\ude00\\ud800"}'
    doc = parse(lone, "json")
    assert [lone[d.start : d.end] for d in doc.problems] == ["\\udc00", "\\ud800"]
    assert all(d.code == "JS901" and "surrogate" in d.message for d in doc.problems)


def test_a_document_above_the_limit_is_read_in_streaming_mode():
    """No tree above the limit (memory stays bounded), but its events are read one at a
    time: JS912 says what is skipped, and a syntax error and the top-level keys are still
    reported at their places."""
    from jobspec_lsp.jobspec.document import MAX_CHARS

    text = "version: 1\n" + "#" * MAX_CHARS + "\n"
    doc = parse(text)
    assert doc.root is None and [d.code for d in doc.problems] == ["JS912", "JS101"]
    assert (doc.problems[0].start, doc.problems[0].end) == (0, len("version: 1"))
    assert "streaming mode" in doc.problems[0].message and "skipped" in doc.problems[0].message
    assert "resources, tasks, attributes" in doc.problems[1].message
    assert parse("version: 1\n" + "#" * 100 + "\n").root is not None  # small: read whole
    whole = "version: 1\nresources: []\ntasks: []\nattributes: {}\n"
    big = whole + "note: x\n" + "# pad\n" * 20
    got = [(d.code, big[d.start : d.end]) for d in parse(big, max_chars=60).problems]
    assert got == [("JS912", "version: 1"), ("JS102", "note")]
    broken = whole.replace("tasks: []", "tasks: [") + "# pad\n" * 20
    got = [(d.code, d.start) for d in parse(broken, max_chars=60).problems]
    assert got[0][0] == "JS912" and got[1][0] == "JS901" and len(got) == 2


def test_a_number_beyond_pythons_digit_limit_is_a_short_diagnostic():
    text = "a: " + "9" * 4400 + "\n"
    (d,) = parse(text).problems
    assert d.code == "JS906" and (d.start, d.end) == (3, 4403)
    assert "4,400 characters" in d.message and len(d.message) < 200


@pytest.mark.parametrize("language", ["yaml", "json"])
def test_a_lone_surrogate_character_is_a_diagnostic_not_an_exception(language):
    """Found by scripts/fuzz.py: a raw U+D800 (an LSP client can send one) made the
    YAML reader raise; now it is JS911 on that character, and nothing looks clean."""
    text = 'version: 1\nname: "a\ud800b"\n' if language == "yaml" else '{"name": "a\ud800b"}'
    doc = parse(text, language)
    assert doc.root is None
    (d,) = doc.problems
    assert d.code == "JS911" and text[d.start : d.end] == "\ud800"
    assert [x.code for x in check(text, language=language)] == ["JS911"]


def test_reading_a_big_document_leaves_the_collector_as_it_was():
    """Big documents are read with the cyclic collector off (its pauses made reading grow
    faster than the text: docs/performance.md); it is on again after, and stays off for a
    caller that had it off."""
    import gc
    import threading

    from jobspec_lsp.text.pauses import no_gc_pauses

    big = "version: 1\nresources:\n" + "".join(
        f"  - type: slot\n    count: {i + 1}\n    label: s{i}\n" for i in range(3000)
    )
    assert len(big) > 50_000
    assert gc.isenabled()
    assert parse(big).root is not None and gc.isenabled()
    gc.disable()
    try:
        parse(big)
        assert not gc.isenabled()
    finally:
        gc.enable()
    # nested and concurrent readings: on again only when the last one ends
    inner_done = threading.Event()
    with no_gc_pauses():
        t = threading.Thread(target=lambda: (parse(big), inner_done.set()))
        t.start()
        t.join()
        assert inner_done.is_set() and not gc.isenabled()
    assert gc.isenabled()
