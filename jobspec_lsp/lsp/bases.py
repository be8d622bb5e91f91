"""Which document each open document's next edit is read against, and who reads which
(pure threading, no LSP; tests/test_bases.py).

An edit of a big document is read entry by entry against the previous version
(:mod:`jobspec_lsp.jobspec.incremental`). Moving the previous tree's later nodes in
place is five times faster than copying them, but a request may still be reading that
tree in a thread (hover, symbols, folding on the version it was asked about). So:

- a request that reads a document off the event loop holds it (``reading``) while it
  does; a document already given up is refused (``Stale``: the request was about a
  version the editor has left, and its answer would be dropped anyway);
- the analysis of a new version takes the base (``take``): it may give it up and move
  its nodes in place only when no request holds it; otherwise they are copied.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class Stale(Exception):
    """The document was given up for a newer version while a request waited."""


class Bases:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._base: dict[str, Any] = {}
        self._readers: dict[int, int] = {}  # id(document) -> requests reading it

    def take(self, uri: str, text: str) -> tuple[Any, bool]:
        """``(document, consume)``: the base of ``uri``'s next reading of ``text`` (no
        other analysis gets it) and whether it may be given up (no request reads it);
        ``(None, False)`` when there is none. A base of the same text is not taken (it
        is that reading already: a settings change analyses it again)."""
        with self._lock:
            doc = self._base.get(uri)
            if doc is None:
                return None, False
            if doc.text == text:
                return doc, False
            del self._base[uri]
            if self._readers.get(id(doc)):
                return doc, False
            doc.derived["consumed"] = True
            return doc, True

    def keep(self, uri: str, doc: Any) -> None:
        """``doc`` (the newest reading) is ``uri``'s base from now on."""
        with self._lock:
            doc.derived.pop("consumed", None)  # an unchanged text gives back its base
            self._base[uri] = doc

    def drop(self, uri: str) -> None:
        with self._lock:
            self._base.pop(uri, None)

    @contextmanager
    def reading(self, doc: Any) -> Iterator[None]:
        """Hold ``doc`` while a request reads it; ``Stale`` if it was given up."""
        key = id(doc)
        with self._lock:
            if doc.derived.get("consumed"):
                raise Stale
            self._readers[key] = self._readers.get(key, 0) + 1
        try:
            yield
        finally:
            with self._lock:
                left = self._readers[key] - 1
                if left:
                    self._readers[key] = left
                else:
                    del self._readers[key]
