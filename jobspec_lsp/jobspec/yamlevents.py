"""The YAML event reader: libyaml's events into the positioned tree, with an explicit
stack, and the reading of one whole document (JSON held to Python's reader first; what
libyaml refuses said as a diagnostic; an empty document refused).

Events rather than PyYAML's composer: the composer resolves every scalar through Python
and recurses in C (deep input would overflow the stack); events are several times
faster, and nesting depth (JS908), aliases and anchors (JS907) and a second document
(JS903) are checked as they come, before they can hurt."""

from __future__ import annotations

import yaml
from yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)

from jobspec_lsp.diagnostics import Diagnostic
from jobspec_lsp.jobspec import jsonreading
from jobspec_lsp.jobspec.building import Frame, NodeBuilder
from jobspec_lsp.jobspec.problems import (
    ALIAS_BOMB,
    EMPTY_DOCUMENT,
    MAX_DEPTH,
    MAX_EXPANSION,
    SYNTAX,
    TOO_DEEP,
)
from jobspec_lsp.jobspec.tree import Document, Node, Scalar, Sequence
from jobspec_lsp.jobspec.yamlerrors import (
    error_offset,
    library_depth_limit,
    multiple_documents,
    syntax_error,
)
from jobspec_lsp.jobspec.yamlvalues import MAP, NULL, SEQ
from jobspec_lsp.text.positions import LineIndex

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

# the C loader is what Flux uses and what makes us fast (the pure one without libyaml)
LOADER: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class Abort(Exception):
    """The reading stops: what stopped it is reported (too deep, an alias bomb, ...)."""


