"""The playground's Python side: what the page's worker asks of the package, answered as
JSON-ready dictionaries. It runs under Pyodide (web/worker.js imports it as
``jobspec_playground``) and under CPython alike (tests/web/ and benchmarks/bench_web.py
call it directly), and uses the package only as the CLI and the server do:

- the kind of the text: ``kinds.detect`` as `jobspec check` asks it (``explicit``: a text
  that is no script is read as a jobspec), or the kind the user chose;
- its findings: ``Kind.check`` with ``kinds.Options`` (target, site profile), each with
  its rule's page (``diagnostics.rule_url``) and its quick fixes (``fixes.fixes_for``, as
  the server's code actions); all the safe ones at once: ``fixes.apply_fixes``, as
  `check --fix` does;
- a Slurm, LSF or PBS script's conversion (``migrate.convert.convert``), what it carried,
  approximated and refused;
- "Show the jobspec" of a Flux script (``script.batch.shown_jobspec``);
- a site profile from uploaded files (``site.profile``).

Offsets sent to the page are UTF-16 code units (JavaScript's), the package's are code
points: :class:`Units` turns one into the other.
"""

from __future__ import annotations

import bisect
import json
import shutil
import time
from pathlib import Path

import yamlcompat

from jobspec_lsp import kinds
from jobspec_lsp.diagnostics import RULES, Severity, rule_url

# under Pyodide there is no libyaml: PyYAML's pure reader, made to read as libyaml does
yamlcompat.install()

SEVERITY = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFORMATION: "info",
    Severity.HINT: "hint",
}
# the conversion's findings (migrate.model.Finding.kind) as the page groups them
CARRIED, APPROXIMATED, REFUSED = "carried", "approximated", "refused"
GROUP = {
    "note": CARRIED,  # carried with a change in how it is written or read
    "command": CARRIED,  # a launch line rewritten (srun -> flux run)
    "variable": CARRIED,  # a variable written as Flux's (refused when Flux has none)
    "approx": APPROXIMATED,
    "kept": REFUSED,  # an option Flux has no form of: the line is kept as written
    "bad": REFUSED,  # the scheduler itself would refuse it
    "late": REFUSED,  # after the first command: the scheduler ignores it too
    "launch": REFUSED,  # a scheduler command with no Flux counterpart left in the body
    "refused": REFUSED,  # the job has no Flux form
}


class Units:
    """Code-point offsets of ``text`` as UTF-16 code units (the same unless the text has
    characters beyond U+FFFF)."""

    def __init__(self, text: str):
        self.wide: list[int] = (
            [] if text.isascii() else [i for i, c in enumerate(text) if ord(c) > 0xFFFF]
        )

    def __call__(self, offset: int) -> int:
        return offset + bisect.bisect_left(self.wide, offset) if self.wide else offset


