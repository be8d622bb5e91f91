"""idset, range, hostlist and FSD parsing (jobspec_lsp/notations/formats.py, grammars/*.lark)."""

import math
import subprocess
import sys

import pytest

from jobspec_lsp.notations import formats
from jobspec_lsp.notations.formats import FormatError

try:
    from hypothesis import given, settings
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover - hypothesis is in the test extra
    given = None


def raises(fn, text) -> FormatError:
    with pytest.raises(FormatError) as info:
        fn(text)
    return info.value


def check(err: FormatError, start, end, words):
    assert (err.start, err.end) == (start, end), err.message
    assert words in err.message
    assert "\n" not in err.message
    assert not any(name in err.message for name in ("ID_INT", "RANGE_INT", "RSQB", "$END"))


# --------------------------------------------------------------------------- idset
@pytest.mark.parametrize(
    "text,runs",
    [
        ("", []),
        ("0", [(0, 0)]),
        ("1", [(1, 1)]),
        ("1-3,5", [(1, 3), (5, 5)]),
        ("[1-3,5-6,42]", [(1, 3), (5, 6), (42, 42)]),
        ("[7]", [(7, 7)]),
        ("0-1", [(0, 1)]),
        ("1-3,4-5", [(1, 3), (4, 5)]),  # adjacent runs are still ascending
        ("4,9,16,25", [(4, 4), (9, 9), (16, 16), (25, 25)]),
        ("10-999999999999999999", [(10, 999999999999999999)]),
    ],
)
def test_idset_valid(text, runs):
    assert formats.parse_idset(text) == runs


@pytest.mark.parametrize(
    "text,start,end,words",
    [
        # syntax
        ("1,,2", 2, 3, "expected a number but found ',' at column 3"),
        ("1,", 2, 2, "expected a number at column 3, the end"),
        ("1,2,", 4, 4, "expected a number at column 5, the end"),
        (",1", 0, 1, "found ','"),
        (
            "[1-3",
            4,
            4,
            "expected ',' or ']' at column 5, the end; the '[' at column 1 is not closed",
        ),
        ("[", 1, 1, "expected a number at column 2, the end"),
        ("[]", 1, 2, "expected a number but found ']'"),
        (
            "1-3]",
            3,
            4,
            "expected ',' or the end but found ']' at column 4; there is no '[' for "
            "this ']' to close",
        ),
        ("]", 0, 1, "no '[' for this ']'"),
        ("[1]]", 3, 4, "no '[' for this ']'"),
        ("[[1]]", 1, 2, "brackets do not nest"),
        ("[1][2]", 3, 4, "only one pair of brackets"),
        ("1x", 1, 2, "expected ',', '-' or the end but found 'x' at column 2"),
        ("1-", 2, 2, "expected a number at column 3, the end"),
        ("1--2", 2, 3, "expected a number but found '-'"),
        ("-1", 0, 1, "found '-'"),
        ("0x10", 1, 2, "found 'x'"),
        ("1 2", 1, 2, "found ' '"),
        (" 1", 0, 1, "found ' '"),
        ("1\n", 1, 2, "found '\\n'"),
        ("é", 0, 1, "found 'é'"),
        # values
        ("3-3", 0, 3, "range 3-3 has the same number at both ends; write 3"),
        ("5-2", 0, 3, "range 5-2 is descending"),
        ("07", 0, 2, "leading zero in '07'; write 7"),
        ("1-07", 2, 4, "leading zero in '07'"),
        ("00", 0, 2, "leading zero in '00'; write 0"),
        ("2,1", 2, 3, "ascending"),
        ("1,1", 2, 3, "1 is not above 1"),
        ("1-5,3", 4, 5, "3 is not above 5"),
        ("1-5,4-7", 4, 7, "4-7 is not above 5"),
        ("1" * 19, 0, 19, "too large"),
    ],
)
def test_idset_errors_are_positioned(text, start, end, words):
    check(raises(formats.parse_idset, text), start, end, words)


def test_expected_is_a_list_of_words():
    err = raises(formats.parse_idset, "1x")
    assert err.expected == ["','", "'-'", "the end"]
    assert raises(formats.parse_idset, "5-2").expected == []
    assert isinstance(err, ValueError) and str(err) == err.message


@pytest.mark.parametrize(
    "runs,text",
    [
        ([], ""),
        ([(1, 3), (5, 5)], "1-3,5"),
        ([(0, 0), (2, 3), (7, 100)], "0,2-3,7-100"),
        ([4, (6, 8)], "4,6-8"),
    ],
)
def test_format_idset(runs, text):
    assert formats.format_idset(runs) == text


