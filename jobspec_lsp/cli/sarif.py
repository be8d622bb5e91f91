"""`jobspec check --format sarif`: one SARIF 2.1.0 log at the end, every rule described
(its name, summary, why and documentation page) and each file's results. The pages are
under the docs-url setting: `--docs-url`, else the first configuration of the files
checked that sets one, else the project's site."""

from __future__ import annotations

import json
from pathlib import Path

from jobspec_lsp import __version__
from jobspec_lsp.cli.output import TextReport
from jobspec_lsp.diagnostics import RULES, Severity, rule_url

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning"}


class SarifReport(TextReport):
    """The results of every file, written as one SARIF log at the end."""

    def __init__(self, out) -> None:
        super().__init__(out)
        self.results: list[dict] = []
        self.docs_url: str | None = None

    def file(self, shown: str, doc, diags, docs_url: str | None = None) -> None:
        self.results.extend(sarif_results(shown, doc, diags))
        self.docs_url = self.docs_url or docs_url

    def end(self) -> None:
        log = sarif_log(self.results, self.docs_url)
        json.dump(log, self.out, ensure_ascii=False, indent=2)
        self.out.write("\n")


def sarif_results(path: str, doc, diags) -> list[dict]:
    out = []
    for d in diags:
        # columns in UTF-16 code units, SARIF's default, said in the run's columnKind
        r = doc.lines.range(d.start, d.end, encoding="utf-16")
        s, e = r.start, r.end
        out.append(
            {
                "ruleId": d.code,
                "level": _LEVEL.get(d.severity, "note"),
                "message": {"text": d.message},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {"uri": Path(path).as_posix()},
                            "region": {
                                "startLine": s.line + 1,
                                "startColumn": s.character + 1,
                                "endLine": e.line + 1,
                                "endColumn": e.character + 1,
                            },
                        }
                    }
                ],
            }
        )
    return out


def sarif_log(results: list[dict], docs_url: str | None = None) -> dict:
    """A SARIF 2.1.0 log: one run, every rule described (its page under ``docs_url``,
    else the project's site), the results."""
    rules = [
        {
            "id": r.code,
            "name": r.name,
            "shortDescription": {"text": r.summary},
            "fullDescription": {"text": r.why},
            "helpUri": rule_url(r.code, docs_url),
            "defaultConfiguration": {"level": _LEVEL.get(r.severity, "note")},
        }
        for r in (RULES[c] for c in sorted(RULES))
    ]
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "jobspec-lsp",
                        "version": __version__,
                        "informationUri": "https://github.com/flux-framework/jobspec-lsp",
                        "rules": rules,
                    }
                },
                "columnKind": "utf16CodeUnits",
                "results": results,
            }
        ],
    }
