"""`--target fluxion` in process: each class of what fluxion's jobspec reader refuses
(and some it takes that the RFCs do not), with the finding on the offending token, and
the readers of rules/fluxionread.py as measured against flux-jobspec-validate (fluxion
0.54 over flux-core 0.88; tests/flux/test_fluxion_drift.py holds them there)."""

from __future__ import annotations

import copy
import json
import math

import pytest

from jobspec_lsp.diagnostics import Severity
from jobspec_lsp.rules import fluxionread as read
from jobspec_lsp.rules.analysis import check

BASE = {
    "version": 999,
    "resources": [
        {
            "type": "node",
            "count": 1,
            "with": [
                {
                    "type": "slot",
                    "count": 2,
                    "label": "task",
                    "with": [{"type": "core", "count": 1}],
                }
            ],
        }
    ],
    "tasks": [{"command": ["app"], "slot": "task", "count": {"per_slot": 1}}],
    "attributes": {"system": {"duration": 60}},
}
CORE = ("resources", 0, "with", 0, "with", 0)
TASK = ("tasks", 0)
SYSTEM = ("attributes", "system")
DELETE = object()


def jobspec(*changes):
    doc = copy.deepcopy(BASE)
    for path, value in changes:
        node = doc
        for part in path[:-1]:
            node = node[part]
        if value is DELETE:
            del node[path[-1]]
        else:
            node[path[-1]] = value
    return json.dumps(doc)


def errors(text):
    return [
        d for d in check(text, language="json", target="fluxion") if d.severity == Severity.ERROR
    ]


def rejected(text):
    """fluxion's own findings (JS003), whatever the RFC rules say on the same token."""
    return check(text, language="json", target="fluxion", select=["JS003"])


def at(text, d):
    return text[d.start : d.end]


# ------------------------------------------------------------- refused, and where
REFUSED = [
    # (changes, the token, words of the message)
    ([(CORE + ("id",), [1])], "[1]", "id must be a scalar"),
    ([(CORE + ("id",), {"a": 1})], '{"a": 1}', "id must be a scalar"),
    ([(CORE + ("id",), None)], "null", "id must be a scalar"),
    ([(CORE + ("label",), ["x"])], '["x"]', "label must be a scalar"),
    ([(CORE + ("unit",), {})], "{}", "unit must be a scalar"),
    ([(CORE + ("type",), None)], "null", "type must be a scalar"),
    ([(CORE + ("count",), {"min": 1, "max": 4, "operator": "+", "operand": 0})], "0", "addition"),
    ([(CORE + ("count",), {"min": 2, "max": 4, "operator": "+", "operand": -1})], "-1", "addition"),
    ([(CORE + ("count",), {"min": 2, "max": 4, "operator": "^", "operand": 1})], "1", "exponent"),
    ([(CORE + ("count",), {"min": 2, "max": 4, "operator": "*", "operand": 1})], "1", "multipl"),
    ([(CORE + ("count",), {"min": 1, "max": 4, "operator": "^", "operand": 2})], "1", "min must"),
    ([(CORE + ("count",), {"min": 1, "max": 4, "operator": "-", "operand": 1})], '"-"', "'+', '*'"),
    ([(CORE + ("count",), {"min": 1, "max": 4, "operator": "++", "operand": 1})], '"++"', "one ch"),
    ([(CORE + ("count",), {"min": 1, "max": 4, "operator": "+", "operand": 2**31})], "2147483648", "32 bits"),
    ([(CORE + ("count",), {"min": 1, "max": 2**32, "operator": "+", "operand": 1})], "4294967296", "max must"),
    ([(CORE + ("count",), {"min": 1, "operator": "+"})], '{"min": 1, "operator": "+"}', "all or none"),
    ([(CORE + ("count",), " 1")], '" 1"', "from 0 to 4294967295"),
    ([(CORE + ("count",), "1-3")], '"1-3"', "no idset or range strings"),
    ([(CORE + ("count",), 2**32)], "4294967296", "from 0 to"),
    ([(CORE + ("requires",), [])], '"requires"', "attributes.system.constraints"),
    ([(CORE + ("exclusive",), "True")], '"True"', "true or false"),
    ([(("version",), " 1")], '" 1"', "1 to 9999"),
    ([(("version",), 10000)], "10000", "1-9999"),
    ([(TASK + ("attributes",), {"environment": {"A": "1"}})], '{"A": "1"}', "system.environment"),
    ([(TASK + ("distribution",), None)], "null", "distribution must be a scalar"),
    ([(TASK + ("count",), {"per_resource": {"type": "core", "count": 1}})], '"per_resource"', "per_slot"),
    ([(TASK + ("count",), DELETE)], None, "3 to 5 keys"),
    ([(SYSTEM, [1])], "[1]", "must be a mapping"),
    ([(SYSTEM + ("cwd",), ["/"])], '["/"]', "cwd must be a string"),
    ([(SYSTEM + ("queue",), {})], "{}", "queue must be a string"),
    ([(SYSTEM + ("environment",), {"A": []})], "[]", "value of A"),
    ([(SYSTEM + ("environment",), ["A=1"])], '["A=1"]', "mapping of names"),
    ([(SYSTEM + ("duration",), "1h")], '"1h"', "number of seconds"),
    ([(SYSTEM + ("duration",), "inf")], '"inf"', "number of seconds"),
    ([(SYSTEM + ("constraints",), {"properties": ["a"], "ranks": ["0"]})], '"ranks"', "one operator"),
    ([(SYSTEM + ("constraints",), {"and": [{"properties": ["a"], "ranks": ["0"]}]})], '"ranks"', "one operator"),
    ([(SYSTEM + ("constraints",), {"hostlist": "n1"})], '"n1"', "takes a list"),
    ([(SYSTEM + ("constraints",), {"ranks": {}})], "{}", "takes a list"),
    ([(SYSTEM + ("constraints",), {"ranks": ["4294967295"]})], '"4294967295"', "above 2147483647"),
    ([(SYSTEM + ("constraints",), {"ranks": [None]})], "null", "invalid idset 'null'"),
    ([(SYSTEM + ("constraints",), {"ranks": [["0"]]})], '["0"]', "must be a string"),
    ([(SYSTEM + ("constraints",), {"hostlist": ["n[1-"]})], '"n[1-"', "without its ']'"),
    ([(SYSTEM + ("constraints",), {"hostlist": ["n[]"]})], '"n[]"', "not a number"),
    ([(SYSTEM + ("constraints",), {"properties": ["^^a"]})], '"^^a"', "invalid property name"),
    ([(SYSTEM + ("constraints",), {"properties": [True]})], "true", "must be a string"),
    ([(SYSTEM + ("constraints",), {"not": [None]})], "null", "must be a mapping"),
    ([(SYSTEM + ("constraints",), {"foo": []})], '"foo"', "unknown constraint operator"),
]  # fmt: skip


