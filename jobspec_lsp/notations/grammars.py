"""The lark grammars of grammars/*.lark, loaded at this one place: where the .lark files
are, the LALR parser of each (built once, its analysis kept in the user's own cache), and
the walks over a parsed tree that need lark's classes.

Only the readers that parse a notation with a grammar import this module; a script's
check loads none of it (the notations' front, :mod:`jobspec_lsp.notations.formats`,
reaches these readers through its declared table)."""

from __future__ import annotations

import functools
import hashlib
import importlib.resources
import os
from pathlib import Path

import lark
from lark import Lark, Tree
from lark.load_grammar import FromPackageLoader

from jobspec_lsp.notations.limits import MAX_NESTING

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

    # a lark tree or token: the grammars fix their shapes, which lark's types cannot say
    Node = Any


def grammar_dir() -> Any:  # a Path, or an importlib Traversable inside a package
    """Where the .lark files are: inside the installed package (the wheel copies
    the checkout's grammars/ to jobspec_lsp/grammars/), or the checkout's grammars/."""
    packaged = importlib.resources.files("jobspec_lsp") / "grammars"
    if packaged.is_dir():
        return packaged

    return Path(__file__).resolve().parents[2] / "grammars"  # the checkout's


@functools.cache
def grammar_text(name: str) -> str:
    text: str = (grammar_dir() / f"{name}.lark").read_text(encoding="utf-8")
    return text


def _import_paths() -> list[Any]:
    """Where ``%import idset (...)`` in one grammar finds another."""
    where = grammar_dir()
    if isinstance(where, Path):
        return [str(where)]
    return [FromPackageLoader("jobspec_lsp", ("grammars",))]  # a zipped install


@functools.cache
def parser(name: str) -> Any:  # a lark Lark
    """The LALR parser (contextual lexer) for grammars/<name>.lark, built once."""
    return Lark(
        grammar_text(name),
        parser="lalr",
        lexer="contextual",
        start="start",
        propagate_positions=name == "shape",
        maybe_placeholders=False,
        import_paths=_import_paths(),
        # the analysed grammar kept between processes: a new one loads it instead of
        # building it again (never in a shared directory: lark's cache is a pickle)
        cache=_private_cache(name),
    )


def _private_cache(name: str) -> str | bool:
    """Where lark may keep grammar ``name`` analysed: a file in the user's own cache
    directory (``$XDG_CACHE_HOME`` or ``~/.cache``, ``jobspec-lsp/lark``, mode 0700, owned
    by the user), named by the grammar's text and lark's version; False (no cache) when
    there is no such directory. Lark's cache is a pickle, which runs code when loaded: it
    is never read from a directory anyone else can write to (such as /tmp on a cluster's
    login node)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "jobspec-lsp", "lark")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        st = os.stat(folder)
        if st.st_uid != os.getuid() or st.st_mode & 0o077:
            return False
    except (OSError, AttributeError):  # no home, a read-only one, no getuid (Windows)
        return False
    key = hashlib.sha256(f"{lark.__version__}\0{grammar_text(name)}".encode()).hexdigest()
    return os.path.join(folder, f"{name}-{key[:32]}.pickle")


# --------------------------------------------------------------------------- tree walks
def too_deep(tree: Node, limit: int = MAX_NESTING) -> Node | None:
    """The first lark subtree nested deeper than ``limit`` levels (None when there is
    none), found without recursion."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return node
        stack.extend((c, depth + 1) for c in node.children if isinstance(c, Tree))
    return None


def leftmost_token(tree: Node) -> Node:
    """The first token under a lark tree (None when it holds none), without recursion."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if not isinstance(node, Tree):
            return node
        stack.extend(reversed(node.children))
    return None
