"""Every rule, through its own documented examples.

For each code: the bad example from its documentation triggers it, exactly on
the token listed in AT below; the fixed example does not trigger it (and,
outside the YAML-level family whose examples are fragments, has no error or
warning at all).  A rule added without an entry here fails the suite.
"""

from pathlib import Path

import pytest

from jobspec_lsp import convert
from jobspec_lsp.diagnostics import RULES, Severity
from jobspec_lsp.jobspec.document import parse, parse_bytes
from jobspec_lsp.rules.analysis import check

# code -> the exact source text the diagnostic covers in the bad example
# (first occurrence, or (text, n) for the n-th, 0-based).
AT = {
    "JS575": "-o",
    "JS001": "999",
    "JS002": "singleton",
    "JS003": "per_resource",
    "JS100": "- version: 1",
    "JS101": "resources",
    "JS102": "comment",
    "JS103": '"1"',
    "JS104": "[]",
    "JS105": "[]",
    "JS106": "attributes",
    "JS110": "core",
    "JS111": ("type", 1),
    "JS112": "lable",
    "JS113": '"true"',
    "JS114": "[]",
    "JS201": "2.5",
    "JS202": ("0", 0),
    "JS203": None,  # inside the string: checked in the test below
    "JS204": ("count", 0),
    "JS205": "step",
    "JS206": ("0", 0),
    "JS207": "4",
    "JS208": "'/'",
    "JS209": "operator",
    "JS210": ("1", 0),
    "JS211": ("1", 1),
    "JS301": ("slot", 0),
    "JS302": ("slot", 0),
    "JS303": ("task", 1),
    "JS304": "app",
    "JS305": "command",
    "JS306": "cwd",
    "JS307": "tsak",
    "JS308": "total",
    "JS309": "per_slots",
    "JS310": ("0", 0),
    "JS311": ("core", 1),
    "JS312": ("node", 0),
    "JS313": "app --verbose",
    "JS314": ("[]", 0),
    "JS315": ("2", 1),
    "JS316": "[task]",
    "JS401": "name",
    "JS402": "system",
    "JS403": "queu",
    "JS404": "-5",
    "JS405": "1h",
    "JS406": "10m",
    "JS407": "4",
    "JS408": "work/run1",
    "JS409": "7",
    "JS410": "42",
    "JS411": "verbose",
    "JS501": "constraints",
    "JS502": "property",
    "JS503": ("ssd", 0),
    "JS504": '"^"',
    "JS505": None,  # inside the string: checked in test_positions_in_strings
    "JS506": None,
    "JS507": "{properties: [b]}",
    "JS511": "dependencies",
    "JS512": "1234",
    "JS513": "after_ok",
    "JS514": "string",
    "JS515": "after",
    "JS516": "tomorrow",
    "JS521": "script",
    "JS522": "script",
    "JS523": "../etc/app.conf",
    "JS524": '"0755"',
    "JS525": "utf8",
    "JS526": "encoding",
    "JS601": ("node", 1),
    "JS602": "core",
    "JS603": "socket",
    "JS604": ("core", 0),
    "JS605": '"2"',
    "JS606": ("command", 1),
    "JS607": "per_resource",
    "JS608": "attributes",
    "JS609": "system",
    "JS610": "id",
    "JS611": "exclusive",
    "JS612": "distribution",
    "JS614": "2",
    "JS650": "Debug",
    "JS651": ("system", 0),
    "JS652": "node99",
    "JS653": ("8", 0),
    "JS654": "7200",
    "JS655": ("3", 0),
    "JS527": "493",
    "JS528": ("2", 1),
    "JS613": "preemptible-after",
    "JS701": "{min: 2}",
    "JS702": "memory",
    "JS703": "node",
    "JS704": ("command", 1),
    "JS705": "per_resource",
    "JS706": ("node", 0),
    "JS707": "id",
    "JS708": ("0", 0),  # where the error it wraps (JS202, count 0) is
    "JS711": '"memory"',
    "JS712": '"process_count"',
    "JS713": "{",  # no executable key to point at: the document's first character
    "JS714": "total",
    "JS715": "constraints",
    "JS801": '"2-8"',
    "JS802": "operator",
    "JS803": "|",
    "JS804": "exclusive",
    "JS901": "}",
    "JS902": ("version", 1),
    "JS903": "---",
    "JS904": "\t",
    "JS905": "yes",
    "JS906": "!!python/object:os.system",
    "JS907": None,
    "JS908": ("[", 200),
    "JS909": "# nothing yet",
    "JS910": "2024-01-31",
    "JS911": "\ufffd",
    "JS912": "version: 1",
    "JS913": "# jobspec: ignore[JS103]",
    "JS560": "'",
    "JS561": '"""',
    "JS562": "##flux:",
    "JS563": ("#flux:", 2),
    "JS564": "\\",
    "JS565": "Flux:",
    "JS566": "--nodes=2",
    "JS570": "--jobname",
    "JS571": "-N",
    "JS572": "two",
    "JS573": "-N4",
    "JS574": "extra",
    "JS580": "#flux:",
    "JS581": "-x",
    "JS582": ("4", 0),
    "JS583": "# my job",
    "JS584": "--ntask",
    "JS585": "eight",
    "JS586": "mini ",
    "JS587": "4",
    "JS588": "16",
    "JS589": "hetjob",
    "JS590": "#SBATCH",
    "JS591": "--mem=4G",
    "JS592": "--node",
    "JS593": "--time=01:29:30",
    "JS594": "#SBATCH",
    "JS595": "$SLURM_JOB_ID",
    "JS596": "srun",
    "JS597": "#BSUB",
    "JS598": "#PBS",
    "JS599": "--exclusive",
}


