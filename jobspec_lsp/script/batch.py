"""Batch scripts: the options of RFC 36 directives checked as `flux batch` takes
them, and the jobspec `flux batch` builds for a script.

The options are `flux batch`'s in the option table of :mod:`.fluxcli.model` (for the
Flux version chosen with ``model.using``, the newest by default); the checks,
completion, hover and docs read it.  :func:`check_script` gives the JS56x–JS58x diagnostics of a
script; :func:`jobspec` the jobspec `flux batch --dry-run` prints for it, apart
from what `flux batch` copies from the submitting environment (the environment
variables and the resource limits), which a file cannot know.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence

from jobspec_lsp import boundary
from jobspec_lsp.diagnostics import SCRIPT_KINDS, Diagnostic, Family, Severity, matches
from jobspec_lsp.fluxcli import build, values
from jobspec_lsp.fluxcli import model as _model
from jobspec_lsp.fluxcli.argv import Given, Word
from jobspec_lsp.fluxcli.model import Option
from jobspec_lsp.fluxcli.values import Limit, Refused, value_problem
from jobspec_lsp.job import directives, shellread
from jobspec_lsp.job.steps import DEFAULT_SIZE
from jobspec_lsp.rules import suppress
from jobspec_lsp.script import sbatch
from jobspec_lsp.script.reading import (
    _S,
    BAD_VALUE,
    long_option,
    parse_script,
    parse_words,
    unknown_option,
    value_range,
)
from jobspec_lsp.script.steps import command_line_checks
from jobspec_lsp.text.sources import option_lines

E, W = Severity.ERROR, Severity.WARNING

# the declared boundaries of a script's check: what only some scripts need, loaded then
# (checks against a site profile; the jobspec a --setattr/--setopt/--conf builds, read as
# ingest reads it; the jobspec shown in an editor)
_SITE_CHECKS = "jobspec_lsp.script.sitecheck"
_BUILT_CHECKS = "jobspec_lsp.script.built:problems"
_DUMP = "jobspec_lsp.convert:dump"
# another scheduler's options in the directives (a renamed Slurm script), said as such:
# loaded only when Flux refuses a directive's word (the conversion's tables, issue 39)
_HABITS = "jobspec_lsp.script.habits:findings"
_HABIT_CODES = ("JS570", "JS572", "JS574", "JS581", "JS582")

family = Family(kinds=SCRIPT_KINDS, good=_S)
REPEATED = family.warning(
    """JS573 directive-option-repeated: An option that does not add up is given twice; the last
    one wins.

    Options such as -N, -t or --job-name take one value: a second one silently replaces the
    first, which is rarely what was meant.""",
    bad=_S.replace("--job-name=sim", "--job-name=sim -N4"),
)
NO_SLOTS = family.warning(
    """JS580 batch-no-slot-count: Neither -N nor -n: `flux batch` needs one of them.

    `flux batch` refuses a script without a node or slot count ("Number of slots to allocate
    must be specified") unless its command line gives one. The fix asks for one slot
    (`-n 1`), the size `sbatch` gives a script that names none (unsafe: the size may be meant
    for the command line, `flux batch -N4 job.sh`).""",
    bad=_S.replace("#flux: -N2\n", ""),
    fix="size",
)
BARE_OPTION = family.error(
    """JS566 batch-option-outside-directive: A `flux batch` option on a line of its own,
    outside a `#flux:` directive.

    `flux batch` reads its options from `#flux:` directives and from its command line, never
    from the script's other lines: a line `--nodes=2` is a command the shell tries to run when
    the job starts, and fails on (`--nodes=2: command not found`). The job is sized without
    it; a script with no directive at all is refused outright unless its command line gives a
    size ("Number of slots to allocate must be specified"). Write it as a directive,
    `#flux: --nodes=2`, in the comment block after the `#!` line (the fix does so there).""",
    bad="#!/bin/sh\n--nodes=2\n--job-name=sim\n\nflux run -N2 ./sim\n",
    good="#!/bin/sh\n#flux: --nodes=2\n#flux: --job-name=sim\n\nflux run -N2 ./sim\n",
    fix="replacement",
)
EXCLUSIVE = family.error(
    """JS581 batch-exclusive-without-nodes: -x/--exclusive without -N/--nodes.

    Exclusive allocation is of whole nodes, so `flux batch` needs a node count with it. Where
    it is Slurm's `--exclusive` (which gives the job one node when it says no more), the fix
    writes the job's shape as `jobspec convert` does (unsafe: the node count is a guess).""",
    bad=_S.replace("-N2", "-n2 -x"),
    good=_S.replace("-N2", "-N2 -x"),
    fix="habit",
)
TOO_MANY_NODES = family.error(
    """JS582 batch-more-nodes-than-slots: More nodes (-N) than slots (-n).

    Each node needs at least one slot; `flux batch` refuses -N greater than -n. Slurm lowers
    the node count to the task count: where the block is Slurm's, the fix writes the job's
    shape as `jobspec convert` does (unsafe: which count was meant is a guess).""",
    bad=_S.replace("-N2", "-N4 -n2"),
    good=_S.replace("-N2", "-N2 -n4"),
    fix="habit",
)


