"""Completion in a big document reads the lines around the cursor, not the whole text
(jobspec/context.py, _windowed; issue 26): what it finds is what reading the whole text
finds, at every kind of place, and the slot labels and resource types of the whole
document are still offered. A big JSON document is read through a stand-in of its
repaired text (jobspec/jsonwindow.py), held to the whole reading the same way."""

from __future__ import annotations

import collections
import json
import random
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jobspec_lsp.features import completion
from jobspec_lsp.jobspec import context, jsonwindow, yamlwindow

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from generate import generate, generate_json, jobspec_data  # the benchmarks' generator


def _core(c):
    if c is None:
        return None
    path = tuple("#" if isinstance(p, int) else p for p in c.path)
    return (path, c.on, c.key, c.prefix, c.start, c.end, c.indent, c.block)


@pytest.fixture(scope="module")
def text():
    return generate(60_000)


def test_the_window_finds_what_the_whole_text_finds(text, monkeypatch):
    rnd = random.Random(26)
    offsets = [rnd.randrange(len(text)) for _ in range(400)]
    offsets += [m + 6 for m in range(len(text)) if text.startswith("type: ", m)][:50]
    same = 0
    for offset in offsets:
        monkeypatch.setattr(context, "WINDOW_FROM", 10**9)
        whole = context.cursor_context(text, offset, "yaml")
        monkeypatch.setattr(context, "WINDOW_FROM", 0)
        window = context.cursor_context(text, offset, "yaml")
        assert _core(window) == _core(whole), (offset, text[offset - 40 : offset])
        if whole is not None:
            # the keys already there: the same, or more where the whole text did not
            # parse with the cursor line repaired (its reading then falls back to the
            # cursor's ancestors alone)
            assert {str(k) for k in whole.present} <= {str(k) for k in window.present} or (
                len(window.present) >= 1000  # a mapping of 1000s of keys: read up to 2000 lines
            )
            same += whole.present == window.present
    assert same >= len(offsets) // 2  # most places: exactly the same keys


def test_slot_labels_and_types_of_the_whole_document_are_offered(text, monkeypatch):
    monkeypatch.setattr(context, "WINDOW_FROM", 0)
    at = text.index("tasks:")
    slot = text.index("slot: ", at) + len("slot: ")
    labels, _, _ = completion.complete_at(text, slot, "yaml")
    monkeypatch.setattr(context, "WINDOW_FROM", 10**9)
    want, _, _ = completion.complete_at(text, slot, "yaml")
    assert [c.label for c in labels] == [c.label for c in want] and len(want) > 3


def _per_resource(text: str, n: int = 40) -> str:
    per = "count:\n      per_resource:\n        type: core\n        count: 1"
    return text.replace("count: {per_slot: 1}", per, n)


def _spots(text: str) -> list[int]:
    """Every task's slot value and per_resource type value (where completion reads the
    whole document's labels and types)."""
    tasks = text.index("tasks:")
    return [
        m.end() for m in re.finditer(r"(?m)^ +(?:- )?(?:slot|type): ", text) if m.start() > tasks
    ]


def test_slot_labels_and_slot_types_are_the_whole_documents(text, monkeypatch):
    """At a task's slot and a per_resource type the window offers what the whole text
    does (the slot labels only, the types of the task's own slot), read from the lines
    of resources and of the task (jobspec/yamlwindow.py), never by a whole reading."""
    doc = _per_resource(text)
    spots = _spots(doc)
    assert len(spots) > 60
    used = []
    real = context._windowed
    monkeypatch.setattr(context, "_windowed", lambda *a: used.append(real(*a)) or used[-1])
    for offset in spots[:30] + spots[-30:]:
        monkeypatch.setattr(context, "WINDOW_FROM", 0)
        got = completion.complete_at(doc, offset, "yaml")
        monkeypatch.setattr(context, "WINDOW_FROM", 10**9)
        want = completion.complete_at(doc, offset, "yaml")
        assert [(c.label, c.kind) for c in got[0]] == [(c.label, c.kind) for c in want[0]]
        assert got[1:] == want[1:] and want[0]
    assert len(used) == 60 and all(c is not None for c in used)


_VERTEX_STYLES = st.sampled_from(["plain", "quoted", "double", "comment", "compact"])