class Playground:
    """One page's state: the options, the site profile, the last document read (an edit
    of it is read again incrementally, as in an editor)."""

    def __init__(self, docs_url: str | None = None, site_root: str = "/tmp/jobspec-site"):
        self.docs_url = docs_url
        self.site_root = Path(site_root)
        self.site = None
        self.site_name = ""
        self.target = "rfc"
        self.previous = None  # (kind name, document) of the last analysis

    # ----------------------------------------------------------------- options
    def options(self) -> kinds.Options:
        return kinds.Options(target=self.target, site=self.site)

    def set_target(self, target: str) -> None:
        from jobspec_lsp.rules.targets import TARGETS

        if target not in TARGETS:
            raise ValueError(f"unknown target {target!r}: one of {', '.join(TARGETS)}")
        self.target = target

    def set_site(self, files: dict[str, str], name: str = "") -> dict:
        """A site profile from uploaded files (name -> text): its ``*.toml`` (the conf.d),
        a ``*.json`` (its R, whatever ``[resource] path`` says), ``*.py`` (its CLI
        plugins). ``files`` empty: no site. Returns {"ok", "summary"} or {"error"}."""
        from jobspec_lsp.site import profile

        self.site, self.site_name = None, ""
        self.previous = None
        if not files:
            return {"ok": True, "summary": ""}
        root = self.site_root
        if root.exists():
            shutil.rmtree(root)
        (root / "cli" / "plugins").mkdir(parents=True)
        r = None
        for raw_name, text in sorted(files.items()):
            base = Path(raw_name).name
            if base.endswith(".toml"):
                (root / base).write_text(text, encoding="utf-8")
            elif base.endswith(".py"):
                (root / "cli" / "plugins" / base).write_text(text, encoding="utf-8")
            elif base.endswith(".json"):
                try:
                    r = json.loads(text)
                except ValueError as err:
                    return {"error": f"{base}: not JSON (an R is JSON): {err}"}
            else:
                return {"error": f"{base}: not part of a site profile (*.toml, R *.json, *.py)"}
        try:
            config, origin = profile.read_config(root)
            site = profile.from_config(config, origin, root, r=r)
        except (profile.ProfileError, OSError) as err:
            return {"error": str(err).replace(str(root) + "/", "")}
        self.site, self.site_name = site, name or ", ".join(sorted(files))
        shown = profile.summary(site).replace(f"site {root}:", f"site {self.site_name}:", 1)
        return {"ok": True, "summary": shown}

    # ----------------------------------------------------------------- analysis
    def kind(self, text: str, name: str | None, chosen: str = "") -> kinds.Kind:
        if chosen and chosen != "auto":
            return kinds.BY_NAME[chosen]
        return kinds.detect(name or None, text, explicit=True)

    def analyse(self, text: str, name: str | None = None, chosen: str = "") -> dict:
        """The kind, findings (with their fixes) and, for a script of another scheduler,
        its conversion."""
        started = time.perf_counter()
        kind = self.kind(text, name, chosen)
        doc, diags = self._check(kind, text)
        units = Units(text)
        out = {
            "kind": kind.name,
            "summary": kind.summary,
            "features": sorted(kind.features),
            "diagnostics": [],
            # each fix's edits, once: the fixes say which (every directive of a Slurm
            # script has the whole conversion as its fix)
            "edits": [],
        }
        edits: dict[tuple, int] = {}
        out["diagnostics"] = [self._diagnostic(doc, d, units, edits) for d in diags]
        out["edits"] = [[{"from": a, "to": b, "insert": t} for a, b, t in group] for group in edits]
        if kind.offers("migrate"):
            out["conversion"] = conversion(text, units)
        out["ms"] = round((time.perf_counter() - started) * 1000, 1)
        return out

    def _check(self, kind: kinds.Kind, text: str):
        previous = None
        if self.previous is not None and self.previous[0] == kind.name:
            previous = self.previous[1]
        doc = kind.reread(text, previous) if previous is not None else kind.read(text)
        self.previous = (kind.name, doc)
        return doc, kind.check(doc, self.options())

    def _diagnostic(self, doc, d, units: Units, edits: dict[tuple, int]) -> dict:
        from jobspec_lsp.features import fixes

        rule = RULES.get(d.code)
        try:
            found = fixes.fixes_for(doc, d)
        except Exception:  # noqa: BLE001 - a fix that fails is left out; the finding stays
            found = []
        return {
            "code": d.code,
            "name": rule.name if rule is not None else "",
            "severity": SEVERITY.get(d.severity, "info"),
            "message": d.message,
            "from": units(d.start),
            "to": units(d.end),
            "url": rule_url(d.code, self.docs_url),
            "fixes": [
                {
                    "title": f.title,
                    "preferred": f.preferred,
                    "safe": f.safe,
                    "edits": edits.setdefault(
                        tuple((units(e.start), units(e.end), e.text) for e in f.edits),
                        len(edits),
                    ),
                }
                for f in found
            ],
        }

    def fix_all(self, text: str, name: str | None = None, chosen: str = "", unsafe=False):
        """`check --fix` on the text: {"text", "applied": [[code, title]]}."""
        from jobspec_lsp.features import fixes

        kind = self.kind(text, name, chosen)
        options = self.options()

        def analyse(t: str):
            k = self.kind(t, name, chosen) if not chosen or chosen == "auto" else kind
            doc = k.read(t)
            return doc, k.check(doc, options)

        new, applied = fixes.apply_fixes(analyse, text, unsafe=unsafe)
        self.previous = None
        return {"text": new, "applied": [list(a) for a in applied]}

    def show_jobspec(self, text: str, name: str | None = None, fmt: str = "yaml") -> dict:
        """ "Show the jobspec" of a Flux batch script: {"text", "language"} or {"error"}."""
        from jobspec_lsp.script import batch
        from jobspec_lsp.text.sniff import has_sentinel

        if not has_sentinel(text[: kinds.SCAN]):
            return {"error": "no #flux: directives (convert the scheduler's ones first)"}
        path = Path(name).name if name else "script.sh"
        try:
            if self.site is not None:
                with kinds._Reading(self.options()):
                    shown = batch.shown_jobspec(text, path, fmt)
            else:
                shown = batch.shown_jobspec(text, path, fmt)
        except batch.BatchError as err:
            if err.ours:
                return {"error": f"the jobspec cannot be shown here: {err}"}
            return {"error": f"flux batch would refuse this script: {err}"}
        return {"text": shown, "language": fmt}


