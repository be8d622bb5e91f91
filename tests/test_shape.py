"""RFC 46 shapes: every example of the RFC both ways, errors, properties, CLI."""

import json

import pytest
import yaml
from helpers import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from jobspec_lsp.notations import formats, shape
from jobspec_lsp.notations.shape import ShapeError, collapse, expand, shape_of
from jobspec_lsp.rules.analysis import check


def y(text):
    return yaml.safe_load(text)


# The Examples section of RFC 46: shape -> resources list.
RFC46 = {
    "slot=4/node": """
- {type: slot, count: 4, label: default, with: [{type: node, count: 1}]}
""",
    "slot=3-30/node": """
- type: slot
  count: {min: 3, max: 30, operator: "+", operand: 1}
  label: default
  with: [{type: node, count: 1}]
""",
    "slot=4{nodelevel}/node{-x}/socket=2+/core=4+": """
- type: slot
  count: 4
  label: nodelevel
  with:
  - type: node
    count: 1
    exclusive: false
    with:
    - type: socket
      count: {min: 2}
      with:
      - type: core
        count: {min: 4}
""",
    "slot=4{nodelevel}/node/socket=2/core=4": """
- type: slot
  count: 4
  label: nodelevel
  with:
  - type: node
    count: 1
    with:
    - {type: socket, count: 2, with: [{type: core, count: 4}]}
""",
    "[cluster/slot=2{ib}/node/[memory=4{unit:GB};ib10g];switch/slot=2{bicore}/node/core=2]": """
- type: cluster
  count: 1
  with:
  - type: slot
    count: 2
    label: ib
    with:
    - type: node
      count: 1
      with:
      - {type: memory, count: 4, unit: GB}
      - {type: ib10g, count: 1}
- type: switch
  count: 1
  with:
  - type: slot
    count: 2
    label: bicore
    with:
    - type: node
      count: 1
      with:
      - {type: core, count: 2}
""",
    "cluster=2/slot/node=1+{-x}/core=30": """
- type: cluster
  count: 2
  with:
  - type: slot
    count: 1
    label: default
    with:
    - type: node
      count: {min: 1}
      exclusive: false
      with: [{type: core, count: 30}]
""",
    "switch=3/slot/node=1+{-x}/core": """
- type: switch
  count: 3
  with:
  - type: slot
    count: 1
    label: default
    with:
    - type: node
      count: {min: 1}
      exclusive: false
      with: [{type: core, count: 1}]
""",
    "slot=4,9,16,25/node": """
- {type: slot, count: "4,9,16,25", label: default, with: [{type: node, count: 1}]}
""",
    "slot=10/core=2": """
- {type: slot, count: 10, label: default, with: [{type: core, count: 2}]}
""",
    "node/[slot=10{read-db}/[core;memory=4{unit:GB}];slot{db}/[core=6;memory=24{unit:GB}]]": """
- type: node
  count: 1
  with:
  - type: slot
    count: 10
    label: read-db
    with:
    - {type: core, count: 1}
    - {type: memory, count: 4, unit: GB}
  - type: slot
    count: 1
    label: db
    with:
    - {type: core, count: 6}
    - {type: memory, count: 24, unit: GB}
""",
    "slot=10/[memory=2+{unit:GB};core]": """
- type: slot
  count: 10
  label: default
  with:
  - {type: memory, count: {min: 2}, unit: GB}
  - {type: core, count: 1}
""",
    "slot=2{4GB-node}/node/memory=4+{unit:GB}": """
- type: slot
  count: 2
  label: 4GB-node
  with:
  - type: node
    count: 1
    with:
    - {type: memory, count: {min: 4}, unit: GB}
""",
    "slot/node": """
- {type: slot, count: 1, label: default, with: [{type: node, count: 1}]}
""",
}


@pytest.mark.parametrize("shape", list(RFC46))
def test_rfc46_example_expands_exactly(shape):
    assert expand(shape) == y(RFC46[shape])


@pytest.mark.parametrize("shape", list(RFC46))
def test_rfc46_example_collapses_to_the_shape(shape):
    assert collapse(y(RFC46[shape])) == shape


def test_label_option_names_the_sole_slot():
    assert expand("slot/core", label="task")[0]["label"] == "task"
    assert collapse(expand("slot/core", label="task"), label="task") == "slot/core"
    assert collapse(expand("slot/core", label="task")) == "slot{task}/core"


