"""Another scheduler's options in `#flux:` directives, as findings (issue 39): a Slurm script
whose `#SBATCH` became `#flux:` is the commonest broken Flux script. Each finding of the
directives' reading (JS570-JS574) that falls on such an option says whose it is and what
it is under Flux, and carries the option (``data["habit"]``) for its fix
(:mod:`jobspec_lsp.features.directivefix`); in a script that evidently is the scheduler's,
the options Flux reads with another meaning are said too (JS575). An unknown option that
is another scheduler's is never matched to a Flux option of another meaning.

Loaded only for a script whose directives Flux refuses (the boundary ``batch._HABITS``):
it reads them with the conversion's tables (:mod:`jobspec_lsp.migrate.habits`)."""

from __future__ import annotations

from jobspec_lsp.diagnostics import Diagnostic, Severity
from jobspec_lsp.fluxcli import argv, model
from jobspec_lsp.job import directives
from jobspec_lsp.migrate import habits
from jobspec_lsp.migrate.habits import OWNER, Found, Habit, Plan
from jobspec_lsp.script.batch import EXCLUSIVE, TOO_MANY_NODES
from jobspec_lsp.script.reading import BAD_VALUE, NOT_OPTION, OTHER_MEANING, UNKNOWN, W

CODES = (UNKNOWN, BAD_VALUE, NOT_OPTION, EXCLUSIVE, TOO_MANY_NODES)


def findings(text: str, found: list[Diagnostic]) -> list[Diagnostic]:
    """``found`` (a script's findings) with each of JS570-JS574 that falls on another
    scheduler's option said as such, and the JS575 of the script."""
    p = habits.plan(text)
    out = []
    for d in found:
        if d.code not in CODES:
            out.append(d)
            continue
        h = _habit(p, d) if p is not None else None
        if h is not None:
            assert p is not None
            out.append(_said(p, h, d))
        elif d.code == UNKNOWN:
            out.append(_unknown(d, text[d.start : d.end]))
        elif d.code == NOT_OPTION:
            fixes = not_option(text, d)
            out.append(Diagnostic(d.code, d.severity, d.message, d.start, d.end, {"fixes": fixes}))
        else:
            out.append(d)
    if p is not None and p.evident:
        out.extend(_other_meaning(p, h) for h in p.habits if not h.refused)
    return out


def _habit(p: Plan, d: Diagnostic) -> Habit | None:
    """The habit the finding is about: the one holding its words, or, for words Flux drops,
    the first they meet."""
    got = p.at(d.start, d.end)
    if got is None and d.code == NOT_OPTION:
        got = next((h for h in p.habits if d.start < h.end and h.start < d.end), None)
    return got


def _what(p: Plan, h: Habit) -> str:
    """What the option is under Flux, in words."""
    flux = " ".join(h.flux)
    if h.broken:
        return f"{p.scheduler_command} refuses it too ({h.why}): the fix keeps it as a comment"
    if h.status == "not-carried":
        return f"Flux has no form of it ({h.why})"
    if h.status == "nothing":
        return f"nothing to carry ({h.why})"
    if h.shape:
        if not flux:
            return "the block's shape cannot be written as Flux's"
        return f"with the block's size, the job's shape under Flux is {flux}"
    lost = f" (not carried: {h.why})" if h.status == "lost" else ""
    return f"under Flux {flux}{lost}"


def _said(p: Plan, h: Habit, d: Diagnostic) -> Diagnostic:
    owner = OWNER[p.scheduler]
    if d.code == UNKNOWN:
        base = _unknown(d, h.name).message if h.broken else f"flux batch has no option {h.name}"
        message = (
            f"{base}: it is {owner}'s; {_what(p, h)}" if not h.broken else f"{base}; {_what(p, h)}"
        )
    elif d.code in (BAD_VALUE, EXCLUSIVE, TOO_MANY_NODES):
        message = f"{d.message}; as {owner} reads it, {_what(p, h)}"
    else:
        message = f"{d.message}; it is the value of {owner}'s {h.name}: {_what(p, h)}"
    return Diagnostic(d.code, d.severity, message, d.start, d.end, _data(p, h))


def _data(p: Plan, h: Habit) -> dict:
    """What a habit's finding carries: the option, and its fixes (computed once here, with
    the conversion's tables, which the check has loaded)."""
    return {"habit": [h.start, h.end], "scheduler": p.scheduler, "fixes": habits.fixes(p.text, h)}