def _doc(rule, text, bad):
    enc = rule.example_options.get("encoding")
    if bad and enc:
        return parse_bytes(text.encode(enc))
    return parse(
        text,
        rule.example_options.get("language", "yaml"),
        **(
            {"max_chars": rule.example_options["max_chars"]}
            if "max_chars" in rule.example_options
            else {}
        ),
    )


def _run(rule, text, bad=True):
    site = rule.example_options.get("site")
    if site:  # JS65x: the example is checked against a site profile of the repository
        from jobspec_lsp.site import profile

        loaded = profile.load(Path(__file__).resolve().parent.parent / site)
        doc = _doc(rule, text, bad)
        return doc, check(doc, target="flux-core", site=loaded), doc.text
    if rule.for_scripts:  # RFC 36 directives: a batch script, not YAML
        from jobspec_lsp.script import batch

        return parse(""), batch.check_script(text), text
    doc = _doc(rule, text, bad)
    converter = rule.example_options.get("convert")
    if converter:  # JS7xx come from `jobspec convert` only: run the converter the rule names
        conv = getattr(convert, converter)(text, rule.example_options.get("language", "yaml"))
        return doc, conv.blockers + conv.warnings, doc.text
    return (
        doc,
        check(
            doc,
            version_rules="v1" if rule.applies == "v1" else "auto",
            target=rule.example_options.get("target", "rfc"),
        ),
        doc.text,
    )


def _expected(source, at):
    text, nth = (at, 0) if isinstance(at, str) else at
    pos = -1
    for _ in range(nth + 1):
        pos = source.index(text, pos + 1)
    return pos, pos + len(text)


def test_every_rule_has_a_range_expectation():
    assert sorted(AT) == sorted(RULES)


@pytest.mark.parametrize("code", sorted(RULES))
def test_bad_example_triggers_rule_at_token(code):
    rule = RULES[code]
    doc, diags, source = _run(rule, rule.bad)
    mine = [d for d in diags if d.code == code]
    assert mine, f"{code}: bad example did not trigger it; got {[d.code for d in diags]}"
    assert all(d.severity == rule.severity for d in mine)
    at = AT[code]
    if code == "JS203":  # a number was expected after the dash: the dash is marked
        at = None
        dash = doc.text.index('"2-"') + 2
        assert (mine[0].start, mine[0].end) == (dash, dash + 1)
    if at is not None:
        assert (mine[0].start, mine[0].end) == _expected(source, at), (
            f"{code} points at {source[mine[0].start : mine[0].end]!r}"
        )


@pytest.mark.parametrize("code", sorted(RULES))
def test_fixed_example_is_clean(code):
    rule = RULES[code]
    _, diags, _source = _run(rule, rule.good, bad=False)
    assert code not in [d.code for d in diags]
    if not code.startswith(("JS9", "JS71")):
        loud = [(d.code, d.message) for d in diags if d.severity <= Severity.WARNING]
        assert not loud, f"{code}: fixed example still has {loud}"


def test_messages_are_one_line_and_ranges_in_bounds():
    for rule in RULES.values():
        _doc_, diags, source = _run(rule, rule.bad)
        for d in diags:
            assert "\n" not in d.message
            assert 0 <= d.start <= d.end <= len(source)