@pytest.mark.parametrize(
    "shape,expected",
    [
        ("node{x}", [{"type": "node", "count": 1, "exclusive": True}]),
        ("node{+x}", [{"type": "node", "count": 1, "exclusive": True}]),
        ("node=[2]", [{"type": "node", "count": 2}]),
        ("[node]", [{"type": "node", "count": 1}]),
        (
            'node{"odd key":"a b",n:-1.5,z:null,t:true,s:"true"}',
            [
                {
                    "type": "node",
                    "count": 1,
                    "odd key": "a b",
                    "n": -1.5,
                    "z": None,
                    "t": True,
                    "s": "true",
                }
            ],
        ),
        (
            "gpu{props:{vendor:amd,+fast,-old},list:[1,'x',[2]]}",
            [
                {
                    "type": "gpu",
                    "count": 1,
                    "props": {"vendor": "amd", "fast": True, "old": False},
                    "list": [1, "x", [2]],
                }
            ],
        ),
        (
            'slot{"my slot"}/core',
            [
                {
                    "type": "slot",
                    "count": 1,
                    "label": "my slot",
                    "with": [{"type": "core", "count": 1}],
                }
            ],
        ),
    ],
)
def test_items_values_and_brackets(shape, expected):
    assert expand(shape) == expected
    assert expand(collapse(expected)) == expected


@pytest.mark.parametrize(
    "shape,start,end,words",
    [
        ("", 0, 0, "empty"),
        ("  ", 0, 0, "empty"),
        ("[node;core", 10, 10, "expected ';' or ']' at column 11, the end"),
        ("node{a:1", 8, 8, "expected ',' or '}' at column 9, the end"),
        ("node/", 5, 5, "expected a type, a quoted string or 'slot' at column 6"),
        ("node=0", 5, 6, "'0' cannot stand in a count (column 6)"),
        ("node=01", 5, 6, "without a leading zero"),
        ("node=0-4", 5, 6, "cannot stand in a count"),
        ("node=1-", 7, 7, "expected a number at column 8, the end"),
        ("node=2-64:1:*", 5, 13, "operand must be at least 2"),
        ("node=5-2", 5, 8, "below min"),
        ("node=5-2,7", 5, 10, "not one RFC 22 allows"),
        ("node=[1-3", 9, 9, "expected ']'"),
        ("slot", 4, 4, "must contain resources"),
        ("slot{a}", 7, 7, "must contain resources"),
        ("slot{a:1,b}/core", 5, 8, "label must come first"),
        ("slot{-x}/core", 5, 6, "label must come first"),
        ("slot{}/core", 5, 6, "label must come first"),
        ("[slot{a}/core;slot/gpu]", 14, 18, "each after the first needs a label"),
        ("node]", 4, 5, "expected the end but found ']'"),
        ("node{x}{y}", 7, 8, "found '{'"),
        ("no de", 3, 5, "found 'de'"),
        ("'node", 0, 5, "the quote ' at column 1 is not closed"),
        ("node{a:[1]}/[core]", 7, 18, "is not JSON"),
        ("node{a:[1,x]}", 7, 12, "is not JSON"),
        ("node\u00a0", 4, 5, "cannot stand here"),
        ("node}", 4, 5, "found '}'"),
    ],
)
def test_errors_have_offsets_and_say_what_was_expected(shape, start, end, words):
    with pytest.raises(ShapeError) as info:
        expand(shape)
    err = info.value
    assert (err.start, err.end) == (start, end), err.message
    assert words in err.message


@pytest.mark.parametrize(
    "resources,words",
    [
        ([{"type": "node", "count": "1-3"}], "would expand to a range mapping"),
        ([{"type": "node", "count": "4"}], "would expand to an integer"),
        ([{"type": "node", "count": {"min": 2, "max": 8}}], "no RFC 45 spelling"),
        ([{"type": "node", "count": 0}], "not positive"),
        ([{"type": "node"}], "has no count"),
        ([{"type": "slot", "count": 1, "label": "a"}], "without resources"),
        ([], "non-empty"),
    ],
)
def test_collapse_names_the_vertex_it_cannot_write(resources, words):
    with pytest.raises(ShapeError) as info:
        collapse(resources)
    assert words in info.value.message
    if resources:
        assert info.value.message.startswith("resources[0]") or "resources" in info.value.message


