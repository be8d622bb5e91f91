"""Conversions (jobspec_lsp.convert, jobspec_lsp.cli.convert).

Every result is asserted to pass `jobspec check` with the rules of its version
(`clean`), every blocker to sit on the token named here."""

import json
import subprocess
import sys

import pytest
import yaml
from helpers import REPO, own_rfc_file, rfc_files, rfc_id, run_cli

from jobspec_lsp import convert
from jobspec_lsp.diagnostics import RULES, Severity
from jobspec_lsp.fluxcli import values
from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.jobspec.tree import to_python
from jobspec_lsp.rules.analysis import check

DATA = REPO / "tests" / "data" / "convert"


def clean(text, rules, language="yaml"):
    """Assert ``text`` has no error under ``rules``; return what Flux reads."""
    errors = [
        (d.code, d.message)
        for d in check(text, language=language, version_rules=rules)
        if d.severity == Severity.ERROR
    ]
    assert errors == [], errors
    return to_python(parse(text, language).root)


def at(text, token, nth=0):
    pos = -1
    for _ in range(nth + 1):
        pos = text.index(token, pos + 1)
    return pos, pos + len(token)


def data_of(text, language="yaml"):
    return to_python(parse(text, language).root)


# =========================================================================== canonical -> V1
# every RFC 14 example: the blockers, each on its token (in document order)
RFC14_TO_V1 = {
    "example1.yaml": [],
    "example2.yaml": [("JS703", "node")],
    "use_case_1.1.yaml": [("JS703", "node")],
    "use_case_1.2.yaml": [("JS701", "min"), ("JS703", "node")],
    "use_case_1.3.yaml": [
        ("JS703", "node"),
        ("JS702", "socket"),
        ("JS701", "min"),
        ("JS701", "min"),
    ],
    "use_case_1.4.yaml": [("JS703", "node"), ("JS702", "socket")],
    "use_case_1.5.yaml": [
        ("JS702", "cluster"),
        ("JS703", "node"),
        ("JS702", "memory"),
        ("JS702", "ib10g"),
        ("JS702", "switch"),
        ("JS706", "switch"),
        ("JS704", "command"),
    ],
    "use_case_1.6.yaml": [
        ("JS702", "cluster"),
        ("JS703", "node"),
        ("JS701", "{min: 1}"),
        ("JS705", "per_resource"),
    ],
    "use_case_1.7.yaml": [
        ("JS702", "switch"),
        ("JS703", "node"),
        ("JS701", "{min: 1}"),
        ("JS705", "per_resource"),
    ],
    "use_case_1.8.yaml": [("JS701", '"4,9,16,25"'), ("JS703", "node")],
    "use_case_2.1.yaml": [("JS703", "node")],
    "use_case_2.2.yaml": [("JS703", "node")],
    "use_case_2.3.yaml": [],
    "use_case_2.4.yaml": [
        ("JS702", "memory"),
        ("JS703", "slot"),
        ("JS702", "memory"),
        ("JS704", "command"),
    ],
    "use_case_2.5.yaml": [("JS702", "memory"), ("JS701", "min")],
    "use_case_2.6.yaml": [("JS703", "node"), ("JS702", "memory"), ("JS701", "min")],
    "use_case_2.7.yaml": [("JS703", "node"), ("JS704", "command"), ("JS707", "attributes")],
    "use_case_2.8.yaml": [("JS703", "node")],
    "use_case_2.9.yaml": [("JS703", "node")],
}


def test_every_rfc14_example_has_an_expectation():
    names = [p.name for p in rfc_files("spec_14")]
    assert set(names) == set(RFC14_TO_V1) and len(names) % len(RFC14_TO_V1) == 0


@pytest.mark.parametrize("path", rfc_files("spec_14"), ids=rfc_id)
def test_rfc14_example_to_v1(path):
    text = path.read_text()
    conv = convert.to_v1(text)
    assert [(b.code, text[b.start : b.end]) for b in conv.blockers] == RFC14_TO_V1[path.name]
    for b in conv.blockers:
        assert b.severity == Severity.ERROR and "\n" not in b.message
        assert b.end > b.start and "\n" not in text[b.start : b.end]
    if RFC14_TO_V1[path.name]:
        assert conv.text is None and conv.changes == []
        return
    after = clean(conv.text, "v1")
    before = data_of(text)
    assert after["version"] == 1
    assert after["resources"] == before["resources"] and after["tasks"] == before["tasks"]
    assert after["attributes"] == before["attributes"]
    assert all(text[c.start : c.end] for c in conv.changes)


def test_rfc14_blockers_say_why():
    text = (own_rfc_file("spec_14", "use_case_1.1.yaml")).read_text()
    (b,) = convert.to_v1(text).blockers
    assert "slot>node" in b.message and "node(exclusive)>slot>core" in b.message
    text = (own_rfc_file("spec_14", "use_case_1.8.yaml")).read_text()
    assert '"4,9,16,25" lets the scheduler choose' in convert.to_v1(text).blockers[0].message


CANONICAL = """# keep me
version: 999  # canonical
resources:
  - type: node
    count: "2"   # a string
    with:
      - type: slot
        count:     # a range of one
          min: 4
          max: 4
          operator: "+"
          operand: 1
        label: task
        exclusive: true
        with:
          - type: core
            count: "[1]"
            exclusive: true
tasks:
  - command: [app]
    slot: task
    count: {per_slot: 1}
attributes:
  user: {note: x}
"""


def test_to_v1_edits_in_place_and_keeps_comments():
    conv = convert.to_v1(CANONICAL)
    assert conv.ok, conv.blockers
    out = conv.text
    js = clean(out, "v1")
    assert (
        out
        == """# keep me
version: 1  # canonical
resources:
  - type: node
    count: 2   # a string
    with:
      - type: slot
        count: 4  # a range of one
        label: task
        with:
          - type: core
            count: 1
tasks:
  - command: [app]
    slot: task
    count: {per_slot: 1}
attributes:
  system:
    duration: 0
  user: {note: x}
"""
    )
    assert js["attributes"]["user"] == {"note": "x"}
    got = [
        (CANONICAL[c.start : c.end], c.message.split(" (")[0].split(",")[0]) for c in conv.changes
    ]
    assert got == [
        ("999", "version 999 changed to 1"),
        ('"2"', 'count "2" written as the integer 2'),
        ("min", 'count {"min": 4'),
        ("exclusive: true", "removed exclusive: true from the slot"),
        ('"[1]"', 'count "[1]" written as the integer 1'),
        ("exclusive: true", "removed exclusive: true from the core"),
        ("attributes", "added attributes.system with duration: 0"),
    ]


@pytest.mark.parametrize(
    "before,after",
    [
        # system without duration, block and flow
        (
            "attributes:\n  system:\n    cwd: /tmp\n",
            "attributes:\n  system:\n    duration: 0\n    cwd: /tmp\n",
        ),
        (
            "attributes:\n  system: {cwd: /tmp}\n",
            "attributes:\n  system: {duration: 0, cwd: /tmp}\n",
        ),
        ("attributes:\n  system: {}\n", "attributes:\n  system: {duration: 0}\n"),
        ("attributes: {}\n", "attributes: {system: {duration: 0}}\n"),
        ("attributes: {user: {a: 1}}\n", "attributes: {system: {duration: 0}, user: {a: 1}}\n"),
    ],
)
def test_to_v1_adds_duration_in_the_style_written(before, after):
    head = (
        "version: 999\nresources:\n  - type: slot\n    count: 1\n    label: task\n"
        "    with:\n      - type: core\n        count: 1\ntasks:\n  - command: [a]\n"
        "    slot: task\n    count: {per_slot: 1}\n"
    )
    conv = convert.to_v1(head + before)
    assert conv.text == head.replace("999", "1") + after
    assert clean(conv.text, "v1")["attributes"]["system"]["duration"] == 0


