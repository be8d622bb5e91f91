"""The language server's settings: typed, validated, with one precedence.

The client sends ``{"jobspec": {...}}`` (or the section itself) as
``initializationOptions``, then on ``workspace/didChangeConfiguration`` and in
answer to ``workspace/configuration``; the newest complete set wins. For the
settings a project can also set, the editor's value wins over the project's
``[tool.jobspec]`` (``target``; ``format.sortKeys`` over ``[tool.jobspec.format]
sort-keys``), and an unset one falls back to the project's, then the default.

A value of the wrong type or outside its choices is ignored (the default stays)
and reported, so a typo in an editor's settings is seen instead of silently
doing nothing. ``select``/``ignore`` are read by the core's one reader of code
lists (:func:`jobspec_lsp.diagnostics.read_codes`): a code that names no rule is
reported and left out, the others apply; a ``select`` of only unknown codes
selects nothing, so every rule is reported. Pure: no LSP types.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from jobspec_lsp.diagnostics import CodeList, read_codes
from jobspec_lsp.fluxcli import model
from jobspec_lsp.rules import analysis
from jobspec_lsp.text.sources import JOBSPEC_GLOBS

# keys clients send for themselves (VS Code, Neovim configs): not the server's, not errors
CLIENT_KEYS = {"server", "trace", "scripts"}  # the editor extension's own settings


@dataclass
class Settings:
    select: list[str] | None = None
    ignore: list[str] = field(default_factory=list)
    version_rules: str = "auto"
    target: str | None = None  # None: the project's [tool.jobspec] target, else rfc
    flux_version: str | None = None  # None: [tool.jobspec] flux-version, else the newest
    files: tuple[str, ...] = JOBSPEC_GLOBS
    sort_keys: bool | None = None  # None: [tool.jobspec.format] sort-keys, else true
    docs_url: str | None = None
    problems: list[str] = field(default_factory=list)  # what was ignored, and why

    @classmethod
    def from_dict(cls, raw) -> Settings:
        s = cls()
        if raw is None:
            return s
        if not isinstance(raw, dict):
            s.problems.append(f"settings must be an object, not {type(raw).__name__}")
            return s
        if isinstance(raw.get("jobspec"), dict):  # {"jobspec": {...}} or the section itself
            raw = raw["jobspec"]

        def bad(key: str, want: str) -> None:
            s.problems.append(f"jobspec.{key}: expected {want}, not {raw[key]!r}; ignored")

        def codes(key: str) -> CodeList | None:
            v = raw.get(key)
            if v is None:
                return None
            try:
                got = read_codes(v)
            except TypeError:
                bad(key, 'a list of rule codes or prefixes such as ["JS8"]')
                return None
            s.problems.extend(f"jobspec.{key}: {p} -- left out" for p in got.problems())
            return got

        for key in raw:
            if key not in KNOWN and key not in CLIENT_KEYS:
                s.problems.append(f"jobspec.{key}: unknown setting (known: {', '.join(KNOWN)})")
        got = codes("select")
        if got is not None:
            s.select = list(got.codes) or None
            if got.unknown and not got.codes:  # never an empty selection that hides all
                s.problems.append(
                    "jobspec.select names no known rule, so every rule is reported (as "
                    "without a select)"
                )
        got = codes("ignore")
        if got is not None:
            s.ignore = list(got.codes)
        if "versionRules" in raw:
            if raw["versionRules"] in analysis.VERSION_RULES:
                s.version_rules = raw["versionRules"]
            else:
                bad("versionRules", " or ".join(analysis.VERSION_RULES))
        if "target" in raw and raw["target"] not in (None, ""):
            if raw["target"] in analysis.TARGETS:
                s.target = raw["target"]
            else:
                bad("target", ", ".join(analysis.TARGETS))
        if "fluxVersion" in raw and raw["fluxVersion"] not in (None, ""):
            v = raw["fluxVersion"]
            why = model.version_problem(v) if isinstance(v, str) else "not a string"
            if why:
                s.problems.append(f"jobspec.fluxVersion: {why}; ignored")
            else:
                s.flux_version = v
        if "files" in raw:
            v = raw["files"]
            if isinstance(v, list) and v and all(isinstance(g, str) for g in v):
                s.files = tuple(v)
            else:
                bad("files", "a non-empty list of file name patterns")
        if "format" in raw:
            fmt = raw["format"]
            if not isinstance(fmt, dict):
                bad("format", 'an object such as {"sortKeys": true}')
            elif "sortKeys" in fmt and fmt["sortKeys"] is not None:
                if isinstance(fmt["sortKeys"], bool):
                    s.sort_keys = fmt["sortKeys"]
                else:
                    s.problems.append(
                        f"jobspec.format.sortKeys: expected true or false, not "
                        f"{fmt['sortKeys']!r}; ignored"
                    )
        if "docsUrl" in raw and raw["docsUrl"] is not None:
            if isinstance(raw["docsUrl"], str):
                s.docs_url = raw["docsUrl"]
            else:
                bad("docsUrl", "a URL string")
        return s


KNOWN = (
    "select", "ignore", "target", "fluxVersion", "versionRules", "files", "format", "docsUrl",
)  # fmt: skip
