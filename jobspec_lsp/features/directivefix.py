"""The fixes of a batch script's directives (issue 39), as :mod:`.fixes` names them: another
scheduler's options written as Flux's (``habit``: a Slurm script whose `#SBATCH` became
`#flux:`) and a word Flux drops rejoined to its option or commented out (``not-option``),
both computed where they are found (the conversion's tables are the script checks'); a
sentinel changed half-way (``sentinel``), the missing `#!` line (``shebang``); and whether
an edit of a script touches only what the shell and `flux batch` take as a comment.

Each strategy is a function of the script's text and the finding, giving fixes as
``(title, [(start, end, text)], preferred, unsafe)``: :mod:`.fixes` makes them its
:class:`~.fixes.Fix` values (it imports this module; this one imports nothing of it).
"""

from __future__ import annotations

import re

from jobspec_lsp.diagnostics import Diagnostic
from jobspec_lsp.job import directives, shellread
from jobspec_lsp.text.edits import line_before

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from typing import Any

    Found = list[tuple[str, list[tuple[int, int, str]], bool, bool]]


def carried(text: str, d: Diagnostic) -> Found:
    """The fixes the finding carries, computed where it was found (``data["fixes"]``:
    another scheduler's options written as Flux's, by :mod:`jobspec_lsp.script.habits`
    with the conversion's tables; a word Flux drops rejoined or commented out)."""
    got = (d.data or {}).get("fixes") or []
    return [(t, [tuple(e) for e in es], pre, unsafe) for t, es, pre, unsafe in got]


def sentinel(text: str, d: Diagnostic) -> Found:
    """JS562: a directive whose sentinel changed, written with the script's: enabled, or
    disabled (`#flux: # ...`) where the changed one is the script's with more '#' before
    it (`##flux:`, `# #flux:`: a directive commented out, as `##SBATCH` is to Slurm).
    JS562 and JS563, where the first line is the odd one (most directives use another
    sentinel, or it is one of them commented out): that first line rewritten."""
    first = (d.data or {}).get("sentinel")
    if not first:
        return []
    ours, (start, end) = first, (d.start, d.end)
    common = _common(text, first)
    if common is not None:
        ours, (start, end) = common, directives.read(text).sentinel_span
    elif d.code == "JS563":
        return _late(text, d)
    changed = text[start:end]
    enable = ("Use the script's sentinel " + repr(ours), [(start, end, ours)])
    disable = (f"Disable it: {ours} # ...", [(start, end, ours + " #")])
    order = [disable, enable] if _disabled(changed, ours) else [enable, disable]
    return [(t, e, k == 0, True) for k, (t, e) in enumerate(order)]


def _late(text: str, d: Diagnostic) -> Found:
    """JS563, a directive after the block: moved up to the block's end with the script's
    sentinel (what its author meant), or made a comment `flux batch` does not read (what
    sbatch did with it). Both unsafe: either changes what the job asks. The comment is
    preferred where the line is one commented out (`##flux:`); nothing is offered for a
    line no shell reads as a comment (a here-document's, a `flux:` line of YAML)."""
    script = directives.read(text)
    sentinel = text[d.start : d.end]
    if not script.directives or script.sentinel is None or "#" not in sentinel:
        return []
    if any(a <= d.start < b for a, b in shellread.written_heredocs(text)):
        return []  # another file's text: moving or changing it is not this script's
    at = d.start + len(sentinel) - len(sentinel.lstrip())
    off = ("Make it a comment flux batch does not read (as sbatch ignores it)",
           [(at, at, "# not read: ")])  # fmt: skip
    start = text.rfind("\n", 0, d.start) + 1
    nl = text.find("\n", d.end)
    end = len(text) if nl < 0 else nl + 1
    body = text[d.end : end].rstrip("\r\n")
    last = script.directives[-1]
    after = text.find("\n", max(last.start, last.end - 1))
    if '"""' in body or "'''" in body or after < 0 or after + 1 > start:
        return [(*off, True, True)]  # a triple-quoted value: its lines are not one line's
    moved = line_before(text, after + 1, script.sentinel + body)
    up = ("Move it up into the directive block", [moved, (start, end, "")])
    order = (off, up) if _disabled(sentinel.strip(), script.sentinel.strip()) else (up, off)
    return [(t, e, k == 0, True) for k, (t, e) in enumerate(order)]


