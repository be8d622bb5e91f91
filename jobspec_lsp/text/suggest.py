""" "Did you mean ...?": the nearest of some names to a word the user wrote, for every
message that suggests one (unknown options, rule codes, keys, directives), and the line
matcher of a diff. difflib loads at this one declared boundary, only when a suggestion or
a diff is made: a check that finds nothing unknown never loads it."""

from __future__ import annotations

from collections.abc import Iterable

from jobspec_lsp import boundary

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from difflib import SequenceMatcher

_CLOSE = "difflib:get_close_matches"
_MATCHER = "difflib:SequenceMatcher"


def closest(word: str, names: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The name nearest ``word`` (difflib's ratio at least ``cutoff``), or None."""
    found = boundary.load(_CLOSE)(word, list(names), n=1, cutoff=cutoff)
    return found[0] if found else None


def line_matcher(a: list[str], b: list[str]) -> SequenceMatcher[str]:
    """difflib's matcher of two lists of lines (no junk heuristics: every line counts)."""
    matcher: SequenceMatcher[str] = boundary.load(_MATCHER)(None, a, b, autojunk=False)
    return matcher
