"""`jobspec check --target T` gives an error exactly when the real component rejects
the document, on every case of cases.py. What depends on the instance (queue names,
the hosts a hostlist constraint names, the job ids a dependency names) is left out,
and so are documents with YAML problems (Flux never reads those as written)."""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path

import pytest
from cases import all_cases
from helpers import REPO

from jobspec_lsp.diagnostics import Severity
from jobspec_lsp.rules.analysis import check

SITE = re.compile(
    r"is not a valid queue|host constraint contains invalid hosts|"
    r"job not found|no queue specified"
)
TARGETS = ("flux-core", "flux-core-any", "fluxion")


def errors(case, target):
    return [
        d
        for d in check(case.text, language=case.language, target=target)
        if d.severity == Severity.ERROR
    ]


@pytest.fixture(scope="module")
def verdicts(flux):
    cases = [c for c in all_cases() if c.data_json() is not None]
    yaml_broken = [c for c in cases if any(d.code.startswith("JS9") for d in errors(c, "rfc"))]
    cases = [c for c in cases if c not in yaml_broken]
    texts = [c.data_json() for c in cases]
    real = {"flux-core": flux.submit(texts, "1"), "flux-core-any": flux.submit(texts, "any")}
    fluxion = []
    validate = Path(flux.exe).with_name("flux-jobspec-validate")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "jobspec.json"
        for text in texts:
            path.write_text(text)
            proc = subprocess.run([str(validate), str(path)], capture_output=True, text=True)
            fluxion.append({"ok": proc.returncode == 0, "error": proc.stderr.strip()})
    real["fluxion"] = fluxion
    return cases, real, len(yaml_broken)


@pytest.mark.parametrize("target", TARGETS)
def test_verdicts_agree_with_real_flux(verdicts, target):
    cases, real, _ = verdicts
    wrong = []
    compared = 0
    for case, flux_says in zip(cases, real[target]):
        if not flux_says["ok"] and SITE.search(flux_says["error"]):
            continue
        compared += 1
        ours = errors(case, target)
        if bool(ours) == (not flux_says["ok"]):
            continue
        wrong.append(
            f"{case.name}: flux {'rejects: ' + flux_says['error'] if not flux_says['ok'] else 'accepts'}"
            f" | jobspec: {[d.code + ' ' + d.message for d in ours] or 'clean'}"
        )
    assert compared >= 300
    assert not wrong, f"{len(wrong)} of {compared} disagree:\n" + "\n".join(wrong)
    # docs/compatibility.md shows what this measured
    doc = (REPO / "docs" / "compatibility.md").read_text()
    assert f"| `{target}` | {compared} | {compared} |" in doc, (
        f"docs/compatibility.md should show `{target}`: {compared} compared, {compared} agree"
    )


def _word(d_list) -> str:
    if not d_list:
        return "clean"
    sev = min(d.severity for d in d_list)
    codes = ", ".join(sorted({d.code for d in d_list if d.severity == sev}))
    return f"{Severity(sev).label} {codes}"


def test_compatibility_table_is_what_real_flux_does(flux):
    """Every row of docs/compatibility.md's table: the real verdicts, measured now."""
    from cases import NOTABLE

    texts = [c.data_json() for _, c in NOTABLE]
    shipped, anyv = flux.submit(texts, "1"), flux.submit(texts, "any")
    validate = Path(flux.exe).with_name("flux-jobspec-validate")
    rows = [
        "| case | flux-core | flux-core-any | fluxion | `jobspec check` (rfc) |",
        "|---|---|---|---|---|",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "jobspec.json"
        for (label, case), s, a, text in zip(NOTABLE, shipped, anyv, texts):
            path.write_text(text)
            fluxion_ok = (
                subprocess.run([str(validate), str(path)], capture_output=True).returncode == 0
            )
            ours = [d for d in check(case.text, language="json") if d.severity <= 2]
            rows.append(
                f"| {label} | {'accepts' if s['ok'] else 'rejects'} | "
                f"{'accepts' if a['ok'] else 'rejects'} | "
                f"{'accepts' if fluxion_ok else 'rejects'} | {_word(ours)} |"
            )
    table = "\n".join(rows)
    doc = (REPO / "docs" / "compatibility.md").read_text()
    assert table in doc, "docs/compatibility.md should hold this table, as measured:\n" + table