def test_to_v1_flow_and_first_key_exclusive():
    flow = """version: 999
resources:
  - {type: slot, count: 2, label: task, exclusive: true, with: [{type: core, count: 1, exclusive: true}]}
tasks:
  - {command: [app], slot: task, count: {per_slot: 1}}
attributes:
  system: {duration: 60}
"""
    out = convert.to_v1(flow).text
    assert "  - {type: slot, count: 2, label: task, with: [{type: core, count: 1}]}\n" in out
    clean(out, "v1")
    first = """version: 999
resources:
- exclusive: true
  type: slot
  count: 2
  label: task
  with:
  - type: core
    count: 1
tasks:
- command: [app]
  slot: task
  count: {per_slot: 1}
attributes:
  system:
    duration: 60
"""
    out = convert.to_v1(first).text
    assert out.startswith("version: 1\nresources:\n- type: slot\n  count: 2\n")
    clean(out, "v1")


JSON_CANONICAL = """{
  "version": 999,
  "resources": [
    {"type": "slot", "count": "2", "label": "task", "exclusive": true,
     "with": [{"type": "core", "count": {"min": 2, "max": 2}}]}
  ],
  "tasks": [{"command": ["a"], "slot": "task", "count": {"per_slot": 1}}],
  "attributes": {
    "user": {"x": 1}
  }
}
"""


def test_to_v1_json_stays_json():
    conv = convert.to_v1(JSON_CANONICAL, "json")
    out = conv.text
    json.loads(out)
    js = clean(out, "v1", "json")
    assert js["resources"] == [
        {"type": "slot", "count": 2, "label": "task", "with": [{"type": "core", "count": 2}]}
    ]
    assert '  "attributes": {\n    "system": {"duration": 0},\n    "user": {"x": 1}\n  }' in out
    compact = json.dumps(json.loads(JSON_CANONICAL))
    assert json.loads(clean_text := convert.to_v1(compact, "json").text)["version"] == 1
    clean(clean_text, "v1", "json")


@pytest.mark.parametrize(
    "resources,language,expected",
    [
        (
            "resources:\n  - type: core   # four cores\n    count: 4\n",
            "yaml",
            [{"type": "slot", "count": 1, "label": "work", "with": [{"type": "core", "count": 4}]}],
        ),
        (
            "resources:\n  - type: core\n    count: 2\n  - type: gpu\n    count: 1\n    exclusive: true\n",
            "yaml",
            [
                {
                    "type": "slot",
                    "count": 1,
                    "label": "work",
                    "with": [{"type": "core", "count": 2}, {"type": "gpu", "count": 1}],
                }
            ],
        ),
        (
            "resources: [{type: core, count: 2}]\n",
            "yaml",
            [{"type": "slot", "count": 1, "label": "work", "with": [{"type": "core", "count": 2}]}],
        ),
        (
            'resources:\n- type: node\n  count: 3\n  with:\n  - type: core\n    count: "8"\n',
            "yaml",
            [
                {
                    "type": "node",
                    "count": 3,
                    "with": [
                        {
                            "type": "slot",
                            "count": 1,
                            "label": "work",
                            "with": [{"type": "core", "count": 8}],
                        }
                    ],
                }
            ],
        ),
    ],
)
def test_bare_core_request_is_put_into_a_slot(resources, language, expected):
    text = (
        f"version: 999\n{resources}tasks:\n  - command: [app]\n    slot: work\n"
        "    count: {per_slot: 1}\nattributes: {}\n"
    )
    conv = convert.to_v1(text, language)
    assert conv.ok, conv.blockers
    js = clean(conv.text, "v1")
    assert js["resources"] == expected
    assert any("into one task slot labelled 'work'" in c.message for c in conv.changes)
    assert "# four cores" in conv.text or "#" not in text


def test_bare_core_request_in_json():
    text = (
        '{"version": 999, "resources": [{"type": "core", "count": 2}], "tasks": [{"command": '
        '["a"], "slot": "task", "count": {"per_slot": 1}}], "attributes": {}}'
    )
    js = clean(convert.to_v1(text, "json").text, "v1", "json")
    assert js["resources"][0] == {
        "type": "slot",
        "count": 1,
        "label": "task",
        "with": [{"type": "core", "count": 2}],
    }


@pytest.mark.parametrize(
    "resources,code,token",
    [
        # a gpu alone cannot get a core it never asked for; shared cores stay shared
        (
            "  - type: slot\n    count: 1\n    label: task\n    with:\n      - type: gpu\n        count: 1\n",
            "JS703",
            "gpu",
        ),
        (
            "  - type: slot\n    count: 1\n    label: task\n    with:\n      - type: core\n        count: 1\n"
            "        exclusive: false\n",
            "JS707",
            "exclusive",
        ),
        (
            "  - type: slot\n    count: 1\n    label: task\n    exclusive: false\n    with:\n"
            "      - type: core\n        count: 1\n",
            "JS707",
            "exclusive",
        ),
        (
            "  - type: slot\n    count: 1\n    label: task\n    with:\n      - type: core\n        count: 1\n"
            "      - type: core\n        count: 2\n",
            "JS703",
            ("core", 1),
        ),
        (
            "  - type: node\n    count: 1\n    with:\n      - type: slot\n        count: 1\n        label: task\n"
            "        with:\n          - type: core\n            count: 1\n      - type: gpu\n"
            "        count: 1\n",
            "JS703",
            "gpu",
        ),
        (
            "  - type: node\n    count: 1\n    with:\n      - type: core\n        count: 1\n      - type: slot\n"
            "        count: 1\n        label: task\n        with:\n          - type: core\n"
            "            count: 1\n",
            "JS703",
            ("core", 0),
        ),
        (
            "  - type: slot\n    count: 2-4\n    label: task\n    with:\n      - type: core\n        count: 1\n",
            "JS701",
            "2-4",
        ),
    ],
)
def test_to_v1_blocks_what_v1_cannot_say(resources, code, token):
    text = (
        f"version: 999\nresources:\n{resources}tasks:\n  - command: [app]\n    slot: task\n"
        "    count: {per_slot: 1}\nattributes:\n  system: {duration: 0}\n"
    )
    conv = convert.to_v1(text)
    assert not conv.ok
    (b,) = conv.blockers
    assert b.code == code
    assert (b.start, b.end) == at(text, *((token,) if isinstance(token, str) else token))


def test_task_distribution_blocks():
    text = (
        "version: 999\nresources:\n  - type: slot\n    count: 1\n    label: task\n    with:\n"
        "      - type: core\n        count: 1\ntasks:\n  - command: [app]\n    slot: task\n"
        "    count: {per_slot: 1}\n    distribution: cyclic\nattributes: {}\n"
    )
    (b,) = convert.to_v1(text).blockers
    assert b.code == "JS707" and text[b.start : b.end] == "distribution"


def test_invalid_input_is_refused_with_its_errors():
    text = "version: 999\nresources: []\ntasks: []\nattributes: {}\n"
    conv = convert.to_v1(text)
    assert not conv.ok and {b.code for b in conv.blockers} == {"JS708"}
    assert all("fix this first" in b.message and "(JS" in b.message for b in conv.blockers)
    assert not convert.to_v1("version: 999\nresources: [\n").ok


def test_an_edit_that_would_change_an_alias_falls_back_to_a_rewrite():
    text = """version: 999   # comment
resources:
  - type: slot
    count: &n "4"
    label: task
    with:
      - type: core
        count: 1
tasks:
  - command: [app]
    slot: task
    count: {per_slot: 1}
attributes:
  user: {n: *n}
"""
    conv = convert.to_v1(text)
    js = clean(conv.text, "v1")
    assert js["resources"][0]["count"] == 4 and js["attributes"]["user"] == {"n": "4"}
    assert "comments and layout are not kept" in conv.changes[-1].message


