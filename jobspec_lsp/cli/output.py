"""What the commands write to a terminal: file names made safe for one output line,
diagnostics as text or GitHub workflow commands, the reports of `jobspec check --format`
(a declared table, ``REPORTS``: each format's report, by entry), and the usage error
every command says as ``jobspec: error:`` with exit status 2."""

from __future__ import annotations

import json

from jobspec_lsp.boundary import load
from jobspec_lsp.diagnostics import Severity

# `jobspec check --format`: the report of each, loaded through jobspec_lsp.boundary (the
# order is the option's: text first, its default)
REPORTS = {
    "text": "jobspec_lsp.cli.output:TextReport",
    "json": "jobspec_lsp.cli.output:JsonReport",
    "github": "jobspec_lsp.cli.output:GithubReport",
    "sarif": "jobspec_lsp.cli.sarif:SarifReport",  # every rule described: docs_text
}

# `--format json`'s shapes: the verdict the MCP tools return too (one schema,
# `jobspec schema findings`)
VERDICT_ENTRY = "jobspec_lsp.mcp.verdict:file_entry"
VERDICT_REPORT = "jobspec_lsp.mcp.verdict:report"

NOTHING_FOUND = (
    "jobspec: warning: no jobspec files found (directories are searched for "
    "*.jobspec.yaml|yml|json and jobspec.yaml|yml|json)"
)


class UsageError(Exception):
    """A command given what it cannot do: said as ``jobspec: error: ...``, exit 2."""


def shown_path(path: str) -> str:
    """A path for one output line: control characters written as escapes, so a file
    name cannot start a line of its own (or a fake diagnostic)."""
    if path.isprintable():
        return path
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in path)


def emit_text(out, path, doc, diags):
    path = shown_path(path)
    for d in diags:
        s = doc.lines.position(d.start)
        out.write(
            f"{path}:{s.line + 1}:{s.character + 1}: {d.severity.label}[{d.code}] {d.message}\n"
        )


def _github_data(s: str) -> str:
    """A workflow command's message, escaped as GitHub reads it back."""
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _github_property(s: str) -> str:
    """A workflow command's property value (a file name can hold anything)."""
    return _github_data(s).replace(":", "%3A").replace(",", "%2C")


def emit_github(out, path, doc, diags):
    level = {Severity.ERROR: "error", Severity.WARNING: "warning"}
    path = _github_property(path)
    for d in diags:
        s, e = doc.lines.position(d.start), doc.lines.position(d.end)
        msg = _github_data(d.message)
        out.write(
            f"::{level.get(d.severity, 'notice')} file={path},line={s.line + 1},"
            f"col={s.character + 1},endLine={e.line + 1},endColumn={e.character + 1},"
            f"title={d.code}::{d.code} {msg}\n"
        )


def json_file_entry(path, doc, diags, docs_url: str | None = None) -> dict:
    """A file's entry in `--format json`: each finding with its rule's page (under
    ``docs_url``, the docs-url setting, when given) and its fixes, in the verdict's one shape
    (jobspec_lsp.mcp.verdict, loaded with the first file: it loads the fixes)."""
    return load(VERDICT_ENTRY)(path, doc, diags, docs_url)


class TextReport:
    """``path:line:col: severity[CODE] message``, a line each, as the files are checked."""

    def __init__(self, out) -> None:
        self.out = out

    def file(self, shown: str, doc, diags, docs_url: str | None = None) -> None:
        """One file's diagnostics; ``docs_url``: the docs-url setting it is checked with."""
        emit_text(self.out, shown, doc, diags)

    def unreadable(self, shown: str, error: str) -> None:
        """A file that could not be read (said on stderr already)."""

    def end(self) -> None:
        """Every file is checked."""


class GithubReport(TextReport):
    """GitHub workflow commands (annotations), a line each, as the files are checked."""

    def file(self, shown: str, doc, diags, docs_url: str | None = None) -> None:
        emit_github(self.out, shown, doc, diags)


class JsonReport(TextReport):
    """One JSON object at the end: each file's diagnostics, or why it could not be read."""

    def __init__(self, out) -> None:
        super().__init__(out)
        self.files: list[dict] = []

    def file(self, shown: str, doc, diags, docs_url: str | None = None) -> None:
        self.files.append(json_file_entry(shown, doc, diags, docs_url))

    def unreadable(self, shown: str, error: str) -> None:
        self.files.append({"path": shown, "error": error, "diagnostics": []})

    def end(self) -> None:
        json.dump(load(VERDICT_REPORT)(self.files), self.out, ensure_ascii=False)
        self.out.write("\n")
