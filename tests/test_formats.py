"""idset, range, hostlist and FSD parsing (the lark grammars in grammars/)."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jobspec_lsp import formats
from jobspec_lsp.formats import FormatError


@pytest.mark.parametrize("text,runs", [
    ("", []), ("0", [(0, 0)]), ("1", [(1, 1)]), ("1-3,5", [(1, 3), (5, 5)]),
    ("[1-3,5-6,42]", [(1, 3), (5, 6), (42, 42)]), ("4,9,16,25", [(4, 4), (9, 9), (16, 16), (25, 25)]),
])
def test_idset_valid(text, runs):
    assert formats.parse_idset(text) == runs


@pytest.mark.parametrize("text,start,end,words", [
    ("07", 0, 2, "leading zero"),
    ("3-3", 0, 3, "empty"),
    ("5-2", 0, 3, "descending"),
    ("1,,2", 2, 3, "expected a number but found ','"),
    ("1,", 2, 2, "expected a number at column 3, the end"),
    ("[1-3", 4, 4, "expected ']'"),
    ("1-3]", 3, 4, "unexpected ']'"),
    ("2,1", 2, 3, "ascending"),
    ("1-5,3", 4, 5, "ascending"),
    ("[[1]]", 1, 2, "expected"),
    ("1 2", 1, 2, "found ' '"),
    ("é", 0, 1, "found 'é'"),
])
def test_idset_errors_are_positioned(text, start, end, words):
    with pytest.raises(FormatError) as info:
        formats.parse_idset(text)
    err = info.value
    assert (err.start, err.end) == (start, end)
    assert words in err.message


@pytest.mark.parametrize("text,expected", [
    ("3-30", {"min": 3, "max": 30, "operator": "+", "operand": 1}),
    ("2+", {"min": 2}),
    ("1-5:2", {"min": 1, "max": 5, "operator": "+", "operand": 2}),
    ("2+:2:*", {"min": 2, "operator": "*", "operand": 2}),
    ("2-64:2:*", {"min": 2, "max": 64, "operator": "*", "operand": 2}),
    ("2-256:2:^", {"min": 2, "max": 256, "operator": "^", "operand": 2}),
    ("[1-4]", {"min": 1, "max": 4, "operator": "+", "operand": 1}),
])
def test_range_valid_and_round_trips(text, expected):
    assert formats.parse_range(text) == expected
    assert formats.parse_range(formats.format_range(expected)) == expected


@pytest.mark.parametrize("text,start,end,words", [
    ("1-5:1:^", 4, 5, "operand must be at least 2"),
    ("2-4:1:*", 4, 5, "operand must be at least 2"),
    ("1-5:2:^", 0, 1, "min must be at least 2"),
    ("1-5:2:%", 6, 7, "expected '*', '+' or '^'"),
    ("8-4", 2, 3, "below min"),
    ("2-", 2, 2, "expected a number at column 3, the end"),
    ("", 0, 0, "expected"),
    ("01-4", 0, 2, "leading zero"),
])
def test_range_errors(text, start, end, words):
    with pytest.raises(FormatError) as info:
        formats.parse_range(text)
    assert (info.value.start, info.value.end) == (start, end)
    assert words in info.value.message


def test_count_string_picks_the_error_that_got_further():
    assert formats.parse_count_string("4") == ("idset", [(4, 4)])
    assert formats.parse_count_string("1-5:2")[0] == "range"
    with pytest.raises(FormatError) as info:
        formats.parse_count_string("1-5:2:%")   # the range got to the operator
    assert info.value.start == 6
    with pytest.raises(FormatError) as info:
        formats.parse_count_string("1,2,x")     # the idset got to the x
    assert info.value.start == 4


@pytest.mark.parametrize("text,terms,count", [
    ("foo[0-4]-eth2", [("foo", [("0", "4")], "-eth2")], 5),
    ("foo[1,1,2,1]", [("foo", [("1", "1"), ("1", "1"), ("2", "2"), ("1", "1")], "")], 4),
    ("host[0-1]", [("host", [("0", "1")], "")], 2),
    ("node[00-02]x,login", [("node", [("00", "02")], "x"), ("login", None, "")], 4),
    ("[1-3]", [("", [("1", "3")], "")], 3),
    ("", [], 0),
])
def test_hostlist_valid(text, terms, count):
    assert formats.parse_hostlist(text) == terms
    assert formats.hostlist_count(text) == count


def test_hostlist_counts_without_expanding():
    assert formats.hostlist_count("n[0-999999999]") == 1_000_000_000


@pytest.mark.parametrize("text,start,end", [
    ("node[1-4", 8, 8), ("a[1]b[2]", 5, 6), ("a b", 1, 2), ("n[3-1]", 2, 5), ("n[]", 2, 3),
    ("a,,b", 2, 3),
])
def test_hostlist_errors(text, start, end):
    with pytest.raises(FormatError) as info:
        formats.parse_hostlist(text)
    assert (info.value.start, info.value.end) == (start, end)


@pytest.mark.parametrize("text,seconds", [
    ("2ms", 0.002), ("0.1s", 0.1), ("30", 30), ("1.2h", 4320), ("5m", 300), ("5d", 432000),
    (".5", 0.5), ("2.", 2.0), ("1e3", 1000.0), ("inf", math.inf), ("INF", math.inf),
    ("infinity", math.inf),
])
def test_fsd_valid(text, seconds):
    assert formats.parse_fsd(text) == pytest.approx(seconds)


@pytest.mark.parametrize("text,start", [
    ("0x10", 1), ("1h2", 2), ("-1s", 0), ("5 m", 1), ("infs", 3), ("", 0), ("1H", 1), ("h", 0),
])
def test_fsd_errors(text, start):
    with pytest.raises(FormatError) as info:
        formats.parse_fsd(text)
    assert info.value.start == start


def test_long_inputs_are_fast_and_clean():
    big = ",".join(str(i * 2) for i in range(3000))
    assert len(formats.parse_idset(big)) == 3000
    with pytest.raises(FormatError):
        formats.parse_idset("1" * 10000)      # too large, not a crash
    with pytest.raises(FormatError):
        formats.parse_hostlist("[" * 10000)


runs_strategy = st.lists(st.tuples(st.integers(0, 50), st.integers(0, 50)), max_size=12).map(
    lambda pairs: _normalise(pairs))


def _normalise(pairs):
    out, cur = [], -2
    for gap, width in pairs:
        lo = cur + 2 + gap
        hi = lo + width
        out.append((lo, hi))
        cur = hi
    return out


@given(runs_strategy)
def test_idset_round_trip_property(runs):
    assert formats.parse_idset(formats.format_idset(runs)) == [
        (lo, hi) for lo, hi in runs]


@given(st.integers(1, 10**6), st.one_of(st.none(), st.integers(0, 10**6)),
       st.sampled_from(["+", "*", "^"]), st.integers(1, 100))
def test_range_round_trip_property(lo, extra, op, operand):
    d = {"min": lo}
    if extra is not None:
        d["max"] = lo + extra
    if op != "+" or operand != 1 or extra is not None:
        d["operator"], d["operand"] = op, operand
    if op in "*^" and operand < 2 or op == "^" and lo < 2:
        with pytest.raises(FormatError):
            formats.parse_range(formats.format_range(d))
        return
    expected = {k: d[k] for k in ("min", "max", "operator", "operand") if k in d}
    if "max" in expected and "operator" not in expected:
        expected.update(operator="+", operand=1)
    assert formats.parse_range(formats.format_range(d)) == expected