class TreeReader(NodeBuilder):
    """Builds the tree of one text from libyaml's events (``loader``: the YAML library's
    loader class that gives them)."""

    def __init__(self, text: str, lines: LineIndex, language: str, loader: type = LOADER):
        super().__init__(text, lines, language)
        self.loader = loader
        self.sizes: dict[int, int] = {}  # nodes reachable from a collection, aliases included
        self.depth_base = 0  # levels above the text read (a block entry read alone: incremental)
        self._anchors: dict[str, Node] = {}
        self._open_anchors: set[str] = set()  # the anchors of collections not finished yet

    # ----------------------------------------------------------------- driver
    def run(self) -> Document:
        """The document of the whole text, with every problem found."""
        if self.json:
            refused = jsonreading.refusal(self.text)
            if refused is not None:
                self.problems.extend(refused)
                return self._doc(None)
        try:
            root = self.build()
        except yaml.MarkedYAMLError as exc:
            if library_depth_limit(exc):
                self._library_too_deep(exc)
            else:
                self.problems.append(syntax_error(exc, self.text, self.lines))
            return self._doc(None)
        except yaml.YAMLError as exc:  # pragma: no cover - unmarked errors
            self.report(SYNTAX, f"invalid YAML: {exc}", 0, 0)
            return self._doc(None)
        except Abort:
            return self._doc(None)
        if root is None or (
            isinstance(root, Scalar)
            and root.value is None
            and root.style is None
            and root.tag == NULL
        ):
            self.report(
                EMPTY_DOCUMENT,
                "the file holds no jobspec (it is empty or only comments)",
                0,
                len(self.lines.line_text(0)) if self.text else 0,
            )
            return self._doc(None)
        return self._doc(root)

    def build(self) -> Any:
        """The root node of the text (None: no node); raises what libyaml raises, and
        :class:`Abort`."""
        text = jsonreading.for_libyaml(self.text) if self.json else self.text
        loader = self.loader(text)
        try:
            return self._events(loader)
        finally:
            loader.dispose()

    def _doc(self, root: Any) -> Document:
        self.problems.sort(key=Diagnostic.sort_key)
        return Document(
            self.text,
            self.lines,
            root,
            self.problems,
            "json" if self.json else "yaml",
            self.count,
            self.entangled,
        )

    # ----------------------------------------------------------------- events
    def _events(self, loader: Any) -> Any:
        get = loader.get_event
        check = loader.check_event
        stack: list[Frame] = []
        node: Node | None
        root = None
        documents = 0
        scalar = self.scalar
        while check():
            ev = get()
            cls = type(ev)
            if cls is ScalarEvent:
                node = scalar(ev)
                self.count += 1
                if ev.anchor is not None:
                    self._anchors[ev.anchor] = node
                    self.entangled = True
            elif cls is MappingStartEvent or cls is SequenceStartEvent:
                stack.append(self._open(ev, cls is MappingStartEvent, len(stack)))
                continue
            elif cls is MappingEndEvent or cls is SequenceEndEvent:
                node = self._close(stack.pop(), ev.end_mark.index)
            elif cls is AliasEvent:
                node = self._alias(ev)
            elif cls is DocumentStartEvent:
                documents += 1
                if documents > 1:
                    self.problems.append(
                        multiple_documents(self.text, self.lines, ev.start_mark.index)
                    )
                    return root
                continue
            else:  # stream start/end, document end
                continue
            # a finished node: attach it to its parent
            if stack:
                parent = stack[-1]
                parent.items.append(node)
                parent.size += self.sizes.get(id(node), 1)
            else:
                root = node
        return root

    def _open(self, ev: Any, is_map: bool, depth: int) -> Frame:
        """The frame of a collection that starts (``depth`` collections around it)."""
        start = ev.start_mark.index
        if depth + self.depth_base >= MAX_DEPTH:
            message = f"nesting deeper than {MAX_DEPTH} levels is not analysed"
            self.report(TOO_DEEP, message, start, start + 1)
            raise Abort
        tag = ev.tag
        if tag is not None and tag != "!":
            self.check_collection_tag(tag, MAP if is_map else SEQ, start)
        if ev.anchor is not None:
            self._open_anchors.add(ev.anchor)
            self.entangled = True
        self.count += 1
        return Frame("map" if is_map else "seq", start, tag, bool(ev.flow_style), ev.anchor)

    def _close(self, frame: Frame, end: int) -> Node:
        """The node of a collection that ends at ``end``."""
        node: Node
        if frame.kind == "map":
            node = self.mapping(frame, end)
        else:
            node = Sequence(frame.start, end, frame.items, frame.flow)
        self.sizes[id(node)] = frame.size
        if frame.size > MAX_EXPANSION and frame.size > 10 * self.count:
            self._bomb(node)
        if frame.anchor is not None:
            self._anchors[frame.anchor] = node
            self._open_anchors.discard(frame.anchor)
        return node

    def _alias(self, ev: Any) -> Node:
        """The node an alias names; a recursive alias or an unknown one stops the reading."""
        self.entangled = True
        name = ev.anchor
        start, end = ev.start_mark.index, ev.end_mark.index
        if name in self._open_anchors:
            message = "this alias refers to the node that contains it (recursive alias)"
            self.report(ALIAS_BOMB, message, start, end)
            raise Abort
        node = self._anchors.get(name)
        if node is None:
            message = f"the alias *{name} refers to no anchor (&{name}) defined before it"
            self.report(SYNTAX, message, start, end)
            raise Abort
        return node

    def _bomb(self, node: Node) -> None:
        line = self.lines.position(node.start).line
        eol = self.lines.line_start(line) + len(self.lines.line_text(line))
        self.report(
            ALIAS_BOMB,
            f"aliases expand this document to more than {MAX_EXPANSION:,} "
            f"nodes (from {self.count:,} written); refusing to analyse it",
            node.start,
            max(min(eol, node.end), node.start + 1),
        )
        raise Abort

    def _library_too_deep(self, exc: yaml.MarkedYAMLError) -> None:
        """JS908 when the YAML library refuses the nesting before MAX_DEPTH is met.

        libyaml 0.2.6 (in PyYAML 6.0.4's wheels) stops at 1,000 levels, but while scanning
        ahead: a flow collection is scanned to its end before its first event reaches
        the check in _open.  The text before the library's stopping point is read
        again (events stream there), so the diagnostic is the one MAX_DEPTH gives, on
        the opener past the limit; a library stopping below MAX_DEPTH gets JS908 at its
        own stopping point."""
        off = error_offset(exc, self.text)
        if off < len(self.text):
            head = self.text[:off]
            probe = TreeReader(head, LineIndex(head), "yaml", self.loader)
            probe.run()
            found = [d for d in probe.problems if d.code == TOO_DEEP]
            if found:
                self.problems.append(found[0])
                return
        self.report(
            TOO_DEEP,
            f"nesting is too deep to read: the YAML library stops here ({exc.problem}); "
            "the document is not analysed",
            off,
            min(off + 1, len(self.text)) or off,
        )
