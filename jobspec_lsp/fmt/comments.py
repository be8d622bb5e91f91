"""The comments of the text `jobspec fmt` lays out, each given to what it belongs to.

A comment after a token on its line follows that token (``Comments.eol``); a run of
comment-only and blank lines goes above the entry after it (``Entry.leading``), after
the entry it is indented under (``Entry.closing``), at the head of the document or
after everything; inside a flow collection, to the entry of that collection around it.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from jobspec_lsp.fmt.tree import HASH, Entry, Tree


class Comments:
    """Every comment and blank line of the text, given to what it belongs to."""

    def __init__(self, tree: Tree):
        self.tree = tree
        self.eol: dict[int, list[str]] = {}  # token end -> comments after it on its line
        self.header: list[str | None] = []  # heads the document
        self.trailer: list[str | None] = []  # after everything
        self.positions: list[int] = []  # the '#' of every comment
        self.preamble_end = tree.doc_start[0] if tree.doc_start else 0
        self._scalar_starts = [s for s, _ in tree.scalars]
        self._header_starts = [s for s, _ in tree.headers]
        self._place_groups(self._groups())

    # ------------------------------------------------------------ reading the lines
    def _lines(self):
        """(start, end) of every line after the preamble (the text before `---`)."""
        text = self.tree.text
        lines = self.tree.line_starts
        nlines = len(lines)
        for line in range(nlines):
            ls = lines[line]
            if ls >= len(text):
                break
            le = lines[line + 1] - 1 if line + 1 < nlines else len(text)
            if ls >= self.preamble_end:
                yield ls, le

    def _comment_at(self, p: int, le: int) -> int | None:
        """The '#' of the comment between ``p`` and the line end ``le``, or None."""
        tree = self.tree
        for m in HASH.finditer(tree.text, p, le):
            h = m.start()
            if not _inside(tree.scalars, self._scalar_starts, h) and not _inside(
                tree.headers, self._header_starts, h
            ):
                return h
        return None

    def _groups(self) -> list[tuple[int, int, list]]:
        """Read every line: a comment after a token of its line follows that token
        (``eol``); each run of comment-only and blank lines, and each comment after no
        token of its line, is a group ``(start, end, lines)`` (a line: its comment's
        column and text, or None for a blank line) for :meth:`_place_groups`."""
        tree = self.tree
        text = tree.text
        spans = tree.scalars
        starts = self._scalar_starts
        token_ends = sorted(tree.tokens)
        groups: list[tuple[int, int, list]] = []
        run: list | None = None  # the lines of the run being read
        for ls, le in self._lines():
            p = ls
            k = bisect_right(starts, p) - 1
            inside = k >= 0 and spans[k][0] <= p < spans[k][1]
            if inside:
                p = spans[k][1]
                if p >= le:
                    run = None
                    continue  # a line of a scalar
            hash_at = self._comment_at(p, le)
            if hash_at is not None:
                self.positions.append(hash_at)
            before = text[p : hash_at if hash_at is not None else le]
            if not inside and not before.strip():  # a comment-only or blank line
                if run is None:
                    run = []
                    groups.append((ls, le, run))
                else:
                    groups[-1] = (groups[-1][0], le, run)
                assert hash_at is not None or not text[ls:le].strip()
                run.append(None if hash_at is None else (hash_at - ls, text[hash_at:le].rstrip()))
                continue
            run = None
            if hash_at is None:
                continue
            note = text[hash_at:le].rstrip()
            i = bisect_right(token_ends, hash_at) - 1  # the last token ending before it
            if i >= 0 and token_ends[i] > ls:
                self.eol.setdefault(token_ends[i], []).append(note)
            else:
                groups.append((ls, le, [(hash_at - ls, note)]))
        return groups

    # ------------------------------------------------------------ placing the groups
    def _place_groups(self, groups) -> None:
        """Give each group to what it belongs to, by where it stands among the entries."""
        tree = self.tree
        entries = tree.entries
        starts = [e.start for e in entries]
        flows = sorted(tree.flows, key=lambda f: (f[0], f[1]))
        fstarts = [f[0] for f in flows]
        reach: list[int] = []
        for f in flows:
            reach.append(max(f[1], reach[-1] if reach else -1))
        for gstart, gend, glines in groups:
            if not any(g is not None for g in glines):
                if gstart <= (entries[0].start if entries else 0):
                    continue  # blank lines before the first entry
            i = bisect_left(starts, gend)
            nxt = entries[i] if i < len(entries) else None
            j = bisect_left(starts, gstart) - 1
            prev = entries[j] if j >= 0 else None
            flow = _innermost(flows, fstarts, reach, gstart)
            if flow is not None:
                self._in_flow(flow, prev, nxt, glines)
            elif prev is None:
                self._at_top(nxt, glines)
            else:
                self._after(prev, nxt, glines)

    def _in_flow(self, flow, prev: Entry | None, nxt: Entry | None, glines) -> None:
        """A group inside a flow collection: above its next entry, after its entry
        before the group, or after the collection itself."""
        fstart, fend, owner = flow
        if nxt is not None and nxt.start < fend:
            nxt.leading.extend(_texts(glines))
        elif prev is not None and prev.start > fstart:
            while prev.parent is not owner and prev.parent is not None:
                prev = prev.parent  # the entry of this flow that holds it
            prev.closing.extend(_texts(glines))
        elif owner is not None:
            owner.closing.extend(_texts(glines))
        else:
            self.trailer.extend(_texts(glines))

    def _at_top(self, nxt: Entry | None, glines) -> None:
        """A group before every entry: up to its last blank line it heads the
        document; the rest goes above the first entry."""
        if nxt is None:
            self.trailer.extend(_texts(glines))
            return
        cut = max((k + 1 for k, g in enumerate(glines) if g is None), default=0)
        head = _texts(glines[:cut])
        while head and head[0] is None:
            head.pop(0)
        while head and head[-1] is None:
            head.pop()
        self.header.extend(head)
        nxt.leading.extend(_texts(glines[cut:]))

    def _after(self, prev: Entry, nxt: Entry | None, glines) -> None:
        """A group after the entry ``prev``: its first comments indented past the next
        entry's column close the entries they are indented under; the rest go above
        the next entry (or after everything)."""
        limit = nxt.col if nxt is not None else 0
        k = 0
        for idx, g in enumerate(glines):
            if g is None:
                continue
            if g[0] > limit:
                k = idx + 1
            else:
                break
        target: Entry | None = None
        for g in glines[:k]:
            if g is None:  # a blank line among closing comments stays with them
                if target is not None:
                    target.closing.append(None)
                continue
            target = _closing(prev, g[0])
            if target is None:
                self.trailer.append(g[1])
            else:
                target.closing.append(g[1])
        rest = glines[k:]
        if rest:
            if nxt is not None:
                nxt.leading.extend(_texts(rest))
            else:
                self.trailer.extend(_texts(rest))


def _texts(glines) -> list[str | None]:
    return [None if g is None else g[1] for g in glines]


def _closing(prev: Entry, col: int) -> Entry | None:
    """The deepest block entry around ``prev`` whose column is at or left of ``col``."""
    e: Entry | None = prev
    while e is not None:
        if not e.in_flow and e.col <= col:
            return e
        e = e.parent
    return None


def _inside(spans, starts, offset: int) -> bool:
    i = bisect_right(starts, offset) - 1
    return i >= 0 and spans[i][0] <= offset < spans[i][1]


def _innermost(flows, fstarts, reach, offset: int):
    """The innermost flow collection around ``offset`` (``reach``: the furthest end
    of the flows up to each index), or None."""
    i = bisect_left(fstarts, offset) - 1
    while i >= 0 and reach[i] > offset:
        if flows[i][1] > offset:
            return flows[i]
        i -= 1
    return None


def comment_texts(text: str | Tree) -> list[str]:
    """Every comment of the text as written (trailing white space dropped), found
    from the syntax: a '#' after white space, outside every scalar's text."""
    tree = text if isinstance(text, Tree) else Tree(text)
    src = tree.text
    spans = tree.scalars
    starts = [a for a, _ in spans]
    out = []
    line_end = -1
    for m in HASH.finditer(src):
        pos = m.start()
        if pos < line_end or _inside(spans, starts, pos):
            continue  # inside a comment, or text of a scalar (a header's '#' is a comment)
        eol = src.find("\n", pos)
        line_end = len(src) if eol == -1 else eol
        out.append(src[pos:line_end].rstrip())
    return out