def test_crlf_and_byte_order_mark_are_kept():
    text = (
        '\ufeffversion: 999\r\nresources:\r\n  - type: core\r\n    count: "2"\r\ntasks:\r\n'
        "  - command: [a]\r\n    slot: task\r\n    count: {per_slot: 1}\r\nattributes:\r\n"
        "  user: {}\r\n"
    )
    conv = convert.to_v1(text)
    assert conv.text.startswith("\ufeffversion: 1\r\n") and "\n" not in conv.text.replace(
        "\r\n", ""
    )
    assert "  system:\r\n    duration: 0\r\n" in conv.text
    clean(conv.text, "v1")
    # offsets, like `jobspec check`'s, count after the byte order mark
    assert [text[1:][c.start : c.end] for c in conv.changes][:1] == ["999"]
    canon = convert.to_canonical(conv.text)
    assert canon.text.startswith("\ufeffversion: 999\r\n")
    assert convert.to_v1(canon.text).text == conv.text


def test_v1_input_is_unchanged():
    for path in rfc_files("spec_25"):
        conv = convert.to_v1(path.read_text())
        assert conv.text == path.read_text() and conv.changes == []


# =========================================================================== V1 -> canonical
@pytest.mark.parametrize("path", rfc_files("spec_25"), ids=rfc_id)
def test_v1_canonical_v1_round_trip(path):
    text = path.read_text()
    canon = convert.to_canonical(text)
    (change,) = canon.changes
    assert (
        change.message.startswith("version 1 changed to 999")
        and text[change.start : change.end] == "1"
    )
    assert canon.text == text.replace("version: 1", "version: 999", 1)
    assert clean(canon.text, "canonical")["version"] == 999
    back = convert.to_v1(canon.text)
    assert back.text == text
    assert clean(back.text, "v1") == data_of(text)


def test_to_canonical_of_canonical_and_of_a_broken_v1():
    text = (own_rfc_file("spec_14", "use_case_2.2.yaml")).read_text()
    conv = convert.to_canonical(text)
    assert conv.text == text and conv.changes == []
    # version 1 but a canonical-only graph (RFC 14 example2): marking it canonical makes it valid
    text = (own_rfc_file("spec_14", "example2.yaml")).read_text()
    assert any(d.code == "JS604" for d in check(text))
    out = convert.to_canonical(text).text
    assert clean(out, "auto")["version"] == 999
    bad = convert.to_canonical("version: 1\nresources: []\ntasks: []\nattributes: {}\n")
    assert not bad.ok and {b.code for b in bad.blockers} == {"JS708"}


def test_to_canonical_json():
    text = rfc_files("spec_25")[0].read_text()
    js = data_of(text)
    doc = json.dumps(js, indent=2)
    out = convert.to_canonical(doc, "json").text
    assert clean(out, "canonical", "json")["version"] == 999
    assert convert.to_v1(out, "json").text == doc


# =========================================================================== JS7xx examples
# each conversion rule's bad example, through the converter it names: code and range
CONVERT_AT = {
    "JS701": "{min: 2}",
    "JS702": "memory",
    "JS703": ("node", 0),
    "JS704": ("command", 1),
    "JS705": "per_resource",
    "JS706": ("node", 0),
    "JS707": "id",
    "JS708": ("0", 0),
    "JS711": '"memory"',
    "JS712": '"process_count"',
    "JS713": "{",
    "JS714": "total",
    "JS715": "constraints",
}
JS7 = sorted(c for c in RULES if c.startswith("JS7"))


def test_every_conversion_rule_has_a_range():
    assert sorted(CONVERT_AT) == JS7


@pytest.mark.parametrize("code", JS7)
def test_conversion_rule_examples(code):
    rule = RULES[code]
    run = getattr(convert, rule.example_options["convert"])
    language = rule.example_options.get("language", "yaml")
    conv = run(rule.bad, language)
    mine = [d for d in conv.blockers + conv.warnings if d.code == code]
    assert mine, [d.code for d in conv.blockers + conv.warnings]
    assert mine[0].severity == rule.severity
    token = CONVERT_AT[code]
    assert (mine[0].start, mine[0].end) == at(
        rule.bad, *((token,) if isinstance(token, str) else token)
    )
    assert conv.ok == (rule.severity != Severity.ERROR)
    good = run(rule.good, language)
    assert good.ok and code not in [d.code for d in good.warnings]
    # reported by the converters only, never by `jobspec check`
    assert not [d.code for d in check(rule.bad, language=language) if d.code.startswith("JS7")]


# =========================================================================== PSI/J -> V1
def test_psij_every_optional_field():
    text = (DATA / "full.psij.json").read_text()
    conv = convert.from_psij_text(text)
    assert conv.ok and conv.warnings == [] and conv.blockers == []
    js = clean(conv.text, "v1")
    assert js["resources"] == [
        {
            "type": "node",
            "count": 2,
            "exclusive": True,
            "with": [
                {
                    "type": "slot",
                    "count": 4,
                    "label": "task",
                    "with": [{"type": "core", "count": 4}, {"type": "gpu", "count": 1}],
                }
            ],
        }
    ]
    assert js["tasks"] == [
        {
            "command": ["/usr/bin/simulate", "--steps", "100"],
            "slot": "task",
            "count": {"per_slot": 1},
        }
    ]
    assert js["attributes"]["system"] == {
        "duration": 3600,
        "cwd": "/scratch/run1",
        "environment": {"OMP_NUM_THREADS": "4", "PATH": "/usr/bin:/bin"},
        "job": {"name": "sim-100"},
        "queue": "pbatch",
        "bank": "physics",
        "shell": {
            "options": {
                "input": {"stdin": {"type": "file", "path": "/scratch/in.txt"}},
                "output": {
                    "stdout": {"type": "file", "path": "/scratch/out.log"},
                    "stderr": {"type": "file", "path": "/scratch/err.log"},
                },
            }
        },
    }
    # and back: PSI/J again, field for field
    back = json.loads(convert.to_psij(conv.text).text)
    original = json.loads(text)
    del original["resources"]["process_count"]  # implied by node_count x processes_per_node
    original["attributes"]["duration"] = "3600 s"  # the same seconds, as psij-python reads them
    assert back == original


STDIN_DEVNULL = {"options": {"input": {"stdin": {"type": "file", "path": "/dev/null"}}}}


def test_psij_python_serialization():
    # exactly what psij-python's JSONSerializer writes (defaults left out, one line)
    conv = convert.from_psij_text((DATA / "serialized.psij.json").read_text())
    js = clean(conv.text, "v1")
    assert js["resources"] == [
        {"type": "slot", "count": 4, "label": "task", "with": [{"type": "core", "count": 1}]}
    ]
    assert js["attributes"]["system"] == {
        "duration": 600,
        "job": {"name": "/bin/date"},
        "shell": STDIN_DEVNULL,  # PSI/J's unset stdin
    }
    assert [w.code for w in conv.warnings] == ["JS711"]  # inherit_environment left at true
    assert "inherit_environment is true" in conv.warnings[0].message
    notes = " / ".join(c.message for c in conv.changes)
    assert "10 minutes" in notes and "1 core per process" in notes
    assert "stdin_path not given" in notes


def test_psij_lossy_fields_are_warned_not_dropped_silently():
    text = (DATA / "lossy.psij.json").read_text()
    conv = convert.from_psij_text(text)
    assert conv.ok
    assert {w.code for w in conv.warnings} == {"JS711"}
    lost = sorted(text[w.start : w.end] for w in conv.warnings)
    assert lost == [
        '"custom_attributes"',
        '"exclusive_node_use"',
        '"memory"',
        '"reservation_id"',
    ]
    js = clean(conv.text, "v1")
    # pre_launch is carried: sourced by bash before the program, in each task
    assert js["tasks"][0]["command"] == [
        "/bin/bash",
        "-c",
        'set -e; source /home/me/setup.sh; set +e; "$@"',
        "psij-launch",
        "app",
    ]
    notes = " / ".join(c.message for c in conv.changes)
    assert "launcher 'mpirun'" in notes and "pre_launch/post_launch" in notes
    assert js["resources"][0] == {
        "type": "slot",
        "count": 8,
        "label": "task",
        "with": [{"type": "core", "count": 1}],
    }
    assert js["attributes"]["system"] == {
        "duration": 600,
        "bank": "old-acct",
        "shell": STDIN_DEVNULL,
    }