def test_shape_of_a_vertex():
    res = expand("node=2/slot=4{task}/[core=2;gpu]")
    assert shape_of(res[0]["with"][0], label="task") == "slot=4/[core=2;gpu]"
    assert shape_of(res[0]) == "node=2/slot=4{task}/[core=2;gpu]"


# ---------------------------------------------------------------- properties
names = st.from_regex(r"[a-z][a-z0-9\-]{0,6}", fullmatch=True).filter(
    lambda s: s not in ("x", "slot", "true", "false", "null") and not s.endswith("-")
)
counts = st.one_of(
    st.integers(1, 64),
    st.builds(
        lambda lo, d: {"min": lo, "max": lo + d, "operator": "+", "operand": 1},
        st.integers(1, 9),
        st.integers(1, 9),
    ),
    st.builds(lambda lo: {"min": lo}, st.integers(1, 9)),
    st.builds(
        lambda lo, k: {"min": lo, "max": lo * 2**k, "operator": "*", "operand": 2},
        st.integers(1, 4),
        st.integers(1, 4),
    ),
    st.sampled_from(["4,9,16,25", "1,3", "2-4,8"]),
)
extras = st.dictionaries(
    names.filter(lambda k: k not in ("type", "count", "with", "label")),
    st.one_of(st.booleans(), names, st.integers(-5, 5)),
    max_size=2,
)


def vertex(children):
    return st.builds(
        lambda t, c, e, x, kids: {
            "type": t,
            "count": c,
            **e,
            **({"exclusive": x} if x is not None else {}),
            **({"with": kids} if kids else {}),
        },
        names,
        counts,
        extras,
        st.one_of(st.none(), st.booleans()),
        children,
    )


trees = st.recursive(
    st.lists(vertex(st.just([])), min_size=1, max_size=3),
    lambda inner: st.lists(vertex(inner), min_size=1, max_size=3),
    max_leaves=8,
)


def add_slot(resources, label):
    """Wrap the first top vertex's children in a labelled slot (shapes need slots to be labelled)."""
    return [{"type": "slot", "count": 2, "label": label, "with": resources}]


@settings(max_examples=150, deadline=None)
@given(trees, st.one_of(st.none(), names))
def test_expand_collapse_round_trip(resources, label):
    if label is not None:
        resources = add_slot(resources, label)
    shape = collapse(resources)
    assert expand(shape) == resources


@settings(max_examples=150, deadline=None)
@given(trees)
def test_collapse_of_expand_is_stable(resources):
    shape = collapse(resources)
    once = collapse(expand(shape))
    assert once == shape
    assert collapse(expand(once)) == once


# ---------------------------------------------------------------- the engine and the CLI
def test_shape_string_resources_carry_the_expansion_for_a_quick_fix():
    text = (
        "version: 999\nresources: slot=4/node/core=2\ntasks:\n  - command: [a]\n"
        "    slot: default\n    count: {per_slot: 1}\nattributes: {}\n"
    )
    (d,) = [d for d in check(text) if d.code == "JS104"]
    assert d.data == {"shape": "slot=4/node/core=2", "resources": expand("slot=4/node/core=2")}
    text = text.replace("slot=4/node/core=2", "slot=4/node=0")
    (d,) = [d for d in check(text) if d.code == "JS104"]
    assert d.data is None and "not a valid shape" in d.message


def test_cli_expands_to_yaml_and_json():
    proc = run_cli("shape", "slot=3-30/node")
    assert proc.returncode == 0
    assert yaml.safe_load(proc.stdout) == y(RFC46["slot=3-30/node"])
    proc = run_cli("shape", "--format", "json", "--label", "task", "slot/core")
    assert json.loads(proc.stdout)[0]["label"] == "task"


def test_cli_error_echoes_the_shape_with_a_caret():
    proc = run_cli("shape", "slot=4/node/[socket=2;core=4")
    assert proc.returncode == 1
    err = proc.stderr.decode().splitlines()
    assert err[0] == "jobspec: error: expected ';' or ']' at column 29, the end"
    assert err[1] == "  slot=4/node/[socket=2;core=4"
    assert err[2] == "  " + " " * 28 + "^"


