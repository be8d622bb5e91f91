"""Navigation, folding, symbols and inlay hints, in process, with the cursor marked
in the text (‸) and expected spans written inline."""

import pytest

from jobspec_lsp.features import navigation
from jobspec_lsp.jobspec.document import parse

CURSOR = "‸"

TEXT = """version: 999
resources:
  - type: node
    count: 2
    with:
      - type: slot
        count: 4
        label: work
        with:
          - type: core
            count: 2
tasks:
  - command: [app]
    slot: work
    count: {per_slot: 1}
attributes:
  system:
    duration: 60
"""


def at(marked: str):
    """(document, cursor offset) of a text with one cursor marker."""
    offset = marked.index(CURSOR)
    return parse(marked.replace(CURSOR, "", 1)), offset


def spans(doc, nodes):
    return [doc.text[n.start : n.end] for n in nodes]


def nth(text, word, n=0):
    i = -1
    for _ in range(n + 1):
        i = text.index(word, i + 1)
    return i


@pytest.mark.parametrize(
    "marked",
    [
        TEXT.replace("    slot: work", "    slot: wo‸rk"),  # on the use
        TEXT.replace("        label: work", "        label: ‸work"),  # on the declaration
    ],
)
def test_definition_and_references_of_a_slot_label(marked):
    doc, off = at(marked)
    d = navigation.definition(doc, off)
    assert d is not None and d.start == nth(doc.text, "work", 0)
    refs = navigation.references(doc, off)
    assert [r.start for r in refs] == [nth(doc.text, "work", 0), nth(doc.text, "work", 1)]
    assert [r.start for r in navigation.references(doc, off, include_declaration=False)] == [
        nth(doc.text, "work", 1)
    ]


def test_rename_changes_the_label_and_every_use():
    doc, off = at(TEXT.replace("    slot: work", "    slot: ‸work"))
    assert navigation.prepare_rename(doc, off) is not None
    edits = navigation.rename(doc, off, "main")
    out = doc.text
    for s, e, t in sorted(edits, reverse=True):
        out = out[:s] + t + out[e:]
    assert "label: main" in out and "slot: main" in out and "work" not in out


def test_nothing_to_navigate_off_a_label():
    doc, off = at(TEXT.replace("    duration: 60", "    dura‸tion: 60"))
    assert navigation.definition(doc, off) is None
    assert navigation.references(doc, off) == []
    assert navigation.prepare_rename(doc, off) is None


def test_folding_ranges_end_on_the_last_line_of_their_content():
    doc = parse(TEXT)
    lines = TEXT.split("\n")
    folds = navigation.folding_ranges(doc)
    # every fold starts on a line that opens something and ends on a line of its own
    # content: never on the next sibling's line
    for a, b in folds:
        assert b > a
        assert lines[b + 1 : b + 2] != [] and not lines[b].lstrip().startswith("- type")
    resources = lines.index("resources:")
    tasks = lines.index("tasks:")
    assert (resources, tasks - 1) in folds


def test_symbols_follow_the_jobspec():
    symbols = navigation.document_symbols(parse(TEXT))
    assert [s.name for s in symbols] == ["version", "resources", "tasks", "attributes"]

    def walk(s):
        return [(s.name, s.detail)] + [n for c in s.children for n in walk(c)]

    assert walk(symbols[1]) == [
        ("resources", ""),
        ("node ×2", ""),
        ("slot ×4", "label work"),
        ("core ×2", ""),
    ]


def test_inlay_hint_totals_a_repeated_count():
    doc = parse(TEXT)
    hints = navigation.inlay_hints(doc, 0, len(TEXT))
    core_count = TEXT.index("count: 2", TEXT.index("type: core"))
    assert (core_count + len("count: 2"), "= 16 in all") in hints


def test_inlay_hint_totals_keep_the_unit():
    text = TEXT.replace(
        "          - type: core\n            count: 2\n",
        "          - type: core\n            count: 2\n          - type: memory\n"
        "            count: 3\n            unit: GB\n",
    )
    doc = parse(text)
    at = text.index("count: 3") + len("count: 3")
    assert (at, "= 24 GB in all") in navigation.inlay_hints(doc, 0, len(text))


def test_a_fold_never_takes_the_next_siblings_line():
    text = TEXT.replace(
        "          - type: core\n            count: 2\n",
        "          - type: core\n            count: 2\n          - type: gpu\n            count: 1\n",
    )
    lines = text.split("\n")
    folds = navigation.folding_ranges(parse(text))
    core = lines.index("          - type: core")
    assert (core, core + 1) in folds  # the core item: its two lines, not the gpu's
    for a, b in folds:
        assert not lines[b].lstrip().startswith("- "), (a, b, lines[b])
