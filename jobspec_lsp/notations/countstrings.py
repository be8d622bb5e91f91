"""RFC 14 count strings: an idset or a range, whichever fits, and when neither does, the
error of the form that got further into the string."""

from __future__ import annotations

from jobspec_lsp.notations import syntax
from jobspec_lsp.notations.formaterror import FormatError, need_str
from jobspec_lsp.notations.idsets import idset_runs
from jobspec_lsp.notations.ranges import range_dict

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any


def parse_count_string(s: str) -> tuple[str, Any]:
    """An RFC 14 count string: ("idset", runs) or ("range", dict).

    An idset is tried first ("3-30" is both, and as an idset it is the same
    set). When neither fits, the error of the form that got further into the
    string is raised, the idset's on a tie. A wrong value (a descending run, a
    leading zero, max below min) means that form's syntax fitted all the way,
    so it counts as getting to the end, past any syntax error. When both forms
    failed on syntax the message starts "not an idset or range: ", and when
    they failed at the same place it lists what either would take there."""
    need_str(s)
    outcomes: list[tuple[int, Any]] = []  # (how far it got, SyntaxFailure or FormatError)
    for kind, build in (("idset", idset_runs), ("range", range_dict)):
        try:
            return kind, build(syntax.tree(kind, s), s)
        except syntax.SyntaxFailure as failure:
            outcomes.append((failure.pos, failure))
        except FormatError as err:
            outcomes.append((len(s) + 1, err))
    (p1, e1), (p2, e2) = outcomes
    best = e2 if p2 > p1 else e1
    if isinstance(best, FormatError):  # a wrong value
        raise best
    lead = "not an idset or range: "
    if p1 != p2:
        raise best.error(lead=lead)
    if e1.words == e2.words:  # the same words either way: no need to name both
        raise e1.error()
    raise e1.error(syntax.ordered(e1.words + e2.words), max(e1.end, e2.end), lead=lead)