def conversion(text: str, units: Units | None = None) -> dict:
    """A Slurm, LSF or PBS script as a Flux script: {"scheduler", "text", "refused",
    "changed", "lines": [[from, to, new text]], "findings": [{group, kind, from, to,
    message, replace}]} (offsets in the original)."""
    from jobspec_lsp.migrate import convert

    units = units or Units(text)
    conv = convert.convert(text)
    lines = []
    for start, new in sorted(conv.lines.items()):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        lines.append([units(start), units(end), new])
    findings = []
    for f in conv.findings:
        group = GROUP.get(f.kind, CARRIED)
        if f.kind == "variable" and not f.replace:
            group = REFUSED
        findings.append(
            {
                "group": group,
                "kind": f.kind,
                "from": units(f.start),
                "to": units(f.end),
                "message": f.message,
                "replace": f.replace,
            }
        )
    return {
        "scheduler": conv.scheduler,
        "text": conv.text,
        "refused": conv.refused,
        "changed": conv.changed,
        "lines": lines,
        "findings": findings,
    }


PLAYGROUND = Playground()

WARM_JOBSPEC = "resources:\n  - {type: slot, count: 1, label: t, with: [{type: core, count: 1}]}\n"
WARM_JOBSPEC += "tasks:\n  - {command: [a], slot: t, count: {per_slot: 1}}\nattributes: {}\n"
WARM_SCRIPT = "#!/bin/sh\n#flux: -N1\n#SBATCH -N1\nsrun ./a\n"


def warm() -> None:
    """Import what the first check of a jobspec and of a script would (the page asks this
    while the user reads it, so the first finding comes sooner)."""
    scratch = Playground(PLAYGROUND.docs_url)
    scratch.analyse(WARM_JOBSPEC)
    scratch.analyse(WARM_SCRIPT)
    scratch.analyse(WARM_SCRIPT.replace("#flux: -N1\n", ""))


def call(request_json: str) -> str:
    """The worker's one entry: a JSON request {"op", ...} -> a JSON answer (an error as
    {"error"}, never an exception: the page shows it)."""
    req = json.loads(request_json)
    op = req.get("op")
    try:
        if op == "init":
            PLAYGROUND.docs_url = req.get("docsUrl") or None
            got: dict = {"ok": True}
        elif op == "warm":
            warm()
            got = {"ok": True}
        elif op == "options":
            PLAYGROUND.set_target(req.get("target") or "rfc")
            PLAYGROUND.previous = None
            got = {"ok": True}
        elif op == "site":
            got = PLAYGROUND.set_site(req.get("files") or {}, req.get("name") or "")
        elif op == "analyse":
            got = PLAYGROUND.analyse(req["text"], req.get("name"), req.get("kind") or "")
        elif op == "fixAll":
            got = PLAYGROUND.fix_all(req["text"], req.get("name"), req.get("kind") or "")
        elif op == "showJobspec":
            got = PLAYGROUND.show_jobspec(req["text"], req.get("name"), req.get("format", "yaml"))
        else:
            got = {"error": f"unknown request {op!r}"}
    except Exception as err:  # noqa: BLE001 - the page shows what went wrong, and goes on
        import traceback

        got = {"error": f"{type(err).__name__}: {err}", "traceback": traceback.format_exc()}
    return json.dumps(got)
