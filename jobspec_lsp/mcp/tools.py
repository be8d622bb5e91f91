"""The tools an agent calls (`jobspec mcp`), as pure functions: JSON arguments in, one JSON
object out, in the shapes of the verdict schema (:mod:`.verdict`). Each tool is declared
once in ``TOOLS``: its name, when to call it, its arguments' schema and its result's
definition. Nothing here knows MCP (:mod:`.server` serves the table over stdio).

The settings come as `jobspec check` reads them: the project configuration of the server's
working directory (jobspec.toml, [tool.jobspec]), under what `jobspec mcp` was started with
(--target, --site), under a tool's own arguments (``target``, ``site``)."""

from __future__ import annotations

import json
from pathlib import Path

from jobspec_lsp import config, convert, kinds
from jobspec_lsp.diagnostics import RULES, Severity, rule_url, unknown_code
from jobspec_lsp.features.fixes import apply_fixes
from jobspec_lsp.fluxcli import model
from jobspec_lsp.mcp import migration, verdict
from jobspec_lsp.record import Frozen, Record
from jobspec_lsp.rules.targets import DEFAULT as DEFAULT_TARGET
from jobspec_lsp.rules.targets import TARGETS
from jobspec_lsp.script import batch
from jobspec_lsp.site.cache import Sites

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing; True to mypy
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Result = dict[str, Any]


class Served(Record):
    """What every call is served with: the working directory (its configuration), the
    server's own --target and --site, the site profiles loaded so far."""

    __slots__ = ("cwd", "target", "site", "sites")

    def __init__(self, cwd: Path, target: str | None = None, site: str | None = None) -> None:
        self.cwd, self.target, self.site = cwd, target, site
        self.sites = Sites()

    def checking(self, args: dict[str, Any]) -> Checking:
        """How a call's text is checked: its arguments over the server's settings over the
        configuration; what could not be read said in ``problems``."""
        cfg = config.load(self.cwd)
        problems = [str(p) for p in cfg.problems]
        site = None
        where = args.get("site") or self.site or cfg.site
        if where:
            site, error = self.sites.get(str(self.cwd / where))
            if error is not None:
                problems.append(f"site profile: {error} (checked without the site)")
        filename = args.get("filename")
        options = kinds.Options(
            select=tuple(cfg.select) if cfg.select else None,
            ignore=cfg.ignored_for(self.cwd / filename if filename else None),
            target=args.get("target") or self.target or cfg.target or DEFAULT_TARGET,
            version_rules=cfg.version_rules or "auto",
            flux_version=cfg.flux_version,
            site=site,
        )
        return Checking(options, cfg.docs_url, tuple(problems))


class Checking(Frozen):
    """A call's check: the options, the rule pages' address, the problems to say."""

    __slots__ = ("options", "docs_url", "problems")
    options: kinds.Options
    docs_url: str | None
    problems: tuple[str, ...]

    def __init__(self, options: kinds.Options, docs_url: str | None, problems: tuple[str, ...]):
        object.__setattr__(self, "options", options)
        object.__setattr__(self, "docs_url", docs_url)
        object.__setattr__(self, "problems", problems)

    def analyse(self, kind: kinds.Kind, text: str):
        """(document, diagnostics) of ``text`` read as ``kind``."""
        doc = kind.read(text)
        return doc, kind.check(doc, self.options)

    def said(self, result: Result) -> Result:
        """``result`` with the problems, when there are any."""
        if self.problems:
            result["problems"] = list(self.problems)
        return result


class Refused(Exception):
    """Arguments a tool cannot use: its result is ``{"error": why}``, marked an error."""


def _kind(args: dict[str, Any]) -> kinds.Kind:
    """The kind named by ``kind``, else the one `jobspec check` detects for ``filename``."""
    if args.get("kind"):
        return kinds.BY_NAME[args["kind"]]
    return kinds.detect(args.get("filename"), args["text"], explicit=True)