def test_psij_yaml_where_psij_python_fails():
    # psij-python's Flux executor fails without process_count or cpu_cores_per_process
    text = (DATA / "minimal.psij.yaml").read_text()
    conv = convert.from_psij_text(text, "yaml")
    js = clean(conv.text, "v1")
    assert js["resources"] == [
        {"type": "slot", "count": 1, "label": "task", "with": [{"type": "core", "count": 1}]}
    ]
    assert js["tasks"][0]["command"] == ["hostname"]
    assert text[conv.warnings[0].start : conv.warnings[0].end] == "executable"  # no key: the first
    conv = convert.from_psij_text((DATA / "per-node.psij.yaml").read_text(), None)
    assert conv.warnings == []
    js = clean(conv.text, "v1")
    assert js["resources"] == [
        {
            "type": "node",
            "count": 1,
            "with": [
                {
                    "type": "slot",
                    "count": 4,
                    "label": "task",
                    "with": [{"type": "core", "count": 2}],
                }
            ],
        }
    ]
    assert js["tasks"][0]["command"] == ["/opt/app/bin/solver", "-i", "input.dat", "3"]
    assert js["attributes"]["system"]["duration"] == 5400
    assert js["attributes"]["system"]["environment"] == {"OMP_NUM_THREADS": "2"}


@pytest.mark.parametrize(
    "resources,nodes,slots,per_node",
    [
        ({}, None, 1, None),
        ({"process_count": 5}, None, 5, None),  # the scheduler picks nodes
        ({"node_count": 3}, 3, None, 1),
        ({"processes_per_node": 2}, 1, None, 2),  # node_count defaults to 1
        ({"node_count": 2, "process_count": 6}, 2, None, 3),
        ({"processes_per_node": 2, "process_count": 6}, 3, None, 2),
        ({"node_count": 2, "processes_per_node": 3}, 2, None, 3),
        ({"node_count": 2, "processes_per_node": 3, "process_count": 6}, 2, None, 3),
    ],
)
def test_psij_resource_spec_v1_inference(resources, nodes, slots, per_node):
    conv = convert.from_psij(
        {"executable": "a", "inherit_environment": False, "resources": resources}
    )
    js = clean(conv.text, "v1")
    top = js["resources"][0]
    if nodes is None:
        assert top == {
            "type": "slot",
            "count": slots,
            "label": "task",
            "with": [{"type": "core", "count": 1}],
        }
    else:
        assert top == {
            "type": "node",
            "count": nodes,
            "with": [
                {
                    "type": "slot",
                    "count": per_node,
                    "label": "task",
                    "with": [{"type": "core", "count": 1}],
                }
            ],
        }
    assert js["tasks"][0]["count"] == {"per_slot": 1}
    assert conv.warnings == []


@pytest.mark.parametrize(
    "data,code,words",
    [
        (
            {"resources": {"node_count": 2, "processes_per_node": 2, "process_count": 5}},
            "JS712",
            ["process_count 5", "node_count 2", "processes_per_node 2", "(= 4)"],
        ),
        (
            {"resources": {"processes_per_node": 2, "process_count": 5}},
            "JS712",
            ["process_count 5", "processes_per_node 2"],
        ),
        (
            {"resources": {"node_count": 2, "process_count": 5}},
            "JS712",
            ["process_count 5", "node_count 2"],
        ),
        ({"resources": {"node_count": 0}}, "JS713", ["node_count", "0"]),
        ({"resources": {"cpu_cores_per_process": 1.5}}, "JS713", ["cpu_cores_per_process"]),
        ({"resources": {"exclusive_node_use": "yes"}}, "JS713", ["exclusive_node_use"]),
        ({"resources": {"node_cont": 2}}, "JS713", ["node_cont", "did you mean 'node_count'"]),
        ({"resources": {"__version": 2}}, "JS713", ["version 2"]),
        ({"attributes": {"duration": "an hour"}}, "JS713", ['"an hour"']),
        ({"attributes": {"duration": "1e400 s"}}, "JS713", ['"1e400 s"']),  # not finite
        ({"attributes": {"duration": 3600}}, "JS713", ["3600"]),
        ({"attributes": {"walltime": "1h"}}, "JS713", ["walltime"]),
        ({"attributes": {"account": "a", "project_name": "b"}}, "JS713", ["disagree"]),
        ({"directory": "relative/dir"}, "JS713", ["absolute"]),
        ({"environment": {"A": True}}, "JS713", ["environment"]),
        ({"arguments": "one string"}, "JS713", ["arguments"]),
        ({"inherit_environment": "no"}, "JS713", ["inherit_environment"]),
        ({"executabel": "a"}, "JS713", ["did you mean 'executable'"]),
    ],
)
def test_psij_errors_say_which(data, code, words):
    conv = convert.from_psij({"executable": "a", **data})
    assert not conv.ok
    mine = [b for b in conv.blockers if b.code == code]
    assert mine and all(w in mine[0].message for w in words), conv.blockers


def test_psij_error_positions():
    text = (DATA / "uneven.psij.json").read_text()
    (b,) = convert.from_psij_text(text).blockers
    assert b.code == "JS712" and text[b.start : b.end] == '"process_count"'
    assert "not a multiple of node_count 2" in b.message
    text = (DATA / "typo.psij.yaml").read_text()
    got = sorted(
        (b.code, text[b.start : b.end]) for b in convert.from_psij_text(text, None).blockers
    )
    assert got == [("JS713", "node_cont"), ("JS713", "walltime")]
    conv = convert.from_psij_text('{"executable": ')
    assert not conv.ok and conv.blockers[0].code == "JS901"


@pytest.mark.parametrize(
    "duration,seconds",
    [
        ("3600.0 s", 3600),  # psij-python's own format (its reader takes this as 0 s)
        ("90 s", 90),
        ("1.5 s", 1.5),
        ("10 m", 600),
        ("2h", 7200),
        ("0.5 h", 1800),
        ("01:30:00", 5400),
        ("1:30", 5400),
        ("45", 2700),  # hh:mm:ss, hh:mm, minutes
        ("2e-05 s", 2e-05),  # str() of a small float: psij-python writes timedelta(microseconds=20)
        ("1e+16 s", 10**16),
    ],
)
def test_psij_durations(duration, seconds):
    conv = convert.from_psij(
        {"executable": "a", "inherit_environment": False, "attributes": {"duration": duration}}
    )
    assert clean(conv.text, "v1")["attributes"]["system"]["duration"] == seconds


# =========================================================================== V1 -> PSI/J
@pytest.mark.parametrize("path", rfc_files("spec_25"), ids=rfc_id)
def test_rfc25_examples_to_psij_and_back(path):
    text = path.read_text()
    conv = convert.to_psij(text)
    if path.name == "use_case_2.1.yaml":  # 5 tasks over 4 nodes: no PSI/J equivalent
        (b,) = conv.blockers
        assert (
            b.code == "JS714"
            and text[b.start : b.end] == "total"
            and "5 tasks in 4 slots" in b.message
        )
        return
    psij = json.loads(conv.text)
    assert psij["inherit_environment"] is False and psij["resources"]["__version"] == 1
    assert psij["attributes"]["duration"] == "3600 s"
    back = convert.from_psij(psij)
    js, original = clean(back.text, "v1"), data_of(text)
    label = original["tasks"][0]["slot"]
    expected = json.loads(json.dumps(original["resources"]).replace(f'"{label}"', '"task"'))
    assert js["resources"] == expected
    assert js["tasks"][0]["command"] == original["tasks"][0]["command"]
    # stdin: PSI/J's unset stdin is /dev/null, written out
    assert js["attributes"]["system"] == {
        **original["attributes"]["system"],
        "duration": 3600,
        "shell": STDIN_DEVNULL,
    }
    assert "stdin_path" not in psij


