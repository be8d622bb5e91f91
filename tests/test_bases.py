"""The server's rule for giving up a document's tree (jobspec_lsp/lsp/bases.py): moved
in place only when no request reads it; a request never reads a tree given up."""

import threading

import pytest

from jobspec_lsp.jobspec import incremental
from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.lsp.bases import Bases, Stale

TEXT = "version: 1\nattributes:\n  system:\n    environment:\n" + "".join(
    f'      V{i}: "x"\n' for i in range(2_000)
)


def test_a_base_nobody_reads_is_given_up_and_one_being_read_is_not():
    bases = Bases()
    doc = parse(TEXT)
    bases.keep("u", doc)
    with bases.reading(doc):
        got, consume = bases.take("u", "edited")
        assert got is doc and not consume  # read meanwhile: copied, not moved
    assert bases.take("u", "edited") == (None, False)  # one analysis at a time has it
    bases.keep("u", doc)
    got, consume = bases.take("u", "edited")
    assert got is doc and consume
    with pytest.raises(Stale), bases.reading(doc):
        pass


def test_an_unchanged_text_gives_its_base_back_readable():
    bases = Bases()
    doc = parse(TEXT)
    bases.keep("u", doc)
    base, consume = bases.take("u", TEXT)  # the same text: not given up, not taken
    assert base is doc and not consume
    assert bases.take("u", TEXT) == (doc, False)
    again = incremental.reparse(base, TEXT, consume=consume)
    assert again is doc
    bases.keep("u", again)
    with bases.reading(again):
        pass


def test_the_previous_tree_stays_whole_while_a_thread_reads_it():
    bases = Bases()
    doc = parse(TEXT)
    bases.keep("u", doc)
    first = doc.root.get("attributes").start
    started, finish = threading.Event(), threading.Event()
    seen = []

    def reader():
        with bases.reading(doc):
            started.set()
            finish.wait(5)
            seen.append(doc.root.get("attributes").start)

    t = threading.Thread(target=reader)
    t.start()
    started.wait(5)
    base, consume = bases.take("u", "edited")
    new = incremental.reparse(
        base, "# a comment\n" + TEXT.replace('V5: "x"', 'V5: "xy"'), consume=consume
    )
    finish.set()
    t.join()
    assert not consume and seen == [first]  # copied: the reader saw its own version
    assert new.root.get("attributes").start == first + len("# a comment\n")
