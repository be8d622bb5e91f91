"""RFC 35 constraint queries: the grammar, the precedence, positioned errors."""

import pytest

from jobspec_lsp.notations import constraint
from jobspec_lsp.notations.constraint import ConstraintError, normalize, parse

P = lambda *names: {"properties": list(names)}


# RFC 35's own examples, with flux-core's default operator (properties) for "name"
@pytest.mark.parametrize(
    "query,expected",
    [
        ("foo", P("foo")),
        ("foo bar", P("foo", "bar")),
        ("foo bar host:started", {"and": [P("foo", "bar"), {"hostlist": ["started"]}]}),
        ("a|b|c", {"or": [P("a"), P("b"), P("c")]}),
        ("a|b&c", {"or": [P("a"), P("b", "c")]}),
        ("(a|b)&c", {"and": [{"or": [P("a"), P("b")]}, P("c")]}),
        ("(a|-b)&c", {"and": [{"or": [P("a"), {"not": [P("b")]}]}, P("c")]}),
    ],
)
def test_rfc35_examples(query, expected):
    assert parse(query) == expected


@pytest.mark.parametrize(
    "query,expected",
    [
        ("a && b", P("a", "b")),
        ("a and b", P("a", "b")),
        ("a || b", {"or": [P("a"), P("b")]}),
        ("a or b", {"or": [P("a"), P("b")]}),
        ("not a", {"not": [P("a")]}),
        ("-host:vm", {"not": [{"hostlist": ["vm"]}]}),
        ("rank:0-3", {"ranks": ["0-3"]}),
        ("hosts:n[1-2]", {"hostlist": ["n[1-2]"]}),
        ("a,b", P("a", "b")),
        ("^gpu", P("^gpu")),
        ("'a b'", P("a b")),
        ("host:'vm'", {"hostlist": ["vm"]}),
        ("host: vm", {"hostlist": ["vm"]}),
        ("android nothing order", P("android", "nothing", "order")),  # words, not operators
        ("a|b c", {"and": [{"or": [P("a"), P("b")]}, P("c")]}),  # as flux-core groups it
        ("a|b -c", {"or": [P("a"), {"and": [P("b"), {"not": [P("c")]}]}]}),
        ("not a|b", {"or": [{"not": [P("a")]}, P("b")]}),
    ],
)
def test_operators_and_precedence(query, expected):
    assert normalize(parse(query)) == expected


@pytest.mark.parametrize(
    "query,at,words",
    [
        ("-(a|b)", "(", "negates a single term"),
        ("(a", "(", "never closed"),
        ("a)", ")", "closes nothing"),
        ('x "abc', '"', "never closed"),
        ("color:red", "color", "unknown operator 'color'"),
        ("host:n[1-", None, "not a valid hostlist"),
        ("rank:3-1", "3-1", "not a valid rank idset"),
        ("ssd gpu|fa!st", "!", "cannot be part of a property name"),
        ("a,,b", None, "empty property name"),
        ("a &", None, "ends where a term was expected"),
        ("a & | b", "|", "expected a term"),
    ],
)
def test_errors_point_at_the_character(query, at, words):
    with pytest.raises(ConstraintError) as info:
        parse(query)
    err = info.value
    assert words in err.message
    assert 0 <= err.start <= err.end <= len(query)
    if at is not None:
        assert query[err.start : err.end] == at


def test_the_grammar_ships_with_the_package():
    assert "seq:" in constraint.formats.grammar_text("constraint")
