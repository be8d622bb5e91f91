"""Our parsers against Flux's own (run under `flux python`): RFC 35 constraint queries
as `flux submit --requires` compiles them, RFC 46 shapes as Flux expands them."""

from __future__ import annotations

import json
import random

from canon import canon

from jobspec_lsp.notations import constraint, formats, shape

TERMS = [
    "a",
    "b",
    "ssd",
    "gpu",
    "host:vm",
    "hosts:n[1-3]",
    "rank:0",
    "ranks:0-1",
    "^slow",
    "a,b",
    "'x y'",
    "host:'vm'",
    "-a",
    "-host:vm",
    "not b",
    "android",
    "nothing",
    "properties:c",
    "rank:3-1",
    "color:red",
    "a!b",
    "a&b",
    "(a)",
]
JOINERS = [" ", " & ", "&&", " and ", " | ", "||", " or "]
FIXED = [
    # RFC 35's examples
    "foo",
    "foo bar",
    "foo bar host:started",
    "a|b|c",
    "a|b&c",
    "(a|b)&c",
    "(a|-b)&c",
    # forms worth pinning
    "a b",
    "a b c",
    "a,b c",
    "a host:x b",
    "a or b and c",
    "-a",
    "not a b",
    "host:x host:y",
    "a && (b)",
    "^a",
    "a & b | c",
    '"a b"',
    "rank:0-1",
    "not (a|b) && c",
    "a|b c",
    "a b|c",
    "a|b -c",
    "a|b & c",
    "not a|b",
    "a|b (c)",
    "a|b not c",
    "a|b c d",
    "a|b c|d",
    "a b|c d",
    "(a|b) c",
    "x a|b c",
    "a&&b",
    "a||b",
    "(a b)",
    "-a,b",
    "a and-b",
    "not-x",
    "host: vm",
    # errors
    "a:",
    "-(a)",
    "(a",
    "a)",
    "'abc",
    "a & &b",
    "",
    "a |",
    "foo:bar",
    "a!b",
    "a,,b",
]


def generated(n: int = 120) -> list[str]:
    rng = random.Random(35)
    out = []
    for _ in range(n):
        parts = [rng.choice(TERMS)]
        for _ in range(rng.randint(0, 4)):
            parts.append(rng.choice(JOINERS))
            parts.append(rng.choice(TERMS))
        q = "".join(parts)
        if rng.random() < 0.2:
            q = f"not ({q})"
        out.append(q)
    return out


KNOWN = {"properties", "hostlist", "ranks", "and", "or", "not"}


def _valid(parse, value) -> bool:
    try:
        parse(value)
        return True
    except formats.FormatError:
        return False


def _acceptable(c) -> bool:
    """A constraint flux-core's ingest would take and RFC 20 allows."""
    if not isinstance(c, dict):
        return False
    for op, args in c.items():
        if op not in KNOWN:
            return False
        if op in ("and", "or", "not"):
            if not all(_acceptable(a) for a in args):
                return False
        elif op == "hostlist" and not all(_valid(formats.parse_hostlist, h) for h in args):
            return False
        elif op == "ranks" and not all(_valid(formats.parse_idset, r) for r in args):
            return False
        elif op == "properties":
            for name in args:
                body = name[1:] if name.startswith("^") else name
                if not body or set(body) & constraint.BAD_PROPERTY:
                    return False
    return True


def test_requires_compiles_as_flux_does(flux):
    queries = FIXED + generated()
    assert len(queries) >= 150
    theirs = flux.ask("constraint", [json.dumps(q) for q in queries])
    wrong = []
    for q, t in zip(queries, theirs):
        try:
            ours = constraint.normalize(constraint.parse(q))
        except constraint.ConstraintError as err:
            ours = f"error: {err.message}"
        if t["ok"] and _acceptable(t["result"]):
            expected = constraint.normalize(t["result"])
        else:
            # Flux refuses it, or writes a constraint its ingest rejects (an unknown
            # operator) or RFC 20 forbids (a property with ! & ...): we refuse it
            expected = "error"
        got = "error" if isinstance(ours, str) else ours
        if got != expected:
            wrong.append(f"{q!r}: flux {t.get('result', t.get('error'))} | ours {ours}")
    assert not wrong, f"{len(wrong)} of {len(queries)} differ:\n" + "\n".join(wrong)


SHAPES = [
    "slot",
    "slot=4",
    "slot=4/core",
    "slot=4/core=2",
    "node=2/slot/core=4",
    "slot/[core=2;gpu]",
    "node=2/slot=2/[core=4;gpu=1]",
    "slot=1-4/core",
    "slot=2+/core",
    "node/socket=2/core=8",
    "cluster/slot=2/node",
    "slot{a}/core",
    "slot=2{db}/core=6",
    "node{-x}/slot/core",
    "node{-exclusive}/slot/core",
    "slot/node",
    "core",
    "slot=4/node",
    "node=3/slot/core{-x}",
    "slot=1/[core=2;memory=4{unit:GB}]",
    "slot/core=2/gpu",
    "slot=4{ranks}/node",
    "switch=3/slot/node/core",
    "slot=0/core",
    "slot=x/core",
    "slot/",
    "/core",
    "slot/[core;]",
    "slot{}/core",
    "slot=1,4,9/node",
    "slot=2-8:2:*/node",
    "node=1/slot=1/core=1",
    "slot=10/core=2",
    "slot=10/[core=2;gpu=1]",
    "slot/core/gpu=2",
    "node=4/slot=4/[core;gpu]",
    "slot{a}/[core;gpu]",
    'slot="4"/core',
    "slot=4/core{id:3}",
    "node{exclusive:true}/slot/core",
    "slot/memory=2{unit:GB}",
    "slot=4{nodelevel}/node{-x}/socket=2+/core=4+",
    "slot=4{nodelevel}/node/socket=2/core=4",
    "[cluster/slot=2{ib}/node/[memory=4{unit:GB};ib10g];switch/slot=2{bicore}/node/core=2]",
    "cluster=2/slot/node=1+{-x}/core=30",
    "switch=3/slot/node=1+{-x}/core",
    "slot=4,9,16,25/node",
    "slot=3-30/node",
    "slot{a,b:c}/core",
    'node{x:"y z"}/slot/core',
]


