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

import functools
import json
import math
import os
import re
from collections.abc import Sequence

from jobspec_lsp.diagnostics import SCRIPT_KINDS, Diagnostic, Family, Severity, matches
from jobspec_lsp.fluxcli import argv, build, model, shell, values
from jobspec_lsp.fluxcli import model as _model
from jobspec_lsp.fluxcli.argv import Given, Problem, Word
from jobspec_lsp.fluxcli.argv import brief as _brief
from jobspec_lsp.fluxcli.model import Option
from jobspec_lsp.fluxcli.values import Limit, Refused, value_problem
from jobspec_lsp.job import directives, shellread
from jobspec_lsp.jobspec import tree as jobspec_tree
from jobspec_lsp.notations import formats
from jobspec_lsp.record import Frozen
from jobspec_lsp.rules import suppress
from jobspec_lsp.rules.targets import _FluxCore
from jobspec_lsp.script import sbatch

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing (start-up); True to mypy
if TYPE_CHECKING:
    from jobspec_lsp.features.completion import Candidate

E, W = Severity.ERROR, Severity.WARNING


_S = "#!/bin/sh\n#flux: -N2\n#flux: --job-name=sim\n\nflux run -N2 ./sim\n"

family = Family(kinds=SCRIPT_KINDS, good=_S)
UNKNOWN = family.error(
    """JS570 directive-unknown-option: A directive holds an option `flux batch` does not have.

    `flux batch` refuses the whole script for an option it does not know. A close match is
    offered as a fix.""",
    bad=_S.replace("--job-name=sim", "--jobname=sim"),
    fix="replacement",
)
NEEDS_VALUE = family.error(
    """JS571 directive-option-needs-value: An option that takes a value has none.

    The value is the next word (`-N 2`), after `=` (`--nodes=2`) or, for a short option,
    attached (`-N2`); at the end of the directives there is none.""",
    bad=_S.replace("-N2", "-N"),
)
BAD_VALUE = family.error(
    """JS572 directive-bad-value: An option's value is not one `flux batch` accepts.

    Each value is read as Flux reads it: counts are whole numbers (as Python's int() reads
    them, at most 64 bits), -t minutes or a Flux Standard Duration, --urgency 0 to 31 or
    hold/default/expedite, --signal a capitalised signal name or a number, --rlimit known
    limit names with whole numbers or unlimited, --begin-time a real date and time, --requires
    an RFC 35 query, --dependency an RFC 26 URI whose job id is one (a directive is not read
    by the shell: `$PREV_JOB` stays those characters), --conf KEY=VALUE, a .toml/.json file or
    a named configuration that exists, and --setattr/--setopt into the jobspec Flux builds,
    where ingest checks the result (`system.duration=1h` is refused). `flux batch` refuses
    anything else.""",
    bad=_S.replace("-N2", "-N two"),
)
REPEATED = family.warning(
    """JS573 directive-option-repeated: An option that does not add up is given twice; the last
    one wins.

    Options such as -N, -t or --job-name take one value: a second one silently replaces the
    first, which is rarely what was meant.""",
    bad=_S.replace("--job-name=sim", "--job-name=sim -N4"),
)
NOT_OPTION = family.warning(
    """JS574 directive-not-an-option: A directive word that is not an option: Flux drops it and
    the rest of the directive.

    `flux batch` reads each directive as a command line: the first word that is not an option
    starts the script and its arguments, which the real command line then replaces. That word
    and every word after it in the directive are silently dropped, options included (`-n1 foo
    -N2` never asks for 2 nodes). A directive whose first word is not an option is refused
    outright (an error).""",
    bad=_S.replace("--job-name=sim", "--job-name sim extra"),
)
NO_SLOTS = family.warning(
    """JS580 batch-no-slot-count: Neither -N nor -n: `flux batch` needs one of them.

    `flux batch` refuses a script without a node or slot count ("Number of slots to allocate
    must be specified") unless its command line gives one.""",
    bad=_S.replace("#flux: -N2\n", ""),
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

    Exclusive allocation is of whole nodes, so `flux batch` needs a node count with it.""",
    bad=_S.replace("-N2", "-n2 -x"),
    good=_S.replace("-N2", "-N2 -x"),
)
TOO_MANY_NODES = family.error(
    """JS582 batch-more-nodes-than-slots: More nodes (-N) than slots (-n).

    Each node needs at least one slot; `flux batch` refuses -N greater than -n.""",
    bad=_S.replace("-N2", "-N4 -n2"),
    good=_S.replace("-N2", "-N2 -n4"),
)


def parse_words(words: list[Word], out: list[Diagnostic]) -> list[Given]:
    """The options the words of one directive give, in order, read as `flux batch`'s
    argparse parser reads them (:mod:`.fluxcli.argv`); problems appended to ``out``.

    A directive whose first word is not an option is refused by Flux (an unknown
    directive); otherwise the first word that is not an option starts the script's
    arguments, and it and every word after it in the directive are dropped (JS574
    warns)."""

    if words and not words[0].value.startswith("-"):
        first, last = words[0], words[-1]
        out.append(
            Diagnostic(
                NOT_OPTION,
                E,
                f"a directive starts with an option: flux batch refuses the script at "
                f"{_brief(first.value)} (an unknown directive)",
                first.start,
                last.end,
            )
        )
        return []
    reading = argv.read(_model.command("batch"), words)
    for p in reading.problems:
        out.append(_diagnostic(p))
    if reading.rest:
        _dropped(reading.rest, out)
    return reading.given


def _diagnostic(p: Problem) -> Diagnostic:
    if p.kind == "unknown":
        return _unknown(p.name, p.start, p.end)
    code = NEEDS_VALUE if p.kind == "needs-value" else BAD_VALUE
    return Diagnostic(code, E, p.message, p.start, p.end)


def _dropped(rest: list[Word], out: list[Diagnostic]) -> None:
    """The words from the first non-option word on: Flux takes them as the script and
    its arguments, and the command line replaces them; nothing of them is used."""
    first, last = rest[0], rest[-1]
    n = len(rest) - 1
    more = f" and the {n} word{'s' if n > 1 else ''} after it" if n else ""
    out.append(
        Diagnostic(
            NOT_OPTION,
            W,
            f"{_brief(first.value)} is not an option: flux batch drops it{more} "
            "(directives give options only; the script is what follows them)",
            first.start,
            last.end,
        )
    )


def parse_script(script: directives.Script, out: list[Diagnostic]) -> list[Given]:
    """The options of every directive of ``script``, each directive read on its own
    as `flux batch` reads it."""
    version = _model.reading_key()  # the Flux version and the site's plugin options
    memo = script._parsed.get(version) if script._parsed else None
    if memo is None:  # a script is read once per text (directives.read is cached)
        found: list[Diagnostic] = []
        given: list[Given] = []
        for d in script.directives:
            given.extend(parse_words(d.words, found))
        memo = (tuple(given), tuple(found))
        script._parsed = {**(script._parsed or {}), version: memo}
    out.extend(memo[1])
    return list(memo[0])


def _long(name: str) -> Option | None:
    # no abbreviations: Flux's parsers have allow_abbrev=False
    return _model.command("batch").by_long.get(name)


def _unknown(name: str, start: int, end: int) -> Diagnostic:
    cmd = _model.command("batch")
    names = [f"--{n}" for n in cmd.by_long] + ["-" + o.short for o in cmd.options if o.short]
    shown = name if len(name) <= 40 else None
    import difflib  # deferred: start-up; only for a suggestion

    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6) if shown else []
    prefix = [n for n in names if n.startswith(name)] if name.startswith("--") else []
    hint = ""
    if len(prefix) == 1:
        close = prefix
        hint = f"; Flux takes no abbreviation: write {prefix[0]}"
    elif close:
        hint = f"; did you mean {close[0]}?"
    data = {"replacement": close[0]} if close else None
    what = shown or _brief(name)
    return Diagnostic(UNKNOWN, E, f"flux batch has no option {what}{hint}", start, end, data=data)


# --------------------------------------------------------------------------- checks
def check_script(text: str, select=None, ignore=None, site=None) -> list[Diagnostic]:
    """Every problem of a script's directives, in text order, and the Slurm left in it
    (`#SBATCH` directives, `SLURM_*` variables, `srun`: see :mod:`.sbatch`); only the
    codes ``select``/``ignore`` enable, and none a `# jobspec: ignore` comment hides.
    ``site``: a site profile; what stops the job running there is said (JS65x) at the
    directive that asks it."""

    out = _flux_checks(text)
    if site is not None and not any(d.severity == E for d in out):
        out.extend(_site_checks(text, site, select, ignore))
    if site is not None:
        out.extend(_submission_site_checks(text, site, select, ignore))
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
    quoted = _lines_in_quotes(text, heredocs)
    out = []
    leading = True  # every line before this one a comment, a blank, or such an option
    pos = 0
    option: object | None
    for line in text.splitlines(keepends=True):
        m = _BARE.match(line)
        name = m.group(1) if m else None
        option = None
        if name is not None:
            option = _long(name[2:]) if name.startswith("--") else _short(name[1:])
        # a long option Flux does not have is still no command (`--ntasks=4`): said, no fix
        known = option is not None
        if name is not None and name.startswith("--") and not known:
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
        assert m is not None
        a = pos + m.start(1)
        b = pos + len(line.rstrip("\r\n"))
        words = text[a:b]
        data = {"replacement": f"#flux: {words}"} if leading and known else None
        leading = leading and known  # an unknown one stays a command: the block ends there
        if known:
            what = f"write `#flux: {words}`"
        else:
            assert name is not None
            what = _unknown(name, a, a + len(name)).message.replace(" has no option", " has no")
        out.append(
            Diagnostic(
                BARE_OPTION,
                E,
                f"{words}: a flux batch option outside a #flux: directive — the shell runs "
                f"it as a command and flux batch never reads it; {what}",
                a,
                b,
                data,
            )
        )
        pos += len(line)
    return out


def _lines_in_quotes(text: str, skip: list[tuple[int, int]]) -> set[int]:
    """The offsets of the lines that start inside a quoted string ('...' or "..."), read
    as the shell reads quotes, comments and backslashes; here-documents (``skip``) jumped."""
    out: set[int] = set()
    state = ""
    i, n = 0, len(text)
    ends = dict(skip)
    while i < n:
        if not state and i in ends and ends[i] > i:  # an empty here-document jumps nothing
            i = ends[i]
            continue
        c = text[i]
        if c == "\n" and state:
            out.add(i + 1)
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
    script = directives.read(text)
    out = list(script.problems)
    if script.sentinel is None:
        return out
    given = parse_script(script, out)
    seen: dict[str, Given] = {}
    last = values.read_values(given)
    for k, g in enumerate(given):
        if g.value is not None and k in last:
            why = value_problem(g.option, g.value)
            if why:
                a, b = _value_range(g)
                severity = W if isinstance(why, Limit) else E
                out.append(Diagnostic(BAD_VALUE, severity, why, a, b))
        if not g.option.repeat and g.option.long in seen:
            first = seen[g.option.long]
            out.append(
                Diagnostic(
                    REPEATED,
                    W,
                    f"--{g.option.long} given again; this value replaces the one at "
                    f"{first.name.value!r}",
                    g.name.start,
                    g.name.end,
                )
            )
        seen[g.option.long] = g
    if "resources-shape" not in seen and "resources-json" not in seen:
        nodes, slots = seen.get("nodes"), seen.get("nslots")
        if nodes is None and slots is None:
            a, b = script.sentinel_span
            out.append(
                Diagnostic(
                    NO_SLOTS,
                    W,
                    "no -N or -n in the directives: flux batch "
                    "refuses the script unless its command line gives one",
                    a,
                    b,
                )
            )
        if "exclusive" in seen and nodes is None:
            x = seen["exclusive"].name
            out.append(
                Diagnostic(
                    EXCLUSIVE,
                    E,
                    "-x/--exclusive needs -N/--nodes: it allocates whole nodes",
                    x.start,
                    x.end,
                )
            )
        if nodes and slots and nodes.value and slots.value:
            n, s = values.count(nodes.value, 1), values.count(slots.value, 1)
            if n and s and n > s:
                out.append(
                    Diagnostic(
                        TOO_MANY_NODES,
                        E,
                        f"-N {n} is more nodes than the {s} slots of -n: each node needs a slot",
                        nodes.value_start,
                        nodes.value_end,
                    )
                )
    extra = seen.get("add-brokers")
    whole = "resources-shape" in seen or "resources-json" in seen
    if (
        extra is not None
        and (values.count(extra.value or "", 1) or 0) > 0
        and "nodes" not in seen
        and not whole
    ):
        a, b = _value_range(extra)
        out.append(
            Diagnostic(BAD_VALUE, E, "--add-brokers needs -N/--nodes (flux batch refuses it)", a, b)
        )
    if not text.startswith("#!"):
        out.append(
            Diagnostic(
                NO_SHEBANG,
                E,
                "flux batch refuses a script that does not start with '#!' (say which "
                "interpreter runs it: #!/bin/sh, #!/bin/bash, ...)",
                0,
                len(re.match(r"[^\r\n]*", text).group(0)),  # type: ignore[union-attr]
            )
        )
    if not any(d.severity == E for d in out) and (
        "setattr" in seen or "setopt" in seen or "conf" in seen
    ):
        out.extend(_built_problems(text, given))
    out.sort(key=Diagnostic.sort_key)
    return out


def _site_checks(text: str, site, select, ignore) -> list[Diagnostic]:
    """JS65x of the job the directives ask for, each at the option that asks it."""
    from jobspec_lsp.rules import site as site_rules  # deferred: only with a site profile

    script = directives.read(text)
    if script.sentinel is None:
        return []
    given = parse_script(script, [])
    try:  # files an option names are left out: a check never reads them
        js = _build(text, "script", "/", read_files=None)
    except (BatchError, RecursionError):
        return []
    return site_rules.diagnostics(
        site,
        js,
        lambda f: site_rules.locate_option(f, given, script.sentinel_span, text),
        select,
        ignore,
    )


def _submission_site_checks(text: str, site, select, ignore) -> list[Diagnostic]:
    """JS65x of the jobs a script that is not itself a batch job submits to the site
    (`flux submit|run|alloc` lines of a script without directives: a driver run on a
    login node), each at the option that asks it. Lines with a shell expansion are
    known only when the script runs: not judged. Inside a batch job the allocation is
    the site (JS587, JS588)."""
    if directives.read(text).sentinel is not None or "flux" not in text:
        return []
    out: list[Diagnostic] = []
    # each line's findings kept by its text (offsets from the line's start) and the
    # reading in force: an edit elsewhere in the script is not checked again
    seen = site.cache.setdefault("submissions", {})
    if len(seen) > 4096:
        seen.clear()
    for cl in shell.find(text, shellread.shell_literals(text)):
        if cl.tool not in ("submit", "run", "alloc") or cl.dynamic or not cl.words:
            continue
        key = (
            text[cl.start : cl.end], cl.tool, _model.reading_key(),
            tuple(select or ()), tuple(ignore or ()),
        )  # fmt: skip
        if key not in seen:
            seen[key] = _submission_findings(text, cl, site, select, ignore)
        out += [
            Diagnostic(d.code, d.severity, d.message, d.start + cl.start, d.end + cl.start, d.data)
            for d in seen[key]
        ]
    return out


def _submission_findings(text: str, cl, site, select, ignore) -> list[Diagnostic]:
    """:func:`_submission_site_checks` of one command line, offsets from its start."""
    from jobspec_lsp.fluxcli import submit  # deferred: only with a site profile
    from jobspec_lsp.rules import site as site_rules  # deferred: only with a site profile

    words = [w.value for w in cl.words]
    try:
        ns, _ = submit.read(words if cl.tool != "alloc" else [*words, "true"])
        js, _ = build.submit_jobspec(ns, tool=cl.tool)
    except (submit.NewUsageError, Refused, RecursionError):
        return []  # the command line's own findings (JS584, JS585) say why
    given = argv.read(submit.command(), cl.words).given
    whole = (cl.start, cl.tool_end)

    def locate(f) -> tuple[int, int]:
        a, b = site_rules.locate_option(f, given, whole, text)
        return a - cl.start, b - cl.start

    return site_rules.diagnostics(site, js, locate, select, ignore)


def _value_range(g: Given) -> tuple[int, int]:
    if g.value_end > g.value_start:
        return g.value_start, g.value_end
    return g.name.start, g.name.end


def _built_problems(text: str, given: list[Given]) -> list[Diagnostic]:
    """What Flux refuses only once the jobspec is built from every option: a
    --setattr/--setopt into a value that is not a mapping, a --conf that cannot be
    merged, and attribute values job-ingest refuses (``system.duration=1h``), each at
    the option that set it."""
    try:  # files an option names are left out: a check never reads them
        js = _build(text, "script", "/", read_files=None)
    except BatchError as err:
        if err.at is None:
            return []
        a, b = _value_range(err.at)
        return [Diagnostic(BAD_VALUE, W if err.ours else E, str(err), a, b)]
    except RecursionError:
        return []  # deeper than this tool builds; Flux's own limits are checked above
    sets = [g for g in given if g.option.long == "setattr" and g.value]
    if not sets:
        return []
    # the script's own text is left out: an edit of its body changes nothing checked here,
    # and the findings are cached by the rest
    files = js["attributes"]["system"].get("files", {})
    if "script" in files:
        files["script"] = dict(files["script"], data="")
    out: list[Diagnostic] = []
    for *where, message in _ingest_refusals(json.dumps(js)):
        g = next(
            (
                g
                for g in reversed(sets)
                if _setattr_path(g.value or "")[: len(where)] == where
                or where[: len(_setattr_path(g.value or ""))] == _setattr_path(g.value or "")
            ),
            None,
        )
        if g is not None:
            a, b = _value_range(g)
            out.append(Diagnostic(BAD_VALUE, E, f"{message} (Flux refuses the job)", a, b))
    return out


@functools.lru_cache(maxsize=256)
def _ingest_refusals(dumped: str) -> tuple[tuple[str, ...], ...]:
    """(path..., message) of each error flux-core's ingest gives the built jobspec
    ``dumped`` (JSON), this tool's own reading limits (JS9xx) left out."""

    from jobspec_lsp.jobspec.document import parse  # deferred: only for a --setattr/--setopt/--conf
    from jobspec_lsp.rules import analysis  # deferred: only for a --setattr/--setopt/--conf

    doc = parse(dumped, "json")
    out = []
    for d in analysis.check(doc, language="json", target="flux-core"):
        if d.severity != E or d.code.startswith("JS9"):
            continue  # JS9xx: limits of this tool's reading, not Flux's
        out.append((*_path_at(doc.root, d.start), d.message))
    return tuple(out)


def _setattr_path(item: str) -> list[str]:
    """The path under the jobspec of ``--setattr KEY[=VAL]``'s key."""
    key = item.partition("=")[0]
    if key.startswith("."):
        return ["attributes", *key[1:].split(".")]
    if key.startswith("attributes."):
        return key.split(".")
    if key.startswith(("user.", "system.")):
        return ["attributes", *key.split(".")]
    return ["attributes", "system", *key.split(".")]


def _path_at(node, offset: int) -> list[str]:
    """The keys leading to the innermost mapping entry holding ``offset``."""
    path: list[str] = []
    while True:
        if isinstance(node, jobspec_tree.Mapping):
            for k, v in node.pairs:
                if k.start <= offset < max(v.end, k.end):
                    path.append(str(k.value))
                    node = v
                    break
            else:
                return path
        elif isinstance(node, jobspec_tree.Sequence):
            for k, v in enumerate(node.items):
                if v.start <= offset < v.end:
                    path.append(str(k))
                    node = v
                    break
            else:
                return path
        else:
            return path


NO_SHEBANG = family.error(
    """JS583 batch-no-shebang: A batch script that does not start with '#!'.

    `flux batch` runs the script as a program, so it refuses one whose first line does not say
    which interpreter runs it ("does not appear to start with '#!'").""",
    bad=_S.replace("#!/bin/sh\n", "# my job\n"),
)


_L = "#!/bin/sh\n#flux: -N2\n\nflux run -N2 -n8 ./sim\n"

LINE_OPTION = family.error(
    """JS584 command-line-bad-option: A `flux run|submit|alloc|batch|bulksubmit` line in the
    script gives an option that command refuses.

    The line is read with the command's own option table, as its argparse parser reads it: an
    unknown option, an abbreviation (Flux's parsers take none), an option without its value or
    a flag given one make the command fail when the script reaches it, long after submission.""",
    bad=_L.replace("-n8", "--ntask=8"),
    good=_L,
    fix="replacement",
)
LINE_VALUE = family.error(
    """JS585 command-line-bad-value: A `flux run|submit|...` line in the script gives an option a
    value Flux refuses.

    Counts are whole numbers, -t minutes or a Flux Standard Duration, dependencies name real
    job ids, and so on, as for directives. A value holding a shell expansion (`-n $NTASKS`) is
    known only when the script runs: it is not judged.""",
    bad=_L.replace("-n8", "-n eight"),
    good=_L,
)
MINI = family.error(
    """JS586 flux-mini-removed: `flux mini run|submit|...`: the `mini` form was removed from
    Flux.

    flux-core once spelled its submission commands `flux mini run`, `flux mini submit`, ...;
    they are `flux run`, `flux submit`, ... now, and `flux mini` no longer exists. The fix
    removes `mini`.""",
    bad=_L.replace("flux run", "flux mini run"),
    good=_L,
    fix="replacement",
)
LINE_TOO_BIG = family.error(
    """JS587 command-line-beyond-allocation: A `flux run` or `flux submit` line asks for more
    nodes than the batch job has.

    Inside a batch job, `flux run` and `flux submit` get the job's own resources: a job asking
    for more nodes than the directives allocate can never start. Flux refuses it as
    unsatisfiable when the script reaches it, and that step fails.""",
    bad=_L.replace("-N2 -n8", "-N4 -n8"),
    good=_L,
)
LINE_TOO_MANY_CORES = family.warning(
    """JS588 command-line-beyond-allocated-cores: A `flux run` or `flux submit` line asks for
    more cores or GPUs than the batch job allocates.

    A batch job's instance holds exactly the cores and GPUs its directives ask for (`-n` slots
    of `-c` cores and `-g` GPUs), not whole nodes, unless `-x` or `-N` alone makes them
    exclusive. A `flux run -n 128` inside `#flux: -n 64` needs 128 cores where the instance
    has 64: Flux refuses it at once as unsatisfiable (seen in a real instance: `alloc denied
    due to type="unsatisfiable"`); tasks never share a core unless asked to. A warning, not an
    error: a site whose scheduler gives whole nodes may hold enough.""",
    bad=_L.replace("#flux: -N2\n", "#flux: -N2 -n8\n").replace("-N2 -n8 ./sim", "-n16 ./sim"),
    good=_L.replace("#flux: -N2\n", "#flux: -N2 -n8\n").replace("-N2 -n8 ./sim", "-n8 ./sim"),
)


class Allocation(Frozen):
    """What a batch script's directives allocate, where they say it exactly."""

    __slots__ = ("nodes", "cores", "gpus", "why")
    nodes: int | None
    cores: int | None  # slots x cores per slot, when the cores are not whole nodes
    gpus: int | None
    why: str  # the directives, in words

    def __init__(self, nodes: int | None, cores: int | None, gpus: int | None, why: str):
        put = object.__setattr__
        put(self, "nodes", nodes)
        put(self, "cores", cores)
        put(self, "gpus", gpus)
        put(self, "why", why)


# counts flux run/submit/bulksubmit read with int() after parsing (no type= in the table)
_LINE_INTS = {
    "nodes": 1, "ntasks": 1, "cores-per-task": 1, "gpus-per-task": 0, "cores": 1,
    "tasks-per-node": 1, "tasks-per-core": 1, "gpus-per-node": 0,
}  # fmt: skip


def command_line_checks(text: str) -> list[Diagnostic]:
    """JS584-JS587 for the Flux submission command lines in a script's body (see
    :mod:`.fluxcli.shell`): each read with its command's option table, its values
    checked as Flux checks them (words with a shell expansion left alone), and its node
    count held to what the script's directives allocate."""

    if "flux" not in text:
        return []
    lines = shell.segments(text, shellread.shell_literals(text))
    if not lines:
        return []
    out: list[Diagnostic] = []
    allocated = _allocation(text)
    version = _model.selected_version()
    written = shellread.written_heredocs(text) if allocated is not None else []
    for at, line in lines:  # each line's findings cached by its text: an edit elsewhere is free
        # the job's size is judged only for lines this job runs: not text a here-document
        # writes to a file, not a line sent to another instance (FLUX_URI=... flux run)
        here = allocated
        if here is not None and (
            any(a <= at < b for a, b in written)
            or "FLUX_URI=" in text[text.rfind("\n", 0, at) + 1 : at]
        ):
            here = None
        found = _line_findings(line, here, version, _model.reading_key())
        for code, severity, message, a, b, data in found:
            out.append(Diagnostic(code, severity, message, at + a, at + b, data))
    return out


@functools.lru_cache(maxsize=8192)
def _line_findings(line: str, allocation: Allocation | None, version: str, key=None) -> tuple:
    """:func:`command_line_checks` of one command line (its text from `flux`) read as
    Flux ``version`` reads it (``key``: :func:`.model.reading_key`, for the cache: the
    site's plugin options in force too), as (code, severity, message, start, end, data) with
    offsets into ``line``."""

    out: list[Diagnostic] = []
    allocated = allocation.nodes if allocation is not None else None
    for cl in shell.find(line)[:1]:
        if cl.mini:
            a, b = cl.mini
            out.append(
                Diagnostic(
                    MINI,
                    E,
                    f"`flux mini {cl.tool}` was removed from Flux: write `flux {cl.tool}`",
                    a,
                    b,
                    data={"replacement": "", "title": f"Use flux {cl.tool}"},
                )
            )
        cmd = model.command(cl.tool, version)
        words = cl.words
        # a dynamic word where an option is read may stand for any options: stop there
        for k in sorted(cl.dynamic):
            if words[k].value.startswith("-") or k == 0 or not _takes_value(cmd, words, k):
                words = words[:k]
                break
        reading = argv.read(cmd, words)
        for p in reading.problems:
            if any(words[k].start <= p.start < words[k].end for k in cl.dynamic if k < len(words)):
                continue
            message = p.message
            data = None
            if p.kind == "unknown":
                names = [f"--{n}" for n in cmd.by_long]
                full = [n for n in names if n.startswith(p.name)] if p.name.startswith("--") else []
                if len(full) == 1:
                    message += f"; Flux takes no abbreviation: write {full[0]}"
                    data = {"replacement": full[0]}
                else:
                    import difflib  # deferred: start-up; only for a suggestion

                    close = difflib.get_close_matches(p.name, names, n=1, cutoff=0.6)
                    if close:
                        message += f"; did you mean {close[0]}?"
                        data = {"replacement": close[0]}
            out.append(Diagnostic(LINE_OPTION, E, message, p.start, p.end, data=data))
        dynamic_at = {words[k].start for k in cl.dynamic if k < len(words)}
        for g in reading.given:
            if g.value is None or g.value_start in dynamic_at or "$" in g.value:
                continue
            least = _LINE_INTS.get(g.option.long)
            why = (
                values.count_problem(g.option, g.value, least)
                if least is not None and not g.option.integer
                else value_problem(g.option, g.value)
            )
            if not why and g.option.long == "input" and cl.tool == "submit":
                if values.flux_idset(g.value) is not None:  # task ranks: flux run's only
                    why = "per-task input not supported for submit (task ranks: flux run's)"
            if why:
                a, b = _value_range(g)
                severity = W if isinstance(why, Limit) else E
                out.append(Diagnostic(LINE_VALUE, severity, f"flux {cl.tool}: {why}", a, b))
            if (
                g.option.long == "nodes"
                and allocated is not None
                and cl.tool in ("run", "submit", "bulksubmit")
            ):
                n = formats.python_int(g.value)
                if n is not None and n > allocated:
                    a, b = _value_range(g)
                    out.append(
                        Diagnostic(
                            LINE_TOO_BIG,
                            E,
                            f"flux {cl.tool} -N {n} inside a batch job of {allocated} "
                            f"node{'s' if allocated != 1 else ''}: it can never start "
                            "(Flux refuses it as unsatisfiable)",
                            a,
                            b,
                        )
                    )
        if allocation is not None and cl.tool in ("run", "submit", "bulksubmit"):
            out.extend(_beyond_cores(cl.tool, reading, dynamic_at, allocation))
    return tuple((d.code, d.severity, d.message, d.start, d.end, d.data) for d in out)


# options after which a line's cores are not -n x -c (per-resource or whole requests)
_OTHER_SHAPES = {"cores", "tasks-per-core", "gpus-per-node", "exclusive",
                 "resources-shape", "resources-json"}  # fmt: skip


def _beyond_cores(tool: str, reading, dynamic_at: set[int], allocation: Allocation):
    """JS588 for a line asking for more cores (or GPUs) than the allocation holds."""
    last: dict[str, Given] = {}
    for g in reading.given:
        last[g.option.long] = g
        if g.option.long in _OTHER_SHAPES:
            return []
        if g.value is not None and (g.value_start in dynamic_at or "$" in g.value):
            return []  # a shell expansion: not judged
    counts = {}
    names = (("ntasks", 1), ("cores-per-task", 1), ("gpus-per-task", 0), ("nodes", 1),
             ("tasks-per-node", 1))  # fmt: skip
    for name, least in names:
        g = last.get(name)
        n = values.count(g.value or "", least) if g is not None else None
        if g is not None and n is None:
            return []  # a bad count: JS585 says so
        counts[name] = n
    need = _step_need(counts, allocation)
    at = (
        last.get("ntasks")
        or last.get("tasks-per-node")
        or last.get("cores-per-task")
        or last.get("gpus-per-task")
    )
    if at is None or need is None:
        return []
    a, b = _value_range(at)
    out = []
    where, cores, gpus, have_cores, have_gpus = need
    for what, want, have in (("core", cores, have_cores), ("GPU", gpus, have_gpus)):
        if have is not None and want > have:
            out.append(
                Diagnostic(
                    LINE_TOO_MANY_CORES,
                    W,
                    f"flux {tool} asks for {want} {what}s{where}; the batch job's directives "
                    f"allocate {have} ({allocation.why}): Flux refuses it as unsatisfiable, "
                    "unless the site's scheduler gives whole nodes",
                    a,
                    b,
                )
            )
    return out


def _step_need(counts: dict, allocation: Allocation):
    """(where, cores, GPUs, the allocation's cores, its GPUs) a step needs, in all or, with
    -N, on each node: Flux spreads -n tasks over -N nodes, ceil(n / N) on each; None when
    a count is unknown or the step asks more nodes than there are (JS587 says so)."""
    c = counts["cores-per-task"] or 1
    g = counts["gpus-per-task"] or 0
    nodes, per = counts["nodes"], counts["tasks-per-node"]
    if nodes is None:
        tasks = counts["ntasks"] or 1
        return "", tasks * c, tasks * g, allocation.cores, allocation.gpus
    if allocation.nodes is None or nodes > allocation.nodes or allocation.cores is None:
        return None
    tasks = counts["ntasks"] or nodes
    # --tasks-per-node asks whole nodes with one slot each (its tasks share that slot)
    on_each = 1 if per else -(-tasks // nodes)
    have_c = allocation.cores // allocation.nodes
    have_g = None if allocation.gpus is None else allocation.gpus // allocation.nodes
    return " on each node", on_each * c, on_each * g, have_c, have_g


def _takes_value(cmd, words, k: int) -> bool:
    """Whether word ``k`` is read as the value of the option before it."""

    kind = argv.classify(cmd, words[k - 1].value)
    return bool(kind and kind[0] is not None and kind[0].value is not None and kind[2] is None)


def _allocation(text: str) -> Allocation | None:
    """What the script's directives allocate, where they say it: the node count, and
    the cores and GPUs when they are slots of a known size rather than whole nodes."""
    script = directives.read(text)
    if script.sentinel is None:
        return None
    last: dict[str, str | None] = {}
    for g in parse_script(script, []):
        if g.option.long in ("resources-shape", "resources-json"):
            return None
        last[g.option.long] = g.value
    nodes = values.count(last["nodes"] or "", 1) if "nodes" in last else None
    slots = values.count(last["nslots"] or "", 1) if "nslots" in last else None
    per_core = values.count(last.get("cores-per-slot") or "1", 1)
    per_gpu = values.count(last.get("gpus-per-slot") or "0", 0)
    whole = "exclusive" in last or slots is None or "add-brokers" in last
    if whole or slots is None or per_core is None or per_gpu is None:
        return Allocation(nodes, None, None, "") if nodes is not None else None
    if nodes is not None:  # each node gets ceil(slots / nodes) of them, as flux-core lays out
        slots = nodes * math.ceil(slots / nodes)
    laid = f"{nodes} node{'s' if nodes != 1 else ''} x " if nodes is not None else ""
    each = slots // nodes if nodes else slots
    why = f"{laid}{each} slot{'s' if each != 1 else ''} of {per_core} core{'s' if per_core != 1 else ''}"
    if per_gpu:
        why += f" and {per_gpu} GPU{'s' if per_gpu != 1 else ''}"
    return Allocation(nodes, slots * per_core, slots * per_gpu, why)


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
    return _build(text, name, cwd, extra, read_files)


def _build(
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
    from jobspec_lsp import convert  # deferred: only where the jobspec is shown

    out = convert.dump(js, fmt)
    if fmt == "json":
        return out
    return (
        f"# the jobspec `flux batch --dry-run {os.path.basename(path)}` builds, without the\n"
        "# environment and resource limits it copies from the submitter\n" + out
    )


# --------------------------------------------------------------------------- editor
def _names(o: Option) -> str:
    long = f"--{o.long}" + (f"={o.value}" if o.value else "")
    return f"`-{o.short}`, `{long}`" if o.short else f"`{long}`"


def option_doc(o: Option) -> str:
    """The markdown an editor shows for an option."""
    return f"{_names(o)}: {o.doc}" + (" (may be given more than once)" if o.repeat else "")


# what a count means, in words: the option's long name -> (what is counted, per what)
_COUNTED = {
    "nodes": ("node", ""),
    "nslots": ("slot", ""),
    "ntasks": ("task", ""),
    "cores-per-task": ("core", " per task"),
    "gpus-per-task": ("gpu", " per task"),
    "cores-per-slot": ("core", " per slot"),
    "gpus-per-slot": ("gpu", " per slot"),
}


def _meaning(o: Option, value: str) -> str:
    """What a value means, in words, where there is something to say."""
    if o.long in _COUNTED:
        n = values.count(value, 0)
        if n is None:
            return ""
        what, per = _COUNTED[o.long]
        return f"{n} {what}{'s' if n != 1 else ''}{per}"
    if o.long == "time-limit":
        try:
            seconds = values.parse_time_limit(value)
        except Refused:
            return ""
        from jobspec_lsp.features.hover import human_duration  # deferred: only for a hover

        return f"a time limit of {human_duration(seconds)}" if seconds else "no time limit"
    return ""


_TOOLS = {
    "run": "runs a job and waits for it to end",
    "submit": "submits a job and prints its id",
    "alloc": "starts an interactive Flux instance on new resources",
    "batch": "submits a batch script (a Flux instance that runs it)",
    "bulksubmit": "submits one job per input, from a command template",
}


def _command_line_at(text: str, offset: int):
    """(offset of its text, the command line) of the Flux command line under
    ``offset``, or (0, None)."""

    for at, seg in shell.segments(text, shellread.shell_literals(text)):
        if at <= offset <= at + len(seg):
            found = shell.find(seg)
            if found and offset - at <= found[0].end:
                return at, found[0]
    return 0, None


def _command_line_hover(text: str, offset: int) -> tuple[str, int, int] | None:

    at, cl = _command_line_at(text, offset)
    if cl is None:
        return None
    rel = offset - at
    if cl.start <= rel <= cl.tool_end:
        md = f"`flux {cl.tool}` {_TOOLS[cl.tool]}."
        if cl.tool in ("run", "submit"):
            md += " Inside a batch job it gets the job's own resources."
        return md, at + cl.start, at + cl.tool_end
    cmd = model.command(cl.tool)
    for g in argv.read(cmd, cl.words).given:
        lo, hi = g.name.start, max(g.name.end, g.value_end)
        if lo <= rel <= hi:
            md = f"`flux {cl.tool}` " + option_doc(g.option)
            dynamic = {cl.words[i].start for i in cl.dynamic}
            if g.value is not None and (g.value_start in dynamic or "$" in g.value):
                md += f"\n\nHere: {g.value!r}, known only when the script runs; not checked."
            elif g.value is not None:
                meaning = _meaning(g.option, g.value)
                if meaning:
                    md += f"\n\nHere: {meaning}."
            return md, at + lo, at + hi
    return None


def hover_at(text: str, offset: int, site=None) -> tuple[str, int, int] | None:
    """(markdown, start, end) for the directive option, or the option or command of a
    `flux run|submit|...` line, under ``offset``; on a Slurm, LSF or PBS directive, its
    Flux form. ``site``: a site profile, whose queue a `-q` shows."""
    got = sbatch.hover_at(text, offset)
    if got is not None:
        return got
    script = directives.read(text)
    if script.sentinel is None:
        return _command_line_hover(text, offset)
    sink: list[Diagnostic] = []
    for g in parse_script(script, sink):
        lo, hi = g.name.start, max(g.name.end, g.value_end)
        if lo <= offset <= hi:
            md = option_doc(g.option)
            if g.value is not None:
                meaning = _meaning(g.option, g.value)
                why = value_problem(g.option, g.value)
                if meaning:
                    md += f"\n\nHere: {meaning}."
                elif why:
                    md += f"\n\n{why}."
                if g.option.long == "queue" and site is not None and g.value in site.queues:
                    from jobspec_lsp.site import profile  # deferred: only with a site profile

                    md += "\n\n---\n\n" + profile.queue_markdown(site, g.value)
            return md, lo, hi
    return _command_line_hover(text, offset)


def complete_at(text: str, offset: int, queues: Sequence[str] = (), site=None):
    """(candidates, start, end): option names for the word being typed in a
    directive, or values for the option before the cursor where there is a set of them
    (``queues``: the project's queue names; ``site``: a site profile, whose queues,
    properties and hosts are offered; dependency schemes, duration units, urgency names,
    submission flags); nothing elsewhere."""

    line_start = text.rfind("\n", 0, offset) + 1
    line = text[line_start:offset]
    m = directives.SENTINEL.match(line)
    script = directives.read(text)
    if m is None or script.sentinel is None or m.group(0) != script.sentinel:
        return _command_line_completion(text, offset, queues, site)
    word_start = offset
    while word_start > line_start + m.end() and not text[word_start - 1].isspace():
        word_start -= 1
    prefix = text[word_start:offset]
    opt, value_start = _value_being_typed(text, line_start + m.end(), word_start, prefix)
    if opt is not None:
        value = text[value_start:offset]
        return _values(opt, value, queues, site), value_start, offset
    if prefix and not prefix.startswith("-"):
        return [], offset, offset
    return _option_candidates(_model.command("batch").options, prefix), word_start, offset


def _option_candidates(options, prefix: str) -> list[Candidate]:
    """The options whose long or short form starts with ``prefix``."""
    from jobspec_lsp.features.completion import Candidate  # deferred: only for a completion

    out = []
    for o in options:
        label = f"--{o.long}"
        if not label.startswith(prefix) and not (o.short and f"-{o.short}".startswith(prefix)):
            continue
        insert = label + ("=" if o.value and not o.optional_value else "")
        out.append(Candidate(label, "key", o.value or "", option_doc(o), insert))
    return out


def _command_line_completion(text: str, offset: int, queues: Sequence[str], site=None):
    """Options of the command, or values of the option, being typed on a
    `flux run|submit|...` line."""

    at, cl = _command_line_at(text, offset)
    if cl is None or offset < at + cl.tool_end + 1:
        return [], offset, offset
    body = at + cl.tool_end
    word_start = offset
    while word_start > body and not text[word_start - 1].isspace():
        word_start -= 1
    prefix = text[word_start:offset]
    cmd = model.command(cl.tool)
    # past the command's first non-option word, the words are the job's own
    for w in cl.words:
        if at + w.start >= word_start:
            break
        if not w.value.startswith("-") and not _value_of_previous(cmd, cl.words, w):
            return [], offset, offset
    opt, value_start = _value_being_typed(text, body, word_start, prefix, cmd)
    if opt is not None:
        return _values(opt, text[value_start:offset], queues, site), value_start, offset
    if prefix and not prefix.startswith("-"):
        return [], offset, offset
    shown = [
        o for o in cmd.options if not o.hidden or o.long in ("input", "output", "error", "label-io")
    ]
    return _option_candidates(shown, prefix), word_start, offset


def _value_of_previous(cmd, words, w) -> bool:
    """Whether ``w`` is the value of the option word before it."""

    k = words.index(w)
    if k == 0:
        return False
    kind = argv.classify(cmd, words[k - 1].value)
    return bool(kind and kind[0] is not None and kind[0].value is not None and kind[2] is None)


def _value_being_typed(text: str, body: int, word_start: int, prefix: str, cmd=None):
    """(option, where its value starts) when the cursor is in an option's value:
    ``--opt=VAL``, ``-oVAL`` or the word after ``--opt``/``-o``; (None, 0) otherwise.
    ``cmd``: the command whose options these are (flux batch's by default)."""
    cmd = cmd if cmd is not None else _model.command("batch")
    by_long, by_short = cmd.by_long, cmd.by_short
    if prefix.startswith("--") and "=" in prefix:
        o = by_long.get(prefix[2 : prefix.index("=")])
        return (o, word_start + prefix.index("=") + 1) if o and o.value else (None, 0)
    if prefix.startswith("-") and not prefix.startswith("--") and len(prefix) > 2:
        o = by_short.get(prefix[1])
        return (o, word_start + 2) if o and o.value and not o.optional_value else (None, 0)
    if prefix.startswith("-"):
        return None, 0
    before = text[body:word_start].split()
    if not before:
        return None, 0
    last = before[-1]
    if last.startswith("--") and "=" not in last:
        o = by_long.get(last[2:])
    elif len(last) == 2 and last[0] == "-":
        o = by_short.get(last[1])
    else:
        return None, 0
    if o and o.value and not o.optional_value:
        return o, word_start
    return None, 0


_UNITS = (("s", "seconds"), ("m", "minutes"), ("h", "hours"), ("d", "days"))


def _values(o: Option, value: str, queues: Sequence[str], site=None):
    from jobspec_lsp.features.completion import Candidate  # deferred: only for a completion

    def some(items):
        return [
            Candidate(label, "value", detail, doc)
            for label, detail, doc in items
            if label.startswith(value)
        ]

    name = o.long
    if name == "queue":
        if site is not None:
            from jobspec_lsp.site import profile  # deferred: only with a site profile

            own = [
                (q, profile.queue_brief(site, q), profile.queue_markdown(site, q))
                for q in site.queues
            ]
            more = [(q, "queue", "a queue of this project ([tool.jobspec] queues)")
                    for q in queues if q not in site.queues]  # fmt: skip
            return some(own + more)
        return some((q, "queue", "a queue of this project ([tool.jobspec] queues)") for q in queues)
    if name == "requires" and site is not None:
        return _site_requires(value, site)
    if name == "dependency":
        return [
            Candidate(
                f"{s}:" if s != "singleton" else s,
                "value",
                "RFC 26 scheme",
                _SCHEME_DOCS.get(s, ""),
            )
            for s in _FluxCore.SCHEMES
            if s.startswith(value) and s != "begin-time"
        ]
    if name in ("time-limit", "begin-time"):
        sign = "+" if name == "begin-time" and value.startswith("+") else ""
        digits = value[len(sign) :]
        if digits and digits.replace(".", "", 1).isdigit():
            return [
                Candidate(f"{sign}{digits}{u}", "value", words, f"{digits} {words}")
                for u, words in _UNITS
            ]
        if name == "begin-time":
            return some(
                (w, "time", d)
                for w, d in (
                    ("+1h", "an hour from submission"),
                    ("tomorrow", "the next midnight"),
                    ("today", "today's midnight (already passed: at once)"),
                    ("noon", "today at 12:00"),
                )
            )
        return []
    if name == "urgency":
        return some(
            [
                ("hold", "0", "held until `flux job urgency ID default`"),
                ("default", "16", "the default urgency"),
                ("expedite", "31", "ahead of every other job"),
            ]
        )
    if name == "flags":
        return some(
            [
                ("waitable", "flag", "`flux job wait` can wait for it"),
                ("debug", "flag", "debug events from the job manager"),
                ("novalidate", "flag", "skip the ingest validator (instance owner only)"),
            ]
        )
    return []


def _site_requires(value: str, site) -> list[Candidate]:
    """The site's properties (and `host:` names) for the last term of a --requires
    query being typed, each with how many nodes have it."""
    from jobspec_lsp.features.completion import Candidate  # deferred: only for a completion

    head = max(value.rfind(","), value.rfind(" "), value.rfind("("), value.rfind("|"))
    done, term = value[: head + 1], value[head + 1 :]
    neg = term[:1] if term[:1] in ("^", "-") else ""
    out: list[Candidate] = []
    if term.startswith("host:"):
        typed = term[5:]
        for c in site.classes:
            from jobspec_lsp.site import hostlists  # deferred: only with a site profile

            for h in hostlists.expand(c.hosts) if c.hosts else []:
                if h.startswith(typed) and len(out) < 200:
                    gpus = f", {c.gpus} GPUs" if c.gpus else ""
                    out.append(Candidate(done + "host:" + h, "value", f"{c.cores} cores{gpus}"))
        return out
    for p in sorted(site.properties()):
        if p.startswith(term[len(neg) :]):
            nodes = sum(c.count for c in site.classes if p in c.properties)
            what = "nodes without it" if neg else "nodes"
            count = site.nodes - nodes if neg else nodes
            out.append(Candidate(done + neg + p, "value", f"{count} {what}", f"property `{p}`"))
    if "host:".startswith(term) and any(c.hosts for c in site.classes):
        out.append(Candidate(done + "host:", "value", "a host of the site"))
    return out


_SCHEME_DOCS = {
    "after": "after:JOBID — once that job has started",
    "afterany": "afterany:JOBID — once that job has ended, however",
    "afterok": "afterok:JOBID — once that job has ended successfully",
    "afternotok": "afternotok:JOBID — once that job has failed",
    "singleton": "one job of this name and user at a time",
}