# --------------------------------------------------------------------------- the tools
def check(args: dict[str, Any], served: Served) -> Result:
    """{kind, positionEncoding, findings}: the text checked as `jobspec check` checks a
    file."""
    checking = served.checking(args)
    kind = _kind(args)
    doc, diags = checking.analyse(kind, args["text"])
    result: Result = {
        "kind": kind.name,
        "positionEncoding": verdict.POSITION_ENCODING,
        "findings": verdict.findings(doc, diags, checking.docs_url),
    }
    if not kind.offers("diagnostics"):
        result["note"] = f"{kind.summary}: nothing to check (a filename or kind says what it is)"
    return checking.said(result)


def fix(args: dict[str, Any], served: Served) -> Result:
    """{kind, text, applied, positionEncoding, findings}: the safe fixes (every preferred
    one with ``unsafe``) applied until none is left, as `check --fix` does, and the
    findings of the new text."""
    checking = served.checking(args)
    kind = _kind(args)
    text = args["text"]
    doc, diags = checking.analyse(kind, text)
    applied: list[tuple[str, str]] = []
    if not any(d.code == "JS911" for d in diags):  # a binary text is never rewritten
        text, applied = apply_fixes(
            lambda t: checking.analyse(kind, t), text, unsafe=bool(args.get("unsafe"))
        )
        if applied:
            doc, diags = checking.analyse(kind, text)
    return checking.said(
        {
            "kind": kind.name,
            "text": text,
            "applied": [{"code": c, "title": t} for c, t in applied],
            "positionEncoding": verdict.POSITION_ENCODING,
            "findings": verdict.findings(doc, diags, checking.docs_url),
        }
    )


def convert_script(args: dict[str, Any], served: Served) -> Result:
    """A Slurm, LSF or PBS script as a Flux batch script (:mod:`.migration`)."""
    checking = served.checking(args)
    return checking.said(
        migration.converted(args["text"], args.get("source") or "auto", checking.analyse)
    )


_SUBMITTING = ("submit", "run")


def new(args: dict[str, Any], served: Served) -> Result:
    """{jobspec, notes} for a `flux submit` or `flux run` command line, or {refused}."""
    argv = list(args["argv"])
    if argv[:1] == ["flux"]:
        argv = argv[1:]
    if argv[:1] and argv[0] in _SUBMITTING:
        argv = argv[1:]
    elif argv[:1] and argv[0] in ("batch", "alloc", "bulksubmit"):
        raise Refused(
            f"flux {argv[0]} is not read here: new reads flux submit and flux run command "
            "lines (show_jobspec gives a batch script's jobspec)"
        )
    if any(a == "--format" or a.startswith("--format=") for a in argv):
        raise Refused("--format is `jobspec new`'s own option: the new tool returns JSON")
    cfg = config.load(served.cwd)
    try:
        with model.using(cfg.flux_version):
            conv = convert.from_command_line(["--format=json", *argv])
    except (convert.UsageError, ValueError) as err:
        return {"refused": str(err)}
    notes = list(dict.fromkeys(ch.message for ch in conv.changes))
    if conv.blockers or conv.text is None:
        said = "; ".join(f"{d.code} {d.message}" for d in conv.blockers)
        return {"refused": said or "no jobspec", "notes": notes}
    return {"jobspec": json.loads(conv.text), "notes": notes}


def show_jobspec(args: dict[str, Any], served: Served) -> Result:
    """{jobspec} `flux batch --dry-run` prints for a Flux batch script (apart from the
    environment and resource limits it copies), or {refused}: why flux batch refuses it."""
    name = Path(args.get("filename") or "script.sh").name
    cfg = config.load(served.cwd)
    try:
        with model.using(cfg.flux_version):
            js = batch.jobspec(args["text"], name, str(served.cwd), read_files=False)
    except batch.BatchError as err:
        if err.ours:
            return {"refused": f"cannot build the jobspec: {err}"}
        return {"refused": f"flux batch would refuse it: {err}"}
    except ValueError as err:  # the configuration's flux-version is no version we know
        return {"refused": str(err)}
    return {"jobspec": js}


