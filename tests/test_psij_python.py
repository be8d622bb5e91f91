"""PSI/J conversions against psij-python itself (0.9.11, in a virtualenv of its own:
tests/psij_env.py): every field of its JobSpec, ResourceSpecV1 and JobAttributes is
carried or warned about, never dropped silently; and JobSpecs psij-python writes
convert to jobspec and back to JobSpecs psij-python reads as the same."""

from __future__ import annotations

import json

import pytest
from psij_env import ask

from jobspec_lsp import convert

BASE = {"executable": "/bin/true", "inherit_environment": False}
# a value other than the default for every field psij-python 0.9.11 has
SAMPLES = {
    "JobSpec": {
        "executable": "/bin/echo",
        "arguments": ["a", "b c"],
        "directory": "/tmp",
        "name": "job-name",
        "inherit_environment": True,
        "environment": {"A": "1"},
        "stdin_path": "/tmp/in",
        "stdout_path": "/tmp/out",
        "stderr_path": "/tmp/err",
        "resources": {"node_count": 2},
        "attributes": {"duration": 120},
        "pre_launch": "/tmp/pre.sh",
        "post_launch": "/tmp/post.sh",
        "launcher": "single",
    },
    "ResourceSpecV1": {
        "node_count": 2,
        "process_count": 4,
        "processes_per_node": 2,
        "cpu_cores_per_process": 3,
        "gpu_cores_per_process": 1,
        "exclusive_node_use": True,
        "memory": 1 << 30,
    },
    "JobAttributes": {
        "duration": 90,
        "queue_name": "debug",
        "account": "lab",
        "reservation_id": "resv1",
        "custom_attributes": {"x.y": "z"},
        "project_name": "lab",
    },
}


def _spec(kind: str, field: str) -> dict:
    value = SAMPLES[kind][field]
    if kind == "JobSpec":
        return {**BASE, field: value}
    key = "resources" if kind == "ResourceSpecV1" else "attributes"
    extra = {"node_count": 2} if field == "exclusive_node_use" else {}
    return {**BASE, key: {field: value, **extra}}


def test_every_psij_field_is_carried_or_warned():
    fields = ask({"fields": True})
    cases = [(kind, f) for kind, names in fields.items() for f in names]
    assert len(cases) >= 25, fields  # the three classes, whole
    for kind, names in fields.items():
        assert set(names) <= set(SAMPLES[kind]), (
            f"a new {kind} field: {set(names) - set(SAMPLES[kind])}"
        )
    texts = ask({"serialize": [_spec(k, f) for k, f in cases] + [BASE]})
    baseline = convert.from_psij_text(texts[-1], environ={"HOME": "/h"})
    assert baseline.ok
    for (kind, field), text in zip(cases, texts[:-1]):
        conv = convert.from_psij_text(text, environ={"HOME": "/h"})
        assert conv.ok, (field, [b.message for b in conv.blockers])
        carried = conv.text != baseline.text
        warned = [w for w in conv.warnings if field in text[w.start : w.end]]
        assert carried or warned, f"{kind}.{field} is dropped silently"
        if not carried:
            assert warned[0].code == "JS711" and field in warned[0].message


ROUND_TRIP = [
    {"executable": "/bin/hostname"},
    {"executable": "/bin/echo", "arguments": ["x", "y z"], "name": "echo"},
    {"executable": "/bin/app", "resources": {"process_count": 4}},
    {
        "executable": "/bin/app",
        "resources": {"node_count": 2, "processes_per_node": 3, "cpu_cores_per_process": 2},
    },
    {"executable": "/bin/app", "resources": {"node_count": 1, "exclusive_node_use": True}},
    {"executable": "/bin/app", "resources": {"process_count": 2, "gpu_cores_per_process": 1}},
    {"executable": "/bin/app", "directory": "/tmp", "environment": {"A": "1", "B": "two"}},
    {
        "executable": "/bin/app",
        "stdin_path": "/tmp/in",
        "stdout_path": "/tmp/out",
        "stderr_path": "/tmp/err",
    },
    {"executable": "/bin/app", "stdout_path": "/tmp/only-out"},
    {
        "executable": "/bin/app",
        "attributes": {"duration": 3600, "queue_name": "batch", "account": "lab"},
    },
    {"executable": "/bin/app", "pre_launch": "/tmp/pre.sh"},
    {"executable": "/bin/app", "pre_launch": "/tmp/p r e.sh", "post_launch": "/tmp/post.sh"},
    {"executable": "/bin/app", "launcher": "single", "resources": {"process_count": 3}},
]


@pytest.mark.parametrize("spec", ROUND_TRIP, ids=range(len(ROUND_TRIP)))
def test_psij_to_jobspec_and_back_is_the_same_job(spec):
    spec = {"inherit_environment": False, "attributes": {"duration": 600}, **spec}
    (text,) = ask({"serialize": [spec]})
    there = convert.from_psij_text(text)
    assert there.ok, [b.message for b in there.blockers]
    back = convert.to_psij(there.text)
    assert back.ok, [b.message for b in back.blockers]
    # psij-python reads both files, its own and ours (its reader takes its own "600.0 s"
    # as 0 seconds, so the two are compared as it reads them)
    theirs, ours = ask({"load": [text, back.text]})
    assert "error" not in ours and "error" not in theirs, (ours, theirs)
    want, got = json.loads(theirs["text"]), json.loads(ours["text"])
    # the duration as meant (psij-python misreads its own file's "600.0 s" as 0 s)
    seconds = spec["attributes"]["duration"]
    want.setdefault("attributes", {}).pop("duration", None)
    if seconds != 600:  # psij-python leaves its default out
        want["attributes"]["duration"] = f"{float(seconds)} s"
    # what the jobspec states where PSI/J left a default
    for d in (want, got):
        res = d.setdefault("resources", {"__version": 1})
        res.setdefault("cpu_cores_per_process", 1)
        if "node_count" in res:
            res.setdefault(
                "processes_per_node",
                res.pop("process_count", res["node_count"]) // res["node_count"],
            )
            res.pop("process_count", None)
        else:
            res.setdefault("process_count", 1)
        d.setdefault("name", d["executable"])
    assert got == want
