"""A document too large for a tree (JS912, issue 26) still gets its resources and tasks
checked: read alone from the text with every other top-level value blanked out
(rules/streamed.py), they give what the structure, count and label/task families give on
the whole tree, at the same places."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jobspec_lsp.diagnostics import RULES
from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.rules import analysis, base, counts, streamed, structure, tasks

JOB = """version: 1
resources:
  - type: node
    count: 0
    with:
      - type: slot
        count: 2-
        label: task
        with:
          - type: core
            count: 1
      - type: slot
        label: task
        count: 1
        with:
          - type: core
            count: 1
tasks:
  - command: [app]
    slot: tsk
    count:
      per_slot: 1
attributes:
  system:
    duration: 1
"""


def _padded(text: str) -> str:
    """``text`` with comments after it: twice as long, the sections a quarter of it."""
    return text + ("" if text.endswith("\n") else "\n") + "# pad\n" * (len(text) // 2 + 10)


def _found(diags):
    return sorted((d.code, d.start, d.end, d.message) for d in diags)


def _families_on_the_whole(text: str, inside) -> list:
    """What the three families find on the whole tree, inside the sections read."""
    doc = parse(text)
    ctx = base.Context(doc, analysis.uses_v1(doc))
    structure.check(ctx)
    if ctx.root is not None:
        counts.check(ctx)
        tasks.check(ctx)
    return _found(d for d in ctx.diagnostics if any(s <= d.start < e for s, e in inside))


def _streamed(text: str):
    doc = parse(text, max_chars=len(text) - 1)
    got = analysis.check(doc)
    assert "JS912" in [d.code for d in got] and doc.root is None
    return doc, [d for d in got if d.code not in ("JS912", "JS101", "JS102")]


def test_a_big_document_gets_its_resources_and_tasks_checked():
    text = _padded(JOB)
    doc, got = _streamed(text)
    assert [(d.code, text[d.start : d.end]) for d in got] == [
        ("JS202", "0"),
        ("JS203", "-"),
        ("JS303", "task"),
        ("JS307", "tsk"),
    ]
    # the line a message names is the original's
    assert "already used on line 8" in got[2].message
    assert "resources and tasks read alone" in doc.problems[0].message
    assert "skipped: attributes, V1's rules" in doc.problems[0].message


def test_every_rule_example_gets_what_the_whole_tree_gives():
    compared = 0
    for code in sorted(RULES):
        rule = RULES[code]
        if not any(k.startswith("jobspec") for k in rule.kinds) or rule.example_options:
            continue
        for example in (rule.bad, rule.good):
            text = _padded(example)
            if parse(text).root is None:
                continue
            doc, got = _streamed(text)
            info = doc.derived["streamed"]
            if "resources" not in info["read"]:
                continue
            inside = [info["spans"][k] for k in info["read"]]
            assert _found(got) == _families_on_the_whole(text, inside), code
            compared += 1
    assert compared > 150


def test_a_big_json_document_too():
    data = {
        "version": 1,
        "resources": [{"type": "slot", "count": 0, "label": "a", "with": [{"type": "core"}]}],
        "tasks": [{"command": ["x"], "slot": "b", "count": {"per_slot": 1}}],
        "attributes": {"system": {"duration": 0, "environment": {"K": "v" * 400}}},
    }
    text = json.dumps(data, indent=2)
    doc = parse(text, "json", max_chars=len(text) - 1)
    got = [(d.code, text[d.start : d.end]) for d in analysis.check(doc)]
    assert ("JS202", "0") in got and ("JS307", '"b"') in got
    assert ("JS201", '"core"') not in got  # what the whole tree gives, nothing more
    assert _found(d for d in analysis.check(doc) if d.code != "JS912") == _families_on_the_whole(
        text, [doc.derived["streamed"]["spans"][k] for k in ("resources", "tasks")]
    )


def test_a_section_too_large_is_named_and_skipped():
    big_tasks = "tasks:\n" + "".join(
        f"  - command: [app{i}]\n    slot: nope\n    count:\n      per_slot: 1\n"
        for i in range(200)
    )
    text = JOB.replace(JOB[JOB.index("tasks:") : JOB.index("attributes:")], big_tasks)
    doc = parse(text, max_chars=len(text) - 1)
    assert doc.derived["streamed"]["read"] == ("resources",)
    message = doc.problems[0].message
    assert "and resources read alone" in message and "skipped: tasks (" in message
    got = [d.code for d in analysis.check(doc)]
    assert "JS303" in got and "JS307" not in got  # labels of resources; no task checked


def test_no_section_is_read_after_a_syntax_error():
    text = _padded(JOB.replace("slot: tsk", "slot: [tsk"))
    doc = parse(text, max_chars=len(text) - 1)
    assert doc.derived["streamed"]["read"] == ()
    assert [d.code for d in analysis.check(doc)] == ["JS912", "JS901"]


def test_select_and_ignore_hold():
    text = _padded(JOB)
    doc = parse(text, max_chars=len(text) - 1)
    assert [d.code for d in analysis.check(doc, select=["JS3"])] == ["JS303", "JS307"]
    assert "JS202" not in [d.code for d in analysis.check(doc, ignore=["JS2"])]


@given(
    st.text(alphabet="ab \n\r:-[]{}", max_size=80),
    st.lists(st.tuples(st.integers(0, 80), st.integers(0, 80)), max_size=4),
    st.booleans(),
)
def test_blanking_keeps_every_offset_and_line_break(text, pairs, flow):
    spans: dict[str, tuple[int, int]] = {}
    at = 0
    for i, (a, b) in enumerate(sorted(pairs)):  # top-level values do not overlap
        start, end = max(a, at), min(max(a, b), len(text))
        if start < end:
            spans[f"k{i}"] = (start, end)
            at = end
    keep = tuple(k for k in spans if int(k[1:]) % 2 == 0)
    out = streamed.blanked(text, spans, keep, flow)
    cut = max((spans[k][1] for k in keep), default=len(text))
    tail = ("\n}\n" if flow else "\n") if cut < len(text) else ""
    assert out[cut:] == tail and len(out) == cut + len(tail)
    breaks = [i for i, c in enumerate(text[:cut]) if c in "\r\n"]
    blanked_starts = {s for k, (s, e) in spans.items() if k not in keep}
    assert [i for i, c in enumerate(out[:cut]) if c in "\r\n"] == [
        i for i in breaks if i not in blanked_starts
    ]
    for k in keep:
        s, e = spans[k]
        assert out[s:e] == text[s:e]


@pytest.mark.parametrize("language", ["yaml", "json"])
def test_a_blanked_value_reads_as_a_scalar(language):
    text = (
        '{"version": 1, "attributes": {"system": {"duration": 1}}, "tasks": []}'
        if language == "json"
        else "version: 1\nattributes:\n  system:\n    duration: 1\ntasks: []\n"
    )
    spans = parse(text, language, max_chars=10).derived["streamed"]["spans"]
    doc = parse(streamed.blanked(text, spans, ("version", "tasks"), language == "json"), language)
    blank = 0 if language == "json" else None  # block: nothing is left of it
    assert doc.root is not None and doc.root.get("attributes").value == blank
    assert doc.root.get("version").value == 1


def test_a_list_at_its_keys_indentation_is_blanked_to_nothing():
    """`key:` followed by `- item` at the key's own column (as yaml.safe_dump writes):
    a ``0`` in the item's place would not read."""
    text = _padded("version: 1\nfoo:\n- 1\n- 2\n" + JOB.split("\n", 1)[1])
    _, got = _streamed(text)
    assert [d.code for d in got] == ["JS202", "JS203", "JS303", "JS307"]


