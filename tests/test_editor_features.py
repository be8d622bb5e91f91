"""The pure editor features never raise, whatever the text and the cursor."""

import random

from helpers import REPO
from hypothesis import given, settings
from hypothesis import strategies as st

from jobspec_lsp import completion, hover, navigation
from jobspec_lsp.document import parse

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


def test_features_survive_mutated_examples_at_every_kind_of_offset():
    rnd = random.Random(7)
    for _ in range(300):
        text = mutate(rnd.choice(EXAMPLES), rnd)
        doc = parse(text)
        for _ in range(5):
            off = rnd.randint(0, len(text))
            completion.complete(text, off)
            if doc.root is not None:
                hover.hover(doc, off)
                navigation.definition(doc, off)
                navigation.references(doc, off)
                navigation.prepare_rename(doc, off)
        navigation.document_symbols(doc)
        navigation.folding_ranges(doc)
        navigation.inlay_hints(doc, 0, len(text))


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=" -:{}[],'\"#\nabcy0123&*", max_size=80), st.integers(0, 80))
def test_completion_never_raises(text, off):
    completion.complete(text, min(off, len(text)))


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
