"""Small jobspecs for what fluxion's jobspec reader checks, one value changed at a time
(tests/flux/test_fluxion_drift.py gives each to the real reader and to `jobspec check
--target fluxion`). Each class of jobspec.cpp and constraint.cpp is here: the top level,
version, resource vertex keys and values (id, label, unit, type, exclusive, with), counts
as integers and as range mappings, tasks, attributes, system values, constraints with
their properties, hostlists and idsets; and the numbers as yaml-cpp reads them (base
prefixes, signs, white space, 32-bit limits)."""

from __future__ import annotations

import copy
import json

DELETE = object()

BASE = {
    "version": 1,
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
SLOT = ("resources", 0, "with", 0)
TASK = ("tasks", 0)
SYSTEM = ("attributes", "system")

# scalars and collections of every kind, as a value of a key that must be a scalar
SHAPES = ["x", "", 7, 0, 1.5, True, False, None, [], ["x"], {}, {"a": 1}]
# texts of numbers as yaml-cpp's stream reads them
NUMBER_TEXTS = [
    "1", "0", "16", "0x10", "0X1f", "0x", "010", "08", "00", "+1", "-1", "-0", " 1", "1 ",
    "1\t", "1.0", "1.", "1e2", "1,2", "1-3", "2+", "", "x", "4294967295", "4294967296",
    "2147483647", "2147483648", "-2147483648", "-2147483649", "0xffffffff", "0x100000000",
    "037777777777", "040000000000", "١", "1_000",
]  # fmt: skip
INTEGERS = [-1, 0, 1, 2, 4294967295, 4294967296, 2147483648, -2147483649, 1.0, 2.5, True, None]
DOUBLES = [
    "60", "1e3", ".5", "5.", "+5", "-5", "1e", ".", "1e999", "1e-999", ".inf", "-.inf", ".nan",
    "+.INF", ".NaN", "inf", "nan", "Infinity", " 5", "5 ", "1,5", "1E+5", "0x10", "1h", "00.5",
]  # fmt: skip
HOSTLISTS = [
    "", "n1", "n[1-3]", "n[3-1]", "n[1-", "n1]", "n[]", "n[1,]", "n[,1]", "n[1-2]x[3]",
    "n[1-2]]", "a b", "a\tb", "a,,b", ",", "n[ 1]", "n[1 ]", "n[1-]", "n[-1]", "n[1--2]",
    "n[+1]", "n[1x-3]", "n[1-x]", "n[0-1048575]", "n[0-1048576]", "n[01-10]", "n[1-2],m[3]",
    "a]b[1]", "n[1,2-4,7]", "[1-2]", "n[99999999999999999999]", "n[1-2", "n[[1]]",
]  # fmt: skip
IDSETS = [
    "", "0", "0-3", "3-1", "1-1", "1,1", "3,1", "[0-3]", "[]", "[", "]", "[1]2", "1,,2", ",",
    "1,", ",1", "01", "0-2,1-3", "0-2,3-4", "4294967295", "4294967296", "4294967297-4294967298",
    "2147483648", "99999999999999999999", " 1", "1 ", "1-", "-1", "+1", "1-2-3", "1-02", "١",
    "0,2,4-5", "[0,2]", "5-4294967300",
]  # fmt: skip
PROPERTIES = [
    "ssd", "", "^", "^ssd", "^^ssd", "a b", "a&b", "a!b", "a'b", 'a"b', "a^b", "a`b", "a|b",
    "a(b", "a)b", "!ssd", "ssd!", "ünï", "a-b_c.d", "a,b", 5, True, None, ["a"], {"a": 1},
]  # fmt: skip


def _set(doc, path, value):
    node = doc
    for part in path[:-1]:
        node = node[part]
    if value is DELETE:
        node.pop(path[-1], None)
    else:
        node[path[-1]] = value


def _doc(changes, base=BASE):
    doc = copy.deepcopy(base)
    for path, value in changes:
        _set(doc, path, value)
    return doc


def _range_counts():
    counts = []
    for op in ["+", "*", "^", "-", "", "++", " +", "+ ", 1, None, ["+"]]:
        for operand in [-1, 0, 1, 2, "2", "0x2", 2147483648, 1.5, None, [2]]:
            counts.append({"min": 2, "max": 8, "operator": op, "operand": operand})
    for low in [0, 1, 2, "1", "0x2", " 2", -1, 4294967296, 1.5, True, None, [1], {}]:
        counts += [{"min": low}, {"min": low, "max": 9, "operator": "^", "operand": 2}]
    for high in [0, 1, 2, 4, "4", -4, 4294967296, 1.5, None, [4]]:
        counts.append({"min": 2, "max": high, "operator": "+", "operand": 1})
    full = {"max": 4, "operator": "+", "operand": 1}
    for keys in [(), ("max",), ("operator",), ("operand",), ("max", "operator")]:
        counts.append({"min": 1, **{k: full[k] for k in keys}})
        counts.append({"min": 1, **{k: v for k, v in full.items() if k not in keys}})
    counts += [{}, {"max": 4}, {"min": 1, "step": 1}, {"min": 1, "extra": None}]
    return counts


def _resources():
    out = []
    for key in ("id", "label", "unit", "type"):
        for value in SHAPES + [DELETE]:
            out.append((f"resource {key}={value!r}", [(CORE + (key,), value)]))
    for value in SHAPES + ["true", "false", "True", 1, DELETE]:
        out.append((f"exclusive={value!r}", [(CORE + ("exclusive",), value)]))
    for value in [[], None, {}, "core", 5, [{}], [5], [None], [{"type": "core"}]]:
        out.append((f"with={value!r}", [(CORE + ("with",), value)]))
    for key, value in [("requires", []), ("requires", [{"properties": ["ssd"]}]), ("extra", 1)]:
        out.append((f"resource key {key}", [(CORE + (key,), value)]))
    out += [
        ("slot without label", [(SLOT + ("label",), DELETE)]),
        ("slot label null", [(SLOT + ("label",), None)]),
        ("vertex not a mapping", [(("resources", 0, "with", 0, "with"), ["core"])]),
        ("vertex null", [(("resources", 0, "with", 0, "with"), [None])]),
    ]
    for value in NUMBER_TEXTS + INTEGERS + [[1], {}, "1-4:2", "1,3"]:
        out.append((f"count={value!r}", [(CORE + ("count",), value)]))
    for value in _range_counts():
        out.append((f"count={json.dumps(value)}", [(CORE + ("count",), value)]))
    return out


def _tasks():
    out = []
    for value in [[], "app", ["a", 1, True, 1.5], [None], [["a"]], [{}], 5, None, DELETE]:
        out.append((f"command={value!r}", [(TASK + ("command",), value)]))
    for value in SHAPES + [DELETE, "nope"]:
        out.append((f"task slot={value!r}", [(TASK + ("slot",), value)]))
    task_counts = [
        {}, {"per_slot": 1, "total": 2}, {"total": 3}, {"foo": "x"}, {"per_slot": None},
        {"per_slot": [1]}, {"per_slot": {}}, {"per_resource": {"type": "core", "count": 1}},
        {"per_slot": "1-3"}, {"per_slot": -1}, 1, "1", None, [], DELETE,
    ]  # fmt: skip
    for value in task_counts:
        out.append((f"task count={value!r}", [(TASK + ("count",), value)]))
    for value in SHAPES + [DELETE]:
        out.append((f"distribution={value!r}", [(TASK + ("distribution",), value)]))
    attributes = [
        {}, {"a": "1", "b": None, "c": 2}, {"environment": {"A": "1"}}, {"environment": "x"},
        {"x": []}, [], None, "x", 5,
    ]  # fmt: skip
    for value in attributes:
        out.append((f"task attributes={value!r}", [(TASK + ("attributes",), value)]))
    extra = {"distribution": "x", "attributes": {}, "x": 1, "y": 2, "z": 3}
    for n in range(6):
        keys = list(extra)[:n]
        changes = [(TASK + (k,), extra[k]) for k in keys]
        out.append((f"task with {n} more keys", changes))
        out.append((f"task without count, {n} more keys", changes + [(TASK + ("count",), DELETE)]))
    out.append(("task not a mapping", [(("tasks",), ["app"])]))
    return out


def _attributes():
    out = []
    for value in [
        None,
        [],
        "x",
        5,
        {},
        {"user": [1, {}]},
        {"system": {}, "foo": {}},
        {"user": None},
    ]:
        out.append((f"attributes={value!r}", [(("attributes",), value)]))
    for value in [None, [], [1], ["x"], "x", 5, {}, {"anything": [{}]}]:
        out.append((f"system={value!r}", [(SYSTEM, value)]))
    for value in DOUBLES + INTEGERS + [1e300, [], {}]:
        out.append((f"duration={value!r}", [(SYSTEM + ("duration",), value)]))
    for key in ("cwd", "queue"):
        for value in SHAPES:
            out.append((f"{key}={value!r}", [(SYSTEM + (key,), value)]))
    environments = [
        {"A": "1"}, {"A": None}, {"A": 1}, {"A": []}, {"A": {}}, ["A=1"], [], "x", None, 5, {},
    ]  # fmt: skip
    for value in environments:
        out.append((f"environment={value!r}", [(SYSTEM + ("environment",), value)]))
    return out


def _constraints():
    values = [
        {}, [], None, "x", 5, {"properties": ["a"], "ranks": ["0"]}, {"foo": []}, {"foo": "x"},
        {"properties": "ssd"}, {"properties": {}}, {"hostlist": "n1"}, {"ranks": "0"},
        {"ranks": {}}, {"hostlist": None}, {"ranks": []}, {"hostlist": []}, {"properties": []},
    ]  # fmt: skip
    for op in ("and", "or", "not"):
        values += [
            {op: []}, {op: [{}]}, {op: [{}, {}]}, {op: {}}, {op: [5]}, {op: [None]}, {op: [[]]},
            {op: [{"properties": ["a"]}, {"ranks": ["0-1"]}]}, {op: [{"properties": ["a|b"]}]},
            {op: [{"properties": ["a"], "ranks": ["0"]}]}, {op: [{"foo": []}]},
            {op: [{op: [{"hostlist": ["n[1-"]}]}]},
        ]  # fmt: skip
    values += [{"properties": [p]} for p in PROPERTIES]
    values += [{"hostlist": [h]} for h in HOSTLISTS + [5, None, True, ["n1"], {}]]
    values += [{"ranks": [r]} for r in IDSETS + [5, 0, None, True, ["0"], {}]]
    values += [{"ranks": ["0", "3-1"]}, {"ranks": ["3", "1"]}, {"hostlist": ["n1", "n["]}]
    return [(f"constraints={json.dumps(v)}", [(SYSTEM + ("constraints",), v)]) for v in values]


def _top():
    out = []
    for value in NUMBER_TEXTS + INTEGERS + [9999, 10000, [1], {}]:
        out.append((f"version={value!r}", [(("version",), value)]))
    for key in ("version", "resources", "tasks", "attributes"):
        out.append((f"no {key}", [((key,), DELETE)]))
    for key in ("resources", "tasks"):
        for value in [[], {}, "x", None, 5, [5], [None]]:
            out.append((f"{key}={value!r}", [((key,), value)]))
    out.append(("extra top-level key", [(("extra",), 1)]))
    out.append(("extra key instead of version", [(("version",), DELETE), (("extra",), 1)]))
    return out


def cases() -> list[tuple[str, str]]:
    """(name, JSON text) for every generated jobspec, V1 and canonical (version 999)."""
    out = [("base", json.dumps(BASE))]
    for name, changes in _top() + _resources() + _tasks() + _attributes() + _constraints():
        out.append((name, json.dumps(_doc(changes))))
        if not any(path == ("version",) for path, _ in changes):
            out.append((f"{name} (canonical)", json.dumps(_doc(changes + [(("version",), 999)]))))
    out.append(("top level a list", json.dumps([BASE])))
    out.append(("top level a string", json.dumps("jobspec")))
    return out
