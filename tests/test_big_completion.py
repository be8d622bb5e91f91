"""Completion in a big document reads the lines around the cursor, not the whole text
(jobspec/context.py, _windowed; issue 26): what it finds is what reading the whole text
finds, at every kind of place, and the slot labels and resource types of the whole
document are still offered."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from jobspec_lsp.features import completion
from jobspec_lsp.jobspec import context

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from generate import generate  # the benchmarks' document generator


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