def test_to_psij_blockers_and_warnings():
    base = """version: 1
resources:
  - type: slot
    count: 4
    label: task
    unit: each
    with:
      - type: core
        count: 2
tasks:
  - command: [app, -v]
    slot: task
    count: {per_slot: 2}
attributes:
  user: {tag: x}
  system:
    duration: 0
    constraints: {properties: [ssd]}
    dependencies: [{scheme: afterok, value: "123"}]
    job: {name: n, comment: c}
    shell:
      options:
        output:
          stdout: {type: file, path: o.log, label: true}
        verbose: 1
"""
    (b,) = convert.to_psij(base).blockers
    assert b.code == "JS714" and base[b.start : b.end] == "per_slot"
    text = base.replace("{per_slot: 2}", "{total: 4}")
    conv = convert.to_psij(text)
    assert conv.ok
    got = sorted(text[w.start : w.end] for w in conv.warnings)
    assert got == [
        "0",
        "comment",
        "constraints",
        "dependencies",
        "label",
        "unit",
        "user",
        "verbose",
    ]
    assert all(w.code == "JS715" and w.severity == Severity.WARNING for w in conv.warnings)
    psij = json.loads(conv.text)
    assert psij == {
        "name": "n",
        "executable": "app",
        "arguments": ["-v"],
        "inherit_environment": False,
        "stdout_path": "o.log",
        "resources": {
            "process_count": 4,
            "cpu_cores_per_process": 2,
            "exclusive_node_use": False,
            "__version": 1,
        },
    }
    refused = convert.to_psij("version: 999\nresources: []\ntasks: []\nattributes: {}\n")
    assert not refused.ok and refused.blockers[0].code == "JS708"


# =========================================================================== command line
def new(*argv):
    conv = convert.from_command_line(list(argv))
    assert conv.ok, conv.blockers
    return clean(conv.text, "v1"), conv


def slot(count, cores=1, gpus=0):
    kids = [{"type": "core", "count": cores}] + ([{"type": "gpu", "count": gpus}] if gpus else [])
    return {"type": "slot", "count": count, "label": "task", "with": kids}


def node(count, inner, exclusive=False):
    return {
        "type": "node",
        "count": count,
        **({"exclusive": True} if exclusive else {}),
        "with": [inner],
    }


# what flux-core's `flux submit` (JobspecV1.from_command) builds for the same options
@pytest.mark.parametrize(
    "argv,resources,count",
    [
        ([], slot(1), {"per_slot": 1}),
        (["-n4"], slot(4), {"per_slot": 1}),
        (["-n4", "-c2"], slot(4, 2), {"per_slot": 1}),
        (["-n2", "-g1"], slot(2, 1, 1), {"per_slot": 1}),
        (["-n2", "-g0"], slot(2), {"per_slot": 1}),
        (["-N2"], node(2, slot(1), exclusive=True), {"per_slot": 1}),  # -N alone: -x implied
        (["-N2", "-n8"], node(2, slot(4)), {"per_slot": 1}),
        (["-N2", "-n8", "-x"], node(2, slot(4), exclusive=True), {"per_slot": 1}),
        (["-N2", "-n5"], node(2, slot(3)), {"total": 5}),  # uneven: total
        (
            ["-N4", "-n16", "-c2", "-g1", "--exclusive"],
            node(4, slot(4, 2, 1), exclusive=True),
            {"per_slot": 1},
        ),
        (
            ["--nodes", "3", "--ntasks", "3", "--cores-per-task", "4"],
            node(3, slot(1, 4)),
            {"per_slot": 1},
        ),
    ],
)
def test_new_builds_what_flux_submit_builds(argv, resources, count):
    js, _ = new(*argv, "--", "app", "--flag")
    assert js == {
        "version": 1,
        "resources": [resources],
        "tasks": [{"command": ["app", "--flag"], "slot": "task", "count": count}],
        "attributes": {"system": {"duration": 0}},
    }


def test_new_notes_what_flux_submit_implies():
    _, conv = new("-N2", "--", "app")
    assert "nodes allocated exclusively" in conv.changes[0].message
    _, conv = new("-N2", "-n5", "--", "app")
    assert "do not divide evenly" in conv.changes[0].message


@pytest.mark.parametrize(
    "flag,seconds",
    [
        ("90", 5400),
        ("1.5", 90),
        ("0", 0),
        ("1h", 3600),
        ("30s", 30),
        ("1.5m", 90),
        ("2d", 172800),
        ("500ms", 0.5),
    ],
)
def test_new_time_limit_like_flux(flag, seconds):
    js, _ = new("-t", flag, "--", "app")
    assert js["attributes"]["system"]["duration"] == seconds


def test_new_every_job_option():
    js, _ = new(
        "-N1",
        "-n1",
        "-q",
        "pdebug",
        "-B",
        "acct",
        "--cwd",
        "/w",
        "--env",
        "A=1",
        "--env",
        "B=x=y",
        "--env",
        "EMPTY=",
        "--job-name",
        "demo",
        "--output",
        "out-{{id}}.log",
        "--error",
        "e.log",
        "--input",
        "in.txt",
        "-t",
        "10m",
        "--",
        "app",
        "arg",
    )
    assert js["attributes"] == {
        "system": {
            "duration": 600,
            "cwd": "/w",
            "environment": {"A": "1", "B": "x=y", "EMPTY": ""},
            "job": {"name": "demo"},
            "queue": "pdebug",
            "bank": "acct",
            "shell": {
                "options": {
                    "input": {"stdin": {"type": "file", "path": "in.txt"}},
                    "output": {
                        "stdout": {"type": "file", "path": "out-{{id}}.log"},
                        "stderr": {"type": "file", "path": "e.log"},
                    },
                }
            },
        }
    }
    js, _ = new("--output", "kvs", "--", "app")  # flux: kvs/none keep output in the KVS
    assert "shell" not in js["attributes"]["system"]


@pytest.mark.parametrize(
    "items,expected",
    [
        (['user.tag="blue"'], {"user": {"tag": "blue"}}),
        (["user.tag=blue"], {"user": {"tag": "blue"}}),  # not JSON: a string
        (["foo=3"], {"system": {"foo": 3}}),  # bare key: system
        (['system.x.y={"a": [1]}'], {"system": {"x": {"y": {"a": [1]}}}}),
        (["flag"], {"system": {"flag": 1}}),  # no value: 1
        ([".user.z=1"], {"user": {"z": 1}}),
        (["queue=q1"], {"system": {"queue": "q1"}}),
    ],
)
def test_new_setattr(items, expected):
    argv = [a for item in items for a in ("--setattr", item)]
    js, _ = new(*argv, "--", "app")
    system = {"duration": 0, **expected.get("system", {})}
    assert js["attributes"] == {**expected, "system": system}


@pytest.mark.parametrize(
    "uri,entry",
    [
        ("afterok:ƒ2Xcd", {"scheme": "afterok", "value": "ƒ2Xcd"}),
        ("afterany:123", {"scheme": "afterany", "value": "123"}),
        ("begin-time:1700000000.5", {"scheme": "begin-time", "value": "1700000000.5"}),
        ("singleton", {"scheme": "singleton", "value": ""}),
        (
            "string:x?type=in&scope=user",
            {"scheme": "string", "value": "x", "type": "in", "scope": "user"},
        ),
        (
            "fluid:name?type=out&scope=global&n=2&n=3.5",
            {"scheme": "fluid", "value": "name", "type": "out", "scope": "global", "n": [2, 3.5]},
        ),
    ],
)
def test_new_dependency(uri, entry):
    assert values.parse_dependency(uri) == entry
    conv = convert.from_command_line(["--job-name", "n", "--dependency", uri, "--", "app"])
    if entry["scheme"] in ("string", "fluid"):
        # what flux submit writes too, but flux-core's ingest has no plugin for them
        assert not conv.ok and "not supported" in conv.blockers[0].message
    else:
        assert clean(conv.text, "v1")["attributes"]["system"]["dependencies"] == [entry]


