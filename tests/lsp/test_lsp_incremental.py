"""Typing in a big document through the server (issue 26): the text the server holds
after ranged edits is the editor's (pygls's line-by-line rebuild is replaced by a
splice), and the diagnostics of each version are the ones a whole reading gives —
while the server reads again only the edited entry (tests/test_incremental.py)."""

import random

from lsp_support import open_doc, wait_published
from lsprotocol import types as T
from test_lsp_diagnostics import BROKEN as DIAGNOSED

from jobspec_lsp.rules import analysis
from jobspec_lsp.text.positions import LineIndex

BROKEN = DIAGNOSED + "    environment:\n"  # a mapping to grow: one variable per line


def _expected(text: str):
    lines = LineIndex(text)
    out = []
    for d in analysis.check(text):
        r = lines.range(d.start, d.end, encoding="utf-16")
        out.append((d.code, r.start.line, r.start.character, r.end.line, r.end.character))
    return sorted(out)


def _got(diags):
    return sorted(
        (
            d.code,
            d.range.start.line,
            d.range.start.character,
            d.range.end.line,
            d.range.end.character,
        )
        for d in diags
    )


async def test_typing_in_a_big_document_gives_a_whole_readings_diagnostics(client):
    text = BROKEN + "".join(f'      V{i}: "é{i}"\n' for i in range(3_000))
    assert len(text) > 50_000
    uri = await open_doc(client, "typing.jobspec.yaml", text)
    rng = random.Random(7)
    for version in range(2, 26):
        lines = LineIndex(text)
        line = rng.randrange(lines.line_count - 1)
        body = lines.line_text(line)
        indent = len(body) - len(body.lstrip(" "))
        col = rng.randrange(indent, len(body) + 1)
        new = rng.choice(["0", "x", "", ": 1", "\n    cores: 2", "é"])
        cut = rng.choice([0, 0, 1]) if col < len(body) else 0
        start = lines.offset(line, col)
        end = start + cut
        # the editor's columns count UTF-16 units
        a, b = lines.position(start, encoding="utf-16"), lines.position(end, encoding="utf-16")
        client.text_document_did_change(
            T.DidChangeTextDocumentParams(
                T.VersionedTextDocumentIdentifier(uri=uri, version=version),
                [T.TextDocumentContentChangePartial(range=T.Range(a, b), text=new)],
            )
        )
        text = text[:start] + new + text[end:]
        got = await wait_published(client, uri, version, timeout=30)
        assert _got(got) == _expected(text), (version, line, col, new)


def test_a_ranged_edit_counts_columns_in_the_negotiated_units():
    """pygls holds the encoding as PositionEncodingKind when the client names none (UTF-16,
    LSP's default); its str() is not "utf-16", and a splice counting UTF-8 units put every
    edit after a non-ASCII character on its line in the wrong place."""
    from pygls.workspace import TextDocument
    from pygls.workspace.position_codec import PositionCodec

    from jobspec_lsp.lsp.textsync import LspTextDocument

    change = T.TextDocumentContentChangePartial(
        range=T.Range(T.Position(0, 8), T.Position(0, 11)), text=""
    )
    texts = []
    for cls in (LspTextDocument, TextDocument):
        d = cls(
            "file:///x.yaml",
            source='n: "é😀" zz\n',
            version=1,
            position_codec=PositionCodec(),
            sync_kind=T.TextDocumentSyncKind.Incremental,
        )
        d.apply_change(change)
        texts.append(d.source)
    assert texts == ['n: "é😀"\n', 'n: "é😀"\n']
