"""The server's copy of each open document's text (pygls's document and workspace,
adapted): LSP's own line breaks, and ranged edits applied as a splice at their offsets
(tests/lsp/test_lsp_incremental.py, test_lsp_diagnostics.py)."""

from __future__ import annotations

import re

from pygls.workspace import TextDocument, Workspace

from jobspec_lsp.text.positions import LineIndex

_LSP_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


class LspTextDocument(TextDocument):
    """pygls's document with LSP's lines: only ``\n``, ``\r\n`` and ``\r`` end a line.
    (``str.splitlines`` also breaks at U+2028, U+2029, U+0085, form feeds, ..., so an
    incremental edit after such a character landed on the wrong line and the server's
    copy of the text drifted from the editor's.)"""

    _lines_of: tuple[str, tuple[str, ...]] | None = None
    _index_of: LineIndex | None = None

    @property
    def lines(self):
        source = self.source
        got = self._lines_of
        if got is None or got[0] is not source:
            got = self._lines_of = (source, tuple(_LSP_LINE.findall(source)))
        return got[1]

    def _apply_incremental_change(self, change) -> None:
        """The edit spliced in at its offsets (pygls rebuilds the whole text line by
        line, ~50 ms per edit at 5 MB): the cost is the copy of the text, in C."""
        source = self.source
        index = self._index_of
        if index is None or index.text is not source:
            index = self._index_of = LineIndex(source)
        # pygls holds the negotiated encoding as a PositionEncodingKind (a str enum whose
        # str() is its name, not "utf-16") or, from some clients, as a plain string
        negotiated = getattr(self._position_codec, "encoding", None)
        encoding = str(getattr(negotiated, "value", negotiated) or "utf-16")
        r = change.range
        a = _at(index, r.start.line, r.start.character, encoding)
        b = max(a, _at(index, r.end.line, r.end.character, encoding))
        self._source = source[:a] + change.text + source[b:]
        self._index_of = index.edited(self._source, a, b, a + len(change.text))


def _at(index: LineIndex, line: int, character: int, encoding: str) -> int:
    """The offset of an LSP position: past the last line, the end of the text; past a
    line's end, the end of that line (before its line break)."""
    if line >= index.line_count:
        return len(index.text)
    offset = index.offset(line, character, encoding=encoding)
    end = index.line_start(line) + len(index.line_text(line))
    return min(offset, end)


class LspWorkspace(Workspace):
    def _create_text_document(self, doc_uri, source=None, version=None, language_id=None):
        return LspTextDocument(
            doc_uri,
            source=source,
            version=version,
            language_id=language_id,
            sync_kind=self._sync_kind,
            position_codec=self._position_codec,
        )
