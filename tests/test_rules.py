"""Rule behaviour beyond the documented examples: positions inside strings,
fix data, V1 selection, no double reports, the RFC corpus."""

import pytest
from helpers import rfc_files, rfc_id

from jobspec_lsp.diagnostics import Severity
from jobspec_lsp.features.fixes import fixes_for
from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.rules.analysis import check, uses_v1

BASE = """version: 999
resources:
  - type: node
    count: {count}
    with:
      - type: slot
        count: 1
        label: task
        with:
          - type: core
            count: 2
tasks:
  - command: [app]
    slot: task
    count: {{per_slot: 1}}
attributes:
  system:
    duration: 0
{extra}"""


def js(count="1", extra=""):
    return BASE.format(count=count, extra=extra)


def diags(text, code=None, **kw):
    out = check(text, **kw)
    return [d for d in out if code is None or d.code == code]


def marked(text, d):
    return text[d.start : d.end]


@pytest.mark.parametrize(
    "count,bad",
    [
        ('"1-4,x"', "x"),
        ("'[1-3'", "3"),
        ('"2-8:2:%"', "%"),
        ("1-", "-"),
        ('"07"', "07"),
        ('"5-2"', "5-2"),
    ],
)
def test_count_string_errors_point_inside_the_string(count, bad):
    text = js(count)
    (d,) = diags(text, "JS203")
    assert marked(text, d) == bad


def test_count_string_with_escapes_falls_back_to_the_whole_scalar():
    text = js('"1-\\x34,x"')
    (d,) = diags(text, "JS203")
    assert marked(text, d) == '"1-\\x34,x"'


@pytest.mark.parametrize(
    "count,code",
    [
        ('"0"', "JS202"),
        ('"0-3"', "JS202"),
        ('"0+"', "JS202"),
        ("-1", "JS202"),
        ("true", "JS201"),
        ("[1]", "JS201"),
        ("1.0", "JS201"),
        ('""', "JS203"),
    ],
)
def test_bad_counts(count, code):
    assert [d.code for d in diags(js(count)) if d.code.startswith("JS2")] == [code]


def test_float_count_offers_the_integer():
    (d,) = diags(js("4.0"), "JS201")
    assert d.data == {"replacement": "4"}


def test_hostlist_and_ranks_errors_inside_strings():
    extra = (
        '    constraints:\n      and:\n        - hostlist: ["node[1-4", plain]\n'
        '        - ranks: ["0-3,2"]\n        - not: [{ranks: [7]}]\n'
    )
    text = js(extra=extra)
    (h,) = diags(text, "JS505")
    assert marked(text, h) == "4" and "expected ',' or ']'" in h.message
    ranks = diags(text, "JS506")
    assert [marked(text, d) for d in ranks] == ["2", "7"]
    assert ranks[1].data == {"replacement": '"7"'}


def test_property_negation_and_fluxion_characters():
    text = js(extra='    constraints:\n      properties: ["^ssd", "a&b", "", 3]\n')
    assert [marked(text, d) for d in diags(text, "JS803")] == ["&"]
    assert [marked(text, d) for d in diags(text, "JS504")] == ['""', "3"]


def test_nested_constraints_are_walked():
    text = js(extra="    constraints:\n      or:\n        - not: [{propertis: [x]}]\n")
    (d,) = diags(text, "JS502")
    assert marked(text, d) == "propertis" and d.data == {"suggestion": "properties"}


def test_duration_string_fix_carries_seconds():
    text = js().replace("duration: 0", 'duration: "1.5h"')
    (d,) = diags(text, "JS405")
    assert d.data == {"replacement": "5400", "seconds": 5400.0}
    text = js().replace("duration: 0", "duration: 90s")
    assert diags(text, "JS405")[0].data["replacement"] == "90"
    text = js().replace("duration: 0", "duration: soon")
    assert [d.code for d in diags(text) if d.code.startswith("JS40")] == ["JS404"]


def test_unknown_slot_suggests_closest_label():
    text = js().replace("slot: task", "slot: tasks")
    (d,) = diags(text, "JS307")
    assert marked(text, d) == "tasks" and d.data["suggestion"] == "task"


def test_task_slot_naming_a_non_slot_label():
    text = js().replace("    count: 1\n    with:", "    count: 1\n    label: n\n    with:", 1)
    text = text.replace("slot: task", "slot: n")
    (d,) = diags(text, "JS307")
    assert "labels a node vertex, not a slot" in d.message