@pytest.mark.parametrize("text", ["", "0", "1-3,5", "0,2-3,7-100", "4,9,16,25"])
def test_idset_round_trips(text):
    assert formats.format_idset(formats.parse_idset(text)) == text


# --------------------------------------------------------------------------- range
@pytest.mark.parametrize(
    "text,expected",
    [
        ("3-30", {"min": 3, "max": 30, "operator": "+", "operand": 1}),
        ("2+", {"min": 2}),
        ("100+", {"min": 100}),
        ("0+", {"min": 0}),
        ("1-4", {"min": 1, "max": 4, "operator": "+", "operand": 1}),
        ("1-5:2", {"min": 1, "max": 5, "operator": "+", "operand": 2}),
        ("1-5:2:+", {"min": 1, "max": 5, "operator": "+", "operand": 2}),
        ("1-5:1", {"min": 1, "max": 5, "operator": "+", "operand": 1}),
        ("2+:2:*", {"min": 2, "operator": "*", "operand": 2}),
        ("2+:3", {"min": 2, "operator": "+", "operand": 3}),
        ("2+:1", {"min": 2}),  # the default step is left out
        ("2+:1:+", {"min": 2}),
        ("2-64:2:*", {"min": 2, "max": 64, "operator": "*", "operand": 2}),
        ("2-256:2:^", {"min": 2, "max": 256, "operator": "^", "operand": 2}),
        ("4-4", {"min": 4, "max": 4, "operator": "+", "operand": 1}),
        ("[1-4]", {"min": 1, "max": 4, "operator": "+", "operand": 1}),
        ("[2+:2:*]", {"min": 2, "operator": "*", "operand": 2}),
    ],
)
def test_range_valid(text, expected):
    assert formats.parse_range(text) == expected
    assert formats.parse_range(formats.format_range(expected)) == expected


@pytest.mark.parametrize(
    "text", ["3-30", "2+", "100+", "1-5:2", "2+:2:*", "2-64:2:*", "2-256:2:^", "1-4", "2+:3", "0+"]
)
def test_range_round_trips(text):
    assert formats.format_range(formats.parse_range(text)) == text


@pytest.mark.parametrize(
    "d,text",
    [
        ({"min": 3, "max": 30, "operator": "+", "operand": 1}, "3-30"),
        ({"min": 3, "max": 30}, "3-30"),
        ({"min": 2}, "2+"),
        ({"min": 2, "operator": "+", "operand": 1}, "2+"),
        ({"min": 1, "max": 5, "operator": "+", "operand": 2}, "1-5:2"),
        ({"min": 2, "max": 64, "operator": "*", "operand": 2}, "2-64:2:*"),
    ],
)
def test_format_range_is_shortest(d, text):
    assert formats.format_range(d) == text


@pytest.mark.parametrize(
    "text,start,end,words",
    [
        ("1-5:1:^", 4, 5, "with operator '^' the operand must be at least 2"),
        ("2-4:1:*", 4, 5, "with operator '*' the operand must be at least 2"),
        ("1-5:2:^", 0, 1, "with operator '^' min must be at least 2"),
        ("1-5:0", 4, 5, "operand must be at least 1"),
        ("1-5:2:%", 6, 7, "expected '*', '+' or '^' but found '%' at column 7"),
        ("8-4", 2, 3, "max 4 is below min 8"),
        ("2-", 2, 2, "expected a number at column 3, the end"),
        ("", 0, 0, "expected '[' or a number, not an empty string"),
        ("1", 1, 1, "expected '+' or '-' at column 2, the end"),
        ("01-4", 0, 2, "leading zero in '01'"),
        ("1-4:02", 4, 6, "leading zero"),
        (
            "[1-3",
            4,
            4,
            "expected ':' or ']' at column 5, the end; the '[' at column 1 is not closed",
        ),
        ("1-3]", 3, 4, "no '[' for this ']'"),
        ("1-2:3:+x", 7, 8, "unexpected 'x' at column 8"),
        ("1+2", 2, 3, "expected ':' or the end but found '2'"),
        ("1-5:", 4, 4, "expected a number"),
        ("1-5:2:", 6, 6, "expected '*', '+' or '^' at column 7, the end"),
        ("1,2", 1, 2, "expected '+' or '-' but found ','"),
        ("2+" + "9" * 30, 2, 32, "expected ':' or the end but found '99999"),
        ("1-" + "9" * 19, 2, 21, "too large"),
    ],
)
def test_range_errors(text, start, end, words):
    check(raises(formats.parse_range, text), start, end, words)


