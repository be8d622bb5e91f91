"""The YAML layout of `jobspec fmt`: a printer over libyaml's events, in three steps.

The text is read once into a syntax tree (:mod:`jobspec_lsp.fmt.tree`: every node with
its source span, properties and flow/block style; nothing resolved, so aliases, merge
keys and duplicate keys stay what they are), every comment and blank line is given to
the entry it belongs to (:mod:`jobspec_lsp.fmt.comments`), and the tree is printed in
the project's style (:mod:`jobspec_lsp.fmt.printer`).  Scalars are never re-spelt: each
is copied from the source.

This module only lays out.  :func:`jobspec_lsp.fmt.format.format_text` checks every
result (the data Flux reads and every comment) and falls back to a more
conservative layout when a check fails; see docs/formatting.md for the style.
"""

from __future__ import annotations

from jobspec_lsp.fmt.comments import Comments, comment_texts
from jobspec_lsp.fmt.printer import ORDER, Printer
from jobspec_lsp.fmt.tree import Entry, Node, Tree, Unformattable, block_content

# the names the formatter, the tests and scripts/fuzz.py use, from the steps that hold them
__all__ = [
    "ORDER",
    "Comments",
    "Entry",
    "Node",
    "Printer",
    "Tree",
    "Unformattable",
    "block_content",
    "comment_texts",
    "layout",
]


def layout(text: str | Tree, width: int = 80, sort_keys: bool = True) -> str:
    """``text`` printed in the house style; :class:`Unformattable` when it cannot be."""
    tree = text if isinstance(text, Tree) else Tree(text)  # read
    comments = Comments(tree)  # place the comments
    return Printer(tree, comments, width, sort_keys).render()  # print
