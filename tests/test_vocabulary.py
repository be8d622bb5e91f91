"""The vocabulary is the one declaration of jobspec keys: the rules, completion, hover,
the formatter's key order and the exported schemas all agree with it, mapping by
mapping, for canonical and V1 jobspec."""

import json

import pytest

from jobspec_lsp.features import completion, hover
from jobspec_lsp.fmt import format as fmt
from jobspec_lsp.jobspec import schema_export, vocabulary
from jobspec_lsp.jobspec.document import parse
from jobspec_lsp.rules.analysis import check

BASE = """version: {version}
resources:
  - type: node
    count: 1
    with:
      - type: slot
        count: 1
        label: task
        with:
          - type: core
            count: {count}
tasks:
  - command: [app]
    slot: task
    count: {task_count}
attributes:
  system:
    duration: 60
    dependencies:
      - {{scheme: afterok, value: "1"}}
    constraints: {{properties: [ssd]}}
    files:
      f.txt: {{mode: 33188, size: 3, encoding: utf-8, data: "hi\\n"}}
  user: {{}}
"""

# where, in BASE, a mapping of each kind opens, as (text before the cursor, indent)
PLACES = {
    "root": ("version: {version}\n", ""),
    "vertex": ("          - type: core\n", "            "),
    "count": ("            count: {count}\n", "              "),
    "task": ("    slot: task\n", "    "),
    "task.count": ("    count: {task_count}\n", "      "),
    "attributes": ("attributes:\n", "  "),
    "system": ("    duration: 60\n", "    "),
}
PRESENT = {
    "root": {"version", "resources", "tasks", "attributes"},
    "vertex": {"type", "count"},
    "count": {"min"},
    "task": {"command", "slot", "count"},
    "task.count": {"per_slot"},
    "attributes": {"system", "user"},
    "system": {"duration", "dependencies", "constraints", "files"},
}
RULE_KINDS = ("root", "vertex", "task", "task.count", "attributes", "system", "constraint", "file")


def base(version=999, count="1", task_count="{per_slot: 1}"):
    return BASE.format(version=version, count=count, task_count=task_count)


def with_cursor(kind, version):
    count = "\n              min: 1" if kind == "count" else "1"
    task_count = "\n      per_slot: 1" if kind == "task.count" else "{per_slot: 1}"
    text = base(version, count, task_count)
    anchor, indent = PLACES[kind]
    anchor = anchor.format(version=version, count=count, task_count=task_count)
    if kind == "count":
        anchor = "              min: 1\n"
    if kind == "task.count":
        anchor = "      per_slot: 1\n"
    at = text.index(anchor) + len(anchor)
    return text[:at] + indent + "\n" + text[at:], at + len(indent)


@pytest.mark.parametrize("kind", sorted(PLACES))
@pytest.mark.parametrize("version", [999, 1])
def test_completion_offers_the_vocabulary(kind, version):
    text, cursor = with_cursor(kind, version)
    offered = {c.label for c in completion.complete(text, cursor) if c.kind == "key"}
    expected = set(vocabulary.keys(kind)) - PRESENT[kind]
    if version == 1:
        vtype = "core" if kind == "vertex" else None
        expected &= set(vocabulary.v1_keys(kind, vtype)) | {
            k.name for k in vocabulary.MAPPINGS[kind] if k.flux_core_writes
        }
    assert offered == expected


@pytest.mark.parametrize("kind", RULE_KINDS)
def test_the_rules_know_exactly_the_vocabulary(kind):
    """Every declared key is accepted where it belongs, and a key that is not declared
    is reported there."""
    from jobspec_lsp.rules import attributes, constraints, files, structure, tasks

    known = {
        "root": structure.TOP_KEYS,
        "vertex": structure.VERTEX_KEYS,
        "task": tasks.TASK_KEYS,
        "task.count": tasks.COUNT_KEYS,
        "attributes": attributes.ATTRIBUTE_KEYS,
        "system": attributes.SYSTEM_KEYS,
        "constraint": constraints.OPERATORS,
        "file": files.ENTRY_KEYS,
    }[kind]
    assert tuple(known) == vocabulary.keys(kind)
    assert set(vocabulary.required(kind)) <= set(known)


def test_the_rules_report_an_undeclared_key_in_each_mapping():
    for kind, anchor in (
        ("root", "attributes:\n"),
        ("vertex", "          - type: core\n"),
        ("task", "    slot: task\n"),
        ("system", "    duration: 60\n"),
    ):
        indent = {"root": "", "vertex": "            ", "task": "    ", "system": "    "}[kind]
        text = (
            base().replace(anchor, anchor + indent + "zzz_undeclared: 1\n", 1)
            if kind != "root"
            else base() + "zzz_undeclared: 1\n"
        )
        found = [d for d in check(text) if "zzz_undeclared" in d.message]
        assert len(found) == 1, (kind, [d.message for d in check(text)])


@pytest.mark.parametrize("kind", sorted(PLACES))
def test_hover_shows_each_key_documentation(kind):
    for k in vocabulary.MAPPINGS[kind]:
        if k.name in PRESENT[kind]:
            continue  # (inserted again it would be a duplicate key)
        text, cursor = with_cursor(kind, 999)
        text = text[:cursor] + f"{k.name}: 1" + text[cursor:]
        h = hover.hover(parse(text), cursor + 1)
        assert h is not None and k.doc in h.markdown, (kind, k.name)


def test_the_formatter_orders_keys_as_declared():
    for kind, order in fmt.ORDER.items():
        assert order == vocabulary.keys(kind)


def _properties(node):
    """Every (name, property schema) pair in a JSON Schema, wherever it is."""
    if isinstance(node, dict):
        for name, prop in (node.get("properties") or {}).items():
            yield name, prop
            yield from _properties(prop)
        for k, v in node.items():
            if k != "properties":
                yield from _properties(v)
    elif isinstance(node, list):
        for v in node:
            yield from _properties(v)


@pytest.mark.parametrize("which", ["canonical", "v1"])
def test_every_schema_property_is_documented_from_the_vocabulary(which):
    schema = json.loads(schema_export.schema_text(which))
    docs = {k.name: k.doc for keys in vocabulary.MAPPINGS.values() for k in keys}
    props = list(_properties(schema))
    assert len(props) > 40
    for name, prop in props:
        assert prop.get("description"), name
        assert prop.get("markdownDescription"), name
        if name in docs:
            assert prop["markdownDescription"] in {
                k.doc for keys in vocabulary.MAPPINGS.values() for k in keys if k.name == name
            }


def test_hover_on_the_top_level_keys():
    text = base()
    for k in vocabulary.MAPPINGS["root"]:
        h = hover.hover(parse(text), text.index(f"{k.name}:") + 1)
        assert h is not None and k.doc in h.markdown