@st.composite
def _resources(draw):
    """A block ``resources`` of random vertices (types, labels of slots and of others,
    some quoted, some commented, `with` items indented or not) and tasks naming slots."""
    lines: list[str] = ["version: 1", "resources:"]
    labels: list[str] = []

    def vertex(depth: int, ind: int) -> None:
        kind = draw(st.sampled_from(["slot", "node", "core", "gpu", "socket"]))
        label = draw(st.sampled_from([None, "a", "b", "task", "yes", "1"]))
        style = draw(_VERTEX_STYLES)
        pad = " " * ind
        word = {"plain": kind, "quoted": f"'{kind}'", "double": f'"{kind}"'}.get(style, kind)
        lines.append(f"{pad}- type: {word}" + ("  # a vertex" if style == "comment" else ""))
        lines.append(f"{pad}  count: " + draw(st.sampled_from(["1", "{min: 1}", "2"])))
        if label is not None:
            lines.append(f"{pad}  label: {label}")
            labels.append(label)
        if depth < 3 and draw(st.booleans()):
            lines.append(f"{pad}  with:")
            inner = ind + 2 if style == "compact" else ind + 4
            for _ in range(draw(st.integers(1, 2))):
                vertex(depth + 1, inner)

    for _ in range(draw(st.integers(1, 3))):
        vertex(0, 2)
    lines.append("tasks:")
    for _ in range(draw(st.integers(1, 3))):
        slot = draw(st.sampled_from([*labels, "nope"])) if labels else "nope"
        lines += [
            "  - command: [app]",
            f"    slot: {slot}",
            "    count:",
            "      per_resource:",
            "        type: core",
            "        count: 1",
        ]
    lines += ["attributes:", "  system:", "    duration: 0", ""]
    return "\n".join(lines)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_resources())
def test_the_lines_of_random_resources_give_what_a_reading_gives(text):
    monkey = pytest.MonkeyPatch()
    try:
        for offset in _spots(text):
            monkey.setattr(context, "WINDOW_FROM", 0)
            got = completion.complete_at(text, offset, "yaml")
            monkey.setattr(context, "WINDOW_FROM", 10**9)
            want = completion.complete_at(text, offset, "yaml")
            assert [c.label for c in got[0]] == [c.label for c in want[0]], offset
    finally:
        monkey.undo()
    assert yamlwindow.slot_labels(text) is not None  # these lines are always read


_SMALL = """version: 1
resources:
  - type: slot
    count: 1
    label: a
    with:
      - type: core
        count: 1
  - type: slot
    count: 1
    label: b
    with:
      - type: gpu
        count: 1
tasks:
  - command: [app]
    slot: a
    count:
      per_resource:
        type: core
        count: 1
"""


@pytest.mark.parametrize(
    "old, new",
    [
        ("label: a", "label:\n      a"),  # a value on the next line
        ("  - type: slot\n    count: 1\n    label: a", "  - type:\n      slot\n    label: a"),
        ("label: a", "label: my\n      task"),  # a plain scalar over two lines
        ("label: a", 'label: a\n    note: "x\n    label: zz\n    foo: "'),  # a quote open
        ("label: b\n", "label: b\n    note: 'x\n    type: node\n    foo: '\n"),
        (
            "    with:\n      - type: core\n",
            "    with:\n      - type: node\n    with:\n      - type: core\n",
        ),
        ("slot: a\n", "slot: a\n      b\n"),  # the task's slot over two lines
        ("\n", "\r\n"),
        (
            "    with:\n      - type: core\n        count: 1",
            "    with:\n    - type: core\n      count: 1",
        ),
        ("label: a", "label: 'a'  # quoted"),
        ("label: b", "label: yes"),  # a boolean: no label
        (
            "    count: 1\n    label: b",
            "    count: {min: 1,\n        label: zz\n      }\n    label: b",
        ),
        ("  - command: [app]\n    slot: a", "  - command: [app,\n    slot: b\n   ]"),  # flow open
    ],
)
def test_the_window_offers_what_the_whole_text_does_at_odd_lines(old, new, monkeypatch):
    text = _SMALL.replace(old, new)
    for key in ("slot: ", "type: "):
        offset = text.index(key, text.index("tasks:")) + len(key)
        monkeypatch.setattr(context, "WINDOW_FROM", 0)
        got = completion.complete_at(text, offset, "yaml")
        monkeypatch.setattr(context, "WINDOW_FROM", 10**9)
        want = completion.complete_at(text, offset, "yaml")
        assert [c.label for c in got[0]] == [c.label for c in want[0]], key