def test_cli_from_file(tmp_path):
    f = tmp_path / "j.yaml"
    f.write_text(
        "version: 1\nresources:\n  - type: node\n    count: 2\n    with:\n"
        "      - type: slot\n        count: 4\n        label: task\n        with:\n"
        "          - {type: core, count: 2}\ntasks: []\nattributes: {}\n"
    )
    proc = run_cli("shape", "--from", f, "--label", "task")
    assert proc.returncode == 0 and proc.stdout.decode().strip() == "node=2/slot=4/core=2"
    proc = run_cli("shape", "--from", f)
    assert proc.stdout.decode().strip() == "node=2/slot=4{task}/core=2"
    bad = tmp_path / "b.yaml"
    bad.write_text("resources: [{type: node, count: '1-3'}]\n")
    proc = run_cli("shape", "--from", bad)
    assert proc.returncode == 1 and "resources[0] (node)" in proc.stderr.decode()
    assert run_cli("shape").returncode == 2


def test_collapse_refuses_an_empty_count_string_with_its_reason():
    """An empty idset (count: '') has no shape: said as such, never a shape that
    expand then rejects."""
    res = [{"type": "slot", "count": 1, "label": "task", "with": [{"type": "core", "count": ""}]}]
    with pytest.raises(ShapeError) as info:
        collapse(res)
    assert "empty idset" in info.value.message and "resources[0].with[0]" in info.value.message


@pytest.mark.parametrize(
    "text,vtype",
    [('slot/"gpu:a100"=2', "gpu:a100"), ("slot/'gpu'=2", "gpu"), ('slot/"a b"', "a b")],
)
def test_a_quoted_vertex_type_is_read_as_flux_reads_it(text, vtype):
    """RFC 46 and Flux's own shape parser take any text in quotes as a type; collapse
    writes it back quoted when it is no plain name."""
    (slot,) = shape.expand(text)
    (child,) = slot["with"]
    assert child["type"] == vtype
    assert shape.expand(shape.collapse([slot])) == [slot]


def test_a_shape_nested_beyond_the_limit_is_refused_at_its_vertex():
    text = "/".join(["node"] * 200)
    with pytest.raises(shape.ShapeError) as err:
        shape.expand(text)
    assert "nests more than" in err.value.message
    # the vertex past the limit: the 101st 'node'
    assert err.value.start == len("node/") * formats.MAX_NESTING


def test_cli_a_200_level_shape_is_refused_cleanly():
    """Regression: a 200-level shape ended in a RecursionError traceback."""
    proc = run_cli("shape", "/".join(["node"] * 200))
    assert proc.returncode == 1
    err = proc.stderr.decode()
    assert "Traceback" not in err and "nests more than 100 levels" in err
    assert len(err) < 1000


# ---------------------------------------------------------------- as flux-core reads shapes
@pytest.mark.parametrize(
    "text,expected",
    [
        # x in braces is exclusive, even where it stands for a slot's label
        ("slot=2{x}/core", [{"type": "slot", "count": 2, "label": "exclusive",
                             "with": [{"type": "core", "count": 1}]}]),
        ("slot{'x'}/core", [{"type": "slot", "count": 1, "label": "x",
                             "with": [{"type": "core", "count": 1}]}]),
        # an empty count is no count; blanks around a count's parts are skipped
        ("node=", [{"type": "node", "count": 1}]),
        ("node=/core", [{"type": "node", "count": 1, "with": [{"type": "core", "count": 1}]}]),
        ("node= 2 - 4", [{"type": "node", "count": "2-4"}]),
        # ranges stay RFC 45 strings, idsets are not checked beyond Flux's lexer
        ("node=2+:2:*", [{"type": "node", "count": "2+:2:*"}]),
        ("node=2-64:1:*", [{"type": "node", "count": "2-64:1:*"}]),
        ("node=5-2,7", [{"type": "node", "count": "5-2,7"}]),
        # a key and a word keep the blanks after them; constants in any case
        ("node{x }", [{"type": "node", "count": 1, "x ": True}]),
        ("node{a: b }", [{"type": "node", "count": 1, "a": "b "}]),
        ("node{a: 1 }", [{"type": "node", "count": 1, "a": "1 "}]),
        ("node{a:TRUE,b:Null,c:1e5,d:1.,e:-0,f:01}",
         [{"type": "node", "count": 1, "a": True, "b": None, "c": 100000.0, "d": 1.0,
           "e": 0, "f": "01"}]),
        # the last of a key given twice wins, and braces may set the count or the type
        ("node{x,exclusive:false}", [{"type": "node", "count": 1, "exclusive": False}]),
        ("node{count:2}", [{"type": "node", "count": 2}]),
        ("slot{a,type:node}/core", [{"type": "node", "count": 1, "label": "a",
                                     "with": [{"type": "core", "count": 1}]}]),
        # a list is JSON with ' read as "
        ("node{a:[1,'s']}", [{"type": "node", "count": 1, "a": [1, "s"]}]),
        # a type is any run of characters but = { } [ ] / ; quotes and blanks
        ("gpu:a100,b=2", [{"type": "gpu:a100,b", "count": 2}]),
        ("SLOT/core", [{"type": "slot", "count": 1, "label": "task",
                        "with": [{"type": "core", "count": 1}]}]),
        ("'slot'=2/core", [{"type": "slot", "count": 2, "with": [{"type": "core", "count": 1}]}]),
        # only a slot after the first needs a label
        ("slot/slot{b}/core", [{"type": "slot", "count": 1, "label": "task", "with": [
            {"type": "slot", "count": 1, "label": "b", "with": [{"type": "core", "count": 1}]}]}]),
    ],
)  # fmt: skip
def test_shapes_read_as_flux_core_reads_them(text, expected):
    got = expand(text, label="task", as_flux=True)
    assert json.dumps(got, sort_keys=True) == json.dumps(expected, sort_keys=True)


