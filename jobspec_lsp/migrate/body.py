"""A scheduler's variables and commands in a script's body, under Flux.

Each scheduler module declares ``VARIABLES``: name -> (how it becomes Flux's, the words).
How: a fixed text (``$(flux getattr jobid)``), one of the job's own figures known from
its request (``{tasks}``, ``{nodes}``, ``{cores_per_task}``), ``=PWD`` (the submission
directory: the variable is kept and set by a `--env=NAME=$PWD` directive, which
`flux batch` expands when the job is submitted; ``=PWD:NEW`` under a new name, for a
name Flux's broker removes from a batch script's environment: every ``SLURM_*``), or
None (no equivalent: flagged).
A variable where the shell expands nothing ('...', \\$, a quoted here-document) is left
alone: it means the same under Flux.
"""

from __future__ import annotations

import bisect
import re
from types import ModuleType

from jobspec_lsp.job import shellread
from jobspec_lsp.migrate.model import Edit, Finding, Shape

_WORDISH = re.compile(r"[\w.$-]")


class Text:
    """Where a position of a script stands: in a comment line, in a literal."""

    def __init__(self, text: str):
        self.text = text
        self.literal = shellread.shell_literals(text)
        self.starts = [a for a, _ in self.literal]
        self._comment: dict[int, bool] = {}

    def in_literal(self, pos: int) -> bool:
        k = bisect.bisect_right(self.starts, pos) - 1
        return k >= 0 and self.literal[k][0] <= pos < self.literal[k][1]

    def in_comment(self, pos: int) -> bool:
        ls = self.text.rfind("\n", 0, pos) + 1
        got = self._comment.get(ls)
        if got is None:
            got = self._comment[ls] = self.text[ls:pos].lstrip().startswith("#")
        return got


_AT_RUN_TIME = {"{nodes}": "$(flux resource list -no {nnodes})"}


def replacement(how: str | None, sh: Shape | None) -> str | None:
    if how is None or how.startswith("="):
        return None
    if sh is None:  # no directives to read the figures from: ask Flux when it runs
        return _AT_RUN_TIME.get(how, None if "{" in how else how)
    return how.format(tasks=sh.tasks, nodes=sh.nodes or 1, cores_per_task=sh.cores_per_task)


def _closing_brace(text: str, at: int) -> int | None:
    """The `}` closing a `${...` whose name ends at ``at`` (nested ${...} counted)."""
    depth = 1
    i = at
    n = min(len(text), at + 4096)
    while i < n:
        ch = text[i]
        if ch == "\n":
            return None
        if text.startswith("${", i):
            depth += 1
            i += 2
            continue
        if ch == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return None


# NAME= (after export, declare -x, local, readonly, env), `read NAME`, `for NAME in`
_ASSIGNED = re.compile(
    r"(?:^|[\s;&|(`])(?:(?:export|declare|typeset|local|readonly|env)(?:\s+-\w+)*\s+)?"
    r"([A-Za-z_]\w*)\+?=|\bfor\s+([A-Za-z_]\w*)\s+in\b|\bread\s+(?:-\w+\s+)*([A-Za-z_]\w*)"
)


def assigned(text: str) -> set[str]:
    """The names a script gives a value itself: its own variables, whatever their prefix
    (`export SLURM_CONF=...` sets what Slurm's commands read; Slurm does not set it)."""
    return {n for m in _ASSIGNED.finditer(text) for n in m.groups() if n}


_CHANGED = re.compile(
    r"\b([A-Za-z_]\w*)(?:\+=|\+\+|--)|\blet\s+([A-Za-z_]\w*)|\(\(\s*([A-Za-z_]\w*)\s*[-+*/%]?="
)


def changed(text: str) -> set[str]:
    """The names a script gives values other than by ``NAME=VALUE``: a loop's (`for N in`),
    `read N`, an increment (`N+=1`, `((N++))`, `let N=...`, `((N=...))`)."""
    loops = {n for m in _ASSIGNED.finditer(text) for n in m.groups()[1:] if n}
    return loops | {n for m in _CHANGED.finditer(text) for n in m.groups() if n}


