"""RFC 29 hostlists (``"node[01-16],login1"``, in constraints) read with
grammars/hostlist.lark into their terms, never expanded: how many hosts they name, and
the range flux-core refuses though RFC 29 allows it."""

from __future__ import annotations

from lark import Tree

from jobspec_lsp.notations import syntax
from jobspec_lsp.notations.formaterror import semantic
from jobspec_lsp.notations.tokens import check_digits, children, digits_key

FLUX_HOSTLIST_RANGE = 1 << 20  # the most hosts flux-core's hostlist takes in one range


def parse_hostlist(s: str) -> list[tuple[str, list[tuple[str, str]] | None, str]]:
    """RFC 29 hostlist -> [(prefix, [(lo, hi), ...] or None, suffix)], one per
    term; lo and hi are the digit strings as written (padding kept). Never
    expanded."""
    tree = syntax.parse("hostlist", s)
    terms: list[tuple[str, list[tuple[str, str]] | None, str]] = []
    for term in tree.find_data("host_term"):
        prefix, suffix = "", ""
        ids: list[tuple[str, str]] | None = None
        for child in term.children:
            if isinstance(child, Tree):
                ids = []
                for hid in child.find_data("host_id"):
                    toks = children(hid)
                    lo = check_digits(toks[0], leading_zero_ok=True)
                    hi = check_digits(toks[-1], leading_zero_ok=True)
                    if digits_key(hi) < digits_key(lo):
                        raise semantic(
                            f"range {lo}-{hi} is descending", toks[0].start_pos, toks[-1].end_pos
                        )
                    ids.append((lo, hi))
            elif ids is None:
                prefix = str(child)
            else:
                suffix = str(child)
        terms.append((prefix, ids, suffix))
    return terms


def hostlist_range_problem(s: str) -> str | None:
    """Why flux-core refuses a well-formed hostlist (None: it takes it): one bracketed
    range of more than 1,048,576 hosts ("Invalid hostlist"), whatever RFC 29 allows."""
    for prefix, ids, suffix in parse_hostlist(s):
        for lo, hi in ids or []:
            n = int(hi) - int(lo) + 1
            if n > FLUX_HOSTLIST_RANGE:
                return (
                    f"{prefix}[{lo}-{hi}]{suffix} is a range of {n:,} hosts; flux-core takes "
                    f"at most {FLUX_HOSTLIST_RANGE:,} in one range (Invalid hostlist)"
                )
    return None


def hostlist_count(s: str) -> int:
    """How many hosts a hostlist (a string, or what parse_hostlist returned)
    names, repeats included, without expanding it."""
    terms = s if isinstance(s, list) else parse_hostlist(s)
    total = 0
    for _, ids, _ in terms:
        total += 1 if ids is None else sum(int(hi) - int(lo) + 1 for lo, hi in ids)
    return total