@pytest.mark.parametrize(
    "resources",
    [
        "resources: [{type: slot, label: a, count: 1}]\n",  # flow
        "resources:\n  - &v {type: slot, label: a, count: 1}\n",  # anchor
        "resources:\n  - type: slot\n    label: |\n      a\n",  # block scalar
        "resources:\n\t- type: slot\n",  # tab
        "resources:\n  - type: slot\n    label: a\nresources:\n  - type: node\n",  # twice
        "resources:\n  - type: slot\n    requires:\n      - type: x\n",  # another list
        "resources:\n  type: slot\n",  # a mapping
    ],
)
def test_lines_that_cannot_be_read_alone_leave_it_to_a_whole_reading(resources):
    assert yamlwindow.slot_labels(resources + "tasks: []\n") is None


# --------------------------------------------------------------------------- JSON
# A big JSON document is read through a stand-in of the repaired text with every value
# beside the cursor's containers left out (jobspec/jsonwindow.py): what it finds must be
# what the whole text gives, keys present included.


def _same(whole, window):
    assert _core(window) == _core(whole)
    if whole is not None:
        assert (window.path, window.present, window.json) == (whole.path, whole.present, True)


@pytest.fixture
def windows(monkeypatch):
    """How each window came out: built, no cursor at all, or left to the whole reading."""
    seen: collections.Counter = collections.Counter()
    real = jsonwindow.window

    def counted(*args):
        got = real(*args)
        seen["whole" if got is None else "built" if got.text else "no cursor"] += 1
        return got

    monkeypatch.setattr(jsonwindow, "window", counted)
    return seen


def _both(monkeypatch, read, text, offset):
    monkeypatch.setattr(context, "WINDOW_FROM", 10**9)
    whole = read(text, offset, "json")
    monkeypatch.setattr(context, "WINDOW_FROM", 0)
    return whole, read(text, offset, "json")


def _places(text):
    """Where completion is asked for in JSON: string values of the keys it offers values
    for, and keys (just after the opening quote)."""
    values = [m.end() for m in re.finditer(r'"(?:type|slot|operator)":\s*"', text)]
    keys = [m.end() for m in re.finditer(r'[{,]\s*"', text)]
    return values, keys


@pytest.fixture(scope="module", params=[2, None], ids=["indented", "one-line"])
def json_text(request):
    return generate_json(30_000, request.param)


def test_the_json_window_finds_what_the_whole_text_finds(json_text, monkeypatch, windows):
    text = json_text
    rnd = random.Random(26)
    values, keys = _places(text)
    offsets = [rnd.randrange(len(text) + 1) for _ in range(250)]
    offsets += rnd.sample(values, 40) + rnd.sample(keys, 40)
    for offset in offsets:
        whole, window = _both(monkeypatch, context.cursor_context, text, offset)
        _same(whole, window)
    # the window answers everywhere in a well-formed document: no whole reading
    assert windows["whole"] == 0 and windows["built"] > 100


def _json_jobspec(indent):
    """A V1 jobspec (its vertices' keys depend on their type) whose tasks count per
    resource, beside ones counting per slot."""
    data = jobspec_data(25, 30)
    data["version"] = 1
    for i, task in enumerate(data["tasks"]):
        if i % 3 == 0:
            task["count"] = {"per_resource": {"type": "core", "count": 1}}
    return json.dumps(data, indent=indent)


@pytest.mark.parametrize("indent", [2, None], ids=["indented", "one-line"])
def test_json_completion_offers_what_the_whole_text_offers(indent, monkeypatch, windows):
    text = _json_jobspec(indent)
    values, keys = _places(text)
    blank = [m.start() + 1 for m in re.finditer(r",\n", text)][::25]
    offered = {}
    for offset in values + keys[::7] + blank:
        whole, window = _both(monkeypatch, completion.complete_at, text, offset)
        got = [(c.label, c.kind, c.insert_text) for c in window[0]]
        assert got == [(c.label, c.kind, c.insert_text) for c in whole[0]], offset
        assert window[1:] == whole[1:]
        offered[offset] = [c[0] for c in got]
    assert windows["whole"] == 0
    # after "slot": the whole document's labels; in a per_resource: the slot's types
    slots = [m.end() for m in re.finditer(r'"slot": "', text)]
    types = [m.end() for m in re.finditer(r'"per_resource": \{\s*"type": "', text)]
    assert len(slots) == 25 and len(types) == 9
    assert all(offered[at] == [f"s{i}" for i in range(25)] for at in slots)
    assert all(offered[at] == ["node", "core", "gpu"] for at in types)