def _theirs(mod: ModuleType, name: str) -> bool:
    """Whether the scheduler sets ``name`` in a job (its table of names, where it has one)."""
    sets = getattr(mod, "SETS", None)
    if sets is not None and name not in sets:
        return False
    return name not in getattr(mod, "READ_NOT_SET", ())


def variables(text: str, mod: ModuleType):
    """(name, start, end, bare) of each variable of ``mod``'s in ``text`` that the shell
    expands; ``bare``: written without `$` (a program reading the environment). A name
    the scheduler does not set, or that the script sets itself, is not one."""
    if not any(p in text for p in mod.VARIABLE_PREFIXES):
        return
    where = Text(text)
    own = assigned(text)
    for m in mod.VARIABLE.finditer(text):
        name = m.group(0)
        if name in own or not _theirs(mod, name):
            continue
        start, end = m.start(), m.end()
        before = text[start - 1] if start else ""
        if before == "$":
            start -= 1
        elif before == "{" and text[start - 2 : start] == "${" and text[end : end + 1] == "}":
            start, end = start - 2, end + 1
        elif (
            before == "{" and text[start - 2 : start] == "${" and text.startswith((":-", "-"), end)
        ):
            # ${NAME:-default}: the scheduler always sets NAME, so the whole expansion
            # is its value
            close = _closing_brace(text, end)
            if close is None:
                continue
            start, end = start - 2, close + 1
        elif before and (before.isalnum() or before == "_"):
            continue  # MY_SLURM_X: another name
        # `\$NAME` (in a here-document written for later): expanded by whatever runs that
        # text, not here; said, never rewritten, as a name a program reads
        escaped = text[start - 1 : start] == "\\"
        bare = not text.startswith("$", start)
        if where.in_comment(start) or (not bare and where.in_literal(start)):
            continue
        bare = bare or escaped
        yield name, start, end, bare


def convert(
    text: str,
    mod: ModuleType,
    sh: Shape,
    body: int,
    given: dict[str, list[str]],
    after: int,
    sentinel: str = "#flux:",
):
    """Edits writing each variable's Flux equivalent, and findings for the rest;
    `--env` directives are written at ``after`` (the end of the directive block)."""
    edits: list[Edit] = []
    findings: list[Finding] = []
    env_rules: list[str] = []
    have = set(given.get("env", []))
    for name, start, end, bare in variables(text, mod):
        how, words = mod.VARIABLES.get(
            name, (None, f"{mod.COMMAND} sets it; Flux does not, so it is empty under Flux")
        )
        if how is not None and how.startswith("=PWD"):
            # the submission directory: $PWD when flux batch runs, under the variable's
            # own name or (=PWD:NEW) a new one, written in the body
            new = how.partition(":")[2] or name
            rule = f"{new}=$PWD"
            if rule not in have and rule not in env_rules:
                env_rules.append(rule)
            if new != name:
                if bare or start < body:
                    findings.append(Finding("variable", start, end, f"{name}: {words}"))
                else:
                    edits.append(Edit(start, end, f"${new}"))
                    findings.append(Finding("variable", start, end, f"{name}: {words}", f"${new}"))
            continue
        repl = replacement(how, sh)
        if repl is not None and not bare and start >= body:
            edits.append(Edit(start, end, repl))
            findings.append(Finding("variable", start, end, f"{name}: {words}", repl))
        else:
            findings.append(Finding("variable", start, end, f"{name}: {words}", repl))
    if env_rules:
        line = "".join(f"{sentinel} --env={rule}\n" for rule in env_rules)
        edits.append(Edit(after, after, line))
    return edits, findings


def commands(text: str, mod: ModuleType):
    """(name, start, end) of each of the scheduler's commands run in ``text``."""
    if not any(c in text for c in mod.COMMANDS):
        return
    where = Text(text)
    for m in mod.COMMAND_WORD.finditer(text):
        if m.start() and _WORDISH.match(text, m.start() - 1):
            continue
        if where.in_comment(m.start()):
            continue
        yield m.group(0), m.start(), m.end()