def test_new_singleton_needs_a_job_name():
    conv = convert.from_command_line(["--dependency", "singleton", "--", "app"])
    assert not conv.ok and "singleton jobs require a job name" in conv.blockers[0].message


@pytest.mark.parametrize(
    "expr,constraint",
    [
        ("ssd", {"properties": ["ssd"]}),
        ("a b c", {"properties": ["a", "b", "c"]}),
        ("a&b && c and d", {"properties": ["a", "b", "c", "d"]}),
        ("a,b", {"properties": ["a", "b"]}),
        ("^slow", {"properties": ["^slow"]}),
        ("-slow", {"not": [{"properties": ["slow"]}]}),
        ("a|b", {"or": [{"properties": ["a"]}, {"properties": ["b"]}]}),
        (
            "a or b || c",
            {"or": [{"properties": ["a"]}, {"properties": ["b"]}, {"properties": ["c"]}]},
        ),
        ("not (a|b)", {"not": [{"or": [{"properties": ["a"]}, {"properties": ["b"]}]}]}),
        ("host:fluke[1-5]", {"hostlist": ["fluke[1-5]"]}),
        ("-hosts:fluke7", {"not": [{"hostlist": ["fluke7"]}]}),
        ("rank:0-3", {"ranks": ["0-3"]}),
        (
            "ssd host:n[1-4]|rank:0",
            {
                "or": [
                    {"and": [{"properties": ["ssd"]}, {"hostlist": ["n[1-4]"]}]},
                    {"ranks": ["0"]},
                ]
            },
        ),
        (
            "(a|b) c",
            {
                "and": [
                    {"or": [{"properties": ["a"]}, {"properties": ["b"]}]},
                    {"properties": ["c"]},
                ]
            },
        ),
        ("'amd-mi50'", {"properties": ["amd-mi50"]}),
        ("'odd:name' host:\"n1\"", {"and": [{"properties": ["odd:name"]}, {"hostlist": ["n1"]}]}),
        ("properties:'a b'", {"properties": ["a b"]}),
        ("nothing", {"properties": ["nothing"]}),  # not the keyword `not`
    ],
)
def test_new_requires(expr, constraint):
    js, _ = new(f"--requires={expr}", "--", "app")
    assert js["attributes"]["system"]["constraints"] == constraint


def test_new_requires_several_times_means_all():
    js, _ = new("--requires", "a|b", "--requires", "c", "--", "app")
    assert js["attributes"]["system"]["constraints"] == {
        "and": [{"or": [{"properties": ["a"]}, {"properties": ["b"]}]}, {"properties": ["c"]}]
    }


@pytest.mark.parametrize(
    "expr,words",
    [
        ("", "empty"),
        ("a |", "ends where a term was expected"),
        ("(a", "the parenthesis at column 1 is never closed"),
        ("a)", "')' at column 2 closes nothing"),
        ("'ab", "the quote ' at column 1 is never closed"),
        ("a!b", "'!' cannot be part of a property"),
        ("color:red", "unknown operator 'color'"),
        ("host:n[1-", "not a valid hostlist"),
        ("rank:3-1", "not a valid rank idset"),
        ("-(a|b)", "negates a single term"),
        ("a,,b", "empty property"),
    ],
)
def test_new_requires_errors(expr, words):
    with pytest.raises(convert.UsageError, match=__import__("re").escape(words)):
        convert.from_command_line([f"--requires={expr}", "--", "app"])


def test_new_with_a_shape():
    js, _ = new("--resources-shape", "node=2/slot=2/core=4", "--", "a")
    assert js["resources"] == [node(2, slot(2, 4))]
    # as flux submit: the shape is the whole request, -n and the like are ignored (noted)
    conv = convert.from_command_line(
        ["--resources-shape", "node=2/slot=3/core", "-n5", "-N1", "--", "a"]
    )
    data = json.loads(json.dumps(__import__("yaml").safe_load(conv.text)))
    assert data["tasks"][0]["count"] == {"per_slot": 1}
    assert [c.message.split(" ")[0] for c in conv.changes[:2]] == ["-N", "-n"]
    # as flux submit: the task names the slot "task", whatever the shape labels it; the RFC
    # rule it breaks (JS307) is a note, since flux-core's ingest accepts it
    conv = convert.from_command_line(["--resources-shape", "slot{work}/core=2", "--", "a"])
    assert conv.ok and "[JS307]" in conv.changes[-1].message
    # not V1: flux submit writes it, ingest rejects it, so jobspec new refuses it
    conv = convert.from_command_line(["--resources-shape", "slot=2+/core", "--", "a"])
    assert not conv.ok and "JS605" in conv.blockers[0].message  # ingest: JS002 there too


def test_new_json_is_for_flux_job_submit():
    conv = convert.from_command_line(["--format", "json", "-n2", "--", "app"])
    assert json.loads(conv.text)["tasks"][0]["command"] == ["app"]
    clean(conv.text, "v1", "json")


@pytest.mark.parametrize(
    "argv,words",
    [
        ([], "give the command"),
        (["--"], "give the command"),
        (["-x", "--", "a"], "needs -N"),
        (["-N3", "-n2", "--", "a"], "more nodes"),
        (["-n-1", "--", "a"], "-n must be at least 1"),
        (["-g", "-1", "--", "a"], "-g must be"),
        (["-t", "soon", "--", "a"], "-t 'soon'"),
        (["-t", "inf", "--", "a"], "finite"),
        (["-t", "-5", "--", "a"], "negative"),
        (["--env", "Z=$1", "--", "a"], "cannot substitute"),
        (["--env", "Z=$JOBSPEC_UNSET_VARIABLE", "--", "a"], "variable not found"),
        (["--env-remove", "/(/", "--", "a"], "not a regular expression"),
        (["--input", "0-3", "--", "a"], "per-task input not supported for submit"),
        (["--rlimit", "bogus", "--", "a"], "no resource limit matches"),
        (["--rlimit", "bogus=1", "--", "a"], "is not a resource limit"),
        (["--resources-json", "missing.json", "--", "a"], "No such file"),
        (
            ["--resources-shape", "slot/core", "--resources-json", "r.json", "--", "a"],
            "mutually exclusive",
        ),
        (["--cwd", "rel", "--", "a"], "absolute"),
        (["--time=5m", "--", "a"], "Flux takes no abbreviation: write --time-limit"),
        (["--node=2", "--", "a"], "Flux takes no abbreviation: write --nodes"),
        (["--add-file=x", "--", "a"], "No such file or directory"),
        (["--cc=1", "--bcc=2", "--", "a"], "not both"),
        (["--cc=1", "--", "a", "{x}"], "a replacement it does not know"),
        (["--setattr", "^k=f", "--", "a"], "file"),
        (["--setattr", "system.duration.x=1", "--", "a"], "not a mapping"),
        (["--dependency", "9bad:x", "--", "a"], "scheme:value"),
        (["--resources-shape", "slot=2{", "--", "a"], "--resources-shape 'slot=2{'"),
        (["--bogus", "--", "a"], "flux submit has no option '--bogus'"),
        (["-N", "two", "--", "a"], "invalid int"),
    ],
)
def test_new_usage_errors(argv, words):
    with pytest.raises(convert.UsageError, match=__import__("re").escape(words)):
        convert.from_command_line(argv)


def test_new_setattr_that_breaks_the_jobspec_is_blocked():
    conv = convert.from_command_line(["--setattr", 'duration="1h"', "--", "a"])
    assert not conv.ok and conv.blockers[0].code == "JS708" and "JS405" in conv.blockers[0].message


# =========================================================================== the CLI
def convert_cli(*args, input=None):
    """`jobspec convert|new` as `python -m jobspec_lsp` runs them."""
    return subprocess.run(
        [sys.executable, "-m", "jobspec_lsp", *map(str, args)],
        input=input,
        capture_output=True,
        timeout=60,
    )


