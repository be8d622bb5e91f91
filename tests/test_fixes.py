"""Every quick-fix, applied to its rule's documented bad example, removes the
diagnostic it fixes, keeps the document parseable, and adds no new error."""

import pytest

from jobspec_lsp.diagnostics import RULES, Severity
from jobspec_lsp.features import fixes
from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.rules.analysis import check


def apply(text, edits):
    for e in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        text = text[: e.start] + e.text + text[e.end :]
    return text


def run(rule, text):
    return check(text, version_rules="v1" if rule.applies == "v1" else "auto")


FIXABLE = sorted(
    c for c, r in RULES.items() if r.fix and not r.example_options and not r.for_scripts
)
# their documented bad example has no safe fix: fixes are offered only in specific cases
# (a shape string, a whole-number float, an absolute path, a quoted number, ...)
# (JS102 and JS306: their examples are keys with no near spelling; misspelt ones get a
# rename, tested in test_rules.py)
NO_SAFE_FIX_IN_EXAMPLE = {
    "JS102",
    "JS104",
    "JS112",
    "JS201",
    "JS306",
    "JS309",
    "JS505",
    "JS506",
    "JS523",
}


@pytest.mark.parametrize("code", sorted(NO_SAFE_FIX_IN_EXAMPLE))
def test_no_fix_where_none_is_safe(code):
    rule = RULES[code]
    (d, *_) = [d for d in run(rule, rule.bad) if d.code == code]
    assert fixes.fixes_for(parse(rule.bad), d) == []


@pytest.mark.parametrize("code", sorted(set(FIXABLE) - NO_SAFE_FIX_IN_EXAMPLE))
def test_fix_repairs_the_documented_bad_example(code):
    rule = RULES[code]
    text = rule.bad + "# a comment that must survive\n"
    before = run(rule, text)
    targets = [d for d in before if d.code == code]
    assert targets
    doc = parse(text)
    got = fixes.fixes_for(doc, targets[0])
    assert got, f"{code}: no fix offered for its own bad example"
    fix = next((f for f in got if f.preferred), got[0])
    out = apply(text, fix.edits)
    after = run(rule, out)
    assert parse(out).root is not None
    assert len([d for d in after if d.code == code]) < len(targets), out
    errors_before = {(d.code) for d in before if d.severity == Severity.ERROR}
    new_errors = {d.code for d in after if d.severity == Severity.ERROR} - errors_before
    assert not new_errors, (new_errors, out)
    assert out.endswith("# a comment that must survive\n")


def test_shape_resources_expand_fix_gives_a_valid_list():
    text = (
        "version: 999\nresources: slot=4{task}/node/[core=2;gpu]  # four slots\ntasks:\n"
        "  - command: [app]\n    slot: task\n    count: {per_slot: 1}\nattributes:\n"
        "  system: {duration: 0}\n"
    )
    (d,) = [d for d in check(text) if d.code == "JS104"]
    (fix,) = fixes.fixes_for(parse(text), d)
    out = apply(text, fix.edits)
    assert [x for x in check(out) if x.severity <= Severity.WARNING] == []
    assert "  - type: slot\n    count: 4\n    label: task\n" in out


@pytest.mark.parametrize(
    "text,code,replacement",
    [
        ("    count: 4.0\n", "JS201", "4"),
        ("    lable: x\n", "JS112", "label"),
    ],
)
def test_fixes_offered_in_the_safe_cases(text, code, replacement):
    doc_text = "version: 999\nresources:\n  - type: node\n" + text
    if code != "JS201":
        doc_text += "    count: 1\n"
    (d,) = [d for d in check(doc_text) if d.code == code]
    (fix,) = fixes.fixes_for(parse(doc_text), d)
    assert fix.edits[0].text == replacement


def test_ambiguous_scalar_offers_both_readings():
    text = "version: 999\nresources:\n  - type: node\n    count: 1\n    exclusive: on\n"
    (d,) = [d for d in check(text) if d.code == "JS905"]
    got = fixes.fixes_for(parse(text), d)
    assert [f.edits[0].text for f in got] == ["true", '"on"']
    assert [f.preferred for f in got] == [True, False]