def _unknown(d: Diagnostic, name: str) -> Diagnostic:
    """An unknown option that another scheduler has: its Flux form in words, never a
    close Flux option of another meaning."""
    got = habits.owner_of(name)
    if got is None:
        return d
    scheduler, opt = got
    form = f"Flux's form: {opt.flux}" if opt.flux else "Flux has no form of it"
    note = f" ({opt.note})" if opt.note and not opt.flux else ""
    message = f"flux batch has no option {name}: it is {OWNER[scheduler]}'s; {form}{note}"
    return Diagnostic(d.code, d.severity, message, d.start, d.end)


def _other_meaning(p: Plan, h: Habit) -> Diagnostic:
    owner = OWNER[p.scheduler]
    theirs, ours = habits.OTHER_MEANING[p.scheduler][h.name]
    example = next(x.name for x in p.habits if x.foreign)
    message = (
        f"{h.name} is {theirs} to {owner}, and this script evidently is {owner}'s (it holds "
        f"{example}); flux batch reads it as {ours}. As {owner} means it, {_what(p, h)}"
    )
    name_end = h.start + len(h.name) if p.text.startswith(h.name, h.start) else h.end
    return Diagnostic(OTHER_MEANING, W, message, h.start, name_end, _data(p, h))


def not_option(text: str, d: Diagnostic) -> Found:
    """JS574's fixes where the words are not another scheduler's: a value split off its
    option rejoined, else the words commented out (`#flux: # ...`), as Flux drops them."""
    script = directives.read(text)
    at = next((k for k, x in enumerate(script.directives) if _holds(x, d.start)), None)
    if at is None:
        return []
    words = script.directives[at].words
    first = next(k for k, w in enumerate(words) if w.start >= d.start)
    if d.severity == Severity.ERROR:
        return _join_before(text, script, at) or _comment_lead(text, words)
    rejoined = _rejoin(text, words, first)
    if rejoined:
        return rejoined
    title = "Comment out the words flux batch drops"
    return [(title, [(words[first].start, words[first].start, "# ")], True, True)]


def _comment_lead(text: str, words: list[argv.Word]) -> Found:
    """The words before a directive's first option (Flux refuses the directive for them)
    made a comment: at its end, after the options (`#flux: -N2 # foo`), or the whole
    directive (`#flux: # foo`)."""
    lead = next((k for k, w in enumerate(words) if w.value.startswith("-")), len(words))
    if lead == len(words):
        why = "Comment the directive out (flux batch refuses it)"
        return [(why, [(words[0].start, words[0].start, "# ")], True, True)]
    said = text[words[0].start : words[lead - 1].end]
    cut = (words[0].start, words[lead].start, "")
    moved = (words[-1].end, words[-1].end, f" # {said}")
    return [
        (
            f"Comment out {said!r} (flux batch refuses the directive for it)",
            [cut, moved],
            True,
            True,
        )
    ]


def _holds(x: directives.Directive, offset: int) -> bool:
    return bool(x.words) and x.words[0].start <= offset <= x.words[-1].end


def _join_before(text: str, script: directives.Script, at: int) -> Found:
    """A directive holding only the value of the option that ends the directive before it
    (`#flux: --job-name` then `#flux: sim`): the value moved to that option."""
    if at == 0:
        return []
    prev, this = script.directives[at - 1], script.directives[at]
    if len(this.words) != 1 or not prev.words or "\n" in text[prev.start : prev.end]:
        return []
    reading = argv.read(model.command("batch"), prev.words)
    last = prev.words[-1]
    if not any(p.kind == "needs-value" and p.start == last.start for p in reading.problems):
        return []
    w = this.words[0]
    line_start = text.rfind("\n", 0, w.start) + 1
    after = text.find("\n", this.end)
    end = len(text) if after < 0 else after + 1
    value = text[w.start : w.end]
    title = f"Join {value} to {last.value} on the line before (its value)"
    return [(title, [(last.end, last.end, " " + value), (line_start, end, "")], True, True)]


def _rejoin(text: str, words: list[argv.Word], first: int) -> Found:
    """Words Flux drops after an option's text value (`--job-name=my job`): the value and
    them as one quoted value."""
    before = words[:first]
    rest = words[first:]
    if not before or any(w.value.startswith("-") for w in rest):
        return []
    reading = argv.read(model.command("batch"), before)
    if reading.problems or not reading.given:
        return []
    g = reading.given[-1]
    if g.value is None or g.option.integer or g.value_end != before[-1].end:
        return []
    tail = text[before[-1].end : rest[-1].end]  # as written: `<a>` is three words to Flux
    plain = not any(c in tail for c in "'\"\\")
    value = g.value + tail if plain else " ".join([g.value] + [w.value for w in rest])
    try:
        quoted = directives.quote(value)
    except ValueError:
        return []
    title = f"Quote {value!r} as the value of --{g.option.long}"
    return [(title, [(g.value_start, rest[-1].end, quoted)], True, True)]