@pytest.mark.parametrize("changes,token,words", REFUSED, ids=[r[2] for r in REFUSED])
def test_what_fluxion_refuses_is_an_error_on_its_token(changes, token, words):
    text = jobspec(*changes)
    assert errors(text), "fluxion refuses this: it must be an error"
    found = rejected(text)
    assert any(words in d.message for d in found), [d.message for d in found]
    (d,) = [d for d in found if words in d.message]
    assert d.message.startswith("fluxion's jobspec reader rejects this: ")
    if token is None:  # the task mapping itself
        assert d.start == text.index('{"command"') and text[d.end - 1] == "}"
    else:
        assert at(text, d) == token


ACCEPTED = [
    # what fluxion takes although the RFCs (and so the default target) may not
    [(CORE + ("count",), {"min": 1, "max": 4, "operator": "+", "operand": 1})],
    [(CORE + ("count",), {"min": 2, "max": 4, "operator": "^", "operand": 2})],
    [(CORE + ("count",), {"min": "1", "max": "0x4", "operator": "+ ", "operand": "1"})],
    [(CORE + ("count",), {"min": 1, "step": 1})],
    [(CORE + ("count",), "0x10")],
    [(CORE + ("count",), "+1")],
    [(CORE + ("count",), 0)],
    [(CORE + ("type",), 5)],
    [(CORE + ("id",), 5)],
    [(CORE + ("exclusive",), "true")],
    [(("version",), "0x10")],
    [(("version",), "1 ")],
    [(TASK + ("count",), {"per_slot": None})],
    [(TASK + ("count",), {"total": "x"})],
    [(TASK + ("count",), DELETE), (TASK + ("distribution",), "x")],
    [(TASK + ("command",), [None, 1, True])],
    [(TASK + ("slot",), 5)],
    [(TASK + ("attributes",), {"a": None, "b": 2})],
    [(SYSTEM, "x")],
    [(SYSTEM, [])],
    [(SYSTEM + ("duration",), "60")],
    [(SYSTEM + ("duration",), ".inf")],
    [(SYSTEM + ("duration",), -5)],
    [(SYSTEM + ("environment",), [])],
    [(SYSTEM + ("environment",), None)],
    [(SYSTEM + ("environment",), {"A": None})],
    [(SYSTEM + ("cwd",), None)],
    [(SYSTEM + ("constraints",), {})],
    [(SYSTEM + ("constraints",), {"ranks": [5]})],
    [(SYSTEM + ("constraints",), {"ranks": ["", "[0-3]", "1,,2", "4294967296"]})],
    [(SYSTEM + ("constraints",), {"hostlist": [5, None, "", "n[1-2]x[3]", "a b", "n[1-]"]})],
    [(SYSTEM + ("constraints",), {"properties": ["", "^", "a b"]})],
    [(SYSTEM + ("constraints",), {"and": []})],
    [(SYSTEM + ("constraints",), {"not": [{}, {"properties": ["a"]}]})],
    [(SYSTEM + ("constraints",), {"or": [{"ranks": ["0"]}, {"hostlist": ["n1"]}]})],
]