def test_the_rfc_reading_checks_ranges_and_idsets_flux_keeps_as_strings():
    assert expand("node=2-4")[0]["count"] == {"min": 2, "max": 4, "operator": "+", "operand": 1}
    assert expand("node=2-4", as_flux=True)[0]["count"] == "2-4"
    for text in ("node=5-2", "node=2-64:1:*", "node=5-2,7"):
        with pytest.raises(ShapeError):
            expand(text)
        assert expand(text, as_flux=True)


@pytest.mark.parametrize(
    "resources,shape_text",
    [
        ([{"type": "a b", "count": 1}], '"a b"'),
        ([{"type": 'say "hi"', "count": 1}], "'say \"hi\"'"),
        ([{"type": "Slot", "count": 1}], '"Slot"'),
        ([{"type": "node", "count": 1, "k": "True"}], 'node{k:"True"}'),
        ([{"type": "node", "count": 1, "k": "12"}], 'node{k:"12"}'),
        ([{"type": "node", "count": 1, "k": [1, "s"]}], 'node{k:[1, "s"]}'),
        ([{"type": "node", "count": 1, "with": []}], "node{with:[]}"),
        ([{"type": "", "count": 1}], '""'),
        ([{"type": "slot", "count": 2, "k": 1}], '"slot"=2{k:1}'),  # no label: no slot
    ],
)
def test_collapse_quotes_what_flux_would_read_otherwise(resources, shape_text):
    assert collapse(resources) == shape_text
    assert expand(shape_text) == resources


@pytest.mark.parametrize(
    "resources",
    [
        [{"type": "a'b\"c", "count": 1}],  # both quotes: no shape says it
        [{"type": "node", "count": 1, "k": ["it's"]}],  # a list is read with ' as "
        [{"type": "node", "count": 1, "k": [1], "with": [{"type": "core", "count": 1,
                                                           "m": [2]}]}],  # the list runs on
    ],
)  # fmt: skip
def test_collapse_refuses_what_no_shape_reads_back(resources):
    with pytest.raises(ShapeError):
        collapse(resources)


def test_generated_shapes_read_or_refuse_cleanly_and_collapse_back():
    """Every generated shape (tests/shapegen.py) is read or refused with a ShapeError;
    one that reads collapses to a shape that reads back the same, or is refused."""
    from shapegen import noise, shapes

    read = 0
    for text in shapes(7, 600) + noise(7, 600):
        for as_flux in (False, True):
            try:
                got = expand(text, as_flux=as_flux)
            except ShapeError as err:
                assert 0 <= err.start <= err.end <= len(text), text
                continue
            read += 1
            if not as_flux:
                try:
                    again = collapse(got)
                except ShapeError:
                    continue
                assert expand(again) == got, (text, again)
    assert read > 300