# --------------------------------------------------------------------------- checks
def check_script(text: str, select=None, ignore=None, site=None) -> list[Diagnostic]:
    """Every problem of a script's directives, in text order, and the Slurm left in it
    (`#SBATCH` directives, `SLURM_*` variables, `srun`: see :mod:`.sbatch`); only the
    codes ``select``/``ignore`` enable, and none a `# jobspec: ignore` comment hides.
    ``site``: a site profile; what stops the job running there is said (JS65x) at the
    directive that asks it."""

    out = _flux_checks(text)
    if any(d.code in _HABIT_CODES for d in out):
        out = boundary.load(_HABITS)(text, out)
    if site is not None and not any(d.severity == E for d in out):
        out.extend(boundary.load(_SITE_CHECKS).directive_findings(text, site, select, ignore))
    if site is not None:
        out.extend(boundary.load(_SITE_CHECKS).submission_findings(text, site, select, ignore))
    out.extend(sbatch.diagnostics(text))
    out.extend(command_line_checks(text))
    out.extend(bare_options(text))
    if select or ignore:
        out = [
            d
            for d in out
            if (not select or matches(d.code, select)) and not (ignore and matches(d.code, ignore))
        ]
    out.sort(key=Diagnostic.sort_key)
    return suppress.apply(text, out, select, ignore)


_BARE = re.compile(r"^[ \t]*(-[A-Za-z]|--[A-Za-z][\w-]*)(?=[=\s]|$)[^\n]*", re.M)
_CONTINUED = ("\\", "(", "|", "&&", "||", "[", ",")
_UNKNOWN_LONG = object()  # a long option word flux batch does not know


def bare_options(text: str) -> list[Diagnostic]:
    """JS566: each line whose first word is a `flux batch` option (`--nodes=2`, `-N 2`),
    where the shell would run it as a command; its fix writes it as a directive where the
    line stands in the leading comment block, where Flux reads directives."""
    if "-" not in text:
        return []
    heredocs = shellread.written_heredocs(text)
    skip = shellread.shell_literals(text) + heredocs
    quoted = _lines_inside(text, heredocs)
    # a file of options and comments only, without a #! line or with directives too: the
    # directives of a batch script without their sentinel, each given it by the fix
    # (Slurm's too, which JS570's fix then writes as Flux's)
    whole = option_lines(text) and (not text.startswith("#!") or directives.has_sentinel(text))
    out = []
    leading = True  # every line before this one a comment, a blank, or such an option
    pos = 0
    option: object | None
    for line in text.splitlines(keepends=True):
        m = _BARE.match(line)
        name = m.group(1) if m else None
        option = None
        if name is not None:
            option = long_option(name[2:]) if name.startswith("--") else _short(name[1:])
        # a long option Flux does not have is still no command (`--ntasks=4`): said, no fix
        known = option is not None or (whole and name is not None)
        if name is not None and option is None and (name.startswith("--") or whole):
            option = _UNKNOWN_LONG
        prev = text[:pos].rstrip()
        if (
            option is None
            or pos in quoted
            or prev.endswith(_CONTINUED)
            or any(a <= pos < b for a, b in skip)
        ):
            stripped = line.strip()
            leading = leading and (not stripped or stripped.startswith("#"))
            pos += len(line)
            continue
        assert m is not None and name is not None
        a = pos + m.start(1)
        b = pos + len(line.rstrip("\r\n"))
        out.append(_bare(text, name, a, b, option is _UNKNOWN_LONG, known, leading, whole))
        leading = leading and known  # an unknown one stays a command: the block ends there
        pos += len(line)
    return out