def checked(tmp_path, out: bytes, rules, suffix=".yaml"):
    """Assert `jobspec check --version-rules RULES` passes on a command's output."""
    f = tmp_path / f"out{suffix}"
    f.write_bytes(out)
    proc = run_cli("check", "--version-rules", rules, f)
    assert proc.returncode == 0, proc.stdout.decode()
    return f


def test_cli_convert_to_v1(tmp_path):
    spec14 = own_rfc_file("spec_14", "x").parent
    proc = convert_cli("convert", "--to", "v1", spec14 / "use_case_1.2.yaml")
    assert proc.returncode == 1
    assert proc.stdout.decode().splitlines() == [
        f"{spec14 / 'use_case_1.2.yaml'}:6:7: error[JS701] V1 counts are fixed integers; "
        '{"min": 3, "max": 30, "operator": "+", "operand": 1} lets the scheduler choose among '
        "several counts",
        f"{spec14 / 'use_case_1.2.yaml'}:12:15: error[JS703] in V1 a slot holds cores (and "
        "gpus), not whole nodes (slot>node); the nearest V1 request, node(exclusive)>slot>core, asks for "
        "cores instead",
    ]
    assert "cannot be converted: 2 blockers" in proc.stderr.decode()
    src = tmp_path / "job.yaml"
    src.write_text(CANONICAL)
    proc = convert_cli("convert", "--to", "v1", src)
    assert proc.returncode == 0
    assert f"{src}:2:10: changed: version 999 changed to 1" in proc.stderr.decode()
    assert "# keep me" in proc.stdout.decode()
    checked(tmp_path, proc.stdout, "v1")
    proc = convert_cli("convert", "--to", "v1", "--format", "json", "-q", src)
    assert proc.returncode == 0 and proc.stderr == b""
    checked(tmp_path, proc.stdout, "v1", ".json")
    out = tmp_path / "v1.yaml"
    assert convert_cli("convert", "--to", "v1", src, "-o", out).returncode == 0
    checked(tmp_path, out.read_bytes(), "v1")
    proc = convert_cli("convert", "--to", "v1", "-", input=CANONICAL.encode())
    assert proc.returncode == 0 and proc.stdout == out.read_bytes()


def test_cli_convert_to_canonical_and_psij(tmp_path):
    v1 = rfc_files("spec_25")[0]
    proc = convert_cli("convert", "--to", "canonical", v1)
    assert proc.returncode == 0
    checked(tmp_path, proc.stdout, "canonical")
    proc = convert_cli("convert", "--to", "psij", v1)
    assert proc.returncode == 0 and json.loads(proc.stdout)["resources"]["node_count"] == 4
    psij = tmp_path / "job.json"
    psij.write_bytes(proc.stdout)
    proc = convert_cli("convert", "--from", "psij", psij)
    assert proc.returncode == 0
    checked(tmp_path, proc.stdout, "v1")
    proc = convert_cli("convert", "--from", "psij", "--to", "canonical", psij)
    assert proc.returncode == 0
    checked(tmp_path, proc.stdout, "canonical")
    proc = convert_cli("convert", "--from", "psij", DATA / "lossy.psij.json", "--format", "json")
    assert proc.returncode == 0
    assert proc.stderr.decode().count("warning[JS711]") == 4
    checked(tmp_path, proc.stdout, "v1", ".json")
    proc = convert_cli("convert", "--from", "psij", DATA / "uneven.psij.json")
    assert proc.returncode == 1 and ":3:34: error[JS712] process_count 5" in proc.stdout.decode()
    proc = convert_cli("convert", "--to", "psij", rfc_files("spec_25")[2])
    assert proc.returncode == 1 and "error[JS714]" in proc.stdout.decode()


def test_cli_convert_usage_errors(tmp_path):
    assert convert_cli("convert", tmp_path / "missing.yaml", "--to", "v1").returncode == 2
    assert convert_cli("convert", rfc_files("spec_25")[0]).returncode == 2  # no --to
    assert convert_cli("convert", "--from", "psij", "--to", "psij", "x").returncode == 2
    assert convert_cli("convert", "--to", "v2", "x").returncode == 2
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"\xff\xfe")
    proc = convert_cli("convert", "--to", "v1", bad)
    assert proc.returncode == 2 and "not UTF-8" in proc.stderr.decode()


def test_cli_new(tmp_path):
    proc = convert_cli("new", "-N2", "-n4", "-t", "1h", "--", "app", "--flag")
    assert proc.returncode == 0
    js = data_of(checked(tmp_path, proc.stdout, "v1").read_text())
    assert js["tasks"][0]["command"] == ["app", "--flag"]
    assert js["attributes"]["system"]["duration"] == 3600
    proc = convert_cli("new", "--format", "json", "-n2", "app", "-x")  # -x after the command
    assert json.loads(proc.stdout)["tasks"][0]["command"] == ["app", "-x"]
    checked(tmp_path, proc.stdout, "v1", ".json")
    proc = convert_cli("new", "--resources-shape", "slot=2/node", "--", "a")
    # RFC 25 has no slot>node graph, but flux-core's ingest accepts it: written, with a note
    assert proc.returncode == 0 and "[JS604]" in proc.stderr.decode()
    checked(tmp_path, proc.stdout, "canonical")
    assert convert_cli("new", "-x", "--", "a").returncode == 2
    assert convert_cli("new").returncode == 2
    assert convert_cli("new", "-S", 'duration="1h"', "--", "a").returncode == 1
    assert b"--requires" in convert_cli("new", "-h").stdout


def test_jobspec_script_has_convert_and_new(tmp_path):
    """Through the installed `jobspec` script (cli/main.py registers cli/convert.py's subcommands)."""
    proc = run_cli("convert", "--from", "psij", DATA / "full.psij.json")
    assert proc.returncode == 0
    checked(tmp_path, proc.stdout, "v1")
    proc = run_cli("new", "-N2", "--", "app")
    assert proc.returncode == 0 and data_of(proc.stdout.decode())["resources"][0]["exclusive"]
    proc = run_cli("convert", "--to", "v1", rfc_files("spec_14")[1])
    assert proc.returncode == 1 and "error[JS703]" in proc.stdout.decode()


def _psij(**fields):
    return json.dumps({"executable": "/bin/app", "inherit_environment": False, **fields})


def _wrapped(script, pre=None, post=None, single=False, cwd=None, env=None):
    """The wrapper run as a task runs it: /bin/bash -c WRAPPER psij-launch sh -c SCRIPT."""
    import subprocess

    return subprocess.run(
        ["/bin/bash", "-c", convert.psij_wrapper(pre, post, single), "x", "sh", "-c", script],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
    )


def test_psij_pre_and_post_launch_wrap_the_program_and_keep_its_status(tmp_path):
    conv = convert.from_psij_text(
        _psij(pre_launch="/tmp/pre me.sh", post_launch="/tmp/post.sh", arguments=["a b"])
    )
    cmd = clean(conv.text, "v1")["tasks"][0]["command"]
    assert cmd[:2] == ["/bin/bash", "-c"] and cmd[3:] == ["psij-launch", "/bin/app", "a b"]
    assert cmd[2] == (
        "set -e; source '/tmp/pre me.sh'; set +e; \"$@\"; rc=$?; set -e; source /tmp/post.sh; "
        "exit $rc"
    )
    # as bash runs it (PSI/J's launchers are bash): exports reach the program, its status
    # is the task's, the post-launch script runs after it
    (tmp_path / "pre.sh").write_text("arr=(a b)\nexport FOO=from-pre-${#arr[@]}\n")  # bash
    (tmp_path / "post.sh").write_text("echo post\n")
    got = _wrapped('echo "$FOO"; exit 3', "pre.sh", "post.sh", cwd=tmp_path)
    # (a relative script is found in the job's directory, as bash's source finds it)
    assert (got.stdout, got.returncode) == ("from-pre-2\npost\n", 3)
    # set -e, as in PSI/J's launcher: a failing command in the pre-launch script fails
    # the task before the program starts; a failing post-launch script, the task
    (tmp_path / "bad.sh").write_text("false\nexport FOO=late\n")
    got = _wrapped('echo "$FOO"', "bad.sh", cwd=tmp_path)
    assert (got.stdout, got.returncode) == ("", 1)
    got = _wrapped("echo ran", None, "bad.sh", cwd=tmp_path)
    assert (got.stdout, got.returncode) == ("ran\n", 1)
    # and back: --to psij finds the scripts in the wrapper
    back = json.loads(convert.to_psij(conv.text).text)
    assert (back["pre_launch"], back["post_launch"]) == ("/tmp/pre me.sh", "/tmp/post.sh")
    assert (back["executable"], back["arguments"]) == ("/bin/app", ["a b"])


