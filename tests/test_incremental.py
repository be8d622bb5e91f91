"""Reading again only the edited entry (issue 26): the result is the document a whole
reading builds, node for node (offsets, values, styles, tags), problem for problem and
in its node count; the previous document is never changed; and the entry path is the
one typical edits take (or the speed it exists for is gone while every test passes)."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jobspec_lsp.jobspec import incremental
from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.jobspec.tree import Document, Mapping, Scalar
from jobspec_lsp.text.positions import LineIndex

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from generate import generate

# documents with the shapes an entry's reading must get right: comments and blank lines
# between and after entries, block scalars, indentless lists, flow collections inside
# entries, multi-line plain and quoted scalars, empty values, document markers, CRLF
BASES = [
    generate(6_000),
    "version: 1\nresources:\n- type: node\n  count: 2\n  with:\n  - type: slot\n"
    "    count: 1\n    label: default\n    with:\n    - {type: core, count: 2}\n"
    '# a comment\n\ntasks:\n- command: ["app", "--x"]\n  slot: default\n'
    "  count:\n    per_slot: 1\nattributes:\n  system:\n    duration: 3600\n"
    "    script: |\n      #!/bin/sh\n      echo hi\n\n    cwd: /tmp\n",
    "---\nversion: 9\nresources:\n  - type: slot\n    label: 'a\n      b'\n"
    "    count: 1\n    with:\n      - type: core\n        count: 1\n  # trailing\n"
    "tasks:\n  - command:\n      - app\n      - long plain\n        continued\n"
    "    slot: a b\n    count:\n      per_slot: 1\n"
    "attributes:\n  user:\n    empty:\n    note: >\n      folded\n      text\n"
    '    when: "2024\n      x"\n...\n',
    "version: 1\r\nresources:\r\n  - type: node\r\n    count: 1\r\n"
    "tasks:\r\n  - command: [a]\r\n    slot: s\r\n"
    'attributes:\r\n  system:\r\n    environment:\r\n      A: "1"\r\n      B: yes\r\n',
]

PIECES = [
    "",
    "x",
    "1",
    " ",
    "\n",
    "\n  ",
    "\n    ",
    "- ",
    "  - type: core\n",
    "    count: 2\n",
    "a: b\n",
    "k: v",
    "#",
    "# note\n",
    ":",
    "'",
    '"',
    "{",
    "[",
    "]",
    "|\n",
    "&a ",
    "*a",
    "<<: {}\n",
    "\t",
    "yes",
    "0755",
    "2024-01-01",
    "---\n",
    "\r\n",
    "\r",
    "é",
    "? ",
    "!!map\n",
    "!!str ",
    "&x ",
]


def dump(node):
    if node is None:
        return None
    if isinstance(node, Scalar):
        return ("S", node.start, node.end, repr(node.value), node.style, node.tag)
    if isinstance(node, Mapping):
        pairs = [(dump(k), dump(v)) for k, v in node.pairs]
        return ("M", node.start, node.end, node.flow, pairs, sorted(map(repr, node.index.items())))
    return ("Q", node.start, node.end, node.flow, [dump(i) for i in node.items])


def same(a: Document, b: Document) -> bool:
    def problems(d):
        return [(p.code, p.severity, p.start, p.end, p.message, p.data) for p in d.problems]

    return (
        a.text == b.text
        and dump(a.root) == dump(b.root)
        and problems(a) == problems(b)
        and a.node_count == b.node_count
    )


edit = st.tuples(
    st.floats(0, 1, allow_nan=False), st.sampled_from([0, 0, 1, 2, 5, 30]), st.sampled_from(PIECES)
)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    base=st.sampled_from(BASES),
    edits=st.lists(edit, min_size=1, max_size=6),
    consume=st.booleans(),
)
def test_reading_again_equals_reading_whole(base, edits, consume):
    doc = parse(base)
    for where, cut, piece in edits:
        at = int(where * len(doc.text))
        text = doc.text[:at] + piece + doc.text[at + cut :]
        before = dump(doc.root)
        got = incremental.reparse(doc, text, min_chars=0, consume=consume)
        assert same(got, parse(text)), (at, cut, piece)
        if not consume:
            assert dump(doc.root) == before  # the previous document is never changed
        doc = got if got.root is not None else parse(text) if consume else doc


def _typing(text: str, count: int):
    """Edits as typing makes them: a character typed or taken out inside a value."""
    places = [m.start(1) for m in re.finditer(r"count: ([0-9])", text)]
    for i in range(count):
        at = places[i * 7 % len(places)]
        yield (text[:at] + "9" + text[at:]) if i % 2 == 0 else (text[:at] + text[at + 1 :])


def test_typical_edits_read_one_entry():
    text = generate(60_000)
    doc = parse(text)
    ways = []
    for new in _typing(text, 40):
        got = incremental.reparse(doc, new)
        assert same(got, parse(new))
        ways.append(incremental.how(got))
    assert ways == ["entry"] * 40


def test_appending_at_the_end_and_a_new_list_entry():
    text = generate(30_000)
    doc = parse(text)
    for new in (
        text + '      VAR_NEW: "x"\n',
        text.replace("tasks:\n", "tasks:\n  - command: [b]\n    slot: s0\n", 1),
        text.replace("  - type: switch\n", "  - type: switch\n    exclusive: true\n", 1),
    ):
        got = incremental.reparse(doc, new)
        assert same(got, parse(new))
        assert incremental.how(got) == "entry"


def test_what_cannot_be_read_alone_is_read_whole():
    text = generate(30_000)
    doc = parse(text)
    env = text.index("      VAR_1:")
    cases = {
        "a repeated key (its message names the first one's line)": text[:env]
        + '      VAR_0: "again"\n'
        + text[env:],
        "an alias": text[:env] + "      VAR_A: &a x\n      VAR_B: *a\n" + text[env:],
        "an unclosed quote": text[:env] + '      VAR_Q: "open\n' + text[env:],
        "a dedented line": text[:env] + "    duration2: 1\n" + text[env:],
    }
    for why, new in cases.items():
        got = incremental.reparse(doc, new)
        assert incremental.how(got) == "whole", why
        assert same(got, parse(new)), why


def test_small_json_and_unchanged_documents():
    small = parse("version: 1\n")
    assert incremental.how(incremental.reparse(small, "version: 2\n")) == "whole"
    text = generate(30_000)
    doc = parse(text)
    assert incremental.reparse(doc, text) is doc
    js = parse('{"version": 1}' + " " * 30_000, "json")
    assert incremental.how(incremental.reparse(js, '{"version": 2}' + " " * 30_000, "json")) == (
        "whole"
    )


@given(
    old=st.text(alphabet="ab\n", max_size=40),
    new=st.text(alphabet="ab\n", max_size=40),
)
def test_the_change_found(old, new):
    p, oe, ne = incremental.changed(old, new)
    assert old[:p] == new[:p] and old[oe:] == new[ne:]
    assert new == new[:p] + new[p:ne] + new[ne:] and old[:p] + new[p:ne] + old[oe:] == new
    assert p <= oe and p <= ne


@given(
    old=st.text(alphabet="ab\n\r", max_size=40),
    start=st.integers(0, 40),
    cut=st.integers(0, 10),
    new=st.text(alphabet="xy\n\r", max_size=6),
)
def test_the_line_index_of_an_edit(old, start, cut, new):
    start = min(start, len(old))
    end = min(start + cut, len(old))
    text = old[:start] + new + old[end:]
    edited = LineIndex(old).edited(text, start, end, start + len(new))
    assert edited._starts == LineIndex(text)._starts


@pytest.mark.parametrize("pending", [3, incremental.MAX_PENDING])
def test_a_long_typing_session_read_against_its_own_tree(monkeypatch, pending):
    """200 edits, each read against the document before it and giving it up: the
    nodes a later edit moves are moved only when read (a few edits at a time here, all
    of them at the end), and caught up all together every ``MAX_PENDING`` edits."""
    monkeypatch.setattr(incremental, "MAX_PENDING", pending)
    text = generate(40_000)
    doc = parse(text)
    rng = random.Random(3)
    places = [m.start(1) for m in re.finditer(r"(?:count|VAR_\d+): \"?([0-9a-z])", text)]
    ways = set()
    for step in range(200):
        at = rng.choice(places)
        at = min(at, len(doc.text) - 1)
        text = doc.text
        new = text[:at] + rng.choice(["7", "77", ""]) + text[at + (text[at].isalnum()) :]
        doc = incremental.reparse(doc, new, consume=True)
        ways.add(incremental.how(doc))
        if step % 37 == 0 or step == 199:
            assert same(doc, parse(new)), step
    assert "entry" in ways


def _found(diags):
    return sorted((d.code, d.start, d.end, d.message, repr(d.data)) for d in diags)


LABEL_EDITS = [
    ("label: s1\n", "label: s0\n"),  # a duplicate label
    ("slot: s2\n", "slot: sx\n"),  # a task's unknown slot
    ("count: 4\n", "count: 0\n"),
    ("type: core\n", "type: cores\n"),
    ("- type: gpu\n", "- typo: gpu\n"),
    ("count: {per_slot: 1}", "count: {per_resource: {type: core, count: 1}}"),
    ("label: s3\n", "label: s3\n        label: s3b\n"),
    ("  - command: [app, --rank, '4']\n", "  - command: [app]\n    bogus: 1\n"),
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    steps=st.lists(
        st.tuples(st.sampled_from(LABEL_EDITS), st.integers(0, 5), st.booleans()),
        min_size=1,
        max_size=8,
    ),
    v1=st.booleans(),
)
def test_what_rules_remember_of_untouched_parts_is_what_they_would_find(steps, v1):
    """The rule families remember their findings per top-level vertex, count and task
    (rules.base.Memo) across edits read entry by entry: each version's findings are
    the ones a whole reading and checking gives."""
    from jobspec_lsp.rules import analysis

    text = generate(25_000)
    if v1:
        text = text.replace("version: 999", "version: 1")
    doc = parse(text)
    analysis.check(doc)
    for (old, new), nth, back in steps:
        at = -1
        for _ in range(nth + 1):
            at = doc.text.find(old, at + 1)
        if at < 0:
            continue
        text = doc.text[:at] + new + doc.text[at + len(old) :]
        if back:  # and undone: the same nodes come back to the same places
            text2 = text
            doc = incremental.reparse(doc, text2, min_chars=0, consume=True)
            analysis.check(doc)
            text = text2[:at] + old + text2[at + len(new) :]
        doc = incremental.reparse(doc, text, min_chars=0, consume=True)
        assert _found(analysis.check(doc)) == _found(analysis.check(parse(text)))


# found by a review: each read alone once, read whole now (and always equal to it)
REVIEWED = {
    "a %TAG directive gives handles a piece would not have": (
        "%TAG !! tag:example.com,2000:\n---\na: 1\nb: 2\n",
        "%TAG !! tag:example.com,2000:\n---\na: 1\nb: !!int 3\n",
    ),
    "a tag on a line of its own, before an entry": ("a: 1\nb:\n  c: 2\n", "a: 1\n!!map\n  c: 2\n"),
    "a tagged mapping's first entry": ("y:\n- !!map\n  b: 1\n", "y:\n- !!map\n  b: 11\n"),
    "an explicit key's empty value": ("a:\n  - 1\n  - 2\n", "a:\n  - ? 1\n  - 2\n"),
    "an explicit key starting a mapping": ("a:\n  x: 1\nb: 2\n", "a:\n  ? x\n# c\nb: 2\n"),
    "a lone CR before a document end marker": (
        "a:\n  b: 1\n  c: 2\nd: 3\n",
        "a:\n  b: 1\r...\n  c: 2\nd: 3\n",
    ),
}


@pytest.mark.parametrize("why", REVIEWED)
@pytest.mark.parametrize("consume", [False, True])
def test_what_a_review_found(why, consume):
    old, new = REVIEWED[why]
    assert same(incremental.reparse(parse(old), new, min_chars=0, consume=consume), parse(new))


def test_a_task_remembered_with_resources_is_not_reused_without_them():
    from jobspec_lsp.rules import analysis

    a = (
        "version: 1\nresources:\n- type: node\n  count: 1\ntasks:\n- command: [a]\n"
        "  slot: foo\n  count: {per_slot: 1}\nattributes:\n  system:\n    duration: 1\n"
    )
    a2 = a.replace("duration: 1", "duration: 2")
    b = a2.replace("- type: node\n  count: 1\n", "- 5\n")
    doc = parse(a)
    analysis.check(doc)
    for text in (a2, b):
        doc = incremental.reparse(doc, text, min_chars=0, consume=True)
        got = analysis.check(doc)
    assert _found(got) == _found(analysis.check(parse(b)))


def test_the_shared_model_does_not_keep_its_document_alive():
    """Hover and navigation keep the resource model in the document; it must not point
    back at it, or a document becomes a cycle only the collector frees (and the server
    keeps big trees out of the collector's scans)."""
    import gc
    import weakref

    from jobspec_lsp.rules import analysis

    was = gc.isenabled()
    gc.disable()
    try:
        doc = parse(generate(3_000))
        analysis.model(doc)
        ref = weakref.ref(doc)
        del doc
        assert ref() is None
    finally:
        if was:
            gc.enable()