_STRINGS = ["node", "core", "slot", "s1", "a b", 'x"y', "é", "a\\b", "a,b", "{x}", "[1]", "#c"]


def _random_jobspec(r: random.Random) -> str:
    def vertex(depth):
        v = {"type": r.choice(["node", "slot", "core", "gpu", 5, ""])}
        if r.random() < 0.8:
            v["count"] = r.choice([1, 2, {"min": 1, "max": 3}, "2", 1.5, True])
        if v["type"] == "slot" or r.random() < 0.2:
            v["label"] = r.choice(["s1", "s2", "task", 3, 'x"y'])
        if depth < 3 and r.random() < 0.6:
            v["with"] = [vertex(depth + 1) for _ in range(r.randint(0, 3))]
        return v

    counts = [{"per_slot": 1}, {"per_resource": {"type": r.choice(["node", "core"])}}, {}]
    parts = {
        "version": lambda: r.choice([1, 999, "1"]),
        "resources": lambda: [vertex(0) for _ in range(r.randint(0, 3))],
        "tasks": lambda: [
            {"command": [r.choice(_STRINGS)], "slot": r.choice(["s1", "s2", 4]), "count": c}
            for c in r.sample(counts, r.randint(0, 3))
        ],
        "attributes": lambda: {"system": {"environment": {s: s for s in r.sample(_STRINGS, 3)}}},
    }
    names = r.sample(list(parts), r.randint(1, 4))
    data = {name: parts[name]() for name in names}
    indent = r.choice([None, 0, 2, "\t"])
    separators = r.choice([(",", ":"), (", ", ": "), (" ,", " : ")])
    text = json.dumps(data, indent=indent, separators=separators, ensure_ascii=r.random() < 0.5)
    for _ in range(r.randint(0, 2)):  # an edit under way: a few characters in or out
        at = r.randrange(len(text) + 1)
        typed = r.choice(['"', ",", ":", "{", "}", "]", "\n", '"ty', "x", "1"])
        if r.random() < 0.6:
            text = text[:at] + typed + text[at:]
        else:
            text = text[:at] + text[at + r.randint(1, 4) :]
    return text


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_json_windows_of_random_jobspecs_find_what_the_whole_text_finds(r):
    text = _random_jobspec(r)
    wanted = [m.end() for m in re.finditer(r'[{,:]\s*"?', text)]
    offsets = [r.randrange(len(text) + 1)] + r.sample(wanted, min(3, len(wanted)))
    with pytest.MonkeyPatch.context() as monkeypatch:
        for offset in offsets:
            whole, window = _both(monkeypatch, completion.complete_at, text, offset)
            assert [(c.label, c.insert_text) for c in window[0]] == [
                (c.label, c.insert_text) for c in whole[0]
            ]
            assert window[1:] == whole[1:]
            _same(*_both(monkeypatch, context.cursor_context, text, offset))


# a JSON document on one line is one line of a megabyte: what cursor_context reads of the
# line before the cursor is looked for without walking it character by character
def _in_comment_by_characters(before):
    quote = None
    for i, ch in enumerate(before):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or before[i - 1] in " \t"):
            return True
    return False


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab #'\"\t:", max_size=40))
def test_a_comment_is_found_as_a_walk_of_the_line_finds_it(before):
    assert context._in_comment(before) == _in_comment_by_characters(before)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='a1-_ "{:', max_size=30), st.integers(0, 400))
def test_the_word_before_the_cursor_is_found_from_the_line_end(head, length):
    before = head + "x" * length
    assert context._word_start(before) == context._WORD.search(before).start()
    before = "x" * length + head
    assert context._word_start(before) == context._WORD.search(before).start()


def test_the_window_is_used_at_most_places(text, monkeypatch):
    """The window reads the text whole only where its lines cannot say (a value going
    on below the cursor's line): a cursor on a key whose block is below is not one."""
    real = context._windowed
    got: list = []
    monkeypatch.setattr(context, "_windowed", lambda *a: got.append(real(*a)) or got[-1])
    monkeypatch.setattr(context, "WINDOW_FROM", 0)
    rnd = random.Random(7)
    for offset in [rnd.randrange(len(text)) for _ in range(300)]:
        context.cursor_context(text, offset, "yaml")
    at_with = text.index("with:") + 2  # wi|th: a key with a block below it
    context.cursor_context(text, at_with, "yaml")
    assert got[-1] is not None
    assert sum(c is None for c in got) < len(got) // 3