# --------------------------------------------------------------------------- count strings
def test_count_string_tries_idset_then_range():
    assert formats.parse_count_string("4") == ("idset", [(4, 4)])
    assert formats.parse_count_string("3-30") == ("idset", [(3, 30)])
    assert formats.parse_count_string("") == ("idset", [])
    assert formats.parse_count_string("1-5:2") == (
        "range",
        {"min": 1, "max": 5, "operator": "+", "operand": 2},
    )
    assert formats.parse_count_string("2+") == ("range", {"min": 2})


@pytest.mark.parametrize(
    "text,start,end,words",
    [
        # the range got further (to the operator) than the idset (to the ':')
        ("1-5:2:%", 6, 7, "not an idset or range: expected '*', '+' or '^' but found '%'"),
        # the idset got further (to the x) than the range (to the first ',')
        ("1,2,x", 4, 5, "not an idset or range: expected a number but found 'x'"),
        # both stopped at the same place: what either would take
        ("1x", 1, 2, "not an idset or range: expected '+', ',', '-' or the end but found 'x'"),
        ("x", 0, 1, "not an idset or range: expected '[', a number or the end but found 'x'"),
        ("[1-3", 4, 4, "expected ',', ':' or ']' at column 5, the end"),
        # same place, same words: said once, without naming both forms
        ("1-", 2, 2, "expected a number at column 3, the end"),
        # a wrong value means the syntax fitted to the end: that form wins
        ("8-4:2", 2, 3, "max 4 is below min 8"),
        ("1-5:1:^", 4, 5, "operand must be at least 2"),
        ("07", 0, 2, "leading zero in '07'"),
        # both wrong values: a tie, so the idset's
        ("5-2", 0, 3, "range 5-2 is descending"),
    ],
)
def test_count_string_error_choice(text, start, end, words):
    check(raises(formats.parse_count_string, text), start, end, words)


def test_count_string_lead_is_left_out_of_short():
    err = raises(formats.parse_count_string, "1-5:2:%")
    assert err.message.startswith("not an idset or range: ")
    assert err.short == "expected '*', '+' or '^' but found '%'"
    err = raises(formats.parse_count_string, "1-")
    assert err.message == "expected a number at column 3, the end"
    assert err.short == "expected a number at the end"


# --------------------------------------------------------------------------- hostlist
@pytest.mark.parametrize(
    "text,terms,count",
    [
        ("foo[0-4]-eth2", [("foo", [("0", "4")], "-eth2")], 5),
        ("foo[1,1,2,1]", [("foo", [("1", "1"), ("1", "1"), ("2", "2"), ("1", "1")], "")], 4),
        ("host[0-1]", [("host", [("0", "1")], "")], 2),
        ("foo[00-2]", [("foo", [("00", "2")], "")], 3),
        ("node[01-16],login1", [("node", [("01", "16")], ""), ("login1", None, "")], 17),
        ("node[00-02]x,login", [("node", [("00", "02")], "x"), ("login", None, "")], 4),
        ("[1-3]", [("", [("1", "3")], "")], 3),
        ("[1]x", [("", [("1", "1")], "x")], 1),
        ("n[5,1-2]", [("n", [("5", "5"), ("1", "2")], "")], 3),
        ("n[3-3]", [("n", [("3", "3")], "")], 1),
        ("a.b-c_d!~", [("a.b-c_d!~", None, "")], 1),
        ("", [], 0),
    ],
)
def test_hostlist_valid(text, terms, count):
    assert formats.parse_hostlist(text) == terms
    assert formats.hostlist_count(text) == count
    assert formats.hostlist_count(terms) == count


def test_hostlist_counts_without_expanding():
    assert formats.hostlist_count("n[0-999999999999]") == 10**12


@pytest.mark.parametrize(
    "text,start,end,words",
    [
        ("node[1-4", 8, 8, "expected ',' or ']' at column 9, the end; the '[' at column 5"),
        ("node1-4]", 7, 8, "no '[' for this ']'"),
        ("a[1]b[2]", 5, 6, "at most one [...] group"),
        ("n[[1]]", 2, 3, "brackets do not nest"),
        ("a b", 1, 2, "found ' '"),
        ("n[3-1]", 2, 5, "range 3-1 is descending"),
        ("n[]", 2, 3, "expected a number but found ']'"),
        ("n[1,]", 4, 5, "expected a number"),
        ("n[a]", 2, 3, "expected a number but found 'a'"),
        ("a,,b", 2, 3, "found ','"),
        ("a,", 2, 2, "expected '[' or a host name at column 3, the end"),
        ("é", 0, 1, "found 'é'"),
        ("n[" + "1" * 19 + "]", 2, 21, "too large"),
    ],
)
def test_hostlist_errors(text, start, end, words):
    check(raises(formats.parse_hostlist, text), start, end, words)