def test_duplicate_label_suggests_a_unique_one():
    text = js().replace("    count: 1\n    with:", "    count: 1\n    label: task\n    with:", 1)
    (d,) = diags(text, "JS303")
    first = text.index("task")
    assert d.data == {
        "suggestion": "task2",
        "related": [[first, first + 4, "label 'task' is first used here"]],
    }
    assert text.count("task") and text.index("label: task") < d.start


def test_per_resource_type_must_be_inside_the_slot():
    text = js().replace("count: {per_slot: 1}", "count: {per_resource: {type: gpu, count: 1}}")
    (d,) = diags(text, "JS312")
    assert marked(text, d) == "gpu" and "holds core" in d.message


def test_environment_values():
    text = js(extra='    environment:\n      A: 1\n      B: null\n      C: [x]\n      D: "ok"\n')
    assert [marked(text, d) for d in diags(text, "JS407")] == ["1", "[x]"]


def test_files_dictionary_and_list_forms():
    extra = (
        "    files:\n      - path: ok.txt\n        mode: 33188\n        size: 2\n"
        "        encoding: base64\n        data: aGk=\n"
        "      - path: /abs\n        mode: 33188\n        data: {}\n"
        "      - mode: 16877\n        path: dir\n        size: 0\n"
        "      - mode: 33188\n        path: a/./b\n        encoding: blobvec\n        data: [[0, 1]]\n"
    )
    text = js(extra=extra)
    assert [marked(text, d) for d in diags(text, "JS523")] == ["/abs", "a/./b"]
    assert [marked(text, d) for d in diags(text, "JS526")] == ["size", "[[0, 1]]"]


def test_dependencies():
    extra = (
        '    dependencies:\n      - {scheme: afterok, value: "12"}\n'
        "      - {scheme: string, value: foo, type: sideways, scope: user}\n"
        '      - {scheme: begin-time, value: "1700000000"}\n'
        '      - {scheme: after, value: "12"}\n'
    )
    text = js(extra=extra)
    assert [d.code for d in diags(text) if d.code.startswith("JS51")] == ["JS514", "JS515"]
    assert marked(text, diags(text, "JS514")[0]) == "sideways"


def test_v1_applies_only_to_version_1_under_auto():
    canonical = js('"2"')
    assert not diags(canonical, "JS605")
    v1 = canonical.replace("version: 999", "version: 1")
    (d,) = diags(v1, "JS605")
    assert d.data == {"replacement": "2"}
    assert not diags(v1, "JS801")  # the V1 error supersedes the portability note
    assert diags(canonical, "JS605", version_rules="v1")
    assert not diags(v1, "JS605", version_rules="canonical")
    assert uses_v1(parse(v1)) and not uses_v1(parse("version: 1.0\n"))


def test_v1_graph_messages():
    # one mistake, one diagnostic: the socket V1 does not know, not also the graph it makes
    text = js().replace("version: 999", "version: 1").replace("type: core", "type: socket")
    codes = [d.code for d in diags(text) if d.code.startswith("JS6")]
    assert codes == ["JS603"]
    text = js().replace("version: 999", "version: 1").replace("type: core", "type: node")
    assert [d.code for d in diags(text) if d.code.startswith("JS6")] == ["JS604"]


@pytest.mark.parametrize(
    "old,new,code,missing_code",
    [
        ("resources:", "resouces:", "JS102", "JS101"),
        ("    slot: task", "    slto: task", "JS306", "JS305"),
        ("          - type: core", "          - tpye: core", "JS112", "JS111"),
        ("count: {per_slot: 1}", "count: {per_slots: 1}", "JS309", "JS308"),
    ],
)
def test_a_misspelt_required_key_is_one_error_with_a_rename(old, new, code, missing_code):
    text = js().replace(old, new)
    found = check(text)
    assert missing_code not in {d.code for d in found}
    (d,) = [d for d in found if d.code == code]
    assert d.severity == Severity.ERROR and d.data["suggestion"] in old
    (fix,) = fixes_for(parse(text), d)
    (edit,) = fix.edits
    assert edit.text == d.data["suggestion"]
    fixed = text[: edit.start] + edit.text + text[edit.end :]
    assert check(fixed) == []


def test_select_ignore_in_the_api():
    text = js("0").replace("slot: task", "slot: nope")
    assert {d.code for d in check(text, select=["JS2"])} == {"JS202"}
    assert "JS202" not in {d.code for d in check(text, ignore=["JS202"])}