def _bare(text, name, a, b, unknown, known, leading, whole) -> Diagnostic:
    """JS566 for the option line ``text[a:b]`` (``name`` its option): ``known``, its fix
    writes it as a directive when ``leading`` (in the leading comment block)."""
    words = text[a:b]
    data = {"replacement": f"#flux: {words}"} if leading and known else None
    if known:
        what = f"write `#flux: {words}`"
        if whole:
            what += " (a file of options: read as a batch script whose directives lack it)"
    else:
        what = unknown_option(name, a, a + len(name)).message.replace(" has no option", " has no")
    return Diagnostic(
        BARE_OPTION,
        E,
        f"{words}: {'an' if unknown else 'a flux batch'} option outside a #flux: directive — "
        f"the shell runs it as a command and flux batch never reads it; {what}",
        a,
        b,
        data,
    )


def _lines_inside(text: str, skip: list[tuple[int, int]]) -> set[int]:
    """The offsets of the lines that start inside a quoted string ('...' or "...") or an
    open parenthesis (an array's words, `$(...)`), read as the shell reads quotes,
    comments and backslashes; here-documents (``skip``) jumped."""
    out: set[int] = set()
    state = ""
    depth = 0  # parentheses open (a `case` pattern's lone ')' closes none)
    i, n = 0, len(text)
    ends = dict(skip)
    while i < n:
        if not state and i in ends and ends[i] > i:  # an empty here-document jumps nothing
            i = ends[i]
            continue
        c = text[i]
        if c == "\n" and (state or depth):
            out.add(i + 1)
        elif not state and c in "()":
            depth = depth + 1 if c == "(" else max(depth - 1, 0)
        elif state == "'":
            state = "" if c == "'" else state
        elif c == "\\":
            i += 2
            continue
        elif state == '"':
            state = "" if c == '"' else state
        elif c in "'\"":
            state = c
        elif c == "#" and (i == 0 or text[i - 1] in " \t\n;&|("):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        i += 1
    return out


def _short(letter: str) -> Option | None:
    return next((o for o in _model.command("batch").options if o.short == letter), None)


def _flux_checks(text: str) -> list[Diagnostic]:
    """The findings of a script's directives: how they read, each value, each option given
    again, the job's size, the brokers, the `#!` line, what --setattr/--setopt/--conf build."""
    script = directives.read(text)
    out = list(script.problems)
    if script.sentinel is None:
        return out
    given = parse_script(script, out)
    seen = _value_findings(given, out)
    if "resources-shape" not in seen and "resources-json" not in seen:
        # a word Flux refuses may be another scheduler's size, a late or changed directive
        # may hold one, -x is repaired with one: their fixes come first
        waits = (*_HABIT_CODES, directives.SENTINEL_CHANGED, directives.ORPHAN)
        repairs = any(d.code in waits for d in out) or "exclusive" in seen
        out.extend(_size_findings(script, seen, repairs))
    out.extend(_broker_findings(seen))
    if not text.startswith("#!"):
        first = len(re.match(r"[^\r\n]*", text).group(0))  # type: ignore[union-attr]
        why = (
            "flux batch refuses a script that does not start with '#!' (say which "
            "interpreter runs it: #!/bin/sh, #!/bin/bash, ...)"
        )
        out.append(Diagnostic(NO_SHEBANG, E, why, 0, first))
    if not any(d.severity == E for d in out) and ({"setattr", "setopt", "conf"} & seen.keys()):
        out.extend(boundary.load(_BUILT_CHECKS)(text, given))
    out.sort(key=Diagnostic.sort_key)
    return out


def _value_findings(given: list[Given], out: list[Diagnostic]) -> dict[str, Given]:
    """Each value Flux refuses (JS572) and each option given again that does not add up
    (JS573), appended to ``out``; the last of each option given."""
    seen: dict[str, Given] = {}
    last = values.read_values(given)
    for k, g in enumerate(given):
        if g.value is not None and k in last:
            why = value_problem(g.option, g.value)
            if why:
                a, b = value_range(g)
                severity = W if isinstance(why, Limit) else E
                out.append(Diagnostic(BAD_VALUE, severity, why, a, b))
        if not g.option.repeat and g.option.long in seen:
            first = seen[g.option.long]
            why = (
                f"--{g.option.long} given again; this value replaces the one at "
                f"{first.name.value!r}"
            )
            out.append(Diagnostic(REPEATED, W, why, g.name.start, g.name.end))
        seen[g.option.long] = g
    return seen