def test_a_target_leaves_the_findings_as_they_are():
    """The target's own checks are skipped on a streamed document (JS912 says so): its
    findings are not weighed against rejections that were never looked for."""
    text = _padded(JOB)
    doc = parse(text, max_chars=len(text) - 1)
    rfc = _found(analysis.check(doc))
    for target in ("flux-core", "flux-core-any", "fluxion"):
        assert _found(analysis.check(doc, target=target)) == rfc


def test_sections_that_do_not_read_alone_are_said_not_checked():
    anchored = "version: 1\nx-core: &c {type: core, count: 1}\n" + JOB.split("\n", 1)[1]
    text = _padded(anchored.replace("- type: core\n            count: 1", "- *c", 1))
    doc = parse(text, max_chars=len(text) - 1)
    got = analysis.check(doc)
    assert [d.code for d in got] == ["JS912", "JS102"]  # x-core: not a jobspec key
    assert "do not read apart from the rest" in got[0].message
    assert "resources and tasks read alone" not in got[0].message


@pytest.mark.parametrize("key", ["? [a, b]\n: 1\n", "*k : 1\n"])
def test_a_key_that_is_not_a_scalar_reads_no_section(key):
    head = "version: 1\nx: &k k\n" if key.startswith("*") else "version: 1\n"
    text = _padded(head + key + JOB.split("\n", 1)[1])
    doc = parse(text, max_chars=len(text) - 1)
    assert doc.derived["streamed"]["read"] == ()
    codes = [d.code for d in analysis.check(doc)]
    assert "JS101" not in codes  # resources, tasks and attributes are all there


def test_a_suppression_is_not_called_idle_when_its_rule_was_skipped():
    """Most rules do not run on a streamed document: a suppression that found nothing
    may be one for them, and `--fix` would remove it (JS913 is not reported)."""
    text = _padded(JOB.replace("duration: 1", "duration: -5  # jobspec: ignore[JS404]"))
    doc = parse(text, max_chars=len(text) - 1)
    assert "JS913" not in [d.code for d in analysis.check(doc)]
    assert "JS913" not in [d.code for d in analysis.check(doc, select=["JS9"])]


def test_a_second_document_is_not_read_as_the_jobspec():
    """Streamed as whole: the jobspec is the first document (JS903 at the second), and
    the keys and sections are the first one's."""
    for second in ("foo: 1\n", JOB):
        text = _padded(JOB + "---\n" + second)
        doc = parse(text, max_chars=len(text) - 1)
        got = [d.code for d in analysis.check(doc)]
        assert got == ["JS912", "JS202", "JS203", "JS303", "JS307", "JS903"]


def test_a_merge_key_at_the_top_level_reads_no_section_and_misses_no_key():
    text = _padded("x: &m {version: 1}\n<<: *m\n" + JOB.split("\n", 1)[1])
    doc = parse(text, max_chars=len(text) - 1)
    assert doc.derived["streamed"]["read"] == ()
    assert [d.code for d in analysis.check(doc)] == ["JS102", "JS912"]  # x; no JS101


def test_a_document_without_a_tree_keeps_its_suppressions():
    """A syntax error leaves no tree and no rule runs: a suppression is not idle there
    (`--fix` would remove it); one naming no rule at all still is."""
    text = "version: 1\nattributes:\n  system:\n    duration: -5  # jobspec: ignore[JS404]\n"
    text += "resources: [\n"
    assert "JS913" not in [d.code for d in analysis.check(text)]
    typo = text.replace("ignore[JS404]", "ignore[JS4O4]")
    assert [d.code for d in analysis.check(typo)].count("JS913") == 1