def test_aliased_subtrees_report_once():
    text = js(extra="    environment: &env\n      A: 1\n  user:\n    copy: *env\n")
    assert len(diags(text, "JS407")) == 1


def test_json_jobspec_positions():
    text = (
        '{"version": 1, "resources": [{"type": "slot", "count": 0, "label": "task", '
        '"with": [{"type": "core", "count": 1}]}], "tasks": [{"command": ["a"], '
        '"slot": "task", "count": {"per_slot": 1}}], "attributes": {"system": '
        '{"duration": "1h"}}}'
    )
    out = check(text, language="json")
    assert [(d.code, marked(text, d)) for d in out] == [("JS202", "0"), ("JS405", '"1h"')]


def test_no_diagnostics_on_broken_yaml_beyond_the_syntax_error():
    out = check("version: 1\nresources: [\n")
    assert [d.code for d in out] == ["JS901"]


def test_resources_shape_string_is_diagnosed():
    text = (
        "version: 999\nresources: slot=4/node\ntasks:\n  - command: [a]\n    slot: default\n"
        "    count: {per_slot: 1}\nattributes: {}\n"
    )
    (d,) = diags(text, "JS104")
    assert marked(text, d) == "slot=4/node" and "shape string" in d.message


@pytest.mark.parametrize("path", rfc_files("spec_14"), ids=rfc_id)
def test_rfc14_corpus_under_auto_rules(path):
    out = check(path.read_text())
    loud = [(d.code, d.message) for d in out if d.severity <= 2]
    if path.name == "example2.yaml":
        # version: 1 with a slot>node graph: RFC 25 (and flux-core's V1 check) refuse it
        assert [c for c, _ in loud] == ["JS604"]
    else:
        assert loud == []


@pytest.mark.parametrize("path", rfc_files("spec_25"), ids=rfc_id)
def test_rfc25_corpus_under_auto_rules(path):
    assert check(path.read_text()) == []


@pytest.mark.parametrize(
    "path", [p for p in rfc_files("spec_14") if p.name == "use_case_1.8.yaml"], ids=rfc_id
)
def test_rfc14_portability_notes_are_information_only(path):
    out = check(path.read_text())
    assert [(d.code, d.severity.label) for d in out] == [("JS801", "information")]


def test_a_key_in_the_wrong_place_says_where_it_belongs():
    text = (
        js()
        .replace("    count: {per_slot: 1}", "    per_slot: 1")
        .replace("  system:\n    duration: 0", "  duration: 0\n  system:\n    duration: 0")
    )
    found = check(text)
    assert "JS305" not in {d.code for d in found}  # the count it should be in: one mistake
    (task,) = diags(text, "JS306")
    assert marked(text, task) == "per_slot" and "belongs under count" in task.message
    assert task.severity == Severity.ERROR
    (attr,) = diags(text, "JS401")
    assert marked(text, attr) == "duration" and "belongs under attributes.system" in attr.message


def test_near_spellings_among_many_labels():
    """Hundreds of labels: the suggestion is still the near spelling (found without
    comparing every task with every label)."""
    from jobspec_lsp.rules.base import Suggester, suggest

    labels = [f"lab{i}" for i in range(700)] + ["database", "reader-01"]
    near = Suggester(labels)
    for word in ("lab5x", "lbb77", "databse", "reader01", "lab699", "nolab42x"):
        assert near.best(word, cutoff=0.0) == suggest(word, labels, cutoff=0.0), word
    few = Suggester(["alpha", "beta"])  # few candidates: compared with all of them
    assert few.best("alpah") == "alpha" and few.best("zzz") is None


def test_many_unknown_slots_are_each_reported_with_a_short_message():
    res = "".join(
        f"  - type: slot\n    count: 1\n    label: lab{i}\n    with: [{{type: core, count: 1}}]\n"
        for i in range(300)
    )
    tasks = "".join(
        f"  - command: [app]\n    slot: lab{i}x\n    count: {{per_slot: 1}}\n" for i in range(300)
    )
    text = (
        f"version: 999\nresources:\n{res}tasks:\n{tasks}attributes: {{system: {{duration: 0}}}}\n"
    )
    found = [d for d in check(text) if d.code == "JS307"]
    assert len(found) == 300
    assert all(d.data["suggestion"] == marked(text, d)[:-1] for d in found)
    assert all(len(d.message) < 200 and "and 290 more" in d.message for d in found)
