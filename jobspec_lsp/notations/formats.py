"""The small string formats jobspec uses, behind one front: the notation readers each
have a module of their own, and callers name them here (``formats.parse_idset``).

- RFC 22 idset (``"1-3,5"``) and RFC 45 range (``"2-8:2:*"``), together the
  count strings of RFC 14: :mod:`.idsets`, :mod:`.ranges`, :mod:`.countstrings`,
  written back by :mod:`.written`
- RFC 29 hostlist (``"node[01-16],login1"``), in constraints: :mod:`.hostlists`
- RFC 23 Flux Standard Duration (``"1.5h"``), what users type for a duration:
  :mod:`.durations`
- Flux job ids (:mod:`.jobids`) and the number readers (:mod:`.numbers`)

Every parse function returns plain data or raises :class:`FormatError`
(:mod:`.formaterror`), which carries the character offsets (into the parsed string) of
the offending token, a one-line message that says in words what was expected there, and
the list of those words. Nothing else escapes: no lark exception, no ValueError from
int(). The grammars (grammars/*.lark, loaded by :mod:`.grammars`) say what the syntax
is; :mod:`.syntax` words where they stop; the rules a context-free grammar cannot state
(ascending ids, no leading zeros, max >= min, ...) are checked on the tokens, so those
errors are positioned just as precisely.

Lark is the heavy optional piece: the readers built on it are the declared table
below, loaded the first time one of them is named, so most jobspecs and a script's
check (a pre-commit hook that should start quickly) never load it.
"""

from __future__ import annotations

from jobspec_lsp import boundary
from jobspec_lsp.notations import durations
from jobspec_lsp.notations.durations import parse_fsd as parse_fsd
from jobspec_lsp.notations.formaterror import FormatError as FormatError
from jobspec_lsp.notations.jobids import jobid_problem as jobid_problem
from jobspec_lsp.notations.limits import MAX_DIGITS as MAX_DIGITS
from jobspec_lsp.notations.limits import MAX_NESTING as MAX_NESTING
from jobspec_lsp.notations.numbers import ascii_int as ascii_int
from jobspec_lsp.notations.numbers import python_float as python_float
from jobspec_lsp.notations.numbers import python_int as python_int
from jobspec_lsp.notations.written import format_idset as format_idset
from jobspec_lsp.notations.written import format_range as format_range

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

    from jobspec_lsp.notations.countstrings import parse_count_string as parse_count_string
    from jobspec_lsp.notations.grammars import grammar_dir as grammar_dir
    from jobspec_lsp.notations.grammars import grammar_text as grammar_text
    from jobspec_lsp.notations.grammars import leftmost_token as leftmost_token
    from jobspec_lsp.notations.grammars import parser as parser
    from jobspec_lsp.notations.grammars import too_deep as too_deep
    from jobspec_lsp.notations.hostlists import FLUX_HOSTLIST_RANGE as FLUX_HOSTLIST_RANGE
    from jobspec_lsp.notations.hostlists import hostlist_count as hostlist_count
    from jobspec_lsp.notations.hostlists import hostlist_range_problem as hostlist_range_problem
    from jobspec_lsp.notations.hostlists import parse_hostlist as parse_hostlist
    from jobspec_lsp.notations.idsets import parse_idset as parse_idset
    from jobspec_lsp.notations.ranges import parse_range as parse_range

# the readers built on the lark grammars, each loaded (with lark) when first named
GRAMMAR_READERS = {
    "parse_idset": "jobspec_lsp.notations.idsets:parse_idset",
    "parse_range": "jobspec_lsp.notations.ranges:parse_range",
    "parse_count_string": "jobspec_lsp.notations.countstrings:parse_count_string",
    "parse_hostlist": "jobspec_lsp.notations.hostlists:parse_hostlist",
    "hostlist_count": "jobspec_lsp.notations.hostlists:hostlist_count",
    "hostlist_range_problem": "jobspec_lsp.notations.hostlists:hostlist_range_problem",
    "FLUX_HOSTLIST_RANGE": "jobspec_lsp.notations.hostlists:FLUX_HOSTLIST_RANGE",
    "parser": "jobspec_lsp.notations.grammars:parser",
    "grammar_dir": "jobspec_lsp.notations.grammars:grammar_dir",
    "grammar_text": "jobspec_lsp.notations.grammars:grammar_text",
    "too_deep": "jobspec_lsp.notations.grammars:too_deep",
    "leftmost_token": "jobspec_lsp.notations.grammars:leftmost_token",
    # the grammar layer's own parts, which the tests look at through this front
    "_parse": "jobspec_lsp.notations.syntax:parse",
    "_import_paths": "jobspec_lsp.notations.grammars:_import_paths",
    "_private_cache": "jobspec_lsp.notations.grammars:_private_cache",
}

_FSD_TEXT = durations.FSD_TEXT  # a duration as one expression (the tests hold it to fsd.lark)


def __getattr__(name: str) -> Any:
    """A grammar reader of :data:`GRAMMAR_READERS`, loaded on its first use."""
    return boundary.attribute(GRAMMAR_READERS, globals(), name)
