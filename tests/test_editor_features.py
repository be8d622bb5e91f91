"""The pure editor features never raise, whatever the text and the cursor."""

import random

import pytest
from helpers import REPO
from hypothesis import given, settings
from hypothesis import strategies as st

from jobspec_lsp.features import completion, hover, navigation
from jobspec_lsp.jobspec.document import parse

EXAMPLES = [p.read_text() for p in sorted((REPO / "examples").glob("*.yaml"))]


def mutate(text: str, rnd: random.Random) -> str:
    chars = list(text)
    for _ in range(rnd.randint(1, 6)):
        i = rnd.randrange(len(chars) + 1)
        op = rnd.random()
        if op < 0.4 and chars:
            del chars[min(i, len(chars) - 1)]
        else:
            chars.insert(i, rnd.choice(" -:{}[],'\"#\n\tab1&*!|>"))
    return "".join(chars)


def inside(text, start, end):
    return 0 <= start <= end <= len(text)


def test_features_survive_mutated_examples_at_every_kind_of_offset():
    """No exception, and every range any feature returns lies inside the document."""
    rnd = random.Random(7)
    for _ in range(300):
        text = mutate(rnd.choice(EXAMPLES), rnd)
        doc = parse(text)
        n_lines = text.count("\n") + 1
        for _ in range(5):
            off = rnd.randint(0, len(text))
            cands, start, end = completion.complete_at(text, off)
            assert inside(text, start, end) and start <= off <= max(end, off)
            assert all(c.label for c in cands)
            if doc.root is not None:
                h = hover.hover(doc, off)
                assert h is None or (inside(text, h.start, h.end) and h.markdown)
                for node in [navigation.definition(doc, off), navigation.prepare_rename(doc, off)]:
                    assert node is None or inside(text, node.start, node.end)
                assert all(inside(text, n.start, n.end) for n in navigation.references(doc, off))
        for s in navigation.document_symbols(doc):
            assert inside(text, s.start, s.end) and s.start <= s.sel_start <= s.sel_end <= s.end
        for a, b in navigation.folding_ranges(doc):
            assert 0 <= a < b < n_lines
        for at, label in navigation.inlay_hints(doc, 0, len(text)):
            assert inside(text, at, at) and label


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=" -:{}[],'\"#\nabcy0123&*", max_size=80), st.integers(0, 80))
def test_completion_never_raises(text, off):
    off = min(off, len(text))
    cands, start, end = completion.complete_at(text, off)
    assert inside(text, start, end)
    assert all(isinstance(c.label, str) and c.label for c in cands)


def test_hover_on_values_explains_the_value():
    text = (REPO / "examples" / "canonical-range.jobspec.yaml").read_text()
    doc = parse(text)
    h = hover.hover(doc, text.index("afterok") + 2)
    assert h.markdown.startswith("`afterok`: Start after the job completed successfully.")
    assert text[h.start : h.end] == "afterok"
    h = hover.hover(doc, text.index('"*"') + 1)
    assert h.markdown == "Between 2 and 16 nodes, multiplying by 2: 2, 4, 8, 16."
    h = hover.hover(doc, text.index("{min: 2}"))
    assert h.markdown == "At least 2 sockets: as many as are available."


def test_slot_hover_counts_per_slot_with_units_and_varying_counts():
    text = (
        "version: 999\nresources:\n  - type: node\n    count: 4\n    with:\n"
        "      - type: slot\n        count: {min: 1, max: 4}\n        label: task\n"
        "        with:\n          - type: core\n            count: 2\n"
        "          - type: memory\n            count: 24\n            unit: GB\n"
        "tasks:\n  - command: [app]\n    slot: task\n    count: {per_slot: 1}\n"
        "attributes: {system: {duration: 0}}\n"
    )
    h = hover.hover(parse(text), text.index("type: slot") + 7)
    # the slot's contents do not depend on how many slots there are
    assert "a varying number of slots, each with 2 cores, 24 GB of memory" in h.markdown
    fixed = text.replace("count: {min: 1, max: 4}", "count: 2")
    h = hover.hover(parse(fixed), fixed.index("type: slot") + 7)
    assert "8 slots, each with 2 cores, 24 GB of memory" in h.markdown
    assert "Overall: 16 cores, 192 GB of memory." in h.markdown


@pytest.mark.parametrize(
    "marked,expected",
    [
        # another section is broken (an unclosed list): completion still knows where it is
        (
            "version: 1\nresources:\n  - type: slot\n    count: [1, 2\n    label: task\n"
            "attributes:\n  system:\n    qu|\n",
            "queue",
        ),
        # a later section is broken: the slot labels still come from the resources
        (
            "version: 1\nresources:\n  - type: slot\n    count: 1\n    label: task\n"
            "    with:\n      - {type: core, count: 1}\ntasks:\n  - command: [app]\n"
            "    slot: |\n    count: {per_slot: 1}\nattributes:\n  system: {duration: 0\n",
            "task",
        ),
        # the cursor's own section is broken elsewhere: its ancestors still say where
        (
            "version: 1\nresources:\n  - type: slot\n    count: 1\n    label: [task\n"
            "    with:\n      - type: core\n        cou|\n",
            "count",
        ),
    ],
)
def test_completion_works_while_another_line_is_broken(marked, expected):
    from jobspec_lsp.features import completion

    offset = marked.index("|")
    text = marked.replace("|", "")
    assert expected in [c.label for c in completion.complete(text, offset)]