def _count(c):
    """A count as the set of values it allows, in one form."""
    if isinstance(c, str):
        try:
            runs = formats.parse_idset(c)
        except formats.FormatError:
            c = formats.parse_range(c)
        else:
            if len(runs) != 1 or runs[0][0] == runs[0][1]:
                return ("idset", tuple(runs))
            c = {"min": runs[0][0], "max": runs[0][1]}
    if isinstance(c, dict):
        return ("range", c["min"], c.get("max"), c.get("operator", "+"), c.get("operand", 1))
    return c


def _counts(resources):
    """Range counts in one form: flux-core keeps RFC 45 strings ("2+", "3-30"), `jobspec
    shape` writes the range dictionaries RFC 46's examples show; both mean the same."""
    out = []
    for v in resources:
        v = dict(v)
        if "count" in v:
            v["count"] = _count(v["count"])
        if "with" in v:
            v["with"] = _counts(v["with"])
        out.append(v)
    return out


def test_shapes_expand_as_flux_does(flux):
    more = [f"node={n}/slot={s}/core={c}" for n in (1, 2, 5) for s in (1, 3) for c in (1, 4)]
    more += [f"slot={s}/[core={c};gpu={g}]" for s in (1, 8) for c in (1, 2, 6) for g in (1, 2)]
    more += [f"node{{-x}}/slot={s}/core" for s in (1, 2)]
    more += [f"{t}=2/slot/core" for t in ("node", "socket", "cluster", "rack", "board", "switch")]
    more += [f"slot={n}/node" for n in ("1", "2-3", "1+", "4,9,16", "[1-2]")]
    more += [
        f"node={n}/slot{{{lab}}}/core={c}" for n in (1, 2) for lab in ("a", "big-1") for c in (1, 3)
    ]
    more += [
        f"slot={s}/{t}={c}"
        for s in (1, 2)
        for t in ("core", "gpu", "memory", "socket")
        for c in (1, 2)
    ]
    shapes = SHAPES + more
    assert len(shapes) >= 100
    theirs = flux.ask("shape", [json.dumps(s) for s in shapes])
    wrong = []
    for s, t in zip(shapes, theirs):
        try:
            ours = shape.expand(s, label="task")  # flux names a lone slot "task"
        except shape.ShapeError as err:
            ours = f"error: {err.message}"
        got = "error" if isinstance(ours, str) else _counts(ours)
        expected = _counts(t["result"]) if t["ok"] else "error"
        if got != expected:
            wrong.append(f"{s!r}: flux {t.get('result', t.get('error'))} | ours {ours}")
    assert not wrong, f"{len(wrong)} of {len(shapes)} differ:\n" + "\n".join(wrong)


YAML_TRAPS = """version: 1
resources:
  - type: slot
    count: 2
    label: task
    with:
      - type: core
        count: 1
tasks:
  - command: [app, "0755"]
    slot: task
    count: {per_slot: 1}
attributes:
  system:
    duration: 1:30
    environment: {A: yes, B: no, C: on, D: off, E: 0755, F: 1_000, G: 0x1F, H: ~, I: 1e5}
  user:
    when: 2024-01-31
    args: [0755, yes, 1e5, 1_000, "on", 0o17, +12, -0, 1.5e3, .inf]
    ratio: .5
    big: 12345678901234567890
    same: &x {k: 1}
    again: *x
"""


def test_yaml_is_read_as_flux_reads_it(flux):
    """Flux's own JobspecV1.from_yaml_stream reads every YAML 1.1 trap as we do."""
    from jobspec_lsp.jobspec.document import parse
    from jobspec_lsp.jobspec.tree import to_python

    (theirs,) = flux.ask("yaml", [json.dumps(YAML_TRAPS)])
    assert theirs["ok"], theirs
    ours = to_python(parse(YAML_TRAPS).root)
    assert theirs["result"] == canon(ours)


def test_duplicate_keys_keep_the_last_value_in_flux(flux):
    """Why JS902 is an error: Flux keeps the last of two keys without a word."""
    text = (
        '{"version": 999, "resources": [{"type": "slot", "count": 1, "label": "task", '
        '"with": [{"type": "core", "count": 1}]}], "tasks": [{"command": ["true"], '
        '"slot": "task", "count": {"per_slot": 1}}], '
        '"attributes": {"system": {"duration": 0}}, "version": 1}'
    )
    flux.configure_ingest("1")  # as shipped: V1 only
    (verdict,) = flux.ask("submit", [text])
    assert verdict["ok"], verdict