def _common(text: str, first: str) -> str | None:
    """The sentinel most directive lines use where it is not the first line's (a form that
    is another commented out never counts), or the one the first line comments out."""
    counts: dict[str, int] = {}
    for m in directives._ANY_SENTINEL.finditer(text):
        counts[m.group(0)] = counts.get(m.group(0), 0) + 1
    plain = [c for c in counts if c != first and _disabled(first, c)]
    if plain:
        return plain[0]
    live = [c for c in counts if not any(_disabled(c, o) for o in counts if o != c)]
    common = max(live, key=lambda c: counts[c], default=None)
    if common is None or common == first or counts[common] <= counts.get(first, 0):
        return None
    return common


def _disabled(changed: str, sentinel: str) -> bool:
    """Whether ``changed`` is ``sentinel`` with '#' (and blanks) before it: a directive
    commented out (`##flux:`, `# #flux:`), as `##SBATCH` is to Slurm."""
    head = changed[: -len(sentinel)] if changed.endswith(sentinel) else ""
    return bool(head) and "#" in head and not head.strip(" \t#")


SHEBANG = "#!/bin/bash"  # the shell sbatch runs a script without one with; flux batch needs one


def shebang(text: str, d: Diagnostic) -> Found:
    """JS583: a `#!` line added (unsafe: the script may be written for another interpreter)."""
    return [(f"Add {SHEBANG} as the first line", [(0, 0, SHEBANG + "\n")], True, True)]


def size(text: str, d: Diagnostic) -> Found:
    """JS580: one slot asked for (`-n 1`) on a directive line of its own before the first,
    with the script's sentinel: what sbatch gives a script that names no size. Unsafe: the
    size may be meant for the command line (`flux batch -N4 job.sh`). None while a word Flux
    refuses may be another scheduler's size: its repair writes the job's shape first."""
    script = directives.read(text)
    size = (d.data or {}).get("size")
    if script.sentinel is None or not size:
        return []
    a, b = script.sentinel_span
    if "#" not in text[a:b]:
        return []  # `flux:` (a YAML key, say): a line the shell runs, not a comment
    title = f"Ask for one slot: {size} (what sbatch gives a script that names no size)"
    return [(title, [line_before(text, a, f"{text[a:b]} {size}")], True, True)]


STRATEGIES: dict[str, Any] = {
    "habit": carried,  # no fix carried: the did-you-mean of JS570 (:mod:`.fixes`)
    "not-option": carried,
    "sentinel": sentinel,
    "shebang": shebang,
    "size": size,
}


# a script run by a POSIX shell: `#!/bin/sh`, `#!/usr/bin/env bash -l`, ...
_SHELL_LINE = re.compile(
    r"#![ \t]*\S*/(?:env[ \t]+(?:-\S*[ \t]+)*)?(?:ba|da|k|mk|z)?sh(?:[ \t]|$)", re.M
)
# in a script's body, what could make a later '#' part of a word, a string or a
# here-document rather than a comment: then removing it is not shown to be harmless
_SHELL_OPENERS = ("'", '"', "`", "\\", "<<", "$(", "${", "((")


def script_comment(text: str, start: int, end: int) -> bool:
    """Whether the text ``start``..``end`` of a batch script is a comment to the shell and
    to `flux batch`: in the leading comment lines (not the interpreter line, outside
    every directive word), or in a body where nothing before it opens a string."""

    if not _SHELL_LINE.match(text):
        return False  # another interpreter: its comments and strings are not the shell's
    line_start = text.rfind("\n", 0, start) + 1
    if line_start == 0:
        return False  # the interpreter line: the kernel passes the rest to the interpreter
    lines = text[:line_start].splitlines()
    header = all(not ln.strip() or ln.lstrip().startswith("#") for ln in lines)
    if header and text[line_start:start].lstrip().startswith("#"):
        script = directives.read(text)
        if script.problems:
            return False
        return not any(w.start < end and start < w.end for w in script.words)
    body = len("".join(ln + "\n" for ln in lines[: _header_lines(lines)]))
    return not any(o in text[body:start] for o in _SHELL_OPENERS)


def _header_lines(lines: list[str]) -> int:
    n = 0
    while n < len(lines) and (not lines[n].strip() or lines[n].lstrip().startswith("#")):
        n += 1
    return n