# --------------------------------------------------------------------------- FSD
@pytest.mark.parametrize(
    "text,seconds",
    [
        ("2ms", 0.002),
        ("0.1s", 0.1),
        ("30", 30),
        ("1.2h", 4320),
        ("5m", 300),
        ("5d", 432000),
        ("1", 1),
        ("1.5", 1.5),
        (".5", 0.5),
        ("2.", 2.0),
        ("1e3", 1000.0),
        ("1.5e-3s", 0.0015),
        ("0", 0),
        ("0.5d", 43200),
        ("1e3ms", 1.0),
        ("inf", math.inf),
        ("INF", math.inf),
        ("infinity", math.inf),
        ("Infinity", math.inf),
        ("INFINITY", math.inf),
        ("1e999", math.inf),  # as strtod reads it
    ],
)
def test_fsd_valid(text, seconds):
    assert formats.parse_fsd(text) == pytest.approx(seconds)


@pytest.mark.parametrize(
    "text,start,end,words",
    [
        ("0x10", 1, 2, "expected a unit (ms, s, m, h or d) or the end but found 'x'"),
        ("1h2", 2, 3, "unexpected '2' at column 3; the unit comes last"),
        ("-1s", 0, 1, "a duration cannot be negative"),
        ("5 m", 1, 2, "no spaces in a duration"),
        ("infs", 3, 4, "unexpected 's' at column 4; infinity takes no unit"),
        ("inf s", 3, 4, "unexpected ' '"),
        ("", 0, 0, "expected 'inf' or a number, not an empty string"),
        ("1H", 1, 2, "found 'H'"),
        ("1min", 2, 3, "unexpected 'i' at column 3; the units are ms, s, m, h and d"),
        ("h", 0, 1, "expected 'inf' or a number but found 'h'"),
        (".", 0, 1, "found '.'"),
        ("nan", 0, 1, "found 'n'"),
        (" 1", 0, 1, "found ' '"),
        ("1e999s", 0, 6, "too large for a duration"),
    ],
)
def test_fsd_errors(text, start, end, words):
    check(raises(formats.parse_fsd, text), start, end, words)


# --------------------------------------------------------------------------- robustness
@pytest.mark.parametrize(
    "fn",
    [
        formats.parse_idset,
        formats.parse_range,
        formats.parse_hostlist,
        formats.parse_fsd,
        formats.parse_count_string,
    ],
)
@pytest.mark.parametrize("bad", [None, 3, b"1-3", ["1"]])
def test_non_strings_are_format_errors(fn, bad):
    raises(fn, bad)


def test_hostlist_count_of_a_non_string_is_a_format_error():
    raises(formats.hostlist_count, None)


LONG = [
    ",".join(str(i * 2) for i in range(2000))[:10000].rstrip(","),
    "1" * 10000,
    "0" * 10000,
    "[" * 10000,
    "]" * 10000,
    "1," * 5000,
    "1-" * 5000,
    "a" * 10000,
    "é" * 10000,
    " " * 10000,
    "n[" + "1," * 4998 + "1]",
]


@pytest.mark.parametrize(
    "fn",
    [
        formats.parse_idset,
        formats.parse_range,
        formats.parse_hostlist,
        formats.parse_fsd,
        formats.parse_count_string,
    ],
)
def test_long_inputs_are_clean(fn):
    # (how fast: benchmarks/, never a timed test)
    for text in LONG:
        try:
            fn(text)
        except FormatError as err:
            assert 0 <= err.start <= err.end <= len(text)
            assert len(err.message) < 300


def test_long_valid_inputs():
    big = ",".join(str(i * 2) for i in range(3000))
    assert len(formats.parse_idset(big)) == 3000
    assert formats.hostlist_count("n[" + ",".join(map(str, range(3000))) + "]") == 3000