@pytest.mark.parametrize("changes", ACCEPTED, ids=[json.dumps(a[-1][1]) for a in ACCEPTED])
def test_what_fluxion_takes_is_no_error(changes):
    text = jobspec(*changes)
    assert not rejected(text)
    assert not errors(text), [f"{d.code} {d.message}" for d in errors(text)]


def test_an_rfc_error_fluxion_accepts_is_a_warning_that_says_so():
    text = jobspec((SYSTEM + ("constraints",), {"ranks": [5]}))
    (d,) = [d for d in check(text, language="json", target="fluxion") if d.code == "JS506"]
    assert d.severity == Severity.WARNING and "fluxion's jobspec reader accepts it" in d.message
    assert at(text, d) == "5"


def test_block_yaml_findings_are_on_the_token():
    text = (
        "version: 999\nresources:\n  - type: core\n    count: 1\n    id:\n      - a\n"
        "    label: {x: 1}\n    count2: 1\ntasks: []\nattributes: {}\n"
    )
    found = check(text, target="fluxion", select=["JS003"])
    assert [at(text, d) for d in found] == ["-", "{x: 1}", "count2"]


# ------------------------------------------------------------------------ readers
@pytest.mark.parametrize(
    "text,value",
    [
        ("1", 1), ("0", 0), ("0x10", 16), ("0X1f", 31), ("010", 8), ("00", 0), ("+1", 1),
        ("1 ", 1), ("1\t", 1), ("4294967295", 4294967295), ("0xffffffff", 4294967295),
        ("037777777777", 4294967295), ("0x", None), ("08", None), ("-0", None), ("-1", None),
        (" 1", None), ("1.0", None), ("1e2", None), ("", None), ("4294967296", None),
        ("040000000000", None), ("00x1", None), ("+-1", None), ("١", None), ("1_000", None),
    ],
)  # fmt: skip
def test_unsigned_as_yaml_cpp_reads_it(text, value):
    assert read.as_unsigned(text) == value


@pytest.mark.parametrize(
    "text,value",
    [("-0x1", -1), ("-0", 0), ("2147483647", 2**31 - 1), ("-2147483648", -(2**31)),
     ("2147483648", None), ("-2147483649", None), ("- 1", None), ("017", 15), ("+2", 2)],
)  # fmt: skip
def test_int_as_yaml_cpp_reads_it(text, value):
    assert read.as_int(text) == value


@pytest.mark.parametrize(
    "text,value", [("+", "+"), ("+ ", "+"), ("+\n", "+"), (" ", " "), (" +", None), ("", None),
                   ("ab", None), ("43", None)],
)  # fmt: skip
def test_char_as_yaml_cpp_reads_it(text, value):
    assert read.as_char(text) == value


@pytest.mark.parametrize(
    "text,ok",
    [("60", True), ("1e3", True), (".5", True), ("5.", True), ("+5", True), ("1e-999", True),
     (".inf", True), ("-.Inf", True), (".NaN", True), ("5 ", True), ("00.5", True),
     ("1e", False), (".", False), ("1e999", False), ("inf", False), ("nan", False),
     ("Infinity", False), (" 5", False), ("1,5", False), ("0x10", False), ("1.5.5", False)],
)  # fmt: skip
def test_double_as_yaml_cpp_reads_it(text, ok):
    got = read.as_double(text)
    assert (got is not None) == ok
    if ok and text not in (".NaN",):
        assert not math.isnan(got)


@pytest.mark.parametrize(
    "text,ok",
    [("", True), ("0", True), ("[0-3]", True), ("[]", True), ("1,,2", True), (",", True),
     ("4294967296", True), ("4294967297-4294967298", True), ("0,2,4-5", True),
     ("3-1", False), ("1-1", False), ("1,1", False), ("3,1", False), ("[", False),
     ("[1]2", False), ("01", False), ("0-2,1-3", False), ("4294967295", False),
     ("2147483648", False), ("99999999999999999999", False), (" 1", False), ("1 ", False),
     ("1-", False), ("-1", False), ("+1", False), ("1-2-3", False), ("1-02", False)],
)  # fmt: skip
def test_idset_as_flux_core_decodes_it(text, ok):
    assert (read.idset_problem(text) is None) == ok


@pytest.mark.parametrize(
    "text,ok",
    [("", True), ("n1", True), ("n[1-3]", True), ("n[1-2]x[3]", True), ("n[1-2]]", True),
     ("a b", True), (",", True), ("n[ 1]", True), ("n[1-]", True), ("n[+1]", True),
     ("n[1x-3]", True), ("n[0-1048575]", True), ("a]b[1]", True), ("n[01-10]", True),
     ("n[3-1]", False), ("n[1-", False), ("n1]", False), ("n[]", False), ("n[1,]", False),
     ("n[1 ]", False), ("n[-1]", False), ("n[1--2]", False), ("n[1-x]", False),
     ("n[0-1048576]", False), ("n[[1]]", False)],
)  # fmt: skip
def test_hostlist_as_flux_core_appends_it(text, ok):
    assert (read.hostlist_problem(text) is None) == ok