def explain(args: dict[str, Any], served: Served) -> Result:
    """A rule's fields: what it finds, why, the kinds it applies to, its fix's safety, a
    bad and a fixed example, its page."""
    code = str(args["code"]).strip().upper()
    rule = RULES.get(code)
    if rule is None:
        raise Refused(unknown_code(args["code"]))
    return {
        "code": rule.code,
        "name": rule.name,
        "severity": Severity(rule.severity).label,
        "summary": rule.summary,
        "why": rule.why,
        "kinds": list(rule.kinds),
        "fix": rule.safety if rule.fix else None,
        "bad": rule.bad,
        "good": rule.good,
        "url": rule_url(rule.code, config.load(served.cwd).docs_url),
    }


# --------------------------------------------------------------------------- the table
class Tool(Frozen):
    """A tool: its name, a title, when to call it, its arguments' JSON Schema, the name of
    its result's definition in the verdict schema, and the function that answers it."""

    __slots__ = ("name", "title", "description", "arguments", "result", "run")
    name: str
    title: str
    description: str
    arguments: dict[str, Any]
    result: str
    run: Callable[[dict[str, Any], Served], Result]

    def __init__(self, name, title, description, arguments, result, run) -> None:
        for slot, value in zip(self.__slots__, (name, title, description, arguments, result, run)):
            object.__setattr__(self, slot, value)


