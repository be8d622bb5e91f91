"""A parsed notation's tokens as values: the digits of a number token checked (no
leading zero, not too many) before they become an int, and the tokens directly under a
lark tree."""

from __future__ import annotations

from lark import Token

from jobspec_lsp.notations.formaterror import semantic, show
from jobspec_lsp.notations.limits import MAX_DIGITS

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from jobspec_lsp.notations.grammars import Node


def check_digits(tok: Node, leading_zero_ok: bool = False) -> str:
    """The token's digits, refused with a positioned error when they have a
    leading zero (unless allowed) or are too many."""
    text = str(tok)
    if not leading_zero_ok and len(text) > 1 and text[0] == "0":
        value = text.lstrip("0") or "0"
        fix = f"; write {value}" if len(value) <= MAX_DIGITS else ""
        raise semantic(f"leading zero in {show(text)}{fix}", tok.start_pos, tok.end_pos)
    if len(text.lstrip("0")) > MAX_DIGITS:
        raise semantic(
            f"{show(text)} is too large (more than {MAX_DIGITS} digits)",
            tok.start_pos,
            tok.end_pos,
        )
    return text


def int_of(tok: Node) -> int:
    """A number token's value (its digits checked first)."""
    return int(check_digits(tok))


def digits_key(text: str) -> tuple[int, str]:
    """Sort key for a digit string by value, without int()."""
    value = text.lstrip("0")
    return len(value), value


def children(tree: Node) -> list[Node]:
    """The tokens directly under ``tree`` (its subtrees left out)."""
    return [c for c in tree.children if isinstance(c, Token)]
