"""The one scanner of open flow brackets (text/brackets.py) and the table of what a
path names (jobspec/context.kind_of), both shared by several readers (issue 23)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jobspec_lsp.jobspec.context import kind_of
from jobspec_lsp.text.brackets import open_brackets


@pytest.mark.parametrize(
    "text,kwargs,want",
    [
        ("{a: [1, 2", {}, [0, 4]),
        ("{a: [1, 2]", {}, [0]),
        ("{a: '[', b: \"{\"", {}, [0]),  # brackets in quotes do not count
        ('{"a": "\\"[", "b": [', {"quotes": '"'}, [0, 18]),  # an escaped quote stays inside
        ("{a: 'it''s [', b: [", {}, [0, 18]),  # a doubled quote closes and reopens
        ("[1, # a comment [\n", {"comments": True}, [0]),
        ("[1, # a comment [\n", {}, [0, 16]),
        ("[1, a#b [", {"comments": True}, [0, 8]),  # '#' inside a word starts no comment
        ("{'x': 1} [", {"quotes": '"'}, [9]),  # JSON: an apostrophe is not a quote
        ("[[[", {"end": 2}, [0, 1]),
        ("]]}{", {}, [3]),  # unmatched closers are passed over
    ],
)
def test_open_brackets(text, kwargs, want):
    end = kwargs.pop("end", None)
    assert open_brackets(text, end, **kwargs) == want


@given(st.recursive(st.integers() | st.text(max_size=5), lambda c: st.lists(c, max_size=3)))
def test_a_whole_json_value_leaves_nothing_open_and_every_prefix_what_it_opened(value):
    text = json.dumps(value)
    assert open_brackets(text, quotes='"') == []
    for end in range(len(text)):
        for i in open_brackets(text, end, quotes='"'):
            assert text[i] == "[" and i < end


@pytest.mark.parametrize(
    "path,kind",
    [
        ((), "root"),
        (("resources", 0), "vertex"),
        (("resources", 0, "with", 1, "with", 0), "vertex"),
        (("resources", 0, "with", 1, "count"), "count"),
        (("resources", 0, "with"), None),
        (("tasks", 2, "count", "per_resource"), "task.count.per_resource"),
        (("attributes", "system", "constraints", "and", 0, "or", 1), "constraint"),
        (("attributes", "system", "constraints", "and"), None),
        (("attributes", "system", "files", "etc/app.conf"), "file"),  # a '/' in a key
        (("attributes", "system", "files", ""), "file"),
        (("attributes", "system", "dependencies", 0), "dependency"),
        (("attributes", "system", "shell", "options"), "shell.options"),
        (("attributes", "system", "job"), "job"),
        (("attributes", "user"), "user"),
        (("attributes", "#"), None),
        (("resources", "#"), None),  # a key named '#' is not an index
        (("resources", True), None),  # nor is a boolean
    ],
)
def test_kind_of(path, kind):
    assert kind_of(path) == kind