def _object(required: list[str], **properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


_TEXT: dict[str, Any] = {"type": "string", "description": "the whole text of the file"}
_FILENAME: dict[str, Any] = {
    "type": "string",
    "description": "the file's name or path (relative to the server's folder), which tells "
    "its kind as `jobspec check` tells it (job.sh, job.jobspec.yaml) and its per-file-ignores",
}
_KIND: dict[str, Any] = {
    "enum": [k for k in kinds.KINDS if k != "unknown"],
    "description": "read the text as this kind, whatever its name or content",
}
_TARGET: dict[str, Any] = {
    "enum": list(TARGETS),
    "description": "what an error means: rfc (the RFCs), flux-core (what flux-core's "
    "job-ingest rejects), flux-core-any, fluxion; default: the project's, else rfc",
}
_SITE: dict[str, Any] = {
    "type": "string",
    "description": "a site profile's directory (its conf.d and R, `jobspec site import`): "
    "also check that the job can run on that site; default: the project's",
}
_CHECKED: dict[str, dict[str, Any]] = {
    "text": _TEXT,
    "filename": _FILENAME,
    "kind": _KIND,
    "target": _TARGET,
    "site": _SITE,
}

TOOLS = (
    Tool(
        "check",
        "Check a Flux jobspec or batch script",
        "Check a Flux jobspec (YAML or JSON) or a batch script (#flux: directives, and the "
        "flux commands it runs; a Slurm #SBATCH, LSF #BSUB or PBS #PBS script too) as "
        "`jobspec check` does. Call it before submitting a script or jobspec you wrote or "
        "changed, and again after each fix, until no error is left. Returns the kind read and "
        "each finding: a stable code (explain tells more), severity, message, its range (0-based "
        "lines, UTF-16 characters) and 1-based line and column, and its fixes as text edits "
        "marked safe or unsafe.",
        _object(["text"], **_CHECKED),
        "checkResult",
        check,
    ),
    Tool(
        "fix",
        "Apply the fixes of a jobspec or batch script",
        "Apply the safe fixes of check's findings (with unsafe: true, the guesses too, such as "
        "a did-you-mean) until none is left, as `jobspec check --fix` does, and return the new "
        "text with what was applied and the findings left. Call it after check reports "
        "findings that have fixes; write the text back, then deal with what is left.",
        _object(
            ["text"],
            **_CHECKED,
            unsafe={"type": "boolean", "default": False, "description": "apply unsafe fixes too"},
        ),
        "fixResult",
        fix,
    ),
    Tool(
        "convert",
        "Convert a Slurm, LSF or PBS script to Flux",
        "Convert a Slurm (#SBATCH), LSF (#BSUB) or PBS (#PBS) batch script to a Flux batch "
        "script that runs the same job: directives, launch lines (srun, jsrun, mpirun, aprun "
        "-> flux run) and the scheduler's variables, every other line kept. Call it to migrate "
        "a Slurm script (or an LSF or PBS one) to Flux. Returns the script, what was carried, "
        "carried approximately and not carried (ranges in the original), and the findings of "
        "the Flux script; or, for a job Flux cannot run as one, the refusal and why.",
        _object(
            ["text"],
            text=_TEXT,
            source={"enum": ["auto", "slurm", "lsf", "pbs"], "default": "auto"},
            target=_TARGET,
            site=_SITE,
        ),
        "convertResult",
        convert_script,
    ),
    Tool(
        "new",
        "The jobspec of a flux submit command line",
        "The jobspec that a `flux submit` or `flux run` command line builds, read with Flux's "
        "own option table, without a running Flux. Call it to see what a command line asks "
        "for (nodes, tasks, cores, GPUs, time), or to write a jobspec file. argv: the command "
        'line as a list of words, e.g. ["flux", "submit", "-N2", "-n8", "-t", "1h", '
        '"app"]. Returns {jobspec} or {refused}: why Flux would refuse it.',
        _object(
            ["argv"],
            argv={
                "type": "array",
                "items": {"type": "string"},
                "minItems": 1,
                "description": "the words of the command line (flux submit or flux run, its "
                "options, the command and its arguments)",
            },
        ),
        "jobspecResult",
        new,
    ),
    Tool(
        "explain",
        "Explain a rule",
        "A rule's text: what it finds, why Flux cares, the kinds of file it applies to, its "
        "fix's safety, a bad and a fixed example, its documentation page. Call it when a "
        "finding's message is not enough to fix it.",
        _object(["code"], code={"type": "string", "description": "a rule code, e.g. JS202"}),
        "rule",
        explain,
    ),
    Tool(
        "show_jobspec",
        "The jobspec flux batch submits for a script",
        "The jobspec `flux batch` would submit for a Flux batch script (its #flux: "
        "directives), as `flux batch --dry-run` prints it apart from the environment and "
        "resource limits it copies from the submitter. Call it once check finds no error, to "
        "confirm what the script asks for (nodes, tasks, time, queue) before submitting it. "
        "Returns {jobspec} or {refused}: why flux batch would refuse the script.",
        _object(["text"], text=_TEXT, filename=_FILENAME),
        "jobspecResult",
        show_jobspec,
    ),
)
BY_NAME = {t.name: t for t in TOOLS}


def call(name: str, args: dict[str, Any], served: Served) -> tuple[Result, bool]:
    """(the result of tool ``name`` on ``args``, whether it is an error): arguments the
    tool cannot use are an error that says why (checked against its schema first)."""
    tool = BY_NAME.get(name)
    if tool is None:
        return {"error": f"no tool {name!r}: {', '.join(BY_NAME)}"}, True
    why = invalid(args, tool.arguments)
    if why is not None:
        return {"error": why}, True
    try:
        return tool.run(args, served), False
    except Refused as err:
        return {"error": str(err)}, True


_TYPES = {"string": str, "boolean": bool, "array": list}


def invalid(args: Any, schema: dict[str, Any]) -> str | None:
    """Why ``args`` do not fit a tool's arguments schema (an object of strings, booleans,
    enums and lists of strings), or None."""
    if not isinstance(args, dict):
        return "the arguments are an object"
    props = schema["properties"]
    for name in schema["required"]:
        if name not in args:
            return f"{name} is required"
    for name, value in args.items():
        want = props.get(name)
        if want is None:
            return f"unknown argument {name!r}; the arguments are: {', '.join(props)}"
        if value is None and name not in schema["required"]:
            continue
        if "enum" in want and value not in want["enum"]:
            return f"{name}: {value!r} is not one of {', '.join(map(str, want['enum']))}"
        kind = _TYPES.get(want.get("type", ""))
        if kind is not None and not isinstance(value, kind):
            return f"{name}: a {want['type']}, not {type(value).__name__}"
        if kind is list and not all(isinstance(v, str) for v in value):
            return f"{name}: a list of strings"
        if kind is list and len(value) < want.get("minItems", 0):
            return f"{name}: at least {want['minItems']} word"
    return None