def test_psij_inherit_environment_copies_the_converting_environment_or_not():
    env = {"HOME": "/home/me", "A": "from-env"}
    inherit = json.dumps({"executable": "/bin/app", "environment": {"A": "own"}})
    conv = convert.from_psij_text(inherit, environ=env)
    assert clean(conv.text, "v1")["attributes"]["system"]["environment"] == {
        "HOME": "/home/me",
        "A": "own",
    }
    assert "the 2 variables of the converting environment are copied" in " ".join(
        c.message for c in conv.changes
    )
    assert [w.code for w in conv.warnings] == []
    no = json.dumps(
        {"executable": "/bin/app", "environment": {"A": "own"}, "inherit_environment": False}
    )
    conv = convert.from_psij_text(no, environ=env)
    assert clean(conv.text, "v1")["attributes"]["system"]["environment"] == {"A": "own"}


def test_psij_single_launcher_starts_one_process_on_the_reserved_slots():
    conv = convert.from_psij_text(_psij(launcher="single", resources={"node_count": 2}))
    js = clean(conv.text, "v1")
    # a task per slot (Flux's job shell needs one on every node), rank 0 the one process
    assert js["resources"][0]["count"] == 2 and js["tasks"][0]["count"] == {"per_slot": 1}
    cmd = js["tasks"][0]["command"]
    assert cmd[:2] == ["/bin/bash", "-c"] and cmd[3:] == ["psij-launch", "/bin/app"]
    for rank, out in (("0", "ran\n"), ("1", "")):
        got = _wrapped("echo ran; exit 4", single=True, env={"FLUX_TASK_RANK": rank})
        assert (got.stdout, got.returncode) == (out, 4 if rank == "0" else 0)
    back = json.loads(convert.to_psij(conv.text).text)
    assert back["launcher"] == "single" and back["executable"] == "/bin/app"
    assert back["resources"]["node_count"] == 2
    # one slot: the process is the task, nothing to wrap
    js = clean(convert.from_psij_text(_psij(launcher="single")).text, "v1")
    assert js["tasks"][0]["command"] == ["/bin/app"]
    assert js["tasks"][0]["count"] == {"total": 1}
    bad = convert.from_psij_text(_psij(launcher="mpirn"))
    assert not bad.ok and "did you mean 'mpirun'?" in bad.blockers[0].message


def test_psij_a_relative_directory_is_relative_to_where_the_job_is_submitted_from():
    conv = convert.from_psij_text(_psij(directory="run/../out"), cwd="/home/me/work")
    assert clean(conv.text, "v1")["attributes"]["system"]["cwd"] == "/home/me/work/out"
    (ch,) = [c for c in conv.changes if "directory" in c.message]
    assert "relative to where the job is submitted from" in ch.message
    # without a submitting directory to resolve it against: an error, as before
    assert not convert.from_psij_text(_psij(directory="out")).ok
    # through the command line: its own directory
    proc = run_cli("convert", "--from", "psij", "-", input=_psij(directory="sub").encode(), cwd="/")
    assert (
        proc.returncode == 0
        and data_of(proc.stdout.decode())["attributes"]["system"]["cwd"] == "/sub"
    )


def test_psij_one_exclusive_process_gets_its_node():
    conv = convert.from_psij_text(_psij(resources={"exclusive_node_use": True}))
    assert conv.warnings == []
    top = clean(conv.text, "v1")["resources"][0]
    assert (top["type"], top["count"], top["exclusive"]) == ("node", 1, True)
    assert any("a process runs on one node" in c.message for c in conv.changes)
    # several processes without a node count: how many nodes is the scheduler's choice,
    # and Flux marks nodes exclusive only with a count
    conv = convert.from_psij_text(_psij(resources={"exclusive_node_use": True, "process_count": 2}))
    assert [w.code for w in conv.warnings] == ["JS711"]
    assert clean(conv.text, "v1")["resources"][0]["type"] == "slot"


def test_psij_an_unset_stdin_is_dev_null():
    conv = convert.from_psij_text(_psij())
    opts = clean(conv.text, "v1")["attributes"]["system"]["shell"]["options"]
    assert opts == {"input": {"stdin": {"type": "file", "path": "/dev/null"}}}
    assert "stdin_path" not in json.loads(convert.to_psij(conv.text).text)
    conv = convert.from_psij_text(_psij(stdin_path="in.txt"))
    opts = clean(conv.text, "v1")["attributes"]["system"]["shell"]["options"]
    assert opts == {"input": {"stdin": {"type": "file", "path": "in.txt"}}}
    assert json.loads(convert.to_psij(conv.text).text)["stdin_path"] == "in.txt"


def test_psij_an_unset_stream_is_discarded_and_templates_are_warned():
    conv = convert.from_psij_text(_psij(stdout_path="/tmp/out-{{id}}.txt"))
    out = clean(conv.text, "v1")["attributes"]["system"]["shell"]["options"]["output"]
    assert out == {
        "stdout": {"type": "file", "path": "/tmp/out-{{id}}.txt"},
        "stderr": {"type": "file", "path": "/dev/null"},
    }
    (w,) = conv.warnings
    assert "template" in w.message and w.code == "JS711"


def test_new_takes_every_flux_submit_option():
    """Issue 22 (in part): `jobspec new` reads flux submit's own option table; options
    that only steer the submission are accepted and said to change nothing."""
    conv = convert.from_command_line(
        ["-N=2", "-xN", "2", "--wait", "-vv", "--quiet", "--urgency=hold", "--", "a", "-n4"]
    )
    assert conv.ok
    js = yaml.safe_load(conv.text)
    assert js["resources"][0]["count"] == 2 and js["tasks"][0]["command"] == ["a", "-n4"]
    said = " ".join(c.message for c in conv.changes)
    assert "--wait steers the submission" in said and "--urgency steers" in said
    with pytest.raises(convert.UsageError, match="per-task input"):  # flux run takes it
        convert.from_command_line(["--input", "0-3", "--", "a"])


def test_new_builds_the_per_resource_and_shell_options():
    js = yaml.safe_load(
        convert.from_command_line(
            ["-N2", "--tasks-per-node=4", "-l", "--output=o", "-o", "mpi=spectrum", "--", "a"]
        ).text
    )
    node = js["resources"][0]
    assert node["exclusive"] is True and node["with"][0]["with"] == [{"type": "core", "count": 1}]
    options = js["attributes"]["system"]["shell"]["options"]
    assert options["per-resource"] == {"type": "node", "count": 4}
    assert options["mpi"] == "spectrum" and options["output"]["stdout"]["label"] is True


def test_new_reads_a_zero_task_count_as_flux_submit_does():
    """flux submit takes -n 0 (and -c 0) as not given: one task of one core."""
    conv = convert.from_command_line(["-n0", "-c0", "--", "a"])
    js = yaml.safe_load(conv.text)
    assert js["resources"][0]["count"] == 1
    assert "--ntasks 0: flux submit takes it as not given" in [c.message for c in conv.changes]


def test_new_begin_time_now_is_the_submission_time():
    """Real material (flux-core's t2272): --begin-time=now."""
    import time

    before = time.time()
    js = yaml.safe_load(convert.from_command_line(["--begin-time=now", "hostname"]).text)
    (dep,) = js["attributes"]["system"]["dependencies"]
    assert dep["scheme"] == "begin-time" and before <= float(dep["value"]) <= time.time()
