"""Hover and completion in a batch script: on a directive's option (its documentation and
what its value means), on a `flux run|submit|...` line's command and options, and on a
Slurm, LSF or PBS directive line (its Flux form). Loaded by the script kinds' hover and
completion only (:mod:`jobspec_lsp.kinds`)."""

from __future__ import annotations

from collections.abc import Sequence

from jobspec_lsp.diagnostics import Diagnostic, Severity
from jobspec_lsp.features.completion import Candidate
from jobspec_lsp.features.hover import human_duration
from jobspec_lsp.fluxcli import argv, model, shell, values
from jobspec_lsp.fluxcli import model as _model
from jobspec_lsp.fluxcli.model import Option
from jobspec_lsp.fluxcli.values import Refused, value_problem
from jobspec_lsp.job import directives, shellread
from jobspec_lsp.rules.targets import _FluxCore
from jobspec_lsp.script import sbatch
from jobspec_lsp.script.reading import parse_script
from jobspec_lsp.site import hostlists, profile

E, W = Severity.ERROR, Severity.WARNING


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


# the values offered for an option whose values are a fixed set: (label, detail, doc)
_FIXED = {
    "urgency": (
        ("hold", "0", "held until `flux job urgency ID default`"),
        ("default", "16", "the default urgency"),
        ("expedite", "31", "ahead of every other job"),
    ),
    "flags": (
        ("waitable", "flag", "`flux job wait` can wait for it"),
        ("debug", "flag", "debug events from the job manager"),
        ("novalidate", "flag", "skip the ingest validator (instance owner only)"),
    ),
}
_BEGIN_WORDS = (
    ("+1h", "time", "an hour from submission"),
    ("tomorrow", "time", "the next midnight"),
    ("today", "time", "today's midnight (already passed: at once)"),
    ("noon", "time", "today at 12:00"),
)
_PROJECT_QUEUE = "a queue of this project ([tool.jobspec] queues)"


def _values(o: Option, value: str, queues: Sequence[str], site=None) -> list[Candidate]:
    """The values offered for option ``o`` whose value starts ``value``."""
    name = o.long
    if name == "queue":
        return _starting(value, _queue_values(queues, site))
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
        return _time_values(name, value)
    return _starting(value, _FIXED.get(name, ()))


def _starting(value: str, items) -> list[Candidate]:
    return [
        Candidate(label, "value", detail, doc)
        for label, detail, doc in items
        if label.startswith(value)
    ]


def _queue_values(queues: Sequence[str], site) -> list[tuple[str, str, str]]:
    """The site's queues (with their limits), then the project's other queue names."""
    own = []
    if site is not None:
        own = [
            (q, profile.queue_brief(site, q), profile.queue_markdown(site, q)) for q in site.queues
        ]
    known = site.queues if site is not None else ()
    return own + [(q, "queue", _PROJECT_QUEUE) for q in queues if q not in known]


def _time_values(name: str, value: str) -> list[Candidate]:
    """A number being typed with each unit after it; words of a begin time."""
    sign = "+" if name == "begin-time" and value.startswith("+") else ""
    digits = value[len(sign) :]
    if digits and digits.replace(".", "", 1).isdigit():
        return [
            Candidate(f"{sign}{digits}{u}", "value", words, f"{digits} {words}")
            for u, words in _UNITS
        ]
    return _starting(value, _BEGIN_WORDS) if name == "begin-time" else []


def _site_requires(value: str, site) -> list[Candidate]:
    """The site's properties (and `host:` names) for the last term of a --requires
    query being typed, each with how many nodes have it."""

    head = max(value.rfind(","), value.rfind(" "), value.rfind("("), value.rfind("|"))
    done, term = value[: head + 1], value[head + 1 :]
    neg = term[:1] if term[:1] in ("^", "-") else ""
    out: list[Candidate] = []
    if term.startswith("host:"):
        typed = term[5:]
        for c in site.classes:
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
