"""What running a job in real Flux shows about the rules that are not visible at
submission: the file archive (RFC 37) is unpacked by the job shell when the job starts."""

from __future__ import annotations

import json

import pytest

from jobspec_lsp.rules.analysis import check


def _job(entry: dict) -> dict:
    return {
        "version": 1,
        "resources": [
            {"type": "slot", "count": 1, "label": "task", "with": [{"type": "core", "count": 1}]}
        ],
        "tasks": [
            {
                "command": ["sh", "-c", 'cat "$FLUX_JOB_TMPDIR/f.txt"'],
                "slot": "task",
                "count": {"per_slot": 1},
            }
        ],
        "attributes": {"system": {"duration": 60, "cwd": "/tmp", "files": {"f.txt": entry}}},
    }


@pytest.mark.parametrize(
    "entry,code,flux_says",
    [
        ({"mode": 33188, "size": 3, "encoding": "utf-8", "data": "hi\n"}, None, None),
        (
            {"mode": 0o644, "size": 3, "encoding": "utf-8", "data": "hi\n"},
            "JS527",
            "unknown file type",
        ),
        ({"mode": 33188, "size": 2, "encoding": "utf-8", "data": "hi\n"}, "JS528", "Too much data"),
        ({"mode": 33188, "size": 3, "encoding": "base64", "data": "aGkK"}, None, None),
    ],
)
def test_file_entries_as_the_job_shell_unpacks_them(flux, entry, code, flux_says):
    js = _job(entry)
    found = {d.code for d in check(json.dumps(js), language="json") if d.severity == 1}
    assert found == ({code} if code else set())
    sub = flux.run("job", "submit", input=json.dumps(js))
    assert sub.returncode == 0, sub.stderr
    run = flux.run("job", "attach", sub.stdout.strip(), timeout=120)
    if flux_says is None:
        assert run.returncode == 0 and run.stdout == "hi\n", run.stderr
    else:
        assert run.returncode != 0 and flux_says in run.stderr, run.stderr