def test_import_is_cheap_and_builds_no_parser():
    code = (
        "import sys, jobspec_lsp.notations.formats as f\n"
        "assert 'lark' not in sys.modules, 'lark imported'\n"
        "assert f.parser.cache_info().currsize == 0\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_parsers_are_built_once():
    formats.parse_fsd("1")
    assert formats.parser("fsd") is formats.parser("fsd")


# --------------------------------------------------------------------------- grammars
def test_grammar_dir_holds_the_grammars():
    where = formats.grammar_dir()
    for name in ("idset", "range", "hostlist", "fsd"):
        assert (where / f"{name}.lark").is_file()


def test_grammar_rules_can_be_imported_by_another_grammar():
    from lark import Lark

    text = r"""
        start: "ids=" idset | "range=" range | "hosts=" hostlist | "time=" fsd
        %import idset (idset)
        %import range (range)
        %import hostlist (hostlist)
        %import fsd (fsd)
    """
    p = Lark(text, parser="lalr", import_paths=formats._import_paths())
    ids = p.parse("ids=[1-3,5]").children[0]
    assert ids.data == "idset"
    assert [str(t) for t in ids.scan_values(lambda v: True)] == ["1", "3", "5"]
    assert next(ids.find_data("idset__idset_item"))
    assert p.parse("range=2-64:2:*").children[0].data == "range"
    assert p.parse("hosts=foo[0-4]-eth2,bar").children[0].data == "hostlist"
    assert p.parse("time=1.5h").children[0].data == "fsd"


# --------------------------------------------------------------------------- properties
if given is not None:

    def _runs(pairs):
        out, cur = [], -1
        for gap, width in pairs:
            lo = cur + 1 + gap
            out.append((lo, lo + width))
            cur = lo + width
        return out

    runs_strategy = st.lists(
        st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)), max_size=20
    ).map(_runs)

    @given(runs_strategy)
    def test_idset_round_trip_property(runs):
        text = formats.format_idset(runs)
        assert formats.parse_idset(text) == runs
        assert formats.parse_idset(f"[{text}]" if text else "") == runs
        assert formats.parse_count_string(text) == ("idset", runs)

    @given(
        st.integers(0, 10**6),
        st.one_of(st.none(), st.integers(0, 10**6)),
        st.sampled_from(["+", "*", "^"]),
        st.integers(0, 100),
    )
    def test_range_round_trip_property(lo, extra, op, operand):
        d = {"min": lo, "operator": op, "operand": operand}
        if extra is not None:
            d["max"] = lo + extra
        text = formats.format_range(d)
        if operand < 1 or op in "*^" and operand < 2 or op == "^" and lo < 2:
            with pytest.raises(FormatError):
                formats.parse_range(text)
            return
        back = formats.parse_range(text)
        assert formats.format_range(back) == text
        assert back["min"] == lo and back.get("max") == d.get("max")
        assert (back.get("operator", "+"), back.get("operand", 1)) == (op, operand)

    NOISE = st.text(alphabet="0123456789,-+:*^[]xmshd.e é\t", max_size=30)

    @settings(max_examples=300)
    @given(NOISE)
    def test_any_text_parses_or_raises_a_positioned_format_error(text):
        for fn in (
            formats.parse_idset,
            formats.parse_range,
            formats.parse_hostlist,
            formats.parse_fsd,
            formats.parse_count_string,
        ):
            try:
                fn(text)
            except FormatError as err:
                assert 0 <= err.start <= err.end <= len(text)
                if err.start < len(text):
                    assert err.end > err.start
                else:
                    assert err.start == err.end == len(text)
                assert err.message and "\n" not in err.message
                assert "__" not in err.message and "$END" not in err.message


@settings(max_examples=3000)
@given(st.text(alphabet="0123456789.eE+-smhdinftyINFTY ", max_size=10))
def test_the_duration_fast_path_reads_the_grammars_language(text):
    """parse_fsd reads a well-formed duration with one regular expression (no parser to
    load: the CLI starts faster) and everything else with grammars/fsd.lark: the two take
    exactly the same texts."""
    try:
        formats._parse("fsd", text)
        grammar = True
    except formats.FormatError:
        grammar = False
    assert (formats._FSD_TEXT.match(text) is not None) == grammar


def test_the_grammar_cache_is_only_ever_in_the_users_own_directory(tmp_path, monkeypatch):
    """Lark's cache is a pickle (code runs when it loads): kept in the user's own cache
    folder (0700), never where someone else could plant one (a /tmp of a login node)."""
    import os

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    where = formats._private_cache("fsd")
    folder = tmp_path / "jobspec-lsp" / "lark"
    assert isinstance(where, str) and os.path.dirname(where) == str(folder)
    assert (folder.stat().st_mode & 0o777) == 0o700
    folder.chmod(0o777)  # writable by others: no cache at all
    assert formats._private_cache("fsd") is False
    monkeypatch.setenv("XDG_CACHE_HOME", "/proc/nowhere")  # cannot be made: no cache
    assert formats._private_cache("fsd") is False