def _size_findings(
    script: directives.Script, seen: dict[str, Given], repairs: bool = False
) -> list[Diagnostic]:
    """No -N nor -n (JS580: its fix, ``data["size"]``, waits while ``repairs``, words
    that another scheduler's repair may make a size), -x without -N (JS581), more nodes
    than slots (JS582)."""
    out: list[Diagnostic] = []
    nodes, slots = seen.get("nodes"), seen.get("nslots")
    if nodes is None and slots is None:
        a, b = script.sentinel_span
        why = (
            "no -N or -n in the directives: flux batch "
            "refuses the script unless its command line gives one"
        )
        data = None if repairs else {"size": DEFAULT_SIZE}
        out.append(Diagnostic(NO_SLOTS, W, why, a, b, data=data))
    if "exclusive" in seen and nodes is None:
        x = seen["exclusive"].name
        why = "-x/--exclusive needs -N/--nodes: it allocates whole nodes"
        out.append(Diagnostic(EXCLUSIVE, E, why, x.start, x.end))
    if nodes and slots and nodes.value and slots.value:
        n, s = values.count(nodes.value, 1), values.count(slots.value, 1)
        if n and s and n > s:
            why = f"-N {n} is more nodes than the {s} slots of -n: each node needs a slot"
            out.append(Diagnostic(TOO_MANY_NODES, E, why, nodes.value_start, nodes.value_end))
    return out


def _broker_findings(seen: dict[str, Given]) -> list[Diagnostic]:
    """--add-brokers without -N (flux batch refuses it)."""
    extra = seen.get("add-brokers")
    whole = "resources-shape" in seen or "resources-json" in seen
    if extra is None or (values.count(extra.value or "", 1) or 0) <= 0:
        return []
    if "nodes" in seen or whole:
        return []
    a, b = value_range(extra)
    return [
        Diagnostic(BAD_VALUE, E, "--add-brokers needs -N/--nodes (flux batch refuses it)", a, b)
    ]


NO_SHEBANG = family.error(
    """JS583 batch-no-shebang: A batch script that does not start with '#!'.

    `flux batch` runs the script as a program, so it refuses one whose first line does not say
    which interpreter runs it ("does not appear to start with '#!'"). The fix adds
    `#!/bin/bash`, the shell `sbatch` runs such a script with (unsafe: the script may be
    written for another interpreter).""",
    bad=_S.replace("#!/bin/sh\n", "# my job\n"),
    fix="shebang",
)


# --------------------------------------------------------------------------- jobspec
BatchError = Refused  # what `flux batch` refuses (the name the callers know)
SCRIPT_MODE = build.SCRIPT_MODE


def jobspec(
    text: str, name: str, cwd: str, extra: Sequence[str] = (), read_files: bool | None = True
) -> dict:
    """The jobspec `flux batch --dry-run [extra] SCRIPT` prints for a script with
    ``text`` named ``name`` submitted from ``cwd``, without the environment and the
    resource limits (copied from the submitter).  :class:`BatchError` for a
    script `flux batch` refuses."""
    # what flux batch reads: the directives (the Slurm lines and the body's own flux
    # command lines are findings of check, but they do not change this jobspec)
    found = _flux_checks(text)
    problems = [p for p in found if p.severity == E]
    if problems:
        raise BatchError(problems[0].message)
    limits = [p for p in found if p.code == BAD_VALUE]
    if limits:
        raise BatchError(limits[0].message, ours=True)
    return built_jobspec(text, name, cwd, extra, read_files)


def built_jobspec(
    text: str, name: str, cwd: str, extra: Sequence[str] = (), read_files: bool | None = True
) -> dict:
    """:func:`jobspec` for a script whose directives have been checked."""
    script = directives.read(text)
    diags: list[Diagnostic] = []
    words = [Word(w, 0, 0) for w in extra]
    given = parse_script(script, diags) + parse_words(words, diags)
    errors = [d for d in diags if d.severity == E]
    if errors:
        raise BatchError(errors[0].message)
    return build.batch_jobspec(text, given, name, cwd, read_files)


def shown_jobspec(text: str, path: str, fmt: str = "yaml", read_files: bool = False) -> str:
    """The jobspec of :func:`jobspec` as a document to read ("Show the jobspec"): YAML
    with a first comment saying what it is, or JSON.  :class:`BatchError` when
    `flux batch` would refuse the script."""

    js = jobspec(
        text,
        os.path.basename(path) or "script",
        os.path.dirname(path) or ".",
        read_files=read_files,
    )
    out = boundary.load(_DUMP)(js, fmt)
    if fmt == "json":
        return out
    return (
        f"# the jobspec `flux batch --dry-run {os.path.basename(path)}` builds, without the\n"
        "# environment and resource limits it copies from the submitter\n" + out
    )
