"""The directives of a Flux batch script read as `flux batch` reads them: each directive's
words through `flux batch`'s option table (:mod:`.fluxcli.argv`), with the findings of that
reading (JS570-JS572, JS574) at their words. :mod:`.batch` checks what they ask,
:mod:`.steps` holds the body's command lines to it, :mod:`.assist` hovers and completes them."""

from __future__ import annotations

from jobspec_lsp.diagnostics import SCRIPT_KINDS, Diagnostic, Family, Severity
from jobspec_lsp.fluxcli import argv
from jobspec_lsp.fluxcli import model as _model
from jobspec_lsp.fluxcli.argv import Given, Problem, Word
from jobspec_lsp.fluxcli.argv import brief as _brief
from jobspec_lsp.fluxcli.model import Option
from jobspec_lsp.job import directives
from jobspec_lsp.text import suggest

E, W = Severity.ERROR, Severity.WARNING

_S = "#!/bin/sh\n#flux: -N2\n#flux: --job-name=sim\n\nflux run -N2 ./sim\n"

family = Family(kinds=SCRIPT_KINDS, good=_S)
UNKNOWN = family.error(
    """JS570 directive-unknown-option: A directive holds an option `flux batch` does not have.

    `flux batch` refuses the whole script for an option it does not know. A close match is
    offered as a fix (not applied without --unsafe-fixes: it is a guess). An option of
    another scheduler's (a Slurm script whose `#SBATCH` became `#flux:`: `-J sim`,
    `--ntasks-per-node=4`, `--mem=4G`) is never matched to a Flux option of another
    meaning: its fix is what `jobspec convert` writes for it, the option as Flux's
    (`--job-name=sim`; a shape option rewrites the block's -N/-n/-c/-g as the conversion
    does) or, where Flux has no form of it, a `# not carried: ... (why)` comment line. That
    fix is safe where the scheduler's meaning is certain: an option no Flux option and no
    other scheduler's shares, written as Flux's without an approximation.""",
    bad=_S.replace("--job-name=sim", "--jobname=sim"),
    fix="habit",
    safety="repair",
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
    anything else. A value in another scheduler's form (Slurm's `-t 23:59:00`) gets the fix
    its conversion writes (`-t 1439m`): safe where only that scheduler's reading gives it a
    meaning (Slurm's `[D-]HH:MM:SS`; `MM:SS` could be meant as hours and minutes).""",
    bad=_S.replace("-N2", "-N two"),
    fix="habit",
    safety="repair",
)
NOT_OPTION = family.warning(
    """JS574 directive-not-an-option: A directive word that is not an option: Flux drops it and
    the rest of the directive.

    `flux batch` reads each directive as a command line: the first word that is not an option
    starts the script and its arguments, which the real command line then replaces. That word
    and every word after it in the directive are silently dropped, options included (`-n1 foo
    -N2` never asks for 2 nodes). A directive whose first word is not an option is refused
    outright (an error). The fix rejoins a value split off its option (`--job-name=my job`
    quoted whole; a directive holding only the value of the one before it, moved there),
    writes another scheduler's option as Flux's (Slurm's `-J sim`), or else comments the
    words out (`#flux: # words`), as Flux drops them.""",
    bad=_S.replace("--job-name=sim", "--job-name sim extra"),
    fix="not-option",
)
OTHER_MEANING = family.warning(
    """JS575 directive-other-scheduler-meaning: In a script that evidently is another
    scheduler's with `#flux:` sentinels, an option Flux reads with another meaning.

    A Slurm script whose `#SBATCH` became `#flux:` holds options only Slurm has (JS570), so
    its other options were written for Slurm too; a few of them are options of `flux batch`
    as well, with another meaning: Slurm's `-o out.%j` is the output file, Flux's `-o` a
    shell option (--setopt); Slurm's `-q` a QOS, Flux's the queue; Slurm's `-x` the nodes to
    exclude, Flux's exclusive nodes; Slurm's `-B` and `-S` sockets and cores, Flux's the bank
    and an attribute; Slurm's `%j` in an output name the job id, which Flux writes `{{id}}`.
    Flux takes them without a word and the job silently differs. The fix writes what the
    conversion writes for the option (unsafe: which meaning was intended is a guess).""",
    bad=_S.replace("--job-name=sim", "--mem=4G -o sim.%j"),
    good=_S.replace("--job-name=sim", "--output=sim.{{id}}"),
    fix="habit",
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
                f"a directive must start with an option: flux batch refuses the script at "
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
        return unknown_option(p.name, p.start, p.end)
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


def long_option(name: str) -> Option | None:
    # no abbreviations: Flux's parsers have allow_abbrev=False
    return _model.command("batch").by_long.get(name)


def unknown_option(name: str, start: int, end: int) -> Diagnostic:
    cmd = _model.command("batch")
    names = [f"--{n}" for n in cmd.by_long] + ["-" + o.short for o in cmd.options if o.short]
    shown = name if len(name) <= 40 else None
    nearest = suggest.closest(name, names) if shown else None
    close = [nearest] if nearest else []
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


def value_range(g: Given) -> tuple[int, int]:
    if g.value_end > g.value_start:
        return g.value_start, g.value_end
    return g.name.start, g.name.end
